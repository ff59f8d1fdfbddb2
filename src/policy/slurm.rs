//! Slurm's own scheduler on a cluster of nodes: the multifactor priority, the main scheduler's
//! pass in priority order per partition, and the backfill scheduler run every `bf_interval`,
//! each rule as Slurm's documentation states it (docs/VALIDATION.md cites the pages).
//!
//! - **Priority** (priority_multifactor.html): `weight_age x age + weight_fairshare x
//!   fairshare + weight_jobsize x size + weight_partition x partition + weight_qos x qos`,
//!   each factor in [0, 1]; age is the wait over `max_age` (at most 1); fairshare is Slurm's
//!   classic `2^(-U/S)` (classic_fair_share.html) with every user of the log an account of
//!   equal shares and usage (CPU-seconds) decaying with `decay_half_life`; size is the mean
//!   of the job's share of the cluster's nodes and of its CPUs (`1 -` that with
//!   `favor_small`); partition is its tier over the highest tier; qos its QOS's priority over
//!   the highest. Jobs are taken by partition tier, then priority, then submit time, then job id.
//! - **The main scheduler** (sched_config.html): at every submission and end, jobs in that order
//!   start where their partition's nodes hold them; the first that cannot start blocks the
//!   rest of its partition until backfill.
//! - **Backfill** (`scheduler=backfill`, slurm.conf(5) SchedulerParameters): every
//!   `bf_interval` seconds, the running jobs' ends (at their limits, rounded up to
//!   `bf_resolution`) make a plan of every resource per partition; up to `bf_max_job_test`
//!   waiting jobs, in priority order, each start now if the plan lets them, else get the
//!   earliest start within `bf_window` reserved (of every resource they need), unless their
//!   priority is below `bf_min_prio_reserve` or they waited less than `bf_min_age_reserve`;
//!   a job with no start within the window gets no reservation. `bf_max_job_user` and
//!   `bf_max_job_part` cap the jobs looked at per user and per partition, `bf_max_job_start`
//!   the starts per cycle.
//! - **Nodes**: a job starts only where nodes of its partition hold it ([`Nodes::place`]);
//!   exclusive jobs and partitions take whole nodes. The plan counts resources per partition,
//!   so it may find a start that the nodes refuse: such a job waits, and
//!   [`Slurm::count_misses`] says how often.

use std::collections::HashMap;

use crate::cluster::nodes::{Ask, Nodes, UNKNOWN_MEMORY_MB};
use crate::cluster::plan::{Amount, Plan};
use crate::cluster::{Cluster, Node, Partition};
use crate::engine::{Decision, JobIdx, JobView, Policy, System, Why};
use crate::keys::{normalize, parse_choice, parse_num, KeyError};
use crate::trace::Trace;

/// Options of the slurm family: Slurm's own names (lower case), each `conf` for the value in
/// the cluster's slurm.conf, else Slurm's default.
pub const SLURM_OPTIONS: &[super::OptionDoc] = &[
    super::OptionDoc { key: "scheduler", values: "backfill | builtin | conf", doc: "SchedulerType: sched/backfill runs the backfill scheduler beside the main one; sched/builtin only the main one, in strict priority order per partition" },
    super::OptionDoc { key: "priority", values: "multifactor | basic | conf", doc: "PriorityType: priority/multifactor weighs the factors below; priority/basic is first in, first out" },
    super::OptionDoc { key: "weight_age", values: "integer >= 0 | conf", doc: "PriorityWeightAge (Slurm's default 0)" },
    super::OptionDoc { key: "weight_fairshare", values: "integer >= 0 | conf", doc: "PriorityWeightFairshare (default 0)" },
    super::OptionDoc { key: "weight_jobsize", values: "integer >= 0 | conf", doc: "PriorityWeightJobSize (default 0)" },
    super::OptionDoc { key: "weight_partition", values: "integer >= 0 | conf", doc: "PriorityWeightPartition (default 0)" },
    super::OptionDoc { key: "weight_qos", values: "integer >= 0 | conf", doc: "PriorityWeightQOS (default 0)" },
    super::OptionDoc { key: "max_age", values: "[D-]HH:MM:SS or minutes | conf", doc: "PriorityMaxAge: the wait at which the age factor reaches 1 (default 7-0)" },
    super::OptionDoc { key: "decay_half_life", values: "[D-]HH:MM:SS or minutes | conf", doc: "PriorityDecayHalfLife: the half-life of fairshare usage, 0 for none (default 7-0)" },
    super::OptionDoc { key: "favor_small", values: "yes | no | conf", doc: "PriorityFavorSmall: smaller jobs get the larger size factor (default no)" },
    super::OptionDoc { key: "calc_period", values: "minutes > 0 | conf", doc: "PriorityCalcPeriod: how often every waiting job's priority is computed anew (default 5); a job gets its priority when submitted" },
    super::OptionDoc { key: "qos_priority", values: "NAME:PRIORITY,... | none", doc: "each QOS's priority (sacctmgr's Priority), for the QOS factor; QOS not named have 0" },
    super::OptionDoc { key: "bf_interval", values: "seconds >= 0 | conf", doc: "seconds between backfill cycles (default 30); 0 runs one at every scheduling pass" },
    super::OptionDoc { key: "bf_window", values: "minutes > 0 | inf | conf", doc: "how far ahead backfill plans: a job with no start within it gets no reservation (default 1440)" },
    super::OptionDoc { key: "bf_resolution", values: "seconds > 0 | conf", doc: "the plan's time step: job ends are rounded up to it (default 60)" },
    super::OptionDoc { key: "bf_max_job_test", values: "integer > 0 | inf | conf", doc: "waiting jobs a backfill cycle looks at (default 500)" },
    super::OptionDoc { key: "bf_max_job_start", values: "integer >= 0 | conf", doc: "jobs a backfill cycle may start, 0 for no limit (default 0)" },
    super::OptionDoc { key: "bf_max_job_user", values: "integer >= 0 | conf", doc: "jobs of one user a backfill cycle looks at, 0 for no limit (default 0)" },
    super::OptionDoc { key: "bf_max_job_part", values: "integer >= 0 | conf", doc: "jobs of one partition a backfill cycle looks at, 0 for no limit (default 0)" },
    super::OptionDoc { key: "bf_min_prio_reserve", values: "integer >= 0 | conf", doc: "jobs of lower priority get no reservation: they start only where they delay nobody (default 0: every job)" },
    super::OptionDoc { key: "bf_min_age_reserve", values: "seconds >= 0 | conf", doc: "jobs that waited less get no reservation (default 0)" },
    super::OptionDoc { key: "bf_continue", values: "yes | no | conf", doc: "accepted for slurm.conf's sake; it has no effect here: a simulated cycle never gives up its locks" },
    super::OptionDoc { key: "reservations", values: "all | 0, 1, 2, ...", doc: "not Slurm's: how many waiting jobs a backfill cycle reserves for (all, as Slurm; 1 makes EASY on every resource)" },
];

/// Defaults of the slurm family: every Slurm setting from slurm.conf, else Slurm's default.
pub const SLURM_DEFAULTS: &[(&str, &str)] = &[
    ("scheduler", "conf"),
    ("priority", "conf"),
    ("weight_age", "conf"),
    ("weight_fairshare", "conf"),
    ("weight_jobsize", "conf"),
    ("weight_partition", "conf"),
    ("weight_qos", "conf"),
    ("max_age", "conf"),
    ("decay_half_life", "conf"),
    ("favor_small", "conf"),
    ("calc_period", "conf"),
    ("qos_priority", "none"),
    ("bf_interval", "conf"),
    ("bf_window", "conf"),
    ("bf_resolution", "conf"),
    ("bf_max_job_test", "conf"),
    ("bf_max_job_start", "conf"),
    ("bf_max_job_user", "conf"),
    ("bf_max_job_part", "conf"),
    ("bf_min_prio_reserve", "conf"),
    ("bf_min_age_reserve", "conf"),
    ("bf_continue", "conf"),
    ("reservations", "all"),
];

/// The slurm.conf key and Slurm's default of each option (SchedulerParameters' `bf_*` are
/// looked up inside that setting).
const CONF: &[(&str, &str, &str)] = &[
    ("scheduler", "SchedulerType", "sched/backfill"),
    ("priority", "PriorityType", "priority/basic"),
    ("weight_age", "PriorityWeightAge", "0"),
    ("weight_fairshare", "PriorityWeightFairshare", "0"),
    ("weight_jobsize", "PriorityWeightJobSize", "0"),
    ("weight_partition", "PriorityWeightPartition", "0"),
    ("weight_qos", "PriorityWeightQOS", "0"),
    ("max_age", "PriorityMaxAge", "7-0"),
    ("decay_half_life", "PriorityDecayHalfLife", "7-0"),
    ("favor_small", "PriorityFavorSmall", "no"),
    ("calc_period", "PriorityCalcPeriod", "5"),
    ("bf_interval", "bf_interval", "30"),
    ("bf_window", "bf_window", "1440"),
    ("bf_resolution", "bf_resolution", "60"),
    ("bf_max_job_test", "bf_max_job_test", "500"),
    ("bf_max_job_start", "bf_max_job_start", "0"),
    ("bf_max_job_user", "bf_max_job_user", "0"),
    ("bf_max_job_part", "bf_max_job_part", "0"),
    ("bf_min_prio_reserve", "bf_min_prio_reserve", "0"),
    ("bf_min_age_reserve", "bf_min_age_reserve", "0"),
    ("bf_continue", "bf_continue", "no"),
];

/// The family's options as given: `None` for `conf`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SlurmOptions {
    /// Each option's value, `None` where it comes from slurm.conf or Slurm's default.
    pub given: Vec<(&'static str, Option<String>)>,
    /// QOS priorities by name.
    pub qos_priority: Vec<(String, f64)>,
    /// Reservation depth (`None`: all).
    pub reservations: Option<usize>,
}

/// The options resolved against a cluster: what a run uses.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// Backfill beside the main scheduler.
    pub backfill: bool,
    /// Multifactor priority (else first in, first out).
    pub multifactor: bool,
    /// Weights: age, fairshare, job size, partition, QOS.
    pub weights: [f64; 5],
    /// PriorityMaxAge, seconds.
    pub max_age: i64,
    /// PriorityDecayHalfLife, seconds (0: no decay).
    pub half_life: i64,
    /// PriorityFavorSmall.
    pub favor_small: bool,
    /// PriorityCalcPeriod, seconds.
    pub calc_period: i64,
    /// bf_interval, seconds.
    pub interval: i64,
    /// bf_window, seconds (`None`: no end).
    pub window: Option<i64>,
    /// bf_resolution, seconds.
    pub resolution: i64,
    /// bf_max_job_test (`usize::MAX`: no limit).
    pub max_test: usize,
    /// bf_max_job_start, bf_max_job_user, bf_max_job_part (0: no limit).
    pub max_start: usize,
    /// See `max_start`.
    pub max_user: usize,
    /// See `max_start`.
    pub max_part: usize,
    /// bf_min_prio_reserve.
    pub min_prio_reserve: f64,
    /// bf_min_age_reserve, seconds.
    pub min_age_reserve: i64,
    /// Where each value came from: (option, value, "slurm.conf line N" | "default" | "set").
    pub sources: Vec<(&'static str, String, String)>,
}

fn duration_s(key: &str, value: &str) -> Result<i64, KeyError> {
    crate::trace::accounting::duration(value.trim())
        .map_err(|m| KeyError::new(key, value, m))?
        .ok_or_else(|| KeyError::new(key, value, "expected [D-]HH:MM:SS or minutes"))
}

fn count(key: &str, value: &str) -> Result<usize, KeyError> {
    if matches!(normalize(value).as_str(), "inf" | "unlimited") {
        return Ok(usize::MAX);
    }
    let n: u64 = parse_num(key, value)?;
    Ok(usize::try_from(n).unwrap_or(usize::MAX))
}

impl SlurmOptions {
    /// Parses the options from `get(key)`; `conf` values are checked when resolved.
    pub fn parse(get: &dyn Fn(&str) -> String) -> Result<Self, KeyError> {
        let mut given = Vec::new();
        for &(key, _, _) in CONF {
            let v = get(key);
            let v = (normalize(&v) != "conf" && !v.trim().is_empty()).then(|| v.trim().to_string());
            if let Some(v) = &v {
                // Checked now, so a bad --set fails before any run.
                check(key, v)?;
            }
            given.push((key, v));
        }
        let q = get("qos_priority");
        let mut qos_priority = Vec::new();
        if !matches!(normalize(&q).as_str(), "none" | "") {
            for item in q.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                let (name, p) = item
                    .split_once(':')
                    .ok_or_else(|| KeyError::new("qos_priority", &q, "expected NAME:PRIORITY,..."))?;
                qos_priority.push((name.trim().to_string(), parse_num("qos_priority", p.trim())?));
            }
        }
        let r = get("reservations");
        let reservations = match normalize(&r).as_str() {
            "all" | "inf" | "" => None,
            _ => Some(parse_num::<usize>("reservations", &r)?),
        };
        Ok(SlurmOptions { given, qos_priority, reservations })
    }

    /// The settings a run on `cluster` uses: each option as given, else from slurm.conf,
    /// else Slurm's default. A bad slurm.conf value is left for the default, and said.
    pub fn resolve(&self, cluster: Option<&Cluster>) -> Settings {
        let mut sources = Vec::new();
        let params: Vec<(String, String, usize)> = cluster
            .and_then(|c| c.settings.iter().find(|s| s.key.eq_ignore_ascii_case("SchedulerParameters")))
            .map(|s| {
                s.value
                    .split(',')
                    .map(|kv| match kv.split_once('=') {
                        Some((k, v)) => (k.trim().to_ascii_lowercase(), v.trim().to_string(), s.line),
                        None => (kv.trim().to_ascii_lowercase(), "yes".to_string(), s.line),
                    })
                    .collect()
            })
            .unwrap_or_default();
        let mut value = |key: &'static str| -> String {
            let (_, conf_key, default) = CONF.iter().find(|c| c.0 == key).copied().unwrap_or((key, key, "0"));
            if let Some((_, Some(v))) = self.given.iter().find(|g| g.0 == key) {
                sources.push((key, v.clone(), "set".to_string()));
                return v.clone();
            }
            let from_conf = if conf_key.starts_with("bf_") {
                params.iter().find(|p| p.0 == conf_key).map(|p| (p.1.clone(), p.2))
            } else {
                cluster
                    .and_then(|c| c.settings.iter().find(|s| s.key.eq_ignore_ascii_case(conf_key)))
                    .map(|s| (s.value.clone(), s.line))
            };
            match from_conf {
                Some((v, line)) if check(key, &v).is_ok() => {
                    sources.push((key, v.clone(), format!("slurm.conf line {line}")));
                    v
                }
                Some((v, line)) => {
                    sources.push((
                        key,
                        default.to_string(),
                        format!("default (slurm.conf line {line}'s {v:?} is not valid)"),
                    ));
                    default.to_string()
                }
                None => {
                    sources.push((key, default.to_string(), "default".to_string()));
                    default.to_string()
                }
            }
        };
        // Every value was checked (given) or is checked above (conf), so these parse.
        let num = |v: String| v.trim().parse::<f64>().unwrap_or(0.0);
        let dur = |k: &str, v: String| duration_s(k, &v).unwrap_or(0);
        let n = |k: &str, v: String| count(k, &v).unwrap_or(0);
        let yes = |v: String| matches!(normalize(&v).as_str(), "yes" | "1" | "true" | "on");
        let backfill = normalize(&value("scheduler")).contains("backfill");
        let multifactor = normalize(&value("priority")).contains("multifactor");
        let weights = [
            num(value("weight_age")),
            num(value("weight_fairshare")),
            num(value("weight_jobsize")),
            num(value("weight_partition")),
            num(value("weight_qos")),
        ];
        let max_age = dur("max_age", value("max_age")).max(1);
        let half_life = dur("decay_half_life", value("decay_half_life"));
        let favor_small = yes(value("favor_small"));
        let calc_period = (num(value("calc_period")) * 60.0).round().max(1.0) as i64;
        let interval = num(value("bf_interval")).max(0.0) as i64;
        let w = value("bf_window");
        let window = if matches!(normalize(&w).as_str(), "inf" | "unlimited") {
            None
        } else {
            Some((num(w) * 60.0).round().max(60.0) as i64)
        };
        let resolution = (num(value("bf_resolution")) as i64).max(1);
        let max_test = n("bf_max_job_test", value("bf_max_job_test")).max(1);
        let max_start = n("bf_max_job_start", value("bf_max_job_start"));
        let max_user = n("bf_max_job_user", value("bf_max_job_user"));
        let max_part = n("bf_max_job_part", value("bf_max_job_part"));
        let min_prio_reserve = num(value("bf_min_prio_reserve"));
        let min_age_reserve = num(value("bf_min_age_reserve")).max(0.0) as i64;
        let _ = value("bf_continue");
        Settings {
            backfill,
            multifactor,
            weights,
            max_age,
            half_life,
            favor_small,
            calc_period,
            interval,
            window,
            resolution,
            max_test,
            max_start,
            max_user,
            max_part,
            min_prio_reserve,
            min_age_reserve,
            sources,
        }
    }
}

/// Whether `value` is one option `key` takes.
fn check(key: &str, value: &str) -> Result<(), KeyError> {
    let v = value.trim();
    match key {
        "scheduler" => {
            parse_choice(key, v, &[("backfill", ()), ("sched/backfill", ()), ("builtin", ()), ("sched/builtin", ())])?
        }
        "priority" => parse_choice(
            key,
            v,
            &[("multifactor", ()), ("priority/multifactor", ()), ("basic", ()), ("priority/basic", ())],
        )?,
        "max_age" | "decay_half_life" => {
            duration_s(key, v)?;
        }
        "favor_small" | "bf_continue" => {
            parse_choice(key, v, &[("yes", ()), ("no", ()), ("true", ()), ("false", ()), ("1", ()), ("0", ())])?
        }
        "bf_window" if matches!(normalize(v).as_str(), "inf" | "unlimited") => {}
        "bf_window" | "bf_resolution" | "calc_period" => {
            let x: f64 = parse_num(key, v)?;
            if !(x > 0.0 && x < 1e9) {
                return Err(KeyError::new(key, v, "must be above 0"));
            }
        }
        "bf_max_job_test" => {
            if count(key, v)? == 0 {
                return Err(KeyError::new(key, v, "must be at least 1"));
            }
        }
        _ => {
            let x: f64 = parse_num(key, v)?;
            if !(0.0..1e12).contains(&x) {
                return Err(KeyError::new(key, v, "must be a number >= 0"));
            }
        }
    }
    Ok(())
}

/// The place in Slurm's order of a job of partition tier `tier`, priority `prio` and index `j`
/// as one number, smaller first: higher tier, then higher priority (by [`f64::total_cmp`]),
/// then lower index. One integer compares and sorts faster than the three.
fn order_key(tier: u32, prio: f64, j: JobIdx) -> u128 {
    // total_cmp's own mapping of a float's bits to a signed integer of the same order, then
    // made unsigned.
    let mut bits = prio.to_bits() as i64;
    bits ^= (((bits >> 63) as u64) >> 1) as i64;
    let prio = (bits as u64) ^ (1 << 63);
    (u128::from(!tier) << 96) | (u128::from(!prio) << 32) | u128::from(j)
}

/// How many asks that found no start within the window a cycle keeps per partition: enough for
/// the few shapes a queue repeats, few enough to be read faster than the plan.
const BEYOND_KEPT: usize = 8;

/// One job as the scheduler holds it.
#[derive(Debug, Clone, Copy)]
struct Info {
    ask: Ask,
    /// The nodes it takes ([`Nodes::fewest`]) and what it takes of its partition in the plan
    /// (exclusive jobs their nodes whole): fixed, so worked out once.
    n: u32,
    need: Amount,
    /// Its user, numbered densely from 0.
    user: usize,
    submit: i64,
    /// Its partition, by place in `parts`.
    part: usize,
    /// Planned length: its limit (the partition's MaxTime at most).
    limit: i64,
    /// Its limit in whole steps of `bf_resolution` and the seconds left over, so a cycle
    /// rounds its planned end without a division.
    limit_steps: i64,
    limit_rest: i64,
    size_factor: f64,
    qos_factor: f64,
}

/// One partition as the scheduler uses it.
#[derive(Debug, Clone)]
struct Part {
    name: String,
    /// Its nodes (sorted).
    nodes: Vec<usize>,
    tier: u32,
    /// The partitions sharing a node with it, itself among them.
    overlaps: Vec<usize>,
    /// A whole node of its largest kind (what an exclusive job takes per node in the plan).
    node_size: Amount,
    /// All its nodes hold.
    size: Amount,
}

/// A running job as the backfill plan sees it.
#[derive(Debug, Clone)]
struct Running {
    job: JobIdx,
    /// Planned end: start + limit.
    end: i64,
    /// What it holds of each partition that shares a node with its own (none of the others).
    held: Vec<(usize, Amount)>,
    /// The nodes it shares with other jobs (none when it holds its nodes whole).
    shared: Vec<u32>,
}

/// Where a backfill cycle stopped, for a cycle that can go on from there: with nothing changed
/// but jobs submitted behind every job it saw, a cycle made anew would find, for each of
/// those, what this one found (the same plan, read from a later time at which no step of it
/// has begun), so only the new jobs are looked at. Kept by [`Slurm::backfill`], dropped at
/// every end, main scheduler's start, refusal and reordering.
#[derive(Debug, Clone)]
struct Cycle {
    at: i64,
    /// The jobs it saw: the first `seen` of the order.
    seen: usize,
    tested: usize,
    started: usize,
    reserved: usize,
    per_user: Vec<usize>,
    per_part: Vec<usize>,
    recheck: i64,
    /// The earliest planned end of a running job (a plan step at it or before the next
    /// cycle's time would make that plan another).
    min_end: i64,
    /// It reserved a job at its own time (a later cycle would reserve it later).
    reserved_now: bool,
    /// A cap (bf_max_job_test, _user, _part, _start) kept it from a job: once the jobs it
    /// started have left the queue, a cycle anew may look at that job.
    capped: bool,
    /// The jobs it started: counted in its caps, gone from the next cycle's.
    started_jobs: Vec<JobIdx>,
}

/// Each user's decayed usage, in CPU-seconds.
#[derive(Debug, Clone, Copy, Default)]
struct Usage {
    value: f64,
    at: i64,
    /// CPUs the user's jobs hold now.
    cpus: i64,
}

/// Slurm's scheduler on a cluster's nodes.
pub struct Slurm {
    s: Settings,
    reservations: Option<usize>,
    info: Vec<Info>,
    parts: Vec<Part>,
    nodes: Nodes,
    /// How many jobs wait.
    waiting: usize,
    /// Per job: it waits now.
    queued: Vec<bool>,
    /// Running jobs: planned ends (start + limit) and what they hold of each partition.
    running: Vec<Running>,
    /// Each partition's plan, made anew at each backfill cycle (kept to reuse its memory).
    plans: Vec<Plan>,
    /// Per node: when the last shared job on it ends (it is whole again then), during a cycle.
    whole_at: Vec<i64>,
    /// A cycle's (end, amount) events of each partition's running jobs, and of its nodes
    /// becoming whole, kept to reuse their memory.
    ends: Vec<Vec<(i64, Amount)>>,
    wholes: Vec<Vec<(i64, Amount)>>,
    /// Per node: the partitions it is in.
    node_parts: Vec<Vec<usize>>,
    /// Queued jobs per partition.
    queued_in: Vec<usize>,
    /// Per partition, during a cycle: what jobs that found no start within the window asked
    /// (need, planned length), at most [`BEYOND_KEPT`].
    beyond: Vec<Vec<(Amount, i64)>>,
    /// Per partition, during a cycle: what its plan has free now.
    free_now: Vec<Amount>,
    /// The jobs put in the order at the last [`Slurm::reorder`] (its fresh ones).
    inserted: Vec<JobIdx>,
    /// The job that blocked each partition at the last main pass.
    blockers: Vec<Option<JobIdx>>,
    /// A main pass's jobs to try and jobs left per partition, kept to reuse their memory.
    some: Vec<JobIdx>,
    left: Vec<usize>,
    /// Nothing but submissions and backfill's starts since the last main pass: its blockers
    /// still block (no resource was freed, no priority moved), so the next pass need only try
    /// them and the jobs submitted since.
    main_settled: bool,
    /// What the last backfill cycle left, while only submissions placed after every job it
    /// saw have happened since ([`Cycle`]).
    last_cycle: Option<Cycle>,
    /// Each user's usage, by dense user number ([`Info::user`]).
    users: Vec<Usage>,
    /// Each job's priority, as of the pass under way (waiting jobs only).
    prio: Vec<f64>,
    /// Every user's usage as of `usage_now`, and their sum.
    usage: Vec<f64>,
    usage_total: f64,
    usage_now: Option<i64>,
    /// Each user's fairshare factor and the time it is of.
    fair: Vec<(i64, f64)>,
    /// The sort keys of a reordering, kept to reuse their memory.
    keyed: Vec<u128>,
    /// The waiting jobs in Slurm's order as of the last pass (with the jobs started since).
    order: Vec<JobIdx>,
    /// Jobs submitted since the last pass: their priorities are computed at the next.
    fresh: Vec<JobIdx>,
    /// When every waiting job's priority is computed anew.
    next_calc: i64,
    /// When the next backfill cycle runs: the first `bf_interval` tick after something
    /// arrived or ended since the last one, or the tick after a cycle that found a job no start
    /// within the window (the window moves on with time); none while nothing changes, as a
    /// cycle would find what the last one found.
    due: Option<i64>,
    /// Per job: it was refused by the nodes at least once; and how many were.
    missed_job: Vec<bool>,
    missed_jobs: usize,
    cycles: u64,
    /// What the run is on, for its notes: the cluster in a line, and where it came from.
    on: String,
    /// Jobs held to their partition's size, and jobs planned at their partition's MaxTime.
    held_to_size: usize,
    at_max_time: usize,
}

/// The cluster a trace runs on: its own, else one node of the machine's CPUs with as many GPUs
/// as its jobs held at once, memory unlimited.
pub fn cluster_of(trace: &Trace) -> Cluster {
    if let Some(c) = &trace.cluster {
        return (**c).clone();
    }
    let mut events: Vec<(i64, i64)> = Vec::new();
    for j in trace.jobs.iter().filter(|j| j.gpus > 0) {
        let start = j.submit + j.logged_wait.max(0);
        events.push((start, j.gpus as i64));
        events.push((start + j.runtime, -(j.gpus as i64)));
    }
    events.sort_unstable();
    let (mut now, mut peak) = (0i64, 0i64);
    for (_, d) in events {
        now += d;
        peak = peak.max(now);
    }
    let gpus = peak.max(trace.jobs.iter().map(|j| j.gpus as i64).max().unwrap_or(0));
    Cluster {
        nodes: vec![Node { name: "machine".into(), cpus: trace.machine, memory_mb: 0, gpus: gpus as u32 }],
        partitions: Vec::new(),
        ..Default::default()
    }
}

impl Slurm {
    /// The scheduler for `trace` on its cluster ([`cluster_of`]).
    pub fn new(o: &SlurmOptions, trace: &Trace) -> Self {
        let cluster = cluster_of(trace);
        let s = o.resolve(trace.cluster.as_deref());
        let all: Vec<usize> = (0..cluster.nodes.len()).collect();
        let mut parts: Vec<Part> = cluster
            .partitions
            .iter()
            .map(|p: &Partition| {
                let mut nodes = p.nodes.clone();
                nodes.sort_unstable();
                Part {
                    name: p.name.clone(),
                    nodes,
                    tier: p.priority_tier,
                    overlaps: Vec::new(),
                    node_size: Amount::default(),
                    size: Amount::default(),
                }
            })
            .filter(|p| !p.nodes.is_empty())
            .collect();
        if parts.is_empty() {
            parts.push(Part {
                name: "all".into(),
                nodes: all.clone(),
                tier: 1,
                overlaps: Vec::new(),
                node_size: Amount::default(),
                size: Amount::default(),
            });
        }
        for i in 0..parts.len() {
            let overlaps = (0..parts.len())
                .filter(|&k| parts[k].nodes.iter().any(|n| parts[i].nodes.binary_search(n).is_ok()))
                .collect();
            parts[i].overlaps = overlaps;
            let big = parts[i].nodes.iter().map(|&n| &cluster.nodes[n]).fold(Amount::default(), |m, n| Amount {
                cpus: m.cpus.max(n.cpus as i64),
                gpus: m.gpus.max(n.gpus as i64),
                mem_mb: m.mem_mb.max(if n.memory_mb == 0 { UNKNOWN_MEMORY_MB } else { n.memory_mb as i64 }),
                nodes: 1,
            });
            parts[i].node_size = big;
        }
        let nodes = Nodes::new(&cluster, trace.jobs.len());
        for p in &mut parts {
            p.size = nodes.size_of(&p.nodes);
        }
        let default_part =
            cluster.partitions.iter().filter(|p| !p.nodes.is_empty()).position(|p| p.default).unwrap_or(0);
        let by_name: HashMap<&str, usize> = parts.iter().enumerate().map(|(i, p)| (p.name.as_str(), i)).collect();
        let queue_names: HashMap<i64, &str> = trace.header.queues.iter().map(|(n, name)| (*n, name.as_str())).collect();
        let exclusive_parts: Vec<bool> =
            parts.iter().map(|p| cluster.partitions.iter().any(|c| c.name == p.name && c.exclusive)).collect();
        let max_time: Vec<Option<i64>> = parts
            .iter()
            .map(|p| cluster.partitions.iter().find(|c| c.name == p.name).and_then(|c| c.max_time_s))
            .collect();
        let total_nodes = cluster.nodes.len().max(1) as f64;
        let total_cpus = cluster.cpus().max(1) as f64;
        let qos_max = o.qos_priority.iter().map(|q| q.1).fold(0.0f64, f64::max);
        let qos_names: HashMap<i64, &str> = trace.header.qos.iter().map(|(n, s)| (*n, s.as_str())).collect();
        let (mut held_to_size, mut at_max_time) = (0, 0);
        let mut user_ids: Vec<i32> = trace.jobs.iter().map(|j| j.user).collect();
        user_ids.sort_unstable();
        user_ids.dedup();
        let info: Vec<Info> = trace
            .jobs
            .iter()
            .map(|j| {
                let part = queue_names
                    .get(&(j.queue as i64))
                    .and_then(|name| by_name.get(name).copied())
                    .unwrap_or(default_part.min(parts.len() - 1));
                let p = &parts[part];
                let mem_mb = if j.memory_kb > 0 { (j.memory_kb * j.procs as i64 + 1023) / 1024 } else { 0 };
                let size = p.size;
                // A job asking more than its partition has could never start: it is held to it.
                let total = Amount {
                    cpus: (j.procs as i64).min(size.cpus),
                    gpus: (j.gpus as i64).min(size.gpus),
                    mem_mb: mem_mb.min(size.mem_mb),
                    nodes: 0,
                };
                let mut ask = Ask {
                    total,
                    nodes: j.nodes.min(p.nodes.len() as u32),
                    exclusive: j.exclusive || exclusive_parts[part],
                };
                // Nor could a job whose share of each node is more than the partition's largest node.
                let n = nodes.fewest(&ask, &p.nodes) as i64;
                let most = |v: i64, per: i64| v.min(per.saturating_mul(n));
                ask.total = Amount {
                    cpus: most(total.cpus, p.node_size.cpus),
                    gpus: most(total.gpus, p.node_size.gpus),
                    mem_mb: most(total.mem_mb, p.node_size.mem_mb),
                    nodes: 0,
                };
                let total = ask.total;
                held_to_size +=
                    usize::from(total.cpus < j.procs as i64 || total.gpus < j.gpus as i64 || total.mem_mb < mem_mb);
                at_max_time += usize::from(max_time[part].is_some_and(|m| j.sched_runtime > m));
                let limit = max_time[part].map_or(j.sched_runtime, |m| j.sched_runtime.min(m)).max(1);
                let n = nodes.fewest(&ask, &p.nodes);
                let k = n as i64;
                let need = if ask.exclusive {
                    let size = p.node_size;
                    Amount { cpus: size.cpus * k, gpus: size.gpus * k, mem_mb: size.mem_mb.saturating_mul(k), nodes: k }
                } else {
                    ask.total
                };
                // The mean of its shares of the cluster's nodes and CPUs: 1 for a job of every
                // node (and so every CPU), as the documentation says.
                let raw = ((n as f64 / total_nodes + total.cpus as f64 / total_cpus) / 2.0).min(1.0);
                let size_factor = if s.favor_small { 1.0 - raw } else { raw };
                let qos_factor = if qos_max > 0.0 {
                    let number = j.qos.to_string();
                    let name = qos_names.get(&(j.qos as i64)).copied().unwrap_or(&number);
                    o.qos_priority.iter().find(|q| q.0.eq_ignore_ascii_case(name)).map_or(0.0, |q| q.1 / qos_max)
                } else {
                    0.0
                };
                let user = user_ids.binary_search(&j.user).unwrap_or(0);
                let res = s.resolution.max(1);
                let (limit_steps, limit_rest) = (limit.div_euclid(res), limit.rem_euclid(res));
                Info {
                    ask,
                    n,
                    need,
                    user,
                    submit: j.submit,
                    part,
                    limit,
                    limit_steps,
                    limit_rest,
                    size_factor,
                    qos_factor,
                }
            })
            .collect();
        let n_parts = parts.len();
        let mut node_parts = vec![Vec::new(); nodes.len()];
        for (k, p) in parts.iter().enumerate() {
            for &n in &p.nodes {
                node_parts[n].push(k);
            }
        }
        Slurm {
            s,
            reservations: o.reservations,
            info,
            parts,
            nodes,
            waiting: 0,
            queued: vec![false; trace.jobs.len()],
            running: Vec::new(),
            plans: Vec::new(),
            whole_at: Vec::new(),
            ends: Vec::new(),
            wholes: Vec::new(),
            node_parts,
            queued_in: vec![0; n_parts],
            beyond: Vec::new(),
            free_now: Vec::new(),
            inserted: Vec::new(),
            blockers: vec![None; n_parts],
            some: Vec::new(),
            left: Vec::new(),
            main_settled: false,
            last_cycle: None,
            users: vec![Usage::default(); user_ids.len().max(1)],
            prio: vec![0.0; trace.jobs.len()],
            usage: Vec::new(),
            usage_total: 0.0,
            usage_now: None,
            fair: Vec::new(),
            keyed: Vec::new(),
            order: Vec::new(),
            fresh: Vec::new(),
            next_calc: i64::MIN,
            due: None,
            missed_job: vec![false; trace.jobs.len()],
            missed_jobs: 0,
            cycles: 0,
            on: format!(
                "{} ({})",
                cluster.describe().first().cloned().unwrap_or_default(),
                if trace.cluster.is_some() {
                    "the trace's cluster"
                } else {
                    "no cluster known: one node of the machine's CPUs"
                }
            ),
            held_to_size,
            at_max_time,
        }
    }

    /// The settings this run uses, and where each came from.
    pub fn settings(&self) -> &Settings {
        &self.s
    }

    /// How many jobs were at some time free to start by the count of CPUs, GPUs and memory in
    /// their partition, yet held by no set of its nodes: what a count-only model would have
    /// started wrongly. (Not how many times: that depends on how often the scheduler looks.)
    pub fn count_misses(&self) -> usize {
        self.missed_jobs
    }

    /// Backfill cycles run.
    pub fn cycles(&self) -> u64 {
        self.cycles
    }

    /// The usage of `user` brought up to `now`: decayed with the half-life, its running
    /// jobs' CPU-seconds added as they accrued.
    fn usage_at(&self, u: &Usage, now: i64) -> f64 {
        let dt = (now - u.at).max(0) as f64;
        if self.s.half_life <= 0 {
            return u.value + u.cpus as f64 * dt;
        }
        let h = self.s.half_life as f64;
        let keep = (-dt / h).exp2();
        u.value * keep + u.cpus as f64 * h / std::f64::consts::LN_2 * (1.0 - keep)
    }

    fn charge(&mut self, user: usize, now: i64, cpus: i64) {
        let mut u = self.users[user];
        u.value = self.usage_at(&u, now);
        u.at = now;
        u.cpus += cpus;
        self.users[user] = u;
    }

    /// The priority of each job of `jobs` now, into `self.prio` by job index.
    fn priorities(&mut self, now: i64, jobs: &[JobIdx]) {
        if !self.s.multifactor || jobs.is_empty() {
            return;
        }
        // Every user's usage as of `now`, once per time: a start or an end at `now` changes no
        // usage as of `now` (none has accrued since), so it stays right through the time.
        if self.usage_now != Some(now) {
            let mut usage = std::mem::take(&mut self.usage);
            usage.clear();
            // A user with no usage and nothing running has none still.
            usage.extend(self.users.iter().map(|u| {
                if u.value == 0.0 && u.cpus == 0 {
                    0.0
                } else {
                    self.usage_at(u, now)
                }
            }));
            self.usage_total = usage.iter().sum();
            self.usage = usage;
            self.usage_now = Some(now);
            self.fair.resize(self.users.len(), (i64::MIN, 0.0));
        }
        let w = self.s.weights;
        let max_tier = self.parts.iter().map(|p| p.tier).max().unwrap_or(1).max(1) as f64;
        let share = 1.0 / self.users.len().max(1) as f64;
        let total = self.usage_total;
        for &j in jobs {
            let i = &self.info[j as usize];
            let age = ((now - i.submit).max(0) as f64 / self.s.max_age as f64).min(1.0);
            // Each user's fairshare factor as of `now`, worked out for the first of its jobs.
            let fairshare = match self.fair[i.user] {
                (at, f) if at == now => f,
                _ => {
                    let used = if total > 0.0 { self.usage[i.user] / total } else { 0.0 };
                    let f = (-used / share).exp2();
                    self.fair[i.user] = (now, f);
                    f
                }
            };
            let part = self.parts[i.part].tier as f64 / max_tier;
            let p = w[0] * age + w[1] * fairshare + w[2] * i.size_factor + w[3] * part + w[4] * i.qos_factor;
            self.prio[j as usize] = p.floor();
        }
    }

    /// Job `j`'s place in Slurm's order: partition tier, priority, submit time, job id (the
    /// trace's order, so the job index).
    fn key(&self, j: JobIdx) -> u128 {
        order_key(self.parts[self.info[j as usize].part].tier, self.prio[j as usize], j)
    }

    /// Brings the waiting jobs' order up to `now`: every priority anew once per
    /// `calc_period` (Slurm's PriorityCalcPeriod), else only the jobs submitted since,
    /// each put in its place.
    fn reorder(&mut self, now: i64) {
        let mut fresh = std::mem::take(&mut self.fresh);
        fresh.retain(|&j| self.queued[j as usize]);
        if self.order.len() > self.waiting - fresh.len() {
            self.order.retain(|&j| self.queued[j as usize]);
        }
        if self.s.multifactor && now >= self.next_calc {
            let mut order = std::mem::take(&mut self.order);
            order.extend(fresh.iter().copied());
            self.priorities(now, &order);
            // The keys side by side, sorted as they are: the last order is most of the new one.
            let mut keyed = std::mem::take(&mut self.keyed);
            keyed.clear();
            keyed.extend(order.iter().map(|&j| self.key(j)));
            keyed.sort();
            order.clear();
            order.extend(keyed.iter().map(|&k| k as JobIdx));
            self.keyed = keyed;
            self.order = order;
            let k = self.s.calc_period.max(1);
            self.next_calc = now.div_euclid(k) * k + k;
            // Every priority moved: what the last passes found no longer holds.
            self.main_settled = false;
            self.last_cycle = None;
            self.inserted = fresh;
            return;
        }
        self.priorities(now, &fresh);
        let seen = self.last_cycle.as_ref().map_or(0, |c| c.seen);
        for &j in &fresh {
            let key = self.key(j);
            let at = self.order.partition_point(|&o| self.key(o) < key);
            if at < seen {
                self.last_cycle = None;
            }
            self.order.insert(at, j);
        }
        self.inserted = fresh;
    }

    /// Starts job `j` on `place`; false if the engine refused.
    fn start(&mut self, sys: &mut System, j: JobIdx, place: Vec<(u32, Amount)>) -> bool {
        if !sys.start(j) {
            // The engine holds something back the nodes do not show: no shortcut may assume them.
            self.main_settled = false;
            self.last_cycle = None;
            return false;
        }
        let i = self.info[j as usize];
        self.queued_in[i.part] -= 1;
        self.nodes.take(j, place, i.ask.exclusive);
        let cpus = self.nodes.holding(j).cpus;
        let now = sys.now();
        self.charge(i.user, now, cpus);
        let held = self.parts[i.part]
            .overlaps
            .iter()
            .map(|&k| (k, self.nodes.holding_in(j, &self.parts[k].nodes)))
            .filter(|(_, a)| *a != Amount::default())
            .collect();
        let shared = if self.nodes.is_whole(j) { Vec::new() } else { self.nodes.nodes_of(j) };
        // Kept in order of planned end, so each cycle's plan reads them sorted.
        let end = now.saturating_add(i.limit);
        let at = self.running.partition_point(|r| r.end <= end);
        self.running.insert(at, Running { job: j, end, held, shared });
        self.waiting -= 1;
        self.queued[j as usize] = false;
        true
    }

    /// What job `j` takes of its partition in the plan: exclusive jobs take whole nodes.
    fn need(&self, j: JobIdx) -> Amount {
        self.info[j as usize].need
    }

    /// Why job `j` cannot start now, by count or by nodes.
    fn why_not(&self, j: JobIdx) -> Why {
        let i = &self.info[j as usize];
        let p = &self.parts[i.part];
        let free = self.nodes.free_in(&p.nodes);
        let need = self.need(j);
        match free.short_of(&need) {
            Some("GPUs") => Why::Other {
                text: format!("it needs {} GPUs and {} are free in partition {}", need.gpus, free.gpus, p.name),
            },
            Some("memory") => Why::Other {
                text: format!(
                    "it needs {} MB of memory and {} MB are free in partition {}",
                    need.mem_mb, free.mem_mb, p.name
                ),
            },
            Some(_) => Why::Other {
                text: format!("it needs {} CPUs and {} are free in partition {}", need.cpus, free.cpus, p.name),
            },
            None => Why::Other {
                text: format!(
                    "its CPUs, GPUs and memory are free in partition {} by count, but no {} of its nodes hold{} it",
                    p.name,
                    if i.ask.exclusive { "idle set" } else { "set" },
                    if i.ask.exclusive { "" } else { "s" }
                ),
            },
        }
    }

    /// The main scheduler's pass: jobs in order, each started where its partition's nodes
    /// hold it; the first that cannot start blocks its partition. When only submissions came
    /// since the last pass ([`Slurm::main_settled`]), the jobs it did not start still cannot
    /// start and those behind a blocker stay behind it: the pass over the last blockers and
    /// the new jobs, in order, is the pass over the whole queue.
    fn main_pass(&mut self, sys: &mut System, order: &[JobIdx]) {
        let settled = std::mem::replace(&mut self.main_settled, true);
        if settled && !sys.explaining() {
            let mut some = std::mem::take(&mut self.some);
            some.clear();
            some.extend(self.blockers.iter().flatten().copied());
            some.extend(self.inserted.iter().copied());
            some.retain(|&j| self.queued[j as usize]);
            if some.len() > 1 {
                some.sort_unstable_by_key(|&j| self.key(j));
                some.dedup();
            }
            self.main_over(sys, &some, false);
            self.some = some;
        } else {
            self.main_over(sys, order, true);
        }
    }

    /// The main scheduler's pass over `jobs` (in order); `every` when they are every queued job
    /// (a partition none of whose jobs is left is done).
    fn main_over(&mut self, sys: &mut System, jobs: &[JobIdx], every: bool) {
        let mut blocked = std::mem::take(&mut self.blockers);
        blocked.clear();
        blocked.resize(self.parts.len(), None);
        let mut left = std::mem::take(&mut self.left);
        left.clear();
        if every {
            left.extend_from_slice(&self.queued_in);
        } else {
            left.resize(self.parts.len(), usize::MAX);
        }
        let mut stopped = left.iter().filter(|&&n| n == 0).count();
        for &j in jobs {
            // Once every partition is blocked or has no job left, the rest only wait: unless
            // explaining, they are not looked at.
            if stopped == self.parts.len() && !sys.explaining() {
                break;
            }
            let i = self.info[j as usize];
            if let Some(first) = blocked[i.part] {
                let id = sys.view(first).id;
                sys.explain(|| Decision::Waits {
                    job: j,
                    why: Why::Other {
                        text: format!(
                            "the main scheduler stopped at job {id} in partition {}: lower-priority jobs wait for backfill",
                            self.parts[i.part].name
                        ),
                    },
                });
                continue;
            }
            left[i.part] -= 1;
            let p = &self.parts[i.part];
            match self.nodes.place_on(&i.ask, &p.nodes, i.n) {
                Some(place) => {
                    if self.start(sys, j, place) {
                        self.last_cycle = None;
                        let name = &self.parts[i.part].name;
                        sys.explain(|| Decision::Started {
                            job: j,
                            why: Why::Other {
                                text: format!("the main scheduler started it: the first in priority order in partition {name} whose nodes are free"),
                            },
                        });
                    }
                    if left[i.part] == 0 {
                        stopped += 1;
                    }
                }
                None => {
                    if self.nodes.free_in(&p.nodes).covers(&self.need(j)) {
                        self.missed(j);
                    }
                    sys.explain(|| Decision::Waits { job: j, why: self.why_not(j) });
                    blocked[i.part] = Some(j);
                    stopped += 1;
                }
            }
        }
        self.blockers = blocked;
        self.left = left;
    }

    /// One backfill cycle: made anew, or the last one's gone on with over the jobs submitted
    /// since when nothing else changed ([`Cycle`]).
    fn backfill(&mut self, sys: &mut System, order: &[JobIdx]) {
        self.cycles += 1;
        let now = sys.now();
        let res = self.s.resolution;
        let round = |t: i64| round_up(t, now, res);
        let (now_steps, now_rest) = (now.div_euclid(res), now.rem_euclid(res));
        let window_end = self.s.window.map_or(i64::MAX, |w| now.saturating_add(w));
        // Durations are rounded from the cycle's time, and a job may wait to be old enough to
        // be reserved: a cycle at another time of the resolution, or with an age floor, is made anew.
        let goes_on = |c: &Cycle| {
            (now - c.at) % res == 0
                && c.min_end > now
                && !c.reserved_now
                && !c.capped
                && self.s.min_age_reserve <= 0
                && (self.s.window.is_none() || now < c.recheck)
        };
        let last = self.last_cycle.take().filter(|c| !sys.explaining() && goes_on(c));
        let mut c = match last {
            Some(mut c) => {
                // The jobs it started count in no cap now.
                for &j in &c.started_jobs {
                    let i = &self.info[j as usize];
                    if let Some(n) = c.per_user.get_mut(i.user) {
                        *n -= 1;
                    }
                    if let Some(n) = c.per_part.get_mut(i.part) {
                        *n -= 1;
                    }
                }
                c.tested -= c.started_jobs.len();
                c.started = 0;
                c.started_jobs.clear();
                c
            }
            None => {
                self.make_plans(now);
                Cycle {
                    at: now,
                    seen: 0,
                    tested: 0,
                    started: 0,
                    reserved: 0,
                    // Counted only where capped.
                    per_user: vec![0; if self.s.max_user > 0 { self.users.len() } else { 0 }],
                    per_part: vec![0; if self.s.max_part > 0 { self.parts.len() } else { 0 }],
                    // The first time a job found no start within the window may find one: the
                    // window's end reaches its start then.
                    recheck: i64::MAX,
                    min_end: self.running.first().map_or(i64::MAX, |r| r.end),
                    reserved_now: false,
                    capped: false,
                    started_jobs: Vec::new(),
                }
            }
        };
        let mut plans = std::mem::take(&mut self.plans);
        let (mut tested, mut started, mut reserved) = (c.tested, c.started, c.reserved);
        let mut per_user = std::mem::take(&mut c.per_user);
        let mut per_part = std::mem::take(&mut c.per_part);
        let mut recheck = c.recheck;
        self.beyond.resize_with(self.parts.len(), Vec::new);
        self.beyond.iter_mut().for_each(Vec::clear);
        // What each partition has free now, and whether any has a CPU free: they change only
        // as jobs start or are reserved now.
        let mut free_now = std::mem::take(&mut self.free_now);
        free_now.clear();
        free_now.extend(plans.iter().map(|p| p.free_at(now)));
        let mut cpus_free = free_now.iter().any(|f| f.cpus > 0);
        for (at, &j) in order.iter().enumerate().skip(c.seen) {
            // With no reservation left to give and no CPU free now in any partition, no job
            // further down can start: unless explaining, they are not looked at.
            if self.reservations.is_some_and(|k| reserved >= k) && !sys.explaining() && !cpus_free {
                break;
            }
            if !self.queued[j as usize] {
                continue;
            }
            if tested >= self.s.max_test {
                c.capped = true;
                let left = order[at..].iter().filter(|&&j| self.queued[j as usize]).count();
                let limit = self.s.max_test;
                sys.explain(|| Decision::Waits {
                    job: j,
                    why: Why::Other { text: format!("bf_max_job_test={limit}: backfill looked at {limit} jobs and stopped ({left} not looked at)") },
                });
                break;
            }
            // Most jobs looked at cannot start now and hold no reservation: they are told
            // apart by a few of their fields, and the rest is read only for the others.
            let (user, part, submit) = {
                let i = &self.info[j as usize];
                (i.user, i.part, i.submit)
            };
            if self.s.max_user > 0 && per_user[user] >= self.s.max_user {
                c.capped = true;
                continue;
            }
            if self.s.max_part > 0 && per_part[part] >= self.s.max_part {
                c.capped = true;
                continue;
            }
            if let Some(n) = per_user.get_mut(user) {
                *n += 1;
            }
            if let Some(n) = per_part.get_mut(part) {
                *n += 1;
            }
            tested += 1;
            let may_reserve = self.reservations.is_none_or(|k| reserved < k)
                && self.prio[j as usize] >= self.s.min_prio_reserve
                && now - submit >= self.s.min_age_reserve;
            // A job that may not be reserved can only start now: most cannot, which the
            // resources free now tell at once.
            if !may_reserve && !free_now[part].covers(&self.info[j as usize].need) {
                sys.explain(|| Decision::Waits { job: j, why: self.why_not(j) });
                continue;
            }
            let Info { ask, n, limit, limit_steps, limit_rest, need, .. } = self.info[j as usize];
            let dur = if now >= 0 && res > 1 {
                rounded_length(now, (now_steps, now_rest), (limit_steps, limit_rest), res)
            } else {
                round(now + limit) - now
            };
            // A job asking at least what one that found no start within the window asked, for at
            // least as long, finds none either: the plan only loses resources during a cycle.
            let window = may_reserve && self.s.window.is_some();
            if window && !sys.explaining() && self.beyond[part].iter().any(|(n, d)| *d <= dur && need.covers(n)) {
                continue;
            }
            let latest = if may_reserve { window_end } else { now };
            // With a window, where the job would start past it tells when to look again: one scan
            // finds both.
            let found = if may_reserve {
                plans[part].earliest(now, &need, dur, if window { i64::MAX } else { latest })
            } else {
                plans[part].stays_free(now, &need, dur).then_some(now)
            };
            let Some(start) = found.filter(|&s| s <= latest) else {
                if !may_reserve {
                    sys.explain(|| Decision::Waits { job: j, why: self.why_not(j) });
                    continue;
                }
                if let (Some(w), Some(s)) = (self.s.window, found) {
                    recheck = recheck.min(s - w);
                }
                if self.beyond[part].len() < BEYOND_KEPT {
                    self.beyond[part].push((need, dur));
                }
                let end = window_end;
                sys.explain(|| Decision::Waits {
                    job: j,
                    why: Why::Other {
                        text: format!(
                            "backfill found no start before bf_window ends at {}: it holds no reservation",
                            clock(end)
                        ),
                    },
                });
                continue;
            };
            c.capped |= start == now && self.s.max_start > 0 && started >= self.s.max_start;
            if start == now && (self.s.max_start == 0 || started < self.s.max_start) {
                let p = &self.parts[part];
                let place = self.nodes.place_on(&ask, &p.nodes, n);
                let end = now + dur;
                // A shared job keeps each node it goes on from being whole until it ends: an idle
                // node from now, a shared one from when its last job was to end. The plan must
                // allow that too (an exclusive job may be reserved the node).
                let mut longer: Vec<(u32, i64)> = match (&place, ask.exclusive) {
                    (Some(pl), false) => pl
                        .iter()
                        .map(|&(n, _)| (n, self.whole_at[n as usize].max(now)))
                        .filter(|&(_, from)| from < end)
                        .collect(),
                    _ => Vec::new(),
                };
                longer.sort_unstable_by_key(|l| l.1);
                let keeps_plan = longer.is_empty() || {
                    let from: Vec<i64> = longer
                        .iter()
                        .filter(|(n, _)| p.nodes.binary_search(&(*n as usize)).is_ok())
                        .map(|l| l.1)
                        .collect();
                    plans[part].holds(now, &need, dur, &from)
                };
                if let Some(place) = place.filter(|_| keeps_plan) {
                    if self.start(sys, j, place) {
                        let one_node = Amount { nodes: 1, ..Amount::default() };
                        for &(n, from) in &longer {
                            self.whole_at[n as usize] = end;
                            for &k in &self.parts[part].overlaps {
                                if self.parts[k].nodes.binary_search(&(n as usize)).is_ok() {
                                    plans[k].take(from, end, &one_node);
                                }
                            }
                        }
                        c.min_end = c.min_end.min(now + limit);
                        c.started_jobs.push(j);
                        started += 1;
                        sys.note_backfill(j);
                        for &k in &self.parts[part].overlaps {
                            let held = self.nodes.holding_in(j, &self.parts[k].nodes);
                            plans[k].take(now, now + dur, &held);
                        }
                        cpus_free = read_free(&mut free_now, &plans, &self.parts[part].overlaps, now);
                        let end = window_end;
                        sys.explain(|| Decision::Started {
                            job: j,
                            why: Why::Other {
                                text: if end == i64::MAX {
                                    "started by backfill: it delays no higher-priority job's planned start".to_string()
                                } else {
                                    format!(
                                        "started by backfill: it delays no higher-priority job's planned start (bf_window ends at {})",
                                        clock(end)
                                    )
                                },
                            },
                        });
                        continue;
                    }
                } else if keeps_plan {
                    self.missed(j);
                }
            }
            if may_reserve {
                reserved += 1;
                c.reserved_now |= start == now;
                for &k in &self.parts[part].overlaps {
                    plans[k].take(start, start + dur, &need);
                }
                if start == now {
                    cpus_free = read_free(&mut free_now, &plans, &self.parts[part].overlaps, now);
                }
                sys.explain(|| Decision::Reserved { job: j, start, was: None, procs: need.cpus });
                sys.explain(|| Decision::Waits {
                    job: j,
                    why: Why::Other {
                        text: format!(
                            "planned at {} by backfill{}: its {} CPUs, {} GPUs and {} MB are held for it from then: no lower-priority job may take them",
                            clock(start),
                            if window_end == i64::MAX {
                                String::new()
                            } else {
                                format!("; bf_window ends at {}", clock(window_end))
                            },
                            need.cpus,
                            need.gpus,
                            if need.mem_mb >= UNKNOWN_MEMORY_MB { 0 } else { need.mem_mb }
                        ),
                    },
                });
            } else {
                sys.explain(|| Decision::Waits {
                    job: j,
                    why: Why::Other { text: format!("planned at {} by backfill, without a reservation (bf_min_prio_reserve, bf_min_age_reserve or the reservation depth)", clock(start)) },
                });
            }
        }
        self.plans = plans;
        self.free_now = free_now;
        self.last_cycle =
            Some(Cycle { at: now, seen: self.waiting, tested, started, reserved, per_user, per_part, recheck, ..c });
        let k = self.s.interval.max(1);
        self.due = (recheck < i64::MAX).then(|| {
            let t = recheck.max(now + 1);
            t.div_euclid(k) * k + if t.rem_euclid(k) == 0 { 0 } else { k }
        });
    }

    /// Each partition's plan at `now`: free resources as the running jobs end at their limits
    /// (rounded up to `bf_resolution`), and whole nodes as the last job sharing each ends.
    fn make_plans(&mut self, now: i64) {
        let res = self.s.resolution;
        let round = |t: i64| round_up(t, now, res);
        self.whole_at.clear();
        self.whole_at.resize(self.nodes.len(), i64::MIN);
        let n_parts = self.parts.len();
        self.ends.resize_with(n_parts, Vec::new);
        self.ends.iter_mut().for_each(Vec::clear);
        self.wholes.resize_with(n_parts, Vec::new);
        self.wholes.iter_mut().for_each(Vec::clear);
        // One pass over the running jobs, each end rounded once and given to every partition
        // the job holds some of.
        for r in &self.running {
            let end = round(r.end.max(now + 1));
            for &(k, held) in &r.held {
                self.ends[k].push((end, held));
            }
        }
        // A node is whole again when the last job sharing it ends: read from the last end back,
        // the first job seen on a node is that one, so each partition's times come in order
        // (latest first) without a sort. Rounding keeps the order of the ends.
        let one_node = Amount { nodes: 1, ..Amount::default() };
        for r in self.running.iter().rev() {
            if r.shared.is_empty() {
                continue;
            }
            let end = round(r.end.max(now + 1));
            for &n in &r.shared {
                if self.whole_at[n as usize] == i64::MIN {
                    self.whole_at[n as usize] = end;
                    for &k in &self.node_parts[n as usize] {
                        self.wholes[k].push((end, one_node));
                    }
                }
            }
        }
        self.plans.resize_with(n_parts, || Plan::new(now, Amount::default()));
        for (k, p) in self.parts.iter().enumerate() {
            self.wholes[k].reverse();
            self.plans[k].reset_sorted(now, p.size, &self.ends[k], &self.wholes[k]);
        }
    }

    /// Job `j`'s resources were free in its partition by count, but no set of its nodes held it.
    fn missed(&mut self, j: JobIdx) {
        if !self.missed_job[j as usize] {
            self.missed_job[j as usize] = true;
            self.missed_jobs += 1;
        }
    }

    /// Something changed at `now`: a backfill cycle is due at the next tick.
    fn changed(&mut self, now: i64) {
        let k = self.s.interval.max(1);
        let tick = now.div_euclid(k) * k + if now.rem_euclid(k) == 0 { 0 } else { k };
        self.due = Some(self.due.map_or(tick, |d| d.min(tick)));
    }
}

/// Reads what each partition of `parts` has free at `now` in its plan into `free_now`; whether
/// any partition has a CPU free then.
fn read_free(free_now: &mut [Amount], plans: &[Plan], parts: &[usize], now: i64) -> bool {
    for &k in parts {
        free_now[k] = plans[k].free_at(now);
    }
    free_now.iter().any(|f| f.cpus > 0)
}

/// Time `t` as a backfill cycle at `now` plans it: rounded up to a multiple of `res`
/// (`bf_resolution`), and no earlier than `now`.
fn round_up(t: i64, now: i64, res: i64) -> i64 {
    if t <= now || res == 1 {
        t.max(now)
    } else {
        (t + res - 1) / res * res
    }
}

/// How long a job of limit `limit` (in whole steps of `res` and seconds left over) is planned
/// from `now` (split alike), its end rounded up to a step: `now + limit` is that many steps
/// and `over` seconds, one step more for part of one, two for more than one. For `now >= 0`.
fn rounded_length(now: i64, (now_steps, now_rest): (i64, i64), (steps, rest): (i64, i64), res: i64) -> i64 {
    let over = now_rest + rest;
    let steps = now_steps
        + steps
        + if over == 0 {
            0
        } else if over <= res {
            1
        } else {
            2
        };
    steps * res - now
}

/// A time as the decision log writes it inside Slurm's sentences: an accounting log's clock as
/// a UTC date and time, an SWF trace's as seconds from its start.
fn clock(t: i64) -> String {
    if t < 946_684_800 {
        return format!("{t} s");
    }
    let (y, m, d) = crate::calendar::civil_from_days(t.div_euclid(86_400));
    let s = t.rem_euclid(86_400);
    format!("{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02} UTC", s / 3600, s / 60 % 60, s % 60)
}

impl Policy for Slurm {
    fn on_arrival(&mut self, job: JobView, sys: &mut System) {
        self.waiting += 1;
        self.queued_in[self.info[job.idx as usize].part] += 1;
        self.fresh.push(job.idx);
        self.queued[job.idx as usize] = true;
        self.changed(sys.now());
    }

    fn on_completion(&mut self, job: JobView, sys: &mut System) {
        let cpus = self.nodes.holding(job.idx).cpus;
        self.charge(self.info[job.idx as usize].user, sys.now(), -cpus);
        self.nodes.give_back(job.idx);
        self.running.retain(|r| r.job != job.idx);
        self.main_settled = false;
        self.last_cycle = None;
        self.changed(sys.now());
    }

    fn declares_backfills(&self) -> bool {
        true
    }

    fn notes(&self) -> Vec<String> {
        let mut out = vec![format!("on {}", self.on)];
        let from: Vec<String> = self
            .s
            .sources
            .iter()
            .filter(|(_, _, src)| src != "default")
            .map(|(k, v, src)| format!("{k}={v} ({src})"))
            .collect();
        out.push(if from.is_empty() {
            "every Slurm setting at Slurm's default".to_string()
        } else {
            format!("{}; the rest at Slurm's defaults", from.join(", "))
        });
        if self.s.backfill {
            out.push(format!("{} backfill cycles", self.cycles));
        }
        out.push(format!(
            "{} of {} jobs ({:.1}%) were at some time free to start by the count of CPUs, GPUs and memory in their partition, yet no set of its nodes held them: what a count-only model would have started",
            self.missed_jobs,
            self.info.len(),
            100.0 * self.missed_jobs as f64 / self.info.len().max(1) as f64,
        ));
        if self.held_to_size > 0 {
            out.push(format!("{} jobs asked for more than their partition has and were held to it", self.held_to_size));
        }
        if self.at_max_time > 0 {
            out.push(format!(
                "{} jobs asked for more time than their partition's MaxTime and were planned at it",
                self.at_max_time
            ));
        }
        out
    }

    fn schedule(&mut self, sys: &mut System) {
        if self.waiting == 0 {
            self.due = None;
            return;
        }
        self.reorder(sys.now());
        // Starts change no job's place in the order: it is lent to the passes, not copied.
        let order = std::mem::take(&mut self.order);
        if sys.explaining() {
            let free = self.nodes.free_in(&(0..self.nodes.len()).collect::<Vec<_>>()).cpus;
            sys.explain(|| Decision::Queue { order: order.clone(), free });
        }
        self.main_pass(sys, &order);
        if self.waiting == 0 {
            self.due = None;
        }
        if !self.s.backfill || (self.waiting == 0) {
            self.order = order;
            return;
        }
        let now = sys.now();
        let due = self.s.interval == 0 || self.due.is_some_and(|d| now >= d);
        if due {
            self.backfill(sys, &order);
        }
        self.order = order;
        if let Some(d) = self.due {
            if self.s.interval > 0 && self.waiting != 0 {
                sys.wake_at(d.max(now + 1));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// One number orders jobs as tier (higher first), priority (higher first, by
        /// `total_cmp`) and index do.
        #[test]
        fn the_order_key_orders_as_tier_priority_and_index(
            a in (0u32..4, proptest::num::f64::ANY, 0u32..1000),
            b in (0u32..4, proptest::num::f64::ANY, 0u32..1000),
        ) {
            let by_parts = b.0.cmp(&a.0).then(b.1.total_cmp(&a.1)).then(a.2.cmp(&b.2));
            proptest::prop_assert_eq!(order_key(a.0, a.1, a.2).cmp(&order_key(b.0, b.1, b.2)), by_parts);
            // Equal tier and priority: the lower index first.
            proptest::prop_assert!(order_key(a.0, a.1, a.2) < order_key(a.0, a.1, a.2 + 1));
        }
    }

    #[test]
    fn a_planned_length_is_rounded_as_by_division() {
        for res in [2, 7, 60] {
            for now in 0..300 {
                for limit in 1..300 {
                    let by_division = ((now + limit) + res - 1) / res * res - now;
                    let split = |t: i64| (t.div_euclid(res), t.rem_euclid(res));
                    assert_eq!(rounded_length(now, split(now), split(limit), res), by_division, "{now} {limit} {res}");
                }
            }
        }
    }
}
