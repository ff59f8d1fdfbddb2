//! The Load view: the page's chosen policies at a range of offered loads, as the classic figure
//! of scheduling papers (mean bounded slowdown and mean wait against load, a line per policy,
//! where each saturates in the legend and the findings). The workloads are Lublin & Feitelson's
//! model (the generator's machine and jobs, several seeds) or the trace with its arrivals
//! scaled (`load=`). Its runs report as they finish: the figures grow point by point.

use serde::Deserialize;
use serde_json::{json, Value};

use super::{plain_number, read, Block, Cell, Field, Options, Plan, Report, Row, Study, Table, Task};
use crate::run::{configure, Settings};
use crate::studies::loadsweep::{figure, generated, points, saturation, summarize, Measure, Point, Summary};
use crate::trace::Trace;
use crate::workload::WorkloadOptions;

/// The study (see the module docs).
pub struct LoadSweep;

/// The most seeds a sweep takes.
const MAX_SEEDS: u32 = 20;

/// A policy the page has chosen: the name it shows, and what the engine runs for it.
#[derive(Deserialize)]
struct Chosen {
    name: String,
    policy: String,
    settings: Vec<String>,
}

/// The trace the page holds.
#[derive(Deserialize)]
struct Held {
    name: String,
    offered: f64,
    /// The generator's options when the trace was generated.
    generated: Option<serde_json::Map<String, Value>>,
}

/// What the page tells the study besides the trace's report (`about.page`).
#[derive(Deserialize, Default)]
#[serde(default)]
struct Page {
    policies: Vec<Chosen>,
    trace: Option<Held>,
    /// The generator form's machine, jobs and seed.
    generator: serde_json::Map<String, Value>,
    /// The most jobs the page generates (0: no limit).
    limit: u64,
}

fn page(about: &Value) -> Page {
    about.get("page").and_then(|p| Page::deserialize(p).ok()).unwrap_or_default()
}

/// A generator option as text (`64`, `2000`), empty when not given.
fn option(g: &serde_json::Map<String, Value>, key: &str) -> String {
    match g.get(key) {
        Some(Value::String(s)) => s.trim().to_string(),
        Some(Value::Null) | None => String::new(),
        Some(v) => v.to_string(),
    }
}

/// A count as every view writes one (thousands grouped from 10,000).
fn grouped(n: u64) -> String {
    crate::render::axis::whole_or_number(n as f64)
}

/// The loads typed: numbers from 0.01 to 10, ascending, each once.
fn loads(text: &str) -> Result<Vec<f64>, String> {
    let parts: Vec<&str> = text.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
    if parts.is_empty() {
        return Err("Give one or more offered loads, comma-separated (0.5,0.7,0.9).".into());
    }
    let mut out = Vec::new();
    for p in parts {
        match plain_number(p).filter(|v| (0.01..=10.0).contains(v)) {
            Some(v) if !out.contains(&v) => out.push(v),
            Some(_) => {}
            None => return Err(format!("Offered load \"{p}\" is not a number from 0.01 to 10.")),
        }
    }
    crate::sorting::floats(&mut out);
    Ok(out)
}

/// The workloads the form asks for: generated (their spec, first seed, seeds and a line naming
/// them) or the trace's (its offered load).
enum Source {
    Generated { spec: String, first: u64, seeds: u32, what: String },
    Trace { offered: f64, what: String },
}

fn source(options: &Options, p: &Page) -> Result<Source, String> {
    if options.get("source") == "trace" {
        let t = p.trace.as_ref().ok_or("Load a trace first, or sweep generated workloads.")?;
        if t.offered.is_nan() || t.offered <= 0.0 {
            return Err("The trace has no offered load to scale (its jobs do no work, or all arrive at once).".into());
        }
        let what = format!("{} (offered load {:.3}), arrivals scaled", t.name, t.offered);
        return Ok(Source::Trace { offered: t.offered, what });
    }
    let g = p.trace.as_ref().and_then(|t| t.generated.as_ref()).unwrap_or(&p.generator);
    let seeds = options.get("seeds").trim().parse::<u32>().ok().filter(|s| (1..=MAX_SEEDS).contains(s));
    let seeds = seeds.ok_or(format!("Seeds: a whole number from 1 to {MAX_SEEDS}."))?;
    let jobs: u64 = option(g, "jobs").parse().unwrap_or(0);
    if p.limit > 0 && jobs > p.limit {
        return Err(format!(
            "The page generates at most {} jobs; the schedlab command-line tool sweeps more (schedlab loadsweep).",
            grouped(p.limit)
        ));
    }
    let first: u64 = option(g, "seed").parse().unwrap_or(0);
    let spec = ["machine", "jobs", "days", "types", "estimate"]
        .iter()
        .filter(|k| !option(g, k).is_empty())
        .map(|k| format!("{k}={}", option(g, k)))
        .collect::<Vec<_>>()
        .join(",");
    let range =
        if seeds == 1 { format!("seed {first}") } else { format!("seeds {first}-{}", first + seeds as u64 - 1) };
    let size = match option(g, "days") {
        d if !d.is_empty() => format!("{d} days of jobs"),
        _ => format!("{} jobs", grouped(jobs)),
    };
    let what = format!("{} processors, {size}, {range}", option(g, "machine"));
    Ok(Source::Generated { spec, first, seeds, what })
}

/// The points run so far, in the order the sweep asked for its policies (each keeps its colour).
fn ordered(values: &[Value], order: &[String]) -> Result<Vec<Point>, String> {
    let mut out: Vec<Point> = values.iter().filter(|v| !v.is_null()).map(read::<Point>).collect::<Result<_, _>>()?;
    let rank = |p: &Point| order.iter().position(|n| *n == p.policy).unwrap_or(usize::MAX);
    out.sort_by(|a, b| rank(a).cmp(&rank(b)).then(a.load.total_cmp(&b.load)).then(a.seed.cmp(&b.seed)));
    Ok(out)
}

/// Where the policies saturate, those saturating at one load together, in a line each.
fn findings(summary: &[Summary], order: &[String]) -> Vec<super::Line> {
    let mut swept: Vec<f64> = summary.iter().map(|s| s.load).collect();
    crate::sorting::floats(&mut swept);
    swept.dedup();
    let mut groups: Vec<(Option<f64>, Vec<String>)> = Vec::new();
    for p in order.iter().filter(|p| summary.iter().any(|s| s.policy == **p)) {
        let at = saturation(summary, p);
        match groups.iter_mut().find(|(a, _)| *a == at) {
            Some((_, list)) => list.push(p.clone()),
            None => groups.push((at, vec![p.clone()])),
        }
    }
    groups.sort_by(|a, b| a.0.unwrap_or(f64::INFINITY).total_cmp(&b.0.unwrap_or(f64::INFINITY)));
    groups
        .into_iter()
        .map(|(at, names)| {
            let one = names.len() == 1;
            let (s, keep) = if one { ("s", "keeps") } else { ("", "keep") };
            let below = swept.iter().rfind(|l| at.is_none_or(|a| **l < a));
            let text = match (at, below) {
                (None, _) => format!("Keep{s} up at every load swept (to {}): ", swept.last().copied().unwrap_or(0.0)),
                (Some(a), Some(b)) => format!("Saturate{s} at {a} ({keep} up to {b}): "),
                (Some(a), None) => format!("Saturate{s} already at {a}, the lowest load swept: "),
            };
            super::Line { data: vec![("saturates".into(), at.map_or(String::new(), |a| a.to_string()))], text, names }
        })
        .collect()
}

/// The numbers behind the figures: a row per policy and load.
fn table(summary: &[Summary]) -> Table {
    let spread = summary.iter().any(|s| s.runs > 1);
    let mut head = vec![
        Cell::text("policy"),
        Cell::text("load").title("offered load asked for"),
        Cell::text("offered").title("offered load of the workloads: work / (span of submissions × processors)"),
        Cell::text("mean wait [h]").title("mean wait over all jobs"),
    ];
    if spread {
        head.push(Cell::text("wait range [h]").title("least and most mean wait over the seeds"));
    }
    head.push(
        Cell::text("mean bsld").title("mean bounded slowdown: max(1, (wait + run) / max(τ, run)), τ = 10 s unless set"),
    );
    if spread {
        head.push(Cell::text("bsld range").title("least and most mean bounded slowdown over the seeds"));
    }
    head.push(Cell::text("utilization").title("used processor-seconds / (makespan × machine size)"));
    head.push(Cell::text("keeps up").title("whether the schedule ends within the longer of the longest runtime and 5% of the span after the one without waiting (every job started at its submission); else its queue grows for as long as jobs arrive: saturated"));
    let mut t = Table { id: "ls-table".into(), head: vec![head], ..Table::default() };
    let h = |s: f64| format!("{:.2}", s / 3600.0);
    for s in summary {
        let mut cells = vec![
            Cell::text(&s.policy),
            Cell::text(s.load.to_string()),
            Cell::text(format!("{:.3}", s.offered)),
            Cell::text(h(s.wait.0)),
        ];
        if spread {
            cells.push(Cell::text(format!("{} - {}", h(s.wait.1), h(s.wait.2))));
        }
        cells.push(Cell::text(format!("{:.1}", s.bsld.0)));
        if spread {
            cells.push(Cell::text(format!("{:.1} - {:.1}", s.bsld.1, s.bsld.2)));
        }
        cells.push(Cell::text(format!("{:.3}", s.utilization)));
        cells.push(Cell::text(if s.keeps_up { "yes" } else { "saturated" }));
        let data = vec![("policy".into(), s.policy.clone()), ("load".into(), s.load.to_string())];
        t.rows.push(Row { cells, class: String::new(), data });
    }
    t
}

impl Study for LoadSweep {
    fn prefix(&self) -> &'static str {
        "ls"
    }

    fn fields(&self) -> Vec<Field> {
        vec![
            Field::choose(
                "source",
                "ls_source",
                "Workloads",
                "generated",
                "Lublin and Feitelson's model at each load, or the trace with its arrivals scaled to each load",
                &[("generated", "generated (Lublin-Feitelson)"), ("trace", "this trace, arrivals scaled")],
            ),
            Field::text("seeds", "ls_seeds", "seeds", "3", "workloads per load, each from its own seed")
                .size(3)
                .when("source", "generated"),
            Field::text(
                "loads",
                "ls_loads",
                "offered loads",
                "0.5,0.6,0.7,0.8,0.85,0.9,0.95",
                "work ÷ (span of submissions × processors), numbers from 0.01 to 10 separated by commas",
            )
            .size(28)
            .list(),
        ]
    }

    fn defaults(&self, about: &Value) -> Vec<(&'static str, String)> {
        // Generated workloads when the trace was generated (or there is none), else the trace.
        let generated = page(about).trace.is_none_or(|t| t.generated.is_some());
        vec![("source", if generated { "generated" } else { "trace" }.into())]
    }

    fn plan(&self, options: &Options, _settings: &[String], about: &Value) -> Result<Plan, String> {
        let p = page(about);
        let loads = loads(options.get("loads"))?;
        let source = source(options, &p)?;
        if p.policies.is_empty() {
            return Err("Choose one or more policies first.".into());
        }
        let (seeds, first) = match &source {
            Source::Generated { seeds, first, .. } => (*seeds as u64, *first),
            Source::Trace { .. } => (1, 0),
        };
        let mut tasks = Vec::new();
        for &load in &loads {
            for seed in first..first + seeds {
                for c in &p.policies {
                    let (settings, spec) = match &source {
                        // A log is scaled by the factor that takes its own offered load to this one (the last `load=` wins).
                        Source::Trace { offered, .. } => {
                            let mut s = c.settings.clone();
                            s.push(format!("load={}", load / offered));
                            (s, Value::Null)
                        }
                        Source::Generated { spec, .. } => (c.settings.clone(), json!(spec)),
                    };
                    let seed_note = if seeds > 1 { format!(" (seed {seed})") } else { String::new() };
                    tasks.push(Task {
                        what: format!("{} at load {load}{seed_note}", c.name),
                        settings,
                        input: json!({"name": c.name, "policy": c.policy, "load": load, "seed": seed, "spec": spec}),
                    });
                }
            }
        }
        let n = p.policies.len();
        let (per_seed, on) = match &source {
            Source::Generated { what, .. } => {
                (format!(" × {seeds} seeds"), format!("Lublin-Feitelson workloads: {what}"))
            }
            Source::Trace { what, .. } => (String::new(), what.clone()),
        };
        let what = format!(
            "{n} {} × {} loads{per_seed} = {} runs on {on}.",
            if n == 1 { "policy" } else { "policies" },
            loads.len(),
            tasks.len()
        );
        Ok(Plan { what, tasks, noun: ("task", "tasks"), progressive: true })
    }

    fn run(&self, trace: &Trace, settings: &Settings, input: &Value) -> Result<Value, String> {
        let get = |k: &str| input.get(k).ok_or(format!("no {k} in the task"));
        let (name, policy) = (get("name")?.as_str().unwrap_or(""), get("policy")?.as_str().unwrap_or(""));
        let (load, seed) = (get("load")?.as_f64().unwrap_or(1.0), get("seed")?.as_u64().unwrap_or(0));
        let cfg = configure(policy, settings).map_err(|e| e.to_string())?;
        let made;
        let trace = match input.get("spec").and_then(Value::as_str) {
            Some(spec) => {
                let o = WorkloadOptions::parse(spec).map_err(|e| e.to_string())?;
                made = generated(&o, load, seed, &settings.trace)?;
                &made
            }
            None => trace,
        };
        let mut point = points(trace, &cfg, settings, load, seed).pop().ok_or("no policy")?;
        // Named as the page names it (a custom policy's engine name is its whole expression).
        point.policy = name.to_string();
        serde_json::to_value(point).map_err(|e| e.to_string())
    }

    fn report(&self, options: &Options, values: &[Value], about: &Value) -> Result<Report, String> {
        let p = page(about);
        let order: Vec<String> = p.policies.iter().map(|c| c.name.clone()).collect();
        let points = ordered(values, &order)?;
        let what = match source(options, &p)? {
            Source::Generated { what, .. } => what,
            Source::Trace { what, .. } => what,
        };
        let summary = summarize(&points);
        let mut blocks = Vec::new();
        for (id, measure) in [("chart-load-bsld", Measure::Bsld), ("chart-load-wait", Measure::Wait)] {
            let name = if measure == Measure::Bsld { "load-bsld" } else { "load-wait" };
            blocks.push(Block::figure(id, name, figure(&summary, measure, &what)));
        }
        blocks.push(Block::Lines { id: "ls-findings".into(), lines: findings(&summary, &order) });
        blocks.push(Block::Heading { text: "The numbers: each policy at each load".into() });
        blocks.push(Block::Table(table(&summary)));
        Ok(Report { status: format!("Ran {} simulations in {{time}}.", points.len()), blocks })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn about(trace: Value) -> Value {
        json!({"page": {
            "policies": [{"name": "easy", "policy": "easy", "settings": []}, {"name": "fcfs", "policy": "fcfs", "settings": ["x=1"]}],
            "trace": trace,
            "generator": {"machine": "64", "jobs": "2000", "seed": "2"},
            "limit": 500000,
        }})
    }

    #[test]
    fn a_generated_sweep_runs_each_policy_at_each_load_and_seed() {
        let o = Options::of(&LoadSweep, &["loads=0.9, 0.5,0.5", "seeds=2"]);
        let plan = LoadSweep.plan(&o, &[], &about(Value::Null)).unwrap();
        assert_eq!(
            plan.what,
            "2 policies × 2 loads × 2 seeds = 8 runs on Lublin-Feitelson workloads: 64 processors, 2000 jobs, seeds 2-3."
        );
        assert_eq!(
            plan.tasks[0].input,
            json!({"name": "easy", "policy": "easy", "load": 0.5, "seed": 2, "spec": "machine=64,jobs=2000"})
        );
        assert_eq!(plan.tasks[7].what, "fcfs at load 0.9 (seed 3)");
        assert_eq!(LoadSweep.defaults(&about(Value::Null)), vec![("source", "generated".to_string())]);
    }

    #[test]
    fn the_form_follows_the_trace_until_set_and_hides_what_does_not_apply() {
        use crate::studies::panel::form_values;
        let form: Vec<(String, String)> = [("source", "generated"), ("seeds", "3"), ("loads", "0.5, 0.9,")]
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let log = about(json!({"name": "x.swf", "offered": 0.7, "generated": null}));
        let v = form_values(&LoadSweep, &form, &[], &log);
        assert_eq!(v.fill, [("ls-source".to_string(), "trace".to_string())], "a log's sweep scales the log");
        assert_eq!(v.options, ["source=trace", "seeds=3", "loads=0.5,0.9"]);
        assert_eq!(v.hidden, [("ls-seeds-label".to_string(), true)]);
        assert_eq!(v.url[0], ("ls_source".to_string(), None), "the trace's default is left out of the link");
        assert_eq!(v.url[2], ("ls_loads".to_string(), Some(vec!["0.5,0.9".to_string()])));
        // Set by the user, the field keeps its value on this trace.
        let v = form_values(&LoadSweep, &form, &["source".to_string()], &log);
        assert!(v.fill.is_empty() && v.options[0] == "source=generated" && !v.hidden[0].1);
        assert_eq!(v.url[0], ("ls_source".to_string(), Some(vec!["generated".to_string()])));
    }

    #[test]
    fn a_log_is_scaled_from_its_own_offered_load() {
        let held = json!({"name": "log", "offered": 0.5, "generated": null});
        assert_eq!(LoadSweep.defaults(&about(held.clone())), vec![("source", "trace".to_string())]);
        let o = Options::of(&LoadSweep, &["source=trace", "loads=0.6"]);
        let plan = LoadSweep.plan(&o, &[], &about(held)).unwrap();
        assert_eq!(plan.what, "2 policies × 1 loads = 2 runs on log (offered load 0.500), arrivals scaled.");
        assert_eq!(plan.tasks[1].settings, vec!["x=1", "load=1.2"]);
    }

    #[test]
    fn the_form_is_checked() {
        let plan = |given: &[&str]| LoadSweep.plan(&Options::of(&LoadSweep, given), &[], &about(Value::Null));
        assert_eq!(plan(&["loads=0.5,x"]).unwrap_err(), "Offered load \"x\" is not a number from 0.01 to 10.");
        assert_eq!(plan(&["seeds=21"]).unwrap_err(), "Seeds: a whole number from 1 to 20.");
        assert!(plan(&["source=trace"]).unwrap_err().starts_with("Load a trace first"));
    }
}
