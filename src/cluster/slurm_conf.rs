//! Reading Slurm's `slurm.conf` (Slurm's documentation, slurm.conf(5)): the `NodeName` lines
//! (with `NodeName=DEFAULT` for those after), the `PartitionName` lines, and the scheduler's
//! settings. Keys are read in any case, `#` starts a comment, a line ending in `\` goes on the
//! next. Every other line, and every attribute of a node or partition line that SchedLab does
//! not use, is listed in [`Cluster::unused`]; a value that cannot be read is a problem naming its
//! line and field, and the rest of the file is still read.

use super::{hostlist, Cluster, Node, Partition, Setting};

/// The settings of the whole cluster that are the scheduler's, as Slurm spells them.
pub const SCHEDULER_KEYS: &[&str] = &[
    "SchedulerType",
    "SchedulerParameters",
    "SelectType",
    "SelectTypeParameters",
    "PriorityType",
    "PriorityWeightAge",
    "PriorityWeightFairshare",
    "PriorityWeightJobSize",
    "PriorityWeightPartition",
    "PriorityWeightQOS",
    "PriorityWeightTRES",
    "PriorityDecayHalfLife",
    "PriorityMaxAge",
    "PriorityFavorSmall",
];

/// A node line's attributes that make its shape.
const NODE_KEYS: &[&str] = &[
    "NodeName",
    "CPUs",
    "Procs",
    "Boards",
    "SocketsPerBoard",
    "Sockets",
    "CoresPerSocket",
    "ThreadsPerCore",
    "RealMemory",
    "Gres",
];

/// A partition line's attributes that SchedLab reads.
const PARTITION_KEYS: &[&str] = &[
    "PartitionName",
    "Nodes",
    "MaxTime",
    "MaxNodes",
    "Default",
    "PriorityTier",
    "Priority",
    "OverSubscribe",
    "Shared",
    "ExclusiveUser",
];

/// The cluster `text` (a slurm.conf) describes.
pub fn read(text: &str) -> Cluster {
    let mut c = Cluster::default();
    let mut node_defaults: Vec<(String, String)> = Vec::new();
    let mut part_defaults: Vec<(String, String)> = Vec::new();
    // Partitions name their nodes before every node may be defined: resolved at the end.
    let mut wanted: Vec<(usize, String, usize)> = Vec::new(); // (partition, Nodes=, line)
    for (line, pairs) in logical_lines(text) {
        let Some((first, value)) = pairs.first().cloned() else { continue };
        let is = |k: &str| first.eq_ignore_ascii_case(k);
        if is("NodeName") {
            note_unused(&mut c, line, "NodeName", &pairs[1..], NODE_KEYS);
            if value.eq_ignore_ascii_case("DEFAULT") {
                node_defaults = merged(&node_defaults, &pairs[1..]);
            } else {
                let all = merged(&node_defaults, &pairs);
                if let Err(e) = nodes(&mut c, &all) {
                    c.problems.push(format!("line {line}: {e}"));
                }
            }
        } else if is("PartitionName") {
            note_unused(&mut c, line, "PartitionName", &pairs[1..], PARTITION_KEYS);
            if value.eq_ignore_ascii_case("DEFAULT") {
                part_defaults = merged(&part_defaults, &pairs[1..]);
            } else {
                let all = merged(&part_defaults, &pairs);
                match partition(&all) {
                    Ok((p, list)) => {
                        wanted.push((c.partitions.len(), list, line));
                        c.partitions.push(p);
                    }
                    Err(e) => c.problems.push(format!("line {line}: {e}")),
                }
            }
        } else {
            // A setting a line (several on one are read alike); a line of another kind
            // (DownNodes, NodeSet, SwitchName, Include, ...) is listed once, by its first key.
            match SCHEDULER_KEYS.iter().find(|k| k.eq_ignore_ascii_case(&first)) {
                Some(_) => {
                    for (key, value) in pairs {
                        match SCHEDULER_KEYS.iter().find(|k| k.eq_ignore_ascii_case(&key)) {
                            Some(k) => c.settings.push(Setting { key: k.to_string(), value, line }),
                            None => c.unused.push((line, key)),
                        }
                    }
                }
                None => c.unused.push((line, first)),
            }
        }
    }
    for (p, list, line) in wanted {
        let names = if list.eq_ignore_ascii_case("ALL") {
            Ok(c.nodes.iter().map(|n| n.name.clone()).collect())
        } else {
            hostlist::expand(&list)
        };
        match names {
            Ok(names) => {
                for name in names {
                    match c.nodes.iter().position(|n| n.name == name) {
                        Some(i) => c.partitions[p].nodes.push(i),
                        None => c
                            .problems
                            .push(format!("line {line}: Nodes={list}: {name} is not defined by a NodeName line")),
                    }
                }
            }
            Err(e) => c.problems.push(format!("line {line}: Nodes={e}")),
        }
    }
    c
}

/// The file's lines as (line number, `Key=Value` pairs), comments and continuations taken out;
/// a word without `=` is a key with an empty value.
fn logical_lines(text: &str) -> Vec<(usize, Vec<(String, String)>)> {
    let mut out = Vec::new();
    let mut pending: Option<(usize, String)> = None;
    for (i, raw) in text.lines().enumerate() {
        let body = raw.split('#').next().unwrap_or("").trim_end();
        let (start, mut joined) = pending.take().unwrap_or((i + 1, String::new()));
        joined.push(' ');
        if let Some(head) = body.strip_suffix('\\') {
            joined.push_str(head);
            pending = Some((start, joined));
            continue;
        }
        joined.push_str(body);
        let pairs: Vec<(String, String)> = words(&joined)
            .into_iter()
            .map(|w| match w.split_once('=') {
                Some((k, v)) => (k.trim().to_string(), v.trim().trim_matches('"').to_string()),
                None => (w.to_string(), String::new()),
            })
            .collect();
        if !pairs.is_empty() {
            out.push((start, pairs));
        }
    }
    out
}

/// The words of a line, a quoted value (`Features="a b"`) kept whole.
fn words(line: &str) -> Vec<&str> {
    let (mut out, mut start, mut quoted) = (Vec::new(), None, false);
    for (i, ch) in line.char_indices() {
        match ch {
            '"' => quoted = !quoted,
            c if c.is_whitespace() && !quoted => {
                if let Some(s) = start.take() {
                    out.push(&line[s..i]);
                }
                continue;
            }
            _ => {}
        }
        start.get_or_insert(i);
    }
    if let Some(s) = start {
        out.push(&line[s..]);
    }
    out
}

/// `defaults` with `pairs` over them (keys in any case).
fn merged(defaults: &[(String, String)], pairs: &[(String, String)]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = defaults.to_vec();
    for (k, v) in pairs {
        out.retain(|(d, _)| !d.eq_ignore_ascii_case(k));
        out.push((k.clone(), v.clone()));
    }
    out
}

/// Lists the attributes of a `what` line that are not among `used`.
fn note_unused(c: &mut Cluster, line: usize, what: &str, pairs: &[(String, String)], used: &[&str]) {
    for (k, _) in pairs {
        if !used.iter().any(|u| u.eq_ignore_ascii_case(k)) {
            c.unused.push((line, format!("{what}'s {k}")));
        }
    }
}

/// The value of `key` among `pairs`, any case.
fn get<'a>(pairs: &'a [(String, String)], key: &str) -> Option<&'a str> {
    pairs.iter().rev().find(|(k, _)| k.eq_ignore_ascii_case(key)).map(|(_, v)| v.as_str())
}

/// A whole number of `key`, `default` when it is not given.
fn number(pairs: &[(String, String)], key: &str, default: u64) -> Result<u64, String> {
    match get(pairs, key) {
        None => Ok(default),
        Some(v) => v.parse().map_err(|_| format!("{key}={v}: not a whole number")),
    }
}

/// Adds the nodes a `NodeName` line (its defaults merged in) defines.
fn nodes(c: &mut Cluster, pairs: &[(String, String)]) -> Result<(), String> {
    let list = get(pairs, "NodeName").unwrap_or("");
    let names = hostlist::expand(list).map_err(|e| format!("NodeName={e}"))?;
    let sockets = match get(pairs, "Sockets") {
        Some(_) => number(pairs, "Sockets", 1)?,
        None => number(pairs, "Boards", 1)? * number(pairs, "SocketsPerBoard", 1)?,
    };
    let threads = sockets * number(pairs, "CoresPerSocket", 1)? * number(pairs, "ThreadsPerCore", 1)?;
    // CPUs defaults to every thread of every core of every socket (slurm.conf(5), "CPUs").
    let cpus = number(pairs, "CPUs", number(pairs, "Procs", threads)?)?;
    let memory_mb = number(pairs, "RealMemory", 1)?;
    let gpus = match get(pairs, "Gres") {
        Some(g) => gpus_of(g).map_err(|e| format!("Gres={g}: {e}"))?,
        None => 0,
    };
    let cpus = u32::try_from(cpus).map_err(|_| format!("CPUs={cpus}: too many"))?;
    for name in names {
        if c.nodes.iter().any(|n| n.name == name) {
            return Err(format!("NodeName={list}: {name} is defined twice"));
        }
        c.nodes.push(Node { name, cpus, memory_mb, gpus });
    }
    Ok(())
}

/// The GPUs of a `Gres` value: `gpu:4`, `gpu:a100:2(S:0-1)`, `gpu:no_consume:1`, `gpu` (one),
/// several separated by commas; other kinds (`mps:100`) count none.
pub fn gpus_of(gres: &str) -> Result<u32, String> {
    let mut total = 0u64;
    for item in gres.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let item = item.split('(').next().unwrap_or(item);
        let parts: Vec<&str> = item.split(':').collect();
        if !parts[0].eq_ignore_ascii_case("gpu") {
            continue;
        }
        total += match &parts[1..] {
            [] => 1,
            // A count, or a type alone (gpu:a100): one of them.
            [one] => count_of(one).unwrap_or(1),
            [.., n] => count_of(n).ok_or_else(|| format!("{n:?} is not a count"))?,
        };
    }
    u32::try_from(total).map_err(|_| "too many GPUs".to_string())
}

/// A count with Slurm's suffixes (K, M, G: powers of 1024).
fn count_of(s: &str) -> Option<u64> {
    let (digits, scale) = match s.chars().last()?.to_ascii_uppercase() {
        'K' => (&s[..s.len() - 1], 1 << 10),
        'M' => (&s[..s.len() - 1], 1 << 20),
        'G' => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    digits.parse::<u64>().ok().map(|n| n * scale)
}

/// A `PartitionName` line (its defaults merged in), and its `Nodes=` to resolve.
fn partition(pairs: &[(String, String)]) -> Result<(Partition, String), String> {
    let name = get(pairs, "PartitionName").unwrap_or("").to_string();
    let yes = |key: &str| get(pairs, key).is_some_and(|v| v.eq_ignore_ascii_case("YES"));
    let max_time_s = match get(pairs, "MaxTime") {
        None => None,
        Some(v) if v.eq_ignore_ascii_case("INFINITE") || v.eq_ignore_ascii_case("UNLIMITED") => None,
        Some(v) => crate::trace::accounting::duration(v).map_err(|e| format!("MaxTime={v}: {e}"))?,
    };
    let max_nodes = match get(pairs, "MaxNodes") {
        None => None,
        Some(v) if v.eq_ignore_ascii_case("UNLIMITED") || v.eq_ignore_ascii_case("INFINITE") => None,
        Some(v) => Some(v.parse::<u32>().map_err(|_| format!("MaxNodes={v}: not a whole number"))?),
    };
    // `Priority` is the older name that set the tier too (slurm.conf(5), "PriorityTier").
    let tier = match get(pairs, "PriorityTier").or_else(|| get(pairs, "Priority")) {
        None => 1,
        Some(v) => v.parse::<u32>().map_err(|_| format!("PriorityTier={v}: not a whole number"))?,
    };
    let share = get(pairs, "OverSubscribe").or_else(|| get(pairs, "Shared")).unwrap_or("NO");
    let p = Partition {
        name,
        nodes: Vec::new(),
        max_time_s,
        max_nodes,
        default: yes("Default"),
        priority_tier: tier,
        exclusive: share.eq_ignore_ascii_case("EXCLUSIVE"),
        exclusive_user: yes("ExclusiveUser"),
    };
    Ok((p, get(pairs, "Nodes").unwrap_or("").to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cluster written after slurm.conf(5)'s examples: node defaults, ranges, GPUs, a
    /// partition on every node and one on part of them.
    const CONF: &str = "\
# Example slurm.conf
ClusterName=example
SlurmctldHost=head
SchedulerType=sched/backfill
SchedulerParameters=bf_window=4320,bf_resolution=300,bf_max_job_test=500
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
PriorityType=priority/multifactor
PriorityWeightAge=1000
PriorityDecayHalfLife=7-0
NodeName=DEFAULT Sockets=2 CoresPerSocket=16 ThreadsPerCore=1 RealMemory=192000 State=UNKNOWN
NodeName=c[001-004]
NodeName=g[01-02] Gres=gpu:a100:4(S:0-1) RealMemory=512000 \\
   Weight=10
NodeName=big CPUs=128 RealMemory=2048000
PartitionName=batch Nodes=c[001-004],big Default=YES MaxTime=2-00:00:00 State=UP
PartitionName=gpu Nodes=g[01-02] MaxTime=720 MaxNodes=2 PriorityTier=2 OverSubscribe=EXCLUSIVE
PartitionName=all Nodes=ALL MaxTime=INFINITE
";

    #[test]
    fn nodes_partitions_and_settings_come_from_the_file() {
        let c = read(CONF);
        assert_eq!(c.problems, Vec::<String>::new());
        assert_eq!(c.nodes.len(), 7);
        assert_eq!(c.nodes[0], Node { name: "c001".into(), cpus: 32, memory_mb: 192_000, gpus: 0 });
        assert_eq!(c.nodes[4], Node { name: "g01".into(), cpus: 32, memory_mb: 512_000, gpus: 4 });
        assert_eq!(c.nodes[6].cpus, 128, "CPUs given outright wins over the sockets");
        assert_eq!((c.cpus(), c.gpus()), (6 * 32 + 128, 8));
        let [batch, gpu, all] = &c.partitions[..] else { panic!("three partitions: {:?}", c.partitions) };
        assert_eq!(
            (batch.nodes.clone(), batch.default, batch.max_time_s),
            (vec![0, 1, 2, 3, 6], true, Some(2 * 86_400))
        );
        assert_eq!(
            (gpu.max_time_s, gpu.max_nodes, gpu.priority_tier, gpu.exclusive),
            (Some(720 * 60), Some(2), 2, true)
        );
        assert_eq!((all.nodes.len(), all.max_time_s), (7, None));
        assert_eq!(c.setting("schedulerparameters"), Some("bf_window=4320,bf_resolution=300,bf_max_job_test=500"));
        assert_eq!(c.setting("PriorityDecayHalfLife"), Some("7-0"));
        // Not used, and said: the cluster's name, its controller, a node's state and weight, a partition's state.
        for (line, key) in [
            (2, "ClusterName"),
            (3, "SlurmctldHost"),
            (11, "NodeName's State"),
            (13, "NodeName's Weight"),
            (16, "PartitionName's State"),
        ] {
            assert!(c.unused.contains(&(line, key.to_string())), "{key} missing from {:?}", c.unused);
        }
        let text = c.describe().join("\n");
        assert!(text.starts_with("7 nodes: 320 CPUs, 8 GPUs, "), "{text}");
        assert!(text.contains("4 × 32 CPUs, 192000 MB: c001, c002, c003, c004"), "{text}");
        assert!(
            text.contains("partition gpu (PriorityTier 2, whole nodes): 2 nodes, MaxTime 12:00:00, MaxNodes 2"),
            "{text}"
        );
        assert!(
            text.contains("not used: ClusterName (line 2), SlurmctldHost (line 3), NodeName's State (line 11)"),
            "{text}"
        );
    }

    #[test]
    fn a_bad_value_names_its_line_and_field_and_the_rest_is_read() {
        let c = read("NodeName=a[1-2] CPUs=x\nNodeName=b CPUs=4 Gres=gpu:k80:2x\nNodeName=c CPUs=8\nPartitionName=p Nodes=c,d MaxTime=soon\nPartitionName=q Nodes=c,zz\n");
        assert_eq!(c.nodes.iter().map(|n| n.name.as_str()).collect::<Vec<_>>(), ["c"]);
        assert_eq!(
            c.problems,
            [
                "line 1: CPUs=x: not a whole number",
                "line 2: Gres=gpu:k80:2x: \"2x\" is not a count",
                "line 4: MaxTime=soon: not a duration like 1-02:03:04: \"soon\"",
                "line 5: Nodes=c,zz: zz is not defined by a NodeName line",
            ]
        );
        assert_eq!(c.partitions[0].nodes, [0]);
    }

    #[test]
    fn gres_counts_gpus_alone() {
        assert_eq!(gpus_of("gpu:4"), Ok(4));
        assert_eq!(gpus_of("gpu:tesla:2(S:0),gpu:k80:1,mps:100"), Ok(3));
        assert_eq!(gpus_of("gpu"), Ok(1));
        assert_eq!(gpus_of("gpu:a100"), Ok(1));
        assert_eq!(gpus_of("gpu:no_consume:2"), Ok(2));
    }
}
