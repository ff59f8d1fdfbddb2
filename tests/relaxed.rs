//! Priorities and relaxed backfilling (Ward, Mahood & West 2002) on hand-made traces whose
//! schedules are worked out in the comments, and the special cases of section 3 against the
//! dedicated policies on random traces.

mod common;

use proptest::prelude::*;

use schedlab::engine::simulate;
use schedlab::policy::Configured;
use schedlab::run::Settings;
use schedlab::trace::Trace;

/// SWF from `(submit, runtime, procs, estimate, queue)` rows, jobs numbered from 1.
fn swf(machine: u32, jobs: &[(i64, i64, u32, i64, i32)]) -> String {
    let mut s = format!("; MaxProcs: {machine}\n");
    for (i, (submit, run, procs, est, queue)) in jobs.iter().enumerate() {
        s.push_str(&format!("{} {submit} -1 {run} {procs} -1 -1 {procs} {est} -1 1 1 1 -1 {queue} -1 -1 -1\n", i + 1));
    }
    s
}

fn starts(trace: &Trace, name: &str, settings: &[&str]) -> Vec<i64> {
    let s = Settings::parse(settings).expect("settings parse");
    let cfg = Configured::new(name, &s.policy).expect("policy configures");
    let mut policy = cfg.build(trace);
    simulate(trace, policy.as_mut(), &s.engine).records.iter().map(|r| r.start).collect()
}

/// Priority by time waited only (FCFS order), recalculated at every pass.
const BY_WAIT: [&str; 4] = ["alpha=1", "beta=0", "gamma=0", "dt=0"];

/// The window arithmetic of Fig. 2. Machine of 10; runtimes equal estimates.
/// - Job 1 (6 procs, 1000 s) runs from 0. Job 2 (10 procs, 100 s) is the highest-priority
///   waiting job from 1: it can start at 1000.
/// - Job 3 (4 procs, 1500 s) arrives at 2: hpwait = 998. It is backfilled if 1500 <= omega x 998,
///   so for omega 2 and 4 (and infinity), not for 0 or 1.
/// - Job 4 (4 procs, 4000 s) arrives at 3, when no processor is free.
/// - omega 0 and 1: job 2 runs 1000-1100, jobs 3 and 4 at 1100.
/// - omega 2 and 4: at 1000 (job 1 ends) job 2 can start at 1502 (job 3's end): hpwait 502, window
///   1004 or 2008, too short for job 4; job 2 runs 1502-1602, job 4 at 1602.
/// - omega infinity: job 4 is backfilled at 1000 and job 2 waits for it, until 5000.
#[test]
fn fig2_window_is_omega_times_hpwait() {
    let t = common::trace(&swf(
        10,
        &[(0, 1000, 6, 1000, 0), (1, 100, 10, 100, 0), (2, 1500, 4, 1500, 0), (3, 4000, 4, 4000, 0)],
    ));
    for (omega, want) in [
        ("0", [0, 1000, 1100, 1100]),
        ("1", [0, 1000, 1100, 1100]),
        ("2", [0, 1502, 2, 1602]),
        ("4", [0, 1502, 2, 1602]),
        ("inf", [0, 5000, 2, 1000]),
    ] {
        let o = format!("omega={omega}");
        let mut s = BY_WAIT.to_vec();
        s.push(&o);
        assert_eq!(starts(&t, "relaxed", &s), want, "{o}");
    }
}

/// Section 2's wording (`window=text`): a backfilled job may delay the highest-priority job by
/// at most (omega - 1) x that job's runtime (100 s). Same trace: job 3 would move job 2 from 1000
/// to 1502. omega 2 allows 100 s: refused, as is job 4. omega 10 allows 900 s: job 3 runs at 2;
/// at 1000 job 4 would move job 2 from 1502 to 5000: refused.
#[test]
fn text_window_bounds_the_delay_of_the_top_job() {
    let t = common::trace(&swf(
        10,
        &[(0, 1000, 6, 1000, 0), (1, 100, 10, 100, 0), (2, 1500, 4, 1500, 0), (3, 4000, 4, 4000, 0)],
    ));
    // omega below 1 would allow a negative delay: nothing is backfilled, as with omega 0.
    for (omega, want) in [
        ("0.5", [0, 1000, 1100, 1100]),
        ("2", [0, 1000, 1100, 1100]),
        ("10", [0, 1502, 2, 1602]),
        ("inf", [0, 5000, 2, 1000]),
    ] {
        let o = format!("omega={omega}");
        let mut s = BY_WAIT.to_vec();
        s.extend([o.as_str(), "window=text"]);
        assert_eq!(starts(&t, "relaxed", &s), want, "{o}");
    }
}

/// Priorities are recalculated on the dt grid. Machine of 1, alpha 1, beta -1 (P = hours waited
/// / hours of runtime), gamma 0. Job 1 runs 0-59. Job 2 (1000 s) waits from 1, job 3 (100 s) from
/// 50. At 59 one of them starts:
/// - dt = 0: priorities at 59: job 2 58/1000, job 3 9/100: job 3 first, then job 2 at 159;
/// - dt = 60 (or 30): priorities from the grid point 0 (or 30): job 3 has not waited at all yet
///   there, job 2 has (or both 0: the earlier job wins): job 2 first, then job 3 at 1059.
#[test]
fn priorities_follow_the_dt_grid() {
    let t = common::trace(&swf(1, &[(0, 59, 1, 59, 0), (1, 1000, 1, 1000, 0), (50, 100, 1, 100, 0)]));
    let base = ["alpha=1", "beta=-1", "gamma=0", "omega=0"];
    let run = |dt: &str| {
        let mut s = base.to_vec();
        s.push(dt);
        starts(&t, "relaxed", &s)
    };
    assert_eq!(run("dt=0"), [0, 159, 59]);
    assert_eq!(run("dt=60"), [0, 59, 1059]);
    assert_eq!(run("dt=30"), [0, 59, 1059]);
}

/// Queue classes: r^delta. Machine of 1; job 1 runs 0-100; job 2 (queue 1) waits from 1, job 3
/// (queue 3) from 2, both 100 s. All queues in class 0: job 2 (waited longer) first. With queue 3
/// urgent (class 2, r = 10) job 3's priority is 100 times its wait: job 3 first. `*:` sets the
/// class of unlisted queues: making every queue but 3 background (-1) gives the same order.
#[test]
fn queue_classes_weigh_priorities() {
    let t = common::trace(&swf(1, &[(0, 100, 1, 100, 0), (1, 100, 1, 100, 1), (2, 100, 1, 100, 3)]));
    let mut s = BY_WAIT.to_vec();
    s.push("omega=0");
    assert_eq!(starts(&t, "relaxed", &s), [0, 100, 200]);
    s.push("queue_classes=3:2");
    assert_eq!(starts(&t, "relaxed", &s), [0, 200, 100]);
    s.pop();
    s.push("queue_classes=*:-1,3:0");
    assert_eq!(starts(&t, "relaxed", &s), [0, 200, 100]);
    for bad in ["queue_classes=3", "queue_classes=x:1", "omega=-1", "r=0", "window=wide"] {
        let p = Settings::parse(&[bad]).expect("settings parse");
        assert!(Configured::new("relaxed", &p.policy).is_err(), "{bad} accepted");
    }
}

/// `window` is taken by two families: in a run of both, a value goes to the one it fits; a run
/// of one refuses a value that is the other's.
#[test]
fn window_setting_goes_to_the_family_it_fits() {
    let s = Settings::parse(&["window=text", "omega=3"]).expect("settings");
    let cfg = schedlab::run::configure("easy++,relaxed", &s).expect("both configure");
    assert_eq!(cfg[0].options["window"], "2");
    assert_eq!(cfg[1].options["window"], "text");
    let s = Settings::parse(&["window=5"]).expect("settings");
    let cfg = schedlab::run::configure("easy++,relaxed", &s).expect("both configure");
    assert_eq!((cfg[0].options["window"].as_str(), cfg[1].options["window"].as_str()), ("5", "fig2"));
    assert!(schedlab::run::configure("relaxed", &s).is_err(), "window=5 is not relaxed's");
    let s = Settings::parse(&["window=text"]).expect("settings");
    assert!(schedlab::run::configure("easy++", &s).is_err(), "window=text is not the predictor's");
}

/// The Act run plans with actual runtimes (`runtime=act`, an option of `relaxed` alone): job 3
/// of the Fig. 2 trace estimated at 1500 s but running 10 s fits the window of omega 1. Other
/// policies of the same run keep planning with estimates.
#[test]
fn act_runs_use_actual_runtimes() {
    let t = common::trace(&swf(10, &[(0, 1000, 6, 1000, 0), (1, 100, 10, 100, 0), (2, 10, 4, 1500, 0)]));
    let mut s = BY_WAIT.to_vec();
    s.push("omega=1");
    assert_eq!(starts(&t, "relaxed", &s), [0, 1000, 1100]);
    s.push("runtime=act");
    assert_eq!(starts(&t, "relaxed", &s), [0, 1000, 2]);
    let both = Settings::parse(&["runtime=act"]).expect("settings");
    assert_eq!(both.trace.runtime, schedlab::trace::RuntimeSource::Estimate);
    let cfg = schedlab::run::configure("easy,relaxed", &both).expect("configures");
    assert_eq!((cfg[0].options.get("runtime"), cfg[1].options["runtime"].as_str()), (None, "act"));
    assert!(schedlab::run::configure("easy", &both).is_err(), "runtime=act is relaxed's alone");
}

/// A random trace: up to 40 jobs on up to 16 processors, runtimes and estimates up to 2000 s
/// (runtimes beyond the estimate are cut there, or kept with `overrun=run`),
/// arrivals within 3000 s, queues 0-3.
fn random_trace() -> impl Strategy<Value = String> {
    (1u32..=16, prop::collection::vec((0i64..3000, 1i64..2000, 1u32..=16, 1i64..2000, 0i32..4), 1..40)).prop_map(
        |(machine, mut jobs)| {
            jobs.sort_by_key(|j| j.0);
            for j in &mut jobs {
                j.2 = j.2.min(machine);
            }
            swf(machine, &jobs)
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Section 3's special cases give exactly the schedules of the dedicated policies, whatever
    /// the recalculation grid.
    #[test]
    fn special_cases_are_the_dedicated_policies(
        text in random_trace(),
        dt in prop::sample::select(vec!["dt=0", "dt=60", "dt=600"]),
        passes in prop::sample::select(vec!["passes=timestamp", "passes=event"]),
        overrun in any::<bool>(),
    ) {
        let opts = schedlab::trace::TraceOptions {
            overrun: if overrun { schedlab::trace::Overrun::Run } else { schedlab::trace::Overrun::Kill },
            ..Default::default()
        };
        let t = schedlab::trace::parse(text.as_bytes(), &opts).expect("trace parses");
        for (name, sets) in [
            ("fcfs", ["alpha=1", "beta=0", "gamma=0", "omega=0"]),
            ("fffs", ["alpha=1", "beta=0", "gamma=0", "omega=inf"]),
            ("bffs", ["alpha=0", "beta=0", "gamma=1", "omega=inf"]),
            ("wffs", ["alpha=0", "beta=0", "gamma=-1", "omega=inf"]),
        ] {
            let mut s = sets.to_vec();
            s.extend([dt, passes]);
            prop_assert_eq!(starts(&t, "relaxed", &s), starts(&t, name, &[passes]), "{} {} {}", name, dt, passes);
        }
    }
}

/// `queue_classes=header` reads classes from the header's queue names.
#[test]
fn queue_classes_from_header_names() {
    let text = "; MaxProcs: 1\n; Queue: 1 express\n; Queue: 2 high\n; Queue: 3 normal\n; Queue: 4 standby\n; Queue: 5 URGENT_runs\n\
                ; Queue: 6 low_priority\n; Queue: 7 highmem\n; Queue: 8 slow\n\
                1 0 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 3 -1 -1 -1\n";
    let t = common::trace(text);
    let s = Settings::parse(&["queue_classes=header"]).expect("settings");
    let cfg = Configured::new("relaxed", &s.policy).expect("configures");
    let c = cfg.queue_classes(&t);
    // Whole words, and a low word wins: `highmem` and `slow` say nothing, `low_priority` is low.
    assert_eq!([1, 2, 3, 4, 5, 6, 7, 8, 9].map(|q| c.class(q)), [1, 1, 0, -1, 2, -1, 0, 0, 0]);
    assert!(c.is_high(2) && !c.is_high(3));
    let none = Configured::new("relaxed", &[]).expect("configures").queue_classes(&t);
    assert!(!(1..=5).any(|q| none.is_high(q)));
}

/// A job counts as backfilled when Fig. 2's backfill step starts it (Tables 2 and 5), not when
/// its priority does. Fig. 2 trace, omega 2: job 3 is the one backfill. Priority by processors
/// (gamma 1, alpha 0) starts job 2 before job 1 on an idle machine: out of submit order, yet
/// not a backfill.
#[test]
fn backfilled_means_started_by_the_backfill_step() {
    let t = common::trace(&swf(
        10,
        &[(0, 1000, 6, 1000, 0), (1, 100, 10, 100, 0), (2, 1500, 4, 1500, 0), (3, 4000, 4, 4000, 0)],
    ));
    let run = |sets: &[&str]| {
        let s = Settings::parse(sets).expect("settings parse");
        let cfg = Configured::new("relaxed", &s.policy).expect("configures");
        let mut p = cfg.build(&t);
        simulate(&t, p.as_mut(), &s.engine).records.iter().map(|r| r.backfilled).collect::<Vec<_>>()
    };
    let mut s = BY_WAIT.to_vec();
    s.push("omega=2");
    assert_eq!(run(&s), [false, false, true, false]);
    s.pop();
    s.push("omega=0");
    assert_eq!(run(&s), [false; 4]);
    let wide_first = common::trace(&swf(10, &[(0, 100, 2, 100, 0), (0, 100, 8, 100, 0)]));
    let s = Settings::parse(&["alpha=0", "beta=0", "gamma=1", "omega=0"]).expect("settings");
    let cfg = Configured::new("relaxed", &s.policy).expect("configures");
    let mut p = cfg.build(&wide_first);
    let out = simulate(&wide_first, p.as_mut(), &s.engine);
    assert_eq!(out.records.iter().map(|r| (r.start, r.backfilled)).collect::<Vec<_>>(), [(0, false), (0, false)]);
}
