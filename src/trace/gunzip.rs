//! A gzip decoder (RFC 1952, any number of members) fed in chunks of any size, handing what it
//! decodes to its sink as it goes: what was decoded before a fault is never held back.
//!
//! miniz_oxide inflates; the checksum is computed here from a table built on first use, so the
//! page's wasm carries no table.

use std::io::Write;
use std::sync::OnceLock;

use miniz_oxide::inflate::stream::{inflate, InflateState};
use miniz_oxide::{DataFormat, MZError, MZFlush, MZStatus};

/// Longest member header accepted (its file name and comment included).
const MAX_HEADER: usize = 1 << 16;

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
}

impl<W: Write> Gunzip<W> {
    /// A decoder writing to `sink`.
    pub(super) fn new(sink: W) -> Gunzip<W> {
        Gunzip {
            sink,
            state: InflateState::new_boxed(DataFormat::Raw),
            phase: Phase::Header,
            head: Vec::new(),
            out: vec![0; 1 << 15],
            crc: 0,
            size: 0,
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
                    let take = data.len().min(MAX_HEADER + 1 - self.head.len().min(MAX_HEADER));
                    self.head.extend_from_slice(&data[..take]);
                    data = &data[take..];
                    let Some(n) = header_len(&self.head)? else {
                        if self.head.len() > MAX_HEADER {
                            return Err("invalid gzip header: longer than 64 KiB".into());
                        }
                        continue;
                    };
                    let rest = self.head.split_off(n);
                    self.head.clear();
                    self.state.reset(DataFormat::Raw);
                    (self.crc, self.size) = (0, 0);
                    self.phase = Phase::Body;
                    self.write_all(&rest)?;
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
            let r = inflate(&mut self.state, input, &mut self.out, MZFlush::None);
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
                Ok(_) | Err(MZError::Buf) => return Ok(input),
                Err(_) => return Err("corrupt deflate stream".into()),
            }
        }
    }

    /// Ends the input: an error when it stopped inside a member.
    pub(super) fn try_finish(&mut self) -> Result<(), String> {
        match self.phase {
            Phase::Header if self.head.is_empty() => Ok(()),
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
        at += 2;
    }
    Ok((h.len() >= at).then_some(at))
}

/// The CRC-32 (IEEE) of `bytes` continuing from `crc`, eight bytes at a step.
fn crc32(crc: u32, bytes: &[u8]) -> u32 {
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
fn tables() -> &'static [[u32; 256]; 8] {
    static TABLES: OnceLock<Box<[[u32; 256]; 8]>> = OnceLock::new();
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

    fn gz(text: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(text).expect("in memory");
        e.finish().expect("in memory")
    }

    #[test]
    fn crc32_is_the_standard_one() {
        assert_eq!(crc32(0, b"123456789"), 0xcbf4_3926);
        let long: Vec<u8> = (0..1000u32).map(|i| (i * 7 % 251) as u8).collect();
        let mut h = flate2::Crc::new();
        h.update(&long);
        assert_eq!(crc32(crc32(0, &long[..333]), &long[333..]), h.sum());
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
}
