//! Figures by calendar month, as Ward, Mahood & West tabulate them (Tables 1-6): total wait
//! hours, percent utilization, jobs backfilled, and the jobs and wait hours of the high
//! classes (challenge/urgent).
//!
//! Months are wall-clock months in the trace's time zone ([`Zone::from_header`]): trace time
//! `t` is the instant `UnixStartTime + t`. The figures of a month:
//!
//! - `jobs`: jobs submitted in the month. Every job belongs to the month of its submit time,
//!   whenever it starts or ends, so the months' jobs add up to the trace's.
//! - `wait_hours`: the sum of (start - submit) over those jobs, in hours; a job that never
//!   started has no wait and is left out.
//! - `actual_wait_hours`, `actual_wait_jobs`: the wait the log itself recorded for those jobs
//!   (SWF field 3; the paper's "Actual Wait"), over the jobs that have one.
//! - `jobs_backfilled`: those jobs that were backfills ([`crate::engine::JobRecord::backfilled`]:
//!   under `relaxed`, started by Fig. 2's backfill step).
//! - `high_jobs`, `high_wait_hours`: `jobs` and `wait_hours` restricted to the jobs whose SWF
//!   queue number the caller's `is_high` calls a high class (Ward et al.'s challenge and
//!   urgent queues).
//! - `utilization_pct`: busy processor-seconds within the month over the machine size times
//!   the part of the month inside the simulated span, x100. Busy processors are the engine's
//!   steps ([`Outcome::series`]) clipped to the month's boundaries; the simulated span runs
//!   from the first to the last step, so the partial first and last months are measured over
//!   the time simulated, not over idle time before the first job or after the last.
//!
//! The months run consecutively from the first month holding a submit time or simulated time
//! to the last, so a month without jobs still appears (with zeros, and its utilization).

use serde::{Deserialize, Serialize};

use crate::calendar::{Civil, Zone};
use crate::engine::Outcome;
use crate::trace::Trace;

/// The figures of one calendar month (see the module docs).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Month {
    /// The month in the trace's zone, as the paper writes it: `2001/04`.
    pub month: String,
    /// Jobs submitted in the month.
    pub jobs: u64,
    /// Busy processor-seconds over capacity within the simulated part of the month, in percent.
    pub utilization_pct: f64,
    /// Total wait of the month's jobs, in hours.
    pub wait_hours: f64,
    /// The month's jobs that were backfilled.
    pub jobs_backfilled: u64,
    /// Total wait the log recorded for the month's jobs (SWF field 3), in hours: the paper's
    /// "Actual Wait", what the site's own scheduler did.
    pub actual_wait_hours: f64,
    /// The month's jobs with a recorded wait (the others are left out of `actual_wait_hours`).
    pub actual_wait_jobs: u64,
    /// The month's jobs in a high class.
    pub high_jobs: u64,
    /// Total wait of the month's high-class jobs, in hours.
    pub high_wait_hours: f64,
}

/// A schedule's figures month by month, with the time zone the months were read in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Monthly {
    /// The zone and rules used ([`Zone::describe`]).
    pub zone: String,
    /// Consecutive months, first to last.
    pub months: Vec<Month>,
}

/// Running sums of one month; times in whole seconds, so the sums are exact.
#[derive(Default, Clone, Copy)]
struct Sums {
    jobs: u64,
    wait_s: i64,
    backfilled: u64,
    actual_wait_s: i64,
    actual_wait_jobs: u64,
    high_jobs: u64,
    high_wait_s: i64,
    busy_ps: i128,
}

/// The month after (`year`, `month`).
fn next_month(year: i64, month: u32) -> (i64, u32) {
    if month == 12 {
        (year + 1, 1)
    } else {
        (year, month + 1)
    }
}

/// Index of the month holding trace time `t`: the last boundary at or before it.
fn month_index(bounds: &[i64], t: i64) -> usize {
    // Clamped, so a time outside the boundaries (only with absurd header values) stays in range.
    bounds.partition_point(|&b| b <= t).saturating_sub(1).min(bounds.len().saturating_sub(2))
}

/// The schedule's figures by calendar month in the trace's time zone; `is_high` tells which
/// SWF queue numbers are high classes.
pub fn monthly(trace: &Trace, outcome: &Outcome, is_high: &dyn Fn(i32) -> bool) -> Monthly {
    let zone = Zone::from_header(&trace.header);
    let epoch = trace.header.unix_start_time.unwrap_or(0);
    let series = &outcome.series;
    // The simulated span: first to last step, empty if the machine never changed.
    let span = match (series.first(), series.last()) {
        (Some(a), Some(b)) if b.time > a.time => Some((a.time, b.time)),
        _ => None,
    };
    let submits = trace.jobs.iter().map(|j| j.submit);
    let (Some(mut first), Some(mut last)) = (submits.clone().min(), submits.max()) else {
        return Monthly { zone: zone.describe().to_string(), months: Vec::new() };
    };
    if let Some((a, b)) = span {
        first = first.min(a);
        // The span is half-open: a last step exactly at midnight opens no new month.
        last = last.max(b - 1);
    }

    // Month boundaries in trace time: local midnight of each first day, one past the last month.
    let local = |t: i64| zone.to_local(epoch.saturating_add(t));
    let (start, end) = (local(first), local(last));
    let (mut y, mut m) = (start.year, start.month);
    let mut labels = Vec::new();
    let mut bounds = vec![zone.from_local(&Civil::date(y, m, 1)).saturating_sub(epoch)];
    loop {
        labels.push(format!("{y:04}/{m:02}"));
        let done = (y, m) >= (end.year, end.month);
        (y, m) = next_month(y, m);
        bounds.push(zone.from_local(&Civil::date(y, m, 1)).saturating_sub(epoch));
        if done {
            break;
        }
    }

    let mut sums = vec![Sums::default(); labels.len()];
    for (job, rec) in trace.jobs.iter().zip(&outcome.records) {
        let s = &mut sums[month_index(&bounds, job.submit)];
        let high = is_high(job.queue);
        s.jobs += 1;
        s.high_jobs += u64::from(high);
        s.backfilled += u64::from(rec.backfilled);
        if job.logged_wait >= 0 {
            s.actual_wait_s += job.logged_wait;
            s.actual_wait_jobs += 1;
        }
        if rec.start >= 0 {
            let wait = rec.start - job.submit;
            s.wait_s += wait;
            if high {
                s.high_wait_s += wait;
            }
        }
    }
    // Each step's busy processor-seconds, split at the month boundaries it crosses.
    for w in series.windows(2) {
        let (t0, t1, busy) = (w[0].time, w[1].time, w[0].busy as i128);
        if busy == 0 || t1 <= t0 {
            continue;
        }
        let mut k = month_index(&bounds, t0);
        let mut from = t0;
        while from < t1 && k < sums.len() {
            let to = t1.min(bounds[k + 1]);
            sums[k].busy_ps += busy * (to - from).max(0) as i128;
            from = from.max(to);
            k += 1;
        }
    }

    let hours = |s: i64| s as f64 / 3600.0;
    let months = labels
        .into_iter()
        .zip(&sums)
        .enumerate()
        .map(|(k, (month, s))| {
            let inside = span.map_or(0, |(a, b)| (b.min(bounds[k + 1]) - a.max(bounds[k])).max(0));
            let capacity = trace.machine as f64 * inside as f64;
            let utilization_pct = if capacity > 0.0 { 100.0 * s.busy_ps as f64 / capacity } else { 0.0 };
            Month {
                month,
                jobs: s.jobs,
                utilization_pct,
                wait_hours: hours(s.wait_s),
                jobs_backfilled: s.backfilled,
                actual_wait_hours: hours(s.actual_wait_s),
                actual_wait_jobs: s.actual_wait_jobs,
                high_jobs: s.high_jobs,
                high_wait_hours: hours(s.high_wait_s),
            }
        })
        .collect();
    Monthly { zone: zone.describe().to_string(), months }
}
