//! The Compare view's tables: the leaderboard (the runs by mean bounded slowdown, with the main
//! metrics and what the answer says of each) and every metric of every run, sorted as asked.
//! Their figures are written as the charts write them, so one quantity reads the same in both,
//! on the bars and in the answer.

use std::collections::BTreeMap;

use crate::metrics::METRIC_DOCS;
use crate::render::answer::answer;
use crate::render::chart::run_colours;
use crate::render::compare::{fmt_value, metric_info, RunView};
use crate::render::table::{Cell, Row, Table};

/// The leaderboard's columns: the main metrics, lower is better but for utilization.
pub const BOARD: [(&str, &str); 5] = [
    ("avg_bsld", "mean bounded slowdown"),
    ("avg_wait_s", "mean wait"),
    ("max_wait_s", "longest wait"),
    ("p95_wait_s", "95th percentile wait"),
    ("utilization", "utilization"),
];

/// The order of the table of every metric: by `key`, ascending when `dir` is 1, descending when
/// it is -1; a figure that was not measured comes last either way.
#[derive(Debug, Clone)]
pub struct Sort {
    /// The metric.
    pub key: String,
    /// 1 or -1.
    pub dir: i8,
}

/// A metric's meaning on hover: its definition and unit.
pub fn define(key: &str) -> String {
    match METRIC_DOCS.iter().find(|m| m.key == key) {
        Some(m) if m.unit.is_empty() => m.doc.to_string(),
        Some(m) => format!("{} ({})", m.doc, m.unit),
        None => key.to_string(),
    }
}

/// A run's figure of `key`, if it was measured.
fn value(r: &RunView, key: &str) -> Option<f64> {
    r.metrics.get(key).copied().flatten().filter(|v| v.is_finite())
}

/// A metric's cell: its text as every chart writes it, its key and its exact value.
fn metric_cell(r: &RunView, key: &str) -> Cell {
    let v = value(r, key);
    let text = v.map_or("–".to_string(), |v| fmt_value(metric_info(key).unit, v));
    let cell = Cell::number(text, key, v);
    if v.is_none() {
        cell.title("not measured")
    } else {
        cell
    }
}

/// The positions of `runs` sorted by `key`, lowest first (or highest, `dir` -1), unmeasured
/// last; ties keep their order.
fn sorted(runs: &[RunView], key: &str, dir: i8) -> Vec<usize> {
    let mut out: Vec<usize> = (0..runs.len()).collect();
    crate::sorting::by_key(&mut out, |&i| match value(&runs[i], key) {
        Some(v) if dir < 0 => (0, !crate::sorting::float(v)),
        Some(v) => (0, crate::sorting::float(v)),
        None => (1, 0),
    });
    out
}

/// The leaderboard of `runs`: ranked by mean bounded slowdown, each with its colour in the
/// charts, the answer's flags (a bound, a policy that starves jobs) and the main metrics.
pub fn leaderboard(runs: &[RunView]) -> Table {
    let flags = answer(runs, &[]).flags;
    let names: Vec<&str> = runs.iter().map(|r| r.policy.as_str()).collect();
    let colours = run_colours(&names);
    let mut head = vec![Cell::text(""), Cell::text("policy").title("in order of mean bounded slowdown, lowest first")];
    head.extend(BOARD.iter().map(|(k, label)| Cell::text(*label).title(define(k))));
    let rows = sorted(runs, "avg_bsld", 1)
        .into_iter()
        .enumerate()
        .map(|(i, at)| {
            let r = &runs[at];
            let policy = &r.policy;
            let colour = colours[at];
            let stopped = if r.stopped.is_some() { " (stopped)" } else { "" };
            let mut name = Cell::text(format!("{policy}{stopped}")).class("name").colour(colour);
            let flagged = flags.get(policy).cloned().unwrap_or_default();
            for flag in &flagged {
                name = match *flag {
                    "bound" => name.tag(
                        "tag bound",
                        "bound",
                        "knows every job's true runtime: a bound to measure against, not a choice",
                    ),
                    _ => name.tag(
                        "tag starves",
                        "starves jobs",
                        "its worst case is far beyond the other policies': see the warning above",
                    ),
                };
            }
            let mut cells = vec![Cell::text((i + 1).to_string()), name];
            for (k, _) in BOARD {
                let cell = metric_cell(r, k);
                cells.push(if k == "max_wait_s" && flagged.contains(&"starves") {
                    cell.class("flagged")
                } else {
                    cell
                });
            }
            let class = if i == 0 { "best" } else { "" };
            Row { cells, class: class.into(), data: vec![("policy".into(), policy.clone())] }
        })
        .collect();
    Table { id: "leaderboard".into(), class: String::new(), head: vec![head], rows, data: Vec::new() }
}

/// Every metric of every run, sorted by `sort`; each row with a button for its schedule, its
/// schedule's hash (`hashes`) and the memory its engine held in bytes (`memory`, 0: unknown).
pub fn metrics_table(runs: &[RunView], hashes: &[String], memory: &[f64], sort: &Sort) -> Table {
    let mut head = vec![Cell::text("policy"), Cell::text("schedule").title("each job's submit, start and end as CSV")];
    head.extend(METRIC_DOCS.iter().map(|m| Cell { key: Some(m.key.into()), ..Cell::text(m.key).title(define(m.key)) }));
    let rows = sorted(runs, &sort.key, sort.dir)
        .into_iter()
        .map(|at| {
            let v = &runs[at];
            let mut name = Cell::text(&v.policy);
            let hash = hashes.get(at).cloned().unwrap_or_default();
            let mut data = vec![("policy".to_string(), v.policy.clone()), ("hash".to_string(), hash)];
            if let Some(m) = memory.get(at).filter(|m| **m > 0.0) {
                data.push(("wasmMemory".into(), m.to_string()));
            }
            if let Some(why) = &v.stopped {
                // Statistics over the jobs finished when the time budget ran out.
                name = name.tag("badge stopped", "stopped", why).tag("why", why, "");
                data.push(("stopped".into(), why.clone()));
            }
            let csv = Cell { button: v.policy.clone(), ..Cell::text("CSV") };
            let mut cells = vec![name, csv];
            cells.extend(METRIC_DOCS.iter().map(|m| metric_cell(v, m.key)));
            let class = if v.stopped.is_some() { "partial" } else { "" };
            Row { cells, class: class.into(), data }
        })
        .collect();
    let data = vec![("sort".into(), format!("{}:{}", sort.key, sort.dir))];
    Table { id: "results".into(), class: String::new(), head: vec![head], rows, data }
}

/// Both tables of `runs`, for the page: `{board, table}`.
pub fn compare_tables(
    runs: &[RunView],
    hashes: &[String],
    memory: &[f64],
    sort: &Sort,
) -> BTreeMap<&'static str, Table> {
    BTreeMap::from([("board", leaderboard(runs)), ("table", metrics_table(runs, hashes, memory, sort))])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(policy: &str, bsld: Option<f64>, wait: f64) -> RunView {
        let metrics = BTreeMap::from([("avg_bsld".to_string(), bsld), ("avg_wait_s".to_string(), Some(wait))]);
        RunView { policy: policy.into(), metrics, ..RunView::default() }
    }

    #[test]
    fn the_board_ranks_by_bounded_slowdown_and_the_table_sorts_either_way() {
        let runs = [run("fcfs", Some(9.0), 7200.0), run("easy", Some(3.0), 600.0), run("x", None, 60.0)];
        let board = leaderboard(&runs);
        let order: Vec<&str> = board.rows.iter().map(|r| r.data[0].1.as_str()).collect();
        assert_eq!(order, ["easy", "fcfs", "x"], "unmeasured last");
        assert_eq!(board.rows[0].class, "best");
        // The mean wait as every chart writes it.
        assert_eq!(board.rows[1].cells[3].text, fmt_value(metric_info("avg_wait_s").unit, 7200.0));
        assert_eq!(board.rows[2].cells[2].text, "–");
        let down = metrics_table(&runs, &[], &[], &Sort { key: "avg_bsld".into(), dir: -1 });
        let order: Vec<&str> = down.rows.iter().map(|r| r.data[0].1.as_str()).collect();
        assert_eq!(order, ["fcfs", "easy", "x"], "unmeasured last either way");
        assert_eq!(down.rows[0].cells[1].button, "fcfs");
    }
}
