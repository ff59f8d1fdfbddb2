//! A simulation kept for what is asked of it afterwards: the command line's pictures
//! (`Result.plot`, `schedlab.plot`) and its explanation of a job (`Result.explain`), made by the
//! crate's own chart and explanation code.

use std::sync::{Arc, OnceLock};

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use schedlab::engine::Outcome;
use schedlab::policy::Configured;
use schedlab::render::chart::ChartOptions;
use schedlab::render::compare::{compare_chart, fitted, CompareChart, RunView};
use schedlab::render::gantt::{gantt_png, gantt_svg, picture_window, Gantt};
use schedlab::run::{result_of, simulate_configured, PolicyResult, Settings};
use schedlab::trace::Trace;

use crate::error;

/// Points of the busy and queue lines, as the command line's pictures compress them.
const POINTS: usize = 400;

/// One run, with what its pictures and explanations are made from.
#[pyclass(module = "schedlab._schedlab", frozen)]
pub struct Run {
    trace: Arc<Trace>,
    policy: String,
    schedule_hash: String,
    made: Made,
    pictured: OnceLock<Result<Pictured, String>>,
}

/// How a run can be looked at again.
enum Made {
    /// By a named policy and its settings: run again as the command line runs it for pictures
    /// (every job's processors, every measure) and with the decision log for explanations.
    Named(Box<(Configured, Settings)>),
    /// By a Python policy or predictions, which cannot be run again from here: its outcome
    /// (simulated with every job's processors) and result are kept.
    Kept(Box<(Outcome, PolicyResult, i64)>),
}

/// What the pictures of one run are drawn from.
struct Pictured {
    view: RunView,
    gantt: Gantt,
}

impl Run {
    /// A run of the named policy `cfg` with settings `s`, whose schedule hashes to `hash`.
    pub fn named(trace: Arc<Trace>, cfg: &Configured, s: &Settings, hash: &str) -> Run {
        Run {
            policy: cfg.policy.clone(),
            schedule_hash: hash.to_string(),
            made: Made::Named(Box::new((cfg.clone(), s.clone()))),
            trace,
            pictured: OnceLock::new(),
        }
    }

    /// A run that cannot be made again: its outcome and result are kept.
    pub fn kept(trace: Arc<Trace>, outcome: Outcome, result: PolicyResult, tau: i64) -> Run {
        Run {
            policy: result.policy.clone(),
            schedule_hash: result.schedule_hash.clone(),
            made: Made::Kept(Box::new((outcome, result, tau))),
            trace,
            pictured: OnceLock::new(),
        }
    }

    fn pictured(&self) -> PyResult<&Pictured> {
        let p = self.pictured.get_or_init(|| {
            let t = &self.trace;
            match &self.made {
                Made::Named(b) => {
                    let (cfg, s) = &**b;
                    let mut s = s.clone();
                    s.engine = s.engine.pictured();
                    let outcome = simulate_configured(t, cfg, &s.engine, &mut |_| {});
                    let result = result_of(t, cfg, &s, &outcome, &|a, b| {
                        a();
                        b();
                    });
                    if result.schedule_hash != self.schedule_hash {
                        return Err(format!(
                            "{}: the run for pictures scheduled differently ({} against {})",
                            self.policy, result.schedule_hash, self.schedule_hash
                        ));
                    }
                    let view = RunView::new(t, &outcome, &result, s.metrics.tau, POINTS);
                    Ok(Pictured { view, gantt: Gantt::new(t, &outcome) })
                }
                Made::Kept(b) => {
                    let (outcome, result, tau) = &**b;
                    let view = RunView::new(t, outcome, result, *tau, POINTS);
                    Ok(Pictured { view, gantt: Gantt::new(t, outcome) })
                }
            }
        });
        p.as_ref().map_err(|e| error(e.clone()))
    }
}

#[pymethods]
impl Run {
    /// Why job `id` started when it did, as `schedlab explain --job ID` says it: the text, and
    /// the same as JSON text.
    fn explain(&self, py: Python<'_>, id: u64) -> PyResult<(String, String)> {
        let Made::Named(b) = &self.made else {
            return Err(error(format!(
                "explain() re-runs a named policy with its decision log; {} was a Python policy or had predictions",
                self.policy
            )));
        };
        let (cfg, s) = &**b;
        let t = self.trace.clone();
        let e = py.detach(|| schedlab::explain::explain_job(&t, cfg, s, id)).map_err(error)?;
        let json = serde_json::to_string(&e).map_err(|e| error(e.to_string()))?;
        Ok((e.text(&t), json))
    }
}

/// The kinds of picture a run has, as `schedlab run --plot` names their files.
pub const KINDS: &str = "compare-METRIC (compare-avg_wait_s, compare-avg_bsld, compare-p95_wait_s, compare-utilization, or any metric's key), wait-cdf, busy, queue, gpus, memory, categories, accuracy, gantt";

/// The picture `kind` of `runs` (all on one trace), `width` x `height` pixels: its SVG, its
/// PNG when `png` is set, and its display list's hash (none for the Gantt chart, which is
/// rasterised), each equal to `schedlab run --policy ... --plot` on the same runs.
#[pyfunction]
#[pyo3(signature = (runs, kind, width, height, png=false))]
pub fn picture<'py>(
    py: Python<'py>,
    runs: Vec<PyRef<'py, Run>>,
    kind: &str,
    width: u32,
    height: u32,
    png: bool,
) -> PyResult<(String, Option<Bound<'py, PyBytes>>, Option<String>)> {
    let Some(first) = runs.first() else {
        return Err(error("plot() needs at least one result"));
    };
    // The same trace read twice is one trace: its jobs and machine are what the charts show.
    let same = |t: &Trace| t.machine == first.trace.machine && t.jobs == first.trace.jobs;
    if runs.iter().any(|r| !Arc::ptr_eq(&r.trace, &first.trace) && !same(&r.trace)) {
        return Err(error("plot() draws results of one trace together; these ran on different traces"));
    }
    if !(160..=8000).contains(&width) || !(120..=8000).contains(&height) {
        return Err(error(format!("plot size {width}x{height}: from 160x120 to 8000x8000 pixels")));
    }
    let trace = first.trace.clone();
    let runs: Vec<&Run> = runs.iter().map(|r| &**r).collect();
    let made: Vec<&Pictured> = py.detach(|| runs.iter().map(|r| r.pictured()).collect::<PyResult<_>>())?;
    let views: Vec<RunView> = made.iter().map(|p| p.view.clone()).collect();
    let opts = ChartOptions::picture(width, height, trace.header.unix_start_time);
    let one = |what: &str| -> PyResult<usize> {
        match runs.len() {
            1 => Ok(0),
            n => Err(error(format!("{what} draws one run; plot() was given {n} (use each result's plot())"))),
        }
    };
    let which = match kind {
        "gantt" => {
            let i = one("the Gantt chart")?;
            let gantts: Vec<&Gantt> = made.iter().map(|p| &p.gantt).collect();
            let (window, what) = picture_window(&views, &gantts);
            let gopts = ChartOptions { x_range: window, ..opts };
            let title = format!("{}: {what}", runs[i].policy);
            let g = &made[i].gantt;
            let svg = gantt_svg(g, &title, &gopts);
            let png = png.then(|| PyBytes::new(py, &gantt_png(g, &title, &gopts, 1)));
            return Ok((svg, png, None));
        }
        "wait-cdf" => CompareChart::WaitCdf,
        "busy" => CompareChart::Busy,
        "queue" => CompareChart::Queue,
        "gpus" => CompareChart::Gpus,
        "memory" => CompareChart::Memory,
        "categories" => CompareChart::Categories { run: one("the categories chart")? },
        "accuracy" => CompareChart::Accuracy { run: one("the accuracy chart")? },
        k => {
            let metric = k.strip_prefix("compare-").unwrap_or(k);
            if !views[0].metrics.contains_key(metric) {
                return Err(error(format!("plot kind {k:?}: the kinds are {KINDS}")));
            }
            CompareChart::MetricBars { metric: metric.to_string() }
        }
    };
    let chart = compare_chart(&views, &which, &fitted(&views, &which, &opts)).map_err(error)?;
    let png = png.then(|| PyBytes::new(py, &chart.png(1)));
    Ok((chart.svg(), png, Some(chart.hash())))
}
