//! Kettimuthu et al. (2003): selective preemption against no preemption and immediate service.
//!
//! [`compare`] runs the thesis's schemes on one trace: NS, SS with SF = 1.5, 2 and 5, TSS
//! (SF = 2) and IS, and tabulates each by the 16 categories of Table 2.1 (by actual runtime
//! and processors): average and worst-case bounded slowdown and turnaround, for all jobs and
//! for the well- and poorly-estimated ones (chapter 4). [`load_study`] runs NS, SS (SF = 2) and
//! IS at load factors 1.0 to 1.6 (arrival times divided by the factor) with the four categories
//! of Table 4.1 (Figs. 4.9-4.13). [`findings`] checks the thesis's claims on the results.

use serde::Serialize;

use crate::metrics::categories::{kettimuthu_table, CategoryTable, Classes, Estimates};
use crate::metrics::{records, Metrics, Record};
use crate::policy::PolicyError;
use crate::run::{configure, run_one, Settings};
use crate::studies::findings::Finding;
use crate::trace::Trace;

/// One scheme of the comparison: a label, the policy and its suspension factor.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Scheme {
    /// As the tables print it.
    pub label: &'static str,
    /// The policy.
    pub policy: &'static str,
    /// The suspension factor it runs with, if it suspends selectively.
    pub sf: Option<f64>,
}

/// The schemes of Figs. 3.1-3.6: NS, SS at three suspension factors, TSS and IS.
pub const SCHEMES: &[Scheme] = &[
    Scheme { label: "NS", policy: "ns", sf: None },
    Scheme { label: "SS 1.5", policy: "ss", sf: Some(1.5) },
    Scheme { label: "SS 2", policy: "ss", sf: Some(2.0) },
    Scheme { label: "SS 5", policy: "ss", sf: Some(5.0) },
    Scheme { label: "TSS 2", policy: "tss", sf: Some(2.0) },
    Scheme { label: "IS", policy: "is", sf: None },
];

/// The schemes of the load study (Figs. 4.9-4.13).
pub const LOAD_SCHEMES: &[Scheme] = &[SCHEMES[0], SCHEMES[2], SCHEMES[5]];

/// The load factors of the load study: the trace's load up to saturation (section 4.2).
pub const LOAD_FACTORS: &[f64] = &[1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6];

/// One scheme's results on one trace.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SchemeRun {
    /// The scheme.
    pub scheme: Scheme,
    /// Every metric of the run.
    pub metrics: Metrics,
    /// Table 2.1 categories, all jobs.
    pub all: CategoryTable,
    /// Well-estimated jobs (estimate <= 2 x runtime).
    pub well: CategoryTable,
    /// Poorly estimated jobs.
    pub poor: CategoryTable,
}

/// Runs one scheme on `trace`: its metrics and per-job records, and the bounded-slowdown
/// threshold its metrics used.
fn simulate_scheme(
    trace: &Trace,
    scheme: &Scheme,
    settings: &Settings,
) -> Result<(Metrics, Vec<Record>, i64), PolicyError> {
    let s = match scheme.sf {
        Some(sf) => settings.with_policy("sf", sf.to_string()),
        None => settings.clone(),
    };
    let cfg = configure(scheme.policy, &s)?.remove(0);
    let (out, res) = run_one(trace, &cfg, &s);
    Ok((res.metrics, records(trace, &out), s.metrics.tau))
}

/// Runs one scheme on `trace`.
pub fn run_scheme(trace: &Trace, scheme: &Scheme, settings: &Settings) -> Result<SchemeRun, PolicyError> {
    let (metrics, recs, tau) = simulate_scheme(trace, scheme, settings)?;
    Ok(SchemeRun {
        scheme: *scheme,
        metrics,
        all: kettimuthu_table(&recs, tau, Classes::Sixteen, Estimates::All),
        well: kettimuthu_table(&recs, tau, Classes::Sixteen, Estimates::Well),
        poor: kettimuthu_table(&recs, tau, Classes::Sixteen, Estimates::Poor),
    })
}

/// The comparison of the schemes on one trace and the claims checked on it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    /// One run per scheme, in [`SCHEMES`] order.
    pub schemes: Vec<SchemeRun>,
    /// The claims of chapter 3.
    pub findings: Vec<Finding>,
}

/// Runs every scheme of [`SCHEMES`] on `trace` and checks chapter 3's claims.
pub fn compare(trace: &Trace, settings: &Settings) -> Result<Comparison, PolicyError> {
    let schemes = SCHEMES.iter().map(|s| run_scheme(trace, s, settings)).collect::<Result<Vec<_>, _>>()?;
    let exact = trace.jobs.iter().all(|j| j.sched_runtime == j.runtime);
    let findings = findings(&schemes, exact);
    Ok(Comparison { schemes, findings })
}

/// One scheme at one load factor.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LoadPoint {
    /// Load factor.
    pub load: f64,
    /// The scheme.
    pub scheme: Scheme,
    /// Overall utilization (Fig. 4.9).
    pub utilization: f64,
    /// Mean bounded slowdown over all jobs.
    pub avg_bsld: f64,
    /// Mean turnaround over all jobs.
    pub avg_turnaround_s: f64,
    /// Suspensions.
    pub suspensions: u64,
    /// The four categories of Table 4.1 (Figs. 4.10-4.11).
    pub four: CategoryTable,
}

/// Runs [`LOAD_SCHEMES`] at each of `factors`; `load(f)` gives the trace at factor f.
pub fn load_study(
    load: &dyn Fn(f64) -> Result<Trace, String>,
    settings: &Settings,
    factors: &[f64],
) -> Result<Vec<LoadPoint>, String> {
    let mut out = Vec::new();
    for &f in factors {
        let trace = load(f)?;
        for scheme in LOAD_SCHEMES {
            out.push(load_point(&trace, f, scheme, settings).map_err(|e| e.to_string())?);
        }
    }
    Ok(out)
}

/// One point of the load study: `scheme` on `trace`, which is at load factor `load`.
pub fn load_point(trace: &Trace, load: f64, scheme: &Scheme, settings: &Settings) -> Result<LoadPoint, PolicyError> {
    let (m, recs, tau) = simulate_scheme(trace, scheme, settings)?;
    Ok(LoadPoint {
        load,
        scheme: *scheme,
        utilization: m.utilization,
        avg_bsld: m.avg_bsld,
        avg_turnaround_s: m.avg_response_s,
        suspensions: m.suspensions,
        four: kettimuthu_table(&recs, tau, Classes::Four, Estimates::All),
    })
}

/// Mean of `values` over the cells `cells` of `t`, weighted by their job counts.
fn pooled(t: &CategoryTable, values: &[Vec<f64>], cells: &[(usize, usize)]) -> Option<f64> {
    let n: u64 = cells.iter().map(|&(r, c)| t.count[r][c]).sum();
    (n > 0).then(|| cells.iter().map(|&(r, c)| t.count[r][c] as f64 * values[r][c]).sum::<f64>() / n as f64)
}

fn row(r: usize) -> Vec<(usize, usize)> {
    (0..4).map(|c| (r, c)).collect()
}

fn col(c: usize) -> Vec<(usize, usize)> {
    (0..4).map(|r| (r, c)).collect()
}

fn find<'a>(runs: &'a [SchemeRun], label: &str) -> Option<&'a SchemeRun> {
    runs.iter().find(|r| r.scheme.label == label)
}

/// Worst cases within this share of each other count as equal.
pub const WORST_SLACK: f64 = 0.05;

/// Categories (Table 2.1 names) where `a`'s value is lower and higher than `b`'s beyond
/// [`WORST_SLACK`], over the cells with jobs.
fn moved(t: &CategoryTable, a: &[Vec<f64>], b: &[Vec<f64>]) -> (Vec<String>, Vec<String>) {
    let (mut lower, mut higher) = (Vec::new(), Vec::new());
    for (r, length) in LENGTHS.iter().enumerate() {
        for (c, width) in ["Seq", "N", "W", "VW"].iter().enumerate() {
            if t.count[r][c] == 0 {
                continue;
            }
            let name = format!("{length} {width}");
            if a[r][c] < b[r][c] * (1.0 - WORST_SLACK) {
                lower.push(name);
            } else if a[r][c] > b[r][c] * (1.0 + WORST_SLACK) {
                higher.push(name);
            }
        }
    }
    (lower, higher)
}

/// Length classes of Table 2.1, top to bottom.
const LENGTHS: [&str; 4] = ["VS", "S", "L", "VL"];

/// Figs. 3.3-3.4: SS's worst cases are lower than NS's in most categories and higher only in
/// long ones (the thesis: "slightly worse for some of the VL categories").
fn worst_cases_fall(ns: &SchemeRun, ss: &SchemeRun, a: &[Vec<f64>], b: &[Vec<f64>]) -> (bool, String) {
    let (lower, higher) = moved(&ss.all, a, b);
    let cells = (0..4).flat_map(|r| (0..4).map(move |c| (r, c))).filter(|&(r, c)| ns.all.count[r][c] > 0).count();
    let holds = 2 * lower.len() > cells && higher.iter().all(|h| h.starts_with('L') || h.starts_with("VL"));
    let detail = format!(
        "SS 2 lower than NS in {} of {cells} categories, higher in {} ({})",
        lower.len(),
        higher.len(),
        higher.join(", ")
    );
    (holds, detail)
}

/// Checks chapter 3's claims on the runs of [`compare`]; `exact` says the scheduler knew every
/// runtime. The worst cases (Figs. 3.3-3.5) are claimed for exact runtimes only: with user
/// estimates the thesis shows averages (Figs. 4.1-4.6), so those checks print their numbers
/// as n/a.
pub fn findings(runs: &[SchemeRun], exact: bool) -> Vec<Finding> {
    let mut out = Vec::new();
    let (Some(ns), Some(ss), Some(tss), Some(is)) =
        (find(runs, "NS"), find(runs, "SS 2"), find(runs, "TSS 2"), find(runs, "IS"))
    else {
        return out;
    };
    // Improvement factor of SS over NS per length class: NS mean / SS mean.
    let gain = |values: fn(&CategoryTable) -> &Vec<Vec<f64>>| -> Vec<Option<f64>> {
        (0..4)
            .map(|r| {
                let a = pooled(&ns.all, values(&ns.all), &row(r))?;
                let b = pooled(&ss.all, values(&ss.all), &row(r))?;
                Some(a / b)
            })
            .collect()
    };
    let show = |g: &[Option<f64>]| {
        g.iter()
            .zip(LENGTHS)
            .map(|(x, n)| format!("{n} {}", x.map_or("-".to_string(), |v| format!("x{v:.2}"))))
            .collect::<Vec<_>>()
            .join(", ")
    };
    // Short classes gain more than either long one.
    let short_gain_most = |g: &[Option<f64>]| match (g[0], g[1]) {
        (Some(vs), Some(s)) => {
            let long = g[2..].iter().flatten().fold(0.0f64, |a, &b| a.max(b));
            Some(vs > 1.0 && s > 1.0 && vs.min(s) > long)
        }
        _ => None,
    };
    let bsld = gain(|t| &t.avg_bsld);
    out.push(Finding {
        claim: "SS (SF 2) helps very short and short jobs most: their average slowdown falls by more than that of long and very long jobs (Fig. 3.1)",
        holds: short_gain_most(&bsld),
        detail: format!("NS / SS average bounded slowdown by length: {}", show(&bsld)),
    });
    let turnaround = gain(|t| &t.avg_turnaround_s);
    out.push(Finding {
        claim: "SS's average turnaround follows its slowdown: it falls most for very short and short jobs, and overall (Fig. 3.2)",
        holds: short_gain_most(&turnaround)
            .map(|h| h && ss.metrics.avg_response_s < ns.metrics.avg_response_s),
        detail: format!(
            "NS / SS average turnaround by length: {}; overall {:.2} h vs {:.2} h",
            show(&turnaround),
            ns.metrics.avg_response_s / 3600.0,
            ss.metrics.avg_response_s / 3600.0
        ),
    });
    let chapter3 = |(holds, detail): (bool, String)| {
        if exact {
            (Some(holds), detail)
        } else {
            (None, format!("claimed for exact runtimes; with user estimates: {detail}"))
        }
    };
    let (holds, detail) = chapter3(worst_cases_fall(ns, ss, &ss.all.max_bsld, &ns.all.max_bsld));
    out.push(Finding {
        claim: "SS's worst-case slowdown is lower than NS's in most categories and higher only in long ones (Fig. 3.3)",
        holds,
        detail,
    });
    let (holds, detail) = chapter3(worst_cases_fall(ns, ss, &ss.all.max_turnaround_s, &ns.all.max_turnaround_s));
    out.push(Finding {
        claim:
            "SS's worst-case turnaround is lower than NS's in most categories and higher only in long ones (Fig. 3.4)",
        holds,
        detail,
    });
    let (lower, higher) = moved(&ss.all, &tss.all.max_bsld, &ss.all.max_bsld);
    let overall = format!("worst overall {:.0} vs {:.0}", tss.metrics.max_bsld, ss.metrics.max_bsld);
    // Limits that never bind leave SS's schedule: nothing to compare (with user estimates,
    // long-estimate jobs stay below their category's NS average; docs/VALIDATION.md).
    let (holds, detail) = if lower.is_empty() && higher.is_empty() {
        (None, format!("TSS's limits did not change SS's worst cases in any category ({overall})"))
    } else {
        chapter3((
            lower.len() > higher.len(),
            format!(
                "lower in {} ({}), higher in {} ({}); {overall}",
                lower.len(),
                lower.join(", "),
                higher.len(),
                higher.join(", ")
            ),
        ))
    };
    out.push(Finding {
        claim: "TSS lowers the worst cases: its worst-case slowdown is lower than SS's in more categories than it is higher (Fig. 3.5)",
        holds,
        detail,
    });
    let vl = |r: &SchemeRun| pooled(&r.all, &r.all.avg_bsld, &row(3));
    let vw = |r: &SchemeRun| pooled(&r.all, &r.all.avg_bsld, &col(3));
    let holds = match (vl(is), vl(ns), vw(is), vw(ns)) {
        (Some(a), Some(b), Some(c), Some(d)) => Some(a > b && c > d),
        _ => None,
    };
    let f = |x: Option<f64>| x.map_or("-".to_string(), |v| format!("{v:.2}"));
    out.push(Finding {
        claim: "IS hurts long and very wide jobs: their average slowdown is higher than under NS (section 3.4)",
        holds,
        detail: format!(
            "very long: IS {} vs NS {}; very wide: IS {} vs NS {}",
            f(vl(is)),
            f(vl(ns)),
            f(vw(is)),
            f(vw(ns))
        ),
    });
    let best =
        runs.iter().filter(|r| r.scheme.policy == "ss").map(|r| r.metrics.avg_bsld).fold(f64::INFINITY, f64::min);
    out.push(Finding {
        claim: "SS has a lower overall average slowdown than both NS and IS (section 3.4)",
        holds: Some(ss.metrics.avg_bsld < ns.metrics.avg_bsld && ss.metrics.avg_bsld < is.metrics.avg_bsld),
        detail: format!(
            "SS 2 {:.2} (best SF {:.2}), NS {:.2}, IS {:.2}",
            ss.metrics.avg_bsld, best, ns.metrics.avg_bsld, is.metrics.avg_bsld
        ),
    });
    out
}

/// Checks section 4.2's claims on a load study.
pub fn load_findings(points: &[LoadPoint]) -> Vec<Finding> {
    let rows: Vec<LoadSummary> = points
        .iter()
        .map(|p| LoadSummary {
            label: p.scheme.label.to_string(),
            load: p.load,
            utilization: p.utilization,
            avg_bsld: p.avg_bsld,
        })
        .collect();
    load_findings_of(&rows)
}

/// What the load findings need of one point.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadSummary {
    /// Scheme label ("NS", "SS 2", "IS").
    pub label: String,
    /// Load factor.
    pub load: f64,
    /// Utilization.
    pub utilization: f64,
    /// Mean bounded slowdown.
    pub avg_bsld: f64,
}

/// [`load_findings`] from the summaries alone (the page gathers them from several workers).
pub fn load_findings_of(points: &[LoadSummary]) -> Vec<Finding> {
    let at = |label: &str, load: f64| points.iter().find(|p| p.label == label && p.load == load);
    let loads: Vec<f64> = {
        let mut l: Vec<f64> = points.iter().map(|p| p.load).collect();
        crate::sorting::floats(&mut l);
        l.dedup();
        l
    };
    let mut out = Vec::new();
    let mut below = Vec::new();
    for &l in &loads {
        if let (Some(i), Some(n), Some(s)) = (at("IS", l), at("NS", l), at("SS 2", l)) {
            if !(i.utilization < n.utilization && i.utilization < s.utilization) {
                below.push(format!(
                    "load {l}: IS {:.3}, NS {:.3}, SS {:.3}",
                    i.utilization, n.utilization, s.utilization
                ));
            }
        }
    }
    out.push(Finding {
        claim: "IS reaches the lowest utilization at every load (Fig. 4.9)",
        holds: Some(below.is_empty()),
        detail: if below.is_empty() { format!("at all {} loads", loads.len()) } else { below.join("; ") },
    });
    let ratio = |l: f64| Some(at("NS", l)?.avg_bsld / at("SS 2", l)?.avg_bsld);
    let (lo, hi) = (loads.first().copied(), loads.last().copied());
    let holds = match (lo.and_then(ratio), hi.and_then(ratio)) {
        (Some(a), Some(b)) => Some(b > a),
        _ => None,
    };
    out.push(Finding {
        claim: "SS's improvement over NS is more pronounced under high load (Fig. 4.10)",
        holds,
        detail: format!(
            "NS / SS average slowdown: x{:.2} at load {}, x{:.2} at load {}",
            lo.and_then(ratio).unwrap_or(f64::NAN),
            lo.unwrap_or(f64::NAN),
            hi.and_then(ratio).unwrap_or(f64::NAN),
            hi.unwrap_or(f64::NAN)
        ),
    });
    out
}
