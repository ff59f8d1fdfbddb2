//! The machine: which processors are free and which job holds which processors.
//!
//! Processor identities matter to policies that suspend jobs (a job resumes on the very
//! processors it had); non-preemptive policies only look at [`Machine::free`].

/// Processor identities of one machine.
#[derive(Debug, Clone)]
pub struct Machine {
    size: u32,
    /// Free processor ids; the lowest ids are handed out first (kept as a stack, highest first).
    free: Vec<u32>,
    /// For each job index, the processors it holds while it runs.
    held: Vec<Vec<u32>>,
}

impl Machine {
    /// An idle machine of `size` processors serving `jobs` job indices.
    pub fn new(size: u32, jobs: usize) -> Self {
        Machine { size, free: (0..size).rev().collect(), held: vec![Vec::new(); jobs] }
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
    pub fn allocate(&mut self, job: u32, procs: u32) -> bool {
        let n = procs as usize;
        if n > self.free.len() || !self.held[job as usize].is_empty() {
            return false;
        }
        let at = self.free.len() - n;
        let mut ids = self.free.split_off(at);
        ids.reverse();
        self.held[job as usize] = ids;
        true
    }

    /// Gives job `job` exactly the processors `ids` (for resuming on the same processors);
    /// false (and no change) if any of them is taken.
    pub fn allocate_exact(&mut self, job: u32, ids: &[u32]) -> bool {
        if !ids.iter().all(|id| self.free.contains(id)) || !self.held[job as usize].is_empty() {
            return false;
        }
        self.free.retain(|id| !ids.contains(id));
        self.held[job as usize] = ids.to_vec();
        true
    }

    /// Frees the processors of job `job` and returns their ids.
    pub fn release(&mut self, job: u32) -> Vec<u32> {
        let ids = std::mem::take(&mut self.held[job as usize]);
        self.free.extend(ids.iter().rev());
        ids
    }

    /// The processors job `job` holds now.
    pub fn held(&self, job: u32) -> &[u32] {
        &self.held[job as usize]
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
    }
}
