//! `--plot DIR`: the page's charts written as SVG and PNG files, from the same chart code.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::OnceLock;

use schedlab::render::chart::{Chart, ChartOptions};
use schedlab::render::compare::{compare_chart, fitted, CompareChart, RunView, MAIN_METRICS};
use schedlab::render::gantt::{gantt_png, gantt_svg, picture_window, Gantt};
use schedlab::render::generic::{grouped_bars, lines, Labels, Series};

use crate::{fail, usage, Fail};

/// Size of the native pictures, in pixels.
pub const WIDTH: u32 = 800;
/// Height of the native pictures.
pub const HEIGHT: u32 = 450;

/// A policy name as a file name: letters, digits, `.`, `_`, `+` and `-` are kept, anything
/// else (a `/`, a space) becomes `_`, so `easy++` stays `easy++`.
pub fn file_name(policy: &str) -> String {
    let s: String = policy
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '+' | '-') { c } else { '_' })
        .collect();
    if s.is_empty() || s.starts_with('.') {
        format!("_{s}")
    } else {
        s
    }
}

/// The pictures' size when `--plot-size WxH` gave one (the default is WIDTH x HEIGHT).
static SIZE: OnceLock<(u32, u32)> = OnceLock::new();

/// Sets the pictures' size for the whole run (`--plot-size WxH`), e.g. the size of a chart in
/// the page, whose picture is then the same to the byte.
pub fn set_size(text: &str) -> Result<(), Fail> {
    let size = text
        .split_once(['x', 'X'])
        .and_then(|(w, h)| Some((w.trim().parse::<u32>().ok()?, h.trim().parse::<u32>().ok()?)))
        .filter(|&(w, h)| (160..=8000).contains(&w) && (120..=8000).contains(&h))
        .ok_or_else(|| {
            usage(format!("--plot-size {text}: expected WIDTHxHEIGHT in pixels, e.g. 800x450 (160x120 to 8000x8000)"))
        })?;
    let _ = SIZE.set(size);
    Ok(())
}

/// Options of the native pictures: their size, compact below 480 pixels wide as in the page,
/// date labels when the trace has a start time.
pub fn options(unix_start: Option<i64>) -> ChartOptions {
    let (width, height) = SIZE.get().copied().unwrap_or((WIDTH, HEIGHT));
    ChartOptions::picture(width, height, unix_start)
}

/// Where pictures go: creates the directory and writes files, telling each path on stderr.
/// `hashes.json` maps each chart to its display list's hash, which the page shows on its
/// canvas as `data-hash` for the same chart.
pub struct Out {
    dir: PathBuf,
    hashes: RefCell<BTreeMap<String, String>>,
}

impl Out {
    /// Creates `dir` (and its parents) if needed.
    pub fn new(dir: &str) -> Result<Out, Fail> {
        std::fs::create_dir_all(dir).map_err(|e| fail(format!("--plot: cannot create {dir}: {e}")))?;
        Ok(Out { dir: PathBuf::from(dir), hashes: RefCell::default() })
    }

    fn write(&self, name: &str, bytes: &[u8]) -> Result<(), Fail> {
        let path = self.dir.join(name);
        std::fs::write(&path, bytes).map_err(|e| fail(format!("cannot write {}: {e}", path.display())))?;
        eprintln!("schedlab: wrote {}", path.display());
        Ok(())
    }

    /// Writes `stem.svg` and `stem.png`.
    pub fn chart(&self, stem: &str, chart: &Chart) -> Result<(), Fail> {
        self.write(&format!("{stem}.svg"), chart.svg().as_bytes())?;
        self.write(&format!("{stem}.png"), &chart.png(1))?;
        self.hashes.borrow_mut().insert(stem.to_string(), chart.hash());
        let json = serde_json::to_string_pretty(&*self.hashes.borrow()).unwrap_or_default();
        let path = self.dir.join("hashes.json");
        std::fs::write(&path, json + "\n").map_err(|e| fail(format!("cannot write {}: {e}", path.display())))
    }
}

/// Writes the compare charts of `views`, and each run's categories, accuracy and Gantt chart.
pub fn run_plots(
    out: &Out,
    views: &[RunView],
    gantts: &[(String, Gantt)],
    unix_start: Option<i64>,
) -> Result<(), Fail> {
    let opts = options(unix_start);
    // As the page draws them: taller than the default when many runs need the room.
    let chart = |which: CompareChart| compare_chart(views, &which, &fitted(views, &which, &opts)).map_err(fail);
    for m in MAIN_METRICS {
        out.chart(&format!("compare-{m}"), &chart(CompareChart::MetricBars { metric: m.to_string() })?)?;
    }
    out.chart("wait-cdf", &chart(CompareChart::WaitCdf)?)?;
    out.chart("busy", &chart(CompareChart::Busy)?)?;
    out.chart("queue", &chart(CompareChart::Queue)?)?;
    // GPUs and memory in use, when the trace's jobs hold them (an accounting log's AllocTRES).
    for (name, which) in [("gpus", CompareChart::Gpus), ("memory", CompareChart::Memory)] {
        if let Ok(c) = compare_chart(views, &which, &fitted(views, &which, &opts)) {
            out.chart(name, &c)?;
        }
    }
    for (i, v) in views.iter().enumerate() {
        out.chart(&format!("categories-{}", file_name(&v.policy)), &chart(CompareChart::Categories { run: i })?)?;
        out.chart(&format!("accuracy-{}", file_name(&v.policy)), &chart(CompareChart::Accuracy { run: i })?)?;
    }
    let pictured: Vec<&Gantt> = gantts.iter().map(|(_, g)| g).collect();
    let (window, what) = picture_window(views, &pictured);
    let gopts = ChartOptions { x_range: window, ..opts.clone() };
    for (policy, g) in gantts {
        let title = format!("{policy}: {what}");
        let stem = format!("gantt-{}", file_name(policy));
        out.write(&format!("{stem}.svg"), gantt_svg(g, &title, &gopts).as_bytes())?;
        out.write(&format!("{stem}.png"), &gantt_png(g, &title, &gopts, 1))?;
    }
    Ok(())
}

/// Writes a grouped bar chart of a study as `stem.svg` and `stem.png`.
pub fn bars(out: &Out, stem: &str, labels: &Labels, categories: &[String], series: &[Series]) -> Result<(), Fail> {
    out.chart(stem, &grouped_bars(labels, categories, series, &options(None)).map_err(fail)?)
}

/// Writes a line chart of a study as `stem.svg` and `stem.png`.
pub fn xy(out: &Out, stem: &str, labels: &Labels, xs: &[f64], series: &[Series]) -> Result<(), Fail> {
    out.chart(stem, &lines(labels, xs, series, &options(None)).map_err(fail)?)
}

/// Whether values spread over more than a decade and a half, so a log axis reads better.
pub fn wide(series: &[Series]) -> bool {
    let v = series.iter().flat_map(|s| s.values.iter().flatten()).copied().filter(|v| *v > 0.0);
    let (lo, hi) = v.fold((f64::INFINITY, 0.0f64), |(a, b), x| (a.min(x), b.max(x)));
    hi > 0.0 && hi / lo > 30.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_keep_policy_names_readable() {
        assert_eq!(file_name("easy++"), "easy++");
        assert_eq!(file_name("sjbf/x y"), "sjbf_x_y");
        assert_eq!(file_name(".."), "_..");
    }
}
