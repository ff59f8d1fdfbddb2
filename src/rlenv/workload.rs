//! RLScheduler's own SWF reading (its `Workloads` class), which differs from the project's
//! loader on purpose: processors = max(allocated, requested), a missing request falls back
//! to the raw run time, a negative run time becomes 10 s, a zero run time drops the job, the
//! normalising maxima are taken over every job line, and the kept jobs are stably sorted by id.

use std::fmt;
use std::io::Read;

/// Observation values are capped just below 1 (`1 - 1e-5`).
pub(crate) const CAP: f64 = 1.0 - 1e-5;

/// A trace line RLScheduler's reader would refuse, or a trace it cannot run.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkloadError {
    /// 1-based line number (0 when the fault is the trace as a whole).
    pub line: usize,
    /// What is wrong, naming the field.
    pub message: String,
}

impl fmt::Display for WorkloadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.message)
        } else {
            write!(f, "line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for WorkloadError {}

/// One kept job, with the values the environment reads precomputed.
#[derive(Debug, Clone)]
pub struct RlJob {
    /// Field 1.
    pub id: i64,
    /// Field 2 (s).
    pub submit: i64,
    /// Field 4, -1 replaced by 10.
    pub run: i64,
    /// Field 9, or the raw field 4 when field 9 is -1.
    pub request: i64,
    /// max(field 5, field 8).
    pub procs: i64,
    /// Field 10.
    pub memory: i64,
    /// Field 12.
    pub user: i64,
    /// Field 13.
    pub group: i64,
    /// Field 14.
    pub executable: i64,
    /// Nodes the job takes: ceil(procs / procs per node).
    pub nodes: i64,
    /// Features 1-6 of the observation (request, processors, memory, user, group, executable).
    pub(crate) feat: [f64; 6],
    /// Carastan-Neto's F1 key: log10(r) n + 870 log10(s), r or s <= 0 read as 0.1.
    pub(crate) f1: f64,
    /// F2 key: sqrt(r) n + 25600 log10(s).
    pub(crate) f2: f64,
}

/// A trace as RLScheduler reads it.
#[derive(Debug, Clone)]
pub struct Workload {
    /// Kept jobs, stably sorted by id; environment indices are positions here.
    pub jobs: Vec<RlJob>,
    /// Header `; MaxNodes:`.
    pub max_nodes: i64,
    /// Header `; MaxProcs:` (MaxNodes when missing).
    pub max_procs: i64,
    /// MaxProcs / MaxNodes (a float, as the original divides).
    pub procs_per_node: f64,
    /// Largest raw run time (field 4) over every job line.
    pub max_exec_time: i64,
    /// Largest field 10 over every job line (at least 0).
    pub max_requested_memory: i64,
    /// Largest field 12 over every job line (at least 0).
    pub max_user_id: i64,
    /// Largest field 13 over every job line (at least 0).
    pub max_group_id: i64,
    /// Largest field 14 over every job line (at least 0).
    pub max_executable_number: i64,
    /// Job lines read (kept and dropped).
    pub job_lines: usize,
    /// `unrunnable[i]`: jobs among the first `i` that can never run as the original runs them
    /// (negative processors, or wider than the machine).
    unrunnable: Vec<u32>,
}

const NAMES: [&str; 18] = [
    "job number",
    "submit time",
    "wait time",
    "run time",
    "allocated processors",
    "average CPU time",
    "used memory",
    "requested processors",
    "requested time",
    "requested memory",
    "status",
    "user",
    "group",
    "executable",
    "queue",
    "partition",
    "preceding job",
    "think time",
];

fn int_field(line: usize, field: usize, text: &str) -> Result<i64, WorkloadError> {
    text.parse::<i64>().map_err(|_| WorkloadError {
        line,
        message: format!("field {} ({}): {text:?} is not an integer", field + 1, NAMES[field]),
    })
}

fn header_int(line: usize, name: &str, text: &str) -> Result<i64, WorkloadError> {
    let value = text.split(':').nth(1).unwrap_or("").trim();
    value
        .parse::<i64>()
        .map_err(|_| WorkloadError { line, message: format!("{name} header: {value:?} is not an integer") })
}

/// Normalised feature: 1 for -1 (unknown), else value / max capped below 1.
fn id_feature(value: i64, max: i64) -> f64 {
    if value == -1 {
        1.0
    } else {
        (value as f64 / max as f64).min(CAP)
    }
}

fn log10_or_tenth(x: i64) -> f64 {
    if x > 0 {
        (x as f64).log10()
    } else {
        0.1f64.log10()
    }
}

impl Workload {
    /// Reads SWF text (or gzip-compressed SWF, recognised by its magic bytes) as RLScheduler
    /// does. Errors name the line and the field.
    pub fn parse(bytes: &[u8]) -> Result<Workload, WorkloadError> {
        if bytes.starts_with(&[0x1f, 0x8b]) {
            let mut text = Vec::with_capacity(bytes.len() * 6);
            flate2::read::MultiGzDecoder::new(bytes)
                .read_to_end(&mut text)
                .map_err(|e| WorkloadError { line: 0, message: format!("cannot decompress the gzip data: {e}") })?;
            return Workload::parse_text(&text);
        }
        Workload::parse_text(bytes)
    }

    fn parse_text(bytes: &[u8]) -> Result<Workload, WorkloadError> {
        let (mut max_nodes, mut max_procs) = (0i64, 0i64);
        let (mut max_exec, mut max_mem, mut max_user, mut max_group, mut max_exe) = (0i64, 0i64, 0i64, 0i64, 0i64);
        let mut jobs: Vec<RlJob> = Vec::new();
        let mut job_lines = 0usize;
        let mut rest = bytes;
        let mut number = 0usize;
        while !rest.is_empty() {
            let (raw, next) = match memchr::memchr(b'\n', rest) {
                Some(i) => (&rest[..i], &rest[i + 1..]),
                None => (rest, &rest[rest.len()..]),
            };
            rest = next;
            number += 1;
            if raw.first() == Some(&b';') {
                let text = String::from_utf8_lossy(raw);
                if text.starts_with("; MaxNodes:") {
                    max_nodes = header_int(number, "MaxNodes", &text)?;
                }
                if text.starts_with("; MaxProcs:") {
                    max_procs = header_int(number, "MaxProcs", &text)?;
                }
                continue;
            }
            let line = std::str::from_utf8(raw)
                .map_err(|_| WorkloadError { line: number, message: "not UTF-8 text".to_string() })?;
            let mut f = [0i64; 18];
            let mut count = 0;
            for (i, tok) in line.split_ascii_whitespace().enumerate() {
                count = i + 1;
                match i {
                    5 => {
                        tok.parse::<f64>().map_err(|_| WorkloadError {
                            line: number,
                            message: format!("field 6 ({}): {tok:?} is not a number", NAMES[5]),
                        })?;
                    }
                    15 => f[15] = tok.parse::<i64>().unwrap_or(0),
                    0..=17 => f[i] = int_field(number, i, tok)?,
                    _ => {}
                }
            }
            if count < 18 {
                return Err(WorkloadError {
                    line: number,
                    message: format!(
                        "{count} fields where 18 are needed (field {} ({}) is missing)",
                        count + 1,
                        NAMES[count]
                    ),
                });
            }
            job_lines += 1;
            let raw_run = f[3];
            max_exec = max_exec.max(raw_run);
            max_mem = max_mem.max(f[9]);
            max_user = max_user.max(f[11]);
            max_group = max_group.max(f[12]);
            max_exe = max_exe.max(f[13]);
            let run = if raw_run < 0 { 10 } else { raw_run };
            if run == 0 {
                continue;
            }
            jobs.push(RlJob {
                id: f[0],
                submit: f[1],
                run,
                request: if f[8] == -1 { raw_run } else { f[8] },
                procs: f[4].max(f[7]),
                memory: f[9],
                user: f[11],
                group: f[12],
                executable: f[13],
                nodes: 0,
                feat: [0.0; 6],
                f1: 0.0,
                f2: 0.0,
            });
        }
        if max_nodes <= 0 {
            return Err(WorkloadError {
                line: 0,
                message: "no positive '; MaxNodes:' header (RLScheduler sizes its machine in nodes by it)".into(),
            });
        }
        if max_procs == 0 {
            max_procs = max_nodes;
        }
        if max_procs < 0 {
            return Err(WorkloadError { line: 0, message: format!("MaxProcs header is negative ({max_procs})") });
        }
        if jobs.is_empty() {
            return Err(WorkloadError { line: 0, message: "no job with a non-zero run time".into() });
        }
        if max_exec <= 0 {
            return Err(WorkloadError {
                line: 0,
                message: "no positive run time: requested times are divided by the largest one".into(),
            });
        }
        let checks = [
            ("requested memory (field 10)", max_mem, 0usize),
            ("user (field 12)", max_user, 1),
            ("group (field 13)", max_group, 2),
            ("executable (field 14)", max_exe, 3),
        ];
        for (name, max, which) in checks {
            if max == 0 {
                let bad = jobs.iter().find(|j| [j.memory, j.user, j.group, j.executable][which] != -1);
                if let Some(j) = bad {
                    return Err(WorkloadError {
                        line: 0,
                        message: format!(
                            "job {}: {name} is {} while the largest is 0, so its feature would divide by zero",
                            j.id,
                            [j.memory, j.user, j.group, j.executable][which]
                        ),
                    });
                }
            }
        }
        jobs.sort_by_key(|j| j.id);
        let ppn = max_procs as f64 / max_nodes as f64;
        let mut unrunnable = Vec::with_capacity(jobs.len() + 1);
        unrunnable.push(0u32);
        let mut bad = 0u32;
        for j in &mut jobs {
            j.nodes = (j.procs as f64 / ppn).ceil() as i64;
            j.feat = [
                (j.request as f64 / max_exec as f64).min(CAP),
                (j.procs as f64 / max_procs as f64).min(CAP),
                id_feature(j.memory, max_mem),
                id_feature(j.user, max_user),
                id_feature(j.group, max_group),
                id_feature(j.executable, max_exe),
            ];
            j.f1 = log10_or_tenth(j.request) * j.procs as f64 + 870.0 * log10_or_tenth(j.submit) + 0.0;
            j.f2 = (j.request as f64).sqrt() * j.procs as f64 + 25600.0 * (j.submit as f64).log10() + 0.0;
            if j.nodes < 0 || j.nodes > max_nodes {
                bad += 1;
            }
            unrunnable.push(bad);
        }
        Ok(Workload {
            jobs,
            max_nodes,
            max_procs,
            procs_per_node: ppn,
            max_exec_time: max_exec,
            max_requested_memory: max_mem,
            max_user_id: max_user,
            max_group_id: max_group,
            max_executable_number: max_exe,
            job_lines,
            unrunnable,
        })
    }

    /// Number of kept jobs (M).
    pub fn len(&self) -> usize {
        self.jobs.len()
    }

    /// Whether no job was kept (never true for a parsed workload).
    pub fn is_empty(&self) -> bool {
        self.jobs.is_empty()
    }

    /// Jobs in `start..end` that can never run (negative processors or wider than the machine).
    pub fn unrunnable_in(&self, start: usize, end: usize) -> u32 {
        self.unrunnable[end] - self.unrunnable[start]
    }
}
