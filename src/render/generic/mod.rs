//! Charts of any table of numbers, for the studies' figures, asked for by value as a [`Spec`]
//! (the page builds one from numbers it already has; the command line from the same numbers):
//!
//! - [`bars`](mod@bars): grouped bars (a value per category and series) and bars (one value per name,
//!   each in its own colour, names down the side);
//! - [`lines`](mod@lines): lines (a value per x and series; x linear, log, dates, or labelled such as
//!   ω = ∞) and means with their spread (error bars over categories);
//! - [`heatmap`](mod@heatmap): heatmaps (a value per row and column, with counts), one or several panels
//!   on one colour scale.
//!
//! Series take [`palette`](super::chart::palette) colours in order unless they name one, so a
//! policy or scheme can keep its colour from chart to chart.

pub mod bars;
pub mod heatmap;
pub mod lines;

use plotters::coord::Shift;
use plotters::drawing::DrawingArea;
use plotters::element::Text;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{FontStyle, IntoFont, RGBColor};
use serde::{Deserialize, Serialize};

pub use bars::{bars, grouped_bars, Bar};
pub use heatmap::{heatmap, heatmaps, Panel};
pub use lines::{error_bars, lines, lines_on, Spread, XScale};

use super::axis::{fmt_number, fmt_tick, linear_ticks, nice_max, Tick};
use super::chart::{label_style, series_colour, Chart, ChartOptions, LegendEntry, Sizes, Table};
use super::display::{text_size, Colour, Recorder, FONT_FAMILY};

/// One named series: a value per category or per x (None: missing).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Series {
    /// Its name in the legend.
    pub name: String,
    /// Its values, in the order of the categories or xs.
    pub values: Vec<Option<f64>>,
    /// Its [`palette`](super::chart::palette) index (default: its place among the series).
    #[serde(default)]
    pub colour: Option<usize>,
    /// The second of a pair sharing a colour (high and low priority): a paler tint, and dashed
    /// when drawn as a line.
    #[serde(default)]
    pub pale: bool,
    /// Lines only: the least and greatest value behind each value (over seeds or runs), drawn
    /// as a whisker through its point (empty: none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spread: Vec<Option<(f64, f64)>>,
}

impl Series {
    /// A series in its place's colour.
    pub fn new(name: impl Into<String>, values: Vec<Option<f64>>) -> Series {
        Series { name: name.into(), values, colour: None, pale: false, spread: Vec::new() }
    }

    /// The spread behind value `i`, if any.
    pub(crate) fn spread_at(&self, i: usize) -> Option<(f64, f64)> {
        self.spread.get(i).copied().flatten().filter(|(a, b)| a.is_finite() && b.is_finite())
    }
}

/// What a generic chart shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Labels {
    /// Title.
    pub title: String,
    /// A line under the title: definitions, what is better.
    pub subtitle: String,
    /// The horizontal axis (a heatmap's columns).
    pub x: String,
    /// The vertical axis (a heatmap's rows).
    pub y: String,
    /// A log scale on the values (all must be positive; others are left out).
    pub log: bool,
    /// What a value is, for hit texts, tables and a heatmap's colour key (empty: the value
    /// axis's description).
    pub value: String,
    /// Written after every value in hit texts and value labels: `%`, ` h`.
    pub unit: String,
    /// What a count counts (heatmap cells, error bars): `jobs`, `configurations`.
    pub count: String,
}

impl Default for Labels {
    fn default() -> Labels {
        Labels {
            title: String::new(),
            subtitle: String::new(),
            x: String::new(),
            y: String::new(),
            log: false,
            value: String::new(),
            unit: String::new(),
            count: "jobs".to_string(),
        }
    }
}

impl Labels {
    /// A value as hit texts and labels write it: three significant digits and the unit.
    pub(crate) fn say(&self, v: f64) -> String {
        format!("{}{}", fmt_number(v), self.unit)
    }

    /// What a value is: [`Labels::value`], else the axis given.
    pub(crate) fn what<'a>(&'a self, axis: &'a str) -> &'a str {
        if self.value.is_empty() {
            axis
        } else {
            &self.value
        }
    }

    /// What counts count, plural.
    pub(crate) fn noun(&self) -> &str {
        if self.count.is_empty() {
            "items"
        } else {
            &self.count
        }
    }

    /// `n` of what counts count: `1 job`, `1,234 jobs`.
    pub(crate) fn counted(&self, n: u64) -> String {
        let noun = self.noun();
        let noun = if n == 1 { noun.strip_suffix('s').unwrap_or(noun) } else { noun };
        format!("{} {noun}", fmt_tick(n as f64, 1.0))
    }
}

/// The colour of series `k`: the one it names, else its place's; paler when it is the second
/// of a pair.
pub(crate) fn colour_of(colour: Option<usize>, pale: bool, k: usize) -> Colour {
    let c = series_colour(colour.unwrap_or(k));
    if pale {
        tint(c)
    } else {
        c
    }
}

/// A colour mixed a little over halfway with white.
pub(crate) fn tint(c: Colour) -> Colour {
    let mix = |v: u8| (v as u32 + (255 - v as u32) * 11 / 20) as u8;
    Colour::rgb(mix(c.r), mix(c.g), mix(c.b))
}

fn legend(series: &[Series]) -> Vec<LegendEntry> {
    series
        .iter()
        .enumerate()
        .map(|(i, s)| LegendEntry { label: s.name.clone(), colour: colour_of(s.colour, s.pale, i), series: i })
        .collect()
}

/// Value ticks over `vals`: from 0 on a linear axis (below it when values are negative),
/// decades on a log one; returns the axis range and ticks.
pub(crate) fn value_axis(vals: impl Iterator<Item = f64>, log: bool, max_ticks: usize) -> (f64, f64, Vec<Tick>) {
    let vals = vals.filter(|v| v.is_finite());
    if log {
        let (lo, hi) = vals.filter(|&v| v > 0.0).fold((f64::INFINITY, 0.0f64), |(a, b), v| (a.min(v), b.max(v)));
        let (lo, hi) = if hi > 0.0 { (lo, hi) } else { (1.0, 10.0) };
        let lo = 10f64.powi(lo.log10().floor() as i32);
        let hi = 10f64.powi((hi.log10().ceil() as i32).max(lo.log10() as i32 + 1));
        let decades = (hi / lo).log10().round() as i32;
        // Decade labels are short: twice as many fit as the linear ticks the height allows.
        let every = (decades as usize).div_ceil(2 * max_ticks.max(2) - 1).max(1);
        let ticks = (0..=decades)
            .filter(|d| (*d as usize).is_multiple_of(every))
            .map(|d| lo * 10f64.powi(d))
            .map(|v| (v, if v >= 1.0 { fmt_tick(v, 1.0) } else { format!("{v}") }))
            .collect();
        (lo, hi, ticks)
    } else {
        let (bottom, top) = vals.fold((0.0f64, 0.0f64), |(a, b), v| (a.min(v), b.max(v)));
        if bottom < 0.0 && top > 0.0 {
            // One step either side of 0, so 0 and both ends of the axis are labelled ticks.
            let probe = linear_ticks(bottom, top, max_ticks);
            let step = probe.windows(2).map(|p| p[1].0 - p[0].0).next().unwrap_or(top - bottom);
            let (k0, k1) = ((bottom / step).floor() as i64, (top / step).ceil() as i64);
            let ticks = (k0..=k1).map(|k| (k as f64 * step, fmt_tick(k as f64 * step, step))).collect();
            return (k0 as f64 * step, k1 as f64 * step, ticks);
        }
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

/// The categories along x, each at the middle of its slot: every one labelled when they fit
/// side by side in a chart `width` wide, else every k-th (the pointer names each).
pub(crate) fn category_ticks(categories: &[String], width: u32, s: &Sizes) -> Vec<Tick> {
    let slot = (width as f64 - 90.0).max(40.0) / categories.len().max(1) as f64;
    let widest = categories.iter().map(|c| text_size(c, s.label).0).max().unwrap_or(0) as f64 + 8.0;
    let every = (widest / slot).ceil().max(1.0) as usize;
    categories.iter().enumerate().filter(|(i, _)| i % every == 0).map(|(i, c)| (i as f64 + 0.5, c.clone())).collect()
}

/// Every finite value of `series`.
fn all_values(series: &[Series]) -> impl Iterator<Item = f64> + '_ {
    series
        .iter()
        .flat_map(|s| s.values.iter().flatten().copied().chain(s.spread.iter().flatten().flat_map(|&(a, b)| [a, b])))
}

/// A number for a table cell: exactly the value (the shortest text that reads back as it), so
/// a reader or a test gets what was drawn.
pub(crate) fn exact(v: Option<f64>) -> String {
    v.filter(|v| v.is_finite()).map_or(String::new(), |v| v.to_string())
}

/// The numbers of a chart of series: a row per category or x, a column per series.
fn table(labels: &Labels, first: &str, rows: &[String], series: &[Series]) -> Table {
    let mut columns = vec![if first.is_empty() { "x".to_string() } else { first.to_string() }];
    for s in series {
        columns.push(s.name.clone());
        if !s.spread.is_empty() {
            columns.extend([format!("{} least", s.name), format!("{} most", s.name)]);
        }
    }
    let rows = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut row = vec![r.clone()];
            for s in series {
                row.push(exact(s.values.get(i).copied().flatten()));
                if !s.spread.is_empty() {
                    let range = s.spread_at(i);
                    row.extend([exact(range.map(|r| r.0)), exact(range.map(|r| r.1))]);
                }
            }
            row
        })
        .collect();
    Table { title: labels.title.clone(), columns, rows }
}

/// Draws one line of text anchored at `pos` (vertically centred).
pub(crate) fn draw_text(
    root: &DrawingArea<Recorder<'_>, Shift>,
    text: &str,
    pos: (i32, i32),
    size: f64,
    colour: RGBColor,
    bold: bool,
    h: HPos,
) {
    let style =
        if bold { (FONT_FAMILY, size, FontStyle::Bold).into_font().color(&colour) } else { label_style(size, colour) };
    let _ = root.draw(&Text::new(text.to_string(), pos, style.pos(Pos::new(h, VPos::Center))));
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
    /// [`bars()`].
    Bars {
        /// Titles and axes (`x` is the values', `y` the names').
        labels: Labels,
        /// One bar each, top to bottom.
        bars: Vec<Bar>,
    },
    /// [`lines_on`].
    Lines {
        /// Titles and axes.
        labels: Labels,
        /// The x of each value.
        xs: Vec<f64>,
        /// A value per x in each.
        series: Vec<Series>,
        /// How x reads.
        #[serde(default)]
        x_scale: XScale,
        /// A label per x (`∞`, `1 min`): the axis shows these at the xs instead of numbers.
        #[serde(default)]
        x_labels: Vec<String>,
    },
    /// [`error_bars`].
    ErrorBars {
        /// Titles and axes.
        labels: Labels,
        /// The groups along x.
        categories: Vec<String>,
        /// A mean and spread per category in each.
        series: Vec<Spread>,
    },
    /// [`heatmap()`].
    Heatmap {
        /// Titles, axes (`x` the columns', `y` the rows'), the value's name and a log scale.
        labels: Labels,
        /// Row labels, top to bottom.
        rows: Vec<String>,
        /// Column labels, left to right.
        cols: Vec<String>,
        /// `values[row][col]` (None: an empty cell).
        values: Vec<Vec<Option<f64>>>,
        /// `counts[row][col]`, written in each cell (0: an empty cell).
        #[serde(default)]
        counts: Option<Vec<Vec<u64>>>,
        /// The colour scale's ends, to share one scale between charts (default: the values').
        #[serde(default)]
        range: Option<(f64, f64)>,
    },
    /// [`heatmaps`].
    Heatmaps {
        /// Titles, axes, the value's name and a log scale.
        labels: Labels,
        /// Row labels, top to bottom.
        rows: Vec<String>,
        /// Column labels, left to right.
        cols: Vec<String>,
        /// One heatmap each, on one colour scale.
        panels: Vec<Panel>,
        /// The colour scale's ends (default: the values').
        #[serde(default)]
        range: Option<(f64, f64)>,
    },
}

/// Draws a [`Spec`].
pub fn draw(spec: &Spec, opts: &ChartOptions) -> Result<Chart, String> {
    match spec {
        Spec::GroupedBars { labels, categories, series } => grouped_bars(labels, categories, series, opts),
        Spec::Bars { labels, bars: items } => bars(labels, items, opts),
        Spec::Lines { labels, xs, series, x_scale, x_labels } => lines_on(labels, xs, series, *x_scale, x_labels, opts),
        Spec::ErrorBars { labels, categories, series } => error_bars(labels, categories, series, opts),
        Spec::Heatmap { labels, rows, cols, values, counts, range } => {
            heatmap(labels, rows, cols, values, counts.as_deref(), *range, opts)
        }
        Spec::Heatmaps { labels, rows, cols, panels, range } => heatmaps(labels, rows, cols, panels, *range, opts),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_read_the_pages_json() {
        let spec: Spec = serde_json::from_str(
            r#"{"kind": "heatmap", "labels": {"title": "t", "log": true}, "rows": ["a"], "cols": ["x", "y"],
                "values": [[1.5, null]], "counts": [[3, 0]], "range": [1, 100]}"#,
        )
        .unwrap();
        let Spec::Heatmap { labels, values, counts, range, .. } = &spec else { panic!("{spec:?}") };
        assert_eq!((labels.count.as_str(), labels.log), ("jobs", true));
        assert_eq!(values, &vec![vec![Some(1.5), None]]);
        assert_eq!(counts, &Some(vec![vec![3, 0]]));
        assert_eq!(range, &Some((1.0, 100.0)));
        let spec: Spec = serde_json::from_str(
            r#"{"kind": "lines", "labels": {}, "xs": [0, 1], "x_labels": ["0", "∞"],
                "series": [{"name": "Est", "values": [1, 2], "colour": 3, "pale": true}]}"#,
        )
        .unwrap();
        let Spec::Lines { x_scale, x_labels, series, .. } = &spec else { panic!("{spec:?}") };
        assert_eq!((*x_scale, x_labels.len(), series[0].colour, series[0].pale), (XScale::Linear, 2, Some(3), true));
    }

    #[test]
    fn labels_say_values_and_counts() {
        let l = Labels { unit: "%".into(), count: "configurations".into(), ..Default::default() };
        assert_eq!(l.say(12.345), "12.3%");
        assert_eq!(l.counted(1), "1 configuration");
        assert_eq!(l.counted(12_345), "12,345 configurations");
        assert_eq!(Labels::default().counted(2), "2 jobs");
        assert_eq!(tint(Colour::rgb(0, 100, 255)), Colour::rgb(140, 185, 255));
        assert_eq!(exact(Some(0.1 + 0.2)), "0.30000000000000004");
        assert_eq!(exact(None), "");
    }

    #[test]
    fn value_axes_either_side_of_zero_share_a_step() {
        let (lo, hi, ticks) = value_axis([-0.68, 0.24].into_iter(), false, 6);
        assert_eq!((lo, hi), (-0.8, 0.4));
        let labels: Vec<&str> = ticks.iter().map(|t| t.1.as_str()).collect();
        assert_eq!(labels, ["-0.8", "-0.6", "-0.4", "-0.2", "0.0", "0.2", "0.4"]);
        let (lo, hi, _) = value_axis([3.0, 93.0].into_iter(), false, 6);
        assert_eq!((lo, hi), (0.0, 100.0));
        let (lo, hi, ticks) = value_axis([3.0, 93.0].into_iter(), true, 6);
        assert_eq!((lo, hi, ticks.len()), (1.0, 100.0, 3));
    }

    #[test]
    fn category_labels_that_would_touch_are_thinned() {
        let widths: Vec<String> =
            ["1", "2", "3-4", "5-8", "9-16", "17-32", "33-64", "65-128", "129-256", "257-512", "513+"]
                .map(String::from)
                .to_vec();
        let s = Sizes::of(&ChartOptions::default());
        assert_eq!(category_ticks(&widths, 1200, &s).len(), 11);
        let phone = Sizes::of(&ChartOptions { compact: true, ..Default::default() });
        let narrow: Vec<String> = category_ticks(&widths, 390, &phone).into_iter().map(|t| t.1).collect();
        assert_eq!(narrow, ["1", "3-4", "9-16", "33-64", "129-256", "513+"]);
    }
}
