//! The classic figure of scheduling papers: mean bounded slowdown and mean wait against the
//! offered load, one line per policy, with the load at which each saturates.
//!
//! A sweep runs every policy at every load on several workloads per load (generated ones of
//! different seeds, or one trace whose arrivals are scaled), and summarises each (policy, load)
//! by the mean over the workloads and their spread. A policy saturates where the machine no
//! longer keeps up under it: its queue grows for as long as jobs arrive, so the work left
//! waiting at the last arrival takes the schedule far past the end it would have were every job
//! started at its submission. How far is far: further than the longer of the workload's longest
//! runtime (what a machine that keeps up may still need to clear a wide job queued behind a
//! long one) and [`SPAN_SHARE`] of the workload's span (a backlog that grows with the span). The
//! first bound keeps a short workload's last burst from reading as saturation; the second is
//! what matters on long ones.

use serde::{Deserialize, Serialize};

use crate::policy::Configured;
use crate::render::generic::{Labels, Series, Spec};
use crate::run::{run_one, Settings};
use crate::trace::{Trace, TraceOptions};
use crate::workload::{generate, WorkloadOptions};

/// The share of a workload's span (first submission to last unhindered end) by which the
/// schedule may overrun that end while its policy keeps up, unless its longest runtime is longer.
pub const SPAN_SHARE: f64 = 0.05;

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
    /// Seconds by which the schedule's last end passes the unhindered one (every job started
    /// at its submission).
    pub overrun_s: f64,
    /// The overrun a policy that keeps up may have on this workload: the longer of its longest
    /// runtime and [`SPAN_SHARE`] of its span.
    pub allowance_s: f64,
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
    /// Whether the policy kept up: its overrun is within the allowance on average over the
    /// workloads (one workload's burst at its end is not saturation).
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
    let first = trace.jobs.first().map_or(0, |j| j.submit);
    let free_end = trace.jobs.iter().map(|j| j.submit + j.runtime).max().unwrap_or(first);
    let longest = trace.jobs.iter().map(|j| j.runtime).max().unwrap_or(0);
    let allowance_s = (longest as f64).max(SPAN_SHARE * (free_end - first) as f64);
    configs
        .iter()
        .map(|cfg| {
            let (outcome, result) = run_one(trace, cfg, settings);
            let end = outcome.records.iter().map(|r| r.end).max().unwrap_or(free_end);
            let m = result.metrics;
            Point {
                load,
                seed,
                policy: cfg.policy.clone(),
                offered,
                avg_wait_s: m.avg_wait_s,
                avg_bsld: m.avg_bsld,
                utilization: m.utilization,
                unhindered,
                overrun_s: (end - free_end).max(0) as f64,
                allowance_s,
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
    crate::sorting::floats(&mut loads);
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
                keeps_up: ps.iter().map(|p| p.overrun_s - p.allowance_s).sum::<f64>() <= 0.0,
            });
        }
    }
    out
}

/// The lowest load at which `policy` no longer keeps up, if any.
pub fn saturation(summaries: &[Summary], policy: &str) -> Option<f64> {
    summaries.iter().filter(|s| s.policy == policy && !s.keeps_up).map(|s| s.load).reduce(f64::min)
}

/// The generated workload of one sweep point: `o`'s model at offered load `load` with `seed`,
/// read as its SWF text reads (so it is the trace `schedlab generate` writes).
pub fn generated(o: &WorkloadOptions, load: f64, seed: u64, opts: &TraceOptions) -> Result<Trace, String> {
    let w = generate(&WorkloadOptions { load: Some(load), seed, ..o.clone() });
    crate::trace::parse(w.to_swf().as_bytes(), opts).map_err(|e| format!("generated workload: {e}"))
}

/// What a load figure shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Measure {
    /// Mean bounded slowdown.
    Bsld,
    /// Mean wait, in hours.
    Wait,
}

/// The classic figure of the summaries: one line per policy through its mean `measure` at
/// each load, its saturation load in the legend, the spread over the workloads drawn as
/// whiskers when a load had more than one; `what` names the workloads.
pub fn figure(summaries: &[Summary], measure: Measure, what: &str) -> Spec {
    let mut xs: Vec<f64> = summaries.iter().map(|s| s.load).collect();
    crate::sorting::floats(&mut xs);
    xs.dedup();
    let mut policies: Vec<&str> = Vec::new();
    for s in summaries {
        if !policies.contains(&s.policy.as_str()) {
            policies.push(&s.policy);
        }
    }
    let (y, scale) = match measure {
        Measure::Bsld => ("mean bounded slowdown", 1.0),
        Measure::Wait => ("mean wait (hours)", 3600.0),
    };
    let pick = |s: &Summary| match measure {
        Measure::Bsld => s.bsld,
        Measure::Wait => s.wait,
    };
    let spread = summaries.iter().any(|s| s.runs > 1);
    let colours = crate::render::chart::run_colours(&policies);
    let series: Vec<Series> = policies
        .iter()
        .zip(colours)
        .map(|(&p, colour)| {
            let at = |x: f64| summaries.iter().find(|s| s.policy == p && s.load == x).map(pick);
            let name = match saturation(summaries, p) {
                Some(l) => format!("{p} (saturates at {l})"),
                None => format!("{p} (keeps up)"),
            };
            Series {
                colour: Some(colour),
                spread: if spread {
                    xs.iter().map(|&x| at(x).map(|(_, lo, hi)| (lo / scale, hi / scale))).collect()
                } else {
                    Vec::new()
                },
                ..Series::new(name, xs.iter().map(|&x| at(x).map(|v| v.0 / scale)).collect())
            }
        })
        .collect();
    // Values spread over more than a factor of 10 (FCFS's slowdown beside EASY's) read on a log scale.
    let values = series.iter().flat_map(|s| s.values.iter().flatten()).copied().filter(|v| *v > 0.0);
    let (lo, hi) = values.fold((f64::INFINITY, 0.0f64), |(a, b), v| (a.min(v), b.max(v)));
    let log = hi > 0.0 && hi / lo > 10.0;
    let title = match measure {
        Measure::Bsld => "Mean bounded slowdown against offered load",
        Measure::Wait => "Mean wait against offered load",
    };
    let how = if spread { "bars span the seeds; lower is better" } else { "lower is better" };
    Spec::Lines {
        labels: Labels {
            title: title.into(),
            subtitle: format!("{what}; {how}"),
            x: "offered load".into(),
            y: y.into(),
            log,
            value: y.into(),
            ..Default::default()
        },
        xs,
        series,
        x_scale: Default::default(),
        x_labels: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(policy: &str, load: f64, seed: u64, wait: f64, overrun: f64) -> Point {
        Point {
            load,
            seed,
            policy: policy.into(),
            offered: load,
            avg_wait_s: wait,
            avg_bsld: wait / 10.0,
            utilization: load,
            unhindered: load,
            overrun_s: overrun,
            allowance_s: 100.0,
        }
    }

    #[test]
    fn summaries_and_saturation() {
        let points = [
            point("fcfs", 0.6, 1, 100.0, 50.0),
            point("fcfs", 0.6, 2, 300.0, 250.0),
            point("fcfs", 0.5, 1, 10.0, 0.0),
            point("easy", 0.5, 1, 5.0, 100.0),
        ];
        let s = summarize(&points);
        assert_eq!(
            s.iter().map(|x| (x.policy.as_str(), x.load)).collect::<Vec<_>>(),
            [("fcfs", 0.5), ("fcfs", 0.6), ("easy", 0.5)]
        );
        assert_eq!(s[1].wait, (200.0, 100.0, 300.0));
        // (50 + 250) / 2 > 100: on average the two overran their allowance; easy's 100 is within it.
        assert!(!s[1].keeps_up && s[0].keeps_up);
        assert_eq!(saturation(&s, "fcfs"), Some(0.6));
        assert_eq!(saturation(&s, "easy"), None);
    }
}
