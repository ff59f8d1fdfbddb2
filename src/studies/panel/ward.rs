//! Relaxed backfill (Ward, Mahood & West 2002) as the page shows it: the policy `relaxed` for
//! every omega under Est and Act runtimes, as the paper's Tables 1-3 (by month) and a chart of
//! total wait against omega.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{plain_number, read, with_own, Block, Cell, Field, Options, Plan, Report, Row, Study, Table, Task};
use crate::metrics::monthly::{Month, Monthly};
use crate::render::axis::whole_or_number;
use crate::render::generic::{Labels, Series, Spec};
use crate::run::{configure, run_one, Settings};
use crate::trace::Trace;

/// The study (see the module docs).
pub struct Ward;

/// The two scenarios: the runtime the scheduler plans with (trace option `runtime`), its label, and what it means.
const RUNS: [(&str, &str, &str); 2] = [
    ("est", "Est", "user-estimated runtimes for both the priority calculation and backfilling"),
    ("act", "Act", "actual runtimes for both the priority calculation and backfilling"),
];

/// What one run gives the report.
#[derive(Serialize, Deserialize)]
struct Run {
    monthly: Monthly,
    utilization: f64,
}

/// The omegas typed (commas or spaces; numbers >= 0 or inf), ascending, inf last, each once.
fn omegas(text: &str) -> Result<Vec<String>, String> {
    let mut out: Vec<(f64, String)> = Vec::new();
    for part in text.split([',', ' ', '\t']).filter(|p| !p.is_empty()) {
        let p = part.to_lowercase();
        let w = if ["inf", "∞", "infinity"].contains(&p.as_str()) {
            f64::INFINITY
        } else {
            plain_number(&p).ok_or_else(|| format!("{part} is not an omega: give numbers >= 0 or inf"))?
        };
        if !out.iter().any(|(x, _)| *x == w) {
            out.push((w, if w.is_infinite() { "inf".into() } else { w.to_string() }));
        }
    }
    if out.is_empty() {
        return Err("give one or more omegas, e.g. 0, 1, 2, 4, inf".into());
    }
    out.sort_by(|a, b| a.0.total_cmp(&b.0));
    Ok(out.into_iter().map(|(_, s)| s).collect())
}

fn omega_head(w: &str) -> String {
    format!("ω={}", if w == "inf" { "∞" } else { w })
}

/// Hours as the tables write them: whole, thousands grouped; a dash when missing.
fn hours(v: Option<f64>) -> String {
    v.map_or("—".into(), |v| whole_or_number(v.round()).replace("−", "-"))
}

fn count(v: Option<u64>) -> String {
    v.map_or("—".into(), |v| v.to_string())
}

/// The paper's two-row head: fixed columns span both rows; the group spans a column per omega.
fn head(fixed: &[(&str, &str)], group: (&str, &str), omegas: &[String], runtime: &str) -> Vec<Vec<Cell>> {
    let mut top: Vec<Cell> = fixed.iter().map(|(t, title)| Cell::text(*t).title(*title).span(2, 1)).collect();
    top.push(Cell::text(group.0).title(group.1).span(1, omegas.len() as u32));
    let below =
        omegas.iter().map(|w| Cell::text(omega_head(w)).title(format!("relaxed, omega={w}{runtime}"))).collect();
    vec![top, below]
}

/// The runs, each (omega, runtime, run) in the plan's order.
struct Grid<'a> {
    omegas: Vec<String>,
    runs: Vec<(&'a str, &'a str, Run)>,
}

impl Grid<'_> {
    fn run(&self, omega: &str, runtime: &str) -> &Run {
        &self.runs.iter().find(|(w, r, _)| *w == omega && *r == runtime).expect("every omega ran under both").2
    }

    /// The run whose utilization Table 1 shows: omega = inf under Est, else the largest omega's Est.
    fn util(&self) -> (&str, &Run) {
        let w = self.omegas.last().map_or("inf", |w| w.as_str());
        (w, self.run(w, "est"))
    }

    /// Every month any run has, in order.
    fn months(&self) -> Vec<String> {
        let mut m: Vec<String> =
            self.runs.iter().flat_map(|(_, _, r)| r.monthly.months.iter().map(|m| m.month.clone())).collect();
        m.sort();
        m.dedup();
        m
    }
}

fn month<'a>(run: &'a Run, label: &str) -> Option<&'a Month> {
    run.monthly.months.iter().find(|m| m.month == label)
}

fn sum(run: &Run, f: impl Fn(&Month) -> f64) -> f64 {
    run.monthly.months.iter().map(f).sum()
}

fn row(cells: Vec<Cell>, month: &str, runtime: &str) -> Row {
    Row { cells, class: String::new(), data: vec![("month".into(), month.into()), ("runtime".into(), runtime.into())] }
}

/// Table 1: total wait hours by month, Est and Act sub-rows, a column per omega, and the Total rows.
fn table1(g: &Grid) -> (String, Table) {
    let (uw, util) = g.util();
    let util_title = format!("percent utilization in the month of the ω={uw} Est run");
    let note = format!("Percent utilization is that of the ω={uw} Est run (in the Total row: over the whole run). Wait times are totals in hours over the jobs of each month; two rows per month as in the paper.");
    let mut t = Table {
        id: "ward-wait".into(),
        class: "paper ward".into(),
        head: head(
            &[
                ("month", "calendar month in the trace's time zone"),
                ("jobs", "jobs of the month"),
                ("util. %", &util_title),
                (
                    "actual wait [h]",
                    "the wait the log recorded for the month's jobs (SWF field 3): what the site's own scheduler did",
                ),
                ("time used", "Est: user-estimated runtimes; Act: actual runtimes (priority and backfill)"),
            ],
            ("simulated wait time [h]", "total wait hours of the month's jobs"),
            &g.omegas,
            "",
        ),
        rows: Vec::new(),
        data: Vec::new(),
    };
    for label in g.months() {
        let u = month(util, &label);
        for (i, (runtime, name, title)) in RUNS.iter().enumerate() {
            let mut cells = Vec::new();
            if i == 0 {
                cells.extend([
                    Cell::label(&label, "month", &label),
                    Cell::number(count(u.map(|u| u.jobs)), "jobs", u.map(|u| u.jobs as f64)),
                    Cell::number(
                        u.map_or("—".into(), |u| format!("{:.1}", u.utilization_pct)),
                        "utilization_pct",
                        u.map(|u| u.utilization_pct),
                    )
                    .title(&util_title),
                    Cell::number(
                        hours(u.filter(|u| u.actual_wait_jobs > 0).map(|u| u.actual_wait_hours)),
                        "actual_wait_hours",
                        u.map(|u| u.actual_wait_hours),
                    ),
                ]);
                cells.iter_mut().for_each(|c| c.rows = 2);
            }
            cells.push(Cell::text(*name).title(*title).class("rt"));
            for w in &g.omegas {
                let v = month(g.run(w, runtime), &label).map(|m| m.wait_hours);
                let title = v.map_or(String::new(), |v| format!("ω={w}, {name}: {v:.2} h"));
                cells.push(Cell::number(hours(v), format!("omega={w}"), v).title(title));
            }
            t.rows.push(row(cells, &label, runtime));
        }
    }
    for (i, (runtime, name, title)) in RUNS.iter().enumerate() {
        let mut cells = Vec::new();
        if i == 0 {
            let jobs = sum(util, |m| m.jobs as f64);
            let u = util.utilization * 100.0;
            let actual = sum(util, |m| m.actual_wait_hours);
            let logged = util.monthly.months.iter().any(|m| m.actual_wait_jobs > 0);
            cells.extend([
                Cell::label("Total", "month", "total"),
                Cell::number(jobs.to_string(), "jobs", Some(jobs)),
                Cell::number(format!("{u:.1}"), "utilization_pct", Some(u))
                    .title("utilization of the whole run (metric utilization)"),
                Cell::number(hours(Some(actual).filter(|_| logged)), "actual_wait_hours", Some(actual)),
            ]);
            cells.iter_mut().for_each(|c| c.rows = 2);
        }
        cells.push(Cell::text(*name).title(*title).class("rt"));
        for w in &g.omegas {
            let v = sum(g.run(w, runtime), |m| m.wait_hours);
            cells.push(
                Cell::number(hours(Some(v)), format!("omega={w}"), Some(v)).title(format!("ω={w}, {name}: {v:.2} h")),
            );
        }
        let mut r = row(cells, "total", runtime);
        r.class = "total".into();
        t.rows.push(r);
    }
    (note, t)
}

/// Table 2: jobs backfilled by month, Est and Act sub-rows, a column per omega.
fn table2(g: &Grid) -> Table {
    let (_, util) = g.util();
    let mut t = Table {
        id: "ward-backfilled".into(),
        class: "paper ward".into(),
        head: head(
            &[
                ("month", "calendar month in the trace's time zone"),
                ("jobs", "jobs of the month"),
                ("time used", "Est: user-estimated runtimes; Act: actual runtimes"),
            ],
            ("jobs backfilled", "jobs started while a job submitted before them was waiting"),
            &g.omegas,
            "",
        ),
        rows: Vec::new(),
        data: Vec::new(),
    };
    for label in g.months() {
        for (i, (runtime, name, title)) in RUNS.iter().enumerate() {
            let mut cells = Vec::new();
            if i == 0 {
                let jobs = month(util, &label).map(|m| m.jobs);
                cells.push(Cell::label(&label, "month", &label).span(2, 1));
                cells.push(Cell::number(count(jobs), "jobs", jobs.map(|j| j as f64)).span(2, 1));
            }
            cells.push(Cell::text(*name).title(*title).class("rt"));
            for w in &g.omegas {
                let v = month(g.run(w, runtime), &label).map(|m| m.jobs_backfilled);
                cells.push(Cell::number(count(v), format!("omega={w}"), v.map(|v| v as f64)));
            }
            t.rows.push(row(cells, &label, runtime));
        }
    }
    t
}

/// Table 3: total wait hours of the high classes (>= 1) by month, Est runs; None when there are none.
fn table3(g: &Grid) -> Option<Table> {
    if !g.runs.iter().any(|(_, rt, r)| *rt == "est" && r.monthly.months.iter().any(|m| m.high_jobs > 0)) {
        return None;
    }
    let (_, util) = g.util();
    let mut t = Table {
        id: "ward-high".into(),
        class: "paper ward".into(),
        head: head(
            &[("month", "calendar month in the trace's time zone"), ("high jobs", "jobs of class >= 1 in the month")],
            ("simulated wait time [h], Est", "total wait hours of the month's high-class jobs"),
            &g.omegas,
            ", Est",
        ),
        rows: Vec::new(),
        data: Vec::new(),
    };
    let line = |label: &str, text: &str, jobs: Option<u64>, values: Vec<Option<f64>>| {
        let mut cells =
            vec![Cell::label(text, "month", label), Cell::number(count(jobs), "high_jobs", jobs.map(|j| j as f64))];
        cells.extend(g.omegas.iter().zip(values).map(|(w, v)| Cell::number(hours(v), format!("omega={w}"), v)));
        row(cells, label, "est")
    };
    for label in g.months() {
        let values = g.omegas.iter().map(|w| month(g.run(w, "est"), &label).map(|m| m.high_wait_hours)).collect();
        t.rows.push(line(&label, &label, month(util, &label).map(|m| m.high_jobs), values));
    }
    let values = g.omegas.iter().map(|w| Some(sum(g.run(w, "est"), |m| m.high_wait_hours))).collect();
    let mut total = line("total", "Total", Some(util.monthly.months.iter().map(|m| m.high_jobs).sum()), values);
    total.class = "total".into();
    t.rows.push(total);
    Some(t)
}

/// Total wait against omega, Est and Act; the omegas evenly spaced in order, ∞ at the right.
fn chart(g: &Grid) -> Spec {
    Spec::Lines {
        labels: Labels {
            title: "Total wait against ω".into(),
            subtitle: "the wait of every job, in hours, with estimated (Est) and actual (Act) runtimes; ω evenly spaced, ∞ at the right; lower is better".into(),
            x: "ω".into(),
            y: "total wait [hours]".into(),
            unit: " h".into(),
            ..Labels::default()
        },
        xs: (0..g.omegas.len()).map(|i| i as f64).collect(),
        x_labels: g.omegas.iter().map(|w| if w == "inf" { "∞".into() } else { w.clone() }).collect(),
        series: RUNS
            .iter()
            .map(|(rt, name, _)| Series::new(*name, g.omegas.iter().map(|w| Some(sum(g.run(w, rt), |m| m.wait_hours))).collect()))
            .collect(),
        x_scale: Default::default(),
    }
}

impl Study for Ward {
    fn prefix(&self) -> &'static str {
        "ward"
    }

    fn fields(&self) -> Vec<Field> {
        vec![
            Field::text("omegas", "omegas", "ω values", "0, 1, 2, 4, inf", "numbers >= 0 or inf, separated by commas")
                .size(22)
                .list(),
            Field::text(
                "classes",
                "ward_classes",
                "queue classes",
                "header",
                "QUEUE:CLASS,... | *:CLASS | none | header (from the queue names); classes >= 1 are the high classes of Table 3",
            ),
        ]
    }

    fn plan(&self, options: &Options, settings: &[String], _about: &Value) -> Result<Plan, String> {
        let omegas = omegas(options.get("omegas"))?;
        let classes = match options.get("classes") {
            "" => "header",
            c => c,
        };
        let tasks = omegas
            .iter()
            .flat_map(|w| {
                RUNS.iter().map(move |(rt, _, _)| Task {
                    what: format!("ω={w} {rt}"),
                    settings: with_own(
                        settings,
                        &[("queue_classes", classes.into()), ("omega", w.clone()), ("runtime", rt.to_string())],
                    ),
                    input: Value::Null,
                })
            })
            .collect();
        Ok(Plan {
            what: format!("{} runs: ω = {}, each with Est and Act", omegas.len() * 2, omegas.join(", ")),
            tasks,
            noun: ("run", "runs"),
            progressive: false,
        })
    }

    fn run(&self, trace: &Trace, settings: &Settings, _input: &Value) -> Result<Value, String> {
        let cfg = configure("relaxed", settings).map_err(|e| e.to_string())?.remove(0);
        let (_, r) = run_one(trace, &cfg, settings);
        if let Some(why) = r.stopped {
            return Err(why);
        }
        serde_json::to_value(Run { monthly: r.monthly, utilization: r.metrics.utilization }).map_err(|e| e.to_string())
    }

    fn report(&self, options: &Options, values: &[Value], _about: &Value) -> Result<Report, String> {
        let omegas = omegas(options.get("omegas"))?;
        let classes = match options.get("classes") {
            "" => "header",
            c => c,
        };
        if values.len() != omegas.len() * 2 {
            return Err(format!("{} results for {} runs", values.len(), omegas.len() * 2));
        }
        let mut runs = Vec::new();
        for (k, w) in omegas.iter().enumerate() {
            for (j, (rt, _, _)) in RUNS.iter().enumerate() {
                runs.push((w.as_str(), *rt, read::<Run>(&values[2 * k + j])?));
            }
        }
        let g = Grid { omegas: omegas.clone(), runs };
        let zone = g.runs[0].2.monthly.zone.clone();
        let (note, t1) = table1(&g);
        let mut blocks = vec![
            Block::Heading { text: "Total wait time in hours by month (Table 1)".into() },
            Block::Note { id: "ward-wait-note".into(), text: note },
            Block::Table(t1),
            Block::Heading { text: "Jobs backfilled by month (Table 2)".into() },
            Block::Table(table2(&g)),
            Block::Heading { text: "Wait of the high classes by month (Table 3)".into() },
        ];
        match table3(&g) {
            Some(t) => blocks.extend([
                Block::Note {
                    id: "ward-high-note".into(),
                    text: format!("Jobs of class 1 or more (queue classes {classes}), Est runs; wait totals in hours."),
                },
                Block::Table(t),
            ]),
            None => blocks.push(Block::Note {
                id: "ward-high-note".into(),
                text: format!("The queue classes ({classes}) give no job of this trace a class of 1 or more (challenge or urgent), so there is no Table 3."),
            }),
        }
        blocks.push(Block::figure("chart-ward", "ward-total-wait", chart(&g)));
        Ok(Report {
            status: format!(
                "Ran relaxed for {} omegas × Est and Act ({} runs) in {{time}}; queue classes {classes}; months in {zone}.",
                omegas.len(),
                omegas.len() * 2
            ),
            blocks,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn omegas_are_read_sorted_and_once() {
        assert_eq!(omegas("inf, 2 0,1, 2.50 .5").unwrap(), ["0", "0.5", "1", "2", "2.5", "inf"]);
        assert_eq!(omegas("∞").unwrap(), ["inf"]);
        assert_eq!(omegas("0, x").unwrap_err(), "x is not an omega: give numbers >= 0 or inf");
        assert!(omegas("-1").is_err());
        assert!(omegas(" , ").is_err());
    }
}
