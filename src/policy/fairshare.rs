//! Fairshare scheduling at Sandia (Leung, Sabin & Sadayappan 2010): the CPlant scheduler and
//! the modifications of their section V.
//!
//! - **Fairshare priority** ([`Usage`]): each user's processor-seconds, charged while their
//!   jobs run and multiplied by `decay` (0.5) every `decay_period_h` (24) hours, counted from
//!   the trace's first submission. The queue is ordered by ascending usage, ties by arrival.
//! - **The CPlant scheduler** (`reservations=none`, section II.A): at every arrival and
//!   completion the queue is walked in fairshare order and every job that fits starts (no
//!   guarantee backfilling). A job that has waited `starve_h` hours enters the starvation
//!   queue, which is FCFS; its head gets a reservation and the other jobs, the rest of the
//!   starvation queue first (in FCFS order), then the fairshare queue, backfill around it as
//!   in EASY.
//! - **Heavy users** (`starvation=fair`, section V.B): a job whose user's decayed usage is more
//!   than `heavy_share` (0.1) of all users' decayed usage does not enter the starvation queue;
//!   it enters at the first pass at which its user is no longer heavy.
//! - **Maximum runtime** (`max_runtime_h=72`, section V.A): a job longer than the limit runs in
//!   segments of at most the limit ([`System::start_segment`]); each segment is submitted when
//!   the previous one ends, with the estimate left, at most the limit.
//! - **Conservative** (`reservations=conservative`, section V.C): every job gets a reservation
//!   when it arrives; when a job ends before its estimate, the waiting jobs, in fairshare order,
//!   each take the earliest slot, which is never later than the one they held (repeated until
//!   none moves).
//! - **Dynamic reservations** (`reservations=dynamic`, section V.D): at every pass all
//!   reservations are dropped and handed out again in fairshare order; jobs whose slot is now
//!   start. Neither conservative variant has a starvation queue.

use std::collections::{BTreeMap, BTreeSet};

use crate::engine::{Decision, JobIdx, JobView, Policy, System, Why};
use crate::keys::{normalize, parse_choice, parse_num, KeyError};
use crate::profile::Profile;
use crate::trace::Trace;

/// Options of the fairshare family.
pub const FAIRSHARE_OPTIONS: &[super::OptionDoc] = &[
    super::OptionDoc {
        key: "reservations",
        values: "none | conservative | dynamic",
        doc: "none: no-guarantee backfilling with a starvation queue (CPlant); conservative: a reservation per job, improved in fairshare order; dynamic: all reservations rebuilt in fairshare order at every pass",
    },
    super::OptionDoc {
        key: "starve_h",
        values: "hours > 0 | off",
        doc: "reservations=none: a job waiting this long enters the FCFS starvation queue, whose head gets a reservation",
    },
    super::OptionDoc {
        key: "starvation",
        values: "all | fair",
        doc: "who may enter the starvation queue: every job, or only jobs of users who are not heavy",
    },
    super::OptionDoc {
        key: "heavy_share",
        values: "number in (0, 1]",
        doc: "a user is heavy while their decayed usage is more than this share of all users' decayed usage",
    },
    super::OptionDoc {
        key: "max_runtime_h",
        values: "hours > 0 | none",
        doc: "maximum runtime: longer jobs run as consecutive segments, each submitted when the previous one ends",
    },
    super::OptionDoc {
        key: "decay",
        values: "number in (0, 1]",
        doc: "fairshare usage is multiplied by this at every decay boundary (1: no decay)",
    },
    super::OptionDoc {
        key: "decay_period_h",
        values: "hours > 0",
        doc: "time between decays, counted from the trace's first submission",
    },
];

/// Defaults of the fairshare family: the original CPlant scheduler (`cplant24.nomax.all`).
pub const FAIRSHARE_DEFAULTS: &[(&str, &str)] = &[
    ("reservations", "none"),
    ("starve_h", "24"),
    ("starvation", "all"),
    ("heavy_share", "0.1"),
    ("max_runtime_h", "none"),
    ("decay", "0.5"),
    ("decay_period_h", "24"),
];

/// How waiting jobs are guaranteed a start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reservations {
    /// None but the starvation queue's head (CPlant's no-guarantee backfilling).
    None,
    /// One per job, kept and improved (conservative backfilling in fairshare order).
    Conservative,
    /// One per job, rebuilt in fairshare order at every pass.
    Dynamic,
}

/// How usage decays.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Decay {
    /// Factor applied at every boundary.
    pub factor: f64,
    /// Seconds between boundaries.
    pub period_s: i64,
}

impl Default for Decay {
    fn default() -> Self {
        Decay { factor: 0.5, period_s: 86_400 }
    }
}

/// The family's parsed options.
#[derive(Debug, Clone, PartialEq)]
pub struct FairshareOptions {
    /// Reservation scheme.
    pub reservations: Reservations,
    /// Starvation threshold in seconds (`None`: no starvation queue).
    pub starve_s: Option<i64>,
    /// Heavy users may not enter the starvation queue.
    pub fair_only: bool,
    /// Share of all usage above which a user is heavy.
    pub heavy_share: f64,
    /// Maximum runtime in seconds (`None`: unlimited).
    pub max_runtime_s: Option<i64>,
    /// Usage decay.
    pub decay: Decay,
}

/// Parses a positive number of hours into seconds, or `None` for the word `off_word`.
fn hours(key: &str, value: &str, off_word: &str) -> Result<Option<i64>, KeyError> {
    if normalize(value) == off_word {
        return Ok(None);
    }
    let h: f64 = parse_num(key, value)?;
    if !(h > 0.0 && h <= 1e6) {
        return Err(KeyError::new(key, value, "must be a number of hours above 0"));
    }
    Ok(Some((h * 3600.0).round().max(1.0) as i64))
}

/// Parses a number in (0, 1].
fn share(key: &str, value: &str) -> Result<f64, KeyError> {
    let v: f64 = parse_num(key, value)?;
    if !(v > 0.0 && v <= 1.0) {
        return Err(KeyError::new(key, value, "must be above 0 and at most 1"));
    }
    Ok(v)
}

impl FairshareOptions {
    /// Parses the options from `get(key)`.
    pub fn parse(get: &dyn Fn(&str) -> String) -> Result<Self, KeyError> {
        let reservations = parse_choice(
            "reservations",
            &get("reservations"),
            &[
                ("none", Reservations::None),
                ("conservative", Reservations::Conservative),
                ("dynamic", Reservations::Dynamic),
            ],
        )?;
        let starve_s = hours("starve_h", &get("starve_h"), "off")?;
        let fair_only = parse_choice("starvation", &get("starvation"), &[("all", false), ("fair", true)])?;
        let heavy_share = share("heavy_share", &get("heavy_share"))?;
        let max_runtime_s = hours("max_runtime_h", &get("max_runtime_h"), "none")?;
        let factor = share("decay", &get("decay"))?;
        let period_s = hours("decay_period_h", &get("decay_period_h"), "")?.unwrap_or(86_400);
        Ok(FairshareOptions {
            reservations,
            starve_s,
            fair_only,
            heavy_share,
            max_runtime_s,
            decay: Decay { factor, period_s },
        })
    }
}

/// One user's account.
#[derive(Debug, Clone, Copy, Default)]
struct Account {
    /// Decayed usage up to the start of period `epoch`.
    base: f64,
    /// Period the account has been brought up to.
    epoch: i64,
    /// Processor-seconds charged in period `epoch` up to `last`: exact, so the usage at a time
    /// does not depend on when the account was looked at.
    acc: i64,
    last: i64,
    /// Processors the user's jobs hold now.
    procs: i64,
}

/// The fairshare ledger: each user's decayed processor-seconds (Leung et al. section II.A).
#[derive(Debug, Clone)]
pub struct Usage {
    decay: Decay,
    origin: i64,
    accounts: Vec<Account>,
    /// Per job: its user's account.
    slot: Vec<u32>,
}

impl Usage {
    /// A ledger for the users of `trace`, decays counted from its first submission.
    pub fn new(trace: &Trace, decay: Decay) -> Self {
        Usage::keyed(trace, decay, |j| j.user)
    }

    /// A ledger whose accounts are the groups of `trace` (SWF field 13).
    pub fn by_group(trace: &Trace, decay: Decay) -> Self {
        Usage::keyed(trace, decay, |j| j.group)
    }

    fn keyed(trace: &Trace, decay: Decay, key: fn(&crate::trace::Job) -> i32) -> Self {
        let origin = trace.jobs.first().map_or(0, |j| j.submit);
        let mut users: BTreeMap<i32, u32> = BTreeMap::new();
        let slot = trace
            .jobs
            .iter()
            .map(|j| {
                let n = users.len() as u32;
                *users.entry(key(j)).or_insert(n)
            })
            .collect();
        let fresh = Account { last: origin, ..Account::default() };
        Usage { decay, origin, accounts: vec![fresh; users.len()], slot }
    }

    /// The account of job `idx`'s user.
    pub fn user_of(&self, idx: JobIdx) -> usize {
        self.slot[idx as usize] as usize
    }

    /// Number of accounts.
    pub fn users(&self) -> usize {
        self.accounts.len()
    }

    fn bring(&mut self, u: usize, t: i64) {
        // Brought up to `t` already (a boundary or a time is only ever set within its period),
        // as every job of a queue asks at the same second.
        if self.accounts[u].last == t {
            return;
        }
        let period = self.decay.period_s.max(1);
        let epoch = (t - self.origin).div_euclid(period);
        let a = &mut self.accounts[u];
        // One boundary at a time, so every account decays by the same sequence of operations.
        while a.epoch < epoch {
            let boundary = self.origin + (a.epoch + 1) * period;
            a.acc += a.procs * (boundary - a.last).max(0);
            a.base = (a.base + a.acc as f64) * self.decay.factor;
            a.acc = 0;
            a.last = boundary;
            a.epoch += 1;
        }
        if t > a.last {
            a.acc += a.procs * (t - a.last);
            a.last = t;
        }
    }

    /// User `u`'s decayed usage at `t` (t never earlier than a time asked before).
    pub fn usage(&mut self, u: usize, t: i64) -> f64 {
        self.bring(u, t);
        let a = &self.accounts[u];
        a.base + a.acc as f64
    }

    /// Job `idx` of `procs` processors started running at `t`: its user is charged from now on.
    pub fn start(&mut self, idx: JobIdx, procs: u32, t: i64) {
        let u = self.user_of(idx);
        self.bring(u, t);
        self.accounts[u].procs += procs as i64;
    }

    /// Job `idx` stopped running at `t`.
    pub fn stop(&mut self, idx: JobIdx, procs: u32, t: i64) {
        let u = self.user_of(idx);
        self.bring(u, t);
        self.accounts[u].procs -= procs as i64;
    }

    /// Every user's usage at `t`, by account.
    pub fn all(&mut self, t: i64) -> Vec<f64> {
        (0..self.accounts.len()).map(|u| self.usage(u, t)).collect()
    }
}

/// The fairshare order of two waiting jobs keyed (usage now, arrival, index): ascending usage,
/// ties by arrival, then by trace order.
pub fn fairshare_cmp(a: &(f64, i64, JobIdx), b: &(f64, i64, JobIdx)) -> std::cmp::Ordering {
    a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2))
}

/// The fairshare key `(usage, arrival, index)` as integers that order as [`fairshare_cmp`]
/// orders the keys (the usage's bits as `f64::total_cmp` reads them), for sorting without a
/// comparison function; no two jobs have the same.
pub fn fairshare_key(k: &(f64, i64, JobIdx)) -> (i64, i64, JobIdx) {
    let bits = k.0.to_bits() as i64;
    (bits ^ (((bits >> 63) as u64) >> 1) as i64, k.1, k.2)
}

/// A waiting job (or segment) as the policy plans it.
#[derive(Debug, Clone, Copy)]
struct Waiting {
    idx: JobIdx,
    procs: i64,
    /// Planned runtime of this segment.
    dur: i64,
    /// Submission of this segment.
    arrival: i64,
    user: u32,
    reserved: Option<i64>,
    starving: bool,
}

/// The fairshare family's policy.
pub struct Fairshare {
    opts: FairshareOptions,
    usage: Usage,
    waiting: Vec<Waiting>,
    /// Running jobs by (planned end, index), with their processors.
    running: BTreeSet<(i64, JobIdx)>,
    planned_end: Vec<i64>,
    procs: Vec<u32>,
    /// Running jobs and reservations over time (unused without reservations).
    profile: Profile,
    /// With dynamic reservations: the running jobs alone, which each pass's reservations are
    /// laid over afresh (a copy, rather than every reservation given back one by one).
    running_only: Option<Profile>,
    /// A job ended before its planned end since the last pass.
    dirty: bool,
    /// Storage for sorting the fairshare order, reused from pass to pass.
    keyed: Vec<((i64, i64, JobIdx), usize)>,
}

impl Fairshare {
    /// The policy for `trace`.
    pub fn new(opts: FairshareOptions, trace: &Trace) -> Self {
        let origin = trace.jobs.first().map_or(0, |j| j.submit);
        let n = trace.jobs.len();
        let dynamic = opts.reservations == Reservations::Dynamic;
        Fairshare {
            usage: Usage::new(trace, opts.decay),
            opts,
            waiting: Vec::new(),
            running: BTreeSet::new(),
            planned_end: vec![0; n],
            procs: trace.jobs.iter().map(|j| j.procs).collect(),
            profile: Profile::new(trace.machine, origin),
            running_only: dynamic.then(|| Profile::new(trace.machine, origin)),
            dirty: false,
            keyed: Vec::new(),
        }
    }

    /// Queues job `job` (or its next segment, `done` seconds of work into it) arriving now.
    fn enqueue(&mut self, job: &JobView, done: i64, now: i64) {
        let limit = self.opts.max_runtime_s.unwrap_or(i64::MAX);
        let dur = (job.sched_runtime - done).clamp(1, limit);
        let user = self.usage.user_of(job.idx) as u32;
        let w =
            Waiting { idx: job.idx, procs: job.procs as i64, dur, arrival: now, user, reserved: None, starving: false };
        self.waiting.push(w);
    }

    /// Starts `w` now; the profile already holds its booking if `booked`.
    fn launch(&mut self, sys: &mut System, w: &Waiting, booked: bool) -> bool {
        let now = sys.now();
        let ok = match self.opts.max_runtime_s {
            Some(limit) => sys.start_segment(w.idx, limit),
            None => sys.start(w.idx),
        };
        if !ok {
            return false;
        }
        if !booked && self.opts.reservations != Reservations::None {
            self.profile.reserve(now, w.procs, w.dur);
        }
        if let Some(p) = &mut self.running_only {
            p.reserve(now, w.procs, w.dur);
        }
        let end = now + w.dur.max(1);
        self.planned_end[w.idx as usize] = end;
        self.running.insert((end, w.idx));
        self.usage.start(w.idx, w.procs as u32, now);
        true
    }

    /// The waiting jobs' positions in fairshare order: ascending usage now, then arrival.
    fn fairshare_order(&mut self, now: i64) -> Vec<usize> {
        let mut keyed = std::mem::take(&mut self.keyed);
        keyed.clear();
        for (pos, w) in self.waiting.iter().enumerate() {
            let usage = self.usage.usage(w.user as usize, now);
            keyed.push((fairshare_key(&(usage, w.arrival, w.idx)), pos));
        }
        // Mostly in order already, which the stable sort takes advantage of.
        keyed.sort();
        let order = keyed.iter().map(|k| k.1).collect();
        self.keyed = keyed;
        order
    }

    /// Earliest time `procs` processors are free by the running jobs' planned ends, and the
    /// processors to spare then (EASY's shadow time and extra processors).
    fn shadow(&self, now: i64, free: i64, procs: i64) -> (i64, i64) {
        let mut avail = free;
        for &(end, idx) in &self.running {
            avail += self.procs[idx as usize] as i64;
            if avail >= procs {
                return (end.max(now), avail - procs);
            }
        }
        (i64::MAX, 0)
    }

    /// Removes the jobs started in this pass (`started`, by position) from the waiting list.
    fn drop_started(&mut self, started: &[bool]) {
        let mut i = 0;
        self.waiting.retain(|_| {
            i += 1;
            !started[i - 1]
        });
    }

    /// Which users are heavy at `now`.
    fn heavy_users(&mut self, now: i64) -> Vec<bool> {
        let all = self.usage.all(now);
        let total: f64 = all.iter().sum();
        all.iter().map(|&u| total > 0.0 && u > self.opts.heavy_share * total).collect()
    }

    /// CPlant: no-guarantee backfilling in fairshare order around the starvation queue's head.
    fn pass_cplant(&mut self, sys: &mut System) {
        let now = sys.now();
        let mut next_entry = i64::MAX;
        let mut heavy: Option<Vec<bool>> = None;
        if let Some(th) = self.opts.starve_s {
            for pos in 0..self.waiting.len() {
                let w = self.waiting[pos];
                if w.starving {
                    continue;
                }
                if now - w.arrival < th {
                    next_entry = next_entry.min(w.arrival + th);
                } else {
                    if self.opts.fair_only {
                        let h = heavy.get_or_insert_with(|| self.heavy_users(now));
                        if h[w.user as usize] {
                            continue;
                        }
                    }
                    self.waiting[pos].starving = true;
                    sys.explain(|| Decision::Starving { job: w.idx, waited: now - w.arrival });
                }
            }
        }
        // As (arrival, job, position) triples, the type every such sort shares (one compiled
        // sort for many call sites); jobs are unique, so the unstable sort is stable.
        let mut keyed: Vec<(i64, i64, usize)> = (0..self.waiting.len())
            .filter(|&p| self.waiting[p].starving)
            .map(|p| (self.waiting[p].arrival, i64::from(self.waiting[p].idx), p))
            .collect();
        keyed.sort_unstable();
        let starving: Vec<usize> = keyed.into_iter().map(|k| k.2).collect();
        let mut free = sys.free() as i64;
        let mut started: Vec<bool> = vec![false; self.waiting.len()];
        let mut shadow: Option<(i64, i64)> = None;
        let mut rest: Vec<usize> = Vec::new();
        let order = self.fairshare_order(now);
        if sys.explaining() {
            let queue = starving
                .iter()
                .chain(order.iter().filter(|&&p| !self.waiting[p].starving))
                .map(|&p| self.waiting[p].idx)
                .collect();
            sys.explain(|| Decision::Queue { order: queue, free });
        }
        for &p in &starving {
            let w = self.waiting[p];
            if shadow.is_some() {
                rest.push(p);
            } else if w.procs <= free {
                if self.launch(sys, &w, false) {
                    free -= w.procs;
                    started[p] = true;
                    sys.explain(|| Decision::Started { job: w.idx, why: Why::First });
                }
            } else {
                let (t, extra) = self.shadow(now, free, w.procs);
                sys.note_reservation(w.idx, t);
                sys.explain(|| Decision::Reserved { job: w.idx, start: t, was: None, procs: w.procs });
                sys.explain(|| Decision::Shadow { job: w.idx, shadow: t, extra });
                shadow = Some((t, extra));
            }
        }
        rest.extend(order.into_iter().filter(|&p| !self.waiting[p].starving));
        for p in rest {
            let w = self.waiting[p];
            if w.procs > free {
                let why = Why::TooWide { procs: w.procs, free };
                sys.explain(|| Decision::Waits { job: w.idx, why });
                continue;
            }
            // What the shadow time said of it: (end, extra processors before it took them) when
            // it runs past the shadow time, (end, -1) when it ends by it.
            let mut against: Option<(i64, i64, i64)> = None;
            if let Some((t, extra)) = shadow.as_mut() {
                let end = now + w.dur;
                if end > *t {
                    if w.procs > *extra {
                        let (procs, extra) = (w.procs, *extra);
                        sys.explain(|| Decision::Waits {
                            job: w.idx,
                            why: Why::Other {
                                text: format!(
                                    "it would run past the shadow time and needs {procs} processors, more than the {extra} extra ones"
                                ),
                            },
                        });
                        continue;
                    }
                    against = Some((end, *extra, *t));
                    *extra -= w.procs;
                } else {
                    against = Some((end, -1, *t));
                }
            }
            if self.launch(sys, &w, false) {
                free -= w.procs;
                started[p] = true;
                sys.explain(|| {
                    let why = match against {
                        None => Why::Free,
                        Some((end, -1, shadow)) => Why::BeforeShadow { end, shadow },
                        Some((end, extra, _)) => Why::ExtraProcessors { end, extra },
                    };
                    Decision::Started { job: w.idx, why }
                });
            }
        }
        self.drop_started(&started);
        if let Some((t, _)) = shadow {
            next_entry = next_entry.min(t);
        }
        if next_entry < i64::MAX {
            sys.wake_at(next_entry);
        }
    }

    /// Conservative backfilling in fairshare order: a job that ended early lets every reserved
    /// job, in fairshare order, take the earliest slot (never later than its own); this repeats
    /// until none moves, since one job's move can open room for a job already passed. New jobs
    /// then get their reservations in arrival order, and the jobs whose slot is now start.
    fn pass_conservative(&mut self, sys: &mut System) {
        let now = sys.now();
        self.profile.advance(now);
        self.explain_queue(sys);
        if self.dirty || self.waiting.iter().any(|w| w.reserved.is_some_and(|s| s < now)) {
            let order = self.fairshare_order(now);
            // A booking can move earlier only if processors were freed somewhere before its
            // start since it was last placed: the steps inside its own span are never what kept
            // it from an earlier slot. So after the first sweep, which looks at every job, a job
            // is looked at only if a booking that moved since its last look freed processors
            // before its start. `freed[i]`: the earliest time freed by the
            // moves of the previous sweep after position i; `later`: by this sweep's so far.
            let mut freed: Vec<i64> = vec![i64::MIN; order.len() + 1];
            let mut lowest: Vec<i64> = vec![i64::MAX; order.len()];
            loop {
                let mut moved = false;
                let mut later = i64::MAX;
                for (i, &p) in order.iter().enumerate() {
                    let w = self.waiting[p];
                    let Some(s) = w.reserved else { continue };
                    if freed[i + 1].min(later) >= s {
                        continue;
                    }
                    let s2 = match self.profile.compress(s, w.procs, w.dur) {
                        Some(s2) => s2,
                        None => {
                            self.profile.release(s, w.procs, w.dur);
                            let s2 = self.profile.earliest(w.procs, w.dur).unwrap_or(s.max(now));
                            self.profile.reserve(s2, w.procs, w.dur);
                            s2
                        }
                    };
                    if s2 != s {
                        // What its old slot frees that its new one does not take.
                        lowest[i] = if s2 < s { s.max(s2 + w.dur.max(1)) } else { s };
                        later = later.min(lowest[i]);
                    }
                    moved |= s2 < s;
                    self.waiting[p].reserved = Some(s2);
                    if s2 != s {
                        sys.explain(|| Decision::Reserved { job: w.idx, start: s2, was: Some(s), procs: w.procs });
                    }
                }
                if !moved {
                    break;
                }
                // No move comes after the last position.
                freed[order.len()] = i64::MAX;
                for i in (0..order.len()).rev() {
                    freed[i] = freed[i + 1].min(lowest[i]);
                }
                lowest.fill(i64::MAX);
            }
        }
        self.dirty = false;
        for p in 0..self.waiting.len() {
            let w = self.waiting[p];
            if w.reserved.is_none() {
                let Some(s) = self.profile.earliest(w.procs, w.dur) else { continue };
                self.profile.reserve(s, w.procs, w.dur);
                sys.note_reservation(w.idx, s);
                self.waiting[p].reserved = Some(s);
                sys.explain(|| Decision::Reserved { job: w.idx, start: s, was: None, procs: w.procs });
            }
        }
        self.start_due(sys);
    }

    /// Conservative backfilling with dynamic reservations: every reservation is dropped and
    /// handed out again in fairshare order. Once nothing more can start now, the rest of the
    /// schedule cannot change what happens before the next event, so those jobs stay unplaced.
    fn pass_dynamic(&mut self, sys: &mut System) {
        let now = sys.now();
        // Every reservation given back leaves the running jobs alone.
        if let Some(running) = &mut self.running_only {
            running.advance(now);
            self.profile.clone_from(running);
        }
        self.explain_queue(sys);
        let mut was: Vec<Option<i64>> = Vec::new();
        for w in &mut self.waiting {
            let old = w.reserved.take();
            if sys.explaining() {
                was.push(old);
            }
        }
        for p in self.fairshare_order(now) {
            if self.profile.free_now() <= 0 {
                break;
            }
            let w = self.waiting[p];
            let Some(s) = self.profile.earliest(w.procs, w.dur) else { continue };
            self.profile.reserve(s, w.procs, w.dur);
            sys.note_reservation(w.idx, s);
            self.waiting[p].reserved = Some(s);
            let was = was.get(p).copied().flatten();
            if was != Some(s) {
                sys.explain(|| Decision::Reserved { job: w.idx, start: s, was, procs: w.procs });
            }
        }
        self.dirty = false;
        self.start_due(sys);
    }

    /// Logs the waiting jobs in fairshare order, when the run is explained.
    fn explain_queue(&mut self, sys: &mut System) {
        if sys.explaining() {
            let order = self.fairshare_order(sys.now()).into_iter().map(|p| self.waiting[p].idx).collect();
            let free = sys.free() as i64;
            sys.explain(|| Decision::Queue { order, free });
        }
    }

    /// Starts the jobs whose reservation is now and wakes the engine at the next one.
    fn start_due(&mut self, sys: &mut System) {
        let now = sys.now();
        let mut started: Vec<bool> = vec![false; self.waiting.len()];
        let mut wake = i64::MAX;
        for (p, flag) in started.iter_mut().enumerate() {
            let w = self.waiting[p];
            match w.reserved {
                Some(s) if s == now && self.launch(sys, &w, true) => {
                    *flag = true;
                    sys.explain(|| Decision::Started { job: w.idx, why: Why::Reservation });
                }
                Some(s) => wake = wake.min(s),
                None => {}
            }
        }
        self.drop_started(&started);
        if sys.explaining() {
            let reservations: Vec<(JobIdx, i64)> =
                self.waiting.iter().filter_map(|w| w.reserved.map(|s| (w.idx, s))).collect();
            if !reservations.is_empty() {
                sys.explain(|| Decision::Plan { reservations });
            }
        }
        if wake < i64::MAX {
            sys.wake_at(wake);
        }
    }
}

impl Policy for Fairshare {
    fn on_arrival(&mut self, job: JobView, sys: &mut System) {
        self.enqueue(&job, 0, sys.now());
    }

    fn on_checkpoint(&mut self, job: JobView, sys: &mut System) {
        let now = sys.now();
        self.stopped(&job, now);
        self.enqueue(&job, sys.done(job.idx), now);
    }

    fn on_completion(&mut self, job: JobView, sys: &mut System) {
        self.stopped(&job, sys.now());
    }

    fn schedule(&mut self, sys: &mut System) {
        match self.opts.reservations {
            Reservations::None => self.pass_cplant(sys),
            Reservations::Conservative => self.pass_conservative(sys),
            Reservations::Dynamic => self.pass_dynamic(sys),
        }
    }
}

impl Fairshare {
    /// Job `job` stopped running now (it ended, or ended a segment).
    fn stopped(&mut self, job: &JobView, now: i64) {
        let i = job.idx as usize;
        let end = self.planned_end[i];
        self.running.remove(&(end, job.idx));
        self.usage.stop(job.idx, job.procs, now);
        if end > now && self.opts.reservations != Reservations::None {
            // With dynamic reservations the full profile is copied from the running jobs' at
            // the next pass.
            let profile = self.running_only.as_mut().unwrap_or(&mut self.profile);
            profile.release(now, job.procs as i64, end - now);
            self.dirty = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #[test]
        fn integer_keys_order_as_the_fairshare_order(
            a in (proptest::num::f64::ANY, -3i64..3, 0u32..3),
            b in (proptest::num::f64::ANY, -3i64..3, 0u32..3),
            same_usage in proptest::bool::ANY,
        ) {
            let b = if same_usage { (a.0, b.1, b.2) } else { b };
            proptest::prop_assert_eq!(fairshare_key(&a).cmp(&fairshare_key(&b)), fairshare_cmp(&a, &b));
        }
    }

    #[test]
    fn integer_keys_order_zeros_and_extremes() {
        let order = [f64::NEG_INFINITY, -1.0, -0.0, 0.0, f64::MIN_POSITIVE, 1.0, 2.5e9, f64::INFINITY, f64::NAN];
        for w in order.windows(2) {
            assert!(fairshare_key(&(w[0], 0, 0)) < fairshare_key(&(w[1], 0, 0)), "{} before {}", w[0], w[1]);
        }
    }
}
