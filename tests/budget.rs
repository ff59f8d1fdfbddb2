//! Runaway runs: a simulation past its time budget stops, says where, and its statistics cover
//! exactly the jobs it finished, scheduled as the full run schedules them.

mod common;

use std::process::Command;

use schedlab::run::{configure, result_of, run_one, simulate_configured_until, Settings};
use schedlab::trace::parse;

#[test]
fn a_run_past_its_budget_stops_with_partial_statistics() {
    let gz = common::read_shared("traces/SDSC-SP2-1998-4.2-cln.swf.gz");
    for policy in ["conservative", "cons.72max"] {
        let full_s = Settings::parse(&[] as &[&str]).expect("settings");
        let trace = parse(&gz, &full_s.trace).expect("trace");
        let cfg = &configure(policy, &full_s).expect("policy")[0];
        let (full, full_r) = run_one(&trace, cfg, &full_s);
        assert_eq!(full_r.stopped, None);
        assert!(full.stopped.is_none());

        let s = Settings::parse(&["budget_s=0.001"]).expect("settings");
        let (part, r) = run_one(&trace, cfg, &s);
        let at = part.stopped.expect("stopped by the budget");
        let finished: Vec<usize> = (0..trace.jobs.len()).filter(|&i| part.records[i].end >= 0).collect();
        let why = r.stopped.as_deref().expect("a message");
        assert!(why.starts_with("stopped at the time budget of 0.001 s: "), "{why}");
        assert!(why.contains(&format!(
            "{} of {} jobs finished ({} had arrived)",
            finished.len(),
            trace.jobs.len(),
            at.arrived
        )));
        assert!(finished.len() < trace.jobs.len() / 2, "{policy}: {} finished", finished.len());
        assert_eq!(r.metrics.jobs_unfinished as usize, trace.jobs.len() - finished.len());
        // Everything decided before the stop is what the full run decided.
        for &i in &finished {
            assert_eq!(part.records[i].start, full.records[i].start, "{policy}: job {i}");
            assert_eq!(part.records[i].end, full.records[i].end, "{policy}: job {i}");
            assert!(part.records[i].end <= at.time);
        }
        // The statistics are over the finished jobs only.
        let waits: Vec<i64> = finished.iter().map(|&i| part.records[i].start - trace.jobs[i].submit).collect();
        let avg = waits.iter().sum::<i64>() as f64 / waits.len() as f64;
        assert!((r.metrics.avg_wait_s - avg).abs() < 1e-6, "{policy}: {} vs {avg}", r.metrics.avg_wait_s);
    }
}

#[test]
fn a_caller_that_says_stop_stops_the_run_where_it_is_asked() {
    let gz = common::read_shared("traces/SDSC-SP2-1998-4.2-cln.swf.gz");
    let s = Settings::parse(&[] as &[&str]).expect("settings");
    let trace = parse(&gz, &s.trace).expect("trace");
    let cfg = &configure("easy", &s).expect("policy")[0];
    let (full, _) = run_one(&trace, cfg, &s);
    // Asked every 64 passes: the tenth question says stop.
    let mut asked = 0;
    let part = simulate_configured_until(&trace, cfg, &s.engine, &mut |_| {
        asked += 1;
        asked < 10
    });
    assert_eq!(asked, 10);
    let at = part.stopped.expect("stopped by its caller");
    let finished = part.records.iter().filter(|r| r.end >= 0).count();
    assert!(finished > 0 && finished < trace.jobs.len() / 10, "{finished} finished");
    for (p, f) in part.records.iter().zip(&full.records).filter(|(p, _)| p.end >= 0) {
        assert_eq!((p.start, p.end), (f.start, f.end));
        assert!(p.end <= at.time);
    }
    let r = result_of(&trace, cfg, &s, &part, &|a, b| {
        a();
        b();
    });
    let why = r.stopped.expect("a message");
    assert!(why.starts_with("stopped by its caller: "), "{why}");
    // Never asked to stop, it runs to the end as a plain run.
    let whole = simulate_configured_until(&trace, cfg, &s.engine, &mut |_| true);
    assert!(whole.stopped.is_none());
    assert_eq!(whole.records, full.records);
}

#[test]
fn budget_settings_are_checked() {
    for bad in ["budget_s=0", "budget_s=-1", "budget_s=abc", "budget_s=NaN", "budget_s=inf"] {
        assert!(Settings::parse(&[bad]).is_err(), "{bad} accepted");
    }
    assert_eq!(Settings::parse(&["budget_s=2.5"]).expect("ok").engine.budget_ms, Some(2500));
    assert_eq!(Settings::parse(&["budget_s=none"]).expect("ok").engine.budget_ms, None);
}

#[test]
fn the_command_line_says_a_run_stopped() {
    let path = common::shared().join("traces/HPC2N-2002-2.2-cln.swf.gz");
    let o = Command::new(env!("CARGO_BIN_EXE_schedlab"))
        .args(["run", &path.to_string_lossy(), "--policy", "conservative,fcfs", "--set", "budget_s=0.001"])
        .output()
        .expect("runs");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("conservative: stopped at the time budget of 0.001 s: "), "{out}");
    assert!(out.contains("the statistics cover the finished jobs only"), "{out}");
}
