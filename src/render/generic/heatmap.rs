//! Heatmaps: a value per row and column, each cell coloured on a sequential scale (log when
//! asked) and written in the cell with its count; one panel, or several side by side on one
//! colour scale (the schemes of a study, each its own 4 × 4 grid).

use plotters::drawing::IntoDrawingArea;
use plotters::element::{PathElement, Rectangle, Text};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{Color, FontTransform, RGBColor};
use serde::{Deserialize, Serialize};

use super::super::axis::{linear_ticks, whole_or_number};
use super::super::chart::{fit, header, label_style, rgba, Chart, ChartOptions, Hit, Sizes, Table, INK, MUTED};
use super::super::display::{text_size, Colour, DisplayList, Recorder};
use super::{draw_text, exact, Labels};

/// One heatmap of [`heatmaps`]: its name over it, a value and a count per cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Panel {
    /// Its name, over it and in its cells' hit texts.
    #[serde(default)]
    pub name: String,
    /// `values[row][col]` (None: an empty cell).
    pub values: Vec<Vec<Option<f64>>>,
    /// `counts[row][col]` (0: an empty cell).
    #[serde(default)]
    pub counts: Option<Vec<Vec<u64>>>,
}

/// The fill of cells with nothing in them.
const EMPTY: Colour = Colour::rgb(0xf0, 0xf0, 0xf0);

/// A sequential colour-blind-safe ramp (viridis, light to dark) at `t` in [0, 1]: higher
/// values darker, as in the comparison's category heatmap.
pub(crate) fn ramp(t: f64) -> Colour {
    const STOPS: [(u8, u8, u8); 6] = [
        (0xfd, 0xe7, 0x25),
        (0x7a, 0xd1, 0x51),
        (0x22, 0xa8, 0x84),
        (0x2a, 0x78, 0x8e),
        (0x41, 0x44, 0x87),
        (0x44, 0x01, 0x54),
    ];
    let t = if t.is_nan() { 0.5 } else { t.clamp(0.0, 1.0) } * (STOPS.len() - 1) as f64;
    let i = (t.floor() as usize).min(STOPS.len() - 2);
    let f = t - i as f64;
    let mix = |a: u8, b: u8| (a as f64 + (b as f64 - a as f64) * f).round() as u8;
    let (a, b) = (STOPS[i], STOPS[i + 1]);
    Colour::rgb(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// The width of `text` in bold at `size`: bold type runs wider than the layout's measure.
fn bold_width(text: &str, size: f64) -> f64 {
    text_size(text, size).0 as f64 * 1.15
}

/// `text` at `size`, or smaller down to 7 px, to fit `room` pixels; None when it never does.
fn shrink(text: &str, size: f64, room: i32, bold: bool) -> Option<(String, f64)> {
    let mut s = size;
    loop {
        let w = if bold { bold_width(text, s) } else { text_size(text, s).0 as f64 };
        if w <= room as f64 {
            return Some((text.to_string(), s));
        }
        if s <= 7.0 {
            return None;
        }
        s = (s - 1.0).max(7.0);
    }
}

/// Where values fall on the colour ramp.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Scale {
    lo: f64,
    hi: f64,
    log: bool,
}

impl Scale {
    /// The scale over `range` if given, else over the values shown; a log scale keeps to
    /// positive values (a range starting at 0 starts at the smallest positive value instead).
    fn new(range: Option<(f64, f64)>, shown: &[f64], log: bool) -> Scale {
        let vals = shown.iter().copied().filter(|v| v.is_finite() && (!log || *v > 0.0));
        let (dlo, dhi) = vals.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
        let (dlo, dhi) = if dlo <= dhi {
            (dlo, dhi)
        } else if log {
            (1.0, 10.0)
        } else {
            (0.0, 1.0)
        };
        let (mut lo, mut hi) = range.filter(|r| r.0.is_finite() && r.1.is_finite()).unwrap_or((dlo, dhi));
        if log && lo <= 0.0 {
            lo = dlo.min(hi.max(dlo));
        }
        if log && hi <= 0.0 {
            hi = dhi;
        }
        Scale { lo: lo.min(hi), hi: hi.max(lo), log }
    }

    /// `v`'s place from 0 (lowest) to 1 (highest); a scale of one value puts it halfway.
    fn pos(&self, v: f64) -> f64 {
        let f = |x: f64| if self.log { x.max(self.lo).ln() } else { x };
        let (a, b) = (f(self.lo), f(self.hi));
        if b > a {
            ((f(v) - a) / (b - a)).clamp(0.0, 1.0)
        } else {
            0.5
        }
    }

    /// Round values inside the scale to mark on its key.
    fn ticks(&self, max: usize) -> Vec<f64> {
        let inside = |v: &f64| *v >= self.lo * (1.0 - 1e-9) && *v <= self.hi * (1.0 + 1e-9);
        if !self.log {
            return linear_ticks(self.lo, self.hi, max).into_iter().map(|t| t.0).filter(inside).collect();
        }
        let (a, b) = (self.lo.log10().floor() as i32, self.hi.log10().ceil() as i32);
        let decades: Vec<f64> = (a..=b).map(|d| 10f64.powi(d)).filter(inside).collect();
        if decades.len() >= 2 {
            return decades;
        }
        // Less than a decade wide: 1, 2 and 5 times the powers of ten.
        (a..=b).flat_map(|d| [1.0, 2.0, 5.0].map(|m| m * 10f64.powi(d))).filter(inside).collect()
    }
}

/// One heatmap: rows down, columns across; `values[row][col]`, None or a count of 0 an
/// empty cell; on a log colour scale when `labels.log`, over `range` when given (so two
/// charts side by side share a scale), else over the values.
pub fn heatmap(
    labels: &Labels,
    rows: &[String],
    cols: &[String],
    values: &[Vec<Option<f64>>],
    counts: Option<&[Vec<u64>]>,
    range: Option<(f64, f64)>,
    opts: &ChartOptions,
) -> Result<Chart, String> {
    draw_panels(labels, rows, cols, &[View { name: "", values, counts }], range, opts)
}

/// Several heatmaps of the same rows and columns on one colour scale, as many side by side as
/// leave their cells the most room, the others below.
pub fn heatmaps(
    labels: &Labels,
    rows: &[String],
    cols: &[String],
    panels: &[Panel],
    range: Option<(f64, f64)>,
    opts: &ChartOptions,
) -> Result<Chart, String> {
    let views: Vec<View<'_>> =
        panels.iter().map(|p| View { name: &p.name, values: &p.values, counts: p.counts.as_deref() }).collect();
    draw_panels(labels, rows, cols, &views, range, opts)
}

/// A panel by reference.
struct View<'a> {
    name: &'a str,
    values: &'a [Vec<Option<f64>>],
    counts: Option<&'a [Vec<u64>]>,
}

impl View<'_> {
    fn count(&self, r: usize, c: usize) -> Option<u64> {
        self.counts.map(|k| k.get(r).and_then(|row| row.get(c)).copied().unwrap_or(0))
    }

    /// The cell's value if it is shown: known, finite, and of a cell with something in it.
    fn value(&self, r: usize, c: usize) -> Option<f64> {
        let v = self.values.get(r).and_then(|row| row.get(c)).copied().flatten().filter(|v| v.is_finite());
        if self.count(r, c) == Some(0) {
            None
        } else {
            v
        }
    }
}

/// Where the panels go: the columns of panels, each panel's and cell's size.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Grid {
    across: usize,
    panel_w: i32,
    panel_h: i32,
    cell_w: f64,
    cell_h: f64,
    /// The column labels stand on end (too wide for their cells).
    upright: bool,
    col_h: i32,
}

/// The panel arrangement that leaves cells the most room (their width counting double their
/// height, as numbers are wider than tall) within `area` (w, h).
fn arrange(n: usize, nr: usize, nc: usize, area: (i32, i32), room: (i32, i32), cols: &[String], s: &Sizes) -> Grid {
    let (row_w, name_h) = room;
    let gap = 2 * s.margin;
    let widest = cols.iter().map(|c| text_size(c, s.label).0 as i32).max().unwrap_or(0);
    let label_h = s.label.round() as i32;
    (1..=n.max(1))
        .map(|across| {
            let down = n.div_ceil(across) as i32;
            let panel_w = (area.0 - (across as i32 - 1) * gap) / across as i32;
            let panel_h = (area.1 - (down - 1) * gap) / down;
            let cell_w = (panel_w - row_w).max(1) as f64 / nc as f64;
            let upright = widest as f64 > cell_w - 2.0;
            let col_h = if upright { widest + 6 } else { label_h + 6 };
            let cell_h = (panel_h - name_h - col_h).max(1) as f64 / nr as f64;
            Grid { across, panel_w, panel_h, cell_w, cell_h, upright, col_h }
        })
        .max_by(|a, b| {
            let score = |g: &Grid| g.cell_w.min(2.0 * g.cell_h);
            // Ties go to fewer panels across (max_by keeps the last of equals).
            score(a).total_cmp(&score(b)).then(b.across.cmp(&a.across))
        })
        .unwrap_or(Grid {
            across: 1,
            panel_w: area.0,
            panel_h: area.1,
            cell_w: 1.0,
            cell_h: 1.0,
            upright: false,
            col_h: label_h + 6,
        })
}

fn draw_panels(
    labels: &Labels,
    rows: &[String],
    cols: &[String],
    panels: &[View<'_>],
    range: Option<(f64, f64)>,
    opts: &ChartOptions,
) -> Result<Chart, String> {
    let (nr, nc) = (rows.len(), cols.len());
    if nr == 0 || nc == 0 || panels.is_empty() {
        return Err("nothing to chart".to_string());
    }
    let shown: Vec<f64> =
        panels.iter().flat_map(|p| (0..nr).flat_map(move |r| (0..nc).filter_map(move |c| p.value(r, c)))).collect();
    let scale = Scale::new(range, &shown, labels.log);
    let counted = panels.iter().any(|p| p.counts.is_some());
    let any_empty = panels.iter().any(|p| (0..nr).any(|r| (0..nc).any(|c| p.value(r, c).is_none())));
    let what = labels.what("value").to_string();

    let (w, h) = opts.size();
    let s = Sizes::of(opts);
    let label_h = s.label.round() as i32;
    let mut list = DisplayList::default();
    let mut hits = Vec::new();
    let plot;
    {
        let root = Recorder::new(&mut list, w, h).into_drawing_area();
        let _ = root.fill(&RGBColor(255, 255, 255));
        let top = header(&root, &labels.title, &labels.subtitle, &s, w) + s.margin / 2;
        let key_h = (s.label * 3.6).round() as i32;
        let y_desc = if labels.y.is_empty() { 0 } else { label_h + 6 };
        let x_desc = if labels.x.is_empty() { 0 } else { label_h + 6 };
        let (ax0, ay0) = (s.margin + y_desc, top);
        let (ax1, ay1) = (w as i32 - s.margin, (h as i32 - s.margin - key_h - x_desc).max(top + 40));
        let row_w = rows.iter().map(|r| text_size(r, s.label).0 as i32).max().unwrap_or(0) + 8;
        let name_h = if panels.iter().any(|p| !p.name.is_empty()) { label_h + 8 } else { 0 };
        let g = arrange(panels.len(), nr, nc, (ax1 - ax0, ay1 - ay0), (row_w, name_h), cols, &s);
        let gap = 2 * s.margin;
        // The cells' pixels: boundaries rounded once, so neighbouring cells share their edge.
        let xs = |x0: i32, c: usize| x0 + (c as f64 * g.cell_w).round() as i32;
        let ys = |y0: i32, r: usize| y0 + (r as f64 * g.cell_h).round() as i32;
        let big = (s.label * 1.1).min(g.cell_h / 2.4).max(7.0);
        let small = (s.label * 0.85).min(big);
        // Counts under the values in every cell or in none, so cells read alike.
        let widest_count = panels
            .iter()
            .flat_map(|p| (0..nr).flat_map(move |r| (0..nc).map(move |c| (r, c))).filter_map(|(r, c)| p.count(r, c)))
            .map(|n| text_size(&labels.counted(n), small).0)
            .max()
            .unwrap_or(0);
        let two_lines = counted && g.cell_h >= big + small + 6.0 && (widest_count as f64) <= g.cell_w - 6.0;
        let mut extent = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
        for (p, panel) in panels.iter().enumerate() {
            let (pc, pr) = ((p % g.across) as i32, (p / g.across) as i32);
            let px = ax0 + pc * (g.panel_w + gap);
            let py = ay0 + pr * (g.panel_h + gap);
            let (gx, gy) = (px + row_w, py + name_h);
            let (gx1, gy1) = (xs(gx, nc), ys(gy, nr));
            extent = (extent.0.min(gx), extent.1.min(gy), extent.2.max(gx1), extent.3.max(gy1));
            if !panel.name.is_empty() {
                let name = fit(panel.name, s.label, g.panel_w);
                draw_text(&root, &name, ((gx + gx1) / 2, py + label_h / 2 + 1), s.label, INK, true, HPos::Center);
            }
            for (r, row) in rows.iter().enumerate() {
                let yc = (ys(gy, r) + ys(gy, r + 1)) / 2;
                draw_text(&root, &fit(row, s.label, row_w - 6), (gx - 5, yc), s.label, INK, false, HPos::Right);
            }
            for (c, col) in cols.iter().enumerate() {
                let xc = (xs(gx, c) + xs(gx, c + 1)) / 2;
                if g.upright {
                    let style = label_style(s.label, INK)
                        .transform(FontTransform::Rotate270)
                        .pos(Pos::new(HPos::Right, VPos::Center));
                    let _ = root.draw(&Text::new(col.clone(), (xc, gy1 + 4), style));
                } else {
                    let style = label_style(s.label, INK).pos(Pos::new(HPos::Center, VPos::Top));
                    let _ = root.draw(&Text::new(col.clone(), (xc, gy1 + 4), style));
                }
            }
            for (r, row_name) in rows.iter().enumerate() {
                for (c, col_name) in cols.iter().enumerate() {
                    let rect = (xs(gx, c), ys(gy, r), xs(gx, c + 1), ys(gy, r + 1));
                    let v = panel.value(r, c);
                    let count = panel.count(r, c);
                    let t = v.map(|v| scale.pos(v));
                    let fill = t.map_or(EMPTY, ramp);
                    let inner = [(rect.0 + 1, rect.1 + 1), (rect.2 - 1, rect.3 - 1)];
                    let _ = root.draw(&Rectangle::new(inner, rgba(fill, 1.0).filled()));
                    let (cx, cy) = ((rect.0 + rect.2) / 2, (rect.1 + rect.3) / 2);
                    let room = rect.2 - rect.0 - 4;
                    let ink = if t.is_some_and(|t| t > 0.45) { RGBColor(255, 255, 255) } else { INK };
                    let place = format!("{row_name} × {col_name}");
                    let place = if panel.name.is_empty() { place } else { format!("{}: {place}", panel.name) };
                    let text = match (v, count) {
                        (Some(v), Some(n)) => {
                            format!("{place}: {what} {}{} over {}", whole_or_number(v), labels.unit, labels.counted(n))
                        }
                        (Some(v), None) => format!("{place}: {what} {}{}", whole_or_number(v), labels.unit),
                        (None, Some(0)) => format!("{place}: no {}", labels.noun()),
                        (None, _) => format!("{place}: no value"),
                    };
                    // The value, and its count under it when both fit; smaller type before none.
                    match v.and_then(|v| shrink(&whole_or_number(v), big, room, true)) {
                        Some((value, size)) => {
                            let jobs = labels.counted(count.unwrap_or(0));
                            let under = two_lines && size == big;
                            let dy = if under { ((big + small) / 2.0 * 0.55) as i32 } else { 0 };
                            draw_text(&root, &value, (cx, cy - dy), size, ink, true, HPos::Center);
                            if under {
                                draw_text(&root, &jobs, (cx, cy + dy + 1), small, ink, false, HPos::Center);
                            }
                        }
                        None if v.is_none() => draw_text(&root, "–", (cx, cy), big, MUTED, false, HPos::Center),
                        None => {}
                    }
                    hits.push(Hit { rect, series: p, index: r * nc + c, text });
                }
            }
        }
        plot = extent;
        // The axes' names: the columns' under the panels, the rows' up their left side.
        // Under the last row of panels' column labels.
        let bottom = extent.3 + g.col_h;
        if !labels.x.is_empty() {
            let xc = (extent.0 + extent.2) / 2;
            draw_text(
                &root,
                &fit(&labels.x, s.label, ax1 - ax0),
                (xc, bottom + label_h / 2 + 4),
                s.label,
                MUTED,
                false,
                HPos::Center,
            );
        }
        if !labels.y.is_empty() {
            let style = label_style(s.label, MUTED)
                .transform(FontTransform::Rotate270)
                .pos(Pos::new(HPos::Center, VPos::Center));
            let text = fit(&labels.y, s.label, ay1 - ay0);
            let _ = root.draw(&Text::new(text, (s.margin + label_h / 2, (ay0 + ay1) / 2), style));
        }
        colour_key(&root, (ax0, h as i32 - s.margin - key_h, ax1), &scale, labels, any_empty, &s);
    }
    let mut columns = vec![
        if labels.y.is_empty() { "row".to_string() } else { labels.y.clone() },
        if labels.x.is_empty() { "column".to_string() } else { labels.x.clone() },
    ];
    // One count column when every panel counts the same (the same jobs under each scheme).
    let shared = panels.iter().all(|p| p.counts == panels[0].counts);
    let named =
        |p: &View<'_>, what: &str| if p.name.is_empty() { what.to_string() } else { format!("{}: {what}", p.name) };
    let count_name = if labels.count.is_empty() { "count".to_string() } else { labels.count.clone() };
    if counted && shared {
        columns.push(count_name.clone());
    }
    for p in panels {
        if counted && !shared {
            columns.push(named(p, &count_name));
        }
        columns.push(if p.name.is_empty() { what.clone() } else { p.name.to_string() });
    }
    let mut table_rows = Vec::new();
    for (r, row_name) in rows.iter().enumerate() {
        for (c, col_name) in cols.iter().enumerate() {
            let mut row = vec![row_name.clone(), col_name.clone()];
            if counted && shared {
                row.push(panels[0].count(r, c).map_or(String::new(), |n| n.to_string()));
            }
            for p in panels {
                if counted && !shared {
                    row.push(p.count(r, c).map_or(String::new(), |n| n.to_string()));
                }
                row.push(exact(p.value(r, c)));
            }
            table_rows.push(row);
        }
    }
    Ok(Chart {
        width: w,
        height: h,
        list,
        hits,
        table: Table { title: labels.title.clone(), columns, rows: table_rows },
        plot,
        reach: 0.0,
    })
}

/// The colour key in the strip (x0, y, x1): what the colours mean, a ramp with round values
/// marked, and the empty cell's swatch when there are empty cells.
fn colour_key(
    root: &plotters::drawing::DrawingArea<Recorder<'_>, plotters::coord::Shift>,
    (x0, y, x1): (i32, i32, i32),
    scale: &Scale,
    labels: &Labels,
    any_empty: bool,
    s: &Sizes,
) {
    let bar_h = (s.label * 0.9).round() as i32;
    let mut name = labels.what("value").to_string();
    if !labels.unit.trim().is_empty() {
        name.push_str(&format!(" [{}]", labels.unit.trim()));
    }
    if scale.log {
        name.push_str(", log scale");
    }
    name.push(':');
    let empty_w = if any_empty { text_size("– no data", s.label).0 as i32 + bar_h * 2 + 16 } else { 0 };
    let avail = x1 - x0;
    let name_w = text_size(&name, s.label).0 as i32;
    let width = (avail * 3 / 5).clamp(60, 360);
    // The ramp beside its name when both fit on one line, else below it.
    let (bx, by) =
        if name_w + 10 + width + empty_w <= avail { (x0 + name_w + 10, y + 2) } else { (x0, y + s.label as i32 + 4) };
    let width = width.min(x1 - bx - empty_w).max(40);
    draw_text(root, &fit(&name, s.label, avail), (x0, y + 2 + bar_h / 2), s.label, MUTED, false, HPos::Left);
    let steps = 48;
    for k in 0..steps {
        let a = bx + width * k / steps;
        let b = bx + width * (k + 1) / steps;
        let c = ramp((k as f64 + 0.5) / steps as f64);
        let _ = root.draw(&Rectangle::new([(a, by), (b, by + bar_h)], rgba(c, 1.0).filled()));
    }
    let small = s.label * 0.9;
    let at = |v: f64| bx + (width as f64 * scale.pos(v)).round() as i32;
    // Round values as integers (1, 10, 1,000), the ends as the cells write them.
    let label_of = whole_or_number;
    // The ends always (the first left-aligned at the ramp's start, the last right-aligned at its
    // end); round values between them, centred, where their labels stay clear of every other.
    let extent = |x: i32, l: &str, h: HPos| {
        let w = text_size(l, small).0 as i32;
        match h {
            HPos::Left => (x, x + w),
            HPos::Right => (x - w, x),
            HPos::Center => (x - w / 2, x + w / 2),
        }
    };
    let mut spans: Vec<(i32, i32)> = vec![extent(bx, &label_of(scale.lo), HPos::Left)];
    let mut marks: Vec<(i32, String)> = vec![(bx, label_of(scale.lo))];
    if scale.hi > scale.lo {
        let l = label_of(scale.hi);
        spans.push(extent(bx + width, &l, HPos::Right));
        marks.push((bx + width, l));
    }
    for v in scale.ticks(6) {
        let (x, l) = (at(v), label_of(v));
        let (a, b) = extent(x, &l, HPos::Center);
        if spans.iter().all(|&(c, d)| b + 6 <= c || d + 6 <= a) {
            spans.push((a, b));
            marks.push((x, l));
        }
    }
    for (x, l) in &marks {
        let _ = root.draw(&PathElement::new(vec![(*x, by + bar_h), (*x, by + bar_h + 3)], RGBColor(0x80, 0x80, 0x80)));
        let h = if *x == bx {
            HPos::Left
        } else if *x == bx + width {
            HPos::Right
        } else {
            HPos::Center
        };
        let style = label_style(small, INK).pos(Pos::new(h, VPos::Top));
        let _ = root.draw(&Text::new(l.clone(), (*x, by + bar_h + 4), style));
    }
    if any_empty {
        let ex = bx + width + 16;
        let _ = root.draw(&Rectangle::new([(ex, by), (ex + 2 * bar_h, by + bar_h)], rgba(EMPTY, 1.0).filled()));
        let _ = root.draw(&Rectangle::new(
            [(ex, by), (ex + 2 * bar_h, by + bar_h)],
            RGBColor(0xc8, 0xc8, 0xc8).stroke_width(1),
        ));
        draw_text(root, "– no data", (ex + 2 * bar_h + 6, by + bar_h / 2), s.label, MUTED, false, HPos::Left);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Grid = (Vec<String>, Vec<String>, Vec<Vec<Option<f64>>>, Vec<Vec<u64>>);

    fn grid() -> Grid {
        let rows = ["short", "long"].map(String::from).to_vec();
        let cols = ["1", "2-8", "9+"].map(String::from).to_vec();
        let values = vec![vec![Some(1.0), Some(10.0), None], vec![Some(100.0), Some(0.0), Some(1000.0)]];
        let counts = vec![vec![5, 7, 0], vec![3, 0, 1]];
        (rows, cols, values, counts)
    }

    #[test]
    fn colour_scale_labels_keep_clear_of_its_ends() {
        // A log scale from 1 to 247,672: 100,000 would sit under the right-aligned end label.
        let rows = ["a"].map(String::from).to_vec();
        let cols = ["x", "y", "z"].map(String::from).to_vec();
        let labels = Labels { value: "jobs".into(), log: true, ..Default::default() };
        for (top, label) in [(247_672.0, "247,672"), (812_345.0, "812,345")] {
            let values = vec![vec![Some(1.0), Some(82.0), Some(top)]];
            let opts = ChartOptions { width: 900, height: 300, ..Default::default() };
            let c = heatmap(&labels, &rows, &cols, &values, None, None, &opts).unwrap();
            let texts = c.list.texts();
            assert!(texts.contains(&label), "{texts:?}");
            assert!(!texts.contains(&"100,000"), "{top}: {texts:?}");
            // A count reads as a whole number in its cell and under the pointer.
            assert!(texts.contains(&"82") && !texts.iter().any(|t| t.contains("82.0")), "{texts:?}");
        }
    }

    #[test]
    fn cells_tile_the_grid_and_name_their_place() {
        let (rows, cols, values, counts) = grid();
        let labels = Labels {
            title: "Processor-hours".into(),
            x: "processors".into(),
            y: "runtime".into(),
            value: "processor-hours".into(),
            log: true,
            ..Default::default()
        };
        let opts = ChartOptions { width: 600, height: 300, ..Default::default() };
        let c = heatmap(&labels, &rows, &cols, &values, Some(&counts), None, &opts).unwrap();
        assert_eq!(c.hits.len(), 6);
        // Three equal columns and two equal rows, edge to edge, filling the plot.
        let r: Vec<_> = c.hits.iter().map(|h| h.rect).collect();
        assert_eq!((r[0].0, r[0].1, r[5].2, r[5].3), c.plot);
        for k in 0..6 {
            let (row, col) = (k / 3, k % 3);
            assert_eq!(c.hits[k].index, k);
            if col > 0 {
                assert_eq!(r[k].0, r[k - 1].2, "cell {k} starts where its left neighbour ends");
            }
            if row > 0 {
                assert_eq!(r[k].1, r[k - 3].3);
            }
            assert!((r[k].2 - r[k].0 - (r[0].2 - r[0].0)).abs() <= 1);
        }
        let said =
            |k: usize| c.hit(((r[k].0 + r[k].2) / 2) as f64, ((r[k].1 + r[k].3) / 2) as f64).unwrap().text.clone();
        assert_eq!(said(1), "short × 2-8: processor-hours 10 over 7 jobs");
        assert_eq!(said(5), "long × 9+: processor-hours 1000 over 1 job");
        assert_eq!(said(2), "short × 9+: no jobs");
        assert_eq!(said(4), "long × 2-8: no jobs");
        // The log scale from 1 to 1000: 1 is the lightest colour, 1000 the darkest, 10 a third up.
        let fill = |k: usize| {
            c.list.items.iter().find_map(|p| match p {
                Primitive::Rect { x0, y0, colour, fill: true, .. } if (*x0, *y0) == (r[k].0 + 1, r[k].1 + 1) => {
                    Some(*colour)
                }
                _ => None,
            })
        };
        assert_eq!(fill(0), Some(ramp(0.0)));
        assert_eq!(fill(5), Some(ramp(1.0)));
        assert_eq!(fill(1), Some(ramp(1.0 / 3.0)));
        assert_eq!(fill(2), Some(EMPTY));
        // The numbers, exactly; empty cells blank.
        assert_eq!(c.table.columns, ["runtime", "processors", "jobs", "processor-hours"]);
        assert_eq!(c.table.rows[1], ["short", "2-8", "7", "10"]);
        assert_eq!(c.table.rows[4], ["long", "2-8", "0", ""]);
        // A shared range moves the colours: 10 is now the bottom.
        let c = heatmap(&labels, &rows, &cols, &values, Some(&counts), Some((10.0, 1000.0)), &opts).unwrap();
        let r1 = c.hits[1].rect;
        assert!(c.list.items.iter().any(|p| matches!(p, Primitive::Rect { x0, y0, colour, fill: true, .. }
            if (*x0, *y0) == (r1.0 + 1, r1.1 + 1) && *colour == ramp(0.0))));
    }

    #[test]
    fn panels_share_one_scale_and_fit_the_width() {
        let (rows, cols, values, counts) = grid();
        let panel = |name: &str, k: f64| Panel {
            name: name.into(),
            values: values.iter().map(|r| r.iter().map(|v| v.map(|v| v * k)).collect()).collect(),
            counts: Some(counts.clone()),
        };
        let panels: Vec<Panel> = (0..4).map(|i| panel(&format!("P{i}"), (i + 1) as f64)).collect();
        let labels = Labels { value: "mean".into(), ..Default::default() };
        let wide = heatmaps(
            &labels,
            &rows,
            &cols,
            &panels,
            None,
            &ChartOptions { width: 1200, height: 260, ..Default::default() },
        )
        .unwrap();
        // Wide and low: the four side by side, the same height each.
        let tops: Vec<i32> = (0..4).map(|p| wide.hits[p * 6].rect.1).collect();
        assert!(tops.iter().all(|&t| t == tops[0]), "{tops:?}");
        assert!(wide.hits[6].rect.0 > wide.hits[5].rect.2);
        // Narrow and tall: two by two.
        let tall = heatmaps(
            &labels,
            &rows,
            &cols,
            &panels,
            None,
            &ChartOptions { width: 390, height: 600, ..Default::default() },
        )
        .unwrap();
        assert_eq!(tall.hits[12].rect.0, tall.hits[0].rect.0, "the third panel starts a second row");
        assert!(tall.hits[12].rect.1 > tall.hits[5].rect.3);
        let centre = |h: &Hit| (((h.rect.0 + h.rect.2) / 2) as f64, ((h.rect.1 + h.rect.3) / 2) as f64);
        let (x, y) = centre(&tall.hits[13]);
        assert_eq!(tall.hit(x, y).unwrap().text, "P2: short × 2-8: mean 30 over 7 jobs");
        // One count column (the same jobs in every panel), then a column per panel.
        assert_eq!(tall.table.columns, ["row", "column", "jobs", "P0", "P1", "P2", "P3"]);
        assert_eq!(tall.table.rows[5], ["long", "9+", "1", "1000", "2000", "3000", "4000"]);
    }

    #[test]
    fn scales_mark_round_values() {
        let s = Scale::new(None, &[3.0, 40.0, 2000.0], true);
        assert_eq!((s.lo, s.hi), (3.0, 2000.0));
        assert_eq!(s.ticks(6), [10.0, 100.0, 1000.0]);
        let narrow = Scale::new(Some((0.0, 8.0)), &[1.5, 8.0], true);
        assert_eq!((narrow.lo, narrow.hi), (1.5, 8.0));
        assert_eq!(narrow.ticks(6), [2.0, 5.0]);
        let lin = Scale::new(Some((0.0, 1.0)), &[0.5], false);
        assert_eq!(lin.pos(0.25), 0.25);
        assert_eq!(Scale::new(None, &[4.0], false).pos(4.0), 0.5);
    }

    use super::super::super::display::Primitive;
}
