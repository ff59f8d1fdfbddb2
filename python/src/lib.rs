//! `schedlab._schedlab`: the simulator's library as a Python extension module. The Python
//! package `schedlab` (python/schedlab/) wraps it in its public API; everything here is the
//! crate itself, called as the command line calls it, so results and messages are the same.

mod gym;
mod pictures;
mod pypolicy;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use rayon::prelude::*;
use schedlab::engine::EngineOptions;
use schedlab::policy::external::External;
use schedlab::policy::Configured;
use schedlab::predict::GivenPredictions;
use schedlab::run::{configure, result_of, simulate_configured_until, simulate_policy, Settings};
use schedlab::studies::sweep::{degradation, grid, ranking, Axis};

pyo3::create_exception!(
    _schedlab,
    Error,
    PyException,
    "A trace, an option or a policy SchedLab cannot use; the message is the command line's."
);

/// How many traces this process has rebuilt from pickles: a worker counts the traces it was
/// sent (a sweep sends each once).
static UNPICKLED: AtomicU64 = AtomicU64::new(0);

/// A simulation's result: its JSON, its schedule's columns, its steps' columns.
type Tables<'py> = (String, Columns<'py>, Vec<(&'static str, Bound<'py, PyBytes>)>);

/// [`Tables`], and the run its pictures and explanations are made from.
type Simulated<'py> = (String, Columns<'py>, Vec<(&'static str, Bound<'py, PyBytes>)>, pictures::Run);

/// Columns of one table: (name, numpy dtype, little-endian values).
type Columns<'py> = Vec<(&'static str, &'static str, Bound<'py, PyBytes>)>;

/// What a pickled trace is rebuilt from: the function and its arguments.
type Reduced<'py> = (Bound<'py, PyAny>, (Bound<'py, PyBytes>, Vec<String>, String, Option<String>));

fn error(message: impl Into<String>) -> PyErr {
    Error::new_err(message.into())
}

/// How often a run looks for Ctrl-C.
const SIGNALS_EVERY: Duration = Duration::from_millis(100);

/// The engine's go-on question answered by Python's signal handlers: every tenth of a second
/// they run (the GIL taken for that moment, on the thread that runs the simulation; only the
/// main thread's see Ctrl-C), and the first error they raise (KeyboardInterrupt) stops the run.
struct Interrupt {
    last: Instant,
    raised: Option<PyErr>,
}

impl Interrupt {
    fn new() -> Interrupt {
        Interrupt { last: Instant::now(), raised: None }
    }

    fn go_on(&mut self) -> bool {
        if self.raised.is_some() {
            return false;
        }
        if self.last.elapsed() < SIGNALS_EVERY {
            return true;
        }
        self.last = Instant::now();
        match signals() {
            Ok(()) => true,
            Err(e) => {
                self.raised = Some(e);
                false
            }
        }
    }

    /// The error that stopped the run, if one did.
    fn check(self) -> PyResult<()> {
        self.raised.map_or(Ok(()), Err)
    }
}

/// Runs Python's signal handlers (the GIL taken for that moment): Ctrl-C is their error.
fn signals() -> PyResult<()> {
    Python::attach(|py| py.check_signals())
}

/// Settings from `KEY=VALUE` strings, with the command line's message on a bad one.
fn settings(sets: &[String]) -> PyResult<Settings> {
    Settings::parse(sets).map_err(|e| error(e.to_string()))
}

/// A trace read and ready to simulate, with the options it was read with.
#[pyclass(module = "schedlab._schedlab", frozen)]
struct Trace {
    /// The packed scan (what the page's worker sends), to pickle without the jobs' memory.
    packed: Arc<Vec<u8>>,
    /// The trace options, as `KEY=VALUE`.
    sets: Vec<String>,
    name: String,
    trace: Arc<schedlab::trace::Trace>,
    /// Its cluster as JSON, when it has one: what a pickled trace takes along.
    cluster: Option<String>,
}

/// Reads `source` (a path, or the bytes of a file) as the command line does, streaming a file.
fn read_packed(py: Python<'_>, source: &Bound<'_, PyAny>, fields: Option<&str>) -> PyResult<(Vec<u8>, String)> {
    let mut loader = schedlab::trace::Loader::new(None).fields(fields);
    if let Ok(bytes) = source.cast::<PyBytes>() {
        loader.feed(bytes.as_bytes());
        return Ok((loader.finish(), "<bytes>".to_string()));
    }
    if let Some(spec) = source.extract::<String>().ok().and_then(|s| s.strip_prefix("generate:").map(str::to_string)) {
        // A synthetic workload, as the command line's `generate:` traces.
        let o = schedlab::workload::WorkloadOptions::parse(&spec).map_err(|e| error(format!("generate: {e}")))?;
        let swf = py.detach(|| schedlab::workload::generate(&o).to_swf());
        loader.feed(swf.as_bytes());
        return Ok((loader.finish(), format!("generate:{spec}")));
    }
    if let Some(name) = source.extract::<String>().ok().and_then(|s| s.strip_prefix("example:").map(str::to_string)) {
        // A worked example, as the command line's `example:` traces.
        let Some(e) = schedlab::explain::examples::find(&name) else {
            let names: Vec<&str> = schedlab::explain::examples::EXAMPLES.iter().map(|e| e.name).collect();
            return Err(error(format!("no example {name}: the examples are {}", names.join(", "))));
        };
        loader.feed(e.swf.as_bytes());
        return Ok((loader.finish(), format!("example:{}", e.name)));
    }
    let path: std::path::PathBuf = source.extract()?;
    let name = path.to_string_lossy().into_owned();
    py.detach(|| {
        let mut file = std::fs::File::open(&path)?;
        let mut buf = vec![0u8; 1 << 22];
        loop {
            let n = std::io::Read::read(&mut file, &mut buf)?;
            if n == 0 || !loader.feed(&buf[..n]) {
                break;
            }
        }
        Ok((loader.finish(), name.clone()))
    })
    .map_err(|e: std::io::Error| read_error(py, &name, &e))
}

/// The error of a file that could not be read, its `kind` ("not_found", else "read") telling
/// the package which built-in exception it is.
fn read_error(py: Python<'_>, name: &str, e: &std::io::Error) -> PyErr {
    let err = error(format!("cannot read {name}: {e}"));
    let kind = if e.kind() == std::io::ErrorKind::NotFound { "not_found" } else { "read" };
    // An attribute set on a fresh exception instance cannot fail but for lack of memory.
    let _ = err.value(py).setattr("kind", kind);
    err
}

fn build(py: Python<'_>, packed: Vec<u8>, sets: Vec<String>, name: String) -> PyResult<Trace> {
    let s = settings(&sets)?;
    let parsed = py.detach(|| schedlab::trace::parse(&packed, &s.trace));
    let trace = parsed.map_err(|e| error(format!("{name}: {e}")))?;
    Ok(Trace { packed: Arc::new(packed), sets, name, trace: Arc::new(trace), cluster: None })
}

/// `trace` given its cluster, as the command line's `--cluster` does: the slurm.conf text
/// `conf`, else the cluster a sacct log's text `log` shows.
fn with_cluster(mut t: Trace, conf: Option<&str>, log: Option<&str>) -> PyResult<Trace> {
    let machine_given = settings(&t.sets)?.trace.machine.is_some();
    let mut trace = (*t.trace).clone();
    schedlab::cluster::attach(&mut trace, conf, log, machine_given).map_err(|e| error(format!("cluster: {e}")))?;
    t.cluster = trace.cluster.as_ref().and_then(|c| serde_json::to_string(c).ok());
    t.trace = Arc::new(trace);
    Ok(t)
}

/// The keys among `sets` that are (`trace` true) or are not trace options.
fn not_trace_options(sets: &[String], trace: bool) -> PyResult<Vec<String>> {
    let mut out = Vec::new();
    for kv in sets {
        let (k, v) = schedlab::keys::split_setting(kv).map_err(|e| error(e.to_string()))?;
        let is_trace = schedlab::trace::TraceOptions::default().set(&k, &v).map_err(|e| error(e.to_string()))?;
        if is_trace == trace {
            out.push(k);
        }
    }
    Ok(out)
}

/// Reads a trace (SWF, plain or gzip, or an accounting log) from a path or bytes, with trace
/// options as `KEY=VALUE`.
#[pyfunction]
#[pyo3(signature = (source, sets, cluster=None))]
fn load(py: Python<'_>, source: &Bound<'_, PyAny>, sets: Vec<String>, cluster: Option<String>) -> PyResult<Trace> {
    let s = settings(&sets)?;
    let other = not_trace_options(&sets, false)?;
    if !other.is_empty() {
        let trace_keys: Vec<&str> = schedlab::trace::TRACE_KEYS.iter().map(|k| k.0).collect();
        return Err(error(format!(
            "{} {} not a trace option: give it to simulate() (trace options: {})",
            other.join(", "),
            if other.len() == 1 { "is" } else { "are" },
            trace_keys.join(", ")
        )));
    }
    let (packed, name) = read_packed(py, source, s.trace.fields.as_deref())?;
    let t = build(py, packed, sets, name)?;
    if cluster.is_none() && t.trace.report.format != Some("Slurm sacct output") {
        return Ok(t);
    }
    // Without a slurm.conf, a sacct log's own text names the nodes its jobs ran on.
    let log = match (&cluster, source.cast::<PyBytes>()) {
        (Some(_), _) => None,
        (None, Ok(bytes)) => Some(String::from_utf8_lossy(bytes.as_bytes()).into_owned()),
        (None, Err(_)) => source
            .extract::<std::path::PathBuf>()
            .ok()
            .and_then(|p| std::fs::read(p).ok())
            .map(|b| String::from_utf8_lossy(&b).into_owned()),
    };
    with_cluster(t, cluster.as_deref(), log.as_deref())
}

#[pymethods]
impl Trace {
    /// The trace report (what was read, kept, dropped and why) as JSON text.
    fn report_json(&self) -> PyResult<String> {
        let t = &self.trace;
        let value = serde_json::json!({"report": t.report, "machine": t.machine, "name": self.name, "jobs": t.jobs.len(),
                                       "cluster": t.cluster, "header": t.header});
        serde_json::to_string(&value).map_err(|e| error(e.to_string()))
    }

    /// The jobs, one little-endian array per column: (name, dtype, bytes).
    fn jobs_columns<'py>(&self, py: Python<'py>) -> Columns<'py> {
        let jobs = &self.trace.jobs;
        let i64s = |f: &dyn Fn(&schedlab::trace::Job) -> i64| -> Vec<u8> {
            jobs.iter().flat_map(|j| f(j).to_le_bytes()).collect()
        };
        let cols: Vec<(&'static str, Vec<u8>)> = vec![
            ("id", i64s(&|j| j.id as i64)),
            ("submit", i64s(&|j| j.submit)),
            ("runtime", i64s(&|j| j.runtime)),
            ("estimate", i64s(&|j| j.estimate)),
            ("procs", i64s(&|j| j.procs as i64)),
            ("user", i64s(&|j| j.user as i64)),
            ("group", i64s(&|j| j.group as i64)),
            ("queue", i64s(&|j| j.queue as i64)),
            ("partition", i64s(&|j| j.partition as i64)),
            ("logged_wait", i64s(&|j| j.logged_wait)),
            ("memory_kb", i64s(&|j| j.memory_kb)),
            ("gpus", i64s(&|j| j.gpus as i64)),
            ("nodes", i64s(&|j| j.nodes as i64)),
        ];
        cols.into_iter().map(|(n, b)| (n, "<i8", PyBytes::new(py, &b))).collect()
    }

    /// The loader's remarks on the trace, as the command line prints them on reading it: the
    /// report's warnings, then how many malformed lines were skipped and the first of them.
    #[getter]
    fn warnings(&self) -> Vec<String> {
        let r = &self.trace.report;
        let mut out = r.warnings.clone();
        if let Some(first) = r.errors.first() {
            out.push(format!(
                "{} malformed line(s) skipped (report[\"errors\"] lists the first ones), the first: {first}",
                r.errors_total
            ));
        }
        out
    }

    /// Machine size in processors.
    #[getter]
    fn machine(&self) -> u32 {
        self.trace.machine
    }

    /// Jobs kept.
    fn __len__(&self) -> usize {
        self.trace.jobs.len()
    }

    /// The name it was read from (a path, or `<bytes>`).
    #[getter]
    fn name(&self) -> String {
        self.name.clone()
    }

    /// The trace options it was read with.
    #[getter]
    fn options(&self) -> Vec<String> {
        self.sets.clone()
    }

    /// Pickled as its packed scan and options: what a worker rebuilds it from.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let rebuild = py.import("schedlab._schedlab")?.getattr("_rebuild")?;
        Ok((rebuild, (PyBytes::new(py, &self.packed), self.sets.clone(), self.name.clone(), self.cluster.clone())))
    }
}

/// Rebuilds a pickled trace (and counts it).
#[pyfunction]
#[pyo3(signature = (packed, sets, name, cluster=None))]
fn _rebuild(
    py: Python<'_>,
    packed: Vec<u8>,
    sets: Vec<String>,
    name: String,
    cluster: Option<String>,
) -> PyResult<Trace> {
    UNPICKLED.fetch_add(1, Ordering::Relaxed);
    let mut t = build(py, packed, sets, name)?;
    if let Some(json) = cluster {
        let c: schedlab::cluster::Cluster = serde_json::from_str(&json).map_err(|e| error(format!("cluster: {e}")))?;
        let mut trace = (*t.trace).clone();
        trace.cluster = Some(Box::new(c));
        t.trace = Arc::new(trace);
        t.cluster = Some(json);
    }
    Ok(t)
}

/// How many traces this process has rebuilt from pickles.
#[pyfunction]
fn traces_received() -> u64 {
    UNPICKLED.load(Ordering::Relaxed)
}

/// Simulates `policy` (one name) on `trace` with engine, metric and policy options as
/// `KEY=VALUE`, the GIL released. Returns the result as the command line's JSON text (the
/// object of `results`), the schedule as columns and the machine's steps (busy processors and
/// waiting jobs from each time on). `predictions` plugs a runtime predictor into a backfilling
/// policy: a list of seconds per job (the GIL released), or a callable called with each job at
/// its submission (the GIL held).
#[pyfunction]
#[pyo3(signature = (trace, policy, sets, predictions=None))]
fn simulate<'py>(
    py: Python<'py>,
    trace: &Trace,
    policy: &str,
    sets: Vec<String>,
    predictions: Option<Bound<'py, PyAny>>,
) -> PyResult<Simulated<'py>> {
    let s = simulation_settings(trace, sets)?;
    let configs = configure(policy, &s).map_err(|e| error(e.to_string()))?;
    if configs.len() != 1 {
        return Err(error(format!("simulate() runs one policy; {policy:?} names {}", configs.len())));
    }
    let t = trace.trace.clone();
    let cfg = &configs[0];
    let mut stop = Interrupt::new();
    // The summary and the other measures at once, on two cores, as the command line does.
    let join = |a: &mut (dyn FnMut() + Send), b: &mut (dyn FnMut() + Send)| {
        rayon::join(a, b);
    };
    // Placements are recorded where the run cannot be made again for its pictures.
    let kept = EngineOptions { placements: true, ..s.engine };
    // Whether the run can be made again (a named policy without predictions) or is kept.
    let (outcome, result, again) = match predictions {
        None => py.detach(|| {
            let outcome = simulate_configured_until(&t, cfg, &s.engine, &mut |_| stop.go_on());
            let result = result_of(&t, cfg, &s, &outcome, &join);
            (outcome, result, true)
        }),
        Some(p) if p.is_callable() => {
            let predictor = pypolicy::PyPredictor::new(p);
            let raised = predictor.error.clone();
            let mut built = cfg.build_with_predictor(&t, Box::new(predictor)).map_err(error)?;
            let outcome = simulate_policy(&t, cfg, built.as_mut(), &kept, &mut |_| stop.go_on());
            drop(built);
            if let Some(e) = raised.borrow_mut().take() {
                return Err(e);
            }
            let result = result_of(&t, cfg, &s, &outcome, &join);
            (outcome, result, false)
        }
        Some(p) => {
            let given = given_predictions(&p, t.jobs.len())?;
            py.detach(|| {
                let mut built = cfg.build_with_predictor(&t, Box::new(GivenPredictions(given)))?;
                let outcome = simulate_policy(&t, cfg, built.as_mut(), &kept, &mut |_| stop.go_on());
                let result = result_of(&t, cfg, &s, &outcome, &join);
                Ok::<_, String>((outcome, result, false))
            })
            .map_err(error)?
        }
    };
    stop.check()?;
    // A policy that failed (a priority or a prediction that is no number) is an error here, as
    // a bad option is; a run stopped at its time budget is a result that says so.
    if let Some(why) = &outcome.failed {
        return Err(error(why.clone()));
    }
    let (json, schedule, series) = package(py, &t, &outcome, &result)?;
    let run = if again {
        pictures::Run::named(t, cfg, &s, &result.schedule_hash)
    } else {
        pictures::Run::kept(t, outcome, result, s.metrics.tau)
    };
    Ok((json, schedule, series, run))
}

/// Simulates a `schedlab.Policy` object on `trace`, named `name`, with engine and metric
/// options as `KEY=VALUE`; `predictions` as for [`simulate`]. The GIL is held: the policy is
/// called at each pass. Returns what [`simulate`] returns and the number of passes decided.
#[pyfunction]
#[pyo3(signature = (trace, policy, name, sets, predictions=None))]
fn simulate_python<'py>(
    py: Python<'py>,
    trace: &Trace,
    policy: Bound<'py, PyAny>,
    name: &str,
    sets: Vec<String>,
    predictions: Option<Bound<'py, PyAny>>,
) -> PyResult<(Simulated<'py>, u64)> {
    let s = simulation_settings(trace, sets)?;
    if let Some((key, value)) = s.policy.first() {
        return Err(error(format!(
            "{key}={value}: a schedlab.Policy takes engine and metric options only (budget_s, observe, tau...); 'schedlab policies' lists them"
        )));
    }
    let t = trace.trace.clone();
    let cfg = Configured::external(name);
    let (predictor, raised): (Option<Box<dyn schedlab::predict::Predictor>>, _) = match predictions {
        None => (None, None),
        Some(p) if p.is_callable() => {
            let predictor = pypolicy::PyPredictor::new(p);
            let raised = predictor.error.clone();
            (Some(Box::new(predictor)), Some(raised))
        }
        Some(p) => (Some(Box::new(GivenPredictions(given_predictions(&p, t.jobs.len())?))), None),
    };
    let origin = t.jobs.first().map_or(0, |j| j.submit);
    let decider = pypolicy::PyDecider::new(py, policy)?;
    let mut external = External::new(decider, t.machine, t.jobs.len(), origin, predictor);
    let mut stop = Interrupt::new();
    // Every job's processors, for its pictures: a Python policy cannot be run again for them.
    let kept = EngineOptions { placements: true, ..s.engine };
    let outcome = simulate_policy(&t, &cfg, &mut external, &kept, &mut |_| stop.go_on());
    stop.check()?;
    if let Some(e) = external.decider().error.take() {
        return Err(e);
    }
    if let Some(e) = raised.and_then(|r| r.borrow_mut().take()) {
        return Err(e);
    }
    if let Some(why) = &outcome.failed {
        return Err(error(why.clone()));
    }
    let passes = external.decider().passes;
    let result = result_of(&t, &cfg, &s, &outcome, &|a, b| {
        a();
        b();
    });
    let (json, schedule, series) = package(py, &t, &outcome, &result)?;
    Ok(((json, schedule, series, pictures::Run::kept(t, outcome, result, s.metrics.tau)), passes))
}

/// Predictions given as a sequence: whole seconds, one per job of a trace of `jobs` jobs.
fn given_predictions(p: &Bound<'_, PyAny>, jobs: usize) -> PyResult<Vec<i64>> {
    let given: Vec<i64> = p.extract().map_err(|_| {
        error("predictions must be a sequence of whole seconds, one per job of the trace, or a callable")
    })?;
    if given.len() != jobs {
        return Err(error(format!(
            "predictions has {} values for a trace of {jobs} jobs; give one per job, in the trace's order",
            given.len()
        )));
    }
    Ok(given)
}

/// The settings of a simulation of `trace`: its own trace options, then `sets` (which must not
/// be trace options).
fn simulation_settings(trace: &Trace, sets: Vec<String>) -> PyResult<Settings> {
    let mut all = trace.sets.clone();
    let given = not_trace_options(&sets, true)?;
    if !given.is_empty() {
        return Err(error(format!(
            "{} {} a trace option: give it to load(), which reads the trace with it",
            given.join(", "),
            if given.len() == 1 { "is" } else { "are" }
        )));
    }
    all.extend(sets);
    settings(&all)
}

/// A simulation's JSON and tables, as [`simulate`] returns them beside its run.
fn package<'py>(
    py: Python<'py>,
    t: &schedlab::trace::Trace,
    outcome: &schedlab::engine::Outcome,
    result: &schedlab::run::PolicyResult,
) -> PyResult<Tables<'py>> {
    let records = schedlab::metrics::records(t, outcome);
    let steps: Vec<(i64, i64, i64)> = outcome.series.iter().map(|x| (x.time, x.busy as i64, x.queued as i64)).collect();
    let json = serde_json::to_string(result).map_err(|e| error(e.to_string()))?;
    let col = |f: &dyn Fn(&schedlab::metrics::Record) -> i64| -> Vec<u8> {
        records.iter().flat_map(|r| f(r).to_le_bytes()).collect()
    };
    let schedule: Vec<(&'static str, Vec<u8>)> = vec![
        ("job_id", col(&|r| r.job_id as i64)),
        ("submit", col(&|r| r.submit)),
        ("start", col(&|r| r.start)),
        ("end", col(&|r| r.end)),
        ("procs", col(&|r| r.procs as i64)),
        ("runtime", col(&|r| r.runtime)),
        ("estimate", col(&|r| r.estimate)),
        ("user", col(&|r| r.user as i64)),
        ("queue", col(&|r| r.queue as i64)),
        ("backfilled", col(&|r| r.backfilled as i64)),
    ];
    let schedule = schedule.into_iter().map(|(n, b)| (n, "<i8", PyBytes::new(py, &b))).collect();
    let steps_col =
        |f: &dyn Fn(&(i64, i64, i64)) -> i64| -> Vec<u8> { steps.iter().flat_map(|s| f(s).to_le_bytes()).collect() };
    let series = vec![
        ("time", PyBytes::new(py, &steps_col(&|s| s.0))),
        ("busy", PyBytes::new(py, &steps_col(&|s| s.1))),
        ("queued", PyBytes::new(py, &steps_col(&|s| s.2))),
    ];
    Ok((json, schedule, series))
}

/// Every policy of `policies` (names as the command line's `--policy`, or `all`) on every
/// trace of `traces`, with engine, metric and policy options as `KEY=VALUE`: each pair on its
/// own core (the GIL released), as `schedlab run` runs them. Returns the results as JSON text,
/// a list of `{"trace": index, "result": ...}` in the order of traces, then policies; Ctrl-C
/// stops every run within a tenth of a second and raises KeyboardInterrupt.
#[pyfunction]
fn compare(py: Python<'_>, traces: Vec<PyRef<'_, Trace>>, policies: &str, sets: Vec<String>) -> PyResult<String> {
    let mut pairs = Vec::new();
    for (i, t) in traces.iter().enumerate() {
        let s = simulation_settings(t, sets.clone())?;
        for cfg in configure(policies, &s).map_err(|e| error(e.to_string()))? {
            pairs.push((i, t.trace.clone(), cfg, s.clone()));
        }
    }
    let stop = AtomicBool::new(false);
    let (raised, results) = py.detach(|| {
        let (sent, done) = std::sync::mpsc::channel();
        let mut raised = None;
        let results = std::thread::scope(|scope| {
            let work = scope.spawn(|| {
                let results: Vec<_> = pairs
                    .par_iter()
                    .map(|(i, t, cfg, s)| {
                        let outcome =
                            simulate_configured_until(t, cfg, &s.engine, &mut |_| !stop.load(Ordering::Relaxed));
                        let result = result_of(t, cfg, s, &outcome, &|a, b| {
                            rayon::join(a, b);
                        });
                        serde_json::json!({"trace": i, "result": result})
                    })
                    .collect();
                let _ = sent.send(());
                results
            });
            // This thread waits for the runs, looking for Ctrl-C while it does.
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = done.recv_timeout(SIGNALS_EVERY) {
                if let Err(e) = signals() {
                    stop.store(true, Ordering::Relaxed);
                    raised = Some(e);
                    break;
                }
            }
            work.join()
        });
        (raised, results)
    });
    if let Some(e) = raised {
        return Err(e);
    }
    let results = results.map_err(|_| error("a simulation failed inside the library (a bug: please report it)"))?;
    serde_json::to_string(&results).map_err(|e| error(e.to_string()))
}

/// One load of a load sweep: every policy of `policies` on `trace` (the workload of `load` and
/// `seed`), the GIL released; the points as JSON text.
#[pyfunction]
fn loadsweep_points(
    py: Python<'_>,
    trace: &Trace,
    policies: &str,
    sets: Vec<String>,
    load: f64,
    seed: u64,
) -> PyResult<String> {
    let s = simulation_settings(trace, sets)?;
    let configs = configure(policies, &s).map_err(|e| error(e.to_string()))?;
    let t = trace.trace.clone();
    let points = py.detach(|| schedlab::studies::loadsweep::points(&t, &configs, &s, load, seed));
    serde_json::to_string(&points).map_err(|e| error(e.to_string()))
}

/// A load sweep's points (JSON text) summarised per policy and load, with where each
/// saturates, as JSON text.
#[pyfunction]
fn loadsweep_summary(points_json: &str) -> PyResult<String> {
    use schedlab::studies::loadsweep::{saturation, summarize, Point};
    let points: Vec<Point> = serde_json::from_str(points_json).map_err(|e| error(e.to_string()))?;
    let summary = summarize(&points);
    let mut saturates = serde_json::Map::new();
    for s in &summary {
        saturates.entry(s.policy.clone()).or_insert_with(|| serde_json::json!(saturation(&summary, &s.policy)));
    }
    serde_json::to_string(&serde_json::json!({"summary": summary, "saturates_at": saturates}))
        .map_err(|e| error(e.to_string()))
}

/// A trace's offered load: its work over (span of submits x machine).
#[pyfunction]
fn offered_load(trace: &Trace) -> f64 {
    schedlab::studies::loadsweep::offered_load(&trace.trace)
}

/// The columns of `PassState.waiting_bytes` and `PassState.running_bytes`.
#[pyfunction]
fn pass_columns() -> (Vec<&'static str>, Vec<&'static str>) {
    (pypolicy::WAITING_COLUMNS.to_vec(), pypolicy::RUNNING_COLUMNS.to_vec())
}

/// Every policy with its options and defaults, and the trace, engine and metric options, as
/// JSON text.
#[pyfunction]
fn policies_json() -> PyResult<String> {
    use schedlab::policy::{family_default, family_options, CUSTOM, POLICIES};
    let keys = |k: &[(&str, &str, &str)]| -> Vec<serde_json::Value> {
        k.iter().map(|(key, default, doc)| serde_json::json!({"key": key, "default": default, "doc": doc})).collect()
    };
    let policies: Vec<serde_json::Value> = POLICIES
        .iter()
        .chain([&CUSTOM])
        .map(|p| {
            let options: Vec<serde_json::Value> = family_options(p.family)
                .iter()
                .map(|o| {
                    let preset = p.defaults.iter().find(|(k, _)| *k == o.key).map(|(_, v)| *v);
                    let default = preset.or_else(|| family_default(p.family, o.key));
                    serde_json::json!({"key": o.key, "values": o.values, "default": default, "doc": o.doc})
                })
                .collect();
            serde_json::json!({"name": p.name, "family": p.family, "group": p.group, "summary": p.summary, "options": options})
        })
        .collect();
    let v = serde_json::json!({
        "policies": policies,
        "trace_options": keys(schedlab::trace::TRACE_KEYS),
        "engine_options": keys(schedlab::engine::ENGINE_KEYS),
        "metric_options": keys(schedlab::metrics::METRIC_KEYS),
    });
    serde_json::to_string(&v).map_err(|e| error(e.to_string()))
}

/// The configurations of a grid (`KEY=V1,V2` or `KEY=A-B` per axis), in the command line's
/// `sweep` order, each as (key, value) pairs.
#[pyfunction]
fn sweep_grid(axes: Vec<String>) -> PyResult<Vec<Vec<(String, String)>>> {
    let axes: Vec<Axis> =
        axes.iter().map(|a| Axis::parse(a)).collect::<Result<_, _>>().map_err(|e| error(e.to_string()))?;
    Ok(grid(&axes))
}

/// Section 7 of Tsafrir et al.: each configuration's average performance degradation over the
/// test cases (rows: configurations, columns: test cases), and the configurations best first,
/// as the command line's `sweep` ranks them.
#[pyfunction]
fn sweep_rank(perf: Vec<Vec<f64>>) -> (Vec<f64>, Vec<usize>) {
    let d = degradation(&perf);
    let order = ranking(&d);
    (d, order)
}

/// The extension module.
#[pymodule]
fn _schedlab(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("Error", m.py().get_type::<Error>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<Trace>()?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(_rebuild, m)?)?;
    m.add_function(wrap_pyfunction!(traces_received, m)?)?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(simulate_python, m)?)?;
    m.add_function(wrap_pyfunction!(compare, m)?)?;
    m.add_class::<pictures::Run>()?;
    m.add_function(wrap_pyfunction!(pictures::picture, m)?)?;
    m.add("PLOT_KINDS", pictures::KINDS)?;
    m.add_function(wrap_pyfunction!(pass_columns, m)?)?;
    m.add_function(wrap_pyfunction!(loadsweep_points, m)?)?;
    m.add_function(wrap_pyfunction!(loadsweep_summary, m)?)?;
    m.add_function(wrap_pyfunction!(offered_load, m)?)?;
    m.add_class::<pypolicy::PassState>()?;
    m.add_function(wrap_pyfunction!(policies_json, m)?)?;
    m.add_function(wrap_pyfunction!(sweep_grid, m)?)?;
    m.add_function(wrap_pyfunction!(sweep_rank, m)?)?;
    gym::register(m)?;
    Ok(())
}
