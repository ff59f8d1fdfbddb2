//! The streaming loader: chunked reading gives exactly the trace of whole-file parsing, the packed
//! form reads back under any option, and a limit or the user stops it with what was read kept.

mod common;

use std::io::Write;

use common::gunzip;

use schedlab::trace::{is_packed, parse, Loader, ProcsField, TraceOptions};

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(data).expect("gzip");
    enc.finish().expect("gzip")
}

/// Feeds `bytes` in chunks of `size` and returns the packed trace.
fn packed(bytes: &[u8], size: usize, max_jobs: Option<u64>) -> Vec<u8> {
    let mut l = Loader::new(max_jobs);
    for chunk in bytes.chunks(size.max(1)) {
        if !l.feed(chunk) {
            break;
        }
    }
    l.finish()
}

/// Every real trace, plain and gzip, in chunks of many sizes: the same trace as whole-file
/// parsing, under default options and others.
#[test]
fn chunked_loading_equals_whole_file_parsing() {
    let names = ["KTH-SP2-1996-2.1-cln.swf.gz", "SDSC-SP2-1998-4.2-cln.swf.gz", "Sandia-Ross-2001-1.1-cln.swf.gz"];
    let other = TraceOptions { procs: ProcsField::Allocated, keep_partial: true, load: 1.3, ..TraceOptions::default() };
    for name in names {
        let gz = common::read_shared(&format!("traces/{name}"));
        let plain = gunzip(&gz);
        for opts in [TraceOptions::default(), other.clone()] {
            let whole = parse(&plain, &opts).expect("real trace parses");
            assert_eq!(parse(&gz, &opts).expect("gzip parses"), whole, "{name}: gzip");
            for size in [1 << 20, 65_536, 4093, 61] {
                for (what, input) in [("plain", &plain), ("gzip", &gz)] {
                    let p = packed(input, size, None);
                    assert!(is_packed(&p));
                    let t = parse(&p, &opts).expect("packed parses");
                    assert_eq!(t, whole, "{name}: {what} in chunks of {size}");
                }
            }
        }
        // The packed form is small: about 20 bytes a job against 60-100 of SWF text.
        let p = packed(&plain, 1 << 20, None);
        let jobs = parse(&p, &TraceOptions::default()).expect("packed").report.job_lines;
        assert!((p.len() as f64) < 0.4 * plain.len() as f64, "{name}: {} packed bytes for {jobs} jobs", p.len());
    }
}

/// Line endings split across chunk boundaries (CRLF, lone CR, LF) read as one ending each.
#[test]
fn line_endings_across_chunks() {
    let lines = [
        "; MaxProcs: 8",
        "1 0 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 1 -1 -1",
        "2 5 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 1 -1 -1",
        "",
        "3 9 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 1 -1 -1",
    ];
    let lf = lines.join("\n");
    let crlf = lines.join("\r\n");
    let cr = lines.join("\r");
    let mixed = format!("{}\r\n{}\n{}\r{}\r\n{}", lines[0], lines[1], lines[2], lines[3], lines[4]);
    let want = parse(lf.as_bytes(), &TraceOptions::default()).expect("lf");
    assert_eq!(want.jobs.len(), 3);
    assert_eq!(want.report.lines_read, 5);
    for text in [&crlf, &cr, &mixed] {
        for size in 1..8 {
            let t = parse(&packed(text.as_bytes(), size, None), &TraceOptions::default()).expect("parses");
            assert_eq!(t, want, "{text:?} in chunks of {size}");
        }
    }
}

/// A job limit stops reading at the line after the last kept job and says so; the rest is not read.
#[test]
fn job_limit_keeps_the_jobs_before_it() {
    let gz = common::read_shared("traces/KTH-SP2-1996-2.1-cln.swf.gz");
    let full = parse(&gz, &TraceOptions::default()).expect("parses");
    let p = packed(&gz, 10_000, Some(1000));
    let t = parse(&p, &TraceOptions::default()).expect("parses");
    assert_eq!(t.report.job_lines, 1000);
    let header = full.report.header_lines + full.report.blank_lines;
    assert_eq!(t.report.stopped_at_line, Some(header + 1001));
    assert_eq!(t.report.lines_read, header + 1000);
    let w = t.report.warnings.iter().find(|w| w.starts_with("reading stopped")).expect("a warning");
    assert!(w.contains(&format!("line {}", header + 1001)) && w.contains("at most 1000 jobs"), "{w}");
    // The jobs kept are the file's first 1000 job lines, as a whole parse of them would give.
    let kept: Vec<_> = full.jobs.iter().filter(|j| t.jobs.iter().any(|k| k.id == j.id)).collect();
    assert_eq!(kept.len(), t.jobs.len());
    assert!(t.jobs.iter().all(|j| j.id <= 1000 + 50), "job numbers follow the file's order");
}

/// The user stopping the read keeps the complete lines read so far, plain or gzip.
#[test]
fn interrupting_keeps_what_was_read() {
    let gz = common::read_shared("traces/KTH-SP2-1996-2.1-cln.swf.gz");
    let plain = gunzip(&gz);
    for input in [&plain, &gz] {
        let mut l = Loader::new(None);
        l.feed(&input[..input.len() / 3]);
        let before = l.jobs();
        assert!(before > 100, "{before} jobs read");
        l.interrupt("stopped by the user");
        assert!(!l.feed(&input[input.len() / 3..]), "nothing is read after a stop");
        let t = parse(&l.finish(), &TraceOptions::default()).expect("parses");
        assert_eq!(t.report.job_lines, before);
        let line = t.report.stopped_at_line.expect("stop line");
        assert_eq!(line, t.report.lines_read + 1);
        let w = t.report.warnings.iter().find(|w| w.starts_with("reading stopped")).expect("warning");
        assert!(w.contains("stopped by the user") && w.contains(&format!("line {line}")), "{w}");
        assert!(!t.report.warnings.iter().any(|w| w.contains("gzip")), "{:?}", t.report.warnings);
    }
}

/// A gzip stream cut short, or damaged, keeps the complete lines before the fault, chunked or
/// whole.
#[test]
fn damaged_gzip_keeps_the_lines_before_the_fault() {
    let gz = common::read_shared("traces/KTH-SP2-1996-2.1-cln.swf.gz");
    let full = parse(&gz, &TraceOptions::default()).expect("parses");
    let cut = &gz[..gz.len() / 2];
    let whole = parse(cut, &TraceOptions::default()).expect("half parses");
    assert!(whole.jobs.len() > 1000 && whole.jobs.len() < full.jobs.len());
    assert_eq!(whole.jobs[..], full.jobs[..whole.jobs.len()]);
    let w = whole.report.warnings.iter().find(|w| w.contains("gzip")).expect("warning");
    assert!(
        w.contains("truncated") && w.contains(&format!("kept the {} complete lines", whole.report.lines_read)),
        "{w}"
    );
    assert_eq!(parse(&packed(cut, 7919, None), &TraceOptions::default()).expect("chunked"), whole);
    // Damage in the middle: the checksum fails at the end, and it is said.
    let mut bad = gz.clone();
    for b in &mut bad[gz.len() / 2..gz.len() / 2 + 64] {
        *b ^= 0x5a;
    }
    let t = parse(&bad, &TraceOptions::default()).expect("damaged parses");
    assert!(t.report.warnings.iter().any(|w| w.contains("corrupt")), "{:?}", t.report.warnings);
    assert!(t.jobs.len() > 1000);
    assert_eq!(parse(&packed(&bad, 65_536, None), &TraceOptions::default()).expect("chunked"), t);
    // Corrupt from the start: nothing to keep.
    let mut worst = gz[..10].to_vec();
    worst.extend_from_slice(&[0xff; 64]);
    let e = parse(&packed(&worst, 5, None), &TraceOptions::default()).unwrap_err();
    assert!(e.message.contains("nothing could be decoded"), "{}", e.message);
}

/// Other compressed formats and archives are named, not misread as text.
#[test]
fn archives_are_named() {
    let cases: [(&[u8], &str); 4] = [
        (b"PK\x03\x04\x14\x00\x00\x00rest", "zip archive"),
        (b"BZh91AY&SYrest", "bzip2"),
        (b"\xfd7zXZ\x00rest", "xz"),
        (b"\x28\xb5\x2f\xfd\x00rest", "zstd"),
    ];
    for (bytes, what) in cases {
        let e = parse(bytes, &TraceOptions::default()).unwrap_err();
        assert!(e.message.contains(what) && e.message.contains("unpack it first"), "{}", e.message);
    }
}

/// A packed trace that is damaged gives a message, never a panic or a wrong trace.
#[test]
fn damaged_packed_traces_are_refused() {
    let text =
        "; MaxProcs: 8\n1 0 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 1 -1 -1\n2 5 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 1 -1 -1\n";
    let p = packed(text.as_bytes(), 1 << 10, None);
    assert_eq!(parse(&p, &TraceOptions::default()).expect("packed").jobs.len(), 2);
    for cut in 16..p.len() {
        if let Err(e) = parse(&p[..cut], &TraceOptions::default()) {
            assert!(e.message.contains("damaged") || e.message.contains("no usable"), "{}", e.message);
        }
    }
    let again = gzip(&p);
    assert!(parse(&again, &TraceOptions::default()).is_err(), "a gzipped packed trace is binary, not SWF");
}

/// Reports stay small whatever the file: the first 100 malformed lines and the first 10,000
/// header lines are kept verbatim, the rest counted.
#[test]
fn reports_keep_bounded_detail() {
    let good = "1 0 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 1 -1 -1\n";
    let mut text = String::new();
    for i in 0..10_005 {
        text += &format!("; Note: line {i}\n");
    }
    text += "; MaxProcs: 8\n";
    text += good;
    for _ in 0..150 {
        text += "garbage\n";
    }
    let t = parse(text.as_bytes(), &TraceOptions::default()).expect("parses");
    assert_eq!(t.report.errors.len(), schedlab::trace::MAX_REPORTED_ERRORS);
    assert_eq!(t.report.errors_total, 150);
    assert_eq!(t.report.errors[99].line, 10_007 + 100);
    assert_eq!(t.report.header_lines, 10_006);
    assert_eq!(t.header.lines.len(), schedlab::trace::MAX_HEADER_LINES);
    let w = "more than 10000 header lines: the ones from line 10001 on are counted, not kept";
    assert!(t.report.warnings.iter().any(|x| x == w), "{:?}", t.report.warnings);
    // The MaxProcs past the kept lines is not read: the widest job sizes the machine, and it is said.
    assert_eq!(t.machine, 2);
    assert_eq!(t.jobs.len(), 1);
}

/// A forged packed trace claiming more records than its bytes can hold is refused before
/// anything is sized by the claim (a 36-byte file must not reserve room for millions of jobs).
#[test]
fn forged_record_counts_are_refused() {
    let mut forged = b"\0SCHEDLAB-PACK4\n".to_vec();
    // lines_read, header_lines, blank_lines, job_lines, errors_total, count = 2^40, then the rest 0.
    for v in [1u64, 0, 0, 1, 0, 1 << 40] {
        let mut v = v;
        while v >= 0x80 {
            forged.push((v as u8) | 0x80);
            v >>= 7;
        }
        forged.push(v as u8);
    }
    forged.extend_from_slice(&[0; 9]);
    assert_eq!(forged.len(), 36);
    let e = parse(&forged, &TraceOptions::default()).unwrap_err();
    assert!(e.message.starts_with("the packed trace is damaged at byte"), "{}", e.message);
}
