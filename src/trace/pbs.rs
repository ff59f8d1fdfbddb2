//! PBS, Torque and PBS Pro accounting logs read as a trace, recognised by their records
//! (`MM/DD/YYYY HH:MM:SS;E;123.server;key=value ...`). Each `E` record (a job's end) becomes
//! one SWF record; the other records (queued, started, deleted, rerun) are counted and left
//! out. The mapping is [`MAPPING`] (the same table as docs/ACCOUNTING.md, shown in the
//! trace report).
//!
//! A job deleted before it ran (`start=0`, or no start) is left out and counted.

use std::collections::HashMap;

use super::accounting::{duration, leading_number, number, Held, Left, Run, Tally};
use super::loader::Fields;
use super::swf::LineError;

/// How the log's fields become a job's: (log field, SWF field), for the trace report.
pub(super) const MAPPING: &[(&str, &str)] = &[
    ("the id's leading number", "job number"),
    ("ctime", "submit time (seconds since 1970)"),
    ("start − ctime", "wait time"),
    ("end − start", "run time"),
    ("Resource_List.ncpus, total_execution_slots, Resource_List.nodes (N:ppn=M), else exec_host", "processors"),
    ("Resource_List.walltime", "requested time"),
    ("Resource_List.ngpus, else select's ngpus=, else nodes' gpus=", "GPUs (the slurm policies schedule them)"),
    ("Resource_List.nodect, else select's or nodes' chunk counts; place=excl", "nodes, whole nodes"),
    ("Resource_List.mem (kb, mb, gb, tb)", "requested memory (per processor, KB)"),
    ("Exit_status", "status: 0 completed (1), else 0"),
    ("user, group, queue", "numbered in order of appearance"),
];

/// The keys a PBS line error can name.
pub(super) const KEYS: [&str; 5] = ["ctime", "start", "end", "Resource_List.walltime", "processors"];

/// The scan of one PBS accounting log.
#[derive(Debug, Clone, Default)]
pub(super) struct Pbs {
    names: [HashMap<String, i64>; 3],
    tally: Tally,
}

impl Pbs {
    /// Whether `line` is a PBS accounting record: `MM/DD/YYYY HH:MM:SS;X;id;...`.
    pub(super) fn is_record(line: &str) -> bool {
        let b = line.as_bytes();
        b.len() > 22
            && b[2] == b'/'
            && b[5] == b'/'
            && b[10] == b' '
            && b[13] == b':'
            && b[16] == b':'
            && b[19] == b';'
            && b[20].is_ascii_uppercase()
            && b[21] == b';'
            && b[..19].iter().enumerate().all(|(i, c)| [2, 5, 10, 13, 16].contains(&i) || c.is_ascii_digit())
    }

    /// Reads one record: its SWF fields, `None` when it makes no job, or why it cannot be read.
    pub(super) fn line(&mut self, text: &str, line: u64) -> Result<Option<Fields>, LineError> {
        if !Pbs::is_record(text) {
            return Err(LineError {
                line,
                field: None,
                message: "not a PBS accounting record (MM/DD/YYYY HH:MM:SS;E;id;...)".into(),
            });
        }
        let mut parts = text.splitn(4, ';');
        let (_, kind, id, message) =
            (parts.next(), parts.next(), parts.next().unwrap_or(""), parts.next().unwrap_or(""));
        if kind != Some("E") {
            self.tally.left(Left::NotEnd, line);
            return Ok(None);
        }
        let mut kv: HashMap<&str, &str> = HashMap::new();
        for token in message.split_ascii_whitespace() {
            if let Some((k, v)) = token.split_once('=') {
                kv.entry(k).or_insert(v.trim_matches('"'));
            }
        }
        let err = |field: &'static str, message: String| LineError { line, field: Some(field), message };
        let epoch = |key: &'static str| -> Result<Option<i64>, LineError> {
            match kv.get(key) {
                None => Ok(None),
                Some(v) => v.parse::<i64>().map(Some).map_err(|_| err(key, format!("not seconds since 1970: {v:?}"))),
            }
        };
        let submit = epoch("ctime")?.ok_or_else(|| err("ctime", "the record has no ctime".into()))?;
        let start = epoch("start")?.filter(|&s| s > 0);
        let Some(start) = start else {
            self.tally.left(Left::Cancelled, line);
            return Ok(None);
        };
        let end = epoch("end")?.ok_or_else(|| err("end", "the record has no end".into()))?;
        let limit = match kv.get("Resource_List.walltime") {
            Some(v) => duration(v).map_err(|m| err("Resource_List.walltime", m))?.unwrap_or(-1),
            None => -1,
        };
        let procs = processors(&kv).ok_or_else(|| {
            err("processors", "no processor count (ncpus, total_execution_slots, nodes or exec_host)".into())
        })?;
        let job = leading_number(id);
        let status = match kv.get("Exit_status").and_then(|v| v.parse::<i64>().ok()) {
            Some(0) => 1,
            _ => 0,
        };
        let user = number(&mut self.names[0], kv.get("user").copied().unwrap_or(""));
        let group = number(&mut self.names[1], kv.get("group").copied().unwrap_or(""));
        let queue = number(&mut self.names[2], kv.get("queue").copied().unwrap_or(""));
        self.tally.ran(start, end, procs);
        let (alloc, req, held) = (procs, procs, held(&kv, procs));
        let run = Run { job, submit, start, end, alloc, req, limit, status, user, group, queue, held };
        Ok(Some(run.record()))
    }

    /// What the end of the scan adds: header lines and the report's warnings.
    pub(super) fn finish(&self) -> (Vec<String>, Vec<String>) {
        let mut header = vec!["Computer: a PBS or Torque cluster (read from its accounting log)".to_string()];
        header.extend(self.tally.header("PBS queues", &self.names[2]));
        (header, self.tally.warnings("The PBS accounting log"))
    }

    /// Jobs left out by reason, and the runs.
    pub(super) fn tally(&self) -> &Tally {
        &self.tally
    }
}

/// What a job held besides processors: GPUs from `Resource_List.ngpus` (PBS Pro), else the
/// `ngpus=` of `Resource_List.select` chunks (`2:ncpus=8:ngpus=2`, N x G), else `gpus=` of
/// Torque's `Resource_List.nodes` (`2:ppn=8:gpus=1`); nodes from `Resource_List.nodect`, else the
/// chunk or node counts; memory from `Resource_List.mem` (`16gb`, `512mb`, `1024kb`, the job's
/// total); whole nodes with `Resource_List.place` holding `excl`.
fn held(kv: &HashMap<&str, &str>, procs: i64) -> Held {
    let positive = |v: Option<&&str>| v.and_then(|v| v.parse::<i64>().ok()).filter(|&n| n > 0);
    // Chunks `N:key=value:...` joined by `+`: the sum of N x value of `key`, and of N.
    let chunks = |spec: &str, key: &str| -> (i64, i64) {
        spec.split('+').fold((0, 0), |(sum, count), chunk| {
            let mut it = chunk.split(':');
            let first = it.next().unwrap_or("");
            let (n, rest): (i64, Vec<&str>) = match first.parse::<i64>() {
                Ok(n) => (n, it.collect()),
                Err(_) => (1, std::iter::once(first).chain(it).collect()),
            };
            let v = rest.iter().find_map(|p| p.strip_prefix(key)?.strip_prefix('=')?.parse::<i64>().ok()).unwrap_or(0);
            (sum + n * v, count + n)
        })
    };
    let select = kv.get("Resource_List.select").copied();
    let nodes_spec = kv.get("Resource_List.nodes").copied().filter(|n| n.contains(':') || n.parse::<i64>().is_ok());
    let gpus = positive(kv.get("Resource_List.ngpus"))
        .or_else(|| select.map(|s| chunks(s, "ngpus").0).filter(|&g| g > 0))
        .or_else(|| nodes_spec.map(|s| chunks(s, "gpus").0).filter(|&g| g > 0));
    let nodes = positive(kv.get("Resource_List.nodect"))
        .or_else(|| select.map(|s| chunks(s, "ncpus").1).filter(|&n| n > 0))
        .or_else(|| nodes_spec.map(|s| chunks(s, "ppn").1).filter(|&n| n > 0));
    let mem_kb = kv.get("Resource_List.mem").and_then(|m| {
        let m = m.trim().to_ascii_lowercase();
        let digits: String = m.chars().take_while(|c| c.is_ascii_digit()).collect();
        let unit = &m[digits.len()..];
        let kb = match unit {
            "" | "b" => 1.0 / 1024.0,
            "kb" | "k" => 1.0,
            "mb" | "m" => 1024.0,
            "gb" | "g" => 1024.0 * 1024.0,
            "tb" | "t" => 1024.0 * 1024.0 * 1024.0,
            _ => return None,
        };
        digits.parse::<f64>().ok().map(|d| (d * kb / procs.max(1) as f64).ceil() as i64).filter(|&k| k > 0)
    });
    Held {
        gpus: gpus.unwrap_or(-1),
        nodes: nodes.unwrap_or(-1),
        mem_kb: mem_kb.unwrap_or(-1),
        exclusive: kv.get("Resource_List.place").is_some_and(|p| p.contains("excl")),
        qos: -1,
    }
}

/// A job's processors: `Resource_List.ncpus` (PBS Pro), `total_execution_slots` (Torque 4 and
/// later), `Resource_List.nodes` as `N:ppn=M` (N x M) or `N`, else the cores of `exec_host`
/// (`node/0-19+node2/3`, `node/0*4`).
fn processors(kv: &HashMap<&str, &str>) -> Option<i64> {
    let positive = |v: Option<&&str>| v.and_then(|v| v.parse::<i64>().ok()).filter(|&n| n > 0);
    if let Some(n) = positive(kv.get("Resource_List.ncpus")).or_else(|| positive(kv.get("total_execution_slots"))) {
        return Some(n);
    }
    if let Some(nodes) = kv.get("Resource_List.nodes") {
        // `4:ppn=20:haswell`, or `2`, or `node01+node02` (named nodes: one processor each).
        let total: Option<i64> = nodes
            .split('+')
            .map(|spec| {
                let mut it = spec.split(':');
                let count = it.next().and_then(|n| n.parse::<i64>().ok()).unwrap_or(1);
                let ppn = it.find_map(|p| p.strip_prefix("ppn=")).and_then(|p| p.parse::<i64>().ok()).unwrap_or(1);
                Some(count * ppn)
            })
            .sum();
        if let Some(n) = total.filter(|&n| n > 0) {
            return Some(n);
        }
    }
    let host = kv.get("exec_host")?;
    let mut n = 0i64;
    for part in host.split('+') {
        let cores = part.split_once('/').map_or("0", |(_, c)| c);
        n += match cores.split_once('*') {
            Some((_, k)) => k.parse::<i64>().ok()?,
            None => cores
                .split(',')
                .map(|r| match r.split_once('-') {
                    Some((a, b)) => Some(b.parse::<i64>().ok()? - a.parse::<i64>().ok()? + 1),
                    None => Some(1),
                })
                .sum::<Option<i64>>()?,
        };
    }
    (n > 0).then_some(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn processors_from_each_dialect() {
        let kv = |pairs: &[(&'static str, &'static str)]| pairs.iter().copied().collect::<HashMap<&str, &str>>();
        assert_eq!(processors(&kv(&[("Resource_List.ncpus", "8"), ("exec_host", "a/0")])), Some(8));
        assert_eq!(processors(&kv(&[("total_execution_slots", "80")])), Some(80));
        assert_eq!(processors(&kv(&[("Resource_List.nodes", "4:ppn=20:haswell")])), Some(80));
        assert_eq!(processors(&kv(&[("Resource_List.nodes", "1")])), Some(1));
        assert_eq!(processors(&kv(&[("exec_host", "r5i1n6/0-19+r5i1n7/0-19")])), Some(40));
        assert_eq!(processors(&kv(&[("exec_host", "zulu03/0*4")])), Some(4));
        assert_eq!(processors(&kv(&[])), None);
        assert!(Pbs::is_record("04/01/2010 23:51:53;E;942312.tango-m.vpac.org;user=blair"));
        assert!(!Pbs::is_record("1 0 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1"));
    }

    #[test]
    fn gpus_nodes_and_memory_from_each_dialect() {
        let kv = |pairs: &[(&'static str, &'static str)]| pairs.iter().copied().collect::<HashMap<&str, &str>>();
        // PBS Pro: two chunks of 8 CPUs and 2 GPUs, 64 GB for the job's 16 CPUs, whole nodes.
        let pro = held(
            &kv(&[
                ("Resource_List.select", "2:ncpus=8:ngpus=2"),
                ("Resource_List.mem", "64gb"),
                ("Resource_List.place", "scatter:excl"),
            ]),
            16,
        );
        assert_eq!((pro.gpus, pro.nodes, pro.mem_kb, pro.exclusive), (4, 2, 4 * 1024 * 1024, true));
        // Its own count of GPUs and nodes win.
        let own = held(
            &kv(&[("Resource_List.ngpus", "3"), ("Resource_List.nodect", "1"), ("Resource_List.select", "2:ngpus=2")]),
            1,
        );
        assert_eq!((own.gpus, own.nodes), (3, 1));
        // Torque: nodes=N:ppn=M:gpus=G is N x G GPUs on N nodes.
        let torque = held(&kv(&[("Resource_List.nodes", "2:ppn=8:gpus=1"), ("Resource_List.mem", "512mb")]), 16);
        assert_eq!((torque.gpus, torque.nodes, torque.mem_kb), (2, 2, 32 * 1024));
        // Nothing said: nothing held.
        let none = held(&kv(&[("Resource_List.ncpus", "4")]), 4);
        assert_eq!((none.gpus, none.nodes, none.mem_kb, none.exclusive), (-1, -1, -1, false));
    }
}
