//! Hand-made traces whose schedules were worked out by hand before running the simulator.
//!
//! Every test states, in a comment, why each job starts when it does. Rows are
//! `(submit, runtime, procs, estimate)`; jobs are numbered 1.. in row order. Unless said
//! otherwise runtime = estimate, so every job ends exactly when the scheduler planned.
//! Notation: "J3 [20,30) 8p" = job 3 holds (or is reserved) 8 processors over [20, 30);
//! "profile [a,b) n" = n processors free over [a, b) in the scheduler's plan.

mod common;

use schedlab::metrics::Record;
use schedlab::trace::{parse, Overrun, Trace, TraceOptions};

/// Runs `policy` with `settings` on an SWF built from `rows` and returns the start times.
fn starts(machine: u32, rows: &[(i64, i64, u32, i64)], policy: &str, settings: &[&str]) -> Vec<i64> {
    let trace = common::trace(&common::swf(machine, rows));
    common::starts(&common::run(&trace, policy, settings))
}

/// The record of job number `id`.
fn rec(recs: &[Record], id: u64) -> Record {
    *recs.iter().find(|r| r.job_id == id).expect("job present")
}

/// One SWF job line with an explicit job number (same layout as `common::swf`).
fn swf_line(id: u64, submit: i64, run: i64, procs: u32, est: i64) -> String {
    format!("{id} {submit} -1 {run} {procs} -1 -1 {procs} {est} -1 1 1 1 -1 1 -1 -1 -1\n")
}

/// Parses SWF text keeping the trace's runtimes past the estimate (`overrun = run`).
fn trace_overrun_run(text: &str) -> Trace {
    let opts = TraceOptions { overrun: Overrun::Run, ..Default::default() };
    parse(text.as_bytes(), &opts).expect("trace parses")
}

// ---------------------------------------------------------------------------------------
// FCFS
// ---------------------------------------------------------------------------------------

/// FCFS starts jobs strictly in order: a small later job that would fit waits for the head.
#[test]
fn fcfs_strict_order_no_backfilling() {
    // Machine 10.
    // J1 s0 6p 100s; J2 s1 6p 50s; J3 s2 2p 10s.
    // t=0   J1 starts (10 free >= 6); 4 free.
    // t=1   J2 needs 6 > 4: waits, and FCFS stops at it.
    // t=2   J3 needs 2 <= 4 and would end at 12, long before J2 could start, but FCFS
    //       never looks past the blocked head: waits.
    // t=100 J1 ends -> 10 free: J2 starts (4 left), then J3 (2 <= 4) starts in the same pass.
    let rows = [(0, 100, 6, 100), (1, 50, 6, 50), (2, 10, 2, 10)];
    assert_eq!(starts(10, &rows, "fcfs", &[]), vec![0, 100, 100]);
    // Contrast: first fit (no reservations) starts J3 at once, at t=2.
    assert_eq!(starts(10, &rows, "fffs", &[]), vec![0, 100, 2]);
}

// ---------------------------------------------------------------------------------------
// First / best / worst fit (Ward et al. section 1): no reservations
// ---------------------------------------------------------------------------------------

/// Queue for the three list-scheduling tests: a full machine, then four waiting jobs.
const FIT_ROWS: [(i64, i64, u32, i64); 5] = [
    (0, 100, 10, 100), // J1: fills the machine until 100
    (1, 50, 6, 50),    // J2
    (2, 40, 5, 40),    // J3
    (3, 30, 2, 30),    // J4
    (4, 20, 3, 20),    // J5
];

/// FFFS: at every pass, start each waiting job that fits, in queue order.
#[test]
fn fffs_first_fit_in_queue_order() {
    // Machine 10. J1 holds all 10 processors over [0,100); J2..J5 arrive at 1..4 and wait.
    // t=100 10 free; queue order: J2 6p fits (4 left); J3 5p no; J4 2p fits (2 left); J5 3p no.
    //       J2 [100,150), J4 [100,130).
    // t=130 J4 ends -> 4 free: J3 5p no; J5 3p fits (1 left): J5 [130,150).
    // t=150 J2 and J5 end -> 10 free: J3 starts.
    assert_eq!(starts(10, &FIT_ROWS, "fffs", &[]), vec![0, 100, 150, 100, 130]);
}

/// BFFS: widest waiting job that fits first (tightest fit of the free processors).
#[test]
fn bffs_widest_fitting_job_first() {
    // Machine 10. Same queue as fffs.
    // t=100 10 free; widest first: J2 6p fits (4 left); J3 5p no; J5 3p fits (1 left); J4 2p no.
    //       J2 [100,150), J5 [100,120).
    // t=120 J5 ends -> 4 free; widest first: J3 5p no; J4 2p fits (2 left): J4 [120,150).
    // t=150 J2 and J4 end -> 10 free: J3 starts.
    assert_eq!(starts(10, &FIT_ROWS, "bffs", &[]), vec![0, 100, 150, 120, 100]);
}

/// WFFS: narrowest waiting job that fits first (fits the most jobs).
#[test]
fn wffs_narrowest_fitting_job_first() {
    // Machine 10. Same queue as fffs.
    // t=100 10 free; narrowest first: J4 2p (8 left); J5 3p (5 left); J3 5p (0 left); J2 6p no.
    //       J4 [100,130), J5 [100,120), J3 [100,140).
    // t=120 J5 ends -> 3 free: J2 6p no.   t=130 J4 ends -> 5 free: J2 no.
    // t=140 J3 ends -> 10 free: J2 starts.
    assert_eq!(starts(10, &FIT_ROWS, "wffs", &[]), vec![0, 140, 100, 100, 100]);
}

/// The three list-scheduling policies give three different schedules on the same trace.
#[test]
fn first_best_worst_fit_all_differ() {
    let f = starts(10, &FIT_ROWS, "fffs", &[]);
    let b = starts(10, &FIT_ROWS, "bffs", &[]);
    let w = starts(10, &FIT_ROWS, "wffs", &[]);
    assert!(f != b && b != w && f != w, "fffs {f:?} bffs {b:?} wffs {w:?}");
}

// ---------------------------------------------------------------------------------------
// EASY: Tsafrir et al. Fig. 1
// ---------------------------------------------------------------------------------------

/// The Fig. 1 scenario with job 4 of length `len`: returns the records.
fn tsafrir_fig1(len: i64) -> Vec<Record> {
    // Machine 8. J1 s0 4p 3s; J2 s0 2p 6s; J3 s1 6p 4s (the reserved head); J4 s1 2p len.
    let rows = [(0, 3, 4, 3), (0, 6, 2, 6), (1, 4, 6, 4), (1, len, 2, len)];
    let trace = common::trace(&common::swf(8, &rows));
    common::run(&trace, "easy", &[])
}

/// Tsafrir Fig. 1: job 4 of length 2 is backfilled, ending exactly at job 3's reservation.
#[test]
fn easy_tsafrir_fig1_job4_length2_backfills() {
    // t=0 J1 [0,3) 4p and J2 [0,6) 2p start; 2 free.
    // t=1 J3 needs 6: profile [1,3) 2, [3,6) 6 -> reserved at 3 (end of J1), [3,7) 6p;
    //     profile now [1,3) 2, [3,6) 0, [6,7) 2, [7,..) 8.
    //     J4 2p len 2: [1,3) has 2 free and it ends at 3 = J3's start (half-open): backfilled at 1.
    // t=3 J1 and J4 end -> 6 free: J3 starts at its reservation.
    let recs = tsafrir_fig1(2);
    assert_eq!(common::starts(&recs), vec![0, 0, 3, 1]);
    assert!(rec(&recs, 4).backfilled);
    assert!(!rec(&recs, 3).backfilled);
}

/// Tsafrir Fig. 1: job 4 of length 3 would violate job 3's reservation, so it waits.
#[test]
fn easy_tsafrir_fig1_job4_length3_waits() {
    // t=0, t=1 as with length 2: J3 reserved [3,7) 6p, profile [1,3) 2, [3,6) 0.
    //     J4 2p len 3 would hold [1,4), overlapping [3,4) where 0 are free: not backfilled.
    // t=3 J1 ends: J3 starts (6p + J2 2p = 8, full). J4 is now the head: profile [3,6) 0,
    //     [6,7) 2, [7,..) 8 -> earliest start for 2p x 3s is 6 (J2's end); reserved there.
    // t=6 J2 ends: J4 starts.
    let recs = tsafrir_fig1(3);
    assert_eq!(common::starts(&recs), vec![0, 0, 3, 6]);
    assert!(!rec(&recs, 4).backfilled);
}

// ---------------------------------------------------------------------------------------
// EASY: Kettimuthu section 2.1.2 (aggressive backfilling) conditions
// ---------------------------------------------------------------------------------------

/// Kettimuthu's aggressive-backfilling setting with one candidate job 4 of `procs` x `est`.
fn aggressive(procs: u32, est: i64) -> Vec<i64> {
    // Machine 10.
    // J1 s0 6p 10s, J2 s0 2p 100s: both start at 0; 2 free until 10, 8 free from 10 to 100.
    // J3 s1 7p 20s: the head; earliest 7 free is 10 (J1's end) -> reserved [10,30).
    //   Shadow time 10; extra processors = 8 free at 10 - 7 for J3 = 1.
    //   Profile after the reservation: [1,10) 2, [10,30) 1, [30,100) 8, [100,..) 10.
    // J4 s1: the candidate.
    let rows = [(0, 10, 6, 10), (0, 100, 2, 100), (1, 20, 7, 20), (1, est, procs, est)];
    starts(10, &rows, "easy", &[])
}

/// Kettimuthu 2.2, first condition: a candidate that terminates before the shadow time backfills.
#[test]
fn easy_candidate_ending_before_shadow_time_backfills() {
    // J4 2p 5s: 2 <= 2 free now and [1,6) ends before the shadow time 10: starts at 1.
    // t=10 J1 ends -> 8 free: J3 starts at its reservation.
    assert_eq!(aggressive(2, 5), vec![0, 0, 10, 1]);
}

/// Half-open reservations: a candidate ending exactly at the shadow time backfills.
#[test]
fn easy_candidate_ending_exactly_at_shadow_time_backfills() {
    // J4 2p 9s holds [1,10); it ends exactly when J3's reservation [10,30) begins: starts at 1.
    // t=10 J1 and J4 end -> 8 free: J3 starts.
    assert_eq!(aggressive(2, 9), vec![0, 0, 10, 1]);
    // One second longer: [1,11) overlaps [10,11) where only 1 is free -> waits.
    // t=10 J1 ends, J3 starts (free 1); J4 is head: 2 free first at 30 (J3's end) -> starts 30.
    assert_eq!(aggressive(2, 10), vec![0, 0, 10, 30]);
}

/// Kettimuthu 2.2, second condition: a long candidate using only the extra processors backfills.
#[test]
fn easy_candidate_past_shadow_time_on_extra_processors_backfills() {
    // J4 1p 50s holds [1,51), well past the shadow time 10, but needs only 1 processor:
    // [1,10) 2 free, [10,30) 1 free (the one extra), [30,51) 8 -> fits: starts at 1.
    // t=10 J1 ends: J2 2 + J4 1 + J3 7 = 10: J3 starts on time.
    assert_eq!(aggressive(1, 50), vec![0, 0, 10, 1]);
}

/// Kettimuthu 2.2: a candidate past the shadow time needing more than the extra processors waits.
#[test]
fn easy_candidate_past_shadow_time_needing_more_than_extra_waits() {
    // J4 2p 50s: 2 are free now, but over [10,30) it would need 2 where only 1 is extra:
    // it would delay J3, so it waits.
    // t=10 J1 ends: J3 starts (J2 2 + J3 7: 1 free). J4 is the head: [10,30) 1 free,
    //      [30,100) 8 -> reserved at 30.
    // t=30 J3 ends: J4 starts.
    assert_eq!(aggressive(2, 50), vec![0, 0, 10, 30]);
}

/// Kettimuthu 2.2: a candidate wider than the processors free now is not eligible, however short.
#[test]
fn easy_candidate_wider_than_free_processors_waits() {
    // J4 3p 5s: 3 > 2 free now: not eligible.
    // t=10 J1 ends: J3 starts, 1 free; J4 (3p) earliest is 30 (J3's end) -> starts 30.
    assert_eq!(aggressive(3, 5), vec![0, 0, 10, 30]);
}

// ---------------------------------------------------------------------------------------
// EASY-SJBF
// ---------------------------------------------------------------------------------------

/// SJBF backfills the shorter later job first; plain EASY takes the earlier, longer one.
#[test]
fn easy_sjbf_prefers_shorter_later_candidate() {
    // Machine 10. J1 s0 8p 100s; J2 s1 10p 10s (head); J3 s2 2p 50s; J4 s2 2p 20s.
    // t=0 J1 starts, 2 free until 100.   t=1 J2 reserved at 100, [100,110) 10p.
    // t=2 J3 and J4 arrive together; both fit the 2 free and end before 100, but only one
    //     can run (2 processors).
    // easy (queue order): J3 starts at 2 (ends 52); J4 waits. t=52 J3 ends: J4 [52,72) <= 100
    //     starts at 52. t=100 J1 ends: J2 starts.
    // easy-sjbf (shortest first): J4 (20s) starts at 2 (ends 22); J3 waits. t=22 J4 ends:
    //     J3 [22,72) starts at 22. t=100 J2 starts.
    let rows = [(0, 100, 8, 100), (1, 10, 10, 10), (2, 50, 2, 50), (2, 20, 2, 20)];
    assert_eq!(starts(10, &rows, "easy", &[]), vec![0, 100, 2, 52]);
    assert_eq!(starts(10, &rows, "easy-sjbf", &[]), vec![0, 100, 22, 2]);
}

// ---------------------------------------------------------------------------------------
// Conservative: Kettimuthu section 2.1.1
// ---------------------------------------------------------------------------------------

/// Kettimuthu Fig. 2.1 rows; `long_run` is the actual runtime of the longer running job (est 20).
fn fig21_rows(long_run: i64) -> [(i64, i64, u32, i64); 5] {
    [
        (0, 10, 4, 10),       // J1: shorter running job, [0,10)
        (0, long_run, 4, 20), // J2: longer running job, planned [0,20)
        (1, 10, 8, 10),       // J3: first queued job
        (1, 10, 9, 10),       // J4: second queued job
        (1, 30, 2, 30),       // J5: third queued job, fits now
    ]
}

/// Kettimuthu Fig. 2.1: reservations at the longer running job's end, after Q1, after Q2.
#[test]
fn conservative_kettimuthu_fig21() {
    // Machine 10. t=0 J1 [0,10) 4p and J2 [0,20) 4p start; profile [0,10) 2, [10,20) 6, [20,..) 10.
    // t=1, in queue order:
    //   J3 8p: 8 free first at 20 (end of the longer running job J2) -> [20,30).
    //     profile [1,10) 2, [10,20) 6, [20,30) 2, [30,..) 10.
    //   J4 9p: 9 free first at 30 (J3's end) -> [30,40). profile [30,40) 1.
    //   J5 2p 30s: 2 are free now, but [1,31) overlaps [30,31) where 1 is free: it would
    //     delay J4. Earliest: 10, 20, 30 all overlap [30,40); 40 -> reserved [40,70),
    //     after J4's end.
    // t=20 J2 ends: J3 starts. t=30 J3 ends: J4 starts. t=40 J4 ends: J5 starts.
    let rows = fig21_rows(20);
    assert_eq!(starts(10, &rows, "conservative", &[]), vec![0, 0, 20, 30, 40]);
    // Contrast, EASY: only J3 is reserved; J5 [1,31) fits beside it ([20,30) 2 free) -> starts 1.
    // t=20 J3 starts (8 + J5 2 = 10); J4 9p: [20,30) 0, [30,31) 8, [31,..) 10 -> reserved 31.
    assert_eq!(starts(10, &rows, "easy", &[]), vec![0, 0, 20, 31, 1]);
}

/// Conservative compression: the longer running job ends early and every reservation moves up.
#[test]
fn conservative_compression_when_a_job_ends_early() {
    // As Fig. 2.1, but J2 (estimate 20) really runs 12 s.
    // t=1  reservations J3 [20,30) 8p, J4 [30,40) 9p, J5 [40,70) 2p (as in the previous test).
    // t=10 J1 ends as planned: nothing changes.
    // t=12 J2 ends 8 s early: its [12,20) is released; nothing runs. Compress in queue order:
    //   J3 8p x10: released, profile [12,30) 10, [30,40) 1, [40,70) 8 -> earliest 12 = now: starts.
    //   J4 9p x10: released; profile [12,22) 2, [22,40) 10, [40,70) 8 -> earliest 22 -> [22,32).
    //   J5 2p x30: released; at 12 [22,32) has 1 free -> no; at 22 1 free -> no; 32: [32,62)
    //     10 free -> [32,62).
    // t=22 J3 ends: J4 starts. t=32 J4 ends: J5 starts.
    let early = starts(10, &fig21_rows(12), "conservative", &[]);
    assert_eq!(early, vec![0, 0, 12, 22, 32]);
    let planned = starts(10, &fig21_rows(20), "conservative", &[]);
    assert_eq!(planned, vec![0, 0, 20, 30, 40]);
    for (i, (e, p)) in early.iter().zip(&planned).enumerate() {
        assert!(e <= p, "job {} moved later: {p} -> {e}", i + 1);
    }
}

// ---------------------------------------------------------------------------------------
// k = 2 reservations
// ---------------------------------------------------------------------------------------

/// k=2 protects the first two queued jobs only: it differs from both EASY and conservative.
#[test]
fn two_reservations_differ_from_easy_and_conservative() {
    // Machine 10. Running: J1 [0,10) 4p, J2 [0,20) 4p (2 free until 10, 6 until 20).
    // Queue at t=1: J3 8p 10s, J4 9p 10s, J5 10p 10s, J6 2p 30s, J7 1p 45s.
    let rows = [
        (0, 10, 4, 10),
        (0, 20, 4, 20),
        (1, 10, 8, 10),
        (1, 10, 9, 10),
        (1, 10, 10, 10),
        (1, 30, 2, 30),
        (1, 45, 1, 45),
    ];

    // conservative, t=1: J3 [20,30), J4 [30,40), J5 [40,50) (10p after J4).
    //   profile [1,10) 2, [10,20) 6, [20,30) 2, [30,40) 1, [40,50) 0, [50,..) 10.
    //   J6 2p 30s: [1,31) hits [30,31) 1; every start up to 40 hits [30,50) -> [50,80).
    //   J7 1p 45s: [1,46) hits [40,46) 0; every start up to 40 hits [40,50) -> [50,95).
    //   Then each starts at its reservation: 20, 30, 40, 50, 50.
    assert_eq!(starts(10, &rows, "conservative", &[]), vec![0, 0, 20, 30, 40, 50, 50]);

    // k=2, t=1: J3 [20,30), J4 [30,40) reserved; J5, J6, J7 are candidates (2 free):
    //   J5 10p > 2: no. J6 2p [1,31) hits [30,31) 1 free (J4): no.
    //   J7 1p [1,46): [1,10) 2, [10,20) 6, [20,30) 2, [30,40) 1, [40,..) 10: fits, starts at 1.
    // t=10 J1 ends: 5 free; J6 [10,40) hits [20,30) 10-8-1 = 1: no.
    // t=20 J2 ends: J3 starts (8 + J7 1: 1 free). J5 takes the freed reservation slot:
    //   profile [20,30) 1, [30,40) 0, [40,46) 9, [46,..) 10 -> J5 10p at 46.
    //   J6: 2 > 1 free: no.
    // t=30 J3 ends: J4 starts. J6 now gets the second reservation: [30,40) 0, [40,46) 9,
    //   [46,56) 0 (J5), [56,..) 10 -> 40 would overlap 46..56 -> J6 at 56.
    // t=46 J7 ends: J5 starts. t=56 J5 ends: J6 starts.
    assert_eq!(starts(10, &rows, "easy", &["k=2"]), vec![0, 0, 20, 30, 46, 56, 1]);

    // easy (k=1), t=1: J3 [20,30) reserved; candidates in queue order, 2 free:
    //   J4 9p, J5 10p: no. J6 2p [1,31): [20,30) has 2 free beside J3 -> starts at 1 (0 free).
    //   J7: nothing free.
    // t=10 J1 ends: 4 free. J7 1p [10,55) hits [20,30) where J3 8 + J6 2 = 10: no.
    // t=20 J2 ends: J3 starts (full). J4 is head: [20,30) 0, [30,31) 8, [31,..) 10 -> 31.
    // t=30 J3 ends: 8 free. J5 no. J7 1p [30,75): [30,31) 8, [31,41) 1 beside J4, then 10:
    //   starts at 30.
    // t=31 J6 ends: J4 starts (9 + J7 1 = 10). J5 head: 10 free first at 75 (J7's end).
    // t=75 J7 ends: J5 starts.
    assert_eq!(starts(10, &rows, "easy", &[]), vec![0, 0, 20, 31, 75, 1, 30]);
}

// ---------------------------------------------------------------------------------------
// Event order
// ---------------------------------------------------------------------------------------

/// A job arriving at the instant another completes can use the processors freed at that instant.
#[test]
fn arrival_at_completion_time_uses_freed_processors() {
    // Machine 4. J1 s0 4p runs [0,10). J2 s10 4p 5s.
    // t=10 completion of J1 is applied first, then J2's arrival, then one pass: 4 free -> J2 starts 10.
    // Planned end (estimate 10) and an early end (estimate 100, so the scheduler still holds
    // J1's processors until 100 in its plan until the completion releases them) both give 10.
    for est in [10, 100] {
        let rows = [(0, 10, 4, est), (10, 5, 4, 5)];
        for policy in ["fcfs", "fffs", "easy", "easy-sjbf", "conservative"] {
            assert_eq!(starts(4, &rows, policy, &[]), vec![0, 10], "{policy}, J1 estimate {est}");
        }
    }
}

/// Jobs submitted at the same second queue in job-number order, whatever the file order.
#[test]
fn simultaneous_arrivals_queue_in_job_number_order() {
    // Machine 4. The file lists job 3 before job 2; both are submitted at 5.
    // J1 s0 4p [0,10); J2 s5 3p 10s; J3 s5 2p 10s.
    // The queue is J2, J3 (job number). t=10 J1 ends: J2 starts (1 free); J3 2p waits.
    // t=20 J2 ends: J3 starts. (File order would have started J3 at 10 and J2 at 20.)
    let text = format!(
        "; MaxProcs: 4\n{}{}{}",
        swf_line(1, 0, 10, 4, 10),
        swf_line(3, 5, 10, 2, 10),
        swf_line(2, 5, 10, 3, 10)
    );
    let trace = common::trace(&text);
    let ids: Vec<u64> = trace.jobs.iter().map(|j| j.id).collect();
    assert_eq!(ids, vec![1, 2, 3]);
    for policy in ["fcfs", "easy", "conservative"] {
        // easy: at 5 J2 is reserved [10,20); J3 has no free processor. At 10 J2 starts and
        // J3 (1 free) is reserved at 20. conservative: J2 [10,20), J3 [20,30) (only 1 beside J2).
        assert_eq!(common::starts(&common::run(&trace, policy, &[])), vec![0, 10, 20], "{policy}");
    }
}

// ---------------------------------------------------------------------------------------
// Runtime beyond the estimate
// ---------------------------------------------------------------------------------------

/// Rows for the overrun tests: J2 runs 100 s on an estimate of 50 s.
const OVERRUN_ROWS: [(i64, i64, u32, i64); 3] = [
    (0, 20, 4, 20),  // J1
    (5, 100, 4, 50), // J2: overruns its estimate
    (6, 10, 4, 10),  // J3
];

/// By default a job running past its estimate is killed at submit + wait + estimate.
#[test]
fn overrun_killed_at_estimate_by_default() {
    // Machine 4. J1 [0,20). J2 s5 waits until 20 (wait 15), killed at 20 + 50 = 70
    // (= submit 5 + wait 15 + estimate 50). J3 s6 is reserved at 70 and starts then.
    let trace = common::trace(&common::swf(4, &OVERRUN_ROWS));
    assert_eq!(trace.report.altered.get("killed_at_estimate"), Some(&1));
    for policy in ["fcfs", "easy", "conservative"] {
        let recs = common::run(&trace, policy, &[]);
        assert_eq!(common::starts(&recs), vec![0, 20, 70], "{policy}");
        let j2 = rec(&recs, 2);
        assert_eq!((j2.wait(), j2.end, j2.runtime), (15, 70, 50), "{policy}");
        assert_eq!(rec(&recs, 3).end, 80, "{policy}");
    }
}

/// With overrun=run a job keeps its trace runtime; the scheduler replans when it outlives its plan.
#[test]
fn overrun_run_keeps_trace_runtime() {
    // Machine 4. J1 [0,20). J2 starts 20 and really runs 100 s: [20,120).
    // easy/conservative: at 20 J3 is reserved at 70 (J2's planned end). At 70 J2 is overdue:
    //   the plan books it 50 s more, to 120, and J3 is re-placed at 120. t=120 J2 ends: J3 starts.
    // fcfs: J3 simply starts when J2 really ends, at 120.
    let trace = trace_overrun_run(&common::swf(4, &OVERRUN_ROWS));
    assert_eq!(trace.report.altered.get("ran_past_estimate"), Some(&1));
    for policy in ["fcfs", "easy", "conservative"] {
        let recs = common::run(&trace, policy, &[]);
        assert_eq!(common::starts(&recs), vec![0, 20, 120], "{policy}");
        let j2 = rec(&recs, 2);
        assert_eq!((j2.end, j2.runtime), (120, 100), "{policy}");
        assert_eq!(rec(&recs, 3).end, 130, "{policy}");
    }
}

/// With overrun=run, a job outliving its extended plan too must still not let a backfill delay the head.
#[test]
fn overrun_run_twice_past_plan_head_not_delayed() {
    // Machine 4, overrun=run. J1 s0 2p really runs 200 s on an estimate of 50 s.
    // J2 s1 4p 10s (head), J3 s1 2p 150s (backfill candidate).
    // t=0  J1 starts, planned end 50; 2 free.
    // t=1  J2 reserved [50,60). J3 [1,151) overlaps it (0 free there): waits.
    // t=50 J1 overdue: booked 50 s more, to 100; J2 re-placed at 100; J3 [50,200) overlaps: waits.
    // t=100 J1 overdue again: booked once more (to 150 by +50, or to 200 by doubling);
    //      J2 re-placed at J1's new planned end; J3 would overlap J2 again: waits.
    // t=150 (if +50) once more, to 200; J2 at 200; J3 [150,300) overlaps [200,210): waits.
    // t=200 J1 really ends: J2 starts (4p). J3 is head: 2 free first at 210 -> starts 210.
    let trace = trace_overrun_run(&common::swf(4, &[(0, 200, 2, 50), (1, 10, 4, 10), (1, 150, 2, 150)]));
    let recs = common::run(&trace, "easy", &[]);
    assert_eq!(common::starts(&recs), vec![0, 200, 210]);
}

// ---------------------------------------------------------------------------------------
// Pass granularity: one pass per timestamp (default) vs one per event (pyss, `passes=event`)
// ---------------------------------------------------------------------------------------

/// Two jobs end early in the same second. With one pass per timestamp the head sees both
/// ends; pyss runs a pass after the first end alone, backfills, and delays the head.
#[test]
fn simultaneous_early_ends_per_timestamp_vs_per_event() {
    // Machine 10. J1 s0 5p est 100 run 50; J2 s0 5p est 100 run 50 (both planned to 100, both
    // end at 50); J3 s1 10p 100s (head); J4 s1 5p 40s.
    // t=1  J3 reserved at 100 ([100,200) 10p); J4 [1,41) needs 5 of 0 free: waits.
    // passes=timestamp: t=50 both ends told, then one pass: 10 free, J3 starts at 50;
    //     J4 then waits for J3's end: starts at 150.
    // passes=event: t=50 J1's end (J1 started first) told, pass: profile [50,100) 5 free
    //     (J2 still booked to 100); J3 stays reserved at 100; J4 [50,90) 5p ends before 100:
    //     backfilled at 50. J2's end told, pass: 5 free < 10, J3 re-placed after J4: at 90.
    let rows = [(0, 50, 5, 100), (0, 50, 5, 100), (1, 100, 10, 100), (1, 40, 5, 40)];
    let trace = common::trace(&common::swf(10, &rows));
    for policy in ["easy", "easy-sjbf"] {
        assert_eq!(common::starts(&common::run(&trace, policy, &[])), vec![0, 0, 50, 150], "{policy}");
        assert_eq!(common::starts(&common::run(&trace, policy, &["passes=event"])), vec![0, 0, 90, 50], "{policy}");
    }
}

/// With backfill=none the queue order is strict whatever k is: a small job behind a blocked one
/// waits even when a second reservation would let it start now.
#[test]
fn no_backfilling_keeps_strict_order_with_any_k() {
    // Machine 10. J1 s0 6p 100s runs; J2 s1 6p 50s is blocked until 100; J3 s2 2p 10s would fit now.
    let rows = [(0, 100, 6, 100), (1, 50, 6, 50), (2, 10, 2, 10)];
    for k in ["k=0", "k=1", "k=2", "k=inf"] {
        assert_eq!(starts(10, &rows, "fcfs", &[k]), vec![0, 100, 100], "{k}");
    }
}

/// The engine refuses to start a job that has not arrived or has already run, whatever a policy asks.
#[test]
fn engine_refuses_impossible_starts() {
    use schedlab::engine::{simulate, JobView, Policy, System};
    /// Tries to start every job of the trace at every pass, in reverse order.
    struct Rogue(u32);
    impl Policy for Rogue {
        fn on_arrival(&mut self, _: JobView, _: &mut System) {}
        fn on_completion(&mut self, _: JobView, _: &mut System) {}
        fn schedule(&mut self, sys: &mut System) {
            for i in (0..self.0).rev() {
                sys.start(i);
            }
        }
    }
    let trace = common::trace(&common::swf(4, &[(0, 10, 4, 10), (5, 10, 4, 10), (100, 10, 4, 10)]));
    let out = simulate(&trace, &mut Rogue(3), &Default::default());
    let got: Vec<(i64, i64)> = out.records.iter().map(|r| (r.start, r.end)).collect();
    assert_eq!(got, vec![(0, 10), (10, 20), (100, 110)]);
}
