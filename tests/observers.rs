//! Observers are attached only when asked for, and never change a schedule.
//!
//! A plain run keeps no study bookkeeping: no predictions, promises, heel-and-toe records or
//! fair start times, and the metrics built on them are absent (null), not zero. Attaching every
//! observer leaves every job's start and end where they were, for every policy.

mod common;

use schedlab::engine::{Observe, Outcome};
use schedlab::metrics::summarize;
use schedlab::run::{configure, simulate_configured, Settings};
use schedlab::trace::{parse, Trace, TraceOptions};

fn kth() -> Trace {
    parse(&common::read_shared("traces/KTH-SP2-1996-2.1-cln.swf.gz"), &TraceOptions::default()).expect("trace parses")
}

fn run(trace: &Trace, policy: &str, settings: &[&str]) -> Outcome {
    let s = Settings::parse(settings).expect("settings parse");
    let cfg = configure(policy, &s).expect("policy configures").remove(0);
    simulate_configured(trace, &cfg, &s.engine, &mut |_| {})
}

/// Which observers left results: predictions, promises, heel and toe, fair starts.
fn attached(out: &Outcome) -> [bool; 4] {
    let o = &out.observed;
    [o.predictions.is_some(), o.promises.is_some(), o.heel_toe.is_some(), o.fair_starts.is_some()]
}

#[test]
fn a_plain_run_attaches_no_observer() {
    let t = kth();
    for policy in ["fcfs", "easy", "conservative", "easy++", "relaxed", "ss"] {
        let out = run(&t, policy, &[]);
        assert_eq!(attached(&out), [false; 4], "{policy}");
        let m = summarize(&t, &out, &Default::default());
        assert_eq!(
            (m.accuracy_pct, m.reserved_pct, m.stalled_pct, m.fst_miss_share),
            (None, None, None, None),
            "{policy}: metrics of unobserved quantities are absent"
        );
    }
    // Each paper's own measure comes with its policies: first promises for the multiple queues
    // (missed reservations), fair start times for the CPlant fairshare policies.
    assert_eq!(attached(&run(&t, "mq-backfill", &[])), [false, true, false, false]);
    assert_eq!(attached(&run(&t, "cplant24.nomax.all", &[])), [false, false, false, true]);
    assert_eq!(attached(&run(&t, "cplant24.nomax.all", &["fst=off"])), [false; 4]);
    assert_eq!(attached(&run(&t, "mq-backfill", &["observe=none"])), [false; 4]);
}

#[test]
fn observers_are_attached_as_named() {
    let t = kth();
    assert_eq!(attached(&run(&t, "easy", &["observe=predictions"])), [true, false, false, false]);
    assert_eq!(attached(&run(&t, "easy", &["observe=promises,heel_toe"])), [false, true, true, false]);
    assert_eq!(attached(&run(&t, "easy", &["observe=all", "fst=on"])), [true; 4]);
    let m = summarize(&t, &run(&t, "easy", &["observe=all"]), &Default::default());
    assert!(m.accuracy_pct.is_some_and(|a| a > 0.0 && a < 100.0), "{:?}", m.accuracy_pct);
    assert!(m.reserved_pct.is_some_and(|r| r > 0.0), "{:?}", m.reserved_pct);
    assert!(m.stalled_pct.is_some(), "{:?}", m.stalled_pct);
    assert!(Settings::parse(&["observe=accuracy"]).is_err(), "an unknown observer is refused");
    assert_eq!(Observe::parse("ALL").unwrap(), Observe::ALL);
}

#[test]
fn observing_changes_no_schedule() {
    let t = kth();
    let s = Settings::default();
    for cfg in configure("all", &s).expect("every policy configures") {
        let plain = Settings::parse(&["observe=none", "fst=off"]).unwrap();
        let watched = Settings::parse(&["observe=all", "fst=on"]).unwrap();
        let a = simulate_configured(&t, &cfg, &plain.engine, &mut |_| {});
        let b = simulate_configured(&t, &cfg, &watched.engine, &mut |_| {});
        assert_eq!(attached(&a), [false; 4], "{}", cfg.policy);
        assert_eq!(attached(&b), [true; 4], "{}", cfg.policy);
        assert_eq!(a.records, b.records, "{}: observing moved a job", cfg.policy);
        assert_eq!((a.series, a.passes), (b.series, b.passes), "{}", cfg.policy);
    }
}
