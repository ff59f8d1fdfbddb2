//! Observers: bookkeeping that watches a simulation without taking part in it.
//!
//! The event loop does only what every run needs (clock, machine, events, the policy's calls)
//! and tells the observers attached to it what happened. Each study's measurement is one:
//! [`Predictions`] (the weighted accuracy of Tsafrir et al. section 2), [`Promises`] (each
//! job's first reservation, for predictability and missed reservations), [`HeelAndToe`]
//! (their Table 10), and the fair start time of Leung et al. ([`crate::fairstart`]). A run
//! attaches only those its metrics need ([`Observe`]); none of them can change a schedule,
//! since an observer sees the engine only through `&System`.
//!
//! Each observer leaves its results in [`Observed`] when the run ends.

use std::collections::BTreeSet;

use serde::Serialize;

use super::{accuracy, Decision, JobIdx, PieceEnd, System};
use crate::keys::KeyError;
use crate::trace::{Job, Trace};

/// Watches a simulation: told of each event after the engine has applied it.
pub trait Observer {
    /// Job `job` was submitted at `sys.now()` (before the policy hears of it).
    fn arrived(&mut self, _sys: &System, _job: JobIdx) {}
    /// The policy plans job `job` with runtime `prediction` from `now` on; `correction` says it
    /// was raised because the job outlived the previous one.
    fn predicted(&mut self, _now: i64, _job: JobIdx, _prediction: i64, _correction: bool) {}
    /// The policy promised job `job`, not yet started, a start at `start`.
    fn promised(&mut self, _now: i64, _job: JobIdx, _start: i64) {}
    /// A piece of job `job` ended at `sys.now()` by completion, kill or checkpoint (suspensions
    /// are told by [`Observer::passed`]), just before the policy hears of it.
    fn ended(&mut self, _sys: &System, _job: JobIdx, _how: PieceEnd) {}
    /// The policy is told now that job `job` completed (with `passes=event`, this may come after
    /// other events of the same second, as the policy hears of it).
    fn completed(&mut self, _sys: &System, _job: JobIdx) {}
    /// A scheduling pass ended: [`System::started_now`], [`System::suspended_now`] and
    /// [`System::resumed_now`] say what it did, and every job it started or resumed has its end
    /// ([`System::due`]) and its record's start set.
    fn passed(&mut self, _sys: &System) {}
    /// Whether it keeps the policy's decisions ([`Observer::decided`]); asked once, at the start.
    fn explains(&self) -> bool {
        false
    }
    /// The policy decided `decision` in the pass under way at `sys.now()` (only for an
    /// observer that [`Observer::explains`]).
    fn decided(&mut self, _sys: &System, _decision: &Decision) {}
    /// The run is over: leaves the results in `out`.
    fn finish(self: Box<Self>, _sys: &System, _out: &mut Observed) {}
}

/// Which observers a run attaches (key `observe`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Observe {
    /// Decided per policy by what its paper measures ([`Observe::resolve`]).
    pub auto: bool,
    /// [`Predictions`].
    pub predictions: bool,
    /// [`Promises`].
    pub promises: bool,
    /// [`HeelAndToe`].
    pub heel_toe: bool,
}

impl Default for Observe {
    fn default() -> Self {
        Observe { auto: true, predictions: false, promises: false, heel_toe: false }
    }
}

/// The names `observe=` takes, with what each measures.
pub const OBSERVERS: &[(&str, &str)] = &[
    ("predictions", "prediction accuracy and corrections (Tsafrir et al.)"),
    ("promises", "first reservations: predictability, missed reservations"),
    ("heel_toe", "starts pushed back by backfilling (Tsafrir et al. Table 10)"),
];

impl Observe {
    /// Every observer.
    pub const ALL: Observe = Observe { auto: false, predictions: true, promises: true, heel_toe: true };
    /// None.
    pub const NONE: Observe = Observe { auto: false, predictions: false, promises: false, heel_toe: false };

    /// Parses `auto`, `all`, `none` or a comma-separated list of [`OBSERVERS`].
    pub fn parse(value: &str) -> Result<Observe, KeyError> {
        let v = crate::keys::normalize(value);
        let mut o = Observe::NONE;
        match v.as_str() {
            "auto" => return Ok(Observe::default()),
            "all" => return Ok(Observe::ALL),
            "none" => return Ok(o),
            _ => {}
        }
        for name in v.split(',').map(str::trim) {
            match name {
                "predictions" => o.predictions = true,
                "promises" => o.promises = true,
                "heel_toe" => o.heel_toe = true,
                _ => {
                    return Err(KeyError::new(
                        "observe",
                        value,
                        "expected auto, all, none or a list of predictions, promises, heel_toe",
                    ))
                }
            }
        }
        Ok(o)
    }

    /// `auto` made definite: `promises` for policies whose study counts missed reservations
    /// (`reservations` true), nothing else; an explicit choice stays as it is.
    pub fn resolve(self, reservations: bool) -> Observe {
        if self.auto {
            Observe { auto: false, predictions: false, promises: reservations, heel_toe: false }
        } else {
            self
        }
    }

    /// The observers chosen, built for `trace`.
    pub fn build<'a>(self, trace: &'a Trace) -> Vec<Box<dyn Observer + 'a>> {
        let mut v: Vec<Box<dyn Observer + 'a>> = Vec::new();
        if self.predictions {
            v.push(Box::new(Predictions::new(trace)));
        }
        if self.promises {
            v.push(Box::new(Promises::new(trace.jobs.len())));
        }
        if self.heel_toe {
            v.push(Box::new(HeelAndToe::new(trace)));
        }
        v
    }
}

/// What the observers of a run measured; a `None` was not observed.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Observed {
    /// Per job, from [`Predictions`].
    pub predictions: Option<Vec<Prediction>>,
    /// Per job: the first start time the policy promised it, or -1 ([`Promises`]).
    pub promises: Option<Vec<i64>>,
    /// Per job, from [`HeelAndToe`].
    pub heel_toe: Option<Vec<Followed>>,
    /// Every submission's fair start time ([`crate::fairstart`]).
    pub fair_starts: Option<Vec<FairStart>>,
    /// What measuring the fair start times cost.
    pub fst_cost: FstCost,
    /// The decision log ([`super::decision::DecisionLogger`]).
    pub decisions: Option<super::decision::DecisionLog>,
}

/// What the scheduler believed of one job's runtime.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Prediction {
    /// Accuracy of the scheduler's predictions, weighted by the time each was in effect from
    /// submission to termination (1 = always exact); 0 if it never ended.
    pub accuracy: f64,
    /// How many times its prediction was corrected because it outlived it.
    pub corrections: u32,
}

/// One job followed while it was the oldest waiting job (heel and toe).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Followed {
    /// Earliest start possible with true runtimes when it became the oldest waiting job, or -1.
    pub perfect_start: i64,
    /// How many times, while it was the oldest waiting job, backfilled jobs pushed that
    /// earliest possible start later ("thieves").
    pub thefts: u32,
}

/// One submission's fair start: a job, or one segment of a job run under a maximum runtime.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct FairStart {
    /// The job (trace index).
    pub job: JobIdx,
    /// Segment number (0 for a job that ran whole, and for a job's first segment).
    pub segment: u32,
    /// When it was submitted.
    pub submit: i64,
    /// Its fair start time.
    pub fst: i64,
    /// When it started (-1 if it never did).
    pub start: i64,
}

impl FairStart {
    /// Seconds it started after its fair start time (0 if on time or earlier).
    pub fn miss(&self) -> i64 {
        (self.start - self.fst).max(0)
    }
}

/// What the FST computations cost, for the benchmark.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct FstCost {
    /// Fair start times computed (submissions).
    pub computed: u64,
    /// Waiting jobs looked at (the queue length at each submission, summed).
    pub scanned: u64,
    /// Jobs list-scheduled ahead of the new ones, summed.
    pub placed: u64,
    /// Groups of processor completion times taken, summed.
    pub groups: u64,
    /// Computations that went on from the one before (a submission at the same second
    /// behind it in fairshare order), placing no job but their own.
    pub continued: u64,
}

/// The prediction in effect for a job, since when, and the accuracy-weighted time so far.
#[derive(Debug, Clone, Copy)]
struct Belief {
    prediction: i64,
    since: i64,
    weighted: f64,
    corrections: u32,
}

/// The weighted accuracy of each job's runtime predictions (Tsafrir et al. section 2): every
/// prediction counts for the time it was in effect, from submission to termination.
pub struct Predictions<'a> {
    jobs: &'a [Job],
    belief: Vec<Belief>,
    out: Vec<Prediction>,
}

impl<'a> Predictions<'a> {
    /// For `trace`, each job first planned with its scheduling runtime.
    pub fn new(trace: &'a Trace) -> Self {
        let belief = trace
            .jobs
            .iter()
            .map(|j| Belief { prediction: j.sched_runtime, since: j.submit, weighted: 0.0, corrections: 0 })
            .collect();
        Predictions {
            jobs: &trace.jobs,
            belief,
            out: vec![Prediction { accuracy: 0.0, corrections: 0 }; trace.jobs.len()],
        }
    }
}

impl Observer for Predictions<'_> {
    fn predicted(&mut self, now: i64, job: JobIdx, prediction: i64, correction: bool) {
        let i = job as usize;
        let b = &mut self.belief[i];
        if b.prediction != prediction {
            b.weighted += accuracy(b.prediction, self.jobs[i].runtime) * (now - b.since) as f64;
            b.prediction = prediction;
            b.since = now;
        }
        if correction {
            b.corrections += 1;
        }
    }

    fn ended(&mut self, sys: &System, job: JobIdx, how: PieceEnd) {
        if how != PieceEnd::Completed {
            return;
        }
        let (i, t) = (job as usize, sys.now());
        let b = self.belief[i];
        let acc = b.weighted + accuracy(b.prediction, self.jobs[i].runtime) * (t - b.since) as f64;
        let span = (t - self.jobs[i].submit).max(1) as f64;
        self.out[i].accuracy = acc / span;
    }

    fn finish(mut self: Box<Self>, _sys: &System, out: &mut Observed) {
        for (o, b) in self.out.iter_mut().zip(&self.belief) {
            o.corrections = b.corrections;
        }
        out.predictions = Some(self.out);
    }
}

/// Each job's first promised start (a reservation), kept so guarantees and predictability can be
/// checked afterwards.
pub struct Promises {
    first: Vec<i64>,
}

impl Promises {
    /// For `jobs` jobs, none promised anything yet.
    pub fn new(jobs: usize) -> Self {
        Promises { first: vec![-1; jobs] }
    }
}

impl Observer for Promises {
    fn promised(&mut self, _now: i64, job: JobIdx, start: i64) {
        let f = &mut self.first[job as usize];
        if *f < 0 {
            *f = start;
        }
    }

    fn finish(self: Box<Self>, _sys: &System, out: &mut Observed) {
        out.promises = Some(self.first);
    }
}

/// The "heel and toe" statistics of Tsafrir et al. Table 10, measured with knowledge of the
/// true runtimes: when a job becomes the oldest waiting one, its earliest possible start; and
/// how often backfilled jobs then push that start later.
pub struct HeelAndToe<'a> {
    jobs: &'a [Job],
    /// Running jobs by true end.
    running: BTreeSet<(i64, JobIdx)>,
    /// Per job: its true end in `running`.
    key: Vec<i64>,
    /// The oldest waiting job being followed.
    head: Option<JobIdx>,
    out: Vec<Followed>,
}

impl<'a> HeelAndToe<'a> {
    /// For `trace`, following no job yet.
    pub fn new(trace: &'a Trace) -> Self {
        HeelAndToe {
            jobs: &trace.jobs,
            running: BTreeSet::new(),
            key: vec![0; trace.jobs.len()],
            head: None,
            out: vec![Followed { perfect_start: -1, thefts: 0 }; trace.jobs.len()],
        }
    }

    /// Earliest time from `now` on when `procs` processors are free, given `free` free now and
    /// the running jobs' true ends, with the processors free at that time.
    fn perfect_earliest(&self, now: i64, free: u32, procs: u32) -> (i64, u32) {
        if free >= procs {
            return (now, free);
        }
        let mut avail = free;
        let mut found: Option<i64> = None;
        for &(end, idx) in &self.running {
            if found.is_some_and(|e| end > e) {
                break;
            }
            avail += self.jobs[idx as usize].procs;
            if avail >= procs && found.is_none() {
                found = Some(end);
            }
        }
        (found.unwrap_or(i64::MAX), avail)
    }
}

impl Observer for HeelAndToe<'_> {
    fn ended(&mut self, _sys: &System, job: JobIdx, _how: PieceEnd) {
        self.running.remove(&(self.key[job as usize], job));
    }

    fn passed(&mut self, sys: &System) {
        let t = sys.now();
        let jobs = self.jobs;
        // Did this pass's starts push back the oldest waiting job's earliest possible start? They
        // did if the processors they still hold then are more than it could spare at that time.
        let mut pushed = None;
        if let Some(h) = self.head {
            let started_now = sys.started_now();
            if !started_now.is_empty() && sys.start_of(h) < 0 {
                let started: u32 = started_now.iter().map(|&i| jobs[i as usize].procs).sum();
                let need = jobs[h as usize].procs;
                let (e, avail) = self.perfect_earliest(t, sys.free() + started, need);
                let held: u32 = started_now
                    .iter()
                    .filter(|&&i| t + jobs[i as usize].runtime > e)
                    .map(|&i| jobs[i as usize].procs)
                    .sum();
                if e < i64::MAX && held > avail - need {
                    pushed = Some(h);
                }
            }
        }
        for &idx in sys.suspended_now() {
            self.running.remove(&(self.key[idx as usize], idx));
        }
        for &idx in sys.started_now().iter().chain(sys.resumed_now()) {
            self.key[idx as usize] = sys.due(idx);
            self.running.insert((sys.due(idx), idx));
        }
        if let Some(h) = sys.oldest_waiting() {
            if self.head != Some(h) {
                self.head = Some(h);
                self.out[h as usize].perfect_start = self.perfect_earliest(t, sys.free(), jobs[h as usize].procs).0;
            } else if pushed == Some(h) {
                self.out[h as usize].thefts += 1;
            }
        }
    }

    fn finish(self: Box<Self>, _sys: &System, out: &mut Observed) {
        out.heel_toe = Some(self.out);
    }
}
