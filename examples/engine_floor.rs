//! The floor under every policy's simulation time: the event loop with a policy that does
//! nothing but start the oldest waiting jobs while the machine has room (FCFS asked of the
//! machine, with no availability profile), beside the profile-based FCFS and EASY.
//!
//! Under that, the machine's own floor for the same schedule: FCFS written as one bare loop
//! (a heap of ends, a queue, a count of free processors) that fills the same per-job records
//! and machine steps the engine hands back, with none of the engine's generality (observers,
//! kills, suspensions, segments, alarms, wakes, per-event passes).
//!
//! `cargo run --release --example engine_floor -- TRACE.swf[.gz] [ROUNDS]` prints the median of
//! the rounds for each, and whether the floor's schedule equals FCFS's (it should: with one pass
//! per timestamp, FCFS starts exactly the queue heads that fit now).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::time::Instant;

use schedlab::engine::{
    simulate, EngineOptions, JobIdx, JobRecord, JobView, Observed, Outcome, Policy, Sample, System,
};
use schedlab::metrics::schedule_hash;
use schedlab::policy::Configured;
use schedlab::trace::{parse, Trace, TraceOptions};

/// Starts queue heads while they fit in the machine's free processors; keeps nothing else.
#[derive(Default)]
struct HeadsThatFit {
    queue: VecDeque<(JobIdx, u32)>,
}

impl Policy for HeadsThatFit {
    fn on_arrival(&mut self, job: JobView, _sys: &mut System) {
        self.queue.push_back((job.idx, job.procs));
    }
    fn on_completion(&mut self, _job: JobView, _sys: &mut System) {}
    fn schedule(&mut self, sys: &mut System) {
        while let Some(&(idx, procs)) = self.queue.front() {
            if procs > sys.free() || !sys.start(idx) {
                break;
            }
            self.queue.pop_front();
        }
    }
}

/// FCFS in one bare loop with one pass per timestamp, filling the records and steps the
/// engine would.
fn bare_fcfs(trace: &Trace) -> Outcome {
    let jobs = &trace.jobs;
    let n = jobs.len();
    let mut records = vec![JobRecord::unstarted(); n];
    let mut series: Vec<Sample> = Vec::new();
    let mut ends: BinaryHeap<Reverse<(i64, JobIdx)>> = BinaryHeap::new();
    let mut queue: VecDeque<JobIdx> = VecDeque::new();
    let (mut free, mut next, mut passes) = (trace.machine, 0usize, 0u64);
    loop {
        let mut t = jobs.get(next).map_or(i64::MAX, |j| j.submit);
        if let Some(Reverse((e, _))) = ends.peek() {
            t = t.min(*e);
        }
        if t == i64::MAX {
            break;
        }
        while let Some(&Reverse((e, i))) = ends.peek() {
            if e != t {
                break;
            }
            ends.pop();
            free += jobs[i as usize].procs;
            records[i as usize].end = t;
        }
        while next < n && jobs[next].submit == t {
            queue.push_back(next as JobIdx);
            next += 1;
        }
        passes += 1;
        while let Some(&i) = queue.front() {
            let j = &jobs[i as usize];
            if j.procs > free {
                break;
            }
            free -= j.procs;
            queue.pop_front();
            ends.push(Reverse((t + j.runtime, i)));
            let r = &mut records[i as usize];
            r.start = t;
            r.last_start = t;
        }
        let (busy, queued) = (trace.machine - free, queue.len() as u32);
        match series.last_mut() {
            Some(s) if s.busy == busy && s.queued == queued => {}
            Some(s) if s.time == t => (s.busy, s.queued) = (busy, queued),
            _ => series.push(Sample { time: t, busy, queued }),
        }
    }
    Outcome {
        records,
        series,
        passes,
        pieces: Vec::new(),
        piece_runs: Vec::new(),
        segments: Vec::new(),
        observed: Observed::default(),
        stopped: None,
    }
}

/// Median seconds of `rounds` runs of `run`, and the last run's schedule hash.
fn time(trace: &Trace, rounds: usize, run: &dyn Fn() -> schedlab::engine::Outcome) -> (f64, String) {
    let mut secs = Vec::new();
    let mut hash = String::new();
    for _ in 0..rounds {
        let t = Instant::now();
        let out = run();
        secs.push(t.elapsed().as_secs_f64());
        hash = schedule_hash(trace, &out);
    }
    secs.sort_by(f64::total_cmp);
    (secs[secs.len() / 2], hash)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        return Err("usage: engine_floor TRACE.swf[.gz] [ROUNDS]".into());
    };
    let rounds: usize = args.get(1).map_or(Ok(15), |r| r.parse())?;
    let trace = parse(&std::fs::read(path)?, &TraceOptions::default())?;
    let opts = EngineOptions::default();
    let floor = time(&trace, rounds, &|| simulate(&trace, &mut HeadsThatFit::default(), &opts));
    println!("{} jobs, median of {rounds} rounds, simulation alone", trace.jobs.len());
    let bare = time(&trace, rounds, &|| bare_fcfs(&trace));
    let (engine, bare_out) = (simulate(&trace, &mut HeadsThatFit::default(), &opts), bare_fcfs(&trace));
    if (&engine.records, &engine.series, engine.passes) != (&bare_out.records, &bare_out.series, bare_out.passes) {
        return Err("the bare loop's records, steps or passes differ from the engine's".into());
    }
    let same = |hash: &str| if hash == floor.1 { "  (same schedule as the floor)" } else { "" };
    println!("{:<40} {:>8.4} s  {}{}", "bare FCFS loop, same records and steps", bare.0, bare.1, same(&bare.1));
    println!("{:<40} {:>8.4} s  {}", "event loop, heads that fit (no profile)", floor.0, floor.1);
    for name in ["fcfs", "easy"] {
        let cfg = Configured::new(name, &[])?;
        let (s, hash) = time(&trace, rounds, &|| simulate(&trace, cfg.build(&trace).as_mut(), &opts));
        println!("{:<40} {:>8.4} s  {hash}{}", name, s, same(&hash));
    }
    Ok(())
}
