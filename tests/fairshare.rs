//! The fairshare family and the hybrid fair start time (Leung, Sabin & Sadayappan 2010) on
//! hand-made traces whose schedules are worked out in the comments.

mod common;

use schedlab::engine::Outcome;
use schedlab::fairstart::FairStart;
use schedlab::metrics::Metrics;
use schedlab::policy::fairshare::{Decay, Usage};
use schedlab::run::{configure, run_one, Settings};
use schedlab::trace::{parse, Trace, TraceOptions};

/// An SWF text from `(submit, runtime, procs, estimate, user)` rows, jobs numbered from 1.
fn swf(machine: u32, jobs: &[(i64, i64, u32, i64, i32)]) -> Trace {
    let mut s = format!("; MaxProcs: {machine}\n");
    for (i, (submit, run, procs, est, user)) in jobs.iter().enumerate() {
        s.push_str(&format!("{} {submit} -1 {run} {procs} -1 -1 {procs} {est} -1 1 {user} 1 -1 1 -1 -1 -1\n", i + 1));
    }
    parse(s.as_bytes(), &TraceOptions::default()).expect("trace parses")
}

/// Job `i`'s first promised start, or -1.
fn reserved(out: &Outcome, i: usize) -> i64 {
    out.observed.promises.as_ref().expect("promises observed")[i]
}

/// Every submission's fair start time.
fn fair_starts(out: &Outcome) -> &[FairStart] {
    out.observed.fair_starts.as_deref().expect("fair start times observed")
}

fn run(trace: &Trace, policy: &str, settings: &[&str]) -> (Outcome, Metrics) {
    let s = common::observing("promises", settings);
    let cfg = configure(policy, &s).expect("policy configures").remove(0);
    let (out, res) = run_one(trace, &cfg, &s);
    (out, res.metrics)
}

fn starts(out: &Outcome) -> Vec<i64> {
    out.records.iter().map(|r| r.start).collect()
}

#[test]
fn usage_is_charged_while_running_and_decays_every_period() {
    // User 1 runs job 1 on 2 processors from 0 to 1000: 2000 processor-seconds by t = 1000.
    let t = swf(4, &[(0, 1000, 2, 1000, 1), (0, 10, 1, 10, 2)]);
    let mut u = Usage::new(&t, Decay { factor: 0.5, period_s: 86_400 });
    let a = u.user_of(0);
    u.start(0, 2, 0);
    assert_eq!(u.usage(a, 500), 1000.0);
    u.stop(0, 2, 1000);
    assert_eq!(u.usage(a, 1000), 2000.0);
    assert_eq!(u.usage(a, 86_399), 2000.0);
    // Halved at each boundary, 24 h after the first submission.
    assert_eq!(u.usage(a, 86_400), 1000.0);
    assert_eq!(u.usage(a, 3 * 86_400 + 5), 250.0);
    assert_eq!(u.usage(u.user_of(1), 3 * 86_400 + 5), 0.0);

    // A job running across a boundary: the part before it decays, the part after does not.
    let mut u = Usage::new(&t, Decay { factor: 0.5, period_s: 100 });
    u.start(0, 2, 50);
    // 2 x 50 = 100 before the boundary at 100, halved to 50, then 2 x 20 after it.
    assert_eq!(u.usage(a, 120), 90.0);
    // Looked at later only: the same value, whatever times it was looked at before.
    let mut v = Usage::new(&t, Decay { factor: 0.5, period_s: 100 });
    v.start(0, 2, 50);
    assert_eq!(v.usage(a, 120), u.usage(a, 120));
}

#[test]
fn the_queue_runs_in_fairshare_order_ties_by_arrival() {
    // 4 processors. Job 1 (user 1) runs 0-1000 on all of them: user 1 has 4000 by then.
    // Job 2 (user 1) arrives at 10, job 3 (user 2) at 20, job 4 (user 3) at 30, each on all 4
    // processors for 100 s. At 1000 users 2 and 3 have no usage: job 3 goes first (it arrived
    // before job 4), then job 4, and job 2 of the heavy user last, although it arrived first.
    let t = swf(4, &[(0, 1000, 4, 1000, 1), (10, 100, 4, 100, 1), (20, 100, 4, 100, 2), (30, 100, 4, 100, 3)]);
    let (out, _) = run(&t, "cplant24.nomax.all", &[]);
    assert_eq!(starts(&out), vec![0, 1200, 1000, 1100]);
    // FCFS order would run them 2, 3, 4.
    let (out, _) = run(&t, "conservative", &[]);
    assert_eq!(starts(&out), vec![0, 1000, 1100, 1200]);
}

#[test]
fn decay_can_reverse_the_order() {
    // Job 1 (user 1) uses 4 x 1000 = 4000 on day 0. Day 1: job 2 (user 2) runs 1 processor
    // from 86400 to 89400 (3000). Job 3 (user 2) and job 4 (user 1) wait for all 4 processors.
    // At 89400, with decay 0.5 user 1 has 2000 < 3000: job 4 first. Without decay (decay=1)
    // user 1 has 4000 > 3000: job 3 first.
    let d = 86_400;
    let t = swf(4, &[(0, 1000, 4, 1000, 1), (d, 3000, 1, 3000, 2), (d + 10, 100, 4, 100, 2), (d + 20, 100, 4, 100, 1)]);
    let (out, _) = run(&t, "cplant24.nomax.all", &[]);
    assert_eq!(starts(&out), vec![0, d, d + 3100, d + 3000]);
    let (out, _) = run(&t, "cplant24.nomax.all", &["decay=1"]);
    assert_eq!(starts(&out), vec![0, d, d + 3000, d + 3100]);
}

/// A wide job of a user with usage (user 1) and narrow jobs of another user that keep part of
/// the machine busy, so that without a reservation the wide job waits:
///
/// - job 1 (user 1) runs 0-1000 on all 4 processors: user 1 has 4000 processor-seconds;
/// - job 2, the wide one (user 1, 4 processors, 1000 s) arrives at 500;
/// - jobs 3-6 (user 2, 2 processors, 1000 s each) arrive at 900, 1500, 1900 and 2400.
///
/// Job 3 starts at 1000, job 4 at 1500, job 5 at 2000 (job 3's processors): 2 processors are
/// never free together for job 2. With a starvation threshold of half an hour, job 2 enters the
/// starvation queue at 2300 and is reserved at 3000 (job 4 ends at 2500, job 5 at 3000); job 6
/// would end at 3500, after that, and 0 processors are spare: it waits, job 2 starts at 3000
/// and job 6 after it at 4000. Without the starvation queue job 6 starts at 2500, and job 2 at
/// 3500, when jobs 5 and 6 are done.
fn starving() -> Trace {
    swf(
        4,
        &[
            (0, 1000, 4, 1000, 1),
            (500, 1000, 4, 1000, 1),
            (900, 1000, 2, 1000, 2),
            (1500, 1000, 2, 1000, 2),
            (1900, 1000, 2, 1000, 2),
            (2400, 1000, 2, 1000, 2),
        ],
    )
}

#[test]
fn a_starving_job_enters_the_starvation_queue_and_its_head_is_reserved() {
    let t = starving();
    let (out, _) = run(&t, "cplant24.nomax.all", &["starve_h=0.5"]);
    assert_eq!(starts(&out), vec![0, 3000, 1000, 1500, 2000, 4000]);
    assert_eq!(reserved(&out, 1), 3000, "the head's reservation, made when it entered at 2300");
    let (out, _) = run(&t, "cplant24.nomax.all", &["starve_h=off"]);
    assert_eq!(starts(&out), vec![0, 3500, 1000, 1500, 2000, 2500]);
    // With the default 24 h threshold job 2 never waits that long here.
    let (out, _) = run(&t, "cplant24.nomax.all", &[]);
    assert_eq!(starts(&out)[1], 3500);
}

#[test]
fn heavy_users_are_kept_out_of_the_starvation_queue() {
    // At 2300 user 1 has 4000 processor-seconds and user 2 has 2000 (job 3) + 1600 (job 4) +
    // 600 (job 5) = 4200: user 1's share is 4000 / 8200 = 0.49. With heavy_share 0.4 user 1 is
    // heavy and job 2 stays out of the starvation queue (as with no queue at all); with 0.6 it
    // is not heavy and enters as before.
    let t = starving();
    let (out, _) = run(&t, "cplant24.nomax.fair", &["starve_h=0.5", "heavy_share=0.4"]);
    assert_eq!(starts(&out), vec![0, 3500, 1000, 1500, 2000, 2500]);
    let (out, _) = run(&t, "cplant24.nomax.fair", &["starve_h=0.5", "heavy_share=0.6"]);
    assert_eq!(starts(&out), vec![0, 3000, 1000, 1500, 2000, 4000]);
    // starvation=all ignores the share.
    let (out, _) = run(&t, "cplant24.nomax.all", &["starve_h=0.5", "heavy_share=0.4"]);
    assert_eq!(starts(&out)[1], 3000);
}

#[test]
fn a_maximum_runtime_splits_a_job_into_segments_submitted_one_after_another() {
    // 2 processors, a limit of 1 h. Job 1 (user 1, both processors, 9000 s, estimate 10000)
    // runs 0-3600, then its second segment is submitted at 3600, when job 2 (user 2, 100 s,
    // waiting since 10) is there too: user 2 has no usage and goes first, 3600-3700. Segment 2
    // runs 3700-7300 and segment 3, the 1800 s left, 7300-9100.
    let t = swf(2, &[(0, 9000, 2, 10_000, 1), (10, 100, 2, 100, 2)]);
    let (out, m) = run(&t, "cplant24.72max.all", &["max_runtime_h=1"]);
    assert_eq!(starts(&out), vec![0, 3600]);
    assert_eq!((out.records[0].end, out.records[0].segments), (9100, 3));
    let segs: Vec<(u32, i64, i64, i64, i64)> =
        out.segments.iter().map(|s| (s.no, s.submit, s.start, s.end, s.work)).collect();
    assert_eq!(segs, vec![(0, 0, 0, 3600, 3600), (1, 3600, 3700, 7300, 3600), (2, 7300, 7300, 9100, 1800)]);
    // Per job: two jobs, turnarounds 9100 and 3690. Per submission: four, 3600, 3700, 1800, 3690.
    assert_eq!((m.jobs, m.submissions, m.segmented_jobs), (2, 4, 1));
    assert_eq!(m.avg_response_s, (9100.0 + 3690.0) / 2.0);
    assert_eq!(m.avg_response_submitted_s, (3600.0 + 3700.0 + 1800.0 + 3690.0) / 4.0);
    // Every submission has a fair start.
    let fst: Vec<(u32, u32, i64)> = fair_starts(&out).iter().map(|f| (f.job, f.segment, f.submit)).collect();
    assert_eq!(fst, vec![(0, 0, 0), (1, 0, 10), (0, 1, 3600), (0, 2, 7300)]);
    // Without the limit job 1 runs whole and job 2 waits for it.
    let (out, m) = run(&t, "cplant24.nomax.all", &[]);
    assert_eq!(starts(&out), vec![0, 9000]);
    assert_eq!((out.records[0].segments, m.submissions), (0, 2));
}

#[test]
fn a_segment_is_planned_with_the_estimate_left() {
    // Conservative, limit 1 h, 2 processors. Job 1 (estimate and runtime 5000) runs its first
    // segment 0-3600. Job 2 (user 2, 100 s, at 100) is reserved at 3600 and runs 3600-3700.
    // Segment 2, submitted at 3600, is planned with the 1400 s of estimate left and reserved
    // behind job 2: 3700-5100. Job 3 (user 3, at 3700) is reserved at 5100, not at 7300 as a
    // segment planned with the whole limit would have it.
    let t = swf(2, &[(0, 5000, 2, 5000, 1), (100, 100, 2, 100, 2), (3700, 100, 2, 100, 3)]);
    let (out, _) = run(&t, "cons.72max", &["max_runtime_h=1"]);
    assert_eq!(starts(&out), vec![0, 3600, 5100]);
    assert_eq!(out.records[0].end, 5100);
    assert_eq!(reserved(&out, 2), 5100);
}

/// 4 processors. Job 1 (user 1) on all of them, estimate 100 but done at 50; job 2 (user 1) and
/// job 3 (user 2) each need all 4 for 100 s, submitted at 10 and 20.
fn early() -> Trace {
    swf(4, &[(0, 50, 4, 100, 1), (10, 100, 4, 100, 1), (20, 100, 4, 100, 2)])
}

#[test]
fn conservative_improves_reservations_in_fairshare_order() {
    // On arrival job 2 is reserved at 100 and job 3 at 200. Job 1 ends at 50: in fairshare order
    // job 3 (user 2, no usage) tries first but job 2 still holds 100-200; job 2 moves to 50 and
    // starts; a second sweep moves job 3 to 150. Reservations are upper bounds: job 3 keeps its
    // place behind job 2 although its user has less usage.
    let (out, _) = run(&early(), "cons.nomax", &[]);
    assert_eq!(starts(&out), vec![0, 50, 150]);
    assert_eq!((reserved(&out, 1), reserved(&out, 2)), (100, 200));
}

#[test]
fn dynamic_reservations_are_rebuilt_in_fairshare_order() {
    // At 50 every reservation is dropped and handed out again in fairshare order: job 3 (user 2)
    // first, at 50; job 2 (user 1, 4 x 50 = 200 processor-seconds) after it, at 150.
    let (out, _) = run(&early(), "consdyn.nomax", &[]);
    assert_eq!(starts(&out), vec![0, 150, 50]);
    // No promise is made while nothing can start (the machine is full until 50), so job 2's
    // first is 150, made at 50.
    assert_eq!(reserved(&out, 1), 150);
}

#[test]
fn the_fair_start_time_by_hand() {
    // 4 processors, users 1-4, one job each, estimates exact.
    // - job 1: 3 processors, 0-1000.
    // - job 2 (t=10): 4 processors, 500 s. Nothing waits; 1 processor is free now and 3 at 1000:
    //   FST 1000.
    // - job 3 (t=20): 1 processor, 100 s. Job 2 waits and is ahead (both users have no usage,
    //   job 2 arrived first): the list schedule puts job 2 on all four processors at 1000, to
    //   1500, and job 3 at 1500 (the processor free until 1000 is a hole it may not use). It
    //   starts at once: no miss.
    // - job 4 (t=30): 1 processor, 2000 s. Job 3 runs (to 120), job 2 waits: job 2 at 1000,
    //   job 4 at 1500. The policy starts job 4 at 120, when job 3 ends (no guarantee), so job 2
    //   cannot have all four processors until 2120: job 2 misses its fair start by 1120.
    let t = swf(4, &[(0, 1000, 3, 1000, 1), (10, 500, 4, 500, 2), (20, 100, 1, 100, 3), (30, 2000, 1, 2000, 4)]);
    let (out, m) = run(&t, "cplant24.nomax.all", &[]);
    let got: Vec<FairStart> = fair_starts(&out).to_vec();
    let want = [(0, 0, 0), (1, 1000, 2120), (2, 1500, 20), (3, 1500, 120)];
    assert_eq!(got.len(), 4);
    for (f, (job, fst, start)) in got.iter().zip(want) {
        assert_eq!((f.job, f.fst, f.start), (job, fst, start));
    }
    assert_eq!(m.fst_miss_share, Some(0.25));
    assert_eq!(m.avg_fst_miss_s, Some(1120.0 / 4.0));
    assert_eq!(m.fst_miss_share_jobs, Some(0.25));
    // Other families measure it only when asked; the fair start does not depend on the policy's
    // own decisions before the arrival, so EASY's first three agree here.
    let (out, m) = run(&t, "easy", &[]);
    assert!(out.observed.fair_starts.is_none() && m.fst_miss_share.is_none());
    let (out, _) = run(&t, "easy", &["fst=on"]);
    let fst: Vec<i64> = fair_starts(&out).iter().map(|f| f.fst).collect();
    assert_eq!(fst[..3], [0, 1000, 1500]);
}

#[test]
fn the_nine_policies_finish_every_job_of_sandia_ross() {
    let bytes = common::read_shared("traces/Sandia-Ross-2001-1.1-cln.swf.gz");
    let mut opts = TraceOptions::default();
    opts.set("from", "2002-12-01").unwrap();
    opts.set("to", "2003-07-14").unwrap();
    let t = parse(&bytes, &opts).expect("Sandia-Ross parses");
    // 12,134 jobs with an estimate, and 48 without whose runtime stands in.
    assert_eq!(t.jobs.len(), 12182);
    assert_eq!(t.report.altered.get("estimate_from_runtime"), Some(&48));
    let s = Settings::default();
    for name in schedlab::studies::leung::POLICIES {
        let cfg = configure(name, &s).unwrap().remove(0);
        let mut o = s.engine;
        o.placements = true;
        let out = schedlab::run::simulate_configured(&t, &cfg, &o, &mut |_| {});
        assert!(out.records.iter().all(|r| r.end >= 0), "{name}: every job ends");
        schedlab::check::schedule(&t, &out).unwrap_or_else(|e| panic!("{name}: {e}"));
        // One fair start per submission, each start at or after its submission.
        let subs = schedlab::metrics::submissions(&t, &out);
        assert_eq!(fair_starts(&out).len(), subs.len(), "{name}");
        for f in fair_starts(&out) {
            assert!(f.start >= f.submit && f.fst >= f.submit, "{name}: {f:?}");
        }
        for s in &subs {
            assert!(s.start >= s.submit && s.end - s.start <= 72 * 3600 || !name.contains("72max"), "{name}: {s:?}");
        }
    }
}
