//! The Slurm job-completion text log (`JobCompType=jobcomp/filetxt`) read as a trace: one line
//! per finished job, `JobId=... UserId=name(uid) ... StartTime=... EndTime=... ProcCnt=...`. A
//! value may hold spaces (`Name=echo $HOSTNAME`): a word that is not `Key=...` belongs to the
//! value before it. The mapping is [`MAPPING`] (the same table as docs/ACCOUNTING.md, shown in the
//! trace report).

use std::collections::HashMap;

use super::accounting::{duration, leading_number, number, time, Held, Left, Run, Tally};
use super::loader::Fields;
use super::swf::LineError;

/// How the log's fields become a job's: (log field, SWF field), for the trace report.
pub(super) const MAPPING: &[(&str, &str)] = &[
    ("JobId's leading number", "job number"),
    ("SubmitTime", "submit time (the cluster's wall-clock time, in tz= or else UTC)"),
    ("StartTime − SubmitTime", "wait time"),
    ("EndTime − StartTime", "run time"),
    ("ProcCnt", "processors"),
    ("TimeLimit", "requested time (`UNLIMITED`: none)"),
    ("JobState", "status: COMPLETED 1, CANCELLED 5, any other end 0"),
    ("UserId, GroupId", "the number in parentheses, else the name's number"),
    ("Partition", "queue, numbered in order of appearance"),
];

/// The keys a job-completion line error can name.
pub(super) const KEYS: [&str; 5] = ["SubmitTime", "StartTime", "EndTime", "ProcCnt", "TimeLimit"];

/// The scan of one job-completion log.
#[derive(Debug, Clone, Default)]
pub(super) struct JobComp {
    names: [HashMap<String, i64>; 3],
    tally: Tally,
}

/// Whether `word` starts a `Key=value` pair.
fn is_key(word: &str) -> bool {
    word.split_once('=').is_some_and(|(k, _)| !k.is_empty() && k.bytes().all(|b| b.is_ascii_alphanumeric()))
}

impl JobComp {
    /// Whether `line` is a job-completion record.
    pub(super) fn is_record(line: &str) -> bool {
        line.starts_with("JobId=") && line.contains(" StartTime=") && line.contains(" EndTime=")
    }

    /// Reads one line: its SWF fields, `None` when it makes no job, or why it cannot be read.
    pub(super) fn line(&mut self, text: &str, line: u64) -> Result<Option<Fields>, LineError> {
        if !text.starts_with("JobId=") {
            return Err(LineError { line, field: None, message: "not a job-completion record (JobId=...)".into() });
        }
        let mut kv: HashMap<&str, String> = HashMap::new();
        let mut last: Option<&str> = None;
        for word in text.split(' ') {
            if is_key(word) {
                let (k, v) = word.split_once('=').unwrap_or((word, ""));
                kv.insert(k, v.to_string());
                last = Some(k);
            } else if let Some(v) = last.and_then(|k| kv.get_mut(k)) {
                v.push(' ');
                v.push_str(word);
            }
        }
        let get = |k: &str| kv.get(k).map(|v| v.trim()).unwrap_or("");
        let err = |field: &'static str, message: String| LineError { line, field: Some(field), message };
        let submit = time(get("SubmitTime")).map_err(|m| err("SubmitTime", m))?;
        let start = time(get("StartTime")).map_err(|m| err("StartTime", m))?;
        let end = time(get("EndTime")).map_err(|m| err("EndTime", m))?;
        let state = get("JobState").to_ascii_uppercase();
        let Some(submit) = submit.or(start) else {
            return Err(err("SubmitTime", "no submit or start time".into()));
        };
        let Some(start) = start else {
            let why = if state.starts_with("CANCELLED") { Left::Cancelled } else { Left::NeverStarted };
            self.tally.left(why, line);
            return Ok(None);
        };
        let Some(end) = end else {
            self.tally.left(Left::NotFinished, line);
            return Ok(None);
        };
        let procs = get("ProcCnt")
            .parse::<i64>()
            .map_err(|_| err("ProcCnt", format!("not a whole number: {:?}", get("ProcCnt"))))?;
        let limit = duration(get("TimeLimit")).map_err(|m| err("TimeLimit", m))?.unwrap_or(-1);
        let id = get("JobId");
        let job = leading_number(id);
        let status = if state.starts_with("COMPLETED") {
            1
        } else if state.starts_with("CANCELLED") {
            5
        } else {
            0
        };
        // `samuel(500)`: the id in parentheses, else the name.
        let id_of = |names: &mut HashMap<String, i64>, v: &str| match v.rsplit_once('(') {
            Some((_, n)) => n.trim_end_matches(')').parse::<i64>().unwrap_or_else(|_| number(names, v)),
            None => number(names, v),
        };
        let user = id_of(&mut self.names[0], get("UserId"));
        let group = id_of(&mut self.names[1], get("GroupId"));
        let queue = number(&mut self.names[2], get("Partition"));
        self.tally.ran(start, end, procs);
        let (alloc, req, held) = (procs, procs, Held::default());
        let run = Run { job, submit, start, end, alloc, req, limit, status, user, group, queue, held };
        Ok(Some(run.record()))
    }

    /// What the end of the scan adds: header lines and the report's warnings.
    pub(super) fn finish(&self) -> (Vec<String>, Vec<String>) {
        let mut header = vec!["Computer: a Slurm cluster (read from its job-completion log)".to_string()];
        header.extend(self.tally.header("partitions as queues", &self.names[2]));
        (header, self.tally.warnings("The Slurm job-completion log"))
    }

    /// Jobs left out by reason, and the runs.
    pub(super) fn tally(&self) -> &Tally {
        &self.tally
    }
}
