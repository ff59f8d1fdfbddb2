//! Invariants every completed simulation keeps, checked after the fact on its [`Outcome`].
//!
//! One checker for the test suites, the property tests and the fuzz targets, so that a rule
//! of the engine is stated once: no more processors busy than the machine has, no start
//! before submission, every job given exactly its runtime of work, suspended jobs resumed on
//! their own processors, and no processor given to two jobs at once.
//!
//! With [`crate::engine::EngineOptions::placements`] on, the pieces (who held which processors
//! when) are checked; without them the per-job records are. Records cannot say when a
//! suspended job ran, nor when each of several killed runs did, so such schedules are reported
//! as unverifiable rather than passed.

use crate::engine::{JobRecord, Outcome, Piece, PieceEnd, Segment};
use crate::trace::Trace;

/// Checks the invariants of a completed simulation of `trace`; the error names the first
/// broken rule and the job or processor concerned.
pub fn schedule(trace: &Trace, out: &Outcome) -> Result<(), String> {
    if out.records.len() != trace.jobs.len() {
        return Err(format!("{} records for {} jobs", out.records.len(), trace.jobs.len()));
    }
    for (j, r) in trace.jobs.iter().zip(&out.records) {
        if r.start < 0 || r.end < 0 {
            return Err(format!("job {} never ran to completion (start {}, end {})", j.id, r.start, r.end));
        }
        if r.start < j.submit {
            return Err(format!("job {} starts at {} before its submit {}", j.id, r.start, j.submit));
        }
        if !(r.start <= r.last_start && r.last_start <= r.end) {
            return Err(format!(
                "job {}: start {}, last start {}, end {} out of order",
                j.id, r.start, r.last_start, r.end
            ));
        }
    }
    // Accuracy is a time-weighted mean of ratios in [0, 1]; outside it the weights are wrong.
    for (j, p) in trace.jobs.iter().zip(out.observed.predictions.iter().flatten()) {
        if !(0.0..=1.0).contains(&p.accuracy) {
            return Err(format!("job {}: prediction accuracy {}", j.id, p.accuracy));
        }
    }
    series(trace, out)?;
    if out.pieces.is_empty() && !trace.jobs.is_empty() {
        from_records(trace, out)
    } else {
        from_pieces(trace, out)
    }
}

/// Checks that no job with a reservation started after the first one it was given: the
/// guarantee of FCFS reservations under plans that are never wrong (exact runtimes, or jobs
/// killed at the estimate they are planned with). Only meaningful for such runs, observed with
/// `observe=promises`; a run without it is refused.
pub fn reservations(trace: &Trace, out: &Outcome) -> Result<(), String> {
    let promises = out.observed.promises.as_ref().ok_or("the run did not observe promises (observe=promises)")?;
    for ((j, r), &reserved) in trace.jobs.iter().zip(&out.records).zip(promises) {
        if reserved >= 0 && r.start > reserved {
            return Err(format!("job {} reserved for {reserved} started at {}", j.id, r.start));
        }
    }
    Ok(())
}

/// The machine's time series never shows more busy processors than it has, and ends idle.
fn series(trace: &Trace, out: &Outcome) -> Result<(), String> {
    if let Some(s) = out.series.iter().find(|s| s.busy > trace.machine) {
        return Err(format!("the series shows {} processors busy at {} on {}", s.busy, s.time, trace.machine));
    }
    match out.series.last() {
        Some(s) if (s.busy, s.queued) != (0, 0) => {
            Err(format!("the machine ends with {} busy and {} waiting at {}", s.busy, s.queued, s.time))
        }
        None if !trace.jobs.is_empty() => Err("no time series for a trace with jobs".into()),
        _ => Ok(()),
    }
}

/// Capacity from half-open busy stretches `(start, end, procs)`: at no time more than `machine`.
fn capacity(machine: u32, stretches: impl Iterator<Item = (i64, i64, u32)>) -> Result<(), String> {
    let mut events: Vec<(i64, i64)> = Vec::new();
    for (s, e, p) in stretches.filter(|(s, e, _)| s < e) {
        events.push((s, p as i64));
        events.push((e, -(p as i64)));
    }
    // Ends sort before starts at one time: a job may start the second another ends.
    events.sort_unstable();
    let mut busy = 0i64;
    for (t, d) in events {
        busy += d;
        if busy > machine as i64 {
            return Err(format!("{busy} processors busy at {t} on a machine of {machine}"));
        }
    }
    Ok(())
}

/// The records alone: killed runs, segments or the one run, in order, with the runtime's work.
fn from_records(trace: &Trace, out: &Outcome) -> Result<(), String> {
    let mut segs: Vec<Vec<&Segment>> = vec![Vec::new(); trace.jobs.len()];
    for s in &out.segments {
        segs.get_mut(s.job as usize).ok_or(format!("a segment of job index {} beyond the trace", s.job))?.push(s);
    }
    let mut stretches: Vec<(i64, i64, u32)> = Vec::with_capacity(trace.jobs.len());
    for (i, (j, r)) in trace.jobs.iter().zip(&out.records).enumerate() {
        let unplaceable = |why: &str| {
            Err(format!("job {} {why}: the records cannot say when it ran; simulate with placements", j.id))
        };
        if r.suspensions > 0 {
            return unplaceable("was suspended");
        }
        if r.killed_runs > 1 {
            return unplaceable("was killed more than once");
        }
        let mut runs: Vec<(i64, i64)> = Vec::new();
        if r.killed_runs == 1 {
            runs.push((r.start, r.start.saturating_add(r.killed_s)));
        }
        if r.segments > 0 {
            let s = &segs[i];
            if s.len() != r.segments as usize || s.iter().enumerate().any(|(k, s)| s.no as usize != k) {
                return Err(format!("job {}: {} segments recorded, {} listed", j.id, r.segments, s.len()));
            }
            let work: i64 = s.iter().map(|s| s.work).sum();
            if work != j.runtime {
                return Err(format!("job {}: segments do {work} s of work, runtime {}", j.id, j.runtime));
            }
            if let Some(s) = s.iter().find(|s| s.work < 0 || s.work > s.end - s.start) {
                return Err(format!(
                    "job {}: segment {} does {} s of work in {} s",
                    j.id,
                    s.no,
                    s.work,
                    s.end - s.start
                ));
            }
            let last = s[s.len() - 1];
            if (last.start, last.end) != (r.last_start, r.end) {
                return Err(format!("job {}: its last segment does not end its record", j.id));
            }
            runs.extend(s.iter().map(|s| (s.start, s.end)));
        } else {
            if r.end - r.last_start != j.runtime {
                return Err(format!("job {} ran {} s, runtime {}", j.id, r.end - r.last_start, j.runtime));
            }
            runs.push((r.last_start, r.end));
        }
        if runs[0].0 != r.start {
            return Err(format!("job {}: first run at {}, recorded start {}", j.id, runs[0].0, r.start));
        }
        if let Some(w) = runs.windows(2).find(|w| w[1].0 < w[0].1 || w[0].1 < w[0].0) {
            return Err(format!("job {}: runs {:?} and {:?} overlap", j.id, w[0], w[1]));
        }
        stretches.extend(runs.into_iter().map(|(s, e)| (s, e, j.procs)));
    }
    capacity(trace.machine, stretches.into_iter())
}

/// Counts of how a job's pieces ended, to compare with its record.
fn piece_counts(ps: &[&Piece]) -> (u32, u32, u32) {
    let count = |how: PieceEnd| ps.iter().filter(|p| p.ended == how).count() as u32;
    (count(PieceEnd::Killed), count(PieceEnd::Suspended), count(PieceEnd::Checkpointed))
}

/// The pieces: each job's in order and adding up to its runtime, resumes on the same
/// processors, and every processor held by one piece at a time.
fn from_pieces(trace: &Trace, out: &Outcome) -> Result<(), String> {
    let n = trace.jobs.len();
    let mut by_job: Vec<Vec<&Piece>> = vec![Vec::new(); n];
    for p in &out.pieces {
        let j = trace.jobs.get(p.job as usize).ok_or(format!("a piece of job index {} beyond the trace", p.job))?;
        if p.ended == PieceEnd::Running || p.end < p.start {
            return Err(format!("job {}: piece from {} to {} ({:?})", j.id, p.start, p.end, p.ended));
        }
        if p.work < 0 || p.work > p.end - p.start {
            return Err(format!("job {}: a piece does {} s of work in {} s", j.id, p.work, p.end - p.start));
        }
        let (off, len) = (p.runs.0 as usize, p.runs.1 as usize);
        let runs = out.piece_runs.get(off..off + len).ok_or(format!("job {}: piece processors out of range", j.id))?;
        let held: u64 = runs.iter().map(|&(_, c)| c as u64).sum();
        if held != j.procs as u64 {
            return Err(format!("job {}: a piece holds {held} processors, the job needs {}", j.id, j.procs));
        }
        if let Some(&(first, count)) = runs.iter().find(|&&(f, c)| f as u64 + c as u64 > trace.machine as u64) {
            return Err(format!("job {}: processors {first}+{count} beyond the machine of {}", j.id, trace.machine));
        }
        by_job[p.job as usize].push(p);
    }
    for ((j, r), ps) in trace.jobs.iter().zip(&out.records).zip(&by_job) {
        job_pieces(j, r, ps, out)?;
    }
    processors(trace, out)
}

/// One job's pieces against its record.
fn job_pieces(j: &crate::trace::Job, r: &JobRecord, ps: &[&Piece], out: &Outcome) -> Result<(), String> {
    let (Some(first), Some(last)) = (ps.first(), ps.last()) else {
        return Err(format!("job {} has no pieces", j.id));
    };
    if first.start != r.start || (last.ended, last.end) != (PieceEnd::Completed, r.end) {
        return Err(format!("job {}: its pieces do not span its record ({} to {})", j.id, r.start, r.end));
    }
    let (killed, suspended, checkpointed) = piece_counts(ps);
    if (killed, suspended) != (r.killed_runs, r.suspensions) {
        return Err(format!(
            "job {}: {killed} killed and {suspended} suspended pieces, the record says {} and {}",
            j.id, r.killed_runs, r.suspensions
        ));
    }
    if checkpointed != r.segments.saturating_sub(1) {
        return Err(format!("job {}: {checkpointed} checkpoints for {} segments", j.id, r.segments));
    }
    for w in ps.windows(2) {
        let (a, b) = (w[0], w[1]);
        if a.ended == PieceEnd::Completed {
            return Err(format!("job {}: a piece after its completion", j.id));
        }
        if b.start < a.end {
            return Err(format!("job {}: pieces [{}, {}) and [{}, {}) overlap", j.id, a.start, a.end, b.start, b.end));
        }
        // A suspended job keeps its processors (its memory is there): it resumes on exactly them.
        if a.ended == PieceEnd::Suspended && out.piece_procs(a) != out.piece_procs(b) {
            return Err(format!(
                "job {}: resumed at {} on processors {:?}, suspended on {:?}",
                j.id,
                b.start,
                out.piece_procs(b),
                out.piece_procs(a)
            ));
        }
    }
    // A killed run's work is lost; the pieces after the last kill must do the whole runtime.
    let from = ps.iter().rposition(|p| p.ended == PieceEnd::Killed).map_or(0, |k| k + 1);
    let work: i64 = ps[from..].iter().map(|p| p.work).sum();
    if work != j.runtime {
        return Err(format!("job {}: its pieces do {work} s of work, runtime {}", j.id, j.runtime));
    }
    Ok(())
}

/// Sweeps the pieces in time: each processor has one holder at a time, and the count of busy
/// processors never exceeds the machine.
fn processors(trace: &Trace, out: &Outcome) -> Result<(), String> {
    const FREE: u32 = u32::MAX;
    // (time, 0 = end / 1 = start, piece): ends first, so a processor freed at t may be taken at t.
    let mut events: Vec<(i64, u8, u32)> = Vec::with_capacity(out.pieces.len() * 2);
    for (k, p) in out.pieces.iter().enumerate().filter(|(_, p)| p.start < p.end) {
        events.push((p.start, 1, k as u32));
        events.push((p.end, 0, k as u32));
    }
    events.sort_unstable();
    let mut holder = vec![FREE; trace.machine as usize];
    let mut busy = 0u64;
    for (t, kind, k) in events {
        let p = &out.pieces[k as usize];
        for &(first, count) in out.piece_procs(p) {
            for id in first..first + count {
                let h = &mut holder[id as usize];
                if kind == 0 {
                    *h = FREE;
                } else if *h != FREE {
                    let other = out.pieces[*h as usize].job as usize;
                    return Err(format!(
                        "processor {id} given to job {} at {t} while job {} holds it",
                        trace.jobs[p.job as usize].id, trace.jobs[other].id
                    ));
                } else {
                    *h = k;
                }
            }
        }
        let procs = trace.jobs[p.job as usize].procs as u64;
        if kind == 0 {
            busy -= procs;
        } else {
            busy += procs;
            if busy > trace.machine as u64 {
                return Err(format!("{busy} processors busy at {t} on a machine of {}", trace.machine));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{simulate, EngineOptions};
    use crate::policy::Configured;
    use crate::trace::{parse, TraceOptions};

    /// Three jobs on 4 processors: A (2 procs, 100 s) and B (2 procs, 50 s) at 0, C (4 procs, 10 s) at 10.
    fn trace() -> Trace {
        let swf = "; MaxProcs: 4\n\
                   1 0 -1 100 2 -1 -1 2 100 -1 1 1 1 -1 1 -1 -1 -1\n\
                   2 0 -1 50 2 -1 -1 2 50 -1 1 1 1 -1 1 -1 -1 -1\n\
                   3 10 -1 10 4 -1 -1 4 10 -1 1 2 1 -1 1 -1 -1 -1\n";
        parse(swf.as_bytes(), &TraceOptions::default()).expect("trace parses")
    }

    fn run(trace: &Trace, policy: &str, placements: bool) -> Outcome {
        let cfg = Configured::new(policy, &[]).expect("policy configures");
        simulate(
            trace,
            cfg.build(trace).as_mut(),
            &EngineOptions { placements, observe: crate::engine::Observe::ALL, ..Default::default() },
        )
    }

    /// Selective suspension on 8 processors: A and D (4 each, 10000 s) run from 0; C (4, 100 s,
    /// submitted at 10) suspends one of them at the 120 s tick (Kettimuthu's SF = 2 rule).
    fn suspending() -> (Trace, Outcome) {
        let swf = "; MaxProcs: 8\n\
                   1 0 -1 10000 4 -1 -1 4 10000 -1 1 1 1 -1 1 -1 -1 -1\n\
                   2 0 -1 10000 4 -1 -1 4 10000 -1 1 1 1 -1 1 -1 -1 -1\n\
                   3 10 -1 100 4 -1 -1 4 100 -1 1 2 1 -1 1 -1 -1 -1\n";
        let t = parse(swf.as_bytes(), &TraceOptions::default()).expect("trace parses");
        let out = run(&t, "ss", true);
        assert_eq!(out.records.iter().map(|r| r.suspensions).sum::<u32>(), 1, "one long job is suspended");
        (t, out)
    }

    fn caught(trace: &Trace, out: &Outcome, what: &str) {
        match schedule(trace, out) {
            Err(e) => assert!(e.contains(what), "caught, but as {e:?}, not {what:?}"),
            Ok(()) => panic!("a broken schedule passed: expected {what:?}"),
        }
    }

    #[test]
    fn real_schedules_pass_with_and_without_placements() {
        let t = trace();
        for placements in [false, true] {
            for policy in ["fcfs", "easy", "conservative"] {
                assert_eq!(schedule(&t, &run(&t, policy, placements)), Ok(()), "{policy}");
            }
        }
        let (t, out) = suspending();
        assert_eq!(schedule(&t, &out), Ok(()));
    }

    #[test]
    fn overlapping_capacity_is_caught_from_the_records() {
        let t = trace();
        let mut out = run(&t, "easy", false);
        // C needs the whole machine: moved to 20, it runs beside A.
        out.records[2].start = 20;
        out.records[2].last_start = 20;
        out.records[2].end = 30;
        caught(&t, &out, "processors busy at 20");
    }

    #[test]
    fn a_processor_given_twice_is_caught_from_the_pieces() {
        let t = trace();
        let mut out = run(&t, "easy", true);
        // B's piece moved onto A's processors: the count stays 4, the identities clash.
        let a = out.pieces.iter().position(|p| p.job == 0).unwrap();
        let b = out.pieces.iter().position(|p| p.job == 1).unwrap();
        let a_runs = out.pieces[a].runs;
        out.pieces[b].runs = a_runs;
        caught(&t, &out, "while job 1 holds it");
    }

    #[test]
    fn overlapping_capacity_is_caught_from_the_pieces() {
        let t = trace();
        let mut out = run(&t, "easy", true);
        let c = out.pieces.iter().position(|p| p.job == 2).unwrap();
        let (start, end) = (out.pieces[c].start, out.pieces[c].end);
        out.pieces[c].start = 20;
        out.pieces[c].end = 20 + (end - start);
        out.records[2].start = 20;
        out.records[2].last_start = 20;
        out.records[2].end = 20 + (end - start);
        caught(&t, &out, "given to job 3 at 20");
    }

    #[test]
    fn a_start_before_submit_is_caught() {
        let t = trace();
        for placements in [false, true] {
            let mut out = run(&t, "easy", placements);
            out.records[2].start = 5;
            caught(&t, &out, "starts at 5 before its submit 10");
        }
    }

    #[test]
    fn short_or_long_work_is_caught() {
        let t = trace();
        let mut out = run(&t, "easy", false);
        out.records[0].end -= 1;
        caught(&t, &out, "job 1 ran 99 s, runtime 100");
        let mut out = run(&t, "easy", false);
        out.records[1].end += 1;
        caught(&t, &out, "job 2 ran 51 s, runtime 50");
        let mut out = run(&t, "easy", true);
        out.pieces[0].work -= 1;
        caught(&t, &out, "of work, runtime");
    }

    #[test]
    fn a_resume_on_other_processors_is_caught() {
        let (t, mut out) = suspending();
        let s = out.pieces.iter().position(|p| p.ended == PieceEnd::Suspended).expect("a suspended piece");
        let job = out.pieces[s].job;
        let resumed = s + 1 + out.pieces[s + 1..].iter().position(|p| p.job == job).expect("a resumed piece");
        // The other long job's processors: as many, but not the ones it was suspended on.
        let other = out.pieces.iter().position(|p| p.job != job && p.job != 2).expect("the other long job");
        out.pieces[resumed].runs = out.pieces[other].runs;
        caught(&t, &out, "resumed at 220");
    }

    #[test]
    fn a_suspended_job_is_not_passed_on_records_alone() {
        let (t, mut out) = suspending();
        out.pieces.clear();
        caught(&t, &out, "was suspended");
    }

    #[test]
    fn an_unfinished_job_and_a_busy_end_are_caught() {
        let t = trace();
        let mut out = run(&t, "easy", false);
        out.records[1].end = -1;
        caught(&t, &out, "never ran to completion");
        let mut out = run(&t, "easy", false);
        if let Some(s) = out.series.last_mut() {
            s.busy = 2;
        }
        caught(&t, &out, "the machine ends with 2 busy");
    }

    #[test]
    fn a_late_reserved_start_is_caught() {
        let t = trace();
        let mut out = run(&t, "easy", false);
        assert_eq!(reservations(&t, &out), Ok(()));
        out.observed.promises.as_mut().unwrap()[2] = out.records[2].start - 1;
        assert!(reservations(&t, &out).is_err());
    }
}
