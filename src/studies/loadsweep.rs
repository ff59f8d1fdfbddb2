//! The classic figure of scheduling papers: mean bounded slowdown and mean wait against the
//! offered load, one line per policy, with the load at which each saturates.
//!
//! A sweep runs every policy at every load on several workloads per load (generated ones of
//! different seeds, or one trace whose arrivals are scaled), and summarises each (policy, load)
//! by the mean over the workloads and their spread. A policy saturates where the machine no
//! longer keeps up under it: the work left waiting at the last arrival takes the schedule well
//! past it, so its utilization falls below [`SATURATED`] of the unhindered one (every job
//! started at its submission: the same work over the span the jobs themselves need, long last
//! jobs included).

use serde::{Deserialize, Serialize};

use crate::policy::Configured;
use crate::run::{run_one, Settings};
use crate::trace::Trace;

/// A policy keeps up at a load while its utilization is at least this share of the unhindered one.
pub const SATURATED: f64 = 0.95;

/// The default loads of a sweep.
pub const DEFAULT_LOADS: &[f64] = &[0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95];

/// One simulation of a sweep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Point {
    /// The load asked for.
    pub load: f64,
    /// The workload's seed (0 for a scaled trace).
    pub seed: u64,
    /// The policy's name.
    pub policy: String,
    /// The workload's offered load: its work over (span of submits x machine).
    pub offered: f64,
    /// Mean wait, seconds.
    pub avg_wait_s: f64,
    /// Mean bounded slowdown.
    pub avg_bsld: f64,
    /// Utilization of the schedule.
    pub utilization: f64,
    /// The workload's utilization were every job started at its submission.
    pub unhindered: f64,
}

/// One policy at one load, over the workloads.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// The load asked for.
    pub load: f64,
    /// The policy's name.
    pub policy: String,
    /// Workloads run.
    pub runs: usize,
    /// Mean, least and greatest mean wait over them, seconds.
    pub wait: (f64, f64, f64),
    /// Mean, least and greatest mean bounded slowdown.
    pub bsld: (f64, f64, f64),
    /// Mean utilization.
    pub utilization: f64,
    /// Mean offered load.
    pub offered: f64,
    /// Whether the policy kept up: its utilization, over the unhindered one, is at least
    /// [`SATURATED`] on average over the workloads (one workload's burst at its end is not
    /// saturation).
    pub keeps_up: bool,
}

/// A trace's offered load: its work over (span of submits x machine).
pub fn offered_load(trace: &Trace) -> f64 {
    let (Some(first), Some(last)) = (trace.jobs.first(), trace.jobs.last()) else { return 0.0 };
    let span = (last.submit - first.submit).max(1) as f64;
    let work: f64 = trace.jobs.iter().map(|j| j.runtime as f64 * j.procs as f64).sum();
    work / (span * trace.machine as f64)
}

/// A trace's utilization were every job started at its submission: its work over (the last
/// end then - the first submit) x machine, the utilization no schedule can exceed.
pub fn unhindered_utilization(trace: &Trace) -> f64 {
    let Some(first) = trace.jobs.first() else { return 0.0 };
    let end = trace.jobs.iter().map(|j| j.submit + j.runtime).max().unwrap_or(first.submit);
    let work: f64 = trace.jobs.iter().map(|j| j.runtime as f64 * j.procs as f64).sum();
    work / ((end - first.submit).max(1) as f64 * trace.machine as f64)
}

/// Simulates every policy of `configs` on `trace`, the workload of `load` (and `seed`).
pub fn points(trace: &Trace, configs: &[Configured], settings: &Settings, load: f64, seed: u64) -> Vec<Point> {
    let (offered, unhindered) = (offered_load(trace), unhindered_utilization(trace));
    configs
        .iter()
        .map(|cfg| {
            let m = run_one(trace, cfg, settings).1.metrics;
            Point {
                load,
                seed,
                policy: cfg.policy.clone(),
                offered,
                avg_wait_s: m.avg_wait_s,
                avg_bsld: m.avg_bsld,
                utilization: m.utilization,
                unhindered,
            }
        })
        .collect()
}

/// The points summarised per (policy, load), policies in the order of their first point and
/// loads ascending.
pub fn summarize(points: &[Point]) -> Vec<Summary> {
    let mut policies: Vec<&str> = Vec::new();
    let mut loads: Vec<f64> = Vec::new();
    for p in points {
        if !policies.contains(&p.policy.as_str()) {
            policies.push(&p.policy);
        }
        if !loads.contains(&p.load) {
            loads.push(p.load);
        }
    }
    loads.sort_by(f64::total_cmp);
    let spread = |v: &[f64]| {
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        (mean, v.iter().copied().fold(f64::INFINITY, f64::min), v.iter().copied().fold(f64::NEG_INFINITY, f64::max))
    };
    let mut out = Vec::new();
    for policy in policies {
        for &load in &loads {
            let ps: Vec<&Point> = points.iter().filter(|p| p.policy == policy && p.load == load).collect();
            if ps.is_empty() {
                continue;
            }
            let n = ps.len() as f64;
            out.push(Summary {
                load,
                policy: policy.to_string(),
                runs: ps.len(),
                wait: spread(&ps.iter().map(|p| p.avg_wait_s).collect::<Vec<_>>()),
                bsld: spread(&ps.iter().map(|p| p.avg_bsld).collect::<Vec<_>>()),
                utilization: ps.iter().map(|p| p.utilization).sum::<f64>() / n,
                offered: ps.iter().map(|p| p.offered).sum::<f64>() / n,
                keeps_up: ps.iter().map(|p| p.utilization / p.unhindered.max(1e-12)).sum::<f64>() / n >= SATURATED,
            });
        }
    }
    out
}

/// The lowest load at which `policy` no longer keeps up, if any.
pub fn saturation(summaries: &[Summary], policy: &str) -> Option<f64> {
    summaries.iter().filter(|s| s.policy == policy && !s.keeps_up).map(|s| s.load).reduce(f64::min)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(policy: &str, load: f64, seed: u64, wait: f64, util: f64) -> Point {
        Point {
            load,
            seed,
            policy: policy.into(),
            offered: load,
            avg_wait_s: wait,
            avg_bsld: wait / 10.0,
            utilization: util,
            unhindered: load,
        }
    }

    #[test]
    fn summaries_and_saturation() {
        let points = [
            point("fcfs", 0.6, 1, 100.0, 0.6),
            point("fcfs", 0.6, 2, 300.0, 0.5),
            point("fcfs", 0.5, 1, 10.0, 0.5),
            point("easy", 0.5, 1, 5.0, 0.5),
        ];
        let s = summarize(&points);
        assert_eq!(
            s.iter().map(|x| (x.policy.as_str(), x.load)).collect::<Vec<_>>(),
            [("fcfs", 0.5), ("fcfs", 0.6), ("easy", 0.5)]
        );
        assert_eq!(s[1].wait, (200.0, 100.0, 300.0));
        // (1 + 0.5 / 0.6) / 2 < 0.95: on average the two did not keep up.
        assert!(!s[1].keeps_up && s[0].keeps_up);
        assert_eq!(saturation(&s, "fcfs"), Some(0.6));
        assert_eq!(saturation(&s, "easy"), None);
    }
}
