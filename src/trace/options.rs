//! Trace options: how raw SWF records become the jobs a simulation sees.

use serde::Serialize;

use crate::keys::{parse_choice, parse_num, KeyError};

/// Which runtime the scheduler plans with (the kill time is always the user estimate).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RuntimeSource {
    /// The user estimate (field 9), as production schedulers do.
    Estimate,
    /// The actual runtime: a clairvoyant scheduler ("perfect" in Tsafrir et al.).
    Exact,
    /// Twice the user estimate ("X2" in Tsafrir et al.).
    X2,
}

/// What happens to a job whose runtime exceeds its user estimate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Overrun {
    /// Killed at its estimate (runtime := estimate), as production EASY does.
    Kill,
    /// Keeps the runtime recorded in the trace.
    Run,
}

/// What happens to a job wider than the machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Wide {
    /// Dropped from the trace (counted in the report).
    Drop,
    /// Narrowed to the machine size (counted in the report).
    Clamp,
}

/// Which SWF field gives a job's processor count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProcsField {
    /// Requested processors (field 8), else allocated (field 5).
    Requested,
    /// Allocated processors (field 5), else requested (field 8).
    Allocated,
}

/// What stands in for the estimate of a job that has none, in a trace where others have one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MissingEstimate {
    /// The job's own runtime (exact for that job).
    Runtime,
    /// The longest estimate of the job's queue (partition), else its runtime.
    PartitionMax,
    /// No stand-in: the job is dropped (the filtered traces of the pyss/predictsim line of work).
    Drop,
}

/// Every switch that turns raw SWF records into simulated jobs; `Default` is DESIGN.md's defaults.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TraceOptions {
    /// Machine size override; `None` takes the header's MaxProcs, else the widest job.
    pub machine: Option<u32>,
    /// Offered-load factor: submit offsets from the first arrival are divided by it (1.25 = 25% denser).
    pub load: f64,
    /// Runtime the scheduler plans with.
    pub runtime: RuntimeSource,
    /// Treatment of jobs that run past their estimate.
    pub overrun: Overrun,
    /// Treatment of jobs wider than the machine.
    pub wide: Wide,
    /// Field that gives the processor count.
    pub procs: ProcsField,
    /// What stands in for a missing estimate.
    pub missing_estimate: MissingEstimate,
    /// Keep status 2-4 records (partial records of checkpointed jobs) instead of skipping them.
    pub keep_partial: bool,
    /// Keep only jobs submitted from this date on (year, month, day; the trace's local midnight).
    pub from: Option<(i64, u32, u32)>,
    /// Keep only jobs submitted up to the end of this date.
    pub to: Option<(i64, u32, u32)>,
    /// The trace's time zone, a tz database name: wall-clock times of a log that does not
    /// name its zone (sacct) are read in it, and dates are shown in it.
    pub tz: Option<String>,
    /// Keep only the jobs of this queue (partition), by name or number.
    pub partition: Option<String>,
    /// The columns of sacct output printed without its header line: the list given to
    /// `sacct --format`, comma-separated. Read while scanning (see [`super::Loader::fields`]).
    pub fields: Option<String>,
    /// The cluster's slurm.conf, its text: the trace gets its cluster ([`crate::cluster::attach`]).
    #[serde(skip)]
    pub cluster: Option<String>,
}

/// Parses `YYYY-MM-DD`, or `none`.
fn parse_date(key: &str, value: &str) -> Result<Option<(i64, u32, u32)>, KeyError> {
    let v = value.trim();
    if v.eq_ignore_ascii_case("none") {
        return Ok(None);
    }
    let parts: Vec<&str> = v.split('-').collect();
    let bad = || KeyError::new(key, value, "must be a date YYYY-MM-DD, or none");
    let [y, m, d] = parts[..] else { return Err(bad()) };
    let (Ok(y), Ok(m), Ok(d)) = (y.parse::<i64>(), m.parse::<u32>(), d.parse::<u32>()) else { return Err(bad()) };
    if !(1900..=9999).contains(&y) || !(1..=12).contains(&m) || d < 1 || d > crate::calendar::days_in_month(y, m) {
        return Err(bad());
    }
    Ok(Some((y, m, d)))
}

impl Default for TraceOptions {
    fn default() -> Self {
        TraceOptions {
            machine: None,
            load: 1.0,
            runtime: RuntimeSource::Estimate,
            overrun: Overrun::Kill,
            wide: Wide::Drop,
            procs: ProcsField::Requested,
            missing_estimate: MissingEstimate::Runtime,
            keep_partial: false,
            from: None,
            to: None,
            tz: None,
            partition: None,
            fields: None,
            cluster: None,
        }
    }
}

/// Documentation of each trace option key: (key, default, meaning).
pub const TRACE_KEYS: &[(&str, &str, &str)] = &[
    ("machine", "header", "machine size in processors (default: header MaxProcs, else the widest job)"),
    ("load", "1", "offered-load factor: submit offsets are divided by it (1.25 = 25% more load)"),
    ("runtime", "estimate", "runtime the scheduler plans with: estimate | exact (clairvoyant) | x2 (est | act: the relaxed policy's own option)"),
    ("overrun", "kill", "jobs running past their estimate: kill (at the estimate) | run"),
    ("wide", "drop", "jobs wider than the machine: drop | clamp"),
    ("procs", "requested", "processor field: requested (field 8, else 5) | allocated (field 5, else 8)"),
    ("missing_estimate", "runtime", "jobs without an estimate in a trace that has them: runtime (theirs stands in) | partition_max (the longest estimate of their queue or partition) | drop"),
    ("partial", "skip", "status 2-4 records (checkpoint fragments): skip | keep"),
    ("from", "none", "keep jobs submitted from this date on, YYYY-MM-DD in the trace's time zone"),
    ("to", "none", "keep jobs submitted up to the end of this date, YYYY-MM-DD in the trace's time zone"),
    ("tz", "header", "the trace's time zone, a tz database name (Europe/Paris): sacct and Slurm job-completion times are read as its wall-clock times (else as UTC), and dates are shown in it"),
    ("partition", "all", "keep only the jobs of one queue or partition, by its name in the log or its number"),
    ("cluster", "none", "the cluster's slurm.conf, its text (the command line's --cluster FILE reads it): the slurm policies place jobs on its nodes"),
    ("fields", "none", "the columns of sacct -P output printed without its header (--noheader): the --format list, comma-separated (JobIDRaw,Submit,Start,End,AllocCPUS,Timelimit,State)"),
];

impl TraceOptions {
    /// Sets one option by its normalised key; `Ok(false)` means the key is not a trace option.
    pub fn set(&mut self, key: &str, value: &str) -> Result<bool, KeyError> {
        match key {
            "machine" => {
                self.machine = if value.eq_ignore_ascii_case("header") {
                    None
                } else {
                    let m: u32 = parse_num(key, value)?;
                    if m == 0 {
                        return Err(KeyError::new(key, value, "must be at least 1"));
                    }
                    Some(m)
                }
            }
            "load" => {
                let f: f64 = parse_num(key, value)?;
                if !(0.001..=1000.0).contains(&f) {
                    return Err(KeyError::new(key, value, "must be a number from 0.001 to 1000"));
                }
                self.load = f;
            }
            "runtime" => {
                self.runtime = parse_choice(
                    key,
                    value,
                    &[
                        ("estimate", RuntimeSource::Estimate),
                        ("exact", RuntimeSource::Exact),
                        ("perfect", RuntimeSource::Exact),
                        ("x2", RuntimeSource::X2),
                    ],
                )?
            }
            "overrun" => self.overrun = parse_choice(key, value, &[("kill", Overrun::Kill), ("run", Overrun::Run)])?,
            "wide" => self.wide = parse_choice(key, value, &[("drop", Wide::Drop), ("clamp", Wide::Clamp)])?,
            "procs" => {
                self.procs = parse_choice(
                    key,
                    value,
                    &[("requested", ProcsField::Requested), ("allocated", ProcsField::Allocated)],
                )?
            }
            "missing_estimate" => {
                self.missing_estimate = parse_choice(
                    key,
                    value,
                    &[
                        ("runtime", MissingEstimate::Runtime),
                        ("partition_max", MissingEstimate::PartitionMax),
                        ("drop", MissingEstimate::Drop),
                    ],
                )?
            }
            "partial" => self.keep_partial = parse_choice(key, value, &[("skip", false), ("keep", true)])?,
            "from" => self.from = parse_date(key, value)?,
            "to" => self.to = parse_date(key, value)?,
            "tz" => {
                self.tz = if value.eq_ignore_ascii_case("header") {
                    None
                } else {
                    let zone = crate::calendar::Zone::named(value).ok_or_else(|| {
                        KeyError::new(
                            key,
                            value,
                            "must be a time zone of the tz database, such as Europe/Paris or America/Chicago",
                        )
                    })?;
                    Some(zone.name().unwrap_or(value.trim()).to_string())
                }
            }
            "cluster" => {
                let v = value.trim();
                self.cluster = if v.is_empty() || v.eq_ignore_ascii_case("none") {
                    None
                } else if !v.lines().any(|l| l.trim_start().to_ascii_lowercase().starts_with("nodename=")) {
                    return Err(KeyError::new(key, "...", "must be a slurm.conf's text, with a NodeName line"));
                } else {
                    Some(v.to_string())
                };
            }
            "fields" => {
                let v = value.trim();
                self.fields = if v.is_empty() || v.eq_ignore_ascii_case("none") {
                    None
                } else if super::sacct::Sacct::from_fields(v).is_none() {
                    return Err(KeyError::new(
                        key,
                        value,
                        "must be sacct's --format list, comma-separated, with a JobID or JobIDRaw column",
                    ));
                } else {
                    Some(v.to_string())
                };
            }
            "partition" => {
                let v = value.trim();
                self.partition = if v.is_empty() || v.eq_ignore_ascii_case("all") { None } else { Some(v.to_string()) };
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}
