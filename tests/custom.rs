//! Your own policy (`custom:priority=...`): its expression twins give the built-in schedules on
//! every shared trace, hand-made schedules of WFP3 and RLScheduler's F1 worked out in comments,
//! and errors that name their column.

mod common;

use schedlab::metrics::schedule_hash;
use schedlab::run::{configure, run_one, Settings};
use schedlab::trace::{parse, TraceOptions};

/// The schedule hash and stop message of each policy of `names` on `trace`.
fn hashes(trace: &schedlab::trace::Trace, names: &str, settings: &[&str]) -> Vec<(String, String)> {
    let s = Settings::parse(settings).expect("settings parse");
    configure(names, &s)
        .expect("policies configure")
        .iter()
        .map(|cfg| {
            let (outcome, result) = run_one(trace, cfg, &s);
            assert_eq!(result.stopped, None, "{} stopped", cfg.policy);
            (cfg.policy.clone(), schedule_hash(trace, &outcome))
        })
        .collect()
}

/// EASY is the priority `-submit` (arrival order) with one reservation; SJF is `-estimate`
/// (shortest estimate first, for the reservation and for backfilling alike). Ties go by arrival
/// in both, so the schedules are the same job for job.
#[test]
fn expression_twins_give_the_built_in_schedules_on_every_shared_trace() {
    for file in common::shared_traces() {
        let trace = parse(&common::read_shared(&format!("traces/{file}")), &TraceOptions::default()).expect("parses");
        let got = hashes(
            &trace,
            "easy,custom:priority=-submit;k=1;name=easy-expr,sjf,custom:priority=-estimate;k=1;name=sjf-expr",
            &[],
        );
        assert_eq!(got[0].1, got[1].1, "{file}: easy {} against -submit {}", got[0].1, got[1].1);
        assert_eq!(got[2].1, got[3].1, "{file}: sjf {} against -estimate {}", got[2].1, got[3].1);
        assert_ne!(got[0].1, got[2].1, "{file}: EASY and SJF differ");
    }
}

/// WFP3, (wait / estimate)^3 x procs, on 4 processors. J1 (4 procs, 0-100) holds the machine
/// while J2 (2 procs, estimate 50), J3 (2, estimate 200) and J4 (4, estimate 10) arrive at 10,
/// 20 and 30. At 100 their priorities are J2 (90/50)^3 x 2 = 11.66, J3 (80/200)^3 x 2 = 0.13,
/// J4 (70/10)^3 x 4 = 1372: J4 starts and runs to 110, and J2, now first, reserves 110. J3
/// cannot backfill (no processor is free). At 110 J2 and J3 start together. EASY runs J2 and J3
/// at 100 and J4 at 150.
#[test]
fn wfp3_by_hand() {
    let t = common::trace(&common::swf(4, &[(0, 100, 4, 100), (10, 50, 2, 50), (20, 50, 2, 200), (30, 10, 4, 10)]));
    let wfp3 = common::run(&t, "custom:priority=(wait / estimate)^3 * procs;k=1", &[]);
    assert_eq!(common::starts(&wfp3), vec![0, 110, 110, 100]);
    assert_eq!(common::starts(&common::run(&t, "easy", &[])), vec![0, 100, 100, 150]);
}

/// RLScheduler's F1, -(log10(estimate) x procs + 870 x log10(submit)), on 4 processors. J1 (4
/// procs, 0-100) holds the machine; J2 (submitted at 10, 1 proc, estimate 1000) gets -(3 x 1 +
/// 870 x 1) = -873; J3 (at 20, 3 procs, estimate 10) -(1 x 3 + 870 x 1.301) = -1134.9; J4 (at
/// 30, 4 procs, estimate 10) -(4 + 870 x 1.477) = -1289.1. At 100 J2 starts (1 proc, to 1100)
/// and J3 fits beside it (3 procs, to 110); J4 reserves 1100, when J2's 1000 s end. J1 at
/// submit 0 has log10(0) = -inf, priority +inf: first, which is where it is anyway.
#[test]
fn f1_by_hand() {
    let t = common::trace(&common::swf(4, &[(0, 100, 4, 100), (10, 1000, 1, 1000), (20, 10, 3, 10), (30, 10, 4, 10)]));
    let f1 = common::run(&t, "custom:priority=-(log10(estimate) * procs + 870 * log10(submit))", &[]);
    assert_eq!(common::starts(&f1), vec![0, 100, 100, 1100]);
    // By width alone, widest first: J4 (4) starts at 100 and runs to 110; J3 (3) reserves 110
    // and J2 (1 proc) finds none free: both start at 110.
    let wide_first = common::run(&t, "custom:priority=procs", &[]);
    assert_eq!(common::starts(&wide_first), vec![0, 110, 110, 100]);

    // Where F1's size term overturns arrival order, on 64 processors: J1 (64 procs, 0-100)
    // holds the machine; J2 (at 10, 64 procs, estimate 100,000) gets -(5 x 64 + 870 x 1) =
    // -1190; J3 (at 20, 1 proc, estimate 10) -(1 x 1 + 870 x 1.301) = -1132.9, higher. At 100
    // J3 starts first (to 110) and J2, no longer fitting, reserves 110. EASY runs J2 at 100
    // (to 1100) and J3 after it.
    let t = common::trace(&common::swf(64, &[(0, 100, 64, 100), (10, 1000, 64, 100_000), (20, 10, 1, 10)]));
    let f1 = common::run(&t, "custom:priority=-(log10(estimate) * procs + 870 * log10(submit))", &[]);
    assert_eq!(common::starts(&f1), vec![0, 110, 100]);
    assert_eq!(common::starts(&common::run(&t, "easy", &[])), vec![0, 100, 1100]);
    // Without the size term, arrival order again.
    let submit_only = common::run(&t, "custom:priority=-(870 * log10(submit))", &[]);
    assert_eq!(common::starts(&submit_only), vec![0, 100, 1100]);
}

/// Ward et al.'s Eq. 1 with the paper's exponents, (wait_h)^1 x (runtime_h)^-1 x (procs/32)^1
/// (no queue classes: r^0 = 1), recomputed at every pass, with one reservation and no
/// backfilling: relaxed backfill with omega 0 (a window of 0 s backfills nothing) and dt 0
/// (priorities at every pass) is the same policy. The expression multiplies as relaxed does,
/// the job's constant first, so equal priorities round alike and ties go the same way.
#[test]
fn ward_eq1_is_relaxed_with_omega_0() {
    for file in [
        "HPC2N-2002-2.2-cln.swf.gz",
        "KTH-SP2-1996-2.1-cln.swf.gz",
        "LANL-CM5-1994-4.1-cln.swf.gz",
        "NASA-iPSC-1993-3.1-cln.swf.gz",
        "SDSC-Par-1996-3.1-cln.swf.gz",
        "SDSC-SP2-1998-4.2-cln.swf.gz",
        "Sandia-Ross-2001-1.1-cln.swf.gz",
    ] {
        let trace = parse(&common::read_shared(&format!("traces/{file}")), &TraceOptions::default()).expect("parses");
        let got = hashes(
            &trace,
            "relaxed,custom:priority=(wait / 3600) * ((prediction / 3600)^-1 * (procs / 32));k=1;backfill=none;name=eq1",
            &["omega=0", "dt=0"],
        );
        assert_eq!(got[0].1, got[1].1, "{file}");
    }
}

/// A backfill order of its own: `backfill_priority=-estimate` is EASY-SJBF (shortest estimate
/// backfilled first), `procs` with `k=0` is best fit (BFFS), and `wait`, which changes at every
/// pass and so ranks the candidates anew each time, is arrival order again: EASY.
#[test]
fn backfill_orders_of_their_own_give_the_built_in_schedules_on_every_shared_trace() {
    let mut differ = 0;
    for file in common::shared_traces() {
        let trace = parse(&common::read_shared(&format!("traces/{file}")), &TraceOptions::default()).expect("parses");
        let got = hashes(
            &trace,
            "easy-sjbf,custom:backfill_priority=-estimate;name=sjbf-expr,bffs,custom:k=0;backfill_priority=procs;name=bffs-expr,easy,custom:backfill_priority=wait;name=wait-expr",
            &[],
        );
        for pair in got.chunks(2) {
            assert_eq!(pair[0].1, pair[1].1, "{file}: {} {} against {} {}", pair[0].0, pair[0].1, pair[1].0, pair[1].1);
        }
        differ += usize::from(got[0].1 != got[4].1);
    }
    // NASA's light load leaves nothing for the order to change.
    assert_eq!(differ, 7, "EASY-SJBF and EASY differ on all traces but NASA's");
}

/// A run whose priority gives no number stops there and says where; bad expressions are
/// refused before any run, with their column.
#[test]
fn errors_name_their_column() {
    let t = common::trace(&common::swf(4, &[(0, 100, 4, 100), (10, 50, 2, 50), (20, 50, 2, 200)]));
    let s = Settings::default();
    let err = |spec: &str| configure(spec, &s).expect_err("refused").to_string();
    assert!(err("custom:priority=wait / estmate")
        .starts_with("priority=wait / estmate: column 8: unknown name \"estmate\"; the variables are wait,"));
    assert_eq!(err("custom:priority=(wait"), "priority=(wait: column 6: expected \")\" at the end");
    assert_eq!(err("custom:priority=-submit;k=x"), "k=x: not a valid number");
    assert_eq!(err("custom:priority=-submit;colour=red"), "colour=red: custom takes no such option");
    assert!(err("custom:name=easy").contains("built-in policy"));
    assert!(err("custom:priority=-submit,custom:priority=procs").contains("give each custom policy a name="));
    assert_eq!(
        err("custom:backfill_priority=procs +"),
        "backfill_priority=procs +: column 8: expected a number, a name or \"(\" at the end"
    );

    let cfg = configure("custom:priority=procs / (wait - 90)", &s).expect("configures").remove(0);
    let (_, result) = run_one(&t, &cfg, &s);
    let stopped = result.stopped.expect("stopped");
    // At 100 J2 has waited 90 s: 2 / 0.
    assert!(
        stopped.starts_with(
            "stopped: the priority \"procs / (wait - 90)\" gives no number for job 2 at 100 s (column 7: division by zero (2 / 0)): 1 of 3 jobs finished"
        ),
        "{stopped}"
    );
    let cfg = configure("custom:backfill_priority=procs / (wait - 90)", &s).expect("configures").remove(0);
    let stopped = run_one(&t, &cfg, &s).1.stopped.expect("stopped");
    assert!(
        stopped
            .starts_with("stopped: the backfill_priority \"procs / (wait - 90)\" gives no number for job 2 at 100 s"),
        "{stopped}"
    );
}

/// The command line: `--policy-file` reads KEY = VALUE lines (comments and blank lines
/// skipped) and runs the policy under its name beside `--policy`'s; the schedule is the inline
/// spelling's; a bad expression is refused with its column and exit code 2.
#[test]
fn command_line_policy_files() {
    let dir = std::env::temp_dir().join(format!("schedlab-custom-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("wfp3.policy");
    std::fs::write(
        &file,
        "# WFP3\nname = wfp3\n\npriority = (wait / estimate)^3 * procs   # fair to wide jobs\nk = 1\n",
    )
    .expect("write");
    let trace = common::shared().join("traces/KTH-SP2-1996-2.1-cln.swf.gz");
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_schedlab")).args(args).output().expect("schedlab runs")
    };
    let json = |out: std::process::Output| -> serde_json::Value {
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice(&out.stdout).expect("JSON")
    };
    let t = trace.to_str().expect("path");
    let from_file =
        json(run(&["run", t, "--policy", "easy", "--policy-file", file.to_str().expect("path"), "-f", "json"]));
    let inline =
        json(run(&["run", t, "--policy", "custom:priority=(wait / estimate)^3 * procs;name=wfp3", "-f", "json"]));
    let results = from_file["results"].as_array().expect("results");
    assert_eq!(results.len(), 2);
    assert_eq!(results[1]["policy"], "wfp3");
    assert_eq!(results[1]["options"]["priority"], "(wait / estimate)^3 * procs");
    assert_eq!(results[1]["schedule_hash"], inline["results"][0]["schedule_hash"]);
    assert_ne!(results[1]["schedule_hash"], results[0]["schedule_hash"]);
    let bad = run(&["run", t, "--policy", "custom:priority=2 * (wait"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("priority=2 * (wait: column 10: expected \")\" at the end"));
    let bad_file = dir.join("bad.policy");
    std::fs::write(&bad_file, "name = x\npriority (wait\n").expect("write");
    let bad = run(&["run", t, "--policy-file", bad_file.to_str().expect("path")]);
    assert_eq!(bad.status.code(), Some(2));
    let said = String::from_utf8_lossy(&bad.stderr);
    assert!(said.contains("bad.policy: line 2: expected one KEY = VALUE"), "{said}");
    std::fs::remove_dir_all(&dir).ok();
}
