//! The discrete-event core: a clock that jumps from event to event, the machine, and the
//! loop that feeds a [`Policy`].
//!
//! At one timestamp the engine applies all completions, then overdue notices, then all
//! arrivals, then runs exactly one scheduling pass. Ties are broken by job index, which is
//! submit order then job number. Same trace, same policy: the same schedule, bit for bit.
//!
//! The loop itself keeps only what every run needs. What a study measures besides start and
//! end times (the predictions a job was planned with, its first reservation, the heel-and-toe
//! statistics, fair start times) is kept by [`Observer`]s, attached to a run only when its
//! metrics ask for them ([`observe`]); none of it reaches the policy.
//!
//! With `passes=event` ([`EngineOptions`]) it follows pyss instead: one pass after each
//! arrival, then one after each completion (in the order the jobs started). The processors of
//! every job ending at that second are free in the machine at once, but the policy hears of
//! each end only at its own event, so an earlier pass still plans with the later jobs' booked
//! remainders. This reproduces figures published with pyss-based simulators (docs/VALIDATION.md).

pub mod decision;
mod machine;
pub mod observe;

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use serde::Serialize;

pub use decision::{Decision, Why};
pub use machine::Machine;
pub use observe::{Observe, Observed, Observer};

use crate::keys::{parse_choice, parse_num, KeyError};
use crate::trace::{Job, Trace};

/// How many scheduling passes the engine runs at one timestamp.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Passes {
    /// All completions, then all arrivals, then one pass (DESIGN.md's engine semantics).
    Timestamp,
    /// pyss: one pass after each arrival, then one after each completion, in start order.
    Event,
}

/// Options of the engine itself, set with `--set` like the others.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct EngineOptions {
    /// Scheduling passes per timestamp.
    pub passes: Passes,
    /// Record which processors each job ran on (for Gantt charts); off by default to save memory.
    #[serde(skip)]
    pub placements: bool,
    /// Whether every submission's hybrid fair start time is measured ([`crate::fairstart`]).
    pub fst: Fst,
    /// Which other observers a run attaches (key `observe`).
    pub observe: Observe,
    /// Wall-clock milliseconds a simulation may take before it stops with the jobs finished so
    /// far (key `budget_s`, in seconds; the runner keeps the clock: [`crate::run::simulate_configured`]).
    pub budget_ms: Option<u64>,
}

/// When the hybrid fair start time is measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Fst {
    /// For the fairshare family only.
    Auto,
    /// For every policy.
    On,
    /// Never.
    Off,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            passes: Passes::Timestamp,
            placements: false,
            fst: Fst::Auto,
            observe: Observe::default(),
            budget_ms: None,
        }
    }
}

/// Documentation of each engine option key: (key, default, meaning).
pub const ENGINE_KEYS: &[(&str, &str, &str)] = &[
    (
        "passes",
        "timestamp",
        "scheduling passes: timestamp (one per timestamp) | event (one per arrival and completion, as pyss)",
    ),
    (
        "fst",
        "auto",
        "measure each submission's hybrid fair start time (Leung et al.): auto (fairshare policies) | on | off",
    ),
    (
        "observe",
        "auto",
        "what runs measure besides the schedule: auto (first reservations for mq-backfill and sq-backfill) | all | none | a list of predictions (accuracy, corrections), promises (reservations kept), heel_toe (Table 10 of Tsafrir et al.)",
    ),
    (
        "budget_s",
        "none",
        "wall-clock seconds a simulation may take; past it, it stops and reports the jobs finished so far",
    ),
];

impl EngineOptions {
    /// These options as a run is made for its pictures (the command line's `--plot`, Python's
    /// `plot()`): each job's processors recorded, for the Gantt chart, and every measure when
    /// none was chosen, as the page shows them (the accuracy histograms among them). Neither
    /// changes the schedule.
    pub fn pictured(mut self) -> EngineOptions {
        self.placements = true;
        if self.observe.auto {
            self.observe = Observe::ALL;
        }
        self
    }

    /// Sets one option by its normalised key; `Ok(false)` means the key is not an engine option.
    pub fn set(&mut self, key: &str, value: &str) -> Result<bool, KeyError> {
        match key {
            "passes" => {
                self.passes = parse_choice(key, value, &[("timestamp", Passes::Timestamp), ("event", Passes::Event)])?
            }
            "fst" => self.fst = parse_choice(key, value, &[("auto", Fst::Auto), ("on", Fst::On), ("off", Fst::Off)])?,
            "observe" => self.observe = Observe::parse(value)?,
            "budget_s" => {
                self.budget_ms = if value.trim().eq_ignore_ascii_case("none") {
                    None
                } else {
                    let v: f64 = parse_num(key, value)?;
                    if !(v > 0.0 && v < 1e9) {
                        return Err(KeyError::new(key, value, "must be a positive number of seconds, or none"));
                    }
                    Some((v * 1000.0).ceil() as u64)
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// Index of a job in [`Trace::jobs`].
pub type JobIdx = u32;

/// What a policy may know of a job: everything but its true runtime.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JobView {
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
    /// Runtime the scheduler plans with (see `runtime` in the trace options).
    pub sched_runtime: i64,
    /// User id.
    pub user: i32,
    /// Queue number.
    pub queue: i32,
    /// Memory per processor in KB as the trace records it, or -1.
    pub memory_kb: i64,
}

/// A scheduling policy: told of arrivals and completions, asked for a scheduling pass once per
/// timestamp (once per event with `passes=event`, and at times it asked to be woken, if it still
/// wants the pass then: [`Policy::on_wake`]) to start jobs.
///
/// A policy keeps its own queue. It never sees a job's true runtime; it learns that a job
/// ran past its planned runtime through [`Policy::on_overdue`].
pub trait Policy {
    /// A job was submitted at `sys.now()`.
    fn on_arrival(&mut self, job: JobView, sys: &mut System);
    /// A running job finished at `sys.now()` (its processors are already free).
    fn on_completion(&mut self, job: JobView, sys: &mut System);
    /// A running job is still running at the end of its planned runtime (or at a time the
    /// policy asked to [`System::watch`]). Returns whether the policy changed its plan; if
    /// nothing else happened at this time either, no scheduling pass runs.
    fn on_overdue(&mut self, _job: JobView, _sys: &mut System) -> bool {
        false
    }
    /// A job started with [`System::start_limited`] reached its limit and was killed at
    /// `sys.now()` (its processors are already free); it waits again and may be started anew.
    fn on_killed(&mut self, _job: JobView, _sys: &mut System) {}
    /// A job started with [`System::start_segment`] ended a segment at `sys.now()` with its work
    /// kept (its processors are already free); it waits again to run its next segment.
    fn on_checkpoint(&mut self, _job: JobView, _sys: &mut System) {}
    /// A time the policy asked for with [`System::wake_at`] has come and nothing else happened
    /// at it: whether a scheduling pass is wanted. A policy that asked for a time it knew only
    /// a bound on may find it has nothing to do yet, say no, and ask for a later time. It only
    /// asks: jobs are started and suspended in [`Policy::schedule`], never here.
    fn on_wake(&mut self, _sys: &mut System) -> bool {
        true
    }
    /// A scheduling pass: start jobs with [`System::start`].
    fn schedule(&mut self, sys: &mut System);

    /// Why the policy cannot go on (a priority expression that gave no number), checked after
    /// every pass: the simulation stops there and the outcome says why ([`Outcome::failed`]).
    fn fault(&self) -> Option<String> {
        None
    }
    /// Whether the policy says itself which starts are backfills ([`System::note_backfill`]);
    /// otherwise a job is backfilled if it starts while an earlier-submitted job waits.
    fn declares_backfills(&self) -> bool {
        false
    }
    /// Whether the policy suspends jobs ([`System::suspend`]): only then does the machine keep
    /// processor identities (or when placements are logged); otherwise it counts them.
    fn suspends(&self) -> bool {
        false
    }
    /// What the policy says of its run when it ends, for the results (the settings it took from
    /// a slurm.conf, how often nodes refused what counts allowed).
    fn notes(&self) -> Vec<String> {
        Vec::new()
    }
}

/// Marks a per-job time that is not set.
const NO_TIME: i64 = i64::MIN;

/// A per-job value that most runs leave at its default (the preemptive and segmented
/// policies' bookkeeping): storage is made at the first other value, so a plain run pays
/// nothing per job for it.
struct Sparse<T> {
    values: Vec<T>,
    default: T,
    len: usize,
}

impl<T: Copy + PartialEq> Sparse<T> {
    fn new(len: usize, default: T) -> Self {
        Sparse { values: Vec::new(), default, len }
    }

    fn get(&self, i: usize) -> T {
        self.values.get(i).copied().unwrap_or(self.default)
    }

    fn set(&mut self, i: usize, v: T) {
        if self.values.is_empty() {
            if v == self.default {
                return;
            }
            self.values = vec![self.default; self.len];
        }
        self.values[i] = v;
    }

    /// The value, leaving the default in its place.
    fn take(&mut self, i: usize) -> T {
        let v = self.get(i);
        self.set(i, self.default);
        v
    }
}

/// The engine as a policy sees it during a pass: the clock, the machine, and the start action.
pub struct System<'a> {
    now: i64,
    jobs: &'a [Job],
    machine: Machine,
    started: Vec<JobIdx>,
    /// Suspended jobs resumed in this pass ([`System::resume`]).
    resumed: Vec<JobIdx>,
    /// Jobs suspended in this pass ([`System::suspend`]).
    paused: Vec<JobIdx>,
    /// Per job: suspended now (its processors are kept for it in the machine).
    suspended: Sparse<bool>,
    /// Per job: seconds of work done in the pieces before the current one (since its last kill).
    done: Sparse<i64>,
    /// Per job: when the current piece's work began (after any overhead), and when it ends.
    work_from: Vec<i64>,
    due: Vec<i64>,
    /// Per job: pieces started so far, so that alarms set for an earlier piece are void.
    piece_no: Vec<u32>,
    /// Per job: the overhead of the resume in this pass, seconds.
    resume_cost: Sparse<i64>,
    /// With [`EngineOptions::placements`]: every piece, and per job the one running now.
    pieces: Vec<Piece>,
    piece_runs: Vec<(u32, u32)>,
    open: Vec<u32>,
    log_pieces: bool,
    /// Per job: the run limit of the start in this pass ([`System::start_limited`]), or none.
    limits: Sparse<i64>,
    /// Per job: its current run is a segment whose work is kept at the limit ([`System::start_segment`]).
    segmented: Sparse<bool>,
    /// Per job: when its current segment was submitted (the end of the one before), or
    /// [`NO_TIME`] for its own submit time.
    seg_submit: Sparse<i64>,
    /// Every segment of the jobs run in segments, in the order they ended.
    segments: Vec<Segment>,
    /// Per job: whether it is running now.
    running: Vec<bool>,
    wake: Option<i64>,
    records: Vec<JobRecord>,
    overdue: Timeline,
    /// Jobs with an index below this have arrived.
    arrived: usize,
    /// The oldest job (lowest index) that has arrived and never started, after the last pass.
    oldest: Option<JobIdx>,
    /// Jobs the policy called backfills in this pass.
    backfills: Vec<JobIdx>,
    /// What watches the run ([`observe`]).
    observers: Vec<Box<dyn Observer + 'a>>,
    /// Whether an observer keeps the policy's decisions ([`System::explain`]).
    explaining: bool,
    /// Whether completions are told one pass at a time ([`Passes::Event`]).
    per_event: bool,
}

/// Accuracy of prediction `p` for a job that ran `run` seconds (Tsafrir et al. section 2).
pub fn accuracy(p: i64, run: i64) -> f64 {
    if p == run {
        1.0
    } else if p > run {
        run as f64 / p as f64
    } else {
        p as f64 / run.max(1) as f64
    }
}

impl<'a> System<'a> {
    /// Current time.
    pub fn now(&self) -> i64 {
        self.now
    }

    /// Processors free now.
    pub fn free(&self) -> u32 {
        self.machine.free()
    }

    /// Processors free now that no suspended job resumes on: all a job that suspends none can
    /// use under [`System::start_taking`].
    pub fn open(&self) -> u32 {
        self.machine.open()
    }

    /// Machine size.
    pub fn machine_size(&self) -> u32 {
        self.machine.size()
    }

    /// The machine (processor identities).
    pub fn machine(&self) -> &Machine {
        &self.machine
    }

    /// What the policy may know of job `idx`.
    pub fn view(&self, idx: JobIdx) -> JobView {
        view(self.jobs, idx)
    }

    /// Starts job `idx` now; false (nothing happens) if too few processors are free, or the job
    /// has not arrived or has already started.
    pub fn start(&mut self, idx: JobIdx) -> bool {
        self.start_limited(idx, i64::MAX)
    }

    /// Starts job `idx` now for at most `limit` seconds (a speculative run, Lawson & Smirni):
    /// if it has not ended by then the engine kills it, frees its processors and tells the
    /// policy through [`Policy::on_killed`]; the job then waits again. False as for [`System::start`].
    pub fn start_limited(&mut self, idx: JobIdx, limit: i64) -> bool {
        let counted = limit < i64::MAX;
        self.begin(idx, limit, false) && {
            if counted {
                self.records[idx as usize].limited_runs += 1;
            }
            true
        }
    }

    /// Starts job `idx` now for one segment of at most `limit` seconds of work (a maximum
    /// runtime, Leung et al. section V.A): if it has more work left at the limit, the engine ends
    /// the segment there, keeps the work done (a checkpoint), frees its processors and tells the
    /// policy through [`Policy::on_checkpoint`]; the job then waits again, as its next segment's
    /// submission. False as for [`System::start`].
    pub fn start_segment(&mut self, idx: JobIdx, limit: i64) -> bool {
        self.begin(idx, limit, true)
    }

    /// Starts job `idx` now on processors no suspended job resumes on, except the free ones
    /// among `first` (those of the jobs just suspended to make room for it), which it takes
    /// first: a suspended job's processors stay its own (Kettimuthu et al.). False as for
    /// [`System::start`], or if these processors are too few.
    pub fn start_taking(&mut self, idx: JobIdx, first: &[u32]) -> bool {
        self.begin_on(idx, i64::MAX, false, Some(first))
    }

    fn begin(&mut self, idx: JobIdx, limit: i64, segment: bool) -> bool {
        self.begin_on(idx, limit, segment, None)
    }

    fn begin_on(&mut self, idx: JobIdx, limit: i64, segment: bool, first: Option<&[u32]>) -> bool {
        let i = idx as usize;
        if i >= self.arrived || self.running[i] || self.suspended.get(i) || self.records[i].end >= 0 {
            return false;
        }
        let procs = self.jobs[i].procs;
        let got = match first {
            Some(first) => self.machine.allocate_from(idx, procs, first),
            None => self.machine.allocate(idx, procs),
        };
        if got {
            self.started.push(idx);
            self.running[i] = true;
            self.piece_no[i] += 1;
            self.limits.set(i, limit.max(1));
            self.segmented.set(i, segment);
            true
        } else {
            false
        }
    }

    /// Jobs started in the pass under way, in the order they started.
    pub fn started_now(&self) -> &[JobIdx] {
        &self.started
    }

    /// Jobs suspended in the pass under way.
    pub fn suspended_now(&self) -> &[JobIdx] {
        &self.paused
    }

    /// Suspended jobs resumed in the pass under way.
    pub fn resumed_now(&self) -> &[JobIdx] {
        &self.resumed
    }

    /// When the segment job `idx` waits for or runs now was submitted: its submit time, or the
    /// end of its previous segment ([`System::start_segment`]).
    pub fn segment_submit(&self, idx: JobIdx) -> i64 {
        self.seg_submit_of(idx as usize)
    }

    fn seg_submit_of(&self, i: usize) -> i64 {
        match self.seg_submit.get(i) {
            NO_TIME => self.jobs[i].submit,
            t => t,
        }
    }

    /// Whether job `idx` is running now.
    pub fn is_running(&self, idx: JobIdx) -> bool {
        self.running[idx as usize]
    }

    /// Whether job `idx` is suspended now.
    pub fn is_suspended(&self, idx: JobIdx) -> bool {
        self.suspended.get(idx as usize)
    }

    /// Whether job `idx` was started or resumed in the pass under way (its piece begins after it).
    fn begun_now(&self, idx: JobIdx) -> bool {
        self.started.contains(&idx) || self.resumed.contains(&idx)
    }

    /// Whether job `idx` runs and its current piece has done some work: it is past any overhead
    /// of its start or resume (a policy that suspended it sooner could thrash without progress).
    pub fn working(&self, idx: JobIdx) -> bool {
        let i = idx as usize;
        self.running[i] && !self.begun_now(idx) && self.now > self.work_from[i]
    }

    /// Seconds of work job `idx` has done so far (zero again after a killed run): what a
    /// scheduler sees of a job it has run, without knowing its runtime.
    pub fn done(&self, idx: JobIdx) -> i64 {
        let i = idx as usize;
        let current = if self.running[i] && !self.begun_now(idx) { (self.now - self.work_from[i]).max(0) } else { 0 };
        self.done.get(i) + current
    }

    /// Suspends the running job `idx` now (Kettimuthu et al.): its processors are free for
    /// others once `cost` seconds of writing its memory out have passed, and it keeps them as
    /// the ones it resumes on. False (nothing happens) if it is not running, runs with a limit,
    /// or started in this pass, or the policy did not say it [`Policy::suspends`].
    pub fn suspend(&mut self, idx: JobIdx, cost: i64) -> bool {
        let i = idx as usize;
        let r = &self.records[i];
        if !self.machine.has_identities()
            || !self.running[i]
            || r.limited_runs > r.killed_runs
            || self.segmented.get(i)
            || self.begun_now(idx)
        {
            return false;
        }
        let cost = cost.max(0);
        let work = (self.now - self.work_from[i]).max(0);
        self.done.set(i, self.done.get(i) + work);
        self.machine.park(idx, self.now + cost);
        self.running[i] = false;
        self.suspended.set(i, true);
        let r = &mut self.records[i];
        r.suspensions += 1;
        r.overhead_s += cost;
        self.close_piece(i, work, PieceEnd::Suspended);
        self.paused.push(idx);
        true
    }

    /// Resumes the suspended job `idx` now on exactly the processors it had; its work goes on
    /// after `cost` seconds of reading its memory back (and after any write-out still under way
    /// on those processors). False (nothing happens) if it is not suspended or any of its
    /// processors is taken.
    pub fn resume(&mut self, idx: JobIdx, cost: i64) -> bool {
        let i = idx as usize;
        if !self.suspended.get(i) || !self.machine.unpark(idx) {
            return false;
        }
        self.suspended.set(i, false);
        self.running[i] = true;
        self.resume_cost.set(i, cost.max(0));
        self.piece_no[i] += 1;
        self.records[i].overhead_s += cost.max(0);
        self.resumed.push(idx);
        true
    }

    fn close_piece(&mut self, i: usize, work: i64, how: PieceEnd) {
        if let Some(p) = self.open.get_mut(i).and_then(|o| self.pieces.get_mut(std::mem::replace(o, u32::MAX) as usize))
        {
            p.end = self.now;
            p.work = work;
            p.ended = how;
        }
    }

    /// Notes that job `idx` asked to start at `t` (an advance reservation request, Lawson &
    /// Smirni section 2.2); the time granted is what [`System::note_reservation`] records.
    pub fn note_request(&mut self, idx: JobIdx, t: i64) {
        self.records[idx as usize].requested = t;
    }

    /// Notes that job `idx` has low priority (an external job, Lawson & Smirni section 2.1).
    pub fn note_low_priority(&mut self, idx: JobIdx) {
        self.records[idx as usize].low_priority = true;
    }

    /// Notes that job `idx` was promised a start at `t` (for [`observe::Promises`], which
    /// keeps each job's first promise so guarantees and predictability can be checked).
    pub fn note_reservation(&mut self, idx: JobIdx, t: i64) {
        if self.records[idx as usize].start < 0 {
            for o in &mut self.observers {
                o.promised(self.now, idx, t);
            }
        }
    }

    /// Notes that from now on the scheduler plans job `idx` with runtime `prediction`;
    /// `correction` says it was raised because the job outlived the previous one (for
    /// [`observe::Predictions`]).
    pub fn note_prediction(&mut self, idx: JobIdx, prediction: i64, correction: bool) {
        for o in &mut self.observers {
            o.predicted(self.now, idx, prediction, correction);
        }
    }

    /// When the piece job `idx` runs now ends (set once the pass that began it is over).
    pub fn due(&self, idx: JobIdx) -> i64 {
        self.due[idx as usize]
    }

    /// When job `idx` first started, or -1.
    pub fn start_of(&self, idx: JobIdx) -> i64 {
        self.records[idx as usize].start
    }

    /// The oldest job that has arrived and never started, as of the end of the last pass.
    pub fn oldest_waiting(&self) -> Option<JobIdx> {
        self.oldest
    }

    /// Tells every observer something, each seeing the engine as it is.
    fn tell(&mut self, what: impl Fn(&mut dyn Observer, &System)) {
        if self.observers.is_empty() {
            return;
        }
        let mut observers = std::mem::take(&mut self.observers);
        for o in &mut observers {
            what(o.as_mut(), self);
        }
        self.observers = observers;
    }

    /// Whether completions are told one pass at a time ([`Passes::Event`]): then a job that
    /// ended now may still hold its processors in the policy's plan during a pass.
    pub fn per_event(&self) -> bool {
        self.per_event
    }

    /// Whether this run keeps the policy's decisions: a policy builds a [`Decision`] (and
    /// works out what only an explanation needs) only when it does.
    pub fn explaining(&self) -> bool {
        self.explaining
    }

    /// Hands a decision of the pass under way to the observers that keep them; `decision` is
    /// called only if one does.
    #[inline(always)]
    pub fn explain(&mut self, decision: impl FnOnce() -> Decision) {
        if self.explaining {
            self.explain_now(decision());
        }
    }

    /// Hands `d` to the observers; out of line, so a run that explains nothing carries only
    /// the test of [`System::explaining`] in its policy's loops.
    #[cold]
    #[inline(never)]
    fn explain_now(&mut self, d: Decision) {
        self.tell(|o, sys| o.decided(sys, &d));
    }

    /// Notes that job `idx`, started in this pass, was a backfill (for policies whose
    /// [`Policy::declares_backfills`]).
    pub fn note_backfill(&mut self, idx: JobIdx) {
        self.backfills.push(idx);
    }

    /// The true runtime of job `idx`: only for policies defined as clairvoyant (PERFECT), which
    /// say so in their summary.
    pub fn clairvoyant_runtime(&self, idx: JobIdx) -> i64 {
        self.jobs[idx as usize].runtime
    }

    /// Asks to be told through [`Policy::on_overdue`] if job `idx` is still running at `t`
    /// (in the piece it runs now, if it is ever suspended).
    pub fn watch(&mut self, idx: JobIdx, t: i64) {
        if t > self.now {
            self.overdue.push_numbered(t, idx, self.piece_no[idx as usize]);
        }
    }

    /// Asks for a scheduling pass at time `t` (later than now), even if nothing else happens
    /// then; the policy is asked again at `t` whether it still wants it ([`Policy::on_wake`]).
    pub fn wake_at(&mut self, t: i64) {
        if t > self.now {
            self.wake = Some(self.wake.map_or(t, |w| w.min(t)));
        }
    }
}

/// What a policy may know of job `idx` of `jobs`.
pub fn view(jobs: &[Job], idx: JobIdx) -> JobView {
    let j = &jobs[idx as usize];
    JobView {
        idx,
        id: j.id,
        submit: j.submit,
        procs: j.procs,
        estimate: j.estimate,
        sched_runtime: j.sched_runtime,
        user: j.user,
        queue: j.queue,
        memory_kb: j.memory_kb,
    }
}

/// What happened to one job.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct JobRecord {
    /// Start time, or -1 if it never started.
    pub start: i64,
    /// End time, or -1 if it never ended.
    pub end: i64,
    /// True if it was a backfill: started while a job ahead of it in submit order (submit time,
    /// then job number) was still waiting, or, for policies that [`Policy::declares_backfills`],
    /// started by their backfill step.
    pub backfilled: bool,
    /// Start of the run that completed (differs from `start` after killed speculative runs), or -1.
    pub last_start: i64,
    /// Runs started with a limit ([`System::start_limited`]): speculative runs.
    pub limited_runs: u32,
    /// Runs killed at their limit.
    pub killed_runs: u32,
    /// Seconds spent in killed runs (times the job's processors: the processor time lost).
    pub killed_s: i64,
    /// The start time it asked for (an advance reservation request), or -1.
    pub requested: i64,
    /// Low priority (an external job in Lawson & Smirni's grid setting).
    pub low_priority: bool,
    /// Times it was suspended (Kettimuthu et al.).
    pub suspensions: u32,
    /// Seconds its processors spent writing its memory out at suspensions and reading it back
    /// at resumes (times its processors: the processor time lost to overhead).
    pub overhead_s: i64,
    /// Segments it ran as under a maximum runtime ([`System::start_segment`]), or 0 if it ran
    /// whole.
    pub segments: u32,
}

impl JobRecord {
    /// The record of a job that has not started yet, as every run begins with.
    pub fn unstarted() -> Self {
        JobRecord {
            start: -1,
            end: -1,
            backfilled: false,
            last_start: -1,
            limited_runs: 0,
            killed_runs: 0,
            killed_s: 0,
            requested: -1,
            low_priority: false,
            suspensions: 0,
            overhead_s: 0,
            segments: 0,
        }
    }
}

/// How a piece of a job's run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PieceEnd {
    /// Still running (only while the simulation runs).
    Running,
    /// The job completed.
    Completed,
    /// The job was suspended; a later piece resumes it on the same processors.
    Suspended,
    /// A limited run was killed at its limit; a later piece starts it again from scratch.
    Killed,
    /// A segment reached the maximum runtime; a later piece runs the next segment on from there.
    Checkpointed,
}

/// One segment of a job run in segments under a maximum runtime (Leung et al. section V.A): a
/// job of its own as the scheduler saw it, submitted when the one before ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Segment {
    /// The original job (trace index).
    pub job: JobIdx,
    /// Its number within the job, from 0.
    pub no: u32,
    /// When it was submitted: the job's submit time, then the previous segment's end.
    pub submit: i64,
    /// When it started.
    pub start: i64,
    /// When it ended.
    pub end: i64,
    /// Seconds of the job's work it did.
    pub work: i64,
}

/// One uninterrupted stretch during which a job held processors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Piece {
    /// The job (trace index).
    pub job: JobIdx,
    /// When it took the processors.
    pub start: i64,
    /// When it gave them up.
    pub end: i64,
    /// Seconds of the job's work done in it (the rest is overhead).
    pub work: i64,
    /// How it ended.
    pub ended: PieceEnd,
    /// Its processors: `Outcome::piece_runs[off..off + len]` with `(off, len) = runs`.
    pub runs: (u32, u32),
}

/// One step of the machine's state: from `time` on, `busy` processors and `queued` jobs waiting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Sample {
    /// Time of the step.
    pub time: i64,
    /// Busy processors.
    pub busy: u32,
    /// Jobs waiting.
    pub queued: u32,
}

/// The result of one simulation: per-job records (indexed like the trace) and the machine's steps.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcome {
    /// One record per trace job, same order.
    pub records: Vec<JobRecord>,
    /// Busy processors and queue length after every timestamp that changed them.
    pub series: Vec<Sample>,
    /// Scheduling passes run.
    pub passes: u64,
    /// With [`EngineOptions::placements`]: every stretch a job held processors, in start order
    /// (one per job unless jobs were suspended or killed).
    pub pieces: Vec<Piece>,
    /// The pieces' processors as runs of consecutive ids: (first id, count).
    pub piece_runs: Vec<(u32, u32)>,
    /// Every segment of the jobs that ran in segments (none ran whole), in the order they ended.
    pub segments: Vec<Segment>,
    /// What the run's observers measured.
    pub observed: Observed,
    /// Where the simulation stopped, if it stopped before the end (a time budget ran out, or
    /// the policy failed).
    pub stopped: Option<Progress>,
    /// Why the policy failed, if it did ([`Policy::fault`]).
    pub failed: Option<String>,
    /// What the policy said of its run ([`Policy::notes`]).
    pub notes: Vec<String>,
}

impl Outcome {
    /// The processor ids of `piece`, as runs of consecutive ids.
    pub fn piece_procs(&self, piece: &Piece) -> &[(u32, u32)] {
        &self.piece_runs[piece.runs.0 as usize..(piece.runs.0 + piece.runs.1) as usize]
    }
}

/// How far a simulation has got, for progress bars.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Progress {
    /// Current simulated time.
    pub time: i64,
    /// Jobs that have arrived so far.
    pub arrived: usize,
    /// Jobs in the trace.
    pub total: usize,
}

/// Asks for a pass at `w` unless the earliest one asked for already is at `w`: a policy may ask
/// for the same time after every pass until then (EASY, at its shadow time), and each copy
/// would cost a pop.
fn wake_once(wakes: &mut BinaryHeap<Reverse<i64>>, w: i64) {
    if wakes.peek() != Some(&Reverse(w)) {
        wakes.push(Reverse(w));
    }
}

/// Times with a job index each (and a number of the job's, such as its piece), earliest
/// first, then by index and number: one `u128` key each, so a comparison in the heap is one
/// wide compare rather than a tuple's several.
#[derive(Default)]
struct Timeline(BinaryHeap<Reverse<u128>>);

impl Timeline {
    fn push(&mut self, t: i64, idx: JobIdx) {
        self.push_numbered(t, idx, 0);
    }

    fn push_numbered(&mut self, t: i64, idx: JobIdx, no: u32) {
        // The sign bit flipped, times order as unsigned numbers.
        let time = (t as u64 ^ (1 << 63)) as u128;
        self.0.push(Reverse(time << 64 | (idx as u128) << 32 | no as u128));
    }

    fn peek(&self) -> Option<(i64, JobIdx)> {
        self.peek_numbered().map(|(t, idx, _)| (t, idx))
    }

    fn peek_numbered(&self) -> Option<(i64, JobIdx, u32)> {
        self.0.peek().map(|&Reverse(k)| (((k >> 64) as u64 ^ (1 << 63)) as i64, (k >> 32) as u32, k as u32))
    }

    fn pop(&mut self) {
        self.0.pop();
    }
}

/// Runs `policy` over `trace` to the end, with the observers `opts.observe` names (`auto`: none).
pub fn simulate(trace: &Trace, policy: &mut dyn Policy, opts: &EngineOptions) -> Outcome {
    simulate_observed(trace, policy, opts, opts.observe.resolve(false).build(trace), u64::MAX, &mut |_| true)
}

/// Runs `policy` over `trace` to the end with `observers` attached, calling `progress` every
/// `every` scheduling passes (the page's workers report progress this way while the simulation
/// runs). When `progress` returns false the simulation stops after that pass, with
/// [`Outcome::stopped`] set.
pub fn simulate_observed<'a>(
    trace: &'a Trace,
    policy: &mut dyn Policy,
    opts: &EngineOptions,
    observers: Vec<Box<dyn Observer + 'a>>,
    every: u64,
    progress: &mut dyn FnMut(Progress) -> bool,
) -> Outcome {
    let jobs = &trace.jobs[..];
    let n = jobs.len();
    let mut sys = System {
        now: jobs.first().map_or(0, |j| j.submit),
        jobs,
        machine: if policy.suspends() || opts.placements {
            Machine::new(trace.machine, n)
        } else {
            Machine::counting(trace.machine, n)
        },
        started: Vec::new(),
        resumed: Vec::new(),
        paused: Vec::new(),
        suspended: Sparse::new(n, false),
        done: Sparse::new(n, 0),
        work_from: vec![0; n],
        due: vec![0; n],
        piece_no: vec![0; n],
        resume_cost: Sparse::new(n, 0),
        pieces: Vec::new(),
        piece_runs: Vec::new(),
        open: vec![u32::MAX; if opts.placements { n } else { 0 }],
        log_pieces: opts.placements,
        limits: Sparse::new(n, i64::MAX),
        segmented: Sparse::new(n, false),
        seg_submit: Sparse::new(n, NO_TIME),
        segments: Vec::new(),
        running: vec![false; n],
        wake: None,
        records: vec![JobRecord::unstarted(); n],
        overdue: Timeline::default(),
        arrived: 0,
        oldest: None,
        backfills: Vec::new(),
        explaining: observers.iter().any(|o| o.explains()),
        observers,
        per_event: opts.passes == Passes::Event,
    };
    let declared = policy.declares_backfills();
    // Ends of the current pieces; an entry whose time is not the job's `due` is stale (the
    // job was suspended and resumed since).
    let mut ends = Timeline::default();
    // Limited runs that will be killed, by kill time.
    let mut kills = Timeline::default();
    let mut wakes: BinaryHeap<Reverse<i64>> = BinaryHeap::new();
    let mut next_arrival = 0usize;
    // Lowest job index not yet started: a job started above it was backfilled.
    let mut first_waiting = 0usize;
    let mut queued: u32 = 0;
    let mut series: Vec<Sample> = Vec::new();
    let mut passes = 0u64;
    // Passes left before the next progress report.
    let mut report_in = every.max(1);
    let mut stopped: Option<Progress> = None;
    let mut failed: Option<String> = None;
    let per_event = sys.per_event;
    // Per-event passes: the start order of each job, and jobs ended now whose end is not yet told.
    let mut start_seq: Vec<u64> = vec![0; if per_event { n } else { 0 }];
    let mut seq = 0u64;
    let mut untold: VecDeque<JobIdx> = VecDeque::new();
    let mut ids: Vec<u32> = Vec::new();

    loop {
        let mut t = i64::MAX;
        if let Some(j) = jobs.get(next_arrival) {
            t = j.submit;
        }
        // Entries of suspended pieces are stale: drop them before they set the clock.
        while ends.peek().is_some_and(|(e, idx)| !sys.running[idx as usize] || sys.due[idx as usize] != e) {
            ends.pop();
        }
        if let Some((e, _)) = ends.peek() {
            t = t.min(e);
        }
        if let Some((e, _)) = kills.peek() {
            t = t.min(e);
        }
        // An alarm for a job that has ended or left the piece it was set in is void: it must not cost a pass.
        while sys
            .overdue
            .peek_numbered()
            .is_some_and(|(_, idx, no)| !sys.running[idx as usize] || sys.piece_no[idx as usize] != no)
        {
            sys.overdue.pop();
        }
        if let Some((e, _)) = sys.overdue.peek() {
            t = t.min(e);
        }
        if let Some(Reverse(w)) = wakes.peek() {
            t = t.min(*w);
        }
        if !untold.is_empty() {
            t = sys.now;
        }
        if t == i64::MAX {
            break;
        }
        sys.now = t;
        let first_at_t = untold.is_empty();
        // Whether anything at this time calls for a scheduling pass.
        let mut eventful = !untold.is_empty();
        while let Some((e, idx)) = ends.peek() {
            if e != t {
                break;
            }
            ends.pop();
            let i = idx as usize;
            if !sys.running[i] || sys.due[i] != e {
                continue;
            }
            sys.machine.release(idx);
            sys.running[i] = false;
            let work = t - sys.work_from[i];
            sys.close_piece(i, work, PieceEnd::Completed);
            sys.tell(|o, sys| o.ended(sys, idx, PieceEnd::Completed));
            let submit = sys.seg_submit_of(i);
            let r = &mut sys.records[i];
            r.end = t;
            if r.segments > 0 {
                let seg = Segment { job: idx, no: r.segments, submit, start: r.last_start, end: t, work };
                sys.segments.push(seg);
                r.segments += 1;
            }
            eventful = true;
            if per_event {
                untold.push_back(idx);
            } else {
                sys.tell(|o, sys| o.completed(sys, idx));
                policy.on_completion(view(jobs, idx), &mut sys);
            }
        }
        // Kills come with the completions: a killed job's processors are free for this pass.
        while let Some((e, idx)) = kills.peek() {
            if e != t {
                break;
            }
            kills.pop();
            let i = idx as usize;
            sys.machine.release(idx);
            sys.running[i] = false;
            let work = t - sys.work_from[i];
            if sys.segmented.get(i) {
                sys.close_piece(i, work, PieceEnd::Checkpointed);
                sys.done.set(i, sys.done.get(i) + work);
                let submit = sys.seg_submit_of(i);
                let r = &mut sys.records[i];
                let seg = Segment { job: idx, no: r.segments, submit, start: r.last_start, end: t, work };
                sys.segments.push(seg);
                r.segments += 1;
                sys.seg_submit.set(i, t);
                queued += 1;
                eventful = true;
                sys.tell(|o, sys| o.ended(sys, idx, PieceEnd::Checkpointed));
                policy.on_checkpoint(view(jobs, idx), &mut sys);
                continue;
            }
            sys.close_piece(i, work, PieceEnd::Killed);
            sys.done.set(i, 0);
            let r = &mut sys.records[i];
            r.killed_runs += 1;
            r.killed_s += t - r.last_start;
            r.last_start = -1;
            queued += 1;
            eventful = true;
            sys.tell(|o, sys| o.ended(sys, idx, PieceEnd::Killed));
            policy.on_killed(view(jobs, idx), &mut sys);
        }
        if per_event && first_at_t {
            untold.make_contiguous().sort_by_key(|&i| start_seq[i as usize]);
        }
        while let Some((e, idx, no)) = sys.overdue.peek_numbered() {
            if e != t {
                break;
            }
            sys.overdue.pop();
            let i = idx as usize;
            if sys.running[i] && sys.piece_no[i] == no && policy.on_overdue(view(jobs, idx), &mut sys) {
                eventful = true;
            }
        }
        // Per event, one event per pass: arrivals first, then completions (pyss's order).
        let mut arrivals_left = if per_event { 1 } else { usize::MAX };
        while arrivals_left > 0 && next_arrival < n && jobs[next_arrival].submit == t {
            eventful = true;
            sys.arrived = next_arrival + 1;
            let idx = next_arrival as JobIdx;
            sys.tell(|o, sys| o.arrived(sys, idx));
            policy.on_arrival(view(jobs, idx), &mut sys);
            next_arrival += 1;
            queued += 1;
            arrivals_left -= 1;
        }
        if per_event && arrivals_left == 1 {
            if let Some(idx) = untold.pop_front() {
                sys.tell(|o, sys| o.completed(sys, idx));
                policy.on_completion(view(jobs, idx), &mut sys);
            }
        }
        let mut woken = false;
        while wakes.peek().is_some_and(|w| w.0 <= t) {
            wakes.pop();
            woken = true;
        }
        if woken && !eventful {
            eventful = policy.on_wake(&mut sys);
            if let (false, Some(w)) = (eventful, sys.wake.take()) {
                wake_once(&mut wakes, w);
            }
        }
        if !eventful {
            // Only alarms the policy had no use for: the plan is as it was, so is the schedule.
            continue;
        }

        sys.arrived = next_arrival;
        policy.schedule(&mut sys);
        passes += 1;
        if let Some(why) = policy.fault() {
            failed = Some(why);
            stopped = Some(Progress { time: t, arrived: next_arrival, total: n });
        }
        // Counted down rather than taken modulo `every`: a division each pass shows in a plain run.
        report_in -= 1;
        if report_in == 0 {
            report_in = every.max(1);
            if !progress(Progress { time: t, arrived: next_arrival, total: n }) {
                stopped = Some(Progress { time: t, arrived: next_arrival, total: n });
            }
        }

        queued += sys.paused.len() as u32;
        let fresh = sys.started.len();
        for k in 0..fresh + sys.resumed.len() {
            let (idx, resumed) = if k < fresh { (sys.started[k], false) } else { (sys.resumed[k - fresh], true) };
            let i = idx as usize;
            let job = &jobs[i];
            let limit = sys.limits.take(i);
            let cost = sys.resume_cost.take(i);
            // Work begins once every processor's write-out is over, and after reading back.
            let begin = sys.machine.ready(idx).max(t) + cost;
            let remaining = job.runtime - sys.done.get(i);
            let killed = !resumed && remaining > limit;
            let run = if killed { limit } else { remaining };
            sys.work_from[i] = begin;
            sys.due[i] = begin + run;
            if sys.log_pieces {
                ids.clear();
                ids.extend_from_slice(sys.machine.held(idx));
                ids.sort_unstable();
                let off = sys.piece_runs.len() as u32;
                for &id in &ids {
                    let extends = sys.piece_runs.len() as u32 > off
                        && sys.piece_runs.last().is_some_and(|&(first, count)| first + count == id);
                    match sys.piece_runs.last_mut() {
                        Some((_, count)) if extends => *count += 1,
                        _ => sys.piece_runs.push((id, 1)),
                    }
                }
                sys.open[i] = sys.pieces.len() as u32;
                sys.pieces.push(Piece {
                    job: idx,
                    start: t,
                    end: -1,
                    work: 0,
                    ended: PieceEnd::Running,
                    runs: (off, sys.piece_runs.len() as u32 - off),
                });
            }
            let r = &mut sys.records[i];
            if r.start < 0 {
                r.start = t;
            }
            r.last_start = t;
            queued -= 1;
            if per_event {
                seq += 1;
                start_seq[i] = seq;
            }
            if killed {
                kills.push(begin + limit, idx);
            } else {
                ends.push(begin + run, idx);
            }
            let planned = job.sched_runtime - sys.done.get(i);
            if planned > 0 && planned < run {
                sys.overdue.push_numbered(begin + planned, idx, sys.piece_no[i]);
            }
        }
        while first_waiting < next_arrival && sys.records[first_waiting].start >= 0 {
            first_waiting += 1;
        }
        sys.oldest = (first_waiting < next_arrival).then_some(first_waiting as JobIdx);
        sys.tell(|o, sys| o.passed(sys));
        sys.paused.clear();
        sys.resumed.clear();
        for idx in sys.started.drain(..) {
            sys.records[idx as usize].backfilled =
                if declared { sys.backfills.contains(&idx) } else { idx as usize > first_waiting };
        }
        sys.backfills.clear();
        if let Some(w) = sys.wake.take() {
            wake_once(&mut wakes, w);
        }
        let busy = sys.machine.busy();
        match series.last_mut() {
            Some(s) if s.busy == busy && s.queued == queued => {}
            Some(s) if s.time == t => {
                s.busy = busy;
                s.queued = queued;
            }
            _ => series.push(Sample { time: t, busy, queued }),
        }
        if stopped.is_some() {
            break;
        }
    }
    let mut observed = Observed::default();
    for o in std::mem::take(&mut sys.observers) {
        o.finish(&sys, &mut observed);
    }
    Outcome {
        records: sys.records,
        series,
        passes,
        pieces: sys.pieces,
        piece_runs: sys.piece_runs,
        segments: sys.segments,
        observed,
        stopped,
        failed,
        notes: policy.notes(),
    }
}
