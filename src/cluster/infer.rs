//! A cluster inferred from a Slurm log when no slurm.conf is given: the nodes its jobs ran on
//! (`NodeList`), each as large as the most a job was seen to hold on it (`AllocTRES`'s `cpu`,
//! `gres/gpu` and `mem`, else `AllocCPUS`, shared evenly among the job's `NNodes`), and the
//! partitions by the nodes their jobs ran on. A lower bound: a node no job filled looks smaller
//! than it is, and a node no job ran on is not seen.

use super::{hostlist, Cluster, Node, Partition};

/// The cluster a sacct log (`--parsable2` with its header line, `|` between fields) shows, or
/// why none can be inferred from it.
pub fn from_sacct(text: &str) -> Result<Cluster, String> {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header = lines.next().ok_or("the log is empty")?;
    let names: Vec<&str> = header.split('|').map(str::trim).collect();
    let col = |name: &str| names.iter().position(|n| n.eq_ignore_ascii_case(name));
    let nodelist =
        col("NodeList").ok_or("the log has no NodeList column (sacct --format ...,NodeList) to name its nodes")?;
    let (job_id, partition, nnodes) = (col("JobID"), col("Partition"), col("NNodes").or(col("AllocNodes")));
    let (tres, cpus) = (col("AllocTRES"), col("AllocCPUS").or(col("NCPUS")));
    let mut c = Cluster::default();
    let mut parts: Vec<(String, Vec<usize>)> = Vec::new();
    for line in lines {
        let f: Vec<&str> = line.split('|').collect();
        let field = |i: Option<usize>| i.and_then(|i| f.get(i)).map_or("", |s| s.trim());
        // Job steps (123.batch) ran on the job's nodes: the job's own line counts them.
        if field(job_id).contains('.') {
            continue;
        }
        let Ok(hosts) = hostlist::expand(field(Some(nodelist))) else { continue };
        let hosts: Vec<String> =
            hosts.into_iter().filter(|h| !h.is_empty() && !h.eq_ignore_ascii_case("None assigned")).collect();
        if hosts.is_empty() || hosts.iter().any(|h| h.contains(' ')) {
            continue;
        }
        let n = field(nnodes).parse::<u64>().ok().filter(|&n| n > 0).unwrap_or(hosts.len() as u64);
        let held = tres_of(field(tres));
        let cpu = held.cpu.or_else(|| field(cpus).parse().ok()).unwrap_or(0);
        let each = |v: u64| v.div_ceil(n);
        let mut placed = Vec::new();
        for h in hosts {
            let i = match c.nodes.iter().position(|x| x.name == h) {
                Some(i) => i,
                None => {
                    c.nodes.push(Node { name: h, cpus: 0, memory_mb: 0, gpus: 0 });
                    c.nodes.len() - 1
                }
            };
            let node = &mut c.nodes[i];
            node.cpus = node.cpus.max(u32::try_from(each(cpu)).unwrap_or(u32::MAX));
            node.gpus = node.gpus.max(u32::try_from(each(held.gpu)).unwrap_or(u32::MAX));
            node.memory_mb = node.memory_mb.max(each(held.mem_mb));
            placed.push(i);
        }
        let name = field(partition);
        if !name.is_empty() {
            let at = match parts.iter().position(|(p, _)| p == name) {
                Some(at) => at,
                None => {
                    parts.push((name.to_string(), Vec::new()));
                    parts.len() - 1
                }
            };
            for i in placed {
                if !parts[at].1.contains(&i) {
                    parts[at].1.push(i);
                }
            }
        }
    }
    if c.nodes.is_empty() {
        return Err("no job of the log names the nodes it ran on".into());
    }
    c.partitions = parts
        .into_iter()
        .map(|(name, mut nodes)| {
            nodes.sort_unstable();
            Partition::of(name, nodes)
        })
        .collect();
    Ok(c)
}

/// What an `AllocTRES` or `ReqTRES` value holds (`billing=4,cpu=4,gres/gpu=1,mem=16G,node=1`).
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Tres {
    /// `cpu=`.
    pub cpu: Option<u64>,
    /// `gres/gpu=`, else the sum of the typed `gres/gpu:TYPE=` (0 when none).
    pub gpu: u64,
    /// `mem=` in MB (0 when not said).
    pub mem_mb: u64,
    /// `node=`.
    pub node: Option<u64>,
}

/// Reads an `AllocTRES` or `ReqTRES` value; what it does not hold is none (memory in MB:
/// sacct's `M` by default).
pub(crate) fn tres_of(value: &str) -> Tres {
    let mut h = Tres::default();
    let (mut plain, mut typed) = (None, 0u64);
    for (key, v) in value.split(',').filter_map(|kv| kv.split_once('=')) {
        match key.trim() {
            "cpu" => h.cpu = v.trim().parse().ok(),
            "gres/gpu" => plain = v.trim().parse().ok(),
            // Typed GPUs are listed beside the untyped total when both are tracked.
            k if k.starts_with("gres/gpu:") => typed += v.trim().parse::<u64>().unwrap_or(0),
            "mem" => h.mem_mb = mem_mb(v.trim()).unwrap_or(0),
            "node" => h.node = v.trim().parse().ok(),
            _ => {}
        }
    }
    h.gpu = plain.unwrap_or(typed);
    h
}

/// A memory amount with Slurm's suffixes (K, M, G, T; none is M) in MB.
pub(crate) fn mem_mb(v: &str) -> Option<u64> {
    let (digits, per_mb) = match v.chars().last()?.to_ascii_uppercase() {
        'K' => (&v[..v.len() - 1], 1.0 / 1024.0),
        'M' => (&v[..v.len() - 1], 1.0),
        'G' => (&v[..v.len() - 1], 1024.0),
        'T' => (&v[..v.len() - 1], 1024.0 * 1024.0),
        _ => (v, 1.0),
    };
    digits.parse::<f64>().ok().map(|x| (x * per_mb).round() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_are_as_large_as_the_most_a_job_held_on_them() {
        let log = "\
JobID|Partition|NodeList|NNodes|AllocCPUS|AllocTRES
1|gpu|g[1-2]|2|16|billing=16,cpu=16,gres/gpu=4,mem=64G,node=2
1.batch||g1|1|8|cpu=8
2|gpu|g2|1|12|cpu=12,gres/gpu=1,mem=8000M,node=1
3|batch|c01|1|4|
4|batch|None assigned|0|0|
";
        let c = from_sacct(log).unwrap();
        let shape: Vec<(&str, u32, u32, u64)> =
            c.nodes.iter().map(|n| (n.name.as_str(), n.cpus, n.gpus, n.memory_mb)).collect();
        assert_eq!(shape, [("g1", 8, 2, 32_768), ("g2", 12, 2, 32_768), ("c01", 4, 0, 0)]);
        assert_eq!(
            c.partitions.iter().map(|p| (p.name.as_str(), p.nodes.clone())).collect::<Vec<_>>(),
            [("gpu", vec![0, 1]), ("batch", vec![2])]
        );
        assert!(from_sacct("JobID|State\n1|COMPLETED\n").unwrap_err().contains("no NodeList column"));
        assert_eq!(mem_mb("2252800K"), Some(2200));
    }
}
