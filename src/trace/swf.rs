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
    /// `QOS: N name` lines (an accounting log's QOS, numbered as its jobs' are).
    pub qos: Vec<(i64, String)>,
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
            "qos" => self.qos.extend(numbered_name(value)),
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

/// The bytes `u8::is_ascii_whitespace` accepts, as a table: one load per byte.
const SPACE: [bool; 256] = {
    let mut t = [false; 256];
    t[b' ' as usize] = true;
    t[b'\t' as usize] = true;
    t[b'\n' as usize] = true;
    t[0x0c] = true;
    t[b'\r' as usize] = true;
    t
};

/// Parses the 18 fields of a job line.
///
/// One pass over the bytes reads each plain integer as its field ends; a field that is not one
/// is read again by the careful path. A wrong field count is reported before a bad field, as
/// a line with a field too many or too few is not a job line at all.
pub fn parse_job_line(bytes: &[u8], line: u64) -> Result<[i64; 18], LineError> {
    let mut out = [0i64; 18];
    let mut n = 0usize;
    let mut bad: Option<(usize, usize, usize)> = None;
    let len = bytes.len();
    let space = |i: usize| SPACE[bytes[i] as usize];
    let mut i = 0;
    while i < len {
        if space(i) {
            i += 1;
            continue;
        }
        let start = i;
        if n < 18 && bad.is_none() {
            // An optionally signed integer of at most 18 digits (no overflow), as `plain_int`.
            let neg = bytes[i] == b'-';
            let mut j = if neg || bytes[i] == b'+' { i + 1 } else { i };
            let digits = j;
            let mut v: i64 = 0;
            while j < len {
                let d = bytes[j].wrapping_sub(b'0');
                if d > 9 {
                    break;
                }
                v = v.wrapping_mul(10).wrapping_add(i64::from(d));
                j += 1;
            }
            if j > digits && j - digits <= 18 && (j == len || space(j)) {
                out[n] = if neg { -v } else { v };
                n += 1;
                i = j;
                continue;
            }
        }
        while i < len && !space(i) {
            i += 1;
        }
        if n < 18 && bad.is_none() {
            bad = Some((n, start, i));
        }
        n += 1;
    }
    if n != 18 {
        return Err(LineError { line, field: None, message: format!("expected 18 fields, found {n}") });
    }
    if let Some((index, start, end)) = bad {
        out[index] = parse_field(&bytes[start..end], index, line)?;
        // The fields after a decimal one are read the careful way too.
        let mut k = index + 1;
        let mut i = end;
        while k < 18 {
            while bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            let start = i;
            while i < bytes.len() && !bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            out[k] = parse_field(&bytes[start..i], k, line)?;
            k += 1;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The straightforward reading: split on whitespace, count, then parse each field.
    fn reference(bytes: &[u8], line: u64) -> Result<[i64; 18], LineError> {
        let fields: Vec<&[u8]> = bytes.split(|b| b.is_ascii_whitespace()).filter(|f| !f.is_empty()).collect();
        if fields.len() != 18 {
            return Err(LineError {
                line,
                field: None,
                message: format!("expected 18 fields, found {}", fields.len()),
            });
        }
        let mut out = [0i64; 18];
        for (i, f) in fields.iter().enumerate() {
            out[i] = parse_field(f, i, line)?;
        }
        Ok(out)
    }

    fn same(a: &Result<[i64; 18], LineError>, b: &Result<[i64; 18], LineError>) -> bool {
        match (a, b) {
            (Ok(x), Ok(y)) => x == y,
            (Err(x), Err(y)) => (x.line, x.field, &x.message) == (y.line, y.field, &y.message),
            _ => false,
        }
    }

    /// A field: mostly integers, then long digit runs around the 18 digits read without
    /// checks, decimals, and stray bytes.
    fn field() -> impl Strategy<Value = String> {
        prop_oneof![
            6 => (-99_999i64..99_999).prop_map(|v| v.to_string()),
            2 => "[-+]?[1-9][0-9]{16,20}",
            1 => "-?[0-9]{1,4}\\.[0-9]{1,3}",
            1 => "[-+.0-9eE\\x01\\xff]{1,6}",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// The one-pass reader gives what the straightforward one gives, values and errors,
        /// on lines of integers, decimals, signs, long digit runs and stray bytes.
        #[test]
        fn job_lines_read_as_the_straightforward_reader_reads_them(
            fields in prop_oneof![
                4 => proptest::collection::vec(field(), 18),
                1 => proptest::collection::vec(field(), 15..21),
            ],
            seps in proptest::collection::vec("[ \\t\\x0c\\r]{1,3}", 21),
        ) {
            let mut line = Vec::new();
            for (f, s) in fields.iter().zip(&seps) {
                line.extend_from_slice(s.as_bytes());
                line.extend_from_slice(f.as_bytes());
            }
            prop_assert!(same(&parse_job_line(&line, 7), &reference(&line, 7)), "{:?}", String::from_utf8_lossy(&line));
        }
    }
}
