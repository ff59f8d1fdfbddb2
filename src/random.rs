//! Seeded randomness: every random choice of a run (priority classes, reservation requests)
//! comes from one seed in the run options.
//!
//! Each draw is a pure function of (seed, job index, stream), SplitMix64 of the three mixed
//! together. Two policies run with the same seed therefore give every job the same priority
//! and the same reservation request, whatever order they look at the jobs in, so the
//! multiple-queue policy and its single-queue baseline are compared on identical workloads.

/// The SplitMix64 finaliser: a bijective mix of 64 bits.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Independent draws per job: the same (seed, job, stream) always gives the same number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Draws {
    seed: u64,
}

/// What a draw decides; each has its own stream so that changing one fraction leaves the others alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    /// High or low priority.
    Priority = 1,
    /// Whether the job asks for an advance reservation.
    Reservation = 2,
    /// The reservation's lead time.
    Lead = 3,
    /// Memory per processor, for the suspension overhead (Kettimuthu et al. section 4.1).
    Memory = 4,
}

impl Draws {
    /// Draws from `seed`.
    pub fn new(seed: u64) -> Self {
        Draws { seed }
    }

    /// A uniform number in [0, 1) for job `job` and `stream`.
    pub fn unit(&self, job: u64, stream: Stream) -> f64 {
        let z = mix(mix(self.seed ^ 0x9e37_79b9_7f4a_7c15)
            ^ job.wrapping_mul(0x2545_f491_4f6c_dd1d)
            ^ (stream as u64) << 56);
        (z >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_are_uniform_and_reproducible() {
        let d = Draws::new(7);
        let n = 100_000;
        let below: usize = (0..n).filter(|&j| d.unit(j, Stream::Priority) < 0.75).count();
        assert!((below as f64 / n as f64 - 0.75).abs() < 0.01, "{below}");
        assert_eq!(d.unit(42, Stream::Lead), Draws::new(7).unit(42, Stream::Lead));
        assert_ne!(d.unit(42, Stream::Lead), d.unit(42, Stream::Reservation));
        assert_ne!(d.unit(42, Stream::Lead), Draws::new(8).unit(42, Stream::Lead));
        assert!((0..n).all(|j| (0.0..1.0).contains(&d.unit(j, Stream::Reservation))));
    }
}
