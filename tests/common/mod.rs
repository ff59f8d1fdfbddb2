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

/// Parses SWF text with default options.
pub fn trace(text: &str) -> Trace {
    parse(text.as_bytes(), &TraceOptions::default()).expect("trace parses")
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

/// Checks a schedule recorded with `EngineOptions::placements` piece by piece: every job's
/// pieces after its last killed run do exactly its runtime of work and end in its completion, a
/// resumed piece holds exactly the processors of the piece before it, and no processor serves
/// two pieces at once.
pub fn check_pieces(trace: &Trace, out: &schedlab::engine::Outcome) -> Result<(), String> {
    use schedlab::engine::PieceEnd;
    let mut by_job: Vec<Vec<usize>> = vec![Vec::new(); trace.jobs.len()];
    for (k, p) in out.pieces.iter().enumerate() {
        by_job[p.job as usize].push(k);
    }
    for (i, ks) in by_job.iter().enumerate() {
        let job = &trace.jobs[i];
        let after_kill = ks.iter().rposition(|&k| out.pieces[k].ended == PieceEnd::Killed).map_or(0, |k| k + 1);
        let work: i64 = ks[after_kill..].iter().map(|&k| out.pieces[k].work).sum();
        if work != job.runtime {
            return Err(format!("job {}: pieces do {work} s of work, runtime {}", job.id, job.runtime));
        }
        for w in ks.windows(2) {
            let (a, b) = (&out.pieces[w[0]], &out.pieces[w[1]]);
            if b.start < a.end {
                return Err(format!("job {}: pieces overlap", job.id));
            }
            if a.ended == PieceEnd::Suspended && out.piece_procs(a) != out.piece_procs(b) {
                return Err(format!("job {}: resumed on other processors", job.id));
            }
        }
        let last = ks.last().map(|&k| &out.pieces[k]).ok_or(format!("job {} never ran", job.id))?;
        if (last.ended, last.end) != (PieceEnd::Completed, out.records[i].end)
            || out.pieces[ks[0]].start != out.records[i].start
        {
            return Err(format!("job {}: pieces do not span its record", job.id));
        }
    }
    let mut on: Vec<Vec<(i64, i64)>> = vec![Vec::new(); trace.machine as usize];
    for p in &out.pieces {
        for &(first, count) in out.piece_procs(p) {
            for id in first..first + count {
                on[id as usize].push((p.start, p.end));
            }
        }
    }
    for (id, spans) in on.iter_mut().enumerate() {
        spans.sort_unstable();
        if let Some(w) = spans.windows(2).find(|w| w[1].0 < w[0].1) {
            return Err(format!("processor {id} serves two pieces at once: {:?} {:?}", w[0], w[1]));
        }
    }
    Ok(())
}

/// Decompresses a gzip file read with [`read_shared`].
pub fn gunzip(gz: &[u8]) -> Vec<u8> {
    use std::io::Read;
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(gz).read_to_end(&mut out).expect("gzip decodes");
    out
}
