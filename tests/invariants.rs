//! Invariants of every policy on every real trace in ../shared/traces (run with --release).

mod common;

use schedlab::engine::{simulate, EngineOptions, Observe, Outcome};
use schedlab::policy::{Configured, POLICIES};
use schedlab::trace::{parse, RuntimeSource, Trace, TraceOptions};

const TRACES: &[&str] = &[
    "KTH-SP2-1996-2.1-cln.swf.gz",
    "SDSC-SP2-1998-4.2-cln.swf.gz",
    "SDSC-Par-1996-3.1-cln.swf.gz",
    "NASA-iPSC-1993-3.1-cln.swf.gz",
    "LANL-CM5-1994-4.1-cln.swf.gz",
    "Sandia-Ross-2001-1.1-cln.swf.gz",
    "HPC2N-2002-2.2-cln.swf.gz",
];

fn load(name: &str, opts: &TraceOptions) -> Trace {
    parse(&common::read_shared(&format!("traces/{name}")), opts).expect("real trace parses")
}

fn run(trace: &Trace, policy: &str) -> Outcome {
    let cfg = Configured::new(policy, &[]).expect("policy exists");
    let mut p = cfg.build(trace);
    simulate(trace, p.as_mut(), &EngineOptions { placements: true, observe: Observe::ALL, ..Default::default() })
}

/// Checks what must hold for any policy ([`schedlab::check::schedule`]), and that no job was
/// killed more than once: speculative runs (Lawson & Smirni) are tried once per job.
fn check_schedule(trace: &Trace, out: &Outcome, what: &str) {
    if let Err(e) = schedlab::check::schedule(trace, out) {
        panic!("{what}: {e}");
    }
    if let Some((j, r)) = trace.jobs.iter().zip(&out.records).find(|(_, r)| r.killed_runs > 1) {
        panic!("{what}: job {} killed {} times", j.id, r.killed_runs);
    }
}

/// Every policy on every trace keeps the basic invariants.
#[test]
fn every_policy_on_every_real_trace_keeps_the_invariants() {
    for name in TRACES {
        let trace = load(name, &TraceOptions::default());
        for p in POLICIES {
            let out = run(&trace, p.name);
            check_schedule(&trace, &out, &format!("{} on {name}", p.name));
        }
        // Custom policies whose order changes at every pass, with one reservation and with
        // a reservation for every job, and one that reads usage and the machine's state.
        for p in [
            "custom:priority=(wait / estimate)^3 * procs;k=1",
            "custom:priority=(wait / estimate)^3 * procs;k=inf",
            "custom:priority=-user_usage / machine + if(free >= procs, 1, 0) * waiting;k=2",
        ] {
            let out = run(&trace, p);
            check_schedule(&trace, &out, &format!("{p} on {name}"));
        }
    }
}

/// With jobs running past their estimates (overrun=run) the planner is wrong about them, yet no
/// policy over-subscribes the machine or loses a job.
#[test]
fn overrunning_jobs_keep_the_invariants() {
    let opts = TraceOptions { overrun: schedlab::trace::Overrun::Run, ..TraceOptions::default() };
    for name in ["SDSC-SP2-1998-4.2-cln.swf.gz", "KTH-SP2-1996-2.1-cln.swf.gz"] {
        let trace = load(name, &opts);
        assert!(trace.report.altered.get("ran_past_estimate").copied().unwrap_or(0) > 400);
        for p in POLICIES {
            let out = run(&trace, p.name);
            check_schedule(&trace, &out, &format!("{} on {name} with overrun=run", p.name));
        }
    }
}

/// Reserved jobs never start later than the first reservation they were given, under exact
/// runtimes (the guarantee of EASY for the head job and of conservative for every job), and
/// also under user estimates, since jobs are killed at their estimate.
#[test]
fn reservations_are_honoured_on_real_traces() {
    for runtime in [RuntimeSource::Exact, RuntimeSource::Estimate] {
        let opts = TraceOptions { runtime, ..TraceOptions::default() };
        for name in ["KTH-SP2-1996-2.1-cln.swf.gz", "SDSC-SP2-1998-4.2-cln.swf.gz", "HPC2N-2002-2.2-cln.swf.gz"] {
            let trace = load(name, &opts);
            for policy in ["easy", "easy-sjbf", "conservative", "perfect", "perfect++", "x2-perf"] {
                let out = run(&trace, policy);
                if let Err(e) = schedlab::check::reservations(&trace, &out) {
                    panic!("{policy} on {name} ({runtime:?}): {e}");
                }
                let promises = out.observed.promises.as_ref().expect("promises observed");
                let reserved = promises.iter().filter(|&&r| r >= 0).count();
                assert!(reserved > 100, "{policy} on {name}: only {reserved} reservations made");
                if policy == "conservative" {
                    // Every job that did not start on arrival holds a reservation from its arrival on.
                    for ((j, r), &reserved) in trace.jobs.iter().zip(&out.records).zip(promises) {
                        assert!(reserved >= 0 || r.start == j.submit, "conservative: job {} had no reservation", j.id);
                    }
                }
            }
        }
    }
}

/// Two runs of the same trace and policy give the same schedule, bit for bit.
#[test]
fn simulations_are_deterministic() {
    let trace = load("SDSC-SP2-1998-4.2-cln.swf.gz", &TraceOptions::default());
    for p in POLICIES {
        assert_eq!(run(&trace, p.name), run(&trace, p.name), "{} is not deterministic", p.name);
    }
}

/// FCFS starts jobs in submission order, never backfills, and with exact runtimes
/// conservative backfilling never starts a job later than FCFS would.
#[test]
fn fcfs_keeps_order_and_conservative_dominates_it() {
    let opts = TraceOptions { runtime: RuntimeSource::Exact, ..TraceOptions::default() };
    let trace = load("KTH-SP2-1996-2.1-cln.swf.gz", &opts);
    let fcfs = run(&trace, "fcfs");
    assert!(fcfs.records.windows(2).all(|w| w[0].start <= w[1].start), "fcfs started jobs out of order");
    assert!(fcfs.records.iter().all(|r| !r.backfilled));
    let cons = run(&trace, "conservative");
    for (i, (f, c)) in fcfs.records.iter().zip(&cons.records).enumerate() {
        assert!(c.start <= f.start, "job index {i}: conservative {} later than fcfs {}", c.start, f.start);
    }
}
