//! Properties of every policy on random traces: the invariants of [`schedlab::check`] (the
//! machine is never over-subscribed, no job starts before its submission, every job gets exactly
//! its runtime of work, suspended jobs resume on their own processors, no processor serves two
//! jobs at once), runs are deterministic to the byte, and with exact plans (perfect
//! predictions) and FCFS reservations no job starts after its first reservation.

use proptest::prelude::*;

use schedlab::engine::{simulate, JobIdx, JobView, Outcome, Policy, System};
use schedlab::metrics::schedule_hash;
use schedlab::policy::{Configured, POLICIES};
use schedlab::run::{configure, run_one, Settings};
use schedlab::trace::{parse, Overrun, Trace, TraceOptions};

/// A random trace: up to 50 jobs of up to 6 users on up to 16 processors.
fn random_trace() -> impl Strategy<Value = String> {
    (1u32..=16, prop::collection::vec((0i64..4000, 1i64..3000, 1u32..=16, 1i64..3000, 0i32..6), 1..50)).prop_map(
        |(machine, mut jobs)| {
            jobs.sort_by_key(|j| j.0);
            let rows: Vec<Row> = jobs
                .into_iter()
                .map(|(submit, run, procs, est, user)| Row { submit, run, procs, est, user, ..Row::default() })
                .collect();
            swf(machine, &rows)
        },
    )
}

/// One job line of a random trace.
#[derive(Debug, Clone, Default)]
struct Row {
    submit: i64,
    run: i64,
    procs: u32,
    est: i64,
    user: i32,
    queue: i32,
    memory_kb: i64,
}

/// SWF text of `rows` on `machine` processors (widths cut to the machine), jobs numbered from 1.
fn swf(machine: u32, rows: &[Row]) -> String {
    let mut s = format!("; MaxProcs: {machine}\n");
    for (i, r) in rows.iter().enumerate() {
        let p = r.procs.min(machine);
        let mem = if r.memory_kb > 0 { r.memory_kb } else { -1 };
        s.push_str(&format!(
            "{} {} -1 {} {p} -1 {mem} {p} {} -1 1 {} 1 -1 {} -1 -1 -1\n",
            i + 1,
            r.submit,
            r.run,
            r.est,
            r.user,
            r.queue
        ));
    }
    s
}

/// A random trace for every policy: 1 to 30 jobs on 1 to 64 processors, bursts of arrivals
/// (gaps of 0), widths up to the machine, runtimes from a second to two hours with a few of
/// a day, estimates below and above the runtime, several users and queues, memory or none.
fn varied_trace() -> impl Strategy<Value = String> {
    let row = (
        prop_oneof![Just(0i64), 0i64..600, 0i64..20_000],
        prop_oneof![1i64..100, 1i64..7200, 80_000i64..90_000],
        1u32..=64,
        prop_oneof![Just(None), Just(Some(1.0)), (0.1f64..4.0).prop_map(Some)],
        0i32..5,
        0i32..3,
        prop_oneof![Just(-1i64), 1i64..4_000_000],
    );
    (1u32..=64, prop::collection::vec(row, 1..30)).prop_map(|(machine, rows)| {
        let mut t = 0;
        let rows: Vec<Row> = rows
            .into_iter()
            .map(|(gap, run, procs, est, user, queue, memory_kb)| {
                t += gap;
                // None: an estimate of its own, unrelated to the runtime.
                let est = est.map_or(run.max(1) * 3 / 2 + 7, |f| ((run as f64 * f) as i64).max(1));
                Row { submit: t, run, procs: 1 + (procs - 1) % machine, est, user, queue, memory_kb }
            })
            .collect();
        swf(machine, &rows)
    })
}

/// Starts waiting jobs by the machine's free processors alone, which is what a policy without
/// reservations does whatever it predicts: in queue order up to the first that does not fit
/// (FCFS, `none`), in queue order past it (first fit, `queue`), or widest or narrowest first.
struct ByTheMachine {
    order: &'static str,
    waiting: Vec<(JobIdx, u32)>,
}

impl Policy for ByTheMachine {
    fn on_arrival(&mut self, job: JobView, _sys: &mut System) {
        self.waiting.push((job.idx, job.procs));
    }
    fn on_completion(&mut self, _job: JobView, _sys: &mut System) {}
    fn schedule(&mut self, sys: &mut System) {
        let mut candidates = self.waiting.clone();
        match self.order {
            "best_fit" => candidates.sort_by_key(|&(i, p)| (std::cmp::Reverse(p), i)),
            "worst_fit" => candidates.sort_by_key(|&(i, p)| (p, i)),
            _ => {}
        }
        for (i, p) in candidates {
            if p <= sys.free() && sys.start(i) {
                self.waiting.retain(|w| w.0 != i);
            } else if self.order == "none" {
                break;
            }
        }
    }
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
    &["predict_at=submit", "predict_at=pass"],
    &["correction_pass=on", "correction_pass=off"],
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

/// Random options of the fairshare family (Leung et al.); short maximum runtimes and starvation
/// times so that random traces of a few hours meet them.
const FAIRSHARE: &[&[&str]] = &[
    &["reservations=none", "reservations=conservative", "reservations=dynamic"],
    &["starve_h=0.1", "starve_h=1", "starve_h=24", "starve_h=off"],
    &["starvation=all", "starvation=fair"],
    &["heavy_share=0.1", "heavy_share=0.5", "heavy_share=1"],
    &["max_runtime_h=none", "max_runtime_h=0.01", "max_runtime_h=0.5", "max_runtime_h=72"],
    &["decay=0.5", "decay=1"],
    &["decay_period_h=0.5", "decay_period_h=24"],
];

/// Random options of the slurm family: both schedulers and priorities, backfill every pass or
/// every 30 s, windows shorter and longer than the random jobs, each limit on and off.
const SLURM: &[&[&str]] = &[
    &["scheduler=backfill", "scheduler=builtin"],
    &["priority=basic", "priority=multifactor"],
    &["weight_age=0", "weight_age=1000"],
    &["weight_fairshare=0", "weight_fairshare=10000"],
    &["weight_jobsize=0", "weight_jobsize=1000"],
    &["favor_small=yes", "favor_small=no"],
    &["bf_interval=0", "bf_interval=30"],
    &["bf_window=1", "bf_window=60", "bf_window=inf"],
    &["bf_resolution=1", "bf_resolution=60"],
    &["bf_max_job_test=1", "bf_max_job_test=3", "bf_max_job_test=inf"],
    &["bf_max_job_user=0", "bf_max_job_user=1"],
    &["bf_min_prio_reserve=0", "bf_min_prio_reserve=500"],
    &["reservations=all", "reservations=1", "reservations=0"],
];

/// Trace and engine settings every policy takes.
const COMMON: &[&[&str]] = &[
    &["passes=timestamp", "passes=event"],
    &["overrun=kill", "overrun=run"],
    &["runtime=estimate", "runtime=exact", "runtime=x2"],
];

/// The option rows of `family`, as the property tests vary them.
fn family_rows(family: &str) -> &'static [&'static [&'static str]] {
    match family {
        "backfill" => OPTIONS,
        "relaxed" => RELAXED,
        "multiqueue" => MULTIQUEUE,
        "preempt" => PREEMPT,
        "fairshare" => FAIRSHARE,
        "slurm" => SLURM,
        other => panic!("no option rows for family {other}"),
    }
}

/// A random policy of [`POLICIES`] and random settings: each of its family's rows (and the
/// common rows) either left at the preset's value or set to one of the row's values, so the
/// presets are run as named as well as far from them.
fn random_policy() -> impl Strategy<Value = (&'static str, Vec<String>)> {
    let names: Vec<&'static str> = POLICIES.iter().map(|p| p.name).collect();
    (prop::sample::select(names), prop::collection::vec(any::<Option<prop::sample::Index>>(), 24)).prop_map(
        |(name, picks)| {
            let family = schedlab::policy::find(name).map_or("", |p| p.family);
            let rows = COMMON.iter().chain(family_rows(family));
            let settings =
                rows.zip(picks).filter_map(|(row, pick)| pick.map(|i| row[i.index(row.len())].to_string())).collect();
            (name, settings)
        },
    )
}

/// `settings` with every observer attached first, so the checks see every measurement.
fn observing(settings: &[String]) -> Settings {
    let mut all = vec!["observe=all".to_string()];
    all.extend_from_slice(settings);
    Settings::parse(&all).expect("settings parse")
}

fn run(trace: &Trace, settings: &[String]) -> Outcome {
    run_policy(trace, "easy", settings)
}

fn run_policy(trace: &Trace, policy: &str, settings: &[String]) -> Outcome {
    let s = observing(settings);
    let cfg = Configured::new(policy, &s.policy).expect("policy configures");
    let mut p = cfg.build(trace);
    simulate(trace, p.as_mut(), &s.engine)
}

/// The invariants every schedule keeps ([`schedlab::check::schedule`]); speculative runs are
/// tried once per job.
fn check(trace: &Trace, out: &Outcome) -> Result<(), TestCaseError> {
    schedlab::check::schedule(trace, out).map_err(TestCaseError::fail)?;
    if let Some((j, r)) = trace.jobs.iter().zip(&out.records).find(|(_, r)| r.killed_runs > 1) {
        prop_assert!(false, "job {} killed {} times", j.id, r.killed_runs);
    }
    Ok(())
}

/// Runs `name` with `settings` (placements recorded) through [`run_one`], as the CLI does.
fn run_all_the_way(name: &str, settings: &[String], text: &str) -> Result<(Trace, Outcome, String), TestCaseError> {
    let mut s = Settings::parse(settings).map_err(|e| TestCaseError::fail(format!("{e}")))?;
    s.engine.placements = true;
    let t = parse(text.as_bytes(), &s.trace).map_err(|e| TestCaseError::fail(format!("{e}")))?;
    let cfg = configure(name, &s).map_err(|e| TestCaseError::fail(format!("{name} {settings:?}: {e}")))?;
    prop_assert_eq!(cfg.len(), 1);
    let (out, result) = run_one(&t, &cfg[0], &s);
    let json = serde_json::to_string(&result).map_err(|e| TestCaseError::fail(format!("{e}")))?;
    Ok((t, out, json))
}

proptest! {
    // About 540 cases per policy; each is two runs of up to 30 jobs, about a millisecond.
    #![proptest_config(ProptestConfig { cases: 20000, ..ProptestConfig::default() })]

    /// Every named policy, with random options of its family, on varied traces: the invariants
    /// with placements (so processor identities are checked), and a second run that gives the
    /// same outcome, the same schedule hash and the same result JSON to the byte.
    #[test]
    fn every_policy_keeps_the_invariants_and_is_deterministic(text in varied_trace(), (name, settings) in random_policy()) {
        let (t, a, json_a) = run_all_the_way(name, &settings, &text)?;
        if let Err(e) = schedlab::check::schedule(&t, &a) {
            prop_assert!(false, "{} {:?}: {}", name, &settings, e);
        }
        let (_, b, json_b) = run_all_the_way(name, &settings, &text)?;
        prop_assert_eq!(&a, &b, "{} {:?}: outcomes differ", name, &settings);
        prop_assert_eq!(schedule_hash(&t, &a), schedule_hash(&t, &b));
        prop_assert_eq!(json_a, json_b, "{} {:?}: results differ", name, &settings);
    }
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
        if let Err(e) = schedlab::check::reservations(&t, &out) {
            prop_assert!(false, "{} ({:?})", e, s);
        }
    }

    /// Without reservations (k = 0) the profile holds running jobs with no planned end: whatever
    /// the predictions and their corrections, and whether jobs outlive their estimates or not,
    /// every pass starts exactly the jobs the machine's free processors allow (in arrival order:
    /// SJF reordering is another matter).
    #[test]
    fn without_reservations_the_machine_decides(
        text in random_trace(),
        settings in random_settings(),
        order in prop::sample::select(vec!["none", "queue", "best_fit", "worst_fit"]),
        overrun in any::<bool>(),
    ) {
        let opts = TraceOptions { overrun: if overrun { Overrun::Run } else { Overrun::Kill }, ..TraceOptions::default() };
        let t = parse(text.as_bytes(), &opts).expect("trace parses");
        let mut s = settings;
        s.retain(|x| !["k=", "backfill=", "passes=", "reserve="].iter().any(|key| x.starts_with(key)));
        s.extend(["k=0".to_string(), format!("backfill={order}")]);
        let out = run(&t, &s);
        check(&t, &out)?;
        let want = simulate(&t, &mut ByTheMachine { order, waiting: Vec::new() }, &Default::default());
        prop_assert_eq!(&out.records, &want.records, "{:?}", &s);
    }

    /// A run with the decision log takes every step of every pass; a plain one skips the jobs
    /// whose outcome it knows (the backfilling family's quiet passes). Both give the same
    /// schedule with any options.
    #[test]
    fn shortcuts_change_no_schedule(text in random_trace(), settings in random_settings(), overrun in any::<bool>()) {
        let opts = TraceOptions { overrun: if overrun { Overrun::Run } else { Overrun::Kill }, ..TraceOptions::default() };
        let t = parse(text.as_bytes(), &opts).expect("trace parses");
        let s = Settings::parse(&settings).expect("settings parse");
        let cfg = Configured::new("easy", &s.policy).expect("policy configures");
        let plain = simulate(&t, cfg.build(&t).as_mut(), &s.engine);
        let logged = schedlab::run::simulate_explained(&t, &cfg, &s.engine, Default::default());
        prop_assert_eq!(&plain.records, &logged.records, "{:?}", &settings);
    }

    /// Nor for Slurm's scheduler with any of its options, whose main passes and backfill
    /// cycles go on from the last ones when only submissions came between; jobs running past
    /// their limits (`overrun`) move the plan under them.
    #[test]
    fn slurms_shortcuts_change_no_schedule(text in random_trace(), settings in pick(SLURM), overrun in any::<bool>(), easy in any::<bool>()) {
        let opts = TraceOptions { overrun: if overrun { Overrun::Run } else { Overrun::Kill }, ..TraceOptions::default() };
        let t = parse(text.as_bytes(), &opts).expect("trace parses");
        let s = Settings::parse(&settings).expect("settings parse");
        let cfg = Configured::new(if easy { "easy-cluster" } else { "slurm" }, &s.policy).expect("policy configures");
        let plain = simulate(&t, cfg.build(&t).as_mut(), &s.engine);
        let logged = schedlab::run::simulate_explained(&t, &cfg, &s.engine, Default::default());
        prop_assert_eq!(&plain.records, &logged.records, "{:?}", &settings);
    }

    /// Multiple-queue backfilling with any options: invariants, partitions that sum to the
    /// machine, speculative runs within their limit, and with jobs killed at their estimates
    /// every granted reservation started exactly at its grant.
    #[test]
    fn multiqueue_keeps_the_invariants(text in random_trace(), settings in random_multiqueue(), overrun in any::<bool>()) {
        let opts = TraceOptions { overrun: if overrun { Overrun::Run } else { Overrun::Kill }, ..TraceOptions::default() };
        let t = parse(text.as_bytes(), &opts).expect("trace parses");
        for policy in ["mq-backfill", "sq-backfill"] {
            let s = observing(&settings);
            let cfg = Configured::new(policy, &s.policy).expect("policy configures");
            let o = cfg.multiqueue_options().expect("multiqueue").clone();
            let limit = o.speculate_s;
            let mut p = schedlab::policy::multiqueue::MultiQueue::new(o, t.machine, t.jobs.len(), t.jobs[0].submit);
            let out = simulate(&t, &mut p, &s.engine);
            check(&t, &out)?;
            prop_assert_eq!(p.audit().violations, 0, "partitions");
            prop_assert_eq!(p.partitions().iter().sum::<u32>(), t.machine);
            for (i, (j, r)) in t.jobs.iter().zip(&out.records).enumerate() {
                if r.killed_runs > 0 {
                    prop_assert_eq!(r.killed_s, limit, "job {} killed after {} s", j.id, r.killed_s);
                }
                if !overrun && r.requested >= 0 {
                    let reserved = out.observed.promises.as_ref().expect("promises observed")[i];
                    prop_assert_eq!(r.start, reserved, "job {} granted {} started {} ({:?})", j.id, reserved, r.start, &settings);
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
            if let Err(e) = schedlab::check::schedule(&t, &out) {
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
