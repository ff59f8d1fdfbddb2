//! Lawson & Smirni (2002): multiple-queue backfilling against its single-queue baseline.
//!
//! Both policies run on the same trace with the same options and seed, so every job has the
//! same priority and the same reservation request in both. The comparison is the slowdown
//! ratio of Eq. 3, R = (s1 - sm) / min(s1, sm), s1 and sm the single- and multiple-queue
//! average slowdowns (Eq. 2, 1 + d/v): R > 0 means multiple queues do better. It is computed
//! overall, per class of estimated runtime (short, medium, long by the queue thresholds), per
//! priority, and per batch of 1,000 consecutive submissions (the transient plots, Fig. 4, 7, 9).
//! The reservation view counts requests and missed reservations (Table 2) and gives the tail
//! of the reservation delays, granted minus requested start (Fig. 11).
//!
//! [`study`] runs the paper's grid on one trace: loads 1, 1.25 and 1.5 (interarrival times
//! divided by the factor) with all, 75% and 95% high-priority jobs, and reservation fractions
//! 0.01, 0.05 and 0.25, and checks the paper's findings.

use serde::{Deserialize, Serialize};

use crate::metrics::{records, Metrics, Record};
use crate::policy::multiqueue::class_of;
use crate::policy::PolicyError;
use crate::run::{configure, run_one, Settings};
use crate::studies::findings::Finding;
use crate::trace::Trace;

/// Submissions per transient batch (the paper's 1,000).
pub const BATCH: usize = 1000;

/// Delays at which the reservation-delay tail is given, in seconds.
pub const TAIL_POINTS: &[i64] = &[0, 60, 300, 900, 1800, 3600, 7200, 14_400, 28_800, 57_600, 86_400, 172_800, 345_600];

/// Average slowdowns of one run, overall and by group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Breakdown {
    /// Over every finished job.
    pub overall: f64,
    /// Per class of estimated runtime (short, medium, long); `None` for an empty class.
    pub classes: Vec<Option<f64>>,
    /// High-priority jobs.
    pub high: Option<f64>,
    /// Low-priority jobs.
    pub low: Option<f64>,
    /// Per class, high-priority jobs only.
    pub classes_high: Vec<Option<f64>>,
    /// Per class, low-priority jobs only.
    pub classes_low: Vec<Option<f64>>,
    /// Jobs per class.
    pub class_jobs: Vec<u64>,
}

fn mean(v: impl Iterator<Item = f64>) -> Option<f64> {
    let (mut s, mut n) = (0.0, 0usize);
    for x in v {
        s += x;
        n += 1;
    }
    (n > 0).then(|| s / n as f64)
}

/// Average slowdowns of `recs` (finished jobs only), classes by user estimate.
pub fn breakdown(recs: &[Record], thresholds: &[i64]) -> Breakdown {
    let done: Vec<&Record> = recs.iter().filter(|r| r.end >= 0).collect();
    let k = thresholds.len() + 1;
    let of = |class: Option<usize>, low: Option<bool>| {
        mean(
            done.iter()
                .filter(|r| class.is_none_or(|c| class_of(r.estimate, thresholds) == c))
                .filter(|r| low.is_none_or(|l| r.low_priority == l))
                .map(|r| r.slowdown()),
        )
    };
    Breakdown {
        overall: of(None, None).unwrap_or(0.0),
        classes: (0..k).map(|c| of(Some(c), None)).collect(),
        high: of(None, Some(false)),
        low: of(None, Some(true)),
        classes_high: (0..k).map(|c| of(Some(c), Some(false))).collect(),
        classes_low: (0..k).map(|c| of(Some(c), Some(true))).collect(),
        class_jobs: (0..k)
            .map(|c| done.iter().filter(|r| class_of(r.estimate, thresholds) == c).count() as u64)
            .collect(),
    }
}

/// The slowdown ratio of Eq. 3: (s1 - sm) / min(s1, sm).
pub fn ratio(single: f64, multi: f64) -> f64 {
    let m = single.min(multi);
    if m > 0.0 {
        (single - multi) / m
    } else {
        0.0
    }
}

fn ratio_opt(single: Option<f64>, multi: Option<f64>) -> Option<f64> {
    Some(ratio(single?, multi?))
}

/// R of one batch of consecutive submissions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Batch {
    /// Submit time of the batch's first job.
    pub time: i64,
    /// Jobs in the batch.
    pub jobs: usize,
    /// R over the batch.
    pub r: f64,
    /// R over its high-priority jobs.
    pub r_high: Option<f64>,
    /// R over its low-priority jobs.
    pub r_low: Option<f64>,
}

/// Reservation requests and misses (Table 2).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reservations {
    /// Jobs that asked for a reservation.
    pub requested: u64,
    /// Missed under single-queue backfilling.
    pub missed_single: u64,
    /// Missed under multiple-queue backfilling.
    pub missed_multi: u64,
    /// Fraction of requests delayed by more than each of [`TAIL_POINTS`], single queue.
    pub tail_single: Vec<f64>,
    /// The same, multiple queues.
    pub tail_multi: Vec<f64>,
}

/// Multiple-queue backfilling against its single-queue baseline on one trace.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    /// Class bounds (seconds of estimated runtime).
    pub thresholds: Vec<i64>,
    /// Single-queue slowdowns.
    pub single: Breakdown,
    /// Multiple-queue slowdowns.
    pub multi: Breakdown,
    /// R over all jobs.
    pub r: f64,
    /// R per class.
    pub r_classes: Vec<Option<f64>>,
    /// R of high-priority jobs.
    pub r_high: Option<f64>,
    /// R of low-priority jobs.
    pub r_low: Option<f64>,
    /// R per class, high-priority jobs.
    pub r_classes_high: Vec<Option<f64>>,
    /// R per class, low-priority jobs.
    pub r_classes_low: Vec<Option<f64>>,
    /// R per batch of [`BATCH`] submissions.
    pub transient: Vec<Batch>,
    /// Reservations.
    pub reservations: Reservations,
    /// Every metric of the single-queue run.
    pub single_metrics: Metrics,
    /// Every metric of the multiple-queue run.
    pub multi_metrics: Metrics,
}

fn tail(recs: &[Record], reserved: &[i64]) -> Vec<f64> {
    let delays: Vec<i64> = recs
        .iter()
        .zip(reserved)
        .filter(|(r, _)| r.requested >= 0)
        .map(|(r, &g)| if g >= 0 { g } else { r.start } - r.requested)
        .collect();
    TAIL_POINTS
        .iter()
        .map(|&x| {
            if delays.is_empty() {
                0.0
            } else {
                delays.iter().filter(|&&d| d > x).count() as f64 / delays.len() as f64
            }
        })
        .collect()
}

/// Runs `mq-backfill` and `sq-backfill` on `trace` with `settings` and compares them.
pub fn compare(trace: &Trace, settings: &Settings) -> Result<Comparison, PolicyError> {
    let cfgs = configure("sq-backfill,mq-backfill", settings)?;
    // Classes as the multiple queues split the jobs; the paper's three when it runs one queue.
    let thresholds = match cfgs[1].multiqueue_options() {
        Some(o) if o.queues() > 1 => o.thresholds.clone(),
        _ => vec![1000, 10_000],
    };
    let (so, sr) = run_one(trace, &cfgs[0], settings);
    let (mo, mr) = run_one(trace, &cfgs[1], settings);
    let (srec, mrec) = (records(trace, &so), records(trace, &mo));
    let (single, multi) = (breakdown(&srec, &thresholds), breakdown(&mrec, &thresholds));
    let k = thresholds.len() + 1;
    let transient = srec
        .chunks(BATCH)
        .zip(mrec.chunks(BATCH))
        .map(|(s, m)| {
            let (bs, bm) = (breakdown(s, &thresholds), breakdown(m, &thresholds));
            Batch {
                time: s[0].submit,
                jobs: s.len(),
                r: ratio(bs.overall, bm.overall),
                r_high: ratio_opt(bs.high, bm.high),
                r_low: ratio_opt(bs.low, bm.low),
            }
        })
        .collect();
    // Both policies are of the multiqueue family, whose runs keep first promises.
    let promises =
        |o: &crate::engine::Outcome| o.observed.promises.clone().unwrap_or_else(|| vec![-1; o.records.len()]);
    let (sres, mres) = (promises(&so), promises(&mo));
    let reservations = Reservations {
        requested: sr.metrics.reservations_requested,
        missed_single: sr.metrics.missed_reservations,
        missed_multi: mr.metrics.missed_reservations,
        tail_single: tail(&srec, &sres),
        tail_multi: tail(&mrec, &mres),
    };
    Ok(Comparison {
        r: ratio(single.overall, multi.overall),
        r_classes: (0..k).map(|c| ratio_opt(single.classes[c], multi.classes[c])).collect(),
        r_high: ratio_opt(single.high, multi.high),
        r_low: ratio_opt(single.low, multi.low),
        r_classes_high: (0..k).map(|c| ratio_opt(single.classes_high[c], multi.classes_high[c])).collect(),
        r_classes_low: (0..k).map(|c| ratio_opt(single.classes_low[c], multi.classes_low[c])).collect(),
        thresholds,
        single,
        multi,
        transient,
        reservations,
        single_metrics: sr.metrics,
        multi_metrics: mr.metrics,
    })
}

/// One cell of the study's load-and-priority grid.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LoadRun {
    /// Offered-load factor.
    pub load: f64,
    /// Fraction of high-priority jobs.
    pub high_priority: f64,
    /// The comparison.
    pub comparison: Comparison,
}

/// One reservation fraction of the study.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReservationRun {
    /// Fraction of jobs asking for a reservation.
    pub fraction: f64,
    /// The comparison.
    pub comparison: Comparison,
}

/// The paper's experiments on one trace and its findings.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LawsonStudy {
    /// Loads 1, 1.25, 1.5 with all, 75% and 95% high-priority jobs (Fig. 3, 5, 6, 8).
    pub loads: Vec<LoadRun>,
    /// Reservation fractions 0.01, 0.05, 0.25 at the trace's load (Fig. 10, 11, Table 2).
    pub reservations: Vec<ReservationRun>,
    /// The claims checked.
    pub findings: Vec<Finding>,
}

/// The loads of the study (Fig. 5).
pub const LOADS: &[f64] = &[1.0, 1.25, 1.5];
/// The high-priority fractions of the study (all jobs, then Fig. 6 and 8).
pub const HIGH_PRIORITY: &[f64] = &[1.0, 0.75, 0.95];
/// The reservation fractions of the study (Table 2).
pub const RESERVATION_FRACTIONS: &[f64] = &[0.01, 0.05, 0.25];

/// Two miss counts are "about equal" if they differ by at most this share of the larger, or by
/// at most [`MISS_SLACK`] reservations.
pub const MISS_SHARE: f64 = 0.25;
/// See [`MISS_SHARE`].
pub const MISS_SLACK: u64 = 5;
/// Slowdowns are "comparable" when |R| is at most this.
pub const COMPARABLE: f64 = 0.1;

/// Runs the paper's grid: `load(f)` gives the trace at offered-load factor f.
pub fn study(load: &dyn Fn(f64) -> Result<Trace, String>, settings: &Settings) -> Result<LawsonStudy, String> {
    let mut loads = Vec::new();
    for &f in LOADS {
        let trace = load(f)?;
        for &h in HIGH_PRIORITY {
            let s = settings.with_policy("high_priority", h.to_string());
            let comparison = compare(&trace, &s).map_err(|e| e.to_string())?;
            loads.push(LoadRun { load: f, high_priority: h, comparison });
        }
    }
    let trace = load(1.0)?;
    let mut reservations = Vec::new();
    for &fr in RESERVATION_FRACTIONS {
        let s = settings.with_policy("reservations", fr.to_string());
        let comparison = compare(&trace, &s).map_err(|e| e.to_string())?;
        reservations.push(ReservationRun { fraction: fr, comparison });
    }
    let findings = findings(&loads, &reservations);
    Ok(LawsonStudy { loads, reservations, findings })
}

fn findings(loads: &[LoadRun], reservations: &[ReservationRun]) -> Vec<Finding> {
    let mut out = Vec::new();
    let label = |l: &LoadRun| format!("load {} high {:.0}%", l.load, 100.0 * l.high_priority);
    let neg: Vec<String> = loads
        .iter()
        .filter(|l| l.comparison.r <= 0.0)
        .map(|l| format!("{} R={:.3}", label(l), l.comparison.r))
        .collect();
    out.push(Finding {
        claim: "multiple queues beat a single queue overall (R > 0) at every load and priority mix (Fig. 3, 5, 6, 8)",
        holds: Some(neg.is_empty()),
        detail: if neg.is_empty() {
            format!("R > 0 in all {} runs", loads.len())
        } else {
            format!("R <= 0 in {} of {}: {}", neg.len(), loads.len(), neg.join("; "))
        },
    });
    let short: Vec<String> = loads
        .iter()
        .filter(|l| l.comparison.r_classes.first().copied().flatten().is_some_and(|r| r <= 0.0))
        .map(label)
        .collect();
    out.push(Finding {
        claim: "short jobs gain (R > 0 for the short class) (Fig. 3b, 5b)",
        holds: Some(short.is_empty()),
        detail: if short.is_empty() { "in every run".into() } else { format!("not in: {}", short.join("; ")) },
    });
    let prio: Vec<&LoadRun> = loads.iter().filter(|l| l.high_priority < 1.0).collect();
    let low_neg: Vec<String> =
        prio.iter().filter(|l| l.comparison.r_low.is_some_and(|r| r <= 0.0)).map(|l| label(l)).collect();
    let high_neg: Vec<String> =
        prio.iter().filter(|l| l.comparison.r_high.is_some_and(|r| r <= 0.0)).map(|l| label(l)).collect();
    out.push(Finding {
        claim: "with priorities both high- and low-priority jobs gain (R > 0 for each) (Fig. 6, 8)",
        holds: Some(low_neg.is_empty() && high_neg.is_empty()),
        detail: format!(
            "high R <= 0 in {} of {} runs{}; low R <= 0 in {} of {}{}",
            high_neg.len(),
            prio.len(),
            if high_neg.is_empty() { String::new() } else { format!(" ({})", high_neg.join("; ")) },
            low_neg.len(),
            prio.len(),
            if low_neg.is_empty() { String::new() } else { format!(" ({})", low_neg.join("; ")) },
        ),
    });
    let unequal: Vec<String> = reservations
        .iter()
        .filter(|r| {
            let (s, m) = (r.comparison.reservations.missed_single, r.comparison.reservations.missed_multi);
            s.abs_diff(m) as f64 > MISS_SHARE * s.max(m) as f64 && s.abs_diff(m) > MISS_SLACK
        })
        .map(|r| {
            let x = &r.comparison.reservations;
            format!("{}: {} vs {}", r.fraction, x.missed_single, x.missed_multi)
        })
        .collect();
    let counts: Vec<String> = reservations
        .iter()
        .map(|r| {
            let x = &r.comparison.reservations;
            format!("{}: {} of {} single, {} multi", r.fraction, x.missed_single, x.requested, x.missed_multi)
        })
        .collect();
    out.push(Finding {
        claim: "single and multiple queues miss about as many reservations (Table 2)",
        holds: Some(unequal.is_empty()),
        detail: format!(
            "{} (about equal: within {:.0}% or {} reservations){}",
            counts.join("; "),
            100.0 * MISS_SHARE,
            MISS_SLACK,
            if unequal.is_empty() { String::new() } else { format!("; not equal at {}", unequal.join(", ")) }
        ),
    });
    let better = reservations.iter().filter(|r| r.fraction < 0.25).all(|r| r.comparison.r > 0.0);
    let comparable = reservations.iter().filter(|r| r.fraction >= 0.25).all(|r| r.comparison.r.abs() <= COMPARABLE);
    out.push(Finding {
        claim: "with reservations multiple queues do better at fractions 0.01 and 0.05 (R > 0) and comparably at 0.25 (Fig. 10)",
        holds: Some(better && comparable),
        detail: format!(
            "{} (comparable: |R| <= {COMPARABLE})",
            reservations.iter().map(|r| format!("{}: R={:.3}", r.fraction, r.comparison.r)).collect::<Vec<_>>().join("; ")
        ),
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(submit: i64, end: i64, runtime: i64, estimate: i64, low: bool, requested: i64) -> Record {
        Record {
            job_id: 1,
            submit,
            start: end - runtime,
            end,
            procs: 1,
            runtime,
            estimate,
            user: 1,
            queue: 1,
            backfilled: false,
            requested,
            killed_s: 0,
            low_priority: low,
            suspensions: 0,
            overhead_s: 0,
        }
    }

    #[test]
    fn ratio_is_eq_3() {
        assert_eq!(ratio(3.0, 1.5), 1.0);
        assert_eq!(ratio(1.5, 3.0), -1.0);
        assert_eq!(ratio(2.0, 2.0), 0.0);
    }

    /// Slowdowns 1 + d/v: a short job waiting 100 s for a 100 s run (2), a medium one waiting
    /// 0 (1), a long low-priority one waiting 20,000 s for a 10,000 s run (3), and a reservation
    /// started 50 s after the requested time for a 50 s run (2), medium by estimate.
    #[test]
    fn breakdown_by_class_and_priority() {
        let recs = [
            rec(0, 200, 100, 500, false, -1),
            rec(0, 1000, 1000, 2000, false, -1),
            rec(0, 30_000, 10_000, 20_000, true, -1),
            rec(0, 1100, 50, 5000, false, 1000),
        ];
        let b = breakdown(&recs, &[1000, 10_000]);
        assert_eq!(b.overall, 2.0);
        assert_eq!(b.classes, [Some(2.0), Some(1.5), Some(3.0)]);
        assert_eq!((b.high, b.low), (Some(5.0 / 3.0), Some(3.0)));
        assert_eq!(b.classes_low, [None, None, Some(3.0)]);
        assert_eq!(b.class_jobs, [1, 2, 1]);
        // Granted at 1050 for a request at 1000: delayed more than 0 s, not more than 60 s.
        let t = tail(&recs, &[-1, -1, -1, 1050]);
        assert_eq!((t[0], t[1]), (1.0, 0.0));
    }
}
