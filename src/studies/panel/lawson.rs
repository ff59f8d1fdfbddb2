//! Multiple-queue backfilling (Lawson & Smirni 2002) as the page shows it: `mq-backfill` against
//! its single-queue baseline `sq-backfill`, one comparison per offered-load factor, as the
//! paper's figures: R per job class (Figs. 3, 5; per priority, Figs. 6, 8), R per 1,000
//! submissions over time (Figs. 4, 7, 9), the missed reservations (Table 2) and the tail of the
//! reservation delays (Fig. 11).

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::{
    plain_number, read, shared_load, with_own, Block, Cell, Field, Options, Plan, Report, Row, Study, Table, Task,
};
use crate::policy::family_default;
use crate::render::compare::{fmt_value, Unit};
use crate::render::generic::{Labels, Series, Spec, XScale};
use crate::run::Settings;
use crate::studies::lawson::{compare, Batch, Breakdown, Reservations, TAIL_POINTS};
use crate::trace::Trace;

/// The study (see the module docs).
pub struct Lawson;

/// The paper's offered-load factors (Fig. 5): interarrival times divided by the factor.
const LOADS: [&str; 3] = ["1", "1.25", "1.5"];

/// What one comparison gives the report: the engine's comparison, less the runs' whole metrics.
#[derive(Serialize, Deserialize)]
struct Run {
    thresholds: Vec<i64>,
    single: Breakdown,
    multi: Breakdown,
    r: f64,
    r_classes: Vec<Option<f64>>,
    r_high: Option<f64>,
    r_low: Option<f64>,
    r_classes_high: Vec<Option<f64>>,
    r_classes_low: Vec<Option<f64>>,
    transient: Vec<Batch>,
    reservations: Reservations,
    delay_single_s: f64,
    delay_multi_s: f64,
}

/// The form's values, checked.
struct Form {
    high: f64,
    reservations: f64,
    loads: Vec<String>,
    queues: usize,
    thresholds: Vec<i64>,
    seed: u64,
}

fn form(o: &Options) -> Result<Form, String> {
    let fraction = |key: &str, what: &str| match plain_number(o.get(key)) {
        Some(v) if v <= 1.0 => Ok(v),
        _ => Err(format!("the {what} fraction must be a number from 0 to 1, not \"{}\"", o.get(key))),
    };
    let mut loads = Vec::new();
    for l in o.get("loads").split(',').filter(|l| !l.trim().is_empty()) {
        match plain_number(l) {
            Some(v) if v > 0.0 => loads.push(v.to_string()),
            _ => return Err(format!("load factors must be numbers above 0, not \"{}\"", l.trim())),
        }
    }
    if loads.is_empty() {
        return Err("tick one or more load factors".into());
    }
    let queues = o.get("queues").trim();
    let queues = match queues.parse::<usize>() {
        Ok(q) if (1..=16).contains(&q) && queues.chars().all(|c| c.is_ascii_digit()) => q,
        _ => return Err(format!("queues must be a whole number from 1 to 16, not \"{queues}\"")),
    };
    let text: String = o.get("thresholds").chars().filter(|c| !c.is_whitespace()).collect();
    let bounds: Vec<&str> = text.split(',').filter(|b| !b.is_empty()).collect();
    let thresholds: Vec<i64> =
        bounds.iter().filter_map(|b| b.parse().ok().filter(|_| b.chars().all(|c| c.is_ascii_digit()))).collect();
    if thresholds.len() != bounds.len() || thresholds.windows(2).any(|w| w[1] <= w[0]) {
        return Err("thresholds: ascending whole seconds separated by commas, e.g. 1000,10000".into());
    }
    if thresholds.len() + 1 < queues {
        return Err(format!("{queues} queues need {} thresholds, {} given", queues - 1, thresholds.len()));
    }
    let seed = o.get("seed").trim();
    let seed = seed.parse::<u64>().map_err(|_| format!("the seed must be a whole number >= 0, not \"{seed}\""))?;
    Ok(Form {
        high: fraction("high", "high-priority")?,
        reservations: fraction("reservations", "reservation")?,
        loads,
        queues,
        thresholds,
        seed,
    })
}

fn pct(v: f64) -> String {
    format!("{}%", (v * 100.0).round())
}

/// The job classes of the thresholds as (name, span): short, medium and long for the paper's two.
fn classes(t: &[i64]) -> Vec<(String, String)> {
    let span = |i: usize| {
        if i == 0 {
            format!("estimate < {} s", t[0])
        } else if i == t.len() {
            format!("estimate >= {} s", t[i - 1])
        } else {
            format!("{} s <= estimate < {} s", t[i - 1], t[i])
        }
    };
    let names: Vec<String> = match t.len() {
        0 => vec!["all".into()],
        1 => vec!["short".into(), "long".into()],
        2 => vec!["short".into(), "medium".into(), "long".into()],
        n => (1..=n + 1).map(|i| format!("class {i}")).collect(),
    };
    names.into_iter().enumerate().map(|(i, n)| (n, if t.is_empty() { "every job".into() } else { span(i) })).collect()
}

/// R as the tables show it: signed, three decimals.
fn r_text(v: Option<f64>) -> String {
    v.map_or("—".into(), |v| format!("{}{:.3}", if v >= 0.0 { "+" } else { "−" }, v.abs()))
}

fn r_cell(r: Option<f64>, key: &str, title: String) -> Cell {
    let c = Cell::number(r_text(r), key, r).title(title);
    match r {
        Some(v) if v > 0.0 => c.class("better"),
        Some(v) if v < 0.0 => c.class("worse"),
        _ => c,
    }
}

/// A load's colour in every chart: the paper's loads keep theirs whichever are ticked.
fn colour(load: &str, i: usize) -> Option<usize> {
    Some(LOADS.iter().position(|l| *l == load).unwrap_or(LOADS.len() + i))
}

fn series(name: String, colour: Option<usize>, pale: bool, values: Vec<Option<f64>>) -> Series {
    Series { colour, pale, ..Series::new(name, values) }
}

/// R per load (and per priority): s1, sm, R overall and per class (Figs. 3, 5, 6, 8 as numbers).
fn summary(f: &Form, runs: &[(String, Run)], cls: &[(String, String)]) -> Table {
    let jobs = &runs[0].1.single.class_jobs;
    let mut head = vec![
        Cell::text("load").title("offered-load factor: interarrival times divided by it"),
        Cell::text("jobs").title("jobs the slowdowns average over"),
        Cell::text("s1").title("average slowdown 1 + d/v with one queue (sq-backfill)"),
        Cell::text("sm").title(format!("average slowdown 1 + d/v with {} queues (mq-backfill)", f.queues)),
        Cell::text("R").title("R = (s1 − sm) / min(s1, sm) over the jobs of the row"),
    ];
    for (i, (name, span)) in cls.iter().enumerate() {
        head.push(
            Cell::text(format!("R {name}"))
                .title(format!("R over the {name} jobs: {span} ({} jobs)", jobs.get(i).copied().unwrap_or(0))),
        );
    }
    let mut t = Table {
        id: "lawson-summary".into(),
        class: "paper".into(),
        head: vec![head],
        rows: Vec::new(),
        data: Vec::new(),
    };
    let kinds: &[(&str, &str)] = if f.high < 1.0 {
        &[("all", "all jobs"), ("high", "high priority"), ("low", "low priority")]
    } else {
        &[("all", "all jobs")]
    };
    for (load, c) in runs {
        for (k, (priority, label)) in kinds.iter().enumerate() {
            let (r, s1, sm, by_class) = match *priority {
                "high" => (c.r_high, c.single.high, c.multi.high, &c.r_classes_high),
                "low" => (c.r_low, c.single.low, c.multi.low, &c.r_classes_low),
                _ => (Some(c.r), Some(c.single.overall), Some(c.multi.overall), &c.r_classes),
            };
            let mut cells = Vec::new();
            if k == 0 {
                cells.push(Cell::label(load, "load", load).span(kinds.len() as u32, 1));
            }
            let n: Option<u64> = (*priority == "all").then(|| c.single.class_jobs.iter().sum());
            let jobs = match n {
                Some(n) => Cell::number(format!("{n} ({label})"), "jobs", Some(n as f64)),
                None => Cell::label(*label, "jobs", ""),
            };
            cells.push(jobs.title(*label).class("rt"));
            cells.push(Cell::number(s1.map_or("—".into(), |v| format!("{v:.2}")), "s1", s1));
            cells.push(Cell::number(sm.map_or("—".into(), |v| format!("{v:.2}")), "sm", sm));
            cells.push(r_cell(r, "r", format!("load {load}, {label}: R = {}", js_number(r))));
            for (i, (name, _)) in cls.iter().enumerate() {
                let v = by_class.get(i).copied().flatten();
                cells.push(r_cell(
                    v,
                    &format!("r_{name}"),
                    format!("load {load}, {label}, {name}: R = {}", js_number(v)),
                ));
            }
            t.rows.push(Row {
                cells,
                class: String::new(),
                data: vec![("load".into(), load.clone()), ("priority".into(), priority.to_string())],
            });
        }
    }
    t
}

/// A value as a hover text writes it exactly (null when missing).
fn js_number(v: Option<f64>) -> String {
    v.filter(|v| v.is_finite()).map_or("null".into(), |v| v.to_string())
}

/// Table 2 per load: reservation requests and missed reservations, with the mean delays.
fn reservations(runs: &[(String, Run)]) -> Table {
    let head = [
        ("load", "offered-load factor"),
        ("reservations requested", "jobs drawn to ask for an advance reservation (the same jobs in both runs)"),
        ("single-queue missed", "reservations sq-backfill granted later than asked"),
        ("multiple-queue missed", "reservations mq-backfill granted later than asked"),
        ("single-queue mean delay [min]", "mean granted minus requested start over the requests, sq-backfill"),
        ("multiple-queue mean delay [min]", "mean granted minus requested start over the requests, mq-backfill"),
    ];
    let mut t = Table {
        id: "lawson-reservations-table".into(),
        class: "paper".into(),
        head: vec![head.iter().map(|(t, title)| Cell::text(*t).title(*title)).collect()],
        rows: Vec::new(),
        data: Vec::new(),
    };
    for (load, c) in runs {
        let r = &c.reservations;
        let delay = |v: f64| if r.requested > 0 { fmt_value(Unit::Count, v / 60.0) } else { "—".into() };
        let count = |v: u64, key: &str| Cell::number(v.to_string(), key, Some(v as f64));
        t.rows.push(Row {
            cells: vec![
                Cell::label(load, "load", load),
                count(r.requested, "requested"),
                count(r.missed_single, "missed_single"),
                count(r.missed_multi, "missed_multi"),
                Cell::number(delay(c.delay_single_s), "delay_single_s", Some(c.delay_single_s)),
                Cell::number(delay(c.delay_multi_s), "delay_multi_s", Some(c.delay_multi_s)),
            ],
            class: String::new(),
            data: vec![("load".into(), load.clone())],
        });
    }
    t
}

/// The four charts: R per class, R by priority, R over time and the reservation delays' tail.
fn charts(f: &Form, runs: &[(String, Run)], cls: &[(String, String)], unix_start: Option<i64>) -> Vec<Block> {
    let mut categories = vec!["all".to_string()];
    categories.extend(cls.iter().map(|(n, _)| n.clone()));
    let by_class =
        |r: Option<f64>, rest: &[Option<f64>]| std::iter::once(r).chain(rest.iter().copied()).collect::<Vec<_>>();
    let r_what = "R = (s1 − sm) / min(s1, sm): above 0, multiple queues do better";
    let r_labels = |title: &str, subtitle: String| Labels {
        title: title.into(),
        subtitle,
        x: "jobs (classes by estimated runtime)".into(),
        y: "R".into(),
        value: "R".into(),
        ..Labels::default()
    };
    let mut out = vec![Block::figure(
        "chart-lawson-r",
        "lawson-r",
        Spec::GroupedBars {
            labels: r_labels("R per class (Figs. 3, 5)", r_what.into()),
            categories: categories.clone(),
            series: runs
                .iter()
                .enumerate()
                .map(|(i, (l, c))| series(format!("load {l}"), colour(l, i), false, by_class(Some(c.r), &c.r_classes)))
                .collect(),
        },
    )];
    let priorities = f.high < 1.0;
    if priorities {
        out.push(Block::figure(
            "chart-lawson-priority",
            "lawson-priority",
            Spec::GroupedBars {
                labels: r_labels(
                    "R by priority (Figs. 6, 8)",
                    format!("per class, {} of the jobs high priority; paler bars: low priority", pct(f.high)),
                ),
                categories,
                series: runs
                    .iter()
                    .enumerate()
                    .flat_map(|(i, (l, c))| {
                        [
                            series(
                                format!("load {l} high"),
                                colour(l, i),
                                false,
                                by_class(c.r_high, &c.r_classes_high),
                            ),
                            series(format!("load {l} low"), colour(l, i), true, by_class(c.r_low, &c.r_classes_low)),
                        ]
                    })
                    .collect(),
            },
        ));
    } else {
        out.push(Block::empty(
            "chart-lawson-priority",
            "Every job is high priority: choose 0.95 or 0.75 for R by priority (Figs. 6, 8).",
        ));
    }
    // Each load's batches start at their own times: the xs are all of them, each line through its own.
    let mut xs: Vec<i64> = runs.iter().flat_map(|(_, c)| c.transient.iter().map(|b| b.time)).collect();
    xs.sort_unstable();
    xs.dedup();
    let keys: &[(&str, bool)] = if priorities { &[("high", false), ("low", true)] } else { &[("", false)] };
    let at = &xs;
    let lines = runs
        .iter()
        .enumerate()
        .flat_map(|(i, (l, c))| {
            keys.iter().map(move |(key, pale)| {
                let pick = |b: &Batch| match *key {
                    "high" => b.r_high,
                    "low" => b.r_low,
                    _ => Some(b.r),
                };
                let values = at.iter().map(|t| c.transient.iter().find(|b| b.time == *t).and_then(pick)).collect();
                let name = if key.is_empty() { format!("load {l}") } else { format!("load {l} {key}") };
                series(name, colour(l, i), *pale, values)
            })
        })
        .collect();
    out.push(
        Block::figure(
            "chart-lawson-transient",
            "lawson-transient",
            Spec::Lines {
                labels: Labels {
                    title: "R over time (Figs. 4, 7, 9)".into(),
                    subtitle: format!(
                        "R of each batch of 1,000 submissions, at its first job's submit time; {r_what}{}",
                        if priorities { "; dashed: low priority" } else { "" }
                    ),
                    y: "R".into(),
                    ..Labels::default()
                },
                xs: xs.iter().map(|&t| t as f64).collect(),
                series: lines,
                x_scale: XScale::Time,
                x_labels: Vec::new(),
            },
        )
        .with_options(json!({ "unix_start": unix_start })),
    );
    if runs.iter().any(|(_, c)| c.reservations.requested > 0) {
        out.push(Block::figure(
            "chart-lawson-tail",
            "lawson-tail",
            Spec::Lines {
                labels: Labels {
                    title: "Reservations delayed (Fig. 11)".into(),
                    subtitle: "share of the reservation requests granted a start more than x later than asked; dashed: one queue (sq-backfill)".into(),
                    x: "delay".into(),
                    y: "requests [%]".into(),
                    unit: "%".into(),
                    ..Labels::default()
                },
                xs: (0..TAIL_POINTS.len()).map(|k| k as f64).collect(),
                x_labels: TAIL_POINTS.iter().map(|&v| fmt_value(Unit::Seconds, v as f64)).collect(),
                series: runs
                    .iter()
                    .enumerate()
                    .flat_map(|(i, (l, c))| {
                        let pc = |v: &[f64]| v.iter().map(|x| Some(100.0 * x)).collect();
                        [
                            series(format!("load {l} multiple"), colour(l, i), false, pc(&c.reservations.tail_multi)),
                            series(format!("load {l} single"), colour(l, i), true, pc(&c.reservations.tail_single)),
                        ]
                    })
                    .collect(),
                x_scale: XScale::default(),
            },
        ));
    } else {
        out.push(Block::empty(
            "chart-lawson-tail",
            "No reservations were requested: choose a reservation fraction for Fig. 11.",
        ));
    }
    out
}

impl Study for Lawson {
    fn prefix(&self) -> &'static str {
        "lawson"
    }

    fn fields(&self) -> Vec<Field> {
        let default = |key: &str, or: &'static str| family_default("multiqueue", key).unwrap_or(or);
        let choices = |values: &[&str], describe: &dyn Fn(f64) -> String| -> Vec<(String, String)> {
            values.iter().map(|v| (v.to_string(), format!("{v} ({})", describe(v.parse().unwrap_or(0.0))))).collect()
        };
        let mut high = Field::text(
            "high",
            "mq_high",
            "high-priority fraction",
            "1",
            "fraction of jobs drawn as high priority (local); the rest are low priority (external)",
        );
        high.choices = choices(&["1", "0.95", "0.75"], &|v| format!("{} high priority", pct(v)));
        let mut res = Field::text(
            "reservations",
            "mq_res",
            "reservation fraction",
            "0",
            "fraction of jobs drawn to ask for an advance reservation",
        );
        res.choices = choices(&["0", "0.01", "0.05", "0.25"], &|v| {
            if v > 0.0 {
                format!("{v} of the jobs")
            } else {
                "none".into()
            }
        });
        let mut loads = Field::text(
            "loads",
            "mq_loads",
            "load factors",
            "1,1.25,1.5",
            "offered-load factors: interarrival times divided by the factor; one comparison each",
        )
        .multiple();
        loads.choices = LOADS.iter().map(|l| (l.to_string(), l.to_string())).collect();
        vec![
            high,
            res,
            loads,
            Field::text(
                "queues",
                "mq_queues",
                "queues",
                default("queues", "3"),
                "queues of mq-backfill, each with its own partition (1-16)",
            )
            .size(3),
            Field::text(
                "thresholds",
                "mq_thresholds",
                "thresholds [s]",
                default("thresholds", "1000,10000"),
                "estimated-runtime bounds between the queues, ascending (Eq. 1: 1000,10000)",
            )
            .size(12),
            Field::text("seed", "mq_seed", "seed", default("seed", "1"), "seed of the priority and reservation draws")
                .size(4),
        ]
    }

    fn plan(&self, options: &Options, settings: &[String], _about: &Value) -> Result<Plan, String> {
        let f = form(options)?;
        let shared = shared_load(settings);
        let thresholds = f.thresholds.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(",");
        let tasks = f
            .loads
            .iter()
            .map(|load| {
                let factor = shared * load.parse::<f64>().unwrap_or(1.0);
                let own = [
                    ("high_priority", f.high.to_string()),
                    ("reservations", f.reservations.to_string()),
                    ("load", factor.to_string()),
                    ("queues", f.queues.to_string()),
                    ("thresholds", thresholds.clone()),
                    ("seed", f.seed.to_string()),
                ];
                Task { what: format!("load {load}"), settings: with_own(settings, &own), input: Value::Null }
            })
            .collect();
        let n = f.loads.len();
        Ok(Plan {
            what: format!(
                "{n} comparison{} (load {}), each mq-backfill and sq-backfill: {} runs",
                if n == 1 { "" } else { "s" },
                f.loads.join(", "),
                2 * n
            ),
            tasks,
            noun: ("comparison", "comparisons"),
            progressive: false,
        })
    }

    fn run(&self, trace: &Trace, settings: &Settings, _input: &Value) -> Result<Value, String> {
        let c = compare(trace, settings).map_err(|e| e.to_string())?;
        let run = Run {
            thresholds: c.thresholds,
            single: c.single,
            multi: c.multi,
            r: c.r,
            r_classes: c.r_classes,
            r_high: c.r_high,
            r_low: c.r_low,
            r_classes_high: c.r_classes_high,
            r_classes_low: c.r_classes_low,
            transient: c.transient,
            reservations: c.reservations,
            delay_single_s: c.single_metrics.reservation_delay_avg_s,
            delay_multi_s: c.multi_metrics.reservation_delay_avg_s,
        };
        serde_json::to_value(run).map_err(|e| e.to_string())
    }

    fn report(&self, options: &Options, values: &[Value], about: &Value) -> Result<Report, String> {
        let f = form(options)?;
        if values.len() != f.loads.len() {
            return Err(format!("{} results for {} comparisons", values.len(), f.loads.len()));
        }
        let runs: Vec<(String, Run)> =
            f.loads.iter().zip(values).map(|(l, v)| Ok((l.clone(), read::<Run>(v)?))).collect::<Result<_, String>>()?;
        let cls = classes(&runs[0].1.thresholds);
        let explain = format!(
            "Slowdown s = 1 + d/v, d the job's wait and v its actual runtime (Eq. 2), averaged over the jobs. \
             R = (s1 − sm) / min(s1, sm) (Eq. 3), s1 with one queue (sq-backfill), sm with {} (mq-backfill): \
             R > 0 means multiple queues do better, R = 1 that the single queue's slowdown is twice as high. \
             Classes by the user's runtime estimate: {}.{}",
            f.queues,
            cls.iter().map(|(n, s)| format!("{n} ({s})")).collect::<Vec<_>>().join(", "),
            if f.high < 1.0 {
                format!(" {} of the jobs are drawn as high priority (local), the rest low (external).", pct(f.high))
            } else {
                String::new()
            }
        );
        let unix_start = about.pointer("/header/unix_start_time").and_then(Value::as_i64);
        let mut blocks = vec![
            Block::Note { id: "lawson-explain".into(), text: explain },
            Block::Heading { text: "Slowdown ratio R per class (Figs. 3, 5; by priority, Figs. 6, 8)".into() },
            Block::Table(summary(&f, &runs, &cls)),
        ];
        let mut figures = charts(&f, &runs, &cls, unix_start);
        let tail = figures.split_off(2);
        blocks.extend(figures);
        blocks.push(Block::Heading { text: "R per 1,000 submissions over time (Figs. 4, 7, 9)".into() });
        let mut tail = tail.into_iter();
        blocks.extend(tail.next());
        blocks.push(Block::Heading { text: "Reservations (Table 2, Fig. 11)".into() });
        blocks.push(Block::Note {
            id: "lawson-reservations-note".into(),
            text: if f.reservations > 0.0 {
                format!("{} of the jobs (the same in both runs) ask for a reservation: a start the option lead draws after their submission (by default uniformly within a day). A reservation is missed when it is granted a later start.", f.reservations)
            } else {
                "No job asks for a reservation (fraction 0): choose 0.01, 0.05 or 0.25 for Table 2 and Fig. 11.".into()
            },
        });
        blocks.push(Block::Table(reservations(&runs)));
        blocks.extend(tail);
        Ok(Report {
            status: format!(
                "Compared mq-backfill with sq-backfill at load {} in {{time}}: {} high priority, {}, seed {}.",
                f.loads.join(", "),
                pct(f.high),
                if f.reservations > 0.0 {
                    format!("{} of the jobs asking for a reservation", f.reservations)
                } else {
                    "no reservations".into()
                },
                f.seed
            ),
            blocks,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(given: &[&str]) -> Options {
        Options::of(&Lawson, given)
    }

    #[test]
    fn the_form_is_checked_field_by_field() {
        let f = form(&options(&[])).unwrap();
        assert_eq!((f.high, f.reservations, f.queues, f.seed), (1.0, 0.0, 3, 1));
        assert_eq!(f.loads, ["1", "1.25", "1.5"]);
        assert_eq!(f.thresholds, [1000, 10000]);
        assert_eq!(form(&options(&["loads="])).err().unwrap(), "tick one or more load factors");
        assert!(form(&options(&["thresholds=10000,1000"])).err().unwrap().contains("ascending whole seconds"));
        assert_eq!(form(&options(&["queues=4"])).err().unwrap(), "4 queues need 3 thresholds, 2 given");
        assert!(form(&options(&["queues=0"])).is_err());
        assert!(form(&options(&["seed=x"])).is_err());
        assert_eq!(classes(&[3600])[1], ("long".to_string(), "estimate >= 3600 s".to_string()));
    }

    #[test]
    fn a_shared_load_scales_every_factor() {
        let plan = Lawson.plan(&options(&["loads=1,1.5"]), &["load=2".into(), "seed=9".into()], &Value::Null).unwrap();
        assert_eq!(plan.tasks.len(), 2);
        assert!(plan.tasks[1].settings.contains(&"load=3".to_string()));
        assert!(plan.tasks[1].settings.contains(&"seed=1".to_string()));
        assert!(!plan.tasks[1].settings.contains(&"seed=9".to_string()));
        assert!(plan.what.starts_with("2 comparisons (load 1, 1.5)"));
    }
}
