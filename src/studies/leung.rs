//! Leung, Sabin & Sadayappan (2010): the CPlant fairshare scheduler and its modifications,
//! compared by the hybrid fair start time, turnaround and loss of capacity.
//!
//! [`compare`] runs the nine policies of section V.E on one trace. Each run reports, overall
//! and by the eleven width classes of Table I, the share of submissions that started after
//! their fair start time (Fig. 8), the mean fair-start miss over all submissions (Fig. 9), the
//! mean turnaround (Figs. 7, 11) and the loss of capacity (Fig. 13). Under a 72 h maximum
//! runtime a long job is submitted as several segments; the paper's figures count each
//! segment as a job, and so do the "submission" figures here, while the "job" figures follow
//! each original job from its submission to its last segment's end (the fair start of a job is
//! its first segment's). [`findings`] checks the paper's claims on the results.

use serde::Serialize;

use crate::metrics::categories::{leung_width, leung_width_labels, shape, Grid};
use crate::metrics::{submissions, Metrics};
use crate::policy::PolicyError;
use crate::run::{configure, run_one, Settings};
use crate::studies::findings::Finding;
use crate::trace::Trace;

/// The nine policies of section V.E, the original first.
pub const POLICIES: [&str; 9] = [
    "cplant24.nomax.all",
    "cplant72.nomax.all",
    "cplant24.nomax.fair",
    "cplant24.72max.all",
    "cplant72.72max.fair",
    "cons.nomax",
    "cons.72max",
    "consdyn.nomax",
    "consdyn.72max",
];

/// The figures of one width class under one policy.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WidthRow {
    /// The class, as Table I labels it.
    pub width: &'static str,
    /// Jobs of this width.
    pub jobs: u64,
    /// Submissions (segments counted as jobs).
    pub submissions: u64,
    /// Share of submissions that started after their fair start time (null when none).
    pub fst_miss_share: Option<f64>,
    /// Mean fair-start miss over the submissions, seconds (null when none).
    pub avg_fst_miss_s: Option<f64>,
    /// Mean turnaround per submission, seconds.
    pub avg_response_submitted_s: f64,
    /// Mean turnaround per job (submission to last end), seconds.
    pub avg_response_s: f64,
}

/// One policy's run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PolicyRun {
    /// The policy.
    pub policy: String,
    /// Every metric of the run.
    pub metrics: Metrics,
    /// By Table I's width classes.
    pub by_width: Vec<WidthRow>,
}

/// The comparison of the nine policies on one trace.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    /// Jobs and processor-hours by length and width class (Tables I and II).
    pub shape: Grid,
    /// One run per policy, in [`POLICIES`] order.
    pub policies: Vec<PolicyRun>,
    /// The claims of section VI.
    pub findings: Vec<Finding>,
}

fn mean(sum: f64, n: u64) -> f64 {
    if n == 0 {
        0.0
    } else {
        sum / n as f64
    }
}

/// Runs `policy` on `trace` and tabulates it by width.
pub fn run_policy(trace: &Trace, policy: &str, settings: &Settings) -> Result<PolicyRun, PolicyError> {
    let cfg = configure(policy, settings)?.remove(0);
    let (out, res) = run_one(trace, &cfg, settings);
    let labels = leung_width_labels();
    let w = labels.len();
    let width_of = |job: u32| leung_width(trace.jobs[job as usize].procs);
    let (mut jobs, mut subs, mut missed, mut measured) = (vec![0u64; w], vec![0u64; w], vec![0u64; w], vec![0u64; w]);
    let (mut miss, mut resp_sub, mut resp_job) = (vec![0f64; w], vec![0f64; w], vec![0f64; w]);
    let (mut ended_sub, mut ended_job) = (vec![0u64; w], vec![0u64; w]);
    for (j, r) in trace.jobs.iter().zip(&out.records) {
        let c = leung_width(j.procs);
        jobs[c] += 1;
        if r.end >= 0 {
            ended_job[c] += 1;
            resp_job[c] += (r.end - j.submit) as f64;
        }
    }
    for s in submissions(trace, &out) {
        let c = width_of(s.job);
        subs[c] += 1;
        if s.end >= 0 {
            ended_sub[c] += 1;
            resp_sub[c] += (s.end - s.submit) as f64;
        }
    }
    for f in out.observed.fair_starts.iter().flatten() {
        let c = width_of(f.job);
        measured[c] += 1;
        missed[c] += (f.start > f.fst) as u64;
        miss[c] += f.miss() as f64;
    }
    let by_width = (0..w)
        .map(|c| WidthRow {
            width: labels[c],
            jobs: jobs[c],
            submissions: subs[c],
            fst_miss_share: (measured[c] > 0).then(|| mean(missed[c] as f64, measured[c])),
            avg_fst_miss_s: (measured[c] > 0).then(|| mean(miss[c], measured[c])),
            avg_response_submitted_s: mean(resp_sub[c], ended_sub[c]),
            avg_response_s: mean(resp_job[c], ended_job[c]),
        })
        .collect();
    Ok(PolicyRun { policy: cfg.policy.to_string(), metrics: res.metrics, by_width })
}

/// Runs the nine policies on `trace` and checks section VI's claims.
pub fn compare(trace: &Trace, settings: &Settings) -> Result<Comparison, PolicyError> {
    let policies = POLICIES.iter().map(|p| run_policy(trace, p, settings)).collect::<Result<Vec<_>, _>>()?;
    let summaries: Vec<Summary> = policies.iter().map(Summary::of).collect();
    Ok(Comparison { shape: shape(trace), findings: findings(&summaries), policies })
}

/// The four figures the claims are about, for one policy.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// The policy.
    pub policy: String,
    /// Share of submissions missing their fair start (Fig. 8).
    pub fst_miss_share: f64,
    /// Mean fair-start miss, seconds (Fig. 9).
    pub avg_fst_miss_s: f64,
    /// Mean turnaround per submission, seconds (Fig. 11).
    pub avg_response_submitted_s: f64,
    /// Loss of capacity (Fig. 13).
    pub loss_of_capacity: f64,
}

impl Summary {
    /// The summary of a run.
    pub fn of(run: &PolicyRun) -> Summary {
        let m = &run.metrics;
        Summary {
            policy: run.policy.clone(),
            fst_miss_share: m.fst_miss_share.unwrap_or(f64::NAN),
            avg_fst_miss_s: m.avg_fst_miss_s.unwrap_or(f64::NAN),
            avg_response_submitted_s: m.avg_response_submitted_s,
            loss_of_capacity: m.loss_of_capacity,
        }
    }

    fn values(&self) -> [f64; 4] {
        [self.fst_miss_share, self.avg_fst_miss_s, self.avg_response_submitted_s, self.loss_of_capacity]
    }
}

const FIGURES: [&str; 4] = ["missed share", "mean miss", "turnaround", "loss of capacity"];

fn fmt4(v: &[f64; 4]) -> String {
    format!("{:.2}% / {:.0} s / {:.2} h / {:.4}", 100.0 * v[0], v[1], v[2] / 3600.0, v[3])
}

/// Section VI's claims checked on the nine policies' summaries (any that are missing make the
/// claims that need them undecided).
pub fn findings(runs: &[Summary]) -> Vec<Finding> {
    let get = |p: &str| runs.iter().find(|r| r.policy == p);
    let mut out = Vec::new();

    // 1. The 72 h limit improves all four figures, policy by policy.
    let pairs = [
        ("cplant24.nomax.all", "cplant24.72max.all"),
        ("cons.nomax", "cons.72max"),
        ("consdyn.nomax", "consdyn.72max"),
    ];
    let mut detail = Vec::new();
    let mut all = Some(true);
    for (a, b) in pairs {
        let (Some(x), Some(y)) = (get(a), get(b)) else {
            all = None;
            continue;
        };
        let (xv, yv) = (x.values(), y.values());
        let better: Vec<&str> = (0..4).filter(|&k| yv[k] < xv[k]).map(|k| FIGURES[k]).collect();
        let worse: Vec<&str> = (0..4).filter(|&k| yv[k] >= xv[k]).map(|k| FIGURES[k]).collect();
        if !worse.is_empty() {
            all = all.map(|_| false);
        }
        detail.push(format!(
            "{b} vs {a}: {} -> {}; better: {}; not better: {}",
            fmt4(&xv),
            fmt4(&yv),
            if better.is_empty() { "none".to_string() } else { better.join(", ") },
            if worse.is_empty() { "none".to_string() } else { worse.join(", ") }
        ));
    }
    // Where no job runs past 72 h the limit cuts nothing and every pair ties: the claim is not
    // tested by such a trace, which must not count as one that contradicts it.
    let untouched = pairs.iter().all(|(a, b)| match (get(a), get(b)) {
        (Some(x), Some(y)) => x.values() == y.values(),
        _ => false,
    });
    if untouched {
        all = None;
        detail.insert(
            0,
            "the 72 h limit changed no figure of any policy here: no job runs long enough for it to cut".into(),
        );
    }
    out.push(Finding {
        claim: "a 72 h maximum runtime improves the share of jobs missing their fair start, the mean miss, the mean turnaround and the loss of capacity",
        holds: all,
        detail: detail.join("; "),
    });

    // 2. Conservative with the 72 h limit is competitive: better than the original on all four,
    //    and among the better half of the nine on each.
    let competitive = match (get("cons.72max"), get("cplant24.nomax.all")) {
        (Some(c), Some(o)) if runs.len() >= 2 => {
            let (cv, ov) = (c.values(), o.values());
            let ranks: Vec<usize> = (0..4).map(|k| 1 + runs.iter().filter(|r| r.values()[k] < cv[k]).count()).collect();
            let beats = (0..4).all(|k| cv[k] < ov[k]);
            let half = runs.len().div_ceil(2);
            let holds = beats && ranks.iter().all(|&r| r <= half);
            let detail = format!(
                "cons.72max {} vs the original {}; its rank among {} on each figure: {}",
                fmt4(&cv),
                fmt4(&ov),
                runs.len(),
                ranks.iter().map(|r| r.to_string()).collect::<Vec<_>>().join(" / ")
            );
            (Some(holds), detail)
        }
        _ => (None, "cons.72max or the original did not run".to_string()),
    };
    out.push(Finding {
        claim: "conservative backfilling with the 72 h limit is competitive: better than the original on all four figures and in the better half of the nine on each",
        holds: competitive.0,
        detail: competitive.1,
    });

    // 3. Unlimited conservative (plain and dynamic) has a higher mean miss than the original.
    let higher = match (get("cplant24.nomax.all"), get("cons.nomax"), get("consdyn.nomax")) {
        (Some(o), Some(c), Some(d)) => {
            let holds = c.avg_fst_miss_s > o.avg_fst_miss_s && d.avg_fst_miss_s > o.avg_fst_miss_s;
            let detail = format!(
                "mean miss: original {:.0} s, cons.nomax {:.0} s, consdyn.nomax {:.0} s",
                o.avg_fst_miss_s, c.avg_fst_miss_s, d.avg_fst_miss_s
            );
            (Some(holds), detail)
        }
        _ => (None, "a policy did not run".to_string()),
    };
    out.push(Finding {
        claim: "without a runtime limit, conservative backfilling (plain and dynamic) has a higher mean fair-start miss than the original",
        holds: higher.0,
        detail: higher.1,
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(policy: &str, v: [f64; 4]) -> Summary {
        Summary {
            policy: policy.into(),
            fst_miss_share: v[0],
            avg_fst_miss_s: v[1],
            avg_response_submitted_s: v[2],
            loss_of_capacity: v[3],
        }
    }

    #[test]
    fn a_limit_that_cuts_nothing_leaves_the_first_claim_undecided() {
        let nomax = [0.1, 3000.0, 15_000.0, 0.2];
        let better = [0.05, 1500.0, 12_000.0, 0.1];
        let pairs = [
            ("cplant24.nomax.all", "cplant24.72max.all"),
            ("cons.nomax", "cons.72max"),
            ("consdyn.nomax", "consdyn.72max"),
        ];
        let runs = |limited: [f64; 4]| -> Vec<Summary> {
            pairs.iter().flat_map(|(a, b)| [summary(a, nomax), summary(b, limited)]).collect()
        };
        let same = findings(&runs(nomax));
        assert_eq!(same[0].holds, None, "{}", same[0].detail);
        assert!(same[0].detail.starts_with("the 72 h limit changed no figure"));
        assert_eq!(findings(&runs(better))[0].holds, Some(true));
        let mut worse = better;
        worse[2] = 20_000.0;
        assert_eq!(findings(&runs(worse))[0].holds, Some(false));
    }
}
