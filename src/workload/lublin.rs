//! The Lublin-Feitelson workload model (`lublin99`), as its reference program `m_lublin99.c`
//! draws it (../shared/models/lublin99.md): batch and interactive arrival streams with a daily
//! cycle, sizes from a two-stage uniform in log2 space with a preference for powers of two,
//! runtimes from a hyper-gamma in ln space whose mix depends on the size.
//!
//! Draws follow the reference's order from one `drand48` stream seeded as `srand48(seed)`, with
//! the same gamma sampler, so a seed's workload is the reference's up to the last bit of libm.
//! Arrival times are truncated to whole seconds at every step, as the reference prints them
//! (the daily cycle then lags the weights by about an hour on long samples: the spec's "printed"
//! profile). A target load is reached by stretching every inter-arrival gap by one factor in
//! the model's rush-hour time (e^g x c, after the cap test), which keeps the daily cycle on 24
//! hours and every draw as it is; the factor is found by iterating on the generated sample.

/// Which job types a workload has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobTypes {
    /// Batch and interactive streams with their own parameters (the reference's default).
    Both,
    /// The batch stream alone.
    Batch,
    /// The interactive stream alone.
    Interactive,
    /// One stream with the "whole sample" parameters (the reference's `INCLUDE_JOBS_TYPE 0`).
    Typeless,
}

/// The parameters of one job type (the reference's defaults, machine 128).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TypeParams {
    /// Probability of a serial job.
    pub serial: f64,
    /// Probability of a power-of-two parallel job (absolute, not conditional).
    pub pow2: f64,
    /// log2 of the smallest parallel size, the break point, and of the largest size.
    pub u_low: f64,
    /// The two-stage uniform's break point.
    pub u_med: f64,
    /// log2 of the largest size.
    pub u_hi: f64,
    /// Weight of [u_low, u_med].
    pub u_prob: f64,
    /// Runtime gamma 1 (shape, scale), in ln seconds.
    pub g1: (f64, f64),
    /// Runtime gamma 2 (shape, scale).
    pub g2: (f64, f64),
    /// Mixing probability of gamma 1: pa x size + pb.
    pub pa: f64,
    /// See `pa`.
    pub pb: f64,
    /// Inter-arrival gamma shape (AARR x ARAR) and scale, in ln seconds.
    pub arrival: (f64, f64),
    /// Daily-cycle gamma (shape, scale) over half-hour buckets.
    pub cycle: (f64, f64),
}

/// Batch jobs (type 1).
pub const BATCH: TypeParams = TypeParams {
    serial: 0.2927,
    pow2: 0.6686,
    u_low: 1.2,
    u_med: 5.0,
    u_hi: 7.0,
    u_prob: 0.875,
    g1: (6.57, 0.823),
    g2: (639.1, 0.0156),
    pa: -0.003,
    pb: 0.6986,
    arrival: (6.0415 * 1.0519, 0.8531),
    cycle: (6.1271, 5.2740),
};

/// Interactive jobs (type 0).
pub const INTERACTIVE: TypeParams = TypeParams {
    serial: 0.1541,
    pow2: 0.625,
    u_low: 1.0,
    u_med: 3.0,
    u_hi: 5.5,
    u_prob: 0.705,
    g1: (3.8351, 0.6605),
    g2: (7.073, 0.6856),
    pa: -0.0118,
    pb: 0.9156,
    arrival: (6.5510 * 0.9797, 0.6621),
    cycle: (8.9186, 3.6680),
};

/// The whole sample's parameters, for typeless workloads.
pub const TYPELESS: TypeParams = TypeParams {
    serial: 0.244,
    pow2: 0.576,
    u_low: 0.8,
    u_med: 4.5,
    u_hi: 7.0,
    u_prob: 0.86,
    g1: (4.2, 0.94),
    g2: (312.0, 0.03),
    pa: -0.0054,
    pb: 0.78,
    arrival: (10.2303 * 1.0225, 0.4871),
    cycle: (8.1737, 3.9631),
};

/// ln of the longest runtime: runtimes are below e^12 s (about two days).
const RUNTIME_LOG_CAP: f64 = 12.0;
/// ln of the longest rush-hour inter-arrival gap.
const ARRIVAL_LOG_CAP: f64 = 13.0;
/// Half-hour buckets of the daily cycle.
const BUCKETS: usize = 48;
const BUCKET_S: f64 = 1800.0;
/// The model's day starts at bucket 11 of the cycle gamma (05:00 of the clock).
const CYCLE_START: usize = 11;

/// glibc's `drand48`: the 48-bit linear congruential generator the reference draws from.
#[derive(Debug, Clone)]
pub struct Drand48 {
    x: u64,
}

impl Drand48 {
    /// `srand48(seed)`.
    pub fn new(seed: u64) -> Self {
        Drand48 { x: ((seed & 0xffff_ffff) << 16) | 0x330e }
    }

    /// The next uniform in [0, 1).
    pub fn next_f64(&mut self) -> f64 {
        self.x = (0x5_deec_e66d_u64.wrapping_mul(self.x).wrapping_add(0xb)) & ((1 << 48) - 1);
        self.x as f64 / (1u64 << 48) as f64
    }

    /// A Gamma(shape, scale) draw as the reference makes it: floor(shape) exponentials, then
    /// Johnk's beta for the fractional part times one more exponential.
    fn gamma(&mut self, shape: f64, scale: f64) -> f64 {
        let whole = shape.floor();
        let frac = shape - whole;
        // The sum of -ln U over the whole part, as -ln of products of 16 uniforms at a time:
        // the same draws, a sixteenth of the logarithms (batch runtimes' second gamma has shape
        // 639), equal to the sum of logarithms but for the last bits.
        let (mut sum, mut product) = (0.0, 1.0);
        for k in 1..=whole as u64 {
            product *= self.next_f64();
            if k % 16 == 0 {
                sum -= product.ln();
                product = 1.0;
            }
        }
        sum -= product.ln();
        if frac > 0.0 {
            let (x, y) = loop {
                let x = self.next_f64().powf(1.0 / frac);
                let y = self.next_f64().powf(1.0 / (1.0 - frac));
                if x + y <= 1.0 {
                    break (x, y);
                }
            };
            sum -= x / (x + y) * self.next_f64().ln();
        }
        scale * sum
    }
}

/// ln Gamma(x) for x > 0 (Lanczos, g = 7, n = 9: about 15 digits).
fn ln_gamma(x: f64) -> f64 {
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let t = x + 7.5;
    let series: f64 = C[0] + (1..9).map(|i| C[i] / (x + i as f64)).sum::<f64>();
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + series.ln()
}

/// The Gamma(shape, scale) CDF at `x` (the regularised lower incomplete gamma), by its series
/// below shape + 1 and its continued fraction above, to a relative 1e-10 in at most 1,000
/// terms, as the reference computes it.
fn gamma_cdf(x: f64, shape: f64, scale: f64) -> f64 {
    let x = x / scale;
    if x <= 0.0 {
        return 0.0;
    }
    let lead = shape * x.ln() - x - ln_gamma(shape);
    if x < shape + 1.0 {
        let (mut a, mut term, mut sum) = (shape, 1.0 / shape, 1.0 / shape);
        for _ in 0..1000 {
            a += 1.0;
            term *= x / a;
            sum += term;
            if term.abs() < sum.abs() * 1e-10 {
                break;
            }
        }
        sum * lead.exp()
    } else {
        // Lentz's method for the continued fraction of the upper tail.
        let tiny = 1e-300;
        let mut b = x + 1.0 - shape;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..=1000 {
            let an = -(i as f64) * (i as f64 - shape);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let del = d * c;
            h *= del;
            if (del - 1.0).abs() < 1e-10 {
                break;
            }
        }
        1.0 - lead.exp() * h
    }
}

/// The daily cycle's 48 half-hour weights of a type, averaging exactly 1.
pub fn daily_weights(p: &TypeParams) -> [f64; BUCKETS] {
    let mut w = [0.0; BUCKETS];
    let (a, b) = p.cycle;
    for i in CYCLE_START..CYCLE_START + BUCKETS {
        let x = i as f64;
        w[(i - 1) % BUCKETS] = gamma_cdf(x + 0.5, a, b) - gamma_cdf(x - 0.5, a, b);
    }
    let mean = w.iter().sum::<f64>() / BUCKETS as f64;
    w.map(|v| v / mean)
}

/// One arrival stream's clock: its pending arrival and its place in the daily cycle.
#[derive(Debug, Clone)]
struct Clock {
    weights: [f64; BUCKETS],
    /// The pending arrival, whole seconds.
    next: u64,
    bucket: usize,
    /// Rush-hour points spent in the current bucket.
    points: f64,
    /// Fraction of the current bucket elapsed.
    elapsed: f64,
}

impl Clock {
    fn new(weights: [f64; BUCKETS]) -> Self {
        Clock { weights, next: 0, bucket: 0, points: 0.0, elapsed: 0.0 }
    }

    /// Moves the pending arrival on by `gap` seconds of rush-hour time, spent at the rate of
    /// the daily cycle, and truncates it to whole seconds as the reference does.
    fn step(&mut self, gap: f64) {
        self.points += gap / BUCKET_S;
        let mut whole = 0.0;
        while self.points > self.weights[self.bucket] {
            self.points -= self.weights[self.bucket];
            self.bucket = (self.bucket + 1) % BUCKETS;
            whole += 1.0;
        }
        let elapsed = self.points / self.weights[self.bucket];
        let step = whole * BUCKET_S + BUCKET_S * (elapsed - self.elapsed);
        self.elapsed = elapsed;
        self.next = (self.next as f64 + step) as u64;
    }
}

/// A rush-hour inter-arrival gap, seconds: e^g with g ~ Gamma drawn again while above 13.
fn draw_gap(rng: &mut Drand48, p: &TypeParams) -> f64 {
    let (shape, scale) = p.arrival;
    loop {
        let g = rng.gamma(shape, scale);
        if g <= ARRIVAL_LOG_CAP {
            return g.exp();
        }
    }
}

/// One generated job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModelJob {
    /// Submit time, seconds.
    pub submit: u64,
    /// Runtime, seconds (at least 1).
    pub runtime: u64,
    /// Processors.
    pub size: u32,
    /// 1 for batch, 0 for interactive (and typeless).
    pub batch: bool,
}

/// A model's draws, before their arrival times: each stream's jobs and rush-hour gaps, so that
/// the same jobs can be timed with every gap stretched by any factor ([`Sample::timed`]).
#[derive(Debug, Clone)]
pub struct Sample {
    /// Per stream (batch, interactive): its jobs' sizes and runtimes, in its order.
    jobs: [Vec<(u32, u64)>; 2],
    /// Per stream: the rush-hour gap before each of its jobs (the first from time 0).
    gaps: [Vec<f64>; 2],
    weights: [[f64; BUCKETS]; 2],
    /// Whether stream 0's jobs are batch jobs (not in typeless workloads).
    labelled: bool,
    /// Which streams make jobs.
    on: [bool; 2],
}

/// Draws `n` jobs of `types` for a machine of 2^`log2_machine` processors (UMed and UHi of
/// every type shifted by log2_machine - 7, the reference samples' convention), in the
/// reference's order of draws. Below 32 processors a shifted break point would fall under the
/// smallest parallel size (ULow) and the two-stage uniform would run backwards, drawing sizes
/// below one; the break points are held at ULow there, so small machines get small parallel
/// jobs.
pub fn sample(seed: u64, n: usize, types: JobTypes, log2_machine: f64) -> Sample {
    let shift = |p: TypeParams| {
        let u_med = (p.u_med + log2_machine - 7.0).max(p.u_low);
        TypeParams { u_med, u_hi: (p.u_hi + log2_machine - 7.0).max(u_med), ..p }
    };
    let params = match types {
        JobTypes::Typeless => [shift(TYPELESS), shift(TYPELESS)],
        _ => [shift(BATCH), shift(INTERACTIVE)],
    };
    let weights = [daily_weights(&params[0]), daily_weights(&params[1])];
    let mut rng = Drand48::new(seed);
    let mut clocks = [Clock::new(weights[0]), Clock::new(weights[1])];
    let mut gaps: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    // Both first arrivals are drawn whatever the types, as in the reference.
    for s in 0..2 {
        let g = draw_gap(&mut rng, &params[s]);
        clocks[s].step(g);
        gaps[s].push(g);
    }
    let on = match types {
        JobTypes::Both => [true, true],
        JobTypes::Batch => [true, false],
        JobTypes::Interactive | JobTypes::Typeless => [false, true],
    };
    let mut jobs: [Vec<(u32, u64)>; 2] = [Vec::new(), Vec::new()];
    for _ in 0..n {
        // Ties go to the interactive stream, as in the reference.
        let s = if on[0] && (!on[1] || clocks[0].next < clocks[1].next) { 0 } else { 1 };
        let g = draw_gap(&mut rng, &params[s]);
        clocks[s].step(g);
        gaps[s].push(g);
        let size = draw_size(&mut rng, &params[s]);
        let runtime = draw_runtime(&mut rng, &params[s], size);
        jobs[s].push((size, runtime));
    }
    Sample { jobs, gaps, weights, labelled: types != JobTypes::Typeless, on }
}

impl Sample {
    /// The jobs with every rush-hour gap stretched by `stretch`, in submission order (ties:
    /// interactive first, then each stream's order). At 1 they are the reference's jobs.
    pub fn timed(&self, stretch: f64) -> Vec<ModelJob> {
        self.timed_until(stretch, u64::MAX).0
    }

    /// The jobs of [`Sample::timed`] submitted before `horizon` seconds, and whether they are
    /// all the model's jobs before it: every stream that makes jobs has its next arrival (the
    /// one after its last job here) at or past the horizon.
    pub fn timed_until(&self, stretch: f64, horizon: u64) -> (Vec<ModelJob>, bool) {
        let mut out = Vec::with_capacity(self.jobs[0].len() + self.jobs[1].len());
        let mut covered = true;
        for s in 0..2 {
            let mut clock = Clock::new(self.weights[s]);
            let mut past = false;
            for (k, &(size, runtime)) in self.jobs[s].iter().enumerate() {
                clock.step(self.gaps[s][k] * stretch);
                if clock.next >= horizon {
                    past = true;
                    break;
                }
                out.push(ModelJob { submit: clock.next, runtime, size, batch: s == 0 && self.labelled });
            }
            if self.on[s] && !past {
                clock.step(self.gaps[s][self.jobs[s].len()] * stretch);
                covered &= clock.next >= horizon;
            }
        }
        // A stable sort on (submit, interactive first) keeps each stream's own order.
        crate::sorting::by_key(&mut out, |j| (crate::sorting::unsigned(j.submit), j.batch as i64));
        (out, covered)
    }
}

/// [`sample`] timed with `stretch` ([`Sample::timed`]).
pub fn draw(seed: u64, n: usize, types: JobTypes, log2_machine: f64, stretch: f64) -> Vec<ModelJob> {
    sample(seed, n, types, log2_machine).timed(stretch)
}

/// A job's size: serial, a power of two, or 2^v rounded, one uniform deciding which.
fn draw_size(rng: &mut Drand48, p: &TypeParams) -> u32 {
    let u = rng.next_f64();
    if u <= p.serial {
        return 1;
    }
    let w = rng.next_f64();
    let x = rng.next_f64();
    let v = if w <= p.u_prob { p.u_low + (p.u_med - p.u_low) * x } else { p.u_med + (p.u_hi - p.u_med) * x };
    if u <= p.serial + p.pow2 {
        2f64.powf((v + 0.5).floor()) as u32
    } else {
        (2f64.powf(v) + 0.5).floor() as u32
    }
}

/// A job's runtime: ln runtime from the two-gamma mix (gamma 1 with probability pa x size +
/// pb), the whole mix drawn again until it is at most 12.
fn draw_runtime(rng: &mut Drand48, p: &TypeParams, size: u32) -> u64 {
    let mix = (p.pa * size as f64 + p.pb).clamp(0.0, 1.0);
    let h = loop {
        let (shape, scale) = if rng.next_f64() <= mix { p.g1 } else { p.g2 };
        let h = rng.gamma(shape, scale);
        if h <= RUNTIME_LOG_CAP {
            break h;
        }
    };
    (h.exp().floor() as u64).max(1)
}

/// Offered load of `jobs` on `machine` processors: their work over the span of their submits
/// times the machine.
pub fn offered_load(jobs: &[ModelJob], machine: u32) -> f64 {
    let (Some(first), Some(last)) = (jobs.first(), jobs.last()) else { return 0.0 };
    let span = (last.submit - first.submit).max(1) as f64;
    let work: f64 = jobs.iter().map(|j| j.runtime as f64 * j.size as f64).sum();
    work / (span * machine as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drand48_is_glibcs() {
        // srand48(0): the first values glibc gives.
        let mut r = Drand48::new(0);
        let first = r.next_f64();
        assert!((first - 0.170_828_036_106_290_4).abs() < 1e-15, "{first}");
    }

    #[test]
    fn ln_gamma_is_exact_enough() {
        for (x, want) in [(1.0, 0.0), (2.0, 0.0), (5.0, 24f64.ln()), (0.5, std::f64::consts::PI.sqrt().ln())] {
            assert!((ln_gamma(x) - want).abs() < 1e-13, "{x}");
        }
    }
}
