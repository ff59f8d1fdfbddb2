//! Hostile and broken inputs, one test per class of docs/ROBUSTNESS.md: what the library reports
//! (line-numbered), what the command line prints, and that the good lines around a bad one are kept.

use std::io::Write;
use std::path::PathBuf;
use std::process::Command;

use schedlab::trace::{parse, Trace, TraceError, TraceOptions};

const HEADER: &str = "; Version: 2.2\n; MaxProcs: 8\n";

/// A well-formed job line: `id` submitted at `submit`, 2 processors, 10 s of a 20 s estimate.
fn good(id: u64, submit: i64) -> String {
    format!("{id} {submit} -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 1 -1 -1\n")
}

fn read(bytes: &[u8]) -> Result<Trace, TraceError> {
    parse(bytes, &TraceOptions::default())
}

fn ids(t: &Trace) -> Vec<u64> {
    t.jobs.iter().map(|j| j.id).collect()
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(data).expect("gzip");
    enc.finish().expect("gzip")
}

/// The command line on `bytes` written to a file: `schedlab info` and `schedlab run --policy
/// easy`, each as (exit success, stdout + stderr).
fn cli(name: &str, bytes: &[u8]) -> [(bool, String); 2] {
    let dir = std::env::temp_dir().join(format!("schedlab-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path: PathBuf = dir.join(name);
    std::fs::write(&path, bytes).expect("write");
    let p = path.to_string_lossy().into_owned();
    let out = [vec!["info", p.as_str()], vec!["run", p.as_str(), "--policy", "easy"]].map(|args| {
        let o = Command::new(env!("CARGO_BIN_EXE_schedlab")).args(&args).output().expect("schedlab runs");
        let text = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
        (o.status.success(), text)
    });
    let _ = std::fs::remove_file(&path);
    out
}

/// Asserts the command line refuses the input with `message` in both commands.
fn cli_refuses(name: &str, bytes: &[u8], message: &str) {
    for (ok, text) in cli(name, bytes) {
        assert!(!ok, "{name}: accepted:\n{text}");
        assert!(text.contains(message), "{name}: {message:?} not in:\n{text}");
        assert!(!text.contains("panicked"), "{text}");
    }
}

/// Asserts the command line reads the input, `info` showing `info_says` and `run` running.
fn cli_reads(name: &str, bytes: &[u8], info_says: &[&str]) {
    let [(ok, info), (ran, run)] = cli(name, bytes);
    assert!(ok && ran, "{name}: refused:\n{info}\n{run}");
    for s in info_says {
        assert!(info.contains(s), "{name}: {s:?} not in:\n{info}");
    }
    assert!(run.contains("easy "), "{name}: no result row:\n{run}");
}

#[test]
fn empty_file() {
    let e = read(b"").unwrap_err();
    assert_eq!(e.message, "the file is empty");
    cli_refuses("empty.swf", b"", "the file is empty");
}

#[test]
fn header_only() {
    let e = read(HEADER.as_bytes()).unwrap_err();
    assert_eq!(e.message, "no job lines: the 2 lines read are header or blank lines");
    cli_refuses("header.swf", HEADER.as_bytes(), "no job lines");
}

#[test]
fn binary_data() {
    // Bytes of every value, newlines included, as an image or executable would have.
    let bytes: Vec<u8> = (0..20_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8).collect();
    let e = read(&bytes).unwrap_err();
    assert!(
        e.message.starts_with("this looks like binary data, not SWF text (control bytes from line 1)"),
        "{}",
        e.message
    );
    cli_refuses("binary.swf", &bytes, "binary data");
    // A file of one huge line (no newline at all) is reported as such.
    let e = read(&vec![b'x'; 200_000]).unwrap_err();
    assert!(e.message.contains("line 1: the line is longer than 65536 bytes"), "{}", e.message);
    // Archives and other compressions are named.
    let e = read(b"PK\x03\x04\x14\x00\x08\x00rest of a zip").unwrap_err();
    assert!(e.message.contains("zip archive"), "{}", e.message);
    cli_refuses("trace.zip", b"PK\x03\x04\x14\x00\x08\x00rest", "unpack it first");
}

#[test]
fn truncated_and_corrupt_gzip() {
    let mut text = String::from(HEADER);
    for i in 0..3000 {
        text += &good(i + 1, i as i64 * 10);
    }
    let gz = gzip(text.as_bytes());
    let cut = &gz[..gz.len() / 2];
    let t = read(cut).expect("the decoded half is kept");
    let w = t.report.warnings.iter().find(|w| w.contains("gzip")).expect("a warning");
    let lines = t.report.lines_read;
    assert!(w.contains(&format!("kept the {lines} complete lines decoded before the fault")), "{w}");
    assert_eq!(ids(&t), (1..=t.jobs.len() as u64).collect::<Vec<_>>(), "the jobs before the fault, in order");
    assert!(t.jobs.len() > 500 && t.jobs.len() < 3000);
    cli_reads("cut.swf.gz", cut, &["corrupt or truncated", &format!("kept the {lines} complete lines")]);
    // Corrupt from its first block: nothing to keep, and it says so.
    let mut bad = gz[..10].to_vec();
    bad.extend_from_slice(&[0xff; 200]);
    let e = read(&bad).unwrap_err();
    assert!(
        e.message.starts_with("the gzip data is corrupt or truncated (")
            && e.message.ends_with("nothing could be decoded")
    );
    cli_refuses("bad.swf.gz", &bad, "nothing could be decoded");
}

#[test]
fn crlf_and_mixed_line_endings() {
    let lf = format!("{HEADER}{}{}{}", good(1, 0), good(2, 5), good(3, 9));
    let want = read(lf.as_bytes()).expect("lf");
    let crlf = lf.replace('\n', "\r\n");
    let mut mixed = lf.replacen('\n', "\r\n", 2);
    mixed = mixed.replacen("\n2 ", "\r2 ", 1);
    for text in [&crlf, &mixed] {
        let t = read(text.as_bytes()).expect("reads");
        assert_eq!(t, want, "{text:?}");
        cli_reads("endings.swf", text.as_bytes(), &["jobs kept        3"]);
    }
}

#[test]
fn lines_with_17_or_19_fields() {
    let text = format!(
        "{HEADER}{}1 0 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 1 -1\n{}1 0 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 1 -1 -1 7\n{}",
        good(1, 0),
        good(2, 5),
        good(3, 9)
    );
    let t = read(text.as_bytes()).expect("reads");
    assert_eq!(ids(&t), [1, 2, 3]);
    let shown: Vec<String> = t.report.errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(shown, ["line 4: expected 18 fields, found 17", "line 6: expected 18 fields, found 19"]);
    cli_reads(
        "fields.swf",
        text.as_bytes(),
        &["line 4: expected 18 fields, found 17", "line 6: expected 18 fields, found 19"],
    );
}

#[test]
fn non_numeric_and_overflowing_numbers() {
    let text = format!(
        "{HEADER}{}2 5 -1 ten 2 -1 -1 2 20 -1 1 1 1 -1 1 1 -1 -1\n3 99999999999999999999 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 1 -1 -1\n4 9 -1 10 2 -1 -1 2 1e400 -1 1 1 1 -1 1 1 -1 -1\n{}",
        good(1, 0),
        good(5, 12)
    );
    let t = read(text.as_bytes()).expect("reads");
    assert_eq!(ids(&t), [1, 5]);
    let shown: Vec<String> = t.report.errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        shown,
        [
            "line 4: field run_time: not a number: \"ten\"",
            "line 5: field submit_time: number out of range: 99999999999999999999",
            "line 6: field requested_time: number out of range: 1e400",
        ]
    );
    cli_reads("numbers.swf", text.as_bytes(), &["line 4: field run_time: not a number", "line 5: field submit_time"]);
}

#[test]
fn negative_times() {
    let text = format!(
        "{HEADER}{}2 -50 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 1 -1 -1\n3 6 -1 -10 2 -1 -1 2 20 -1 1 1 1 -1 1 1 -1 -1\n4 7 -1 10 2 -1 -1 2 -20 -1 1 1 1 -1 1 1 -1 -1\n{}",
        good(1, 0),
        good(5, 12)
    );
    let t = read(text.as_bytes()).expect("reads");
    // Job 4's estimate of -20 is missing: its runtime of 10 stands in.
    assert_eq!(ids(&t), [1, 4, 5]);
    assert_eq!(t.jobs[1].estimate, 10);
    let r = &t.report;
    assert_eq!((r.dropped["submit_missing"], r.dropped_lines["submit_missing"]), (1, 4));
    assert_eq!((r.dropped["runtime_not_positive"], r.dropped_lines["runtime_not_positive"]), (1, 5));
    assert_eq!((r.altered["estimate_from_runtime"], r.altered_lines["estimate_from_runtime"]), (1, 6));
    cli_reads(
        "negative.swf",
        text.as_bytes(),
        &[
            "1 without a submit time (first at line 4)",
            "1 with no runtime (0 s or missing) (first at line 5)",
            "1 without an estimate (the runtime stands in) (first at line 6)",
        ],
    );
}

#[test]
fn submit_times_out_of_order() {
    let text = format!("{HEADER}{}{}{}{}", good(1, 0), good(2, 50), good(3, 20), good(4, 60));
    let t = read(text.as_bytes()).expect("reads");
    assert_eq!(ids(&t), [1, 3, 2, 4], "simulated in submit order");
    assert_eq!((t.report.altered["sorted"], t.report.altered_lines["sorted"]), (1, 5));
    cli_reads("order.swf", text.as_bytes(), &["sorted (first at line 5)"]);
}

#[test]
fn jobs_wider_than_the_machine() {
    let wide = "2 5 -1 10 16 -1 -1 16 20 -1 1 1 1 -1 1 1 -1 -1\n";
    let text = format!("{HEADER}{}{wide}{}", good(1, 0), good(3, 9));
    let t = read(text.as_bytes()).expect("reads");
    assert_eq!(ids(&t), [1, 3]);
    assert_eq!(t.report.dropped_lines["wider_than_machine"], 4);
    cli_reads("wide.swf", text.as_bytes(), &["1 wider than the machine (first at line 4)"]);
    let clamp = TraceOptions { wide: schedlab::trace::Wide::Clamp, ..TraceOptions::default() };
    let t = parse(text.as_bytes(), &clamp).expect("reads");
    assert_eq!(t.jobs[1].procs, 8);
    assert_eq!(t.report.altered_lines["clamped_to_machine"], 4);
}

#[test]
fn machine_size_zero_or_missing() {
    let body = format!("{}{}", good(1, 0), "2 5 -1 10 6 -1 -1 6 20 -1 1 1 1 -1 1 1 -1 -1\n");
    let zero = format!("; Version: 2.2\n; MaxProcs: 0\n{body}");
    let t = read(zero.as_bytes()).expect("reads");
    assert_eq!(t.machine, 6);
    let w = "the header's MaxProcs is 0 (line 2), not a machine size: the widest job (6 processors, line 4) sizes the machine; set machine=N to choose";
    assert!(t.report.warnings.iter().any(|x| x == w), "{:?}", t.report.warnings);
    cli_reads("zero.swf", zero.as_bytes(), &["MaxProcs is 0 (line 2)", "machine          6 processors (widest job)"]);
    let missing = format!("; Version: 2.2\n{body}");
    let t = read(missing.as_bytes()).expect("reads");
    assert_eq!(t.machine, 6);
    assert!(t
        .report
        .warnings
        .iter()
        .any(|x| x.starts_with("the header has no MaxProcs: the widest job (6 processors, line 3)")));
    // Told to use 0 processors, it refuses with the reason.
    let opts = TraceOptions { machine: Some(0), ..TraceOptions::default() };
    let e = parse(missing.as_bytes(), &opts).unwrap_err();
    assert_eq!(e.message, "the machine size is 0 (option): set machine=N to the number of processors");
}

#[test]
fn every_job_dropped() {
    let text = format!(
        "{HEADER}1 0 -1 0 2 -1 -1 2 20 -1 1 1 1 -1 1 1 -1 -1\n2 5 -1 10 0 -1 -1 0 20 -1 1 1 1 -1 1 1 -1 -1\nnot a job\n4 -1 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 1 -1 -1\n"
    );
    let e = read(text.as_bytes()).unwrap_err();
    assert_eq!(
        e.message,
        "no usable jobs: all 4 job lines were dropped (1 malformed_line from line 5, 1 procs_not_positive from line 4, 1 runtime_not_positive from line 3, 1 submit_missing from line 6); first error: line 5: expected 18 fields, found 3"
    );
    cli_refuses("dropped.swf", text.as_bytes(), "runtime_not_positive from line 3");
}

#[test]
fn a_garbage_line_between_good_lines() {
    let garbage: String = (0..300).map(|i| (b'!' + (i * 37 % 90) as u8) as char).collect();
    assert_eq!(garbage.len(), 300);
    let text = format!("{HEADER}{}{}\n{}{}", good(1, 0), garbage.replace(' ', "_"), good(2, 5), good(3, 9));
    let t = read(text.as_bytes()).expect("reads");
    assert_eq!(ids(&t), [1, 2, 3], "the good lines on both sides are kept");
    assert_eq!(t.report.errors.len(), 1);
    assert_eq!(t.report.errors[0].to_string(), "line 4: expected 18 fields, found 1");
    cli_reads("garbage.swf", text.as_bytes(), &["line 4: expected 18 fields, found 1", "jobs kept        3"]);
}
