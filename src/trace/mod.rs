//! Trace ingestion: SWF bytes (plain or gzip) -> [`Trace`] = jobs + header + a report of
//! everything dropped or altered and why.
//!
//! The defaults are DESIGN.md's "Trace handling defaults"; each is a [`TraceOptions`] switch.
//! A malformed line is reported with its line number and field and skipped; parsing fails
//! as a whole only when no usable job remains.

pub(crate) mod accounting;
mod gunzip;
mod jobcomp;
mod loader;
mod lsf;
mod options;
mod pbs;
mod sacct;
mod sge;
mod swf;
mod write;

use std::collections::BTreeMap;

use serde::Serialize;

pub use loader::{is_gzip, is_packed, Loader, SwfLoader, MAX_HEADER_LINES, MAX_LINE, PAGE_JOB_LIMIT};
pub use options::{MissingEstimate, Overrun, ProcsField, RuntimeSource, TraceOptions, Wide, TRACE_KEYS};
pub use swf::{leading_int, parse_job_line, Header, LineError, FIELD_NAMES};
pub use write::to_swf;

/// Largest time value accepted (about 35,000 years in seconds); larger ones are dropped.
pub const MAX_TIME: i64 = 1 << 40;

/// Largest machine simulated; the machine keeps one processor id per processor.
pub const MAX_MACHINE: u32 = 1 << 24;

/// How many line errors the report keeps verbatim (the rest are only counted).
pub const MAX_REPORTED_ERRORS: usize = 100;

/// The share of a trace's jobs dropped, or altered for one reason, above which every result says so.
pub const LOSS_WARNED: f64 = 0.01;

/// Reasons a line is not kept that lose no job that ran in the period asked for: job steps folded
/// into their job, jobs that never ran or had not ended, records that are not a job's end,
/// checkpoint fragments, and the user's own partition and date filters.
const NOT_LOST: &[&str] = &[
    "job_step_folded",
    "cancelled_before_start",
    "never_started",
    "not_finished",
    "not_an_end_record",
    "partial_record",
    "other_partition",
    "before_from",
    "after_to",
];

/// Where a reason first applied, from a report's first lines by reason: " (first at line 12)",
/// or nothing when the report does not say.
pub fn first_at(lines: &BTreeMap<&'static str, u64>, reason: &str) -> String {
    lines.get(reason).map_or(String::new(), |l| format!(" (first at line {l})"))
}

/// A dropped or altered job line's reason, for people.
pub fn reason_text(reason: &str) -> String {
    let text = match reason {
        "malformed_line" => "malformed",
        "procs_not_positive" => "without a processor count",
        "runtime_not_positive" => "with no runtime (0 s or missing)",
        "estimate_missing" => "without an estimate",
        "submit_missing" => "without a submit time",
        "time_out_of_range" => "with times out of range",
        "wider_than_machine" => "wider than the machine",
        "estimate_from_runtime" => "without an estimate (the runtime stands in)",
        "estimate_from_partition" => "without an estimate (the partition's longest stands in)",
        "procs_from_allocated" => "without requested processors (the allocated stand in)",
        "procs_from_requested" => "without allocated processors (the requested stand in)",
        "killed_at_estimate" => "killed at their estimate (they ran past it)",
        "clamped_to_machine" => "narrowed to the machine",
        other => return other.replace('_', " "),
    };
    text.to_string()
}

/// Says, for the jobs dropped and for each way jobs were altered, when more than
/// [`LOSS_WARNED`] of the job lines are concerned, e.g. "this trace lost 66% of its job lines
/// (80,197 of 121,039): 80,197 without a runtime (first at line 12)".
fn loss_sentences(r: &TraceReport) -> Vec<String> {
    let out_of_scope: u64 = NOT_LOST.iter().filter_map(|k| r.dropped.get(k)).sum();
    let lines = r.job_lines.saturating_sub(out_of_scope).max(r.jobs_kept);
    if lines == 0 {
        return Vec::new();
    }
    let share = |n: u64| n as f64 / lines as f64;
    let pct = |n: u64| {
        let p = 100.0 * share(n);
        if p >= 10.0 {
            format!("{p:.0}%")
        } else {
            format!("{p:.1}%")
        }
    };
    let mut out = Vec::new();
    let lost: Vec<(&&str, &u64)> = r.dropped.iter().filter(|(k, _)| !NOT_LOST.contains(k)).collect();
    let n_lost: u64 = lost.iter().map(|(_, n)| **n).sum();
    if share(n_lost) > LOSS_WARNED {
        let why: Vec<String> = lost
            .iter()
            .map(|(k, n)| format!("{} {}{}", group(**n), reason_text(k), first_at(&r.dropped_lines, k)))
            .collect();
        out.push(format!(
            "this trace lost {} of its job lines ({} of {}): {}; every figure describes the rest",
            pct(n_lost),
            group(n_lost),
            group(lines),
            why.join(", ")
        ));
    }
    // Sorting and load scaling change no job's own fields; overruns let run are the user's choice.
    for (k, &n) in r.altered.iter().filter(|(k, _)| !matches!(**k, "sorted" | "load_scaled" | "ran_past_estimate")) {
        if share(n) > LOSS_WARNED {
            out.push(format!(
                "{} of this trace's job lines ({}) were altered: {} {}{}",
                pct(n),
                group(n),
                group(n),
                reason_text(k),
                first_at(&r.altered_lines, k)
            ));
        }
    }
    out
}

/// A count with thousands separators: 121,039.
fn group(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// One job as the simulation sees it, after the trace options were applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Job {
    /// SWF job number (field 1).
    pub id: u64,
    /// Submit time in seconds (after load scaling).
    pub submit: i64,
    /// Actual runtime in seconds (after the overrun rule); only the engine reads it.
    pub runtime: i64,
    /// User estimate in seconds: the kill time.
    pub estimate: i64,
    /// Runtime the scheduler plans with (estimate, exact or doubled estimate).
    pub sched_runtime: i64,
    /// Processors the job occupies.
    pub procs: u32,
    /// User id (field 12).
    pub user: i32,
    /// Group id (field 13).
    pub group: i32,
    /// Queue number (field 15).
    pub queue: i32,
    /// Partition number (field 16).
    pub partition: i32,
    /// The wait the log recorded (field 3: what the site's own scheduler did), or -1.
    pub logged_wait: i64,
    /// Memory per processor in KB: used (field 7), else requested (field 10), else -1.
    pub memory_kb: i64,
    /// GPUs the job held (accounting logs only; 0 when none or not said).
    pub gpus: u32,
    /// Nodes the job held (accounting logs only; 0 when not said).
    pub nodes: u32,
    /// The job had its nodes to itself (Slurm's --exclusive, PBS's place=excl).
    pub exclusive: bool,
    /// The job's QOS, numbered in order of appearance from 1, or -1.
    pub qos: i32,
}

/// What was read, kept, dropped and changed: shown to the user next to every result.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct TraceReport {
    /// The accounting-log format read (Slurm sacct output, ...); `None` for SWF.
    pub format: Option<&'static str>,
    /// How that format's fields became the jobs': (log field, SWF field), for the report.
    pub mapping: &'static [(&'static str, &'static str)],
    /// Lines in the (decompressed) input, including header and blank lines.
    pub lines_read: u64,
    /// `;` lines.
    pub header_lines: u64,
    /// Blank lines.
    pub blank_lines: u64,
    /// Lines that looked like job records.
    pub job_lines: u64,
    /// Jobs that reach the simulation.
    pub jobs_kept: u64,
    /// Jobs dropped, by reason.
    pub dropped: BTreeMap<&'static str, u64>,
    /// The first line dropped for each reason.
    pub dropped_lines: BTreeMap<&'static str, u64>,
    /// Jobs kept but changed, by reason (`sorted` counts jobs that came before their predecessor
    /// in the file).
    pub altered: BTreeMap<&'static str, u64>,
    /// The first line changed for each reason (not for `load_scaled`, which changes all).
    pub altered_lines: BTreeMap<&'static str, u64>,
    /// The first malformed lines, with line number and field.
    pub errors: Vec<LineError>,
    /// How many malformed lines there were in all.
    pub errors_total: u64,
    /// Whole-file remarks (truncated gzip, exact estimates, ...).
    pub warnings: Vec<String>,
    /// The sentences, also among `warnings`, that say more than [`LOSS_WARNED`] of the jobs were
    /// dropped or altered: every result of the trace repeats them.
    pub loss: Vec<String>,
    /// The line where reading stopped early (a job limit or the user), if it did.
    pub stopped_at_line: Option<u64>,
    /// Machine size in processors.
    pub machine_size: u32,
    /// Where the machine size came from.
    pub machine_source: &'static str,
    /// True when the trace had no estimates and the runtimes stand in for them.
    pub estimates_exact: bool,
    /// First submit time (after scaling).
    pub first_submit: i64,
    /// Last submit time (after scaling).
    pub last_submit: i64,
    /// Last submit minus first submit, in seconds.
    pub span_s: i64,
    /// Distinct users among kept jobs.
    pub users: u64,
    /// Distinct queues among kept jobs.
    pub queues: u64,
    /// The options the trace was read with.
    pub options: TraceOptions,
}

/// A parsed trace, ready to simulate.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Trace {
    /// Jobs sorted by submit time, then job number.
    pub jobs: Vec<Job>,
    /// Machine size in processors.
    pub machine: u32,
    /// The SWF header.
    pub header: Header,
    /// What happened to every line.
    pub report: TraceReport,
    /// The cluster the jobs ran on, when known (a slurm.conf, or inferred from the log): the
    /// `slurm` policies place jobs on its nodes; the papers' policies count its CPUs.
    pub cluster: Option<Box<crate::cluster::Cluster>>,
}

/// Why a trace could not be used at all.
#[derive(Debug, Clone, PartialEq)]
pub struct TraceError {
    /// A sentence for the user.
    pub message: String,
    /// The report so far (what was read and why everything was dropped).
    pub report: Box<TraceReport>,
}

impl std::fmt::Display for TraceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TraceError {}

/// Counts by reason, with the first line of each.
#[derive(Default)]
struct Counts {
    n: BTreeMap<&'static str, u64>,
    first: BTreeMap<&'static str, u64>,
}

impl Counts {
    fn add(&mut self, reason: &'static str, line: u64) {
        *self.n.entry(reason).or_default() += 1;
        self.first.entry(reason).or_insert(line);
    }
}

/// A job record after field selection, before the whole-trace decisions.
struct Raw {
    line: u64,
    id: u64,
    submit: i64,
    runtime: i64,
    estimate: i64,
    procs: i64,
    /// The count came from the other processor field (the first one was missing).
    procs_standin: bool,
    /// SWF status 5 (cancelled) with no runtime: a job that never ran.
    cancelled: bool,
    user: i32,
    group: i32,
    queue: i32,
    partition: i32,
    logged_wait: i64,
    memory_kb: i64,
    gpus: u32,
    nodes: u32,
    exclusive: bool,
    qos: i32,
}

impl Raw {
    /// The job a record describes under `opts`, or `None` for a partial record (status 2-4) the
    /// options skip.
    fn from_record(rec: &loader::Record, opts: &TraceOptions) -> Option<Raw> {
        let f = &rec.f;
        if !opts.keep_partial && (2..=4).contains(&f[10]) {
            return None;
        }
        let (first, second) = match opts.procs {
            ProcsField::Requested => (f[7], f[4]),
            ProcsField::Allocated => (f[4], f[7]),
        };
        Some(Raw {
            line: rec.line,
            id: f[0].max(0) as u64,
            submit: f[1],
            runtime: f[3],
            estimate: f[8],
            procs: if first > 0 { first } else { second },
            procs_standin: first <= 0 && second > 0,
            cancelled: f[10] == 5 && f[3] <= 0,
            user: to_i32(f[11]),
            group: to_i32(f[12]),
            queue: to_i32(f[14]),
            partition: to_i32(f[15]),
            logged_wait: if (0..=MAX_TIME).contains(&f[2]) { f[2] } else { -1 },
            memory_kb: [f[6], f[9]].into_iter().find(|&m| m > 0).unwrap_or(-1),
            gpus: f[loader::GPUS].clamp(0, u32::MAX as i64) as u32,
            nodes: f[loader::NODES].clamp(0, u32::MAX as i64) as u32,
            exclusive: f[loader::FLAGS] > 0 && f[loader::FLAGS] & loader::EXCLUSIVE != 0,
            qos: to_i32(f[loader::QOS]),
        })
    }
}

/// The number of the queue `p` names in the header (`Queue: N name`, case-insensitive), or
/// `p` itself when it is a number.
fn queue_number(p: &str, header: &Header) -> Option<i64> {
    let p = p.trim();
    header.queues.iter().find(|(_, name)| name.eq_ignore_ascii_case(p)).map(|(n, _)| *n).or_else(|| p.parse().ok())
}

fn to_i32(v: i64) -> i32 {
    v.clamp(i32::MIN as i64, i32::MAX as i64) as i32
}

/// The loader of bytes handed over whole. In wasm it reads SWF alone, so the page's start wasm
/// has no accounting-log reader: a log reaches the page through a [`Loader`] and as a packed
/// trace.
#[cfg(not(target_arch = "wasm32"))]
type Whole = Loader;
#[cfg(target_arch = "wasm32")]
type Whole = SwfLoader;

/// Parses SWF bytes (plain or gzip) or an accounting log into a trace, applying `opts`.
pub fn parse(bytes: &[u8], opts: &TraceOptions) -> Result<Trace, TraceError> {
    let report = TraceReport { options: opts.clone(), ..TraceReport::default() };
    if !(0.001..=1000.0).contains(&opts.load) {
        let message = format!("load {} is outside 0.001..1000", opts.load);
        return Err(TraceError { message, report: Box::new(report) });
    }
    let scanned = if loader::is_packed(bytes) {
        loader::decode(bytes).map_err(|message| TraceError { message, report: Box::new(report.clone()) })?
    } else {
        let mut l = Whole::new(None).fields(opts.fields.as_deref());
        l.feed(bytes);
        l.scanned()
    };
    build(&scanned, report)
}

/// The header of a trace (plain, gzip or packed) without its jobs: a file is read up to its
/// first job line, a packed trace's records are skipped. What the page needs before parsing (the
/// time zone the trace names, whose file it fetches); unreadable bytes give an empty header.
pub fn read_header(bytes: &[u8]) -> Header {
    let scanned = if loader::is_packed(bytes) {
        match loader::decode(bytes) {
            Ok(s) => s,
            Err(_) => return Header::default(),
        }
    } else {
        let mut l = Whole::new(Some(0));
        // Fed in pieces, so a gzip stream is inflated only as far as the first job line.
        for piece in bytes.chunks(1 << 16) {
            if !l.feed(piece) {
                break;
            }
        }
        l.scanned()
    };
    scanned.header().0
}

/// Applies the trace options to a scan: the jobs, the machine and the report.
/// How many different values `v` holds.
fn distinct(mut v: Vec<i32>) -> u64 {
    v.sort_unstable();
    v.dedup();
    v.len() as u64
}

fn build(scanned: &loader::Scanned, mut report: TraceReport) -> Result<Trace, TraceError> {
    let opts = report.options.clone();
    report.format = scanned.format;
    report.mapping = scanned.format.map_or(&[], accounting::mapping);
    report.lines_read = scanned.lines_read;
    report.header_lines = scanned.header_lines;
    report.blank_lines = scanned.blank_lines;
    report.job_lines = scanned.job_lines;
    report.errors = scanned.errors.clone();
    report.errors_total = scanned.errors_total;
    report.warnings = scanned.warnings.clone();
    report.stopped_at_line = scanned.stopped_at_line;
    if let Some(message) = &scanned.fatal {
        return Err(TraceError { message: message.clone(), report: Box::new(report) });
    }
    let (mut header, max_procs_line) = scanned.header();
    // tz= names the trace's zone; a log of wall-clock times without a zone is read in it.
    let named_zone = opts.tz.as_deref().and_then(crate::calendar::Zone::named);
    if let Some(name) = named_zone.as_ref().and_then(|z| z.name()) {
        header.time_zone_string = Some(name.to_string());
    }
    let localize = |rec: &mut loader::Record| {
        if let (true, Some(zone)) = (scanned.local_times, &named_zone) {
            let f = &mut rec.f;
            let at = |t: i64| zone.from_local(&crate::calendar::Civil::from_unix(t));
            let (submit, start) = (at(f[1]), at(f[1] + f[2].max(0)));
            let end = at(f[1] + f[2].max(0) + f[3].max(0));
            if f[2] >= 0 {
                f[2] = start - submit;
            }
            if f[3] >= 0 {
                f[3] = end - start;
            }
            f[1] = submit;
        }
    };
    if scanned.local_times && named_zone.is_none() {
        report.warnings.push(
            "the log gives the cluster's wall-clock times without a time zone: they are read as UTC; set tz= to the cluster's zone (tz=Europe/Paris) to read them in it".into(),
        );
    }
    let partition = match opts.partition.as_deref() {
        None => None,
        Some(p) => Some(queue_number(p, &header).ok_or_else(|| {
            let names: Vec<String> = header.queues.iter().map(|(n, name)| format!("{n} {name}")).collect();
            let known = if names.is_empty() {
                "it names none".to_string()
            } else {
                format!("its queues: {}", names.join(", "))
            };
            TraceError {
                message: format!("partition={p}: no queue or partition of that name or number in this trace ({known})"),
                report: Box::new(report.clone()),
            }
        })?),
    };
    let mut dropped = Counts::default();
    if let Some(e) = scanned.errors.first() {
        dropped.first.insert("malformed_line", e.line);
    }
    if scanned.errors_total > 0 {
        dropped.n.insert("malformed_line", scanned.errors_total);
    }
    for &(why, n, first) in &scanned.left_out {
        dropped.n.insert(why, n);
        dropped.first.insert(why, first);
    }
    // Two passes over the packed records, so no intermediate copy of every job is held: the
    // first finds what the whole trace decides (estimates, the widest job), the second builds.
    let damaged = |message: String, report: &TraceReport| TraceError { message, report: Box::new(report.clone()) };
    let mut any_estimate = false;
    let mut any_raw = false;
    // Whether any record gives the processor field the options read first: only then is a job
    // that lacks it (and takes the other field's count) an alteration worth counting.
    let mut any_first_procs = false;
    // The widest job that can run: (procs, line).
    let mut widest = (0i64, 0u64);
    // Per queue (partition): the longest estimate, for `missing_estimate=partition_max`.
    let mut longest: BTreeMap<i32, i64> = BTreeMap::new();
    for rec in scanned.records() {
        let mut rec = rec.map_err(|m| damaged(m, &report))?;
        localize(&mut rec);
        let Some(r) = Raw::from_record(&rec, &opts) else { continue };
        any_raw = true;
        any_estimate |= r.estimate > 0;
        any_first_procs |= r.procs > 0 && !r.procs_standin;
        if r.procs > 0 && r.runtime > 0 && r.procs > widest.0 {
            widest = (r.procs, r.line);
        }
        if r.estimate > 0 && opts.missing_estimate == MissingEstimate::PartitionMax {
            let e = longest.entry(r.queue).or_default();
            *e = (*e).max(r.estimate);
        }
    }
    report.estimates_exact = !any_estimate;
    if !any_estimate && any_raw {
        report
            .warnings
            .push("the trace has no user estimates: runtimes stand in for them (estimates are exact)".into());
    }

    // Machine size: option, header MaxProcs, else the widest job.
    // Only records that can become jobs size the machine: one bad line must not make it huge.
    let at = |line: Option<u64>| line.map_or(String::new(), |l| format!(" (line {l})"));
    let (machine, source): (i64, &'static str) = match (opts.machine, header.max_procs) {
        (Some(m), _) => {
            // The reader's remark on a log that does not give the size is answered by the option.
            if scanned.busiest.is_some() {
                report.warnings.retain(|w| !w.contains("does not say the machine's size"));
            }
            (m as i64, "option")
        }
        (None, Some(m)) if m > 0 => (m, "header MaxProcs"),
        (None, _) if scanned.busiest.is_some() => (scanned.busiest.unwrap_or(0), "most busy at once in the log"),
        (None, max_procs) => {
            if widest.0 > 0 {
                let why = match max_procs {
                    Some(m) => format!("the header's MaxProcs is {m}{}, not a machine size", at(max_procs_line)),
                    None => "the header has no MaxProcs".to_string(),
                };
                report.warnings.push(format!(
                    "{why}: the widest job ({} processors, line {}) sizes the machine; set machine=N to choose",
                    widest.0, widest.1
                ));
            }
            (widest.0, "widest job")
        }
    };
    if machine > MAX_MACHINE as i64 {
        let message = format!(
            "the machine size {machine} ({source}) is over the {MAX_MACHINE} processors simulated: set machine=N"
        );
        return Err(TraceError { message, report: Box::new(report) });
    }
    let machine = machine.max(0) as u32;
    report.machine_size = machine;
    report.machine_source = source;
    if machine == 0 && opts.machine.is_some() {
        // Said now: otherwise every job would be dropped as wider than the machine.
        let message = format!("the machine size is 0 ({source}): set machine=N to the number of processors");
        return Err(TraceError { message, report: Box::new(report) });
    }

    // The period kept, in trace seconds: local midnights in the trace's zone.
    let zone = crate::calendar::Zone::from_header(&header);
    let epoch = header.unix_start_time.unwrap_or(0);
    let local = |(y, m, d): (i64, u32, u32)| zone.from_local(&crate::calendar::Civil::date(y, m, d)) - epoch;
    let from = opts.from.map_or(i64::MIN, local);
    let to = opts.to.map_or(i64::MAX, |(y, m, d)| {
        let next = crate::calendar::civil_from_days(crate::calendar::days_from_civil(y, m, d) + 1);
        local(next)
    });
    let mut altered = Counts::default();
    let mut jobs: Vec<Job> = Vec::with_capacity(scanned.count.min(1 << 24) as usize);
    let mut last_kept = (i64::MIN, 0u64);
    for rec in scanned.records() {
        let mut rec = rec.map_err(|m| damaged(m, &report))?;
        localize(&mut rec);
        let Some(r) = Raw::from_record(&rec, &opts) else {
            dropped.add("partial_record", rec.line);
            continue;
        };
        let reason = if partition.is_some_and(|q| r.queue as i64 != q) {
            Some("other_partition")
        } else if r.submit < from {
            Some("before_from")
        } else if r.submit >= to {
            Some("after_to")
        } else if r.cancelled {
            Some("cancelled_before_start")
        } else if r.procs <= 0 {
            Some("procs_not_positive")
        } else if r.runtime <= 0 {
            Some("runtime_not_positive")
        } else if any_estimate && r.estimate <= 0 && opts.missing_estimate == MissingEstimate::Drop {
            Some("estimate_missing")
        } else if r.submit < 0 {
            Some("submit_missing")
        } else if r.submit > MAX_TIME || r.runtime > MAX_TIME || r.estimate > MAX_TIME {
            Some("time_out_of_range")
        } else if r.procs > machine as i64 && opts.wide == Wide::Drop {
            Some("wider_than_machine")
        } else {
            None
        };
        if let Some(reason) = reason {
            dropped.add(reason, r.line);
            continue;
        }
        if (r.submit, r.id) < last_kept {
            altered.first.entry("sorted").or_insert(r.line);
        }
        last_kept = (r.submit, r.id);
        let mut procs = r.procs;
        if procs > machine as i64 {
            procs = machine as i64;
            altered.add("clamped_to_machine", r.line);
        }
        if r.procs_standin && any_first_procs {
            altered.add(
                match opts.procs {
                    ProcsField::Requested => "procs_from_allocated",
                    ProcsField::Allocated => "procs_from_requested",
                },
                r.line,
            );
        }
        // A job without an estimate is still a job: its runtime, or its partition's longest
        // estimate when asked, stands in (never below its runtime, so it is not killed for it).
        let estimate = if !any_estimate {
            r.runtime
        } else if r.estimate > 0 {
            r.estimate
        } else {
            match (opts.missing_estimate, longest.get(&r.queue)) {
                (MissingEstimate::PartitionMax, Some(&e)) => {
                    altered.add("estimate_from_partition", r.line);
                    e.max(r.runtime)
                }
                _ => {
                    altered.add("estimate_from_runtime", r.line);
                    r.runtime
                }
            }
        };
        let mut runtime = r.runtime;
        if runtime > estimate {
            match opts.overrun {
                Overrun::Kill => {
                    runtime = estimate;
                    altered.add("killed_at_estimate", r.line);
                }
                Overrun::Run => altered.add("ran_past_estimate", r.line),
            }
        }
        let sched_runtime = match opts.runtime {
            RuntimeSource::Estimate => estimate,
            RuntimeSource::Exact => runtime,
            RuntimeSource::X2 => estimate.saturating_mul(2),
        };
        jobs.push(Job {
            id: r.id,
            submit: r.submit,
            runtime,
            estimate,
            sched_runtime,
            procs: procs as u32,
            user: r.user,
            group: r.group,
            queue: r.queue,
            partition: r.partition,
            logged_wait: r.logged_wait,
            memory_kb: r.memory_kb,
            gpus: r.gpus,
            nodes: r.nodes,
            exclusive: r.exclusive,
            qos: r.qos,
        });
    }

    // Scale before sorting, so rounding cannot leave equal submit times out of job-number order.
    if let Some(first) = jobs.iter().map(|j| j.submit).min() {
        if opts.load != 1.0 {
            for j in &mut jobs {
                j.submit = first + ((j.submit - first) as f64 / opts.load).round() as i64;
            }
            *altered.n.entry("load_scaled").or_default() += jobs.len() as u64;
        }
    }
    let out_of_order = jobs.windows(2).filter(|w| (w[1].submit, w[1].id) < (w[0].submit, w[0].id)).count();
    if out_of_order > 0 {
        crate::sorting::by_key(&mut jobs, |j| (j.submit, crate::sorting::unsigned(j.id)));
        *altered.n.entry("sorted").or_default() += out_of_order as u64;
    }
    altered.first.retain(|k, _| altered.n.contains_key(k));
    report.dropped = dropped.n;
    report.dropped_lines = dropped.first;
    report.altered = altered.n;
    report.altered_lines = altered.first;
    report.jobs_kept = jobs.len() as u64;
    if let (Some(a), Some(b)) = (jobs.first(), jobs.last()) {
        report.first_submit = a.submit;
        report.last_submit = b.submit;
        report.span_s = b.submit - a.submit;
    }
    report.loss = loss_sentences(&report);
    report.warnings.extend(report.loss.iter().cloned());
    report.users = distinct(jobs.iter().map(|j| j.user).collect());
    report.queues = distinct(jobs.iter().map(|j| j.queue).collect());

    if jobs.is_empty() {
        let message = no_jobs_message(&report, scanned.binary_line);
        return Err(TraceError { message, report: Box::new(report) });
    }
    if machine == 0 {
        let message = format!("the machine size is 0 ({source}): set machine=N to the number of processors");
        return Err(TraceError { message, report: Box::new(report) });
    }
    #[allow(unused_mut)]
    let mut trace = Trace { jobs, machine, header, report, cluster: None };
    // The page's start engine leaves clusters to the whole one (its worker sends it every task
    // of a trace with a slurm.conf).
    #[cfg(feature = "whole")]
    if let Some(conf) = &opts.cluster {
        crate::cluster::attach(&mut trace, Some(conf), None, opts.machine.is_some())
            .map_err(|m| TraceError { message: format!("cluster: {m}"), report: Box::new(trace.report.clone()) })?;
    }
    Ok(trace)
}

/// Explains why no job is usable, naming the reasons and the first bad line.
fn no_jobs_message(r: &TraceReport, binary_line: Option<u64>) -> String {
    if r.lines_read == 0 {
        return "the file is empty".into();
    }
    if let (Some(line), true) = (binary_line, r.errors_total == r.job_lines) {
        let mut msg = format!("this looks like binary data, not SWF text (control bytes from line {line})");
        if let Some(e) = r.errors.first() {
            msg.push_str(&format!("; first error: {e}"));
        }
        return msg;
    }
    if r.job_lines == 0 {
        return format!("no job lines: the {} lines read are header or blank lines", r.lines_read);
    }
    let reasons: Vec<String> = r
        .dropped
        .iter()
        .map(|(k, v)| match r.dropped_lines.get(k) {
            Some(line) => format!("{v} {k} from line {line}"),
            None => format!("{v} {k}"),
        })
        .collect();
    let mut msg = format!("no usable jobs: all {} job lines were dropped ({})", r.job_lines, reasons.join(", "));
    if let Some(e) = r.errors.first() {
        msg.push_str(&format!("; first error: {e}"));
    }
    msg
}
