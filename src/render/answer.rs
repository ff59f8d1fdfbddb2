//! The answer on the first screen, in words: which policy does best on this trace, against
//! which baseline, and by how much. The page shows it above the charts; the CLI prints it.

use std::collections::BTreeMap;

use serde::Serialize;

use super::axis::fmt_duration as duration;
use super::compare::RunView;
use crate::policy::sentence_name;

/// What a comparison says: one lead sentence, what must be read with it, and a few lines that
/// qualify it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Answer {
    /// The headline, e.g. "On this trace, EASY++ cuts mean bounded slowdown by 44% against EASY".
    pub lead: String,
    /// What the headline's figures hide: jobs the trace lost, policies that starve jobs. Shown
    /// before the lead, as warnings.
    pub warnings: Vec<String>,
    /// Mean wait, the worst policy, utilization, bounds and unranked runs, one sentence each.
    pub more: Vec<String>,
    /// Per policy, what its row in a leaderboard must say beside its numbers: `bound` (it knows
    /// the true runtimes), `starves` (its worst case is far beyond the others').
    pub flags: BTreeMap<String, Vec<&'static str>>,
}

/// A longest wait this many times the typical one (and a day more) is starvation.
const STARVING_FACTOR: f64 = 3.0;

/// A utilization below this share of the best one means the machine was left idle.
const IDLE_SHARE: f64 = 0.9;

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

/// The name a sentence gives a run.
fn name(r: &RunView) -> String {
    sentence_name(&r.policy)
}

/// The lower median of `key` over `runs`.
fn median(runs: &[&RunView], key: &str) -> Option<f64> {
    let mut v: Vec<f64> = runs.iter().filter_map(|r| metric(r, key)).collect();
    crate::sorting::floats(&mut v);
    v.get(v.len().saturating_sub(1) / 2).copied()
}

/// Why a run starves jobs, if it does: its longest wait far above the typical longest wait of
/// the runs compared, or its utilization well below the best (the machine left idle while
/// jobs wait). `None` for a run within the others' range.
fn starvation(r: &RunView, typical_max_wait: Option<f64>, best_util: Option<f64>) -> Option<String> {
    let mut why = Vec::new();
    if let (Some(w), Some(t)) = (metric(r, "max_wait_s"), typical_max_wait) {
        if w > STARVING_FACTOR * t && w > t + 86_400.0 {
            why.push(format!(
                "its longest wait is {}, where the policies compared typically keep it to {}",
                duration(w),
                duration(t)
            ));
        }
    }
    if let (Some(u), Some(b)) = (metric(r, "utilization"), best_util) {
        // On a machine the jobs hardly use, a lower share idle is no sign of starving.
        if u < IDLE_SHARE * b && b >= 0.05 {
            why.push(format!("it keeps {:.0}% of the machine busy against up to {:.0}%", 100.0 * u, 100.0 * b));
        }
    }
    (!why.is_empty()).then(|| why.join(", and "))
}

/// Says what the runs show, ranking by mean bounded slowdown against EASY (the production
/// default every paper compares with), else FCFS, else the first run. `trace_loss` are the
/// trace report's sentences on jobs dropped or altered ([`crate::trace::TraceReport::loss`]),
/// said first. The headline names neither a clairvoyant run (a bound, unless only bounds ran) nor
/// one that starves jobs (unless all do); both are said beside it. Runs stopped at their time
/// budget cover part of the trace only, so they are named but not ranked.
pub fn answer(runs: &[RunView], trace_loss: &[String]) -> Answer {
    let ranked: Vec<&RunView> =
        runs.iter().filter(|r| r.stopped.is_none() && metric(r, "avg_bsld").is_some()).collect();
    let stopped: Vec<String> = runs.iter().filter(|r| r.stopped.is_some()).map(name).collect();
    let mut warnings: Vec<String> = trace_loss.iter().map(|w| capitalised(w) + ".").collect();
    let mut more = Vec::new();
    let mut flags: BTreeMap<String, Vec<&'static str>> = BTreeMap::new();
    for r in runs.iter().filter(|r| r.clairvoyant) {
        flags.entry(r.policy.clone()).or_default().push("bound");
    }
    let typical_max_wait = median(&ranked, "max_wait_s");
    let best_util = extreme(&ranked, "utilization", true).map(|(_, u)| u);
    let starving: Vec<(&RunView, String)> = if ranked.len() > 1 {
        ranked.iter().filter_map(|r| starvation(r, typical_max_wait, best_util).map(|why| (*r, why))).collect()
    } else {
        Vec::new()
    };
    for (r, _) in &starving {
        flags.entry(r.policy.clone()).or_default().push("starves");
    }
    // The runs a headline may name: real schedulers that do not starve jobs, where there are any.
    let real: Vec<&RunView> = ranked.iter().copied().filter(|r| !r.clairvoyant).collect();
    let real = if real.is_empty() { ranked.clone() } else { real };
    let fair: Vec<&RunView> =
        real.iter().copied().filter(|r| !starving.iter().any(|(s, _)| std::ptr::eq(*s, *r))).collect();
    let candidates = if fair.is_empty() { real } else { fair };
    let Some((best, best_v)) = extreme(&candidates, "avg_bsld", false) else {
        let lead = if runs.is_empty() {
            "No policy has run yet.".to_string()
        } else {
            "No run finished: every policy stopped before the end, so none is ranked.".to_string()
        };
        return Answer { lead, warnings, more, flags };
    };
    for (r, why) in &starving {
        let hides = metric(r, "avg_bsld").is_some_and(|v| v < best_v);
        warnings.push(if hides {
            format!(
                "{} has a lower mean bounded slowdown ({}) but starves jobs: {}.",
                name(r),
                num(metric(r, "avg_bsld").unwrap_or(0.0)),
                why
            )
        } else {
            format!("{} starves jobs: {}.", capitalised(&name(r)), why)
        });
    }
    let lead = if candidates.len() == 1 {
        let mut s = format!("On this trace, {} gives a mean bounded slowdown of {}", name(best), num(best_v));
        if let Some(w) = metric(best, "avg_wait_s") {
            s += &format!(" and a mean wait of {}", duration(w));
        }
        s + "."
    } else {
        let baseline = ["easy", "fcfs"]
            .iter()
            .find_map(|n| candidates.iter().find(|r| r.policy == *n))
            .copied()
            .unwrap_or(candidates[0]);
        let base_v = metric(baseline, "avg_bsld").unwrap_or(best_v);
        if std::ptr::eq(best, baseline) || base_v <= best_v {
            let others: Vec<&RunView> = candidates.iter().copied().filter(|r| !std::ptr::eq(*r, best)).collect();
            // What the runs left out of the headline were left out for: a real scheduler is left
            // out only for starving jobs.
            let left_out: Vec<&RunView> =
                ranked.iter().copied().filter(|r| !candidates.iter().any(|c| std::ptr::eq(*c, *r))).collect();
            let which = match (left_out.iter().any(|r| !r.clairvoyant), left_out.iter().any(|r| r.clairvoyant)) {
                (true, true) => " that neither starve jobs nor know the true runtimes",
                (true, false) => " that do not starve jobs",
                (false, true) => " that do not know the true runtimes",
                (false, false) => " compared",
            };
            let mut s = format!(
                "On this trace, {} gives the lowest mean bounded slowdown of the {} policies{which}: {}",
                name(best),
                candidates.len(),
                num(best_v)
            );
            if let Some((second, v)) = extreme(&others, "avg_bsld", false) {
                let up = 100.0 * (v - best_v) / best_v.max(1e-9);
                if up < 0.05 {
                    s += &format!("; {} ties with it", name(second));
                } else {
                    s += &format!("; the next best, {}, is {} higher", name(second), pct(up));
                }
            }
            s + "."
        } else {
            format!(
                "On this trace, {} cuts mean bounded slowdown by {} against {}: {} instead of {}.",
                name(best),
                pct(100.0 * (base_v - best_v) / base_v),
                name(baseline),
                num(best_v),
                num(base_v)
            )
        }
    };
    let bounds: Vec<&RunView> = ranked.iter().copied().filter(|r| r.clairvoyant).collect();
    if !bounds.is_empty() && !best.clairvoyant {
        let names: Vec<String> = bounds.iter().map(|r| name(r)).collect();
        let (verb, them) = if bounds.len() == 1 { ("knows", "it is a bound") } else { ("know", "they are bounds") };
        let mut s = format!(
            "{} {verb} every job's true runtime, which no real scheduler does: {them} to measure against, not a choice",
            names.join(", ")
        );
        if let Some((b, v)) = extreme(&bounds, "avg_bsld", false) {
            let who = if bounds.len() == 1 { "it".to_string() } else { name(b) };
            s += &format!(" ({who} reaches a mean bounded slowdown of {})", num(v));
        }
        more.push(capitalised(&s) + ".");
    }
    if ranked.len() > 1 {
        if let (Some((lo, lo_v)), Some((hi, hi_v))) =
            (extreme(&ranked, "avg_wait_s", false), extreme(&ranked, "avg_wait_s", true))
        {
            more.push(format!(
                "Mean wait is shortest under {}, {}, and longest under {}, {}.",
                name(lo),
                duration(lo_v),
                name(hi),
                duration(hi_v)
            ));
        }
        if let Some((worst, v)) = extreme(&ranked, "avg_bsld", true) {
            if v > best_v {
                more.push(format!(
                    "The worst is {}, with a mean bounded slowdown of {}, {} times that of {}.",
                    name(worst),
                    num(v),
                    num(v / best_v.max(1e-9)),
                    name(best)
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
                    "Utilization ranges from {:.1}% under {} to {:.1}% under {}.",
                    100.0 * lo_v,
                    name(lo),
                    100.0 * hi_v,
                    name(hi)
                ));
            }
        }
    }
    if !stopped.is_empty() {
        more.push(format!("Not ranked, stopped before the end: {}.", stopped.join(", ")));
    }
    more.push(format!("{}: 1 means no wait; lower is better.", capitalised(super::compare::BSLD_DEFINITION)));
    Answer { lead, warnings, more, flags }
}

/// `s` with its first letter in capitals, for a name that opens a sentence.
fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or(String::new(), |f| std::iter::once(f.to_ascii_uppercase()).chain(c).collect())
}

/// The status line after a run of the policies `asked`: how many ran, in how long on how many
/// jobs, which failed (named in the order asked, so the sentence does not depend on timing),
/// and how many stopped at their time budget.
pub fn run_status(
    asked: &[String],
    failed: &[String],
    finished: usize,
    partial: usize,
    jobs: u64,
    seconds: f64,
) -> String {
    let n = asked.len();
    let plural = |k: usize| if k == 1 { "policy" } else { "policies" };
    let failed: Vec<&str> = asked.iter().filter(|a| failed.contains(a)).map(String::as_str).collect();
    let mut said = if finished == n {
        let jobs = crate::render::axis::whole_or_number(jobs as f64);
        format!("Ran {n} {} on {jobs} jobs in {seconds:.2} s.", plural(n))
    } else if failed.is_empty() {
        format!("Stopped: {finished} of {n} policies finished.")
    } else {
        format!("{finished} of {n} policies ran; {} failed: {} (see below).", failed.len(), failed.join(", "))
    };
    if partial > 0 {
        said += &format!(
            " {partial} {} stopped at the time budget; their statistics cover the jobs finished.",
            plural(partial)
        );
    }
    said
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
        let a = answer(&runs, &[]);
        assert_eq!(
            a.lead,
            "On this trace, EASY++ cuts mean bounded slowdown by 44% against EASY: 3.10 instead of 5.50."
        );
        assert_eq!(a.more[0], "Mean wait is shortest under EASY++, 30 min, and longest under FCFS, 10 h.");
        // 40 / 3.1 = 12.9.
        assert_eq!(a.more[1], "The worst is FCFS, with a mean bounded slowdown of 40.0, 12.9 times that of EASY++.");
        assert_eq!(a.more[2], "Utilization ranges from 61.0% under FCFS to 66.2% under EASY++.");
    }

    #[test]
    fn when_the_baseline_wins_the_runner_up_is_named() {
        // conservative 6.6 is (6.6 - 5.5) / 5.5 = 20% above easy.
        let runs = [run("easy", 5.5, 3_600.0, 0.66), run("conservative", 6.6, 4_000.0, 0.6601)];
        let a = answer(&runs, &[]);
        assert_eq!(
            a.lead,
            "On this trace, EASY gives the lowest mean bounded slowdown of the 2 policies compared: 5.50; the next best, conservative backfilling, is 20% higher."
        );
        assert_eq!(a.more[2], "Utilization hardly moves (66.0% to 66.0%): the policies reorder the same work.");
    }

    #[test]
    fn stopped_runs_are_named_not_ranked() {
        let mut slow = run("conservative", 1.0, 10.0, 0.7);
        slow.stopped = Some("stopped at the time budget".into());
        let a = answer(&[run("easy", 5.5, 3_600.0, 0.66), slow.clone()], &[]);
        assert!(a.lead.starts_with("On this trace, EASY gives a mean bounded slowdown of 5.50"), "{}", a.lead);
        assert!(a.more.contains(&"Not ranked, stopped before the end: conservative backfilling.".to_string()));
        assert_eq!(
            answer(&[slow], &[]).lead,
            "No run finished: every policy stopped before the end, so none is ranked."
        );
        assert_eq!(answer(&[], &[]).lead, "No policy has run yet.");
    }

    fn with(mut r: RunView, key: &str, v: f64) -> RunView {
        r.metrics.insert(key.to_string(), Some(v));
        r
    }

    #[test]
    fn a_policy_that_starves_jobs_does_not_headline_and_is_named() {
        // Longest waits 2 d, 3 d and 182 d: the lower median is 3 d, and 182 d is more than three
        // times that; SS also keeps 57% of the machine busy where EASY keeps 84% (57 < 0.9 x 84).
        let day = 86_400.0;
        let runs = [
            with(run("easy", 40.0, 3_600.0, 0.84), "max_wait_s", 2.0 * day),
            with(run("conservative", 45.0, 4_000.0, 0.83), "max_wait_s", 3.0 * day),
            with(run("ss", 20.0, 2_000.0, 0.57), "max_wait_s", 182.0 * day),
        ];
        let a = answer(&runs, &[]);
        assert_eq!(
            a.lead,
            "On this trace, EASY gives the lowest mean bounded slowdown of the 2 policies that do not starve jobs: 40.0; the next best, conservative backfilling, is 12% higher."
        );
        assert_eq!(
            a.warnings,
            ["SS (selective suspension) has a lower mean bounded slowdown (20.0) but starves jobs: its longest wait is 182 d, where the policies compared typically keep it to 3 d, and it keeps 57% of the machine busy against up to 84%."]
        );
        assert_eq!(a.flags.get("ss"), Some(&vec!["starves"]));
        assert_eq!(a.flags.get("easy"), None);
    }

    #[test]
    fn a_long_worst_case_within_the_others_range_is_not_starvation() {
        let day = 86_400.0;
        let runs = [
            with(run("easy", 40.0, 3_600.0, 0.84), "max_wait_s", 2.0 * day),
            with(run("fcfs", 90.0, 9_000.0, 0.80), "max_wait_s", 5.0 * day),
        ];
        // 5 d is not three times 2 d, and 80% is within 90% of 84%.
        let a = answer(&runs, &[]);
        assert!(a.warnings.is_empty(), "{:?}", a.warnings);
        assert!(a.flags.is_empty());
    }

    #[test]
    fn a_clairvoyant_policy_is_a_bound_not_a_headline() {
        let mut perf = run("sjf-perf", 2.0, 600.0, 0.66);
        perf.clairvoyant = true;
        let runs = [run("easy", 5.5, 3_600.0, 0.66), run("easy++", 3.1, 1_800.0, 0.66), perf.clone()];
        let a = answer(&runs, &[]);
        assert_eq!(
            a.lead,
            "On this trace, EASY++ cuts mean bounded slowdown by 44% against EASY: 3.10 instead of 5.50."
        );
        assert_eq!(
            a.more[0],
            "SJF by true runtimes (sjf-perf) knows every job's true runtime, which no real scheduler does: it is a bound to measure against, not a choice (it reaches a mean bounded slowdown of 2.00)."
        );
        assert_eq!(a.flags.get("sjf-perf"), Some(&vec!["bound"]));
        // Only bounds chosen: the best of them headlines.
        let mut perfect = run("perfect", 2.5, 700.0, 0.66);
        perfect.clairvoyant = true;
        let a = answer(&[perf, perfect], &[]);
        assert!(a.lead.starts_with("On this trace, SJF by true runtimes (sjf-perf) gives the lowest"), "{}", a.lead);
    }

    #[test]
    fn the_trace_loss_comes_first() {
        let loss = ["this trace lost 66% of its job lines (80,197 of 121,039): 80,197 with no runtime (0 s or missing) (first at line 12); every figure describes the rest".to_string()];
        let a = answer(&[run("easy", 5.5, 3_600.0, 0.66)], &loss);
        assert_eq!(a.warnings, ["This trace lost 66% of its job lines (80,197 of 121,039): 80,197 with no runtime (0 s or missing) (first at line 12); every figure describes the rest."]);
    }

    #[test]
    fn policies_are_named_as_names() {
        let runs = [run("easy", 5.5, 3_600.0, 0.66), run("is", 3.0, 1_000.0, 0.66)];
        assert_eq!(
            answer(&runs, &[]).lead,
            "On this trace, IS (immediate service) cuts mean bounded slowdown by 45% against EASY: 3.00 instead of 5.50."
        );
    }

    #[test]
    fn the_status_names_failures_in_the_order_asked() {
        let asked: Vec<String> = ["fcfs", "easy", "ss"].map(String::from).to_vec();
        assert_eq!(run_status(&asked, &[], 3, 0, 28_467, 1.234), "Ran 3 policies on 28,467 jobs in 1.23 s.");
        let failed = ["ss".to_string(), "fcfs".to_string()];
        assert_eq!(run_status(&asked, &failed, 1, 0, 10, 0.1), "1 of 3 policies ran; 2 failed: fcfs, ss (see below).");
        assert_eq!(
            run_status(&asked, &[], 2, 1, 10, 0.1),
            "Stopped: 2 of 3 policies finished. 1 policy stopped at the time budget; their statistics cover the jobs finished."
        );
    }
}
