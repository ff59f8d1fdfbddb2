//! The machine: which processors are free and which job holds which processors.
//!
//! Processor identities matter to policies that suspend jobs (a job resumes on the very
//! processors it had) and to the Gantt chart's placements; other runs only look at
//! [`Machine::free`], so a [`Machine::counting`] machine keeps nothing but counts: on a machine
//! of 93,312 processors a wide job's identities would cost more than its scheduling.

use std::cell::RefCell;

/// Marks a processor no job holds in [`Machine::owner`].
const NOBODY: u32 = u32::MAX;

/// The jobs running on a suspended job's processors, by job index, with how many each holds.
type Holders = Vec<(u32, u32)>;

/// Processor identities of one machine.
#[derive(Debug, Clone, Default)]
pub struct Machine {
    size: u32,
    /// Whether processors have identities; without them only `count` is kept.
    identities: bool,
    /// Counting machines only: the processors each job holds, by job index.
    count: Vec<u32>,
    /// Free processors no suspended job resumes on, as a stack: the most recently freed on top.
    /// Each entry is `(id, stamp)`; it is void once the processor is taken by
    /// [`Machine::unpark`] (which names its processors) or freed again (a new stamp), and is
    /// dropped when met, so taking named processors costs their number, not the free list's.
    plain: Vec<(u32, u32)>,
    /// Free processors some suspended job resumes on, the same way (taken only when the plain
    /// ones are not enough).
    kept: Vec<(u32, u32)>,
    /// Processors free now.
    free: u32,
    /// Void entries left in the two stacks.
    void: usize,
    /// For each processor, how many times it has been freed: the stamp of its live entry.
    stamp: Vec<u32>,
    /// For each job index, the processors it holds while it runs, and keeps as its own while
    /// it is suspended ([`Machine::park`]).
    held: Vec<Vec<u32>>,
    /// For each processor, the job running on it, or [`NOBODY`].
    owner: Vec<u32>,
    /// For each processor, when it is next usable: a suspended job's memory is still being
    /// written out until then (the suspension overhead).
    ready: Vec<i64>,
    /// For each processor, how many suspended jobs resume on it.
    claims: Vec<u32>,
    /// For each suspended job, where in its processors the last one found taken is: a
    /// preemptive policy asks at every pass whether it can resume, and the answer is mostly
    /// that this one is still taken. Indexed by job from the first suspension on.
    witness: Vec<std::cell::Cell<u32>>,
    /// For each processor, the suspended jobs that resume on it and keep a count of its
    /// holders in `homes`: only they are told when it changes hands.
    listeners: RefCell<Vec<Vec<u32>>>,
    /// Scratch for [`Machine::hand`]: the claimants met with their processor counts, and each
    /// claimant's place in that list.
    batch: (Vec<(u32, u32)>, Vec<u32>),
    /// For each suspended job whose holders have been asked for ([`Machine::all_holders`]),
    /// the jobs running on its processors (by job index) with how many each holds, kept up to date from then
    /// on; `None` for the others, which then cost nothing when a processor changes hands.
    homes: RefCell<Vec<Option<Holders>>>,
    /// For each job, the listening suspended jobs that have counted it among their holders (an
    /// entry may be stale: one whose count was dropped since): when the job gives its
    /// processors up, only they are told, whatever the number of processors.
    holding: RefCell<Vec<Vec<u32>>>,
    /// For each job, a number that changes whenever the holders of its processors may have
    /// (see [`Machine::home_version`]).
    home_version: Vec<u64>,
    /// (suspended job, holder) for every holder that left a suspended job's processors since
    /// [`Machine::take_departures`] last emptied it.
    departures: RefCell<Vec<(u32, u32)>>,
    /// Scratch for listing holders: the listing in which each job index was last seen.
    seen: RefCell<(Vec<u32>, u32)>,
}

impl Machine {
    /// An idle machine of `size` processors serving `jobs` job indices.
    pub fn new(size: u32, jobs: usize) -> Self {
        Machine {
            size,
            identities: true,
            plain: (0..size).rev().map(|id| (id, 0)).collect(),
            free: size,
            stamp: vec![0; size as usize],
            held: vec![Vec::new(); jobs],
            owner: vec![NOBODY; size as usize],
            ready: vec![i64::MIN; size as usize],
            claims: vec![0; size as usize],
            ..Default::default()
        }
    }

    /// An idle machine of `size` processors that counts them only: jobs cannot be suspended
    /// ([`Machine::park`]) and [`Machine::held`] is always empty.
    pub fn counting(size: u32, jobs: usize) -> Self {
        Machine { size, count: vec![0; jobs], free: size, ..Default::default() }
    }

    /// Whether processors have identities (so jobs can be suspended on them).
    pub fn has_identities(&self) -> bool {
        self.identities
    }

    /// Total processors.
    pub fn size(&self) -> u32 {
        self.size
    }

    /// Processors free now.
    pub fn free(&self) -> u32 {
        self.free
    }

    /// Processors busy now.
    pub fn busy(&self) -> u32 {
        self.size - self.free()
    }

    /// Whether a stack entry still stands for a free processor.
    fn live(&self, (id, stamp): (u32, u32)) -> bool {
        self.owner[id as usize] == NOBODY && self.stamp[id as usize] == stamp
    }

    /// Pops up to `n` free processors from the top of `plain` (or `kept`) into `ids`.
    fn pop_into(&mut self, kept: bool, n: usize, ids: &mut Vec<u32>) {
        while ids.len() < n {
            let top = if kept { self.kept.pop() } else { self.plain.pop() };
            let Some(e) = top else { break };
            if self.live(e) {
                ids.push(e.0);
            } else {
                self.void -= 1;
            }
        }
    }

    /// Gives `procs` free processors to job `job`; false (and no change) if too few are free.
    ///
    /// The most recently freed processors go first, except that processors a suspended job
    /// resumes on go last: taking them would keep that job out, so they are used only when the
    /// others are not enough (and then the most recently freed first: those of the jobs a
    /// suspending job has just suspended).
    pub fn allocate(&mut self, job: u32, procs: u32) -> bool {
        let n = procs as usize;
        if !self.identities {
            let held = &mut self.count[job as usize];
            if procs > self.free || *held != 0 {
                return false;
            }
            *held = procs;
            self.free -= procs;
            return true;
        }
        if procs > self.free || !self.held[job as usize].is_empty() {
            return false;
        }
        let mut ids = Vec::with_capacity(n);
        self.pop_into(false, n, &mut ids);
        let plain = ids.len();
        self.pop_into(true, n, &mut ids);
        // The plain processors have no claimants to tell.
        for &id in &ids[..plain] {
            self.owner[id as usize] = job;
        }
        self.hand(&ids[plain..], NOBODY, job);
        self.free -= procs;
        self.held[job as usize] = ids;
        true
    }

    /// Gives job `job` exactly the processors `ids`; false (and no change) if any of them is
    /// taken or the job already holds processors.
    pub fn allocate_exact(&mut self, job: u32, ids: &[u32]) -> bool {
        if !self.held[job as usize].is_empty() || !self.take(job, ids) {
            return false;
        }
        self.held[job as usize] = ids.to_vec();
        true
    }

    /// Marks `ids` as job `job`'s if all are free; their stack entries become void.
    fn take(&mut self, job: u32, ids: &[u32]) -> bool {
        if !ids.iter().all(|&id| self.owner.get(id as usize) == Some(&NOBODY)) {
            return false;
        }
        self.hand(ids, NOBODY, job);
        self.free -= ids.len() as u32;
        self.void += ids.len();
        if self.void > 16 && self.void > self.free as usize {
            // Mostly void: rebuild both stacks from their live entries, in the same order.
            let (mut plain, mut kept) = (std::mem::take(&mut self.plain), std::mem::take(&mut self.kept));
            plain.retain(|&e| self.live(e));
            kept.retain(|&e| self.live(e));
            (self.plain, self.kept, self.void) = (plain, kept, 0);
        }
        true
    }

    /// Frees the processors of job `job` and returns their ids (none on a counting machine).
    pub fn release(&mut self, job: u32) -> Vec<u32> {
        if !self.identities {
            self.free += std::mem::take(&mut self.count[job as usize]);
            return Vec::new();
        }
        let ids = std::mem::take(&mut self.held[job as usize]);
        self.give_back(&ids);
        ids
    }

    fn give_back(&mut self, ids: &[u32]) {
        if let Some(&first) = ids.first() {
            self.hand(ids, self.owner[first as usize], NOBODY);
        }
        // The first of `ids` ends on top, as if each were freed in turn from the last.
        for &id in ids.iter().rev() {
            let i = id as usize;
            self.stamp[i] = self.stamp[i].wrapping_add(1);
            let e = (id, self.stamp[i]);
            if self.claims[i] != 0 {
                self.kept.push(e);
            } else {
                self.plain.push(e);
            }
        }
        self.free += ids.len() as u32;
    }

    /// Suspends job `job`: its processors become free but stay its own, to resume on
    /// ([`Machine::unpark`]); they are usable by others from `ready` on.
    pub fn park(&mut self, job: u32, ready: i64) {
        let ids = std::mem::take(&mut self.held[job as usize]);
        // What a policy learnt of its holders before belongs to an earlier suspension.
        if let Some(v) = self.home_version.get_mut(job as usize) {
            *v += 1;
        }
        if self.witness.is_empty() {
            self.witness.resize(self.held.len(), Default::default());
            self.batch.1.resize(self.held.len(), 0);
            self.homes.get_mut().resize(self.held.len(), None);
            self.holding.get_mut().resize(self.held.len(), Vec::new());
            self.home_version.resize(self.held.len(), 0);
            self.listeners.get_mut().resize(self.size as usize, Vec::new());
        }
        for &id in &ids {
            self.ready[id as usize] = ready;
            self.claims[id as usize] += 1;
        }
        self.give_back(&ids);
        self.held[job as usize] = ids;
    }

    /// Resumes the suspended job `job` on exactly its own processors; false (and no change)
    /// if any of them is taken.
    pub fn unpark(&mut self, job: u32) -> bool {
        let ids = std::mem::take(&mut self.held[job as usize]);
        let ok = ids.iter().all(|&id| self.owner[id as usize] == NOBODY);
        if ok {
            let listening = self.homes.get_mut()[job as usize].take().is_some();
            self.home_version[job as usize] += 1;
            let listeners = self.listeners.get_mut();
            for &id in &ids {
                self.claims[id as usize] -= 1;
                if listening {
                    listeners[id as usize].retain(|&c| c != job);
                }
            }
            self.take(job, &ids);
        }
        self.held[job as usize] = ids;
        ok
    }

    /// Processors `ids` pass from `from` to `to`, one of which is [`NOBODY`]. A job gives up
    /// all it holds at once (its processors come and go together), so when `from` leaves, the
    /// suspended jobs that counted it lose it whole: told through [`Machine::holding`], at a
    /// cost of their number. When `to` arrives, the suspended jobs that listen on its
    /// processors count it, once per job however many of their processors it takes.
    fn hand(&mut self, ids: &[u32], from: u32, to: u32) {
        if from != NOBODY {
            for &id in ids {
                self.owner[id as usize] = to;
            }
            let Some(told) = self.holding.get_mut().get_mut(from as usize).map(std::mem::take) else { return };
            let homes = self.homes.get_mut();
            for c in told {
                let Some(home) = &mut homes[c as usize] else { continue };
                if let Ok(k) = home.binary_search_by_key(&from, |h| h.0) {
                    home.remove(k);
                    // A holder left: the job may now resume, or suspend the rest.
                    self.home_version[c as usize] += 1;
                    self.departures.get_mut().push((c, from));
                }
            }
            return;
        }
        let (batch, slot) = &mut self.batch;
        batch.clear();
        let listeners = self.listeners.get_mut();
        for &id in ids {
            self.owner[id as usize] = to;
            let Some(told) = listeners.get(id as usize) else { continue };
            for &c in told {
                // A sparse set: `slot` needs no clearing, an entry counts only if it points back.
                let k = slot[c as usize] as usize;
                if k < batch.len() && batch[k].0 == c {
                    batch[k].1 += 1;
                } else {
                    slot[c as usize] = batch.len() as u32;
                    batch.push((c, 1));
                }
            }
        }
        let homes = self.homes.get_mut();
        let holding = self.holding.get_mut();
        for &(c, n) in batch.iter() {
            let Some(home) = &mut homes[c as usize] else { continue };
            if to != NOBODY {
                match home.binary_search_by_key(&to, |h| h.0) {
                    Ok(k) => home[k].1 += n,
                    Err(k) => {
                        home.insert(k, (to, n));
                        self.home_version[c as usize] += 1;
                        holding[to as usize].push(c);
                    }
                }
            }
        }
    }

    /// Whether `keep` accepts every job running on the processors of suspended job `job`,
    /// asked in no particular order, and there is at least one. The first call of a
    /// suspension lists them (its width); later calls cost their number.
    pub fn all_holders(&self, job: u32, keep: &mut dyn FnMut(u32) -> bool) -> bool {
        if self.home_free(job) {
            return false;
        }
        if self.homes.borrow()[job as usize].is_none() {
            let mut counted: Vec<(u32, u32)> = Vec::new();
            for &p in &self.held[job as usize] {
                let o = self.owner[p as usize];
                if o == NOBODY {
                    continue;
                }
                match counted.binary_search_by_key(&o, |h| h.0) {
                    Ok(k) => counted[k].1 += 1,
                    Err(k) => counted.insert(k, (o, 1)),
                }
            }
            let mut holding = self.holding.borrow_mut();
            for &(o, _) in &counted {
                holding[o as usize].push(job);
            }
            self.homes.borrow_mut()[job as usize] = Some(counted);
            let mut listeners = self.listeners.borrow_mut();
            for &p in &self.held[job as usize] {
                listeners[p as usize].push(job);
            }
        }
        let homes = self.homes.borrow();
        homes[job as usize].as_deref().unwrap_or(&[]).iter().all(|&(o, _)| keep(o))
    }

    /// A number that stays the same while the set of jobs holding suspended job `job`'s
    /// processors stays the same, from a call of [`Machine::all_holders`] on: a policy may keep
    /// what it concluded from them until it changes.
    pub fn home_version(&self, job: u32) -> u64 {
        self.home_version.get(job as usize).copied().unwrap_or(0)
    }

    /// Moves into `out`, as (suspended job, holder), every holder that left the processors of a
    /// suspended job since the last call, among the jobs that have been asked about
    /// ([`Machine::all_holders`]). Only a holder leaving can let a job resume or lift what kept
    /// it from suspending them, so a policy that turned a job down for one holder can look
    /// again when that one leaves. (A holder joining changes [`Machine::home_version`] only.)
    pub fn take_departures(&self, out: &mut Vec<(u32, u32)>) {
        out.clear();
        out.append(&mut self.departures.borrow_mut());
    }

    /// The jobs running on the processors of suspended job `job` with how many each holds, if
    /// [`Machine::all_holders`] has been asked since it was suspended (for tests).
    pub fn home_holders(&self, job: u32) -> Option<Vec<(u32, u32)>> {
        self.homes.borrow().get(job as usize).cloned().flatten()
    }

    /// The distinct jobs running on the processors of job `job` (suspended or not), in the
    /// order of its processors, into `out`: empty when it can resume. Costs its width.
    pub fn holders(&self, job: u32, out: &mut Vec<u32>) {
        out.clear();
        let mut seen = self.seen.borrow_mut();
        let (marks, listing) = &mut *seen;
        if marks.len() < self.held.len() {
            marks.resize(self.held.len(), 0);
        }
        *listing = listing.wrapping_add(1);
        if *listing == 0 {
            marks.fill(0);
            *listing = 1;
        }
        for &p in &self.held[job as usize] {
            let o = self.owner[p as usize];
            if o != NOBODY && marks[o as usize] != *listing {
                marks[o as usize] = *listing;
                out.push(o);
            }
        }
    }

    /// Whether every processor of suspended job `job` is free.
    pub fn home_free(&self, job: u32) -> bool {
        let (held, Some(witness)) = (self.held(job), self.witness.get(job as usize)) else { return true };
        let w = witness.get() as usize;
        // From the last one found taken on, round to it.
        let taken = (w..held.len()).chain(0..w.min(held.len())).find(|&k| self.owner[held[k] as usize] != NOBODY);
        if let Some(k) = taken {
            witness.set(k as u32);
        }
        taken.is_none()
    }

    /// The processors job `job` holds now (or, while it is suspended, the ones it resumes on).
    pub fn held(&self, job: u32) -> &[u32] {
        self.held.get(job as usize).map_or(&[], |h| h)
    }

    /// The job running on processor `id`, if any.
    pub fn owner(&self, id: u32) -> Option<u32> {
        self.owner.get(id as usize).copied().filter(|&o| o != NOBODY)
    }

    /// When all of job `job`'s processors are usable (the latest suspension write-out on them).
    pub fn ready(&self, job: u32) -> i64 {
        self.held(job).iter().map(|&id| self.ready[id as usize]).max().unwrap_or(i64::MIN)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocation_tracks_identities() {
        let mut m = Machine::new(4, 3);
        assert!(m.allocate(0, 2));
        assert_eq!(m.held(0), &[0, 1]);
        assert!(m.allocate(1, 2));
        assert_eq!(m.held(1), &[2, 3]);
        assert!(!m.allocate(2, 1));
        let ids = m.release(0);
        assert!(m.allocate_exact(2, &ids));
        assert_eq!(m.held(2), &[0, 1]);
        assert_eq!(m.free(), 0);
        assert_eq!(m.owner(3), Some(1));
    }

    #[test]
    fn a_parked_job_resumes_on_its_own_processors_only() {
        let mut m = Machine::new(4, 3);
        assert!(m.allocate(0, 2));
        assert!(m.allocate(1, 2));
        m.park(1, 50);
        assert_eq!((m.free(), m.held(1), m.owner(2)), (2, &[2u32, 3][..], None));
        assert_eq!(m.ready(1), 50);
        // Another job takes one of its processors: it cannot resume until that one is free.
        assert!(m.allocate(2, 1));
        assert_eq!(m.held(2), &[2]);
        assert!(!m.unpark(1));
        assert_eq!(m.held(1), &[2, 3]);
        m.release(2);
        assert!(m.unpark(1));
        assert_eq!((m.free(), m.owner(2), m.owner(3)), (0, Some(1), Some(1)));
        assert!(!m.allocate(1, 1), "a job holding processors gets no more");
    }

    #[test]
    fn a_counting_machine_counts_what_the_full_one_does() {
        let (mut full, mut counting) = (Machine::new(6, 4), Machine::counting(6, 4));
        for m in [&mut full, &mut counting] {
            assert!(m.allocate(0, 4));
            assert!(!m.allocate(0, 1), "a job holds processors once");
            assert!(!m.allocate(1, 3), "only 2 are free");
            assert!(m.allocate(1, 2));
            assert_eq!((m.free(), m.busy()), (0, 6));
            m.release(0);
            assert_eq!(m.free(), 4);
            assert!(m.allocate(2, 3));
            m.release(1);
            m.release(2);
            assert_eq!(m.free(), 6);
            assert_eq!(m.ready(2), i64::MIN);
        }
        assert!(full.has_identities() && !counting.has_identities());
        assert!(counting.held(0).is_empty());
    }

    /// The straightforward machine: one free list, scanned and filtered at every allocation.
    struct Reference {
        free: Vec<u32>,
        held: Vec<Vec<u32>>,
        owner: Vec<u32>,
        claims: Vec<u32>,
    }

    impl Reference {
        fn allocate(&mut self, job: u32, n: usize) -> bool {
            if n > self.free.len() || !self.held[job as usize].is_empty() {
                return false;
            }
            let claims = &self.claims;
            let mut ids: Vec<u32> =
                self.free.iter().rev().copied().filter(|&id| claims[id as usize] == 0).take(n).collect();
            let more = n - ids.len();
            ids.extend(self.free.iter().rev().copied().filter(|&id| claims[id as usize] > 0).take(more));
            for &id in &ids {
                self.owner[id as usize] = job;
            }
            let owner = &self.owner;
            self.free.retain(|&id| owner[id as usize] == NOBODY);
            self.held[job as usize] = ids;
            true
        }

        fn give_back(&mut self, ids: &[u32]) {
            for &id in ids {
                self.owner[id as usize] = NOBODY;
            }
            self.free.extend(ids.iter().rev());
        }
    }

    proptest::proptest! {
        /// The machine hands out the processors the straightforward one does, through any
        /// sequence of starts, ends, suspensions and resumes.
        #[test]
        fn same_processors_as_the_straightforward_machine(
            ops in proptest::collection::vec((0u8..4, 0u32..12, 1usize..9), 1..300),
        ) {
            let (size, jobs) = (24u32, 12usize);
            let mut m = Machine::new(size, jobs);
            let mut r = Reference {
                free: (0..size).rev().collect(),
                held: vec![Vec::new(); jobs],
                owner: vec![NOBODY; size as usize],
                claims: vec![0; size as usize],
            };
            // 0 idle, 1 running, 2 suspended
            let mut state = vec![0u8; jobs];
            for (step, (op, job, n)) in ops.into_iter().enumerate() {
                let j = job as usize;
                match (op, state[j]) {
                    (0, 0) => {
                        let ok = m.allocate(job, n as u32);
                        proptest::prop_assert_eq!(ok, r.allocate(job, n));
                        if ok {
                            state[j] = 1;
                        }
                    }
                    (1, 1) => {
                        m.release(job);
                        let ids = std::mem::take(&mut r.held[j]);
                        r.give_back(&ids);
                        state[j] = 0;
                    }
                    (2, 1) => {
                        m.park(job, 0);
                        let ids = std::mem::take(&mut r.held[j]);
                        for &id in &ids {
                            r.claims[id as usize] += 1;
                        }
                        r.give_back(&ids);
                        r.held[j] = ids;
                        state[j] = 2;
                    }
                    (3, 2) => {
                        let ok = m.unpark(job);
                        let ids = r.held[j].clone();
                        let want = ids.iter().all(|&id| r.owner[id as usize] == NOBODY);
                        proptest::prop_assert_eq!(ok, want);
                        if want {
                            for &id in &ids {
                                r.owner[id as usize] = job;
                                r.claims[id as usize] -= 1;
                            }
                            let owner = &r.owner;
                            r.free.retain(|&id| owner[id as usize] == NOBODY);
                            state[j] = 1;
                        }
                    }
                    _ => {}
                }
                proptest::prop_assert_eq!(m.free() as usize, r.free.len());
                for k in 0..jobs as u32 {
                    proptest::prop_assert_eq!(m.held(k), &r.held[k as usize][..]);
                    if state[k as usize] == 2 {
                        // Who holds a suspended job's processors, as a scan of them says.
                        let mut want: Vec<u32> = Vec::new();
                        for &p in &r.held[k as usize] {
                            let o = r.owner[p as usize];
                            if o != NOBODY && !want.contains(&o) {
                                want.push(o);
                            }
                        }
                        let mut got = Vec::new();
                        m.holders(k, &mut got);
                        proptest::prop_assert_eq!(m.home_free(k), want.is_empty());
                        proptest::prop_assert_eq!(&got, &want);
                        // The running count: the same holders, each with its number of them.
                        let mut counted: Vec<(u32, u32)> = want
                            .iter()
                            .map(|&o| (o, r.held[k as usize].iter().filter(|&&p| r.owner[p as usize] == o).count() as u32))
                            .collect();
                        // Asked for now and then, so lists are made at any point of a suspension.
                        if (k as usize + step).is_multiple_of(3) {
                            proptest::prop_assert_eq!(m.all_holders(k, &mut |_| true), !want.is_empty());
                        }
                        if let Some(mut kept) = m.home_holders(k) {
                            counted.sort_unstable();
                            kept.sort_unstable();
                            proptest::prop_assert_eq!(kept, counted);
                        }
                    }
                }
            }
        }
    }
}
