//! The WebAssembly API the page's workers call: the CLI's flow, bytes and settings in, JSON out.
//!
//! Each call parses the trace itself, so a worker needs nothing but the file's bytes; parsing
//! costs a small fraction of a simulation. Panics reach the console through
//! `console_error_panic_hook` and the worker reports them to the page.

use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

use crate::engine::Progress;
use crate::engine::ENGINE_KEYS;
use crate::metrics::{categories, compress, records, schedule_csv, METRIC_KEYS};
use crate::policy::Configured;
use crate::policy::{family_options, POLICIES};
use crate::render::gantt::Gantt;
use crate::run::{configure, run_one, run_one_observed, Settings};
use crate::trace::{parse, Trace, TRACE_KEYS};

/// Installs the panic hook; wasm-bindgen runs it when the module is instantiated.
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

fn keys(list: &[(&str, &str, &str)]) -> Vec<Value> {
    list.iter().map(|(k, d, doc)| json!({"key": k, "default": d, "doc": doc})).collect()
}

/// Every policy with its family options, and the trace, engine and metric options, as JSON.
#[wasm_bindgen]
pub fn catalogue() -> String {
    let policies: Vec<Value> = POLICIES
        .iter()
        .map(|p| {
            json!({
                "name": p.name,
                "family": p.family,
                "group": p.group,
                "summary": p.summary,
                "defaults": p.defaults.iter().map(|(k, v)| (k.to_string(), json!(v))).collect::<serde_json::Map<_, _>>(),
                "options": family_options(p.family),
                "family_defaults": family_options(p.family)
                    .iter()
                    .map(|o| (o.key.to_string(), json!(crate::policy::family_default(p.family, o.key).unwrap_or(""))))
                    .collect::<serde_json::Map<_, _>>(),
            })
        })
        .collect();
    json!({
        "policies": policies,
        "trace_options": keys(TRACE_KEYS),
        "engine_options": keys(ENGINE_KEYS),
        "metric_options": keys(METRIC_KEYS),
        "sweep_axes": crate::sweep::DEFAULT_AXES,
    })
    .to_string()
}

fn failure(message: impl Into<String>, report: Value) -> String {
    json!({"ok": false, "message": message.into(), "report": report}).to_string()
}

/// Why a call could not simulate: a message, and the trace report when the trace was at fault.
struct Refusal(String, Value);

impl Refusal {
    fn json(self) -> String {
        failure(self.0, self.1)
    }
}

/// The common start of every simulating call: settings, the configured policy, the trace.
fn prepare(bytes: &[u8], policy: &str, settings: &[String]) -> Result<(Settings, Configured, Trace), Refusal> {
    let s = Settings::parse(settings).map_err(|e| Refusal(e.to_string(), Value::Null))?;
    let cfg = configure(policy, &s).map_err(|e| Refusal(e.to_string(), Value::Null))?;
    let cfg = cfg.into_iter().next().ok_or_else(|| Refusal("no policy".into(), Value::Null))?;
    let trace = load(bytes, &s)?;
    Ok((s, cfg, trace))
}

/// Parses the settings and the trace, or gives the failure JSON to return.
fn settings_and_trace(bytes: &[u8], settings: &[String]) -> Result<(Settings, Trace), String> {
    let s = Settings::parse(settings).map_err(|e| failure(e.to_string(), Value::Null))?;
    let trace = load(bytes, &s).map_err(|r| r.json())?;
    Ok((s, trace))
}

/// Parses the trace with the settings' trace options.
fn load(bytes: &[u8], s: &Settings) -> Result<Trace, Refusal> {
    parse(bytes, &s.trace).map_err(|e| Refusal(e.message, json!(e.report)))
}

/// Parses a trace (plain or gzip) and returns `{"ok", "report", "header"}` or `{"ok": false, "message", "report"}`.
#[wasm_bindgen]
pub fn inspect(bytes: &[u8], settings: Vec<String>) -> String {
    let s = match Settings::parse(&settings) {
        Ok(s) => s,
        Err(e) => return failure(e.to_string(), Value::Null),
    };
    match parse(bytes, &s.trace) {
        Ok(t) => {
            json!({"ok": true, "report": t.report, "header": t.header, "shape": categories::shape(&t)}).to_string()
        }
        Err(e) => failure(e.message, json!(e.report)),
    }
}

/// Simulates one policy: `{"ok", "result": {policy, options, metrics, schedule_hash}, "series",
/// "wait_quantiles"}`, or `{"ok": false, "message"}`. `progress` is called with the share of jobs
/// that have arrived (0 to 1) every few thousand scheduling passes.
#[wasm_bindgen]
pub fn simulate(
    bytes: &[u8],
    policy: &str,
    settings: Vec<String>,
    series_points: usize,
    progress: &js_sys::Function,
) -> String {
    let (s, cfg, trace) = match prepare(bytes, policy, &settings) {
        Ok(p) => p,
        Err(r) => return r.json(),
    };
    let mut report = |p: Progress| {
        let _ = progress.call1(&JsValue::NULL, &JsValue::from_f64(p.arrived as f64 / p.total.max(1) as f64));
    };
    let (outcome, result) = run_one_observed(&trace, &cfg, &s, &mut report);
    let recs = records(&trace, &outcome);
    let mut waits: Vec<i64> = recs.iter().filter(|r| r.start >= 0).map(|r| r.wait()).collect();
    waits.sort_unstable();
    // 201 quantiles (every half percent) are enough for a smooth distribution curve.
    let quantiles: Vec<i64> =
        if waits.is_empty() { Vec::new() } else { (0..=200).map(|q| waits[(q * (waits.len() - 1)) / 200]).collect() };
    json!({
        "ok": true,
        "result": result,
        "series": compress(&outcome.series, series_points.max(1)),
        "wait_quantiles": quantiles,
        "categories": categories::bsld_by_category(&recs, s.metrics.tau),
    })
    .to_string()
}

/// Lawson & Smirni's comparison: `mq-backfill` against `sq-backfill` on the trace with the
/// given settings (both policies take them; the baseline keeps one queue): `{"ok", "comparison"}`
/// with R overall, per class and priority, the transient batches and the reservations, or
/// `{"ok": false, "message"}`.
#[wasm_bindgen]
pub fn lawson_compare(bytes: &[u8], settings: Vec<String>) -> String {
    let (s, trace) = match settings_and_trace(bytes, &settings) {
        Ok(x) => x,
        Err(json) => return json,
    };
    match crate::lawson::compare(&trace, &s) {
        Ok(c) => json!({"ok": true, "comparison": c, "tail_points": crate::lawson::TAIL_POINTS}).to_string(),
        Err(e) => failure(e.to_string(), Value::Null),
    }
}

/// Kettimuthu et al.'s comparison: NS, SS (SF 1.5, 2, 5), TSS and IS on the trace with the
/// given settings, by Table 2.1 category, with the thesis's claims checked: `{"ok", "comparison"}`
/// or `{"ok": false, "message"}`.
#[wasm_bindgen]
pub fn kettimuthu_compare(bytes: &[u8], settings: Vec<String>) -> String {
    let (s, trace) = match settings_and_trace(bytes, &settings) {
        Ok(x) => x,
        Err(json) => return json,
    };
    match crate::kettimuthu::compare(&trace, &s) {
        Ok(c) => json!({"ok": true, "comparison": c}).to_string(),
        Err(e) => failure(e.to_string(), Value::Null),
    }
}

/// The schemes and load factors of Kettimuthu et al.'s study, as JSON.
#[wasm_bindgen]
pub fn kettimuthu_schemes() -> String {
    use crate::kettimuthu::{LOAD_FACTORS, LOAD_SCHEMES, SCHEMES};
    json!({"schemes": SCHEMES, "load_schemes": LOAD_SCHEMES, "load_factors": LOAD_FACTORS}).to_string()
}

/// One point of the load study: the scheme labelled `label` (of the load schemes) at load
/// factor `factor` (times any `load` setting): `{"ok", "point"}` with utilization, averages and
/// the four categories of Table 4.1.
#[wasm_bindgen]
pub fn kettimuthu_load(bytes: &[u8], label: &str, factor: f64, settings: Vec<String>) -> String {
    use crate::kettimuthu::{load_point, LOAD_SCHEMES};
    let mut s = match Settings::parse(&settings) {
        Ok(s) => s,
        Err(e) => return failure(e.to_string(), Value::Null),
    };
    let Some(scheme) = LOAD_SCHEMES.iter().find(|x| x.label == label) else {
        return failure(format!("unknown scheme {label:?}"), Value::Null);
    };
    if !(0.01..=100.0).contains(&factor) {
        return failure(format!("load factor {factor} is out of range (0.01 to 100)"), Value::Null);
    }
    s.trace.load *= factor;
    let trace = match load(bytes, &s) {
        Ok(t) => t,
        Err(r) => return r.json(),
    };
    match load_point(&trace, factor, scheme, &s) {
        Ok(p) => json!({"ok": true, "point": p}).to_string(),
        Err(e) => failure(e.to_string(), Value::Null),
    }
}

/// Section 4.2's claims checked on load-study points given as parallel arrays (scheme label,
/// load factor, utilization, mean bounded slowdown): a JSON array of findings.
#[wasm_bindgen]
pub fn kettimuthu_load_findings(
    labels: Vec<String>,
    loads: Vec<f64>,
    utilization: Vec<f64>,
    avg_bsld: Vec<f64>,
) -> String {
    use crate::kettimuthu::{load_findings_of, LoadSummary};
    let rows: Vec<LoadSummary> = labels
        .into_iter()
        .zip(loads)
        .zip(utilization.into_iter().zip(avg_bsld))
        .map(|((label, load), (utilization, avg_bsld))| LoadSummary { label, load, utilization, avg_bsld })
        .collect();
    json!(load_findings_of(&rows)).to_string()
}

/// The nine policies of Leung et al.'s study and the width classes of their Table I, as JSON
/// `{"policies", "widths"}`.
#[wasm_bindgen]
pub fn leung_policies() -> String {
    json!({"policies": crate::leung::POLICIES, "widths": crate::metrics::categories::leung_width_labels()}).to_string()
}

/// One policy of Leung et al.'s study on the trace: `{"ok", "run"}` with its metrics (fair-start
/// misses, turnaround per job and per submission, loss of capacity) overall and by width class,
/// or `{"ok": false, "message"}`.
#[wasm_bindgen]
pub fn leung_policy(bytes: &[u8], policy: &str, settings: Vec<String>) -> String {
    let (s, trace) = match settings_and_trace(bytes, &settings) {
        Ok(x) => x,
        Err(json) => return json,
    };
    match crate::leung::run_policy(&trace, policy, &s) {
        Ok(run) => json!({"ok": true, "run": run}).to_string(),
        Err(e) => failure(e.to_string(), Value::Null),
    }
}

/// Section VI's claims checked on the policies' figures given as parallel arrays (policy, share
/// of submissions missing their fair start, mean miss in seconds, mean turnaround per submission
/// in seconds, loss of capacity): a JSON array of findings.
#[wasm_bindgen]
pub fn leung_findings(
    policies: Vec<String>,
    fst_miss_share: Vec<f64>,
    avg_fst_miss_s: Vec<f64>,
    avg_response_submitted_s: Vec<f64>,
    loss_of_capacity: Vec<f64>,
) -> String {
    use crate::leung::{findings, Summary};
    let rows: Vec<Summary> = policies
        .into_iter()
        .enumerate()
        .map(|(k, policy)| Summary {
            policy,
            fst_miss_share: fst_miss_share.get(k).copied().unwrap_or(f64::NAN),
            avg_fst_miss_s: avg_fst_miss_s.get(k).copied().unwrap_or(f64::NAN),
            avg_response_submitted_s: avg_response_submitted_s.get(k).copied().unwrap_or(f64::NAN),
            loss_of_capacity: loss_of_capacity.get(k).copied().unwrap_or(f64::NAN),
        })
        .collect();
    json!(findings(&rows)).to_string()
}

/// One policy's schedule as CSV (the CLI's `--schedule-out` format), or `error: ...` on failure.
#[wasm_bindgen]
pub fn schedule(bytes: &[u8], policy: &str, settings: Vec<String>) -> String {
    match prepare(bytes, policy, &settings) {
        Ok((s, cfg, trace)) => schedule_csv(&records(&trace, &run_one(&trace, &cfg, &s).0)),
        Err(Refusal(message, _)) => format!("error: {message}"),
    }
}

/// One policy's schedule kept in a worker for the Gantt chart: drawn again at every zoom or pan.
#[wasm_bindgen]
pub struct GanttSession {
    gantt: Gantt,
    records: Vec<crate::metrics::Record>,
}

#[wasm_bindgen]
impl GanttSession {
    /// Simulates `policy` on the trace, recording processor placements.
    #[wasm_bindgen(constructor)]
    pub fn new(bytes: &[u8], policy: &str, settings: Vec<String>) -> Result<GanttSession, JsError> {
        let (mut s, cfg, trace) = prepare(bytes, policy, &settings).map_err(|r| JsError::new(&r.0))?;
        s.engine.placements = true;
        let (outcome, _) = run_one(&trace, &cfg, &s);
        Ok(GanttSession { gantt: Gantt::new(&trace, &outcome), records: records(&trace, &outcome) })
    }

    /// `[first start, last end, machine size]`.
    pub fn extent(&self) -> Vec<f64> {
        let (a, b) = self.gantt.span();
        vec![a as f64, b as f64, self.gantt.machine() as f64]
    }

    /// RGBA pixels of the window `[t0, t1)`.
    pub fn render(&self, t0: f64, t1: f64, width: u32, height: u32) -> Vec<u8> {
        self.gantt.render(t0, t1, width, height)
    }

    /// A line about the job at time `t` on processor `proc`, or an empty string.
    pub fn describe(&self, t: f64, proc: u32) -> String {
        match self.gantt.job_at(t, proc) {
            Some(i) => {
                let r = &self.records[i];
                format!(
                    "job {}: user {}, {} processors, submit {}, start {} (waited {} s), end {}, estimate {} s",
                    r.job_id,
                    r.user,
                    r.procs,
                    r.submit,
                    r.start,
                    r.wait(),
                    r.end,
                    r.estimate
                )
            }
            None => String::new(),
        }
    }
}

/// Ranks a sweep (Tsafrir et al. section 7). Input JSON: `{"configs": [[[key, value], ...], ...],
/// "perf": [[case values...], ...], "by": key}`; output: `{"degradation", "order", "by"}` or
/// `{"ok": false, "message"}`.
#[wasm_bindgen]
pub fn rank_sweep(input: &str) -> String {
    #[derive(serde::Deserialize)]
    struct Input {
        configs: Vec<Vec<(String, String)>>,
        perf: Vec<Vec<f64>>,
        by: String,
    }
    let i: Input = match serde_json::from_str(input) {
        Ok(i) => i,
        Err(e) => return failure(format!("bad sweep input: {e}"), Value::Null),
    };
    let d = crate::sweep::degradation(&i.perf);
    json!({
        "ok": true,
        "degradation": d,
        "order": crate::sweep::ranking(&d),
        "by": crate::sweep::by_key(&i.configs, &d, &i.by),
    })
    .to_string()
}

/// Reads a dropped file in chunks into a packed trace, which every other call takes in place of
/// the file's bytes: the page never holds a large file whole.
#[wasm_bindgen]
pub struct TraceLoader(Option<crate::trace::Loader>);

#[wasm_bindgen]
impl TraceLoader {
    /// A loader keeping at most `max_jobs` job lines (0: the page's default limit).
    #[wasm_bindgen(constructor)]
    pub fn new(max_jobs: f64) -> TraceLoader {
        let limit = if max_jobs >= 1.0 { max_jobs as u64 } else { crate::trace::PAGE_JOB_LIMIT };
        TraceLoader(Some(crate::trace::Loader::new(Some(limit))))
    }

    /// Feeds the next chunk (plain or gzip, told from the first bytes); false: stop reading,
    /// as the job limit was reached or the data cannot be read further.
    pub fn feed(&mut self, chunk: &[u8]) -> bool {
        self.0.as_mut().is_some_and(|l| l.feed(chunk))
    }

    /// Stops reading early for `why`: the jobs read so far are kept and the report says where.
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

/// The page's default limit on job lines read.
#[wasm_bindgen]
pub fn job_limit() -> f64 {
    crate::trace::PAGE_JOB_LIMIT as f64
}
