//! A paper's qualitative findings checked on any trace: each claim is computed from fresh runs
//! and reported as holding or not, never hidden.
//!
//! Tsafrir, Etsion & Feitelson (2007): EASY+ improves on EASY, EASY++ on EASY+ and PERFECT++ on
//! EASY++ in average bounded slowdown (Tables 2-3); EASY+'s accuracy is far above EASY's
//! (Table 2: +28% to +100%); and doubling (X2) amplifies the heel-and-toe effect (Table 10).
//!
//! Ward, Mahood & West (2002), relaxed backfilling with omega = 0, 1, 2, 4 and infinity under
//! Est and Act: total wait falls as omega grows; omega = infinity gives the lowest wait in most
//! months; the wait of high classes (challenge, urgent) does not rise (Tables 1-6).

use serde::Serialize;

use crate::metrics::monthly::{monthly, Monthly};
use crate::policy::PolicyError;
use crate::run::{configure, run_one, PolicyResult, Settings};
use crate::trace::Trace;

/// The policies the Tsafrir et al. study runs, in table order.
pub const TSAFRIR_POLICIES: &[&str] = &["easy", "easy-sjbf", "easy+", "easy++", "perfect++", "x2"];

/// EASY+'s accuracy must be at least this many times EASY's to count as "far above".
pub const FAR_ABOVE: f64 = 1.2;

/// One claim of a paper and whether this trace bears it out.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// The claim, as the paper makes it.
    pub claim: &'static str,
    /// Whether it holds on this trace; `None` when the trace cannot tell (e.g. no high-class jobs).
    pub holds: Option<bool>,
    /// The numbers behind the verdict.
    pub detail: String,
}

/// The runs of a study and the findings drawn from them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Study {
    /// One result per policy, in [`TSAFRIR_POLICIES`] order.
    pub results: Vec<PolicyResult>,
    /// EASY+ and EASY++ with section 4's predictor (the last two jobs only if both have the new
    /// job's estimate: `window_type=immediate fullness=full`), which Tables 4-5 use; named
    /// `easy+ (sec. 4)` and `easy++ (sec. 4)`.
    pub section4: Vec<PolicyResult>,
    /// The claims checked.
    pub findings: Vec<Finding>,
}

impl Study {
    /// The result of `policy`.
    pub fn get(&self, policy: &str) -> Option<&PolicyResult> {
        self.results.iter().find(|r| r.policy == policy)
    }
}

/// Runs the Tsafrir et al. policies on `trace` and checks the paper's findings.
pub fn tsafrir(trace: &Trace, settings: &Settings) -> Result<Study, PolicyError> {
    // Accuracy, predictability and heel-and-toe are the paper's measures: every run observes them.
    let mut observing = settings.clone();
    observing.engine.observe = crate::engine::Observe::ALL;
    let settings = &observing;
    let configs = configure(&TSAFRIR_POLICIES.join(","), settings)?;
    let results: Vec<PolicyResult> = configs.iter().map(|c| run_one(trace, c, settings).1).collect();
    let m = |p: &str| &results.iter().find(|r| r.policy == p).expect("policy ran").metrics;
    let better = |claim: &'static str, a: &str, b: &str| {
        let (x, y) = (m(a).avg_bsld, m(b).avg_bsld);
        Finding {
            claim,
            holds: Some(x < y),
            detail: format!("{a} {x:.2} vs {b} {y:.2} ({:+.1}%)", 100.0 * (x - y) / y),
        }
    };
    let seen = |v: Option<f64>| v.unwrap_or(f64::NAN);
    let (acc_plus, acc_easy) = (seen(m("easy+").accuracy_pct), seen(m("easy").accuracy_pct));
    let (st_x2, st_easy) = (seen(m("x2").stalled_pct), seen(m("easy").stalled_pct));
    let findings = vec![
        better("EASY+ improves on EASY (avg bounded slowdown)", "easy+", "easy"),
        better("EASY++ improves on EASY+ (avg bounded slowdown)", "easy++", "easy+"),
        better("PERFECT++ improves on EASY++ (avg bounded slowdown)", "perfect++", "easy++"),
        Finding {
            claim: "EASY+'s accuracy is far above EASY's (at least 1.2x)",
            holds: Some(acc_plus >= FAR_ABOVE * acc_easy),
            detail: format!("easy+ {acc_plus:.1}% vs easy {acc_easy:.1}% ({:.2}x)", acc_plus / acc_easy.max(1e-9)),
        },
        Finding {
            claim: "X2 amplifies heel and toe: more stalled jobs than EASY (Table 10)",
            holds: Some(st_x2 > st_easy),
            detail: format!("x2 {st_x2:.1}% vs easy {st_easy:.1}% of reserved jobs stalled"),
        },
    ];
    let mut s4 = settings.clone();
    s4.policy.push(("window_type".into(), "immediate".into()));
    s4.policy.push(("fullness".into(), "full".into()));
    let mut section4 = Vec::new();
    for name in ["easy+", "easy++"] {
        let cfg = configure(name, &s4)?;
        let (_, mut r) = run_one(trace, &cfg[0], &s4);
        r.policy = format!("{name} (sec. 4)");
        section4.push(r);
    }
    Ok(Study { results, section4, findings })
}

/// The omega values of Ward et al.'s experiments.
pub const OMEGAS: &[&str] = &["0", "1", "2", "4", "inf"];

/// One relaxed-backfill run of the Ward et al. study.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OmegaRun {
    /// Omega, as set.
    pub omega: &'static str,
    /// Total wait of every job, in hours.
    pub wait_hours: f64,
    /// Total wait of high-class (challenge, urgent) jobs, in hours.
    pub high_wait_hours: f64,
    /// Jobs backfilled.
    pub jobs_backfilled: u64,
    /// Per calendar month.
    pub monthly: Monthly,
}

/// The Ward et al. study on one trace: Est and Act runs for every omega, and the findings.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WardStudy {
    /// Runs planning with user estimates, in [`OMEGAS`] order.
    pub est: Vec<OmegaRun>,
    /// Runs planning with actual runtimes, in [`OMEGAS`] order.
    pub act: Vec<OmegaRun>,
    /// High-class jobs in the trace (by the queue classes used).
    pub high_jobs: u64,
    /// The claims checked.
    pub findings: Vec<Finding>,
}

fn omega_runs(trace: &Trace, settings: &Settings, runtime: &str) -> Result<Vec<OmegaRun>, PolicyError> {
    let mut out = Vec::new();
    for &omega in OMEGAS {
        let mut s = settings.clone();
        s.policy.push(("omega".into(), omega.into()));
        s.policy.push(("runtime".into(), runtime.into()));
        let cfg = configure("relaxed", &s)?.remove(0);
        let classes = cfg.queue_classes(trace);
        let (outcome, r) = run_one(trace, &cfg, &s);
        let m = monthly(trace, &outcome, &|q| classes.is_high(q));
        out.push(OmegaRun {
            omega,
            wait_hours: m.months.iter().map(|x| x.wait_hours).sum(),
            high_wait_hours: m.months.iter().map(|x| x.high_wait_hours).sum(),
            jobs_backfilled: r.metrics.jobs_backfilled,
            monthly: m,
        });
    }
    Ok(out)
}

/// Where a sequence rises from one omega to the next, as "omega a -> b".
fn rises(runs: &[OmegaRun], value: impl Fn(&OmegaRun) -> f64) -> Vec<String> {
    runs.windows(2)
        .filter(|w| value(&w[1]) > value(&w[0]) * (1.0 + 1e-12))
        .map(|w| format!("{} -> {}", w[0].omega, w[1].omega))
        .collect()
}

fn series(runs: &[OmegaRun], value: impl Fn(&OmegaRun) -> f64) -> String {
    runs.iter().map(|r| format!("{}: {:.0}", r.omega, value(r))).collect::<Vec<_>>().join(", ")
}

/// Runs relaxed backfilling with every omega of [`OMEGAS`] on `trace`, planning with user
/// estimates (`runtime=est`) and with actual runtimes (`runtime=act`), with `settings` (e.g.
/// `queue_classes=header`), and checks the paper's findings.
pub fn ward(trace: &Trace, settings: &Settings) -> Result<WardStudy, PolicyError> {
    let e = omega_runs(trace, settings, "est")?;
    let a = omega_runs(trace, settings, "act")?;
    let falls = |claim: &'static str, runs: &[OmegaRun]| {
        let up = rises(runs, |r| r.wait_hours);
        Finding {
            claim,
            holds: Some(up.is_empty()),
            detail: format!(
                "total wait hours {}{}",
                series(runs, |r| r.wait_hours),
                if up.is_empty() { String::new() } else { format!("; rises at {}", up.join(", ")) }
            ),
        }
    };
    // Months in which omega = infinity gives the lowest total wait (ties count), among months with jobs.
    // Runs end at different times, so their month lists differ at the tail; months with
    // submissions are in every run, and are found by their label.
    let wait_in =
        |r: &OmegaRun, label: &str| r.monthly.months.iter().find(|m| m.month == label).map_or(0.0, |m| m.wait_hours);
    let (mut best, mut counted) = (0, 0);
    for m in e[0].monthly.months.iter().filter(|m| m.jobs > 0) {
        counted += 1;
        let inf = wait_in(&e[e.len() - 1], &m.month);
        if e.iter().all(|r| inf <= wait_in(r, &m.month) + 1e-9) {
            best += 1;
        }
    }
    let high_jobs: u64 = e[0].monthly.months.iter().map(|m| m.high_jobs).sum();
    let high_up = rises(&e, |r| r.high_wait_hours);
    let findings = vec![
        falls("Total wait falls as omega grows (Est)", &e),
        falls("Total wait falls as omega grows (Act)", &a),
        Finding {
            claim: "omega = infinity gives the lowest total wait in most months (Est)",
            holds: if counted == 0 { None } else { Some(2 * best > counted) },
            detail: format!("lowest in {best} of {counted} months"),
        },
        Finding {
            claim: "The wait of high classes does not rise with omega (Est)",
            holds: if high_jobs == 0 { None } else { Some(high_up.is_empty()) },
            detail: if high_jobs == 0 {
                "no high-class (challenge or urgent) jobs with these queue classes".into()
            } else {
                format!(
                    "{high_jobs} high-class jobs; wait hours {}{}",
                    series(&e, |r| r.high_wait_hours),
                    if high_up.is_empty() { String::new() } else { format!("; rises at {}", high_up.join(", ")) }
                )
            },
        },
    ];
    Ok(WardStudy { est: e, act: a, high_jobs, findings })
}
