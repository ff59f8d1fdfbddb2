//! What each fuzz target asserts about one input, in one place: the targets in
//! `fuzz/fuzz_targets/` and the stable-Rust replay of the committed corpus and regressions
//! (`tests/fuzz_regressions.rs`) both include this file with `#[path]`, so a crash found by
//! the fuzzer fails `cargo test` with the same check once its input is committed.
//!
//! Every function panics on a broken property and returns quietly otherwise; inputs the
//! parser rejects are fine as long as it rejects them without panicking.

#![allow(dead_code)]

use schedlab::run::{configure, simulate_configured, Settings};
use schedlab::trace::{
    is_packed, parse, Loader, Overrun, ProcsField, RuntimeSource, Trace, TraceOptions, Wide, MAX_MACHINE,
};

/// Trace options chosen by the bits of the input's first byte (and its second byte for the
/// machine size), so the fuzzer varies them too.
pub fn options_from(data: &[u8]) -> TraceOptions {
    let b = data.first().copied().unwrap_or(0);
    TraceOptions {
        procs: if b & 1 != 0 { ProcsField::Allocated } else { ProcsField::Requested },
        keep_partial: b & 2 != 0,
        machine: (b & 4 != 0).then(|| 1 + data.get(1).copied().unwrap_or(0) as u32 * 3),
        load: if b & 8 != 0 { 1.7 } else { 1.0 },
        wide: if b & 16 != 0 { Wide::Drop } else { Wide::Clamp },
        overrun: if b & 32 != 0 { Overrun::Run } else { Overrun::Kill },
        runtime: match b >> 6 {
            0 | 1 => RuntimeSource::Estimate,
            2 => RuntimeSource::Exact,
            _ => RuntimeSource::X2,
        },
        ..TraceOptions::default()
    }
}

/// `swf_parse`: any bytes, with the default options and with options from the first byte,
/// parse without panicking, and a parsed trace agrees with its report.
pub fn swf_parse(data: &[u8]) {
    for opts in &[TraceOptions::default(), options_from(data)] {
        if let Ok(trace) = parse(data, opts) {
            trace_is_consistent(&trace, opts, !is_packed(data));
        }
    }
}

/// What a parsed trace promises: jobs in (submit, id) order that fit the machine, with
/// positive times, and a report that agrees with them. Read from text (`scanned`), its line
/// counts add up too; a packed trace carries the counts of the scan that made it, which
/// `parse` takes as they are.
pub fn trace_is_consistent(t: &Trace, opts: &TraceOptions, scanned: bool) {
    let r = &t.report;
    assert!(!t.jobs.is_empty(), "a parsed trace has jobs");
    assert!(t.machine >= 1 && t.machine <= MAX_MACHINE, "machine {}", t.machine);
    assert_eq!(r.machine_size, t.machine);
    if let Some(m) = opts.machine {
        assert_eq!(t.machine, m, "the machine option is the machine");
    }
    assert!(t.jobs.windows(2).all(|w| (w[0].submit, w[0].id) <= (w[1].submit, w[1].id)), "jobs out of order");
    for j in &t.jobs {
        assert!(j.procs >= 1 && j.procs <= t.machine, "job {} has {} processors on {}", j.id, j.procs, t.machine);
        assert!(j.submit >= 0 && j.runtime >= 1 && j.estimate >= 1, "job {}: {j:?}", j.id);
        if opts.overrun == Overrun::Kill {
            assert!(j.runtime <= j.estimate, "job {} runs past its estimate: {j:?}", j.id);
        }
        if r.estimates_exact {
            assert_eq!(j.estimate, j.runtime, "job {}: exact estimates", j.id);
        }
        let planned = match opts.runtime {
            RuntimeSource::Estimate => j.estimate,
            RuntimeSource::Exact => j.runtime,
            RuntimeSource::X2 => j.estimate.saturating_mul(2),
        };
        assert_eq!(j.sched_runtime, planned, "job {}: planned runtime", j.id);
    }
    assert_eq!(r.jobs_kept, t.jobs.len() as u64);
    assert_eq!(r.errors_total, r.dropped.get("malformed_line").copied().unwrap_or(0));
    assert!(r.altered_lines.keys().all(|k| r.altered.contains_key(k)), "altered lines: {r:?}");
    if scanned {
        assert!(r.errors.len() <= schedlab::trace::MAX_REPORTED_ERRORS);
        assert_eq!(r.stopped_at_line, None, "no limit, no stop");
        let dropped: u64 = r.dropped.values().sum();
        assert_eq!(r.job_lines, r.jobs_kept + dropped, "job lines = kept + dropped: {r:?}");
        assert_eq!(r.lines_read, r.header_lines + r.blank_lines + r.job_lines, "line counts: {r:?}");
        assert!(r.errors.len() as u64 <= r.errors_total);
        assert!(r.dropped.keys().eq(r.dropped_lines.keys()), "a first line for every drop reason: {r:?}");
    }
    let (first, last) = (t.jobs[0].submit, t.jobs[t.jobs.len() - 1].submit);
    assert_eq!((r.first_submit, r.last_submit, r.span_s), (first, last, last - first));
    if let Some(n) = r.altered.get("clamped_to_machine") {
        assert!(*n <= r.jobs_kept && opts.wide == Wide::Clamp);
    }
}

/// Up to this many jobs in a `simulate` input: one execution runs every policy, and must stay
/// in milliseconds.
pub const MAX_SIM_JOBS: usize = 40;

/// SWF text of a small trace decoded from bytes: the first byte sizes the machine (1 to 64),
/// then 6 bytes per job: arrival gap, runtime (2 bytes; up to 3 days so 72-hour limits bite),
/// width, estimate relative to the runtime (below and above it), and user and queue.
pub fn sim_trace(data: &[u8]) -> String {
    let machine = 1 + data.first().map_or(0, |b| b % 64) as i64;
    let mut s = format!("; MaxProcs: {machine}\n");
    let mut t = 0i64;
    for (i, c) in data.get(2..).unwrap_or(&[]).chunks_exact(6).take(MAX_SIM_JOBS).enumerate() {
        t += match c[0] {
            0..=63 => 0,
            g => (g as i64 - 63) * 37,
        };
        let r = u16::from_le_bytes([c[1], c[2]]) as i64;
        let runtime = if r & 0x8000 != 0 { (r & 0x7fff) * 8 } else { r } + 1;
        let procs = 1 + c[3] as i64 % machine;
        let estimate = if c[4] == 0 { runtime } else { runtime * c[4] as i64 / 64 + 1 };
        let (user, queue) = (c[5] & 7, c[5] >> 6);
        s.push_str(&format!(
            "{} {t} -1 {runtime} {procs} -1 -1 {procs} {estimate} -1 1 {user} 1 -1 {queue} -1 -1 -1\n",
            i + 1
        ));
    }
    s
}

/// Settings from the second byte of a `simulate` input: pass mode and trace runtime options.
pub fn sim_settings(data: &[u8]) -> Settings {
    let b = data.get(1).copied().unwrap_or(0);
    let mut keys: Vec<&str> = Vec::new();
    if b & 1 != 0 {
        keys.push("passes=event");
    }
    if b & 2 != 0 {
        keys.push("overrun=run");
    }
    match (b >> 2) & 3 {
        1 => keys.push("runtime=exact"),
        2 => keys.push("runtime=x2"),
        _ => {}
    }
    let mut s = Settings::parse(&keys).unwrap_or_else(|e| panic!("fixed settings {keys:?} parse: {e}"));
    s.engine.placements = true;
    s
}

/// `simulate`: the trace decoded from the bytes, run under every named policy with
/// placements, keeps every invariant of [`schedlab::check::schedule`].
pub fn simulate(data: &[u8]) {
    let settings = sim_settings(data);
    let text = sim_trace(data);
    let Ok(trace) = parse(text.as_bytes(), &settings.trace) else { return };
    trace_is_consistent(&trace, &settings.trace, true);
    for info in schedlab::policy::POLICIES {
        let cfg = configure(info.name, &settings).unwrap_or_else(|e| panic!("{}: {e}", info.name));
        let out = simulate_configured(&trace, &cfg[0], &settings.engine, &mut |_| {});
        if let Err(e) = schedlab::check::schedule(&trace, &out) {
            panic!("{} on\n{text}: {e}", info.name);
        }
    }
}

/// Chunk sizes for feeding `data` to the loader, drawn from a generator seeded with the bytes
/// themselves (and `salt`): empty chunks, single bytes, a few dozen, and now and then thousands.
pub fn chunk_sizes(data: &[u8], salt: u64, total: usize) -> Vec<usize> {
    // FNV-1a, then xorshift: any change to the input moves the cuts.
    let mut x = data.iter().fold(0xcbf2_9ce4_8422_2325u64 ^ salt, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
    let mut sizes = Vec::new();
    let mut left = total;
    while left > 0 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let n = match x % 16 {
            0..=2 => 0,
            3..=6 => 1,
            7 => 1 + (x >> 8) as usize % 4096,
            _ => 1 + (x >> 8) as usize % 64,
        };
        let n = n.min(left);
        sizes.push(n);
        left -= n;
    }
    sizes
}

/// `bytes` fed to a [`Loader`] in the chunks of [`chunk_sizes`], until it wants no more.
pub fn load_in_chunks(bytes: &[u8], salt: u64) -> Vec<u8> {
    let mut loader = Loader::new(None);
    let mut at = 0;
    for n in chunk_sizes(bytes, salt, bytes.len()) {
        if !loader.feed(&bytes[at..at + n]) {
            break;
        }
        at += n;
    }
    loader.finish()
}

/// The input gzipped at a level from its length, with flate2.
pub fn gzip(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let level = flate2::Compression::new(data.len() as u32 % 10);
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), level);
    if let Err(e) = enc.write_all(data) {
        panic!("gzip into memory: {e}");
    }
    enc.finish().unwrap_or_else(|e| panic!("gzip into memory: {e}"))
}

/// `swf_chunks`: the streaming loader, fed the input in chunks cut where the input says, packs
/// a trace that parses exactly as the whole input does (same jobs, same report, same error);
/// likewise for the input gzipped. Options come from the first byte, as for `swf_parse`.
pub fn swf_chunks(data: &[u8]) {
    let opts = options_from(data);
    let whole = parse(data, &opts);
    let packed = load_in_chunks(data, 1);
    assert!(is_packed(&packed), "the loader's output is a packed trace");
    // A packed trace given to the loader is refused (it wants the original file); parse reads it.
    let chunked = parse(&packed, &opts);
    if !is_packed(data) {
        assert_eq!(chunked, whole, "plain input in chunks");
    }
    let gz = gzip(data);
    let whole_gz = parse(&gz, &opts);
    assert_eq!(parse(&load_in_chunks(&gz, 2), &opts), whole_gz, "gzip input in chunks");
    // Text inside gzip reads as the text itself; other formats (a gzip in a gzip, an archive, a
    // packed trace) are recognised by their first bytes only at the outer level.
    let plain_text = !(data.starts_with(&[0x1f, 0x8b])
        || data.starts_with(b"PK\x03\x04")
        || data.starts_with(b"BZh")
        || data.starts_with(b"\xfd7zXZ\0")
        || data.starts_with(b"\x28\xb5\x2f\xfd")
        || is_packed(data));
    if plain_text {
        assert_eq!(whole_gz, whole, "gzip and plain text read alike");
    }
}
