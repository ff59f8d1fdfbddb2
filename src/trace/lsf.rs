//! LSF `lsb.acct` accounting files read as a trace, recognised by their records
//! (`"JOB_FINISH" "10.108" 1643910038 101 ...`: space-separated, strings in double quotes with
//! `""` for a quote). Each `JOB_FINISH` record becomes one SWF record; other records are
//! counted and left out. The mapping is [`MAPPING`] (the same table as docs/ACCOUNTING.md, shown in the
//! trace report).
//!
//! A job killed before it was dispatched (`startTime` 0) is left out and counted. The record's
//! layout has lists whose lengths are fields of their own (the asked and execution hosts, the
//! submission extensions, the host usages...), so it is walked group by group; a record of
//! version 10.108 or later is checked to its last group, and one cut short is reported naming
//! the group where it ends. A count of -1 (what LSF writes where it has no entries) is an
//! empty list.

use std::collections::HashMap;

use super::accounting::{number, Held, Left, Run, Tally};
use super::loader::Fields as Record;
use super::swf::LineError;

/// How the log's fields become a job's: (log field, SWF field), for the trace report.
pub(super) const MAPPING: &[(&str, &str)] = &[
    ("jobId", "job number (array elements share it)"),
    ("submitTime", "submit time (seconds since 1970)"),
    ("startTime − submitTime", "wait time"),
    ("Event Time − startTime", "run time (the record is written as the job ends)"),
    ("numAllocSlots (LSF 9 and later), else numProcessors", "allocated processors"),
    ("numProcessors", "requested processors"),
    ("runLimit (LSF 9 and later; -1: none)", "requested time"),
    ("jStatus", "status: 64 (DONE) 1, else 0"),
    ("userName, queue", "user, queue (numbered in order of appearance)"),
];

/// The fields an LSF line error can name.
pub(super) const FIELDS: [&str; 9] = [
    "version",
    "Event Time",
    "jobId",
    "numProcessors",
    "submitTime",
    "startTime",
    "numAskedHosts",
    "numExHosts",
    "jStatus",
];

/// The scan of one `lsb.acct` file.
#[derive(Debug, Clone, Default)]
pub(super) struct Lsf {
    names: [HashMap<String, i64>; 2],
    tally: Tally,
}

/// The tokens of a record: bare words, and quoted strings with `""` read as one quote.
fn tokens(line: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut chars = line.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c == ' ' || c == '\t' {
            chars.next();
            continue;
        }
        let mut word = String::new();
        if c == '"' {
            chars.next();
            loop {
                match chars.next() {
                    Some('"') if chars.peek() == Some(&'"') => {
                        chars.next();
                        word.push('"');
                    }
                    Some('"') => break,
                    Some(c) => word.push(c),
                    None => return Err(format!("a quoted string opened in field {} is not closed", out.len() + 1)),
                }
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c == ' ' || c == '\t' {
                    break;
                }
                word.push(c);
                chars.next();
            }
        }
        out.push(word);
    }
    Ok(out)
}

/// A cursor over a record's tokens that names what is missing or wrong.
struct Walk<'a> {
    t: &'a [String],
    at: usize,
}

impl Walk<'_> {
    fn take(&mut self, what: &str) -> Result<&str, String> {
        let v = self.t.get(self.at).ok_or_else(|| format!("the record ends before {what} (field {})", self.at + 1))?;
        self.at += 1;
        Ok(v)
    }

    fn int(&mut self, what: &str) -> Result<i64, String> {
        let at = self.at + 1;
        let v = self.take(what)?;
        v.parse::<i64>().map_err(|_| format!("{what} (field {at}) is not a whole number: {v:?}"))
    }

    fn float(&mut self, what: &str) -> Result<f64, String> {
        let at = self.at + 1;
        let v = self.take(what)?;
        v.parse::<f64>().map_err(|_| format!("{what} (field {at}) is not a number: {v:?}"))
    }

    /// Skips `n` fields.
    fn skip(&mut self, n: usize, what: &str) -> Result<(), String> {
        for _ in 0..n {
            self.take(what)?;
        }
        Ok(())
    }

    /// A count, then that many groups of `each` fields. LSF writes -1 in a count it has
    /// nothing for (`numHostRusage`, `num_network` on 9.1 and 10.1 clusters) and then no
    /// entries, as a C loop up to -1 writes none: -1 is read as an empty list.
    fn list(&mut self, what: &str, each: usize) -> Result<i64, String> {
        let n = self.int(what)?;
        if n == -1 {
            return Ok(0);
        }
        if !(0..=1_000_000).contains(&n) {
            return Err(format!("{what} (field {}) is not a count: {n}", self.at));
        }
        for _ in 0..n as usize * each {
            let at = self.at + 1;
            self.t
                .get(self.at)
                .ok_or_else(|| format!("the record ends inside the {n} entries of {what} (field {at})"))?;
            self.at += 1;
        }
        Ok(n)
    }

    fn done(&self) -> bool {
        self.at >= self.t.len()
    }
}

/// A version string as a number: `"10.108"` is 10.108, `"9.13"` 9.13.
fn version(v: &str) -> Option<f64> {
    v.parse::<f64>().ok().filter(|&x| x > 0.0)
}

impl Lsf {
    /// Whether `line` is an `lsb.acct` record: a quoted event name, then a quoted version.
    pub(super) fn is_record(line: &str) -> bool {
        let Some(rest) = line.strip_prefix('"') else { return false };
        let Some((event, rest)) = rest.split_once('"') else { return false };
        !event.is_empty()
            && event.bytes().all(|b| b.is_ascii_uppercase() || b == b'_')
            && rest
                .trim_start()
                .strip_prefix('"')
                .and_then(|r| r.split_once('"'))
                .is_some_and(|(v, _)| version(v).is_some())
    }

    /// Reads one record: its SWF fields, `None` when it makes no job, or why it cannot be read.
    pub(super) fn line(&mut self, text: &str, line: u64) -> Result<Option<Record>, LineError> {
        if text.starts_with('#') {
            // Notes and error logs some tools interleave.
            return Ok(None);
        }
        let bad = |message: String| LineError { line, field: None, message };
        let t = tokens(text).map_err(bad)?;
        let event = t.first().map(String::as_str).unwrap_or("");
        if !text.starts_with('"') || event.is_empty() || !event.bytes().all(|b| b.is_ascii_uppercase() || b == b'_') {
            return Err(bad("not an lsb.acct record (\"JOB_FINISH\" \"10.108\" ...)".into()));
        }
        if event != "JOB_FINISH" {
            self.tally.left(Left::NotEnd, line);
            return Ok(None);
        }
        let v = t.get(1).and_then(|v| version(v)).ok_or_else(|| LineError {
            line,
            field: Some("version"),
            message: format!(
                "field 2 is {:?} where the record's version (such as \"10.108\") belongs",
                t.get(1).map(String::as_str).unwrap_or("")
            ),
        })?;
        let record = read(&t, v).map_err(|(field, message)| LineError { line, field, message })?;
        if record.start <= 0 {
            self.tally.left(Left::Cancelled, line);
            return Ok(None);
        }
        let user = number(&mut self.names[0], &t[11]);
        let queue = number(&mut self.names[1], &t[12]);
        let Fields { job, submit, start, end, alloc, req, limit, status, nodes } = record;
        self.tally.ran(start, end, alloc);
        let held = Held { nodes, ..Held::default() };
        let run = Run { job, submit, start, end, alloc, req, limit, status, user, group: -1, queue, held };
        Ok(Some(run.record()))
    }

    /// What the end of the scan adds: header lines and the report's warnings.
    pub(super) fn finish(&self) -> (Vec<String>, Vec<String>) {
        let mut header = vec!["Computer: an LSF cluster (read from its lsb.acct file)".to_string()];
        header.extend(self.tally.header("LSF queues", &self.names[1]));
        (header, self.tally.warnings("The LSF accounting file"))
    }

    /// Jobs left out by reason, and the runs.
    pub(super) fn tally(&self) -> &Tally {
        &self.tally
    }
}

/// What a `JOB_FINISH` record gives a job.
struct Fields {
    job: i64,
    submit: i64,
    start: i64,
    end: i64,
    alloc: i64,
    req: i64,
    limit: i64,
    status: i64,
    /// Distinct hosts among execHosts (a slot each), or -1 when it lists none.
    nodes: i64,
}

/// Walks a `JOB_FINISH` record of version `v`; on failure, the field it names (if one of
/// [`FIELDS`]) and why.
fn read(t: &[String], v: f64) -> Result<Fields, (Option<&'static str>, String)> {
    let field = |name: &'static str| move |m: String| (Some(name), m);
    let other = |m: String| (None, m);
    let mut w = Walk { t, at: 2 };
    let end = w.int("Event Time").map_err(field("Event Time"))?;
    let job = w.int("jobId").map_err(field("jobId"))?;
    w.skip(2, "userId and options").map_err(other)?;
    let req = w.int("numProcessors").map_err(field("numProcessors"))?;
    let submit = w.int("submitTime").map_err(field("submitTime"))?;
    w.skip(2, "beginTime and termTime").map_err(other)?;
    let start = w.int("startTime").map_err(field("startTime"))?;
    // userName ... jobFile
    w.skip(11, "jobFile").map_err(other)?;
    w.list("numAskedHosts", 1).map_err(field("numAskedHosts"))?;
    let ex_at = w.at;
    let ex = w.list("numExHosts", 1).map_err(field("numExHosts"))? as usize;
    // execHosts lists a host for each slot: the distinct ones are the job's nodes.
    let mut hosts: Vec<&str> = t.get(ex_at + 1..ex_at + 1 + ex).unwrap_or(&[]).iter().map(String::as_str).collect();
    hosts.sort_unstable();
    hosts.dedup();
    let nodes = if hosts.is_empty() { -1 } else { hosts.len() as i64 };
    let j_status = w.int("jStatus").map_err(field("jStatus"))?;
    w.float("hostFactor").map_err(other)?;
    // jobName, command, the 19 rusage fields, mailUser, projectName, exitStatus,
    // maxNumProcessors, loginShell, timeEvent.
    w.skip(2, "command").map_err(other)?;
    for _ in 0..19 {
        w.float("the job's resource usage").map_err(other)?;
    }
    w.skip(6, "timeEvent").map_err(other)?;
    w.int("idx").map_err(other)?;
    let mut fields = Fields {
        job,
        submit,
        start,
        end,
        alloc: req,
        req,
        limit: -1,
        status: if j_status == 64 { 1 } else { 0 },
        nodes,
    };
    if v < 9.0 {
        // LSF 7 and 8: their later fields give nothing a simulation reads.
        return Ok(fields);
    }
    // maxRMem ... jobDescription: 23 fields.
    w.skip(23, "jobDescription").map_err(other)?;
    w.list("submitEXT", 2).map_err(other)?;
    w.list("numHostRusage", 5).map_err(other)?;
    let limit = w.int("runLimit").map_err(other)?;
    fields.limit = if limit > 0 { limit } else { -1 };
    // options3, avgMem, effectiveResReq, then srcCluster ... subcwd: 11 fields.
    w.skip(14, "subcwd").map_err(other)?;
    w.list("num_network", 2).map_err(other)?;
    // affinity, then serial_job_energy, cpi, gips, gbs, gflops.
    w.skip(1, "affinity").map_err(other)?;
    for _ in 0..5 {
        w.float("the energy and performance figures").map_err(other)?;
    }
    let slots = w.list("numAllocSlots", 1).map_err(other)?;
    if slots > 0 {
        fields.alloc = slots;
    }
    if v < 10.108 {
        // Earlier versions end here or after a few of the groups below.
        return Ok(fields);
    }
    w.int("ineligiblePendTime").map_err(other)?;
    w.list("indexRangeCnt", 3).map_err(other)?;
    w.int("requeueTime").map_err(other)?;
    let gpus = w.int("numGPURusages").map_err(other)?;
    for _ in 0..gpus.clamp(0, 100_000) {
        w.take("a GPU usage's host").map_err(other)?;
        w.list("a GPU usage's numKVP", 2).map_err(other)?;
    }
    w.list("storageInfoC", 1).map_err(other)?;
    w.list("numKVP", 2).map_err(other)?;
    if !w.done() {
        return Err((None, format!("{} fields where the record's lists end at field {}", t.len(), w.at)));
    }
    Ok(fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_strings_and_records() {
        assert_eq!(tokens(r#""A" 1 "b ""c"" d" """#).unwrap(), vec!["A", "1", r#"b "c" d"#, ""]);
        assert!(tokens(r#""open"#).is_err());
        assert!(Lsf::is_record(r#""JOB_FINISH" "10.108" 1643910038 101"#));
        assert!(Lsf::is_record(r#""JOB_NEW" "10.108" 1643910038"#));
        assert!(!Lsf::is_record(r#""JOB_FINISH" ¡ "7.06" 1"#));
        assert!(!Lsf::is_record("04/01/2010 23:51:53;E;942312.tango-m.vpac.org;user=blair"));
    }
}
