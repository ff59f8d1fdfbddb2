//! The availability profile of several resources: how many CPUs, GPUs and MB of memory are
//! free at each future time, as running jobs end and reserved jobs start. The papers' profile
//! ([`crate::profile::Profile`]) counts processors alone; this one holds a reservation of each
//! resource a job needs, so a job waiting for GPUs keeps them while CPU-only jobs backfill.

/// An amount of each resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Amount {
    /// CPUs (the papers' processors).
    pub cpus: i64,
    /// GPUs.
    pub gpus: i64,
    /// Memory, MB.
    pub mem_mb: i64,
    /// Whole nodes no job holds any of (what an exclusive job takes).
    pub nodes: i64,
}

impl Amount {
    /// Whether `need` fits in this amount, resource by resource.
    pub fn covers(&self, need: &Amount) -> bool {
        need.cpus <= self.cpus && need.gpus <= self.gpus && need.mem_mb <= self.mem_mb && need.nodes <= self.nodes
    }

    /// This amount with `other` added.
    pub fn plus(&self, other: &Amount) -> Amount {
        Amount {
            cpus: self.cpus + other.cpus,
            gpus: self.gpus + other.gpus,
            mem_mb: self.mem_mb + other.mem_mb,
            nodes: self.nodes + other.nodes,
        }
    }

    /// This amount with `other` taken away.
    pub fn minus(&self, other: &Amount) -> Amount {
        Amount {
            cpus: self.cpus - other.cpus,
            gpus: self.gpus - other.gpus,
            mem_mb: self.mem_mb - other.mem_mb,
            nodes: self.nodes - other.nodes,
        }
    }

    /// The first resource of which `need` asks more than this amount holds, for people.
    pub fn short_of(&self, need: &Amount) -> Option<&'static str> {
        if need.gpus > self.gpus {
            Some("GPUs")
        } else if need.mem_mb > self.mem_mb {
            Some("memory")
        } else if need.cpus > self.cpus {
            Some("CPUs")
        } else if need.nodes > self.nodes {
            Some("whole nodes")
        } else {
            None
        }
    }
}

/// Free resources over time from `origin` on: a step function, each step `(from, free)`
/// lasting until the next one's `from` (the last lasts for ever).
#[derive(Debug, Clone)]
pub struct Plan {
    steps: Vec<(i64, Amount)>,
    /// The least of each resource over the first steps: `least[k]` of steps `0..=k`, for the
    /// `least.len()` first steps (a change to a step drops what is kept from it on).
    least: Vec<Amount>,
}

impl Plan {
    /// A plan in which `free` is free from `origin` on.
    pub fn new(origin: i64, free: Amount) -> Self {
        Plan { steps: vec![(origin, free)], least: Vec::new() }
    }

    /// Makes this the plan of `size` from `origin` on, less each `(end, amount)` of `ends` held
    /// until its end: running jobs, in one sort rather than a step insertion each. Ends at or
    /// before the origin hold nothing; `ends` is left sorted.
    pub fn reset(&mut self, origin: i64, size: Amount, ends: &mut [(i64, Amount)]) {
        ends.sort_unstable_by_key(|e| e.0);
        self.reset_sorted(origin, size, ends, &[]);
    }

    /// [`Plan::reset`] from two lists of ends each sorted by time, read together as one.
    pub fn reset_sorted(&mut self, origin: i64, size: Amount, a: &[(i64, Amount)], b: &[(i64, Amount)]) {
        let (a, b) = (&a[a.partition_point(|e| e.0 <= origin)..], &b[b.partition_point(|e| e.0 <= origin)..]);
        let mut free = a.iter().chain(b).fold(size, |f, e| f.minus(&e.1));
        self.steps.clear();
        self.least.clear();
        self.steps.push((origin, free));
        let (mut i, mut k) = (0, 0);
        while i < a.len() || k < b.len() {
            let (t, amount) = if k == b.len() || (i < a.len() && a[i].0 <= b[k].0) {
                i += 1;
                a[i - 1]
            } else {
                k += 1;
                b[k - 1]
            };
            free = free.plus(&amount);
            match self.steps.last_mut() {
                Some(last) if last.0 == t => last.1 = free,
                _ => self.steps.push((t, free)),
            }
        }
    }

    /// The index of the step holding time `t` (made if `t` starts none), for `t` at or after the origin.
    fn split(&mut self, t: i64) -> usize {
        let i = self.steps.partition_point(|s| s.0 <= t) - 1;
        if self.steps[i].0 == t {
            return i;
        }
        let free = self.steps[i].1;
        self.steps.insert(i + 1, (t, free));
        self.least.truncate(i + 1);
        i + 1
    }

    /// Takes `amount` from `start` until `end` (a running job's until its planned end, or a
    /// reservation); times before the origin count from it.
    pub fn take(&mut self, start: i64, end: i64, amount: &Amount) {
        let start = start.max(self.steps[0].0);
        if end <= start {
            return;
        }
        let a = self.split(start);
        let b = self.split(end);
        self.least.truncate(a);
        for s in &mut self.steps[a..b] {
            s.1 = s.1.minus(amount);
        }
    }

    /// The index of the step holding time `from` (the first for times before the origin).
    fn first_step(&self, from: i64) -> usize {
        // Most asks are from the plan's origin (now): no search for it.
        if self.steps.get(1).is_none_or(|s| from < s.0) {
            return 0;
        }
        self.steps.partition_point(|s| s.0 <= from) - 1
    }

    /// Free resources at time `t`.
    pub fn free_at(&self, t: i64) -> Amount {
        // Most asks are of the plan's first step (now): no search for it.
        if self.steps.get(1).is_none_or(|s| t < s.0) {
            return self.steps[0].1;
        }
        let i = self.steps.partition_point(|s| s.0 <= t).max(1) - 1;
        self.steps[i].1
    }

    /// The earliest time from `from` on at which `need` stays free for `dur` seconds, at most
    /// `latest` (none: no such time up to it). One pass over the steps: a step too short of
    /// some resource moves the candidate start past it.
    pub fn earliest(&self, from: i64, need: &Amount, dur: i64, latest: i64) -> Option<i64> {
        let first = self.first_step(from);
        let mut start: Option<i64> = None;
        for (k, &(t, free)) in self.steps.iter().enumerate().skip(first) {
            let t = t.max(from);
            if let Some(s) = start {
                if t >= s.saturating_add(dur) {
                    return Some(s);
                }
            }
            if free.covers(need) {
                if start.is_none() {
                    if t > latest {
                        return None;
                    }
                    start = Some(t);
                }
            } else {
                start = None;
            }
            if k + 1 == self.steps.len() {
                return start;
            }
        }
        start
    }

    /// Whether `need` stays free from `from` for `dur` seconds: what [`Plan::earliest`] with
    /// `latest` at `from` tells, from the least of each resource over the steps the run spans
    /// when `from` is in the first step (a cycle asks it of most jobs that fit now).
    pub fn stays_free(&mut self, from: i64, need: &Amount, dur: i64) -> bool {
        if from < self.steps[0].0 || self.first_step(from) != 0 {
            return self.earliest(from, need, dur, from).is_some();
        }
        let end = from.saturating_add(dur);
        let last = self.steps.partition_point(|s| s.0 < end).max(1) - 1;
        while self.least.len() <= last {
            let k = self.least.len();
            let free = self.steps[k].1;
            let least = match self.least.last() {
                Some(m) => Amount {
                    cpus: m.cpus.min(free.cpus),
                    gpus: m.gpus.min(free.gpus),
                    mem_mb: m.mem_mb.min(free.mem_mb),
                    nodes: m.nodes.min(free.nodes),
                },
                None => free,
            };
            self.least.push(least);
        }
        self.least[last].covers(need)
    }

    /// Whether `need` stays free from `from` for `dur` seconds while, besides, one more whole
    /// node is taken from each time of `more` (sorted) on.
    pub fn holds(&self, from: i64, need: &Amount, dur: i64, more: &[i64]) -> bool {
        let end = from.saturating_add(dur);
        let first = self.first_step(from);
        for (k, &(t, free)) in self.steps.iter().enumerate().skip(first) {
            if t >= end {
                break;
            }
            // The most taken in this step: every node taken from before it ends.
            let until = self.steps.get(k + 1).map_or(end, |s| s.0.min(end));
            let nodes = need.nodes + more.partition_point(|&m| m < until) as i64;
            if !free.covers(&Amount { nodes, ..*need }) {
                return false;
            }
        }
        true
    }

    /// How many steps the plan has (its cost).
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// Whether the plan is a single step.
    pub fn is_empty(&self) -> bool {
        self.steps.len() <= 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(cpus: i64, gpus: i64, mem_mb: i64) -> Amount {
        Amount { cpus, gpus, mem_mb, nodes: 0 }
    }

    #[test]
    fn a_reservation_holds_each_resource() {
        // 8 CPUs and 2 GPUs; a running job holds 2 CPUs and both GPUs until 100.
        let mut p = Plan::new(0, a(8, 2, 1000));
        p.take(0, 100, &a(2, 2, 0));
        // A 1-GPU job waits for the GPUs although 6 CPUs are free now.
        assert_eq!(p.earliest(0, &a(1, 1, 0), 50, i64::MAX), Some(100));
        // A CPU-only job fits now.
        assert_eq!(p.earliest(0, &a(6, 0, 0), 50, i64::MAX), Some(0));
        // Reserving the GPU job at 100 keeps a GPU from a second one until 150.
        p.take(100, 150, &a(1, 1, 0));
        p.take(100, 150, &a(0, 1, 0));
        assert_eq!(p.earliest(0, &a(1, 1, 0), 10, i64::MAX), Some(150));
        // Memory alone can block: 1000 MB, 600 taken until 40.
        let mut m = Plan::new(0, a(8, 0, 1000));
        m.take(0, 40, &a(1, 0, 600));
        assert_eq!(m.earliest(0, &a(1, 0, 500), 10, i64::MAX), Some(40));
        assert_eq!(m.earliest(0, &a(1, 0, 500), 10, 30), None);
        assert_eq!(m.free_at(39), a(7, 0, 400));
        assert_eq!(m.free_at(40), a(8, 0, 1000));
    }

    #[test]
    fn a_plan_made_from_ends_is_the_plan_of_its_takes() {
        let mut ends = vec![(50, a(2, 1, 10)), (20, a(1, 0, 5)), (50, a(1, 0, 0)), (5, a(3, 0, 0)), (90, a(2, 1, 0))];
        let mut by_takes = Plan::new(10, a(16, 4, 100));
        for (end, amount) in &ends {
            by_takes.take(10, *end, amount);
        }
        let mut made = Plan::new(0, Amount::default());
        made.reset(10, a(16, 4, 100), &mut ends);
        assert_eq!(made.steps, by_takes.steps);
        assert_eq!(made.steps, vec![(10, a(10, 2, 85)), (20, a(11, 2, 90)), (50, a(14, 3, 100)), (90, a(16, 4, 100))]);
        // Two sorted lists read together make the same plan as one.
        let (odd, even): (Vec<_>, Vec<_>) = ends.iter().enumerate().partition(|(k, _)| k % 2 == 1);
        let (odd, even): (Vec<_>, Vec<_>) = (odd.iter().map(|e| *e.1).collect(), even.iter().map(|e| *e.1).collect());
        let mut merged = Plan::new(0, Amount::default());
        merged.reset_sorted(10, a(16, 4, 100), &odd, &even);
        assert_eq!(merged.steps, made.steps);
    }

    #[test]
    fn a_run_holds_while_nodes_are_taken_from_later_times() {
        // Two whole nodes free until 100, one from then (an exclusive job reserved at 100).
        let mut p = Plan::new(0, Amount { nodes: 2, ..a(8, 0, 0) });
        p.take(100, 200, &Amount { nodes: 1, ..a(4, 0, 0) });
        let need = a(2, 0, 0);
        assert!(p.holds(0, &need, 150, &[]));
        // Keeping one node from being whole from 0 and another from 50: two taken at 100.
        assert!(!p.holds(0, &need, 150, &[0, 50]));
        // Only the first: one at 100, which the reservation leaves.
        assert!(p.holds(0, &need, 150, &[0]));
        // Both, but the run ends before the reservation begins.
        assert!(p.holds(0, &need, 100, &[0, 50]));
        // The CPUs themselves: 4 free from 100.
        assert!(!p.holds(0, &a(5, 0, 0), 150, &[]));
    }

    proptest::proptest! {
        /// The least of each resource kept over the first steps tells what a scan of the steps
        /// tells, as the plan changes between asks.
        #[test]
        fn staying_free_is_what_a_scan_finds(
            takes in proptest::collection::vec((0i64..60, 1i64..50, 0i64..4, 0i64..2, 0i64..30), 0..12),
            asks in proptest::collection::vec((0i64..20, 0i64..5, 0i64..3, 0i64..40, 0i64..80), 1..12),
        ) {
            let mut p = Plan::new(10, Amount { nodes: 3, ..a(8, 2, 100) });
            for (k, &(from, dur, cpus, gpus, mem)) in takes.iter().enumerate() {
                p.take(from, from + dur, &Amount { nodes: (k % 2) as i64, ..a(cpus, gpus, mem) });
                // Asks between the takes, so what is kept is dropped and made again.
                for &(at, cpus, gpus, mem, dur) in &asks {
                    let need = Amount { nodes: at % 2, ..a(cpus, gpus, mem) };
                    // From before the origin, in the first step, and past it.
                    let from = 9 + at % 4;
                    let scan = p.earliest(from, &need, dur, from).is_some();
                    proptest::prop_assert_eq!(p.stays_free(from, &need, dur), scan);
                }
            }
        }
    }

    #[test]
    fn the_window_must_hold_the_whole_run() {
        // Free until 50, then 4 CPUs taken from 50 to 80: a 60 s job of 6 CPUs starts at 80.
        let mut p = Plan::new(0, a(8, 0, 0));
        p.take(50, 80, &a(4, 0, 0));
        assert_eq!(p.earliest(0, &a(6, 0, 0), 60, i64::MAX), Some(80));
        assert_eq!(p.earliest(0, &a(6, 0, 0), 50, i64::MAX), Some(0));
        assert_eq!(p.earliest(0, &a(4, 0, 0), 60, i64::MAX), Some(0));
    }
}
