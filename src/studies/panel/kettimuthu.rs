//! Selective preemption (Kettimuthu et al. 2003) as the page shows it: NS, SS at three
//! suspension factors, TSS and IS compared on the trace, and the load study (NS, SS 2 and IS at
//! each load factor), as the thesis's figures: the 16 categories of Table 2.1 as heatmaps of the
//! average and worst case per scheme (Figs. 3.1-3.6), the job distribution (Table 2.2), the load
//! curves (Figs. 4.9-4.11, Table 4.1's categories) and the claims checked on the trace.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::{
    plain_number, read, shared_load, with_own, without, Block, Cell, Claim, Field, Fixed, Options, Plan, Report, Row,
    Study, Table, Task,
};
use crate::metrics::categories::CategoryTable;
use crate::render::generic::{Labels, Panel, Series, Spec};
use crate::run::Settings;
use crate::studies::kettimuthu::{
    compare, load_findings_of, load_point, LoadSummary, LOAD_FACTORS, LOAD_SCHEMES, SCHEMES,
};
use crate::trace::Trace;

/// The study (see the module docs).
pub struct Kettimuthu;

/// Which jobs the category tables cover: value, label.
const SPLITS: [(&str, &str); 3] = [
    ("all", "all jobs"),
    ("well", "well estimated (estimate ≤ 2 × runtime)"),
    ("poor", "poorly estimated (estimate > 2 × runtime)"),
];

/// What the tables and curves show.
struct Metric {
    name: &'static str,
    short: &'static str,
    scale: f64,
    unit: &'static str,
}

fn metric(key: &str) -> Metric {
    if key == "turnaround" {
        Metric { name: "turnaround", short: "turnaround [h]", scale: 1.0 / 3600.0, unit: " h" }
    } else {
        Metric { name: "bounded slowdown", short: "bsld", scale: 1.0, unit: "" }
    }
}

/// The average and worst case of a category table for a metric.
fn avg_max<'a>(t: &'a CategoryTable, key: &str) -> (&'a Vec<Vec<f64>>, &'a Vec<Vec<f64>>) {
    if key == "turnaround" {
        (&t.avg_turnaround_s, &t.max_turnaround_s)
    } else {
        (&t.avg_bsld, &t.max_bsld)
    }
}

/// Table 4.1's categories: name, cell, what it holds in full and briefly.
const FOUR: [(&str, usize, usize, &str, &str); 4] = [
    ("SN", 0, 0, "short (≤ 1 h), narrow (≤ 8 processors)", "≤ 1 h, ≤ 8 procs"),
    ("SW", 0, 1, "short (≤ 1 h), wide (> 8 processors)", "≤ 1 h, > 8 procs"),
    ("LN", 1, 0, "long (> 1 h), narrow (≤ 8 processors)", "> 1 h, ≤ 8 procs"),
    ("LW", 1, 1, "long (> 1 h), wide (> 8 processors)", "> 1 h, > 8 procs"),
];

/// One scheme of the comparison, as the report reads it.
#[derive(Serialize, Deserialize)]
struct SchemeRun {
    label: String,
    policy: String,
    sf: Option<f64>,
    summary: Vec<(String, f64)>,
    all: CategoryTable,
    well: CategoryTable,
    poor: CategoryTable,
}

/// One point of the load study.
#[derive(Serialize, Deserialize)]
struct Point {
    load: f64,
    label: String,
    utilization: f64,
    avg_bsld: f64,
    avg_turnaround_s: f64,
    suspensions: u64,
    four: CategoryTable,
}

/// What one task gives the report.
#[derive(Serialize, Deserialize)]
enum Out {
    Comparison { schemes: Vec<SchemeRun>, findings: Vec<Claim> },
    Point(Box<Point>),
}

/// The summary table's columns: metric key, head, hover text, decimals (None: a count).
const SUMMARY: [(&str, &str, &str, Option<usize>, f64); 8] = [
    ("avg_bsld", "avg bsld", "mean bounded slowdown over all jobs", Some(2), 1.0),
    ("max_bsld", "worst bsld", "largest bounded slowdown", Some(2), 1.0),
    ("avg_response_s", "avg turnaround [h]", "mean turnaround (end − submit)", Some(2), 3600.0),
    ("max_response_s", "worst turnaround [h]", "longest turnaround", Some(2), 3600.0),
    ("utilization", "utilization", "used processor-seconds / (makespan × machine size)", Some(3), 1.0),
    ("suspensions", "suspensions", "times a running job was suspended", None, 1.0),
    ("suspended_jobs", "suspended jobs", "jobs suspended at least once", None, 1.0),
    (
        "overhead_proc_h",
        "overhead [proc-h]",
        "processor-hours spent suspending and resuming (overhead on)",
        Some(2),
        1.0,
    ),
];

/// A load factor as the thesis writes it (1 -> 1.0).
fn load_label(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.1}")
    } else {
        v.to_string()
    }
}

/// The first word of a category label ("VS <=10 min" -> "VS").
fn short(label: &str) -> &str {
    label.split(' ').next().unwrap_or(label)
}

/// The form's load factors, checked.
fn loads(o: &Options) -> Result<Vec<f64>, String> {
    let mut out = Vec::new();
    for l in o.get("loads").split(',').map(str::trim).filter(|l| !l.is_empty()) {
        match plain_number(l) {
            Some(v) if v > 0.0 && v <= 100.0 => out.push(v),
            _ => return Err(format!("load factors must be numbers above 0 and at most 100, not \"{l}\"")),
        }
    }
    Ok(out)
}

/// A scheme's colour in every chart: its place among the schemes.
fn colour(label: &str) -> Option<usize> {
    Some(SCHEMES.iter().position(|s| s.label == label).unwrap_or(0))
}

/// The category table of the jobs `split` covers.
fn pick<'a>(r: &'a SchemeRun, split: &str) -> &'a CategoryTable {
    match split {
        "well" => &r.well,
        "poor" => &r.poor,
        _ => &r.all,
    }
}

/// The 16 categories: the jobs, then the average and worst case per scheme.
fn heat_table(runs: &[SchemeRun], split: &str, key: &str) -> (String, Table) {
    let m = metric(key);
    let pick = |r| pick(r, split);
    let t0 = pick(&runs[0]);
    let split_label = SPLITS.iter().find(|s| s.0 == split).map_or("all jobs", |s| s.1);
    let n = runs.len() as u32;
    let mut names = vec![
        Cell::text("category").title("length by actual runtime, width by processors (Table 2.1)"),
        Cell::text("jobs").title(format!("finished jobs in the category ({split_label})")),
    ];
    for kind in ["average", "worst case"] {
        names.extend(runs.iter().map(|r| Cell::text(&r.label).title(format!("{kind}, {}", r.label))));
    }
    let head = vec![
        vec![
            Cell::text("").span(1, 2),
            Cell::text(format!("average {}", m.short))
                .title(format!("mean {} of the category's jobs", m.name))
                .span(1, n),
            Cell::text(format!("worst-case {}", m.short))
                .title(format!("largest {} of the category's jobs", m.name))
                .span(1, n),
        ],
        names,
    ];
    let mut rows = Vec::new();
    for (r, row) in t0.rows.iter().enumerate() {
        for (c, col) in t0.cols.iter().enumerate() {
            let mut cells = vec![
                Cell::text(format!("{} {}", short(row), short(col)))
                    .title(format!("{row}, {col} processors"))
                    .class("rt"),
                Cell::number(t0.count[r][c].to_string(), "count", Some(t0.count[r][c] as f64)),
            ];
            for (prefix, worst) in [("avg", false), ("max", true)] {
                for run in runs {
                    let t = pick(run);
                    let (avg, max) = avg_max(t, key);
                    let v = if worst { max[r][c] } else { avg[r][c] };
                    let text = if t.count[r][c] > 0 { format!("{:.2}", v * m.scale) } else { "-".into() };
                    cells.push(Cell::number(text, format!("{prefix}:{}", run.label), Some(v)));
                }
            }
            rows.push(Row {
                cells,
                class: String::new(),
                data: vec![("row".into(), short(row).into()), ("col".into(), short(col).into())],
            });
        }
    }
    let jobs: u64 = t0.count.iter().flatten().sum();
    let mut name = m.name.to_string();
    name[..1].make_ascii_uppercase();
    let note = format!(
        "{split_label}: {jobs} jobs. {name}{}; colours on a log scale shared by the panels of a chart (the key below it); grey cells with “–” have no jobs.",
        if m.unit.is_empty() { "" } else { " in hours" }
    );
    let data = vec![("split".into(), split.into()), ("metric".into(), key.into())];
    (note, Table { id: "km-heat-table".into(), class: "paper".into(), head, rows, data })
}

/// The heatmaps of the average and the worst case per scheme.
fn heatmaps(runs: &[SchemeRun], split: &str, key: &str) -> Vec<Block> {
    let m = metric(key);
    let pick = |r| pick(r, split);
    let t0 = pick(&runs[0]);
    let split_name = SPLITS.iter().find(|s| s.0 == split).map_or("all jobs", |s| s.1.split(" (").next().unwrap_or(s.1));
    [("chart-km-avg", false, "average", "Figs. 3.1, 3.3"), ("chart-km-worst", true, "worst-case", "Figs. 3.2, 3.4-3.6")]
        .into_iter()
        .map(|(id, worst, kind, figs)| {
            let mut title = format!("{kind} {}, {split_name}", m.short);
            title[..1].make_ascii_uppercase();
            let spec = Spec::Heatmaps {
                labels: Labels {
                    title,
                    subtitle: format!(
                        "by category ({figs}): runtime {}; processors {}; lower is better",
                        t0.rows.join(", "),
                        t0.cols.join(", ")
                    ),
                    x: "processors".into(),
                    y: "runtime".into(),
                    log: true,
                    value: format!("{kind} {}", m.name),
                    unit: m.unit.into(),
                    ..Labels::default()
                },
                rows: t0.rows.iter().map(|r| short(r).to_string()).collect(),
                cols: t0.cols.iter().map(|c| short(c).to_string()).collect(),
                panels: runs
                    .iter()
                    .map(|r| {
                        let t = pick(r);
                        let (avg, max) = avg_max(t, key);
                        let values = if worst { max } else { avg };
                        Panel {
                            name: r.label.clone(),
                            values: values
                                .iter()
                                .enumerate()
                                .map(|(i, row)| {
                                    row.iter()
                                        .enumerate()
                                        .map(|(j, v)| (t.count[i][j] > 0).then(|| v * m.scale))
                                        .collect()
                                })
                                .collect(),
                            counts: Some(t.count.clone()),
                        }
                    })
                    .collect(),
                range: None,
            };
            Block::figure(id, &format!("kettimuthu-{kind}-{key}-{split}"), spec)
                .in_group("km-wide")
                .with_panels(runs.len())
        })
        .collect()
}

/// Per scheme: the overall figures, the suspensions and their overhead.
fn summary(runs: &[SchemeRun]) -> Table {
    let mut head =
        vec![Cell::text("scheme").title("the scheme and its policy"), Cell::text("SF").title("suspension factor")];
    head.extend(SUMMARY.iter().map(|(_, h, title, _, _)| Cell::text(*h).title(*title)));
    let rows = runs
        .iter()
        .map(|r| {
            let mut cells = vec![
                Cell::text(&r.label).title(format!("policy {}", r.policy)),
                Cell::number(r.sf.map_or("—".into(), |v| v.to_string()), "sf", r.sf),
            ];
            for (key, _, _, decimals, div) in SUMMARY {
                let v = r.summary.iter().find(|(k, _)| k == key).map_or(f64::NAN, |x| x.1);
                let text = match decimals {
                    Some(d) => format!("{:.*}", d, v / div),
                    None => v.to_string(),
                };
                cells.push(Cell::number(text, key, Some(v)));
            }
            Row { cells, class: String::new(), data: vec![("scheme".into(), r.label.clone())] }
        })
        .collect();
    Table { id: "km-summary".into(), class: "paper".into(), head: vec![head], rows, data: Vec::new() }
}

/// Table 2.2: the share of the jobs in each category (NS's table of all jobs).
fn distribution(runs: &[SchemeRun]) -> Table {
    let t = &runs[0].all;
    let mut head = vec![Cell::text("").title("length by actual runtime")];
    head.extend(t.cols.iter().map(|c| Cell::text(short(c)).title(format!("{c} processors"))));
    head.push(Cell::text("all").title("every width"));
    let total: u64 = t.count.iter().flatten().sum();
    let pct = |n: u64| if total > 0 { 100.0 * n as f64 / total as f64 } else { 0.0 };
    let share = |v: f64, key: &str, n: u64| Cell::number(format!("{v:.1}%"), key, Some(v)).title(format!("{n} jobs"));
    let mut rows: Vec<Row> = t
        .rows
        .iter()
        .enumerate()
        .map(|(r, row)| {
            let mut cells = vec![Cell::text(short(row)).title(row.as_str()).class("rt")];
            cells.extend(t.cols.iter().enumerate().map(|(c, col)| share(t.share_pct[r][c], short(col), t.count[r][c])));
            let n: u64 = t.count[r].iter().sum();
            cells.push(share(pct(n), "all", n));
            Row { cells, class: String::new(), data: vec![("row".into(), short(row).into())] }
        })
        .collect();
    let mut cells = vec![Cell::text("all").title("every length").class("rt")];
    for (c, col) in t.cols.iter().enumerate() {
        let n: u64 = t.count.iter().map(|row| row[c]).sum();
        cells.push(share(pct(n), short(col), n));
    }
    cells.push(Cell::number("100%", "all", Some(if total > 0 { 100.0 } else { 0.0 })).title(format!("{total} jobs")));
    rows.push(Row { cells, class: String::new(), data: vec![("row".into(), "all".into())] });
    Table { id: "km-distribution".into(), class: "paper".into(), head: vec![head], rows, data: Vec::new() }
}

/// The load study's points: overall figures and Table 4.1's four categories of the metric.
fn load_table(points: &[Point], key: &str) -> Table {
    let m = metric(key);
    let mut head: Vec<Cell> = [
        ("load", "load factor: interarrival times divided by it"),
        ("scheme", "the scheme"),
        ("utilization", "used processor-seconds / (makespan × machine size) (Fig. 4.9)"),
        ("avg bsld", "mean bounded slowdown over all jobs (Fig. 4.10)"),
        ("avg turnaround [h]", "mean turnaround over all jobs"),
        ("suspensions", "times a running job was suspended"),
    ]
    .iter()
    .map(|(t, title)| Cell::text(*t).title(*title))
    .collect();
    head.extend(FOUR.iter().map(|(name, _, _, what, _)| {
        Cell::text(format!("{name} {}", m.short))
            .title(format!("average {}, {what} (Table 4.1; Figs. 4.10-4.11)", m.name))
    }));
    let rows = points
        .iter()
        .map(|p| {
            let mut cells = vec![
                Cell::number(load_label(p.load), "load", Some(p.load)),
                Cell::text(&p.label).class("rt"),
                Cell::number(format!("{:.3}", p.utilization), "utilization", Some(p.utilization)),
                Cell::number(format!("{:.2}", p.avg_bsld), "avg_bsld", Some(p.avg_bsld)),
                Cell::number(
                    format!("{:.2}", p.avg_turnaround_s / 3600.0),
                    "avg_turnaround_s",
                    Some(p.avg_turnaround_s),
                ),
                Cell::number(p.suspensions.to_string(), "suspensions", Some(p.suspensions as f64)),
            ];
            let (avg, _) = avg_max(&p.four, key);
            for (name, r, c, _, _) in FOUR {
                let n = p.four.count[r][c];
                let text = if n > 0 { format!("{:.2}", avg[r][c] * m.scale) } else { "-".into() };
                cells.push(Cell::number(text, name, Some(avg[r][c])).title(format!("{n} jobs")));
            }
            Row {
                cells,
                class: String::new(),
                data: vec![("load".into(), p.load.to_string()), ("scheme".into(), p.label.clone())],
            }
        })
        .collect();
    let data = vec![("metric".into(), key.into())];
    Table { id: "km-load-table".into(), class: "paper".into(), head: vec![head], rows, data }
}

/// The load curves: utilization and the overall average per scheme, and one small chart per Table 4.1 category.
fn load_charts(points: &[Point], key: &str) -> Vec<Block> {
    let m = metric(key);
    let ids = ["chart-km-util", "chart-km-overall", "chart-km-sn", "chart-km-sw", "chart-km-ln", "chart-km-lw"];
    let group = |id: &str| if ["chart-km-util", "chart-km-overall"].contains(&id) { "" } else { "km-four" };
    if points.is_empty() {
        let why = "No load factor was ticked: tick one or more for the load study.";
        return ids.iter().map(|id| Block::empty(id, why).in_group(group(id))).collect();
    }
    let mut loads: Vec<f64> = points.iter().map(|p| p.load).collect();
    crate::sorting::floats(&mut loads);
    loads.dedup();
    let series = |value: &dyn Fn(&Point) -> Option<f64>| -> Vec<Series> {
        LOAD_SCHEMES
            .iter()
            .map(|s| Series {
                colour: colour(s.label),
                ..Series::new(
                    s.label,
                    loads
                        .iter()
                        .map(|l| points.iter().find(|p| p.label == s.label && p.load == *l).and_then(value))
                        .collect(),
                )
            })
            .collect()
    };
    let chart = |id: &str, title: String, y: String, unit: &str, list: Vec<Series>, subtitle: &str| {
        // Values spread over more than a factor of 30 (NS's slowdown beside IS's) read on a log scale.
        let values: Vec<f64> = list.iter().flat_map(|s| s.values.iter().flatten().copied()).collect();
        let (lo, hi) = values.iter().fold((f64::INFINITY, 0.0f64), |(a, b), v| (a.min(*v), b.max(*v)));
        let log = !values.is_empty() && values.iter().all(|v| *v > 0.0) && hi > 30.0 * lo;
        Block::figure(
            id,
            id.trim_start_matches("chart-"),
            Spec::Lines {
                labels: Labels {
                    title,
                    subtitle: if log { format!("{subtitle}; log scale") } else { subtitle.into() },
                    x: "load factor".into(),
                    y,
                    unit: unit.into(),
                    log,
                    ..Labels::default()
                },
                xs: loads.clone(),
                x_labels: loads.iter().map(|l| load_label(*l)).collect(),
                series: list,
                x_scale: Default::default(),
            },
        )
        .in_group(group(id))
    };
    let mut out = vec![
        chart(
            "chart-km-util",
            "Utilization against load (Fig. 4.9)".into(),
            "utilization".into(),
            "",
            series(&|p| Some(p.utilization)),
            "used processor-seconds / (makespan × machine size); higher is better",
        ),
        chart(
            "chart-km-overall",
            format!("Average {} against load (Fig. 4.10)", m.short),
            format!("average {}", m.short),
            m.unit,
            series(&|p| Some(if key == "turnaround" { p.avg_turnaround_s * m.scale } else { p.avg_bsld })),
            "lower is better",
        ),
    ];
    for (name, r, c, _, brief) in FOUR {
        let list = series(&|p| {
            let (avg, _) = avg_max(&p.four, key);
            (p.four.count[r][c] > 0).then(|| avg[r][c] * m.scale)
        });
        out.push(chart(
            &format!("chart-km-{}", name.to_lowercase()),
            format!("{name}: average {}", m.short),
            format!("average {}", m.short),
            m.unit,
            list,
            &format!("jobs {brief}; lower is better"),
        ));
    }
    out
}

impl Study for Kettimuthu {
    fn prefix(&self) -> &'static str {
        "km"
    }

    fn fixed(&self) -> Option<Fixed> {
        let items = SCHEMES
            .iter()
            .map(|s| {
                let sf = s.sf.map_or(String::new(), |sf| format!(", suspension factor SF = {sf}"));
                (s.label.to_string(), format!("policy {}{sf}", s.policy))
            })
            .collect();
        Some(Fixed { key: "schemes", label: "schemes", items })
    }

    fn fields(&self) -> Vec<Field> {
        let split = Field::choose(
            "split",
            "km_split",
            "jobs",
            "all",
            "which jobs the category tables cover (well estimated: estimate at most twice the runtime)",
            &SPLITS,
        )
        .view();
        let metric = Field::choose(
            "metric",
            "km_metric",
            "metric",
            "bsld",
            "what the category tables and load curves show",
            &[("bsld", "bounded slowdown"), ("turnaround", "turnaround")],
        )
        .view();
        let mut loads = Field::text(
            "loads",
            "km_loads",
            "load factors",
            "1,1.3",
            "load factors of the load study: interarrival times divided by the factor; NS, SS 2 and IS run at each",
        )
        .multiple();
        loads.choices = LOAD_FACTORS.iter().map(|l| (l.to_string(), load_label(*l))).collect();
        let overhead = Field::choose(
            "overhead",
            "km_overhead",
            "overhead",
            "off",
            "on: each suspension and resume costs the job's memory per processor / 2 MB/s on its processors (section 4.1)",
            &[("off", "off"), ("on", "on (section 4.1)")],
        );
        vec![split, metric, loads, overhead]
    }

    fn plan(&self, options: &Options, settings: &[String], _about: &Value) -> Result<Plan, String> {
        let loads = loads(options)?;
        let overhead = match options.get("overhead") {
            o @ ("on" | "off") => o,
            o => return Err(format!("overhead is on or off, not \"{o}\"")),
        };
        // The schemes set mode and sf themselves.
        let base = with_own(&without(settings, &["mode", "sf"]), &[("overhead", overhead.into())]);
        let shared = shared_load(&base);
        let mut tasks =
            vec![Task { what: "the comparison".into(), settings: base.clone(), input: json!({"compare": true}) }];
        for &l in &loads {
            for s in LOAD_SCHEMES {
                tasks.push(Task {
                    what: format!("{} at load {}", s.label, load_label(l)),
                    settings: with_own(&base, &[("load", (shared * l).to_string())]),
                    input: json!({"scheme": s.label, "factor": l}),
                });
            }
        }
        let labels: Vec<&str> = LOAD_SCHEMES.iter().map(|s| s.label).collect();
        let n = loads.len() * LOAD_SCHEMES.len();
        let what = format!(
            "the comparison of {} schemes{}{}",
            SCHEMES.len(),
            if n > 0 {
                format!(
                    " and {n} load-study runs ({} at load {})",
                    labels.join(", "),
                    loads.iter().map(|l| load_label(*l)).collect::<Vec<_>>().join(", ")
                )
            } else {
                ", no load study (tick a load factor for one)".into()
            },
            if overhead == "on" { ", with suspension overhead" } else { "" }
        );
        Ok(Plan { what, tasks, noun: ("task", "tasks"), progressive: false })
    }

    fn run(&self, trace: &Trace, settings: &Settings, input: &Value) -> Result<Value, String> {
        let out = if let Some(label) = input.get("scheme").and_then(Value::as_str) {
            let scheme =
                LOAD_SCHEMES.iter().find(|s| s.label == label).ok_or_else(|| format!("unknown scheme {label:?}"))?;
            let factor = input.get("factor").and_then(Value::as_f64).unwrap_or(1.0);
            let p = load_point(trace, factor, scheme, settings).map_err(|e| e.to_string())?;
            Out::Point(Box::new(Point {
                load: p.load,
                label: label.into(),
                utilization: p.utilization,
                avg_bsld: p.avg_bsld,
                avg_turnaround_s: p.avg_turnaround_s,
                suspensions: p.suspensions,
                four: p.four,
            }))
        } else {
            let c = compare(trace, settings).map_err(|e| e.to_string())?;
            let schemes = c
                .schemes
                .into_iter()
                .map(|r| {
                    let m = &r.metrics;
                    let summary = vec![
                        ("avg_bsld".to_string(), m.avg_bsld),
                        ("max_bsld".into(), m.max_bsld),
                        ("avg_response_s".into(), m.avg_response_s),
                        ("max_response_s".into(), m.max_response_s),
                        ("utilization".into(), m.utilization),
                        ("suspensions".into(), m.suspensions as f64),
                        ("suspended_jobs".into(), m.suspended_jobs as f64),
                        ("overhead_proc_h".into(), m.overhead_proc_h),
                    ];
                    SchemeRun {
                        label: r.scheme.label.into(),
                        policy: r.scheme.policy.into(),
                        sf: r.scheme.sf,
                        summary,
                        all: r.all,
                        well: r.well,
                        poor: r.poor,
                    }
                })
                .collect();
            Out::Comparison { schemes, findings: c.findings.iter().map(Claim::from).collect() }
        };
        serde_json::to_value(out).map_err(|e| e.to_string())
    }

    fn report(&self, options: &Options, values: &[Value], _about: &Value) -> Result<Report, String> {
        let (split, key) = (options.get("split"), options.get("metric"));
        let mut runs = Vec::new();
        let mut findings = Vec::new();
        let mut points = Vec::new();
        for v in values {
            match read::<Out>(v)? {
                Out::Comparison { schemes, findings: f } => (runs, findings) = (schemes, f),
                Out::Point(p) => points.push(*p),
            }
        }
        if runs.is_empty() {
            return Err("the comparison did not run".into());
        }
        let summaries: Vec<LoadSummary> = points
            .iter()
            .map(|p| LoadSummary {
                label: p.label.clone(),
                load: p.load,
                utilization: p.utilization,
                avg_bsld: p.avg_bsld,
            })
            .collect();
        // Without a load study there is nothing to check section 4.2's claims on.
        let load_findings: Vec<Claim> =
            if points.is_empty() { Vec::new() } else { load_findings_of(&summaries).iter().map(Claim::from).collect() };
        let (note, heat) = heat_table(&runs, split, key);
        let mut blocks = vec![
            Block::Heading { text: "By category: average and worst case (Figs. 3.1–3.6)".into() },
            Block::Note { id: "km-heat-note".into(), text: note },
        ];
        blocks.extend(heatmaps(&runs, split, key));
        blocks.extend([
            Block::Table(heat),
            Block::Heading { text: "The thesis’s claims on this trace".into() },
            Block::Findings { id: "km-findings".into(), findings },
            Block::Heading { text: "Schemes: overall, suspensions and overhead".into() },
            Block::Table(summary(&runs)),
            Block::Heading { text: "Job distribution by category (Table 2.2)".into() },
            Block::Table(distribution(&runs)),
            Block::Heading { text: "Load study (Figs. 4.9–4.11, Table 4.1 categories)".into() },
        ]);
        if !points.is_empty() {
            blocks.push(Block::Table(load_table(&points, key)));
        }
        blocks.extend(load_charts(&points, key));
        blocks.push(Block::Findings { id: "km-load-findings".into(), findings: load_findings });
        let mut factors: Vec<f64> = points.iter().map(|p| p.load).collect();
        crate::sorting::floats(&mut factors);
        factors.dedup();
        Ok(Report {
            status: format!(
                "Ran {}{} in {{time}}{}.",
                runs.iter().map(|r| r.label.as_str()).collect::<Vec<_>>().join(", "),
                if factors.is_empty() {
                    String::new()
                } else {
                    format!(
                        " and the load study at {}",
                        factors.iter().map(|l| load_label(*l)).collect::<Vec<_>>().join(", ")
                    )
                },
                if options.get("overhead") == "on" { ", with suspension overhead" } else { "" }
            ),
            blocks,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(given: &[&str]) -> Options {
        Options::of(&Kettimuthu, given)
    }

    #[test]
    fn the_plan_runs_the_comparison_then_each_load_point() {
        let plan = Kettimuthu.plan(&options(&[]), &["mode=x".into(), "load=2".into()], &Value::Null).unwrap();
        assert_eq!(plan.what, "the comparison of 6 schemes and 6 load-study runs (NS, SS 2, IS at load 1.0, 1.3)");
        assert_eq!(plan.tasks.len(), 7);
        assert!(!plan.tasks[0].settings.iter().any(|kv| kv.starts_with("mode")));
        assert!(plan.tasks[0].settings.contains(&"overhead=off".to_string()));
        assert!(plan.tasks[6].settings.contains(&"load=2.6".to_string()));
        let none = Kettimuthu.plan(&options(&["loads=", "overhead=on"]), &[], &Value::Null).unwrap();
        assert_eq!(
            none.what,
            "the comparison of 6 schemes, no load study (tick a load factor for one), with suspension overhead"
        );
        assert!(Kettimuthu.plan(&options(&["loads=0"]), &[], &Value::Null).is_err());
    }
}
