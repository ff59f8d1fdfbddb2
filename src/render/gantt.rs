//! The Gantt chart (processors x time) of one schedule, rasterised straight into RGBA pixels.
//!
//! Drawing rectangles one by one on a canvas does not stay fluid for 200,000 jobs; filling a
//! pixel buffer does, because jobs never overlap on (processor, time), so the work is bounded by
//! the pixels plus one cheap test per job.

use super::axis::{linear_ticks, time_axis_name, time_ticks, Tick, DAY};
use super::chart::{cartesian, nothing_below, AxisSpec, Chart, ChartOptions, Frame, Sizes};
use super::compare::RunView;
use crate::engine::Outcome;
use crate::trace::Trace;

/// The window a Gantt picture written to a file shows, and the words its title takes: the
/// whole schedule, or over more than two weeks (where single jobs are thinner than a pixel) the
/// week around the longest queue of any run in `views`, the same for every policy's picture.
pub fn picture_window(views: &[RunView], gantts: &[&Gantt]) -> (Option<(f64, f64)>, &'static str) {
    let span = gantts
        .iter()
        .map(|g| g.span())
        .fold(None, |acc: Option<(i64, i64)>, (a, b)| Some(acc.map_or((a, b), |(x, y)| (x.min(a), y.max(b)))));
    match span {
        Some((a, b)) if b - a > 14 * DAY => {
            let peak = views
                .iter()
                .flat_map(|v| v.series.iter())
                .max_by(|p, q| p.queued_avg.total_cmp(&q.queued_avg))
                .map_or(a, |p| p.time);
            let t0 = (peak - 7 * DAY / 2).clamp(a, b - 7 * DAY);
            (Some((t0 as f64, (t0 + 7 * DAY) as f64)), "schedule in the week of the longest queue")
        }
        _ => (None, "schedule"),
    }
}

/// Okabe-Ito colours (colour-blind safe) as little-endian RGBA words; jobs are coloured by user.
const COLOURS: [u32; 8] =
    [0xffb27200, 0xff009fe6, 0xff739e00, 0xffa779cc, 0xffe9b456, 0xff005ed5, 0xff42e4f0, 0xff555555];
const BACKGROUND: u32 = 0xffffffff;
/// The outline of a highlighted job.
const OUTLINE: u32 = 0xff000000;

/// One schedule ready to draw: each piece of each job's run (one per job unless jobs were
/// suspended or killed), its user and its processor runs.
#[derive(Debug, Clone)]
pub struct Gantt {
    machine: u32,
    start: Vec<i64>,
    end: Vec<i64>,
    /// The job (trace index) of each piece.
    job: Vec<u32>,
    user: Vec<i32>,
    placement: Vec<(u32, u32)>,
    runs: Vec<(u32, u32)>,
}

impl Gantt {
    /// Builds the chart from a simulation run with `EngineOptions::placements` on.
    pub fn new(trace: &Trace, outcome: &Outcome) -> Self {
        let p = &outcome.pieces;
        Gantt {
            machine: trace.machine,
            start: p.iter().map(|p| p.start).collect(),
            end: p.iter().map(|p| p.end).collect(),
            job: p.iter().map(|p| p.job).collect(),
            user: p.iter().map(|p| trace.jobs[p.job as usize].user).collect(),
            placement: p.iter().map(|p| p.runs).collect(),
            runs: outcome.piece_runs.clone(),
        }
    }

    /// Machine size (the vertical extent).
    pub fn machine(&self) -> u32 {
        self.machine
    }

    /// First start and last end (the horizontal extent).
    pub fn span(&self) -> (i64, i64) {
        let lo = self.start.iter().filter(|&&s| s >= 0).min().copied().unwrap_or(0);
        let hi = self.end.iter().max().copied().unwrap_or(0);
        (lo, hi.max(lo + 1))
    }

    fn job_runs(&self, i: usize) -> &[(u32, u32)] {
        match self.placement.get(i) {
            Some(&(off, len)) => &self.runs[off as usize..(off + len) as usize],
            None => &[],
        }
    }

    /// The pixel blocks (x0, x1, y0, y1), ends exclusive, of piece `i` in a `w` x `h` raster of
    /// `[t0, t1)`; none if it lies outside.
    fn blocks(&self, i: usize, t0: f64, t1: f64, w: usize, h: usize) -> Vec<(usize, usize, usize, usize)> {
        let (s, e) = (self.start[i] as f64, self.end[i] as f64);
        if self.start[i] < 0 || e <= t0 || s >= t1 {
            return Vec::new();
        }
        let xs = w as f64 / (t1 - t0).max(1e-9);
        let ys = h as f64 / self.machine.max(1) as f64;
        let x0 = (((s - t0) * xs).floor().max(0.0)) as usize;
        let x1 = (((e - t0) * xs).ceil().min(w as f64)) as usize;
        let x1 = x1.max(x0 + 1).min(w);
        let x0 = x0.min(x1.saturating_sub(1));
        self.job_runs(i)
            .iter()
            .map(|&(first, count)| {
                let y0 = ((first as f64 * ys).floor() as usize).min(h.saturating_sub(1));
                let y1 = (((first + count) as f64 * ys).ceil() as usize).max(y0 + 1).min(h);
                (x0, x1, y0, y1)
            })
            .collect()
    }

    /// Draws the window `[t0, t1)` x all processors into `width` x `height` RGBA pixels
    /// (processor 0 at the top).
    pub fn render(&self, t0: f64, t1: f64, width: u32, height: u32) -> Vec<u8> {
        self.render_highlighted(t0, t1, width, height, None)
    }

    /// [`Gantt::render`] with the job at trace index `job` (if any) outlined in black, so the
    /// job picked under the pointer stands out.
    pub fn render_highlighted(&self, t0: f64, t1: f64, width: u32, height: u32, job: Option<usize>) -> Vec<u8> {
        let (w, h) = (width.max(1) as usize, height.max(1) as usize);
        let mut px = vec![BACKGROUND; w * h];
        for i in 0..self.start.len() {
            let colour = COLOURS[self.user[i].unsigned_abs() as usize % COLOURS.len()];
            for (x0, x1, y0, y1) in self.blocks(i, t0, t1, w, h) {
                // A darker right edge separates neighbouring jobs once they are wide enough to see.
                let edge = if x1 - x0 >= 4 { Some(x1 - 1) } else { None };
                for y in y0..y1 {
                    let row = &mut px[y * w..(y + 1) * w];
                    row[x0..x1].fill(colour);
                    if let Some(x) = edge {
                        row[x] = darker(colour);
                    }
                }
            }
        }
        if let Some(j) = job {
            for i in (0..self.start.len()).filter(|&i| self.job[i] as usize == j) {
                for (x0, x1, y0, y1) in self.blocks(i, t0, t1, w, h) {
                    for y in y0..y1 {
                        for x in x0..x1 {
                            if x < x0 + 2 || x + 2 >= x1 || y < y0 + 2 || y + 2 >= y1 {
                                px[y * w + x] = OUTLINE;
                            }
                        }
                    }
                }
            }
        }
        px.into_iter().flat_map(|c| c.to_le_bytes()).collect()
    }

    /// The job (trace index) running at time `t` on processor `proc`, if any.
    pub fn job_at(&self, t: f64, proc: u32) -> Option<usize> {
        (0..self.start.len())
            .find(|&i| {
                self.start[i] >= 0
                    && (self.start[i] as f64) <= t
                    && t < self.end[i] as f64
                    && self.job_runs(i).iter().any(|&(f, c)| proc >= f && proc < f + c)
            })
            .map(|i| self.job[i] as usize)
    }
}

/// The window a Gantt chart shows: `opts.x_range` if set and not empty, else the whole schedule.
pub fn gantt_window(g: &Gantt, opts: &ChartOptions) -> (f64, f64) {
    match opts.x_range {
        Some((a, b)) if b > a => (a, b),
        _ => {
            let (a, b) = g.span();
            (a as f64, b as f64)
        }
    }
}

/// The Gantt chart's frame: time axis (labelled like the busy and queue charts), processor axis
/// (processor 0 at the top, as the raster draws it) and title. The raster of
/// [`Gantt::render`]`(t0, t1, x1 - x0, y1 - y0)` goes into `chart.plot` afterwards: the page
/// puts the pixels there itself, [`gantt_svg`] and [`gantt_png`] do it natively.
pub fn gantt_frame(g: &Gantt, title: &str, opts: &ChartOptions) -> Chart {
    let window = gantt_window(g, opts);
    frame(g.machine(), title, &ChartOptions { x_range: Some(window), ..opts.clone() })
}

/// [`gantt_frame`] for a machine of `machine` processors over `opts.x_range` (`[0, 1)` if
/// unset), for the page's main thread, which draws the frame while a worker holds the schedule.
pub fn frame(machine: u32, title: &str, opts: &ChartOptions) -> Chart {
    let (t0, t1) = match opts.x_range {
        Some((a, b)) if b > a => (a, b),
        _ => (0.0, 1.0),
    };
    let s = Sizes::of(opts);
    let (w, h) = opts.size();
    let m = machine.max(1) as f64;
    let x_ticks = time_ticks(t0, t1, s.time_ticks(w as i32 - 90), opts.unix_start);
    // Processor p is drawn at height m - p, so processor 0 sits at the top.
    let y_ticks: Vec<Tick> = linear_ticks(0.0, m, s.ticks_y(s.plot_height(h)))
        .into_iter()
        .filter(|t| t.0 <= m)
        .map(|(v, l)| (m - v, l))
        .collect();
    let frame = Frame {
        title: title.to_string(),
        subtitle: "each job a block on the processors it held, coloured by user".to_string(),
        x: AxisSpec { ticks: x_ticks, desc: time_axis_name(opts.unix_start).to_string(), grid: true },
        y: AxisSpec { ticks: y_ticks, desc: "processor".to_string(), grid: true },
        ..Default::default()
    };
    cartesian(opts, &frame, t0..t1, 0.0..m, |_, _, _, _| {}, nothing_below)
        .unwrap_or_else(|e| Chart::message(opts, title, &e))
}

/// The raster of the frame's plot area, as RGBA pixels, `scale` times the frame's density.
#[cfg(not(target_arch = "wasm32"))]
fn raster_for(g: &Gantt, chart: &Chart, opts: &ChartOptions, scale: u32) -> (Vec<u8>, u32, u32) {
    let (t0, t1) = gantt_window(g, opts);
    let (x0, y0, x1, y1) = chart.plot;
    let (w, h) = (((x1 - x0).max(1) as u32) * scale, ((y1 - y0).max(1) as u32) * scale);
    (g.render(t0, t1, w, h), w, h)
}

/// The whole Gantt chart as SVG: the frame with the raster embedded as a PNG image over its
/// plot area (native only).
#[cfg(not(target_arch = "wasm32"))]
pub fn gantt_svg(g: &Gantt, title: &str, opts: &ChartOptions) -> String {
    let chart = gantt_frame(g, title, opts);
    // Twice the density, so the picture stays sharp when the SVG is scaled up.
    let (px, w, h) = raster_for(g, &chart, opts, 2);
    let png = super::native::encode_png(&px, w, h, true);
    let (x0, y0, x1, y1) = chart.plot;
    let image = format!(
        "<image x=\"{x0}\" y=\"{y0}\" width=\"{}\" height=\"{}\" preserveAspectRatio=\"none\" style=\"image-rendering:pixelated\" href=\"data:image/png;base64,{}\"/>\n",
        x1 - x0,
        y1 - y0,
        super::native::base64(&png)
    );
    let svg = chart.svg();
    match svg.rfind("</svg>") {
        Some(i) => format!("{}{image}{}", &svg[..i], &svg[i..]),
        None => svg,
    }
}

/// The whole Gantt chart as a PNG file at `scale` times its size (native only).
#[cfg(not(target_arch = "wasm32"))]
pub fn gantt_png(g: &Gantt, title: &str, opts: &ChartOptions, scale: u32) -> Vec<u8> {
    let k = scale.max(1);
    let chart = gantt_frame(g, title, opts);
    let (w, h) = (chart.width * k, chart.height * k);
    let mut rgb = super::native::rasterize(&chart.list.scaled(k), w, h);
    let (px, rw, rh) = raster_for(g, &chart, opts, k);
    let (x0, y0) = (chart.plot.0.max(0) as u32 * k, chart.plot.1.max(0) as u32 * k);
    for y in 0..rh.min(h.saturating_sub(y0)) {
        for x in 0..rw.min(w.saturating_sub(x0)) {
            let s = ((y * rw + x) * 4) as usize;
            let d = (((y0 + y) * w + x0 + x) * 3) as usize;
            rgb[d..d + 3].copy_from_slice(&px[s..s + 3]);
        }
    }
    super::native::encode_png(&rgb, w, h, false)
}

fn darker(c: u32) -> u32 {
    let [r, g, b, a] = c.to_le_bytes();
    u32::from_le_bytes([r / 2, g / 2, b / 2, a])
}

/// The Timeline's shared time window over one or two Gantt charts' schedules: it spans both
/// schedules while it shows them whole (and follows them as a schedule opens), moves within them
/// and is at least 10 s wide. The page only forwards the pointer and keys to it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TimeWindow {
    /// Each chart's schedule: first start, last end (s), none while the chart shows none.
    pub charts: [Option<(f64, f64)>; 2],
    /// The window `[t0, t1)` (s), none before a schedule opens.
    pub view: Option<(f64, f64)>,
}

impl TimeWindow {
    /// From the earliest start of the schedules shown to the latest end.
    pub fn extent(&self) -> Option<(f64, f64)> {
        let shown = self.charts.iter().flatten();
        shown.fold(None, |acc, &(lo, hi)| Some(acc.map_or((lo, hi), |(a, b): (f64, f64)| (a.min(lo), b.max(hi)))))
    }

    /// Whether the window shows the whole of the schedules (or there is none yet).
    pub fn whole(&self) -> bool {
        match (self.view, self.extent()) {
            (Some((t0, t1)), Some((lo, hi))) => t0 <= lo && t1 >= hi,
            _ => true,
        }
    }

    /// Chart `i` shows a schedule spanning `span` (none: no schedule); a window showing the
    /// whole schedules takes in the new one, so neither is cut off.
    pub fn open(&mut self, i: usize, span: Option<(f64, f64)>) {
        let whole = self.whole();
        if let Some(c) = self.charts.get_mut(i) {
            *c = span;
        }
        if whole || self.view.is_none() {
            self.view = self.extent();
        }
    }

    /// Moves the window to `[t0, t1)`, within the schedules, at least 10 s wide.
    pub fn set(&mut self, t0: f64, t1: f64) {
        let Some((lo, hi)) = self.extent() else { return };
        let span = (t1 - t0).max(10.0).min(hi - lo);
        let start = t0.min(hi - span).max(lo);
        self.view = Some((start, start + span));
    }

    /// Scales the window by `factor` about the point `share` of the way across it.
    pub fn zoom(&mut self, factor: f64, share: f64) {
        if let Some((t0, t1)) = self.view {
            let tm = t0 + share.clamp(0.0, 1.0) * (t1 - t0);
            self.set(tm - (tm - t0) * factor, tm + (t1 - tm) * factor);
        }
    }

    /// Moves the window by `share` of its width (negative: back in time).
    pub fn pan(&mut self, share: f64) {
        if let Some((t0, t1)) = self.view {
            let d = share * (t1 - t0);
            self.set(t0 + d, t1 + d);
        }
    }

    /// What key `key` does to the window (+ and = zoom in, - out, the arrows pan, Home shows the
    /// whole schedules); false for a key it does not take, or before a schedule opens.
    pub fn key(&mut self, key: &str) -> bool {
        if self.view.is_none() {
            return false;
        }
        match key {
            "+" | "=" => self.zoom(0.8, 0.5),
            "-" => self.zoom(1.25, 0.5),
            "ArrowLeft" => self.pan(-0.2),
            "ArrowRight" => self.pan(0.2),
            "Home" => self.reset(),
            _ => return false,
        }
        true
    }

    /// The whole schedules again.
    pub fn reset(&mut self) {
        if let Some((lo, hi)) = self.extent() {
            self.set(lo, hi);
        }
    }

    /// The window in days since `first` (the trace's first submission): "6.94 d to 49.69 d".
    pub fn label(&self, first: f64) -> String {
        let days = |t: f64| format!("{:.2} d", (t - first) / 86400.0);
        self.view.map_or_else(String::new, |(t0, t1)| format!("{} to {}", days(t0), days(t1)))
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn the_window_spans_both_schedules_and_stays_within_them() {
        let mut w = TimeWindow::default();
        assert!(w.whole() && w.view.is_none() && !w.key("Home"));
        w.open(0, Some((100.0, 1100.0)));
        assert_eq!(w.view, Some((100.0, 1100.0)));
        // A second schedule opened beside a whole window widens it: neither is cut off.
        w.open(1, Some((0.0, 2000.0)));
        assert_eq!((w.view, w.label(0.0)), (Some((0.0, 2000.0)), "0.00 d to 0.02 d".to_string()));
        w.zoom(0.5, 0.0);
        assert_eq!(w.view, Some((0.0, 1000.0)));
        assert!(!w.whole());
        // Zoomed in, a schedule opening does not move the window; panning stops at the end.
        w.open(1, Some((0.0, 1500.0)));
        assert_eq!(w.view, Some((0.0, 1000.0)));
        w.pan(2.0);
        assert_eq!(w.view, Some((500.0, 1500.0)));
        w.set(700.0, 701.0);
        assert_eq!(w.view, Some((700.0, 710.0)), "at least 10 s wide");
        assert!(w.key("Home") && w.whole());
        assert!(w.key("ArrowLeft") && w.key("=") && !w.key("x"));
    }
    use super::*;
    use crate::engine::{simulate, EngineOptions};
    use crate::policy::Configured;
    use crate::trace::{parse, TraceOptions};

    fn gantt(text: &str) -> Gantt {
        let trace = parse(text.as_bytes(), &TraceOptions::default()).unwrap();
        let mut p = Configured::new("fcfs", &[]).unwrap().build(&trace);
        let out = simulate(&trace, p.as_mut(), &EngineOptions { placements: true, ..Default::default() });
        Gantt::new(&trace, &out)
    }

    #[test]
    fn jobs_fill_their_processors_and_times() {
        // Machine 4: job 1 on 2 processors [0,100), job 2 on 4 processors [100,150).
        let g = gantt(
            "; MaxProcs: 4\n1 0 -1 100 2 -1 -1 2 100 -1 1 1 1 -1 1 -1 -1 -1\n2 0 -1 50 4 -1 -1 4 50 -1 1 2 1 -1 1 -1 -1 -1\n",
        );
        assert_eq!(g.span(), (0, 150));
        let px = g.render(0.0, 150.0, 3, 4); // 50 s per pixel, one row per processor
        let at = |x: usize, y: usize| u32::from_le_bytes(px[(y * 3 + x) * 4..(y * 3 + x) * 4 + 4].try_into().unwrap());
        assert_eq!(at(0, 0), COLOURS[1]);
        assert_eq!(at(1, 1), COLOURS[1]);
        assert_eq!(at(0, 2), BACKGROUND);
        assert_eq!(at(2, 3), COLOURS[2]);
        assert_eq!(g.job_at(120.0, 3), Some(1));
        assert_eq!(g.job_at(20.0, 3), None);
        assert_eq!(g.job_at(20.0, 0), Some(0));
    }
}
