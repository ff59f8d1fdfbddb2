//! The machine of nodes: what each node has free, which jobs hold what on which node, and
//! where a job goes. A count of free CPUs, GPUs and memory over a partition says a job may
//! fit; only nodes say whether it does: 8 free CPUs on 8 nodes do not run an 8-CPU job that
//! asks for one node, and two half-free GPU nodes do not run a 2-GPU single-node job.

use super::plan::Amount;
use super::Cluster;

/// The memory, MB, of a node whose memory is not known: more than any job asks, and little
/// enough that the sum over a million such nodes does not overflow.
pub const UNKNOWN_MEMORY_MB: i64 = 1 << 40;

/// What a job asks of the nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ask {
    /// The whole job's CPUs, GPUs and memory.
    pub total: Amount,
    /// Nodes it asks for (`-N`), or 0 for as few as hold it.
    pub nodes: u32,
    /// It takes whole nodes: no other job shares them.
    pub exclusive: bool,
}

/// One node's state.
#[derive(Debug, Clone, Copy)]
struct NodeState {
    free: Amount,
    size: Amount,
    /// Jobs on it now.
    jobs: u32,
    /// A job holds it whole.
    owned: bool,
}

/// The nodes' states and each running job's share of them.
#[derive(Debug, Clone)]
pub struct Nodes {
    nodes: Vec<NodeState>,
    /// For each job index, what it holds on which node (empty when not running).
    held: Vec<Vec<(u32, Amount)>>,
    /// Exclusive holders: a job that holds its nodes whole.
    whole: Vec<bool>,
}

impl Nodes {
    /// The idle nodes of `cluster`, serving `jobs` job indices. A cluster whose memory is not
    /// known gives memory no limit.
    pub fn new(cluster: &Cluster, jobs: usize) -> Self {
        let nodes = cluster
            .nodes
            .iter()
            .map(|n| {
                let mem = if n.memory_mb == 0 { UNKNOWN_MEMORY_MB } else { n.memory_mb as i64 };
                let size = Amount { cpus: n.cpus as i64, gpus: n.gpus as i64, mem_mb: mem, nodes: 1 };
                NodeState { free: size, size, jobs: 0, owned: false }
            })
            .collect();
        Nodes { nodes, held: vec![Vec::new(); jobs], whole: vec![false; jobs] }
    }

    /// How many nodes `ask` takes when it names none: as few as hold it, by the largest node among `among`.
    pub fn fewest(&self, ask: &Ask, among: &[usize]) -> u32 {
        if ask.nodes > 0 {
            return ask.nodes;
        }
        let big = among.iter().map(|&i| self.nodes[i].size).fold(Amount::default(), |m, s| Amount {
            cpus: m.cpus.max(s.cpus),
            gpus: m.gpus.max(s.gpus),
            mem_mb: m.mem_mb.max(s.mem_mb),
            nodes: 1,
        });
        let per = |need: i64, has: i64| {
            if need <= 0 {
                1
            } else if has <= 0 {
                i64::MAX
            } else {
                (need + has - 1) / has
            }
        };
        let n = per(ask.total.cpus, big.cpus).max(per(ask.total.gpus, big.gpus)).max(per(ask.total.mem_mb, big.mem_mb));
        n.clamp(1, among.len().max(1) as i64) as u32
    }

    /// The nodes among `among` that would run `ask` now, with each one's share, or none.
    /// First fit in node order (Slurm's choice among nodes of equal weight), the job's
    /// CPUs, GPUs and memory shared evenly among its nodes.
    pub fn place(&self, ask: &Ask, among: &[usize]) -> Option<Vec<(u32, Amount)>> {
        self.place_on(ask, among, self.fewest(ask, among))
    }

    /// [`Nodes::place`] on `n` nodes (what [`Nodes::fewest`] gives: a caller that places one
    /// job many times works it out once).
    pub fn place_on(&self, ask: &Ask, among: &[usize], n: u32) -> Option<Vec<(u32, Amount)>> {
        let n = n.max(1) as i64;
        let each = |v: i64| (v + n - 1) / n;
        let share =
            Amount { cpus: each(ask.total.cpus), gpus: each(ask.total.gpus), mem_mb: each(ask.total.mem_mb), nodes: 0 };
        if ask.exclusive {
            // Idle nodes, first fit in node order.
            let mut out = Vec::with_capacity(n as usize);
            for &i in among {
                let node = &self.nodes[i];
                if node.jobs == 0 && node.size.covers(&share) {
                    out.push((i as u32, node.size));
                    if out.len() as i64 == n {
                        return Some(out);
                    }
                }
            }
        } else {
            // Best fit, as select/cons_tres packs jobs: the nodes with the fewest free CPUs that
            // hold the share, so idle nodes stay whole for jobs that need them.
            let fits = |i: usize| !self.nodes[i].owned && self.nodes[i].free.covers(&share);
            let fit = among.iter().filter(|&&i| fits(i)).map(|&i| (self.nodes[i].free.cpus, i));
            if n == 1 {
                // The one best node, without gathering the others.
                if let Some((_, i)) = fit.min() {
                    return Some(vec![(i as u32, share)]);
                }
            } else if among.iter().filter(|&&i| fits(i)).count() as i64 >= n {
                let mut fit: Vec<(i64, usize)> = fit.collect();
                fit.sort_unstable();
                return Some(fit[..n as usize].iter().map(|&(_, i)| (i as u32, share)).collect());
            }
        }
        // A job that names no node count may spread its CPUs over the nodes with any free.
        if ask.nodes == 0 && !ask.exclusive && ask.total.gpus == 0 {
            let mut left = ask.total;
            let mut out = Vec::new();
            for &i in among {
                let node = &self.nodes[i];
                if node.owned || node.free.cpus <= 0 {
                    continue;
                }
                let cpus = node.free.cpus.min(left.cpus);
                let mem = if ask.total.cpus > 0 { ask.total.mem_mb * cpus / ask.total.cpus } else { 0 };
                if node.free.mem_mb < mem {
                    continue;
                }
                let take = Amount { cpus, gpus: 0, mem_mb: mem, nodes: 0 };
                out.push((i as u32, take));
                left = left.minus(&take);
                if left.cpus <= 0 {
                    return Some(out);
                }
            }
        }
        None
    }

    /// Gives job `job` its place (from [`Nodes::place`]).
    pub fn take(&mut self, job: u32, place: Vec<(u32, Amount)>, exclusive: bool) {
        for &(i, a) in &place {
            let node = &mut self.nodes[i as usize];
            node.free = node.free.minus(&a);
            node.free.nodes = 0;
            node.jobs += 1;
            node.owned |= exclusive;
        }
        self.held[job as usize] = place;
        self.whole[job as usize] = exclusive;
    }

    /// Job `job` ended: its nodes get back what it held.
    pub fn give_back(&mut self, job: u32) {
        let exclusive = self.whole[job as usize];
        for (i, a) in std::mem::take(&mut self.held[job as usize]) {
            let node = &mut self.nodes[i as usize];
            node.free = node.free.plus(&a);
            node.jobs -= 1;
            if exclusive {
                node.owned = false;
            }
            if node.jobs == 0 {
                node.free = node.size;
            }
        }
    }

    /// What job `job` holds, summed over its nodes.
    pub fn holding(&self, job: u32) -> Amount {
        self.held[job as usize].iter().fold(Amount::default(), |s, (_, a)| s.plus(a))
    }

    /// What job `job` holds on the nodes among `among` (sorted).
    pub fn holding_in(&self, job: u32, among: &[usize]) -> Amount {
        self.held[job as usize]
            .iter()
            .filter(|(i, _)| among.binary_search(&(*i as usize)).is_ok())
            .fold(Amount::default(), |s, (_, a)| s.plus(a))
    }

    /// The nodes job `job` runs on.
    pub fn nodes_of(&self, job: u32) -> Vec<u32> {
        self.held[job as usize].iter().map(|(i, _)| *i).collect()
    }

    /// Free resources summed over `among`, not counting nodes a job holds whole.
    pub fn free_in(&self, among: &[usize]) -> Amount {
        among.iter().map(|&i| &self.nodes[i]).filter(|n| !n.owned).fold(Amount::default(), |s, n| s.plus(&n.free))
    }

    /// Whether node `i` runs no job.
    pub fn is_idle(&self, i: u32) -> bool {
        self.nodes[i as usize].jobs == 0
    }

    /// Whether node `i` is held whole by one job.
    pub fn is_owned(&self, i: u32) -> bool {
        self.nodes[i as usize].owned
    }

    /// Whether job `job` holds its nodes whole.
    pub fn is_whole(&self, job: u32) -> bool {
        self.whole[job as usize]
    }

    /// How many nodes there are.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether there is no node.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Every resource of `among`, summed.
    pub fn size_of(&self, among: &[usize]) -> Amount {
        among.iter().fold(Amount::default(), |s, &i| s.plus(&self.nodes[i].size))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::Node;

    fn cluster(nodes: &[(u32, u32, u64)]) -> Cluster {
        Cluster {
            nodes: nodes
                .iter()
                .enumerate()
                .map(|(i, &(cpus, gpus, memory_mb))| Node { name: format!("n{i}"), cpus, gpus, memory_mb })
                .collect(),
            ..Default::default()
        }
    }

    fn ask(cpus: i64, gpus: i64, mem_mb: i64, nodes: u32, exclusive: bool) -> Ask {
        Ask { total: Amount { cpus, gpus, mem_mb, nodes: 0 }, nodes, exclusive }
    }

    #[test]
    fn count_says_fit_nodes_say_no() {
        // Two nodes of 4 CPUs and 2 GPUs; one job holds 2 CPUs and 1 GPU on each.
        let c = cluster(&[(4, 2, 0), (4, 2, 0)]);
        let all = [0, 1];
        let mut m = Nodes::new(&c, 4);
        let p = m.place(&ask(4, 2, 0, 2, false), &all).expect("fits");
        m.take(0, p, false);
        assert_eq!(m.free_in(&all), Amount { cpus: 4, gpus: 2, mem_mb: m.free_in(&all).mem_mb, nodes: 0 });
        // By count, 2 CPUs and 2 GPUs are free; on one node they are not.
        assert!(m.place(&ask(2, 2, 0, 1, false), &all).is_none());
        assert!(m.place(&ask(2, 2, 0, 2, false), &all).is_some());
        // An exclusive job wants idle nodes: none is.
        assert!(m.place(&ask(1, 0, 0, 1, true), &all).is_none());
        m.give_back(0);
        let p = m.place(&ask(1, 0, 0, 1, true), &all).expect("an idle node");
        // It takes the whole node: 4 CPUs and 2 GPUs.
        m.take(1, p, true);
        assert_eq!(m.holding(1), Amount { cpus: 4, gpus: 2, mem_mb: m.holding(1).mem_mb, nodes: 1 });
        assert!(m.place(&ask(1, 0, 0, 1, false), &[0]).is_none());
        assert!(m.place(&ask(1, 0, 0, 1, false), &all).is_some());
    }

    #[test]
    fn memory_blocks_what_cores_allow() {
        let c = cluster(&[(8, 0, 1000)]);
        let mut m = Nodes::new(&c, 2);
        let p = m.place(&ask(2, 0, 800, 1, false), &[0]).expect("fits");
        m.take(0, p, false);
        assert!(m.place(&ask(2, 0, 300, 1, false), &[0]).is_none());
        assert!(m.place(&ask(6, 0, 200, 1, false), &[0]).is_some());
    }
}
