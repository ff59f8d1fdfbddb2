//! The floor under every policy's simulation time: the event loop with a policy that does
//! nothing but start the oldest waiting jobs while the machine has room (FCFS asked of the
//! machine, with no availability profile), beside the profile-based FCFS and EASY.
//!
//! Under that, the machine's own floor for the same schedule: FCFS written as one bare loop
//! (a heap of ends, a queue, a count of free processors) that fills the same per-job records
//! and machine steps the engine hands back, with none of the engine's generality (observers,
//! kills, suspensions, segments, alarms, wakes, per-event passes). Likewise EASY with its
//! default options as one bare loop: the running jobs' planned ends in a sorted list, the
//! shadow time and extra processors found afresh after every end, the same records, steps and
//! passes as `easy`. What each bare loop costs is the least its schedule costs without the
//! engine; the engine's own share is the heads-that-fit loop minus the bare FCFS loop.
//!
//! `cargo run --release --example engine_floor -- TRACE.swf[.gz] [ROUNDS]` prints the median of
//! the rounds for each, and whether the floor's schedule equals FCFS's (it should: with one pass
//! per timestamp, FCFS starts exactly the queue heads that fit now). It stops with an error if
//! a bare loop's records, steps or passes differ from the engine's.

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
        step(&mut series, t, trace.machine - free, queue.len() as u32);
    }
    bare_outcome(records, series, passes)
}

/// A running job's planned end in [`bare_easy`], kept sorted by time (then job).
#[derive(Clone, Copy)]
struct PlannedEnd {
    time: i64,
    idx: JobIdx,
    procs: u32,
}

impl PlannedEnd {
    fn key(&self) -> (i64, JobIdx) {
        (self.time, self.idx)
    }

    /// Where `self` goes in (or is found in) `planned`.
    fn place(&self, planned: &[PlannedEnd]) -> usize {
        planned.partition_point(|p| p.key() < self.key())
    }
}

/// `(time, job)` as one number that orders as the pair does, for a heap of them.
fn at(t: i64, idx: JobIdx) -> Reverse<u128> {
    Reverse(((t as u64 ^ (1 << 63)) as u128) << 32 | idx as u128)
}

/// The `(time, job)` of [`at`]'s number.
fn time_job(k: u128) -> (i64, JobIdx) {
    (((k >> 32) as u64 ^ (1 << 63)) as i64, k as JobIdx)
}

/// EASY with the default options (user estimates, doubled when a job outlives them, one pass
/// per timestamp) in one bare loop, filling the records and steps the engine would: the running
/// jobs' planned ends in one sorted list instead of the availability profile, the shadow time
/// and extra processors found afresh at every pass after a job ended or outlived its plan, and
/// only new arrivals looked at after passes where nothing but arrivals happened.
fn bare_easy(trace: &Trace) -> Outcome {
    let jobs = &trace.jobs;
    let n = jobs.len();
    let mut records = vec![JobRecord::unstarted(); n];
    let mut series: Vec<Sample> = Vec::new();
    let mut ends: BinaryHeap<Reverse<u128>> = BinaryHeap::new();
    // Alarms at planned ends of jobs that will outlive them.
    let mut alarms: BinaryHeap<Reverse<u128>> = BinaryHeap::new();
    let mut planned: Vec<PlannedEnd> = Vec::new();
    // Passes asked for at shadow times, as the policy asks the engine to wake it there (each
    // time once, as the engine keeps them).
    let mut wakes: BinaryHeap<Reverse<i64>> = BinaryHeap::new();
    let mut prediction = vec![0i64; n];
    let mut running = vec![false; n];
    // Waiting jobs: (job, processors, planned runtime).
    let mut queue: Vec<(JobIdx, u32, i64)> = Vec::new();
    let mut started: Vec<JobIdx> = Vec::new();
    let (mut free, mut next, mut passes, mut first_waiting) = (trace.machine, 0usize, 0u64, 0usize);
    // After the last pass: the shadow time and extra processors of the blocked head, if one was
    // blocked, and how much of the queue it looked at.
    let mut shadow: Option<(i64, i64)> = None;
    let mut looked = 0usize;
    // A job ended or outlived its plan since the last pass: the whole queue is looked at again.
    let mut changed = true;
    let unplan = |planned: &mut Vec<PlannedEnd>, e: PlannedEnd| {
        let at = e.place(planned);
        if planned.get(at).is_some_and(|p| p.key() == e.key()) {
            planned.remove(at);
        }
    };
    loop {
        let mut t = jobs.get(next).map_or(i64::MAX, |j| j.submit);
        for heap in [&ends, &alarms] {
            if let Some(&Reverse(k)) = heap.peek() {
                t = t.min(time_job(k).0);
            }
        }
        if let Some(Reverse(w)) = wakes.peek() {
            t = t.min(*w);
        }
        if t == i64::MAX {
            break;
        }
        let mut eventful = false;
        while let Some(&Reverse(k)) = ends.peek() {
            let (e, i) = time_job(k);
            if e != t {
                break;
            }
            ends.pop();
            let (j, iu) = (&jobs[i as usize], i as usize);
            free += j.procs;
            running[iu] = false;
            records[iu].end = t;
            unplan(&mut planned, PlannedEnd { time: records[iu].start + prediction[iu], idx: i, procs: j.procs });
            (eventful, changed) = (true, true);
        }
        while let Some(&Reverse(k)) = alarms.peek() {
            let (e, i) = time_job(k);
            if e != t {
                break;
            }
            alarms.pop();
            let (j, iu) = (&jobs[i as usize], i as usize);
            let start = records[iu].start;
            if !running[iu] || (start + prediction[iu]).max(start + 1) > t {
                continue;
            }
            // Outlived its plan: the prediction doubles and the job is planned until then.
            unplan(&mut planned, PlannedEnd { time: start + prediction[iu], idx: i, procs: j.procs });
            prediction[iu] = prediction[iu].saturating_mul(2).min(schedlab::trace::MAX_TIME);
            let end = (start + prediction[iu]).max(t + 1);
            prediction[iu] = end - start;
            let e = PlannedEnd { time: end, idx: i, procs: j.procs };
            planned.insert(e.place(&planned), e);
            alarms.push(at(end, i));
            (eventful, changed) = (true, true);
        }
        while next < n && jobs[next].submit == t {
            prediction[next] = jobs[next].sched_runtime.max(1);
            queue.push((next as JobIdx, jobs[next].procs, prediction[next]));
            next += 1;
            eventful = true;
        }
        while wakes.peek().is_some_and(|w| w.0 <= t) {
            wakes.pop();
            eventful = true;
        }
        if !eventful {
            continue;
        }
        passes += 1;
        if changed || shadow.is_some_and(|(s, _)| s <= t) {
            (looked, shadow, changed) = (0, None, false);
        }
        // Every waiting job from `looked` on, kept in place unless it starts; behind the blocked
        // head the scan stops once no processor is free.
        let mut w = looked;
        let mut pos = looked;
        while pos < queue.len() {
            if free == 0 && shadow.is_some() {
                break;
            }
            let (i, procs, dur) = queue[pos];
            let fits = procs <= free
                && match shadow {
                    None => true,
                    Some((s, extra)) => t + dur <= s || procs as i64 <= extra,
                };
            if fits {
                let (j, iu) = (&jobs[i as usize], i as usize);
                free -= procs;
                if let Some((s, extra)) = &mut shadow {
                    if t + dur > *s {
                        *extra -= j.procs as i64;
                    }
                }
                running[iu] = true;
                let r = &mut records[iu];
                (r.start, r.last_start) = (t, t);
                ends.push(at(t + j.runtime, i));
                if j.runtime > dur {
                    alarms.push(at(t + dur, i));
                }
                let e = PlannedEnd { time: t + dur, idx: i, procs: j.procs };
                planned.insert(e.place(&planned), e);
                started.push(i);
            } else {
                if shadow.is_none() {
                    // The blocked head: its shadow time is where the planned ends free enough
                    // processors for it, and the extra ones are those left beside it then.
                    let mut acc = free as i64;
                    let mut k = 0;
                    let mut s = t;
                    while acc < procs as i64 && k < planned.len() {
                        s = planned[k].time;
                        while k < planned.len() && planned[k].time == s {
                            acc += planned[k].procs as i64;
                            k += 1;
                        }
                    }
                    shadow = Some((s, acc - procs as i64));
                }
                queue[w] = queue[pos];
                w += 1;
            }
            pos += 1;
        }
        if w < pos {
            queue.copy_within(pos.., w);
            queue.truncate(w + queue.len() - pos);
        }
        looked = queue.len();
        if let Some((s, _)) = shadow.filter(|&(s, _)| s > t) {
            if wakes.peek() != Some(&Reverse(s)) {
                wakes.push(Reverse(s));
            }
        }
        while first_waiting < next && records[first_waiting].start >= 0 {
            first_waiting += 1;
        }
        for i in started.drain(..) {
            records[i as usize].backfilled = i as usize > first_waiting;
        }
        step(&mut series, t, trace.machine - free, queue.len() as u32);
    }
    bare_outcome(records, series, passes)
}

/// Records the machine's step at `t` as the engine does: a new step only when something changed,
/// and a second change at the same time overwrites the first.
fn step(series: &mut Vec<Sample>, t: i64, busy: u32, queued: u32) {
    match series.last_mut() {
        Some(s) if s.busy == busy && s.queued == queued => {}
        Some(s) if s.time == t => (s.busy, s.queued) = (busy, queued),
        _ => series.push(Sample { time: t, busy, queued }),
    }
}

/// A bare loop's result, as the engine would hand it back.
fn bare_outcome(records: Vec<JobRecord>, series: Vec<Sample>, passes: u64) -> Outcome {
    Outcome {
        records,
        series,
        passes,
        pieces: Vec::new(),
        piece_runs: Vec::new(),
        segments: Vec::new(),
        observed: Observed::default(),
        stopped: None,
        failed: None,
        notes: Vec::new(),
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
    let easy = simulate(&trace, Configured::new("easy", &[])?.build(&trace).as_mut(), &opts);
    let bare_easy_out = bare_easy(&trace);
    if (&easy.records, &easy.series, easy.passes)
        != (&bare_easy_out.records, &bare_easy_out.series, bare_easy_out.passes)
    {
        return Err("the bare EASY loop's records, steps or passes differ from easy's".into());
    }
    let (b, hash) = time(&trace, rounds, &|| bare_easy(&trace));
    println!("{:<40} {:>8.4} s  {hash}  (same records and steps as easy)", "bare EASY loop", b);
    Ok(())
}
