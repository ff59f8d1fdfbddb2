//! The backfilling family: FCFS, first/best/worst fit, EASY, EASY-SJBF, k reservations and
//! conservative backfilling, as one mechanism over the availability profile.
//!
//! Each pass walks the queue in order. The first `k` jobs that cannot start now hold a
//! reservation (their earliest start in the profile); every other job is a backfill
//! candidate and starts only if it fits in the profile now, which leaves every reservation
//! where it is. With k = 1 this is EASY, including its "extra processors" rule (a
//! candidate that outlives the shadow time must fit beside the reserved job); with k
//! unlimited it is conservative backfilling.
//!
//! Reservations persist from pass to pass. When a job ends earlier than planned, the
//! schedule is compressed: each reserved job, in queue order, gives up its slot and takes
//! the earliest one in the profile, which is never later (Kettimuthu section 2.1.1; pyss's
//! conservative scheduler).

use crate::engine::{JobIdx, JobView, Policy, System};
use crate::profile::Profile;

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
}

/// The two knobs of the family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BackfillOptions {
    /// Reservation depth: how many waiting jobs hold reservations (`None` = all: conservative).
    pub k: Option<usize>,
    /// Order of backfill candidates.
    pub order: Order,
}

/// One waiting job as the policy plans it.
#[derive(Debug, Clone, Copy)]
struct Entry {
    idx: JobIdx,
    procs: i64,
    dur: i64,
    reserved: Option<i64>,
    started: bool,
}

/// Profile-based backfilling with reservation depth `k` and a candidate order.
pub struct Backfill {
    opts: BackfillOptions,
    profile: Profile,
    queue: Vec<Entry>,
    /// Planned end of each running job, by job index (what the profile holds for it).
    planned_end: Vec<i64>,
    /// Planned runtime of each job, by index, for overdue extensions.
    planned_dur: Vec<i64>,
    /// A job ended before its planned end, or overran it: reservations must be recomputed.
    dirty: bool,
    candidates: Vec<usize>,
    /// Queue entries before `head` have all started (the queue is compacted lazily).
    head: usize,
    /// Started entries at or after `head`.
    holes: usize,
}

impl Backfill {
    /// A policy for a machine of `machine` processors and `jobs` jobs.
    pub fn new(opts: BackfillOptions, machine: u32, jobs: usize, origin: i64) -> Self {
        Backfill {
            opts,
            profile: Profile::new(machine, origin),
            queue: Vec::new(),
            planned_end: vec![0; jobs],
            planned_dur: vec![0; jobs],
            dirty: false,
            candidates: Vec::new(),
            head: 0,
            holes: 0,
        }
    }

    /// Drops started entries from the queue: cheaply from the front, wholesale when they pile up.
    fn compact(&mut self) {
        while self.head < self.queue.len() && self.queue[self.head].started {
            self.head += 1;
            self.holes -= 1;
        }
        let live = self.queue.len() - self.head;
        if self.head == self.queue.len() || self.head > live || self.holes > 64 + live / 4 {
            self.queue.drain(..self.head);
            self.queue.retain(|e| !e.started);
            self.head = 0;
            self.holes = 0;
        }
    }

    /// Starts a queued job now, booking it in the profile unless its reservation already is.
    fn start_now(&mut self, sys: &mut System, pos: usize, booked: bool) -> bool {
        let e = self.queue[pos];
        let now = sys.now();
        if !booked {
            self.profile.reserve(now, e.procs, e.dur);
        }
        if !sys.start(e.idx) {
            // A reservation keeps its booking (it is re-placed next pass); a fresh booking is undone.
            if !booked {
                self.profile.release(now, e.procs, e.dur);
            }
            return false;
        }
        self.planned_end[e.idx as usize] = now + e.dur.max(1);
        let q = &mut self.queue[pos];
        q.started = true;
        q.reserved = None;
        self.holes += 1;
        true
    }
}

impl Policy for Backfill {
    fn on_arrival(&mut self, job: JobView, _sys: &System) {
        let dur = job.sched_runtime.max(1);
        self.planned_dur[job.idx as usize] = dur;
        self.queue.push(Entry { idx: job.idx, procs: job.procs as i64, dur, reserved: None, started: false });
    }

    fn on_completion(&mut self, job: JobView, sys: &System) {
        let end = self.planned_end[job.idx as usize];
        if end > sys.now() {
            self.profile.release(sys.now(), job.procs as i64, end - sys.now());
            self.dirty = true;
        }
    }

    fn on_overdue(&mut self, job: JobView, sys: &mut System) {
        // The scheduler knows only that the job outlived its plan; it books it for its planned
        // runtime once more, replans everything around it, and checks again at the new end.
        let i = job.idx as usize;
        let now = sys.now();
        if self.planned_end[i] <= now {
            let ext = self.planned_dur[i];
            // Each extension doubles, so a job far past its estimate costs O(log) passes, not O(run/estimate).
            self.planned_dur[i] = ext.saturating_mul(2).min(crate::trace::MAX_TIME);
            self.profile.reserve(now, job.procs as i64, ext);
            self.planned_end[i] = now + ext;
            self.dirty = true;
            sys.watch(job.idx, now + ext);
        }
    }

    fn schedule(&mut self, sys: &mut System) {
        let now = sys.now();
        self.profile.advance(now);
        let k = self.opts.k.unwrap_or(usize::MAX);
        let order = self.opts.order;
        let mut reserved = 0usize;
        let mut next_wake = i64::MAX;
        self.candidates.clear();
        for pos in self.head..self.queue.len() {
            let e = self.queue[pos];
            if e.started {
                continue;
            }
            if order == Order::None && reserved > 0 {
                break;
            }
            if let Some(s) = e.reserved {
                let mut s = s;
                if self.dirty || s < now {
                    self.profile.release(s, e.procs, e.dur);
                    let Some(s2) = self.profile.earliest(e.procs, e.dur) else {
                        self.queue[pos].reserved = None;
                        continue;
                    };
                    s = s2;
                    self.profile.reserve(s, e.procs, e.dur);
                    self.queue[pos].reserved = Some(s);
                }
                if s == now && self.start_now(sys, pos, true) {
                    continue;
                }
                reserved += 1;
                next_wake = next_wake.min(s);
            } else if reserved < k {
                let Some(s) = self.profile.earliest(e.procs, e.dur) else { continue };
                if s == now && self.start_now(sys, pos, false) {
                    continue;
                }
                self.profile.reserve(s, e.procs, e.dur);
                self.queue[pos].reserved = Some(s);
                sys.note_reservation(e.idx, s);
                reserved += 1;
                next_wake = next_wake.min(s);
            } else {
                // Past the reservation depth every job is a candidate, and reserved jobs only
                // stand before this point, so the scan can stop once nothing more can start.
                if (order == Order::None && reserved > 0) || self.profile.free_now() <= 0 {
                    break;
                }
                match order {
                    Order::None | Order::Queue => {
                        let fits = e.procs <= self.profile.free_now() && self.profile.fits(now, e.procs, e.dur);
                        if !(fits && self.start_now(sys, pos, false)) && order == Order::None {
                            break;
                        }
                    }
                    _ => self.candidates.push(pos),
                }
            }
        }
        self.dirty = false;

        if !self.candidates.is_empty() {
            let mut cands = std::mem::take(&mut self.candidates);
            let q = &self.queue;
            match order {
                Order::Sjbf => cands.sort_by_key(|&p| (q[p].dur, p)),
                Order::BestFit => cands.sort_by_key(|&p| (-q[p].procs, p)),
                Order::WorstFit => cands.sort_by_key(|&p| (q[p].procs, p)),
                Order::None | Order::Queue => {}
            }
            let mut free = self.profile.free_now();
            for &pos in &cands {
                if free <= 0 {
                    break;
                }
                let e = self.queue[pos];
                if e.procs <= free && self.profile.fits(now, e.procs, e.dur) && self.start_now(sys, pos, false) {
                    free -= e.procs;
                }
            }
            self.candidates = cands;
        }
        self.compact();
        if next_wake < i64::MAX {
            sys.wake_at(next_wake);
        }
    }
}
