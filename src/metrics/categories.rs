//! Job categories by length and width, as the papers tabulate them: the trace's shape
//! (Leung et al. Tables I-II: 11 width x 6 length classes, jobs and processor-hours) and
//! per-category bounded slowdown and turnaround (Kettimuthu et al. Table 2.1: 4 x 4 classes;
//! Table 4.1: 2 x 2 for the load study).
//!
//! Leung et al.'s classes are half-open on the length axis (a job of exactly one hour is in
//! "1-8 h"); Kettimuthu et al.'s are closed above (a job of exactly ten minutes is very short).

use serde::{Deserialize, Serialize};

use super::Record;
use crate::trace::Trace;

/// A table of values by length class (rows) and width class (columns).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Grid {
    /// What the cells hold.
    pub title: String,
    /// Length class labels, top to bottom.
    pub rows: Vec<String>,
    /// Width class labels, left to right.
    pub cols: Vec<String>,
    /// Jobs per cell.
    pub count: Vec<Vec<u64>>,
    /// The cell value (processor-hours, or mean bounded slowdown; 0 for an empty cell).
    pub value: Vec<Vec<f64>>,
}

/// Upper bounds (exclusive) of Leung et al.'s length classes, in seconds; the last is open.
const LEUNG_LENGTHS: [(i64, &str); 6] = [
    (3600, "0-60 min"),
    (8 * 3600, "1-8 h"),
    (16 * 3600, "8-16 h"),
    (24 * 3600, "16-24 h"),
    (48 * 3600, "1-2 d"),
    (i64::MAX, "2+ d"),
];
/// Upper bounds (inclusive) of Leung et al.'s width classes; the last is open.
const LEUNG_WIDTHS: [(u32, &str); 11] = [
    (1, "1"),
    (2, "2"),
    (4, "3-4"),
    (8, "5-8"),
    (16, "9-16"),
    (32, "17-32"),
    (64, "33-64"),
    (128, "65-128"),
    (256, "129-256"),
    (512, "257-512"),
    (u32::MAX, "513+"),
];
/// Kettimuthu et al.'s length classes (inclusive upper bounds, seconds: a job of exactly ten
/// minutes is very short).
const KETTIMUTHU_LENGTHS: [(i64, &str); 4] =
    [(600, "VS <=10 min"), (3600, "S <=1 h"), (8 * 3600, "L <=8 h"), (i64::MAX, "VL >8 h")];
/// Kettimuthu et al.'s width classes (inclusive upper bounds).
const KETTIMUTHU_WIDTHS: [(u32, &str); 4] = [(1, "Seq 1"), (8, "N 2-8"), (32, "W 9-32"), (u32::MAX, "VW >32")];

fn length_class(bounds: &[(i64, &str)], runtime: i64) -> usize {
    bounds.iter().position(|&(b, _)| runtime < b).unwrap_or(bounds.len() - 1)
}

/// Kettimuthu et al.'s Table 2.1 cell (length row, width column) of a job of `runtime`
/// seconds on `procs` processors.
pub fn kettimuthu_cell(runtime: i64, procs: u32) -> (usize, usize) {
    let row = KETTIMUTHU_LENGTHS.iter().position(|&(b, _)| runtime <= b).unwrap_or(3);
    (row, width_class(&KETTIMUTHU_WIDTHS, procs))
}

/// Leung et al.'s width class (0-10: 1, 2, 3-4, ..., 513+) of a job on `procs` processors.
pub fn leung_width(procs: u32) -> usize {
    width_class(&LEUNG_WIDTHS, procs)
}

/// The labels of Leung et al.'s eleven width classes.
pub fn leung_width_labels() -> Vec<&'static str> {
    LEUNG_WIDTHS.iter().map(|x| x.1).collect()
}

fn width_class(bounds: &[(u32, &str)], procs: u32) -> usize {
    bounds.iter().position(|&(b, _)| procs <= b).unwrap_or(bounds.len() - 1)
}

fn empty(title: &str, rows: &[&str], cols: &[&str]) -> Grid {
    Grid {
        title: title.to_string(),
        rows: rows.iter().map(|s| s.to_string()).collect(),
        cols: cols.iter().map(|s| s.to_string()).collect(),
        count: vec![vec![0; cols.len()]; rows.len()],
        value: vec![vec![0.0; cols.len()]; rows.len()],
    }
}

/// The trace's jobs and processor-hours by Leung et al.'s length and width classes.
pub fn shape(trace: &Trace) -> Grid {
    let rows: Vec<&str> = LEUNG_LENGTHS.iter().map(|x| x.1).collect();
    let cols: Vec<&str> = LEUNG_WIDTHS.iter().map(|x| x.1).collect();
    let mut g = empty("processor-hours", &rows, &cols);
    for j in &trace.jobs {
        let (r, c) = (length_class(&LEUNG_LENGTHS, j.runtime), width_class(&LEUNG_WIDTHS, j.procs));
        g.count[r][c] += 1;
        g.value[r][c] += j.procs as f64 * j.runtime as f64 / 3600.0;
    }
    g
}

/// Mean bounded slowdown (threshold `tau`) of finished jobs by Kettimuthu et al.'s 16 categories.
pub fn bsld_by_category(recs: &[Record], tau: i64) -> Grid {
    let t = kettimuthu_table(recs, tau, Classes::Sixteen, Estimates::All);
    Grid { title: "mean bounded slowdown".to_string(), rows: t.rows, cols: t.cols, count: t.count, value: t.avg_bsld }
}

/// The category schemes of Kettimuthu et al.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Classes {
    /// Table 2.1: very short / short / long / very long x sequential / narrow / wide / very wide.
    Sixteen,
    /// Table 4.1 (load study): short (<= 1 h) / long x narrow (<= 8) / wide.
    Four,
}

/// Which jobs a table covers: all, or one side of chapter 4's split by estimate quality.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Estimates {
    /// Every finished job.
    All,
    /// Well estimated: estimate <= 2 x runtime.
    Well,
    /// Poorly estimated: estimate > 2 x runtime.
    Poor,
}

impl Estimates {
    /// Whether a job with this `estimate` and `runtime` belongs.
    pub fn covers(self, estimate: i64, runtime: i64) -> bool {
        match self {
            Estimates::All => true,
            Estimates::Well => estimate <= 2 * runtime,
            Estimates::Poor => estimate > 2 * runtime,
        }
    }
}

/// Per-category averages and worst cases of bounded slowdown and turnaround (Kettimuthu et
/// al. Figs. 3.1-3.6 and 4.1-4.13), by actual runtime and processors.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct CategoryTable {
    /// Length class labels, top to bottom.
    pub rows: Vec<String>,
    /// Width class labels, left to right.
    pub cols: Vec<String>,
    /// Finished jobs per cell.
    pub count: Vec<Vec<u64>>,
    /// Percent of the table's jobs per cell (Table 2.2).
    pub share_pct: Vec<Vec<f64>>,
    /// Mean bounded slowdown (0 for an empty cell).
    pub avg_bsld: Vec<Vec<f64>>,
    /// Largest bounded slowdown.
    pub max_bsld: Vec<Vec<f64>>,
    /// Mean turnaround (response) time, seconds.
    pub avg_turnaround_s: Vec<Vec<f64>>,
    /// Longest turnaround time, seconds.
    pub max_turnaround_s: Vec<Vec<f64>>,
}

/// The Table 4.1 cell of a job: (short <= 1 h or long, narrow <= 8 processors or wide).
pub fn four_cell(runtime: i64, procs: u32) -> (usize, usize) {
    (usize::from(runtime > 3600), usize::from(procs > 8))
}

/// Kettimuthu et al.'s category table of the finished jobs in `recs` that `estimates` covers.
pub fn kettimuthu_table(recs: &[Record], tau: i64, classes: Classes, estimates: Estimates) -> CategoryTable {
    let (rows, cols): (Vec<&str>, Vec<&str>) = match classes {
        Classes::Sixteen => {
            (KETTIMUTHU_LENGTHS.iter().map(|x| x.1).collect(), KETTIMUTHU_WIDTHS.iter().map(|x| x.1).collect())
        }
        Classes::Four => (vec!["S <=1 h", "L >1 h"], vec!["N <=8", "W >8"]),
    };
    let cell = |r: &Record| match classes {
        Classes::Sixteen => kettimuthu_cell(r.runtime, r.procs),
        Classes::Four => four_cell(r.runtime, r.procs),
    };
    let grid = |v: f64| vec![vec![v; cols.len()]; rows.len()];
    let mut t = CategoryTable {
        rows: rows.iter().map(|s| s.to_string()).collect(),
        cols: cols.iter().map(|s| s.to_string()).collect(),
        count: vec![vec![0; cols.len()]; rows.len()],
        share_pct: grid(0.0),
        avg_bsld: grid(0.0),
        max_bsld: grid(0.0),
        avg_turnaround_s: grid(0.0),
        max_turnaround_s: grid(0.0),
    };
    let mut total = 0u64;
    for rec in recs.iter().filter(|r| r.end >= 0 && estimates.covers(r.estimate, r.runtime)) {
        let (r, c) = cell(rec);
        let (b, resp) = (rec.bsld(tau), rec.response() as f64);
        t.count[r][c] += 1;
        t.avg_bsld[r][c] += b;
        t.max_bsld[r][c] = t.max_bsld[r][c].max(b);
        t.avg_turnaround_s[r][c] += resp;
        t.max_turnaround_s[r][c] = t.max_turnaround_s[r][c].max(resp);
        total += 1;
    }
    for r in 0..rows.len() {
        for c in 0..cols.len() {
            let n = t.count[r][c];
            if n > 0 {
                t.avg_bsld[r][c] /= n as f64;
                t.avg_turnaround_s[r][c] /= n as f64;
                t.share_pct[r][c] = 100.0 * n as f64 / total as f64;
            }
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(runtime: i64, procs: u32, wait: i64) -> Record {
        Record {
            job_id: 1,
            submit: 0,
            start: wait,
            end: wait + runtime,
            procs,
            runtime,
            estimate: runtime,
            user: 1,
            queue: 1,
            backfilled: false,
            requested: -1,
            killed_s: 0,
            low_priority: false,
            suspensions: 0,
            overhead_s: 0,
        }
    }

    #[test]
    fn classes_follow_the_papers_bounds() {
        assert_eq!(length_class(&LEUNG_LENGTHS, 3599), 0);
        assert_eq!(length_class(&LEUNG_LENGTHS, 3600), 1);
        assert_eq!(length_class(&LEUNG_LENGTHS, 48 * 3600), 5);
        assert_eq!(width_class(&LEUNG_WIDTHS, 3), 2);
        assert_eq!(width_class(&LEUNG_WIDTHS, 4), 2);
        assert_eq!(width_class(&LEUNG_WIDTHS, 513), 10);
        assert_eq!(width_class(&KETTIMUTHU_WIDTHS, 33), 3);
    }

    #[test]
    fn kettimuthu_bounds_are_inclusive() {
        assert_eq!(kettimuthu_cell(600, 1), (0, 0));
        assert_eq!(kettimuthu_cell(601, 2), (1, 1));
        assert_eq!(kettimuthu_cell(3600, 8), (1, 1));
        assert_eq!(kettimuthu_cell(8 * 3600, 9), (2, 2));
        assert_eq!(kettimuthu_cell(8 * 3600 + 1, 33), (3, 3));
        assert_eq!(four_cell(3600, 8), (0, 0));
        assert_eq!(four_cell(3601, 9), (1, 1));
    }

    #[test]
    fn tables_split_by_estimate_quality() {
        // Runtime 100 with estimates 200 (well) and 201 (poor); waits 0 and 100.
        let mut a = rec(100, 1, 0);
        a.estimate = 200;
        let mut b = rec(100, 1, 100);
        b.estimate = 201;
        let all = kettimuthu_table(&[a, b], 10, Classes::Sixteen, Estimates::All);
        assert_eq!(all.count[0][0], 2);
        assert_eq!((all.avg_bsld[0][0], all.max_bsld[0][0]), (1.5, 2.0));
        assert_eq!((all.avg_turnaround_s[0][0], all.max_turnaround_s[0][0]), (150.0, 200.0));
        assert_eq!(all.share_pct[0][0], 100.0);
        let well = kettimuthu_table(&[a, b], 10, Classes::Sixteen, Estimates::Well);
        assert_eq!((well.count[0][0], well.max_bsld[0][0]), (1, 1.0));
        let poor = kettimuthu_table(&[a, b], 10, Classes::Four, Estimates::Poor);
        assert_eq!((poor.count[0][0], poor.avg_bsld[0][0]), (1, 2.0));
    }

    #[test]
    fn bsld_is_averaged_per_category() {
        // Two very short sequential jobs (bsld 1 and 3) and one long very wide job (bsld 1.5).
        let recs = [rec(100, 1, 0), rec(100, 1, 200), rec(4 * 3600, 64, 2 * 3600)];
        let g = bsld_by_category(&recs, 10);
        assert_eq!(g.count[0][0], 2);
        assert!((g.value[0][0] - 2.0).abs() < 1e-12);
        assert_eq!(g.count[2][3], 1);
        assert!((g.value[2][3] - 1.5).abs() < 1e-12);
        assert_eq!(g.count.iter().flatten().sum::<u64>(), 3);
    }
}
