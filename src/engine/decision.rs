//! The decisions a policy explains: what a scheduling pass looked at, what it did and why, in
//! the policy's own terms (a shadow time, extra processors, a window of omega x hpwait, a
//! borrowed partition, an xfactor).
//!
//! A policy hands one to [`super::System::explain`] only while a run explains itself (an
//! observer asked for them, [`super::Observer::explains`]); otherwise nothing is built.
//! [`crate::explain`] keeps them as the decision log and turns them into sentences.

use serde::Serialize;

use super::{JobIdx, Observed, Observer, PieceEnd, System};

/// One decision of a scheduling pass, or one event the policy acted on.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Decision {
    /// A pass begins: the waiting jobs in the policy's priority order and the processors free.
    Queue {
        /// Waiting jobs, highest priority first.
        order: Vec<JobIdx>,
        /// Processors free now, as the policy plans.
        free: i64,
    },
    /// A waiting job was given a reservation, or its reservation moved.
    Reserved {
        /// The job.
        job: JobIdx,
        /// Its reserved start.
        start: i64,
        /// Its previous reserved start, if it had one.
        was: Option<i64>,
        /// Processors reserved.
        procs: i64,
    },
    /// EASY: the reservation of the first waiting job sets the shadow time (its reserved start)
    /// and the extra processors (those still free at the shadow time once it has started).
    Shadow {
        /// The job holding the reservation.
        job: JobIdx,
        /// The shadow time.
        shadow: i64,
        /// The extra processors.
        extra: i64,
    },
    /// A job started now.
    Started {
        /// The job.
        job: JobIdx,
        /// Why it could.
        why: Why,
    },
    /// A job was looked at and left waiting.
    Waits {
        /// The job.
        job: JobIdx,
        /// Why it could not start.
        why: Why,
    },
    /// Relaxed backfilling: the highest-priority job cannot start, and the backfill window
    /// comes from how long it would wait, hpwait (Ward et al. Fig. 2).
    Window {
        /// The highest-priority waiting job.
        job: JobIdx,
        /// How long it would wait for its processors, seconds.
        hpwait: i64,
        /// omega.
        omega: f64,
        /// The window, seconds (`None`: unbounded).
        window: Option<i64>,
    },
    /// A pass ends: the reservations that stand after it, in priority order.
    Plan {
        /// Each reserved job and its reserved start.
        reservations: Vec<(JobIdx, i64)>,
    },
    /// No processor is free: the other waiting jobs are not looked at in this pass.
    Full {
        /// How many jobs were left unlooked at.
        left: usize,
    },
    /// A running job was suspended to make room (selective suspension, Kettimuthu ch. 3).
    Suspended {
        /// The suspended job.
        job: JobIdx,
        /// Its xfactor now.
        xfactor: f64,
        /// The job it made room for.
        for_job: JobIdx,
        /// That job's xfactor now.
        for_xfactor: f64,
    },
    /// A suspended job resumed on its own processors.
    Resumed {
        /// The job.
        job: JobIdx,
        /// Its xfactor now.
        xfactor: f64,
    },
    /// The scheduler raised a running job's predicted runtime because it outlived it
    /// (Tsafrir et al. section 4).
    Corrected {
        /// The job.
        job: JobIdx,
        /// Its new planned runtime, seconds.
        prediction: i64,
    },
    /// A job completed, freeing its processors (told before the pass that follows).
    Ended {
        /// The job.
        job: JobIdx,
        /// Processors freed.
        procs: u32,
    },
    /// A job's run ended at a limit: killed at its estimate or speculative limit (it waits
    /// again), or a checkpointed segment.
    Killed {
        /// The job.
        job: JobIdx,
        /// True for a segment whose work is kept (a maximum runtime, Leung et al.).
        checkpointed: bool,
    },
    /// A job entered the starvation queue: it waited longer than the threshold (Leung et al.).
    Starving {
        /// The job.
        job: JobIdx,
        /// How long it had waited, seconds.
        waited: i64,
    },
}

/// Why a job started or waits, in the words of its policy.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Why {
    /// No job with a reservation stands before it and its processors are free.
    First,
    /// Its reservation's time has come.
    Reservation,
    /// Its processors are free (a policy without reservations).
    Free,
    /// A backfill that ends before the shadow time, so it cannot delay the first job.
    BeforeShadow {
        /// Its end as the test takes it (prediction or estimate).
        end: i64,
        /// The shadow time.
        shadow: i64,
    },
    /// A backfill that outlives the shadow time but fits in the extra processors.
    ExtraProcessors {
        /// Its end as the test takes it.
        end: i64,
        /// The extra processors.
        extra: i64,
    },
    /// A backfill that delays none of the reservations ahead of it (conservative and k > 1).
    NoDelay {
        /// Reservations it was checked against.
        reservations: usize,
    },
    /// Relaxed backfilling (Ward et al. Fig. 2): its runtime is within the backfill window of
    /// omega x hpwait.
    WithinWindow {
        /// Its runtime as the scheduler plans it, seconds.
        length: i64,
        /// The window, seconds (`None`: unbounded, omega infinite).
        window: Option<i64>,
    },
    /// Relaxed backfilling as Ward et al.'s text puts it: it delays the first job by no more
    /// than (omega - 1) x that job's runtime.
    SmallDelay {
        /// The delay it causes, seconds.
        delay: i64,
        /// The delay allowed, seconds (`None`: unbounded).
        allowed: Option<i64>,
    },
    /// Multiple-queue backfilling (Lawson & Smirni Fig. 2): a backfill by rule a (its
    /// partition's idle processors, done by the pivot's start), b (idle processors the pivot
    /// will not need) or c (processors borrowed from other partitions, no pivot delayed).
    Partition {
        /// Its partition, from 1.
        partition: usize,
        /// The rule: `a`, `b` or `c`.
        rule: char,
        /// Processors borrowed from other partitions.
        borrowed: i64,
    },
    /// Multiple-queue backfilling: it is its partition's pivot (the first job of its queue),
    /// reserved for `start`.
    Pivot {
        /// Its partition, from 1.
        partition: usize,
        /// Its reserved start.
        start: i64,
    },
    /// A speculative run, killed if it has not ended by `limit` seconds (Lawson & Smirni).
    Speculative {
        /// The limit, seconds.
        limit: i64,
    },
    /// Its xfactor reached the suspension factor times that of the jobs it displaced
    /// (selective suspension).
    Preempting {
        /// Its xfactor now.
        xfactor: f64,
    },
    /// It needs more processors than are free now.
    TooWide {
        /// Processors it needs.
        procs: i64,
        /// Processors free now.
        free: i64,
    },
    /// Started now, it would delay another job's reservation.
    WouldDelay {
        /// The job whose reservation it would delay.
        job: JobIdx,
        /// By how much, seconds.
        by: i64,
    },
    /// First come, first served: no job starts before the jobs ahead of it.
    BehindFirst {
        /// The waiting job it is behind.
        first: JobIdx,
    },
    /// Relaxed backfilling: its runtime exceeds the backfill window.
    BeyondWindow {
        /// Its runtime as planned, seconds.
        length: i64,
        /// The window, seconds.
        window: i64,
    },
    /// Relaxed backfilling (the text's rule): it would delay the first job by more than allowed.
    LargeDelay {
        /// The delay it would cause, seconds.
        delay: i64,
        /// The delay allowed, seconds.
        allowed: i64,
    },
    /// Anything a family says in its own words not covered above.
    Other {
        /// The sentence.
        text: String,
    },
}

impl Decision {
    /// The job a decision is about, if it is about one.
    pub fn job(&self) -> Option<JobIdx> {
        match self {
            Decision::Queue { .. } | Decision::Plan { .. } | Decision::Full { .. } => None,
            Decision::Reserved { job, .. }
            | Decision::Shadow { job, .. }
            | Decision::Window { job, .. }
            | Decision::Started { job, .. }
            | Decision::Waits { job, .. }
            | Decision::Suspended { job, .. }
            | Decision::Resumed { job, .. }
            | Decision::Corrected { job, .. }
            | Decision::Killed { job, .. }
            | Decision::Ended { job, .. }
            | Decision::Starving { job, .. } => Some(*job),
        }
    }
}

/// One entry of the decision log.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Entry {
    /// When it was decided.
    pub time: i64,
    /// The scheduling pass it belongs to, counted from 0 (an event the policy acted on belongs
    /// to the pass that follows it).
    pub pass: u64,
    /// What was decided.
    #[serde(flatten)]
    pub decision: Decision,
}

/// Which part of a run the decision log keeps, so that a log of a real trace stays bounded.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct LogWindow {
    /// Earliest time kept.
    pub from: i64,
    /// Latest time kept.
    pub to: i64,
    /// Only decisions about jobs with these indices (inclusive), and every pass's queue.
    pub jobs: Option<(JobIdx, JobIdx)>,
    /// At most this many items (an entry, or a job listed in a queue, counts one): past it the
    /// log stops and says where.
    pub max_items: usize,
    /// Keep only the last pass in the window (the state at one moment).
    pub last_pass: bool,
}

impl Default for LogWindow {
    fn default() -> Self {
        LogWindow { from: i64::MIN, to: i64::MAX, jobs: None, max_items: 1_000_000, last_pass: false }
    }
}

/// The decision log of a run: what each pass looked at and decided, within its window.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct DecisionLog {
    /// The entries, in the order they were decided.
    pub entries: Vec<Entry>,
    /// Set when the log outgrew its window's `max_items`: the time of the first entry left out.
    pub truncated_at: Option<i64>,
}

/// The observer that keeps the decision log ([`Observed::decisions`]).
pub struct DecisionLogger {
    window: LogWindow,
    log: DecisionLog,
    items: usize,
    passes: u64,
}

impl DecisionLogger {
    /// A logger keeping what falls in `window`.
    pub fn new(window: LogWindow) -> Self {
        DecisionLogger { window, log: DecisionLog::default(), items: 0, passes: 0 }
    }

    fn keep(&mut self, now: i64, decision: Decision) {
        let w = &self.window;
        if now < w.from || now > w.to || self.log.truncated_at.is_some() {
            return;
        }
        if let (Some((lo, hi)), Some(job)) = (w.jobs, decision.job()) {
            if job < lo || job > hi {
                return;
            }
        }
        let items = 1 + match &decision {
            Decision::Queue { order, .. } => order.len(),
            Decision::Plan { reservations } => reservations.len(),
            _ => 0,
        };
        if w.last_pass && self.log.entries.last().is_some_and(|e| e.pass != self.passes) {
            self.log.entries.clear();
            self.items = 0;
        }
        if self.items + items > w.max_items {
            self.log.truncated_at = Some(now);
            return;
        }
        self.items += items;
        self.log.entries.push(Entry { time: now, pass: self.passes, decision });
    }
}

impl Observer for DecisionLogger {
    fn explains(&self) -> bool {
        true
    }

    fn decided(&mut self, sys: &System, decision: &Decision) {
        self.keep(sys.now(), decision.clone());
    }

    fn predicted(&mut self, now: i64, job: JobIdx, prediction: i64, correction: bool) {
        if correction {
            self.keep(now, Decision::Corrected { job, prediction });
        }
    }

    fn ended(&mut self, sys: &System, job: JobIdx, how: PieceEnd) {
        match how {
            PieceEnd::Killed => self.keep(sys.now(), Decision::Killed { job, checkpointed: false }),
            PieceEnd::Checkpointed => self.keep(sys.now(), Decision::Killed { job, checkpointed: true }),
            _ => {}
        }
    }

    fn completed(&mut self, sys: &System, job: JobIdx) {
        self.keep(sys.now(), Decision::Ended { job, procs: sys.view(job).procs });
    }

    fn passed(&mut self, _sys: &System) {
        self.passes += 1;
    }

    fn finish(self: Box<Self>, _sys: &System, out: &mut Observed) {
        out.decisions = Some(self.log);
    }
}
