//! The machine: which processors are free and which job holds which processors.
//!
//! Processor identities matter to policies that suspend jobs (a job resumes on the very
//! processors it had) and to the Gantt chart's placements; other runs only look at
//! [`Machine::free`], so a [`Machine::counting`] machine keeps nothing but counts: on a machine
//! of 93,312 processors a wide job's identities would cost more than its scheduling.

use std::cell::RefCell;

/// Marks a processor no job holds in [`Machine::owner`].
const NOBODY: u32 = u32::MAX;

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
    /// Processors free now that no suspended job resumes on.
    open: u32,
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
    /// For each job, the suspended jobs waiting for it to leave their processors
    /// ([`Machine::watch`]): when it gives its processors up, only they are told.
    watchers: RefCell<Vec<Vec<u32>>>,
    /// Handovers so far (processors taken or given up): a policy may keep what it concluded
    /// from the holders of a job's processors while this stays the same.
    epoch: u64,
    /// (suspended job, holder) for every watched holder that left since
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
            open: size,
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

    /// Processors free now that no suspended job resumes on (all the free ones on a machine
    /// where no job is suspended).
    pub fn open(&self) -> u32 {
        if self.identities {
            self.open
        } else {
            self.free
        }
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
        self.pop_into(true, n, &mut ids);
        self.hand(&ids, NOBODY, job);
        self.free -= procs;
        self.held[job as usize] = ids;
        true
    }

    /// Gives `procs` processors to job `job` from the free ones among `first` (in that order),
    /// then from those no suspended job resumes on; false (and no change) if these are too
    /// few. The processors of a suspended job stay out of other jobs' reach except through
    /// `first`: the processors of the jobs suspended to make room for this one.
    pub fn allocate_from(&mut self, job: u32, procs: u32, first: &[u32]) -> bool {
        let n = procs as usize;
        if !self.identities || !self.held[job as usize].is_empty() {
            return false;
        }
        let mut ids: Vec<u32> = Vec::with_capacity(n);
        let mut taken = 0u32;
        for &id in first {
            if ids.len() == n {
                break;
            }
            // `first` may name a processor twice (two suspended jobs resume on it).
            if self.owner[id as usize] == NOBODY && !ids.contains(&id) {
                ids.push(id);
                taken += (self.claims[id as usize] == 0) as u32;
            }
        }
        if ids.len() + ((self.open - taken) as usize) < n {
            return false;
        }
        let named = ids.len();
        // The named ones are marked taken first, so the open stack skips them: their entries
        // in the stacks are void from now on.
        self.hand(&ids[..named], NOBODY, job);
        self.void += named;
        self.pop_into(false, n, &mut ids);
        self.hand(&ids[named..], NOBODY, job);
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
        if self.witness.is_empty() {
            self.witness.resize(self.held.len(), Default::default());
            self.watchers.get_mut().resize(self.held.len(), Vec::new());
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
            for &id in &ids {
                self.claims[id as usize] -= 1;
                // Free and claimed by none now: open until `take` below hands it over.
                self.open += (self.claims[id as usize] == 0) as u32;
            }
            self.take(job, &ids);
        }
        self.held[job as usize] = ids;
        ok
    }

    /// Processors `ids` pass from `from` to `to`, one of which is [`NOBODY`]. A job gives up
    /// all it holds at once, so when `from` leaves, the suspended jobs watching it are told,
    /// at a cost of their number, not of its processors.
    fn hand(&mut self, ids: &[u32], from: u32, to: u32) {
        for &id in ids {
            self.owner[id as usize] = to;
            if self.claims[id as usize] == 0 {
                if to == NOBODY {
                    self.open += 1;
                } else {
                    self.open -= 1;
                }
            }
        }
        self.epoch += 1;
        if from != NOBODY {
            if let Some(told) = self.watchers.get_mut().get_mut(from as usize) {
                self.departures.get_mut().extend(told.drain(..).map(|c| (c, from)));
            }
        }
    }

    /// Asks to be told (through [`Machine::take_departures`]) when `holder`, a job running on
    /// processors of the suspended job `job`, gives its processors up: a policy that turned
    /// `job` down because of `holder` need not look at it again before then.
    pub fn watch(&self, job: u32, holder: u32) {
        if let Some(w) = self.watchers.borrow_mut().get_mut(holder as usize) {
            w.push(job);
        }
    }

    /// A number that stays the same while no processor changes hands: whatever a policy
    /// concluded from the holders of any job's processors holds until it changes.
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    /// Moves into `out`, as (suspended job, holder), every watched holder
    /// ([`Machine::watch`]) that gave its processors up since the last call. A watch is told
    /// once; a job still waiting asks again.
    pub fn take_departures(&self, out: &mut Vec<(u32, u32)>) {
        out.clear();
        out.append(&mut self.departures.borrow_mut());
    }

    /// The distinct jobs running on the processors of job `job` (suspended or not), in the
    /// order of its processors, into `out`: empty when it can resume. Costs its width.
    pub fn holders(&self, job: u32, out: &mut Vec<u32>) {
        self.holders_until(job, out, &mut |_| false);
    }

    /// [`Machine::holders`], stopping after the first holder for which `stop` is true.
    pub fn holders_until(&self, job: u32, out: &mut Vec<u32>, stop: &mut dyn FnMut(u32) -> bool) {
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
        let mut last = NOBODY;
        for &p in &self.held[job as usize] {
            let o = self.owner[p as usize];
            // Neighbouring processors mostly share their holder.
            if o == last || o == NOBODY {
                continue;
            }
            last = o;
            if marks[o as usize] != *listing {
                marks[o as usize] = *listing;
                out.push(o);
                if stop(o) {
                    return;
                }
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
        if !self.identities {
            // Counted processors are never written out.
            return i64::MIN;
        }
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
        /// sequence of starts, ends, suspensions and resumes, and tells each watch when its
        /// holder leaves, exactly once.
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
            // (suspended job, holder) watches not yet told.
            let mut watching: Vec<(u32, u32)> = Vec::new();
            let mut told = Vec::new();
            for (step, (op, job, n)) in ops.into_iter().enumerate() {
                let j = job as usize;
                let mut left = None;
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
                        left = Some(job);
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
                        left = Some(job);
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
                // Every watch of the job that left is told, and no other.
                let mut want_told: Vec<(u32, u32)> = Vec::new();
                if let Some(l) = left {
                    watching.retain(|&(c, h)| if h == l { want_told.push((c, h)); false } else { true });
                }
                m.take_departures(&mut told);
                told.sort_unstable();
                want_told.sort_unstable();
                proptest::prop_assert_eq!(&told, &want_told);
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
                        // Stopped at the second holder: the first two of them.
                        let mut seen = 0;
                        m.holders_until(k, &mut got, &mut |_| {
                            seen += 1;
                            seen == 2
                        });
                        proptest::prop_assert_eq!(&got[..], &want[..want.len().min(2)]);
                        // Now and then a suspended job watches one of its holders.
                        if let (true, Some(&h)) = ((k as usize + step).is_multiple_of(3), want.last()) {
                            m.watch(k, h);
                            watching.push((k, h));
                        }
                    }
                }
            }
        }
    }
}
