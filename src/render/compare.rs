//! The charts that compare policies' runs of one trace: a metric per run, the distribution of
//! waits, busy processors and queue length over time, and one run's bounded slowdown by job
//! category and prediction accuracy.
//!
//! Run `i` is drawn in [`palette`](super::chart::palette)`(i)` in every chart, so a policy keeps its colour across
//! the page and the CLI's pictures.

use std::collections::BTreeMap;

use plotters::coord::combinators::IntoLogRange;
use plotters::coord::ranged1d::Ranged;
use plotters::coord::Shift;
use plotters::drawing::DrawingArea;
use plotters::element::{PathElement, Rectangle, Text};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{Color, RGBColor};
use serde::{Deserialize, Serialize};

use super::axis::{
    count_ticks, duration_unit, fmt_duration, fmt_number, fmt_tick, fmt_time, linear_ticks, nice_max, time_axis_name,
    time_ticks, wait_ticks, whole_or_number, Tick,
};
use super::chart::{
    cartesian, fit, frame_height, frame_plot_height, label_style, nothing_below, policy_colour, rgba, run_colours,
    series_colour, y_label_width, AxisSpec, Chart, ChartOptions, Ctx, Frame, Hit, LegendEntry, Sizes, Table, INK,
};
use super::display::{text_size, Colour, Recorder};
use super::generic::draw_text;
use super::generic::heatmap::ramp;
use super::line_labels;
use super::multiples::{self, Line, Scale};
use crate::engine::Outcome;
use crate::metrics::categories::{bsld_by_category, Grid};
use crate::metrics::SeriesPoint;
use crate::metrics::{compress, records, AccuracyHistogram};
use crate::policy::is_clairvoyant;
use crate::run::PolicyResult;
use crate::trace::{RuntimeSource, Trace, TraceReport};

/// What the charts need of one policy's run (built natively by the CLI, in wasm by the page's
/// worker; crosses the wasm boundary through serde).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunView {
    /// The policy's name.
    pub policy: String,
    /// Every numeric field of [`crate::metrics::Metrics`] by its serde name (null or NaN: None).
    pub metrics: BTreeMap<String, Option<f64>>,
    /// Why the run stopped early, if it did.
    pub stopped: Option<String>,
    /// The policy planned with true runtimes (or the trace made every estimate exact): a bound.
    #[serde(default)]
    pub clairvoyant: bool,
    /// Busy processors and queue length, compressed ([`crate::metrics::compress`]).
    pub series: Vec<SeriesPoint>,
    /// 201 quantiles of the wait (every half percent, nearest rank) over started jobs; empty
    /// if no job started.
    pub wait_quantiles: Vec<i64>,
    /// Mean bounded slowdown by Kettimuthu et al.'s 16 categories.
    pub categories: Grid,
    /// Prediction accuracy histogram (Tsafrir et al. Fig. 2).
    pub accuracy: AccuracyHistogram,
}

impl RunView {
    /// The view of one run: `points` series buckets (e.g. 400), `tau` the bounded slowdown's
    /// threshold (`settings.metrics.tau`).
    pub fn new(trace: &Trace, outcome: &Outcome, result: &PolicyResult, tau: i64, points: usize) -> RunView {
        let summary = RunView::summary(&trace.report, result);
        let recs = records(trace, outcome);
        let mut waits: Vec<i64> = recs.iter().filter(|r| r.start >= 0).map(|r| r.wait()).collect();
        waits.sort_unstable();
        let mut series = compress(&outcome.series, points);
        // GPUs and memory in use, when the trace's jobs hold any.
        if trace.jobs.iter().any(|j| j.gpus > 0 || j.memory_kb > 0) {
            let runs: Vec<(i64, i64, f64, f64)> = trace
                .jobs
                .iter()
                .zip(&outcome.records)
                .filter(|(_, r)| r.start >= 0)
                .map(|(j, r)| {
                    let end = if r.end >= 0 { r.end } else { r.start + j.runtime };
                    let gb =
                        if j.memory_kb > 0 { (j.memory_kb as f64) * j.procs as f64 / (1024.0 * 1024.0) } else { 0.0 };
                    (r.start, end, j.gpus as f64, gb)
                })
                .collect();
            crate::metrics::fill_resources(&mut series, &runs);
        }
        RunView {
            series,
            wait_quantiles: quantiles(&waits, 200),
            categories: bsld_by_category(&recs, tau),
            accuracy: result.accuracy_histogram.clone(),
            ..summary
        }
    }

    /// What the answer in words needs of a run (its name, metrics and whether it is a bound),
    /// without the charts' series.
    pub fn summary(trace: &TraceReport, result: &PolicyResult) -> RunView {
        // Inserted one by one: collecting into the map would compile a sort for this alone.
        let mut metrics = BTreeMap::new();
        if let Ok(serde_json::Value::Object(m)) = serde_json::to_value(&result.metrics) {
            for (k, v) in m {
                match v {
                    serde_json::Value::Number(n) => metrics.insert(k, n.as_f64().filter(|x| x.is_finite())),
                    serde_json::Value::Null => metrics.insert(k, None),
                    _ => None,
                };
            }
        }
        RunView {
            policy: result.policy.clone(),
            metrics,
            stopped: result.stopped.clone(),
            clairvoyant: is_clairvoyant(&result.options) || trace.options.runtime == RuntimeSource::Exact,
            ..RunView::default()
        }
    }

    /// The metric's value, if known and finite.
    pub fn metric(&self, key: &str) -> Option<f64> {
        self.metrics.get(key).copied().flatten().filter(|v| v.is_finite())
    }

    /// The name the charts show: the policy, marked when the run stopped early.
    fn label(&self) -> String {
        if self.stopped.is_some() {
            format!("{} (stopped)", self.policy)
        } else {
            self.policy.clone()
        }
    }
}

/// `steps + 1` nearest-rank quantiles of sorted `v` at 0, 1/steps, ..., 1 (empty if `v` is).
fn quantiles(v: &[i64], steps: usize) -> Vec<i64> {
    if v.is_empty() {
        return Vec::new();
    }
    let n = v.len();
    (0..=steps)
        .map(|k| {
            // Integer nearest rank: ceil(k n / steps), at least 1.
            let rank = (k * n).div_ceil(steps).clamp(1, n);
            v[rank - 1]
        })
        .collect()
}

/// Which comparison chart to draw.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum CompareChart {
    /// One horizontal bar per run for a metric (a key of [`RunView::metrics`]).
    MetricBars {
        /// The metric's serde name, e.g. `avg_wait_s`.
        metric: String,
    },
    /// Share of jobs waiting at most x, x on a log axis, one line per run.
    WaitCdf,
    /// Busy processors over time (mean per bucket), one line per run.
    Busy,
    /// Waiting jobs over time (mean per bucket), one line per run.
    Queue,
    /// GPUs held by running jobs over time (mean per bucket), one line per run.
    Gpus,
    /// Memory held by running jobs over time, GB (mean per bucket), one line per run.
    Memory,
    /// One run's mean bounded slowdown by Kettimuthu et al.'s 16 job categories.
    Categories {
        /// The run's index.
        run: usize,
    },
    /// One run's prediction accuracy histogram (Tsafrir et al. Fig. 2).
    Accuracy {
        /// The run's index.
        run: usize,
    },
}

/// The metrics of the small multiples on the compare view.
pub const MAIN_METRICS: [&str; 4] = ["avg_wait_s", "avg_bsld", "p95_wait_s", "utilization"];

/// How a metric's values read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    /// A duration in seconds (shown in minutes, hours or days as the values need).
    Seconds,
    /// A share from 0 to 1 (shown in percent).
    Fraction,
    /// Already a percentage.
    Percent,
    /// A ratio such as a slowdown.
    Ratio,
    /// A count.
    Count,
}

/// A metric's name for people, its unit and definition.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MetricInfo {
    /// Short name, e.g. "Mean wait".
    pub label: String,
    /// Its unit.
    pub unit: Unit,
    /// What it is, in one line.
    pub definition: String,
    /// Whether lower values are better (None: neither).
    pub lower_is_better: Option<bool>,
}

/// Bounded slowdown, defined once for every view that names it (τ is the metric option `tau`).
pub const BSLD_DEFINITION: &str = "bounded slowdown = max(1, (wait + run) / max(τ, run)), τ = 10 s unless set";

/// What the charts say about a metric key of [`crate::metrics::Metrics`].
pub fn metric_info(key: &str) -> MetricInfo {
    use Unit::*;
    let wait = "wait = start − submit";
    let resp = "response = end − submit";
    let bsld = BSLD_DEFINITION;
    let (label, unit, def, lower): (&str, Unit, &str, Option<bool>) = match key {
        "avg_wait_s" => ("Mean wait", Seconds, wait, Some(true)),
        "median_wait_s" => ("Median wait", Seconds, wait, Some(true)),
        "p95_wait_s" => ("95th percentile wait", Seconds, wait, Some(true)),
        "max_wait_s" => ("Longest wait", Seconds, wait, Some(true)),
        "avg_response_s" => ("Mean response time", Seconds, resp, Some(true)),
        "median_response_s" => ("Median response time", Seconds, resp, Some(true)),
        "p95_response_s" => ("95th percentile response time", Seconds, resp, Some(true)),
        "max_response_s" => ("Longest response time", Seconds, resp, Some(true)),
        "avg_bsld" => ("Mean bounded slowdown", Ratio, bsld, Some(true)),
        "median_bsld" => ("Median bounded slowdown", Ratio, bsld, Some(true)),
        "p95_bsld" => ("95th percentile bounded slowdown", Ratio, bsld, Some(true)),
        "max_bsld" => ("Largest bounded slowdown", Ratio, bsld, Some(true)),
        "avg_slowdown" => ("Mean slowdown", Ratio, "slowdown = 1 + delay / runtime (Lawson & Smirni)", Some(true)),
        "utilization" => ("Utilization", Fraction, "used processor-seconds / (makespan × processors)", Some(false)),
        "loss_of_capacity" => {
            ("Loss of capacity", Fraction, "share of capacity idle while jobs waited (Leung et al.)", Some(true))
        }
        "makespan_s" => ("Makespan", Seconds, "last end − first start", Some(true)),
        "jobs_backfilled" => ("Jobs backfilled", Count, "jobs started ahead of an older waiting job", None),
        "accuracy_pct" => {
            ("Prediction accuracy", Percent, "mean runtime / predicted runtime, time-weighted", Some(false))
        }
        "fst_miss_share" => {
            ("Fair starts missed", Fraction, "share of jobs starting after their fair start time", Some(true))
        }
        "avg_fst_miss_s" => ("Mean fair-start miss", Seconds, "mean of max(0, start − fair start time)", Some(true)),
        _ => {
            let unit = if key.ends_with("_s") {
                Seconds
            } else if key.ends_with("_pct") {
                Percent
            } else if key.ends_with("_share") {
                Fraction
            } else if key.starts_with("jobs") || key.ends_with("_jobs") || key.ends_with("_runs") {
                Count
            } else {
                Ratio
            };
            return MetricInfo { label: key.replace('_', " "), unit, definition: String::new(), lower_is_better: None };
        }
    };
    MetricInfo { label: label.to_string(), unit, definition: def.to_string(), lower_is_better: lower }
}

/// Draws one of the comparison charts of `runs`; run `i` in [`palette`](super::chart::palette)`(i)`.
pub fn compare_chart(runs: &[RunView], which: &CompareChart, opts: &ChartOptions) -> Result<Chart, String> {
    if runs.is_empty() {
        return Err("no runs to chart".to_string());
    }
    let one = |run: usize| runs.get(run).ok_or_else(|| format!("run {run} out of range (there are {})", runs.len()));
    match which {
        CompareChart::MetricBars { metric } => metric_bars(&ranked(runs), metric, opts),
        CompareChart::WaitCdf => wait_cdf(runs, opts),
        CompareChart::Busy => over_time(runs, opts, Quantity::Busy),
        CompareChart::Queue => over_time(runs, opts, Quantity::Queue),
        CompareChart::Gpus if runs.iter().all(|r| r.series.iter().all(|p| p.gpus_avg == 0.0)) => {
            Err("No job of this trace holds a GPU: a Slurm log's AllocTRES (gres/gpu) gives them.".to_string())
        }
        CompareChart::Memory if runs.iter().all(|r| r.series.iter().all(|p| p.mem_gb_avg == 0.0)) => {
            Err("This trace says no job's memory: a Slurm log's AllocTRES or ReqMem gives it.".to_string())
        }
        CompareChart::Gpus => over_time(runs, opts, Quantity::Gpus),
        CompareChart::Memory => over_time(runs, opts, Quantity::Memory),
        CompareChart::Categories { run } => {
            // One colour scale for every run, so two policies' heatmaps compare at a glance.
            let top = runs.iter().flat_map(|r| r.categories.value.iter().flatten()).fold(1.0f64, |a, &b| a.max(b));
            categories(one(*run)?, *run, top, opts)
        }
        CompareChart::Accuracy { run } => accuracy(one(*run)?, *run, opts),
    }
}

/// The least height in pixels at which `compare_chart(runs, which, opts)` keeps every part
/// legible at `opts.width` (and `opts.compact`): bars at least 10 px thick, a line chart's plot
/// its usual height however many rows its legend and subtitle take, each of many runs' panels
/// readable. It does not depend on `opts.height`, so a page may draw at the larger of its own
/// height and this one and ask again at any time. None when there is no chart to draw (no
/// runs, a run out of range).
pub fn preferred_height(runs: &[RunView], which: &CompareChart, opts: &ChartOptions) -> Option<u32> {
    if runs.is_empty() {
        return None;
    }
    let s = Sizes::of(opts);
    let n = runs.len();
    let lines = |strip: bool, frame: Frame| frame_height(&frame, opts, min_line_plot(strip, &s));
    Some(match which {
        CompareChart::MetricBars { metric } => {
            frame_height(&bars_frame(runs, &bar_values(runs, metric)), opts, n as i32 * bar_pitch(&s))
        }
        CompareChart::WaitCdf if n > ONE_PLOT_MAX => {
            let (lo, hi) = cdf_range(runs);
            let x_ticks = |_: i32| wait_ticks(lo, hi, false);
            multiples::preferred_height(&cdf_multiples(named(runs), (lo, hi), &x_ticks, &share_axis), opts)
        }
        CompareChart::WaitCdf => lines(false, cdf_frame(runs)),
        CompareChart::Busy | CompareChart::Queue | CompareChart::Gpus | CompareChart::Memory => {
            let q = match which {
                CompareChart::Busy => Quantity::Busy,
                CompareChart::Gpus => Quantity::Gpus,
                CompareChart::Memory => Quantity::Memory,
                _ => Quantity::Queue,
            };
            if n > ONE_PLOT_MAX {
                // The panels' frame, without drawing their lines.
                let top = runs.iter().flat_map(|r| series_points(&r.series, q)).fold(1.0f64, |a, p| a.max(p.1));
                let y = |ph: i32| {
                    let (end, ticks) = count_ticks(top, s.ticks_y(ph).max(4));
                    (Scale::Linear(0.0, end), ticks)
                };
                let x_ticks = |_: i32| Vec::new();
                let (what, unit) = quantity_names(q);
                let spec = multiples::Spec {
                    title: format!("{what} over time"),
                    subtitle: format!("mean {unit} per time bucket; a panel per policy, the others in grey"),
                    lines: named(runs),
                    x: Scale::Linear(0.0, 1.0),
                    x_ticks: &x_ticks,
                    x_desc: time_axis_name(opts.unix_start).to_string(),
                    y: &y,
                };
                multiples::preferred_height(&spec, opts)
            } else {
                lines(true, over_time_frame(runs, opts, q))
            }
        }
        CompareChart::Categories { run } => {
            // Four rows of cells, each tall enough for its value and its count of jobs.
            frame_height(&categories_frame(runs.get(*run)?, &s), opts, 4 * (s.label * 3.0).round() as i32)
        }
        CompareChart::Accuracy { run } => {
            runs.get(*run)?;
            frame_height(&accuracy_frame(&runs[*run], *run), opts, min_line_plot(false, &s))
        }
    })
}

/// `opts` at the larger of its own height and [`preferred_height`]: how the page and `--plot`
/// draw a compare chart, taller when many runs need the room.
pub fn fitted(runs: &[RunView], which: &CompareChart, opts: &ChartOptions) -> ChartOptions {
    let height = preferred_height(runs, which, opts).map_or(opts.height, |h| h.max(opts.height));
    ChartOptions { height, ..opts.clone() }
}

/// The runs in the leaderboard's order (mean bounded slowdown, lowest first; unmeasured last), so
/// every bar chart lists the policies as the leaderboard ranks them.
pub fn ranked(runs: &[RunView]) -> Vec<RunView> {
    let mut out = runs.to_vec();
    crate::sorting::by_key(&mut out, |r| {
        (crate::sorting::float(r.metric("avg_bsld").filter(|v| v.is_finite()).unwrap_or(f64::INFINITY)), 0)
    });
    out
}

/// The runs as lines with their names only: what the panels' layout needs.
fn named(runs: &[RunView]) -> Vec<Line> {
    let line = |r: &RunView| Line {
        name: r.policy.clone(),
        colour: Colour::rgb(0, 0, 0),
        path: Vec::new(),
        marks: Vec::new(),
    };
    runs.iter().map(line).collect()
}

/// A bar's or line's opacity: full, or faded when another series is highlighted.
fn alpha_of(i: usize, highlight: Option<usize>, n: usize) -> f64 {
    match highlight {
        Some(h) if h < n && h != i => 0.3,
        _ => 1.0,
    }
}

/// Each run's colour: its policy's own ([`run_colours`]), the same in every chart and on every run.
fn colours(runs: &[RunView]) -> Vec<Colour> {
    let names: Vec<&str> = runs.iter().map(|r| r.policy.as_str()).collect();
    run_colours(&names).into_iter().map(series_colour).collect()
}

/// The colour of one run drawn alone: its policy's own, else its place's.
fn colours_of_one(run: &RunView, index: usize) -> Colour {
    series_colour(policy_colour(&run.policy).unwrap_or(index))
}

fn legend(runs: &[RunView]) -> Vec<LegendEntry> {
    runs.iter()
        .enumerate()
        .map(|(i, r)| LegendEntry { label: r.label(), colour: colours(runs)[i], series: i })
        .collect()
}

/// A value of `unit` as every view writes it (a chart's label, a table's cell, a card), so one
/// quantity reads the same wherever it is shown.
pub fn fmt_value(unit: Unit, v: f64) -> String {
    match unit {
        Unit::Seconds => fmt_duration(v),
        Unit::Fraction => format!("{}%", fmt_number(v * 100.0)),
        Unit::Percent => format!("{}%", fmt_number(v)),
        Unit::Ratio => fmt_number(v),
        Unit::Count => fmt_tick(v.round(), 1.0),
    }
}

/// How values of a unit are scaled and labelled on an axis whose largest value is `max`.
fn axis_unit(unit: Unit, max: f64) -> (f64, String, Box<dyn Fn(f64) -> String>) {
    let fmt: Box<dyn Fn(f64) -> String> = Box::new(move |v| fmt_value(unit, v));
    match unit {
        Unit::Seconds => {
            let (name, scale) = duration_unit(max);
            (scale, name.to_string(), fmt)
        }
        Unit::Fraction | Unit::Percent => (if unit == Unit::Fraction { 0.01 } else { 1.0 }, "percent".to_string(), fmt),
        Unit::Ratio => (1.0, String::new(), fmt),
        Unit::Count => (1.0, "jobs".to_string(), fmt),
    }
}

/// A metric's values per run, scaled to the unit its axis shows, and whether that axis is a
/// log one.
struct BarValues {
    info: MetricInfo,
    /// Per run, in the metric's own unit (seconds, a share).
    values: Vec<Option<f64>>,
    /// Per run, in the axis's unit (hours, percent).
    scaled: Vec<Option<f64>>,
    /// The largest value in the axis's unit.
    smax: f64,
    /// The axis's unit ("hours", "percent", "jobs"), empty for ratios.
    unit_name: String,
    /// A value (in the metric's unit) as its bar's label and hit text write it.
    fmt: Box<dyn Fn(f64) -> String>,
    /// Shares, on an axis to 100%.
    percent: bool,
    /// Values over more than a factor of [`LOG_SPREAD`], on a log axis.
    log: bool,
}

fn bar_values(runs: &[RunView], metric: &str) -> BarValues {
    let info = metric_info(metric);
    let values: Vec<Option<f64>> = runs.iter().map(|r| r.metric(metric)).collect();
    let max = values.iter().flatten().fold(0.0f64, |a, &b| a.max(b));
    let (scale, unit_name, fmt) = axis_unit(info.unit, max);
    let scaled: Vec<Option<f64>> = values.iter().map(|v| v.map(|v| v / scale)).collect();
    let smax = max / scale;
    let percent = matches!(info.unit, Unit::Fraction | Unit::Percent) && smax <= 100.0;
    // Values over more than a factor of LOG_SPREAD (FCFS's slowdown beside backfilling's) go on
    // a log axis, in decades, so the small bars stay readable; x is then log10 of the value.
    let present: Vec<f64> = scaled.iter().flatten().copied().collect();
    let smin = present.iter().copied().fold(f64::INFINITY, f64::min);
    let log = !percent && present.len() >= 2 && smin > 0.0 && smax / smin >= LOG_SPREAD;
    BarValues { info, values, scaled, smax, unit_name, fmt, percent, log }
}

/// The title (with the unit) and the subtitle (definition, which way is better, notes) of a
/// metric's bars; the axes are left for the caller.
fn bars_frame(runs: &[RunView], v: &BarValues) -> Frame {
    let info = &v.info;
    let stopped = runs.iter().any(|r| r.stopped.is_some());
    let mut subtitle = info.definition.clone();
    if let Some(lower) = info.lower_is_better {
        if !subtitle.is_empty() {
            subtitle.push_str("; ");
        }
        subtitle.push_str(if lower { "lower is better" } else { "higher is better" });
    }
    if stopped {
        subtitle.push_str("; faded bars: runs stopped early (finished jobs only)");
    }
    if v.log {
        subtitle.push_str("; log scale");
    }
    let title = if v.unit_name.is_empty() || info.unit == Unit::Count {
        info.label.clone()
    } else {
        format!("{} ({})", info.label, v.unit_name)
    };
    Frame { title, subtitle, ..Default::default() }
}

/// Pixels per bar's row at which bars stay thick (72% of the row: 12 px, 10 px when compact)
/// and their names are in full-size type.
fn bar_pitch(s: &Sizes) -> i32 {
    (s.label * 1.4).ceil() as i32
}

fn metric_bars(runs: &[RunView], metric: &str, opts: &ChartOptions) -> Result<Chart, String> {
    let (w, _) = opts.size();
    let s = Sizes::of(opts);
    let n = runs.len();
    let bv = bar_values(runs, metric);
    let BarValues { values, scaled, smax, percent, log, .. } = &bv;
    let (info, smax, percent, log) = (&bv.info, *smax, *percent, *log);
    let mut frame = bars_frame(runs, &bv);

    // Policy names on the y axis, first run at the top; smaller type when the chart is too short
    // for a row each at the usual size ([`preferred_height`] says how tall it should be).
    let pitch = frame_plot_height(&frame, opts) as f64 / n as f64;
    let name_size = s.label.min((pitch / 1.15).floor()).max(7.0);
    // Up to half the width, so that a phone still shows "cplant24.nomax.fair (stopped)" whole.
    let names: Vec<String> = runs.iter().map(|r| fit(&r.label(), name_size, w as i32 / 2)).collect();
    let y_ticks: Vec<Tick> = names.iter().enumerate().map(|(i, l)| ((n - i) as f64 - 0.5, l.clone())).collect();
    let name_sizes = Sizes { label: name_size, ..s };
    let y_area = y_label_width(&y_ticks, &name_sizes);

    // Room at the end of the longest bar for its value.
    let value_labels: Vec<String> = values.iter().map(|v| v.map_or("n/a".to_string(), &bv.fmt)).collect();
    let label_w = value_labels.iter().map(|l| text_size(l, name_size).0 as i32).max().unwrap_or(0) + 6;
    let plot_w = (w as i32 - y_area - 3 * s.margin - 12).max(40);
    let room = (plot_w - label_w).max(plot_w / 2) as f64;
    let smin = scaled.iter().flatten().copied().fold(f64::INFINITY, f64::min);
    let count = info.unit == Unit::Count;
    let (xmin, xmax) = if percent {
        // Shares run to 100%; a long bar's value goes inside its end.
        (0.0, 100.0)
    } else if log {
        // Half a decade at least before the smallest value, so its bar has a length.
        let lo = (smin.log10() - 0.5).floor();
        let hi = smax.log10().ceil().max(lo + 1.0);
        // Room after the longest bar for its value, as on a linear axis.
        (lo, (lo + (smax.log10() - lo) * plot_w as f64 / room).max(hi))
    } else if count {
        (0.0, count_ticks(smax * plot_w as f64 / room, s.ticks(plot_w)).0)
    } else if smax > 0.0 {
        (0.0, nice_max(smax * plot_w as f64 / room, s.ticks(plot_w)))
    } else {
        (0.0, 1.0)
    };
    let x_ticks: Vec<Tick> = if log {
        // A count is whole: no decade under 1 is labelled on its axis.
        (xmin as i32..=xmax.floor() as i32)
            .filter(|&k| !count || k >= 0)
            .map(|k| (k as f64, fmt_tick(10f64.powi(k), 10f64.powi(k).min(1.0))))
            .collect()
    } else if count {
        count_ticks(xmax, s.ticks(plot_w)).1
    } else {
        linear_ticks(0.0, xmax, s.ticks(plot_w))
            .into_iter()
            .filter(|t| t.0 <= xmax * (1.0 + 1e-9))
            .map(|(v, _)| (v, tick_label(info.unit, v, xmax, s.ticks(plot_w))))
            .collect()
    };
    let at = |v: f64| if log { v.log10() } else { v };
    let title = frame.title.clone();
    frame.x = AxisSpec { ticks: x_ticks, desc: String::new(), grid: true };
    frame.y = AxisSpec { ticks: y_ticks, desc: String::new(), grid: false };
    frame.y_label = name_size;
    let stopped = runs.iter().any(|r| r.stopped.is_some());
    // Bars fill 72% of their row, but no more than 32 px however few the runs.
    let half = 0.36f64.min(16.0 / pitch.max(1.0));
    let highlight = opts.highlight;
    let mut chart = cartesian(
        opts,
        &frame,
        xmin..xmax,
        0.0..n as f64,
        |chart, root, _s, hits| {
            let plot = super::chart::plot_rect(chart);
            for (i, v) in scaled.iter().enumerate() {
                let yc = (n - i) as f64 - 0.5;
                let c = colours(runs)[i];
                let faded = runs[i].stopped.is_some();
                let alpha = alpha_of(i, highlight, n) * if faded { 0.4 } else { 1.0 };
                let Some(v) = v else {
                    let (x, y) = chart.backend_coord(&(xmin, yc));
                    draw_text(root, "n/a", (x + 4, y), name_size, RGBColor(0x59, 0x59, 0x59), false, HPos::Left);
                    continue;
                };
                let (a, b) = ((xmin, yc + half), (at(*v).max(xmin), yc - half));
                let _ = chart.draw_series(std::iter::once(Rectangle::new([a, b], rgba(c, alpha).filled())));
                if faded {
                    let _ = chart.draw_series(std::iter::once(Rectangle::new([a, b], rgba(c, 1.0).stroke_width(1))));
                }
                let (x0, y0) = chart.backend_coord(&a);
                let (x1, y1) = chart.backend_coord(&b);
                let rect = (x0.min(x1), y0.min(y1), x0.max(x1).max(x0.min(x1) + 3), y0.max(y1));
                // The value after the bar, or inside its end when the bar is too long for that.
                let label = &value_labels[i];
                let lw = text_size(label, name_size).0 as i32;
                let yc_px = (rect.1 + rect.3) / 2;
                if rect.2 + 4 + lw <= plot.2 {
                    draw_text(root, label, (rect.2 + 4, yc_px), name_size, INK, highlight == Some(i), HPos::Left);
                } else {
                    draw_text(root, label, (rect.2 - 4, yc_px), name_size, RGBColor(255, 255, 255), true, HPos::Right);
                }
                let mut text = format!("{}: {} {}", runs[i].policy, info.label.to_ascii_lowercase(), label);
                if let Some(why) = &runs[i].stopped {
                    text.push_str(&format!(" ({why})"));
                }
                hits.push(Hit { rect, series: i, index: 0, text });
            }
        },
        nothing_below,
    )?;
    let mut columns = vec!["policy".to_string(), title.clone()];
    if stopped {
        columns.push("note".to_string());
    }
    let rows = runs
        .iter()
        .zip(scaled)
        .map(|(r, v)| {
            let cell = |v: f64| if count { format!("{:.0}", v.round()) } else { fmt_table(v) };
            let mut row = vec![r.policy.clone(), v.map_or("n/a".to_string(), cell)];
            if stopped {
                row.push(r.stopped.clone().unwrap_or_default());
            }
            row
        })
        .collect();
    chart.table = Table { title, columns, rows };
    Ok(chart)
}

/// How many times the largest value must exceed the smallest for a log axis on metric bars.
const LOG_SPREAD: f64 = 30.0;

/// A table cell: four significant digits, no grouping, so it copies into a spreadsheet.
fn fmt_table(v: f64) -> String {
    if !v.is_finite() {
        return "n/a".to_string();
    }
    let a = v.abs();
    if a >= 1000.0 || a == 0.0 {
        format!("{v:.0}")
    } else {
        let decimals = (3 - a.log10().floor() as i32).clamp(0, 6) as usize;
        format!("{v:.decimals$}")
    }
}

/// A table cell as [`fmt_table`] writes it, but a whole number as one: a mean of 30 busy
/// processors reads "30", not "30.00".
fn fmt_table_whole(v: f64) -> String {
    if v == v.round() {
        format!("{v:.0}")
    } else {
        fmt_table(v)
    }
}

/// A tick label on a bar chart's value axis (values already in the axis unit).
fn tick_label(unit: Unit, v: f64, xmax: f64, max_ticks: usize) -> String {
    let step = linear_ticks(0.0, xmax, max_ticks).windows(2).map(|p| p[1].0 - p[0].0).next().unwrap_or(xmax);
    match unit {
        Unit::Fraction | Unit::Percent => format!("{}%", fmt_tick(v, step)),
        _ => fmt_tick(v, step),
    }
}

/// Line widths: thin when many lines share the plot, thick for the highlighted one.
fn line_width(i: usize, highlight: Option<usize>, n: usize) -> u32 {
    match highlight {
        Some(h) if h == i => 3,
        _ if n <= 6 => 2,
        _ => 1,
    }
}

/// The drawing order of lines: the highlighted one last, on top.
fn draw_order(n: usize, highlight: Option<usize>) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).filter(|&i| Some(i) != highlight).collect();
    if let Some(h) = highlight.filter(|&h| h < n) {
        order.push(h);
    }
    order
}

/// Labels the highlighted line by its name next to `at` (a point of it), inside the plot: dark
/// text on a white box edged in the line's colour, so it reads over any line.
fn label_line(
    root: &DrawingArea<Recorder<'_>, Shift>,
    name: &str,
    at: (i32, i32),
    plot: (i32, i32, i32, i32),
    colour: Colour,
    s: &Sizes,
) {
    // Bold type runs wider than the layout's measure: a fifth more room.
    let (w, h) = text_size(name, s.label);
    let (w, h) = (w as i32 * 6 / 5 + 8, h as i32 + 6);
    let x0 = if at.0 - 8 - w >= plot.0 { at.0 - 8 - w } else { (at.0 + 8).min(plot.2 - w) };
    let y0 = if at.1 - 8 - h >= plot.1 { at.1 - 8 - h } else { (at.1 + 8).min(plot.3 - h) };
    let _ = root.draw(&Rectangle::new([(x0, y0), (x0 + w, y0 + h)], RGBColor(255, 255, 255).mix(0.92).filled()));
    let _ = root.draw(&Rectangle::new([(x0, y0), (x0 + w, y0 + h)], rgba(colour, 1.0).stroke_width(2)));
    draw_text(root, name, (x0 + 4, y0 + h / 2), s.label, INK, true, HPos::Left);
}

/// Pixels of a line's points, one per pixel column it passes (the first point kept), each a
/// hit region of one pixel.
fn point_hits(points: &[(i32, i32, usize, String)], series: usize, hits: &mut Vec<Hit>) {
    let mut last: Option<(i32, i32)> = None;
    for (x, y, index, text) in points {
        if last == Some((*x, *y)) {
            continue;
        }
        last = Some((*x, *y));
        hits.push(Hit { rect: (*x, *y, x + 1, y + 1), series, index: *index, text: text.clone() });
    }
}

/// Past this many runs a line chart draws a panel per run ([`multiples`]) rather than one plot:
/// a legend of more colours than this cannot be matched to lines by eye.
const ONE_PLOT_MAX: usize = 10;

/// Least height of a line chart's plot at the height [`preferred_height`] asks for. The busy
/// and queue strips are short by design, under the Gantt chart they follow.
fn min_line_plot(strip: bool, s: &Sizes) -> i32 {
    match (strip, s.label < 11.0) {
        (true, true) => 80,
        (true, false) => 100,
        (false, true) => 110,
        (false, false) => 150,
    }
}

/// Draws `lines` into one plot: each in its colour (the highlighted one on top, the others
/// faded), the points the pointer finds, and each name beside its line where there is room.
/// The highlighted line is named at `anchors[i]` when it found no room of its own.
fn draw_lines<X, Y>(
    chart: &mut Ctx<'_, '_, X, Y>,
    root: &DrawingArea<Recorder<'_>, Shift>,
    s: &Sizes,
    hits: &mut Vec<Hit>,
    lines: &[Line],
    anchors: &[Option<(f64, f64)>],
    highlight: Option<usize>,
) where
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    let n = lines.len();
    let plot = super::chart::plot_rect(chart);
    let in_pixels: Vec<(Vec<(i32, i32)>, String)> = lines
        .iter()
        .map(|l| {
            let mut px: Vec<(i32, i32)> = Vec::with_capacity(l.path.len());
            for p in &l.path {
                let q = chart.backend_coord(p);
                if px.last() != Some(&q) {
                    px.push(q);
                }
            }
            (px, l.name.clone())
        })
        .collect();
    // Placed from the geometry alone, so names stay put as the pointer moves between lines.
    let places = line_labels::place(&in_pixels, plot, s);
    for i in draw_order(n, highlight) {
        let l = &lines[i];
        if l.path.is_empty() {
            continue;
        }
        let style = rgba(l.colour, alpha_of(i, highlight, n)).stroke_width(line_width(i, highlight, n));
        let _ = chart.draw_series(std::iter::once(PathElement::new(l.path.clone(), style)));
        let marks: Vec<(i32, i32, usize, String)> = l
            .marks
            .iter()
            .map(|(x, y, k, text)| {
                let (px, py) = chart.backend_coord(&(*x, *y));
                (px, py, *k, text.clone())
            })
            .collect();
        point_hits(&marks, i, hits);
    }
    for (i, b) in places.iter().enumerate() {
        if let Some(b) = b {
            line_labels::draw(root, &lines[i].name, *b, lines[i].colour, highlight == Some(i), s);
        }
    }
    if let Some(h) = highlight.filter(|&h| h < n && places[h].is_none()) {
        if let Some(a) = anchors[h] {
            label_line(root, &lines[h].name, chart.backend_coord(&a), plot, lines[h].colour, s);
        }
    }
}

const CDF_TITLE: &str = "Share of jobs that waited at most x";

/// The wait axis's range: from 1 s to the first round duration at or above the longest wait.
fn cdf_range(runs: &[RunView]) -> (f64, f64) {
    let top = runs.iter().filter_map(|r| r.wait_quantiles.last()).copied().max().unwrap_or(0) as f64;
    let ends = [60.0, 600.0, 3600.0, 86_400.0, 604_800.0, 2_592_000.0, 31_536_000.0];
    (1.0, ends.iter().copied().find(|&e| e >= top).unwrap_or(top.max(1.0) * 1.5))
}

/// Each run's distribution of waits as a line (wait, share of jobs) through its quantiles, and
/// the points the pointer finds on it.
fn cdf_lines(runs: &[RunView], lo: f64, hi: f64) -> Vec<Line> {
    let colours = colours(runs);
    runs.iter()
        .enumerate()
        .map(|(i, r)| {
            let q = &r.wait_quantiles;
            let mut line = Line { name: r.policy.clone(), colour: colours[i], path: Vec::new(), marks: Vec::new() };
            if q.is_empty() {
                return line;
            }
            let steps = q.len() - 1;
            let x = |k: usize| (q[k] as f64).clamp(lo, hi);
            // Through the quantiles: the share reaches k/steps at the k-th. The jobs that waited
            // at most 1 s are one point on the left edge, not a climb up the axis.
            if q[0] as f64 > lo {
                line.path.push((x(0), 0.0));
            }
            for (k, &wait) in q.iter().enumerate().skip(1) {
                let p = k as f64 / steps as f64;
                if (wait as f64) <= lo && q.get(k + 1).is_some_and(|&n| n as f64 <= lo) {
                    continue;
                }
                line.path.push((x(k), p));
                let text =
                    format!("{}: {}% of jobs waited ≤ {}", r.policy, fmt_number(p * 100.0), fmt_duration(wait as f64));
                line.marks.push((x(k), p, k, text));
            }
            // The top of each vertical step, furthest right first, so a pixel keeps its highest share.
            line.marks.reverse();
            line
        })
        .collect()
}

/// The CDF's frame without its x ticks (they depend on the width only).
fn cdf_frame(runs: &[RunView]) -> Frame {
    let y_ticks: Vec<Tick> =
        [0.0, 0.25, 0.5, 0.75, 1.0].iter().map(|&v| (v, format!("{}%", (v * 100.0) as i32))).collect();
    Frame {
        title: CDF_TITLE.to_string(),
        subtitle:
            "wait = start − submit, over started jobs; waits under 1 s drawn at 1 s; higher and further left is better"
                .to_string(),
        x: AxisSpec { ticks: Vec::new(), desc: "wait (log scale)".to_string(), grid: true },
        y: AxisSpec { ticks: y_ticks, desc: "share of jobs".to_string(), grid: true },
        legend: legend(runs),
        ..Default::default()
    }
}

/// Small multiples of the waits' distributions: a panel per run.
fn cdf_multiples<'a>(
    lines: Vec<Line>,
    (lo, hi): (f64, f64),
    x_ticks: &'a dyn Fn(i32) -> Vec<Tick>,
    y: &'a dyn Fn(i32) -> (Scale, Vec<Tick>),
) -> multiples::Spec<'a> {
    multiples::Spec {
        title: CDF_TITLE.to_string(),
        subtitle: "wait = start − submit, over started jobs; higher and further left is better; a panel per policy, \
                   the others in grey"
            .to_string(),
        lines,
        x: Scale::Log(lo, hi),
        x_ticks,
        x_desc: "wait (log scale)".to_string(),
        y,
    }
}

/// The y axis of a panel of shares: 0, 50% and 100%.
fn share_axis(_: i32) -> (Scale, Vec<Tick>) {
    (Scale::Linear(0.0, 1.0), [0.0, 0.5, 1.0].iter().map(|&v| (v, format!("{}%", (v * 100.0) as i32))).collect())
}

fn wait_cdf(runs: &[RunView], opts: &ChartOptions) -> Result<Chart, String> {
    let n = runs.len();
    let (w, _) = opts.size();
    let (lo, hi) = cdf_range(runs);
    let lines = cdf_lines(runs, lo, hi);
    let mut chart = if n > ONE_PLOT_MAX {
        let x_ticks = |_: i32| wait_ticks(lo, hi, false);
        multiples::draw(&cdf_multiples(lines, (lo, hi), &x_ticks, &share_axis), opts)
    } else {
        let mut frame = cdf_frame(runs);
        frame.x.ticks = wait_ticks(lo, hi, opts.compact || w < 420);
        let anchors: Vec<Option<(f64, f64)>> = runs
            .iter()
            .map(|r| {
                let q = &r.wait_quantiles;
                let k = q.len().checked_sub(1)? * 9 / 10;
                Some(((q[k] as f64).clamp(lo, hi), k as f64 / (q.len() - 1) as f64))
            })
            .collect();
        let highlight = opts.highlight;
        let mut chart = cartesian(
            opts,
            &frame,
            (lo..hi).log_scale(),
            0.0..1.0,
            |chart, root, s, hits| draw_lines(chart, root, s, hits, &lines, &anchors, highlight),
            nothing_below,
        )?;
        chart.reach = 8.0;
        chart
    };
    // Every 1%: 101 rows, a column of waits per run.
    let mut columns = vec!["jobs (share)".to_string()];
    columns.extend(runs.iter().map(|r| format!("{} wait (s)", r.policy)));
    let rows = (0..=100)
        .map(|pct| {
            let mut row = vec![format!("{pct}%")];
            for r in runs {
                let q = &r.wait_quantiles;
                row.push(if q.is_empty() {
                    String::new()
                } else {
                    q[(pct * (q.len() - 1) / 100).min(q.len() - 1)].to_string()
                });
            }
            row
        })
        .collect();
    chart.table = Table { title: "Wait at each share of jobs".to_string(), columns, rows };
    Ok(chart)
}

#[derive(Clone, Copy, PartialEq)]
enum Quantity {
    Busy,
    Queue,
    Gpus,
    Memory,
}

/// A run's series as (bucket middle, value) points.
fn series_points(series: &[SeriesPoint], q: Quantity) -> Vec<(f64, f64)> {
    let mut out = Vec::with_capacity(series.len());
    let mut width = 1.0;
    for (k, p) in series.iter().enumerate() {
        if let Some(next) = series.get(k + 1) {
            width = (next.time - p.time) as f64;
        }
        let v = match q {
            Quantity::Busy => p.busy_avg,
            Quantity::Queue => p.queued_avg,
            Quantity::Gpus => p.gpus_avg,
            Quantity::Memory => p.mem_gb_avg,
        };
        out.push((p.time as f64 + width / 2.0, v));
    }
    out
}

/// The points within `[t0, t1]`, with the line cut at the window's edges, each with its index.
fn clip(points: &[(f64, f64)], t0: f64, t1: f64) -> Vec<(f64, f64, usize)> {
    let mut out = Vec::new();
    for k in 0..points.len() {
        let (t, v) = points[k];
        if t < t0 {
            if let Some(&(tn, vn)) = points.get(k + 1) {
                if tn > t0 {
                    out.push((t0, v + (vn - v) * (t0 - t) / (tn - t), k));
                }
            }
            continue;
        }
        if t > t1 {
            if let Some(&(tp, vp)) = k.checked_sub(1).and_then(|j| points.get(j)) {
                if tp < t1 {
                    out.push((t1, vp + (v - vp) * (t1 - tp) / (t - tp), k));
                }
            }
            break;
        }
        out.push((t, v, k));
    }
    out
}

/// At most `max` points: runs of neighbours replaced by their mean time and value (the index
/// of the run's first point kept).
fn thin(points: Vec<(f64, f64, usize)>, max: usize) -> Vec<(f64, f64, usize)> {
    if points.len() <= max {
        return points;
    }
    let k = points.len().div_ceil(max);
    points
        .chunks(k)
        .map(|c| {
            let n = c.len() as f64;
            (c.iter().map(|p| p.0).sum::<f64>() / n, c.iter().map(|p| p.1).sum::<f64>() / n, c[0].2)
        })
        .collect()
}

/// What an over-time chart calls its quantity: in its title, and per unit.
fn quantity_names(q: Quantity) -> (&'static str, &'static str) {
    match q {
        Quantity::Busy => ("Busy processors", "busy processors"),
        Quantity::Queue => ("Waiting jobs", "waiting jobs"),
        Quantity::Gpus => ("GPUs in use", "GPUs in use"),
        Quantity::Memory => ("Memory in use", "GB of memory in use"),
    }
}

/// The window an over-time chart shows: the options' zoom, else every run's whole series.
fn time_window(runs: &[RunView], opts: &ChartOptions) -> Option<(f64, f64)> {
    let span = runs
        .iter()
        .filter_map(|r| Some((r.series.first()?.time as f64, r.series.last()?.time as f64)))
        .fold(None, |acc: Option<(f64, f64)>, (a, b)| Some(acc.map_or((a, b), |(x, y)| (x.min(a), y.max(b)))));
    match (opts.x_range, span) {
        (Some((a, b)), _) if b > a => Some((a, b)),
        (_, Some((a, b))) => Some((a, b.max(a + 1.0))),
        _ => None,
    }
}

/// An over-time chart's frame without its ticks.
fn over_time_frame(runs: &[RunView], opts: &ChartOptions, q: Quantity) -> Frame {
    let (what, unit) = quantity_names(q);
    Frame {
        title: format!("{what} over time"),
        subtitle: format!("mean {unit} per time bucket, one line per policy"),
        x: AxisSpec { ticks: Vec::new(), desc: time_axis_name(opts.unix_start).to_string(), grid: true },
        y: AxisSpec { ticks: Vec::new(), desc: unit.to_string(), grid: true },
        legend: legend(runs),
        ..Default::default()
    }
}

fn over_time(runs: &[RunView], opts: &ChartOptions, q: Quantity) -> Result<Chart, String> {
    let n = runs.len();
    let s = Sizes::of(opts);
    let (w, _) = opts.size();
    let all: Vec<Vec<(f64, f64)>> = runs.iter().map(|r| series_points(&r.series, q)).collect();
    let (what, unit) = quantity_names(q);
    let Some((t0, t1)) = time_window(runs, opts) else {
        return Ok(Chart::message(opts, what, "no run has a time series"));
    };
    let visible: Vec<Vec<(f64, f64, usize)>> = all.iter().map(|p| clip(p, t0, t1)).collect();
    let top = visible.iter().flatten().fold(0.0f64, |a, p| a.max(p.1));
    let approx_plot_w = w as i32 - 90;
    // More points than one per 3 pixels only draws noise: average runs of neighbours. A panel of
    // small multiples is some 180 px wide: 60 points there.
    let most = if n > ONE_PLOT_MAX { 60 } else { (approx_plot_w / 3).max(10) as usize };
    let colours = colours(runs);
    let unix = opts.unix_start;
    let lines: Vec<Line> = visible
        .into_iter()
        .enumerate()
        .map(|(i, v)| {
            let v = thin(v, most);
            let say =
                |v: f64, t: f64| format!("{}: {} {unit} at {}", runs[i].policy, whole_or_number(v), fmt_time(t, unix));
            Line {
                name: runs[i].policy.clone(),
                colour: colours[i],
                path: v.iter().map(|p| (p.0, p.1)).collect(),
                marks: v.iter().map(|&(t, y, k)| (t, y, k, say(y, t))).collect(),
            }
        })
        .collect();
    let mut chart = if n > ONE_PLOT_MAX {
        // Panels are narrow: as many date ticks as fit side by side, thinned if they touch.
        let x_ticks = |pw: i32| time_ticks(t0, t1, ((pw as f64 / (s.label * 4.4)) as usize).clamp(2, 12), unix);
        // At least four ticks, so the axis ends near the highest value, thinned if crowded.
        let y = |ph: i32| {
            let (end, ticks) = count_ticks(top, s.ticks_y(ph).max(4));
            (Scale::Linear(0.0, end), ticks)
        };
        let spec = multiples::Spec {
            title: format!("{what} over time"),
            subtitle: format!("mean {unit} per time bucket; a panel per policy, the others in grey"),
            lines,
            x: Scale::Linear(t0, t1),
            x_ticks: &x_ticks,
            x_desc: time_axis_name(unix).to_string(),
            y: &y,
        };
        multiples::draw(&spec, opts)
    } else {
        let mut frame = over_time_frame(runs, opts, q);
        let (ymax, y_ticks) = count_ticks(top, s.ticks_y(frame_plot_height(&frame, opts)));
        frame.y.ticks = y_ticks;
        frame.x.ticks = time_ticks(t0, t1, s.time_ticks(approx_plot_w), unix);
        let anchors: Vec<Option<(f64, f64)>> = lines.iter().map(|l| l.path.last().copied()).collect();
        let highlight = opts.highlight;
        cartesian(
            opts,
            &frame,
            t0..t1,
            0.0..ymax,
            |chart, root, s, hits| draw_lines(chart, root, s, hits, &lines, &anchors, highlight),
            nothing_below,
        )?
    };
    chart.reach = 8.0;
    // A common time grid of at most 200 rows; each run's value is its bucket's at that time.
    let rows_n = all.iter().map(|p| p.len()).max().unwrap_or(0).clamp(1, 200);
    let mut columns = vec!["time".to_string()];
    columns.extend(runs.iter().map(|r| r.policy.clone()));
    let rows = (0..rows_n)
        .map(|j| {
            let t = t0 + (j as f64 + 0.5) * (t1 - t0) / rows_n as f64;
            let mut row = vec![fmt_time(t, unix)];
            for r in runs {
                let b = r.series.iter().rposition(|p| (p.time as f64) <= t);
                let inside = b.is_some_and(|b| {
                    b + 1 < r.series.len() || t - (r.series[b].time as f64) < 1.0 + (t1 - t0) / rows_n as f64
                });
                row.push(match (b, inside) {
                    (Some(b), true) => fmt_table_whole(match q {
                        Quantity::Busy => r.series[b].busy_avg,
                        Quantity::Queue => r.series[b].queued_avg,
                        Quantity::Gpus => r.series[b].gpus_avg,
                        Quantity::Memory => r.series[b].mem_gb_avg,
                    }),
                    _ => String::new(),
                });
            }
            row
        })
        .collect();
    chart.table = Table { title: format!("{what} over time (mean per bucket)"), columns, rows };
    Ok(chart)
}

/// Where a mean bounded slowdown `v` sits on the log colour scale from 1 to `top`.
fn scale_pos(v: f64, top: f64) -> f64 {
    if top <= 1.0 {
        0.0
    } else {
        (v.max(1.0).ln() / top.ln()).clamp(0.0, 1.0)
    }
}

/// The categories heatmap's frame without its ticks.
fn categories_frame(run: &RunView, s: &Sizes) -> Frame {
    Frame {
        title: format!("{}: mean bounded slowdown by job category", run.label()),
        subtitle:
            "rows: runtime, columns: processors (Kettimuthu et al.); darker is slower; one scale for all policies"
                .to_string(),
        x: AxisSpec { ticks: Vec::new(), desc: "processors".to_string(), grid: false },
        y: AxisSpec { ticks: Vec::new(), desc: "runtime".to_string(), grid: false },
        below: (s.label * 3.6).round() as i32,
        ..Default::default()
    }
}

fn categories(run: &RunView, index: usize, top: f64, opts: &ChartOptions) -> Result<Chart, String> {
    let g = &run.categories;
    let (nr, nc) = (g.rows.len(), g.cols.len());
    if nr == 0 || nc == 0 {
        return Ok(Chart::message(opts, &run.policy, "no categories"));
    }
    let s = Sizes::of(opts);
    // The colour scale ends on a power of ten at or above the largest mean (at least 10).
    let top_scale = 10f64.powi(top.log10().ceil().max(1.0) as i32);
    let x_ticks: Vec<Tick> = g.cols.iter().enumerate().map(|(c, l)| (c as f64 + 0.5, l.clone())).collect();
    let y_ticks: Vec<Tick> = g.rows.iter().enumerate().map(|(r, l)| ((nr - r) as f64 - 0.5, l.clone())).collect();
    let mut frame = categories_frame(run, &s);
    frame.x.ticks = x_ticks;
    frame.y.ticks = y_ticks;
    let policy = run.policy.clone();
    let mut chart = cartesian(
        opts,
        &frame,
        0.0..nc as f64,
        0.0..nr as f64,
        |chart, root, s, hits| {
            for r in 0..nr {
                for c in 0..nc {
                    let (count, v) = (g.count[r][c], g.value[r][c]);
                    let (a, b) = ((c as f64, (nr - r) as f64), (c as f64 + 1.0, (nr - r - 1) as f64));
                    let colour = if count == 0 { Colour::rgb(0xf2, 0xf2, 0xf2) } else { ramp(scale_pos(v, top_scale)) };
                    let _ = chart.draw_series(std::iter::once(Rectangle::new([a, b], rgba(colour, 1.0).filled())));
                    let _ = chart
                        .draw_series(std::iter::once(Rectangle::new([a, b], RGBColor(255, 255, 255).stroke_width(2))));
                    let (x0, y0) = chart.backend_coord(&a);
                    let (x1, y1) = chart.backend_coord(&b);
                    let rect = (x0.min(x1), y0.min(y1), x0.max(x1), y0.max(y1));
                    let (cx, cy) = ((rect.0 + rect.2) / 2, (rect.1 + rect.3) / 2);
                    let dark = count > 0 && scale_pos(v, top_scale) > 0.45;
                    let ink = if dark { RGBColor(255, 255, 255) } else { INK };
                    let cell_w = rect.2 - rect.0 - 4;
                    let big = (s.label * 1.15).min((rect.3 - rect.1) as f64 / 2.6).max(7.0);
                    let small = (s.label * 0.9).min(big);
                    if count == 0 {
                        draw_text(
                            root,
                            &fit("no jobs", small, cell_w),
                            (cx, cy),
                            small,
                            RGBColor(0x80, 0x80, 0x80),
                            false,
                            HPos::Center,
                        );
                    } else {
                        draw_text(
                            root,
                            &fit(&fmt_number(v), big, cell_w),
                            (cx, cy - (small * 0.6) as i32),
                            big,
                            ink,
                            true,
                            HPos::Center,
                        );
                        let jobs = format!("{} jobs", fmt_tick(count as f64, 1.0));
                        draw_text(
                            root,
                            &fit(&jobs, small, cell_w),
                            (cx, cy + (big * 0.7) as i32),
                            small,
                            ink,
                            false,
                            HPos::Center,
                        );
                    }
                    let text = if count == 0 {
                        format!("{policy}: {} × {}: no jobs", g.rows[r], g.cols[c])
                    } else {
                        format!(
                            "{policy}: {} × {}: mean bounded slowdown {} over {} jobs",
                            g.rows[r],
                            g.cols[c],
                            fmt_number(v),
                            fmt_tick(count as f64, 1.0)
                        )
                    };
                    hits.push(Hit { rect, series: index, index: r * nc + c, text });
                }
            }
        },
        |root, y, plot, s| colour_scale(root, y, plot, top_scale, s),
    )?;
    let columns = ["runtime", "processors", "jobs", "mean bounded slowdown"].map(String::from).to_vec();
    let rows = (0..nr)
        .flat_map(|r| (0..nc).map(move |c| (r, c)))
        .map(|(r, c)| {
            vec![
                g.rows[r].clone(),
                g.cols[c].clone(),
                g.count[r][c].to_string(),
                if g.count[r][c] == 0 { String::new() } else { fmt_table(g.value[r][c]) },
            ]
        })
        .collect();
    chart.table = Table { title: format!("{}: mean bounded slowdown by category", run.policy), columns, rows };
    Ok(chart)
}

/// The heatmap's colour key: a ramp under the plot with log ticks 1, 10, 100, ... `top`.
fn colour_scale(root: &DrawingArea<Recorder<'_>, Shift>, y: i32, plot: (i32, i32, i32, i32), top: f64, s: &Sizes) {
    let width = ((plot.2 - plot.0) as f64 * 0.6).round() as i32;
    let x0 = plot.0;
    let bar_h = (s.label * 0.9).round() as i32;
    let title = "mean bounded slowdown (log scale):";
    let tw = text_size(title, s.label).0 as i32;
    let y = y + (s.label * 0.4) as i32;
    let (bx, by) = if tw + 8 + width <= plot.2 - x0 { (x0 + tw + 8, y + 2) } else { (x0, y + s.label as i32 + 4) };
    draw_text(root, title, (x0, y + 2 + bar_h / 2), s.label, super::chart::MUTED, false, HPos::Left);
    let steps = 40;
    for k in 0..steps {
        let a = bx + width * k / steps;
        let b = bx + width * (k + 1) / steps;
        let c = ramp((k as f64 + 0.5) / steps as f64);
        let _ = root.draw(&Rectangle::new([(a, by), (b, by + bar_h)], rgba(c, 1.0).filled()));
    }
    let decades = top.log10().round() as i32;
    // Every decade is marked; labels skip some when they would touch.
    let widest = text_size(&fmt_tick(top, 1.0), s.label * 0.9).0 as i32 + 6;
    let every = (1..=decades.max(1)).find(|k| width * k / decades.max(1) >= widest).unwrap_or(decades.max(1));
    for d in 0..=decades {
        let x = bx + (width as f64 * d as f64 / decades.max(1) as f64).round() as i32;
        let _ = root.draw(&PathElement::new(vec![(x, by + bar_h), (x, by + bar_h + 3)], RGBColor(0x80, 0x80, 0x80)));
        if d % every != 0 {
            continue;
        }
        let label = fmt_tick(10f64.powi(d), 1.0);
        let style = label_style(s.label * 0.9, INK).pos(Pos::new(HPos::Center, VPos::Top));
        let _ = root.draw(&Text::new(label, (x, by + bar_h + 4), style));
    }
}

/// The accuracy histogram's frame without its ticks.
fn accuracy_frame(run: &RunView, index: usize) -> Frame {
    let c = colours_of_one(run, index);
    Frame {
        title: format!("{}: accuracy of runtime predictions", run.label()),
        subtitle: "per job: runtime / predicted runtime, time-weighted (Tsafrir et al. Fig. 2); jobs killed at their estimate are at 100%".to_string(),
        x: AxisSpec { ticks: Vec::new(), desc: "accuracy".to_string(), grid: false },
        y: AxisSpec { ticks: Vec::new(), desc: "jobs".to_string(), grid: true },
        legend: vec![
            LegendEntry { label: "all jobs".to_string(), colour: Colour { a: 110, ..c }, series: index },
            LegendEntry { label: "without jobs killed at their estimate".to_string(), colour: c, series: index },
        ],
        ..Default::default()
    }
}

fn accuracy(run: &RunView, index: usize, opts: &ChartOptions) -> Result<Chart, String> {
    let h = &run.accuracy;
    let bins = h.all.len().max(h.without_killed.len());
    if bins == 0 {
        return Ok(Chart::message(opts, &run.policy, "no accuracy histogram"));
    }
    let s = Sizes::of(opts);
    let get = |v: &Vec<u64>, i: usize| v.get(i).copied().unwrap_or(0);
    let top = (0..bins).map(|i| get(&h.all, i).max(get(&h.without_killed, i))).max().unwrap_or(0) as f64;
    let width = 100.0 / bins as f64;
    let x_ticks: Vec<Tick> = (0..=bins)
        .filter(|i| i % (bins / 5).max(1) == 0 || *i == bins)
        .map(|i| (i as f64 * width, format!("{}%", fmt_tick(i as f64 * width, width))))
        .collect();
    let c = colours_of_one(run, index);
    let light = Colour { a: 110, ..c };
    let mut frame = accuracy_frame(run, index);
    let (ymax, y_ticks) = count_ticks(top, s.ticks_y(frame_plot_height(&frame, opts)));
    frame.x.ticks = x_ticks;
    frame.y.ticks = y_ticks;
    let all_n: u64 = h.all.iter().sum();
    let wk_n: u64 = h.without_killed.iter().sum();
    let policy = run.policy.clone();
    let mut chart = cartesian(
        opts,
        &frame,
        0.0..100.0,
        0.0..ymax,
        |chart, _root, _s, hits| {
            for i in 0..bins {
                let x = i as f64 * width;
                let range = format!("{}-{}%", fmt_tick(x, width), fmt_tick(x + width, width));
                for (k, (count, total, colour, what)) in [
                    (get(&h.all, i), all_n, light, "jobs"),
                    (get(&h.without_killed, i), wk_n, c, "jobs not killed at their estimate"),
                ]
                .into_iter()
                .enumerate()
                {
                    let a = (x + width * (0.08 + 0.42 * k as f64), count as f64);
                    let b = (x + width * (0.5 + 0.42 * k as f64), 0.0);
                    let _ = chart.draw_series(std::iter::once(Rectangle::new(
                        [a, b],
                        rgba(colour, colour.a as f64 / 255.0).filled(),
                    )));
                    let (x0, y0) = chart.backend_coord(&a);
                    let (x1, y1) = chart.backend_coord(&b);
                    let rect = (x0.min(x1), y0.min(y1).min(y1 - 3), x0.max(x1), y0.max(y1));
                    let share = if total > 0 { 100.0 * count as f64 / total as f64 } else { 0.0 };
                    let text = format!(
                        "{policy}: {} {what} ({}%) with accuracy {range}",
                        fmt_tick(count as f64, 1.0),
                        fmt_number(share)
                    );
                    hits.push(Hit { rect, series: index, index: 2 * i + k, text });
                }
            }
        },
        nothing_below,
    )?;
    let columns = ["accuracy", "all jobs", "without killed"].map(String::from).to_vec();
    let rows = (0..bins)
        .map(|i| {
            let x = i as f64 * width;
            vec![
                format!("{}-{}%", fmt_tick(x, width), fmt_tick(x + width, width)),
                get(&h.all, i).to_string(),
                get(&h.without_killed, i).to_string(),
            ]
        })
        .collect();
    chart.table = Table { title: format!("{}: jobs by prediction accuracy", run.policy), columns, rows };
    Ok(chart)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_are_nearest_rank() {
        let v: Vec<i64> = (1..=10).collect();
        let q = quantiles(&v, 200);
        assert_eq!(q.len(), 201);
        assert_eq!(q[0], 1);
        assert_eq!(q[100], 5); // median of 1..10 by nearest rank
        assert_eq!(q[190], 10); // 95%: rank ceil(9.5) = 10
        assert_eq!(q[200], 10);
        assert!(quantiles(&[], 200).is_empty());
    }

    #[test]
    fn clipping_cuts_lines_at_the_window() {
        let p = [(0.0, 0.0), (10.0, 10.0), (20.0, 20.0)];
        let c = clip(&p, 5.0, 15.0);
        assert_eq!(c, vec![(5.0, 5.0, 0), (10.0, 10.0, 1), (15.0, 15.0, 2)]);
    }

    fn counts(values: &[(&str, f64)]) -> Vec<RunView> {
        values
            .iter()
            .map(|&(policy, v)| RunView {
                policy: policy.to_string(),
                metrics: [("jobs_backfilled".to_string(), Some(v))].into_iter().collect(),
                ..Default::default()
            })
            .collect()
    }

    #[test]
    fn wide_ranges_go_on_a_log_axis() {
        let which = CompareChart::MetricBars { metric: "jobs_backfilled".into() };
        let opts = ChartOptions { width: 640, height: 360, ..Default::default() };
        // 10, 100 and 1000 span a factor of 100 (over LOG_SPREAD): each decade is as long as
        // the next, so the bars' ends are evenly spaced, and the ticks are the decades.
        let chart = compare_chart(&counts(&[("a", 10.0), ("b", 100.0), ("c", 1000.0)]), &which, &opts).unwrap();
        let ends: Vec<i32> = chart.hits.iter().map(|h| h.rect.2).collect();
        assert!(((ends[1] - ends[0]) - (ends[2] - ends[1])).abs() <= 1, "{ends:?}");
        assert!(ends[0] > chart.plot.0 + 20, "the shortest bar is visible: {ends:?}");
        let t = chart.list.texts();
        for label in ["10", "100", "1000"] {
            assert!(t.contains(&label), "tick {label} in {t:?}");
        }
        assert!(chart.svg().contains("log scale"));
        // 10 to 200 is a factor of 20: a linear axis from 0, the 10 bar a twentieth of the 200.
        let chart = compare_chart(&counts(&[("a", 10.0), ("b", 200.0)]), &which, &opts).unwrap();
        let (x0, x1) = (chart.plot.0, [chart.hits[0].rect.2, chart.hits[1].rect.2]);
        assert_eq!(chart.hits[0].rect.0, x0);
        assert!((((x1[1] - x0) as f64 / (x1[0] - x0) as f64) - 20.0).abs() < 2.0, "{x0} {x1:?}");
        assert!(!chart.svg().contains("log scale"));
    }

    #[test]
    fn ramp_runs_light_to_dark() {
        assert_eq!(ramp(0.0), Colour::rgb(0xfd, 0xe7, 0x25));
        assert_eq!(ramp(1.0), Colour::rgb(0x44, 0x01, 0x54));
    }
}
