//! The machine: which processors are free and which job holds which processors.
//!
//! Processor identities matter to policies that suspend jobs (a job resumes on the very
//! processors it had); non-preemptive policies only look at [`Machine::free`].

/// Marks a processor no job holds in [`Machine::owner`].
const NOBODY: u32 = u32::MAX;

/// Processor identities of one machine.
#[derive(Debug, Clone)]
pub struct Machine {
    size: u32,
    /// Free processor ids; the lowest ids are handed out first (kept as a stack, highest first).
    free: Vec<u32>,
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
    /// Sum of `claims`: zero unless jobs are suspended.
    claimed: u64,
}

impl Machine {
    /// An idle machine of `size` processors serving `jobs` job indices.
    pub fn new(size: u32, jobs: usize) -> Self {
        Machine {
            size,
            free: (0..size).rev().collect(),
            held: vec![Vec::new(); jobs],
            owner: vec![NOBODY; size as usize],
            ready: vec![i64::MIN; size as usize],
            claims: vec![0; size as usize],
            claimed: 0,
        }
    }

    /// Total processors.
    pub fn size(&self) -> u32 {
        self.size
    }

    /// Processors free now.
    pub fn free(&self) -> u32 {
        self.free.len() as u32
    }

    /// Processors busy now.
    pub fn busy(&self) -> u32 {
        self.size - self.free()
    }

    /// Gives `procs` free processors to job `job`; false (and no change) if too few are free.
    ///
    /// The most recently freed processors go first, except that processors a suspended job
    /// resumes on go last: taking them would keep that job out, so they are used only when the
    /// others are not enough (and then the most recently freed first: those of the jobs a
    /// suspending job has just suspended).
    pub fn allocate(&mut self, job: u32, procs: u32) -> bool {
        let n = procs as usize;
        if n > self.free.len() || !self.held[job as usize].is_empty() {
            return false;
        }
        let ids = if self.claimed == 0 {
            let at = self.free.len() - n;
            let mut ids = self.free.split_off(at);
            ids.reverse();
            ids
        } else {
            let claims = &self.claims;
            let mut ids: Vec<u32> =
                self.free.iter().rev().copied().filter(|&id| claims[id as usize] == 0).take(n).collect();
            if ids.len() < n {
                let more = n - ids.len();
                ids.extend(self.free.iter().rev().copied().filter(|&id| claims[id as usize] > 0).take(more));
            }
            for &id in &ids {
                self.owner[id as usize] = job;
            }
            let owner = &self.owner;
            self.free.retain(|&id| owner[id as usize] == NOBODY);
            ids
        };
        for &id in &ids {
            self.owner[id as usize] = job;
        }
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

    /// Marks `ids` as job `job`'s if all are free.
    fn take(&mut self, job: u32, ids: &[u32]) -> bool {
        if !ids.iter().all(|&id| self.owner.get(id as usize) == Some(&NOBODY)) {
            return false;
        }
        for &id in ids {
            self.owner[id as usize] = job;
        }
        let owner = &self.owner;
        self.free.retain(|&id| owner[id as usize] == NOBODY);
        true
    }

    /// Frees the processors of job `job` and returns their ids.
    pub fn release(&mut self, job: u32) -> Vec<u32> {
        let ids = std::mem::take(&mut self.held[job as usize]);
        self.give_back(&ids);
        ids
    }

    fn give_back(&mut self, ids: &[u32]) {
        for &id in ids {
            self.owner[id as usize] = NOBODY;
        }
        self.free.extend(ids.iter().rev());
    }

    /// Suspends job `job`: its processors become free but stay its own, to resume on
    /// ([`Machine::unpark`]); they are usable by others from `ready` on.
    pub fn park(&mut self, job: u32, ready: i64) {
        let ids = std::mem::take(&mut self.held[job as usize]);
        for &id in &ids {
            self.ready[id as usize] = ready;
            self.claims[id as usize] += 1;
        }
        self.claimed += ids.len() as u64;
        self.give_back(&ids);
        self.held[job as usize] = ids;
    }

    /// Resumes the suspended job `job` on exactly its own processors; false (and no change)
    /// if any of them is taken.
    pub fn unpark(&mut self, job: u32) -> bool {
        let ids = std::mem::take(&mut self.held[job as usize]);
        let ok = self.take(job, &ids);
        if ok {
            for &id in &ids {
                self.claims[id as usize] -= 1;
            }
            self.claimed -= ids.len() as u64;
        }
        self.held[job as usize] = ids;
        ok
    }

    /// The processors job `job` holds now (or, while it is suspended, the ones it resumes on).
    pub fn held(&self, job: u32) -> &[u32] {
        &self.held[job as usize]
    }

    /// The job running on processor `id`, if any.
    pub fn owner(&self, id: u32) -> Option<u32> {
        self.owner.get(id as usize).copied().filter(|&o| o != NOBODY)
    }

    /// When all of job `job`'s processors are usable (the latest suspension write-out on them).
    pub fn ready(&self, job: u32) -> i64 {
        self.held[job as usize].iter().map(|&id| self.ready[id as usize]).max().unwrap_or(i64::MIN)
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
}
