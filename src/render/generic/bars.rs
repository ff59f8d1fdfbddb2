//! Bars: grouped by category (a bar per series in each group, categories along x), or one bar
//! per name (names down the side, where long policy names stay readable, each bar in its own
//! colour and its value at its end).

use plotters::coord::combinators::IntoLogRange;
use plotters::coord::ranged1d::Ranged;
use plotters::coord::Shift;
use plotters::drawing::DrawingArea;
use plotters::element::{PathElement, Rectangle};
use plotters::style::text_anchor::HPos;
use plotters::style::{Color, RGBColor};
use serde::{Deserialize, Serialize};

use super::super::axis::{linear_ticks, nice_max, Tick};
use super::super::chart::{
    cartesian, fit, nothing_below, plot_rect, rgba, y_label_width, AxisSpec, Chart, ChartOptions, Ctx, Frame, Hit,
    Sizes, Table, INK, MUTED,
};
use super::super::display::{text_size, Recorder};
use super::{all_values, category_ticks, colour_of, draw_text, exact, legend, table, value_axis, Labels, Series};

/// The line at 0 on a value axis that goes below it.
pub(crate) const ZERO: RGBColor = RGBColor(0x44, 0x44, 0x44);

/// Draws the bars of [`grouped_bars`] on either kind of value axis.
fn draw_grouped<X: Ranged<ValueType = f64>, Y: Ranged<ValueType = f64>>(
    chart: &mut Ctx<'_, '_, X, Y>,
    hits: &mut Vec<Hit>,
    labels: &Labels,
    categories: &[String],
    series: &[Series],
    lo: f64,
) {
    let (nc, ns) = (categories.len(), series.len());
    let width = 0.84 / ns as f64;
    // Bars rise from 0, or fall from it when negative; on a log axis they stand on its bottom.
    let base = if labels.log { lo } else { 0.0 };
    for (k, ser) in series.iter().enumerate() {
        let c = colour_of(ser.colour, ser.pale, k);
        for (i, v) in ser.values.iter().enumerate().take(nc) {
            let Some(v) = v.filter(|v| v.is_finite() && (!labels.log || *v > 0.0)) else { continue };
            let x0 = i as f64 + 0.08 + width * k as f64;
            let (a, b) = ((x0, v.max(lo)), (x0 + width * 0.9, base));
            let _ = chart.draw_series(std::iter::once(Rectangle::new([a, b], rgba(c, 1.0).filled())));
            let (ax, ay) = chart.backend_coord(&a);
            let (bx, by) = chart.backend_coord(&b);
            // At least two pixels tall, so a value of 0 can still be found.
            let (top, bottom) = (ay.min(by), ay.max(by));
            let (top, bottom) = if bottom - top < 2 { (by - 1, by + 1) } else { (top, bottom) };
            let rect = (ax.min(bx), top, ax.max(bx).max(ax.min(bx) + 2), bottom);
            let text = format!("{}, {}: {}", ser.name, categories[i], labels.say(v));
            hits.push(Hit { rect, series: k, index: i, text });
        }
    }
    zero_line(chart, labels, 0.0..nc as f64, lo);
}

/// A dark line across the plot at value 0 when the value axis `lo` goes below it.
pub(crate) fn zero_line<X: Ranged<ValueType = f64>, Y: Ranged<ValueType = f64>>(
    chart: &mut Ctx<'_, '_, X, Y>,
    labels: &Labels,
    across: std::ops::Range<f64>,
    lo: f64,
) {
    if !labels.log && lo < 0.0 {
        let line = PathElement::new(vec![(across.start, 0.0), (across.end, 0.0)], ZERO.stroke_width(1));
        let _ = chart.draw_series(std::iter::once(line));
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
    let (lo, hi, y_ticks) = value_axis(all_values(series), labels.log, s.ticks_y(s.plot_height(opts.size().1)));
    let x_ticks = category_ticks(categories, opts.size().0, &s);
    let frame = Frame {
        title: labels.title.clone(),
        subtitle: labels.subtitle.clone(),
        x: AxisSpec { ticks: x_ticks, desc: labels.x.clone(), grid: false },
        y: AxisSpec { ticks: y_ticks, desc: labels.y.clone(), grid: true },
        legend: legend(series),
        ..Default::default()
    };
    let mut chart = if labels.log {
        let draw = |c: &mut Ctx<'_, '_, _, _>, h: &mut Vec<Hit>| draw_grouped(c, h, labels, categories, series, lo);
        cartesian(opts, &frame, 0.0..nc as f64, (lo..hi).log_scale(), |c, _, _, h| draw(c, h), nothing_below)?
    } else {
        let draw = |c: &mut Ctx<'_, '_, _, _>, h: &mut Vec<Hit>| draw_grouped(c, h, labels, categories, series, lo);
        cartesian(opts, &frame, 0.0..nc as f64, lo..hi, |c, _, _, h| draw(c, h), nothing_below)?
    };
    chart.table = table(labels, &labels.x, categories, series);
    Ok(chart)
}

/// One bar of [`bars`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bar {
    /// Its name, beside it.
    pub name: String,
    /// Its value (None: written "n/a").
    pub value: Option<f64>,
    /// Its [`palette`](super::super::chart::palette) index (default: its place).
    #[serde(default)]
    pub colour: Option<usize>,
}

/// One horizontal bar per name, top to bottom in the order given, each in its own colour with
/// its value written at its end; `labels.x` names the value axis, `labels.y` the names.
pub fn bars(labels: &Labels, items: &[Bar], opts: &ChartOptions) -> Result<Chart, String> {
    if items.is_empty() {
        return Err("nothing to chart".to_string());
    }
    let (w, h) = opts.size();
    let s = Sizes::of(opts);
    let n = items.len();
    let shown = |b: &Bar| b.value.filter(|v| v.is_finite() && (!labels.log || *v > 0.0));
    // Names down the side, smaller when many bars share the height.
    let approx_plot_h = s.plot_height(h) + (s.label * 2.0) as i32;
    let pitch = approx_plot_h as f64 / n as f64;
    let name_size = s.label.min((pitch / 1.15).floor()).max(7.0);
    let names: Vec<String> = items.iter().map(|b| fit(&b.name, name_size, w as i32 * 2 / 5)).collect();
    let y_ticks: Vec<Tick> = names.iter().enumerate().map(|(i, l)| ((n - i) as f64 - 0.5, l.clone())).collect();
    let y_area = y_label_width(&y_ticks, &Sizes { label: name_size, ..s });
    let values: Vec<String> = items.iter().map(|b| shown(b).map_or("n/a".to_string(), |v| labels.say(v))).collect();
    let label_w = values.iter().map(|l| text_size(l, name_size).0 as i32).max().unwrap_or(0) + 6;
    let plot_w = (w as i32 - y_area - 3 * s.margin - 12).max(40);
    let max_ticks = s.ticks(plot_w);
    // The longest bar leaves room for its value after it.
    let room = (plot_w - label_w).max(plot_w / 2) as f64;
    let (lo, hi, x_ticks) = if labels.log {
        value_axis(items.iter().filter_map(shown).map(|v| v * plot_w as f64 / room), true, max_ticks)
    } else {
        let top = items.iter().filter_map(shown).fold(0.0f64, f64::max);
        let bottom = items.iter().filter_map(shown).fold(0.0f64, f64::min);
        let hi = if top > 0.0 { nice_max(top * plot_w as f64 / room, max_ticks) } else { 0.0 };
        let lo = if bottom < 0.0 { -nice_max(-bottom, max_ticks) } else { 0.0 };
        let hi = if hi > lo { hi } else { 1.0 };
        let ticks =
            linear_ticks(lo, hi, max_ticks).into_iter().filter(|t| t.0 >= lo && t.0 <= hi * (1.0 + 1e-9)).collect();
        (lo, hi, ticks)
    };
    let frame = Frame {
        title: labels.title.clone(),
        subtitle: labels.subtitle.clone(),
        x: AxisSpec { ticks: x_ticks, desc: labels.x.clone(), grid: true },
        y: AxisSpec { ticks: y_ticks, desc: labels.y.clone(), grid: false },
        y_label: name_size,
        ..Default::default()
    };
    // Bars fill 70% of their row, but no more than 32 px however few.
    let half = 0.35f64.min(16.0 / pitch.max(1.0));
    let what = labels.what(&labels.x).to_string();
    let plot = BarPlot { labels, items, values: &values, what: &what, name_size, half, lo };
    let mut chart = if labels.log {
        cartesian(opts, &frame, (lo..hi).log_scale(), 0.0..n as f64, |c, r, _, h| plot.draw(c, r, h), nothing_below)?
    } else {
        cartesian(opts, &frame, lo..hi, 0.0..n as f64, |c, r, _, h| plot.draw(c, r, h), nothing_below)?
    };
    let first = if labels.y.is_empty() { "name".to_string() } else { labels.y.clone() };
    let value = if what.is_empty() { "value".to_string() } else { what };
    let rows = items.iter().map(|b| vec![b.name.clone(), exact(shown(b))]).collect();
    chart.table = Table { title: labels.title.clone(), columns: vec![first, value], rows };
    Ok(chart)
}

/// What [`bars`] draws, once laid out.
struct BarPlot<'a> {
    labels: &'a Labels,
    items: &'a [Bar],
    values: &'a [String],
    what: &'a str,
    name_size: f64,
    half: f64,
    lo: f64,
}

impl BarPlot<'_> {
    fn shown(&self, b: &Bar) -> Option<f64> {
        b.value.filter(|v| v.is_finite() && (!self.labels.log || *v > 0.0))
    }

    /// Draws the bars and their values on either kind of value axis.
    fn draw<X: Ranged<ValueType = f64>, Y: Ranged<ValueType = f64>>(
        &self,
        chart: &mut Ctx<'_, '_, X, Y>,
        root: &DrawingArea<Recorder<'_>, Shift>,
        hits: &mut Vec<Hit>,
    ) {
        let (labels, n, size) = (self.labels, self.items.len(), self.name_size);
        let plot = plot_rect(chart);
        let base = if labels.log { self.lo } else { 0.0 };
        for (i, b) in self.items.iter().enumerate() {
            let yc = (n - i) as f64 - 0.5;
            let Some(v) = self.shown(b) else {
                let (x, y) = chart.backend_coord(&(base, yc));
                draw_text(root, "n/a", (x + 4, y), size, MUTED, false, HPos::Left);
                continue;
            };
            let c = colour_of(b.colour, false, i);
            let (p, q) = ((base, yc + self.half), (v, yc - self.half));
            let _ = chart.draw_series(std::iter::once(Rectangle::new([p, q], rgba(c, 1.0).filled())));
            let (x0, y0) = chart.backend_coord(&p);
            let (x1, y1) = chart.backend_coord(&q);
            let rect = (x0.min(x1), y0.min(y1), x0.max(x1).max(x0.min(x1) + 3), y0.max(y1));
            // The value after the bar (before it when negative), inside its end when no room.
            let label = &self.values[i];
            let lw = text_size(label, size).0 as i32;
            let ym = (rect.1 + rect.3) / 2;
            if v < 0.0 {
                draw_text(root, label, (rect.0 - 4, ym), size, INK, false, HPos::Right);
            } else if rect.2 + 4 + lw <= plot.2 {
                draw_text(root, label, (rect.2 + 4, ym), size, INK, false, HPos::Left);
            } else {
                draw_text(root, label, (rect.2 - 4, ym), size, RGBColor(255, 255, 255), true, HPos::Right);
            }
            let what = self.what;
            let text =
                if what.is_empty() { format!("{}: {label}", b.name) } else { format!("{}: {what} {label}", b.name) };
            hits.push(Hit { rect, series: i, index: 0, text });
        }
        if !labels.log && self.lo < 0.0 {
            let line = PathElement::new(vec![(0.0, 0.0), (0.0, n as f64)], ZERO.stroke_width(1));
            let _ = chart.draw_series(std::iter::once(line));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::chart::series_colour;
    use super::super::super::display::{Colour, Primitive};
    use super::*;

    fn two() -> Vec<Series> {
        vec![
            Series::new("NS", vec![Some(10.0), Some(100.0), None]),
            Series::new("SS", vec![Some(2.0), Some(20.0), Some(5.0)]),
        ]
    }

    fn rects_of(chart: &Chart, colour: Colour) -> Vec<(i32, i32, i32, i32)> {
        chart
            .list
            .items
            .iter()
            .filter_map(|p| match p {
                Primitive::Rect { x0, y0, x1, y1, colour: c, fill: true, .. } if *c == colour => {
                    Some((*x0, *y0, *x1, *y1))
                }
                _ => None,
            })
            .collect()
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
    fn negative_bars_hang_from_a_zero_line_in_the_colours_asked() {
        let cats: Vec<String> = ["all", "short"].map(String::from).to_vec();
        let mut low = Series::new("load 1 low", vec![Some(-0.5), Some(1.0)]);
        (low.colour, low.pale) = (Some(2), true);
        let high = Series { colour: Some(2), ..Series::new("load 1 high", vec![Some(0.5), Some(1.0)]) };
        let labels = Labels { unit: "".into(), ..Default::default() };
        let c = grouped_bars(&labels, &cats, &[high, low], &ChartOptions::default()).unwrap();
        let inside = |r: &(i32, i32, i32, i32)| r.0 >= c.plot.0 && r.3 <= c.plot.3;
        let dark: Vec<_> = rects_of(&c, series_colour(2)).into_iter().filter(inside).collect();
        let pale: Vec<_> = rects_of(&c, super::super::tint(series_colour(2))).into_iter().filter(inside).collect();
        assert_eq!((dark.len(), pale.len()), (2, 2));
        // -0.5 hangs from 0 as far as 0.5 rises from it.
        let zero = dark[0].3;
        assert_eq!(pale[0].1, zero);
        assert!((pale[0].3 - zero - (zero - dark[0].1)).abs() <= 1, "{dark:?} {pale:?}");
        assert!(c.list.items.iter().any(|p| matches!(p, Primitive::Path { points, colour, .. }
            if *colour == Colour::rgb(0x44, 0x44, 0x44) && points.len() == 2 && points[0].1 == zero && points[1].1 == zero)));
        let h = c.hits.iter().find(|h| h.series == 1 && h.index == 0).unwrap();
        assert_eq!(h.text, "load 1 low, all: -0.500");
        assert_eq!(h.rect.1, zero);
    }

    #[test]
    fn bars_run_from_zero_to_their_values_in_their_colours() {
        let items = vec![
            Bar { name: "cplant24.nomax.all".into(), value: Some(10.0), colour: Some(0) },
            Bar { name: "cons.72max".into(), value: Some(40.0), colour: Some(6) },
            Bar { name: "consdyn".into(), value: None, colour: None },
        ];
        let labels = Labels { x: "missed fair starts".into(), unit: "%".into(), ..Default::default() };
        let c = bars(&labels, &items, &ChartOptions { width: 640, height: 300, ..Default::default() }).unwrap();
        let (px0, py0, _, py1) = c.plot;
        let first = rects_of(&c, series_colour(0));
        let second = rects_of(&c, series_colour(6));
        assert_eq!((first.len(), second.len()), (1, 1));
        assert_eq!((first[0].0, second[0].0), (px0, px0), "bars start at 0");
        // 40 is four times as long as 10.
        let (l1, l4) = (first[0].2 - px0, second[0].2 - px0);
        assert!((l4 - 4 * l1).abs() <= 3, "{l1} {l4}");
        // Three rows, the first at the top.
        let row = (py1 - py0) as f64 / 3.0;
        assert!((((first[0].1 + first[0].3) / 2 - py0) as f64 - row / 2.0).abs() <= 1.5);
        assert!(first[0].3 < second[0].1);
        assert_eq!(c.hits.len(), 2);
        let h = c.hit(((second[0].0 + second[0].2) / 2) as f64, ((second[0].1 + second[0].3) / 2) as f64).unwrap();
        assert_eq!(h.text, "cons.72max: missed fair starts 40.0%");
        assert!(c.list.items.iter().any(|p| matches!(p, Primitive::Text { text, .. } if text == "n/a")));
        assert_eq!(c.table.columns, ["name", "missed fair starts"]);
        assert_eq!(c.table.rows, [["cplant24.nomax.all", "10"], ["cons.72max", "40"], ["consdyn", ""]]);
    }
}
