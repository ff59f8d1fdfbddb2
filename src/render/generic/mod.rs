//! Charts of any table of numbers, for the studies' figures: grouped bars (a value per
//! category and series) and lines (a value per x and series), series coloured by
//! [`palette`](super::chart::palette) in order.

use plotters::coord::combinators::IntoLogRange;
use plotters::coord::ranged1d::Ranged;
use plotters::coord::types::RangedCoordf64;
use plotters::element::{Circle, PathElement, Rectangle};
use plotters::style::Color;
use serde::{Deserialize, Serialize};

use super::axis::{fmt_number, fmt_tick, linear_ticks, nice_max, Tick};
use super::chart::{
    cartesian, nothing_below, rgba, series_colour, AxisSpec, Chart, ChartOptions, Ctx, Frame, Hit, LegendEntry, Sizes,
    Table,
};

/// One named series: a value per category or per x (None: missing).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Series {
    /// Its name in the legend.
    pub name: String,
    /// Its values, in the order of the categories or xs.
    pub values: Vec<Option<f64>>,
}

/// What a generic chart shows.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Labels {
    /// Title.
    pub title: String,
    /// A line under the title: definitions, what is better.
    pub subtitle: String,
    /// The horizontal axis.
    pub x: String,
    /// The vertical axis.
    pub y: String,
    /// A log scale on the values (all must be positive; others are left out).
    pub log: bool,
}

fn legend(series: &[Series]) -> Vec<LegendEntry> {
    series
        .iter()
        .enumerate()
        .map(|(i, s)| LegendEntry { label: s.name.clone(), colour: series_colour(i), series: i })
        .collect()
}

/// Value ticks over the values of `series`: from 0 on a linear axis, decades on a log one;
/// returns the axis range and ticks.
fn value_axis(series: &[Series], log: bool, max_ticks: usize) -> (f64, f64, Vec<Tick>) {
    let vals = series.iter().flat_map(|s| s.values.iter().flatten().copied()).filter(|v| v.is_finite());
    if log {
        let (lo, hi) = vals.filter(|&v| v > 0.0).fold((f64::INFINITY, 0.0f64), |(a, b), v| (a.min(v), b.max(v)));
        let (lo, hi) = if hi > 0.0 { (lo, hi) } else { (1.0, 10.0) };
        let lo = 10f64.powi(lo.log10().floor() as i32);
        let hi = 10f64.powi((hi.log10().ceil() as i32).max(lo.log10() as i32 + 1));
        let decades = (hi / lo).log10().round() as i32;
        let every = (decades as usize).div_ceil(max_ticks.max(2) - 1).max(1);
        let ticks = (0..=decades)
            .filter(|d| (*d as usize).is_multiple_of(every))
            .map(|d| lo * 10f64.powi(d))
            .map(|v| (v, if v >= 1.0 { fmt_tick(v, 1.0) } else { format!("{v}") }))
            .collect();
        (lo, hi, ticks)
    } else {
        // From 0, or from below it when values are negative (a relative change).
        let (bottom, top) = vals.fold((0.0f64, 0.0f64), |(a, b), v| (a.min(v), b.max(v)));
        let hi = if top > 0.0 { nice_max(top, max_ticks) } else { 0.0 };
        let lo = if bottom < 0.0 { -nice_max(-bottom, max_ticks) } else { 0.0 };
        let hi = if hi > lo { hi } else { 1.0 };
        let ticks = linear_ticks(lo, hi, max_ticks)
            .into_iter()
            .filter(|t| t.0 >= lo - (hi - lo) * 1e-9 && t.0 <= hi + (hi - lo) * 1e-9)
            .collect();
        (lo, hi, ticks)
    }
}

/// Draws the bars of [`grouped_bars`] on either kind of value axis.
fn draw_bars<Y: Ranged<ValueType = f64>>(
    chart: &mut Ctx<'_, '_, RangedCoordf64, Y>,
    hits: &mut Vec<Hit>,
    labels: &Labels,
    categories: &[String],
    series: &[Series],
    lo: f64,
) {
    let (nc, ns) = (categories.len(), series.len());
    let width = 0.84 / ns as f64;
    for (k, ser) in series.iter().enumerate() {
        let c = series_colour(k);
        for (i, v) in ser.values.iter().enumerate().take(nc) {
            let Some(v) = v.filter(|v| v.is_finite() && (!labels.log || *v > 0.0)) else { continue };
            let x0 = i as f64 + 0.08 + width * k as f64;
            let (a, b) = ((x0, v.max(lo)), (x0 + width * 0.9, lo));
            let _ = chart.draw_series(std::iter::once(Rectangle::new([a, b], rgba(c, 1.0).filled())));
            let (ax, ay) = chart.backend_coord(&a);
            let (bx, by) = chart.backend_coord(&b);
            let rect = (ax.min(bx), ay.min(by).min(by - 2), ax.max(bx).max(ax.min(bx) + 2), ay.max(by));
            let text = format!("{}, {}: {}", ser.name, categories[i], fmt_number(v));
            hits.push(Hit { rect, series: k, index: i, text });
        }
    }
}

/// Bars grouped by category (one bar per series in each group), categories along x.
pub fn grouped_bars(
    labels: &Labels,
    categories: &[String],
    series: &[Series],
    opts: &ChartOptions,
) -> Result<Chart, String> {
    if categories.is_empty() || series.is_empty() {
        return Err("nothing to chart".to_string());
    }
    let s = Sizes::of(opts);
    let nc = categories.len();
    let (lo, hi, y_ticks) = value_axis(series, labels.log, s.ticks_y(s.plot_height(opts.size().1)));
    let x_ticks: Vec<Tick> = categories.iter().enumerate().map(|(i, c)| (i as f64 + 0.5, c.clone())).collect();
    let frame = Frame {
        title: labels.title.clone(),
        subtitle: labels.subtitle.clone(),
        x: AxisSpec { ticks: x_ticks, desc: labels.x.clone(), grid: false },
        y: AxisSpec { ticks: y_ticks, desc: labels.y.clone(), grid: true },
        legend: legend(series),
        ..Default::default()
    };
    let mut chart = if labels.log {
        let ys = (lo..hi).log_scale();
        cartesian(
            opts,
            &frame,
            0.0..nc as f64,
            ys,
            |c, _, _, h| draw_bars(c, h, labels, categories, series, lo),
            nothing_below,
        )?
    } else {
        cartesian(
            opts,
            &frame,
            0.0..nc as f64,
            lo..hi,
            |c, _, _, h| draw_bars(c, h, labels, categories, series, lo),
            nothing_below,
        )?
    };
    chart.table = table(labels, "category", categories, series);
    Ok(chart)
}

/// Draws the lines of [`lines`] on either kind of value axis.
fn draw_lines<Y: Ranged<ValueType = f64>>(
    chart: &mut Ctx<'_, '_, RangedCoordf64, Y>,
    hits: &mut Vec<Hit>,
    labels: &Labels,
    xs: &[f64],
    series: &[Series],
    highlight: Option<usize>,
) {
    for (k, ser) in series.iter().enumerate() {
        let c = series_colour(k);
        let faded = highlight.is_some_and(|h| h != k && h < series.len());
        let width = if highlight == Some(k) { 3 } else { 2 };
        let pts: Vec<(usize, f64, f64)> = xs
            .iter()
            .zip(&ser.values)
            .enumerate()
            .filter_map(|(i, (&x, v))| v.filter(|v| v.is_finite() && (!labels.log || *v > 0.0)).map(|v| (i, x, v)))
            .collect();
        let style = rgba(c, if faded { 0.3 } else { 1.0 }).stroke_width(width);
        let path: Vec<(f64, f64)> = pts.iter().map(|p| (p.1, p.2)).collect();
        let _ = chart.draw_series(std::iter::once(PathElement::new(path, style)));
        for &(i, x, v) in &pts {
            let _ = chart.draw_series(std::iter::once(Circle::new((x, v), 3, rgba(c, 1.0).filled())));
            let (px, py) = chart.backend_coord(&(x, v));
            let text = format!("{} at {} = {x}: {}", ser.name, labels.x, fmt_number(v));
            hits.push(Hit { rect: (px, py, px + 1, py + 1), series: k, index: i, text });
        }
    }
}

/// One line per series through its values at `xs` (linear x axis).
pub fn lines(labels: &Labels, xs: &[f64], series: &[Series], opts: &ChartOptions) -> Result<Chart, String> {
    if xs.is_empty() || series.is_empty() {
        return Err("nothing to chart".to_string());
    }
    let s = Sizes::of(opts);
    let (x0, x1) = xs.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| (a.min(x), b.max(x)));
    let (x0, x1) = if x1 > x0 { (x0, x1) } else { (x0 - 0.5, x0 + 0.5) };
    // The xs themselves label the axis when few, else plotters' ticks over their range.
    let x_ticks: Vec<Tick> = if xs.len() <= 12 {
        // The shortest decimal that reads back as the value: 1, 1.25, 1.5.
        xs.iter().map(|&x| (x, format!("{x}"))).collect()
    } else {
        linear_ticks(x0, x1, s.ticks(opts.size().0 as i32 - 100))
    };
    let (lo, hi, y_ticks) = value_axis(series, labels.log, s.ticks_y(s.plot_height(opts.size().1)));
    let frame = Frame {
        title: labels.title.clone(),
        subtitle: labels.subtitle.clone(),
        x: AxisSpec { ticks: x_ticks, desc: labels.x.clone(), grid: true },
        y: AxisSpec { ticks: y_ticks, desc: labels.y.clone(), grid: true },
        legend: legend(series),
        ..Default::default()
    };
    let mut chart = if labels.log {
        cartesian(
            opts,
            &frame,
            x0..x1,
            (lo..hi).log_scale(),
            |c, _, _, h| draw_lines(c, h, labels, xs, series, opts.highlight),
            nothing_below,
        )?
    } else {
        cartesian(
            opts,
            &frame,
            x0..x1,
            lo..hi,
            |c, _, _, h| draw_lines(c, h, labels, xs, series, opts.highlight),
            nothing_below,
        )?
    };
    chart.reach = 8.0;
    let xs_text: Vec<String> = xs.iter().map(|&x| fmt_number(x)).collect();
    chart.table = table(labels, &labels.x, &xs_text, series);
    Ok(chart)
}

/// The numbers of a generic chart: a row per category or x, a column per series.
fn table(labels: &Labels, first: &str, rows: &[String], series: &[Series]) -> Table {
    let mut columns = vec![if first.is_empty() { "x".to_string() } else { first.to_string() }];
    columns.extend(series.iter().map(|s| s.name.clone()));
    let rows = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut row = vec![r.clone()];
            row.extend(
                series.iter().map(|s| s.values.get(i).copied().flatten().map_or(String::new(), |v| v.to_string())),
            );
            row
        })
        .collect();
    Table { title: labels.title.clone(), columns, rows }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two() -> Vec<Series> {
        vec![
            Series { name: "NS".into(), values: vec![Some(10.0), Some(100.0), None] },
            Series { name: "SS".into(), values: vec![Some(2.0), Some(20.0), Some(5.0)] },
        ]
    }

    #[test]
    fn grouped_bars_hit_each_bar_and_skip_missing_values() {
        let cats: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let labels = Labels { title: "t".into(), log: true, ..Default::default() };
        let c = grouped_bars(&labels, &cats, &two(), &ChartOptions::default()).unwrap();
        assert_eq!(c.hits.len(), 5);
        let h = &c.hits[1];
        assert_eq!((h.series, h.index), (0, 1));
        let centre = ((h.rect.0 + h.rect.2) / 2, (h.rect.1 + h.rect.3) / 2);
        assert_eq!(c.hit(centre.0 as f64, centre.1 as f64).map(|h| h.text.as_str()), Some("NS, b: 100"));
        // On a log axis from 1 to 100, 10 is halfway up.
        let bottom = c.hits[0].rect.3;
        let top10 = c.hits[0].rect.1;
        let top100 = c.hits[1].rect.1;
        assert!(((bottom - top10) * 2 - (bottom - top100)).abs() <= 2);
        assert_eq!(c.table.rows[2], ["c", "", "5"]);
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
        let down = vec![Series { name: "R".into(), values: vec![Some(-0.3), Some(0.2)] }];
        let c = lines(&labels, &[1.0, 1.25], &down, &ChartOptions::default()).unwrap();
        let (lo, hi) = (c.hits[0].rect.1, c.hits[1].rect.1);
        assert!(lo < c.plot.3 && hi >= c.plot.1 && lo > hi, "{lo} {hi} {:?}", c.plot);
    }
}

/// A generic chart as data, so the page can ask for one by value (through serde) and get the
/// same picture the command line draws from the same numbers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Spec {
    /// [`grouped_bars`].
    GroupedBars {
        /// Titles and axes.
        labels: Labels,
        /// The groups along x.
        categories: Vec<String>,
        /// A value per category in each.
        series: Vec<Series>,
    },
    /// [`lines`].
    Lines {
        /// Titles and axes.
        labels: Labels,
        /// The x of each value.
        xs: Vec<f64>,
        /// A value per x in each.
        series: Vec<Series>,
    },
}

/// Draws a [`Spec`].
pub fn draw(spec: &Spec, opts: &ChartOptions) -> Result<Chart, String> {
    match spec {
        Spec::GroupedBars { labels, categories, series } => grouped_bars(labels, categories, series, opts),
        Spec::Lines { labels, xs, series } => lines(labels, xs, series, opts),
    }
}
