//! The studies as the page runs them (`studies::panel`): each plan run task by task as the
//! workers do, and its report's numbers checked against the library's own studies on the demo.

use schedlab::run::{configure, run_one, Settings};
use schedlab::studies::panel::{Options, Study};
use schedlab::trace::{parse, Trace};
use serde_json::Value;

const DEMO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/www/demo/KTH-SP2-1996-2.1-cln.excerpt.swf");

/// Runs `study` with `options` on the demo as the page does: plan, each task with its own
/// settings (and the trace read with them), then the report, as JSON.
fn report(study: &dyn Study, options: &[&str]) -> Value {
    let bytes = std::fs::read(DEMO).unwrap();
    let given: Vec<String> = options.iter().map(|s| s.to_string()).collect();
    let options = Options::parse(&study.fields(), &given).unwrap();
    let plan = study.plan(&options, &[], &Value::Null).unwrap();
    let values: Vec<Value> = plan
        .tasks
        .iter()
        .map(|t| {
            let s = Settings::parse(&t.settings).unwrap();
            let trace = parse(&bytes, &s.trace).unwrap();
            study.run(&trace, &s, &t.input).unwrap()
        })
        .collect();
    serde_json::to_value(study.report(&options, &values, &Value::Null).unwrap()).unwrap()
}

fn demo(settings: &[&str]) -> (Trace, Settings) {
    let s = Settings::parse(&settings.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap();
    (parse(&std::fs::read(DEMO).unwrap(), &s.trace).unwrap(), s)
}

/// The block with this id (a table's, a note's, a chart's, a list's).
fn block<'a>(report: &'a Value, id: &str) -> &'a Value {
    report["blocks"].as_array().unwrap().iter().find(|b| b["id"] == id).unwrap_or_else(|| panic!("no block {id}"))
}

/// The exact value of cell `key` in the body row whose data has (`name`, `value`).
fn cell(table: &Value, data: &[(&str, &str)], key: &str) -> f64 {
    let row = table["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| data.iter().all(|(k, v)| r["data"].as_array().unwrap().iter().any(|d| d[0] == *k && d[1] == *v)))
        .unwrap_or_else(|| panic!("no row {data:?}"));
    let c =
        row["cells"].as_array().unwrap().iter().find(|c| c["key"] == key).unwrap_or_else(|| panic!("no cell {key}"));
    c["value"].as_str().unwrap().parse().unwrap()
}

#[test]
fn ward_tables_are_the_relaxed_runs_month_by_month() {
    let r = report(&schedlab::studies::panel::Ward, &["omegas=inf, 0"]);
    let wait = block(&r, "ward-wait");
    for (omega, runtime) in [("0", "est"), ("inf", "act")] {
        let (trace, s) = demo(&["queue_classes=header", &format!("omega={omega}"), &format!("runtime={runtime}")]);
        let (_, res) = run_one(&trace, &configure("relaxed", &s).unwrap()[0], &s);
        let total: f64 = res.monthly.months.iter().map(|m| m.wait_hours).sum();
        assert_eq!(cell(wait, &[("month", "total"), ("runtime", runtime)], &format!("omega={omega}")), total);
        let m = &res.monthly.months[1];
        assert_eq!(cell(wait, &[("month", &m.month), ("runtime", runtime)], &format!("omega={omega}")), m.wait_hours);
        let backfilled = block(&r, "ward-backfilled");
        let got = cell(backfilled, &[("month", &m.month), ("runtime", runtime)], &format!("omega={omega}"));
        assert_eq!(got, m.jobs_backfilled as f64);
    }
    // The demo's queues make no high-class job: a note says so, and there is no Table 3.
    assert!(block(&r, "ward-high-note")["text"].as_str().unwrap().contains("no job of this trace a class of 1"));
    assert_eq!(r["blocks"].as_array().unwrap().iter().filter(|b| b["id"] == "ward-high").count(), 0);
    assert!(r["status"].as_str().unwrap().starts_with("Ran relaxed for 2 omegas × Est and Act (4 runs) in {time}"));
}

#[test]
fn lawson_ratios_are_the_comparisons() {
    let r = report(&schedlab::studies::panel::Lawson, &["loads=1,1.5", "high=0.75"]);
    let summary = block(&r, "lawson-summary");
    for load in ["1", "1.5"] {
        let (trace, s) = demo(&["high_priority=0.75", "reservations=0", &format!("load={load}")]);
        let c = schedlab::studies::lawson::compare(&trace, &s).unwrap();
        assert_eq!(cell(summary, &[("load", load), ("priority", "all")], "r"), c.r);
        assert_eq!(cell(summary, &[("load", load), ("priority", "high")], "r"), c.r_high.unwrap());
        assert_eq!(cell(summary, &[("load", load), ("priority", "low")], "r_short"), c.r_classes_low[0].unwrap());
    }
    // Without reservations Fig. 11 waits, saying why.
    assert_eq!(block(&r, "chart-lawson-tail")["kind"], "empty");
    assert_eq!(block(&r, "chart-lawson-priority")["kind"], "figure");
}

#[test]
fn kettimuthu_tables_and_claims_are_the_comparisons() {
    let r = report(&schedlab::studies::panel::Kettimuthu, &["loads=", "split=poor", "metric=turnaround"]);
    let (trace, s) = demo(&["overhead=off"]);
    let c = schedlab::studies::kettimuthu::compare(&trace, &s).unwrap();
    let summary = block(&r, "km-summary");
    for run in &c.schemes {
        assert_eq!(cell(summary, &[("scheme", run.scheme.label)], "avg_bsld"), run.metrics.avg_bsld);
        assert_eq!(cell(summary, &[("scheme", run.scheme.label)], "suspensions"), run.metrics.suspensions as f64);
    }
    let heat = block(&r, "km-heat-table");
    let ss2 = &c.schemes[2];
    assert_eq!(cell(heat, &[("row", "L"), ("col", "W")], "max:SS 2"), ss2.poor.max_turnaround_s[2][2]);
    let claims = block(&r, "km-findings")["findings"].as_array().unwrap();
    assert_eq!(claims.len(), c.findings.len());
    for (shown, f) in claims.iter().zip(&c.findings) {
        assert_eq!((shown["claim"].as_str().unwrap(), &shown["holds"]), (f.claim, &serde_json::json!(f.holds)));
    }
    // No load factor ticked: no load table, no load claims, the curves say why.
    assert_eq!(block(&r, "km-load-findings")["findings"].as_array().unwrap().len(), 0);
    assert_eq!(block(&r, "chart-km-util")["kind"], "empty");
}

#[test]
fn the_sweep_ranks_the_configurations_runs_by_section_7s_degradation() {
    use schedlab::studies::sweep::{degradation, ranking};
    let r = report(&schedlab::studies::panel::Sweep, &["axes=window=1-3\nmetric=avg,med", "rows=all"]);
    let table = block(&r, "sweep-table");
    let mut perf = Vec::new();
    for w in ["1", "2", "3"] {
        for m in ["avg", "med"] {
            let (trace, s) = demo(&[&format!("window={w}"), &format!("metric={m}")]);
            let (_, res) = run_one(&trace, &configure("easy++", &s).unwrap()[0], &s);
            perf.push(vec![res.metrics.avg_wait_s, res.metrics.avg_bsld]);
        }
    }
    let d = degradation(&perf);
    let order = ranking(&d);
    for (pos, &i) in order.iter().enumerate() {
        let index = i.to_string();
        assert_eq!(table["rows"][pos]["data"][0][1], index.as_str(), "position {pos}");
        assert_eq!(cell(table, &[("index", &index)], "degradation"), d[i]);
        assert_eq!(cell(table, &[("index", &index)], "avg_wait_s"), perf[i][0]);
    }
    // Fig. 10 by window, then a chart by metric.
    assert_eq!(block(&r, "chart-sweep")["spec"]["categories"], serde_json::json!(["1", "2", "3"]));
    assert_eq!(block(&r, "chart-sweep-metric")["spec"]["categories"], serde_json::json!(["avg", "med"]));
}
