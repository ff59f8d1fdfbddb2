//! Tsafrir, Etsion & Feitelson's model of users' runtime estimates ("Modeling User Runtime
//! Estimates", JSSPP 2005), as its reference implementation specifies it (Dan Tsafrir's
//! `est_model.hh` and `est_model.cc`, shipped with the `parallelworkloads` package beside
//! `m_lublin99.c`), without user-supplied bins:
//!
//! 1. The number of distinct estimates ("bins") grows with the number of jobs, linearly between
//!    the points of [`BINNUM`].
//! 2. The head: the 20 most popular estimates are the maximal estimate, the 15 values popular on
//!    all four logs studied ([`EST_JOINT`]: 5 min ... 18 h) below it, and round values counted
//!    down from it ([`EST_ROUND`]) until there are 20. Their shares of the jobs follow
//!    popularity rank x: a·e^(b·x) + c for ranks 2..20 (a = 14.0491, b = -0.177531, c =
//!    0.462513), rank 1 taking the rest of 89%. Which estimate gets which rank is drawn: the
//!    maximum is the most popular; the others take the ranks their time rank had on the four
//!    logs ([`TIMRNK_TO_POPRNK`]), a rank chosen at once when its last row is reached, else the
//!    smaller of two drawn from the rows seen.
//! 3. The tail: the other bins' times are (a-1)x/(a-x) of the maximum for x = i/n (a = 1 +
//!    12.1039·bins^-0.6026), on whole minutes, moved by 30, 20 or 10 s to avoid a time taken;
//!    their shares 795.6·rank^-2.267 for ranks from 21, scaled to the remaining 11%, matched to
//!    the times at random.
//! 4. Shares become job counts (at least one each), equalized to the number of jobs as the
//!    reference does, and each job, longest first, draws its estimate among those still unused
//!    that are at least its runtime.
//!
//! The random choices use the workload's drand48 stream (seeded anew with its seed, so the jobs
//! themselves are unchanged); the reference's two `random_shuffle` calls use the C library's
//! `rand()` instead, so the same seed gives another (equally distributed) workload there. Where
//! the reference stops because too many runtimes are long for the histogram, a job the
//! histogram cannot cover takes the maximal estimate.

use super::lublin::Drand48;

/// Estimates in the head of the distribution.
pub const TOP: usize = 20;

const MIN: u64 = 60;
const HOUR: u64 = 3600;

/// The estimates popular on all four logs, by popularity (the maximum's own place aside).
pub const EST_JOINT: [u64; 15] = [
    5 * MIN,
    15 * MIN,
    10 * MIN,
    20 * MIN,
    30 * MIN,
    HOUR,
    2 * HOUR,
    3 * HOUR,
    4 * HOUR,
    5 * HOUR,
    6 * HOUR,
    8 * HOUR,
    10 * HOUR,
    12 * HOUR,
    18 * HOUR,
];

/// The round values whose multiples, counted down from the maximum, complete the head.
pub const EST_ROUND: [u64; 10] =
    [200 * HOUR, 100 * HOUR, 50 * HOUR, 10 * HOUR, 5 * HOUR, 2 * HOUR, HOUR, 20 * MIN, 10 * MIN, 5 * MIN];

/// Time rank (0: the maximum) to popularity rank on SDSC-SP2, CTC-SP2, KTH-SP2 and SDSC-Blue.
pub const TIMRNK_TO_POPRNK: [[usize; 4]; TOP] = [
    [3, 1, 1, 1],
    [1, 3, 4, 6],
    [4, 4, 10, 5],
    [17, 2, 14, 3],
    [13, 12, 20, 7],
    [7, 9, 2, 2],
    [8, 8, 3, 18],
    [18, 18, 7, 19],
    [2, 6, 12, 4],
    [6, 7, 6, 11],
    [16, 11, 19, 20],
    [10, 20, 5, 9],
    [5, 16, 18, 10],
    [15, 5, 16, 14],
    [14, 14, 9, 13],
    [19, 13, 17, 16],
    [11, 10, 15, 15],
    [12, 15, 13, 17],
    [9, 17, 8, 8],
    [20, 19, 11, 12],
];

/// (jobs, bins): the number of bins, linear between these points and constant past the last.
pub const BINNUM: [(usize, usize); 7] =
    [(0, 0), (20, 10), (200, 20), (1000, 35), (10_000, 90), (70_000, 340), (250_000, 565)];

/// Head shares by popularity rank x: a·e^(b·x) + c.
const HEAD: (f64, f64, f64) = (14.0491, -0.177531, 0.462513);
/// The head's share of the jobs, percent.
const HEAD_SUM: f64 = 89.0;
/// Tail shares by popularity rank x: a·x^b.
const TAIL: (f64, f64) = (795.6, -2.267);

/// The number of bins for `jobs` jobs.
pub fn bin_count(jobs: usize) -> usize {
    let (last_jobs, last_bins) = BINNUM[BINNUM.len() - 1];
    if jobs > last_jobs {
        return last_bins;
    }
    let k = BINNUM.iter().position(|&(n, _)| jobs <= n).unwrap_or(BINNUM.len() - 1).max(1);
    let ((x0, y0), (x1, y1)) = (BINNUM[k - 1], BINNUM[k]);
    let slope = (y1 - y0) as f64 / (x1 - x0) as f64;
    y0 + ((jobs - x0) as f64 * slope).round() as usize
}

/// The head's times: the maximum first, then the others ascending.
pub fn head_times(max_est: u64) -> Vec<u64> {
    let mut v = vec![max_est];
    v.extend(EST_JOINT.iter().copied().filter(|&e| e < max_est));
    for mul in EST_ROUND {
        let start = max_est / mul * mul;
        let mut est = start;
        while est > 0 && v.len() < TOP {
            if !v.contains(&est) {
                v.push(est);
            }
            est -= mul;
        }
    }
    v[1..].sort_unstable();
    v
}

/// The head's shares by popularity rank (index 0: rank 1), percent, for `n` head bins.
fn head_shares(n: usize) -> Vec<f64> {
    let (a, b, c) = HEAD;
    let mut v: Vec<f64> = (1..n).map(|i| a * (b * (i + 1) as f64).exp() + c).collect();
    v.insert(0, HEAD_SUM - v.iter().sum::<f64>());
    crate::sorting::by_key(&mut v, |&x| (!crate::sorting::float(x), 0));
    v
}

/// lrand48(): the top 31 bits of the next state.
fn lrand48(rng: &mut Drand48) -> usize {
    (rng.next_f64() * (1u64 << 31) as f64) as usize
}

/// Each head time rank's popularity rank (1-based), for `n` head bins.
fn popularity(n: usize, rng: &mut Drand48) -> Vec<usize> {
    // A rank is due at the last time rank whose row names it.
    let mut due = [usize::MAX; TOP + 1];
    for (ttr, row) in TIMRNK_TO_POPRNK.iter().enumerate() {
        for &p in row {
            due[p] = ttr;
        }
    }
    let mut chosen = [false; TOP + 1];
    let mut pool: Vec<usize> = Vec::new();
    let mut out = Vec::with_capacity(n);
    for (ttr, row) in TIMRNK_TO_POPRNK.iter().enumerate().take(n) {
        pool.extend(row.iter().copied().filter(|&p| p <= n && !chosen[p]));
        let pick = if ttr == 0 {
            1
        } else if let Some(p) = (1..=n).find(|&p| due[p] <= ttr && !chosen[p]) {
            p
        } else if pool.is_empty() {
            (1..=n).find(|&p| !chosen[p]).unwrap_or(1)
        } else {
            // The smaller of two drawn: smaller ranks (more popular) are favoured.
            let a = pool[lrand48(rng) % pool.len()];
            let b = pool[lrand48(rng) % pool.len()];
            a.min(b)
        };
        chosen[pick] = true;
        pool.retain(|&p| p != pick);
        out.push(pick);
    }
    out
}

/// The tail's times for `n` bins, ascending, avoiding the head's.
fn tail_times(max_est: u64, n: usize, a: f64, head: &[u64]) -> Vec<u64> {
    let mut out: Vec<u64> = Vec::with_capacity(n);
    for i in 1..=n {
        let x = i as f64 / n as f64;
        let y = (a - 1.0) * x / (a - x);
        let sec = ((y * max_est as f64 / 60.0).round() * 60.0) as i64;
        let free = [0i64, 30, -30, 20, -20, 10, -10]
            .iter()
            .map(|o| sec + o)
            .find(|&s| s > 0 && (s as u64) < max_est && !out.contains(&(s as u64)) && !head.contains(&(s as u64)));
        if let Some(s) = free {
            out.push(s as u64);
        }
    }
    out.sort_unstable();
    out
}

/// The model's histogram for `jobs` jobs with maximal estimate `max_est` seconds (at least an
/// hour): (estimate, jobs) by estimate, the counts summing to `jobs`.
pub fn histogram(jobs: usize, max_est: u64, rng: &mut Drand48) -> Vec<(u64, usize)> {
    let max_est = max_est.max(HOUR);
    let bins = bin_count(jobs);
    let a = 1.0 + 12.1039 * (bins as f64).powf(-0.6026);
    let head = head_times(max_est);
    let shares = head_shares(head.len());
    let ranks = popularity(head.len(), rng);
    let mut share: Vec<(u64, f64)> = head.iter().zip(&ranks).map(|(&t, &r)| (t, shares[r - 1])).collect();
    let tail = tail_times(max_est, bins.saturating_sub(head.len()), a, &head);
    let mut tail_shares: Vec<f64> = (0..tail.len()).map(|i| TAIL.0 * ((TOP + 1 + i) as f64).powf(TAIL.1)).collect();
    let sum: f64 = tail_shares.iter().sum();
    tail_shares.iter_mut().for_each(|s| *s *= (100.0 - HEAD_SUM) / sum);
    // Matched at random: a shuffle of the shares against the times.
    for i in (1..tail_shares.len()).rev() {
        tail_shares.swap(i, lrand48(rng) % (i + 1));
    }
    share.extend(tail.iter().copied().zip(tail_shares));
    crate::sorting::by_key(&mut share, |s| (crate::sorting::unsigned(s.0), 0));
    let mut counts: Vec<(u64, usize)> =
        share.iter().map(|&(t, p)| (t, ((p * jobs as f64 / 100.0).round() as usize).max(1))).collect();
    equalize(&mut counts, jobs);
    counts
}

/// Brings the counts' sum to `jobs` as the reference does: in proportion to each count, then one
/// at a time, then down to one, then to none, the largest bins first.
fn equalize(counts: &mut [(u64, usize)], jobs: usize) {
    let total: usize = counts.iter().map(|c| c.1).sum();
    let mut diff = total.abs_diff(jobs);
    let adding = jobs > total;
    let f = diff as f64 / total.max(1) as f64;
    for attempt in 0..4 {
        if diff == 0 {
            break;
        }
        let mut order: Vec<usize> = (0..counts.len()).collect();
        crate::sorting::by_key(&mut order, |&x| (!crate::sorting::unsigned(counts[x].1 as u64), 0));
        for i in order {
            let n = counts[i].1;
            if n == 0 {
                continue;
            }
            let mut adjust = match attempt {
                0 => (f * n as f64).ceil() as usize,
                1 => 1,
                2 => n - 1,
                _ => n,
            };
            if !adding {
                adjust = adjust.min(n);
                if adjust == n && attempt != 3 {
                    adjust -= 1;
                }
            }
            adjust = adjust.min(diff);
            counts[i].1 = if adding { n + adjust } else { n - adjust };
            diff -= adjust;
            if diff == 0 {
                break;
            }
        }
    }
}

/// Estimates for jobs of `runtimes` seconds from the model: each job, longest first, draws one
/// among the histogram's unused estimates that are at least its runtime. `max_est` is raised to
/// the longest runtime if below it (the reference would cut runtimes to it).
pub fn assign(runtimes: &[u64], max_est: u64, seed: u64) -> Vec<u64> {
    let max_est = max_est.max(runtimes.iter().copied().max().unwrap_or(0));
    let mut rng = Drand48::new(seed);
    let hist = histogram(runtimes.len(), max_est, &mut rng);
    let mut ests: Vec<u64> = hist.iter().flat_map(|&(t, n)| std::iter::repeat_n(t, n)).collect();
    crate::sorting::by_key(&mut ests, |&e| (!crate::sorting::unsigned(e), 0));
    let mut order: Vec<usize> = (0..runtimes.len()).collect();
    crate::sorting::by_key(&mut order, |&a| (!crate::sorting::unsigned(runtimes[a]), 0));
    let top = ests.first().copied().unwrap_or(max_est);
    let mut out = vec![0; runtimes.len()];
    let mut hi = 0;
    for (j, &job) in order.iter().enumerate() {
        let r = runtimes[job];
        while hi + 1 < ests.len() && r <= ests[hi + 1] {
            hi += 1;
        }
        if j >= ests.len() || ests[j] < r || hi < j {
            // More long jobs than long estimates: the maximum covers this one.
            out[job] = top;
            continue;
        }
        let k = j + lrand48(&mut rng) % (hi - j + 1);
        out[job] = ests[k];
        ests.swap(k, j);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_grow_with_jobs_as_the_reference_interpolates() {
        assert_eq!(bin_count(20), 10);
        assert_eq!(bin_count(110), 15);
        assert_eq!(bin_count(10_000), 90);
        assert_eq!(bin_count(40_000), 215);
        assert_eq!(bin_count(1_000_000), 565);
    }

    #[test]
    fn the_head_of_18_hours() {
        let h = head_times(18 * HOUR);
        // The maximum, then 14 joint values below 18 h and round multiples to make 20.
        assert_eq!(h.len(), TOP);
        assert_eq!(h[0], 18 * HOUR);
        assert!(h[1..].windows(2).all(|w| w[0] < w[1]));
        for e in EST_JOINT.iter().filter(|&&e| e < 18 * HOUR) {
            assert!(h.contains(e), "{e}");
        }
        // 10 h multiples counted down from 18 h: 10 h is there; then 5 h: 15 h.
        assert!(h.contains(&(15 * HOUR)) && h.contains(&(16 * HOUR)), "{h:?}");
        let s = head_shares(TOP);
        assert!((s.iter().sum::<f64>() - HEAD_SUM).abs() < 1e-9);
        assert!((s[0] - 21.7329).abs() < 1e-4, "{}", s[0]);
    }

    #[test]
    fn popularity_ranks_are_a_permutation_with_the_maximum_first() {
        let mut rng = Drand48::new(5);
        for _ in 0..50 {
            let p = popularity(TOP, &mut rng);
            assert_eq!(p[0], 1);
            let mut sorted = p.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (1..=TOP).collect::<Vec<_>>());
        }
    }
}
