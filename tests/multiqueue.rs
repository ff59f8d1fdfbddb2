//! Multiple-queue backfilling (Lawson & Smirni 2002) on hand-made traces whose schedules are
//! worked out in the comments, and its invariants on the paper's real traces.
//!
//! Unless a test is about them, speculation is off (`speculate_s=0`) and every job has high
//! priority, so each test shows one mechanism. Machines of 10 processors split into
//! partitions of 4, 3, 3; machines of 12 into 4, 4, 4.

mod common;

use schedlab::engine::{simulate, JobIdx, Outcome};
use schedlab::metrics::summarize;
use schedlab::policy::multiqueue::{Borrow, MultiQueue, Rule};
use schedlab::random::{Draws, Stream};
use schedlab::run::Settings;
use schedlab::trace::{parse, Trace, TraceOptions};

/// SWF from `(id, submit, runtime, procs, estimate)` rows.
fn swf(machine: u32, jobs: &[(u64, i64, i64, u32, i64)]) -> Trace {
    let mut s = format!("; MaxProcs: {machine}\n");
    for (id, submit, run, procs, est) in jobs {
        s.push_str(&format!("{id} {submit} -1 {run} {procs} -1 -1 {procs} {est} -1 1 1 1 -1 1 -1 -1 -1\n"));
    }
    common::trace(&s)
}

/// Runs `policy` (mq-backfill or sq-backfill) with `settings` and returns the policy for inspection.
fn run(trace: &Trace, policy: &str, settings: &[&str]) -> (MultiQueue, Outcome) {
    // Missed reservations need each job's first promise, as the multiqueue runs keep them.
    let s = common::observing("promises", settings);
    let cfg = schedlab::policy::Configured::new(policy, &s.policy).expect("policy configures");
    let opts = cfg.multiqueue_options().expect("a multiple-queue policy").clone();
    let origin = trace.jobs.first().map_or(0, |j| j.submit);
    let mut p = MultiQueue::new(opts, trace.machine, trace.jobs.len(), origin);
    let out = simulate(trace, &mut p, &s.engine);
    let audit = p.audit();
    assert_eq!(audit.violations, 0, "partitions did not sum to the machine");
    assert_eq!(audit.late_bookings, 0, "a booking started late");
    (p, out)
}

/// Start times in trace order.
fn starts(out: &Outcome) -> Vec<i64> {
    out.records.iter().map(|r| r.start).collect()
}

const NO_SPEC: &str = "speculate_s=0";

/// Job numbers whose seeded draw (seed 1) on `stream` is below 0.5, and at or above it.
fn ids(stream: Stream) -> (Vec<u64>, Vec<u64>) {
    let d = Draws::new(1);
    let below = (1..200).filter(|&i| d.unit(i, stream) < 0.5).take(5).collect();
    let above = (1..200).filter(|&i| d.unit(i, stream) >= 0.5).take(5).collect();
    (below, above)
}

/// Eq. 1: below 1,000 s short, below 10,000 s medium, else long; thresholds configurable.
#[test]
fn jobs_go_to_queues_by_estimate() {
    let t = swf(12, &[(1, 0, 10, 1, 999), (2, 0, 10, 1, 1000), (3, 0, 10, 1, 9999), (4, 0, 10, 1, 10_000)]);
    let (p, _) = run(&t, "mq-backfill", &[NO_SPEC]);
    assert_eq!((0..4).map(|i| p.queue(i)).collect::<Vec<_>>(), [0, 1, 1, 2]);
    let (p, _) = run(&t, "mq-backfill", &[NO_SPEC, "queues=2", "thresholds=5000"]);
    assert_eq!((0..4).map(|i| p.queue(i)).collect::<Vec<_>>(), [0, 0, 1, 1]);
    let (p, _) = run(&t, "sq-backfill", &[NO_SPEC]);
    assert_eq!((0..4).map(|i| p.queue(i)).collect::<Vec<_>>(), [0, 0, 0, 0]);
    assert_eq!(p.partitions(), [12]);
    // The baseline stays single-queue even when the run sets the queues of mq-backfill.
    let (p, _) = run(&t, "sq-backfill", &[NO_SPEC, "queues=3"]);
    assert_eq!(p.partitions(), [12]);
    let s = Settings::parse(&["queues=4"]).expect("parses");
    let err = schedlab::policy::Configured::new("mq-backfill", &s.policy).expect_err("4 queues need 3 thresholds");
    assert!(err.to_string().contains("thresholds"), "{err}");
}

/// Partitions start equal (10 = 4 + 3 + 3) and move when a job borrows idle processors:
/// the short job of 6 processors starts at once with its 4 and 2 borrowed from partition 2
/// (the first of the two with the most idle processors); they stay with partition 1.
#[test]
fn borrowing_moves_partition_boundaries() {
    let t = swf(10, &[(1, 0, 100, 6, 100)]);
    let (p, out) = run(&t, "mq-backfill", &[NO_SPEC]);
    assert_eq!(starts(&out), [0]);
    assert_eq!(p.borrows(), [Borrow { time: 0, job: 0, from: 1, to: 0, procs: 2 }]);
    assert_eq!(p.partitions(), [6, 1, 3]);
}

/// Rule a, machine of 12 (4, 4, 4). At 0: job 1 (short, 2 procs, 500 s) is partition 1's pivot
/// and starts; job 2 (short, 12 procs) becomes the pivot, pivot start time 500; job 3 (short,
/// 2 procs, 400 s) fits in the 2 idle processors of partition 1 and ends by 500: rule a.
#[test]
fn rule_a_backfills_within_the_partition_before_the_pivot() {
    let t = swf(12, &[(1, 0, 500, 2, 500), (2, 0, 600, 12, 600), (3, 0, 400, 2, 400)]);
    let (p, out) = run(&t, "mq-backfill", &[NO_SPEC]);
    assert_eq!(starts(&out), [0, 500, 0]);
    assert_eq!([p.rule(0), p.rule(1), p.rule(2)], [Rule::Pivot, Rule::Pivot, Rule::A]);
    assert!(p.borrows().iter().all(|b| b.job == 1), "only the 12-processor job borrows");
}

/// Rule b, machine of 12 (4, 4, 4). At 0 a long job (4 procs) and a medium job (4 procs) fill
/// partitions 3 and 2. Job 3 (short, 3 procs, 500 s) starts in partition 1, leaving 1 idle.
/// Job 4 (short, 2 procs) is the pivot: it can start at 500, when partition 1 has 4 idle, 2 of
/// them extra. Job 5 (short, 1 proc, 900 s) runs past 500 so not rule a, but 1 <= min(idle 1,
/// extra 2): rule b, and the pivot still starts at 500.
#[test]
fn rule_b_uses_processors_the_pivot_leaves_idle() {
    let t = swf(
        12,
        &[
            (1, 0, 20_000, 4, 20_000),
            (2, 0, 5000, 4, 5000),
            (3, 0, 500, 3, 500),
            (4, 0, 100, 2, 100),
            (5, 0, 900, 1, 900),
        ],
    );
    let (p, out) = run(&t, "mq-backfill", &[NO_SPEC]);
    assert_eq!(starts(&out), [0, 0, 0, 500, 0]);
    assert_eq!(p.rule(4), Rule::B);
    assert!(p.borrows().is_empty(), "nobody borrowed: {:?}", p.borrows());
}

/// Rule c, machine of 12 (4, 4, 4). Job 1 (short, 4 procs, 100 s) fills partition 1; job 2
/// (short, 12 procs) is its pivot at 100; job 3 (medium, 6 procs, 1000 s) is partition 2's
/// pivot, booked after job 2: 200. Job 4 (short, 6 procs, 90 s) has no idle processor in
/// partition 1, so neither rule a nor b; it borrows 4 from partition 2 and 2 from partition 3
/// and ends at 90, delaying no pivot: rule c. With 150 s it would delay job 2: it waits, and
/// starts with job 3 at 200.
#[test]
fn rule_c_borrows_without_delaying_any_pivot() {
    let jobs =
        |run4: i64| swf(12, &[(1, 0, 100, 4, 100), (2, 0, 100, 12, 100), (3, 0, 1000, 6, 1000), (4, 0, run4, 6, run4)]);
    let (p, out) = run(&jobs(90), "mq-backfill", &[NO_SPEC]);
    assert_eq!(starts(&out), [0, 100, 200, 0]);
    assert_eq!(p.rule(3), Rule::C);
    assert_eq!(
        p.borrows()[..2],
        [Borrow { time: 0, job: 3, from: 1, to: 0, procs: 4 }, Borrow { time: 0, job: 3, from: 2, to: 0, procs: 2 }]
    );
    let (_, out) = run(&jobs(150), "mq-backfill", &[NO_SPEC]);
    assert_eq!(starts(&out), [0, 100, 200, 200]);
}

/// A job needing the whole machine does not starve: a stream of 2-processor short jobs every
/// 50 s cannot delay it once it is its partition's pivot. It arrives at 10 while jobs submitted
/// at 0 (ending at 100) run, and starts at 100.
#[test]
fn a_whole_machine_job_does_not_starve() {
    let mut rows: Vec<(u64, i64, i64, u32, i64)> = (0..100).map(|i| (i + 2, i as i64 * 50, 100, 2, 100)).collect();
    rows.insert(1, (1, 10, 20_000, 10, 20_000));
    let t = swf(10, &rows);
    let (p, out) = run(&t, "mq-backfill", &[NO_SPEC]);
    let wide = t.jobs.iter().position(|j| j.id == 1).expect("job 1") as JobIdx;
    assert_eq!(out.records[wide as usize].start, 100);
    assert_eq!(p.rule(wide), Rule::Pivot);
}

/// Priorities, machine of 10 with every job needing all of it. Job H1 (high) runs 0-100; L
/// (low, submitted at 1) is the pivot until H2 (high, at 2) arrives and displaces it: H2
/// starts at 100, L at 200. With every job high priority, L keeps its turn. A low-priority
/// pivot of another partition is displaced the same way: the high pivot is booked first.
#[test]
fn a_high_priority_job_displaces_a_low_priority_pivot() {
    let (high, low) = ids(Stream::Priority);
    let (h1, h2, l) = (high[0], high[1], low[0]);
    // Same partition (all short).
    let t = swf(10, &[(h1, 0, 100, 10, 100), (l, 1, 100, 10, 100), (h2, 2, 100, 10, 100)]);
    let (_, out) = run(&t, "mq-backfill", &[NO_SPEC, "high_priority=0.5"]);
    assert_eq!(starts(&out), [0, 200, 100]);
    assert!(out.records[1].low_priority && !out.records[2].low_priority);
    let (_, out) = run(&t, "mq-backfill", &[NO_SPEC, "high_priority=1"]);
    assert_eq!(starts(&out), [0, 100, 200]);
    // Across partitions: L is medium (partition 2), H2 short (partition 1).
    let t = swf(10, &[(h1, 0, 100, 10, 100), (l, 1, 1000, 10, 1000), (h2, 2, 100, 10, 100)]);
    let (_, out) = run(&t, "mq-backfill", &[NO_SPEC, "high_priority=0.5"]);
    assert_eq!(starts(&out), [0, 200, 100]);
    let (_, out) = run(&t, "mq-backfill", &[NO_SPEC, "high_priority=1"]);
    assert_eq!(starts(&out), [0, 100, 1100]);
}

/// Speculative runs, machine of 10. Job 1 (estimate 5000 s, crashes after 100 s) runs
/// speculatively at 0 and is done at 100. Job 2 (estimate 5000 s, runs 3000 s) runs
/// speculatively at 0, is killed at 180 and queued; it is its partition's pivot and starts
/// again at 180, ending at 3180. The 4 x 180 processor-seconds are lost.
#[test]
fn speculative_runs_end_crashed_jobs_and_requeue_the_rest() {
    let t = swf(10, &[(1, 0, 100, 4, 5000), (2, 0, 3000, 4, 5000)]);
    let (p, out) = run(&t, "mq-backfill", &[]);
    let r = &out.records;
    assert_eq!((r[0].start, r[0].end, r[0].killed_runs, r[0].limited_runs), (0, 100, 0, 1));
    assert_eq!((r[1].start, r[1].last_start, r[1].end, r[1].killed_runs, r[1].killed_s), (0, 180, 3180, 1, 180));
    assert_eq!([p.rule(0), p.rule(1)], [Rule::Speculative, Rule::Pivot]);
    let m = summarize(&t, &out, &Default::default());
    assert_eq!((m.speculative_runs, m.speculative_kills), (2, 1));
    assert!((m.speculative_lost_proc_h - 4.0 * 180.0 / 3600.0).abs() < 1e-12);
    // Job 2's delay d = 3180 - 3000 - 0 = 180: slowdown 1.06; job 1's is 1.
    assert!((m.avg_slowdown - (1.0 + 1.06) / 2.0).abs() < 1e-12, "{}", m.avg_slowdown);
}

/// The speculative run is booked on arrival at the earliest time and honoured. Machine of 10:
/// job 1 (short, 10 procs) runs 0-500. Job 2 (estimate 5000, 5 procs) arrives at 1: its
/// speculative run is booked for 500-680. Job 3 (short, 10 procs, at 2) can only start at 680.
/// Job 2, killed at 680, queues behind job 3 and runs from 1280. With `speculate_at=arrival`
/// job 2 cannot start at once, so it queues without speculating and runs 500-3500.
#[test]
fn speculative_runs_are_booked_at_the_earliest_time() {
    let t = swf(10, &[(1, 0, 500, 10, 500), (2, 1, 3000, 5, 5000), (3, 2, 600, 10, 600)]);
    let (p, out) = run(&t, "mq-backfill", &[]);
    let r = &out.records;
    assert_eq!((r[1].start, r[1].last_start, r[1].killed_runs), (500, 1280, 1));
    assert_eq!(r[2].start, 680);
    assert_eq!(p.rule(1), Rule::Pivot);
    let (_, out) = run(&t, "mq-backfill", &["speculate_at=arrival"]);
    let r = &out.records;
    assert_eq!((r[1].start, r[1].killed_runs, r[1].limited_runs, r[2].start), (500, 0, 0, 3500));
}

/// Advance reservations, every job asking `lead` = 1000 s after submission. Machine of 10:
/// job 1 (10 procs, 500 s) asks for 1000 and gets it; job 2 (6 procs, 2000 s) asks for 1000 but
/// job 1 holds the machine until 1500: granted 1500, missed; job 3 (4 procs, 300 s, at 600)
/// asks for 1600 and fits beside job 2: granted. Each starts exactly at its grant.
#[test]
fn reservations_are_granted_the_earliest_feasible_time_and_honoured() {
    let t = swf(10, &[(1, 0, 500, 10, 500), (2, 0, 2000, 6, 2000), (3, 600, 300, 4, 300)]);
    let (p, out) = run(&t, "mq-backfill", &[NO_SPEC, "reservations=1", "lead=1000"]);
    assert_eq!(starts(&out), [1000, 1500, 1600]);
    let r = &out.records;
    assert_eq!([r[0].requested, r[1].requested, r[2].requested], [1000, 1000, 1600]);
    assert_eq!(out.observed.promises.as_deref(), Some(&[1000, 1500, 1600][..]));
    assert!((0..3).all(|i| p.rule(i) == Rule::Reservation));
    let m = summarize(&t, &out, &Default::default());
    assert_eq!((m.reservations_requested, m.missed_reservations), (3, 1));
    assert!((m.reservation_delay_avg_s - 500.0 / 3.0).abs() < 1e-9);
}

/// Queued jobs plan around a reservation. R (asks for 1000, 10 procs, 100 s) is granted 1000.
/// Q1 (short, 10 procs, 999 s, at 1) ends exactly at 1000 and starts at once (intervals are
/// half-open). Q2 (short, 5 procs) and Q3 (medium, 5 procs) can only follow R: both at 1100.
#[test]
fn queued_jobs_never_delay_a_reservation() {
    let (asks, plain) = ids(Stream::Reservation);
    let t = swf(
        10,
        &[
            (asks[0], 0, 100, 10, 100),
            (plain[0], 1, 999, 10, 999),
            (plain[1], 2, 999, 5, 999),
            (plain[2], 3, 1000, 5, 1000),
        ],
    );
    let (_, out) = run(&t, "mq-backfill", &[NO_SPEC, "reservations=0.5", "lead=1000"]);
    assert_eq!(starts(&out), [1000, 1, 1100, 1100]);
    assert_eq!(out.records[0].requested, 1000);
    assert!(out.records[1..].iter().all(|r| r.requested < 0));
}

/// The same seed gives both policies the same priorities and reservation requests.
#[test]
fn baseline_and_multiple_queues_draw_the_same_workload() {
    let rows: Vec<(u64, i64, i64, u32, i64)> =
        (1..=300).map(|i| (i, i as i64 * 30, 200, 1 + (i % 7) as u32, 2000)).collect();
    let t = swf(16, &rows);
    let set = ["high_priority=0.75", "reservations=0.25", "seed=9"];
    let (_, a) = run(&t, "sq-backfill", &set);
    let (_, b) = run(&t, "mq-backfill", &set);
    let key = |o: &Outcome| o.records.iter().map(|r| (r.low_priority, r.requested)).collect::<Vec<_>>();
    assert_eq!(key(&a), key(&b));
    let low = a.records.iter().filter(|r| r.low_priority).count();
    assert!((40..110).contains(&low), "{low} of 300 low priority");
}

/// On the paper's traces, with priorities, reservations and speculation, at the trace's load
/// and 1.5 times it: the partitions always sum to the machine, no granted reservation starts
/// late, no speculative run lasts longer than its limit, and every job finishes.
#[test]
fn invariants_on_real_traces() {
    for name in ["KTH-SP2-1996-2.1-cln.swf.gz", "SDSC-SP2-1998-4.2-cln.swf.gz", "SDSC-Par-1996-3.1-cln.swf.gz"] {
        let bytes = common::read_shared(&format!("traces/{name}"));
        for load in [1.0, 1.5] {
            let t = parse(&bytes, &TraceOptions { load, ..TraceOptions::default() }).expect("trace parses");
            for policy in ["mq-backfill", "sq-backfill"] {
                let what = format!("{policy} on {name} at load {load}");
                let (p, out) = run(&t, policy, &["high_priority=0.75", "reservations=0.05"]);
                assert!(p.audit().passes > 1000, "{what}: audited {} passes", p.audit().passes);
                assert_eq!(p.partitions().iter().sum::<u32>(), t.machine, "{what}");
                let mut requests = 0;
                let promises = out.observed.promises.as_ref().expect("promises observed");
                for ((j, r), &reserved) in t.jobs.iter().zip(&out.records).zip(promises) {
                    assert!(r.end >= 0, "{what}: job {} never ran", j.id);
                    if r.requested >= 0 {
                        requests += 1;
                        assert_eq!(r.start, reserved, "{what}: job {} granted {reserved} started {}", j.id, r.start);
                        assert!(reserved >= r.requested, "{what}: job {} granted before its request", j.id);
                    }
                    if r.killed_runs > 0 {
                        assert_eq!((r.killed_runs, r.killed_s), (1, 180), "{what}: job {}", j.id);
                    } else if r.limited_runs > 0 {
                        assert!(j.runtime <= 180, "{what}: job {} ran {} s speculatively", j.id, j.runtime);
                    }
                    if r.limited_runs > 0 {
                        assert!(j.sched_runtime > 1000 && r.requested < 0, "{what}: job {} speculated", j.id);
                    }
                }
                assert!(requests > 100, "{what}: {requests} reservations");
            }
        }
    }
}
