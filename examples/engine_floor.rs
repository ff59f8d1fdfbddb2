//! The floor under every policy's simulation time: the event loop with a policy that does
//! nothing but start the oldest waiting jobs while the machine has room (FCFS asked of the
//! machine, with no availability profile), beside the profile-based FCFS and EASY.
//!
//! `cargo run --release --example engine_floor -- TRACE.swf[.gz] [ROUNDS]` prints the median of
//! the rounds for each, and whether the floor's schedule equals FCFS's (it should: with one pass
//! per timestamp, FCFS starts exactly the queue heads that fit now).

use std::collections::VecDeque;
use std::time::Instant;

use schedlab::engine::{simulate, EngineOptions, JobIdx, JobView, Policy, System};
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
    println!("{:<40} {:>8.4} s  {}", "event loop, heads that fit (no profile)", floor.0, floor.1);
    for name in ["fcfs", "easy"] {
        let cfg = Configured::new(name, &[])?;
        let (s, hash) = time(&trace, rounds, &|| simulate(&trace, cfg.build(&trace).as_mut(), &opts));
        let same = if hash == floor.1 { "  (same schedule as the floor)" } else { "" };
        println!("{:<40} {:>8.4} s  {hash}{same}", name, s);
    }
    Ok(())
}
