//! Slurm `sacct` output read as a trace: `--parsable2` (`-P`) or `--parsable` with its header
//! line, recognised by that header, so `sacct -X -P --format ...` output loads like an SWF file.
//! The header also says the `--delimiter` the output was written with: its column names are
//! joined by it.
//!
//! Each allocation line becomes one SWF record as [`MAPPING`] says (the same
//! table as docs/ACCOUNTING.md, shown in the trace report).
//!
//! Job steps (`123.batch`, `123.0`, `123.extern`) are folded into their job; a job cancelled
//! before it started, one still pending or one still running has no run to simulate and is
//! left out. Each such case is counted in the trace report with its first line. A record of
//! array tasks that did not run one by one (`123_[9-11,20]`, `123_[1-100%5]`) is one job per
//! task, as Open XDMoD reads it; how they are numbered is [`Sacct::line`]'s. The log does
//! not say the machine's size: the most processors its jobs held at once stands in for it, with
//! a warning (set `machine=N` to choose).

use std::collections::HashMap;

use super::accounting::{duration, leading_number, number, time, Held, Left, Run, Tally};
use super::loader::Fields;
use super::swf::LineError;

/// How the log's fields become a job's: (log field, SWF field), for the trace report.
pub(super) const MAPPING: &[(&str, &str)] = &[
    ("JobIDRaw, else JobID", "job number (array tasks and heterogeneous components are jobs of their own, numbered in file order when the file has no JobIDRaw; a record of several tasks, 123_[9-11,20], is one job per task, numbered 123 x 10^9 + the task's index with JobIDRaw)"),
    ("Submit", "submit time (the cluster's wall-clock time, in tz= or else UTC)"),
    ("Start - Submit", "wait time"),
    ("End - Start (else Elapsed)", "run time"),
    ("AllocCPUS, else NCPUS", "allocated processors"),
    ("ReqCPUS", "requested processors"),
    ("Timelimit", "requested time (`UNLIMITED`, `Partition_Limit`: none)"),
    ("State", "status: COMPLETED 1, CANCELLED after it started 5, any other end 0"),
    ("UID, else User", "user (names numbered in order of appearance)"),
    ("GID, else Group", "group (likewise)"),
    ("Partition", "queue (partitions numbered in order of appearance)"),
    ("AllocTRES, else ReqTRES: gres/gpu; else AllocGRES/ReqGRES gpu:N", "GPUs (the slurm policies schedule them)"),
    ("AllocTRES, else ReqTRES: mem; else ReqMem (per node, or per CPU with c)", "requested memory (per processor, KB)"),
    ("AllocTRES, else ReqTRES: node; else NNodes, AllocNodes, ReqNodes", "nodes"),
    ("QOS", "QOS (numbered in order of appearance)"),
];

/// The columns a simulation needs, by their sacct names (case-insensitive).
#[derive(Debug, Clone, Copy, Default)]
struct Columns {
    job_id: Option<usize>,
    job_id_raw: Option<usize>,
    submit: Option<usize>,
    start: Option<usize>,
    end: Option<usize>,
    elapsed: Option<usize>,
    alloc_cpus: Option<usize>,
    ncpus: Option<usize>,
    req_cpus: Option<usize>,
    timelimit: Option<usize>,
    state: Option<usize>,
    uid: Option<usize>,
    user: Option<usize>,
    gid: Option<usize>,
    group: Option<usize>,
    partition: Option<usize>,
    alloc_tres: Option<usize>,
    req_tres: Option<usize>,
    nnodes: Option<usize>,
    req_nodes: Option<usize>,
    req_mem: Option<usize>,
    gres: Option<usize>,
    qos: Option<usize>,
}

/// The column names a sacct line error can name.
pub(super) const COLUMNS: [&str; 9] =
    ["Submit", "Start", "End", "Elapsed", "AllocCPUS", "NCPUS", "ReqCPUS", "Timelimit", "JobID"];

/// Most tasks one array record may stand for: Slurm's largest `MaxArraySize`.
const MAX_ARRAY_TASKS: i64 = 4_000_001;

/// A task number of a record of several array tasks, with JobIDRaw: the array's job id times
/// this, plus the task's index (Slurm's indexes stay below it, and its job ids below 2^32, so
/// no other job of such a log has the number once the array's id is 5 or more).
const TASK_BASE: i64 = 1_000_000_000;

/// Field orders of header-less `sacct -P` output that widely used tools document, as (whose,
/// the `--format` list, whether its last column may be missing), with a test of a line.
const KNOWN_ORDERS: [(&str, &str, bool); 3] = [
    (
        "Open XDMoD's documented order (XDMoD 11: jobid,jobidraw,cluster,partition,qos,...)",
        "jobid,jobidraw,cluster,partition,qos,account,group,gid,user,uid,submit,eligible,start,end,elapsed,exitcode,state,nnodes,ncpus,reqcpus,reqmem,reqtres,alloctres,timelimit,nodelist,jobname",
        false,
    ),
    (
        "Open XDMoD's documented order before XDMoD 11 (jobid,jobidraw,cluster,partition,account,...)",
        "jobid,jobidraw,cluster,partition,account,group,gid,user,uid,submit,eligible,start,end,elapsed,exitcode,state,nnodes,ncpus,reqcpus,reqmem,reqtres,alloctres,timelimit,nodelist,jobname",
        false,
    ),
    (
        "the order of AWS HPC Cost Simulator's documented sacct command (State,JobID,ReqCPUS,...)",
        "State,JobID,ReqCPUS,ReqMem,ReqNodes,Constraints,Submit,Eligible,Start,Elapsed,Suspended,End,ExitCode,DerivedExitCode,AllocNodes,NCPUS,MaxDiskRead,MaxDiskWrite,MaxPages,MaxRSS,MaxVMSize,CPUTime,UserCPU,SystemCPU,TotalCPU,Partition",
        true,
    ),
];

/// The scan of one `sacct` output, line by line.
#[derive(Debug, Clone)]
pub(super) struct Sacct {
    cols: Columns,
    width: usize,
    /// The last column may be missing from a line (a tool's order that adds it on some
    /// clusters only).
    short_ok: bool,
    /// `--parsable`: every line ends with the delimiter.
    trailing: bool,
    /// What separates the fields (`--delimiter`, `|` unless set).
    delim: Box<str>,
    /// The default fixed-width output: each column's byte span, from the dashes under the
    /// header.
    spans: Option<Vec<(usize, usize)>>,
    names: [HashMap<String, i64>; 4],
    /// Jobs numbered in file order when the file has no JobIDRaw.
    seq: i64,
    /// The tasks of an array record still to be given out after its first.
    tasks: Option<Tasks>,
    tally: Tally,
}

/// The tasks of one record of several array tasks (`123_[9-11,20]`), given out one by one.
#[derive(Debug, Clone)]
struct Tasks {
    line: u64,
    run: Run,
    /// The array's job id: with JobIDRaw, a task is numbered from it ([`TASK_BASE`]).
    array: i64,
    /// The tasks are numbered in file order instead (the file has no JobIDRaw).
    in_order: bool,
    /// The indexes, and where the giving out is.
    ranges: Vec<Span>,
    at: usize,
    next: i64,
}

/// What a job held besides processors: GPUs from `AllocTRES` (else `ReqTRES`, else the GRES
/// column's `gpu:N`), memory from their `mem=` (the job's total), else `ReqMem` (per node, or per
/// CPU with the older `c` suffix), nodes from their `node=`, else `NNodes`/`AllocNodes`, else
/// `ReqNodes`. Stored per processor, as SWF's memory field is.
#[allow(clippy::too_many_arguments)]
fn held(
    alloc: &str,
    req: &str,
    nnodes: &str,
    req_nodes: &str,
    req_mem: &str,
    gres: &str,
    procs: i64,
    qos: i64,
) -> Held {
    use crate::cluster::infer::{mem_mb, tres_of};
    let (a, r) = (tres_of(alloc), tres_of(req));
    let some = |v: u64| (v > 0).then_some(v as i64);
    let nodes = a
        .node
        .or(r.node)
        .map(|n| n as i64)
        .or_else(|| nnodes.parse().ok())
        .or_else(|| req_nodes.parse().ok())
        .filter(|&n| n > 0);
    let gpus = some(a.gpu).or(some(r.gpu)).or_else(|| {
        (!gres.is_empty()).then(|| crate::cluster::slurm_conf::gpus_of(gres).map_or(0, i64::from)).filter(|&g| g > 0)
    });
    let total_mb = some(a.mem_mb).or(some(r.mem_mb)).or_else(|| {
        let t = req_mem.trim();
        let (amount, per_cpu) = match t.strip_suffix(['c', 'C']) {
            Some(rest) => (rest, true),
            None => (t.strip_suffix(['n', 'N']).unwrap_or(t), false),
        };
        let mb = mem_mb(amount).filter(|&m| m > 0)? as i64;
        Some(if per_cpu { mb.saturating_mul(procs.max(1)) } else { mb.saturating_mul(nodes.unwrap_or(1)) })
    });
    Held {
        gpus: gpus.unwrap_or(if alloc.is_empty() && req.is_empty() && gres.is_empty() { -1 } else { 0 }),
        nodes: nodes.unwrap_or(-1),
        mem_kb: total_mb.map_or(-1, |mb| (mb.saturating_mul(1024) + procs.max(1) - 1) / procs.max(1)),
        exclusive: false,
        qos,
    }
}

/// Task indexes of an array record: (first, last, step).
type Span = (i64, i64, i64);

/// The task indexes of an array record's id after its `_`: `[9-11,20]`, `[1-100%5]` (at most 5
/// at once), `[1-7:2]`; `None` for a single task (`4`). Errors say why the list cannot be read.
fn task_ranges(after: &str) -> Result<Option<Vec<Span>>, String> {
    let Some(inner) = after.strip_prefix('[') else { return Ok(None) };
    let bad = || format!("the array's task list {after:?} is not one like [1-3,7] (cut short?)");
    let inner = inner.strip_suffix(']').ok_or_else(bad)?;
    // "%N": how many of the tasks may run at once, which does not change which ran.
    let inner = match inner.rsplit_once('%') {
        Some((list, n)) if n.parse::<u32>().is_ok() => list,
        Some(_) => return Err(bad()),
        None => inner,
    };
    let num = |t: &str| t.trim().parse::<i64>().ok().filter(|&n| n >= 0).ok_or_else(bad);
    let mut ranges = Vec::new();
    let mut total = 0i64;
    for item in inner.split(',') {
        let (span, step) = match item.split_once(':') {
            Some((span, step)) => (span, num(step)?),
            None => (item, 1),
        };
        let (first, last) = match span.split_once('-') {
            Some((a, b)) => (num(a)?, num(b)?),
            None => (num(span)?, num(span)?),
        };
        if last < first || step < 1 {
            return Err(bad());
        }
        total += (last - first) / step + 1;
        if total > MAX_ARRAY_TASKS {
            return Err(format!("the array's task list {after:?} names more than {MAX_ARRAY_TASKS} tasks"));
        }
        ranges.push((first, last, step));
    }
    Ok(Some(ranges))
}

/// Fields split on `delim`, without the trailing empty field of `--parsable` output.
fn fields<'a>(line: &'a str, delim: &str, trailing: bool) -> Vec<&'a str> {
    let mut v: Vec<&str> = line.split(delim).collect();
    if trailing && v.last() == Some(&"") {
        v.pop();
    }
    v
}

/// The delimiter of a sacct header line: `|`, or what joins its column names (`;`, `#`, a tab,
/// `::`, `☃`...: any characters but letters, digits and spaces, the same between every two
/// names), or `None` when the line is not column names so joined.
fn delimiter(line: &str) -> Option<&str> {
    if line.contains('|') {
        return Some("|");
    }
    let name = |c: char| c.is_ascii_alphanumeric();
    let first = line.find(|c: char| !name(c))?;
    let rest = &line[first..];
    let len = rest.find(name).unwrap_or(rest.len());
    let delim = &rest[..len];
    if first == 0 || delim.contains(' ') {
        return None;
    }
    let names = fields(line, delim, line.ends_with(delim));
    (names.len() >= 2 && names.iter().all(|n| !n.is_empty() && n.chars().all(name))).then_some(delim)
}

impl Sacct {
    /// The scan of an output whose header line is `line`, or `None` when it is not a sacct
    /// header (no `JobID` column among names joined by a delimiter, [`delimiter`]).
    pub(super) fn from_header(line: &str) -> Option<Sacct> {
        let line = line.trim_matches(' ');
        let delim = delimiter(line)?;
        let trailing = line.ends_with(delim);
        let mut s = Sacct::with_names(&fields(line, delim, trailing), trailing, None)?;
        s.delim = delim.into();
        Some(s)
    }

    /// Whether its lines must be read as they are, untrimmed: fixed-width columns, or a
    /// delimiter that is white space (a tab), where a line's first or last fields may be empty.
    pub(super) fn untrimmed(&self) -> bool {
        self.spans.is_some() || self.delim.contains(|c: char| c.is_whitespace())
    }

    /// The scan of header-less `-P` output whose columns are the `--format` list `fields`
    /// (comma-separated), or `None` when it names no JobID column.
    pub(super) fn from_fields(fields: &str) -> Option<Sacct> {
        let names: Vec<&str> = fields.split(',').map(str::trim).collect();
        Sacct::with_names(&names, false, None)
    }

    /// The scan of header-less `-P` output whose first record `line` fits the field order
    /// of a tool that documents its sacct command, with whose order it is, if one fits: the
    /// number of fields, a job id, a time in each time column and a state in the state column.
    pub(super) fn known_order(line: &str) -> Option<(Sacct, &'static str)> {
        let f: Vec<&str> = line.split('|').collect();
        KNOWN_ORDERS.iter().find_map(|&(whose, list, short_ok)| {
            let mut s = Sacct::from_fields(list)?;
            s.short_ok = short_ok;
            let c = s.cols;
            let fits = f.len() == s.width || (short_ok && f.len() + 1 == s.width);
            let get = |i: Option<usize>| i.and_then(|i| f.get(i)).map_or("", |v| v.trim());
            let id = get(c.job_id);
            let id_ok = id.split(['.', '_', '+']).next().is_some_and(|n| n.parse::<u64>().is_ok());
            let times_ok =
                [c.submit, c.start, c.end].iter().all(|&i| time(get(i)).is_ok()) && get(c.submit).contains('T');
            let state_ok = get(c.state).chars().next().is_some_and(|ch| ch.is_ascii_uppercase())
                && get(c.state)
                    .split_whitespace()
                    .next()
                    .is_some_and(|w| w.bytes().all(|b| b.is_ascii_uppercase() || b == b'_' || b == b'+'));
            (fits && id_ok && times_ok && state_ok).then_some((s, whose))
        })
    }

    /// Whether `line` looks like a record of sacct's `-P` output printed without its header
    /// (`--noheader`): `|`-separated fields, one of them a job id.
    pub(super) fn headless(line: &str) -> bool {
        let f: Vec<&str> = line.split('|').collect();
        f.len() >= 4
            && f.iter()
                .any(|v| !v.is_empty() && v.split(['.', '_', '+']).next().is_some_and(|n| n.parse::<u64>().is_ok()))
    }

    /// Whether `line` may head sacct's default fixed-width output (a `JobID` column); the
    /// line of dashes under it decides ([`Sacct::from_fixed`]).
    pub(super) fn may_head_fixed(line: &str) -> bool {
        line.split_whitespace().any(|w| w.eq_ignore_ascii_case("jobid"))
    }

    /// The scan of sacct's default fixed-width output, from its header line and the line of
    /// dashes under it (each run of dashes is a column), or `None` if `dashes` is not one.
    pub(super) fn from_fixed(header: &str, dashes: &str) -> Option<Sacct> {
        if !dashes.contains('-') || dashes.bytes().any(|b| b != b'-' && b != b' ') {
            return None;
        }
        let mut spans = Vec::new();
        let b = dashes.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'-' {
                let start = i;
                while i < b.len() && b[i] == b'-' {
                    i += 1;
                }
                spans.push((start, i));
            } else {
                i += 1;
            }
        }
        let names: Vec<&str> =
            spans.iter().map(|&(a, e)| header.get(a..e.min(header.len())).unwrap_or("").trim()).collect();
        Sacct::with_names(&names, false, Some(spans))
    }

    fn with_names(names: &[&str], trailing: bool, spans: Option<Vec<(usize, usize)>>) -> Option<Sacct> {
        let mut c = Columns::default();
        for (i, n) in names.iter().enumerate() {
            let slot = match n.trim().to_ascii_lowercase().as_str() {
                "jobid" => &mut c.job_id,
                "jobidraw" => &mut c.job_id_raw,
                "submit" => &mut c.submit,
                "start" => &mut c.start,
                "end" => &mut c.end,
                "elapsed" => &mut c.elapsed,
                "alloccpus" => &mut c.alloc_cpus,
                "ncpus" => &mut c.ncpus,
                "reqcpus" => &mut c.req_cpus,
                "timelimit" => &mut c.timelimit,
                "state" => &mut c.state,
                "uid" => &mut c.uid,
                "user" => &mut c.user,
                "gid" => &mut c.gid,
                "group" => &mut c.group,
                "partition" => &mut c.partition,
                "alloctres" => &mut c.alloc_tres,
                "reqtres" => &mut c.req_tres,
                "nnodes" | "allocnodes" => &mut c.nnodes,
                "reqnodes" => &mut c.req_nodes,
                "reqmem" => &mut c.req_mem,
                "allocgres" | "reqgres" => &mut c.gres,
                "qos" => &mut c.qos,
                _ => continue,
            };
            slot.get_or_insert(i);
        }
        // JobIDRaw alone names the jobs and steps as well.
        c.job_id = c.job_id.or(c.job_id_raw);
        c.job_id?;
        Some(Sacct {
            cols: c,
            width: names.len(),
            short_ok: false,
            trailing,
            delim: "|".into(),
            spans,
            names: Default::default(),
            seq: 0,
            tasks: None,
            tally: Tally::default(),
        })
    }

    /// Whether it is the fixed-width output, whose columns are found by position.
    pub(super) fn is_fixed(&self) -> bool {
        self.spans.is_some()
    }

    /// Why the output cannot be simulated at all (columns missing), if so.
    pub(super) fn missing(&self) -> Option<String> {
        let c = &self.cols;
        let mut lack = Vec::new();
        if c.submit.is_none() {
            lack.push("Submit");
        }
        if c.start.is_none() {
            lack.push("Start");
        }
        if c.end.is_none() && c.elapsed.is_none() {
            lack.push("End (or Elapsed)");
        }
        if c.alloc_cpus.is_none() && c.ncpus.is_none() && c.req_cpus.is_none() {
            lack.push("AllocCPUS (or NCPUS, ReqCPUS)");
        }
        (!lack.is_empty()).then(|| {
            format!(
                "this sacct output has no {} column: simulating needs when each job was submitted, started and ended and its processors; run sacct -X -P --format JobIDRaw,Submit,Start,End,AllocCPUS,ReqCPUS,Timelimit,State,User,Group,Partition",
                lack.join(", no ")
            )
        })
    }

    /// Reads one data line: its SWF fields, `None` when it is left out (a step, a job that
    /// never ran), or why it cannot be read.
    pub(super) fn line(&mut self, text: &str, line: u64) -> Result<Option<Fields>, LineError> {
        self.tasks = None;
        let f: Vec<&str> = match &self.spans {
            Some(spans) => {
                if text.trim_end().len() > spans.last().map_or(0, |s| s.1) {
                    return Err(LineError {
                        line,
                        field: None,
                        message: "longer than the columns under the header: not a line of this sacct output".into(),
                    });
                }
                spans.iter().map(|&(a, e)| text.get(a.min(text.len())..e.min(text.len())).unwrap_or("")).collect()
            }
            None => fields(text, &self.delim, self.trailing),
        };
        if self.spans.is_some() {
            // A value sacct cut to its column's width ends in '+': what it was is lost.
            if let Some((k, _)) = f.iter().enumerate().find(|(k, v)| v.trim().ends_with('+') && self.needed(*k)) {
                return Err(LineError {
                    line,
                    field: None,
                    message: format!("column {} was cut to its width by sacct ({:?}): ask sacct for wider columns (--format Name%30) or for -P", k + 1, f[k].trim()),
                });
            }
        }
        if f.len() != self.width && !(self.short_ok && f.len() + 1 == self.width) {
            return Err(LineError {
                line,
                field: None,
                message: format!(
                    "{} fields where the header has {}: not a line of this sacct output",
                    f.len(),
                    self.width
                ),
            });
        }
        let c = self.cols;
        let get = |i: Option<usize>| i.and_then(|i| f.get(i)).map_or("", |v| v.trim());
        let id = get(c.job_id);
        if id.contains('.') {
            self.tally.left(Left::Step, line);
            return Ok(None);
        }
        let state = get(c.state).to_ascii_uppercase();
        let err = |field: &'static str, message: String| LineError { line, field: Some(field), message };
        let submit = time(get(c.submit)).map_err(|m| err("Submit", m))?;
        let start = time(get(c.start)).map_err(|m| err("Start", m))?;
        let Some(submit) = submit else {
            return Err(err("Submit", "no submit time".into()));
        };
        let Some(start) = start else {
            let reason = if state.starts_with("CANCELLED") { Left::Cancelled } else { Left::NeverStarted };
            self.tally.left(reason, line);
            return Ok(None);
        };
        let unfinished =
            ["RUNNING", "PENDING", "REQUEUED", "SUSPENDED", "RESIZING"].iter().any(|u| state.starts_with(u));
        if unfinished {
            self.tally.left(Left::NotFinished, line);
            return Ok(None);
        }
        // A finished job whose End is unknown (cancelled while it ran, on some versions) ran
        // for its Elapsed time.
        let end = match time(get(c.end)).map_err(|m| err("End", m))? {
            Some(end) => Some(end),
            None => duration(get(c.elapsed)).map_err(|m| err("Elapsed", m))?.map(|e| start + e),
        };
        let Some(end) = end else {
            self.tally.left(Left::NotFinished, line);
            return Ok(None);
        };
        let number = |col: Option<usize>, name: &'static str| -> Result<i64, LineError> {
            let t = get(col);
            if t.is_empty() {
                return Ok(-1);
            }
            t.parse::<i64>().map_err(|_| err(name, format!("not a whole number: {t:?}")))
        };
        let alloc = match (c.alloc_cpus, c.ncpus) {
            (Some(i), _) => number(Some(i), "AllocCPUS")?,
            (None, Some(i)) => number(Some(i), "NCPUS")?,
            _ => -1,
        };
        let req = number(c.req_cpus, "ReqCPUS")?;
        let limit = duration(get(c.timelimit)).map_err(|m| err("Timelimit", m))?.unwrap_or(-1);
        let raw = get(c.job_id_raw);
        let ranges = match id.split_once('_') {
            Some((_, after)) => task_ranges(after).map_err(|m| err("JobID", m))?,
            None => None,
        };
        let job = if ranges.is_some() {
            // A record of several tasks: each is numbered as it is given out ([`Sacct::more`]).
            -1
        } else if let Ok(n) = raw.parse::<i64>() {
            n
        } else if let Ok(n) = id.parse::<i64>() {
            n
        } else {
            self.seq += 1;
            self.seq
        };
        let status = if state.starts_with("COMPLETED") {
            1
        } else if state.starts_with("CANCELLED") {
            5
        } else {
            0
        };
        let user = self.named(0, get(c.uid), get(c.user));
        let group = self.named(1, get(c.gid), get(c.group));
        let queue = self.named(2, "", get(c.partition));
        let procs = if alloc > 0 { alloc } else { req };
        let qos = self.named(3, "", get(c.qos));
        let held = held(
            get(c.alloc_tres),
            get(c.req_tres),
            get(c.nnodes),
            get(c.req_nodes),
            get(c.req_mem),
            get(c.gres),
            procs,
            qos,
        );
        let run = Run { job, submit, start, end, alloc, req, limit, status, user, group, queue, held };
        let Some(ranges) = ranges else {
            self.tally.ran(start, end, procs);
            return Ok(Some(run.record()));
        };
        // One job per task, each with the record's fields; all ran at once.
        let count: i64 = ranges.iter().map(|&(a, b, s)| (b - a) / s + 1).sum();
        self.tally.ran(start, end, procs.saturating_mul(count));
        let array = leading_number(id);
        let in_order = raw.parse::<i64>().is_err();
        let next = ranges[0].0;
        self.tasks = Some(Tasks { line, run, array, in_order, ranges, at: 0, next });
        Ok(self.more().map(|(_, f)| f))
    }

    /// The next task of the array record read last, if it has more: numbered in file order
    /// when the file has no JobIDRaw (as single tasks, `123_4`, are), else the array's job id
    /// times 10^9 plus the task's index (`4103947_20` is 4103947000000020).
    pub(super) fn more(&mut self) -> Option<(u64, Fields)> {
        let t = self.tasks.as_mut()?;
        let Some(&(_, last, step)) = t.ranges.get(t.at) else {
            self.tasks = None;
            return None;
        };
        let index = t.next;
        match index.checked_add(step) {
            Some(n) if n <= last => t.next = n,
            _ => {
                t.at += 1;
                t.next = t.ranges.get(t.at).map_or(0, |r| r.0);
            }
        }
        let job = if t.in_order {
            self.seq += 1;
            self.seq
        } else {
            t.array.saturating_mul(TASK_BASE).saturating_add(index)
        };
        Some((t.line, Run { job, ..t.run }.record()))
    }

    /// Whether column `k` is one a job's record is made from (a cut name does not matter).
    fn needed(&self, k: usize) -> bool {
        let c = &self.cols;
        [
            c.job_id_raw,
            c.submit,
            c.start,
            c.end,
            c.elapsed,
            c.alloc_cpus,
            c.ncpus,
            c.req_cpus,
            c.timelimit,
            c.uid,
            c.gid,
        ]
        .contains(&Some(k))
    }

    /// A user, group or partition as a number: the numeric id when the file has it, else the
    /// name's place in order of appearance (from 1), or -1 when neither is given.
    fn named(&mut self, which: usize, id: &str, name: &str) -> i64 {
        if let Ok(n) = id.parse::<i64>() {
            return n;
        }
        number(&mut self.names[which], name)
    }

    /// What the end of the scan adds: header lines (the time base, the partitions) and the
    /// report's warnings.
    pub(super) fn finish(&self) -> (Vec<String>, Vec<String>) {
        let mut header = vec!["Computer: a Slurm cluster (read from sacct output)".to_string()];
        header.extend(self.tally.header("partitions as queues", &self.names[2]));
        let mut qos: Vec<(&String, &i64)> = self.names[3].iter().collect();
        crate::sorting::by_key(&mut qos, |q| (*q.1, 0));
        header.extend(qos.iter().map(|(n, k)| format!("QOS: {k} {n}")));
        (header, self.tally.warnings("sacct output"))
    }

    /// What every accounting log's scan keeps: jobs left out by reason, and the runs.
    pub(super) fn tally(&self) -> &Tally {
        &self.tally
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_and_durations() {
        assert_eq!(time("1970-01-02T00:00:01"), Ok(Some(86_401)));
        assert_eq!(time("Unknown"), Ok(None));
        assert_eq!(time("None"), Ok(None));
        assert!(time("2019-13-01T00:00:00").is_err());
        assert_eq!(duration("5-00:00:00"), Ok(Some(5 * 86_400)));
        assert_eq!(duration("03:33:25"), Ok(Some(3 * 3600 + 33 * 60 + 25)));
        assert_eq!(duration("00:15.057"), Ok(Some(15)));
        assert_eq!(duration("30"), Ok(Some(1800)));
        assert_eq!(duration("1-12"), Ok(Some(86_400 + 12 * 3600)));
        assert_eq!(duration("UNLIMITED"), Ok(None));
        assert_eq!(duration("Partition_Limit"), Ok(None));
        assert!(duration("soon").is_err());
    }

    #[test]
    fn array_task_lists() {
        assert_eq!(task_ranges("4"), Ok(None));
        assert_eq!(task_ranges("[9-11,20]"), Ok(Some(vec![(9, 11, 1), (20, 20, 1)])));
        assert_eq!(task_ranges("[1-100%5]"), Ok(Some(vec![(1, 100, 1)])));
        assert_eq!(task_ranges("[1-7:2]"), Ok(Some(vec![(1, 7, 2)])));
        for bad in ["[5-1]", "[1-+", "[1-3%x]", "[]", "[1-7:0]", "[-1]", "[0-4000001]"] {
            assert!(task_ranges(bad).is_err(), "{bad}");
        }
        assert!(task_ranges("[0-4000000]").is_ok());
    }

    #[test]
    fn delimiters_from_the_header() {
        assert_eq!(delimiter("JobID|Submit"), Some("|"));
        assert_eq!(delimiter("JobID;Submit;Start;"), Some(";"));
        assert_eq!(delimiter("JobID\tSubmit"), Some("\t"));
        assert_eq!(delimiter("JobID::Submit"), Some("::"));
        assert_eq!(delimiter("JobID☃Submit☃End"), Some("☃"));
        for not in
            ["JobID Submit", "JobID;Submit#Start", "1 0 -1 10 1", ";JobID;Submit", "JobID", "JobID;;Submit;Start"]
        {
            assert_eq!(delimiter(not), None, "{not}");
        }
        assert!(Sacct::from_header("JobID^Submit^Start^End^AllocCPUS").is_some_and(|s| s.missing().is_none()));
        assert!(Sacct::from_header("Name;Submit;Start").is_none(), "no JobID column");
    }
}
