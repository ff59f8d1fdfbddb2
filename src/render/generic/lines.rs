//! Lines through a value per x (x on a linear or log axis, dates, or labelled points such as
//! ω = 0, 1, ∞), and means with their spread as error bars over categories.

use plotters::coord::combinators::IntoLogRange;
use plotters::coord::ranged1d::Ranged;
use plotters::coord::Shift;
use plotters::drawing::DrawingArea;
use plotters::element::{Circle, PathElement};
use plotters::style::Color;
use serde::{Deserialize, Serialize};

use super::super::axis::{fmt_tick, fmt_time, linear_ticks, time_axis_name, time_ticks, Tick};
use super::super::chart::{
    cartesian, nothing_below, rgba, AxisSpec, Chart, ChartOptions, Ctx, Frame, Hit, LegendEntry, Sizes, Table,
};
use super::super::display::{text_size, Colour, Recorder};
use super::bars::zero_line;
use super::{all_values, category_ticks, colour_of, exact, legend, table, value_axis, Labels, Series};

/// How the x values of [`lines_on`] read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum XScale {
    /// Numbers on a linear axis.
    #[default]
    Linear,
    /// Positive numbers on a log axis (others are left out).
    Log,
    /// Trace seconds on a time axis: dates with the options' `unix_start`, else days.
    Time,
}

/// One line per series through its values at `xs` (linear x axis).
pub fn lines(labels: &Labels, xs: &[f64], series: &[Series], opts: &ChartOptions) -> Result<Chart, String> {
    lines_on(labels, xs, series, XScale::Linear, &[], opts)
}

/// At most as many of `ticks` as fit side by side along `pixels`: every k-th, the first kept.
fn thin(ticks: Vec<Tick>, pixels: i32, size: f64) -> Vec<Tick> {
    let widest = ticks.iter().map(|t| text_size(&t.1, size).0 as i32).max().unwrap_or(0) + 10;
    let fit = (pixels / widest.max(1)).max(2) as usize;
    let every = ticks.len().div_ceil(fit).max(1);
    ticks.into_iter().enumerate().filter(|(i, _)| i % every == 0).map(|(_, t)| t).collect()
}

/// Ticks of a log axis over `[lo, hi]`: the decades, or 1, 2 and 5 times them when the range
/// holds fewer than two.
fn log_ticks(lo: f64, hi: f64) -> Vec<Tick> {
    let inside = |v: &f64| *v >= lo * (1.0 - 1e-9) && *v <= hi * (1.0 + 1e-9);
    let (a, b) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
    let mut v: Vec<f64> = (a..=b).map(|d| 10f64.powi(d)).filter(inside).collect();
    if v.len() < 2 {
        v = (a..=b).flat_map(|d| [1.0, 2.0, 5.0].map(|m| m * 10f64.powi(d))).filter(inside).collect();
    }
    v.into_iter().map(|x| (x, if x >= 1.0 { fmt_tick(x, 1.0) } else { format!("{x}") })).collect()
}

/// One line per series through its values at `xs`, x read as `x_scale` says; `x_labels` (one
/// per x) label the axis at the xs and name them in hit texts and the table (evenly spaced
/// categories such as ω = 0, 1, 2, 4, ∞ at xs 0 to 4).
pub fn lines_on(
    labels: &Labels,
    xs: &[f64],
    series: &[Series],
    x_scale: XScale,
    x_labels: &[String],
    opts: &ChartOptions,
) -> Result<Chart, String> {
    let usable = |x: f64| x.is_finite() && (x_scale != XScale::Log || x > 0.0);
    if !xs.iter().any(|&x| usable(x)) || series.is_empty() {
        return Err("nothing to chart".to_string());
    }
    let s = Sizes::of(opts);
    let (w, _) = opts.size();
    let named = x_labels.len() == xs.len();
    let (x0, x1) = xs
        .iter()
        .copied()
        .filter(|&x| usable(x))
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| (a.min(x), b.max(x)));
    let (x0, x1) = match (x1 > x0, x_scale) {
        (true, _) => (x0, x1),
        (false, XScale::Log) => (x0 / 2.0, x0 * 2.0),
        (false, XScale::Time) => (x0 - 3600.0, x0 + 3600.0),
        (false, XScale::Linear) => (x0 - 0.5, x0 + 0.5),
    };
    // Labelled and few xs keep a little room beyond the first and last, for their labels.
    let pad = if named || (x_scale == XScale::Linear && xs.len() <= 12) { (x1 - x0) * 0.04 } else { 0.0 };
    let (x0, x1) = (x0 - pad, x1 + pad);
    let approx_w = w as i32 - 110;
    let unix = opts.unix_start;
    let x_ticks: Vec<Tick> = if named {
        let ticks = xs.iter().zip(x_labels).filter(|(x, _)| usable(**x)).map(|(&x, l)| (x, l.clone())).collect();
        thin(ticks, approx_w, s.label)
    } else {
        match x_scale {
            XScale::Time => time_ticks(x0, x1, s.time_ticks(approx_w), unix),
            XScale::Log => thin(log_ticks(x0, x1), approx_w, s.label),
            // The xs themselves label the axis when few, else plotters' ticks over their range;
            // each the shortest decimal that reads back as the value: 1, 1.25, 1.5.
            XScale::Linear if xs.len() <= 12 => {
                thin(xs.iter().map(|&x| (x, format!("{x}"))).collect(), approx_w, s.label)
            }
            XScale::Linear => linear_ticks(x0, x1, s.ticks(approx_w)),
        }
    };
    let x_desc = if x_scale == XScale::Time && labels.x.is_empty() {
        time_axis_name(unix).to_string()
    } else {
        labels.x.clone()
    };
    // What each x is called in hit texts and the table.
    let x_text: Vec<String> = xs
        .iter()
        .enumerate()
        .map(|(i, &x)| match (named, x_scale) {
            (true, _) => x_labels[i].clone(),
            (false, XScale::Time) => fmt_time(x, unix),
            (false, _) => format!("{x}"),
        })
        .collect();
    let shown: Vec<f64> = all_values(series).filter(|v| !labels.log || *v > 0.0).collect();
    let (lo, hi, y_ticks) = value_axis(shown.into_iter(), labels.log, s.ticks_y(s.plot_height(opts.size().1)));
    let frame = Frame {
        title: labels.title.clone(),
        subtitle: labels.subtitle.clone(),
        x: AxisSpec { ticks: x_ticks, desc: x_desc.clone(), grid: true },
        y: AxisSpec { ticks: y_ticks, desc: labels.y.clone(), grid: true },
        legend: legend(series),
        ..Default::default()
    };
    let at = if x_scale == XScale::Time || x_desc.is_empty() { String::new() } else { format!("{x_desc} = ") };
    let plot = LinePlot {
        labels,
        xs,
        x_text: &x_text,
        at: &at,
        series,
        highlight: opts.highlight,
        usable: &usable,
        across: x0..x1,
        lo,
    };
    let log_x = x_scale == XScale::Log;
    let mut chart = match (log_x, labels.log) {
        (false, false) => cartesian(opts, &frame, x0..x1, lo..hi, |c, r, _, h| plot.draw(c, r, h), nothing_below)?,
        (false, true) => {
            cartesian(opts, &frame, x0..x1, (lo..hi).log_scale(), |c, r, _, h| plot.draw(c, r, h), nothing_below)?
        }
        (true, false) => {
            cartesian(opts, &frame, (x0..x1).log_scale(), lo..hi, |c, r, _, h| plot.draw(c, r, h), nothing_below)?
        }
        (true, true) => cartesian(
            opts,
            &frame,
            (x0..x1).log_scale(),
            (lo..hi).log_scale(),
            |c, r, _, h| plot.draw(c, r, h),
            nothing_below,
        )?,
    };
    chart.reach = 8.0;
    let first = if x_desc.is_empty() { "x" } else { x_desc.as_str() };
    chart.table = table(labels, first, &x_text, series);
    Ok(chart)
}

/// What [`lines_on`] draws, once laid out.
struct LinePlot<'a> {
    labels: &'a Labels,
    xs: &'a [f64],
    x_text: &'a [String],
    at: &'a str,
    series: &'a [Series],
    highlight: Option<usize>,
    usable: &'a dyn Fn(f64) -> bool,
    across: std::ops::Range<f64>,
    lo: f64,
}

impl LinePlot<'_> {
    /// Draws the lines, their points and the zero line on any pair of axes.
    fn draw<X: Ranged<ValueType = f64>, Y: Ranged<ValueType = f64>>(
        &self,
        chart: &mut Ctx<'_, '_, X, Y>,
        root: &DrawingArea<Recorder<'_>, Shift>,
        hits: &mut Vec<Hit>,
    ) {
        let (labels, series, highlight) = (self.labels, self.series, self.highlight);
        zero_line(chart, labels, self.across.clone(), self.lo);
        for (k, ser) in series.iter().enumerate() {
            let c = colour_of(ser.colour, ser.pale, k);
            let faded = highlight.is_some_and(|h| h != k && h < series.len());
            let width = if highlight == Some(k) { 3 } else { 2 };
            let pts: Vec<(usize, f64, f64)> = self
                .xs
                .iter()
                .zip(&ser.values)
                .enumerate()
                .filter(|(_, (&x, _))| (self.usable)(x))
                .filter_map(|(i, (&x, v))| v.filter(|v| v.is_finite() && (!labels.log || *v > 0.0)).map(|v| (i, x, v)))
                .collect();
            let style = rgba(c, if faded { 0.3 } else { 1.0 }).stroke_width(width);
            let pixels: Vec<(i32, i32)> = pts.iter().map(|p| chart.backend_coord(&(p.1, p.2))).collect();
            if ser.pale {
                for dash in dashes(&pixels, 7.0, 5.0) {
                    let _ = root.draw(&PathElement::new(dash, style));
                }
            } else {
                let _ = root.draw(&PathElement::new(pixels.clone(), style));
            }
            for (&(i, x, v), &(px, py)) in pts.iter().zip(&pixels) {
                let range = ser.spread_at(i).filter(|(a, b)| !labels.log || (*a > 0.0 && *b > 0.0));
                if let Some((a, b)) = range {
                    // A whisker from the least to the greatest value, capped, under the point.
                    let (top, bottom) = (chart.backend_coord(&(x, b)).1, chart.backend_coord(&(x, a)).1);
                    let thin = rgba(c, if faded { 0.25 } else { 0.7 }).stroke_width(1);
                    let _ = root.draw(&PathElement::new(vec![(px, top), (px, bottom)], thin));
                    for y in [top, bottom] {
                        let _ = root.draw(&PathElement::new(vec![(px - 4, y), (px + 4, y)], thin));
                    }
                }
                let _ = root.draw(&Circle::new((px, py), 3, rgba(c, 1.0).filled()));
                let spread =
                    range.map_or(String::new(), |(a, b)| format!(" (from {} to {})", labels.say(a), labels.say(b)));
                let text = format!("{} at {}{}: {}{spread}", ser.name, self.at, self.x_text[i], labels.say(v));
                hits.push(Hit { rect: (px, py, px + 1, py + 1), series: k, index: i, text });
            }
        }
    }
}

/// A polyline cut into dashes of `on` pixels with gaps of `off`, carried across its corners.
pub(crate) fn dashes(points: &[(i32, i32)], on: f64, off: f64) -> Vec<Vec<(i32, i32)>> {
    let mut out = Vec::new();
    let mut current: Vec<(i32, i32)> = Vec::new();
    let (mut drawing, mut left) = (true, on);
    let point = |(x, y): (f64, f64)| (x.round() as i32, y.round() as i32);
    for pair in points.windows(2) {
        let (a, b) = ((pair[0].0 as f64, pair[0].1 as f64), (pair[1].0 as f64, pair[1].1 as f64));
        // sqrt is exact to the last bit on every target, so the dashes are the same everywhere.
        let length = ((b.0 - a.0) * (b.0 - a.0) + (b.1 - a.1) * (b.1 - a.1)).sqrt();
        let mut done = 0.0;
        if drawing && current.is_empty() {
            current.push(pair[0]);
        }
        while length - done > left {
            done += left;
            let t = done / length;
            let p = point((a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t));
            if drawing {
                current.push(p);
                out.push(std::mem::take(&mut current));
            } else {
                current.push(p);
            }
            drawing = !drawing;
            left = if drawing { on } else { off };
        }
        left -= length - done;
        if drawing {
            current.push(pair[1]);
        } else {
            current.clear();
        }
    }
    if drawing && current.len() >= 2 {
        out.push(current);
    }
    out
}

/// The means and spreads of one series of [`error_bars`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    /// Its name in the legend and hit texts.
    pub name: String,
    /// A mean per category (None: missing).
    pub means: Vec<Option<f64>>,
    /// The half-length of each whisker: the mean ± this (a standard deviation).
    pub spreads: Vec<Option<f64>>,
    /// How many values each mean is over (empty: not said).
    #[serde(default)]
    pub counts: Vec<u64>,
    /// Its [`palette`](super::super::chart::palette) index (default: its place).
    #[serde(default)]
    pub colour: Option<usize>,
}

/// Means with whiskers of ± their spread over categories along x, each series' means joined by
/// a line (Tsafrir et al. Fig. 10: degradation by window size, mean ± standard deviation).
pub fn error_bars(
    labels: &Labels,
    categories: &[String],
    series: &[Spread],
    opts: &ChartOptions,
) -> Result<Chart, String> {
    if categories.is_empty() || series.is_empty() {
        return Err("nothing to chart".to_string());
    }
    let s = Sizes::of(opts);
    let nc = categories.len();
    let ns = series.len();
    let point = |sp: &Spread, i: usize| -> Option<(f64, f64)> {
        let m = sp.means.get(i).copied().flatten().filter(|v| v.is_finite())?;
        let e = sp.spreads.get(i).copied().flatten().filter(|v| v.is_finite()).map_or(0.0, f64::abs);
        Some((m, e))
    };
    let ends = series.iter().flat_map(|sp| (0..nc).filter_map(move |i| point(sp, i)).flat_map(|(m, e)| [m - e, m + e]));
    let (lo, hi, y_ticks) = value_axis(ends, false, s.ticks_y(s.plot_height(opts.size().1)));
    let x_ticks = category_ticks(categories, opts.size().0, &s);
    let frame = Frame {
        title: labels.title.clone(),
        subtitle: labels.subtitle.clone(),
        x: AxisSpec { ticks: x_ticks, desc: labels.x.clone(), grid: false },
        y: AxisSpec { ticks: y_ticks, desc: labels.y.clone(), grid: true },
        legend: series
            .iter()
            .enumerate()
            .map(|(k, sp)| LegendEntry { label: sp.name.clone(), colour: colour_of(sp.colour, false, k), series: k })
            .collect(),
        ..Default::default()
    };
    // Several series side by side within a category, so their whiskers do not overlap.
    let step = (0.5 / ns as f64).min(0.14);
    let offset = |k: usize| (k as f64 - (ns as f64 - 1.0) / 2.0) * step;
    let lead = |sp: &Spread| if sp.name.is_empty() { String::new() } else { format!("{}, ", sp.name) };
    let x_name = if labels.x.is_empty() { String::new() } else { format!("{} ", labels.x) };
    let mut chart = cartesian(
        opts,
        &frame,
        0.0..nc as f64,
        lo..hi,
        |chart, root, s, hits| {
            let cap = ((chart.backend_coord(&(1.0, 0.0)).0 - chart.backend_coord(&(0.0, 0.0)).0) as f64 * step * 0.35)
                .clamp(3.0, 9.0) as i32;
            for (k, sp) in series.iter().enumerate() {
                let c: Colour = colour_of(sp.colour, false, k);
                let style = rgba(c, 1.0).stroke_width(2);
                let pts: Vec<(usize, f64, f64, f64)> =
                    (0..nc).filter_map(|i| point(sp, i).map(|(m, e)| (i, i as f64 + 0.5 + offset(k), m, e))).collect();
                let path: Vec<(i32, i32)> = pts.iter().map(|p| chart.backend_coord(&(p.1, p.2))).collect();
                let _ = root.draw(&PathElement::new(path, rgba(c, 0.6).stroke_width(1)));
                for &(i, x, m, e) in &pts {
                    let (px, top) = chart.backend_coord(&(x, m + e));
                    let (_, bottom) = chart.backend_coord(&(x, m - e));
                    let (_, py) = chart.backend_coord(&(x, m));
                    let _ = root.draw(&PathElement::new(vec![(px, top), (px, bottom)], style));
                    for y in [top, bottom] {
                        let _ = root.draw(&PathElement::new(vec![(px - cap, y), (px + cap, y)], style));
                    }
                    let _ = root.draw(&Circle::new((px, py), 4, rgba(c, 1.0).filled()));
                    let over = sp.counts.get(i).map_or(String::new(), |&n| format!(" over {}", labels.counted(n)));
                    let text =
                        format!("{}{x_name}{}: {} ± {}{over}", lead(sp), categories[i], labels.say(m), labels.say(e));
                    let reach = cap.max(s.label as i32 / 2);
                    let rect = (px - reach, top.min(py - 4), px + reach + 1, bottom.max(py + 5));
                    hits.push(Hit { rect, series: k, index: i, text });
                }
            }
        },
        nothing_below,
    )?;
    let first = if labels.x.is_empty() { "category".to_string() } else { labels.x.clone() };
    let mut columns = vec![first];
    let prefix = |sp: &Spread, what: &str| if ns == 1 { what.to_string() } else { format!("{}: {what}", sp.name) };
    let count_name = if labels.count.is_empty() { "count".to_string() } else { labels.count.clone() };
    for sp in series {
        columns.push(prefix(sp, "mean"));
        columns.push(prefix(sp, "±"));
        if !sp.counts.is_empty() {
            columns.push(prefix(sp, &count_name));
        }
    }
    let rows = categories
        .iter()
        .enumerate()
        .map(|(i, cat)| {
            let mut row = vec![cat.clone()];
            for sp in series {
                row.push(exact(sp.means.get(i).copied().flatten()));
                row.push(exact(sp.spreads.get(i).copied().flatten()));
                if !sp.counts.is_empty() {
                    row.push(sp.counts.get(i).map_or(String::new(), |n| n.to_string()));
                }
            }
            row
        })
        .collect();
    chart.table = Table { title: labels.title.clone(), columns, rows };
    Ok(chart)
}

#[cfg(test)]
mod tests {
    use super::super::super::chart::series_colour;
    use super::super::super::display::Primitive;
    use super::*;

    fn two() -> Vec<Series> {
        vec![
            Series::new("NS", vec![Some(10.0), Some(100.0), None]),
            Series::new("SS", vec![Some(2.0), Some(20.0), Some(5.0)]),
        ]
    }

    #[test]
    fn lines_put_a_point_per_value() {
        let labels = Labels { title: "t".into(), x: "load".into(), ..Default::default() };
        let c = lines(&labels, &[1.0, 1.2, 1.4], &two(), &ChartOptions::default()).unwrap();
        assert_eq!(c.hits.len(), 5);
        let p = &c.hits[4];
        assert_eq!(c.hit(p.rect.0 as f64 + 4.0, p.rect.1 as f64).unwrap().text, "SS at load = 1.4: 5.00");
        assert_eq!(c.table.columns, ["load", "NS", "SS"]);
        // Negative values get room below 0.
        let down = vec![Series::new("R", vec![Some(-0.3), Some(0.2)])];
        let c = lines(&labels, &[1.0, 1.25], &down, &ChartOptions::default()).unwrap();
        let (lo, hi) = (c.hits[0].rect.1, c.hits[1].rect.1);
        assert!(lo < c.plot.3 && hi >= c.plot.1 && lo > hi, "{lo} {hi} {:?}", c.plot);
    }

    #[test]
    fn a_spread_is_a_whisker_the_axis_holds_named_and_tabled() {
        let labels = Labels { x: "load".into(), ..Default::default() };
        let s = Series { spread: vec![Some((8.0, 30.0)), None], ..Series::new("EASY", vec![Some(10.0), Some(12.0)]) };
        let c = lines(&labels, &[0.5, 0.9], &[s], &ChartOptions::default()).unwrap();
        assert_eq!(c.hits[0].text, "EASY at load = 0.5: 10.0 (from 8.00 to 30.0)");
        assert_eq!(c.hits[1].text, "EASY at load = 0.9: 12.0");
        assert_eq!(c.table.columns, ["load", "EASY", "EASY least", "EASY most"]);
        assert_eq!(c.table.rows[0], ["0.5", "10", "8", "30"]);
        assert_eq!(c.table.rows[1], ["0.9", "12", "", ""]);
        // The axis (from 0) reaches the whisker's top, 30, above every value: 10 sits in its lower third.
        let (y, (top, bottom)) = (c.hits[0].rect.1, (c.plot.1, c.plot.3));
        assert!((bottom - y) * 3 <= bottom - top + 3, "{y} in {top}..{bottom}");
    }

    #[test]
    fn labelled_xs_sit_evenly_and_name_their_points() {
        let labels = Labels { x: "ω".into(), unit: " h".into(), ..Default::default() };
        let omegas: Vec<String> = ["0", "1", "2", "4", "∞"].map(String::from).to_vec();
        let est = Series::new("Est", vec![Some(100.0), Some(80.0), Some(70.0), Some(60.0), Some(50.0)]);
        let c =
            lines_on(&labels, &[0.0, 1.0, 2.0, 3.0, 4.0], &[est], XScale::Linear, &omegas, &ChartOptions::default())
                .unwrap();
        let xs: Vec<i32> = c.hits.iter().map(|h| h.rect.0).collect();
        // A twenty-fifth of the span beyond the first and last x.
        let step = xs[1] - xs[0];
        assert!(((xs[0] - c.plot.0) * 25 - step * 4).abs() <= 25, "{xs:?} {:?}", c.plot);
        for k in 1..4 {
            assert!(((xs[k + 1] - xs[k]) - (xs[1] - xs[0])).abs() <= 1, "{xs:?}");
        }
        assert_eq!(c.hits[4].text, "Est at ω = ∞: 50.0 h");
        assert_eq!(c.table.rows[4], ["∞", "50"]);
        let texts: Vec<&str> = c.list.texts();
        assert!(texts.contains(&"∞"), "{texts:?}");
    }

    #[test]
    fn time_and_log_axes() {
        // Two days from 1996-09-30 00:00 UTC: dated ticks and hit texts.
        let start = 844_041_600;
        let opts = ChartOptions { unix_start: Some(start), ..Default::default() };
        let r = vec![Series::new("load 1", vec![Some(0.5), Some(-0.25)])];
        let c = lines_on(&Labels::default(), &[3600.0, 2.0 * 86_400.0], &r, XScale::Time, &[], &opts).unwrap();
        assert_eq!(c.hits[0].text, "load 1 at 1996-09-30 01:00: 0.500");
        assert_eq!(c.table.columns, ["date (UTC)", "load 1"]);
        assert_eq!(c.table.rows[1], ["1996-10-02 00:00", "-0.25"]);
        // On a log x axis from 1 to 100, 10 is halfway across.
        let l = vec![Series::new("tail", vec![Some(1.0), Some(0.5), Some(0.1)])];
        let c =
            lines_on(&Labels::default(), &[1.0, 10.0, 100.0], &l, XScale::Log, &[], &ChartOptions::default()).unwrap();
        let x: Vec<i32> = c.hits.iter().map(|h| h.rect.0).collect();
        assert!(((x[1] - x[0]) - (x[2] - x[1])).abs() <= 1, "{x:?}");
    }

    #[test]
    fn pale_series_are_dashed() {
        let d = dashes(&[(0, 0), (20, 0)], 7.0, 5.0);
        assert_eq!(d, vec![vec![(0, 0), (7, 0)], vec![(12, 0), (19, 0)]]);
        // Across a corner the dash goes on.
        let d = dashes(&[(0, 0), (4, 0), (4, 10)], 7.0, 5.0);
        assert_eq!(d[0], vec![(0, 0), (4, 0), (4, 3)]);
        assert_eq!(d[1], vec![(4, 8), (4, 10)]);
        let mut low = Series::new("low", vec![Some(1.0), Some(2.0), Some(3.0)]);
        low.pale = true;
        let c = lines(&Labels::default(), &[0.0, 1.0, 2.0], &[low], &ChartOptions::default()).unwrap();
        let pale = super::super::tint(series_colour(0));
        let paths =
            c.list.items.iter().filter(|p| matches!(p, Primitive::Path { colour, .. } if *colour == pale)).count();
        assert!(paths > 10, "{paths} dashes");
    }

    #[test]
    fn error_bars_reach_a_spread_either_side_of_the_mean() {
        let cats: Vec<String> = ["1", "2", "3"].map(String::from).to_vec();
        let sp = Spread {
            name: "easy++".into(),
            means: vec![Some(10.0), Some(20.0), Some(5.0)],
            spreads: vec![Some(5.0), Some(0.0), Some(2.5)],
            counts: vec![4, 4, 3],
            colour: None,
        };
        let labels =
            Labels { x: "window".into(), unit: "%".into(), count: "configurations".into(), ..Default::default() };
        let c = error_bars(&labels, &cats, &[sp], &ChartOptions::default()).unwrap();
        assert_eq!(c.hits.len(), 3);
        // The first whisker runs from 5 to 15: its ends as far from the mean's dot either way.
        let whisker = c
            .list
            .items
            .iter()
            .find_map(|p| match p {
                Primitive::Path { points, colour, width: 2 }
                    if *colour == series_colour(0) && points[0].0 == points[1].0 =>
                {
                    Some(points.clone())
                }
                _ => None,
            })
            .unwrap();
        let dot = c
            .list
            .items
            .iter()
            .find_map(|p| match p {
                Primitive::Circle { x, y, radius: 4, .. } => Some((*x, *y)),
                _ => None,
            })
            .unwrap();
        assert_eq!(whisker[0].0, dot.0);
        assert!(((whisker[1].1 - dot.1) - (dot.1 - whisker[0].1)).abs() <= 1, "{whisker:?} {dot:?}");
        let h = &c.hits[0];
        let said = c.hit(((h.rect.0 + h.rect.2) / 2) as f64, dot.1 as f64).unwrap();
        assert_eq!(said.text, "easy++, window 1: 10.0% ± 5.00% over 4 configurations");
        assert_eq!(c.table.columns, ["window", "mean", "±", "configurations"]);
        assert_eq!(c.table.rows[2], ["3", "5", "2.5", "3"]);
    }
}
