//! The decision log on hand-made traces, each entry worked out by hand in the comments, and
//! the explanations built from it. Jobs are named by their number in the trace; `Jn` is job n,
//! index n - 1 in the log.

mod common;

use schedlab::engine::decision::{Entry, LogWindow};
use schedlab::engine::{Decision, Why};
use schedlab::explain::examples::{find, EXAMPLES};
use schedlab::explain::{decision_log, explain_at, explain_job};
use schedlab::metrics::schedule_hash;
use schedlab::run::{configure, simulate_configured, Settings};
use schedlab::trace::{parse, Trace, TraceOptions};

/// The trace of a worked example.
fn example(name: &str) -> Trace {
    parse(find(name).expect("example exists").swf.as_bytes(), &TraceOptions::default()).expect("example parses")
}

/// The whole decision log of `policy` with `settings` on `trace`.
fn log(trace: &Trace, policy: &str, settings: &[&str]) -> Vec<Entry> {
    log_among(trace, policy, policy, settings)
}

/// The log of `policy` configured among `policies` (settings go to the families present).
fn log_among(trace: &Trace, policy: &str, policies: &str, settings: &[&str]) -> Vec<Entry> {
    let s = Settings::parse(settings).expect("settings parse");
    let configs = configure(policies, &s).expect("policies configure");
    let cfg = configs.iter().find(|c| c.policy == policy).expect("policy among them");
    let (_, said, truncated) = decision_log(trace, cfg, &s, LogWindow::default());
    assert_eq!(truncated, None);
    said.into_iter().map(|s| s.entry).collect()
}

/// The decisions logged at time `t`, in order.
fn at(entries: &[Entry], t: i64) -> Vec<Decision> {
    entries.iter().filter(|e| e.time == t).map(|e| e.decision.clone()).collect()
}

/// Job index of job number `n` in these traces (numbered from 1 in submit order).
fn j(n: u32) -> u32 {
    n - 1
}

/// EASY on Tsafrir et al.'s Fig. 1: the shadow time and a backfill that ends exactly at it.
#[test]
fn easy_shadow_time_and_backfill_before_it() {
    // Machine 8. t=0: J1 4p [0,3) and J2 2p [0,6) start; 2 free.
    // t=1: J3 (6p x 4 s) needs 6, 2 free: it waits, and is reserved at 3 (J1's end frees 4 +
    //      2 = 6). The shadow time is 3; at 3 J2 still holds 2 and J3 takes 6: 0 extra.
    //      J4 (2p x 2 s) fits in the 2 free and ends at 1 + 2 = 3 <= 3: backfilled before the
    //      shadow time.
    let entries = log(&example("tsafrir-fig1"), "easy", &[]);
    assert_eq!(
        at(&entries, 1),
        vec![
            Decision::Queue { order: vec![j(3), j(4)], free: 2 },
            Decision::Waits { job: j(3), why: Why::TooWide { procs: 6, free: 2 } },
            Decision::Reserved { job: j(3), start: 3, was: None, procs: 6 },
            Decision::Shadow { job: j(3), shadow: 3, extra: 0 },
            Decision::Started { job: j(4), why: Why::BeforeShadow { end: 3, shadow: 3 } },
            Decision::Plan { reservations: vec![(j(3), 3)] },
        ]
    );
    // t=3: J1 and J4 end, 6 free: J3's reservation is due.
    assert!(at(&entries, 3).contains(&Decision::Started { job: j(3), why: Why::Reservation }));
}

/// EASY with job 4 one second longer: it would push job 3's reservation back by 1 s.
#[test]
fn easy_candidate_that_would_delay_the_reservation() {
    // As above, but J4 runs 3 s: [1,4) overlaps J3's [3,7) where 0 are free. With J4 booked,
    // 6 processors are next free together at 4 (J4's end): J3 would start 1 s later.
    let text = find("tsafrir-fig1").unwrap().swf.replace("4 1 -1 2 2 -1 -1 2 2", "4 1 -1 3 2 -1 -1 2 3");
    let entries = log(&common::trace(&text), "easy", &[]);
    assert!(at(&entries, 1).contains(&Decision::Waits { job: j(4), why: Why::WouldDelay { job: j(3), by: 1 } }));
}

/// EASY's extra processors (Kettimuthu et al. Fig. 2.2): a job that outlives the shadow time
/// starts because it fits in them, and the next job then starts later.
#[test]
fn easy_extra_processors() {
    // Machine 10. t=0: J1 4p [0,40), J2 4p [0,80); 2 free.
    // t=1: J3 8p: reserved at 80 (J2's end: 10 free), shadow 80; at 80 J3 takes 8 of 10: 2 extra.
    //      J4 10p: 2 free, too wide. J5 2p x 120 s ends at 121 > 80 but 2 <= 2 extra: started.
    let entries = log(&example("kettimuthu-fig2"), "easy", &[]);
    let t1 = at(&entries, 1);
    assert!(t1.contains(&Decision::Shadow { job: j(3), shadow: 80, extra: 2 }));
    assert!(t1.contains(&Decision::Waits { job: j(4), why: Why::TooWide { procs: 10, free: 2 } }));
    assert!(t1.contains(&Decision::Started { job: j(5), why: Why::ExtraProcessors { end: 121, extra: 2 } }));
    // t=80: J3 starts; J4 becomes first and is reserved at 121, when J5 ends (J3 ends at 100).
    assert!(at(&entries, 80).contains(&Decision::Reserved { job: j(4), start: 121, was: None, procs: 10 }));
}

/// Conservative backfilling (Kettimuthu et al. Fig. 2.1): a reservation for every job; one
/// that fits now but would delay a reservation is reserved after it.
#[test]
fn conservative_reserves_every_job() {
    // Machine 10, J1 4p [0,40), J2 4p [0,80). t=1:
    //   J3 8p x 20: earliest 80 -> [80,100).  J4 10p x 30: earliest 100 -> [100,130).
    //   J5 2p x 120: 2 free now, but [1,121) overlaps [100,130) where 0 are free: with J5
    //   booked, J4's earliest 10 free is 121: a delay of 21 s. Reserved at 130 instead.
    let entries = log(&example("kettimuthu-fig2"), "conservative", &[]);
    let t1 = at(&entries, 1);
    assert!(t1.contains(&Decision::Reserved { job: j(3), start: 80, was: None, procs: 8 }));
    assert!(t1.contains(&Decision::Reserved { job: j(4), start: 100, was: None, procs: 10 }));
    assert!(t1.contains(&Decision::Waits { job: j(5), why: Why::WouldDelay { job: j(4), by: 21 } }));
    assert!(t1.contains(&Decision::Reserved { job: j(5), start: 130, was: None, procs: 2 }));
    assert!(t1.contains(&Decision::Plan { reservations: vec![(j(3), 80), (j(4), 100), (j(5), 130)] }));
}

/// Conservative compression: a job that ends early moves the reservations behind it earlier.
#[test]
fn conservative_compression_moves_reservations_earlier() {
    // Machine 10. J1 10p runs 10 s of an estimated 100. J2 5p x 50 at t=1: reserved [100,150).
    // J3 10p x 50 at t=2: reserved [150,200). t=10: J1 ends 90 s early. Compression in queue
    // order: J2's earliest is now 10, so it starts; J3's is 60 (J2's end): moved from 150.
    let rows = [(0, 10, 10, 100), (1, 50, 5, 50), (2, 50, 10, 50)];
    let entries = log(&common::trace(&common::swf(10, &rows)), "conservative", &[]);
    let t10 = at(&entries, 10);
    assert!(t10.contains(&Decision::Started { job: j(2), why: Why::Reservation }));
    assert!(t10.contains(&Decision::Reserved { job: j(3), start: 60, was: Some(150), procs: 10 }));
}

/// FCFS: the jobs behind a blocked first job wait for it, even one that would fit.
#[test]
fn fcfs_jobs_wait_behind_the_first() {
    // Tsafrir Fig. 1 under FCFS: at t=1 J3 needs 6 of 2 free; J4 would fit but waits.
    let entries = log(&example("tsafrir-fig1"), "fcfs", &[]);
    let t1 = at(&entries, 1);
    assert!(t1.contains(&Decision::Waits { job: j(3), why: Why::TooWide { procs: 6, free: 2 } }));
    assert!(t1.contains(&Decision::Waits { job: j(4), why: Why::BehindFirst { first: j(3) } }));
}

/// Relaxed backfilling (Ward et al. Fig. 2): the window is omega x hpwait.
#[test]
fn relaxed_window_is_omega_times_hpwait() {
    // Machine 8. J1 6p [0,100). At t=1, J2 (8p) is first and could start at 100: hpwait 99 s.
    // omega 2: window 198 s. J3 (60 s) and J4 (150 s) fit in the 2 free and are no longer
    // than the window: both start, though J4 delays J2 to 151. Then nothing is free.
    // t=61 (J3 ends): hpwait is 151 - 61 = 90, window 180; J5 (600 s) exceeds it.
    let entries = log(&example("ward-omega"), "relaxed", &["omega=2"]);
    let t1 = at(&entries, 1);
    assert!(t1.contains(&Decision::Window { job: j(2), hpwait: 99, omega: 2.0, window: Some(198) }));
    assert!(t1.contains(&Decision::Started { job: j(3), why: Why::WithinWindow { length: 60, window: Some(198) } }));
    assert!(t1.contains(&Decision::Started { job: j(4), why: Why::WithinWindow { length: 150, window: Some(198) } }));
    let t61 = at(&entries, 61);
    assert!(t61.contains(&Decision::Window { job: j(2), hpwait: 90, omega: 2.0, window: Some(180) }));
    assert!(t61.contains(&Decision::Waits { job: j(5), why: Why::BeyondWindow { length: 600, window: 180 } }));
}

/// Multiple-queue backfilling (Lawson & Smirni Fig. 2): borrowing, a pivot, rule c and
/// speculative runs.
#[test]
fn multiqueue_pivots_borrowing_and_speculation() {
    // Machine 9, 3 queues of 3 processors. Estimates below 1,000 s go to queue 1.
    // t=0: J1 (6p) is queue 1's pivot and the machine has room now: it starts, borrowing 3.
    //      J2 (5p) is the next pivot: 3 free, too wide; reserved at 300, when J1 ends.
    //      J3 (2p x 100) is not a pivot; queue 1 has no idle processors left, but with 2
    //      borrowed it delays no pivot (J2 needs 5 of the 9 at 300): rule c.
    // t=1: J4 and J5 (estimates 3,000 s > 1,000) run speculatively for at most 180 s. J4 is
    //      booked at once (1 processor free); J5 at 100, when J3 ends.
    // t=280: J5, started at 100 and still running, is killed at its limit and queues again.
    let entries = log(&example("lawson-borrow"), "mq-backfill", &[]);
    let t0 = at(&entries, 0);
    assert!(t0.contains(&Decision::Started { job: j(1), why: Why::Pivot { partition: 1, start: 0 } }));
    assert!(t0.contains(&Decision::Started { job: j(3), why: Why::Partition { partition: 1, rule: 'c', borrowed: 2 } }));
    assert!(t0.contains(&Decision::Plan { reservations: vec![(j(2), 300)] }));
    assert!(at(&entries, 1).contains(&Decision::Started { job: j(4), why: Why::Speculative { limit: 180 } }));
    assert!(at(&entries, 100).contains(&Decision::Started { job: j(5), why: Why::Speculative { limit: 180 } }));
    assert!(at(&entries, 280).contains(&Decision::Killed { job: j(5), checkpointed: false }));
}

/// Selective suspension (Kettimuthu et al. ch. 3): a waiting job suspends a running one once
/// its xfactor is SF (2) times higher, and the suspended job resumes when it ends.
#[test]
fn selective_suspension_with_xfactors() {
    // Machine 4. J1 4p x 1000 starts at 0 with xfactor (0 + 1000) / 1000 = 1.
    // J2 4p x 100 arrives at 10: xfactor (w + 100) / 100 exceeds 2 x 1 once w > 100, checked
    // every 60 s from the first submission: at t=120 (w = 110) it is 2.1.
    // J2 runs [120,220); then J1 resumes, its xfactor then (120 + 100) / 200 = 1.1.
    let entries = log(&example("kettimuthu-ss"), "ss", &[]);
    let t120 = at(&entries, 120);
    let suspended = t120.iter().find_map(|d| match d {
        Decision::Suspended { job, xfactor, for_job, for_xfactor } => Some((*job, *xfactor, *for_job, *for_xfactor)),
        _ => None,
    });
    let (job, x, for_job, for_x) = suspended.expect("a suspension at 120");
    assert_eq!((job, for_job), (j(1), j(2)));
    assert!((x - 1.0).abs() < 1e-9 && (for_x - 2.1).abs() < 1e-9, "xfactors {x} and {for_x}");
    assert!(t120.contains(&Decision::Started { job: j(2), why: Why::Preempting { xfactor: for_x } }));
    assert!(at(&entries, 220).iter().any(|d| matches!(d, Decision::Resumed { job, .. } if *job == j(1))));
}

/// Fairshare with a starvation queue (Leung et al. II.A): a job that waited past the threshold
/// goes first and gets a reservation.
#[test]
fn fairshare_starvation_queue() {
    // Machine 4, starve_h = 0.01 (36 s). J1 (user 1) runs [0,100) on all 4. J2 (user 1, 4p)
    // waits from 1; J3 and J4 (user 2, 2p each) from 2 and 3, and come first in fairshare
    // order (user 1 has used the machine). At 37 J2 has waited 36 s: it enters the
    // starvation queue, first, and is reserved at 100 (J1's end); at 100 it starts first.
    let entries = log(&example("leung-starvation"), "cplant24.nomax.all", &["starve_h=0.01"]);
    let t3 = at(&entries, 3);
    assert!(t3.contains(&Decision::Queue { order: vec![j(3), j(4), j(2)], free: 0 }));
    let t37 = at(&entries, 37);
    assert!(t37.contains(&Decision::Starving { job: j(2), waited: 36 }));
    assert!(t37.contains(&Decision::Queue { order: vec![j(2), j(3), j(4)], free: 0 }));
    assert!(t37.contains(&Decision::Reserved { job: j(2), start: 100, was: None, procs: 4 }));
    assert!(at(&entries, 100).contains(&Decision::Started { job: j(2), why: Why::First }));
}

/// A prediction corrected because the job outlived it (Tsafrir et al. section 4).
#[test]
fn prediction_correction_is_logged() {
    // overrun=run keeps J1's 200 s past its 100 s estimate. easy-pcor plans it with the estimate;
    // at 100 it is still running: corrected by +1 min to 160, then by +15 min to 1,060.
    let opts = TraceOptions { overrun: schedlab::trace::Overrun::Run, ..Default::default() };
    let trace = parse(common::swf(4, &[(0, 200, 4, 100)]).as_bytes(), &opts).unwrap();
    let entries = log(&trace, "easy-pcor", &[]);
    assert!(at(&entries, 100).contains(&Decision::Corrected { job: 0, prediction: 160 }));
    assert!(at(&entries, 160).contains(&Decision::Corrected { job: 0, prediction: 1060 }));
}

/// The log keeps to its window and says where it stopped.
#[test]
fn the_log_is_bounded() {
    let trace = example("kettimuthu-fig2");
    let s = Settings::default();
    let cfg = configure("conservative", &s).unwrap();
    let (_, said, truncated) = decision_log(&trace, &cfg[0], &s, LogWindow { from: 40, to: 100, ..Default::default() });
    assert!(said.iter().all(|d| (40..=100).contains(&d.entry.time)));
    assert_eq!(truncated, None);
    let (_, said, truncated) = decision_log(&trace, &cfg[0], &s, LogWindow { max_items: 6, ..Default::default() });
    assert!(said.len() <= 6);
    assert_eq!(truncated, Some(1), "pass 1's entries do not fit after pass 0's");
    let window = LogWindow { jobs: Some((4, 4)), ..Default::default() };
    let (_, said, _) = decision_log(&trace, &cfg[0], &s, window);
    assert!(said.iter().all(|d| d.entry.decision.job().is_none_or(|x| x == 4)));
    assert!(said.iter().any(|d| d.entry.decision.job() == Some(4)));
}

/// `explain_job` on the worked examples: what each sentence says, checked against the schedule.
#[test]
fn explain_job_tells_the_story() {
    let trace = example("kettimuthu-fig2");
    let s = Settings::default();
    let easy = configure("easy", &s).unwrap();
    // J4 under EASY waits for J5, backfilled ahead of it; without J5 it would start at 100
    // (J3's end), 21 s earlier.
    let e = explain_job(&trace, &easy[0], &s, 4).unwrap();
    assert_eq!((e.submit, e.start, e.end), (1, 121, 151));
    let text = e.sentences.join("\n");
    assert!(text.contains("started at t=121, after waiting 2 min"), "{text}");
    assert!(text.contains("At t=80: Job 4 gets a reservation for 10 processors at t=121."), "{text}");
    assert!(text.contains("It started when job 5 ended, freeing 2 processors."), "{text}");
    assert!(text.contains("without job 5 it would have started 21 s earlier, so that job delayed it"), "{text}");
    // J4 under conservative: J5 was not started ahead of it.
    let cons = configure("conservative", &s).unwrap();
    let e = explain_job(&trace, &cons[0], &s, 4).unwrap();
    assert_eq!(e.start, 100);
    assert!(e.sentences.iter().any(|l| l == "No job submitted after it started before it."), "{:?}", e.sentences);
    // A job that is not in the trace.
    let err = explain_job(&trace, &easy[0], &s, 99).unwrap_err();
    assert!(err.contains("no job 99") && err.contains("numbered 1 to 5"), "{err}");
}

/// `explain_at`: the machine and the queue at one moment, with the last pass's decisions.
#[test]
fn explain_at_shows_the_moment() {
    let trace = example("kettimuthu-fig2");
    let s = Settings::default();
    let cfg = configure("conservative", &s).unwrap();
    // At 50: J1 has ended (40), J2 runs; J3, J4, J5 wait with reservations 80, 100, 130; the
    // last pass was at 40.
    let m = explain_at(&trace, &cfg[0], &s, 50);
    assert_eq!(m.pass_time, Some(40));
    assert_eq!(m.running.iter().map(|r| r.job).collect::<Vec<_>>(), vec![2]);
    assert_eq!(m.free, 6);
    let waiting: Vec<(u64, Option<i64>)> = m.waiting.iter().map(|w| (w.job, w.reservation)).collect();
    assert_eq!(waiting, vec![(3, Some(80)), (4, Some(100)), (5, Some(130))]);
}

/// Every worked example runs under each of its policies with its settings, and every policy
/// says why each job of it started.
#[test]
fn every_example_explains_every_job() {
    for ex in EXAMPLES {
        let trace = example(ex.name);
        for p in ex.policies {
            let entries = log_among(&trace, p, &ex.policies.join(","), ex.settings);
            for i in 0..trace.jobs.len() as u32 {
                assert!(
                    entries.iter().any(|e| matches!(e.decision, Decision::Started { job, .. } if job == i)),
                    "{} under {p}: no reason for job {}'s start",
                    ex.name,
                    i + 1
                );
            }
        }
    }
}

/// The first 3,000 jobs of KTH-SP2: fast, and every family has work to do on them.
fn kth_start() -> Trace {
    let text = common::gunzip(&common::read_shared("traces/KTH-SP2-1996-2.1-cln.swf.gz"));
    let lines: Vec<&str> = std::str::from_utf8(&text).unwrap().lines().collect();
    let mut cut = String::new();
    let mut jobs = 0;
    for l in lines {
        if !l.starts_with(';') {
            jobs += 1;
            if jobs > 3000 {
                break;
            }
        }
        cut.push_str(l);
        cut.push('\n');
    }
    common::trace(&cut)
}

/// Runs `policies` with `settings` on `trace` with and without the decision log, and checks
/// that the log changes no schedule (a run that explains takes every step of every pass; a
/// plain one may take the policies' shortcuts).
fn log_changes_no_schedule(trace: &Trace, policies: &str, settings: &[&str]) {
    let s = Settings::parse(settings).expect("settings parse");
    for cfg in configure(policies, &s).unwrap() {
        let plain = simulate_configured(trace, &cfg, &s.engine, &mut |_| {});
        let logged = schedlab::run::simulate_explained(trace, &cfg, &s.engine, LogWindow::default());
        assert_eq!(
            schedule_hash(trace, &plain),
            schedule_hash(trace, &logged),
            "{} {settings:?}: the log changed the schedule",
            cfg.policy
        );
        assert_eq!(
            plain.notes, logged.notes,
            "{} {settings:?}: the log changed what the run says of itself",
            cfg.policy
        );
        assert!(logged.observed.decisions.as_ref().is_some_and(|d| !d.entries.is_empty()), "{}", cfg.policy);
        assert!(plain.observed.decisions.is_none());
    }
}

/// Attaching the decision log changes no schedule, for any of the 37 policies, on a real trace.
#[test]
fn the_log_changes_no_schedule() {
    log_changes_no_schedule(&kth_start(), "all", &[]);
}

/// Nor for conservative backfilling planning with SJF reservations, predictions and their
/// corrections, or per-event passes, whose plans change in more ways between passes.
#[test]
fn the_log_changes_no_conservative_schedule() {
    let trace = kth_start();
    for settings in [
        &["reserve=sjf"][..],
        &["predict=history", "correction=gradual"],
        &["predict=history", "backfill_end=estimate", "correction=double"],
        &["reserve=sjf", "predict=history", "correction=exponential"],
        &["passes=event"],
    ] {
        log_changes_no_schedule(&trace, "conservative", settings);
    }
}

/// Nor for EASY and two reservations, whose quiet passes also need the machine unchanged:
/// with predictions never corrected it may turn down a start the profile allows, and with
/// per-event passes it frees a job's processors before the policy is told of its end.
#[test]
fn the_log_changes_no_easy_schedule() {
    let trace = kth_start();
    for settings in [
        &["predict=history", "correction=none"][..],
        &["passes=event", "predict=history", "correction=none"],
        &["k=2", "factor=0.5", "correction=none", "backfill_end=estimate"],
        &["reserve=sjf", "passes=event"],
    ] {
        log_changes_no_schedule(&trace, "easy", settings);
    }
}

/// A lesson (the Learn view's data) cuts the log into steps with the state after each pass.
#[test]
fn lesson_steps_hold_the_state_after_each_pass() {
    use schedlab::explain::lesson::lessons;
    let ex = find("tsafrir-fig1").unwrap();
    let policies = vec!["fcfs".to_string(), "easy".to_string()];
    let got = lessons(ex.swf, &policies, &[]).unwrap();
    assert!(got.problems.is_empty());
    let easy = &got.lessons[1];
    assert_eq!(easy.policy, "easy");
    // Passes at 0, 1, 3, 6 and 7 (every end and arrival time).
    assert_eq!(easy.steps.iter().map(|s| s.time).collect::<Vec<_>>(), vec![0, 1, 3, 6, 7]);
    let t1 = &easy.steps[1];
    // After the pass at 1: J3 waits with its reservation at 3; J1, J2 and J4 hold 8 processors.
    assert_eq!(t1.waiting, vec![2]);
    assert_eq!(t1.free, 0);
    assert_eq!(t1.shadow, Some((3, 0)));
    assert_eq!(t1.bookings.len(), 1);
    let b = &t1.bookings[0];
    assert_eq!((b.job, b.start, b.end), (2, 3, 7));
    // Its 6 processors are those planned free by 3: J1's 4 and J4's 2, not J2's (busy to 6).
    let rows: u32 = b.rows.iter().map(|r| r.1).sum();
    assert_eq!(rows, 6);
    let j2 = easy.blocks.iter().find(|x| x.job == 1).unwrap();
    for &(f, c) in &b.rows {
        for &(g, d) in &j2.rows {
            assert!(f + c <= g || g + d <= f, "the reservation overlaps job 2's processors");
        }
    }
    // An example's settings that none of the chosen policies takes are left out: omega with
    // FCFS and EASY runs, and is refused for no policy.
    let ward = find("ward-omega").unwrap();
    let settings: Vec<String> = ward.settings.iter().map(|s| s.to_string()).collect();
    assert!(lessons(ward.swf, &policies, &settings).is_ok());
    // A trace too large for a lesson is refused with the limit named.
    let big = common::swf(4, &vec![(0, 10, 1, 10); 501]);
    let err = lessons(&big, &policies, &[]).unwrap_err();
    assert!(err.contains("at most 500 jobs"), "{err}");
}

/// Nor for Slurm's scheduler and EASY on every resource on a cluster, whose main passes and
/// backfill cycles go on from the last ones when only submissions came between: with each
/// setting that decides whether a cycle may (the caps, the window, the resolution against
/// the interval, the age floor, the order).
#[test]
fn the_log_changes_no_slurm_schedule_on_a_cluster() {
    use schedlab::workload::{cluster_log, generate, WorkloadOptions};
    for (machine, load, seed) in [(256, 0.9, 3), (512, 0.95, 4)] {
        let spec = format!("model=lublin99,machine={machine},jobs=700,load={load},estimate=tef,seed={seed}");
        let w = generate(&WorkloadOptions::parse(&spec).expect("spec"));
        let text = cluster_log::sacct(&w, seed);
        let opts = TraceOptions { cluster: Some(cluster_log::slurm_conf(machine)), ..TraceOptions::default() };
        let trace = parse(text.as_bytes(), &opts).expect("the generated log parses");
        assert!(trace.cluster.is_some());
        for settings in [
            &[][..],
            &["bf_max_job_test=5"],
            &["bf_max_job_user=1"],
            &["bf_max_job_part=2"],
            &["bf_max_job_start=1"],
            &["bf_window=60"],
            &["bf_resolution=1"],
            &["bf_resolution=300", "bf_interval=60"],
            &["bf_interval=0"],
            &["priority=basic"],
            &["bf_min_age_reserve=600"],
            &["bf_min_prio_reserve=5000"],
        ] {
            log_changes_no_schedule(&trace, "slurm,easy-cluster", settings);
        }
    }
}
