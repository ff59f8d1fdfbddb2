//! Time series for charts: the machine's step functions reduced to a fixed number of buckets.

use serde::{Deserialize, Serialize};

use crate::engine::Sample;

/// Most buckets a series is compressed to.
pub const MAX_POINTS: i64 = 100_000;

/// One bucket of a compressed series: time-weighted mean and maximum over `[time, time + width)`.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct SeriesPoint {
    /// Bucket start.
    pub time: i64,
    /// Mean busy processors.
    pub busy_avg: f64,
    /// Most busy processors.
    pub busy_max: u32,
    /// Mean waiting jobs.
    pub queued_avg: f64,
    /// Most waiting jobs.
    pub queued_max: u32,
    /// Mean GPUs held by running jobs (0 for a trace whose jobs hold none).
    #[serde(default)]
    pub gpus_avg: f64,
    /// Mean memory held by running jobs, GB (0 when the trace says none).
    #[serde(default)]
    pub mem_gb_avg: f64,
}

/// Fills `points`' GPU and memory means (buckets as [`compress`] made them) from the jobs'
/// runs: `runs` holds each run as (start, end, GPUs, memory in GB).
pub fn fill_resources(points: &mut [SeriesPoint], runs: &[(i64, i64, f64, f64)]) {
    let (Some(first), Some(second)) = (points.first(), points.get(1)) else { return };
    let (t0, width) = (first.time, (second.time - first.time).max(1));
    let n = points.len();
    for &(s, e, g, m) in runs {
        if e <= s || (g == 0.0 && m == 0.0) {
            continue;
        }
        let mut t = s.max(t0);
        while t < e {
            let b = ((t - t0) / width) as usize;
            if b >= n {
                break;
            }
            let b_end = t0 + (b as i64 + 1) * width;
            let seg = (e.min(b_end) - t) as f64 / width as f64;
            points[b].gpus_avg += g * seg;
            points[b].mem_gb_avg += m * seg;
            t = b_end;
        }
    }
}

/// Reduces the step function `steps` to at most `n` equal buckets spanning its first to last step.
pub fn compress(steps: &[Sample], n: usize) -> Vec<SeriesPoint> {
    let (Some(first), Some(last)) = (steps.first(), steps.last()) else { return Vec::new() };
    let t0 = first.time;
    let span = (last.time - t0).max(1);
    // More buckets than seconds adds nothing; the cap also keeps n as i64 from wrapping.
    let n = n.clamp(1, span.min(MAX_POINTS) as usize);
    let width = ((span + n as i64 - 1) / n as i64).max(1);
    let buckets = ((span + width - 1) / width) as usize;
    let mut out: Vec<SeriesPoint> = (0..buckets)
        .map(|b| SeriesPoint {
            time: t0 + b as i64 * width,
            busy_avg: 0.0,
            busy_max: 0,
            queued_avg: 0.0,
            queued_max: 0,
            gpus_avg: 0.0,
            mem_gb_avg: 0.0,
        })
        .collect();
    for (i, s) in steps.iter().enumerate() {
        let end = steps.get(i + 1).map_or(last.time, |x| x.time);
        let mut t = s.time;
        loop {
            let b = (((t - t0) / width) as usize).min(buckets - 1);
            let b_end = t0 + (b as i64 + 1) * width;
            let seg_end = end.min(b_end);
            let p = &mut out[b];
            p.busy_max = p.busy_max.max(s.busy);
            p.queued_max = p.queued_max.max(s.queued);
            let dt = (seg_end - t) as f64 / width as f64;
            p.busy_avg += s.busy as f64 * dt;
            p.queued_avg += s.queued as f64 * dt;
            if seg_end >= end || b + 1 >= buckets {
                break;
            }
            t = seg_end;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compresses_steps_into_weighted_buckets() {
        let steps = [
            Sample { time: 0, busy: 10, queued: 0 },
            Sample { time: 50, busy: 20, queued: 3 },
            Sample { time: 200, busy: 0, queued: 0 },
        ];
        let c = compress(&steps, 2);
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].time, 0);
        assert!((c[0].busy_avg - 15.0).abs() < 1e-9); // 10 for 50 s, 20 for 50 s
        assert_eq!(c[0].busy_max, 20);
        assert!((c[1].busy_avg - 20.0).abs() < 1e-9);
        assert_eq!(c[1].queued_max, 3);
    }
}
