//! What every accounting-log reader shares: the reasons a line makes no job, counted with
//! their first lines, the runs that size the machine, and the names numbered in order of
//! appearance. The readers themselves are [`super::sacct`], [`super::jobcomp`], [`super::pbs`],
//! [`super::sge`] and [`super::lsf`]; the mapping of
//! each to SWF is in docs/ACCOUNTING.md.

use std::collections::HashMap;

use super::loader::{Fields, EXCLUSIVE, FLAGS, GPUS, NODES, QOS, WIDTH};
use super::swf::LineError;

/// One accounting log's reader, as the scan drives it: a line in, a job (or none) out.
pub(super) trait Reader {
    /// The SWF fields of one record, with the line they are numbered by; `None` for a line
    /// that makes no job (a step, a start record, a job that never ran), counted in the tally.
    fn line(&mut self, text: &str, line: u64) -> Result<Option<(u64, Fields)>, LineError>;
    /// The next job the last record stands for (an array record's other tasks).
    fn more(&mut self) -> Option<(u64, Fields)> {
        None
    }
    /// A job still held when the input ends.
    fn flush(&mut self) -> Option<(u64, Fields)> {
        None
    }
    /// The header lines the log implies and the warnings of the whole read.
    fn finish(&self) -> (Vec<String>, Vec<String>);
    /// What the reader counted.
    fn tally(&self) -> &Tally;
    /// One of [`FORMATS`].
    fn format(&self) -> &'static str;
    /// Whether its times are the cluster's local clock (read with the trace's time zone).
    fn local_times(&self) -> bool {
        false
    }
    /// Columns found by position: the line is read as it is.
    fn by_position(&self) -> bool {
        false
    }
    /// White space at a line's ends may be a delimiter: the line is read untrimmed.
    fn untrimmed(&self) -> bool {
        false
    }
    /// Why the log cannot be read at all (a column every job needs is missing).
    fn missing(&self) -> Option<String> {
        None
    }
}

/// What the first line of a file (after blank and comment lines) says the file is.
pub(super) enum First<L> {
    /// Not an accounting log: SWF.
    Swf,
    /// An accounting log; the line is its first record (`header`: false) or its header line.
    Log { reader: L, header: bool, warning: Option<String> },
    /// An accounting log that cannot be read, and why.
    Refused(String),
    /// May head sacct's fixed-width output: the next line (dashes, or not) decides.
    MaybeFixed,
}

/// The formats a loader reads besides SWF. A loader of [`SwfOnly`] compiles without any
/// accounting-log reader: the page's start wasm has only such a loader, and the whole wasm
/// adds one of [`Every`].
pub(super) trait Formats {
    /// The reader of a log, once the first line has said which.
    type Log: Reader;
    /// Whether any format besides SWF is read.
    const ANY: bool;
    /// Reads the first line: `text` trimmed, `raw` as it is, `fields` the user's sacct columns.
    fn first(text: &str, raw: Option<&str>, fields: Option<&str>) -> First<Self::Log>;
    /// Reads a possible fixed-width sacct header with the dashed line under it.
    fn fixed(header: &str, dashes: &str) -> Option<Self::Log>;
}

/// SWF and every accounting log.
pub(super) struct Every;

/// SWF alone.
pub(super) struct SwfOnly;

/// No log: what a loader of [`SwfOnly`] reads with.
pub(super) enum Never {}

impl Formats for SwfOnly {
    type Log = Never;
    const ANY: bool = false;
    fn first(_: &str, _: Option<&str>, _: Option<&str>) -> First<Never> {
        First::Swf
    }
    fn fixed(_: &str, _: &str) -> Option<Never> {
        None
    }
}

impl Reader for Never {
    fn line(&mut self, _: &str, _: u64) -> Result<Option<(u64, Fields)>, LineError> {
        match *self {}
    }
    fn finish(&self) -> (Vec<String>, Vec<String>) {
        match *self {}
    }
    fn tally(&self) -> &Tally {
        match *self {}
    }
    fn format(&self) -> &'static str {
        match *self {}
    }
}

impl Formats for Every {
    type Log = Log;
    const ANY: bool = true;
    fn first(text: &str, raw: Option<&str>, fields: Option<&str>) -> First<Log> {
        first(text, raw, fields)
    }
    fn fixed(header: &str, dashes: &str) -> Option<Log> {
        super::sacct::Sacct::from_fixed(header, dashes).map(|s| Log::Sacct(Box::new(s)))
    }
}

/// The reader of the accounting log being scanned.
pub(super) enum Log {
    /// Slurm `sacct` output.
    Sacct(Box<super::sacct::Sacct>),
    /// Slurm's job-completion text log.
    JobComp(Box<super::jobcomp::JobComp>),
    /// PBS, Torque or PBS Pro.
    Pbs(Box<super::pbs::Pbs>),
    /// Grid Engine.
    Sge(Box<super::sge::Sge>),
    /// LSF's `lsb.acct`.
    Lsf(Box<super::lsf::Lsf>),
}

impl Reader for Log {
    fn line(&mut self, text: &str, line: u64) -> Result<Option<(u64, Fields)>, LineError> {
        let at = |r: Option<Fields>| r.map(|f| (line, f));
        match self {
            Log::Sacct(s) => s.line(text, line).map(at),
            Log::JobComp(j) => j.line(text, line).map(at),
            Log::Pbs(p) => p.line(text, line).map(at),
            Log::Lsf(l) => l.line(text, line).map(at),
            Log::Sge(g) => g.line(text, line),
        }
    }
    fn more(&mut self) -> Option<(u64, Fields)> {
        match self {
            Log::Sacct(s) => s.more(),
            _ => None,
        }
    }
    fn flush(&mut self) -> Option<(u64, Fields)> {
        match self {
            Log::Sge(g) => g.flush(),
            _ => None,
        }
    }
    fn finish(&self) -> (Vec<String>, Vec<String>) {
        match self {
            Log::Sacct(s) => s.finish(),
            Log::JobComp(j) => j.finish(),
            Log::Pbs(p) => p.finish(),
            Log::Sge(g) => g.finish(),
            Log::Lsf(l) => l.finish(),
        }
    }
    fn tally(&self) -> &Tally {
        match self {
            Log::Sacct(s) => s.tally(),
            Log::JobComp(j) => j.tally(),
            Log::Pbs(p) => p.tally(),
            Log::Sge(g) => g.tally(),
            Log::Lsf(l) => l.tally(),
        }
    }
    fn format(&self) -> &'static str {
        match self {
            Log::Sacct(_) => FORMATS[0],
            Log::JobComp(_) => FORMATS[1],
            Log::Pbs(_) => FORMATS[2],
            Log::Sge(_) => FORMATS[3],
            Log::Lsf(_) => FORMATS[4],
        }
    }
    fn local_times(&self) -> bool {
        matches!(self, Log::Sacct(_) | Log::JobComp(_)) && self.tally().any_run()
    }
    fn by_position(&self) -> bool {
        matches!(self, Log::Sacct(s) if s.is_fixed())
    }
    fn untrimmed(&self) -> bool {
        matches!(self, Log::Sacct(s) if s.untrimmed())
    }
    fn missing(&self) -> Option<String> {
        match self {
            Log::Sacct(s) => s.missing(),
            _ => None,
        }
    }
}

/// What the first line says, reading it with every reader.
fn first(text: &str, raw: Option<&str>, fields: Option<&str>) -> First<Log> {
    use super::sacct::Sacct;
    let record = if super::pbs::Pbs::is_record(text) {
        Some(Log::Pbs(Box::default()))
    } else if super::sge::Sge::is_record(text) {
        Some(Log::Sge(Box::default()))
    } else if super::jobcomp::JobComp::is_record(text) {
        Some(Log::JobComp(Box::default()))
    } else if super::lsf::Lsf::is_record(text) {
        Some(Log::Lsf(Box::default()))
    } else {
        None
    };
    if record.is_none() {
        if let Some(sacct) = raw.and_then(Sacct::from_header) {
            return First::Log { reader: Log::Sacct(Box::new(sacct)), header: true, warning: None };
        }
    }
    if Sacct::headless(text) {
        // Header-less: the columns the user named, else a documented tool's order.
        if let Some(sacct) = fields.and_then(Sacct::from_fields) {
            return First::Log { reader: Log::Sacct(Box::new(sacct)), header: false, warning: None };
        }
        if let Some((sacct, which)) = Sacct::known_order(text) {
            let warning = format!(
                "the sacct output has no header line: its columns were read in {which}; set fields= to the --format list if they are not"
            );
            return First::Log { reader: Log::Sacct(Box::new(sacct)), header: false, warning: Some(warning) };
        }
        return First::Refused(
            "this looks like sacct -P output printed without its header line (--noheader): the columns cannot be told apart; set fields= to the --format list it was printed with (fields=JobIDRaw,Submit,Start,End,AllocCPUS,Timelimit,State), run sacct without --noheader, or add the --format list as the first line, separated by |".to_string(),
        );
    }
    if let Some(reader) = record {
        return First::Log { reader, header: false, warning: None };
    }
    if Sacct::may_head_fixed(text) {
        return First::MaybeFixed;
    }
    First::Swf
}

/// The accounting formats read, as the trace report names them.
pub const FORMATS: [&str; 5] = [
    "Slurm sacct output",
    "Slurm job-completion log",
    "PBS, Torque or PBS Pro accounting log",
    "Grid Engine accounting file",
    "LSF lsb.acct file",
];

/// How format `format` (one of [`FORMATS`]) maps its fields to a job's: (log field, SWF field).
pub fn mapping(format: &str) -> &'static [(&'static str, &'static str)] {
    match FORMATS.iter().position(|&f| f == format) {
        Some(0) => super::sacct::MAPPING,
        Some(1) => super::jobcomp::MAPPING,
        Some(2) => super::pbs::MAPPING,
        Some(3) => super::sge::MAPPING,
        Some(4) => super::lsf::MAPPING,
        _ => &[],
    }
}

/// One job as an accounting log tells it: what its SWF record is made of.
#[derive(Debug, Clone, Copy)]
pub(super) struct Run {
    pub job: i64,
    pub submit: i64,
    pub start: i64,
    pub end: i64,
    /// Processors allocated and requested.
    pub alloc: i64,
    pub req: i64,
    /// Requested time, seconds, or -1.
    pub limit: i64,
    /// SWF status: 1 completed, 0 failed, 5 cancelled.
    pub status: i64,
    pub user: i64,
    pub group: i64,
    pub queue: i64,
    /// What the job held besides processors, when the log says.
    pub held: Held,
}

/// What a job held besides processors, as an accounting log tells it (-1: not said).
#[derive(Debug, Clone, Copy)]
pub(super) struct Held {
    /// GPUs (Slurm's gres/gpu, PBS's ngpus).
    pub gpus: i64,
    /// Nodes.
    pub nodes: i64,
    /// Memory per processor, KB (SWF field 10's unit).
    pub mem_kb: i64,
    /// The job had its nodes to itself.
    pub exclusive: bool,
    /// QOS, numbered in order of appearance from 1.
    pub qos: i64,
}

impl Default for Held {
    fn default() -> Self {
        Held { gpus: -1, nodes: -1, mem_kb: -1, exclusive: false, qos: -1 }
    }
}

impl Run {
    /// The SWF record (fields the logs do not give are -1).
    pub(super) fn record(&self) -> Fields {
        let mut out = [-1i64; WIDTH];
        out[0] = self.job;
        out[1] = self.submit;
        out[2] = self.start - self.submit;
        out[3] = self.end - self.start;
        out[4] = self.alloc;
        out[7] = self.req;
        out[8] = self.limit;
        out[10] = self.status;
        out[11] = self.user;
        out[12] = self.group;
        out[14] = self.queue;
        out[9] = self.held.mem_kb;
        out[GPUS] = self.held.gpus;
        out[NODES] = self.held.nodes;
        out[FLAGS] = if self.held.exclusive { EXCLUSIVE } else { 0 };
        out[QOS] = self.held.qos;
        out
    }
}

/// The leading number of a job id (`4215033.casper-pbs`, `1670440.bruce-m`).
pub(super) fn leading_number(id: &str) -> i64 {
    id.bytes().take_while(u8::is_ascii_digit).fold(0i64, |n, d| n.saturating_mul(10).saturating_add((d - b'0') as i64))
}

/// Why a line of an accounting log makes no job: the trace report's drop reasons.
pub(super) const LEFT_OUT: [&str; 5] =
    ["job_step_folded", "cancelled_before_start", "never_started", "not_finished", "not_an_end_record"];

/// A reason of [`LEFT_OUT`].
#[derive(Debug, Clone, Copy)]
pub(super) enum Left {
    /// A Slurm job step (`123.batch`): folded into its job.
    Step = 0,
    /// Cancelled (or deleted) before it started.
    Cancelled = 1,
    /// Never started (pending, or no start time).
    NeverStarted = 2,
    /// Running, suspended or requeued: no end yet.
    NotFinished = 3,
    /// A PBS or LSF record other than a job's end (queued, started, deleted...).
    NotEnd = 4,
}

/// Counts of what made no job, and the runs of the jobs kept.
#[derive(Debug, Clone, Default)]
pub(super) struct Tally {
    /// Per reason: how many lines, and the first.
    left: [(u64, u64); 5],
    /// (start, end, processors) of every job kept, to size the machine at the end.
    runs: Vec<(i64, i64, u32)>,
}

impl Tally {
    /// One more line left out for `why`.
    pub(super) fn left(&mut self, why: Left, line: u64) {
        let c = &mut self.left[why as usize];
        if c.0 == 0 {
            c.1 = line;
        }
        c.0 += 1;
    }

    /// A job kept ran from `start` to `end` on `procs` processors.
    pub(super) fn ran(&mut self, start: i64, end: i64, procs: i64) {
        if procs > 0 && end > start {
            self.runs.push((start, end, procs.min(u32::MAX as i64) as u32));
        }
    }

    /// Whether any job kept ran.
    pub(super) fn any_run(&self) -> bool {
        !self.runs.is_empty()
    }

    /// The lines that made no job, by reason: (reason, count, first line).
    pub(super) fn left_out(&self) -> Vec<(&'static str, u64, u64)> {
        self.left.iter().zip(LEFT_OUT).filter(|(c, _)| c.0 > 0).map(|(&(n, first), why)| (why, n, first)).collect()
    }

    /// The most processors the jobs held at once, replaying the recorded schedule: the
    /// machine's size, as far as the log tells it.
    pub(super) fn busiest(&self) -> Option<i64> {
        let mut events: Vec<(i64, i64)> = Vec::with_capacity(2 * self.runs.len());
        for &(s, e, p) in &self.runs {
            events.push((s, p as i64));
            events.push((e, -(p as i64)));
        }
        // Ends sort before starts at the same second: a job may start as another ends.
        crate::sorting::by_key(&mut events, |&e| e);
        let (mut busy, mut most) = (0i64, 0i64);
        for (_, d) in events {
            busy += d;
            most = most.max(busy);
        }
        (most > 0).then_some(most)
    }

    /// The header lines every accounting log's trace gets: SWF version, the time base (times
    /// are seconds since 1970) and the queues with their names.
    pub(super) fn header(&self, what: &str, queues: &HashMap<String, i64>) -> Vec<String> {
        let mut h = vec!["Version: 2.2".to_string(), "UnixStartTime: 0".to_string(), "TimeZoneString: UTC".to_string()];
        let mut named: Vec<(&String, &i64)> = queues.iter().collect();
        crate::sorting::by_key(&mut named, |q| (*q.1, 0));
        if !named.is_empty() {
            h.push(format!("Queues: {what}"));
            h.extend(named.iter().map(|(n, k)| format!("Queue: {k} {n}")));
        }
        h
    }

    /// The warnings every accounting log's trace gets: how the machine's size was found.
    pub(super) fn warnings(&self, what: &str) -> Vec<String> {
        self.busiest()
            .map(|most| {
                let (n, verb) = if most == 1 { ("1 processor".to_string(), "stands") } else { (format!("{most} processors"), "stand") };
                format!(
                    "{what} does not say the machine's size: {n}, the most its jobs held at once, {verb} in for it; set machine=N to choose"
                )
            })
            .into_iter()
            .collect()
    }
}

/// A name's number: its place in order of appearance in `names`, from 1.
pub(super) fn number(names: &mut HashMap<String, i64>, name: &str) -> i64 {
    if name.is_empty() {
        return -1;
    }
    let next = names.len() as i64 + 1;
    *names.entry(name.to_string()).or_insert(next)
}

/// A duration as sacct and PBS write it, `[D-]HH:MM:SS`, `MM:SS` or `MM` (minutes), with optional fractions of a
/// second, as seconds; `None` for `UNLIMITED`, `Partition_Limit` or nothing.
pub(crate) fn duration(t: &str) -> Result<Option<i64>, String> {
    if t.is_empty()
        || t.eq_ignore_ascii_case("unlimited")
        || t.eq_ignore_ascii_case("partition_limit")
        || t.eq_ignore_ascii_case("invalid")
    {
        return Ok(None);
    }
    let bad = || format!("not a duration like 1-02:03:04: {t:?}");
    let (days, rest) = match t.split_once('-') {
        Some((d, r)) => (d.parse::<i64>().map_err(|_| bad())?, r),
        None => (0, t),
    };
    let parts: Vec<&str> = rest.split(':').collect();
    let num = |s: &str| -> Result<i64, String> {
        let whole = s.split('.').next().unwrap_or("");
        whole.parse::<i64>().map_err(|_| bad())
    };
    let secs = match parts.as_slice() {
        [h, m, s] => num(h)? * 3600 + num(m)? * 60 + num(s)?,
        // With days, two parts are hours and minutes; without, minutes and seconds.
        [a, b] if t.contains('-') => num(a)? * 3600 + num(b)? * 60,
        [m, s] => num(m)? * 60 + num(s)?,
        [a] if t.contains('-') => num(a)? * 3600,
        [m] => num(m)? * 60,
        _ => return Err(bad()),
    };
    Ok(Some(days * 86_400 + secs))
}

/// A Slurm time (sacct, jobcomp), `YYYY-MM-DDTHH:MM:SS`, as seconds since 1970 (read as UTC); `None` for
/// `Unknown`, `None` or nothing.
pub(super) fn time(t: &str) -> Result<Option<i64>, String> {
    if t.is_empty() || t.eq_ignore_ascii_case("unknown") || t.eq_ignore_ascii_case("none") {
        return Ok(None);
    }
    let bad = || format!("not a time like 2024-01-31T23:59:59: {t:?}");
    let (date, clock) = t.split_once('T').ok_or_else(bad)?;
    let d: Vec<&str> = date.split('-').collect();
    let h: Vec<&str> = clock.split(':').collect();
    let num = |s: &str| s.parse::<i64>().map_err(|_| bad());
    let [y, m, day] = d.as_slice() else { return Err(bad()) };
    let [hh, mm, ss] = h.as_slice() else { return Err(bad()) };
    let (y, m, day, hh, mm, ss) = (num(y)?, num(m)?, num(day)?, num(hh)?, num(mm)?, num(ss)?);
    if !(1..=12).contains(&m)
        || !(1..=31).contains(&day)
        || !(0..24).contains(&hh)
        || !(0..60).contains(&mm)
        || !(0..61).contains(&ss)
    {
        return Err(bad());
    }
    Ok(Some(crate::calendar::days_from_civil(y, m as u32, day as u32) * 86_400 + hh * 3600 + mm * 60 + ss))
}
