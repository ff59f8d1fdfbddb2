//! The backfilling family: FCFS, first/best/worst fit, EASY, EASY-SJBF, k reservations and
//! conservative backfilling, as one mechanism over the availability profile.
//!
//! Each pass walks the queue in order. The first `k` jobs that cannot start now hold a
//! reservation (their earliest start in the profile); every other job is a backfill
//! candidate and starts only if it fits in the profile now, which leaves every reservation
//! where it is. With k = 1 this is EASY, including its "extra processors" rule (a
//! candidate that outlives the shadow time must fit beside the reserved job); with k
//! unlimited it is conservative backfilling. Without the decision log, EASY tests its
//! candidates against the shadow time and the extra processors rather than the profile's
//! steps, and while every change in the profile after now gives processors back, its
//! reservation is not booked there at all (`Backfill::reserve_at`).
//!
//! Reservations persist from pass to pass. When a job ends earlier than planned, the
//! schedule is compressed: each reserved job, in queue order, gives up its slot and takes
//! the earliest one in the profile, which is never later (Kettimuthu section 2.1.1; pyss's
//! conservative scheduler). EASY's unbooked reservation simply takes the earliest one.
//!
//! Runtimes come from a [`Planner`] (Tsafrir et al.): the user estimate by default, else a
//! history-based or perfect prediction, possibly doubled. A running job that outlives its
//! planned runtime raises an alarm ([`Policy::on_overdue`]); the planner corrects the
//! prediction, the profile books the job for longer and every reservation is recomputed
//! (Fig. 5). Reservations go to jobs in arrival order (FCFS) or shortest first (SJF), and a
//! backfill candidate may be tested with its predicted or its user-estimated end.

use crate::engine::{Decision, JobIdx, JobView, Policy, System, Why};
use crate::policy::custom::{Moment, PriorityOrder};
use crate::predict::{Planner, PredictOptions, Predictor, Source};
use crate::profile::Profile;

/// The booked runtime of a reservation the profile does not hold: EASY's single one, while its
/// shadow time and extra processors answer for the candidates without it ([`Shadow::beside`]).
const UNBOOKED: i64 = 0;

/// The planned end of a running job whose processors a profile that does not plan ahead has
/// already given back (it outlived its planned end uncorrected).
const GIVEN_BACK: i64 = i64::MIN;

/// The order in which backfill candidates are tried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// No backfilling: strict queue order, no job starts before every job ahead of it has (FCFS);
    /// `k` then only says whether the blocked head holds a reservation.
    None,
    /// Queue (arrival) order.
    Queue,
    /// Shortest job backfilled first, by the scheduler's runtime (Tsafrir et al.).
    Sjbf,
    /// Widest job first: the best fit for the free processors (Ward et al.'s BFFS).
    BestFit,
    /// Narrowest job first: the worst fit (Ward et al.'s WFFS).
    WorstFit,
    /// Highest value of a second priority expression first (the custom policy's
    /// `backfill_priority`).
    Expr,
}

/// Which waiting jobs get the reservations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reserve {
    /// The oldest waiting jobs (EASY and every FCFS-based variant).
    Fcfs,
    /// The jobs with the shortest planned runtimes (SJF, Tsafrir et al. section 5).
    Sjf,
    /// The jobs with the highest values of a priority expression (the `custom` policy).
    Priority,
}

/// Which end a backfill candidate must have before the reservations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackfillEnd {
    /// Its predicted end (the planned runtime).
    Prediction,
    /// Its user-estimated end, the kill time, so a backfilled job never delays a reservation
    /// even when its prediction is too short (Tsafrir et al. section 4).
    Estimate,
}

/// The knobs of the family.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BackfillOptions {
    /// Reservation depth: how many waiting jobs hold reservations (`None` = all: conservative).
    pub k: Option<usize>,
    /// Order of backfill candidates.
    pub order: Order,
    /// Which jobs get the reservations.
    pub reserve: Reserve,
    /// Which end a backfill candidate is tested with.
    pub backfill_end: BackfillEnd,
    /// How runtimes are predicted and corrected.
    pub predict: PredictOptions,
    /// Whether a correction runs a scheduling pass at once (Fig. 5, right); without, passes
    /// run only at arrivals and terminations, as in pyss and predictsim.
    pub correction_pass: bool,
}

/// One waiting job as the policy plans it.
#[derive(Debug, Clone, Copy)]
struct Entry {
    idx: JobIdx,
    procs: i64,
    /// Planned runtime now.
    dur: i64,
    /// Runtime its reservation is booked with in the profile, or [`UNBOOKED`].
    booked: i64,
    /// User estimate (the kill time).
    estimate: i64,
    user: i32,
    /// Place in the priority order ([`PriorityOrder::key`]), with a priority expression.
    key: i64,
    /// Place in the backfill order, with a backfill expression ([`Order::Expr`]).
    bkey: i64,
    reserved: Option<i64>,
    started: bool,
}

/// Profile-based backfilling with reservation depth `k` and a candidate order.
pub struct Backfill {
    opts: BackfillOptions,
    profile: Profile,
    queue: Vec<Entry>,
    /// Planned end of each running job, by job index: what the profile holds for it, or, without
    /// reservations ([`Backfill::plans_ahead`]), when it gives the job's processors back unless
    /// it ends sooner; [`GIVEN_BACK`] once it has.
    planned_end: Vec<i64>,
    planner: Planner,
    /// Waiting jobs' planned runtimes changed: the SJF order must be restored.
    unsorted: bool,
    /// A plan grew (a correction, or a propagated prediction): reservations may have to move
    /// later, so they are all handed out again in priority order rather than compressed.
    replan: bool,
    /// A job ended before its planned end, or overran it: reservations must be recomputed.
    dirty: bool,
    /// A job ended since the last pass: with `predict_at=pass`, waiting jobs are predicted again.
    history_grew: bool,
    /// A correction has run no pass (`correction_pass=off`), and no pass has run since.
    corrected_unseen: bool,
    /// Waiting jobs by (candidate key, index) for the orders other than queue order, kept
    /// sorted as jobs arrive, start and change prediction, so a pass need not sort.
    ranked: Vec<(i64, JobIdx)>,
    /// Queue position of each waiting job, by job index (for the ranked orders only, which
    /// find their candidates by index).
    pos_of: Vec<u32>,
    /// Queue entries before `head` have all started (the queue is compacted lazily).
    head: usize,
    /// Started entries at or after `head`.
    holes: usize,
    /// After the last pass: the earliest reserved start, the number of reservations, and the
    /// queue position before which that pass looked at every entry or knew it could not start
    /// (arrivals come after it).
    next_start: i64,
    reservations: usize,
    looked: usize,
    /// After the last pass: the profile's count of changes ([`Profile::edits`]), and the
    /// machine's free processors, which grow when any job ends (with per-event passes, before
    /// its end is told).
    edits: u64,
    machine_free: u32,
    /// After the last pass: EASY's shadow time and extra processors, if they answer for the
    /// profile ([`Shadow`]).
    shadow: Option<Shadow>,
    /// The queue order of a custom policy ([`Reserve::Priority`]).
    priority: Option<Box<PriorityOrder>>,
    /// The backfill order of a custom policy ([`Order::Expr`]).
    backfill_order: Option<Box<PriorityOrder>>,
}

/// EASY's shadow time (the single reservation's start) and extra processors (those free
/// beside it then), while they answer for the profile ([`Profile::extra_at`] with the
/// reservation booked, [`Shadow::beside`] without it): a candidate fits
/// now if it fits in the free processors and ends by the shadow time or fits in the extra
/// ones too. Asked of every candidate, this is cheaper than walking the profile's steps.
#[derive(Debug, Clone, Copy)]
struct Shadow {
    time: i64,
    extra: i64,
}

impl Shadow {
    /// The shadow of the reservation starting at `time`, if it answers for `profile`.
    fn at(profile: &Profile, time: i64) -> Option<Shadow> {
        profile.extra_at(time).map(|extra| Shadow { time, extra })
    }

    /// The shadow of a reservation of `procs` processors at `time` that `profile` does not hold,
    /// if no change in it after now takes processors: then the extra processors are those free
    /// at `time` less the reservation's, as [`Shadow::at`] would find with the reservation booked.
    fn beside(profile: &Profile, time: i64, procs: i64) -> Option<Shadow> {
        profile.rises_only().then(|| Shadow { time, extra: profile.free_at(time) - procs })
    }

    /// Whether `procs` processors for `dur` seconds from `now` fit, with `free` free now.
    fn admits(&self, now: i64, free: i64, procs: i64, dur: i64) -> bool {
        procs <= free && (now + dur.max(1) <= self.time || procs <= self.extra)
    }

    /// A job of `procs` processors booked for `dur` seconds started `now`.
    fn took(&mut self, now: i64, procs: i64, dur: i64) {
        if now + dur.max(1) > self.time {
            self.extra -= procs;
        }
    }
}

impl Backfill {
    /// A policy for a machine of `machine` processors and `jobs` jobs.
    pub fn new(opts: BackfillOptions, machine: u32, jobs: usize, origin: i64) -> Self {
        Backfill {
            opts,
            profile: Profile::new(machine, origin),
            queue: Vec::new(),
            planned_end: vec![0; jobs],
            planner: Planner::new(opts.predict, jobs),
            unsorted: false,
            replan: false,
            dirty: false,
            history_grew: false,
            corrected_unseen: false,
            ranked: Vec::new(),
            pos_of: if matches!(opts.order, Order::Sjbf | Order::BestFit | Order::WorstFit | Order::Expr) {
                vec![0; jobs]
            } else {
                Vec::new()
            },
            head: 0,
            holes: 0,
            next_start: i64::MAX,
            reservations: 0,
            looked: 0,
            edits: u64::MAX,
            machine_free: 0,
            shadow: None,
            priority: None,
            backfill_order: None,
        }
    }

    /// A policy that orders its queue by `priority`, and tries its backfill candidates in the
    /// order of `backfill` if given (the `custom` policy).
    pub fn with_priority(
        opts: BackfillOptions,
        priority: PriorityOrder,
        backfill: Option<PriorityOrder>,
        machine: u32,
        jobs: usize,
        origin: i64,
    ) -> Self {
        let order = if backfill.is_some() { Order::Expr } else { opts.order };
        let opts = BackfillOptions { reserve: Reserve::Priority, order, ..opts };
        Backfill {
            priority: Some(Box::new(priority)),
            backfill_order: backfill.map(Box::new),
            ..Backfill::new(opts, machine, jobs, origin)
        }
    }

    /// The same policy planning with an outside runtime predictor ([`Source::Given`]).
    pub fn with_predictor(self, predictor: Box<dyn Predictor>, jobs: usize) -> Self {
        let planner = Planner::with_predictor(self.opts.predict, jobs, predictor);
        let opts = BackfillOptions { predict: *planner.options(), ..self.opts };
        Backfill { opts, planner, ..self }
    }

    /// Drops started entries from the queue: cheaply from the front, wholesale when they pile up.
    /// Every pass steps over the ones left, at the cost of a branch it cannot predict, so they
    /// are let pile up to only a quarter of the queue.
    fn compact(&mut self) {
        while self.head < self.queue.len() && self.queue[self.head].started {
            self.head += 1;
            self.holes -= 1;
        }
        let live = self.queue.len() - self.head;
        if self.head == self.queue.len() || self.head > live || self.holes > 4 + live / 4 {
            self.queue.drain(..self.head);
            self.queue.retain(|e| !e.started);
            self.head = 0;
            self.holes = 0;
            self.reindex();
        }
    }

    /// Records every waiting job's queue position after the queue moved.
    fn reindex(&mut self) {
        if self.pos_of.is_empty() {
            return;
        }
        for (pos, e) in self.queue.iter().enumerate().skip(self.head) {
            self.pos_of[e.idx as usize] = pos as u32;
        }
    }

    /// Puts the waiting jobs in priority order (SJF: shortest first). Out of line, so the sort
    /// is compiled once rather than in every variant of the pass.
    #[inline(never)]
    fn sort_waiting(&mut self, sjf: bool) {
        if self.priority.is_some() {
            self.queue[self.head..].sort_by_key(|e| (e.started, e.key, e.idx));
            self.reindex();
        } else if sjf {
            self.queue[self.head..].sort_by_key(|e| (e.started, e.dur, e.idx));
            self.reindex();
        }
    }

    /// Whether candidates come from the ranked list rather than the queue scan.
    fn is_ranked(&self) -> bool {
        matches!(self.opts.order, Order::Sjbf | Order::BestFit | Order::WorstFit | Order::Expr)
    }

    /// A waiting job's place in the ranked list: shortest planned runtime first (SJBF), widest
    /// first (best fit), narrowest first (worst fit), or by the backfill expression.
    fn rank_key(&self, e: &Entry) -> i64 {
        match self.opts.order {
            Order::Sjbf => e.dur,
            Order::BestFit => -e.procs,
            Order::Expr => e.bkey,
            _ => e.procs,
        }
    }

    fn rank_insert(&mut self, e: &Entry) {
        if self.is_ranked() {
            let k = (self.rank_key(e), e.idx);
            let at = self.ranked.partition_point(|&x| x < k);
            self.ranked.insert(at, k);
        }
    }

    fn rank_remove(&mut self, e: &Entry) {
        if self.is_ranked() {
            let k = (self.rank_key(e), e.idx);
            if let Ok(at) = self.ranked.binary_search(&k) {
                self.ranked.remove(at);
            }
        }
    }

    /// Whether waiting job `e` can start now without delaying any reservation. Even without
    /// reservations this asks the profile, not the machine: the profile is the policy's own view
    /// (with `passes=event` the machine has already freed the processors of a job whose end
    /// the policy has not been told yet).
    fn fits_now(&self, sys: &System, e: &Entry, end: BackfillEnd) -> bool {
        e.procs <= self.profile.free_now() && self.profile.fits(sys.now(), e.procs, test_dur(e, end))
    }

    /// [`Backfill::fits_now`], answered by EASY's shadow time and extra processors when this
    /// pass has them.
    fn fits_beside(&self, sys: &System, e: &Entry, end: BackfillEnd, shadow: Option<Shadow>) -> bool {
        match shadow {
            Some(sh) => sh.admits(sys.now(), self.profile.free_now(), e.procs, test_dur(e, end)),
            None => self.fits_now(sys, e, end),
        }
    }

    /// Whether the profile plans ahead. Without reservations (k = 0) a pass only asks what fits
    /// now, so running jobs hold their processors in it with no planned end ([`Profile::hold`])
    /// and give them back when the profile would have: at their end, or at their planned end if
    /// they outlive it uncorrected. Not with per-event passes, where a job that ends at its
    /// planned end is free in the plan before its end is told.
    fn plans_ahead(&self, sys: &System) -> bool {
        self.opts.k != Some(0) || sys.per_event()
    }

    /// Takes the processors of a job starting now in the profile: booked for `dur` seconds, or
    /// held with no planned end when the profile does not plan ahead.
    fn take_now(&mut self, sys: &System, procs: i64, dur: i64) {
        if self.plans_ahead(sys) {
            self.profile.reserve(sys.now(), procs, dur);
        } else {
            self.profile.hold(procs);
        }
    }

    /// Gives back from now on what [`Backfill::take_now`] took, booked for `dur` seconds from now.
    fn give_now(&mut self, sys: &System, procs: i64, dur: i64) {
        if self.plans_ahead(sys) {
            self.profile.release(sys.now(), procs, dur);
        } else {
            self.profile.give_back(procs);
        }
    }

    /// Gives the queued job at `pos` its reservation at `s` (not booked in the profile yet), and
    /// returns EASY's shadow for it when `easy`. EASY's single reservation stays out of the
    /// profile while its shadow answers without it ([`Shadow::beside`]): the profile then
    /// changes neither where it is placed nor as jobs end early and it is placed again. Any
    /// other is booked.
    #[inline]
    fn reserve_at(&mut self, pos: usize, s: i64, easy: bool) -> Option<Shadow> {
        let e = self.queue[pos];
        self.queue[pos].reserved = Some(s);
        if let Some(sh) = easy.then(|| Shadow::beside(&self.profile, s, e.procs)).flatten() {
            self.queue[pos].booked = UNBOOKED;
            return Some(sh);
        }
        self.profile.reserve(s, e.procs, e.dur);
        self.queue[pos].booked = e.dur;
        if easy {
            Shadow::at(&self.profile, s)
        } else {
            None
        }
    }

    /// Starts a queued job now, booking it in the profile unless its reservation already is.
    fn start_now(&mut self, sys: &mut System, pos: usize, booked: bool) -> bool {
        let e = self.queue[pos];
        let now = sys.now();
        if !booked {
            self.take_now(sys, e.procs, e.dur);
        }
        if !sys.start(e.idx) {
            // A reservation keeps its booking (it is re-placed next pass); a fresh booking is undone.
            if !booked {
                self.give_now(sys, e.procs, e.dur);
            }
            return false;
        }
        self.planned_end[e.idx as usize] = now + e.dur.max(1);
        self.rank_remove(&e);
        let view = sys.view(e.idx);
        if let Some(p) = &mut self.priority {
            p.started(&view, now);
        }
        if let Some(b) = &mut self.backfill_order {
            b.started(&view, now);
        }
        if e.dur != view.sched_runtime {
            // The engine watches only the trace's planning runtime; a prediction needs its own alarm.
            sys.watch(e.idx, now + e.dur.max(1));
        }
        let q = &mut self.queue[pos];
        q.started = true;
        q.reserved = None;
        self.holes += 1;
        true
    }
}

impl Policy for Backfill {
    fn on_arrival(&mut self, job: JobView, sys: &mut System) {
        let truth = if self.opts.predict.source == Source::Perfect { sys.clairvoyant_runtime(job.idx) } else { 0 };
        let dur = self.planner.arrive(&job, truth).max(1);
        sys.note_prediction(job.idx, dur, false);
        let e = Entry {
            idx: job.idx,
            procs: job.procs as i64,
            dur,
            booked: dur,
            estimate: job.estimate.max(1),
            user: job.user,
            key: 0,
            bkey: 0,
            reserved: None,
            started: false,
        };
        // A value fixed at arrival places the job at once: one that goes last (arrival order,
        // `-submit`) leaves the queue sorted and the reservations where they are.
        let (mut e, mut in_place) = (e, false);
        if let Some(b) = self.backfill_order.as_mut().filter(|b| !b.is_dynamic()) {
            e.bkey = b.key(&job, dur, Moment::fixed(sys.now(), sys.machine_size()));
        }
        if let Some(p) = self.priority.as_mut().filter(|p| !p.is_dynamic()) {
            e.key = p.key(&job, dur, Moment::fixed(sys.now(), sys.machine_size()));
            let last = self.queue[self.head..].iter().rev().find(|q| !q.started);
            in_place = last.is_none_or(|q| (q.key, q.idx) < (e.key, e.idx));
        }
        if let Some(p) = self.pos_of.get_mut(job.idx as usize) {
            *p = self.queue.len() as u32;
        }
        self.queue.push(e);
        self.rank_insert(&e);
        self.unsorted |= !in_place;
    }

    fn on_completion(&mut self, job: JobView, sys: &mut System) {
        let i = job.idx as usize;
        let (end, now) = (self.planned_end[i], sys.now());
        self.dirty |= end > now;
        // Ending at its planned end, a job has had no alarm (its end comes first): a profile
        // that plans ahead freed its processors then, and one that holds them gives them back now.
        if end > now || (end == now && !self.plans_ahead(sys)) {
            self.give_now(sys, job.procs as i64, end - now);
        }
        self.planner.ended(&job, sys.now() - sys.start_of(job.idx));
        self.history_grew = true;
        if let Some(p) = &mut self.priority {
            p.ended(&job, now);
        }
        if let Some(b) = &mut self.backfill_order {
            b.ended(&job, now);
        }
        if self.planner.propagates() {
            // Propagation: the user's waiting jobs are predicted again with the new history.
            self.predict_again(sys, Some(job.user), Planner::refresh);
        }
    }

    fn on_overdue(&mut self, job: JobView, sys: &mut System) -> bool {
        // The job outlived its plan: the planner corrects its prediction, the profile books it
        // until the new planned end (without reservations it holds it on), and every
        // reservation is recomputed around it. A job whose processors were given back may have
        // a later alarm still (the engine's, at the trace's planning runtime, when the
        // prediction was shorter): they must not be given back twice.
        let i = job.idx as usize;
        let now = sys.now();
        if self.planned_end[i] > now || self.planned_end[i] == GIVEN_BACK {
            return false;
        }
        let ahead = self.plans_ahead(sys);
        let Some(dur) = self.planner.correct(&job) else {
            if !ahead {
                // Uncorrected, its processors are free in the plan from its planned end on.
                self.profile.give_back(job.procs as i64);
                self.planned_end[i] = GIVEN_BACK;
            }
            return false;
        };
        // A job of this family starts once, so its first start is its start.
        let started = sys.start_of(job.idx);
        let end = (started + dur).max(now + 1);
        if ahead {
            self.profile.reserve(now, job.procs as i64, end - now);
        }
        self.planned_end[i] = end;
        self.replan = true;
        sys.note_prediction(job.idx, end - started, true);
        sys.watch(job.idx, end);
        self.corrected_unseen |= !self.opts.correction_pass;
        self.opts.correction_pass
    }

    fn fault(&self) -> Option<String> {
        let priority = self.priority.as_ref().and_then(|p| p.fault().cloned());
        let priority = priority.or_else(|| self.backfill_order.as_ref().and_then(|b| b.fault().cloned()));
        priority.or_else(|| self.planner.fault().map(|why| format!("the runtime predictor failed: {why}")))
    }

    fn on_wake(&mut self, sys: &mut System) -> bool {
        // After a correction without a pass, the next pass is at the next arrival or
        // termination, as in predictsim: a reservation's start (the corrected job's old planned
        // end, or any other) does not bring it forward. The corrected job is still running, so
        // its termination comes. Otherwise a reserved start gets its pass. A wake asked for by
        // an earlier pass whose reservation has since moved changes nothing in a fixed order,
        // but would let a priority that grows with time reorder the queue between events: a
        // custom policy passes only where a reservation starts.
        !self.corrected_unseen && (self.priority.is_none() || self.next_start <= sys.now())
    }

    fn schedule(&mut self, sys: &mut System) {
        if self.history_grew && self.planner.predicts_at_pass() {
            self.predict_waiting(sys);
        }
        self.history_grew = false;
        self.corrected_unseen = false;
        // A value that changes while jobs wait may put them in a new order at every pass.
        if self.priority.as_ref().is_some_and(|p| p.is_dynamic()) {
            self.reorder(sys);
        }
        if self.backfill_order.as_ref().is_some_and(|b| b.is_dynamic()) {
            self.rerank(sys);
        }
        // Three copies of the pass: with the decision log; EASY's without it, which tests its
        // candidates against the shadow; and every other without it.
        if sys.explaining() {
            self.pass::<true, false>(sys);
        } else if self.opts.k == Some(1) && self.opts.order != Order::None {
            self.pass::<false, true>(sys);
        } else {
            self.pass::<false, false>(sys);
        }
    }
}

impl Backfill {
    /// Gives every waiting job its (dynamic) priority now, and marks the queue unsorted if that
    /// changed its order.
    fn reorder(&mut self, sys: &System) {
        let Some(p) = &mut self.priority else { return };
        let waiting = self.queue[self.head..].iter().filter(|e| !e.started);
        let at = Moment { now: sys.now(), waiting: waiting.count(), free: sys.free(), machine: sys.machine_size() };
        let mut last: Option<(i64, JobIdx)> = None;
        let mut sorted = true;
        for e in self.queue[self.head..].iter_mut().filter(|e| !e.started) {
            e.key = p.key(&sys.view(e.idx), e.dur, at);
            sorted &= last.is_none_or(|l| l < (e.key, e.idx));
            last = Some((e.key, e.idx));
        }
        self.unsorted |= !sorted;
    }

    /// Gives every waiting job its (dynamic) backfill value now, and ranks them again.
    fn rerank(&mut self, sys: &System) {
        let Some(b) = &mut self.backfill_order else { return };
        let waiting = self.queue[self.head..].iter().filter(|e| !e.started).count();
        let at = Moment { now: sys.now(), waiting, free: sys.free(), machine: sys.machine_size() };
        self.ranked.clear();
        for e in self.queue[self.head..].iter_mut().filter(|e| !e.started) {
            e.bkey = b.key(&sys.view(e.idx), e.dur, at);
            self.ranked.push((e.bkey, e.idx));
        }
        self.ranked.sort_unstable();
    }

    /// Predicts every waiting job again from its user's newest history (`predict_at=pass`, as
    /// pyss's EasyPlusPlusScheduler does before each pass); called only after a job has ended,
    /// since nothing else changes a prediction.
    fn predict_waiting(&mut self, sys: &mut System) {
        self.predict_again(sys, None, Planner::repredict);
    }

    /// Predicts the waiting jobs (of `user`, or all) again by `predict`, and moves each whose
    /// prediction changed to its new place in the candidate order.
    fn predict_again(&mut self, sys: &mut System, user: Option<i32>, predict: fn(&mut Planner, &JobView) -> i64) {
        for pos in self.head..self.queue.len() {
            let e = self.queue[pos];
            if e.started || user.is_some_and(|u| e.user != u) {
                continue;
            }
            let dur = predict(&mut self.planner, &sys.view(e.idx));
            if dur != e.dur {
                self.rank_remove(&e);
                self.queue[pos].dur = dur;
                if let Some(b) = &mut self.backfill_order {
                    let at = Moment::fixed(sys.now(), sys.machine_size());
                    self.queue[pos].bkey = b.key(&sys.view(e.idx), dur, at);
                }
                self.rank_insert(&self.queue[pos].clone());
                if let Some(p) = &mut self.priority {
                    // Dynamic orders are given again at the pass; this one keeps its new value.
                    self.queue[pos].key = p.key(&sys.view(e.idx), dur, Moment::fixed(sys.now(), sys.machine_size()));
                }
                sys.note_prediction(e.idx, dur, false);
                self.replan = true;
                self.unsorted = true;
            }
        }
    }

    /// One scheduling pass; `EXPLAIN` says whether it hands its decisions to the log, so a run
    /// without one carries none of the code that explains, and `EASY` whether it is EASY's
    /// single reservation without the log, whose candidates are tested against its shadow time
    /// and extra processors ([`Shadow`]), so no other run carries that code.
    fn pass<const EXPLAIN: bool, const EASY: bool>(&mut self, sys: &mut System) {
        let now = sys.now();
        self.profile.advance(now);
        let k = self.opts.k.unwrap_or(usize::MAX);
        let order = self.opts.order;
        // SJF and a priority expression order the queue itself.
        let sjf = matches!(self.opts.reserve, Reserve::Sjf | Reserve::Priority);
        let explaining = EXPLAIN;
        // Between events that change no plan (no job ended early, no plan grew, the order
        // stands, no reservation starts now), every reservation stays where it is. Conservative
        // backfilling has no other waiting job; with fewer reservations, a job that could not
        // start at the last pass cannot now either if neither the profile nor the machine has
        // changed since (a later start only meets more of the same steps; the machine may have
        // turned down a start the profile allowed, until a job ends and frees processors).
        // Either way only the jobs that arrived since the last pass are looked at.
        let plans_stand = !(self.dirty || self.replan || (sjf && self.unsorted));
        let settled = self.opts.k.is_none() || (self.profile.edits() == self.edits && sys.free() == self.machine_free);
        let quiet = !EXPLAIN && order == Order::Queue && plans_stand && now < self.next_start && settled;
        // Reservations given up to be handed out again, so a log can say where they were.
        let mut given_up: Vec<(JobIdx, i64)> = Vec::new();
        // A priority expression's order changes only when it says so (`unsorted`); early ends
        // then compress the reservations in place, as in arrival order.
        let reordered = match self.opts.reserve {
            Reserve::Fcfs => false,
            Reserve::Sjf => self.unsorted || self.dirty,
            Reserve::Priority => self.unsorted,
        };
        if self.replan || reordered {
            // Compression only moves reservations earlier, in order. When plans grow, a job's
            // slot may have to move later, past a later job's booking; and under SJF the order
            // itself changes. Then every reservation is given up and handed out again in
            // priority order.
            self.compact();
            for pos in self.head..self.queue.len() {
                let e = self.queue[pos];
                if let (false, Some(s)) = (e.started, e.reserved) {
                    if e.booked != UNBOOKED {
                        self.profile.release(s, e.procs, e.booked);
                    }
                    self.queue[pos].reserved = None;
                    if explaining {
                        given_up.push((e.idx, s));
                    }
                }
            }
            self.sort_waiting(sjf);
            self.dirty = false;
            self.replan = false;
        }
        self.unsorted = false;
        if explaining {
            let order = self.queue[self.head..].iter().filter(|e| !e.started).map(|e| e.idx).collect();
            let free = sys.free() as i64;
            explain(sys, EXPLAIN, || Decision::Queue { order, free });
        }
        let test_end = self.opts.backfill_end;
        let ranked = self.is_ranked();
        let (from, mut reserved, mut next_wake) =
            if quiet { (self.looked, self.reservations, self.next_start) } else { (self.head, 0usize, i64::MAX) };
        // EASY's shadow and extra processors once its reservation is placed; a pass that
        // explains asks the profile itself, so the log checks them.
        let easy = EASY;
        let mut shadow = if quiet { self.shadow } else { None };
        // With explanations: the reservations of this pass in order (job, start, procs, booked).
        let mut held: Vec<(JobIdx, i64, i64, i64)> = Vec::new();
        for pos in from..self.queue.len() {
            // Tested in place: started entries (the queue's holes) are skipped without a copy.
            if self.queue[pos].started {
                continue;
            }
            let e = self.queue[pos];
            if order == Order::None && reserved > 0 {
                if let Some(&(first, ..)) = held.first() {
                    explain(sys, EXPLAIN, || Decision::Waits { job: e.idx, why: Why::BehindFirst { first } });
                }
                break;
            }
            // Behind the first reservation a job is placed by the end its test uses: with
            // backfill_end=estimate, its kill time must fit before the reservations ahead.
            let place = if reserved > 0 { test_dur(&e, test_end) } else { e.dur };
            if let Some(s) = e.reserved {
                // The shadow stands for the one reservation ahead of the candidates; with
                // another, only the profile can tell.
                shadow = None;
                let was = s;
                let mut s = s;
                // Only EASY leaves a reservation unbooked.
                let mut booked = !easy || e.booked != UNBOOKED;
                let stays = booked && self.dirty && place == e.booked && e.booked == e.dur;
                if let Some(s2) = stays.then(|| self.profile.compress(s, e.procs, e.dur)).flatten() {
                    s = s2;
                    self.queue[pos].reserved = Some(s);
                } else if self.dirty || s < now {
                    if booked {
                        self.profile.release(s, e.procs, e.booked);
                    }
                    let Some(s2) = self.profile.earliest(e.procs, place) else {
                        self.queue[pos].reserved = None;
                        continue;
                    };
                    s = s2;
                    self.queue[pos].reserved = Some(s);
                    // EASY's is booked, if at all, once it is known not to start now.
                    booked = !easy;
                    if easy {
                        self.queue[pos].booked = UNBOOKED;
                    } else {
                        self.reserve_at(pos, s, false);
                    }
                }
                if s == now && self.start_now(sys, pos, booked) {
                    if s != was {
                        // Compressed to now: the move, then the start, so the log shows both.
                        let procs = e.procs;
                        explain(sys, EXPLAIN, || Decision::Reserved { job: e.idx, start: s, was: Some(was), procs });
                    }
                    explain(sys, EXPLAIN, || Decision::Started { job: e.idx, why: Why::Reservation });
                    continue;
                }
                let sh = if booked {
                    easy.then(|| Shadow::at(&self.profile, s)).flatten()
                } else {
                    self.reserve_at(pos, s, easy)
                };
                if explaining {
                    self.explain_reservation(sys, pos, s, Some(was), reserved, &mut held);
                }
                reserved += 1;
                next_wake = next_wake.min(s);
                if easy {
                    shadow = sh;
                }
            } else if reserved < k {
                let Some(s) = self.profile.earliest(e.procs, place) else { continue };
                if s == now && self.start_now(sys, pos, false) {
                    let why = if reserved == 0 { Why::First } else { Why::NoDelay { reservations: reserved } };
                    explain(sys, EXPLAIN, || Decision::Started { job: e.idx, why });
                    continue;
                }
                if explaining {
                    let why = self.why_candidate(sys, pos, &held);
                    explain(sys, EXPLAIN, || Decision::Waits { job: e.idx, why });
                }
                let sh = self.reserve_at(pos, s, easy);
                sys.note_reservation(e.idx, s);
                if explaining {
                    let was = given_up.iter().find(|g| g.0 == e.idx).map(|g| g.1);
                    self.explain_reservation(sys, pos, s, was, reserved, &mut held);
                }
                reserved += 1;
                next_wake = next_wake.min(s);
                if easy {
                    shadow = sh;
                }
            } else {
                // Past the reservation depth every job is a candidate, and reserved jobs only
                // stand before this point, so the scan can stop once nothing more can start;
                // ranked orders take their candidates from the ranked list instead.
                if ranked || (order == Order::None && reserved > 0) {
                    break;
                }
                if self.profile.free_now() <= 0 {
                    if explaining {
                        let left = self.queue[pos..].iter().filter(|e| !e.started && e.reserved.is_none()).count();
                        explain(sys, EXPLAIN, || Decision::Full { left });
                    }
                    break;
                }
                match order {
                    Order::None | Order::Queue => {
                        let why = explaining.then(|| self.why_candidate(sys, pos, &held));
                        let fits = self.fits_beside(sys, &e, test_end, shadow);
                        let started = fits && self.start_now(sys, pos, false);
                        if let (true, Some(sh)) = (started, &mut shadow) {
                            sh.took(now, e.procs, e.dur);
                        }
                        if let Some(why) = why {
                            let job = e.idx;
                            explain(sys, EXPLAIN, || {
                                if started {
                                    Decision::Started { job, why }
                                } else {
                                    Decision::Waits { job, why }
                                }
                            });
                        }
                        if !started && order == Order::None {
                            if explaining {
                                let behind: Vec<JobIdx> =
                                    self.queue[pos + 1..].iter().filter(|q| !q.started).map(|q| q.idx).collect();
                                for job in behind {
                                    explain(sys, EXPLAIN, || Decision::Waits {
                                        job,
                                        why: Why::BehindFirst { first: e.idx },
                                    });
                                }
                            }
                            break;
                        }
                    }
                    _ => {}
                }
            }
        }
        self.dirty = false;

        if ranked {
            let mut free = self.profile.free_now();
            let mut i = 0;
            while i < self.ranked.len() && free > 0 {
                let pos = self.pos_of[self.ranked[i].1 as usize] as usize;
                let e = self.queue[pos];
                let why = (explaining && e.reserved.is_none()).then(|| self.why_candidate(sys, pos, &held));
                // A started candidate leaves the ranked list, so the same index is the next one.
                if e.reserved.is_none()
                    && e.procs <= free
                    && self.fits_beside(sys, &e, test_end, shadow)
                    && self.start_now(sys, pos, false)
                {
                    free -= e.procs;
                    if let Some(sh) = &mut shadow {
                        sh.took(now, e.procs, e.dur);
                    }
                    if let Some(why) = why {
                        explain(sys, EXPLAIN, || Decision::Started { job: e.idx, why });
                    }
                    continue;
                }
                if let Some(why) = why {
                    explain(sys, EXPLAIN, || Decision::Waits { job: e.idx, why });
                }
                i += 1;
            }
        }
        self.compact();
        (self.next_start, self.reservations, self.looked) = (next_wake, reserved, self.queue.len());
        (self.edits, self.machine_free, self.shadow) = (self.profile.edits(), sys.free(), shadow);
        if explaining {
            let reservations: Vec<(JobIdx, i64)> =
                self.queue[self.head..].iter().filter_map(|e| e.reserved.map(|s| (e.idx, s))).collect();
            if !reservations.is_empty() {
                explain(sys, EXPLAIN, || Decision::Plan { reservations });
            }
        }
        if next_wake < i64::MAX {
            sys.wake_at(next_wake);
        }
    }
}

impl Backfill {
    /// Logs a reservation (and, for EASY's single one, the shadow time and extra processors),
    /// remembering it for the candidates behind it.
    #[cold]
    #[inline(never)]
    fn explain_reservation(
        &self,
        sys: &mut System,
        pos: usize,
        start: i64,
        was: Option<i64>,
        ahead: usize,
        held: &mut Vec<(JobIdx, i64, i64, i64)>,
    ) {
        let e = &self.queue[pos];
        let job = e.idx;
        let procs = e.procs;
        if was != Some(start) {
            sys.explain(|| Decision::Reserved { job, start, was, procs });
        }
        if ahead == 0 && self.opts.k == Some(1) {
            let extra = self.profile.free_at(start);
            sys.explain(|| Decision::Shadow { job, shadow: start, extra });
        }
        held.push((job, start, procs, e.dur));
    }

    /// Why the backfill candidate at queue position `pos` can start now, or cannot, against
    /// this pass's reservations `held`; asked before it is started, only when explaining.
    #[cold]
    #[inline(never)]
    fn why_candidate(&self, sys: &System, pos: usize, held: &[(JobIdx, i64, i64, i64)]) -> Why {
        let e = &self.queue[pos];
        let now = sys.now();
        let free = self.profile.free_now();
        let dur = test_dur(e, self.opts.backfill_end);
        if e.procs > free {
            return Why::TooWide { procs: e.procs, free };
        }
        if self.fits_now(sys, e, self.opts.backfill_end) {
            return match held {
                [] => Why::First,
                [(_, shadow, ..)] if self.opts.k == Some(1) => {
                    let end = now + dur.max(1);
                    if end <= *shadow {
                        Why::BeforeShadow { end, shadow: *shadow }
                    } else {
                        Why::ExtraProcessors { end, extra: self.profile.free_at(*shadow) }
                    }
                }
                _ => Why::NoDelay { reservations: held.len() },
            };
        }
        // Started now, it would push a reservation back: the first that no longer fits where
        // it is, moved to its earliest slot in the profile with the candidate booked.
        let mut trial = self.profile.clone();
        trial.reserve(now, e.procs, dur);
        for &(job, start, procs, booked) in held {
            trial.release(start, procs, booked);
            if trial.fits(start, procs, booked) {
                trial.reserve(start, procs, booked);
                continue;
            }
            if let Some(later) = trial.earliest(procs, booked) {
                return Why::WouldDelay { job, by: later - start };
            }
        }
        Why::Other { text: "it would not have its processors for its whole planned runtime".to_string() }
    }
}

/// Hands `decision` to the log when the pass explains itself (`on`, a constant of the pass).
#[inline(always)]
fn explain(sys: &mut System, on: bool, decision: impl FnOnce() -> Decision) {
    if on {
        sys.explain(decision);
    }
}

/// The runtime a backfill candidate must fit with: its plan, or its kill time if longer.
fn test_dur(e: &Entry, end: BackfillEnd) -> i64 {
    match end {
        BackfillEnd::Prediction => e.dur,
        BackfillEnd::Estimate => e.dur.max(e.estimate),
    }
}
