//! A finished chart (its display list, hit regions and numbers) and the frame every
//! cartesian chart shares: title, axes through plotters' mesh, and a legend below the plot.

use plotters::chart::{ChartBuilder, ChartContext};
use plotters::coord::cartesian::Cartesian2d;
use plotters::coord::combinators::LogCoord;
use plotters::coord::ranged1d::{AsRangedCoord, DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::drawing::{DrawingArea, IntoDrawingArea};
use plotters::element::{Rectangle, Text};
use plotters::style::{Color, FontStyle, IntoFont, RGBAColor, RGBColor, ShapeStyle, TextStyle};
use serde::{Deserialize, Serialize};

use super::axis::Tick;
use super::display::{text_size, Colour, DisplayList, Recorder, TextPen, FONT_FAMILY};

/// A chart ready to paint: its drawing operations, where the pointer finds things, and the
/// numbers it shows.
#[derive(Debug, Clone)]
pub struct Chart {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// What to draw.
    pub list: DisplayList,
    /// The regions the pointer can find.
    pub hits: Vec<Hit>,
    /// The numbers drawn, for a table view.
    pub table: Table,
    /// The plotting area (x0, y0, x1, y1), end exclusive: where the Gantt raster goes and
    /// what pointer positions map to data through.
    pub plot: (i32, i32, i32, i32),
    /// How far from a hit region the pointer still finds it: 0 for bars and cells, some
    /// pixels for the points of a line.
    pub(crate) reach: f64,
}

/// Something under the pointer: a bar, a heatmap cell or a point of a line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Hit {
    /// Its region (x0, y0, x1, y1) in chart pixels, end exclusive.
    pub rect: (i32, i32, i32, i32),
    /// The series: the run's index in the runs charted.
    pub series: usize,
    /// The item within the series (bar, cell, bin or point).
    pub index: usize,
    /// What to say about it.
    pub text: String,
}

/// A chart's numbers as a table, for readers who want the values or use a screen reader.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Table {
    /// What the table holds.
    pub title: String,
    /// Column headings.
    pub columns: Vec<String>,
    /// Rows of cells, as many as columns.
    pub rows: Vec<Vec<String>>,
}

/// How to draw a chart; every field may be left out of the JSON.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct ChartOptions {
    /// Width in CSS pixels (0: 640).
    pub width: u32,
    /// Height in CSS pixels (0: 360).
    pub height: u32,
    /// The series (run) under the pointer: drawn on top and thicker, the others faded.
    pub highlight: Option<usize>,
    /// Time charts: the window `[t0, t1)` shown, in trace seconds (kept in step with the Gantt
    /// chart's zoom).
    pub x_range: Option<(f64, f64)>,
    /// The trace's `UnixStartTime`, so time axes show UTC dates instead of "day N".
    pub unix_start: Option<i64>,
    /// Small multiples and phones: smaller fonts, fewer ticks.
    pub compact: bool,
}

impl ChartOptions {
    /// The options of a picture written to a file (the command line's `--plot`, Python's
    /// `plot()`): `width` x `height` pixels, compact below 480 wide as in the page, date labels
    /// when the trace has a start time.
    pub fn picture(width: u32, height: u32, unix_start: Option<i64>) -> ChartOptions {
        ChartOptions { width, height, unix_start, compact: width < 480, ..Default::default() }
    }

    /// The size in pixels, defaults filled in and no smaller than a chart can be laid out in.
    pub fn size(&self) -> (u32, u32) {
        let w = if self.width == 0 { 640 } else { self.width };
        let h = if self.height == 0 { 360 } else { self.height };
        (w.max(160), h.max(120))
    }
}

impl Chart {
    /// [`DisplayList::hash`] of the chart's drawing.
    pub fn hash(&self) -> String {
        self.list.hash()
    }

    /// The chart as an SVG document, through plotters' SVG backend.
    pub fn svg(&self) -> String {
        let mut out = String::new();
        {
            let mut svg = plotters::backend::SVGBackend::with_string(&mut out, (self.width, self.height));
            // SVGBackend writes font-size as the size over 1.24; the list's sizes are CSS pixels.
            self.list.replay(&mut svg, |p| {
                let mut pen = TextPen::of(p);
                pen.size *= 1.24;
                pen
            });
            let _ = plotters_backend::DrawingBackend::present(&mut svg);
        }
        round_font_sizes(&out)
    }

    /// Paints the chart onto any plotters backend (the page's canvas).
    pub fn paint<DB: plotters_backend::DrawingBackend>(&self, db: &mut DB) {
        self.list.paint(db);
    }

    /// What is under the pointer at (x, y) in chart pixels: the region containing it, else the
    /// nearest point within reach (about 8 px on line charts).
    pub fn hit(&self, x: f64, y: f64) -> Option<&Hit> {
        let mut best: Option<(&Hit, f64)> = None;
        for h in &self.hits {
            let (x0, y0, x1, y1) = h.rect;
            let dx = if x < x0 as f64 {
                x0 as f64 - x
            } else if x >= x1 as f64 {
                x - (x1 - 1).max(x0) as f64
            } else {
                0.0
            };
            let dy = if y < y0 as f64 {
                y0 as f64 - y
            } else if y >= y1 as f64 {
                y - (y1 - 1).max(y0) as f64
            } else {
                0.0
            };
            let d = (dx * dx + dy * dy).sqrt();
            if best.is_none_or(|(_, b)| d < b) {
                best = Some((h, d));
            }
        }
        best.filter(|&(_, d)| d <= self.reach).map(|(h, _)| h)
    }

    /// A chart holding only a message (no data to draw).
    pub(crate) fn message(opts: &ChartOptions, title: &str, text: &str) -> Chart {
        let (w, h) = opts.size();
        let s = Sizes::of(opts);
        let mut list = DisplayList::default();
        {
            let root = Recorder::new(&mut list, w, h).into_drawing_area();
            let _ = root.fill(&RGBColor(255, 255, 255));
            let top = header(&root, title, "", &s, w);
            let _ = root.draw(&Text::new(
                fit(text, s.label, w as i32 - 2 * s.margin),
                (w as i32 / 2, top + (h as i32 - top) / 2),
                label_style(s.label, MUTED).pos(plotters::style::text_anchor::Pos::new(
                    plotters::style::text_anchor::HPos::Center,
                    plotters::style::text_anchor::VPos::Center,
                )),
            ));
        }
        Chart {
            width: w,
            height: h,
            list,
            hits: Vec::new(),
            table: Table { title: title.to_string(), ..Default::default() },
            plot: (0, 0, 0, 0),
            reach: 0.0,
        }
    }
}

/// The SVG with each `font-size` rounded to 1/100 px: undoing SVGBackend's division by 1.24
/// leaves float noise such as `15.000000000000002`.
fn round_font_sizes(svg: &str) -> String {
    const KEY: &str = "font-size=\"";
    let mut out = String::with_capacity(svg.len());
    let mut rest = svg;
    while let Some(i) = rest.find(KEY) {
        out.push_str(&rest[..i + KEY.len()]);
        rest = &rest[i + KEY.len()..];
        let end = rest.find('"').unwrap_or(rest.len());
        match rest[..end].parse::<f64>() {
            Ok(v) => {
                let r = format!("{:.2}", v);
                out.push_str(r.trim_end_matches('0').trim_end_matches('.'));
            }
            Err(_) => out.push_str(&rest[..end]),
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// The colour of series `i` everywhere (page and pictures): Okabe and Ito's colour-blind-safe
/// set without its yellow and black (too faint, and taken by text), Paul Tol's muted and light
/// sets without their pale yellows and greys, then his vibrant and dark sets and a few more,
/// so that every policy of the catalogue has one of its own; past those it repeats.
pub fn palette(i: usize) -> (u8, u8, u8) {
    const COLOURS: [(u8, u8, u8); PALETTE_LEN] = [
        (0x00, 0x72, 0xB2), // blue
        (0xD5, 0x5E, 0x00), // vermillion
        (0x00, 0x9E, 0x73), // bluish green
        (0xE6, 0x9F, 0x00), // orange
        (0xCC, 0x79, 0xA7), // reddish purple
        (0x56, 0xB4, 0xE9), // sky blue
        (0x33, 0x22, 0x88), // Tol muted: indigo
        (0xCC, 0x66, 0x77), // rose
        (0x11, 0x77, 0x33), // green
        (0x88, 0x22, 0x55), // wine
        (0x44, 0xAA, 0x99), // teal
        (0x99, 0x99, 0x33), // olive
        (0xAA, 0x44, 0x99), // purple
        (0x88, 0xCC, 0xEE), // cyan
        (0x77, 0xAA, 0xDD), // Tol light: light blue
        (0xEE, 0x88, 0x66), // orange
        (0xFF, 0xAA, 0xBB), // pink
        (0x99, 0xDD, 0xFF), // light cyan
        (0x44, 0xBB, 0x99), // mint
        (0xBB, 0xCC, 0x33), // pear
        (0xAA, 0xAA, 0x00), // olive
        (0xCC, 0x33, 0x11), // Tol vibrant: red
        (0xEE, 0x33, 0x77), // magenta
        (0x33, 0xBB, 0xEE), // bright cyan
        (0x00, 0x44, 0x88), // Tol: dark blue
        (0x99, 0x77, 0x00), // dark yellow
        (0x22, 0x55, 0x55), // Tol dark: teal
        (0x66, 0x66, 0x33), // olive
        (0x66, 0x33, 0x33), // red
        (0x22, 0x22, 0x55), // navy
        (0x22, 0x55, 0x22), // green
        (0x99, 0x44, 0x55), // Tol: dark rose
        (0x66, 0x99, 0xCC), // steel blue
        (0xEE, 0xCC, 0x66), // sand
        (0xEE, 0x99, 0xAA), // light rose
        (0x00, 0x99, 0x88), // Tol vibrant: teal
        (0xEE, 0x77, 0x33), // orange
        (0x77, 0x44, 0x11), // brown
        (0x55, 0x55, 0x55), // grey
        (0x88, 0x88, 0xBB), // lavender
        (0x44, 0x77, 0xAA), // Tol bright: blue
        (0xBB, 0x55, 0x66), // dusty red
    ];
    COLOURS[i % COLOURS.len()]
}

/// How many colours [`palette`] has before it repeats.
pub const PALETTE_LEN: usize = 42;

/// The policies a first comparison shows (one per family), which take the first colours in
/// this order; the page's default runs.
pub const FIRST_COLOURS: [&str; 8] =
    ["fcfs", "easy", "easy++", "conservative", "relaxed", "mq-backfill", "ss", "cplant24.nomax.all"];

/// A catalogue policy's own colour, for ever: [`FIRST_COLOURS`] first, then the other presets
/// in catalogue order, then the page's own configurations (`custom`, the predictor panel's;
/// `mine`, the user's policy).
pub fn policy_colour(name: &str) -> Option<usize> {
    if let Some(i) = FIRST_COLOURS.iter().position(|n| *n == name) {
        return Some(i);
    }
    let others = crate::policy::POLICIES.iter().map(|p| p.name).filter(|n| !FIRST_COLOURS.contains(n));
    let page = ["custom", "mine"];
    others.chain(page).position(|n| n == name).map(|i| FIRST_COLOURS.len() + i)
}

/// The palette index of each run of `names`: a catalogue policy's own, any other name the first
/// index no run shown holds, so no two runs share a colour (up to [`PALETTE_LEN`] runs).
pub fn run_colours(names: &[&str]) -> Vec<usize> {
    let fixed: Vec<Option<usize>> = names.iter().map(|n| policy_colour(n)).collect();
    let mut taken: Vec<usize> = fixed.iter().flatten().copied().collect();
    fixed
        .iter()
        .map(|f| {
            f.unwrap_or_else(|| {
                let free =
                    (0..).find(|c| !taken.contains(&(c % PALETTE_LEN)) || taken.len() >= PALETTE_LEN).unwrap_or(0);
                taken.push(free % PALETTE_LEN);
                free % PALETTE_LEN
            })
        })
        .collect()
}

/// [`palette`] as a display-list colour.
pub fn series_colour(i: usize) -> Colour {
    let (r, g, b) = palette(i);
    Colour::rgb(r, g, b)
}

/// Text colour.
pub(crate) const INK: RGBColor = RGBColor(0x22, 0x22, 0x22);
/// Secondary text (subtitles, notes).
pub(crate) const MUTED: RGBColor = RGBColor(0x59, 0x59, 0x59);
/// Axis lines and tick marks.
const AXIS: RGBColor = RGBColor(0x80, 0x80, 0x80);
/// Grid lines.
const GRID: RGBColor = RGBColor(0xe6, 0xe6, 0xe6);

/// Font sizes and spacing, smaller when compact.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Sizes {
    /// Title.
    pub title: f64,
    /// Tick labels, legend and notes.
    pub label: f64,
    /// Subtitle.
    pub small: f64,
    /// Space around the chart.
    pub margin: i32,
    /// Tick mark length.
    pub tick: i32,
    /// Most ticks per 100 px of axis.
    pub density: f64,
}

impl Sizes {
    pub(crate) fn of(opts: &ChartOptions) -> Sizes {
        if opts.compact {
            Sizes { title: 12.0, label: 10.0, small: 10.0, margin: 5, tick: 3, density: 1.5 }
        } else {
            Sizes { title: 15.0, label: 12.0, small: 12.0, margin: 10, tick: 4, density: 1.25 }
        }
    }

    /// How many ticks fit along `pixels` of a horizontal axis (labels side by side).
    pub(crate) fn ticks(&self, pixels: i32) -> usize {
        ((pixels.max(0) as f64 / 100.0 * self.density).floor() as usize).max(2)
    }

    /// How many time ticks (labels such as `Nov 1996` or `06:00`) fit along `pixels`.
    pub(crate) fn time_ticks(&self, pixels: i32) -> usize {
        ((pixels.max(0) as f64 / (self.label * 4.4 + 20.0)).floor() as usize).clamp(2, 12)
    }

    /// How many ticks fit along `pixels` of a vertical axis (labels one above the other).
    pub(crate) fn ticks_y(&self, pixels: i32) -> usize {
        ((pixels.max(0) as f64 / (self.label * 4.0)).floor() as usize).max(2)
    }

    /// About the height of the plot in a chart of height `h` with a one-row legend.
    pub(crate) fn plot_height(&self, h: u32) -> i32 {
        h as i32 - (self.title * 1.35 + self.small * 1.4 + self.label * 5.5) as i32 - 3 * self.margin
    }
}

/// A text style in the charts' font.
pub(crate) fn label_style(size: f64, colour: RGBColor) -> TextStyle<'static> {
    (FONT_FAMILY, size).into_font().color(&colour)
}

/// `text` cut with an ellipsis to fit `width` pixels at `size` (by the layout's measure).
pub(crate) fn fit(text: &str, size: f64, width: i32) -> String {
    if text_size(text, size).0 as i32 <= width {
        return text.to_string();
    }
    let mut out: String = String::new();
    for c in text.chars() {
        let next = format!("{out}{c}…");
        if text_size(&next, size).0 as i32 > width {
            break;
        }
        out.push(c);
    }
    format!("{}…", out.trim_end())
}

/// `text` in lines no wider than `width` pixels at `size`, broken between words. A word wider
/// than a whole line is broken between its characters, so that nothing is ever cut off.
pub(crate) fn wrap(text: &str, size: f64, width: i32) -> Vec<String> {
    let fits = |t: &str| text_size(t, size).0 as i32 <= width;
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let joined = if line.is_empty() { word.to_string() } else { format!("{line} {word}") };
        if fits(&joined) {
            line = joined;
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        for c in word.chars() {
            line.push(c);
            if !fits(&line) && line.chars().count() > 1 {
                line.pop();
                lines.push(std::mem::replace(&mut line, c.to_string()));
            }
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Bold type runs wider than the layout's measure (DejaVu Sans Bold by about a tenth), so a
/// title is wrapped as if its type were this much larger.
const BOLD_WIDTH: f64 = 1.1;

/// The title's and the subtitle's lines in a chart `w` pixels wide.
fn header_lines(title: &str, subtitle: &str, s: &Sizes, w: u32) -> (Vec<String>, Vec<String>) {
    let width = w as i32 - 2 * s.margin;
    (wrap(title, s.title * BOLD_WIDTH, width), wrap(subtitle, s.small, width))
}

/// The height the title and subtitle take in a chart `w` pixels wide, each wrapped onto as
/// many lines as it needs ([`header`] draws them so).
pub(crate) fn header_height(title: &str, subtitle: &str, s: &Sizes, w: u32) -> i32 {
    let (t, sub) = header_lines(title, subtitle, s, w);
    s.margin + t.len() as i32 * (s.title * 1.35).round() as i32 + sub.len() as i32 * (s.small * 1.4).round() as i32
}

/// Draws the title (bold) and subtitle at the top left, each wrapped rather than cut; returns
/// the height they take.
pub(crate) fn header(root: &DrawingArea<Recorder<'_>, Shift>, title: &str, subtitle: &str, s: &Sizes, w: u32) -> i32 {
    let (title_lines, subtitle_lines) = header_lines(title, subtitle, s, w);
    let mut y = s.margin;
    for line in title_lines {
        let style = (FONT_FAMILY, s.title, FontStyle::Bold).into_font().color(&INK);
        let _ = root.draw(&Text::new(line, (s.margin, y), style));
        y += (s.title * 1.35).round() as i32;
    }
    for line in subtitle_lines {
        let _ = root.draw(&Text::new(line, (s.margin, y), label_style(s.small, MUTED)));
        y += (s.small * 1.4).round() as i32;
    }
    y
}

/// One entry of a legend.
#[derive(Debug, Clone)]
pub(crate) struct LegendEntry {
    /// Its text.
    pub label: String,
    /// Its swatch colour.
    pub colour: Colour,
    /// The series it names.
    pub series: usize,
}

/// Where each legend entry goes below the plot: side by side when all fit on one row, else in
/// equal columns read downwards. Every entry is listed, however many: the chart asks for the
/// height ([`frame_height`]) rather than leave names out.
#[derive(Debug)]
struct LegendLayout {
    height: i32,
    /// Per entry listed: its index, x and y from the legend's top left.
    items: Vec<(usize, i32, i32)>,
}

/// Room between two legend entries side by side.
const LEGEND_GAP: i32 = 14;

fn legend_layout(entries: &[LegendEntry], w: u32, s: &Sizes) -> LegendLayout {
    if entries.is_empty() {
        return LegendLayout { height: 0, items: Vec::new() };
    }
    let row_h = (s.label * 1.6).round() as i32;
    let width = w as i32 - 2 * s.margin;
    let swatch = s.label as i32;
    let entry_w = |e: &LegendEntry| swatch + 5 + text_size(&e.label, s.label).0 as i32;
    let one_row: i32 = entries.iter().map(|e| entry_w(e) + LEGEND_GAP).sum::<i32>() - LEGEND_GAP;
    if one_row <= width {
        let mut x = 0;
        let items = entries
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let at = (i, x, 0);
                x += entry_w(e) + LEGEND_GAP;
                at
            })
            .collect();
        return LegendLayout { height: row_h, items };
    }
    let col_w = entries.iter().map(entry_w).max().unwrap_or(0).min(width) + LEGEND_GAP;
    let n = entries.len() as i32;
    let cols = ((width + LEGEND_GAP) / col_w).clamp(1, n);
    let rows = (n + cols - 1) / cols;
    let items = (0..n).map(|i| (i as usize, i / rows * col_w, i % rows * row_h)).collect();
    LegendLayout { height: rows * row_h, items }
}

fn draw_legend(
    root: &DrawingArea<Recorder<'_>, Shift>,
    entries: &[LegendEntry],
    layout: &LegendLayout,
    top: i32,
    highlight: Option<usize>,
    s: &Sizes,
) {
    let swatch = s.label as i32;
    let row_h = (s.label * 1.6).round() as i32;
    let dy = (row_h - swatch) / 2;
    for &(i, x, y) in &layout.items {
        let e = &entries[i];
        let (x, y) = (x + s.margin, y + top);
        let c = e.colour;
        let fill = RGBAColor(c.r, c.g, c.b, c.a as f64 / 255.0);
        let _ = root.draw(&Rectangle::new([(x, y + dy), (x + swatch, y + dy + swatch)], fill.filled()));
        let bold = highlight == Some(e.series);
        let style = if bold {
            (FONT_FAMILY, s.label, FontStyle::Bold).into_font().color(&INK)
        } else {
            label_style(s.label, INK)
        };
        let style = style.pos(plotters::style::text_anchor::Pos::new(
            plotters::style::text_anchor::HPos::Left,
            plotters::style::text_anchor::VPos::Center,
        ));
        let max_w = root.dim_in_pixel().0 as i32 - x - swatch - 5 - s.margin;
        let _ = root.draw(&Text::new(fit(&e.label, s.label, max_w), (x + swatch + 5, y + row_h / 2), style));
    }
}

/// One axis of a cartesian frame: its ticks (plotters draws exactly these), its description,
/// and whether grid lines cross the plot at its ticks.
#[derive(Debug, Clone, Default)]
pub(crate) struct AxisSpec {
    pub ticks: Vec<Tick>,
    pub desc: String,
    pub grid: bool,
}

/// What a cartesian chart draws around its data.
#[derive(Debug, Clone, Default)]
pub(crate) struct Frame {
    pub title: String,
    pub subtitle: String,
    pub x: AxisSpec,
    pub y: AxisSpec,
    pub legend: Vec<LegendEntry>,
    /// Extra room to the right of the plot (a colour scale, value labels).
    pub right: i32,
    /// Height kept below the legend for a drawing of the caller's (a colour scale).
    pub below: i32,
    /// Font size of the y tick labels (0: the usual), smaller when many bars share the height.
    pub y_label: f64,
}

/// The heights a cartesian frame takes above, below and around its plot, in a chart `w`
/// pixels wide: what [`laid_out`] leaves the plot, and what [`frame_height`] adds to one.
struct Chrome {
    /// Title and subtitle, wrapped.
    top: i32,
    /// Room above the plot for the top tick label's upper half.
    margin_top: i32,
    /// Tick marks, tick labels and the description under the plot.
    x_area: i32,
    /// Between the x axis and the legend.
    legend_gap: i32,
    legend: LegendLayout,
    /// The caller's strip under the legend.
    below: i32,
    margin: i32,
}

impl Chrome {
    fn of(frame: &Frame, w: u32, s: &Sizes) -> Chrome {
        let label_h = s.label.round() as i32;
        let legend = legend_layout(&frame.legend, w, s);
        Chrome {
            top: header_height(&frame.title, &frame.subtitle, s, w),
            margin_top: label_h / 2 + 2,
            x_area: 2 * s.tick + label_h + 4 + if frame.x.desc.is_empty() { 0 } else { label_h + 6 },
            legend_gap: if legend.height > 0 { s.margin / 2 } else { 0 },
            legend,
            below: frame.below,
            margin: s.margin,
        }
    }

    /// Everything below the plot's drawing area: legend, the caller's strip, the margin.
    fn bottom(&self) -> i32 {
        self.legend.height + self.legend_gap + self.below + self.margin
    }
}

/// The height of a chart with this frame whose plot is `plot_h` pixels tall, at the options'
/// width (titles wrapped and the legend listed in full as they will be drawn).
pub(crate) fn frame_height(frame: &Frame, opts: &ChartOptions, plot_h: i32) -> u32 {
    let c = Chrome::of(frame, opts.size().0, &Sizes::of(opts));
    // One pixel more: plotters' pixel ranges end exclusive.
    (c.top + c.margin_top + plot_h.max(0) + 1 + c.x_area + c.bottom()) as u32
}

/// The height of the plot in a chart of the options' size with this frame.
pub(crate) fn frame_plot_height(frame: &Frame, opts: &ChartOptions) -> i32 {
    let (w, h) = opts.size();
    let c = Chrome::of(frame, w, &Sizes::of(opts));
    (h as i32 - c.top - c.bottom()).max(40) - c.margin_top - c.x_area
}

/// Least room between two x tick labels side by side.
pub(crate) const X_LABEL_GAP: i32 = 6;

/// `ticks` with only every k-th label kept (the others empty, so no text is drawn), k the
/// least for which no two kept labels come closer than `gap` pixels. `at` is each tick's pixel
/// along the axis and `extent` a label's length along it; labels are centred on their ticks.
pub(crate) fn thin_labels(ticks: &[Tick], at: &[i32], extent: impl Fn(&str) -> i32, gap: i32) -> Vec<Tick> {
    let span = |i: usize| {
        let e = extent(&ticks[i].1);
        (at[i] - e / 2, at[i] - e / 2 + e)
    };
    let clear = |k: usize| {
        let kept: Vec<usize> = (0..ticks.len()).step_by(k).filter(|&i| !ticks[i].1.is_empty()).collect();
        kept.windows(2).all(|p| {
            let (a, b) = (span(p[0]), span(p[1]));
            let (lo, hi) = if a.0 <= b.0 { (a, b) } else { (b, a) };
            hi.0 - lo.1 >= gap
        })
    };
    let k = (1..=ticks.len().max(1)).find(|&k| clear(k)).unwrap_or(1);
    ticks.iter().enumerate().map(|(i, t)| (t.0, if i % k == 0 { t.1.clone() } else { String::new() })).collect()
}

/// A plotters coordinate with exactly the given ticks. (plotters' own `WithKeyPoints` loses
/// the value formatter of `f64` ranges, without which the mesh cannot be drawn.)
pub(crate) struct Ticked<R> {
    inner: R,
    ticks: Vec<f64>,
}

impl<R: Ranged<ValueType = f64>> Ranged for Ticked<R> {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.inner.map(value, limit)
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        // Bold grid lines and labels at the ticks; no light lines between them.
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.inner.range()
    }

    fn axis_pixel_range(&self, limit: (i32, i32)) -> std::ops::Range<i32> {
        self.inner.axis_pixel_range(limit)
    }
}

/// An axis's scale, linear or logarithmic, as one type: the layout, plotters' mesh and series
/// code and every chart's drawing are then compiled once, not once per pair of scales, which
/// keeps the page's wasm smaller.
pub(crate) enum Axis {
    Linear(RangedCoordf64),
    Log(LogCoord<f64>),
}

impl From<RangedCoordf64> for Axis {
    fn from(r: RangedCoordf64) -> Self {
        Axis::Linear(r)
    }
}

impl From<LogCoord<f64>> for Axis {
    fn from(r: LogCoord<f64>) -> Self {
        Axis::Log(r)
    }
}

impl Ranged for Axis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        match self {
            Axis::Linear(r) => r.map(value, limit),
            Axis::Log(r) => r.map(value, limit),
        }
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        match self {
            Axis::Linear(r) => r.key_points(hint),
            Axis::Log(r) => r.key_points(hint),
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        match self {
            Axis::Linear(r) => r.range(),
            Axis::Log(r) => r.range(),
        }
    }

    fn axis_pixel_range(&self, limit: (i32, i32)) -> std::ops::Range<i32> {
        match self {
            Axis::Linear(r) => r.axis_pixel_range(limit),
            Axis::Log(r) => r.axis_pixel_range(limit),
        }
    }
}

/// The chart context every cartesian chart draws its data into.
pub(crate) type Ctx<'a, 'b, X = Axis, Y = Axis> = ChartContext<'a, Recorder<'b>, Cartesian2d<Ticked<X>, Ticked<Y>>>;

/// Room the y tick labels take: the widest label and the tick marks.
pub(crate) fn y_label_width(ticks: &[Tick], s: &Sizes) -> i32 {
    ticks.iter().map(|t| text_size(&t.1, s.label).0 as i32).max().unwrap_or(0) + 2 * s.tick + 4
}

/// Lays out and draws a cartesian chart with plotters: header, mesh with the frame's ticks,
/// then `draw` puts the data in (returning its hit regions), then the legend goes below.
/// `below` draws into the strip of `frame.below` pixels at the bottom, given its top.
pub(crate) fn cartesian<X, Y, F, B>(
    opts: &ChartOptions,
    frame: &Frame,
    xs: X,
    ys: Y,
    draw: F,
    below: B,
) -> Result<Chart, String>
where
    X: AsRangedCoord<Value = f64>,
    Y: AsRangedCoord<Value = f64>,
    X::CoordDescType: Into<Axis>,
    Y::CoordDescType: Into<Axis>,
    F: FnOnce(&mut Ctx<'_, '_>, &DrawingArea<Recorder<'_>, Shift>, &Sizes, &mut Vec<Hit>),
    B: FnOnce(&DrawingArea<Recorder<'_>, Shift>, i32, (i32, i32, i32, i32), &Sizes),
{
    // The layout is instantiated once, not once per chart's closures, which keeps the page's
    // wasm smaller.
    let (mut draw, mut below) = (Some(draw), Some(below));
    let (xs, ys): (X::CoordDescType, Y::CoordDescType) = (xs.into(), ys.into());
    laid_out(
        opts,
        frame,
        xs.into(),
        ys.into(),
        &mut |c, r, s, h| {
            if let Some(f) = draw.take() {
                f(c, r, s, h)
            }
        },
        &mut |r, t, p, s| {
            if let Some(f) = below.take() {
                f(r, t, p, s)
            }
        },
    )
}

/// What a chart draws its data with, once its frame is laid out.
type DrawData<'f> = dyn FnMut(&mut Ctx<'_, '_>, &DrawingArea<Recorder<'_>, Shift>, &Sizes, &mut Vec<Hit>) + 'f;
/// What a chart draws in the strip below its legend.
type DrawBelow<'f> = dyn FnMut(&DrawingArea<Recorder<'_>, Shift>, i32, (i32, i32, i32, i32), &Sizes) + 'f;

/// [`cartesian`] on the axes' coordinate types.
fn laid_out(
    opts: &ChartOptions,
    frame: &Frame,
    xs: Axis,
    ys: Axis,
    draw: &mut DrawData<'_>,
    below: &mut DrawBelow<'_>,
) -> Result<Chart, String> {
    let (w, h) = opts.size();
    let s = Sizes::of(opts);
    let mut list = DisplayList::default();
    let mut hits = Vec::new();
    let plot;
    {
        let err = |e: plotters::drawing::DrawingAreaErrorKind<std::convert::Infallible>| e.to_string();
        let root = Recorder::new(&mut list, w, h).into_drawing_area();
        root.fill(&RGBColor(255, 255, 255)).map_err(err)?;
        let top = header(&root, &frame.title, &frame.subtitle, &s, w);
        let c = Chrome::of(frame, w, &s);
        let bottom = c.bottom();
        let area = root.clone().shrink((0, top), (w, (h as i32 - top - bottom).max(40) as u32));

        let label_h = s.label.round() as i32;
        let y_size = if frame.y_label > 0.0 { frame.y_label } else { s.label };
        let y_area = y_label_width(&frame.y.ticks, &Sizes { label: y_size, ..s })
            + if frame.y.desc.is_empty() { 0 } else { label_h + 6 };
        let x_area = c.x_area;
        let last_x = frame.x.ticks.iter().map(|t| text_size(&t.1, s.label).0 as i32).max().unwrap_or(0);
        let right = (last_x * 3 / 5 + 2).max(s.margin) + frame.right;

        let xt: Vec<f64> = frame.x.ticks.iter().map(|t| t.0).collect();
        let yt: Vec<f64> = frame.y.ticks.iter().map(|t| t.0).collect();
        let mut chart = ChartBuilder::on(&area)
            .margin_left(s.margin)
            .margin_right(right)
            .margin_top(c.margin_top)
            .x_label_area_size(x_area)
            .y_label_area_size(y_area)
            .build_cartesian_2d(Ticked { inner: xs, ticks: xt }, Ticked { inner: ys, ticks: yt })
            .map_err(err)?;
        // Labels that would run into their neighbours are left out, evenly (every second or
        // third decade), keeping their ticks and grid lines.
        let (xr, yr) = (chart.x_range(), chart.y_range());
        let x_at: Vec<i32> = frame.x.ticks.iter().map(|t| chart.backend_coord(&(t.0, yr.start)).0).collect();
        let y_at: Vec<i32> = frame.y.ticks.iter().map(|t| chart.backend_coord(&(xr.start, t.0)).1).collect();
        let x_ticks = thin_labels(&frame.x.ticks, &x_at, |l| text_size(l, s.label).0 as i32, X_LABEL_GAP);
        let y_ticks = thin_labels(&frame.y.ticks, &y_at, |_| y_size.round() as i32, 0);
        let label = |ticks: &[Tick], v: f64| ticks.iter().find(|t| t.0 == v).map(|t| t.1.clone()).unwrap_or_default();
        let xf = |v: &f64| label(&x_ticks, *v);
        let yf = |v: &f64| label(&y_ticks, *v);
        {
            let mut mesh = chart.configure_mesh();
            mesh.bold_line_style(ShapeStyle::from(&GRID))
                .axis_style(ShapeStyle::from(&AXIS))
                .x_label_style(label_style(s.label, INK))
                .y_label_style(label_style(y_size, INK))
                .axis_desc_style(label_style(s.label, MUTED))
                .x_label_formatter(&xf)
                .y_label_formatter(&yf)
                .set_all_tick_mark_size(s.tick);
            if !frame.x.grid {
                mesh.disable_x_mesh();
            }
            if !frame.y.grid {
                mesh.disable_y_mesh();
            }
            if !frame.x.desc.is_empty() {
                mesh.x_desc(frame.x.desc.clone());
            }
            if !frame.y.desc.is_empty() {
                mesh.y_desc(frame.y.desc.clone());
            }
            mesh.draw().map_err(err)?;
        }
        let (xr, yr) = chart.plotting_area().get_pixel_range();
        plot = (xr.start, yr.start, xr.end, yr.end);
        draw(&mut chart, &root, &s, &mut hits);
        let legend_top = h as i32 - bottom + c.legend_gap;
        draw_legend(&root, &frame.legend, &c.legend, legend_top, opts.highlight, &s);
        if frame.below > 0 {
            below(&root, legend_top + c.legend.height, plot, &s);
        }
    }
    Ok(Chart { width: w, height: h, list, hits, table: Table::default(), plot, reach: 0.0 })
}

/// A drawing that does nothing, for frames without a strip below.
pub(crate) fn nothing_below(_: &DrawingArea<Recorder<'_>, Shift>, _: i32, _: (i32, i32, i32, i32), _: &Sizes) {}

/// An RGBA plotters colour from a display-list colour, with `alpha` (0-1) applied.
pub(crate) fn rgba(c: Colour, alpha: f64) -> RGBAColor {
    RGBAColor(c.r, c.g, c.b, alpha)
}

/// The pixel x range of a chart context's plotting area.
pub(crate) fn plot_rect<X: Ranged, Y: Ranged>(
    chart: &ChartContext<'_, Recorder<'_>, Cartesian2d<X, Y>>,
) -> (i32, i32, i32, i32) {
    let (xr, yr) = chart.plotting_area().get_pixel_range();
    (xr.start, yr.start, xr.end, yr.end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn palette_starts_with_okabe_ito_and_is_stable() {
        assert_eq!(palette(0), (0x00, 0x72, 0xB2));
        assert_eq!(palette(1), (0xD5, 0x5E, 0x00));
        assert_eq!(palette(PALETTE_LEN), palette(0));
        // Every policy of the catalogue and the page's two its own colour, the first eight the strongest.
        let mut names: Vec<&str> = crate::policy::POLICIES.iter().map(|p| p.name).collect();
        names.extend(["custom", "mine"]);
        let mut colours: Vec<usize> = names.iter().map(|n| policy_colour(n).expect("a colour")).collect();
        assert_eq!(policy_colour("fcfs"), Some(0));
        assert_eq!(policy_colour("cplant24.nomax.all"), Some(7));
        colours.sort_unstable();
        colours.dedup();
        assert_eq!(colours.len(), names.len());
        assert!(colours.iter().all(|&c| c < PALETTE_LEN));
        let distinct: std::collections::BTreeSet<(u8, u8, u8)> = (0..PALETTE_LEN).map(palette).collect();
        assert_eq!(distinct.len(), PALETTE_LEN);
        // Names outside the catalogue take colours no run shown holds.
        assert_eq!(run_colours(&["custom:x", "fcfs", "custom:y"]), [1, 0, 2]);
        let distinct: std::collections::BTreeSet<_> = (0..21).map(palette).collect();
        assert_eq!(distinct.len(), 21);
    }

    #[test]
    fn fit_cuts_long_text_with_an_ellipsis() {
        assert_eq!(fit("short", 10.0, 100), "short");
        let cut = fit("a rather long title that does not fit", 10.0, 60);
        assert!(cut.ends_with('…'));
        assert!(text_size(&cut, 10.0).0 <= 60);
    }

    #[test]
    fn wrap_breaks_between_words_and_never_cuts() {
        let text = "higher and further left is better; waits under 1 s drawn at 1 s";
        let lines = wrap(text, 10.0, 120);
        assert!(lines.len() > 1);
        assert!(lines.iter().all(|l| text_size(l, 10.0).0 <= 120), "{lines:?}");
        assert_eq!(lines.join(" "), text);
        // A word longer than a line is broken, not cut.
        let long = wrap("supercalifragilistic", 10.0, 40);
        assert_eq!(long.concat(), "supercalifragilistic");
        assert!(long.iter().all(|l| text_size(l, 10.0).0 <= 40), "{long:?}");
        assert_eq!(wrap("", 10.0, 40), Vec::<String>::new());
    }

    #[test]
    fn legend_lists_every_entry_in_columns() {
        let s = Sizes::of(&ChartOptions::default());
        let entries: Vec<LegendEntry> = (0..37)
            .map(|i| LegendEntry { label: format!("conservative-{i}"), colour: series_colour(i), series: i })
            .collect();
        let l = legend_layout(&entries, 640, &s);
        assert_eq!(l.items.len(), 37);
        // Equal columns, read downwards: entry 1 under entry 0, and no two entries on one spot.
        assert_eq!((l.items[1].1, l.items[1].2 > l.items[0].2), (l.items[0].1, true));
        let spots: std::collections::BTreeSet<(i32, i32)> = l.items.iter().map(|&(_, x, y)| (x, y)).collect();
        assert_eq!(spots.len(), 37);
        let row_h = (s.label * 1.6).round() as i32;
        assert_eq!(l.height, l.items.iter().map(|&(_, _, y)| y).max().unwrap() + row_h);
        let few = legend_layout(&entries[..3], 640, &s);
        assert_eq!(few.items.len(), 3);
        assert_eq!(few.items[0].2, few.items[2].2, "three short entries share a row");
    }

    #[test]
    fn crowded_labels_are_thinned_evenly() {
        let ticks: Vec<Tick> = (0..7).map(|k| (k as f64, format!("{}", 10u64.pow(k)))).collect();
        let at: Vec<i32> = (0..7).map(|k| k * 30).collect();
        let width = |l: &str| text_size(l, 12.0).0 as i32;
        let kept = thin_labels(&ticks, &at, width, X_LABEL_GAP);
        let shown: Vec<&str> = kept.iter().map(|t| t.1.as_str()).filter(|l| !l.is_empty()).collect();
        assert_eq!(shown, ["1", "100", "10000", "1000000"]);
        // Room enough: all kept.
        let at: Vec<i32> = (0..7).map(|k| k * 80).collect();
        assert!(thin_labels(&ticks, &at, width, X_LABEL_GAP).iter().all(|t| !t.1.is_empty()));
    }
}
