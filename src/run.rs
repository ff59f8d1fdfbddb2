//! The whole flow in one call, shared by the command line and the page:
//! settings -> trace -> one simulation per policy -> metrics.

use serde::Serialize;

use crate::engine::decision::{DecisionLogger, LogWindow};
use crate::engine::{simulate_observed, EngineOptions, Fst, Observer, Outcome, Policy, Progress};
use crate::fairstart::FairStartWatch;
use crate::keys::{split_setting, KeyError};
use crate::metrics::monthly::{monthly, Monthly};
use crate::metrics::{accuracy_histogram, schedule_hash, summarize, AccuracyHistogram, MetricOptions, Metrics};
use crate::policy::{family_options, Configured, PolicyError, POLICIES};
use crate::trace::{Trace, TraceOptions, TraceReport};

/// All `KEY=VALUE` settings of a run, sorted into trace, engine, metric and policy options.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Settings {
    /// Trace options.
    pub trace: TraceOptions,
    /// Engine options.
    pub engine: EngineOptions,
    /// Metric options.
    pub metrics: MetricOptions,
    /// Settings left for the policies (normalised key, value).
    pub policy: Vec<(String, String)>,
}

impl Settings {
    /// Sorts `KEY=VALUE` strings; a key no trace or metric option takes is kept for the policies.
    pub fn parse<S: AsRef<str>>(settings: &[S]) -> Result<Settings, KeyError> {
        let mut out = Settings::default();
        for s in settings {
            let (k, v) = split_setting(s.as_ref())?;
            // `runtime=est` and `runtime=act` are Ward et al.'s Est and Act runs, an option of the
            // relaxed policy alone; the trace's `runtime` (estimate, exact, x2) plans every policy.
            let ward = k == "runtime" && matches!(crate::keys::normalize(&v).as_str(), "est" | "act");
            if ward || (!out.trace.set(&k, &v)? && !out.engine.set(&k, &v)? && !out.metrics.set(&k, &v)?) {
                out.policy.push((k, v));
            }
        }
        Ok(out)
    }

    /// These settings with `key=value` for the policies, replacing any earlier value of `key`
    /// (a study running one preset under several values).
    pub fn with_policy(&self, key: &str, value: String) -> Settings {
        let mut s = self.clone();
        s.policy.retain(|(k, _)| k != key);
        s.policy.push((key.to_string(), value));
        s
    }
}

/// Resolves `NAME[,NAME...]` or `all` and applies the policy settings to each; a setting no
/// selected policy takes is an error.
pub fn configure(names: &str, settings: &Settings) -> Result<Vec<Configured>, PolicyError> {
    let list: Vec<&str> = if names.trim().eq_ignore_ascii_case("all") {
        POLICIES.iter().map(|p| p.name).collect()
    } else {
        crate::policy::split_policies(names)
    };
    if list.is_empty() {
        return Err(PolicyError::Unknown(names.to_string()));
    }
    // The families in the run: a key two families take goes only to those present.
    let mut families: Vec<&str> = Vec::new();
    for name in &list {
        let base = crate::policy::split_inline(name).map_or(*name, |(base, _)| base);
        if let Some(info) = crate::policy::find(base) {
            if !families.contains(&info.family) {
                families.push(info.family);
            }
        }
    }
    let mut out: Vec<Configured> = Vec::new();
    for name in list {
        let c = Configured::new_among(name, &settings.policy, &families)?;
        // A policy named twice runs once; two different ones need two names.
        match out.iter().find(|o| o.policy == c.policy) {
            None => out.push(c),
            Some(o) if o.options == c.options => {}
            Some(_) => {
                return Err(PolicyError::Option(KeyError::new(
                    "name",
                    &c.policy,
                    "two different policies have this name: give each custom policy a name=",
                )))
            }
        }
    }
    for (k, v) in &settings.policy {
        let taken = out.iter().any(|c| family_options(c.family).iter().any(|d| d.key == k));
        if !taken {
            return Err(PolicyError::Option(KeyError::new(
                k,
                v,
                "no trace, metric or selected policy option has this key",
            )));
        }
    }
    Ok(out)
}

/// One policy's result, as printed in JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PolicyResult {
    /// Policy name.
    pub policy: String,
    /// Every option value it ran with.
    pub options: std::collections::BTreeMap<String, String>,
    /// Its metrics.
    pub metrics: Metrics,
    /// Hash of the schedule ([`crate::metrics::schedule_hash`]), to compare runs across builds.
    pub schedule_hash: String,
    /// Per-job prediction accuracy in 5% bins (Tsafrir et al. Fig. 2).
    pub accuracy_histogram: AccuracyHistogram,
    /// Jobs, utilization, wait and backfilled jobs per calendar month (Ward et al. Tables 1-6),
    /// with high classes as the policy's queue classes define them.
    pub monthly: Monthly,
    /// Why the run stopped before the end (its time budget), or `None` when it finished.
    pub stopped: Option<String>,
    /// What the policy said of its run: the settings it took from a slurm.conf, how often a
    /// cluster's nodes refused a job its counts allowed.
    pub notes: Vec<String>,
}

/// The engine and metric settings every policy of a run shared (trace options are in the report).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunSettings {
    /// Engine options.
    pub engine: EngineOptions,
    /// Metric options.
    pub metrics: MetricOptions,
}

/// The JSON document of a run: the trace report, shared settings and one result per policy.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunReport {
    /// The trace report.
    pub trace: TraceReport,
    /// Engine and metric settings.
    pub settings: RunSettings,
    /// One result per policy, in the order asked.
    pub results: Vec<PolicyResult>,
}

/// Simulates one configured policy, measuring fair start times if the engine options ask for
/// them (`fst`; by default for the fairshare family).
pub fn simulate_configured(
    trace: &Trace,
    cfg: &Configured,
    engine: &EngineOptions,
    observe: &mut dyn FnMut(Progress),
) -> Outcome {
    simulate_watched(trace, cfg, engine, Vec::new(), &mut every_64th(observe))
}

/// [`simulate_configured`] asking `go_on` every 64 scheduling passes whether to go on: a caller
/// that can be interrupted (Python's Ctrl-C) stops the run there, as a time budget does.
pub fn simulate_configured_until(
    trace: &Trace,
    cfg: &Configured,
    engine: &EngineOptions,
    go_on: &mut dyn FnMut(Progress) -> bool,
) -> Outcome {
    simulate_watched(trace, cfg, engine, Vec::new(), go_on)
}

/// `observe` called at one in 64 of the engine's questions (every 4096 passes), always going on.
fn every_64th(observe: &mut dyn FnMut(Progress)) -> impl FnMut(Progress) -> bool + '_ {
    let mut calls = 0u64;
    move |p| {
        calls += 1;
        if calls.is_multiple_of(64) {
            observe(p);
        }
        true
    }
}

/// Simulates one configured policy keeping its decision log within `window`
/// ([`Outcome::observed`]`.decisions`), as [`crate::explain`] reads it.
pub fn simulate_explained(trace: &Trace, cfg: &Configured, engine: &EngineOptions, window: LogWindow) -> Outcome {
    simulate_watched(trace, cfg, engine, vec![Box::new(DecisionLogger::new(window))], &mut |_| true)
}

/// [`simulate_configured`] with `extra` observers attached besides those the settings ask for.
fn simulate_watched<'a>(
    trace: &'a Trace,
    cfg: &Configured,
    engine: &EngineOptions,
    extra: Vec<Box<dyn Observer + 'a>>,
    go_on: &mut dyn FnMut(Progress) -> bool,
) -> Outcome {
    let mut policy = cfg.build(trace);
    simulate_built(trace, cfg, policy.as_mut(), engine, extra, go_on)
}

/// Simulates `policy`, built by the caller (with an outside runtime predictor, or decided
/// outside the engine), as [`simulate_configured_until`] does the policy `cfg` describes.
pub fn simulate_policy(
    trace: &Trace,
    cfg: &Configured,
    policy: &mut dyn Policy,
    engine: &EngineOptions,
    go_on: &mut dyn FnMut(Progress) -> bool,
) -> Outcome {
    simulate_built(trace, cfg, policy, engine, Vec::new(), go_on)
}

fn simulate_built<'a>(
    trace: &'a Trace,
    cfg: &Configured,
    policy: &mut dyn Policy,
    engine: &EngineOptions,
    extra: Vec<Box<dyn Observer + 'a>>,
    ask: &mut dyn FnMut(Progress) -> bool,
) -> Outcome {
    // The engine is asked every 64 passes whether to go on: often enough to keep a budget (or
    // a caller's interrupt) to a fraction of a second, rarely enough to cost nothing measurable.
    let deadline = engine.budget_ms.map(|b| clock_s() + b as f64 / 1000.0);
    let mut go_on = |p: Progress| ask(p) && deadline.is_none_or(|d| clock_s() < d);
    let fairshare = cfg.fairshare_options();
    let watch = match engine.fst {
        Fst::On => true,
        Fst::Off => false,
        Fst::Auto => fairshare.is_some(),
    };
    // Missed reservations are Lawson & Smirni's measure: their policies keep first promises.
    let mut observers = engine.observe.resolve(cfg.family == "multiqueue").build(trace);
    observers.extend(extra);
    if watch {
        let decay = fairshare.map(|o| o.decay).unwrap_or_default();
        observers.push(Box::new(FairStartWatch::new(trace, decay, fairshare.and_then(|o| o.max_runtime_s))));
    }
    simulate_observed(trace, policy, engine, observers, 64, &mut go_on)
}

/// Seconds on the runner's monotonic clock: the browser's in a worker, the system's natively.
fn clock_s() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        js_sys::Date::now() / 1000.0
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
        START.get_or_init(std::time::Instant::now).elapsed().as_secs_f64()
    }
}

/// Says where a simulation stopped (its time budget ran out, or the policy failed), and what
/// the statistics then cover.
fn stopped_message(trace: &Trace, outcome: &Outcome, budget_ms: Option<u64>) -> Option<String> {
    let finished = outcome.records.iter().filter(|r| r.end >= 0).count();
    let Some(p) = outcome.stopped else {
        // A run that ended with jobs never run lost them: that is said, never left silent.
        let lost = outcome.records.len() - finished;
        return (lost > 0).then(|| {
            format!(
                "{lost} of {} jobs never ran: the policy left them waiting with nothing left to happen; the statistics cover the finished jobs only",
                outcome.records.len()
            )
        });
    };
    let first = trace.jobs.first().map_or(0, |j| j.submit);
    let last = trace.jobs.last().map_or(0, |j| j.submit);
    let why = match &outcome.failed {
        Some(why) => format!("stopped: {why}"),
        None => match budget_ms {
            Some(b) => format!("stopped at the time budget of {} s", b as f64 / 1000.0),
            None => "stopped by its caller".to_string(),
        },
    };
    Some(format!(
        "{why}: {finished} of {} jobs finished ({} had arrived), {:.1} of {:.1} days simulated; the statistics cover the finished jobs only",
        p.total,
        p.arrived,
        (p.time - first) as f64 / 86400.0,
        (last - first) as f64 / 86400.0,
    ))
}

/// Simulates one configured policy and summarises it.
pub fn run_one(trace: &Trace, cfg: &Configured, settings: &Settings) -> (Outcome, PolicyResult) {
    run_one_observed(trace, cfg, settings, &mut |_| {})
}

/// [`run_one`], reporting progress every few thousand scheduling passes.
pub fn run_one_observed(
    trace: &Trace,
    cfg: &Configured,
    settings: &Settings,
    observe: &mut dyn FnMut(Progress),
) -> (Outcome, PolicyResult) {
    let outcome = simulate_configured(trace, cfg, &settings.engine, observe);
    let result = result_of(trace, cfg, settings, &outcome, &|a, b| {
        a();
        b();
    });
    (outcome, result)
}

/// Runs two independent pieces of work, at once where the caller can: the command line passes
/// rayon's `join`; the library itself starts no threads.
pub type Join<'a> = &'a (dyn Fn(&mut (dyn FnMut() + Send), &mut (dyn FnMut() + Send)) + Sync);

/// What one simulation of `cfg` measured: the summary on one side of `join`, the schedule
/// hash and the monthly figures on the other.
pub fn result_of(trace: &Trace, cfg: &Configured, settings: &Settings, outcome: &Outcome, join: Join) -> PolicyResult {
    let summary = || summarize(trace, outcome, &settings.metrics);
    let classes = cfg.queue_classes(trace);
    let others = || {
        let monthly = monthly(trace, outcome, &|q| classes.is_high(q));
        (schedule_hash(trace, outcome), accuracy_histogram(trace, outcome), monthly)
    };
    let (mut m, mut rest) = (None, None);
    join(&mut || m = Some(summary()), &mut || rest = Some(others()));
    // A join that skipped a side leaves it to be done here.
    let metrics = m.unwrap_or_else(summary);
    let (schedule_hash, accuracy_histogram, monthly) = rest.unwrap_or_else(others);
    PolicyResult {
        policy: cfg.policy.to_string(),
        options: cfg.options.clone(),
        metrics,
        schedule_hash,
        accuracy_histogram,
        monthly,
        stopped: stopped_message(trace, outcome, settings.engine.budget_ms),
        notes: outcome.notes.clone(),
    }
}
