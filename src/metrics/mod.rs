//! Metrics: per-job records -> aggregates and time series, with the definitions of DESIGN.md.
//!
//! - wait = start - submit; response = end - submit;
//! - bounded slowdown = max(1, (wait + run) / max(tau, run)), tau = 10 s by default;
//! - slowdown (Lawson & Smirni Eq. 2) = 1 + d / v, v the runtime and d the delay (end minus
//!   runtime minus submit), so killed speculative runs count as delay; for a job with an
//!   advance reservation d is measured from the start it asked for;
//! - utilization = used processor-seconds / ((last end - first start) x machine size) (Leung et al.);
//! - loss of capacity = idle processor-seconds while jobs wait / (machine size x (last event - first event))
//!   (Leung et al. eq. 1);
//! - percentiles are nearest-rank; averages are over all jobs unless the Tsafrir et al. cut is on.

pub mod categories;
mod docs;
pub mod monthly;
mod series;
pub use docs::{MetricDoc, METRIC_DOCS};

use serde::Serialize;

pub use series::{compress, fill_resources, SeriesPoint};

use crate::engine::{JobRecord, Outcome};
use crate::keys::{parse_choice, parse_num, KeyError};
use crate::trace::{Job, Trace};

/// Which jobs the averages are taken over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Cut {
    /// Every job.
    None,
    /// Tsafrir et al. section 2: drop the first 1% of terminated jobs and those ending after the last arrival.
    Tsafrir,
}

/// Options of the metrics, set with `--set` like the others.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct MetricOptions {
    /// Bounded-slowdown threshold in seconds.
    pub tau: i64,
    /// Which jobs are measured.
    pub cut: Cut,
}

impl Default for MetricOptions {
    fn default() -> Self {
        MetricOptions { tau: 10, cut: Cut::None }
    }
}

/// Documentation of each metric option key: (key, default, meaning).
pub const METRIC_KEYS: &[(&str, &str, &str)] = &[
    ("tau", "10", "bounded-slowdown threshold in seconds"),
    (
        "cut",
        "none",
        "jobs measured: none (all jobs) | tsafrir (drop first 1% ended and those ending after the last arrival)",
    ),
];

impl MetricOptions {
    /// Sets one option by its normalised key; `Ok(false)` means the key is not a metric option.
    pub fn set(&mut self, key: &str, value: &str) -> Result<bool, KeyError> {
        match key {
            "tau" => {
                let t: i64 = parse_num(key, value)?;
                if t < 1 {
                    return Err(KeyError::new(key, value, "must be at least 1"));
                }
                self.tau = t;
            }
            "cut" => self.cut = parse_choice(key, value, &[("none", Cut::None), ("tsafrir", Cut::Tsafrir)])?,
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// Everything known about one simulated job: the schedule CSV's row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Record {
    /// SWF job number.
    pub job_id: u64,
    /// Submit time.
    pub submit: i64,
    /// Start time (-1 if never started).
    pub start: i64,
    /// End time (-1 if never ended).
    pub end: i64,
    /// Processors.
    pub procs: u32,
    /// Runtime (after the overrun rule).
    pub runtime: i64,
    /// User estimate.
    pub estimate: i64,
    /// User id.
    pub user: i32,
    /// Queue.
    pub queue: i32,
    /// Started while a job submitted before it was still waiting.
    pub backfilled: bool,
    /// The start it asked for (advance reservation), or -1.
    pub requested: i64,
    /// Seconds of its killed speculative runs.
    pub killed_s: i64,
    /// Low priority (Lawson & Smirni).
    pub low_priority: bool,
    /// Times it was suspended (Kettimuthu et al.).
    pub suspensions: u32,
    /// Seconds its processors spent on suspension and resume overhead.
    pub overhead_s: i64,
}

impl Record {
    /// Wait time.
    pub fn wait(&self) -> i64 {
        self.start - self.submit
    }
    /// Response (turnaround) time.
    pub fn response(&self) -> i64 {
        self.end - self.submit
    }
    /// Bounded slowdown with threshold `tau`.
    pub fn bsld(&self, tau: i64) -> f64 {
        // The response, not wait + (end - start): a job restarted after a killed speculative run
        // ran `runtime` seconds in its last run only.
        (self.response() as f64 / self.runtime.max(tau) as f64).max(1.0)
    }
    /// Delay d of Lawson & Smirni: time from submission (or the requested reservation start) to
    /// the end, less the runtime; killed speculative runs count as delay.
    pub fn delay(&self) -> i64 {
        let ready = if self.requested >= 0 { self.requested } else { self.submit };
        self.end - self.runtime - ready
    }
    /// Slowdown of Lawson & Smirni, Eq. 2: 1 + d / v (unbounded; v at least 1 s).
    pub fn slowdown(&self) -> f64 {
        1.0 + self.delay() as f64 / self.runtime.max(1) as f64
    }
}

/// Joins the trace's jobs with the outcome's start/end times.
pub fn records(trace: &Trace, outcome: &Outcome) -> Vec<Record> {
    trace.jobs.iter().zip(&outcome.records).map(|(j, r)| record(j, r)).collect()
}

/// Joins one job of the trace with what happened to it.
pub fn record(j: &Job, r: &JobRecord) -> Record {
    Record {
        job_id: j.id,
        submit: j.submit,
        start: r.start,
        end: r.end,
        procs: j.procs,
        runtime: j.runtime,
        estimate: j.estimate,
        user: j.user,
        queue: j.queue,
        backfilled: r.backfilled,
        requested: r.requested,
        killed_s: r.killed_s,
        low_priority: r.low_priority,
        suspensions: r.suspensions,
        overhead_s: r.overhead_s,
    }
}

/// The schedule as CSV: `job_id,submit,start,end,procs,runtime,estimate,user,queue`, one row per job.
pub fn schedule_csv(recs: &[Record]) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(recs.len() * 48 + 64);
    out.push_str("job_id,submit,start,end,procs,runtime,estimate,user,queue\n");
    for r in recs {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{}",
            r.job_id, r.submit, r.start, r.end, r.procs, r.runtime, r.estimate, r.user, r.queue
        );
    }
    out
}

/// A 64-bit FNV-1a hash of every job's (id, start, end), in trace order, as 16 hex digits:
/// two schedules with the same hash are the same schedule (natively and in wasm alike).
pub fn schedule_hash(trace: &Trace, outcome: &Outcome) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (j, r) in trace.jobs.iter().zip(&outcome.records) {
        for v in [j.id as i64, r.start, r.end] {
            for b in v.to_le_bytes() {
                h ^= b as u64;
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
        }
    }
    format!("{h:016x}")
}

/// Summary statistics of one quantity.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Stats {
    /// Mean.
    pub avg: f64,
    /// Median (nearest rank).
    pub median: f64,
    /// 95th percentile (nearest rank).
    pub p95: f64,
    /// Maximum.
    pub max: f64,
}

impl Stats {
    /// Statistics of `values` (reordered in place).
    pub fn of(values: &mut [f64]) -> Stats {
        if values.is_empty() {
            return Stats::default();
        }
        let n = values.len();
        let at = |p: f64| ((p * n as f64).ceil() as usize).clamp(1, n) - 1;
        // Whole numbers this small add up exactly in any order, so their ranks can be selected
        // rather than sorted; other values are added in sorted order, the same on every run.
        let whole = values.iter().all(|v| v.fract() == 0.0 && v.abs() <= (1u64 << 53) as f64 / n as f64);
        if !whole {
            crate::sorting::floats(values);
        }
        let avg = values.iter().sum::<f64>() / n as f64;
        let (m, p95) = (at(0.5), at(0.95));
        if !whole {
            return Stats { avg, median: values[m], p95: values[p95], max: values[n - 1] };
        }
        let (_, &mut median, above) = values.select_nth_unstable_by(m, f64::total_cmp);
        let p95 = if p95 == m { median } else { *above.select_nth_unstable_by(p95 - m - 1, f64::total_cmp).1 };
        let max = above.iter().copied().fold(median, |a, b| if b.total_cmp(&a).is_gt() { b } else { a });
        Stats { avg, median, p95, max }
    }
}

/// The aggregates of one policy on one trace; keys are snake_case with units.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Metrics {
    /// Jobs in the trace.
    pub jobs: u64,
    /// Jobs the averages are taken over (all finished jobs, or those left by the cut).
    pub jobs_measured: u64,
    /// Jobs that never finished: a run stopped at its time budget, or a policy that left them
    /// waiting forever (the invariant tests check that every policy here finishes every job of
    /// the real traces).
    pub jobs_unfinished: u64,
    /// Mean wait.
    pub avg_wait_s: f64,
    /// Median wait.
    pub median_wait_s: f64,
    /// 95th percentile wait.
    pub p95_wait_s: f64,
    /// Longest wait.
    pub max_wait_s: f64,
    /// Mean response time.
    pub avg_response_s: f64,
    /// Median response time.
    pub median_response_s: f64,
    /// 95th percentile response time.
    pub p95_response_s: f64,
    /// Longest response time.
    pub max_response_s: f64,
    /// Mean bounded slowdown.
    pub avg_bsld: f64,
    /// Median bounded slowdown.
    pub median_bsld: f64,
    /// 95th percentile bounded slowdown.
    pub p95_bsld: f64,
    /// Largest bounded slowdown.
    pub max_bsld: f64,
    /// Used processor-seconds over (makespan x machine size).
    pub utilization: f64,
    /// Last end minus first start.
    pub makespan_s: i64,
    /// Share of capacity left idle while jobs waited (Leung et al. eq. 1).
    pub loss_of_capacity: f64,
    /// Jobs started while a job ahead of them in submit order was waiting.
    pub jobs_backfilled: u64,
    /// Scheduling passes the engine ran.
    pub scheduling_passes: u64,
    /// Mean accuracy of the scheduler's runtime predictions, in percent, each job's weighted by
    /// the time each prediction was in effect (Tsafrir et al. section 2). This and the next two:
    /// `None` unless the run observes predictions (`observe=predictions`).
    pub accuracy_pct: Option<f64>,
    /// Mean number of prediction corrections per job (Tsafrir et al. Table 2).
    pub corrections_avg: Option<f64>,
    /// Standard deviation of the corrections per job.
    pub corrections_std: Option<f64>,
    /// Percent of jobs that got a reservation (Tsafrir et al. Table 4, "rate"). This and the
    /// next six: `None` unless the run observes promises (`observe=promises`).
    pub reserved_pct: Option<f64>,
    /// Mean |actual start - first reservation| over jobs with a reservation (Table 4).
    pub reservation_diff_avg_s: Option<f64>,
    /// Median of that difference.
    pub reservation_diff_median_s: Option<f64>,
    /// Standard deviation of that difference.
    pub reservation_diff_std_s: Option<f64>,
    /// Percent of jobs that started after their first reservation (Table 5, "rate").
    pub delayed_pct: Option<f64>,
    /// Mean delay beyond the first reservation, over delayed jobs (Table 5).
    pub delay_avg_s: Option<f64>,
    /// Median of that delay.
    pub delay_median_s: Option<f64>,
    /// Standard deviation of that delay.
    pub delay_std_s: Option<f64>,
    /// Percent of jobs with a reservation whose earliest possible start (true runtimes) was
    /// pushed back by backfilled jobs while they were the oldest waiting job (Table 10). This and
    /// the next two: `None` unless the run observes promises and heel and toe.
    pub stalled_pct: Option<f64>,
    /// Mean time from that earliest possible start to the actual start, over stalled jobs.
    pub stall_avg_s: Option<f64>,
    /// Mean number of push-backs ("thieves") per stalled job.
    pub thieves_avg: Option<f64>,
    /// Mean slowdown 1 + d / v (Lawson & Smirni Eq. 2, unbounded).
    pub avg_slowdown: f64,
    /// Jobs that asked for an advance reservation.
    pub reservations_requested: u64,
    /// Reservations granted later than asked (Lawson & Smirni Table 2).
    pub missed_reservations: u64,
    /// Mean granted minus requested start over reservation requests.
    pub reservation_delay_avg_s: f64,
    /// Speculative runs started (Lawson & Smirni section 2.1).
    pub speculative_runs: u64,
    /// Speculative runs killed at their limit.
    pub speculative_kills: u64,
    /// Processor-hours spent in killed speculative runs.
    pub speculative_lost_proc_h: f64,
    /// Suspensions of running jobs (Kettimuthu et al.).
    pub suspensions: u64,
    /// Jobs suspended at least once.
    pub suspended_jobs: u64,
    /// Processor-hours spent writing suspended jobs' memory out and reading it back.
    pub overhead_proc_h: f64,
    /// Submissions: the jobs, with each segment of a job run under a maximum runtime counted
    /// as a job of its own (Leung et al. section V.A).
    pub submissions: u64,
    /// Jobs that ran as more than one segment.
    pub segmented_jobs: u64,
    /// Mean turnaround per submission (a segment's from its submission to its end); the other
    /// response figures are per job, from its submission to its last segment's end.
    pub avg_response_submitted_s: f64,
    /// Share of submissions that started after their hybrid fair start time (Leung et al.
    /// section IV), or null when not measured (`fst=off`, or `auto` for other families).
    pub fst_miss_share: Option<f64>,
    /// Mean over all submissions of max(0, start - fair start time), or null when not measured.
    pub avg_fst_miss_s: Option<f64>,
    /// The same share per job: its first start against its first submission's fair start.
    pub fst_miss_share_jobs: Option<f64>,
    /// The same mean per job.
    pub avg_fst_miss_jobs_s: Option<f64>,
}

/// One submission as the scheduler saw it: a job, or one segment of a job run in segments.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Submission {
    /// The job (trace index).
    pub job: u32,
    /// Segment number, from 0.
    pub segment: u32,
    /// Submission time.
    pub submit: i64,
    /// Start time (-1 if never started).
    pub start: i64,
    /// End time (-1 if never ended).
    pub end: i64,
}

/// Every submission of a simulation: the jobs that ran whole, and every segment of those that
/// ran in segments, in trace order and segment order.
pub fn submissions(trace: &Trace, outcome: &Outcome) -> Vec<Submission> {
    let mut segs: Vec<&crate::engine::Segment> = outcome.segments.iter().collect();
    crate::sorting::by_key(&mut segs, |s| (s.job as i64, s.no as i64));
    let mut out = Vec::with_capacity(trace.jobs.len() + segs.len());
    let mut k = 0;
    for (i, (j, r)) in trace.jobs.iter().zip(&outcome.records).enumerate() {
        if r.segments == 0 {
            out.push(Submission { job: i as u32, segment: 0, submit: j.submit, start: r.start, end: r.end });
            continue;
        }
        while k < segs.len() && segs[k].job as usize == i {
            let s = segs[k];
            out.push(Submission { job: i as u32, segment: s.no, submit: s.submit, start: s.start, end: s.end });
            k += 1;
        }
        if r.end < 0 {
            // The segment under way when the simulation stopped.
            let last = out.last().filter(|s| s.job as usize == i).map_or(j.submit, |s| s.end);
            out.push(Submission { job: i as u32, segment: r.segments, submit: last, start: -1, end: -1 });
        }
    }
    out
}

/// Share of fair starts missed and the mean miss over all of them (Leung et al. section IV).
fn fst_figures<'a>(list: impl Iterator<Item = &'a crate::engine::observe::FairStart>) -> (Option<f64>, Option<f64>) {
    let (mut n, mut missed, mut total) = (0u64, 0u64, 0f64);
    for f in list {
        n += 1;
        if f.start > f.fst {
            missed += 1;
        }
        total += f.miss() as f64;
    }
    if n == 0 {
        (None, None)
    } else {
        (Some(missed as f64 / n as f64), Some(total / n as f64))
    }
}

/// Mean and (population) standard deviation.
fn mean_std(v: &[f64]) -> (f64, f64) {
    if v.is_empty() {
        return (0.0, 0.0);
    }
    let n = v.len() as f64;
    let m = v.iter().sum::<f64>() / n;
    let var = v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / n;
    (m, var.sqrt())
}

/// Percent of `part` in `whole`.
fn pct(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

/// Accuracy histograms in 5% bins, like Tsafrir et al. Fig. 2.
#[derive(Debug, Clone, Default, PartialEq, Serialize, serde::Deserialize)]
pub struct AccuracyHistogram {
    /// Jobs per bin, bin i covering [5i, 5i + 5) percent (the last bin includes 100).
    pub all: Vec<u64>,
    /// The same without jobs that reached their user estimate (killed at it).
    pub without_killed: Vec<u64>,
}

/// Histogram of each finished job's weighted prediction accuracy, over every finished job (the
/// measurement cut does not apply); for EASY, whose predictions are the estimates, this is the
/// estimate accuracy of Fig. 2.
/// Empty when the run did not observe predictions.
pub fn accuracy_histogram(trace: &Trace, outcome: &Outcome) -> AccuracyHistogram {
    let Some(predictions) = &outcome.observed.predictions else { return AccuracyHistogram::default() };
    let mut h = AccuracyHistogram { all: vec![0; 20], without_killed: vec![0; 20] };
    for ((j, r), p) in trace.jobs.iter().zip(&outcome.records).zip(predictions) {
        if r.end < 0 {
            continue;
        }
        let bin = ((p.accuracy * 20.0).floor() as usize).min(19);
        h.all[bin] += 1;
        if j.runtime < j.estimate {
            h.without_killed[bin] += 1;
        }
    }
    h
}

/// Indices of the records the averages are taken over.
fn measured(n: usize, rec: impl Fn(usize) -> Record, cut: Cut) -> Vec<usize> {
    let done: Vec<usize> = (0..n).filter(|&i| rec(i).end >= 0).collect();
    match cut {
        Cut::None => done,
        Cut::Tsafrir => {
            let last_arrival = (0..n).map(|i| rec(i).submit).max().unwrap_or(0);
            let mut by_end = done;
            crate::sorting::by_key(&mut by_end, |&i| (rec(i).end, i as i64));
            let skip = by_end.len() / 100;
            let mut keep: Vec<usize> = by_end.into_iter().skip(skip).filter(|&i| rec(i).end <= last_arrival).collect();
            keep.sort_unstable();
            keep
        }
    }
}

/// Computes the aggregates of one simulation.
pub fn summarize(trace: &Trace, outcome: &Outcome, opts: &MetricOptions) -> Metrics {
    // Each job's record is put together where it is read: a table of them would be the
    // largest thing the summary allocates.
    let n = trace.jobs.len().min(outcome.records.len());
    let rec = |i: usize| record(&trace.jobs[i], &outcome.records[i]);
    let recs = || (0..n).map(rec);
    let idx = measured(n, rec, opts.cut);
    let mut wait: Vec<f64> = idx.iter().map(|&i| rec(i).wait() as f64).collect();
    let mut resp: Vec<f64> = idx.iter().map(|&i| rec(i).response() as f64).collect();
    let mut bsld: Vec<f64> = idx.iter().map(|&i| rec(i).bsld(opts.tau)).collect();
    let (w, r, b) = (Stats::of(&mut wait), Stats::of(&mut resp), Stats::of(&mut bsld));

    let out = &outcome.records;
    let obs = &outcome.observed;
    let observed = |on: bool, v: f64| on.then_some(v);
    let (acc, corr): (Vec<f64>, Vec<f64>) = match &obs.predictions {
        Some(p) => idx.iter().map(|&i| (p[i].accuracy, p[i].corrections as f64)).unzip(),
        None => (Vec::new(), Vec::new()),
    };
    let (corrections_avg, corrections_std) = mean_std(&corr);
    let promised: &[i64] = obs.promises.as_deref().unwrap_or(&[]);
    let reserved_at = |i: usize| promised.get(i).copied().unwrap_or(-1);
    let reserved: Vec<usize> = idx.iter().copied().filter(|&i| reserved_at(i) >= 0).collect();
    let mut diff: Vec<f64> = reserved.iter().map(|&i| (out[i].start - reserved_at(i)).abs() as f64).collect();
    let mut delay: Vec<f64> = reserved
        .iter()
        .filter(|&&i| out[i].start > reserved_at(i))
        .map(|&i| (out[i].start - reserved_at(i)) as f64)
        .collect();
    let (diff_avg, diff_std) = mean_std(&diff);
    let (delay_avg, delay_std) = mean_std(&delay);
    let follow: &[crate::engine::observe::Followed] = obs.heel_toe.as_deref().unwrap_or(&[]);
    let followed: Vec<usize> =
        reserved.iter().copied().filter(|&i| follow.get(i).is_some_and(|f| f.perfect_start >= 0)).collect();
    let stalled: Vec<usize> = followed.iter().copied().filter(|&i| follow[i].thefts > 0).collect();
    let stall: Vec<f64> = stalled.iter().map(|&i| (out[i].start - follow[i].perfect_start) as f64).collect();
    let thieves: Vec<f64> = stalled.iter().map(|&i| follow[i].thefts as f64).collect();
    let (has_acc, has_promises) = (obs.predictions.is_some(), obs.promises.is_some());
    // Table 10 counts reserved jobs that were followed: it needs both observers.
    let has_follow = has_promises && obs.heel_toe.is_some();

    let slowdown: Vec<f64> = idx.iter().map(|&i| rec(i).slowdown()).collect();
    let requests: Vec<usize> = (0..n).filter(|&i| rec(i).requested >= 0).collect();
    let granted = |i: usize| if reserved_at(i) >= 0 { reserved_at(i) } else { out[i].start };
    let missed = requests.iter().filter(|&&i| granted(i) > rec(i).requested).count();
    let res_delay: Vec<f64> = requests.iter().map(|&i| (granted(i) - rec(i).requested) as f64).collect();
    let lost: f64 = recs().map(|r| r.procs as f64 * r.killed_s as f64).sum::<f64>() / 3600.0;

    // Without segments every job is one submission: no need to list them.
    let (submitted, sub_resp): (usize, Vec<f64>) = if outcome.records.iter().any(|r| r.segments > 0) {
        let subs = submissions(trace, outcome);
        (subs.len(), subs.iter().filter(|s| s.end >= 0).map(|s| (s.end - s.submit) as f64).collect())
    } else {
        (n, recs().filter(|r| r.end >= 0).map(|r| r.response() as f64).collect())
    };
    let fair = obs.fair_starts.iter().flatten();
    let (fst_miss_share, avg_fst_miss_s) = fst_figures(fair.clone());
    let (fst_miss_share_jobs, avg_fst_miss_jobs_s) = fst_figures(fair.filter(|f| f.segment == 0));

    let done = recs().filter(|r| r.end >= 0);
    let first_start = done.clone().map(|r| r.start).min().unwrap_or(0);
    let last_end = done.clone().map(|r| r.end).max().unwrap_or(0);
    let used: f64 = done.clone().map(|r| r.procs as f64 * (r.runtime + r.killed_s) as f64).sum();
    let makespan = last_end - first_start;
    let machine = trace.machine as f64;
    let utilization = if makespan > 0 { used / (makespan as f64 * machine) } else { 0.0 };

    Metrics {
        jobs: n as u64,
        jobs_measured: idx.len() as u64,
        jobs_unfinished: recs().filter(|r| r.end < 0).count() as u64,
        avg_wait_s: w.avg,
        median_wait_s: w.median,
        p95_wait_s: w.p95,
        max_wait_s: w.max,
        avg_response_s: r.avg,
        median_response_s: r.median,
        p95_response_s: r.p95,
        max_response_s: r.max,
        avg_bsld: b.avg,
        median_bsld: b.median,
        p95_bsld: b.p95,
        max_bsld: b.max,
        utilization,
        makespan_s: makespan,
        loss_of_capacity: loss_of_capacity(outcome, trace.machine),
        jobs_backfilled: recs().filter(|r| r.backfilled).count() as u64,
        scheduling_passes: outcome.passes,
        accuracy_pct: observed(has_acc, 100.0 * mean_std(&acc).0),
        corrections_avg: observed(has_acc, corrections_avg),
        corrections_std: observed(has_acc, corrections_std),
        reserved_pct: observed(has_promises, pct(reserved.len(), idx.len())),
        reservation_diff_avg_s: observed(has_promises, diff_avg),
        reservation_diff_median_s: observed(has_promises, Stats::of(&mut diff).median),
        reservation_diff_std_s: observed(has_promises, diff_std),
        delayed_pct: observed(has_promises, pct(delay.len(), idx.len())),
        delay_avg_s: observed(has_promises, delay_avg),
        delay_median_s: observed(has_promises, Stats::of(&mut delay).median),
        delay_std_s: observed(has_promises, delay_std),
        stalled_pct: observed(has_follow, pct(stalled.len(), followed.len())),
        stall_avg_s: observed(has_follow, mean_std(&stall).0),
        thieves_avg: observed(has_follow, mean_std(&thieves).0),
        avg_slowdown: mean_std(&slowdown).0,
        reservations_requested: requests.len() as u64,
        missed_reservations: missed as u64,
        reservation_delay_avg_s: mean_std(&res_delay).0,
        speculative_runs: out.iter().map(|r| r.limited_runs as u64).sum(),
        speculative_kills: out.iter().map(|r| r.killed_runs as u64).sum(),
        speculative_lost_proc_h: lost,
        suspensions: recs().map(|r| r.suspensions as u64).sum(),
        suspended_jobs: recs().filter(|r| r.suspensions > 0).count() as u64,
        overhead_proc_h: recs().map(|r| r.procs as f64 * r.overhead_s as f64).sum::<f64>() / 3600.0,
        submissions: submitted as u64,
        segmented_jobs: out.iter().filter(|r| r.segments > 1).count() as u64,
        avg_response_submitted_s: mean_std(&sub_resp).0,
        fst_miss_share,
        avg_fst_miss_s,
        fst_miss_share_jobs,
        avg_fst_miss_jobs_s,
    }
}

/// Loss of capacity (Leung et al. eq. 1): idle processor-seconds during intervals in which
/// some job waits, over machine size times the span from the first to the last event.
pub fn loss_of_capacity(outcome: &Outcome, machine: u32) -> f64 {
    let s = &outcome.series;
    let (Some(first), Some(last)) = (s.first(), s.last()) else { return 0.0 };
    let span = (last.time - first.time) as f64 * machine as f64;
    if span <= 0.0 {
        return 0.0;
    }
    let lost: f64 = s
        .windows(2)
        .filter(|w| w[0].queued > 0)
        .map(|w| (machine - w[0].busy) as f64 * (w[1].time - w[0].time) as f64)
        .fold(0.0, |a, b| a + b);
    lost / span
}

#[cfg(test)]
mod tests {
    use super::Stats;

    /// The statistics as a full sort gives them, added in sorted order.
    fn sorted(values: &[f64]) -> Stats {
        let mut v = values.to_vec();
        v.sort_by(f64::total_cmp);
        let n = v.len();
        let rank = |p: f64| v[((p * n as f64).ceil() as usize).clamp(1, n) - 1];
        Stats { avg: v.iter().sum::<f64>() / n as f64, median: rank(0.5), p95: rank(0.95), max: v[n - 1] }
    }

    proptest::proptest! {
        /// Selected ranks and sums taken in any order are bit for bit those of the sort.
        #[test]
        fn stats_are_those_of_the_sorted_values(
            whole in proptest::collection::vec(-100_000_000i64..100_000_000, 1..300),
            real in proptest::collection::vec(0.0f64..1e6, 1..300),
        ) {
            let mut w: Vec<f64> = whole.iter().map(|&x| x as f64).collect();
            let want = sorted(&w);
            proptest::prop_assert_eq!(Stats::of(&mut w), want);
            let mut r = real.clone();
            let want = sorted(&r);
            proptest::prop_assert_eq!(Stats::of(&mut r), want);
        }
    }
}
