//! Sorting for code that sorts once per run, figure or study, not inside the engine's loop.
//!
//! Every `sort_by_key` call site compiles the whole sort again for its element type and
//! closure: about 6 KB of the page's wasm each. Here every caller shares one compiled sort of
//! (key, key, position) triples; only the key extraction and a permutation are per caller.

/// Sorts `v` stably by `key`: the same order as `v.sort_by_key(key)`.
///
/// Keys are pairs of `i64`s; [`float`] and [`unsigned`] map other keys to `i64`s in their
/// order, and `!k` reverses it.
pub fn by_key<T>(v: &mut [T], mut key: impl FnMut(&T) -> (i64, i64)) {
    if v.len() < 2 {
        return;
    }
    let mut keyed: Vec<(i64, i64, usize)> = v
        .iter()
        .enumerate()
        .map(|(i, x)| {
            let (a, b) = key(x);
            (a, b, i)
        })
        .collect();
    let mut from = positions(&mut keyed);
    drop(keyed);
    permute(v, &mut from);
}

/// Sorts floats in `f64::total_cmp`'s order. Floats equal in that order are the same bits, so
/// a stable and an unstable sort give the same result.
#[inline(never)]
pub fn floats(v: &mut [f64]) {
    v.sort_unstable_by(f64::total_cmp);
}

/// The position each element of the sorted order comes from. Not generic, so compiled once.
#[inline(never)]
fn positions(keyed: &mut [(i64, i64, usize)]) -> Vec<usize> {
    // Positions are unique, so the unstable sort keeps equal keys in their order.
    keyed.sort_unstable();
    keyed.iter().map(|k| k.2).collect()
}

/// Moves `v[from[i]]` to `i` for every `i` by following the permutation's cycles; `from` is
/// used up (each position is marked done by pointing at itself).
fn permute<T>(v: &mut [T], from: &mut [usize]) {
    for start in 0..v.len() {
        let mut at = start;
        loop {
            let next = from[at];
            from[at] = at;
            if next == start || next == at {
                break;
            }
            v.swap(at, next);
            at = next;
        }
    }
}

/// `x`'s place in `f64::total_cmp`'s order, as an `i64` in the same order.
pub fn float(x: f64) -> i64 {
    let bits = x.to_bits() as i64;
    // As total_cmp does: negative floats' magnitude bits are flipped, so they order reversed.
    bits ^ (((bits >> 63) as u64) >> 1) as i64
}

/// `x` as an `i64` in the same order.
pub fn unsigned(x: u64) -> i64 {
    (x ^ (1 << 63)) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_key_is_sort_by_key() {
        let mut seed = 7u64;
        for n in [0usize, 1, 2, 3, 10, 100, 1000] {
            let v: Vec<(i64, u8)> = (0..n)
                .map(|_| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    (((seed >> 33) % 17) as i64 - 8, (seed >> 60) as u8)
                })
                .collect();
            let mut want = v.clone();
            want.sort_by_key(|x| std::cmp::Reverse(x.0));
            let mut got = v.clone();
            by_key(&mut got, |x| (!x.0, 0));
            assert_eq!(got, want);
            let mut want = v.clone();
            want.sort_by_key(|x| (x.1, x.0));
            let mut got = v;
            by_key(&mut got, |x| (x.1 as i64, x.0));
            assert_eq!(got, want);
        }
    }

    #[test]
    fn float_and_unsigned_keep_the_order() {
        let xs = [f64::NEG_INFINITY, -1e300, -1.0, -0.0, 0.0, 1e-300, 1.0, f64::INFINITY, f64::NAN];
        for a in xs {
            for b in xs {
                assert_eq!(float(a).cmp(&float(b)), a.total_cmp(&b), "{a} {b}");
            }
        }
        let us = [0u64, 1, 1 << 62, (1 << 63) - 1, 1 << 63, u64::MAX];
        for a in us {
            for b in us {
                assert_eq!(unsigned(a).cmp(&unsigned(b)), a.cmp(&b));
            }
        }
    }
}
