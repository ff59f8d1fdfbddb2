//! The machine's shape as an administrator describes it: nodes with CPUs, GPUs and memory,
//! grouped into partitions (a node may be in several), and the scheduler's settings, read from
//! Slurm's `slurm.conf` ([`slurm_conf::read`]) with the lines it does not use listed, or inferred
//! from a Slurm log's nodes ([`infer::from_sacct`]).
//!
//! The `slurm` policies ([`crate::policy::slurm`]) place jobs on its nodes ([`nodes`]) and plan
//! every resource ([`plan`]); the papers' policies still run on a count of identical
//! processors, every node's CPUs.

pub mod hostlist;
pub mod infer;
pub mod nodes;
pub mod plan;
pub mod slurm_conf;

use serde::{Deserialize, Serialize};

/// One node.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Node {
    /// Its name (`c001`).
    pub name: String,
    /// CPUs Slurm allocates on it (`CPUs`, else boards × sockets × cores × threads).
    pub cpus: u32,
    /// Memory in MB (`RealMemory`).
    pub memory_mb: u64,
    /// GPUs (`Gres=gpu:...`).
    pub gpus: u32,
}

/// One partition.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Partition {
    /// Its name.
    pub name: String,
    /// Its nodes, by place in [`Cluster::nodes`].
    pub nodes: Vec<usize>,
    /// The longest run a job may ask for (s), none for no limit (`MaxTime`).
    pub max_time_s: Option<i64>,
    /// The most nodes a job may take, none for no limit (`MaxNodes`).
    pub max_nodes: Option<u32>,
    /// Jobs that name no partition go here (`Default=YES`).
    pub default: bool,
    /// Its tier: jobs of a higher one go first (`PriorityTier`).
    pub priority_tier: u32,
    /// Its jobs take whole nodes (`OverSubscribe=EXCLUSIVE`).
    pub exclusive: bool,
    /// A node runs the jobs of one user at a time (`ExclusiveUser=YES`).
    pub exclusive_user: bool,
}

impl Partition {
    /// A partition of `nodes` with Slurm's defaults: no limits, not the default, tier 1, shared nodes.
    pub fn of(name: impl Into<String>, nodes: Vec<usize>) -> Self {
        Partition {
            name: name.into(),
            nodes,
            max_time_s: None,
            max_nodes: None,
            default: false,
            priority_tier: 1,
            exclusive: false,
            exclusive_user: false,
        }
    }
}

/// A setting of the whole cluster read from the file: its key as Slurm spells it, its value and line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Setting {
    /// The key (`SchedulerParameters`).
    pub key: String,
    /// Its value.
    pub value: String,
    /// Its line (from 1).
    pub line: usize,
}

/// A cluster: its nodes and partitions, its scheduler's settings, and what reading it met.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Cluster {
    /// Every node, in the order the file defines them.
    pub nodes: Vec<Node>,
    /// Every partition, in the file's order.
    pub partitions: Vec<Partition>,
    /// The settings read that are the scheduler's (`SchedulerType`, `SchedulerParameters`,
    /// `SelectType`, `SelectTypeParameters`, `PriorityType`, `PriorityWeight*`, ...).
    pub settings: Vec<Setting>,
    /// What the file holds that SchedLab does not use, with its line: a setting (`SlurmctldPort`),
    /// a line of a kind it does not read (`DownNodes`), or an attribute of a node or partition
    /// line (`NodeName's Weight`).
    pub unused: Vec<(usize, String)>,
    /// Lines that could not be read, each with its line number and the field at fault.
    pub problems: Vec<String>,
}

impl Cluster {
    /// Every node's CPUs: the processors of the papers' machine this cluster stands for.
    pub fn cpus(&self) -> u64 {
        self.nodes.iter().map(|n| u64::from(n.cpus)).sum()
    }

    /// Every node's GPUs.
    pub fn gpus(&self) -> u64 {
        self.nodes.iter().map(|n| u64::from(n.gpus)).sum()
    }

    /// Every node's memory in MB.
    pub fn memory_mb(&self) -> u64 {
        self.nodes.iter().map(|n| n.memory_mb).sum()
    }

    /// The value of setting `key` (as Slurm spells it, any case), the last one given.
    pub fn setting(&self, key: &str) -> Option<&str> {
        self.settings.iter().rev().find(|s| s.key.eq_ignore_ascii_case(key)).map(|s| s.value.as_str())
    }

    /// The cluster in one paragraph, as the Trace view shows it: the nodes by shape, the
    /// partitions and the scheduler's settings read (the lines not used counted).
    pub fn summary(&self) -> String {
        let mut parts: Vec<String> = self
            .describe()
            .into_iter()
            .filter(|l| !l.trim_start().starts_with("not used"))
            .map(|l| l.trim().to_string())
            .collect();
        if !self.unused.is_empty() {
            parts.push(format!(
                "{} of its lines or attributes not used (schedlab info --cluster lists them)",
                self.unused.len()
            ));
        }
        parts.join("; ")
    }

    /// The cluster in a few lines, as `schedlab info --cluster` prints it: the nodes grouped by
    /// shape, each partition, the scheduler's settings read, and what was not used.
    pub fn describe(&self) -> Vec<String> {
        let memory = match self.memory_mb() {
            0 => "memory not known".to_string(),
            m if m < 10 * 1024 => format!("{m} MB of memory"),
            m => format!("{} GB of memory", m / 1024),
        };
        let mut lines = vec![format!(
            "{}: {}, {}, {memory}",
            plural(self.nodes.len() as u64, "node"),
            plural(self.cpus(), "CPU"),
            plural(self.gpus(), "GPU"),
        )];
        // Nodes of one shape in one line, in the order the shapes first appear.
        let mut shapes: Vec<(Shape, Vec<&str>)> = Vec::new();
        for n in &self.nodes {
            let shape = (n.cpus, n.gpus, n.memory_mb);
            match shapes.iter_mut().find(|(s, _)| *s == shape) {
                Some((_, names)) => names.push(&n.name),
                None => shapes.push((shape, vec![&n.name])),
            }
        }
        for ((cpus, gpus, mem), names) in &shapes {
            let gpus = if *gpus > 0 { format!(", {gpus} GPUs") } else { String::new() };
            lines.push(format!("  {} × {cpus} CPUs{gpus}, {mem} MB: {}", names.len(), name_span(names)));
        }
        for p in &self.partitions {
            let time = p.max_time_s.map_or("no time limit".to_string(), |s| format!("MaxTime {}", clock(s)));
            let nodes = p.max_nodes.map_or(String::new(), |n| format!(", MaxNodes {n}"));
            let mut flags = Vec::new();
            if p.default {
                flags.push("default".to_string());
            }
            if p.priority_tier > 1 {
                flags.push(format!("PriorityTier {}", p.priority_tier));
            }
            if p.exclusive {
                flags.push("whole nodes".to_string());
            }
            if p.exclusive_user {
                flags.push("one user a node".to_string());
            }
            let flags = if flags.is_empty() { String::new() } else { format!(" ({})", flags.join(", ")) };
            lines.push(format!(
                "  partition {}{flags}: {}, {time}{nodes}",
                p.name,
                plural(p.nodes.len() as u64, "node")
            ));
        }
        for s in &self.settings {
            lines.push(format!("  {}={} (line {})", s.key, s.value, s.line));
        }
        // What was not used, once per key with the lines it is on.
        let mut keys: Vec<(&str, Vec<String>)> = Vec::new();
        for (line, key) in &self.unused {
            match keys.iter_mut().find(|(k, _)| k == key) {
                Some((_, lines)) => lines.push(line.to_string()),
                None => keys.push((key, vec![line.to_string()])),
            }
        }
        if !keys.is_empty() {
            let listed: Vec<String> = keys
                .iter()
                .map(|(k, l)| format!("{k} (line{} {})", if l.len() > 1 { "s" } else { "" }, l.join(", ")))
                .collect();
            lines.push(format!("  not used: {}", listed.join(", ")));
        }
        lines.extend(self.problems.iter().map(|p| format!("  not read: {p}")));
        lines
    }
}

/// Gives `trace` its cluster: the slurm.conf `conf` when given (its CPUs become the machine's
/// size unless `machine_given`), else for a sacct log the cluster `log` (the log's text) shows
/// by its NodeList and AllocTRES, said in a warning to be inferred (the machine's size stays
/// the log's busiest moment: the papers' policies run as they do without it). What does not fit (a
/// partition of the log the file lacks, a line it could not read) is said in the report's
/// warnings. An error when `conf` names no node.
pub fn attach(
    trace: &mut crate::trace::Trace,
    conf: Option<&str>,
    log: Option<&str>,
    machine_given: bool,
) -> Result<(), String> {
    if let Some(text) = conf {
        let c = slurm_conf::read(text);
        if c.nodes.is_empty() {
            return Err("no NodeName line names a node: not a slurm.conf SchedLab can use".into());
        }
        let w = &mut trace.report.warnings;
        w.extend(c.problems.iter().map(|p| format!("slurm.conf: {p}")));
        let missing: Vec<&str> = trace
            .header
            .queues
            .iter()
            .map(|(_, name)| name.as_str())
            .filter(|name| !c.partitions.iter().any(|p| p.name == *name))
            .collect();
        if !missing.is_empty() && !c.partitions.is_empty() {
            let default = c.partitions.iter().find(|p| p.default).unwrap_or(&c.partitions[0]).name.as_str();
            let one = missing.len() == 1;
            w.push(format!(
                "the log's partition{} {} {} not in the slurm.conf: {} jobs run in its default partition, {default}",
                if one { "" } else { "s" },
                missing.join(", "),
                if one { "is" } else { "are" },
                if one { "its" } else { "their" },
            ));
        }
        if !machine_given && c.cpus() > 0 {
            trace.machine = u32::try_from(c.cpus()).unwrap_or(u32::MAX);
            trace.report.machine_size = trace.machine;
            trace.report.machine_source = "every node's CPUs in the slurm.conf";
            // The log's busiest moment no longer stands in for the size: the file says it.
            trace.report.warnings.retain(|w| !w.contains("does not say the machine's size"));
        }
        trace.cluster = Some(Box::new(c));
        return Ok(());
    }
    let Some(text) = log.filter(|_| trace.report.format == Some("Slurm sacct output")) else { return Ok(()) };
    // Without one, the slurm policies run on one node of the machine's CPUs and say so.
    if let Ok(c) = infer::from_sacct(text) {
        trace.report.warnings.push(format!(
            "the cluster is inferred from the log's NodeList and AllocTRES ({}): each node as large as the most a job held on it; give a slurm.conf for the real one",
            c.describe().first().cloned().unwrap_or_default()
        ));
        trace.cluster = Some(Box::new(c));
    }
    Ok(())
}

/// `n` things, in the plural unless one.
fn plural(n: u64, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// A node's shape: CPUs, GPUs, memory in MB.
type Shape = (u32, u32, u64);

/// A few names of a list: all of them up to four, else the first two and the last.
fn name_span(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        n if n.len() <= 4 => n.join(", "),
        n => format!("{}, {} ... {}", n[0], n[1], n[n.len() - 1]),
    }
}

/// Seconds as Slurm writes a time limit: `D-HH:MM:SS`, or `HH:MM:SS` under a day.
fn clock(s: i64) -> String {
    let (d, h, m, sec) = (s / 86_400, s % 86_400 / 3600, s % 3600 / 60, s % 60);
    if d > 0 {
        format!("{d}-{h:02}:{m:02}:{sec:02}")
    } else {
        format!("{h:02}:{m:02}:{sec:02}")
    }
}
