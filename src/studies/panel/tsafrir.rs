//! Runtime predictions (Tsafrir, Etsion & Feitelson 2007) as the page shows them: the parameter
//! sweep of section 7 (every configuration of a grid of prediction options run on the trace,
//! ranked by average performance degradation as Table 11, and its mean and spread per value of
//! each axis as Fig. 10), and Tables 2-5 and 10 of the runs the page made ([`prediction_tables`]).

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::{read, without, Block, Cell, Field, Options, Plan, Report, Row, Study, Table, Task};
use crate::policy::{family_options, find, POLICIES};
use crate::run::{configure, run_one, Settings};
use crate::studies::sweep::{by_key, degradation, figure, grid, ranking, Axis};
use crate::trace::Trace;

/// The sweep (see the module docs).
pub struct Sweep;

/// The preset the sweep and the predictor panel start from.
const DEFAULT_BASE: &str = "easy++";

/// The axes when the link gives none: [`DEFAULT_AXES`], a line each.
const DEFAULT_TEXT: &str = "window=1-8\nmetric=avg,med\npropagation=off,on";

/// The base that runs the page's predictor panel; the page gives its configuration as settings
/// starting with [`CUSTOM_PREFIX`] (its base preset as `custom:base=NAME`).
const CUSTOM: &str = "custom";

/// What starts the settings of the predictor panel among the page's.
const CUSTOM_PREFIX: &str = "custom:";

/// The largest grid the page runs: beyond it a sweep belongs on the command line.
const MAX_CONFIGS: usize = 5000;

/// What one configuration's run gives the report: its two test cases.
#[derive(Serialize, Deserialize)]
struct Run {
    avg_wait_s: f64,
    avg_bsld: f64,
}

/// The options the page's predictor panel sets: the backfill family's prediction options
/// (section 7's space and more).
pub const PREDICTOR_KEYS: &[&str] = &[
    "predict",
    "factor",
    "correction",
    "window",
    "window_type",
    "fullness",
    "metric",
    "fallback",
    "propagation",
    "reserve",
    "backfill_end",
];

/// The predictor panel's data: its base preset, its keys, and what each prediction preset runs
/// with for them (its own values over its family's defaults), in catalogue order.
pub fn predictor() -> serde_json::Value {
    let presets: Vec<serde_json::Value> = prediction_presets()
        .into_iter()
        .filter_map(|name| POLICIES.iter().find(|p| p.name == name))
        .map(|p| {
            let value = |k: &&str| {
                let own = p.defaults.iter().find(|(key, _)| key == k).map(|(_, v)| *v);
                own.or(crate::policy::family_default(p.family, k)).unwrap_or("")
            };
            let values: serde_json::Map<String, serde_json::Value> =
                PREDICTOR_KEYS.iter().map(|k| (k.to_string(), value(k).into())).collect();
            serde_json::json!({"name": p.name, "values": values})
        })
        .collect();
    serde_json::json!({"base": DEFAULT_BASE, "keys": PREDICTOR_KEYS, "presets": presets})
}

/// The prediction presets in catalogue order: the group of [`DEFAULT_BASE`].
pub fn prediction_presets() -> Vec<&'static str> {
    let group = POLICIES.iter().find(|p| p.name == DEFAULT_BASE).map_or("", |p| p.group);
    POLICIES.iter().filter(|p| p.group == group).map(|p| p.name).collect()
}

/// The page's settings split into its own and the predictor panel's (keys without the prefix).
fn split_custom(settings: &[String]) -> (Vec<String>, Vec<String>) {
    let (custom, page): (Vec<&String>, Vec<&String>) = settings.iter().partition(|s| s.starts_with(CUSTOM_PREFIX));
    (page.into_iter().cloned().collect(), custom.iter().map(|s| s[CUSTOM_PREFIX.len()..].to_string()).collect())
}

/// The policy and settings the base runs with: a preset with the page's settings, or the
/// predictor panel's base preset with its values on top.
fn base_run(base: &str, settings: &[String]) -> Result<(String, Vec<String>), String> {
    let (page, custom) = split_custom(settings);
    if base != CUSTOM {
        let slurm = find(base).is_some_and(|p| p.family == "slurm");
        return match prediction_presets().into_iter().find(|p| *p == base) {
            Some(p) => Ok((p.to_string(), page)),
            None if slurm => Ok((base.to_string(), page)),
            None => Err(format!("base: {base:?} is not a prediction preset or a slurm policy")),
        };
    }
    let policy = custom
        .iter()
        .find_map(|kv| kv.strip_prefix("base="))
        .ok_or("base: the predictor panel gave no base preset")?
        .to_string();
    let mut out = page;
    out.extend(custom.into_iter().filter(|kv| !kv.starts_with("base=")));
    Ok((policy, out))
}

/// The axes typed, a line each (`#` starts a comment), checked against the keys the base takes.
fn axes(text: &str, policy: &str) -> Result<Vec<Axis>, String> {
    let family = find(policy).map_or("", |p| p.family);
    let known = |k: &str| {
        family_options(family).iter().any(|o| o.key == k)
            || [crate::trace::TRACE_KEYS, crate::engine::ENGINE_KEYS, crate::metrics::METRIC_KEYS]
                .iter()
                .any(|list| list.iter().any(|(key, _, _)| *key == k))
    };
    let mut out: Vec<Axis> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let n = i + 1;
        if !line.contains('=') {
            return Err(format!("line {n}: expected KEY=VALUES, e.g. window=1-8 or metric=avg,med"));
        }
        let axis = Axis::parse(line).map_err(|e| format!("line {n}: {e}"))?;
        if !known(&axis.key) {
            return Err(format!("line {n}: no option is called {}", axis.key));
        }
        if out.iter().any(|a| a.key == axis.key) {
            return Err(format!("line {n}: {} is already an axis", axis.key));
        }
        out.push(axis);
    }
    if out.is_empty() {
        return Err("give at least one axis, e.g. window=1-8".into());
    }
    Ok(out)
}

/// A number as the paper prints it: whole from 100, else three figures.
fn num(v: f64) -> String {
    if !v.is_finite() {
        return "—".into();
    }
    match v.abs() {
        a if a >= 100.0 => format!("{v:.0}"),
        a if a >= 10.0 => format!("{v:.1}"),
        _ => format!("{v:.2}"),
    }
}

/// A configuration as settings, `window=2 metric=avg`.
fn config_text(config: &[(String, String)]) -> String {
    config.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ")
}

/// Table 11's layout: rank (ties share one, as 7/8), degradation, the configuration and its test cases.
fn ranked(axes: &[Axis], configs: &[Vec<(String, String)>], perf: &[Vec<f64>], shown: usize) -> Table {
    let d = degradation(perf);
    let order = ranking(&d);
    let mut head = vec![
        Cell::text("rank").title("tied configurations share a rank, as 7/8 in Table 11"),
        Cell::text("degradation [%]").title("average over the test cases of 100 × P / P_best − 100 (section 7)"),
    ];
    head.extend(axes.iter().map(|a| Cell::text(&a.key).title(format!("the {} of the configuration", a.key))));
    head.push(Cell::text("wait [min]").title("average wait of the configuration"));
    head.push(Cell::text("b. slowdown").title("average bounded slowdown of the configuration"));
    let mut t = Table { id: "sweep-table".into(), class: "paper".into(), head: vec![head], ..Table::default() };
    // Ties sit next to each other in the ranking: each position's tie runs from `first` to `last`.
    let mut first = vec![0; order.len()];
    for pos in 0..order.len() {
        first[pos] = if pos > 0 && d[order[pos]] == d[order[pos - 1]] { first[pos - 1] } else { pos + 1 };
    }
    let mut last = vec![0; order.len()];
    for pos in (0..order.len()).rev() {
        last[pos] = if pos + 1 < order.len() && first[pos + 1] == first[pos] { last[pos + 1] } else { pos + 1 };
    }
    for (pos, &i) in order.iter().enumerate().take(shown) {
        let (first, last) = (first[pos], last[pos]);
        let rank = match last - first {
            0 => first.to_string(),
            1 => format!("{first}/{last}"),
            _ => format!("{first}–{last}"),
        };
        // The best of every test case scores 0 up to rounding (100 x P / P is not always 100 exactly).
        let shown_d = if d[i].abs() < 0.005 { 0.0 } else { d[i] };
        let mut cells = vec![
            Cell::number(rank, "rank", Some((pos + 1) as f64)),
            Cell::number(format!("{shown_d:.2}%"), "degradation", Some(d[i])),
        ];
        cells.extend(configs[i].iter().map(|(k, v)| Cell::label(v, k, v)));
        cells.push(Cell::number(num(perf[i][0] / 60.0), "avg_wait_s", Some(perf[i][0])));
        cells.push(Cell::number(num(perf[i][1]), "avg_bsld", Some(perf[i][1])));
        t.rows.push(Row { cells, class: String::new(), data: vec![("index".into(), i.to_string())] });
    }
    t
}

impl Study for Sweep {
    fn prefix(&self) -> &'static str {
        "sweep"
    }

    fn fields(&self) -> Vec<Field> {
        let mut bases: Vec<(&str, &str)> = prediction_presets().into_iter().map(|p| (p, p)).collect();
        bases.push((CUSTOM, "custom (the predictor panel)"));
        bases.extend([("slurm", "slurm (Slurm's scheduler on the cluster)"), ("easy-cluster", "easy-cluster")]);
        vec![
            Field::text(
                "axes",
                "sweep",
                "Axes, one per line (KEY=V1,V2; A-B is a range)",
                DEFAULT_TEXT,
                "every combination of the axes' values runs; any option of the base's family or of the trace, engine or metrics",
            )
            .lines(4),
            Field::choose("base", "sweep_base", "Base", DEFAULT_BASE, "the preset each configuration starts from", &bases),
            Field::choose(
                "rows",
                "sweep_rows",
                "Show",
                "20",
                "how many of the ranked configurations the table lists",
                &[("20", "the top 20"), ("all", "every configuration")],
            )
            .view(),
        ]
    }

    fn plan(&self, options: &Options, settings: &[String], _about: &Value) -> Result<Plan, String> {
        let base = options.get("base");
        let (policy, base_settings) = base_run(base, settings)?;
        let axes = axes(options.get("axes"), &policy)?;
        let configs = grid(&axes);
        let n = configs.len();
        if n > MAX_CONFIGS {
            return Err(format!(
                "{n} configurations: more than {MAX_CONFIGS}, narrow the axes (the command line's schedlab sweep runs any grid)"
            ));
        }
        let keys: Vec<&str> = axes.iter().map(|a| a.key.as_str()).collect();
        let tasks = configs
            .iter()
            .map(|c| {
                let mut s = without(&base_settings, &keys);
                s.extend(c.iter().map(|(k, v)| format!("{k}={v}")));
                Task { what: config_text(c), settings: s, input: json!({ "policy": policy }) }
            })
            .collect();
        let what = format!("{n} configuration{} of {base}", if n == 1 { "" } else { "s" });
        Ok(Plan { what, tasks, noun: ("configuration", "configurations"), progressive: false })
    }

    fn run(&self, trace: &Trace, settings: &Settings, input: &Value) -> Result<Value, String> {
        let policy = input.get("policy").and_then(Value::as_str).ok_or("no policy to run")?;
        let cfg = configure(policy, settings).map_err(|e| e.to_string())?.remove(0);
        let (_, res) = run_one(trace, &cfg, settings);
        let m = &res.metrics;
        serde_json::to_value(Run { avg_wait_s: m.avg_wait_s, avg_bsld: m.avg_bsld }).map_err(|e| e.to_string())
    }

    fn report(&self, options: &Options, values: &[Value], _about: &Value) -> Result<Report, String> {
        let base = options.get("base");
        // The keys were checked when the sweep ran; the configurations are the grid's again.
        let axes: Vec<Axis> = options
            .get("axes")
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(|l| Axis::parse(l).map_err(|e| e.to_string()))
            .collect::<Result<_, _>>()?;
        let configs = grid(&axes);
        if values.len() != configs.len() {
            return Err(format!("{} results for {} configurations", values.len(), configs.len()));
        }
        let perf: Vec<Vec<f64>> =
            values.iter().map(|v| read::<Run>(v).map(|r| vec![r.avg_wait_s, r.avg_bsld])).collect::<Result<_, _>>()?;
        let d = degradation(&perf);
        let shown = if options.get("rows") == "all" { configs.len() } else { 20 };
        let mut blocks = vec![Block::Table(ranked(&axes, &configs, &perf, shown))];
        if configs.len() > shown {
            blocks.push(Block::Note {
                id: "sweep-more".into(),
                text: format!("The top {shown} of {}: Show every configuration to list them all.", configs.len()),
            });
        }
        // Fig. 10 by window first, then by each other axis with more than one value.
        let mut by: Vec<&Axis> = axes.iter().filter(|a| a.values.len() > 1).collect();
        by.sort_by_key(|a| a.key != "window");
        for a in by {
            let groups = by_key(&configs, &d, &a.key);
            let fig = if a.key == "window" { " (Fig. 10)" } else { "" };
            let spec = figure(&groups, &a.key, base, format!("Degradation by {}{fig}", a.key));
            let id = if blocks.iter().any(|b| matches!(b, Block::Figure { .. })) {
                format!("chart-sweep-{}", a.key)
            } else {
                "chart-sweep".into()
            };
            blocks.push(Block::figure(&id, &format!("sweep-{}", a.key), spec));
        }
        let best = |t: usize| perf.iter().map(|p| p[t]).fold(f64::INFINITY, f64::min);
        let status = format!(
            "Ranked {} configurations of {base} (run in {{time}}). Test cases: average wait (best {} min) and average bounded slowdown (best {}).",
            configs.len(),
            num(best(0) / 60.0),
            num(best(1))
        );
        Ok(Report { status, blocks })
    }
}

/// A prediction policy's metrics with the name the page shows it by.
#[derive(Deserialize)]
pub struct Ran {
    /// The name.
    pub policy: String,
    /// Its metrics by key, as the page has them (null: not measured).
    pub metrics: Value,
}

/// Percent change from EASY, as in the shaded columns of Tables 2-5 and 10.
fn change(v: f64, easy: f64) -> f64 {
    100.0 * v / easy - 100.0
}

fn signed(c: f64) -> String {
    if c.is_finite() {
        format!("{}{}%", if c < 0.0 { "-" } else { "+" }, c.abs().round())
    } else {
        "—".into()
    }
}

/// A metric's value from its key, as the page's tables read them.
fn metric(m: &Value, key: &str) -> f64 {
    m.get(key).and_then(Value::as_f64).unwrap_or(f64::NAN)
}

/// A metric's definition, for a column's hover text.
fn define(key: &str) -> String {
    crate::metrics::METRIC_DOCS.iter().find(|d| d.key == key).map_or(key.to_string(), |d| {
        if d.unit.is_empty() {
            d.doc.to_string()
        } else {
            format!("{} ({})", d.doc, d.unit)
        }
    })
}

/// A column of a paper's table: the metric's key, the head, and the scale to its unit.
type Column = (&'static str, &'static str, f64);

/// The columns of Table 3.
const TABLE3: [Column; 3] =
    [("avg_wait_s", "wait [min]", 1.0 / 60.0), ("avg_bsld", "b. slowdown", 1.0), ("accuracy_pct", "accuracy [%]", 1.0)];

/// Tables 4, 5 and 10: each a title over its columns.
const PREDICTABILITY: [(&str, &[Column]); 3] = [
    (
        "reservation vs start (Table 4)",
        &[
            ("reserved_pct", "rate [%]", 1.0),
            ("reservation_diff_avg_s", "avg [min]", 1.0 / 60.0),
            ("reservation_diff_median_s", "median [min]", 1.0 / 60.0),
            ("reservation_diff_std_s", "std [min]", 1.0 / 60.0),
        ],
    ),
    (
        "delay past reservation (Table 5)",
        &[
            ("delayed_pct", "rate [%]", 1.0),
            ("delay_avg_s", "avg [min]", 1.0 / 60.0),
            ("delay_median_s", "median [min]", 1.0 / 60.0),
            ("delay_std_s", "std [min]", 1.0 / 60.0),
        ],
    ),
    (
        "heel and toe (Table 10)",
        &[
            ("stalled_pct", "stalled [%]", 1.0),
            ("stall_avg_s", "stall [min]", 1.0 / 60.0),
            ("thieves_avg", "thieves", 1.0),
        ],
    ),
];

fn policy_row(name: &str) -> Row {
    Row { cells: vec![Cell::text(name)], class: String::new(), data: vec![("policy".into(), name.into())] }
}

/// Table 3 (with Table 2's corrections column) and Tables 4, 5 and 10 of the prediction
/// policies that ran, in the order given, each value beside its change relative to EASY; and the
/// sentence to show above Table 3.
pub fn prediction_tables(runs: &[Ran]) -> (String, Table, Table) {
    let easy = runs.iter().find(|r| r.policy == "easy").map(|r| &r.metrics);
    let vs = if easy.is_some() {
        "change relative to EASY (negative is better for wait and slowdown, positive for accuracy)"
    } else {
        "needs easy to have run"
    };
    let mut head = vec![Cell::text("policy").title("prediction presets that ran, and the custom configuration")];
    for (key, text, _) in TABLE3 {
        head.push(Cell::text(text).title(define(key)));
        head.push(Cell::text("vs EASY").title(vs));
    }
    head.push(Cell::text("corrections [±σ]").title(format!("{}, ± its standard deviation", define("corrections_avg"))));
    let mut t3 = Table { id: "table3".into(), class: "paper".into(), head: vec![head], ..Table::default() };
    for r in runs {
        let m = &r.metrics;
        let mut row = policy_row(&r.policy);
        for (key, _, scale) in TABLE3 {
            let v = metric(m, key);
            row.cells.push(Cell::number(num(v * scale), key, Some(v)));
            match easy.filter(|_| r.policy != "easy") {
                Some(e) => {
                    let c = change(v, metric(e, key));
                    let class = if c == 0.0 {
                        ""
                    } else if (key == "accuracy_pct") == (c > 0.0) {
                        "better"
                    } else {
                        "worse"
                    };
                    row.cells.push(
                        Cell::number(signed(c), format!("{key}:change"), Some(c))
                            .title(format!("{c:.2}%"))
                            .class(class),
                    );
                }
                None => row.cells.push(Cell::text("")),
            }
        }
        let (avg, std) = (metric(m, "corrections_avg"), metric(m, "corrections_std"));
        let text = if avg.is_finite() { format!("{avg:.2} ± {std:.2}") } else { "—".into() };
        row.cells.push(Cell::number(text, "corrections_avg", Some(avg)));
        t3.rows.push(row);
    }
    let note = match (runs.is_empty(), easy.is_some()) {
        (true, _) => "Run prediction presets (for example easy, easy+ and easy++) to fill this table.",
        (false, true) => "Changes are relative to EASY, as in the paper's shaded columns.",
        (false, false) => "Run easy too to see the changes relative to EASY.",
    };
    let mut top = vec![Cell::text("")];
    let mut below = vec![Cell::text("policy")];
    for (title, cols) in PREDICTABILITY {
        top.push(Cell::text(title).span(1, cols.len() as u32));
        below.extend(cols.iter().map(|(key, text, _)| Cell::text(*text).title(define(key))));
    }
    let mut tp =
        Table { id: "predictability".into(), class: "paper".into(), head: vec![top, below], ..Table::default() };
    for r in runs {
        let mut row = policy_row(&r.policy);
        for (_, cols) in PREDICTABILITY {
            for (key, _, scale) in cols {
                let v = metric(&r.metrics, key);
                let mut cell = Cell::number(num(v * scale), *key, Some(v));
                if let Some(e) = easy.filter(|e| r.policy != "easy" && metric(e, key) > 0.0) {
                    cell = cell.aside(signed(change(v, metric(e, key)))).title("change relative to EASY");
                }
                row.cells.push(cell);
            }
        }
        tp.rows.push(row);
    }
    (note.into(), t3, tp)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::studies::sweep::DEFAULT_AXES;

    #[test]
    fn default_axes_are_the_command_lines() {
        assert_eq!(DEFAULT_TEXT, DEFAULT_AXES.join("\n"));
    }

    #[test]
    fn axes_are_checked_against_the_base_and_named_by_line() {
        assert_eq!(axes("window=1-3\n\nmetric=avg,med", "easy++").map(|a| grid(&a).len()), Ok(6));
        assert_eq!(axes("windw=1-3", "easy++").unwrap_err(), "line 1: no option is called windw");
        assert_eq!(axes("window=1\n# note\nwindow=2", "easy++").unwrap_err(), "line 3: window is already an axis");
        assert!(axes("# nothing", "easy++").is_err());
        // A trace option is an axis of any base.
        assert!(axes("load=0.8,0.9", "easy").is_ok());
    }

    #[test]
    fn custom_runs_the_panels_base_with_its_values() {
        let s: Vec<String> =
            ["budget_s=5", "custom:base=easy+", "custom:window=3"].iter().map(|s| s.to_string()).collect();
        assert_eq!(base_run("easy++", &s), Ok(("easy++".into(), vec!["budget_s=5".into()])));
        assert_eq!(base_run(CUSTOM, &s), Ok(("easy+".into(), vec!["budget_s=5".into(), "window=3".into()])));
        assert!(base_run("fcfs", &s).is_err());
        let plan = Sweep.plan(&Options::of(&Sweep, &["axes=window=1-2", "base=custom"]), &s, &Value::Null).unwrap();
        assert_eq!(plan.what, "2 configurations of custom");
        assert_eq!(plan.tasks[1].settings, vec!["budget_s=5", "window=2"]);
        assert_eq!(plan.tasks[1].input, json!({"policy": "easy+"}));
    }

    #[test]
    fn ties_share_a_rank_and_the_table_lists_the_top() {
        let axes = vec![Axis::parse("window=1-3").unwrap()];
        let configs = grid(&axes);
        let perf = vec![vec![2.0, 2.0], vec![1.0, 1.0], vec![2.0, 2.0]];
        let t = ranked(&axes, &configs, &perf, 2);
        assert_eq!(t.rows.len(), 2);
        let ranks: Vec<&str> = t.rows.iter().map(|r| r.cells[0].text.as_str()).collect();
        assert_eq!(ranks, ["1", "2/3"]);
        assert_eq!(t.rows[1].cells[1].text, "100.00%");
        assert_eq!(t.rows[1].data, vec![("index".to_string(), "0".to_string())]);
    }
}
