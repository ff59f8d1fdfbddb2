//! The Standard Workload Format, line by line: header lines and 18-field job records.
//!
//! Everything here works on bytes, so a file with stray binary or a non-UTF-8 note is
//! reported line by line instead of failing as a whole.

use serde::Serialize;

/// Names of the 18 SWF fields, in order, as used in error messages.
pub const FIELD_NAMES: [&str; 18] = [
    "job_number",
    "submit_time",
    "wait_time",
    "run_time",
    "allocated_processors",
    "average_cpu_time",
    "used_memory",
    "requested_processors",
    "requested_time",
    "requested_memory",
    "status",
    "user_id",
    "group_id",
    "executable",
    "queue",
    "partition",
    "preceding_job",
    "think_time",
];

/// The header of an SWF file: the `; Key: value` lines, with numbers taken from their leading digits.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Header {
    /// `Version`.
    pub version: Option<String>,
    /// `Computer`.
    pub computer: Option<String>,
    /// `Installation`.
    pub installation: Option<String>,
    /// `Acknowledge`.
    pub acknowledge: Option<String>,
    /// `MaxJobs`.
    pub max_jobs: Option<i64>,
    /// `MaxRecords`.
    pub max_records: Option<i64>,
    /// `MaxNodes` (leading number).
    pub max_nodes: Option<i64>,
    /// `MaxProcs` (leading number).
    pub max_procs: Option<i64>,
    /// `UnixStartTime`: the wall-clock time of submit time 0.
    pub unix_start_time: Option<i64>,
    /// `TimeZone` in seconds east of UTC (old-style header key).
    pub time_zone: Option<i64>,
    /// `TimeZoneString`, e.g. `Europe/Stockholm`.
    pub time_zone_string: Option<String>,
    /// `StartTime`, as written.
    pub start_time: Option<String>,
    /// `EndTime`, as written.
    pub end_time: Option<String>,
    /// `MaxQueues`.
    pub max_queues: Option<i64>,
    /// `Queue: N name` lines.
    pub queues: Vec<(i64, String)>,
    /// `MaxPartitions`.
    pub max_partitions: Option<i64>,
    /// `Partition: N name` lines.
    pub partitions: Vec<(i64, String)>,
    /// `Note` lines and their continuation lines.
    pub notes: Vec<String>,
    /// Every header line as written (without the leading `;`), for display and for re-export.
    pub lines: Vec<String>,
}

/// Takes the leading integer of a header value (`338 (batch partition; 512 total)` -> 338).
pub fn leading_int(value: &str) -> Option<i64> {
    let v = value.trim_start();
    let end = v
        .char_indices()
        .find(|&(i, c)| !(c.is_ascii_digit() || (i == 0 && (c == '-' || c == '+'))))
        .map_or(v.len(), |(i, _)| i);
    v[..end].parse().ok()
}

/// Splits a `Queue: 3 normal` value into its number and name.
fn numbered_name(value: &str) -> Option<(i64, String)> {
    let n = leading_int(value)?;
    let rest = value.trim_start().trim_start_matches(['-', '+']).trim_start_matches(|c: char| c.is_ascii_digit());
    Some((n, rest.trim().to_string()))
}

impl Header {
    /// Records one comment line (the bytes after `;`).
    pub fn add_line(&mut self, raw: &str) {
        let text = raw.trim_end();
        self.lines.push(text.to_string());
        let body = text.trim_start();
        let (key, value) = match body.split_once(':') {
            Some((k, v)) if !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric()) => (k, v.trim()),
            _ => {
                // A continuation line (indented text under a Note) or a bare `;`.
                if !body.is_empty() {
                    if let Some(last) = self.notes.last_mut() {
                        last.push('\n');
                        last.push_str(body);
                    }
                }
                return;
            }
        };
        let text = || Some(value.to_string());
        match key.to_ascii_lowercase().as_str() {
            "version" => self.version = text(),
            "computer" => self.computer = text(),
            "installation" => self.installation = text(),
            "acknowledge" => self.acknowledge = text(),
            "maxjobs" => self.max_jobs = leading_int(value),
            "maxrecords" => self.max_records = leading_int(value),
            "maxnodes" => self.max_nodes = leading_int(value),
            "maxprocs" => self.max_procs = leading_int(value),
            "unixstarttime" => self.unix_start_time = leading_int(value),
            "timezone" => self.time_zone = leading_int(value),
            "timezonestring" => self.time_zone_string = text(),
            "starttime" => self.start_time = text(),
            "endtime" => self.end_time = text(),
            "maxqueues" => self.max_queues = leading_int(value),
            "queue" => self.queues.extend(numbered_name(value)),
            "maxpartitions" => self.max_partitions = leading_int(value),
            "partition" => self.partitions.extend(numbered_name(value)),
            "note" => self.notes.push(value.to_string()),
            _ => {}
        }
    }
}

/// Why one job line could not be read.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LineError {
    /// 1-based line number in the (decompressed) file.
    pub line: u64,
    /// The SWF field at fault, if one is.
    pub field: Option<&'static str>,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.field {
            Some(field) => write!(f, "line {}: field {}: {}", self.line, field, self.message),
            None => write!(f, "line {}: {}", self.line, self.message),
        }
    }
}

/// Parses one numeric SWF field; integers, and decimals (rounded), as some logs write `-1.00`.
fn parse_field(text: &[u8], index: usize, line: u64) -> Result<i64, LineError> {
    if let Some(v) = plain_int(text) {
        return Ok(v);
    }
    let err = |message: String| LineError { line, field: Some(FIELD_NAMES[index]), message };
    let s = std::str::from_utf8(text).map_err(|_| err("not a number (binary data)".into()))?;
    if let Ok(v) = s.parse::<i64>() {
        return Ok(v);
    }
    let shown: String = s.chars().take(40).collect();
    let looks_integer = s.trim_start_matches(['-', '+']).bytes().all(|b| b.is_ascii_digit()) && !s.is_empty();
    if looks_integer {
        return Err(err(format!("number out of range: {shown}")));
    }
    match s.parse::<f64>() {
        Ok(f) if f.is_finite() && f.abs() < 9.0e18 => Ok(f.round() as i64),
        Ok(_) => Err(err(format!("number out of range: {shown}"))),
        Err(_) => Err(err(format!("not a number: {shown:?}"))),
    }
}

/// The common case, read without UTF-8 checks: an optionally signed integer of at most 18
/// digits, which cannot overflow. Anything else takes the careful path.
#[inline]
fn plain_int(b: &[u8]) -> Option<i64> {
    let (neg, digits) = match b.first()? {
        b'-' => (true, &b[1..]),
        b'+' => (false, &b[1..]),
        _ => (false, b),
    };
    if digits.is_empty() || digits.len() > 18 {
        return None;
    }
    let mut v: i64 = 0;
    for &c in digits {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        v = v * 10 + i64::from(d);
    }
    Some(if neg { -v } else { v })
}

/// Parses the 18 fields of a job line.
pub fn parse_job_line(bytes: &[u8], line: u64) -> Result<[i64; 18], LineError> {
    let mut fields: [&[u8]; 18] = [&[]; 18];
    let mut n = 0usize;
    for field in bytes.split(|b| b.is_ascii_whitespace()).filter(|f| !f.is_empty()) {
        if n < 18 {
            fields[n] = field;
        }
        n += 1;
    }
    if n != 18 {
        return Err(LineError { line, field: None, message: format!("expected 18 fields, found {n}") });
    }
    let mut out = [0i64; 18];
    for (i, field) in fields.iter().enumerate() {
        out[i] = parse_field(field, i, line)?;
    }
    Ok(out)
}
