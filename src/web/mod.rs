//! The WebAssembly API of the page: the CLI's flow for its workers (bytes and settings in,
//! structured values out through `serde-wasm-bindgen`), and the charts of `render`, painted on
//! the page's canvases through `web-sys` by plotters' canvas backend.
//!
//! Each simulating call parses the trace itself, so a worker needs nothing but the packed
//! trace; parsing costs a small fraction of a simulation. Panics reach the console through
//! `console_error_panic_hook` and the worker reports them to the page.
//!
//! Without the feature `whole` (the build the page opens with) the exports of the studies,
//! Learn, explain, the generator, the load sweep, the accounting-log loader and the downloads are
//! left out, and with them the code and data only they reach.
#![cfg_attr(not(feature = "whole"), allow(unused_imports, dead_code))]

use plotters_canvas::CanvasBackend;
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen::{Clamped, JsCast};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};

use crate::engine::Progress;
use crate::engine::ENGINE_KEYS;
use crate::metrics::{categories, records, schedule_csv, METRIC_KEYS};
use crate::policy::Configured;
use crate::policy::{family_options, POLICIES};
use crate::render::chart::{Chart, ChartOptions};
use crate::render::compare::{compare_chart, fitted, CompareChart, RunView};
use crate::render::gantt::Gantt;
use crate::run::{configure, run_one, run_one_observed, Settings};
use crate::trace::{parse, Trace, TRACE_KEYS};

mod tz;

/// Installs the panic hook; wasm-bindgen runs it when the module is instantiated.
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// A value as a plain JS object (maps as objects, as JSON would give them).
fn js<T: serde::Serialize + ?Sized>(value: &T) -> JsValue {
    value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).unwrap_or(JsValue::NULL)
}

fn keys(list: &[(&str, &str, &str)]) -> Vec<Value> {
    list.iter().map(|(k, d, doc)| json!({"key": k, "default": d, "doc": doc})).collect()
}

/// A policy's rough cost class, for the order the page starts runs in, so the first results come
/// soonest: list scheduling and EASY-like backfilling first, then one-reservation families, then
/// preemption, then conservative planning.
fn cost(p: &crate::policy::PolicyInfo) -> u8 {
    let get = |key| {
        p.defaults.iter().find(|(k, _)| *k == key).map(|(_, v)| *v).or(crate::policy::family_default(p.family, key))
    };
    match p.family {
        "backfill" if get("k") == Some("inf") => 3,
        "backfill" => 0,
        "preempt" if get("mode") == Some("ns") => 1,
        "preempt" => 2,
        "fairshare" if p.name.contains("cons") => 3,
        _ => 1,
    }
}

/// Every policy with its family options and cost class, and the trace, engine and metric
/// options, as JSON.
#[wasm_bindgen]
pub fn catalogue() -> JsValue {
    let policies: Vec<Value> = POLICIES
        .iter()
        .map(|p| {
            json!({
                "name": p.name,
                "family": p.family,
                "group": p.group,
                "summary": p.summary,
                "cost": cost(p),
                "defaults": p.defaults.iter().map(|(k, v)| (k.to_string(), json!(v))).collect::<serde_json::Map<_, _>>(),
                "options": family_options(p.family),
                "family_defaults": family_options(p.family)
                    .iter()
                    .map(|o| (o.key.to_string(), json!(crate::policy::family_default(p.family, o.key).unwrap_or(""))))
                    .collect::<serde_json::Map<_, _>>(),
            })
        })
        .collect();
    js(&json!({
        "policies": policies,
        "trace_options": keys(TRACE_KEYS),
        "engine_options": keys(ENGINE_KEYS),
        "metric_options": keys(METRIC_KEYS),
        "metrics": crate::metrics::METRIC_DOCS,
        "sweep_axes": crate::studies::sweep::DEFAULT_AXES,
        "predictor": crate::studies::panel::predictor(),
        "priority": {
            "variables": crate::policy::expr::VARIABLES.iter().map(|(n, _, doc)| json!({"name": n, "doc": doc})).collect::<Vec<_>>(),
            "functions": crate::policy::expr::FUNCTIONS.iter().map(|(n, _)| n).collect::<Vec<_>>(),
        },
    }))
}

/// Checks a priority expression as the user types it: `{"ok": true}`, or `{"ok": false,
/// "column", "message"}` with the column (1-based) where it goes wrong.
#[wasm_bindgen]
pub fn check_priority(text: &str) -> JsValue {
    match crate::policy::expr::Expr::parse(text) {
        Ok(_) => js(&json!({"ok": true})),
        Err(e) => js(&json!({"ok": false, "column": e.column, "message": e.to_string()})),
    }
}

/// (name, value) pairs from the page (a link's parameters, the policy panel's inputs), given
/// flat as name, value, name, value (plain strings cross into wasm without serde).
fn pairs(flat: Vec<String>) -> Vec<(String, String)> {
    let mut it = flat.into_iter();
    std::iter::from_fn(|| Some((it.next()?, it.next()?))).collect()
}

/// The policy panel written from the link's parameters (flat pairs): `{list, predictor, options}` as HTML.
#[wasm_bindgen]
pub fn policy_panel(link: Vec<String>) -> JsValue {
    use crate::render::policies as p;
    let link = pairs(link);
    js(
        &json!({"list": p::policy_list(&link), "predictor": p::predictor_from_link(&link), "options": p::option_inputs(&link)}),
    )
}

/// The predictor panel's controls after an edit, from its inputs as flat pairs.
#[wasm_bindgen]
pub fn predictor_panel(form: Vec<String>) -> String {
    crate::render::policies::predictor_from_form(&pairs(form))
}

/// What the policy panel's inputs ask for on a page with this link (both flat pairs): the ticked
/// policies, the shared settings, the budget, each run of `run` (null: the ticked ones) and the
/// link after it (flat pairs).
#[wasm_bindgen]
pub fn panel_state(link: Vec<String>, form: Vec<String>, run: Option<Vec<String>>) -> JsValue {
    let s = crate::render::policies::panel_state(&pairs(link), &pairs(form), run.as_deref());
    let runs: Vec<Value> = s
        .runs
        .into_iter()
        .map(|r| json!({"name": r.name, "policy": r.policy, "settings": r.settings, "own": r.own}))
        .collect();
    let link: Vec<String> = s.link.into_iter().flat_map(|(k, v)| [k, v]).collect();
    js(&json!({"ticked": s.ticked, "shared": s.shared, "budget": s.budget, "runs": runs, "link": link}))
}

/// The settings study `name` runs with from the policy panel's inputs on a page with this link
/// ([`crate::render::policies::study_settings`]).
#[cfg(feature = "whole")]
#[wasm_bindgen]
pub fn study_settings(link: Vec<String>, form: Vec<String>, name: &str) -> Vec<String> {
    crate::render::policies::study_settings(&pairs(link), &pairs(form), name)
}

fn failure(message: impl Into<String>, report: Value) -> JsValue {
    js(&json!({"ok": false, "message": message.into(), "report": report}))
}

/// The Timeline's shared time window ([`crate::render::gantt::TimeWindow`]).
#[wasm_bindgen]
#[derive(Default)]
pub struct Timeline(crate::render::gantt::TimeWindow);

#[wasm_bindgen]
impl Timeline {
    /// No schedule yet.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Timeline {
        Timeline::default()
    }

    /// Chart `i` shows a schedule from `lo` to `hi` (s); a whole window takes it in.
    pub fn open(&mut self, i: usize, lo: f64, hi: f64) {
        self.0.open(i, Some((lo, hi)));
    }

    /// Chart `i` shows no schedule.
    pub fn close(&mut self, i: usize) {
        self.0.open(i, None);
    }

    /// Moves the window to `[t0, t1)`, within the schedules, at least 10 s wide.
    pub fn set(&mut self, t0: f64, t1: f64) {
        self.0.set(t0, t1);
    }

    /// Scales the window by `factor` about the point `share` of the way across it.
    pub fn zoom(&mut self, factor: f64, share: f64) {
        self.0.zoom(factor, share);
    }

    /// What key `key` does to the window; false for a key it does not take.
    pub fn key(&mut self, key: &str) -> bool {
        self.0.key(key)
    }

    /// The whole schedules again.
    pub fn reset(&mut self) {
        self.0.reset();
    }

    /// The window `[t0, t1]`, none before a schedule opens.
    pub fn view(&self) -> Option<Vec<f64>> {
        self.0.view.map(|(t0, t1)| vec![t0, t1])
    }

    /// The span of the schedules shown `[lo, hi]`, none while none is.
    pub fn extent(&self) -> Option<Vec<f64>> {
        self.0.extent().map(|(lo, hi)| vec![lo, hi])
    }

    /// The window in days since `first`: "6.94 d to 49.69 d".
    pub fn label(&self, first: f64) -> String {
        self.0.label(first)
    }
}

/// Why a call could not simulate: a message, and the trace report when the trace was at fault.
struct Refusal(String, Value);

impl Refusal {
    fn js(self) -> JsValue {
        failure(self.0, self.1)
    }
}

/// The common start of every simulating call: settings, the configured policy, the trace.
fn prepare(bytes: &[u8], policy: &str, settings: &[String]) -> Result<(Settings, Configured, Trace), Refusal> {
    let s = page_settings(settings).map_err(|e| Refusal(e.to_string(), Value::Null))?;
    let cfg = configure(policy, &s).map_err(|e| Refusal(e.to_string(), Value::Null))?;
    let cfg = cfg.into_iter().next().ok_or_else(|| Refusal("no policy".into(), Value::Null))?;
    let trace = load(bytes, &s)?;
    Ok((s, cfg, trace))
}

/// Parses the settings and the trace, or gives the failure JSON to return.
fn settings_and_trace(bytes: &[u8], settings: &[String]) -> Result<(Settings, Trace), JsValue> {
    let s = page_settings(settings).map_err(|e| failure(e.to_string(), Value::Null))?;
    let trace = load(bytes, &s).map_err(|r| r.js())?;
    Ok((s, trace))
}

/// Parses the trace with the settings' trace options.
fn load(bytes: &[u8], s: &Settings) -> Result<Trace, Refusal> {
    parse(bytes, &s.trace).map_err(|e| Refusal(e.message, json!(e.report)))
}

/// Parses a trace (plain or gzip) read from `name` and returns `{"ok", "report", "header",
/// "rows", "html", "chip", "warning"}` or `{"ok": false, "message", "report", "rows", "html",
/// "chip", "warning"}`: `rows` is the report as the page shows it
/// ([`crate::render::report::report_rows`]), `html` the Trace view's report, `chip` the header's
/// line about the trace, `warning` what is said when reading stopped early (`{"html", "line"}` or
/// null). The loader's `stopped` (why the page stopped it), `full` (at its job limit) and `jobs`
/// (job lines read) say how reading ended.
#[wasm_bindgen]
pub fn inspect(
    bytes: &[u8],
    settings: Vec<String>,
    name: &str,
    stopped: Option<String>,
    full: bool,
    jobs: f64,
) -> JsValue {
    use crate::render::report::{chip_text, load_warning, report_html, report_rows, Loaded};
    let s = match page_settings(&settings) {
        Ok(s) => s,
        Err(e) => return failure(e.to_string(), Value::Null),
    };
    let loaded = Loaded { stopped, full, jobs: jobs as u64 };
    let said = |report: &crate::trace::TraceReport,
                header: &crate::trace::Header,
                failed: Option<&str>,
                cluster: Option<&crate::cluster::Cluster>| {
        #[allow(unused_mut)]
        let mut rows = report_rows(name, report, header);
        #[cfg(feature = "whole")]
        if let Some(c) = cluster {
            rows.push(crate::render::report::ReportRow {
                key: "cluster",
                text: format!(
                    "from the slurm.conf given beside the log (the slurm policies place jobs on its nodes): {}",
                    c.summary()
                ),
                class: "",
            });
        }
        #[cfg(not(feature = "whole"))]
        let _ = cluster;
        let warning = load_warning(name, report, &loaded).map(|(html, line)| json!({"html": html, "line": line}));
        let chip =
            if failed.is_some() { "· cannot be used: see Trace".to_string() } else { chip_text(report, header) };
        json!({"rows": rows, "html": report_html(&rows, report, failed, bytes.len()), "chip": chip, "warning": warning})
    };
    let (mut out, said) = match parse(bytes, &s.trace) {
        Ok(t) => {
            let said = said(&t.report, &t.header, None, t.cluster.as_deref());
            let offered = crate::studies::loadsweep::offered_load(&t);
            let shape = categories::shape(&t);
            (json!({"ok": true, "report": t.report, "header": t.header, "shape": shape, "offered_load": offered}), said)
        }
        Err(e) => {
            let said = said(&e.report, &Default::default(), Some(&e.message), None);
            (json!({"ok": false, "message": e.message, "report": e.report}), said)
        }
    };
    if let (Some(o), Value::Object(more)) = (out.as_object_mut(), said) {
        o.extend(more);
    }
    js(&out)
}

/// Simulates one policy: `{"ok", "result": {policy, options, metrics, schedule_hash, ...},
/// "view"}` (`view`: what the charts draw of the run, a [`RunView`]), or `{"ok": false, "message"}`. `progress` is called with the share of jobs
/// that have arrived (0 to 1) every few thousand scheduling passes.
#[wasm_bindgen]
pub fn simulate(
    bytes: &[u8],
    policy: &str,
    settings: Vec<String>,
    series_points: usize,
    progress: &js_sys::Function,
) -> JsValue {
    let (s, cfg, trace) = match prepare(bytes, policy, &settings) {
        Ok(p) => p,
        Err(r) => return r.js(),
    };
    let mut report = |p: Progress| {
        let _ = progress.call1(&JsValue::NULL, &JsValue::from_f64(p.arrived as f64 / p.total.max(1) as f64));
    };
    let (outcome, result) = run_one_observed(&trace, &cfg, &s, &mut report);
    let view = RunView::new(&trace, &outcome, &result, s.metrics.tau, series_points.max(1));
    js(&json!({"ok": true, "result": result, "view": view}))
}

/// A study's form ([`crate::studies::panel::form_page`]) with its values from the link's
/// parameters (flat pairs): `{"prefix", "fields", "html", "set"}`.
#[cfg(feature = "whole")]
#[wasm_bindgen]
pub fn study_form(name: &str, link: Vec<String>) -> Result<JsValue, JsError> {
    let link = pairs(link);
    let form: Result<Value, String> = crate::with_study!(name, |st| Ok(crate::studies::panel::form_page(st, &link)));
    form.map(|f| js(&f)).map_err(|e| JsError::new(&e))
}

/// What the page knows of the trace (`{"report", "header"}`, or null before one is read).
#[cfg(feature = "whole")]
fn about(value: JsValue) -> Result<Value, String> {
    if value.is_undefined() {
        return Ok(Value::Null);
    }
    serde_wasm_bindgen::from_value(value).map_err(|e| format!("bad trace facts: {e}"))
}

/// What study `name`'s form asks for, from its controls' values `form` (flat key, value pairs;
/// the fields of `set` no longer follow the trace) with the page's `settings` on the trace of
/// `trace` ([`about`]): `{"ok", "plan"}` or `{"ok": false, "message"}` naming the field at
/// fault, with `notes` (the note fields' texts by id), `fill`, `hidden`, `options` and `url`
/// ([`crate::studies::panel::FormValues`]).
#[cfg(feature = "whole")]
#[wasm_bindgen]
pub fn study_plan(name: &str, form: Vec<String>, set: Vec<String>, settings: Vec<String>, trace: JsValue) -> JsValue {
    let form = pairs(form);
    let planned = about(trace).and_then(|about| {
        crate::with_study!(name, |st| {
            let prefix = st.prefix();
            // Every note field's text: those the trace gives none are emptied.
            let given = st.notes(&about);
            let text = |key: &str| given.iter().find(|(k, _)| *k == key).map_or("", |(_, t)| t.as_str()).to_string();
            let notes: serde_json::Map<String, Value> = (st.fields().iter().filter(|f| f.input == "note"))
                .map(|f| (format!("{prefix}-{}", f.key), Value::String(text(f.key))))
                .collect();
            let values = crate::studies::panel::form_values(st, &form, &set, &about);
            let plan = crate::studies::panel::Options::parse(&st.fields(), &values.options)
                .and_then(|o| st.plan(&o, &settings, &about));
            let facts = json!({"notes": notes, "fill": values.fill, "hidden": values.hidden, "options": values.options, "url": values.url});
            Ok((plan, facts))
        })
    });
    let with = |mut out: Value, facts: Value| {
        out.as_object_mut().into_iter().for_each(|o| o.extend(facts.as_object().cloned().unwrap_or_default()));
        js(&out)
    };
    match planned {
        Ok((Ok(plan), facts)) => with(json!({"ok": true, "plan": plan}), facts),
        Ok((Err(message), facts)) => with(json!({"ok": false, "message": message}), facts),
        Err(message) => failure(message, Value::Null),
    }
}

/// One task of a study's plan on the trace: `{"ok", "value"}` or `{"ok": false, "message"}`.
#[cfg(feature = "whole")]
#[wasm_bindgen]
pub fn study_run(name: &str, bytes: &[u8], settings: Vec<String>, input: JsValue) -> JsValue {
    let prepared = || -> Result<(Value, Settings, Trace), String> {
        let input: Value = serde_wasm_bindgen::from_value(input).map_err(|e| format!("bad input: {e}"))?;
        let s = Settings::parse(&settings).map_err(|e| e.to_string())?;
        let trace = parse(bytes, &s.trace).map_err(|e| e.message)?;
        Ok((input, s, trace))
    };
    let run = prepared().and_then(|(input, s, trace)| crate::with_study!(name, |st| st.run(&trace, &s, &input)));
    match run {
        Ok(value) => js(&json!({"ok": true, "value": value})),
        Err(message) => failure(message, Value::Null),
    }
}

/// A study's report from its runs' `values` in the plan's order on the trace of `trace`
/// ([`about`]), its view fields' options as they are `now`, the others' as they `ran`:
/// `{"ok", "report"}` or `{"ok": false, "message"}`.
#[cfg(feature = "whole")]
#[wasm_bindgen]
pub fn study_report(name: &str, ran: Vec<String>, now: Vec<String>, values: JsValue, trace: JsValue) -> JsValue {
    let values: Result<Vec<Value>, String> =
        serde_wasm_bindgen::from_value(values).map_err(|e| format!("bad values: {e}"));
    let report = values.and_then(|values| {
        let about = about(trace)?;
        crate::with_study!(name, |st| {
            let options = crate::studies::panel::report_options(st, &ran, &now);
            crate::studies::panel::Options::parse(&st.fields(), &options).and_then(|o| st.report(&o, &values, &about))
        })
    });
    match report {
        Ok(report) => js(&json!({"ok": true, "report": report.page()})),
        Err(message) => failure(message, Value::Null),
    }
}

/// A value as every view writes it, so a quantity reads the same in a chart, a table and a card:
/// `what` is a metric key, a unit (`seconds`, `fraction`, `percent`, `ratio`, `count`), `bytes`
/// (312 MB) or `number` (a whole number as one, thousands grouped, else three significant digits).
#[wasm_bindgen]
pub fn format_value(what: &str, v: f64) -> String {
    use crate::render::compare::{fmt_value, metric_info, Unit};
    let unit = match what {
        "seconds" => Unit::Seconds,
        "fraction" => Unit::Fraction,
        "percent" => Unit::Percent,
        "ratio" => Unit::Ratio,
        "count" => Unit::Count,
        "number" => return crate::render::axis::whole_or_number(v),
        "bytes" => return crate::render::report::bytes_text(v),
        key => metric_info(key).unit,
    };
    fmt_value(unit, v)
}

/// One policy's schedule as CSV (the CLI's `--schedule-out` format), or `error: ...` on failure.
#[cfg(feature = "whole")]
#[wasm_bindgen]
pub fn schedule(bytes: &[u8], policy: &str, settings: Vec<String>) -> String {
    match prepare(bytes, policy, &settings) {
        Ok((s, cfg, trace)) => schedule_csv(&records(&trace, &run_one(&trace, &cfg, &s).0)),
        Err(Refusal(message, _)) => format!("error: {message}"),
    }
}

/// A synthetic workload (`schedlab generate`'s options, `machine=128,jobs=10000,load=0.8`) as
/// SWF text, byte for byte what the command line writes; `error: ...` for a bad option.
#[cfg(feature = "whole")]
#[wasm_bindgen]
pub fn generate_swf(spec: &str) -> String {
    match crate::workload::WorkloadOptions::parse(spec) {
        Ok(o) => {
            let w = crate::workload::generate(&o);
            // A span of days has as many jobs as the load asks: more than the page keeps is refused whole.
            if w.jobs.len() as u64 > crate::trace::PAGE_JOB_LIMIT {
                return format!(
                    "error: {} jobs, more than the {} the page keeps; the schedlab command-line tool makes more (schedlab generate)",
                    w.jobs.len(),
                    crate::trace::PAGE_JOB_LIMIT
                );
            }
            w.to_swf()
        }
        Err(e) => format!("error: {e}"),
    }
}

/// A synthetic workload for the page from the generator's options: `{"ok", "swf", "name",
/// "made"}` (its SWF text, a name saying what it is, and the options it was made with, by key,
/// as its header says) or `{"ok": false, "message"}`, the message the page's status line says.
/// More jobs than the page keeps are refused before any is made.
#[cfg(feature = "whole")]
#[wasm_bindgen]
pub fn generated(spec: &str) -> JsValue {
    // Counts with their thousands grouped, as a sentence writes them ("3,000 jobs").
    let grouped = crate::render::report::commas;
    let limit = crate::trace::PAGE_JOB_LIMIT;
    let o = match crate::workload::WorkloadOptions::parse(spec) {
        Ok(o) if o.days.is_none() && o.jobs as u64 > limit => {
            let n = grouped(limit);
            let message = format!(
                "The page generates at most {n} jobs; the schedlab command-line tool makes more (schedlab generate)."
            );
            return failure(message, Value::Null);
        }
        Ok(o) => o,
        Err(e) => return failure(format!("Cannot generate the workload: {e}"), Value::Null),
    };
    let swf = generate_swf(spec);
    if let Some(message) = swf.strip_prefix("error: ") {
        return failure(format!("Cannot generate the workload: {message}"), Value::Null);
    }
    let size = o.days.map_or_else(|| format!("{} jobs", grouped(o.jobs as u64)), |d| format!("{d} days of jobs"));
    let load = o.load.map_or_else(|| "the model's load".to_string(), |l| format!("load {l}"));
    let name = format!("Lublin-Feitelson: {size}, {} processors, {load}, seed {}", o.machine, o.seed);
    let note = swf.lines().find_map(|l| l.strip_prefix("; Note: generated with ")).unwrap_or("");
    let made: serde_json::Map<String, Value> =
        note.split(',').filter_map(|kv| kv.split_once('=')).map(|(k, v)| (k.into(), Value::String(v.into()))).collect();
    js(&json!({"ok": true, "swf": swf, "name": name, "made": made}))
}

/// The trace as SWF v2.2 text with a full header ([`crate::trace::to_swf`]): what the page
/// exports of an accounting log (`schedlab convert`'s output), or `error: ...`.
#[cfg(feature = "whole")]
#[wasm_bindgen]
pub fn to_swf(bytes: &[u8], settings: Vec<String>) -> String {
    match settings_and_trace(bytes, &settings) {
        Ok((_, trace)) => crate::trace::to_swf(&trace),
        Err(_) => "error: the trace cannot be read".to_string(),
    }
}

/// Why job number `job` started when it did under `policy` ([`crate::explain::explain_job`]):
/// `{"ok", "explanation": {sentences, decisions, ...}}` or `{"ok": false, "message"}`.
#[cfg(feature = "whole")]
#[wasm_bindgen]
pub fn explain_job(bytes: &[u8], policy: &str, settings: Vec<String>, job: f64) -> JsValue {
    let (s, cfg, trace) = match prepare(bytes, policy, &settings) {
        Ok(p) => p,
        Err(r) => return r.js(),
    };
    match crate::explain::explain_job(&trace, &cfg, &s, job as u64) {
        Ok(e) => js(&json!({"ok": true, "explanation": e})),
        Err(message) => failure(message, Value::Null),
    }
}

/// One policy's schedule kept in a worker for the Gantt chart: drawn again at every zoom or pan.
#[wasm_bindgen]
pub struct GanttSession {
    gantt: Gantt,
    records: Vec<crate::metrics::Record>,
    policy: String,
    /// The trace's first submission, from which a job's submission is counted.
    first: i64,
}

#[wasm_bindgen]
impl GanttSession {
    /// Simulates `policy` on the trace, recording processor placements.
    #[wasm_bindgen(constructor)]
    pub fn new(bytes: &[u8], policy: &str, settings: Vec<String>) -> Result<GanttSession, JsError> {
        let (mut s, cfg, trace) = prepare(bytes, policy, &settings).map_err(|r| JsError::new(&r.0))?;
        s.engine.placements = true;
        let (outcome, _) = run_one(&trace, &cfg, &s);
        Ok(GanttSession {
            gantt: Gantt::new(&trace, &outcome),
            records: records(&trace, &outcome),
            policy: policy.to_string(),
            first: trace.report.first_submit,
        })
    }

    /// `[first start, last end, machine size]`.
    pub fn extent(&self) -> Vec<f64> {
        let (a, b) = self.gantt.span();
        vec![a as f64, b as f64, self.gantt.machine() as f64]
    }

    /// RGBA pixels of the window `[t0, t1)`, with the job at trace index `highlight` outlined
    /// (a negative index: none).
    pub fn render(&self, t0: f64, t1: f64, width: u32, height: u32, highlight: f64) -> Vec<u8> {
        let job = (highlight >= 0.0).then_some(highlight as usize);
        self.gantt.render_highlighted(t0, t1, width, height, job)
    }

    /// The job at time `t` on processor `proc`: `{index, job_id, policy, card}` (`card`: what
    /// its record says, in words), or null.
    pub fn job(&self, t: f64, proc: u32) -> JsValue {
        match self.gantt.job_at(t, proc) {
            Some(i) => {
                js(&json!({"index": i, "job_id": self.records[i].job_id, "policy": self.policy, "card": self.card(i)}))
            }
            None => JsValue::NULL,
        }
    }

    /// A line about the job at time `t` on processor `proc`, or an empty string.
    pub fn describe(&self, t: f64, proc: u32) -> String {
        self.gantt
            .job_at(t, proc)
            .map_or(String::new(), |i| format!("job {}: {}", self.records[i].job_id, self.card(i)))
    }
}

impl GanttSession {
    /// What job `i`'s record says, its durations as every chart writes them.
    fn card(&self, i: usize) -> String {
        use crate::render::compare::{fmt_value, Unit};
        let r = &self.records[i];
        let d = |s: i64| fmt_value(Unit::Seconds, s as f64);
        format!(
            "user {}, {} processors, submitted {} into the trace, waited {}, ran {}, estimate {}",
            r.user,
            r.procs,
            d(r.submit - self.first),
            d(r.wait()),
            d(r.end - r.start),
            d(r.estimate)
        )
    }
}

/// Tsafrir et al.'s Table 3 and Tables 4, 5 and 10 of the page's runs: `runs` is
/// `[{policy, metrics}]` in the page's order, of which the prediction presets and the predictor
/// panel's `custom` are shown. Returns `{"ok", "note", "tables": [table3, predictability]}`.
#[cfg(feature = "whole")]
#[wasm_bindgen]
pub fn prediction_tables(runs: JsValue) -> JsValue {
    use crate::studies::panel::{prediction_presets, prediction_tables, Ran};
    let runs: Vec<Ran> = match serde_wasm_bindgen::from_value(runs) {
        Ok(r) => r,
        Err(e) => return failure(format!("bad runs: {e}"), Value::Null),
    };
    let presets = prediction_presets();
    let shown: Vec<Ran> =
        runs.into_iter().filter(|r| r.policy == "custom" || presets.contains(&r.policy.as_str())).collect();
    let (note, t3, tp) = prediction_tables(&shown);
    js(&json!({"ok": true, "note": note, "tables": [crate::render::html::table(&t3), crate::render::html::table(&tp)]}))
}

/// A wasm class reading a dropped file in chunks into a packed trace, which every other call
/// takes in place of the file's bytes: the page never holds a large file whole.
macro_rules! trace_loader {
    ($(#[$doc:meta])* $name:ident, $inner:ty) => {
        $(#[$doc])*
        #[wasm_bindgen]
        pub struct $name(Option<$inner>);

        #[wasm_bindgen]
        impl $name {
            /// A loader keeping at most `max_jobs` job lines (0: the page's default limit).
            #[wasm_bindgen(constructor)]
            pub fn new(max_jobs: f64) -> $name {
                let limit = if max_jobs >= 1.0 { max_jobs as u64 } else { crate::trace::PAGE_JOB_LIMIT };
                $name(Some(<$inner>::new(Some(limit))))
            }

            /// Feeds the next chunk (plain or gzip, told from the first bytes); false: stop
            /// reading, as the job limit was reached or the data cannot be read further.
            pub fn feed(&mut self, chunk: &[u8]) -> bool {
                self.0.as_mut().is_some_and(|l| l.feed(chunk))
            }

            /// Stops reading early for `why`: the jobs read so far are kept and the report
            /// says where.
            pub fn interrupt(&mut self, why: &str) {
                if let Some(l) = self.0.as_mut() {
                    l.interrupt(why);
                }
            }

            /// Job lines kept so far.
            pub fn job_lines(&self) -> f64 {
                self.0.as_ref().map_or(0.0, |l| l.jobs() as f64)
            }

            /// Ends the input and returns the packed trace; the loader is empty afterwards.
            pub fn finish(&mut self) -> Vec<u8> {
                self.0.take().map(|l| l.finish()).unwrap_or_default()
            }
        }
    };
}

trace_loader!(
    /// Reads SWF (the start wasm's loader, which has no accounting-log reader).
    TraceLoader,
    crate::trace::SwfLoader
);

#[cfg(feature = "whole")]
trace_loader!(
    /// Reads SWF and Slurm, PBS, Grid Engine and LSF logs (only the whole wasm has it).
    AccountingLoader,
    crate::trace::Loader
);

#[wasm_bindgen]
impl TraceLoader {
    /// True when the file is not SWF: the whole wasm's AccountingLoader reads it from its start.
    pub fn wants_readers(&self) -> bool {
        self.0.as_ref().is_some_and(|l| l.wants_readers())
    }
}

#[cfg(feature = "whole")]
#[wasm_bindgen]
impl Figure {
    /// The chart as SVG, through plotters' SVG backend as the CLI writes it.
    pub fn svg(&self) -> String {
        self.0.svg()
    }
}

/// The page's default limit on job lines read.
#[wasm_bindgen]
pub fn job_limit() -> f64 {
    crate::trace::PAGE_JOB_LIMIT as f64
}

/// A chart drawn by `render`, kept by the page for the pointer, its table and its exports.
#[wasm_bindgen]
pub struct Figure(Chart);

#[wasm_bindgen]
impl Figure {
    /// The display list's hash: the CLI's picture of the same chart has the same one.
    pub fn hash(&self) -> String {
        self.0.hash()
    }

    /// The chart's height in CSS pixels (more than asked when its runs need the room).
    pub fn height(&self) -> u32 {
        self.0.height
    }

    /// What lies under the point (x, y) in CSS pixels: `{rect, series, index, text}`, or null.
    pub fn hit(&self, x: f64, y: f64) -> JsValue {
        self.0.hit(x, y).map_or(JsValue::NULL, js)
    }

    /// The chart's numbers: `{title, columns, rows}`.
    pub fn table(&self) -> JsValue {
        js(&self.0.table)
    }

    /// The chart's numbers as the HTML table shown under it ([`crate::render::html::numbers`]).
    pub fn table_html(&self) -> String {
        crate::render::html::numbers(&self.0.table)
    }

    /// The plotting area `[x0, y0, x1, y1]` in CSS pixels.
    pub fn plot(&self) -> Vec<i32> {
        let (x0, y0, x1, y1) = self.0.plot;
        vec![x0, y0, x1, y1]
    }

    /// Paints the chart on `canvas`, whose pixel size may be a multiple of the chart's (a
    /// high-density screen): the drawing is scaled to fill it.
    pub fn paint(&self, canvas: &HtmlCanvasElement) -> Result<(), JsError> {
        let ctx = context(canvas)?;
        let scale = canvas.width() as f64 / self.0.width.max(1) as f64;
        ctx.set_transform(scale, 0.0, 0.0, scale, 0.0, 0.0)
            .map_err(|_| JsError::new("the canvas refused a transform"))?;
        ctx.clear_rect(0.0, 0.0, self.0.width as f64, self.0.height as f64);
        let mut backend = CanvasBackend::with_canvas_object(canvas.clone())
            .ok_or_else(|| JsError::new("the canvas has no 2D context"))?;
        self.0.paint(&mut backend);
        Ok(())
    }
}

fn context(canvas: &HtmlCanvasElement) -> Result<CanvasRenderingContext2d, JsError> {
    canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
        .ok_or_else(|| JsError::new("the canvas has no 2D context"))
}

fn from_js<T: serde::de::DeserializeOwned>(value: JsValue, what: &str) -> Result<T, JsError> {
    serde_wasm_bindgen::from_value(value).map_err(|e| JsError::new(&format!("bad {what}: {e}")))
}

/// Comparison chart `which` (a [`CompareChart`], e.g. `{kind: "metric-bars", metric}`) of `runs`
/// (the `view`s of simulate, in the page's order, which picks each run's colour), laid out for
/// `options` ([`ChartOptions`]).
#[wasm_bindgen]
pub fn compare_figure(runs: JsValue, which: JsValue, options: JsValue) -> Result<Figure, JsError> {
    let runs: Vec<RunView> = from_js(runs, "runs")?;
    let which: CompareChart = from_js(which, "chart")?;
    let options: ChartOptions = from_js(options, "chart options")?;
    // Taller than the canvas when many runs need it (the page grows the canvas to the figure).
    compare_chart(&runs, &which, &fitted(&runs, &which, &options)).map(Figure).map_err(|e| JsError::new(&e))
}

/// The colour of the run at `index` in every chart, as CSS `rgb(...)`, for the page's legends.
#[wasm_bindgen]
pub fn run_colour(index: usize) -> String {
    let (r, g, b) = crate::render::chart::palette(index);
    format!("rgb({r}, {g}, {b})")
}

/// The colours of the runs of `names` shown together, as CSS `rgb(...)`: each catalogue
/// policy its own, for ever; other names colours no run shown holds
/// ([`crate::render::chart::run_colours`]).
#[wasm_bindgen]
pub fn policy_colours(names: Vec<String>) -> Vec<String> {
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    crate::render::chart::run_colours(&names).into_iter().map(run_colour).collect()
}

/// Puts RGBA `pixels` (`width` x `height`, a Gantt raster) on `canvas` at (x, y) in canvas pixels.
#[wasm_bindgen]
pub fn put_raster(canvas: &HtmlCanvasElement, pixels: &[u8], width: u32, x: f64, y: f64) -> Result<(), JsError> {
    let data = ImageData::new_with_u8_clamped_array(Clamped(pixels), width.max(1))
        .map_err(|_| JsError::new("the raster's size does not match its pixels"))?;
    context(canvas)?.put_image_data(&data, x, y).map_err(|_| JsError::new("the canvas refused the raster"))
}

/// The Gantt chart's frame for a machine of `machine` processors over `[t0, t1)`: axes and
/// title; the worker's raster goes into its plot area (see [`put_raster`]).
#[wasm_bindgen]
pub fn gantt_figure(machine: u32, t0: f64, t1: f64, title: &str, options: JsValue) -> Result<Figure, JsError> {
    let mut options: ChartOptions = from_js(options, "chart options")?;
    options.x_range = Some((t0, t1));
    Ok(Figure(crate::render::gantt::frame(machine, title, &options)))
}

/// The answer on the first screen for `runs` (simulate's `view`s) on a trace whose report says
/// `loss` (its sentences on jobs dropped or altered), as HTML: the warnings (what the lead's
/// figures hide) before the lead, then the rest, a paragraph each.
#[wasm_bindgen]
pub fn answer(runs: JsValue, loss: JsValue) -> Result<String, JsError> {
    use crate::render::html::El;
    let runs: Vec<RunView> = from_js(runs, "runs")?;
    let loss: Vec<String> = if loss.is_undefined() || loss.is_null() { Vec::new() } else { from_js(loss, "loss")? };
    let said = crate::render::answer::answer(&runs, &loss);
    let p = |class: &str, text: &str| El::new("p").attr("class", class).text(text).to_string();
    let warnings = said.warnings.iter().map(|w| p("warning", w));
    Ok(warnings.chain([p("lead", &said.lead)]).chain(said.more.iter().map(|m| p("more", m))).collect())
}

/// The chosen policies as chips in their colours (`data-colour`), those not yet finished while
/// `running` titled so.
#[wasm_bindgen]
pub fn chips(names: Vec<String>, finished: Vec<String>, running: bool) -> String {
    use crate::render::html::El;
    let shown: Vec<&str> = names.iter().map(String::as_str).collect();
    let colours = crate::render::chart::run_colours(&shown);
    let chip = |(name, colour): (&String, _)| {
        let swatch = El::new("i").attr("data-colour", run_colour(colour));
        let chip = El::new("span").attr("class", "chip").attr("data-policy", name).kid(swatch).text(name);
        chip.some("title", if running && !finished.contains(name) { "running…" } else { "" }).to_string()
    };
    names.iter().zip(colours).map(chip).collect()
}

/// The status line after a run ([`crate::render::answer::run_status`]).
#[wasm_bindgen]
pub fn run_status(
    asked: Vec<String>,
    failed: Vec<String>,
    finished: usize,
    partial: usize,
    jobs: f64,
    seconds: f64,
) -> String {
    crate::render::answer::run_status(&asked, &failed, finished, partial, jobs as u64, seconds)
}

/// The leaderboard and the table of every metric of `runs` (simulate's `view`s, each with its
/// `policy`), with each run's schedule hash and engine memory (0: unknown), the table sorted by
/// `key`, descending when `dir` is -1: `{board, table}` ([`crate::render::board`]).
#[wasm_bindgen]
pub fn compare_tables(
    runs: JsValue,
    hashes: Vec<String>,
    memory: Vec<f64>,
    key: &str,
    dir: i32,
) -> Result<JsValue, JsError> {
    use crate::render::board::{compare_tables, Sort};
    let runs: Vec<RunView> = from_js(runs, "runs")?;
    let sort = Sort { key: key.to_string(), dir: if dir < 0 { -1 } else { 1 } };
    let html: serde_json::Map<String, Value> = compare_tables(&runs, &hashes, &memory, &sort)
        .into_iter()
        .map(|(k, t)| (k.to_string(), Value::String(crate::render::html::table(&t))))
        .collect();
    Ok(js(&html))
}

/// A generic chart ([`crate::render::generic::Spec`]: grouped bars, lines, ...) of numbers the
/// page already has, such as a study's tables, laid out for `options`.
#[cfg(feature = "whole")]
#[wasm_bindgen]
pub fn generic_figure(spec: JsValue, options: JsValue) -> Result<Figure, JsError> {
    let spec: crate::render::generic::Spec = from_js(spec, "chart")?;
    let options: ChartOptions = from_js(options, "chart options")?;
    crate::render::generic::draw(&spec, &options).map(Figure).map_err(|e| JsError::new(&e))
}

/// Chart `which` (0: jobs, 1: processor-hours) of a trace's shape (inspect's `shape`), laid out
/// for `options` ([`crate::render::report::shape_charts`]).
#[cfg(feature = "whole")]
#[wasm_bindgen]
pub fn shape_figure(shape: JsValue, which: usize, options: JsValue) -> Result<Figure, JsError> {
    let grid: crate::metrics::categories::Grid = from_js(shape, "shape")?;
    let options: ChartOptions = from_js(options, "chart options")?;
    let [jobs, hours] = crate::render::report::shape_charts(&grid);
    let spec = if which == 0 { jobs } else { hours };
    crate::render::generic::draw(&spec, &options).map(Figure).map_err(|e| JsError::new(&e))
}

/// The page's settings: every observer attached (its tables show every metric) unless the
/// settings choose with `observe=`, then the page's own list.
fn page_settings(list: &[String]) -> Result<Settings, crate::keys::KeyError> {
    let mut all = vec!["observe=all".to_string()];
    all.extend_from_slice(list);
    Settings::parse(&all)
}

/// The Learn view: its state ([`crate::explain::learn::View`]), read from the link and kept in
/// it, and the lessons it runs, made again on every change.
#[cfg(feature = "whole")]
#[wasm_bindgen]
pub struct Learn {
    view: crate::explain::learn::View,
    lessons: Option<crate::explain::lesson::Lessons>,
    problems: Vec<String>,
}

#[cfg(feature = "whole")]
#[wasm_bindgen]
impl Learn {
    /// The lesson the link's flat (name, value) pairs ask for, with the catalogue's `policies` to choose from.
    #[wasm_bindgen(constructor)]
    pub fn new(link: Vec<String>, policies: Vec<String>) -> Learn {
        let view = crate::explain::learn::View::from_link(&pairs(link), &policies);
        let mut learn = Learn { view, lessons: None, problems: Vec::new() };
        learn.run();
        learn
    }

    /// Runs the policies on the trace again (a few milliseconds for a table's worth of jobs).
    fn run(&mut self) {
        let v = &self.view;
        let swf = crate::explain::learn::swf_of_rows(&v.rows, v.machine);
        let ran = crate::explain::lesson::lessons(&swf, &v.specs(), &v.settings);
        self.problems = ran.as_ref().map_or_else(|e| vec![e.clone()], |l| l.problems.clone());
        self.lessons = ran.ok();
    }

    /// Shows worked example `name` from its first pass.
    pub fn example(&mut self, name: &str) {
        self.view.load_example(name, None);
        self.view.index = 0;
        self.run();
    }

    /// Chooses the policies: `a`, and `b` beside it (empty: none).
    pub fn choose(&mut self, a: &str, b: &str) {
        self.view.policies = [a, b].into_iter().filter(|p| !p.is_empty()).map(String::from).collect();
        self.run();
    }

    /// Your own policy's priority, as typed.
    pub fn priority(&mut self, text: &str) {
        self.view.priority = text.to_string();
        self.run();
    }

    /// Sets field `key` of job `row` (from 0) to `value`; a value that is not a whole number changes nothing.
    pub fn edit(&mut self, row: usize, key: &str, value: f64) {
        if value.is_finite() && self.view.edit(row, key, value as i64) {
            self.run();
        }
    }

    /// Adds a job like the last one, a second after it.
    pub fn add(&mut self) {
        self.view.add_row();
        self.run();
    }

    /// Removes job `row` (from 0).
    pub fn remove(&mut self, row: usize) {
        self.view.remove_row(row);
        self.run();
    }

    /// Sets the machine's size (below 1: unchanged).
    pub fn machine(&mut self, processors: f64) {
        if processors.round() >= 1.0 {
            self.view.machine = processors.round() as i64;
            self.view.edited();
            self.run();
        }
    }

    /// Goes to pass `index` (within the passes there are) and says what the view shows there ([`crate::explain::learn::Pass`]).
    pub fn go(&mut self, index: f64) -> JsValue {
        let wanted = if index.is_finite() { index.max(0.0) as usize } else { usize::MAX };
        let Some(lessons) = &self.lessons else { return JsValue::NULL };
        let pass = crate::explain::learn::pass(lessons, wanted);
        self.view.index = pass.index;
        js(&pass)
    }

    /// The pass shown (from 0).
    pub fn index(&self) -> usize {
        self.view.index
    }

    /// What the controls show: {title, text, example, mine, priority, machine, problems,
    /// examples, a, b, table}, the last four as HTML.
    pub fn shown(&self) -> JsValue {
        #[derive(serde::Serialize)]
        struct Shown<'a> {
            title: String,
            text: String,
            example: Option<&'a str>,
            mine: bool,
            priority: &'a str,
            machine: i64,
            problems: &'a [String],
            examples: String,
            a: String,
            b: String,
            table: String,
        }
        let v = &self.view;
        let (title, text) = v.heading();
        js(&Shown {
            title,
            text,
            example: v.example.map(|e| e.name),
            mine: v.policies.iter().any(|p| p == crate::explain::learn::MINE),
            priority: &v.priority,
            machine: v.machine,
            problems: &self.problems,
            examples: v.examples_html(),
            a: v.options_html(0),
            b: v.options_html(1),
            table: crate::explain::learn::rows_html(&v.rows),
        })
    }

    /// The link's flat (name, value) pairs with the lesson's in place of any it had.
    pub fn link(&self, link: Vec<String>) -> Vec<String> {
        self.view.link(&pairs(link)).into_iter().flat_map(|(k, v)| [k, v]).collect()
    }

    /// The chart of step `step` of lesson `which`, on the time axis both lessons share.
    pub fn figure(&self, which: usize, step: usize, options: JsValue) -> Result<Figure, JsError> {
        let mut options: ChartOptions = from_js(options, "chart options")?;
        let lessons = self.lessons.as_ref().ok_or_else(|| JsError::new("no lessons"))?;
        let lesson = lessons.lessons.get(which).ok_or_else(|| JsError::new("no such lesson"))?;
        let span = crate::explain::learn::span(lessons);
        options.x_range = Some((span.0 as f64, span.1 as f64));
        Ok(Figure(crate::render::learn::learn_chart(lesson, step, &options)))
    }
}
