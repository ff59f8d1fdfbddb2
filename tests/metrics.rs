//! Metric values worked out by hand on small schedules.

mod common;

use schedlab::engine::simulate;
use schedlab::metrics::{compress, summarize, Cut, MetricOptions};
use schedlab::policy::Configured;
use schedlab::trace::Trace;

fn outcome(trace: &Trace, policy: &str) -> schedlab::engine::Outcome {
    let mut p = Configured::new(policy, &[]).unwrap().build(trace);
    simulate(trace, p.as_mut(), &Default::default())
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

/// FCFS on four jobs, machine 4: 1 [0,100) 2p, 2 [100,150) 4p, 3 [150,180) 2p, 4 [150,160) 1p.
#[test]
fn fcfs_metrics_by_hand() {
    let t = common::trace(&common::swf(4, &[(0, 100, 2, 100), (10, 50, 4, 50), (20, 30, 2, 40), (30, 10, 1, 10)]));
    let out = outcome(&t, "fcfs");
    let m = summarize(&t, &out, &MetricOptions::default());
    // Waits 0, 90, 130, 120; responses 100, 140, 160, 130.
    assert_eq!((m.jobs, m.jobs_measured, m.jobs_unfinished), (4, 4, 0));
    assert!(close(m.avg_wait_s, 85.0));
    assert!(close(m.median_wait_s, 90.0)); // nearest rank: 2nd of [0, 90, 120, 130]
    assert!(close(m.p95_wait_s, 130.0));
    assert!(close(m.max_wait_s, 130.0));
    assert!(close(m.avg_response_s, 132.5));
    // Bounded slowdowns: 100/100 = 1, 140/50 = 2.8, 160/30, 130/10 = 13.
    assert!(close(m.avg_bsld, (1.0 + 2.8 + 160.0 / 30.0 + 13.0) / 4.0), "{}", m.avg_bsld);
    assert!(close(m.max_bsld, 13.0));
    // Used 2*100 + 4*50 + 2*30 + 1*10 = 470 processor-seconds over 180 s x 4 processors.
    assert!(close(m.utilization, 470.0 / 720.0));
    assert_eq!(m.makespan_s, 180);
    // Jobs wait during [10, 100) with 2 processors idle: 180 of 720 processor-seconds.
    assert!(close(m.loss_of_capacity, 0.25));
    assert_eq!(m.jobs_backfilled, 0);

    // tau = 60: 100/100, 140/60, 160/60, 130/60.
    let m = summarize(&t, &out, &MetricOptions { tau: 60, cut: Cut::None });
    assert!(close(m.avg_bsld, (1.0 + (140.0 + 160.0 + 130.0) / 60.0) / 4.0));
}

/// EASY on the same jobs backfills 3 and 4 and loses no capacity while they wait.
#[test]
fn easy_metrics_by_hand() {
    let t = common::trace(&common::swf(4, &[(0, 100, 2, 100), (10, 50, 4, 50), (20, 30, 2, 40), (30, 10, 1, 10)]));
    let out = outcome(&t, "easy");
    // 1 [0,100), 3 [20,50) backfilled, 4 [50,60) backfilled, 2 [100,150).
    let starts: Vec<i64> = out.records.iter().map(|r| r.start).collect();
    assert_eq!(starts, vec![0, 100, 20, 50]);
    let m = summarize(&t, &out, &MetricOptions::default());
    assert_eq!(m.jobs_backfilled, 2);
    assert!(close(m.avg_wait_s, (0.0 + 90.0 + 0.0 + 20.0) / 4.0));
    // Idle while jobs wait: [10,20) 2, [20,30) 0, [30,50) 0, [50,60) 1, [60,100) 2 -> 20 + 10 + 80 = 110.
    assert!(close(m.loss_of_capacity, 110.0 / (150.0 * 4.0)), "{}", m.loss_of_capacity);
}

/// The Tsafrir et al. cut drops the first 1% of terminated jobs and those ending after the last arrival.
#[test]
fn tsafrir_cut_selects_jobs() {
    let rows: Vec<(i64, i64, u32, i64)> = (0..200).map(|i| (i * 10, 5, 1, 5)).collect();
    let t = common::trace(&common::swf(1, &rows));
    let out = outcome(&t, "easy");
    let all = summarize(&t, &out, &MetricOptions::default());
    let cut = summarize(&t, &out, &MetricOptions { tau: 10, cut: Cut::Tsafrir });
    assert_eq!(all.jobs_measured, 200);
    // 2 first terminated jobs dropped; the last job ends at 1995, after the last arrival at 1990.
    assert_eq!(cut.jobs_measured, 197);
}

/// The busy/queued step function compresses into equal buckets with time-weighted means.
#[test]
fn series_compression_on_a_schedule() {
    let t = common::trace(&common::swf(4, &[(0, 100, 2, 100), (10, 50, 4, 50), (20, 30, 2, 40), (30, 10, 1, 10)]));
    let out = outcome(&t, "fcfs");
    let pts = compress(&out.series, 2); // buckets [0,90) and [90,180)
    assert_eq!(pts.len(), 2);
    assert!(close(pts[0].busy_avg, 2.0));
    assert_eq!(pts[0].queued_max, 3);
    // [90,100) 2 busy, [100,150) 4, [150,160) 3, [160,180) 2: (20 + 200 + 30 + 40) / 90.
    assert!(close(pts[1].busy_avg, 290.0 / 90.0), "{}", pts[1].busy_avg);
    assert_eq!(pts[1].busy_max, 4);
}

/// A job running a billion seconds past a one-second estimate (overrun=run) is re-planned with
/// doubling extensions, so the run ends after a few dozen passes, and every invariant holds.
#[test]
fn huge_overrun_is_cheap_to_simulate() {
    let text = common::swf(2, &[(0, 1_000_000_000, 1, 1), (5, 10, 2, 10)]);
    let opts = schedlab::trace::TraceOptions { overrun: schedlab::trace::Overrun::Run, ..Default::default() };
    let t = schedlab::trace::parse(text.as_bytes(), &opts).unwrap();
    let out = outcome(&t, "easy");
    assert!(out.passes < 100, "{} passes", out.passes);
    assert_eq!(out.records[1].start, 1_000_000_000);
    let m = summarize(&t, &out, &MetricOptions::default());
    assert!(m.loss_of_capacity.is_sign_positive());
    // A series asked for absurdly many points is bounded.
    assert!(compress(&out.series, usize::MAX).len() <= 100_000);
}

/// Loss of capacity is +0, not -0, when no job ever waits.
#[test]
fn no_waiting_means_zero_loss_of_capacity() {
    let t = common::trace(&common::swf(4, &[(0, 10, 1, 10), (100, 10, 1, 10)]));
    let m = summarize(&t, &outcome(&t, "fcfs"), &MetricOptions::default());
    assert_eq!(m.loss_of_capacity.to_bits(), 0.0f64.to_bits());
}
