//! Grid Engine (SGE 6, Univa GE 8) `accounting` files read as a trace, recognised by their
//! colon-separated records. Times are seconds since 1970, or milliseconds (UGE 8.2 and later),
//! told apart by their size. A tightly integrated parallel job writes one record per host
//! (`pe_taskid` set), one after another: adjacent records of the same job and array task are
//! folded into one job (earliest start, latest end, its slots). A record with no start
//! (`start_time` 0: the job failed before it ran) makes no job. The mapping is [`MAPPING`]
//! (the same table as docs/ACCOUNTING.md, shown in the trace report).
//!
//! The accounting file has no requested run time (`h_rt` is in the category string, when the
//! user gave one): the category's `-l h_rt=...` is read when present, else the job has no
//! estimate.

use std::collections::HashMap;

use super::accounting::{duration, number, Held, Left, Run, Tally};
use super::loader::Fields;
use super::swf::LineError;

/// How the log's fields become a job's: (log field, SWF field), for the trace report.
pub(super) const MAPPING: &[(&str, &str)] = &[
    ("job_number", "job number"),
    ("submission_time", "submit time"),
    ("start_time − submission_time", "wait time"),
    ("end_time − start_time", "run time"),
    ("slots", "processors"),
    ("`-l h_rt=...` in category", "requested time (seconds or HH:MM:SS); none without h_rt"),
    ("exit_status", "status: 0 completed (1), else 0"),
    ("owner, group, qname", "numbered in order of appearance"),
];

/// The fields a Grid Engine line error can name.
pub(super) const FIELDS: [&str; 4] = ["submission_time", "start_time", "end_time", "slots"];

/// One job being read: its key (job number, task number), first line and record.
type Pending = ((i64, i64), u64, Fields);

/// The scan of one Grid Engine accounting file.
#[derive(Debug, Clone, Default)]
pub(super) struct Sge {
    names: [HashMap<String, i64>; 3],
    tally: Tally,
    /// The job whose records are being read (the next record may be another host's of it).
    pending: Option<Pending>,
}

/// Whether `v` reads as an integer.
fn int(v: &str) -> Option<i64> {
    v.parse::<i64>().ok().or_else(|| v.parse::<f64>().ok().filter(|f| f.is_finite()).map(|f| f as i64))
}

impl Sge {
    /// Whether `line` is a Grid Engine accounting record (43 fields or more, numeric job number
    /// and times).
    pub(super) fn is_record(line: &str) -> bool {
        let f: Vec<&str> = line.split(':').collect();
        f.len() >= 43 && [5, 8, 9, 10, 34].iter().all(|&i| f[i].parse::<i64>().is_ok())
    }

    /// Reads one record; returns the job it completes (an earlier one, when this record starts
    /// another job), with its first line.
    pub(super) fn line(&mut self, text: &str, line: u64) -> Result<Option<(u64, Fields)>, LineError> {
        let f: Vec<&str> = text.split(':').collect();
        if f.len() < 43 {
            return Err(LineError {
                line,
                field: None,
                message: format!("{} fields where a Grid Engine accounting record has 43 or more", f.len()),
            });
        }
        let err = |field: &'static str, message: String| LineError { line, field: Some(field), message };
        let time = |i: usize, name: &'static str| -> Result<i64, LineError> {
            let v = int(f[i]).ok_or_else(|| err(name, format!("not a time: {:?}", f[i])))?;
            // Milliseconds (UGE 8.2 and later): beyond any second count until the year 5138.
            Ok(if v > 100_000_000_000 { v / 1000 } else { v })
        };
        let job = int(f[5]).ok_or_else(|| LineError {
            line,
            field: None,
            message: format!("job_number {:?} is not a number", f[5]),
        })?;
        let task = int(f[35]).unwrap_or(0);
        let (submit, start, end) = (time(8, "submission_time")?, time(9, "start_time")?, time(10, "end_time")?);
        let slots = int(f[34]).ok_or_else(|| err("slots", format!("not a number: {:?}", f[34])))?;
        let key = (job, task);
        if let Some((k, _, rec)) = self.pending.as_mut() {
            if *k == key && start > 0 {
                // Another host's record of the same parallel job.
                // The master's record has the job's own submission; the hosts' ones, their tasks'.
                let first_start = rec[1] + rec[2];
                let s = first_start.min(start);
                let e = (first_start + rec[3]).max(end);
                rec[1] = rec[1].min(submit);
                rec[2] = s - rec[1];
                rec[3] = e - s;
                rec[4] = rec[4].max(slots);
                rec[7] = rec[4];
                self.tally.left(Left::Step, line);
                return Ok(None);
            }
        }
        let done = self.flush();
        if start <= 0 {
            self.tally.left(Left::NeverStarted, line);
            return Ok(done);
        }
        let limit = f[39]
            .split_ascii_whitespace()
            .skip_while(|w| *w != "-l")
            .nth(1)
            .and_then(|list| list.split(',').find_map(|r| r.strip_prefix("h_rt=")))
            // h_rt is seconds, or HH:MM:SS.
            .and_then(|v| if v.contains(':') { duration(v).ok().flatten() } else { int(v) })
            .unwrap_or(-1);
        let status = if int(f[12]) == Some(0) && int(f[11]) == Some(0) { 1 } else { 0 };
        let user = number(&mut self.names[0], f[3]);
        let group = number(&mut self.names[1], f[2]);
        let queue = number(&mut self.names[2], f[0]);
        let (alloc, req, held) = (slots, slots, Held::default());
        let run = Run { job, submit, start, end, alloc, req, limit, status, user, group, queue, held };
        let out = run.record();
        self.pending = Some((key, line, out));
        Ok(done)
    }

    /// The job being read, now complete (at a new job's record, or at the end of the file).
    pub(super) fn flush(&mut self) -> Option<(u64, Fields)> {
        let (_, line, rec) = self.pending.take()?;
        self.tally.ran(rec[1] + rec[2], rec[1] + rec[2] + rec[3], rec[4]);
        Some((line, rec))
    }

    /// What the end of the scan adds: header lines and the report's warnings.
    pub(super) fn finish(&self) -> (Vec<String>, Vec<String>) {
        let mut header = vec!["Computer: a Grid Engine cluster (read from its accounting file)".to_string()];
        header.extend(self.tally.header("Grid Engine queues", &self.names[2]));
        (header, self.tally.warnings("The Grid Engine accounting file"))
    }

    /// Jobs left out by reason, and the runs.
    pub(super) fn tally(&self) -> &Tally {
        &self.tally
    }
}
