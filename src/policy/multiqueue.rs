//! Multiple-queue aggressive backfilling with priorities, speculative runs and advance
//! reservations (Lawson & Smirni 2002, Fig. 2).
//!
//! **Queues and partitions.** A job goes to queue p by its planned runtime t_e (the user
//! estimate by default), Eq. 1: p = 1 below 1,000 s, 2 below 10,000 s, 3 above (`thresholds`).
//! Each queue owns a partition of processors, equal at first. Processors change partition only
//! when a starting job borrows idle processors of other partitions; they stay with the borrower
//! afterwards, so the boundaries follow the workload. With `queues=1` this is single-queue
//! aggressive backfilling, the baseline `sq-backfill`.
//!
//! **A pass** (after arrivals and completions) first starts the advance reservations and
//! speculative runs booked for now. Then every partition's pivot (the head of its queue) gets a
//! pivot start time: the earliest time the whole machine has room for it, booked in priority
//! order (high before low, then queue order) so that it delays no pivot of equal or higher
//! priority. Then the waiting jobs are considered, high priority in queue order, then low:
//!
//! - the pivot of p starts if its pivot start time is now, borrowing processors if needed;
//! - rule a: it fits in p's idle processors and ends by p's pivot start time;
//! - rule b: it fits in min(idle_p, extra_p), extra_p being p's processors idle at the pivot
//!   start time that the pivot does not use;
//! - rule c: it fits in p's idle processors plus idle processors borrowed from other
//!   partitions without delaying any pivot.
//!
//! Rules a and b protect the own pivot by the partition's accounting, as in Fig. 2; every start
//! also leaves the other pivots and every granted reservation undelayed (so a job needing the
//! whole machine cannot starve, and reservations hold).
//!
//! **Priorities.** A seeded fraction `high_priority` of jobs is high priority; the rest queue
//! behind every high-priority job, so a high-priority arrival displaces a low-priority pivot.
//!
//! **Speculative runs.** A job whose planned runtime exceeds `speculate_above` (1,000 s) first
//! runs for at most `speculate_s` (180 s). The paper schedules it "at the earliest possible
//! time"; with `speculate_at=earliest` (the default) it is booked on arrival, like an advance
//! reservation, at the earliest time the machine has room for the short run, and that booking
//! is honoured; with `speculate_at=arrival` it runs speculatively only if it can start at once
//! without delaying any pivot, and otherwise queues at once. A run that has not ended by the
//! limit is killed and the job queues in its partition behind the jobs already there
//! (its enqueue time is the kill). Advance-reservation jobs never speculate.
//!
//! **Advance reservations.** A seeded fraction `reservations` of jobs asks to start `lead`
//! seconds after submission (by default uniform from 0 to 24 h). On arrival the job is granted
//! the earliest time at or after that when the machine has room for it, given the running jobs
//! and earlier grants; the grant never moves, and every later decision honours it.

use crate::engine::{Decision, JobIdx, JobView, Policy, System, Why};
use crate::keys::{normalize, parse_choice, parse_num, KeyError};
use crate::profile::Profile;
use crate::random::{Draws, Stream};

/// Options of the multiple-queue family.
pub const MULTIQUEUE_OPTIONS: &[super::OptionDoc] = &[
    super::OptionDoc { key: "queues", values: "1 - 16", doc: "queues, each with its own partition of processors (1 = single-queue backfilling)" },
    super::OptionDoc { key: "thresholds", values: "seconds,seconds,...", doc: "planned-runtime bounds between the queues (Eq. 1: 1000,10000)" },
    super::OptionDoc { key: "high_priority", values: "number in [0, 1]", doc: "fraction of jobs drawn as high priority (local); the rest are low (external)" },
    super::OptionDoc { key: "speculate_s", values: "seconds >= 0", doc: "longest speculative run of a long job (0 = no speculation)" },
    super::OptionDoc { key: "speculate_above", values: "seconds >= 0", doc: "jobs planned longer than this run speculatively first" },
    super::OptionDoc {
        key: "speculate_at",
        values: "earliest | arrival",
        doc: "speculative run booked at the earliest time the machine has room (honoured like a reservation), or only if it can start on arrival without delaying any pivot",
    },
    super::OptionDoc { key: "reservations", values: "number in [0, 1]", doc: "fraction of jobs drawn to ask for an advance reservation" },
    super::OptionDoc {
        key: "lead",
        values: "SECONDS | uniform:MIN:MAX | exp:MEAN",
        doc: "requested reservation start minus submission",
    },
    super::OptionDoc { key: "seed", values: "integer >= 0", doc: "seed of the priority and reservation draws (same seed, same draws for every policy)" },
];

/// Defaults of the multiple-queue family: the paper's three queues, speculation and no
/// priorities or reservations.
pub const MULTIQUEUE_DEFAULTS: &[(&str, &str)] = &[
    ("queues", "3"),
    ("thresholds", "1000,10000"),
    ("high_priority", "1"),
    ("speculate_s", "180"),
    ("speculate_above", "1000"),
    ("speculate_at", "earliest"),
    ("reservations", "0"),
    ("lead", "uniform:0:86400"),
    ("seed", "1"),
];

/// The class (0-based) of a job planned to run `t_e` seconds: Eq. 1 with `thresholds`, the
/// upper bounds (exclusive) of every class but the last.
pub fn class_of(t_e: i64, thresholds: &[i64]) -> usize {
    thresholds.iter().position(|&t| t_e < t).unwrap_or(thresholds.len())
}

/// When the speculative run of a long job happens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpeculateAt {
    /// Booked on arrival at the earliest time the machine has room, like a reservation.
    Earliest,
    /// Only if it can start on arrival without delaying any pivot; otherwise no speculative run.
    Arrival,
}

/// Distribution of the lead time from submission to the requested reservation start.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Lead {
    /// Always this many seconds.
    Fixed(i64),
    /// Uniform integer seconds in [min, max].
    Uniform(i64, i64),
    /// Exponential with this mean, rounded to seconds.
    Exp(f64),
}

impl Lead {
    /// Parses `SECONDS`, `uniform:MIN:MAX` or `exp:MEAN`.
    pub fn parse(text: &str) -> Result<Lead, KeyError> {
        let bad = |why: &str| KeyError::new("lead", text, why);
        let parts: Vec<&str> = text.trim().split(':').map(str::trim).collect();
        let secs = |s: &str| -> Result<i64, KeyError> {
            let v: i64 = parse_num("lead", s)?;
            if (0..=crate::trace::MAX_TIME).contains(&v) {
                Ok(v)
            } else {
                Err(bad("seconds must be from 0 to 10^12"))
            }
        };
        match (normalize(parts[0]).as_str(), parts.len()) {
            ("uniform", 3) => {
                let (a, b) = (secs(parts[1])?, secs(parts[2])?);
                if a > b {
                    return Err(bad("uniform:MIN:MAX needs MIN <= MAX"));
                }
                Ok(Lead::Uniform(a, b))
            }
            ("exp", 2) => {
                let m: f64 = parse_num("lead", parts[1])?;
                if !(m > 0.0 && m <= 1e9) {
                    return Err(bad("exp:MEAN needs a mean above 0 seconds"));
                }
                Ok(Lead::Exp(m))
            }
            (_, 1) => Ok(Lead::Fixed(secs(parts[0])?)),
            _ => Err(bad("expected SECONDS, uniform:MIN:MAX or exp:MEAN")),
        }
    }

    /// The lead time for a uniform draw `u` in [0, 1).
    pub fn sample(&self, u: f64) -> i64 {
        match *self {
            Lead::Fixed(s) => s,
            Lead::Uniform(a, b) => a + ((b - a + 1) as f64 * u).floor() as i64,
            Lead::Exp(m) => (-m * (1.0 - u).ln()).round() as i64,
        }
    }
}

/// Options of the multiple-queue family.
#[derive(Debug, Clone, PartialEq)]
pub struct MultiQueueOptions {
    /// Upper bounds (exclusive) of the planned runtime of every queue but the last.
    pub thresholds: Vec<i64>,
    /// Fraction of jobs with high priority (1 = all).
    pub high_priority: f64,
    /// Longest speculative run in seconds (0 = no speculation).
    pub speculate_s: i64,
    /// Jobs planned longer than this run speculatively first.
    pub speculate_above: i64,
    /// When the speculative run happens.
    pub speculate_at: SpeculateAt,
    /// Fraction of jobs asking for an advance reservation.
    pub reservations: f64,
    /// Lead time of a reservation request after submission.
    pub lead: Lead,
    /// Seed of every random choice.
    pub seed: u64,
}

impl MultiQueueOptions {
    /// Number of queues (and partitions).
    pub fn queues(&self) -> usize {
        self.thresholds.len() + 1
    }

    /// The queue (0-based) of a job planned to run `t_e` seconds: Eq. 1.
    pub fn classify(&self, t_e: i64) -> usize {
        class_of(t_e, &self.thresholds)
    }

    /// Parses the family's options from their text values.
    pub fn parse(get: &dyn Fn(&str) -> String) -> Result<Self, KeyError> {
        let qv = get("queues");
        let queues: usize = parse_num("queues", &qv)?;
        if !(1..=16).contains(&queues) {
            return Err(KeyError::new("queues", &qv, "must be 1 to 16"));
        }
        let tv = get("thresholds");
        let mut thresholds = Vec::new();
        for part in tv.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let t: i64 = parse_num("thresholds", part)?;
            if thresholds.last().is_some_and(|&l| t <= l) || t <= 0 {
                return Err(KeyError::new("thresholds", &tv, "must be increasing seconds above 0"));
            }
            thresholds.push(t);
        }
        if thresholds.len() < queues - 1 {
            return Err(KeyError::new(
                "thresholds",
                &tv,
                format!("{queues} queues need {} thresholds (seconds, comma-separated)", queues - 1),
            ));
        }
        thresholds.truncate(queues - 1);
        let fraction = |key: &str| -> Result<f64, KeyError> {
            let v = get(key);
            let f: f64 = parse_num(key, &v)?;
            if (0.0..=1.0).contains(&f) {
                Ok(f)
            } else {
                Err(KeyError::new(key, &v, "must be a fraction from 0 to 1"))
            }
        };
        let seconds = |key: &str| -> Result<i64, KeyError> {
            let v = get(key);
            let s: i64 = parse_num(key, &v)?;
            if (0..=crate::trace::MAX_TIME).contains(&s) {
                Ok(s)
            } else {
                Err(KeyError::new(key, &v, "must be seconds >= 0"))
            }
        };
        let sv = get("seed");
        Ok(MultiQueueOptions {
            thresholds,
            high_priority: fraction("high_priority")?,
            speculate_s: seconds("speculate_s")?,
            speculate_above: seconds("speculate_above")?,
            speculate_at: parse_choice(
                "speculate_at",
                &get("speculate_at"),
                &[("earliest", SpeculateAt::Earliest), ("arrival", SpeculateAt::Arrival)],
            )?,
            reservations: fraction("reservations")?,
            lead: Lead::parse(&get("lead"))?,
            seed: parse_num("seed", &sv)?,
        })
    }
}

/// How a job's (last) start was decided, for tests and the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// Not started (yet).
    None,
    /// The pivot of its partition, at its pivot start time.
    Pivot,
    /// Backfill rule a: own idle processors, done by the pivot start time.
    A,
    /// Backfill rule b: own idle processors the pivot will not need.
    B,
    /// Backfill rule c: with processors borrowed from other partitions, no pivot delayed.
    C,
    /// An advance reservation at its granted time.
    Reservation,
    /// A speculative run.
    Speculative,
}

/// Processors moved from one partition to another when a job started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Borrow {
    /// When.
    pub time: i64,
    /// The job that needed them.
    pub job: JobIdx,
    /// Partition that gave them (0-based).
    pub from: usize,
    /// Partition that took them.
    pub to: usize,
    /// How many.
    pub procs: u32,
}

/// A start fixed in advance: an advance reservation or a speculative run.
#[derive(Debug, Clone, Copy)]
struct Booking {
    time: i64,
    idx: JobIdx,
    dur: i64,
    speculative: bool,
}

/// A running job as the partitions see it.
#[derive(Debug, Clone, Copy)]
struct Run {
    idx: JobIdx,
    part: usize,
    procs: u32,
    start: i64,
    /// Planned end (kill time of a speculative run).
    end: i64,
}

/// What the policy checked about itself after every pass.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Audit {
    /// Passes checked.
    pub passes: u64,
    /// Passes after which the partitions did not sum to the machine, or one ran more
    /// processors than it owned.
    pub violations: u64,
    /// Reservations or speculative runs started after their booked time.
    pub late_bookings: u64,
}

/// The multiple-queue backfilling policy (`mq-backfill`, and `sq-backfill` with one queue).
pub struct MultiQueue {
    opts: MultiQueueOptions,
    draws: Draws,
    machine: u32,
    /// Running jobs and bookings: everything every decision must honour.
    base: Profile,
    /// Waiting jobs by enqueue order, high priority and low priority.
    high: Vec<JobIdx>,
    low: Vec<JobIdx>,
    /// Per job: queue, priority, enqueue order, start rule.
    part: Vec<u8>,
    is_low: Vec<bool>,
    seq: Vec<u64>,
    next_seq: u64,
    rule: Vec<Rule>,
    bookings: Vec<Booking>,
    runs: Vec<Run>,
    own: Vec<u32>,
    busy: Vec<u32>,
    borrows: Vec<Borrow>,
    audit: Audit,
}

/// The pivots of one pass: per partition, the head job and its booked start, and profiles.
struct Plan {
    /// Per partition: (pivot, pivot start time).
    pivots: Vec<Option<(JobIdx, i64)>>,
    /// Everything booked, pivots included.
    all: Profile,
    /// Per partition: everything booked but that partition's pivot, once asked for.
    without: Vec<Option<Profile>>,
    /// Per partition: extra_p, once asked for.
    extra: Vec<Option<u32>>,
}

impl MultiQueue {
    /// The policy for a trace of `jobs` jobs on `machine` processors, first arrival at `origin`.
    pub fn new(opts: MultiQueueOptions, machine: u32, jobs: usize, origin: i64) -> Self {
        let q = opts.queues();
        let mut own = vec![machine / q as u32; q];
        for o in own.iter_mut().take(machine as usize % q) {
            *o += 1;
        }
        MultiQueue {
            draws: Draws::new(opts.seed),
            opts,
            machine,
            base: Profile::new(machine, origin),
            high: Vec::new(),
            low: Vec::new(),
            part: vec![0; jobs],
            is_low: vec![false; jobs],
            seq: vec![0; jobs],
            next_seq: 0,
            rule: vec![Rule::None; jobs],
            bookings: Vec::new(),
            runs: Vec::new(),
            own,
            busy: vec![0; q],
            borrows: Vec::new(),
            audit: Audit::default(),
        }
    }

    /// Processors each partition owns now.
    pub fn partitions(&self) -> &[u32] {
        &self.own
    }

    /// Every move of processors between partitions, in order.
    pub fn borrows(&self) -> &[Borrow] {
        &self.borrows
    }

    /// The queue (0-based) job `idx` was put in on arrival.
    pub fn queue(&self, idx: JobIdx) -> usize {
        self.part[idx as usize] as usize
    }

    /// How job `idx` was started (its last start).
    pub fn rule(&self, idx: JobIdx) -> Rule {
        self.rule[idx as usize]
    }

    /// The self-checks of every pass.
    pub fn audit(&self) -> Audit {
        self.audit
    }

    fn dur(job: &JobView) -> i64 {
        job.sched_runtime.max(1)
    }

    fn enqueue(&mut self, idx: JobIdx) {
        self.seq[idx as usize] = self.next_seq;
        self.next_seq += 1;
        if self.is_low[idx as usize] {
            self.low.push(idx);
        } else {
            self.high.push(idx);
        }
    }

    fn dequeue(&mut self, idx: JobIdx) {
        let list = if self.is_low[idx as usize] { &mut self.low } else { &mut self.high };
        if let Some(pos) = list.iter().position(|&j| j == idx) {
            list.remove(pos);
        }
    }

    /// Books `[t, t + dur)` for job `idx` in the base profile.
    fn book(&mut self, idx: JobIdx, t: i64, dur: i64, procs: u32, speculative: bool) {
        self.base.reserve(t, procs as i64, dur);
        let at = self.bookings.partition_point(|b| (b.time, b.idx) < (t, idx));
        self.bookings.insert(at, Booking { time: t, idx, dur, speculative });
    }

    /// Starts job `idx` of partition `p` now, borrowing idle processors from other partitions
    /// if its own are too few; `booked` says the base profile already holds it.
    fn launch(&mut self, sys: &mut System, idx: JobIdx, limit: i64, dur: i64, booked: bool, rule: Rule) -> bool {
        let job = sys.view(idx);
        let p = self.part[idx as usize] as usize;
        // With passes=event the machine may have freed processors the policy has not been told
        // of yet: only processors idle in some partition count.
        let idle_all: u32 = self.own.iter().zip(&self.busy).map(|(o, b)| o - b).sum();
        if job.procs > sys.free().min(idle_all) || !sys.start_limited(idx, limit) {
            return false;
        }
        let idle = self.own[p] - self.busy[p];
        if job.procs > idle {
            let mut need = job.procs - idle;
            // Borrow from the partitions with the most idle processors first.
            // As (idle, partition) triples, the type every such sort shares (one compiled sort
            // for many call sites); partitions are unique, so the unstable sort is stable.
            let mut donors: Vec<(i64, i64, usize)> = (0..self.own.len())
                .filter(|&q| q != p)
                .map(|q| (-i64::from(self.own[q] - self.busy[q]), 0, q))
                .collect();
            donors.sort_unstable();
            for (_, _, q) in donors {
                if need == 0 {
                    break;
                }
                let take = need.min(self.own[q] - self.busy[q]);
                if take > 0 {
                    self.own[q] -= take;
                    self.own[p] += take;
                    need -= take;
                    self.borrows.push(Borrow { time: sys.now(), job: idx, from: q, to: p, procs: take });
                }
            }
        }
        self.busy[p] += job.procs;
        let now = sys.now();
        let end = now + dur.min(limit);
        if !booked {
            self.base.reserve(now, job.procs as i64, end - now);
        }
        self.runs.push(Run { idx, part: p, procs: job.procs, start: now, end });
        self.rule[idx as usize] = rule;
        if matches!(rule, Rule::A | Rule::B | Rule::C) {
            sys.note_backfill(idx);
        }
        true
    }

    /// Forgets the running job `idx`, freeing the rest of its booking.
    fn finish(&mut self, idx: JobIdx, now: i64) -> Option<Run> {
        let pos = self.runs.iter().position(|r| r.idx == idx)?;
        let run = self.runs.swap_remove(pos);
        self.busy[run.part] -= run.procs;
        if run.end > now {
            self.base.release(now, run.procs as i64, run.end - now);
        }
        Some(run)
    }

    /// Books every partition's pivot in priority order on top of the base profile.
    fn plan(&self, sys: &System) -> Plan {
        let q = self.own.len();
        let mut heads: Vec<Option<JobIdx>> = vec![None; q];
        let mut found = 0;
        for &idx in self.high.iter().chain(&self.low) {
            let p = self.part[idx as usize] as usize;
            if heads[p].is_none() {
                heads[p] = Some(idx);
                found += 1;
                if found == q {
                    break;
                }
            }
        }
        // Job indices are unique, so the unstable sort of the triples is stable.
        let mut order: Vec<(i64, i64, usize)> = heads
            .iter()
            .flatten()
            .map(|&i| (i64::from(self.is_low[i as usize]), crate::sorting::unsigned(self.seq[i as usize]), i as usize))
            .collect();
        order.sort_unstable();
        let mut all = self.base.clone();
        let mut pivots = vec![None; q];
        for idx in order.iter().map(|k| k.2 as JobIdx) {
            let job = sys.view(idx);
            let t = all.earliest(job.procs as i64, Self::dur(&job)).unwrap_or(i64::MAX);
            if t < i64::MAX {
                all.reserve(t, job.procs as i64, Self::dur(&job));
            }
            pivots[self.part[idx as usize] as usize] = Some((idx, t));
        }
        Plan { pivots, all, without: vec![None; q], extra: vec![None; q] }
    }

    /// Everything booked but partition `p`'s pivot (what rules a and b must not delay besides
    /// the pivot they protect by the partition's accounting); computed once per plan.
    fn without<'p>(plan: &'p mut Plan, sys: &System, p: usize) -> &'p Profile {
        if plan.without[p].is_none() {
            let mut prof = plan.all.clone();
            if let Some((idx, t)) = plan.pivots[p] {
                if t < i64::MAX {
                    let job = sys.view(idx);
                    prof.release(t, job.procs as i64, Self::dur(&job));
                }
            }
            plan.without[p] = Some(prof);
        }
        plan.without[p].as_ref().unwrap_or(&plan.all)
    }

    /// extra_p: processors of partition `p` idle at its pivot start time (by the running jobs'
    /// planned ends) that the pivot does not use; computed once per plan.
    fn extra(&self, plan: &mut Plan, sys: &System, p: usize) -> u32 {
        if let Some(e) = plan.extra[p] {
            return e;
        }
        let e = match plan.pivots[p] {
            Some((pivot, t)) => {
                let held: u32 = self.runs.iter().filter(|r| r.part == p && r.end > t).map(|r| r.procs).sum();
                self.own[p].saturating_sub(held).saturating_sub(sys.view(pivot).procs)
            }
            None => 0,
        };
        plan.extra[p] = Some(e);
        e
    }

    /// Starts the bookings due now; a booking whose processors are still held stays (late).
    fn start_bookings(&mut self, sys: &mut System) {
        let now = sys.now();
        let mut i = 0;
        while i < self.bookings.len() && self.bookings[i].time <= now {
            let b = self.bookings[i];
            let (limit, rule) = if b.speculative {
                (self.opts.speculate_s.max(1), Rule::Speculative)
            } else {
                (i64::MAX, Rule::Reservation)
            };
            if self.launch(sys, b.idx, limit, b.dur, true, rule) {
                let why = if b.speculative { Why::Speculative { limit } } else { Why::Reservation };
                sys.explain(|| Decision::Started { job: b.idx, why });
                if b.time < now {
                    // Started late (a job ran past its estimate): move the rest of its booking to now.
                    let procs = sys.view(b.idx).procs as i64;
                    if b.time + b.dur > now {
                        self.base.release(now, procs, b.time + b.dur - now);
                    }
                    self.base.reserve(now, procs, b.dur);
                    self.audit.late_bookings += 1;
                }
                self.bookings.remove(i);
                continue;
            }
            i += 1;
        }
    }

    fn check(&mut self) {
        self.audit.passes += 1;
        let sum: u32 = self.own.iter().sum();
        if sum != self.machine || self.own.iter().zip(&self.busy).any(|(o, b)| b > o) {
            self.audit.violations += 1;
        }
    }
}

impl Policy for MultiQueue {
    fn on_arrival(&mut self, job: JobView, sys: &mut System) {
        let i = job.idx as usize;
        let now = sys.now();
        // The profile may still start at the previous pass.
        self.base.advance(now);
        self.part[i] = self.opts.classify(job.sched_runtime) as u8;
        if self.draws.unit(job.id, Stream::Priority) >= self.opts.high_priority {
            self.is_low[i] = true;
            sys.note_low_priority(job.idx);
        }
        let dur = Self::dur(&job);
        if self.draws.unit(job.id, Stream::Reservation) < self.opts.reservations {
            let want = now.saturating_add(self.opts.lead.sample(self.draws.unit(job.id, Stream::Lead)));
            sys.note_request(job.idx, want);
            if let Some(t) = self.base.earliest_from(want, job.procs as i64, dur) {
                self.book(job.idx, t, dur, job.procs, false);
                sys.note_reservation(job.idx, t);
                sys.wake_at(t);
                return;
            }
        }
        let spec = self.opts.speculate_s.min(dur);
        if self.opts.speculate_s > 0 && job.sched_runtime > self.opts.speculate_above {
            match self.opts.speculate_at {
                SpeculateAt::Earliest => {
                    if let Some(t) = self.base.earliest_from(now, job.procs as i64, spec) {
                        self.book(job.idx, t, spec, job.procs, true);
                        sys.wake_at(t);
                        return;
                    }
                }
                SpeculateAt::Arrival => {
                    // At once or never: it must not delay any pivot or booking.
                    let plan = self.plan(sys);
                    if job.procs <= sys.free() && plan.all.fits(now, job.procs as i64, spec) {
                        self.book(job.idx, now, spec, job.procs, true);
                        return;
                    }
                }
            }
        }
        self.enqueue(job.idx);
    }

    fn on_completion(&mut self, job: JobView, sys: &mut System) {
        self.finish(job.idx, sys.now());
    }

    fn on_killed(&mut self, job: JobView, sys: &mut System) {
        self.finish(job.idx, sys.now());
        self.rule[job.idx as usize] = Rule::None;
        self.enqueue(job.idx);
    }

    fn on_overdue(&mut self, job: JobView, sys: &mut System) -> bool {
        // Running past its planned end (runtime=x2, overrun=run): plan it to the estimate, or
        // double its planned span beyond that.
        let now = sys.now();
        let Some(run) = self.runs.iter_mut().find(|r| r.idx == job.idx) else { return false };
        // Only the alarm at the planned end of this run counts; one left from a killed earlier
        // run of the same job is void.
        if run.end != now {
            return false;
        }
        let end = (run.start + job.estimate).max(run.start + 2 * (now - run.start).max(1));
        self.base.reserve(now, run.procs as i64, end - now);
        run.end = end;
        sys.watch(job.idx, end);
        true
    }

    fn schedule(&mut self, sys: &mut System) {
        let now = sys.now();
        self.base.advance(now);
        self.start_bookings(sys);
        if let Some(b) = self.bookings.iter().find(|b| b.time > now) {
            sys.wake_at(b.time);
        }
        if self.high.is_empty() && self.low.is_empty() || sys.free() == 0 {
            self.check();
            return;
        }
        let mut plan = self.plan(sys);
        let candidates: Vec<JobIdx> = self.high.iter().chain(&self.low).copied().collect();
        let explaining = sys.explaining();
        if explaining {
            let order = candidates.clone();
            let free = sys.free() as i64;
            sys.explain(|| Decision::Queue { order, free });
        }
        for (k, &idx) in candidates.iter().enumerate() {
            let free = sys.free();
            if free == 0 {
                let left = candidates.len() - k;
                sys.explain(|| Decision::Full { left });
                break;
            }
            let job = sys.view(idx);
            if job.procs > free {
                let why = Why::TooWide { procs: job.procs as i64, free: free as i64 };
                sys.explain(|| Decision::Waits { job: idx, why });
                continue;
            }
            let p = self.part[idx as usize] as usize;
            let dur = Self::dur(&job);
            let Some((pivot, t_p)) = plan.pivots[p] else { continue };
            let idle_before = self.own[p] - self.busy[p];
            let rule = if pivot == idx {
                if t_p == now {
                    Some(Rule::Pivot)
                } else {
                    None
                }
            } else {
                let idle = self.own[p] - self.busy[p];
                let others_ok = |plan: &mut Plan| Self::without(plan, sys, p).fits(now, job.procs as i64, dur);
                if job.procs <= idle && now + dur <= t_p && others_ok(&mut plan) {
                    Some(Rule::A)
                } else if job.procs <= idle && job.procs <= self.extra(&mut plan, sys, p) && others_ok(&mut plan) {
                    Some(Rule::B)
                } else if plan.all.fits(now, job.procs as i64, dur) {
                    Some(Rule::C)
                } else {
                    None
                }
            };
            let partition = p + 1;
            if let Some(rule) = rule {
                if self.launch(sys, idx, i64::MAX, dur, false, rule) {
                    self.dequeue(idx);
                    plan = self.plan(sys);
                    let why = match rule {
                        Rule::Pivot => Why::Pivot { partition, start: now },
                        Rule::A => Why::Partition { partition, rule: 'a', borrowed: 0 },
                        Rule::B => Why::Partition { partition, rule: 'b', borrowed: 0 },
                        _ => Why::Partition {
                            partition,
                            rule: 'c',
                            borrowed: job.procs.saturating_sub(idle_before) as i64,
                        },
                    };
                    sys.explain(|| Decision::Started { job: idx, why });
                    continue;
                }
            }
            if explaining {
                let why = if pivot == idx {
                    Why::Pivot { partition, start: t_p }
                } else {
                    Why::Other {
                        text: format!(
                            "no backfill rule lets it start: it would delay the pivot of its partition {partition} or of another"
                        ),
                    }
                };
                sys.explain(|| Decision::Waits { job: idx, why });
            }
        }
        if explaining {
            let reservations: Vec<(JobIdx, i64)> =
                plan.pivots.iter().flatten().filter(|p| p.1 < i64::MAX).copied().collect();
            if !reservations.is_empty() {
                sys.explain(|| Decision::Plan { reservations });
            }
        }
        self.check();
    }

    fn declares_backfills(&self) -> bool {
        true
    }
}
