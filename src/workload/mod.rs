//! Synthetic workloads: a model's jobs written as an SWF trace, which then reads as any other
//! ([`crate::trace::parse`]), so every policy, study and explanation works on it.
//!
//! One model so far, Lublin & Feitelson's ([`lublin`]). Users' estimates are not part of it:
//! a generated job's estimate is its runtime (`estimate=exact`), its runtime times a factor,
//! rounded up (`estimate=2`), or drawn from Tsafrir, Etsion & Feitelson's model of users'
//! modal estimates (`estimate=tef`, [`estimates`]).

pub mod cluster_log;
pub mod estimates;
pub mod lublin;

use std::fmt::Write as _;

use crate::keys::{parse_choice, parse_num, KeyError};
use lublin::{offered_load, sample, JobTypes, ModelJob};

/// How a generated job's estimate is made.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Estimates {
    /// The runtime times this factor, rounded up (1: exact).
    Factor(f64),
    /// Drawn from Tsafrir, Etsion & Feitelson's model ([`estimates`]), the maximal estimate
    /// being the longest runtime rounded up to a whole hour.
    Tef,
}

/// What to generate.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkloadOptions {
    /// Machine size, processors.
    pub machine: u32,
    /// Number of jobs (unless `days` is given).
    pub jobs: usize,
    /// Instead of a number of jobs: the jobs submitted in this many days.
    pub days: Option<f64>,
    /// Job types.
    pub types: JobTypes,
    /// Seed of the model's random stream.
    pub seed: u64,
    /// Offered load to reach, or the model's own.
    pub load: Option<f64>,
    /// How the jobs' estimates are made.
    pub estimates: Estimates,
}

impl Default for WorkloadOptions {
    fn default() -> Self {
        WorkloadOptions {
            machine: 128,
            jobs: 10_000,
            days: None,
            types: JobTypes::Both,
            seed: 1,
            load: None,
            estimates: Estimates::Factor(1.0),
        }
    }
}

/// The keys of a `generate:` trace spec and of `schedlab generate`: (key, default, meaning).
pub const WORKLOAD_KEYS: &[(&str, &str, &str)] = &[
    ("model", "lublin99", "the workload model: lublin99 (Lublin & Feitelson 2003)"),
    ("machine", "128", "machine size in processors (sizes scale with log2 of it)"),
    ("jobs", "10000", "number of jobs, 1 to 5,000,000"),
    ("days", "none", "instead of jobs: the jobs submitted in this many days, 0.01 to 3650"),
    ("types", "both", "job types: both (batch and interactive) | batch | interactive | typeless"),
    ("seed", "1", "seed of the model's random stream: the same seed gives the same workload"),
    ("load", "model", "offered load to reach by stretching every inter-arrival gap, 0.01 to 10, or model (its own)"),
    (
        "estimate",
        "exact",
        "user estimates: exact (the runtime), a factor >= 1 (the runtime times it, rounded up), or tef (Tsafrir, Etsion & Feitelson's model of modal estimates)",
    ),
];

impl WorkloadOptions {
    /// Sets one option; `Ok(false)` if `key` is not one.
    pub fn set(&mut self, key: &str, value: &str) -> Result<bool, KeyError> {
        let v = value.trim();
        match key {
            "model" => {
                parse_choice::<()>(key, v, &[("lublin99", ()), ("lublin", ())])?;
            }
            "machine" => {
                let m: f64 = parse_num(key, v)?;
                if !((1.0..=10_000_000.0).contains(&m) && m.fract() == 0.0) {
                    return Err(KeyError::new(key, v, "must be a whole number of processors, 1 to 10,000,000"));
                }
                self.machine = m as u32;
            }
            "jobs" => {
                let n: f64 = parse_num(key, v)?;
                if !((1.0..=5_000_000.0).contains(&n) && n.fract() == 0.0) {
                    return Err(KeyError::new(key, v, "must be a whole number of jobs, 1 to 5,000,000"));
                }
                self.jobs = n as usize;
            }
            "days" => {
                let d: f64 = parse_num(key, v)?;
                if !(0.01..=3650.0).contains(&d) {
                    return Err(KeyError::new(key, v, "must be a span of days from 0.01 to 3650"));
                }
                self.days = Some(d);
            }
            "types" => {
                self.types = parse_choice(
                    key,
                    v,
                    &[
                        ("both", JobTypes::Both),
                        ("batch", JobTypes::Batch),
                        ("interactive", JobTypes::Interactive),
                        ("typeless", JobTypes::Typeless),
                    ],
                )?
            }
            "seed" => {
                let s: f64 = parse_num(key, v)?;
                if !((0.0..4_294_967_296.0).contains(&s) && s.fract() == 0.0) {
                    return Err(KeyError::new(key, v, "must be a whole number, 0 to 4,294,967,295"));
                }
                self.seed = s as u64;
            }
            "load" => {
                self.load = if v.eq_ignore_ascii_case("model") {
                    None
                } else {
                    let l: f64 = parse_num(key, v)?;
                    if !(0.01..=10.0).contains(&l) {
                        return Err(KeyError::new(key, v, "must be an offered load from 0.01 to 10, or model"));
                    }
                    Some(l)
                }
            }
            "estimate" => {
                self.estimates = if v.eq_ignore_ascii_case("exact") {
                    Estimates::Factor(1.0)
                } else if v.eq_ignore_ascii_case("tef") {
                    Estimates::Tef
                } else {
                    let f: f64 = parse_num(key, v)?;
                    if !(1.0..=1000.0).contains(&f) {
                        return Err(KeyError::new(key, v, "must be exact, tef or a factor from 1 to 1000"));
                    }
                    Estimates::Factor(f)
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Options from `KEY=VALUE` pairs separated by commas (`machine=128,jobs=5000,load=0.9`).
    pub fn parse(spec: &str) -> Result<Self, KeyError> {
        let mut o = WorkloadOptions::default();
        let mut jobs_given = false;
        for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part.split_once('=').unwrap_or((part, ""));
            let k = k.trim();
            jobs_given |= k == "jobs";
            // A bare name is the model's (`generate:lublin99,...`).
            if v.is_empty() && !o.set("model", k)? {
                continue;
            }
            if !v.is_empty() && !o.set(k, v)? {
                let keys: Vec<&str> = WORKLOAD_KEYS.iter().map(|k| k.0).collect();
                return Err(KeyError::new(k, v, format!("is not a workload option; they are {}", keys.join(", "))));
            }
        }
        if let (Some(d), true) = (o.days, jobs_given) {
            return Err(KeyError::new(
                "days",
                &d.to_string(),
                "and jobs cannot both be given: a workload has one or the other",
            ));
        }
        if o.load.is_some() && o.jobs < 2 && o.days.is_none() {
            // One job has no span of submissions, so no offered load to reach.
            return Err(KeyError::new("jobs", &o.jobs.to_string(), "must be at least 2 to reach a load"));
        }
        Ok(o)
    }
}

/// A generated workload: its jobs, the stretch that gave its load, and the load it has.
#[derive(Debug, Clone)]
pub struct Workload {
    /// What was asked.
    pub options: WorkloadOptions,
    /// The jobs, in submission order.
    pub jobs: Vec<ModelJob>,
    /// The factor every inter-arrival gap was stretched by (1 without a target load).
    pub stretch: f64,
    /// The offered load of the jobs: work over (span of submits x machine).
    pub load: f64,
    /// Each job's estimate, seconds.
    pub estimates: Vec<u64>,
}

/// Generates the workload `o` asks for. With a target load, the same jobs are timed again with
/// their rush-hour gaps stretched by the ratio of the load they have to the one wanted, until
/// it is within 0.5%: sizes, runtimes and the daily cycle stay the model's. With a span of
/// days, the load is reached by the jobs submitted within it.
pub fn generate(o: &WorkloadOptions) -> Workload {
    let log2 = (o.machine as f64).log2();
    // Sizes scale with log2 of the machine; on one that is not a power of two the largest
    // power of two drawn can exceed it, and is clipped to it (and on the smallest, where the
    // break points are held at the smallest parallel size, 2^v may round to more than it).
    let fit = |mut jobs: Vec<ModelJob>| {
        jobs.iter_mut().for_each(|j| j.size = j.size.clamp(1, o.machine));
        jobs
    };
    let Some(days) = o.days else {
        let drawn = sample(o.seed, o.jobs, o.types, log2);
        let (jobs, stretch, load) = reach(o, &|stretch| fit(drawn.timed(stretch)));
        return Workload::new(o, jobs, stretch, load);
    };
    // A span of days: enough jobs drawn that every stream passes its end at the stretch that
    // gives the load (twice as many each time it falls short), then the jobs before it.
    let horizon = (days * 86_400.0) as u64;
    let mut n = 1024;
    loop {
        let drawn = sample(o.seed, n, o.types, log2);
        let covered = std::cell::Cell::new(true);
        let (jobs, stretch, load) = reach(o, &|stretch| {
            let (jobs, all) = drawn.timed_until(stretch, horizon);
            covered.set(all);
            fit(jobs)
        });
        if covered.get() || n >= MAX_JOBS {
            return Workload::new(o, jobs, stretch, load);
        }
        n = (n * 2).min(MAX_JOBS);
    }
}

/// The maximal estimate of [`Estimates::Tef`]: the longest runtime rounded up to a whole hour.
fn tef_max_estimate(jobs: &[ModelJob]) -> u64 {
    jobs.iter().map(|j| j.runtime).max().unwrap_or(0).div_ceil(3600).max(1) * 3600
}

/// The most jobs a workload of a span of days draws.
const MAX_JOBS: usize = 5_000_000;

/// The jobs `time` gives at the stretch that reaches `o`'s load (1 without one), with that
/// stretch and the load they have.
fn reach(o: &WorkloadOptions, time: &dyn Fn(f64) -> Vec<ModelJob>) -> (Vec<ModelJob>, f64, f64) {
    let mut stretch = 1.0;
    let mut jobs = time(stretch);
    let mut load = offered_load(&jobs, o.machine);
    if let Some(target) = o.load.filter(|_| jobs.len() >= 2) {
        // The load falls as the gaps stretch (the same jobs over a longer span), steeply where
        // the last arrivals cross the night's low rates: the ratio of loads guesses the factor;
        // once factors on both sides are known, every other round bisects between them.
        let (mut short, mut long) = (None::<f64>, None::<f64>);
        for round in 0..80 {
            if (load / target - 1.0).abs() <= 0.005 || load <= 0.0 {
                break;
            }
            if load > target {
                short = Some(stretch);
            } else {
                long = Some(stretch);
            }
            let guess = stretch * load / target;
            stretch = match (short, long) {
                (Some(s), Some(l)) if round % 2 == 1 || !(s < guess && guess < l) => (s * l).sqrt(),
                _ => guess,
            };
            jobs = time(stretch);
            load = offered_load(&jobs, o.machine);
        }
    }
    (jobs, stretch, load)
}

impl Workload {
    /// The workload of `jobs`, with their estimates made as `o` asks.
    fn new(o: &WorkloadOptions, jobs: Vec<ModelJob>, stretch: f64, load: f64) -> Workload {
        let estimates = match o.estimates {
            Estimates::Factor(f) => jobs.iter().map(|j| (j.runtime as f64 * f).ceil() as u64).collect(),
            Estimates::Tef => {
                let runtimes: Vec<u64> = jobs.iter().map(|j| j.runtime).collect();
                estimates::assign(&runtimes, tef_max_estimate(&jobs), o.seed)
            }
        };
        Workload { options: o.clone(), jobs, stretch, load, estimates }
    }

    /// The workload as SWF text, with a header naming the model, its parameters and the load.
    pub fn to_swf(&self) -> String {
        let o = &self.options;
        let mut s = String::with_capacity(64 * self.jobs.len() + 1024);
        let types = match o.types {
            JobTypes::Both => "both",
            JobTypes::Batch => "batch",
            JobTypes::Interactive => "interactive",
            JobTypes::Typeless => "typeless",
        };
        let estimate = match o.estimates {
            Estimates::Factor(1.0) => "exact".to_string(),
            Estimates::Factor(f) => format!("{f}"),
            Estimates::Tef => "tef".to_string(),
        };
        let made = match o.estimates {
            Estimates::Tef => format!(
                "estimates from Tsafrir, Etsion & Feitelson's model (JSSPP 2005), maximal estimate {} s",
                tef_max_estimate(&self.jobs)
            ),
            Estimates::Factor(_) => "estimates are not part of the model".to_string(),
        };
        let _ = writeln!(s, "; Version: 2.2");
        let _ = writeln!(s, "; Computer: synthetic (SchedLab's generator)");
        let _ = writeln!(
            s,
            "; Information: Lublin & Feitelson, \"The workload on parallel supercomputers: modeling the characteristics of rigid jobs\", JPDC 63(11) 2003; model lublin99 (m_lublin99.c's parameters and draws)"
        );
        let _ = writeln!(
            s,
            "; Note: generated with model=lublin99,machine={},{},types={types},seed={},load={},estimate={estimate}",
            o.machine,
            o.days.map_or(format!("jobs={}", o.jobs), |d| format!("days={d}")),
            o.seed,
            o.load.map_or("model".to_string(), |l| format!("{l}"))
        );
        let _ = writeln!(
            s,
            "; Note: offered load {:.4} (work / (span of submits x machine)); inter-arrival gaps stretched x{:.6}; queue 1 = batch, 0 = interactive; {made}",
            self.load, self.stretch
        );
        let _ = writeln!(s, "; MaxJobs: {}", self.jobs.len());
        let _ = writeln!(s, "; MaxRecords: {}", self.jobs.len());
        let _ = writeln!(s, "; MaxNodes: {}", o.machine);
        let _ = writeln!(s, "; MaxProcs: {}", o.machine);
        let _ = writeln!(s, "; MaxRuntime: 162754");
        let _ = writeln!(s, "; Queues: 0 interactive, 1 batch");
        for (k, (j, &est)) in self.jobs.iter().zip(&self.estimates).enumerate() {
            let _ = writeln!(
                s,
                "{} {} -1 {} {} -1 -1 {} {} -1 1 -1 -1 -1 {} -1 -1 -1",
                k + 1,
                j.submit,
                j.runtime,
                j.size,
                j.size,
                est,
                u8::from(j.batch)
            );
        }
        s
    }
}
