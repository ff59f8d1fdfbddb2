//! One window's simulation, step for step as RLScheduler's `HPCEnv` runs it: a count of free
//! nodes, a queue and a running list whose orders persist between stable sorts (ties depend
//! on them), lazy releases, the skip/wait rule and the backfilling with a start estimate
//! computed once.

use super::workload::Workload;
use super::{RlError, ScoreType};

/// Seconds a wait action moves the clock when nothing happens sooner.
pub const SKIP_TIME: i64 = 360;

/// A started job still holding its nodes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Running {
    /// start + run time.
    pub act_end: i64,
    /// start + requested time.
    pub est_end: i64,
    pub nodes: i64,
    pub idx: u32,
}

/// The order the whole queue is stably sorted by before a heuristic commits its first job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Heuristic {
    /// Submit time.
    Fcfs,
    /// (requested time, submit time).
    Sjf,
    /// (processors, submit time).
    Smallest,
    /// Carastan-Neto's F1: log10(r) n + 870 log10(s).
    F1,
    /// Carastan-Neto's F2: sqrt(r) n + 25600 log10(s).
    F2,
    /// WFP3 as released (its wait read from the start time -1): ((s + 1) / r)^3 n.
    Wfp3,
    /// UNICEP as released: (s + 1) / (log2(n + 1e-15) r).
    Uni,
}

impl Heuristic {
    /// The name RLScheduler's scripts print.
    pub fn name(self) -> &'static str {
        match self {
            Heuristic::Fcfs => "FCFS",
            Heuristic::Sjf => "SJF",
            Heuristic::Smallest => "Smallest",
            Heuristic::F1 => "F1",
            Heuristic::F2 => "F2",
            Heuristic::Wfp3 => "WFP3",
            Heuristic::Uni => "UNI",
        }
    }
}

/// Total order on float keys (no -0.0 in the keys; NaN keys, which the original's sort
/// handles in its own way, are placed by `total_cmp`).
#[inline]
fn fcmp(a: f64, b: f64) -> std::cmp::Ordering {
    a.total_cmp(&b)
}

/// The simulation state of one window.
#[derive(Debug, Clone, Default)]
pub(crate) struct Sim {
    pub start: usize,
    pub end: usize,
    pub next: usize,
    pub clock: i64,
    pub free: i64,
    pub queue: Vec<u32>,
    pub running: Vec<Running>,
    /// `running[..act_sorted]` is sorted by actual end and the rest was appended since.
    act_sorted: usize,
    /// Each started job's score, in start order.
    pub scores: Vec<f64>,
    pub pivot: bool,
    pub backfil: bool,
    pub score_type: ScoreType,
}

impl Sim {
    /// A simulation with these rules (and no window yet).
    pub fn new(backfil: bool, score_type: ScoreType) -> Sim {
        Sim { backfil, score_type, ..Sim::default() }
    }

    /// Puts the window `start..start+window` in its initial state: the machine empty, the
    /// clock at the first job's submit time, that job queued.
    pub fn begin(&mut self, w: &Workload, start: usize, window: usize) {
        self.start = start;
        self.end = start + window;
        self.next = start + 1;
        self.clock = w.jobs[start].submit;
        self.free = w.max_nodes;
        self.queue.clear();
        self.queue.push(start as u32);
        self.running.clear();
        self.act_sorted = 0;
        self.scores.clear();
        self.pivot = false;
    }

    #[inline]
    pub fn fits(&self, w: &Workload, idx: u32) -> bool {
        w.jobs[idx as usize].nodes <= self.free
    }

    /// The running list stably sorted by actual end, as the original sorts it before each event.
    fn sort_running_by_end(&mut self) {
        let n = self.running.len();
        if self.act_sorted == 0 && n > 1 {
            self.running.sort_by_key(|r| r.act_end);
        } else {
            for i in self.act_sorted.max(1)..n {
                let x = self.running[i];
                let at = self.running[..i].partition_point(|r| r.act_end <= x.act_end);
                if at < i {
                    self.running.copy_within(at..i, at + 1);
                    self.running[at] = x;
                }
            }
        }
        self.act_sorted = n;
    }

    fn release_first(&mut self, w: &Workload) -> Result<(), RlError> {
        let r = self.running.remove(0);
        self.act_sorted = self.act_sorted.saturating_sub(1);
        if r.nodes < 0 {
            return Err(RlError::NegativeProcs { job_id: w.jobs[r.idx as usize].id });
        }
        self.free += r.nodes;
        Ok(())
    }

    fn arrive(&mut self, w: &Workload) {
        self.clock = self.clock.max(w.jobs[self.next].submit);
        self.queue.push(self.next as u32);
        self.next += 1;
    }

    /// One event of the loop that makes room for a job: the next arrival of the window if it
    /// comes no later than the earliest actual end, else that end.
    fn event(&mut self, w: &Workload, for_job: u32) -> Result<(), RlError> {
        if self.running.is_empty() {
            return Err(RlError::NeverFits { job_id: w.jobs[for_job as usize].id });
        }
        self.sort_running_by_end();
        let end = self.running[0].act_end;
        if self.next < self.end && w.jobs[self.next].submit <= end {
            self.arrive(w);
            Ok(())
        } else {
            self.clock = self.clock.max(end);
            self.release_first(w)
        }
    }

    /// Starts `idx` now (it fits) and records its score.
    fn start_job(&mut self, w: &Workload, idx: u32) {
        let j = &w.jobs[idx as usize];
        self.free -= j.nodes;
        self.running.push(Running {
            act_end: self.clock + j.run,
            est_end: self.clock + j.request,
            nodes: j.nodes,
            idx,
        });
        let wait = self.clock - j.submit;
        let score = match self.score_type {
            ScoreType::BoundedSlowdown => (((wait + j.run) as f64) / (j.run.max(10) as f64)).max(1.0),
            ScoreType::Wait => wait as f64,
            ScoreType::Turnaround => (wait + j.run) as f64,
            ScoreType::Utilization => -((j.run * j.procs) as f64),
            ScoreType::Slowdown => ((wait + j.run) as f64) / (j.run as f64),
        };
        self.scores.push(score);
    }

    /// Commits `idx` (a queued job): runs forward until it fits (backfilling on the way if
    /// asked), starts it, and if the queue is then empty brings the next arrival. Returns
    /// whether the window is done (every job started).
    pub fn schedule(&mut self, w: &Workload, idx: u32) -> Result<bool, RlError> {
        if !self.fits(w, idx) {
            if self.backfil {
                self.backfill_until_fits(w, idx)?;
            } else {
                while !self.fits(w, idx) {
                    self.event(w, idx)?;
                }
            }
        }
        self.start_job(w, idx);
        let pos = self.queue.iter().position(|&q| q == idx).expect("a committed job is queued");
        self.queue.remove(pos);
        self.refill(w)?;
        Ok(self.queue.is_empty())
    }

    fn backfill_until_fits(&mut self, w: &Workload, idx: u32) -> Result<(), RlError> {
        let job = &w.jobs[idx as usize];
        let ppn = w.procs_per_node;
        let mut estimate = self.clock;
        self.running.sort_by_key(|r| r.est_end);
        self.act_sorted = 0;
        let mut free_procs = self.free as f64 * ppn;
        for r in &self.running {
            if r.nodes < 0 {
                return Err(RlError::NegativeProcs { job_id: w.jobs[r.idx as usize].id });
            }
            free_procs += r.nodes as f64 * ppn;
            estimate = r.est_end;
            if free_procs >= job.procs as f64 {
                break;
            }
        }
        while !self.fits(w, idx) {
            self.queue.sort_by_key(|&q| w.jobs[q as usize].submit);
            let mut i = 0;
            while i < self.queue.len() {
                let q = self.queue[i];
                if self.clock + w.jobs[q as usize].request < estimate && self.fits(w, q) {
                    self.start_job(w, q);
                    self.queue.remove(i);
                } else {
                    i += 1;
                }
            }
            self.event(w, idx)?;
        }
        Ok(())
    }

    /// After a start: if the queue is empty and jobs are still to come, the next arrival
    /// (releasing on the way every job that ends strictly before it).
    fn refill(&mut self, w: &Workload) -> Result<(), RlError> {
        if !self.queue.is_empty() || self.next >= self.end {
            return Ok(());
        }
        loop {
            let end = if self.running.is_empty() {
                i64::MAX
            } else {
                self.sort_running_by_end();
                self.running[0].act_end
            };
            if w.jobs[self.next].submit <= end {
                self.arrive(w);
                return Ok(());
            }
            self.clock = self.clock.max(end);
            self.release_first(w)?;
        }
    }

    /// The wait action: to clock + 360 s, or one event if one comes sooner; at the very end
    /// (all arrived, nothing running) only the pivot flag is set.
    pub fn wait(&mut self, w: &Workload) -> Result<(), RlError> {
        let release = if self.running.is_empty() {
            i64::MAX
        } else {
            self.sort_running_by_end();
            self.running[0].act_end
        };
        if self.next >= self.end && self.running.is_empty() {
            self.pivot = true;
            return Ok(());
        }
        let arrival = w.jobs.get(self.next).map_or(i64::MAX, |j| j.submit);
        let later = self.clock + SKIP_TIME;
        if later < arrival.min(release) {
            self.clock = later;
            return Ok(());
        }
        if self.next < self.end && arrival <= release {
            self.arrive(w);
            Ok(())
        } else {
            self.clock = self.clock.max(release);
            self.release_first(w)
        }
    }

    /// The final total: each score over the denominator (the window length, or for
    /// utilization the processor-seconds from the first submit to the last start), summed in
    /// start order.
    pub fn total(&self, w: &Workload) -> f64 {
        let denom = match self.score_type {
            ScoreType::Utilization => ((self.clock - w.jobs[self.start].submit) * w.max_procs) as f64,
            _ => (self.end - self.start) as f64,
        };
        self.scores.iter().fold(0.0, |acc, s| acc + s / denom)
    }

    /// Schedules the whole window with `h` (the whole queue stably sorted by its key, the first
    /// job committed, at every decision) and returns the final total.
    pub fn run_heuristic(&mut self, w: &Workload, h: Heuristic) -> Result<f64, RlError> {
        let jobs = &w.jobs;
        loop {
            match h {
                Heuristic::Fcfs => self.queue.sort_by_key(|&q| jobs[q as usize].submit),
                Heuristic::Sjf => self.queue.sort_by_key(|&q| (jobs[q as usize].request, jobs[q as usize].submit)),
                Heuristic::Smallest => self.queue.sort_by_key(|&q| (jobs[q as usize].procs, jobs[q as usize].submit)),
                Heuristic::F1 => self.queue.sort_by(|&a, &b| fcmp(jobs[a as usize].f1, jobs[b as usize].f1)),
                Heuristic::F2 => self.queue.sort_by(|&a, &b| fcmp(jobs[a as usize].f2, jobs[b as usize].f2)),
                Heuristic::Wfp3 => {
                    let key = |q: u32| {
                        let j = &jobs[q as usize];
                        ((j.submit + 1) as f64 / j.request as f64).powf(3.0) * j.procs as f64 + 0.0
                    };
                    self.queue.sort_by(|&a, &b| fcmp(key(a), key(b)))
                }
                Heuristic::Uni => {
                    let key = |q: u32| {
                        let j = &jobs[q as usize];
                        (j.submit + 1) as f64 / ((j.procs as f64 + 1e-15).log2() * j.request as f64) + 0.0
                    };
                    self.queue.sort_by(|&a, &b| fcmp(key(a), key(b)))
                }
            }
            let first = self.queue[0];
            if self.schedule(w, first)? {
                return Ok(self.total(w));
            }
        }
    }
}
