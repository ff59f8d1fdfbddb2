//! The answer on the first screen, in words: which policy does best on this trace, against
//! which baseline, and by how much. The page shows it above the charts; the CLI prints it.

use serde::Serialize;

use super::axis::fmt_duration as duration;
use super::compare::RunView;

/// What a comparison says: one lead sentence and a few lines that qualify it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Answer {
    /// The headline, e.g. "On this trace, easy++ cuts mean bounded slowdown by 44% against easy".
    pub lead: String,
    /// Mean wait, the worst policy, utilization and unranked runs, one sentence each.
    pub more: Vec<String>,
}

/// A number with about three significant digits.
fn num(v: f64) -> String {
    if v.abs() >= 100.0 {
        format!("{v:.0}")
    } else if v.abs() >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// A relative change in percent, whole above 10%.
fn pct(v: f64) -> String {
    if v.abs() >= 10.0 {
        format!("{v:.0}%")
    } else {
        format!("{v:.1}%")
    }
}

fn metric(r: &RunView, key: &str) -> Option<f64> {
    r.metrics.get(key).copied().flatten().filter(|v| v.is_finite())
}

/// The first run with the smallest (or, with `max`, largest) value of `key`.
fn extreme<'a>(runs: &[&'a RunView], key: &str, max: bool) -> Option<(&'a RunView, f64)> {
    let mut best: Option<(&RunView, f64)> = None;
    for r in runs {
        if let Some(v) = metric(r, key) {
            let better = best.is_none_or(|(_, b)| if max { v > b } else { v < b });
            if better {
                best = Some((r, v));
            }
        }
    }
    best
}

/// Says what the runs show, ranking by mean bounded slowdown against EASY (the production
/// default every paper compares with), else FCFS, else the first run. Runs stopped at their
/// time budget cover part of the trace only, so they are named but not ranked.
pub fn answer(runs: &[RunView]) -> Answer {
    let ranked: Vec<&RunView> =
        runs.iter().filter(|r| r.stopped.is_none() && metric(r, "avg_bsld").is_some()).collect();
    let stopped: Vec<&str> = runs.iter().filter(|r| r.stopped.is_some()).map(|r| r.policy.as_str()).collect();
    let mut more = Vec::new();
    let Some((best, best_v)) = extreme(&ranked, "avg_bsld", false) else {
        let lead = if runs.is_empty() {
            "No policy has run yet.".to_string()
        } else {
            "No run finished: every policy stopped at its time budget, so none is ranked.".to_string()
        };
        return Answer { lead, more };
    };
    let lead = if ranked.len() == 1 {
        let mut s = format!("On this trace, {} gives a mean bounded slowdown of {}", best.policy, num(best_v));
        if let Some(w) = metric(best, "avg_wait_s") {
            s += &format!(" and a mean wait of {}", duration(w));
        }
        s + "."
    } else {
        let baseline = ["easy", "fcfs"]
            .iter()
            .find_map(|name| ranked.iter().find(|r| r.policy == *name))
            .copied()
            .unwrap_or(ranked[0]);
        let base_v = metric(baseline, "avg_bsld").unwrap_or(best_v);
        if std::ptr::eq(best, baseline) || base_v <= best_v {
            let others: Vec<&RunView> = ranked.iter().copied().filter(|r| !std::ptr::eq(*r, best)).collect();
            let mut s = format!(
                "On this trace, {} gives the lowest mean bounded slowdown of the {} policies compared: {}",
                best.policy,
                ranked.len(),
                num(best_v)
            );
            if let Some((second, v)) = extreme(&others, "avg_bsld", false) {
                s += &format!(
                    "; the next best, {}, is {} higher",
                    second.policy,
                    pct(100.0 * (v - best_v) / best_v.max(1e-9))
                );
            }
            s + "."
        } else {
            format!(
                "On this trace, {} cuts mean bounded slowdown by {} against {}: {} instead of {}.",
                best.policy,
                pct(100.0 * (base_v - best_v) / base_v),
                baseline.policy,
                num(best_v),
                num(base_v)
            )
        }
    };
    if ranked.len() > 1 {
        if let (Some((lo, lo_v)), Some((hi, hi_v))) =
            (extreme(&ranked, "avg_wait_s", false), extreme(&ranked, "avg_wait_s", true))
        {
            more.push(format!(
                "Mean wait is shortest under {} ({}) and longest under {} ({}).",
                lo.policy,
                duration(lo_v),
                hi.policy,
                duration(hi_v)
            ));
        }
        if let Some((worst, v)) = extreme(&ranked, "avg_bsld", true) {
            if v > best_v {
                more.push(format!(
                    "The worst is {}, with a mean bounded slowdown of {} ({} times {}'s).",
                    worst.policy,
                    num(v),
                    num(v / best_v.max(1e-9)),
                    best.policy
                ));
            }
        }
        if let (Some((lo, lo_v)), Some((hi, hi_v))) =
            (extreme(&ranked, "utilization", false), extreme(&ranked, "utilization", true))
        {
            if hi_v - lo_v < 0.01 {
                more.push(format!(
                    "Utilization hardly moves ({:.1}% to {:.1}%): the policies reorder the same work.",
                    100.0 * lo_v,
                    100.0 * hi_v
                ));
            } else {
                more.push(format!(
                    "Utilization ranges from {:.1}% ({}) to {:.1}% ({}).",
                    100.0 * lo_v,
                    lo.policy,
                    100.0 * hi_v,
                    hi.policy
                ));
            }
        }
    }
    if !stopped.is_empty() {
        more.push(format!("Not ranked, stopped at their time budget: {}.", stopped.join(", ")));
    }
    more.push("Bounded slowdown is (wait + run) / max(10 s, run): 1 means no wait; lower is better.".to_string());
    Answer { lead, more }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(policy: &str, bsld: f64, wait: f64, util: f64) -> RunView {
        RunView {
            policy: policy.to_string(),
            metrics: [("avg_bsld", bsld), ("avg_wait_s", wait), ("utilization", util)]
                .into_iter()
                .map(|(k, v)| (k.to_string(), Some(v)))
                .collect(),
            ..Default::default()
        }
    }

    #[test]
    fn the_best_policy_is_measured_against_easy() {
        // easy++ 3.1 against easy 5.5: (5.5 - 3.1) / 5.5 = 43.6%, shown whole above 10%.
        let runs =
            [run("fcfs", 40.0, 36_000.0, 0.61), run("easy", 5.5, 3_600.0, 0.66), run("easy++", 3.1, 1_800.0, 0.662)];
        let a = answer(&runs);
        assert_eq!(
            a.lead,
            "On this trace, easy++ cuts mean bounded slowdown by 44% against easy: 3.10 instead of 5.50."
        );
        assert_eq!(a.more[0], "Mean wait is shortest under easy++ (30 min) and longest under fcfs (10 h).");
        // 40 / 3.1 = 12.9.
        assert_eq!(a.more[1], "The worst is fcfs, with a mean bounded slowdown of 40.0 (12.9 times easy++'s).");
        assert_eq!(a.more[2], "Utilization ranges from 61.0% (fcfs) to 66.2% (easy++).");
    }

    #[test]
    fn when_the_baseline_wins_the_runner_up_is_named() {
        // conservative 6.6 is (6.6 - 5.5) / 5.5 = 20% above easy.
        let runs = [run("easy", 5.5, 3_600.0, 0.66), run("conservative", 6.6, 4_000.0, 0.6601)];
        let a = answer(&runs);
        assert_eq!(
            a.lead,
            "On this trace, easy gives the lowest mean bounded slowdown of the 2 policies compared: 5.50; the next best, conservative, is 20% higher."
        );
        assert_eq!(a.more[2], "Utilization hardly moves (66.0% to 66.0%): the policies reorder the same work.");
    }

    #[test]
    fn stopped_runs_are_named_not_ranked() {
        let mut slow = run("conservative", 1.0, 10.0, 0.7);
        slow.stopped = Some("stopped at the time budget".into());
        let a = answer(&[run("easy", 5.5, 3_600.0, 0.66), slow.clone()]);
        assert!(a.lead.starts_with("On this trace, easy gives a mean bounded slowdown of 5.50"), "{}", a.lead);
        assert!(a.more.contains(&"Not ranked, stopped at their time budget: conservative.".to_string()));
        assert_eq!(
            answer(&[slow]).lead,
            "No run finished: every policy stopped at its time budget, so none is ranked."
        );
        assert_eq!(answer(&[]).lead, "No policy has run yet.");
    }
}
