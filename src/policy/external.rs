//! A policy decided outside the engine, one pass at a time: a Python class
//! (`schedlab.Policy`), or any caller that implements [`Decide`].
//!
//! The engine keeps the clock, the machine, the runtimes the scheduler plans with (a
//! [`Planner`]: the user estimate, or an outside predictor, corrected when a job outlives it)
//! and the log. At each pass with jobs waiting, the decider gets a [`Pass`]: the waiting jobs in
//! arrival order, the running ones with their planned ends, and the availability profile they
//! make. It starts jobs and reserves them through the pass, which answers the profile's
//! questions (`earliest_start`, `fits_now`) with the pass's own starts and reservations
//! included. A reservation lasts the pass: the decider places its jobs anew at every pass, and
//! the engine logs the first place each job was promised and runs a pass at the reserved time.

use crate::engine::{JobIdx, JobView, Policy, System};
use crate::predict::{Planner, PredictOptions, Predictor};
use crate::profile::Profile;

/// A waiting job as the decider sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Waiting {
    /// Index in the trace.
    pub idx: JobIdx,
    /// SWF job number.
    pub id: u64,
    /// Submit time.
    pub submit: i64,
    /// Processors requested.
    pub procs: u32,
    /// User estimate: the kill time.
    pub estimate: i64,
    /// The runtime the scheduler plans with (the estimate, or a prediction).
    pub planned: i64,
    /// User id.
    pub user: i32,
    /// Queue number.
    pub queue: i32,
}

/// A running job as the decider sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Running {
    /// Index in the trace.
    pub idx: JobIdx,
    /// When it started.
    pub start: i64,
    /// Processors it holds.
    pub procs: u32,
    /// When the scheduler expects it to end (its start plus its planned runtime, corrected if it
    /// outlived that).
    pub planned_end: i64,
}

/// Why an action of the decider was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActionError(pub String);

impl std::fmt::Display for ActionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ActionError {}

/// One scheduling pass as the decider sees it and acts on it.
pub struct Pass {
    now: i64,
    free: u32,
    machine: u32,
    waiting: Vec<Waiting>,
    running: Vec<Running>,
    /// Per waiting position: started in this pass.
    taken: Vec<bool>,
    profile: Profile,
    starts: Vec<JobIdx>,
    reservations: Vec<(JobIdx, i64)>,
}

impl Default for Pass {
    fn default() -> Self {
        Pass {
            now: 0,
            free: 0,
            machine: 0,
            waiting: Vec::new(),
            running: Vec::new(),
            taken: Vec::new(),
            profile: Profile::new(0, 0),
            starts: Vec::new(),
            reservations: Vec::new(),
        }
    }
}

impl Pass {
    /// The time of the pass.
    pub fn now(&self) -> i64 {
        self.now
    }

    /// Processors free now, after the starts of this pass.
    pub fn free(&self) -> u32 {
        self.free
    }

    /// Machine size.
    pub fn machine(&self) -> u32 {
        self.machine
    }

    /// The waiting jobs at the beginning of the pass, in arrival order.
    pub fn waiting(&self) -> &[Waiting] {
        &self.waiting
    }

    /// The running jobs at the beginning of the pass, in the order they started.
    pub fn running(&self) -> &[Running] {
        &self.running
    }

    /// Jobs started in this pass, in order.
    pub fn starts(&self) -> &[JobIdx] {
        &self.starts
    }

    /// The position of waiting job `idx`, or why it cannot be acted on.
    fn position(&self, idx: JobIdx) -> Result<usize, ActionError> {
        // Waiting jobs are in arrival order, which is index order.
        let pos = self
            .waiting
            .binary_search_by_key(&idx, |w| w.idx)
            .map_err(|_| ActionError(format!("job index {idx} is not waiting at time {}", self.now)))?;
        if self.taken[pos] {
            return Err(ActionError(format!("job index {idx} has already started in this pass")));
        }
        Ok(pos)
    }

    /// Starts waiting job `idx` now: false if fewer processors are free than it needs. It
    /// need not fit the profile: a policy may start a job that delays its own reservations.
    pub fn start(&mut self, idx: JobIdx) -> Result<bool, ActionError> {
        let pos = self.position(idx)?;
        let w = self.waiting[pos];
        if w.procs > self.free {
            return Ok(false);
        }
        self.free -= w.procs;
        self.taken[pos] = true;
        self.profile.reserve(self.now, w.procs as i64, w.planned.max(1));
        self.starts.push(idx);
        Ok(true)
    }

    /// Reserves waiting job `idx` at time `at` (not before now) for this pass: the profile
    /// holds its processors from then for its planned runtime, so later questions of the pass
    /// leave it room; the engine logs the promise and runs a pass at `at`.
    pub fn reserve(&mut self, idx: JobIdx, at: i64) -> Result<(), ActionError> {
        let pos = self.position(idx)?;
        if at < self.now {
            return Err(ActionError(format!("job index {idx} cannot be reserved at {at}, before now ({})", self.now)));
        }
        let w = self.waiting[pos];
        self.profile.reserve(at, w.procs as i64, w.planned.max(1));
        self.reservations.push((idx, at));
        Ok(())
    }

    /// The earliest time from now at which `procs` processors are free for `duration` seconds
    /// in the profile (running jobs until their planned ends, this pass's starts and
    /// reservations), or `None` if never (wider than the machine).
    pub fn earliest_start(&self, procs: i64, duration: i64) -> Option<i64> {
        if procs > self.profile.capacity() {
            return None;
        }
        self.profile.earliest(procs.max(0), duration.max(1))
    }

    /// Whether `procs` processors can start now for `duration` seconds: free now, and left
    /// free by every reservation of the pass until then.
    pub fn fits_now(&self, procs: i64, duration: i64) -> bool {
        procs <= self.free as i64 && self.profile.fits(self.now, procs.max(0), duration.max(1))
    }
}

/// The outside side of an [`External`] policy: decides each pass.
pub trait Decide {
    /// Decides one pass by starting and reserving jobs through `pass`; an error stops the
    /// simulation, with the error as the reason.
    fn decide(&mut self, pass: &mut Pass) -> Result<(), String>;
}

/// A policy whose passes a [`Decide`] makes; see the module documentation.
pub struct External<D: Decide> {
    decide: D,
    planner: Planner,
    /// The profile of the running jobs, from their start to their planned end.
    profile: Profile,
    waiting: Vec<Waiting>,
    running: Vec<Running>,
    /// The pass handed to the decider, kept to reuse its buffers.
    pass: Pass,
    fault: Option<String>,
    /// Jobs in the trace, and jobs arrived so far.
    jobs: usize,
    arrived: usize,
    /// Passes in a row that started nothing on an idle machine with every job arrived.
    idle_passes: u32,
}

/// Passes in a row a decider may start nothing on an idle machine with every job arrived, each
/// reserving some job later, before it is taken to wait forever.
pub const MAX_IDLE_PASSES: u32 = 1000;

impl<D: Decide> External<D> {
    /// A policy for a machine of `machine` processors and `jobs` jobs, planning with the user
    /// estimates (corrected by doubling when a trace keeps runtimes beyond them) or with
    /// `predictor`'s predictions.
    pub fn new(decide: D, machine: u32, jobs: usize, origin: i64, predictor: Option<Box<dyn Predictor>>) -> Self {
        let opts = PredictOptions::default();
        let planner = match predictor {
            Some(p) => Planner::with_predictor(opts, jobs, p),
            None => Planner::new(opts, jobs),
        };
        External {
            decide,
            planner,
            profile: Profile::new(machine, origin),
            waiting: Vec::new(),
            running: Vec::new(),
            pass: Pass::default(),
            fault: None,
            jobs,
            arrived: 0,
            idle_passes: 0,
        }
    }

    /// The decider, to take back what it kept (an error it saw, say).
    pub fn decider(&mut self) -> &mut D {
        &mut self.decide
    }

    fn running_pos(&self, idx: JobIdx) -> Option<usize> {
        self.running.iter().position(|r| r.idx == idx)
    }
}

impl<D: Decide> Policy for External<D> {
    fn on_arrival(&mut self, job: JobView, sys: &mut System) {
        self.arrived += 1;
        let planned = self.planner.arrive(&job, 0).max(1);
        sys.note_prediction(job.idx, planned, false);
        self.waiting.push(Waiting {
            idx: job.idx,
            id: job.id,
            submit: job.submit,
            procs: job.procs,
            estimate: job.estimate,
            planned,
            user: job.user,
            queue: job.queue,
        });
    }

    fn on_completion(&mut self, job: JobView, sys: &mut System) {
        let Some(pos) = self.running_pos(job.idx) else { return };
        let r = self.running.remove(pos);
        let now = sys.now();
        if r.planned_end > now {
            self.profile.release(now, r.procs as i64, r.planned_end - now);
        }
        self.planner.ended(&job, now - r.start);
    }

    fn on_overdue(&mut self, job: JobView, sys: &mut System) -> bool {
        let now = sys.now();
        let Some(pos) = self.running_pos(job.idx) else { return false };
        if self.running[pos].planned_end > now {
            return false;
        }
        let Some(dur) = self.planner.correct(&job) else { return false };
        let r = &mut self.running[pos];
        let end = (r.start + dur).max(now + 1);
        self.profile.reserve(now, r.procs as i64, end - now);
        r.planned_end = end;
        sys.note_prediction(job.idx, end - r.start, true);
        sys.watch(job.idx, end);
        true
    }

    fn schedule(&mut self, sys: &mut System) {
        if self.waiting.is_empty() || self.fault.is_some() {
            return;
        }
        let now = sys.now();
        self.profile.advance(now);
        let mut pass = std::mem::take(&mut self.pass);
        pass.now = now;
        pass.free = sys.free();
        pass.machine = sys.machine_size();
        pass.waiting.clone_from(&self.waiting);
        pass.running.clone_from(&self.running);
        pass.taken.clear();
        pass.taken.resize(pass.waiting.len(), false);
        pass.profile.clone_from(&self.profile);
        pass.starts.clear();
        pass.reservations.clear();
        if let Err(why) = self.decide.decide(&mut pass) {
            self.fault = Some(why);
        }
        // On an idle machine with nothing left to arrive, a pass that starts nothing changes
        // nothing: without a reservation no event will ever come, and a decider that only ever
        // reserves later would move the clock on forever.
        let idle = self.running.is_empty() && self.arrived == self.jobs;
        if idle && pass.starts.is_empty() && self.fault.is_none() {
            self.idle_passes += 1;
            let waiting = self.waiting.len();
            if pass.reservations.is_empty() {
                self.fault = Some(format!(
                    "the policy started none of the {waiting} waiting jobs on an idle machine with no job left to arrive, and reserved none: they would wait forever"
                ));
            } else if self.idle_passes > MAX_IDLE_PASSES {
                self.fault = Some(format!(
                    "the policy started none of the {waiting} waiting jobs on an idle machine with no job left to arrive in {MAX_IDLE_PASSES} passes, reserving them later each time"
                ));
            }
        } else {
            self.idle_passes = 0;
        }
        for &idx in &pass.starts {
            let view = sys.view(idx);
            if !sys.start(idx) {
                // The pass counted the same free processors as the machine: this cannot refuse.
                continue;
            }
            let Ok(pos) = self.waiting.binary_search_by_key(&idx, |w| w.idx) else { continue };
            let w = self.waiting.remove(pos);
            let end = now + w.planned.max(1);
            self.profile.reserve(now, w.procs as i64, w.planned.max(1));
            self.running.push(Running { idx, start: now, procs: w.procs, planned_end: end });
            if w.planned != view.sched_runtime {
                // The engine watches only the trace's planning runtime; a prediction needs its own alarm.
                sys.watch(idx, end);
            }
        }
        for &(idx, at) in &pass.reservations {
            if !pass.starts.contains(&idx) {
                sys.note_reservation(idx, at);
                sys.wake_at(at);
            }
        }
        self.pass = pass;
    }

    fn fault(&self) -> Option<String> {
        let predictor = || self.planner.fault().map(|why| format!("the runtime predictor failed: {why}"));
        self.fault.clone().or_else(predictor)
    }
}
