//! Small multiples of a line chart: a panel per series, its line in its colour over the other
//! series' lines in grey, every panel on the same axes.
//!
//! Past about ten lines, one plot is a tangle whose legend asks the reader to tell apart dozens
//! of colours; a panel per series names each line in its title and still shows where it lies
//! among the others. The line under the pointer is also drawn, in its colour, in every other
//! panel, so any two series can be compared directly.

use plotters::drawing::IntoDrawingArea;
use plotters::element::{PathElement, Rectangle, Text};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{Color, FontStyle, IntoFont, RGBColor};

use super::axis::Tick;
use super::chart::{
    fit, header, header_height, label_style, rgba, thin_labels, Chart, ChartOptions, Hit, Sizes, Table, INK, MUTED,
    X_LABEL_GAP,
};
use super::display::{text_size, Colour, DisplayList, Recorder, FONT_FAMILY};
use super::line_labels::{pale, readable};

/// One series: its name, colour, line and the points the pointer finds on it.
pub(crate) struct Line {
    /// Its name, the panel's title.
    pub name: String,
    /// Its colour.
    pub colour: Colour,
    /// The line, in data units.
    pub path: Vec<(f64, f64)>,
    /// Points the pointer finds: x, y, the index within the series and what to say, in the
    /// order they take a pixel (the first to reach a pixel keeps it).
    pub marks: Vec<(f64, f64, usize, String)>,
}

/// How data maps onto a panel's axis.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Scale {
    /// Linear over `[lo, hi]`.
    Linear(f64, f64),
    /// Logarithmic over `[lo, hi]`, both positive.
    Log(f64, f64),
}

impl Scale {
    /// The share of the way from the axis's start to `v`.
    fn share(self, v: f64) -> f64 {
        match self {
            Scale::Linear(lo, hi) => (v - lo) / (hi - lo).max(f64::MIN_POSITIVE),
            Scale::Log(lo, hi) => (v.max(lo).ln() - lo.ln()) / (hi.ln() - lo.ln()).max(f64::MIN_POSITIVE),
        }
    }
}

/// What a set of small multiples shows.
pub(crate) struct Spec<'a> {
    /// The chart's title.
    pub title: String,
    /// What the panels show and how to read them.
    pub subtitle: String,
    /// Every series, a panel each, in order.
    pub lines: Vec<Line>,
    /// The shared x axis.
    pub x: Scale,
    /// The x ticks for a panel `width` pixels wide.
    pub x_ticks: &'a dyn Fn(i32) -> Vec<Tick>,
    /// Under the panels: what x is.
    pub x_desc: String,
    /// The y axis and its ticks for a panel `height` pixels tall (the axis from 0 to its end).
    pub y: &'a dyn Fn(i32) -> (Scale, Vec<Tick>),
}

/// Narrowest panel a multiple is laid out with when there is height for it.
fn min_panel_w(s: &Sizes) -> i32 {
    if s.label < 11.0 {
        100
    } else {
        170
    }
}

/// Least height of a panel's plot at the height the chart asks for.
fn min_panel_h(s: &Sizes) -> i32 {
    if s.label < 11.0 {
        56
    } else {
        72
    }
}

/// Panels at least this many times as wide as tall read best for lines over time.
const ASPECT: f64 = 2.0;

/// The grid the panels take.
#[derive(Debug, Clone, Copy)]
struct Grid {
    cols: i32,
    rows: i32,
    /// Left edge of the first column (after the y labels' gutter).
    x0: i32,
    /// Top of the first row's title.
    y0: i32,
    panel_w: i32,
    plot_h: i32,
    col_gap: i32,
    row_gap: i32,
    title_h: i32,
}

impl Grid {
    /// The plot of panel `k`: (x0, y0, x1, y1), end exclusive.
    fn plot(&self, k: usize) -> (i32, i32, i32, i32) {
        let (c, r) = (k as i32 % self.cols, k as i32 / self.cols);
        let x = self.x0 + c * (self.panel_w + self.col_gap);
        let y = self.y0 + r * (self.title_h + self.plot_h + self.row_gap) + self.title_h;
        (x, y, x + self.panel_w, y + self.plot_h)
    }
}

/// The fixed parts of the layout at width `w`: header, gutter, gaps and the strip under the grid.
struct Frame {
    top: i32,
    gutter: i32,
    col_gap: i32,
    row_gap: i32,
    title_h: i32,
    /// Tick marks and labels under the lowest panels, the description and the margin.
    bottom: i32,
}

fn frame(spec: &Spec<'_>, w: u32, s: &Sizes) -> Frame {
    let label_h = s.label.round() as i32;
    // The y labels are the widest a panel of any height could show (the axis's end).
    let (_, probe) = (spec.y)(400);
    let widest = probe.iter().map(|t| text_size(&t.1, s.label).0 as i32).max().unwrap_or(0);
    let desc = if spec.x_desc.is_empty() { 0 } else { label_h + 6 };
    Frame {
        top: header_height(&spec.title, &spec.subtitle, s, w) + s.margin / 2,
        gutter: widest + 2 * s.tick + 4,
        col_gap: (s.label * 1.0).round() as i32,
        row_gap: (s.label * 0.5).round() as i32,
        title_h: (s.label * 1.5).round() as i32,
        bottom: 2 * s.tick + label_h + 4 + desc + s.margin,
    }
}

/// The most columns whose panels are at least the narrowest width (at least one).
fn natural_cols(n: i32, avail_w: i32, f: &Frame, s: &Sizes) -> i32 {
    ((avail_w + f.col_gap) / (min_panel_w(s) + f.col_gap)).clamp(1, n.max(1))
}

fn grid(spec: &Spec<'_>, w: u32, h: u32, s: &Sizes) -> Grid {
    let f = frame(spec, w, s);
    let n = spec.lines.len().max(1) as i32;
    let avail_w = w as i32 - 2 * s.margin - f.gutter;
    let panel_w = |c: i32| ((avail_w - (c - 1) * f.col_gap) / c).max(10);
    let rows = |c: i32| (n + c - 1) / c;
    let plot_h = |c: i32| {
        let r = rows(c);
        ((h as i32 - f.top - f.bottom - r * f.title_h - (r - 1) * f.row_gap) / r).max(4)
    };
    // The natural columns when the height allows panels of their least height; else the
    // columns that give panels the most room for their shape.
    let natural = natural_cols(n, avail_w, &f, s);
    let cols = if plot_h(natural) >= min_panel_h(s) {
        natural
    } else {
        let score = |c: i32| (panel_w(c) as f64 / ASPECT).min(plot_h(c) as f64);
        (1..=n).max_by(|&a, &b| score(a).total_cmp(&score(b)).then(b.cmp(&a))).unwrap_or(1)
    };
    Grid {
        cols,
        rows: rows(cols),
        x0: s.margin + f.gutter,
        y0: f.top,
        panel_w: panel_w(cols),
        plot_h: plot_h(cols),
        col_gap: f.col_gap,
        row_gap: f.row_gap,
        title_h: f.title_h,
    }
}

/// The height at which every panel's plot is at least its least height (and about half as
/// tall as wide) at width `w`.
pub(crate) fn preferred_height(spec: &Spec<'_>, opts: &ChartOptions) -> u32 {
    let s = Sizes::of(opts);
    let w = opts.size().0;
    let f = frame(spec, w, &s);
    let n = spec.lines.len().max(1) as i32;
    let avail_w = w as i32 - 2 * s.margin - f.gutter;
    let cols = natural_cols(n, avail_w, &f, &s);
    let panel_w = (avail_w - (cols - 1) * f.col_gap) / cols;
    let plot_h = ((panel_w as f64 / ASPECT).round() as i32).clamp(min_panel_h(&s), 2 * min_panel_h(&s));
    let rows = (n + cols - 1) / cols;
    (f.top + rows * (f.title_h + plot_h) + (rows - 1) * f.row_gap + f.bottom) as u32
}

/// Draws the panels of `spec` (the table is left for the caller).
pub(crate) fn draw(spec: &Spec<'_>, opts: &ChartOptions) -> Chart {
    let (w, h) = opts.size();
    let s = Sizes::of(opts);
    let g = grid(spec, w, h, &s);
    let n = spec.lines.len();
    let highlight = opts.highlight.filter(|&i| i < n);
    let (ys, y_ticks) = (spec.y)(g.plot_h);
    let x_ticks = (spec.x_ticks)(g.panel_w);
    let mut list = DisplayList::default();
    let mut hits = Vec::new();
    {
        let root = Recorder::new(&mut list, w, h).into_drawing_area();
        let _ = root.fill(&RGBColor(255, 255, 255));
        header(&root, &spec.title, &spec.subtitle, &s, w);
        let to_px = |p: (i32, i32, i32, i32), x: f64, y: f64| {
            let px = p.0 as f64 + spec.x.share(x) * (p.2 - p.0 - 1) as f64;
            let py = (p.3 - 1) as f64 - ys.share(y) * (p.3 - p.1 - 1) as f64;
            (px.round() as i32, py.round() as i32)
        };
        // Each line in pixels of a panel: its own line a point per pixel it passes; the others,
        // thin grey context drawn 37 times over, a point per 2 px, which looks the same and
        // keeps the drawing small enough to redraw as the pointer moves.
        let pixels = |p, line: &Line, step: i32| {
            let mut out: Vec<(i32, i32)> = Vec::with_capacity(line.path.len());
            for (k, &(x, y)) in line.path.iter().enumerate() {
                let q = to_px(p, x, y);
                let near =
                    out.last().is_some_and(|l: &(i32, i32)| (l.0 - q.0).abs() < step && (l.1 - q.1).abs() < step);
                if out.last() != Some(&q) && (!near || k + 1 == line.path.len()) {
                    out.push(q);
                }
            }
            out
        };
        let grid_colour = RGBColor(0xe6, 0xe6, 0xe6);
        let axis_colour = RGBColor(0xb0, 0xb0, 0xb0);
        let context = Colour::rgb(0xcc, 0xcc, 0xcc);
        let y_at: Vec<i32> = y_ticks.iter().map(|t| to_px(g.plot(0), 0.0, t.0).1 - g.plot(0).1).collect();
        let y_labels = thin_labels(&y_ticks, &y_at, |_| s.label.round() as i32, 0);
        let x_at: Vec<i32> = x_ticks.iter().map(|t| to_px(g.plot(0), t.0, 0.0).0).collect();
        let x_width = |l: &str| text_size(l, s.label).0 as i32;
        let mut x_labels = thin_labels(&x_ticks, &x_at, x_width, X_LABEL_GAP);
        // The last label of a panel must also keep clear of the first of the panel to its right.
        let kept: Vec<usize> = (0..x_labels.len()).filter(|&i| !x_labels[i].1.is_empty()).collect();
        if let (Some(&first), Some(&last)) = (kept.first(), kept.last()) {
            let pitch = g.panel_w + g.col_gap;
            let right = x_at[last] + x_width(&x_labels[last].1) / 2;
            let left = x_at[first] - x_width(&x_labels[first].1) / 2 + pitch;
            if first != last && g.cols > 1 && left - right < X_LABEL_GAP {
                x_labels[last].1.clear();
            }
        }
        for (k, line) in spec.lines.iter().enumerate() {
            let p = g.plot(k);
            for t in &y_ticks {
                let (_, y) = to_px(p, 0.0, t.0);
                let _ = root.draw(&PathElement::new(vec![(p.0, y), (p.2 - 1, y)], grid_colour));
            }
            for t in &x_ticks {
                let (x, _) = to_px(p, t.0, 0.0);
                let _ = root.draw(&PathElement::new(vec![(x, p.1), (x, p.3 - 1)], grid_colour));
            }
            let _ = root.draw(&Rectangle::new([(p.0, p.1), (p.2 - 1, p.3 - 1)], axis_colour.stroke_width(1)));
            for (j, other) in spec.lines.iter().enumerate() {
                if j != k && Some(j) != highlight {
                    let _ = root.draw(&PathElement::new(pixels(p, other, 2), rgba(context, 1.0).stroke_width(1)));
                }
            }
            if let Some(hl) = highlight.filter(|&hl| hl != k) {
                let other = &spec.lines[hl];
                let _ = root.draw(&PathElement::new(pixels(p, other, 2), rgba(other.colour, 0.9).stroke_width(1)));
            }
            let width = if highlight == Some(k) { 3 } else { 2 };
            let own = pixels(p, line, 1);
            // A pale line (sand, light cyan) is edged in a darker shade, or it fades into the grey.
            if pale(line.colour) {
                let _ = root.draw(&PathElement::new(own.clone(), readable(line.colour).stroke_width(width + 2)));
            }
            let _ = root.draw(&PathElement::new(own, rgba(line.colour, 1.0).stroke_width(width)));
            let mut last = None;
            for (x, y, index, text) in &line.marks {
                let q = to_px(p, *x, *y);
                if last == Some(q) {
                    continue;
                }
                last = Some(q);
                hits.push(Hit { rect: (q.0, q.1, q.0 + 1, q.1 + 1), series: k, index: *index, text: text.clone() });
            }
            // The title: a swatch in the line's colour and the name, in smaller type when long.
            let swatch = (s.label * 0.8).round() as i32;
            let room = g.panel_w - swatch - 5;
            let chars = line.name.chars().count().max(1) as f64;
            let size = (room as f64 / (chars * 0.6 * 1.1)).clamp(7.0, s.label).min(s.label);
            let ty = p.1 - g.title_h / 2 - 1;
            let _ = root.draw(&Rectangle::new(
                [(p.0, ty - swatch / 2), (p.0 + swatch, ty - swatch / 2 + swatch)],
                rgba(line.colour, 1.0).filled(),
            ));
            let bold = highlight == Some(k);
            let font = if bold { FontStyle::Bold } else { FontStyle::Normal };
            let style = (FONT_FAMILY, size, font).into_font().color(&INK).pos(Pos::new(HPos::Left, VPos::Center));
            let _ = root.draw(&Text::new(fit(&line.name, size * 1.1, room), (p.0 + swatch + 5, ty), style));
            // Tick labels on the outer panels only: y on the first column, x under the lowest
            // panel of each column.
            if k as i32 % g.cols == 0 {
                for (t, &at) in y_labels.iter().zip(&y_at) {
                    let _ = root.draw(&PathElement::new(vec![(p.0 - s.tick, p.1 + at), (p.0, p.1 + at)], axis_colour));
                    let style = label_style(s.label, INK).pos(Pos::new(HPos::Right, VPos::Center));
                    let _ = root.draw(&Text::new(t.1.clone(), (p.0 - s.tick - 3, p.1 + at), style));
                }
            }
            if k + g.cols as usize >= n {
                for t in &x_labels {
                    let (x, _) = to_px(p, t.0, 0.0);
                    let _ = root.draw(&PathElement::new(vec![(x, p.3), (x, p.3 + s.tick)], axis_colour));
                    let style = label_style(s.label, INK).pos(Pos::new(HPos::Center, VPos::Top));
                    let _ = root.draw(&Text::new(t.1.clone(), (x, p.3 + s.tick + 2), style));
                }
            }
        }
        if !spec.x_desc.is_empty() {
            let last = g.plot(0);
            let y = g.y0 + g.rows * (g.title_h + g.plot_h) + (g.rows - 1) * g.row_gap + 2 * s.tick + s.label as i32 + 8;
            let mid = (last.0 + g.plot(g.cols as usize - 1).2) / 2;
            let style = label_style(s.label, MUTED).pos(Pos::new(HPos::Center, VPos::Top));
            let _ = root.draw(&Text::new(spec.x_desc.clone(), (mid, y), style));
        }
    }
    Chart { width: w, height: h, list, hits, table: Table::default(), plot: g.plot(0), reach: 8.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(n: usize) -> (Vec<Line>, Vec<Tick>) {
        let lines = (0..n)
            .map(|i| Line {
                name: format!("policy-{i}"),
                colour: super::super::chart::series_colour(i),
                path: (0..=10).map(|k| (k as f64, (k * i) as f64 % 7.0)).collect(),
                marks: (0..=10).map(|k| (k as f64, (k * i) as f64 % 7.0, k, format!("{i}:{k}"))).collect(),
            })
            .collect();
        (lines, (0..=10).step_by(2).map(|k| (k as f64, format!("{k}"))).collect())
    }

    #[test]
    fn panels_keep_their_height_at_the_preferred_height() {
        let (lines, xt) = spec(37);
        let x_ticks = move |_: i32| xt.clone();
        let y = |_: i32| (Scale::Linear(0.0, 8.0), vec![(0.0, "0".to_string()), (8.0, "8".to_string())]);
        let spec = Spec {
            title: "Busy processors over time".into(),
            subtitle: "one panel per policy".into(),
            lines,
            x: Scale::Linear(0.0, 10.0),
            x_ticks: &x_ticks,
            x_desc: "time".into(),
            y: &y,
        };
        for (w, compact) in [(1400, false), (390, true)] {
            let opts = ChartOptions { width: w, compact, ..Default::default() };
            let h = preferred_height(&spec, &opts);
            let chart = draw(&spec, &ChartOptions { height: h, ..opts.clone() });
            let s = Sizes::of(&opts);
            let g = grid(&spec, w, h, &s);
            assert!(g.plot_h >= min_panel_h(&s), "{w}: {g:?}");
            assert!(g.panel_w >= min_panel_w(&s) || g.cols == 1, "{w}: {g:?}");
            let last = g.plot(36);
            assert!(last.3 < h as i32, "{w}: the last panel is inside the chart");
            // Every series is named and found by the pointer on its own panel.
            let texts = chart.list.texts();
            for i in 0..37 {
                assert!(texts.contains(&format!("policy-{i}").as_str()), "{w}: panel {i} named");
                assert!(chart.hits.iter().any(|h| h.series == i), "{w}: {i} hit");
            }
        }
    }
}
