//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

use schedlab::engine::simulate;
use schedlab::metrics::{records, Record};
use schedlab::policy::Configured;
use schedlab::run::Settings;
use schedlab::trace::{parse, Trace, TraceOptions};

/// `../shared` beside the repository.
pub fn shared() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join("shared")
}

/// Reads a file from `../shared`, failing the test with a clear message if it is missing.
pub fn read_shared(rel: &str) -> Vec<u8> {
    let p = shared().join(rel);
    std::fs::read(&p)
        .unwrap_or_else(|e| panic!("cannot read {}: {e} (is ../shared beside the repository?)", p.display()))
}

/// The names of the eight shared traces (`*.swf.gz` in `../shared/traces`), sorted.
pub fn shared_traces() -> Vec<String> {
    let mut files: Vec<_> = std::fs::read_dir(shared().join("traces"))
        .expect("../shared/traces")
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().to_string()))
        .filter(|f| f.ends_with(".swf.gz"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 8, "{files:?}");
    files
}

/// Parses SWF text with default options.
pub fn trace(text: &str) -> Trace {
    parse(text.as_bytes(), &TraceOptions::default()).expect("trace parses")
}

/// `settings` parsed after `observe=<observers>`: the runs of a test that checks what those
/// observers measure (the settings may still choose otherwise).
pub fn observing(observers: &str, settings: &[&str]) -> Settings {
    let first = format!("observe={observers}");
    let all: Vec<&str> = std::iter::once(first.as_str()).chain(settings.iter().copied()).collect();
    Settings::parse(&all).expect("settings parse")
}

/// Runs policy `name` with `settings` (`KEY=VALUE`: engine and policy options) and returns
/// the per-job records.
pub fn run(trace: &Trace, name: &str, settings: &[&str]) -> Vec<Record> {
    let s = Settings::parse(settings).expect("settings parse");
    let cfg = Configured::new(name, &s.policy).expect("policy configures");
    let mut policy = cfg.build(trace);
    let outcome = simulate(trace, policy.as_mut(), &s.engine);
    records(trace, &outcome)
}

/// Builds an SWF text from `(submit, runtime, procs, estimate)` rows, jobs numbered from 1.
pub fn swf(machine: u32, jobs: &[(i64, i64, u32, i64)]) -> String {
    let mut s = format!("; MaxProcs: {machine}\n");
    for (i, (submit, run, procs, est)) in jobs.iter().enumerate() {
        s.push_str(&format!("{} {submit} -1 {run} {procs} -1 -1 {procs} {est} -1 1 1 1 -1 1 -1 -1 -1\n", i + 1));
    }
    s
}

/// Start times by job number order.
pub fn starts(recs: &[Record]) -> Vec<i64> {
    let mut r: Vec<(u64, i64)> = recs.iter().map(|r| (r.job_id, r.start)).collect();
    r.sort();
    r.into_iter().map(|(_, s)| s).collect()
}

/// Decompresses a gzip file read with [`read_shared`].
pub fn gunzip(gz: &[u8]) -> Vec<u8> {
    use std::io::Read;
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(gz).read_to_end(&mut out).expect("gzip decodes");
    out
}
