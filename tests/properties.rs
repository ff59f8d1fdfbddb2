//! Properties of every backfilling and prediction configuration on random traces: the machine
//! is never over-subscribed, no job starts before its submission, every job runs exactly its
//! runtime, runs are deterministic, and with exact plans (perfect predictions) and FCFS
//! reservations no job starts after its first reservation.

mod common;

use proptest::prelude::*;

use schedlab::engine::{simulate, Outcome};
use schedlab::policy::Configured;
use schedlab::run::Settings;
use schedlab::trace::{parse, Overrun, Trace, TraceOptions};

/// A random trace: up to 50 jobs of up to 6 users on up to 16 processors.
fn random_trace() -> impl Strategy<Value = String> {
    (1u32..=16, prop::collection::vec((0i64..4000, 1i64..3000, 1u32..=16, 1i64..3000, 0i32..6), 1..50)).prop_map(
        |(machine, mut jobs)| {
            jobs.sort_by_key(|j| j.0);
            let mut s = format!("; MaxProcs: {machine}\n");
            for (i, (submit, run, procs, est, user)) in jobs.iter().enumerate() {
                let p = (*procs).min(machine);
                s.push_str(&format!("{} {submit} -1 {run} {p} -1 -1 {p} {est} -1 1 {user} 1 -1 1 -1 -1 -1\n", i + 1));
            }
            s
        },
    )
}

/// The options the property tests choose from, one value per row.
const OPTIONS: &[&[&str]] = &[
    &["k=0", "k=1", "k=2", "k=inf"],
    &["backfill=queue", "backfill=sjbf", "backfill=best_fit", "backfill=worst_fit", "backfill=none"],
    &["reserve=fcfs", "reserve=sjf"],
    &["backfill_end=prediction", "backfill_end=estimate"],
    &["predict=estimate", "predict=history", "predict=perfect"],
    &["factor=1", "factor=2", "factor=0.5"],
    &["correction=none", "correction=estimate", "correction=gradual", "correction=exponential", "correction=double"],
    &["window=1", "window=2", "window=5"],
    &["window_type=all", "window_type=immediate", "window_type=extended"],
    &["fullness=partial", "fullness=full"],
    &["metric=avg", "metric=med", "metric=min", "metric=max"],
    &["propagation=off", "propagation=on"],
    &["passes=timestamp", "passes=event"],
];

/// One random value from each row of `rows`.
fn pick(rows: &'static [&'static [&'static str]]) -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(any::<prop::sample::Index>(), rows.len())
        .prop_map(move |picks| rows.iter().zip(picks).map(|(row, i)| row[i.index(row.len())].to_string()).collect())
}

/// Random options of the backfilling family, with the engine's pass mode.
fn random_settings() -> impl Strategy<Value = Vec<String>> {
    pick(OPTIONS)
}

/// Random options of the relaxed family (Ward et al.).
const RELAXED: &[&[&str]] = &[
    &["alpha=0", "alpha=1", "alpha=2"],
    &["beta=-1", "beta=0", "beta=1"],
    &["gamma=-1", "gamma=0", "gamma=1"],
    &["r=1", "r=10"],
    &["omega=0", "omega=0.5", "omega=1", "omega=2", "omega=inf"],
    &["dt=0", "dt=60", "dt=3600"],
    &["queue_classes=none", "queue_classes=1:2,2:-1", "queue_classes=*:1"],
    &["runtime=est", "runtime=act"],
    &["window=fig2", "window=text"],
    &["passes=timestamp", "passes=event"],
];

fn random_relaxed() -> impl Strategy<Value = Vec<String>> {
    pick(RELAXED)
}

/// Random options of the multiple-queue family (Lawson & Smirni).
const MULTIQUEUE: &[&[&str]] = &[
    &["queues=1", "queues=2", "queues=3"],
    &["thresholds=100,1000", "thresholds=1000,10000"],
    &["high_priority=1", "high_priority=0.5", "high_priority=0"],
    &["speculate_s=0", "speculate_s=50", "speculate_s=180"],
    &["speculate_above=0", "speculate_above=100", "speculate_above=1000"],
    &["speculate_at=earliest", "speculate_at=arrival"],
    &["reservations=0", "reservations=0.3", "reservations=1"],
    &["lead=0", "lead=500", "lead=uniform:0:5000", "lead=exp:300"],
    &["seed=1", "seed=2"],
    &["passes=timestamp", "passes=event"],
];

fn random_multiqueue() -> impl Strategy<Value = Vec<String>> {
    pick(MULTIQUEUE)
}

/// Random options of the preemption family (Kettimuthu et al.).
const PREEMPT: &[&[&str]] = &[
    &["sf=1", "sf=1.5", "sf=2", "sf=5"],
    &["period_s=60", "period_s=600"],
    &["overhead=off", "overhead=on"],
    &["seed=1", "seed=2"],
    &["slice_s=60", "slice_s=600"],
    &["limit_factor=1", "limit_factor=1.5"],
];

fn random_preempt() -> impl Strategy<Value = Vec<String>> {
    pick(PREEMPT)
}

fn run(trace: &Trace, settings: &[String]) -> Outcome {
    run_policy(trace, "easy", settings)
}

fn run_policy(trace: &Trace, policy: &str, settings: &[String]) -> Outcome {
    let s = Settings::parse(settings).expect("settings parse");
    let cfg = Configured::new(policy, &s.policy).expect("policy configures");
    let mut p = cfg.build(trace);
    simulate(trace, p.as_mut(), &s.engine)
}

/// The invariants every schedule keeps.
fn check(trace: &Trace, out: &Outcome) -> Result<(), TestCaseError> {
    let mut events: Vec<(i64, i64)> = Vec::new();
    for (j, r) in trace.jobs.iter().zip(&out.records) {
        prop_assert!(r.start >= j.submit, "job {} starts at {} before its submit {}", j.id, r.start, j.submit);
        prop_assert_eq!(r.end, r.last_start + j.runtime, "job {} does not run its runtime", j.id);
        prop_assert!((0.0..=1.0).contains(&r.accuracy), "job {} accuracy {}", j.id, r.accuracy);
        prop_assert!(r.killed_runs <= 1, "job {} killed {} times", j.id, r.killed_runs);
        if r.killed_runs == 1 {
            prop_assert!(r.last_start >= r.start + r.killed_s, "job {} restarted before its kill", j.id);
            events.push((r.start, j.procs as i64));
            events.push((r.start + r.killed_s, -(j.procs as i64)));
        } else {
            prop_assert_eq!(r.last_start, r.start, "job {} restarted without a kill", j.id);
        }
        events.push((r.last_start, j.procs as i64));
        events.push((r.end, -(j.procs as i64)));
    }
    events.sort();
    let mut busy = 0;
    for (t, d) in events {
        busy += d;
        prop_assert!(busy <= trace.machine as i64, "{} processors busy at {} on {}", busy, t, trace.machine);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Any configuration: invariants, and the same schedule twice.
    #[test]
    fn every_configuration_keeps_the_invariants(text in random_trace(), settings in random_settings(), overrun in any::<bool>()) {
        let opts = TraceOptions { overrun: if overrun { Overrun::Run } else { Overrun::Kill }, ..TraceOptions::default() };
        let t = parse(text.as_bytes(), &opts).expect("trace parses");
        let a = run(&t, &settings);
        check(&t, &a)?;
        prop_assert_eq!(&a, &run(&t, &settings), "not deterministic");
    }

    /// Exact plans (perfect predictions, runtimes that never pass their estimate) and FCFS
    /// reservations: no reserved job starts after its first reservation.
    #[test]
    fn exact_plans_keep_every_reservation(text in random_trace(), settings in random_settings()) {
        let t = parse(text.as_bytes(), &TraceOptions::default()).expect("trace parses");
        let mut s = settings;
        s.retain(|x| !x.starts_with("predict=") && !x.starts_with("reserve=") && !x.starts_with("factor=") && !x.starts_with("backfill=none"));
        s.extend(["predict=perfect".to_string(), "reserve=fcfs".to_string(), "factor=1".to_string()]);
        let out = run(&t, &s);
        check(&t, &out)?;
        for (j, r) in t.jobs.iter().zip(&out.records) {
            prop_assert!(r.reserved < 0 || r.start <= r.reserved, "job {} reserved {} started {} ({:?})", j.id, r.reserved, r.start, s);
        }
    }

    /// Multiple-queue backfilling with any options: invariants, partitions that sum to the
    /// machine, speculative runs within their limit, and with jobs killed at their estimates
    /// every granted reservation started exactly at its grant.
    #[test]
    fn multiqueue_keeps_the_invariants(text in random_trace(), settings in random_multiqueue(), overrun in any::<bool>()) {
        let opts = TraceOptions { overrun: if overrun { Overrun::Run } else { Overrun::Kill }, ..TraceOptions::default() };
        let t = parse(text.as_bytes(), &opts).expect("trace parses");
        for policy in ["mq-backfill", "sq-backfill"] {
            let s = Settings::parse(&settings).expect("settings parse");
            let cfg = Configured::new(policy, &s.policy).expect("policy configures");
            let o = cfg.multiqueue_options().expect("multiqueue").clone();
            let limit = o.speculate_s;
            let mut p = schedlab::policy::multiqueue::MultiQueue::new(o, t.machine, t.jobs.len(), t.jobs[0].submit);
            let out = simulate(&t, &mut p, &s.engine);
            check(&t, &out)?;
            prop_assert_eq!(p.audit().violations, 0, "partitions");
            prop_assert_eq!(p.partitions().iter().sum::<u32>(), t.machine);
            for (j, r) in t.jobs.iter().zip(&out.records) {
                if r.killed_runs > 0 {
                    prop_assert_eq!(r.killed_s, limit, "job {} killed after {} s", j.id, r.killed_s);
                }
                if !overrun && r.requested >= 0 {
                    prop_assert_eq!(r.start, r.reserved, "job {} granted {} started {} ({:?})", j.id, r.reserved, r.start, &settings);
                }
            }
            if !overrun {
                prop_assert_eq!(p.audit().late_bookings, 0, "late bookings ({:?})", &settings);
            }
            prop_assert_eq!(&out, &run_policy(&t, policy, &settings), "not deterministic");
        }
    }

    /// Selective suspension, TSS and IS with any options: pieces add up to runtimes, resumed
    /// jobs hold their own processors, no processor serves two jobs, the same schedule twice, and
    /// for SS and TSS the same schedule with the routine run at every tick.
    #[test]
    fn preemption_keeps_the_invariants(text in random_trace(), settings in random_preempt(), overrun in any::<bool>()) {
        let opts = TraceOptions { overrun: if overrun { Overrun::Run } else { Overrun::Kill }, ..TraceOptions::default() };
        let t = parse(text.as_bytes(), &opts).expect("trace parses");
        for policy in ["ss", "tss", "is"] {
            let s = Settings::parse(&settings).expect("settings parse");
            let cfg = Configured::new(policy, &s.policy).expect("policy configures");
            let engine = schedlab::engine::EngineOptions { placements: true, ..s.engine };
            let out = simulate(&t, cfg.build(&t).as_mut(), &engine);
            if let Err(e) = common::check_pieces(&t, &out) {
                prop_assert!(false, "{} {:?}: {}", policy, &settings, e);
            }
            prop_assert_eq!(&out, &simulate(&t, cfg.build(&t).as_mut(), &engine), "not deterministic");
            if policy != "is" {
                let mut every = s.policy.clone();
                every.push(("ticks".into(), "every".into()));
                let cfg = Configured::new(policy, &every).expect("policy configures");
                let all = simulate(&t, cfg.build(&t).as_mut(), &engine);
                prop_assert_eq!(&out.records, &all.records, "{} {:?}: skipped ticks changed the schedule", policy, &settings);
            }
        }
    }

    /// Relaxed backfilling with any options: invariants, and the same schedule twice.
    #[test]
    fn relaxed_keeps_the_invariants(text in random_trace(), settings in random_relaxed(), overrun in any::<bool>()) {
        let opts = TraceOptions { overrun: if overrun { Overrun::Run } else { Overrun::Kill }, ..TraceOptions::default() };
        let t = parse(text.as_bytes(), &opts).expect("trace parses");
        let a = run_policy(&t, "relaxed", &settings);
        check(&t, &a)?;
        prop_assert_eq!(&a, &run_policy(&t, "relaxed", &settings), "not deterministic");
    }
}
