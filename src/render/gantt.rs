//! The Gantt chart (processors x time) of one schedule, rasterised straight into RGBA pixels.
//!
//! Drawing rectangles one by one on a canvas does not stay fluid for 200,000 jobs; filling a
//! pixel buffer does, because jobs never overlap on (processor, time), so the work is bounded by
//! the pixels plus one cheap test per job.

use crate::engine::Outcome;
use crate::trace::Trace;

/// Okabe-Ito colours (colour-blind safe) as little-endian RGBA words; jobs are coloured by user.
const COLOURS: [u32; 8] =
    [0xffb27200, 0xff009fe6, 0xff739e00, 0xffa779cc, 0xffe9b456, 0xff005ed5, 0xff42e4f0, 0xff555555];
const BACKGROUND: u32 = 0xffffffff;

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

    /// Draws the window `[t0, t1)` x all processors into `width` x `height` RGBA pixels
    /// (processor 0 at the top).
    pub fn render(&self, t0: f64, t1: f64, width: u32, height: u32) -> Vec<u8> {
        let (w, h) = (width.max(1) as usize, height.max(1) as usize);
        let mut px = vec![BACKGROUND; w * h];
        let xs = w as f64 / (t1 - t0).max(1e-9);
        let ys = h as f64 / self.machine.max(1) as f64;
        for i in 0..self.start.len() {
            let (s, e) = (self.start[i] as f64, self.end[i] as f64);
            if self.start[i] < 0 || e <= t0 || s >= t1 {
                continue;
            }
            let x0 = (((s - t0) * xs).floor().max(0.0)) as usize;
            let x1 = (((e - t0) * xs).ceil().min(w as f64)) as usize;
            let x1 = x1.max(x0 + 1).min(w);
            let colour = COLOURS[self.user[i].unsigned_abs() as usize % COLOURS.len()];
            // A darker right edge separates neighbouring jobs once they are wide enough to see.
            let edge = if x1 - x0 >= 4 { Some(x1 - 1) } else { None };
            for &(first, count) in self.job_runs(i) {
                let y0 = (first as f64 * ys).floor() as usize;
                let y1 = (((first + count) as f64 * ys).ceil() as usize).max(y0 + 1).min(h);
                for y in y0..y1 {
                    let row = &mut px[y * w..(y + 1) * w];
                    row[x0..x1].fill(colour);
                    if let Some(x) = edge {
                        row[x] = darker(colour);
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

fn darker(c: u32) -> u32 {
    let [r, g, b, a] = c.to_le_bytes();
    u32::from_le_bytes([r / 2, g / 2, b / 2, a])
}

#[cfg(test)]
mod tests {
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
