//! A synthetic cluster's accounting: a model workload's jobs given GPUs, memory, nodes and a
//! partition, written as the `sacct --parsable2` output and the `slurm.conf` of a cluster of
//! 32-CPU nodes, a quarter of them with 4 GPUs. It exercises every resource the `slurm`
//! policies schedule, at any size, without a site's log.
//!
//! Each job keeps the model's submit time, runtime and estimate; a quarter of them (drawn per
//! job) are GPU jobs of 1 to 4 GPUs with 8 CPUs each on one GPU node; the others keep their
//! CPUs (at most the CPU nodes'), and those wider than a node take whole nodes. Memory is 1 to
//! 8 GB per CPU (log-uniform), at most what its nodes have. The log's own Start is the submit
//! time: only submit, runtime, limit and the resources are simulated.

use super::Workload;
use crate::random::{Draws, Stream};

/// CPUs of every node.
const NODE_CPUS: u32 = 32;
/// GPUs of a GPU node.
const NODE_GPUS: u32 = 4;
/// Memory of a CPU node and of a GPU node, MB.
const CPU_NODE_MB: u64 = 256 * 1024;
const GPU_NODE_MB: u64 = 512 * 1024;

/// The cluster of `machine` CPUs the log describes: (CPU nodes, GPU nodes).
fn shape(machine: u32) -> (u32, u32) {
    let nodes = machine.div_ceil(NODE_CPUS).max(2);
    let gpu = (nodes / 4).max(1);
    (nodes - gpu, gpu)
}

/// The `slurm.conf` of the cluster behind [`sacct`] for `machine` CPUs.
pub fn slurm_conf(machine: u32) -> String {
    let (cpu, gpu) = shape(machine);
    format!(
        "# A synthetic cluster written by schedlab generate --model cluster\n\
         ClusterName=synthetic\n\
         SchedulerType=sched/backfill\n\
         SchedulerParameters=bf_window=2880,bf_resolution=60,bf_max_job_test=500,bf_interval=30\n\
         SelectType=select/cons_tres\n\
         SelectTypeParameters=CR_Core_Memory\n\
         PriorityType=priority/multifactor\n\
         PriorityDecayHalfLife=7-0\n\
         PriorityMaxAge=7-0\n\
         PriorityWeightAge=1000\n\
         PriorityWeightFairshare=10000\n\
         PriorityWeightJobSize=1000\n\
         NodeName=c[1-{cpu}] CPUs={NODE_CPUS} RealMemory={CPU_NODE_MB}\n\
         NodeName=g[1-{gpu}] CPUs={NODE_CPUS} RealMemory={GPU_NODE_MB} Gres=gpu:{NODE_GPUS}\n\
         PartitionName=cpu Nodes=c[1-{cpu}] Default=YES MaxTime=7-00:00:00\n\
         PartitionName=gpu Nodes=g[1-{gpu}] MaxTime=7-00:00:00\n"
    )
}

/// `t` seconds after 2026-01-01T00:00:00 as sacct writes a time.
fn when(t: i64) -> String {
    let base = crate::calendar::days_from_civil(2026, 1, 1);
    let (y, m, d) = crate::calendar::civil_from_days(base + t.div_euclid(86_400));
    let s = t.rem_euclid(86_400);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// `s` seconds as sacct writes a duration: `[D-]HH:MM:SS`.
fn span(s: i64) -> String {
    let (d, r) = (s / 86_400, s % 86_400);
    let hms = format!("{:02}:{:02}:{:02}", r / 3600, r / 60 % 60, r % 60);
    if d > 0 {
        format!("{d}-{hms}")
    } else {
        hms
    }
}

/// The workload's jobs on the cluster of its machine's size, as `sacct --parsable2` output with
/// its header; `seed` draws each job's kind, GPUs, memory and user.
pub fn sacct(w: &Workload, seed: u64) -> String {
    let (cpu_nodes, gpu_nodes) = shape(w.options.machine);
    let d = Draws::new(seed);
    let mut out = String::from(
        "JobIDRaw|JobID|User|Partition|QOS|Submit|Start|End|Elapsed|Timelimit|State|NNodes|AllocCPUS|ReqCPUS|ReqMem|AllocTRES|NodeList\n",
    );
    for (k, j) in w.jobs.iter().enumerate() {
        let id = k as u64 + 1;
        let runtime = j.runtime as i64;
        let estimate = w.estimates.get(k).copied().unwrap_or(j.runtime).max(j.runtime).max(60) as i64;
        let gpu_job = d.unit(id, Stream::Priority) < 0.25;
        let (part, gpus, cpus, nodes, names) = if gpu_job {
            let gpus = 1 + (d.unit(id, Stream::Reservation) * NODE_GPUS as f64) as u32;
            let n = 1 + (id as u32 % gpu_nodes);
            ("gpu", gpus, gpus * 8, 1, format!("g{n}"))
        } else {
            let cpus = j.size.clamp(1, cpu_nodes * NODE_CPUS);
            let nodes = cpus.div_ceil(NODE_CPUS);
            let first = 1 + (id as u32 % cpu_nodes.saturating_sub(nodes - 1).max(1));
            let names = if nodes == 1 { format!("c{first}") } else { format!("c[{first}-{}]", first + nodes - 1) };
            // Jobs wider than a node take whole nodes.
            let cpus = if nodes > 1 { nodes * NODE_CPUS } else { cpus };
            ("cpu", 0, cpus, nodes, names)
        };
        let node_mb = if gpu_job { GPU_NODE_MB } else { CPU_NODE_MB };
        let per_cpu_mb = (1024.0 * 8f64.powf(d.unit(id, Stream::Memory))) as u64;
        let mem_mb = (per_cpu_mb * cpus as u64).min(node_mb * nodes as u64);
        let user = 1 + (d.unit(id, Stream::Lead) * 40.0) as u32;
        let gres = if gpus > 0 { format!(",gres/gpu={gpus}") } else { String::new() };
        let (submit, end) = (j.submit as i64, j.submit as i64 + runtime);
        out.push_str(&format!(
            "{id}|{id}|u{user}|{part}|normal|{}|{}|{}|{}|{}|COMPLETED|{nodes}|{cpus}|{cpus}|{mem_mb}M|billing={cpus},cpu={cpus}{gres},mem={mem_mb}M,node={nodes}|{names}\n",
            when(submit),
            when(submit),
            when(end),
            span(runtime),
            span((estimate + 59) / 60 * 60),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workload::{generate, WorkloadOptions};

    #[test]
    fn the_log_reads_back_with_every_resource() {
        let w = generate(&WorkloadOptions::parse("machine=256,jobs=500,seed=3").expect("options"));
        let log = sacct(&w, 3);
        let t = crate::trace::parse(log.as_bytes(), &crate::trace::TraceOptions::default()).expect("reads");
        assert_eq!(t.jobs.len(), 500, "{:?}", t.report.dropped);
        let gpu_jobs = t.jobs.iter().filter(|j| j.gpus > 0).count();
        assert!((80..170).contains(&gpu_jobs), "{gpu_jobs}");
        assert!(t.jobs.iter().all(|j| j.memory_kb > 0 && j.nodes >= 1));
        let c = crate::cluster::slurm_conf::read(&slurm_conf(256));
        assert_eq!((c.nodes.len(), c.cpus(), c.gpus()), (8, 256, 8));
        assert!(c.problems.is_empty(), "{:?}", c.problems);
    }
}
