//! The hybrid fair start time of Leung, Sabin & Sadayappan (2010, section IV), measured while
//! any policy runs.
//!
//! When a job (or a segment of one) is submitted, the machine's state is taken as it is: the
//! running jobs, each freeing its processors at its start plus its estimate, and the waiting
//! jobs. The waiting jobs and the new one are then list-scheduled in fairshare order (ascending
//! decayed usage, ties by arrival) with no later arrivals: a list scheduler keeps one completion
//! time per processor, starts each job when the processors it needs have all completed (the
//! earliest ones), and sets their completion to its end. Holes are never filled, so the starts
//! come out in order. The new job's start in that schedule is its fair start time (FST); a job
//! that starts later missed it by the difference.
//!
//! Only the jobs ahead of the new one in fairshare order matter, and the per-processor
//! completion times are kept as groups of equal time in a heap merged with the running jobs'
//! ends in order, so one FST costs O(q log q) for q jobs ahead, plus the running jobs whose
//! processors are taken ([`FstCost`] counts both; `schedlab bench` prints them).

use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap};

use crate::engine::{JobIdx, JobView, Observed, Observer, PieceEnd, System};
use crate::policy::fairshare::{fairshare_cmp, Decay, Usage};
use crate::trace::Trace;

pub use crate::engine::observe::{FairStart, FstCost};

/// Computes every submission's fair start time as a policy runs: an [`Observer`].
pub struct FairStartWatch {
    usage: Usage,
    max_runtime: i64,
    machine: i64,
    /// Running jobs by (estimated end, index).
    running: BTreeSet<(i64, JobIdx)>,
    est_end: Vec<i64>,
    procs: Vec<u32>,
    busy: i64,
    /// Waiting jobs: (index, submission of the current segment, its estimate).
    waiting: Vec<(JobIdx, i64, i64)>,
    slot: Vec<u32>,
    entries: Vec<FairStart>,
    /// Per job: its current submission's entry.
    open: Vec<u32>,
    /// Per user: the time `cached` was computed at.
    cache_t: Vec<i64>,
    cached: Vec<f64>,
    cost: FstCost,
    /// Storage reused by every computation: the jobs ahead, and the list schedule's heap.
    ahead: Vec<((f64, i64, JobIdx), i64)>,
    heap: BinaryHeap<Reverse<(i64, i64)>>,
}

impl FairStartWatch {
    /// Watches a run on `trace`, ordering by usage that decays as `decay`, with jobs run in
    /// segments of at most `max_runtime` seconds (`None`: whole).
    pub fn new(trace: &Trace, decay: Decay, max_runtime: Option<i64>) -> Self {
        let n = trace.jobs.len();
        let usage = Usage::new(trace, decay);
        let users = usage.users();
        FairStartWatch {
            usage,
            max_runtime: max_runtime.unwrap_or(i64::MAX),
            machine: trace.machine as i64,
            running: BTreeSet::new(),
            est_end: vec![0; n],
            procs: trace.jobs.iter().map(|j| j.procs).collect(),
            busy: 0,
            waiting: Vec::new(),
            slot: vec![u32::MAX; n],
            entries: Vec::new(),
            open: vec![u32::MAX; n],
            cache_t: vec![i64::MIN; users],
            cached: vec![0.0; users],
            cost: FstCost::default(),
            ahead: Vec::new(),
            heap: BinaryHeap::new(),
        }
    }

    fn usage_of(&mut self, idx: JobIdx, now: i64) -> f64 {
        let u = self.usage.user_of(idx);
        if self.cache_t[u] != now {
            self.cache_t[u] = now;
            self.cached[u] = self.usage.usage(u, now);
        }
        self.cached[u]
    }

    /// A submission of job `job` with `done` seconds of its work behind it, now.
    fn submit(&mut self, job: &JobView, done: i64, segment: u32, now: i64) {
        let est = (job.estimate - done).clamp(1, self.max_runtime);
        let fst = self.fair_start(job.idx, job.procs as i64, est, now);
        self.open[job.idx as usize] = self.entries.len() as u32;
        self.entries.push(FairStart { job: job.idx, segment, submit: now, fst, start: -1 });
        self.slot[job.idx as usize] = self.waiting.len() as u32;
        self.waiting.push((job.idx, now, est));
    }

    /// The list-scheduled start of a job of `procs` processors and estimate `est` submitted now,
    /// behind the waiting jobs with a lower fairshare key.
    fn fair_start(&mut self, idx: JobIdx, procs: i64, est: i64, now: i64) -> i64 {
        let key = (self.usage_of(idx, now), now, idx);
        let mut ahead = std::mem::take(&mut self.ahead);
        ahead.clear();
        for k in 0..self.waiting.len() {
            let (j, arrival, e) = self.waiting[k];
            let other = (self.usage_of(j, now), arrival, j);
            if fairshare_cmp(&other, &key).is_lt() {
                ahead.push((other, e));
            }
        }
        self.cost.computed += 1;
        self.cost.scanned += self.waiting.len() as u64;
        self.cost.placed += ahead.len() as u64;
        ahead.sort_by(|a, b| fairshare_cmp(&a.0, &b.0));
        let free = self.machine - self.busy;
        let ends = self.running.iter().map(|&(t, j)| (t.max(now), self.procs[j as usize] as i64));
        let mut list = ListSchedule::new(&mut self.heap, now, free, ends);
        for &((_, _, j), e) in &ahead {
            list.place(self.procs[j as usize] as i64, e);
        }
        let fst = list.place(procs, est);
        self.cost.groups += list.groups;
        self.ahead = ahead;
        fst
    }
}

/// A list scheduler over per-processor completion times, kept as groups (time, processors):
/// the placed jobs' groups in a heap, the running jobs' ends from an ordered iterator.
///
/// Starts never decrease, so every processor that completes by the latest start is as good
/// as free from then on: those are kept as one count, `avail`, and a job that fits in them
/// starts without touching the heap.
struct ListSchedule<'h, I: Iterator<Item = (i64, i64)>> {
    heap: &'h mut BinaryHeap<Reverse<(i64, i64)>>,
    ends: std::iter::Peekable<I>,
    /// The latest start so far (the origin before the first).
    start: i64,
    /// Processors free at `start` and not yet given to a job.
    avail: i64,
    groups: u64,
}

impl<'h, I: Iterator<Item = (i64, i64)>> ListSchedule<'h, I> {
    /// A schedule from `now` with `free` processors free, the running jobs ending as `ends`
    /// (ascending), kept in `heap` (emptied first: its storage is reused from call to call).
    fn new(heap: &'h mut BinaryHeap<Reverse<(i64, i64)>>, now: i64, free: i64, ends: I) -> Self {
        heap.clear();
        ListSchedule { heap, ends: ends.peekable(), start: now, avail: free.max(0), groups: 0 }
    }

    /// Places a job of `procs` processors for `dur` seconds on the processors that complete
    /// first; returns its start, the latest of their completion times.
    fn place(&mut self, procs: i64, dur: i64) -> i64 {
        while self.avail < procs {
            let from_heap = match (self.heap.peek(), self.ends.peek()) {
                (Some(Reverse(h)), Some(e)) => h.0 <= e.0,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => break,
            };
            let group = if from_heap { self.heap.pop().map(|Reverse(g)| g) } else { self.ends.next() };
            let Some((t, count)) = group else { break };
            self.groups += 1;
            self.start = self.start.max(t);
            self.avail += count;
        }
        // A job wider than every processor there is takes them all.
        self.avail = (self.avail - procs).max(0);
        self.heap.push(Reverse((self.start + dur.max(1), procs)));
        self.start
    }
}

impl FairStartWatch {
    fn leave_queue(&mut self, idx: JobIdx) {
        let k = self.slot[idx as usize];
        if k == u32::MAX {
            return;
        }
        self.slot[idx as usize] = u32::MAX;
        self.waiting.swap_remove(k as usize);
        if let Some(&(moved, _, _)) = self.waiting.get(k as usize) {
            self.slot[moved as usize] = k;
        }
    }

    fn run(&mut self, idx: JobIdx, end: i64, now: i64) {
        let i = idx as usize;
        self.est_end[i] = end;
        self.running.insert((end, idx));
        self.busy += self.procs[i] as i64;
        self.usage.start(idx, self.procs[i], now);
    }

    fn stop(&mut self, idx: JobIdx, now: i64) {
        let i = idx as usize;
        if self.running.remove(&(self.est_end[i], idx)) {
            self.busy -= self.procs[i] as i64;
            self.usage.stop(idx, self.procs[i], now);
        }
    }
}

impl Observer for FairStartWatch {
    fn arrived(&mut self, sys: &System, job: JobIdx) {
        self.submit(&sys.view(job), 0, 0, sys.now());
    }

    fn completed(&mut self, sys: &System, job: JobIdx) {
        self.stop(job, sys.now());
    }

    fn ended(&mut self, sys: &System, job: JobIdx, how: PieceEnd) {
        let now = sys.now();
        match how {
            PieceEnd::Killed => {
                // A killed speculative run waits again, still the same submission.
                self.stop(job, now);
                let est = sys.view(job).estimate.clamp(1, self.max_runtime);
                self.slot[job as usize] = self.waiting.len() as u32;
                self.waiting.push((job, now, est));
            }
            PieceEnd::Checkpointed => {
                self.stop(job, now);
                let segment = self.entries[self.open[job as usize] as usize].segment + 1;
                self.submit(&sys.view(job), sys.done(job), segment, now);
            }
            _ => {}
        }
    }

    fn passed(&mut self, sys: &System) {
        let now = sys.now();
        for &idx in sys.started_now() {
            let est = match self.slot[idx as usize] {
                u32::MAX => 1,
                s => self.waiting[s as usize].2,
            };
            self.leave_queue(idx);
            self.run(idx, now + est, now);
            let e = &mut self.entries[self.open[idx as usize] as usize];
            if e.start < 0 {
                e.start = now;
            }
        }
        for &idx in sys.suspended_now() {
            self.stop(idx, now);
        }
        for &idx in sys.resumed_now() {
            let left = (sys.view(idx).estimate - sys.done(idx)).max(1);
            self.run(idx, now + left, now);
        }
    }

    fn finish(self: Box<Self>, _sys: &System, out: &mut Observed) {
        out.fair_starts = Some(self.entries);
        out.fst_cost = self.cost;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The list scheduler as the paper states it: one completion time per processor; a job
    /// starts when the `procs` earliest have completed (a job wider than them all takes them all).
    fn per_processor(now: i64, free: i64, ends: &[(i64, i64)], jobs: &[(i64, i64)]) -> Vec<i64> {
        let mut done: Vec<i64> = vec![now; free.max(0) as usize];
        for &(t, procs) in ends {
            done.extend(std::iter::repeat_n(t, procs as usize));
        }
        jobs.iter()
            .map(|&(procs, dur)| {
                done.sort_unstable();
                let take = (procs as usize).min(done.len());
                let start = done[..take].iter().copied().max().unwrap_or(now);
                done.drain(..take);
                done.extend(std::iter::repeat_n(start + dur.max(1), procs as usize));
                start
            })
            .collect()
    }

    proptest::proptest! {
        #[test]
        fn groups_schedule_as_single_processors_do(
            free in 0i64..6,
            ends in proptest::collection::vec((0i64..50, 1i64..5), 0..6),
            jobs in proptest::collection::vec((1i64..12, 0i64..40), 1..12),
        ) {
            let mut ends = ends;
            ends.sort_unstable();
            let now = 0;
            let mut heap = BinaryHeap::new();
            let mut list = ListSchedule::new(&mut heap, now, free, ends.iter().copied());
            let got: Vec<i64> = jobs.iter().map(|&(procs, dur)| list.place(procs, dur)).collect();
            proptest::prop_assert_eq!(got, per_processor(now, free, &ends, &jobs));
        }
    }
}
