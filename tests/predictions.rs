//! Runtime predictions (Tsafrir, Etsion & Feitelson 2007) on hand-made traces whose
//! schedules are worked out in the comments: history prediction, the alarm that corrects an
//! outlived prediction and reschedules (Fig. 5), every correction strategy including corrections
//! beyond the estimate, SJF reservations, the section 4 variant and the heel-and-toe count.

mod common;

use schedlab::engine::observe::{Followed, Prediction};
use schedlab::engine::{simulate, Outcome};
use schedlab::metrics::summarize;
use schedlab::policy::Configured;
use schedlab::trace::{parse, Trace, TraceOptions};

/// SWF from `(submit, runtime, procs, estimate, user)` rows, jobs numbered from 1.
fn swf(machine: u32, jobs: &[(i64, i64, u32, i64, i32)]) -> String {
    let mut s = format!("; MaxProcs: {machine}\n");
    for (i, (submit, run, procs, est, user)) in jobs.iter().enumerate() {
        s.push_str(&format!("{} {submit} -1 {run} {procs} -1 -1 {procs} {est} -1 1 {user} 1 -1 1 -1 -1 -1\n", i + 1));
    }
    s
}

fn trace_with(text: &str, opts: &TraceOptions) -> Trace {
    parse(text.as_bytes(), opts).expect("trace parses")
}

/// Runs `name` with every observer attached (then `settings`).
fn run(trace: &Trace, name: &str, settings: &[&str]) -> Outcome {
    let s = common::observing("all", settings);
    let cfg = Configured::new(name, &s.policy).expect("policy configures");
    let mut policy = cfg.build(trace);
    simulate(trace, policy.as_mut(), &s.engine)
}

/// What the observers saw of job `i`: its first reservation, its predictions, its heel-and-toe record.
fn reserved(out: &Outcome, i: usize) -> i64 {
    out.observed.promises.as_ref().expect("promises observed")[i]
}

fn prediction(out: &Outcome, i: usize) -> Prediction {
    out.observed.predictions.as_ref().expect("predictions observed")[i]
}

fn followed(out: &Outcome, i: usize) -> Followed {
    out.observed.heel_toe.as_ref().expect("heel and toe observed")[i]
}

fn starts(out: &Outcome) -> Vec<i64> {
    out.records.iter().map(|r| r.start).collect()
}

/// Fig. 5: a job runs longer than predicted. Machine of 4.
/// - Jobs 1 and 2 (user 1) run 50 s each on the whole machine: 0-50, 50-100. User 1's history
///   is now [50, 50], so job 3 (user 1, 2 procs, estimate 1000, runs 500) is predicted 50 s.
/// - Job 4 (user 2, 4 procs, estimate 100) arrives at 101 and waits: EASY+ reserves 150 (job
///   3's predicted end), EASY reserves 1100 (its estimated end).
/// - Job 5 (user 3, 2 procs, estimate 200, no history) arrives at 102. Under EASY it ends
///   (302) before 1100 and is backfilled at once. Under EASY+ it would end after 150 and no
///   processor is left over there, so it waits (Fig. 5 middle).
/// - At 150 the alarm fires: job 3 outlived its prediction, which is corrected to its
///   estimate (1000, planned end 1100); job 4's reservation moves to 1100 and job 5 is
///   backfilled at 150 (Fig. 5 right). Job 3 ends at 600 and job 4 starts then.
/// - Without correction the scheduler keeps believing job 3 ended at 150: job 4 "could start"
///   at once but cannot, so backfilling stops (Fig. 5 middle) until job 3 really ends at 600;
///   job 4 then runs 600-700 and job 5 follows at 700.
#[test]
fn fig5_alarm_corrects_the_prediction_and_reopens_backfilling() {
    let t = common::trace(&swf(
        4,
        &[
            (0, 50, 4, 1000, 1),
            (50, 50, 4, 1000, 1),
            (100, 500, 2, 1000, 1),
            (101, 100, 4, 100, 2),
            (102, 100, 2, 200, 3),
        ],
    ));
    assert_eq!(starts(&run(&t, "easy", &[])), vec![0, 50, 100, 600, 102]);
    let plus = run(&t, "easy+", &[]);
    assert_eq!(starts(&plus), vec![0, 50, 100, 600, 150]);
    assert_eq!(reserved(&plus, 3), 150, "job 4's first reservation is job 3's predicted end");
    assert_eq!(prediction(&plus, 2).corrections, 1);
    // Job 3: predicted 50 from submission (100) to 150, accuracy 50/500; then 1000 until its
    // end at 600, accuracy 500/1000: (0.1 x 50 + 0.5 x 450) / 500 = 0.46.
    assert!((prediction(&plus, 2).accuracy - 0.46).abs() < 1e-12, "{}", prediction(&plus, 2).accuracy);
    assert_eq!(starts(&run(&t, "easy+", &["correction=none"])), vec![0, 50, 100, 600, 700]);
    // The same with one pass per event (pyss's order).
    assert_eq!(starts(&run(&t, "easy+", &["passes=event"])), vec![0, 50, 100, 600, 150]);
}

/// Every correction strategy, with corrections beyond the estimate. Machine of 1. Job 1
/// (user 1) runs 0-100; job 2 (user 1, estimate 600, runs 1000 with overrun=run) starts at 100
/// predicted 100 s (its user's last job). Predictions, each in effect until the next alarm:
/// - estimate: 100 until 200, 600 until 700, then gradually: 660 until 760, 1560 to the end (1100);
/// - gradual: 100, 160 (+1 min) until 260, 1060 capped at the estimate 600 until 700, then
///   660 until 760 and 1560;
/// - exponential (+20%): 100, 120, 144, 172, 206, 247, 296, 355, 426, 511, then 600 (capped),
///   660, 1560, each in effect until start + prediction;
/// - double: 100, 200, 400, 800, 1600;
/// - none: 100 throughout.
#[test]
fn correction_strategies_including_beyond_the_estimate() {
    let opts = TraceOptions { overrun: schedlab::trace::Overrun::Run, ..TraceOptions::default() };
    let t = trace_with(&swf(1, &[(0, 100, 1, 600, 1), (100, 1000, 1, 600, 1)]), &opts);
    let weighted = |preds: &[i64]| {
        // Each prediction p is in effect from start + previous prediction to start + p (the
        // first from submission at 100); the last until the end at 1100.
        let mut from = 100;
        let mut sum = 0.0;
        for (i, &p) in preds.iter().enumerate() {
            let to = if i + 1 == preds.len() { 1100 } else { 100 + p };
            sum += schedlab::engine::accuracy(p, 1000) * (to - from) as f64;
            from = to;
        }
        sum / 1000.0
    };
    let cases: &[(&str, &[i64])] = &[
        ("estimate", &[100, 600, 660, 1560]),
        ("gradual", &[100, 160, 600, 660, 1560]),
        ("exponential", &[100, 120, 144, 172, 206, 247, 296, 355, 426, 511, 600, 660, 1560]),
        ("double", &[100, 200, 400, 800, 1600]),
        ("none", &[100]),
    ];
    for (strategy, preds) in cases {
        let c = format!("correction={strategy}");
        let out = run(&t, "easy+", &[&c]);
        assert_eq!(starts(&out), vec![0, 100], "{strategy}");
        let r = prediction(&out, 1);
        assert_eq!(r.corrections as usize, preds.len() - 1, "{strategy}: corrections");
        let want = weighted(preds);
        assert!((r.accuracy - want).abs() < 1e-9, "{strategy}: accuracy {} want {want}", r.accuracy);
    }
}

/// A correction reschedules waiting jobs. Machine of 1, overrun=run. Job 1 (estimate 100)
/// runs 1000 s; job 2 (estimate 50) arrives at 10 and is promised 100, job 1's estimated
/// end. EASY-PCOR corrects job 1 at 100 (+1 min: 160) and at 160 (+15 min: 1060); job 2
/// starts when job 1 really ends, at 1000: delayed 900 s beyond its first reservation.
#[test]
fn easy_pcor_grows_predictions_past_the_estimate() {
    let opts = TraceOptions { overrun: schedlab::trace::Overrun::Run, ..TraceOptions::default() };
    let t = trace_with(&swf(1, &[(0, 1000, 1, 100, 1), (10, 50, 1, 50, 2)]), &opts);
    let out = run(&t, "easy-pcor", &[]);
    assert_eq!(starts(&out), vec![0, 1000]);
    assert_eq!(reserved(&out, 1), 100);
    assert_eq!(prediction(&out, 0).corrections, 2);
    let m = summarize(&t, &out, &Default::default());
    assert_eq!((m.delayed_pct, m.delay_avg_s, m.reserved_pct), (Some(50.0), Some(900.0), Some(50.0)));
    assert_eq!(m.corrections_avg, Some(1.0));
}

/// SJF hands the reservation to the shortest waiting job. Machine of 4, every job on the
/// whole machine: job 1 runs 0-100; job 2 (500 s) and job 3 (50 s) wait. EASY keeps arrival
/// order (job 2 at 100, job 3 at 600); SJF runs job 3 first (100-150), then job 2 at 150.
#[test]
fn sjf_reserves_for_the_shortest_job() {
    let t = common::trace(&swf(4, &[(0, 100, 4, 100, 1), (1, 500, 4, 500, 2), (2, 50, 4, 50, 3)]));
    assert_eq!(starts(&run(&t, "easy", &[])), vec![0, 100, 600]);
    assert_eq!(starts(&run(&t, "sjf", &[])), vec![0, 150, 100]);
    assert_eq!(starts(&run(&t, "sjf-perf", &[])), vec![0, 150, 100]);
}

/// Section 4's variant backfills only jobs whose user-estimated end is before the
/// reservation. Machine of 4. Jobs 1 (user 1, 50 s) and 2 (300 s) share the machine from 0;
/// job 3 (4 procs) waits with a reservation at 300. Job 4 (user 1, 2 procs, estimate 1000,
/// runs 500) arrives at 60, predicted 50 s from user 1's last job.
/// - EASY++ backfills it (60-110 planned, before 300); at 110 its prediction is corrected to
///   1000 and job 3's reservation moves out; job 3 starts when job 4 ends, at 560.
/// - Tested with its estimate (`backfill_end=estimate`: ends 1060, after 300) job 4 waits:
///   job 3 starts on time at 300, job 4 at 400. So do EASY and PERFECT++ (500 s), and the
///   `easy++-guarded` preset, whose section 4 predictor falls back to the estimate here (user 1's
///   last job had another estimate).
#[test]
fn guarded_variant_backfills_by_estimated_end() {
    let t =
        common::trace(&swf(4, &[(0, 50, 2, 50, 1), (0, 300, 2, 300, 2), (1, 100, 4, 100, 3), (60, 500, 2, 1000, 1)]));
    let pp = run(&t, "easy++", &[]);
    assert_eq!(starts(&pp), vec![0, 0, 560, 60]);
    assert_eq!(reserved(&pp, 2), 300);
    let cases: [(&str, &[&str]); 4] =
        [("easy++", &["backfill_end=estimate"]), ("easy++-guarded", &[]), ("easy", &[]), ("perfect++", &[])];
    for (p, settings) in cases {
        let out = run(&t, p, settings);
        assert_eq!(starts(&out), vec![0, 0, 300, 400], "{p}");
        assert_eq!(reserved(&out, 2), 300, "{p}");
    }
}

/// Heel and toe (Fig. 8, Table 10). Machine of 4, exact estimates. Jobs 1 (2 procs, 6 s) and
/// 2 (2 procs, 4 s) start at 0; job 3 (4 procs) arrives at 1: with true runtimes it could
/// start at 6. X2 plans with doubled runtimes and reserves 12, so job 4 (2 procs, 4 s) is
/// backfilled at 4 (its earliest start becomes 8: thief 1) and job 5 (2 procs, 3 s) at 6 (9:
/// thief 2); job 3 starts at 9, stalled 3 s. EASY reserves 6 and starts it then; no thief.
#[test]
fn heel_and_toe_counts_thieves_under_x2() {
    let t = common::trace(&swf(
        4,
        &[(0, 6, 2, 6, 1), (0, 4, 2, 4, 2), (1, 10, 4, 10, 3), (2, 4, 2, 4, 4), (3, 3, 2, 3, 5)],
    ));
    let x2 = run(&t, "x2", &[]);
    assert_eq!(starts(&x2), vec![0, 0, 9, 4, 6]);
    assert_eq!((followed(&x2, 2).perfect_start, followed(&x2, 2).thefts, reserved(&x2, 2)), (6, 2, 12));
    let m = summarize(&t, &x2, &Default::default());
    assert_eq!((m.stalled_pct, m.stall_avg_s, m.thieves_avg), (Some(100.0), Some(3.0), Some(2.0)));
    let easy = run(&t, "easy", &[]);
    assert_eq!(starts(&easy), vec![0, 0, 6, 16, 16]);
    assert!(easy.observed.heel_toe.as_ref().unwrap().iter().all(|f| f.thefts == 0));
    let m = summarize(&t, &easy, &Default::default());
    assert_eq!(m.stalled_pct, Some(0.0));
    // Exact predictions everywhere: accuracy 100% for EASY here and for X2 50%.
    assert_eq!(m.accuracy_pct, Some(100.0));
    assert!((summarize(&t, &x2, &Default::default()).accuracy_pct.unwrap() - 50.0).abs() < 1e-9);
}

/// Propagation: a waiting job's prediction follows its user's newest history. Machine of 2.
/// Job 1 (user 1, 2 procs) holds the machine 0-100; jobs 2 and 3 (user 1, 1 proc, estimate
/// 1000, run 30 s) wait from 10, predicted 1000 (no history yet). At 100 job 1 ends (history: 100):
/// with propagation their predictions become 100 (accuracy counted from then on), without
/// they stay 1000. Both start at 100 either way.
#[test]
fn propagation_updates_waiting_jobs() {
    let t = common::trace(&swf(2, &[(0, 100, 2, 100, 1), (10, 30, 1, 1000, 1), (10, 30, 1, 1000, 1)]));
    let off = run(&t, "easy+", &[]);
    let on = run(&t, "easy+", &["propagation=on"]);
    assert_eq!(starts(&off), vec![0, 100, 100]);
    assert_eq!(starts(&on), vec![0, 100, 100]);
    // Job 2: from 10 to 100 predicted 1000 (accuracy 0.03), then 1000 or 100 until 130.
    let want_off = (0.03 * 90.0 + 0.03 * 30.0) / 120.0;
    let want_on = (0.03 * 90.0 + 0.3 * 30.0) / 120.0;
    assert!((prediction(&off, 1).accuracy - want_off).abs() < 1e-12);
    assert!((prediction(&on, 1).accuracy - want_on).abs() < 1e-12);
}

/// Perfect predictions are exact: no corrections and accuracy 100% on a real trace; with FCFS
/// reservations no job starts after its first reservation (under SJF a shorter arrival may
/// take a job's reservation, so there it can).
#[test]
fn perfect_predictions_never_need_correction() {
    let bytes = common::read_shared("traces/KTH-SP2-1996-2.1-cln.swf.gz");
    let t = parse(&bytes, &TraceOptions::default()).expect("trace parses");
    for p in ["perfect", "perfect++", "sjf-perf"] {
        let out = run(&t, p, &[]);
        let m = summarize(&t, &out, &Default::default());
        assert_eq!(m.corrections_avg, Some(0.0), "{p}");
        assert!((m.accuracy_pct.unwrap() - 100.0).abs() < 1e-9, "{p}: {:?}", m.accuracy_pct);
        if p != "sjf-perf" {
            assert_eq!(m.delayed_pct, Some(0.0), "{p}: exact plans never delay a reservation");
        }
    }
}

/// A correction can push reservations later; they are then handed out again in priority
/// order, not compressed one by one. Machine of 10, every job on the whole machine, k = inf.
/// Job 1 (user 1) runs 0-10; job 2 (user 1, estimate 110, runs 110) starts at 10 predicted
/// 10 s. Jobs 3 and 4 (100 s) are promised 20 and 120. At 20 job 2's prediction becomes its
/// estimate (planned end 120): job 3 moves to 120 and job 4 to 220, keeping arrival order.
/// (Compressing one at a time would find job 3's new slot blocked by job 4's booking at
/// 120-220, put job 3 behind it at 220 and job 4 at 120.) The same with k = 2.
#[test]
fn a_correction_keeps_reservations_in_order() {
    let t = common::trace(&swf(
        10,
        &[(0, 10, 10, 110, 1), (10, 110, 10, 110, 1), (11, 100, 10, 100, 2), (12, 100, 10, 100, 3)],
    ));
    for k in ["k=inf", "k=2"] {
        let out = run(&t, "easy+", &[k]);
        assert_eq!(starts(&out), vec![0, 10, 120, 220], "{k}");
        assert_eq!((reserved(&out, 2), reserved(&out, 3)), (20, 120), "{k}");
    }
}

/// Section 4's guard holds for every job behind the first reservation, whatever the depth.
/// Machine of 10. Job 1 (user 1, 1 proc) runs 0-10; job 2 (5 procs) runs 0-100; job 3 (10
/// procs) is promised 100. Job 4 (user 1, 5 procs, estimate 1000, runs 500) arrives at 12
/// predicted 10 s. With two reservations and the prediction as its test it takes the second
/// one at 12 (5 processors are free until 100) and delays job 3 to 512; tested with its
/// estimate it must fit before job 3's slot, cannot, and is placed after it: 200.
#[test]
fn guarded_backfill_holds_with_several_reservations() {
    let t = common::trace(&swf(
        10,
        &[(0, 10, 1, 1000, 1), (0, 100, 5, 100, 2), (11, 100, 10, 100, 3), (12, 500, 5, 1000, 1)],
    ));
    assert_eq!(starts(&run(&t, "easy++", &["k=2"])), vec![0, 0, 512, 12]);
    for k in ["k=1", "k=2", "k=inf"] {
        assert_eq!(starts(&run(&t, "easy++", &[k, "backfill_end=estimate"])), vec![0, 0, 100, 200], "{k}");
    }
}

/// An alarm the policy has no use for costs no pass: X2 plans a 100 s estimate as 200 s, so
/// the engine's alarm at 100 for a job that runs 150 s (overrun=run) changes nothing. Passes:
/// the arrival at 0 and the end at 150. EASY corrects at 100 and runs a pass there.
#[test]
fn void_alarms_cost_no_pass() {
    let opts = TraceOptions { overrun: schedlab::trace::Overrun::Run, ..TraceOptions::default() };
    let t = trace_with(&swf(1, &[(0, 150, 1, 100, 1)]), &opts);
    assert_eq!(run(&t, "x2", &[]).passes, 2);
    let easy = run(&t, "easy", &[]);
    assert_eq!((easy.passes, prediction(&easy, 0).corrections), (3, 1));
}

/// `correction_pass=off` (predictsim): a correction changes the plan but runs no pass; the next
/// pass is at the next arrival or termination. Fig. 5's trace (see above) with a sixth job
/// (user 4, 2 procs, estimate 1000, runs 10) arriving at 300. EASY+, queue-order backfilling:
/// - At 150 job 3 outlives its 50 s prediction and is corrected to 1000 (planned end 1100);
///   job 4's reservation moves to 1100. With a pass there, job 5 (2 procs, planned end 350 <=
///   1100) is backfilled at 150 and runs to 250; at 300 job 6 would end (1300) after the
///   reservation, with no processor to spare then: it waits.
/// - Without the pass nothing starts until the arrival at 300, where job 5 is backfilled
///   (300-400) and job 6 finds no free processor. At 400 job 6 still would end after 1100.
/// - Job 3 ends at 600: job 4 runs 600-700, and job 6, the only job left, starts at 700.
///
/// The per-event engine (`passes=event`) gives the same, as the alarm comes first at 150 in
/// both.
#[test]
fn correction_without_a_pass_waits_for_the_next_event() {
    let t = common::trace(&swf(
        4,
        &[
            (0, 50, 4, 1000, 1),
            (50, 50, 4, 1000, 1),
            (100, 500, 2, 1000, 1),
            (101, 100, 4, 100, 2),
            (102, 100, 2, 200, 3),
            (300, 10, 2, 1000, 4),
        ],
    ));
    assert_eq!(starts(&run(&t, "easy+", &[])), vec![0, 50, 100, 600, 150, 700]);
    for passes in ["passes=timestamp", "passes=event"] {
        let off = run(&t, "easy+", &["correction_pass=off", passes]);
        assert_eq!(starts(&off), vec![0, 50, 100, 600, 300, 700], "{passes}");
        assert_eq!(prediction(&off, 2).corrections, 1, "the correction itself is made: {passes}");
    }
}

/// `predict_at=pass` (pyss's EasyPlusPlusScheduler) against the paper's prediction at
/// submission. Machine of 4, EASY++ (SJBF by prediction, mean of the user's last two runtimes,
/// or the only one):
/// - Job 1 (user 1, 2 procs, estimate 100) runs 0-100; job 2 (user 2, 2 procs, estimate 10)
///   runs 0-10.
/// - Job 3 (user 1, 4 procs, estimate 1000, runs 50) arrives at 1 and waits: predicted 100
///   (job 1 is still running: no history), reserved at 100 with no processor to spare.
/// - Job 4 (user 3, 2 procs, estimate 60) arrives at 2 and job 5 (user 2, 2 procs, estimate
///   500, runs 10) at 3: no history yet, so predicted 60 and 500; no processor is free.
/// - At 10 job 2 ends (user 2's history: 10). Predicted at submission, job 5 is still 500 and
///   would end after the reservation: SJBF backfills job 4 (60 s, ends 70 <= 100) at 10. At
///   70 job 5 still cannot end by 100; job 3 starts at 100 and ends 150; job 5 follows at 150.
/// - Predicted at each pass, job 5 becomes 10 at 10 and comes first: it runs 10-20. Job 4
///   then finds no processor; at 20 it runs 20-80. Job 3 starts at 100.
///
/// Here propagation (`propagation=on`) does the same, since job 2 was submitted before job 5.
#[test]
fn predicting_at_each_pass_reorders_the_candidates() {
    let t = common::trace(&swf(
        4,
        &[(0, 100, 2, 100, 1), (0, 10, 2, 10, 2), (1, 50, 4, 1000, 1), (2, 60, 2, 60, 3), (3, 10, 2, 500, 2)],
    ));
    assert_eq!(starts(&run(&t, "easy++", &[])), vec![0, 0, 100, 10, 150]);
    let pass = run(&t, "easy++", &["predict_at=pass"]);
    assert_eq!(starts(&pass), vec![0, 0, 100, 20, 10]);
    assert_eq!(prediction(&pass, 4).corrections, 0, "a new prediction is not a correction");
    assert_eq!(starts(&run(&t, "easy++", &["propagation=on"])), vec![0, 0, 100, 20, 10]);
    assert_eq!(starts(&run(&t, "easy++", &["predict_at=pass", "passes=event"])), vec![0, 0, 100, 20, 10]);
}

/// `predict_at=pass` uses every runtime the user has, even of jobs submitted after the one
/// predicted (pyss keeps the user's last two runtimes); propagation does not. Machine of 4:
/// - Job 1 (user 1, 2 procs, estimate 100) runs 0-100. Job 2 (user 3, 4 procs, estimate 100)
///   arrives at 1 and is reserved at 100.
/// - Job 3 (user 2, 2 procs, estimate 200, runs 20) arrives at 2: no history, predicted 200,
///   ends after 100: it waits.
/// - Job 4 (user 2, 2 procs, estimate 50, runs 30) arrives at 3, predicted 50, ends 53 <= 100:
///   backfilled at 3, ends 33.
/// - At 33, predicted again at the pass from user 2's history (30), job 3 ends at 63 <= 100:
///   it runs 33-53. Predicted at submission, or again by propagation from jobs submitted before
///   it (none), it stays 200 and waits: job 2 runs 100-200, job 3 200-220.
#[test]
fn predicting_at_each_pass_uses_later_jobs_history() {
    let t = common::trace(&swf(4, &[(0, 100, 2, 100, 1), (1, 100, 4, 100, 3), (2, 20, 2, 200, 2), (3, 30, 2, 50, 2)]));
    assert_eq!(starts(&run(&t, "easy++", &[])), vec![0, 100, 200, 3]);
    assert_eq!(starts(&run(&t, "easy++", &["propagation=on"])), vec![0, 100, 200, 3]);
    assert_eq!(starts(&run(&t, "easy++", &["predict_at=pass"])), vec![0, 100, 33, 3]);
}
