//! A gzip decoder (RFC 1952, any number of members) fed in chunks of any size, handing what it
//! decodes to its sink as it goes: what was decoded before a fault is never held back.
//!
//! miniz_oxide inflates. The checksum is crc32fast's natively (SIMD where the processor has
//! it); in wasm it is computed here from a table built on first use, so the page's wasm carries
//! no table (crc32fast's would be 16 KB of its data).

use std::io::Write;

use miniz_oxide::inflate::core::TINFL_LZ_DICT_SIZE;
use miniz_oxide::inflate::stream::{inflate, InflateState};
use miniz_oxide::{DataFormat, MZError, MZFlush, MZStatus};

/// Longest member header accepted: the largest extra field RFC 1952 allows (which flate2 read
/// too), and 64 KiB more for the file name and comment.
const MAX_HEADER: usize = 12 + 0xffff + (1 << 16);

/// Where in a member the next byte belongs.
enum Phase {
    /// The member header, gathered until whole (`head`).
    Header,
    /// The deflate data.
    Body,
    /// The CRC-32 and size that end the member, gathered in `head`.
    Trailer,
}

/// Decodes gzip bytes into `sink`.
pub(super) struct Gunzip<W: Write> {
    sink: W,
    state: Box<InflateState>,
    phase: Phase,
    head: Vec<u8>,
    out: Vec<u8>,
    crc: u32,
    size: u32,
    /// A member header was read: input with none is no gzip stream (flate2 refused it too).
    begun: bool,
}

impl<W: Write> Gunzip<W> {
    /// A decoder writing to `sink`.
    pub(super) fn new(sink: W) -> Gunzip<W> {
        Gunzip {
            sink,
            state: InflateState::new_boxed(DataFormat::Raw),
            phase: Phase::Header,
            head: Vec::new(),
            // The size of miniz's window: `inflate` relies on it.
            out: vec![0; TINFL_LZ_DICT_SIZE],
            crc: 0,
            size: 0,
            begun: false,
        }
    }

    /// The sink.
    pub(super) fn get_ref(&self) -> &W {
        &self.sink
    }

    /// The sink, to change.
    pub(super) fn get_mut(&mut self) -> &mut W {
        &mut self.sink
    }

    /// Decodes `data`, writing what it decodes to the sink; an error says why the stream is bad.
    pub(super) fn write_all(&mut self, mut data: &[u8]) -> Result<(), String> {
        while !data.is_empty() {
            match self.phase {
                Phase::Header => {
                    let had = self.head.len();
                    let take = data.len().min(MAX_HEADER + 1 - had);
                    // A header that lies whole in `data` is read where it lies: gathering up to
                    // MAX_HEADER bytes ahead for every member (and handing the rest back) would
                    // cost that much for each of many small members.
                    if had > 0 {
                        self.head.extend_from_slice(&data[..take]);
                    }
                    let Some(n) = header_len(if had > 0 { &self.head } else { &data[..take] })? else {
                        if had + take > MAX_HEADER {
                            return Err(format!("invalid gzip header: longer than {MAX_HEADER} bytes"));
                        }
                        if had == 0 {
                            self.head.extend_from_slice(&data[..take]);
                        }
                        data = &data[take..];
                        continue;
                    };
                    // `had` bytes were no whole header, so the header ends inside `data`.
                    data = &data[n - had..];
                    self.head.clear();
                    self.state.reset(DataFormat::Raw);
                    (self.crc, self.size) = (0, 0);
                    self.begun = true;
                    self.phase = Phase::Body;
                }
                Phase::Body => data = self.inflate(data)?,
                Phase::Trailer => {
                    let take = data.len().min(8 - self.head.len());
                    self.head.extend_from_slice(&data[..take]);
                    data = &data[take..];
                    if self.head.len() == 8 {
                        let word = |i: usize| u32::from_le_bytes([0, 1, 2, 3].map(|k| self.head[i + k]));
                        if word(0) != self.crc || word(4) != self.size {
                            return Err("corrupt gzip stream does not have a matching checksum".into());
                        }
                        self.head.clear();
                        self.phase = Phase::Header;
                    }
                }
            }
        }
        Ok(())
    }

    /// Inflates `input` until it is used up or the member's deflate data ends; returns the
    /// bytes after that end.
    fn inflate<'a>(&mut self, mut input: &'a [u8]) -> Result<&'a [u8], String> {
        loop {
            // Room only up to the end of miniz's window, so all one decoding step writes there
            // is handed out at once: bytes left waiting in miniz are lost when the data then
            // turns out corrupt, and what reached the sink before a fault would depend on how
            // the input was chunked. miniz's read position in its window is `size` bytes on
            // (2^32 is a multiple of the window), and `inflate` takes no second step once the
            // room is full.
            let room = TINFL_LZ_DICT_SIZE - self.size as usize % TINFL_LZ_DICT_SIZE;
            let r = inflate(&mut self.state, input, &mut self.out[..room], MZFlush::None);
            input = &input[r.bytes_consumed..];
            let written = &self.out[..r.bytes_written];
            self.crc = crc32(self.crc, written);
            self.size = self.size.wrapping_add(written.len() as u32);
            self.sink.write_all(written).map_err(|e| e.to_string())?;
            match r.status {
                Ok(MZStatus::StreamEnd) => {
                    self.phase = Phase::Trailer;
                    return Ok(input);
                }
                Ok(_) if r.bytes_consumed > 0 || r.bytes_written > 0 => {}
                Ok(_) | Err(MZError::Buf) if input.is_empty() => return Ok(input),
                // Input left with no progress would have `write_all` call again forever.
                Ok(_) | Err(MZError::Buf) => return Err("the deflate stream stalled".into()),
                Err(_) => return Err("corrupt deflate stream".into()),
            }
        }
    }

    /// Ends the input: an error when it stopped inside a member, or held none.
    pub(super) fn try_finish(&mut self) -> Result<(), String> {
        match self.phase {
            Phase::Header if self.head.is_empty() && self.begun => Ok(()),
            _ => Err("unexpected end of file".into()),
        }
    }
}

/// The length of the gzip member header at the start of `h`; `None` while it is incomplete.
fn header_len(h: &[u8]) -> Result<Option<usize>, String> {
    const FHCRC: u8 = 2;
    const FEXTRA: u8 = 4;
    const FNAME: u8 = 8;
    const FCOMMENT: u8 = 16;
    let bad = |why: &str| Err(format!("invalid gzip header: {why}"));
    if h.len() >= 2 && h[..2] != [0x1f, 0x8b] {
        return bad("not a gzip member");
    }
    if h.len() >= 3 && h[2] != 8 {
        return bad("not deflate");
    }
    if h.len() < 10 {
        return Ok(None);
    }
    let flags = h[3];
    if flags & 0xe0 != 0 {
        return bad("reserved flags set");
    }
    let mut at = 10;
    if flags & FEXTRA != 0 {
        let Some(&[a, b]) = h.get(at..at + 2) else { return Ok(None) };
        at += 2 + u16::from_le_bytes([a, b]) as usize;
    }
    for flag in [FNAME, FCOMMENT] {
        if flags & flag != 0 {
            let Some(end) = h.get(at..).and_then(|r| r.iter().position(|&b| b == 0)) else { return Ok(None) };
            at += end + 1;
        }
    }
    if flags & FHCRC != 0 {
        // Checked as flate2 did: the low half of the CRC-32 of the header before it.
        let Some(&[a, b]) = h.get(at..at + 2) else { return Ok(None) };
        if u16::from_le_bytes([a, b]) != crc32(0, &h[..at]) as u16 {
            return bad("header checksum mismatch");
        }
        at += 2;
    }
    Ok((h.len() >= at).then_some(at))
}

/// The CRC-32 (IEEE) of `bytes` continuing from `crc`.
#[cfg(not(target_arch = "wasm32"))]
fn crc32(crc: u32, bytes: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new_with_initial(crc);
    h.update(bytes);
    h.finalize()
}

/// The CRC-32 (IEEE) of `bytes` continuing from `crc`.
#[cfg(target_arch = "wasm32")]
fn crc32(crc: u32, bytes: &[u8]) -> u32 {
    crc32_sliced(crc, bytes)
}

/// The CRC-32 (IEEE) of `bytes` continuing from `crc`, eight bytes at a step.
#[cfg(any(test, target_arch = "wasm32"))]
fn crc32_sliced(crc: u32, bytes: &[u8]) -> u32 {
    let t = tables();
    let mut c = !crc;
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        let lo = c ^ u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
        c = t[7][(lo & 0xff) as usize]
            ^ t[6][((lo >> 8) & 0xff) as usize]
            ^ t[5][((lo >> 16) & 0xff) as usize]
            ^ t[4][(lo >> 24) as usize]
            ^ t[3][w[4] as usize]
            ^ t[2][w[5] as usize]
            ^ t[1][w[6] as usize]
            ^ t[0][w[7] as usize];
    }
    for &b in words.remainder() {
        c = t[0][((c ^ b as u32) & 0xff) as usize] ^ (c >> 8);
    }
    !c
}

/// The slice-by-8 tables, built once (8 KiB the wasm need not carry).
#[cfg(any(test, target_arch = "wasm32"))]
fn tables() -> &'static [[u32; 256]; 8] {
    static TABLES: std::sync::OnceLock<Box<[[u32; 256]; 8]>> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| {
        let mut t = Box::new([[0u32; 256]; 8]);
        for i in 0..256 {
            let mut c = i as u32;
            for _ in 0..8 {
                c = if c & 1 != 0 { 0xedb8_8320 ^ (c >> 1) } else { c >> 1 };
            }
            t[0][i] = c;
        }
        for i in 0..256 {
            for k in 1..8 {
                t[k][i] = (t[k - 1][i] >> 8) ^ t[0][(t[k - 1][i] & 0xff) as usize];
            }
        }
        t
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn gz(text: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(text).expect("in memory");
        e.finish().expect("in memory")
    }

    #[test]
    fn crc32_is_the_standard_one() {
        assert_eq!(crc32(0, b"123456789"), 0xcbf4_3926);
        assert_eq!(crc32_sliced(0, b"123456789"), 0xcbf4_3926);
        let long: Vec<u8> = (0..1000u32).map(|i| (i * 7 % 251) as u8).collect();
        let mut h = flate2::Crc::new();
        h.update(&long);
        assert_eq!(crc32(crc32(0, &long[..333]), &long[333..]), h.sum());
        assert_eq!(crc32_sliced(crc32_sliced(0, &long[..333]), &long[333..]), h.sum());
    }

    #[test]
    fn members_in_any_chunks() {
        let text: Vec<u8> = (0..20_000).flat_map(|i| format!("{i} 0 1 2\n").into_bytes()).collect();
        let mut two = gz(&text[..50_000]);
        two.extend(gz(&text[50_000..]));
        for size in [1, 7, 4096, two.len()] {
            let mut g = Gunzip::new(Vec::new());
            for c in two.chunks(size) {
                g.write_all(c).expect("decodes");
            }
            g.try_finish().expect("ends whole");
            assert_eq!(g.get_ref(), &text, "chunks of {size}");
        }
    }

    #[test]
    fn faults_keep_what_came_before() {
        let text: Vec<u8> = (0..20_000).flat_map(|i| format!("{i}\n").into_bytes()).collect();
        let whole = gz(&text);
        let mut g = Gunzip::new(Vec::new());
        g.write_all(&whole[..whole.len() / 2]).expect("half decodes");
        assert!(g.try_finish().is_err(), "a truncated stream is an error");
        assert!(!g.get_ref().is_empty() && text.starts_with(g.get_ref()));
        let mut bad = whole.clone();
        let n = bad.len();
        bad[n - 6] ^= 1; // the size no longer matches
        assert!(Gunzip::new(Vec::new()).write_all(&bad).is_err());
        assert!(Gunzip::new(Vec::new()).write_all(b"\x1f\x8b\x09rest").is_err());
    }

    /// Feeds `gz` in chunks whose sizes cycle through `sizes` (a 0 is an empty write): what
    /// reached the sink, and whether the stream was sound and whole.
    fn decode(gz: &[u8], sizes: &[usize]) -> (Vec<u8>, bool) {
        assert!(sizes.iter().any(|&n| n > 0));
        let mut g = Gunzip::new(Vec::new());
        let mut rest = gz;
        for &n in sizes.iter().cycle() {
            let n = n.min(rest.len());
            if g.write_all(&rest[..n]).is_err() {
                return (std::mem::take(g.get_mut()), false);
            }
            rest = &rest[n..];
            if rest.is_empty() {
                break;
            }
        }
        let whole = g.try_finish().is_ok();
        (std::mem::take(g.get_mut()), whole)
    }

    /// What flate2's `MultiGzDecoder` reads of `gz`, and whether it read it without error.
    fn reference(gz: &[u8]) -> (Vec<u8>, bool) {
        let mut out = Vec::new();
        let ok = std::io::Read::read_to_end(&mut flate2::read::MultiGzDecoder::new(gz), &mut out).is_ok();
        (out, ok)
    }

    /// A pseudo-random generator (xorshift64*), so a case is known by its seed.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }

        /// `len` bytes, none of them NUL (flate2 writes file names and comments as C strings).
        fn name(&mut self, len: usize) -> Vec<u8> {
            (0..len).map(|_| 1 + self.below(255) as u8).collect()
        }
    }

    /// `len` bytes of text: SWF-like lines, random bytes (stored blocks) or long runs (a short
    /// input that writes more than miniz's window).
    fn text(rng: &mut Rng, len: usize, kind: u8) -> Vec<u8> {
        let mut t = Vec::with_capacity(len + 64);
        while t.len() < len {
            match kind {
                0 => t.extend(format!("{} {} 1 {}\n", t.len(), rng.below(5000), rng.below(64)).into_bytes()),
                1 => t.push(rng.next() as u8),
                _ => t.extend(std::iter::repeat_n(b'a' + rng.below(3) as u8, 1 + rng.below(3000))),
            }
        }
        t.truncate(len);
        t
    }

    /// `text` as one gzip member at `level`; `fields` sets the header's optional parts (1:
    /// extra field, 2: file name, 4: comment, 8: header checksum).
    fn member(rng: &mut Rng, text: &[u8], level: u32, fields: u8) -> Vec<u8> {
        let mut b = flate2::GzBuilder::new().mtime(rng.next() as u32).operating_system(3);
        let mut len = 10;
        if fields & 1 != 0 {
            let extra: Vec<u8> = (0..rng.below(40)).map(|_| rng.next() as u8).collect();
            len += 2 + extra.len();
            b = b.extra(extra);
        }
        if fields & 2 != 0 {
            let name = rng.name(rng.0 as usize % 30);
            len += name.len() + 1;
            b = b.filename(name);
        }
        if fields & 4 != 0 {
            let comment = rng.name(rng.0 as usize % 30);
            len += comment.len() + 1;
            b = b.comment(comment);
        }
        let mut e = b.write(Vec::new(), flate2::Compression::new(level));
        e.write_all(text).expect("in memory");
        let mut m = e.finish().expect("in memory");
        if fields & 8 != 0 {
            // flate2 writes no header checksum, but checks one.
            m[3] |= 2;
            let mut crc = flate2::Crc::new();
            crc.update(&m[..len]);
            m.splice(len..len, (crc.sum() as u16).to_le_bytes());
        }
        m
    }

    proptest! {
        // No regression file: a failing case prints its seed, and this file is all it touches.
        #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

        /// Gunzip reads what flate2 reads, in any chunks: whole streams, and corrupt or truncated
        /// ones up to the fault, where it hands over the same bytes however the input came.
        #[test]
        fn agrees_with_flate2(
            seed in 1u64..,
            len in prop_oneof![0usize..300, 0usize..120_000],
            kind in 0u8..3,
            bounds in prop::collection::vec(0.0f64..=1.0, 0..3),
            fields in prop::collection::vec(0u8..16, 3),
            levels in prop::collection::vec(0u32..10, 3),
            mut sizes in prop::collection::vec(prop_oneof![Just(0usize), Just(1), 1usize..40, 1usize..70_000], 0..6),
            size in 1usize..70_000,
            flips in prop::collection::vec((any::<prop::sample::Index>(), 1u8..=255), 1..4),
            cuts in prop::collection::vec(any::<prop::sample::Index>(), 1..4),
        ) {
            let mut rng = Rng(seed);
            let text = text(&mut rng, len, kind);
            let mut ends: Vec<usize> = bounds.iter().map(|f| (f * len as f64) as usize).collect();
            ends.sort_unstable();
            ends.push(len);
            let mut gz = Vec::new();
            let mut from = 0;
            for (k, &to) in ends.iter().enumerate() {
                gz.extend(member(&mut rng, &text[from..to], levels[k], fields[k]));
                from = to;
            }
            sizes.push(size);
            prop_assert_eq!(reference(&gz), (text.clone(), true));
            prop_assert!(decode(&gz, &sizes) == (text.clone(), true));

            let flipped = flips.iter().map(|(at, mask)| {
                let mut c = gz.clone();
                c[at.index(gz.len())] ^= mask;
                (c, false)
            });
            let truncated = cuts.iter().map(|at| (gz[..at.index(gz.len())].to_vec(), true));
            for (bad, is_truncated) in flipped.chain(truncated) {
                let (out, ok) = decode(&bad, &sizes);
                let (ref_out, ref_ok) = reference(&bad);
                prop_assert_eq!(ok, ref_ok, "flate2 read it {}", if ref_ok { "whole" } else { "with an error" });
                prop_assert!(out.starts_with(&ref_out), "flate2 read more before the fault");
                prop_assert!(decode(&bad, &[bad.len().max(1)]) == (out.clone(), ok), "depends on the chunks");
                // A flip can make another sound stream (a longer extra field swallowing the
                // first member), so only a cut stream must read as the text.
                prop_assert!(!ok || out == ref_out);
                prop_assert!(!is_truncated || text.starts_with(&out));
            }
        }
    }

    #[test]
    fn every_split_of_small_members() {
        let mut rng = Rng(7);
        let mut gz = member(&mut rng, b"1 0 5 60\n2 3 5 60\n", 6, 15);
        gz.extend(member(&mut rng, b"", 6, 0));
        gz.extend(member(&mut rng, b"3 9 1 1\n", 0, 2));
        let text = b"1 0 5 60\n2 3 5 60\n3 9 1 1\n";
        for i in 0..=gz.len() {
            for j in i..=gz.len() {
                let got = decode(&gz, &[i, j - i, gz.len()]);
                assert!(got == (text.to_vec(), true), "chunks end at {i} and {j}");
            }
        }
    }

    /// Regression: fed a header, then deflate data up to byte 187, then the rest, 1,078 of the
    /// 200,000 bytes decoded before the bad block never reached the sink (they waited in miniz's
    /// window when the fault came), so what was kept depended on the chunks.
    #[test]
    fn a_fault_keeps_all_decoded_in_any_chunks() {
        let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(&[b'a'; 200_000]).expect("in memory");
        e.flush().expect("in memory");
        let mut gz = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255];
        gz.extend(e.get_ref());
        gz.push(0b111); // a final block of the reserved type
        for cut in 10..gz.len() {
            let (out, ok) = decode(&gz, &[10, cut - 10, gz.len()]);
            assert!(!ok && out.len() == 200_000, "cut at {cut}: {} bytes", out.len());
        }
    }

    /// Regressions: a wrong header checksum was let through, input with no member at all was
    /// taken for a whole stream, and the largest extra field was refused; flate2 did otherwise.
    #[test]
    fn headers_as_flate2_reads_them() {
        let mut rng = Rng(3);
        let mut gz = member(&mut rng, b"1 0 5 60\n", 6, 15);
        assert!(decode(&gz, &[1]) == (b"1 0 5 60\n".to_vec(), true));
        gz[4] ^= 1; // the modification time, under the header checksum
        assert!(!reference(&gz).1);
        assert!(decode(&gz, &[5]) == (Vec::new(), false));

        assert!(!reference(b"").1);
        assert!(Gunzip::new(Vec::new()).try_finish().is_err());

        let mut e = flate2::GzBuilder::new()
            .extra(vec![7; 0xffff])
            .filename("x.swf")
            .write(Vec::new(), flate2::Compression::default());
        e.write_all(b"1 0 5 60\n").expect("in memory");
        let big = e.finish().expect("in memory");
        assert!(reference(&big).1);
        assert!(decode(&big, &[big.len()]) == (b"1 0 5 60\n".to_vec(), true));
        let mut g = Gunzip::new(Vec::new());
        let long = [&[0x1f, 0x8b, 8, 8][..], &[0; 6], &vec![b'x'; MAX_HEADER]].concat();
        assert!(g.write_all(&long).is_err(), "a file name with no end is refused, not gathered forever");
    }
}
