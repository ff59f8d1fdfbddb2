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
//! processors are taken ([`FstCost`] counts both; `schedlab bench` prints them). A burst of
//! submissions at one second, each behind the one before in fairshare order, while nothing
//! starts or stops between them, costs one placement each: every one goes on from the schedule
//! the one before it ended with.

use std::cmp::Ordering;
use std::collections::{BTreeSet, BinaryHeap};

use crate::engine::{JobIdx, JobView, Observed, Observer, PieceEnd, System};
use crate::policy::fairshare::{fairshare_cmp, fairshare_key, Decay, Usage};
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
    cost: FstCost,
    /// Storage reused by every computation: the jobs ahead, and the list schedule's heap.
    ahead: Vec<((i64, i64, JobIdx), i64)>,
    heap: BinaryHeap<Group>,
    /// Counts the changes to the running jobs (and so to the usage): a list schedule is gone
    /// on from only while it is the same.
    generation: u64,
    last: Option<LastSchedule>,
}

impl FairStartWatch {
    /// Watches a run on `trace`, ordering by usage that decays as `decay`, with jobs run in
    /// segments of at most `max_runtime` seconds (`None`: whole).
    pub fn new(trace: &Trace, decay: Decay, max_runtime: Option<i64>) -> Self {
        let n = trace.jobs.len();
        let usage = Usage::new(trace, decay);
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
            cost: FstCost::default(),
            ahead: Vec::new(),
            heap: BinaryHeap::new(),
            generation: 0,
            last: None,
        }
    }

    fn usage_of(&mut self, idx: JobIdx, now: i64) -> f64 {
        let u = self.usage.user_of(idx);
        self.usage.usage(u, now)
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
        // The last computation's schedule ends with the job it was for. If nothing has run or
        // stopped since, at the same second, and that job is ahead of this one with no job
        // between them, this job's schedule is that one with this job placed next.
        let last = self
            .last
            .filter(|l| l.now == now && l.generation == self.generation && fairshare_cmp(&l.key, &key).is_lt());
        let mut between = false;
        let mut ahead = std::mem::take(&mut self.ahead);
        ahead.clear();
        for k in 0..self.waiting.len() {
            let (j, arrival, e) = self.waiting[k];
            let other = (self.usage_of(j, now), arrival, j);
            if fairshare_cmp(&other, &key).is_lt() {
                ahead.push((fairshare_key(&other), e));
                between |= last.is_some_and(|l| fairshare_cmp(&l.key, &other).is_lt());
            }
        }
        self.cost.computed += 1;
        self.cost.scanned += self.waiting.len() as u64;
        // Going on, the schedule starts where the last one stopped; afresh, it starts now and
        // places the jobs ahead first.
        let going_on = if between { None } else { last };
        let fresh = going_on.is_none();
        let (start, avail, ends_taken) = match going_on {
            Some(l) => (l.start, l.avail, l.ends_taken),
            None => (now, (self.machine - self.busy).max(0), 0),
        };
        if fresh {
            self.heap.clear();
            self.cost.placed += ahead.len() as u64;
            // Unique integer keys: one order, compared without a comparison function.
            ahead.sort();
        } else {
            self.cost.continued += 1;
        }
        let ends = self.running.iter().skip(ends_taken).map(|&(t, j)| (t.max(now), self.procs[j as usize] as i64));
        let mut list =
            ListSchedule { heap: &mut self.heap, ends: ends.peekable(), start, avail, groups: 0, ends_taken };
        if fresh {
            for &((_, _, j), e) in &ahead {
                list.place(self.procs[j as usize] as i64, e);
            }
        }
        let fst = list.place(procs, est);
        self.cost.groups += list.groups;
        self.last = Some(LastSchedule {
            now,
            generation: self.generation,
            key,
            start: list.start,
            avail: list.avail,
            ends_taken: list.ends_taken,
        });
        self.ahead = ahead;
        fst
    }
}

/// Where the last fair start time's list schedule stopped, so that the next one at the same
/// second can go on from it.
#[derive(Debug, Clone, Copy)]
struct LastSchedule {
    now: i64,
    /// [`FairStartWatch::generation`] then.
    generation: u64,
    /// The fairshare key of the job it was for, the last one placed.
    key: (f64, i64, JobIdx),
    /// [`ListSchedule::start`] when it stopped.
    start: i64,
    /// [`ListSchedule::avail`] when it stopped.
    avail: i64,
    /// [`ListSchedule::ends_taken`] when it stopped.
    ends_taken: usize,
}

/// Processors that complete at the same time, ordered for a min-heap by that time alone:
/// which of two groups of equal time is taken first changes no start.
#[derive(Debug, Clone, Copy)]
struct Group {
    time: i64,
    count: i64,
}

impl PartialEq for Group {
    fn eq(&self, other: &Self) -> bool {
        self.time == other.time
    }
}

impl Eq for Group {}

impl PartialOrd for Group {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Group {
    fn cmp(&self, other: &Self) -> Ordering {
        other.time.cmp(&self.time)
    }
}

/// A list scheduler over per-processor completion times, kept as groups (time, processors):
/// the placed jobs' groups in a heap, the running jobs' ends from an ordered iterator.
///
/// Starts never decrease, so every processor that completes by the latest start is as good
/// as free from then on: those are kept as one count, `avail`, and a job that fits in them
/// starts without touching the heap.
struct ListSchedule<'h, I: Iterator<Item = (i64, i64)>> {
    heap: &'h mut BinaryHeap<Group>,
    ends: std::iter::Peekable<I>,
    /// The latest start so far (the origin before the first).
    start: i64,
    /// Processors free at `start` and not yet given to a job.
    avail: i64,
    groups: u64,
    /// Running jobs' ends taken so far.
    ends_taken: usize,
}

impl<'h, I: Iterator<Item = (i64, i64)>> ListSchedule<'h, I> {
    /// Places a job of `procs` processors for `dur` seconds on the processors that complete
    /// first; returns its start, the latest of their completion times.
    fn place(&mut self, procs: i64, dur: i64) -> i64 {
        while self.avail < procs {
            let from_heap = match (self.heap.peek(), self.ends.peek()) {
                (Some(h), Some(e)) => h.time <= e.0,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => break,
            };
            let group = if from_heap {
                self.heap.pop().map(|g| (g.time, g.count))
            } else {
                self.ends_taken += 1;
                self.ends.next()
            };
            let Some((t, count)) = group else { break };
            self.groups += 1;
            self.start = self.start.max(t);
            self.avail += count;
        }
        // A job wider than every processor there is takes them all.
        self.avail = (self.avail - procs).max(0);
        self.heap.push(Group { time: self.start + dur.max(1), count: procs });
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
        self.generation += 1;
        self.busy += self.procs[i] as i64;
        self.usage.start(idx, self.procs[i], now);
    }

    fn stop(&mut self, idx: JobIdx, now: i64) {
        let i = idx as usize;
        if self.running.remove(&(self.est_end[i], idx)) {
            self.generation += 1;
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
                // A killed speculative run waits again, still the same submission. The queue
                // changed without a submission: no list schedule goes on past it.
                self.stop(job, now);
                self.generation += 1;
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

    /// Feeds two watches the same submissions (in bursts at one second), starts and ends;
    /// the second forgets its last schedule before every submission, so it always starts afresh.
    fn both_ways(jobs: &[(i64, u32, i64, i32)], starts: &[usize]) -> (Vec<i64>, Vec<i64>) {
        let mut text = String::from("; MaxProcs: 8\n");
        let mut t = 0;
        for (i, &(gap, procs, est, user)) in jobs.iter().enumerate() {
            t += gap;
            text.push_str(&format!("{} {t} -1 {est} {procs} -1 -1 {procs} {est} -1 1 {user} 1 -1 1 -1 -1 -1\n", i + 1));
        }
        let trace = crate::trace::parse(text.as_bytes(), &crate::trace::TraceOptions::default()).expect("trace parses");
        let decay = Decay { factor: 0.5, period_s: 20 };
        let mut a = FairStartWatch::new(&trace, decay, None);
        let mut b = FairStartWatch::new(&trace, decay, None);
        let mut next = 0;
        let mut step = 0;
        while next < trace.jobs.len() {
            let now = trace.jobs[next].submit;
            for w in [&mut a, &mut b] {
                let done: Vec<JobIdx> = w.running.iter().filter(|&&(end, _)| end <= now).map(|&(_, j)| j).collect();
                for j in done {
                    w.stop(j, now);
                }
            }
            while next < trace.jobs.len() && trace.jobs[next].submit == now {
                let job = crate::engine::view(&trace.jobs, next as JobIdx);
                a.submit(&job, 0, 0, now);
                b.last = None;
                b.submit(&job, 0, 0, now);
                next += 1;
                // Sometimes a job starts between two submissions of the same second (passes=event),
                // or one stops there (a segment that reached its limit, then its next submission).
                match starts.get(step).map(|k| k % 3) {
                    Some(0) => {
                        for w in [&mut a, &mut b] {
                            if let Some(&(j, _, est)) = w.waiting.first() {
                                w.leave_queue(j);
                                w.run(j, now + est, now);
                            }
                        }
                    }
                    Some(1) => {
                        for w in [&mut a, &mut b] {
                            if let Some(&(_, j)) = w.running.iter().next() {
                                w.stop(j, now);
                            }
                        }
                    }
                    _ => {}
                }
                step += 1;
            }
            let k = starts.get(step).copied().unwrap_or(0) % 3;
            for w in [&mut a, &mut b] {
                for _ in 0..k.min(w.waiting.len()) {
                    let (j, _, est) = w.waiting[0];
                    w.leave_queue(j);
                    w.run(j, now + est, now);
                }
            }
        }
        let fst = |w: &FairStartWatch| w.entries.iter().map(|e| e.fst).collect();
        (fst(&a), fst(&b))
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
            let mut list = ListSchedule {
                heap: &mut heap,
                ends: ends.iter().copied().peekable(),
                start: now,
                avail: free,
                groups: 0,
                ends_taken: 0,
            };
            let got: Vec<i64> = jobs.iter().map(|&(procs, dur)| list.place(procs, dur)).collect();
            proptest::prop_assert_eq!(got, per_processor(now, free, &ends, &jobs));
        }

        #[test]
        fn going_on_from_the_last_schedule_changes_no_fair_start(
            jobs in proptest::collection::vec((0i64..3, 1u32..7, 1i64..40, 0i32..3), 1..40),
            starts in proptest::collection::vec(0usize..9, 0..40),
        ) {
            let (went_on, afresh) = both_ways(&jobs, &starts);
            proptest::prop_assert_eq!(went_on, afresh);
        }
    }
}
