//! Job categories by length and width, as the papers tabulate them: the trace's shape
//! (Leung et al. Tables I-II: 11 width x 6 length classes, jobs and processor-hours) and
//! per-category bounded slowdown (Kettimuthu et al. Table 2.1: 4 x 4 classes).
//!
//! Classes are half-open on the length axis: a job of exactly one hour is in "1-8 h".

use serde::Serialize;

use super::Record;
use crate::trace::Trace;

/// A table of values by length class (rows) and width class (columns).
#[derive(Debug, Clone, PartialEq, Serialize)]
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
/// Kettimuthu et al.'s length classes (exclusive upper bounds, seconds).
const KETTIMUTHU_LENGTHS: [(i64, &str); 4] =
    [(600, "VS 0-10 min"), (3600, "S 10 min-1 h"), (8 * 3600, "L 1-8 h"), (i64::MAX, "VL >8 h")];
/// Kettimuthu et al.'s width classes (inclusive upper bounds).
const KETTIMUTHU_WIDTHS: [(u32, &str); 4] = [(1, "Seq 1"), (8, "N 2-8"), (32, "W 9-32"), (u32::MAX, "VW >32")];

fn length_class(bounds: &[(i64, &str)], runtime: i64) -> usize {
    bounds.iter().position(|&(b, _)| runtime < b).unwrap_or(bounds.len() - 1)
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
    let rows: Vec<&str> = KETTIMUTHU_LENGTHS.iter().map(|x| x.1).collect();
    let cols: Vec<&str> = KETTIMUTHU_WIDTHS.iter().map(|x| x.1).collect();
    let mut g = empty("mean bounded slowdown", &rows, &cols);
    for rec in recs.iter().filter(|r| r.end >= 0) {
        let (r, c) = (length_class(&KETTIMUTHU_LENGTHS, rec.runtime), width_class(&KETTIMUTHU_WIDTHS, rec.procs));
        g.count[r][c] += 1;
        g.value[r][c] += rec.bsld(tau);
    }
    for (vals, counts) in g.value.iter_mut().zip(&g.count) {
        for (v, &n) in vals.iter_mut().zip(counts) {
            if n > 0 {
                *v /= n as f64;
            }
        }
    }
    g
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
