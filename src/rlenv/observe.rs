//! The observation: which queued jobs are visible (FCFS up to 128; beyond, the SJF and
//! smallest-first orders interleaved), their 8 features each, the padding and skip slots,
//! and the action mask the training code derives from it.

use super::sim::Sim;
use super::workload::{Workload, CAP};

/// Slots in an observation.
pub const MAX_QUEUE_SIZE: usize = 128;
/// Features per slot.
pub const JOB_FEATURES: usize = 8;
/// Floats in an observation.
pub const OBS_LEN: usize = MAX_QUEUE_SIZE * JOB_FEATURES;
/// Seconds of waiting that feature 0 normalises by (12 h).
pub const MAX_WAIT_TIME: f64 = 43_200.0;

const PADDING: [f64; 8] = [0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0];
const SKIP: [f64; 8] = [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0];
const SKIP_PIVOT: [f64; 8] = [1.0; 8];

/// An element type observations can be written as (`f32`, or `f64` for the exact values).
pub trait ObsValue: Copy {
    /// The value nearest `x`.
    fn of(x: f64) -> Self;
}

impl ObsValue for f32 {
    #[inline]
    fn of(x: f64) -> f32 {
        x as f32
    }
}

impl ObsValue for f64 {
    #[inline]
    fn of(x: f64) -> f64 {
        x
    }
}

/// Scratch space reused from one observation to the next.
#[derive(Debug, Clone, Default)]
pub(crate) struct Visible {
    /// Visible jobs in slot order.
    pub jobs: Vec<u32>,
    /// The SJF order's first 128 (only with more than 128 queued).
    sjf: Vec<u32>,
    /// Per window job: already visible (only with more than 128 queued).
    taken: Vec<bool>,
}

impl Visible {
    /// Sorts the queue as the original does before observing and picks the visible jobs.
    pub fn build(&mut self, sim: &mut Sim, w: &Workload) {
        let jobs = &w.jobs;
        sim.queue.sort_by_key(|&q| jobs[q as usize].submit);
        self.jobs.clear();
        if sim.queue.len() <= MAX_QUEUE_SIZE {
            self.jobs.extend_from_slice(&sim.queue);
            return;
        }
        let q = &mut sim.queue;
        q.sort_by(|&a, &b| jobs[a as usize].f1.total_cmp(&jobs[b as usize].f1));
        q.sort_by(|&a, &b| jobs[a as usize].f2.total_cmp(&jobs[b as usize].f2));
        q.sort_by_key(|&a| (jobs[a as usize].request, jobs[a as usize].submit));
        self.sjf.clear();
        self.sjf.extend_from_slice(&q[..MAX_QUEUE_SIZE]);
        q.sort_by_key(|&a| (jobs[a as usize].procs, jobs[a as usize].submit));
        let window = sim.end - sim.start;
        if self.taken.len() < window {
            self.taken.resize(window, false);
        }
        let mut i = 0;
        while self.jobs.len() < MAX_QUEUE_SIZE {
            for cand in [self.sjf[i], q[i]] {
                let local = cand as usize - sim.start;
                if !self.taken[local] && self.jobs.len() < MAX_QUEUE_SIZE {
                    self.taken[local] = true;
                    self.jobs.push(cand);
                }
            }
            i += 1;
        }
        for &j in &self.jobs {
            self.taken[j as usize - sim.start] = false;
        }
    }

    /// Writes the observation (1024 values, slot-major) into `out`.
    pub fn write<T: ObsValue>(&self, sim: &Sim, w: &Workload, skip: bool, out: &mut [T]) {
        let out = &mut out[..OBS_LEN];
        let n = self.jobs.len();
        for (slot, &idx) in self.jobs.iter().enumerate() {
            let j = &w.jobs[idx as usize];
            let o = &mut out[slot * JOB_FEATURES..(slot + 1) * JOB_FEATURES];
            o[0] = T::of((((sim.clock - j.submit) as f64) / MAX_WAIT_TIME).min(CAP));
            for k in 0..6 {
                o[k + 1] = T::of(j.feat[k]);
            }
            o[7] = T::of(if j.nodes <= sim.free { CAP } else { 1e-5 });
        }
        let mut rest = n;
        if skip && n < MAX_QUEUE_SIZE {
            let pattern = if sim.pivot { &SKIP_PIVOT } else { &SKIP };
            write_pattern(&mut out[n * JOB_FEATURES..(n + 1) * JOB_FEATURES], pattern);
            rest += 1;
        }
        for slot in rest..MAX_QUEUE_SIZE {
            write_pattern(&mut out[slot * JOB_FEATURES..(slot + 1) * JOB_FEATURES], &PADDING);
        }
    }

    /// The action mask: visible jobs, and the skip slot unless the pivot state is reached.
    pub fn mask(&self, sim: &Sim, skip: bool, out: &mut [bool]) {
        let n = self.jobs.len();
        for (slot, m) in out[..MAX_QUEUE_SIZE].iter_mut().enumerate() {
            *m = slot < n || (skip && slot == n && !sim.pivot);
        }
    }
}

/// The all-padding observation (what a terminated episode shows).
pub fn write_padding<T: ObsValue>(out: &mut [T]) {
    for slot in 0..MAX_QUEUE_SIZE {
        write_pattern(&mut out[slot * JOB_FEATURES..(slot + 1) * JOB_FEATURES], &PADDING);
    }
}

fn write_pattern<T: ObsValue>(out: &mut [T], pattern: &[f64; 8]) {
    for (o, &p) in out.iter_mut().zip(pattern) {
        *o = T::of(p);
    }
}
