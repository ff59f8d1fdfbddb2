//! The window sampler of gym 0.21 (`gym.utils.seeding.np_random`): a legacy NumPy
//! `RandomState` (MT19937) seeded by `init_by_array` with the first 8 bytes of SHA-512 of the
//! seed's decimal text, and its `randint` (masked rejection sampling). Bit-exact, so a seed
//! gives the windows RLScheduler's environment gave.

use sha2::{Digest, Sha512};

const N: usize = 624;
const M: usize = 397;

/// MT19937 as NumPy's legacy `RandomState` runs it (32-bit outputs).
#[derive(Clone)]
pub struct Mt19937 {
    mt: [u32; N],
    pos: usize,
}

impl Mt19937 {
    /// Seeded with one 32-bit word (`init_genrand`).
    pub fn new(seed: u32) -> Mt19937 {
        let mut mt = [0u32; N];
        mt[0] = seed;
        for i in 1..N {
            mt[i] = 1_812_433_253u32.wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_add(i as u32);
        }
        Mt19937 { mt, pos: N }
    }

    /// Seeded with a list of words (`init_by_array`, NumPy's `RandomState.seed(list)`).
    pub fn by_array(key: &[u32]) -> Mt19937 {
        let mut g = Mt19937::new(19_650_218);
        let mt = &mut g.mt;
        let (mut i, mut j) = (1usize, 0usize);
        let len = key.len().max(1);
        for _ in 0..N.max(key.len()) {
            let k = key.get(j).copied().unwrap_or(0);
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(k)
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
            if j >= len {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
        g.pos = N;
        g
    }

    fn twist(&mut self) {
        const UPPER: u32 = 0x8000_0000;
        const LOWER: u32 = 0x7fff_ffff;
        for k in 0..N {
            let y = (self.mt[k] & UPPER) | (self.mt[(k + 1) % N] & LOWER);
            let mag = if y & 1 == 1 { 0x9908_b0df } else { 0 };
            self.mt[k] = self.mt[(k + M) % N] ^ (y >> 1) ^ mag;
        }
        self.pos = 0;
    }

    /// The next 32-bit output (`genrand_int32`).
    pub fn next_u32(&mut self) -> u32 {
        if self.pos >= N {
            self.twist();
        }
        let mut y = self.mt[self.pos];
        self.pos += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// NumPy's legacy `randint(low, high)` (high exclusive, `low < high`), masked rejection.
    pub fn randint(&mut self, low: i64, high: i64) -> i64 {
        let rng = (high - 1 - low) as u64;
        if rng == 0 {
            return low;
        }
        let mut mask = rng;
        for s in [1, 2, 4, 8, 16, 32] {
            mask |= mask >> s;
        }
        if rng <= 0xffff_ffff {
            if rng == 0xffff_ffff {
                return low + self.next_u32() as i64;
            }
            loop {
                let v = (self.next_u32() as u64) & mask;
                if v <= rng {
                    return low + v as i64;
                }
            }
        }
        loop {
            let hi = self.next_u32() as u64;
            let v = ((hi << 32) | self.next_u32() as u64) & mask;
            if v <= rng {
                return low.wrapping_add(v as i64);
            }
        }
    }
}

/// The words gym 0.21 seeds NumPy with for `seed`: SHA-512 of its decimal text, the first 8
/// bytes as two little-endian words, trailing zero words dropped (`[0]` if both are zero).
pub fn gym021_words(seed: u64) -> Vec<u32> {
    let digest = Sha512::digest(seed.to_string().as_bytes());
    let w0 = u32::from_le_bytes([digest[0], digest[1], digest[2], digest[3]]);
    let w1 = u32::from_le_bytes([digest[4], digest[5], digest[6], digest[7]]);
    match (w0, w1) {
        (0, 0) => vec![0],
        (w, 0) => vec![w],
        (a, b) => vec![a, b],
    }
}

/// gym 0.21's `seeding.np_random(seed)`: the generator RLScheduler draws window starts from.
pub fn gym021(seed: u64) -> Mt19937 {
    Mt19937::by_array(&gym021_words(seed))
}
