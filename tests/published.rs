//! Agreement with published figures: the predictsim/pyss line of work (Gaussier et al., SC'15)
//! reports average bounded slowdown over all jobs, header machine size, DESIGN.md's filter.
//! docs/VALIDATION.md explains the job counts and every remaining difference.

mod common;

use schedlab::run::{configure, run_one, Settings};
use schedlab::trace::parse;

/// predictsim's filter keeps only jobs with an estimate; SchedLab keeps the others with their
/// runtime standing in unless told to drop them.
const FILTER: &str = "missing_estimate=drop";

fn avg_bsld(trace_file: &str, policy: &str, settings: &[&str]) -> (u64, f64) {
    let s = Settings::parse(&[&[FILTER], settings].concat()).expect("settings parse");
    let trace = parse(&common::read_shared(&format!("traces/{trace_file}")), &s.trace).expect("trace parses");
    let cfg = configure(policy, &s).expect("policy configures");
    let (_, r) = run_one(&trace, &cfg[0], &s);
    (r.metrics.jobs, r.metrics.avg_bsld)
}

fn assert_close(what: &str, got: f64, published: f64, tolerance: f64) {
    let off = (got - published).abs() / published;
    println!("{what}: {got:.2} vs published {published:.2} ({:+.2}%)", 100.0 * (got - published) / published);
    assert!(off <= tolerance, "{what}: {got:.3} is {:.2}% from the published {published}", off * 100.0);
}

/// SDSC-SP2: EASY 87.87 (54,006 jobs in the publication), within 2%.
#[test]
fn sdsc_sp2_easy_matches_published_bsld() {
    let (jobs, b) = avg_bsld("SDSC-SP2-1998-4.2-cln.swf.gz", "easy", &[]);
    assert_eq!(jobs, 53_999);
    assert_close("SDSC-SP2 EASY", b, 87.87, 0.02);
}

/// KTH-SP2: EASY 92.58 and EASY-SJBF 69.41 (28,481 jobs in the publication), within 5%.
#[test]
fn kth_sp2_matches_published_bsld() {
    let (jobs, b) = avg_bsld("KTH-SP2-1996-2.1-cln.swf.gz", "easy", &[]);
    assert_eq!(jobs, 28_467);
    assert_close("KTH-SP2 EASY", b, 92.58, 0.05);
    let (_, b) = avg_bsld("KTH-SP2-1996-2.1-cln.swf.gz", "easy-sjbf", &[]);
    assert_close("KTH-SP2 EASY-SJBF", b, 69.41, 0.05);
}

/// SDSC-SP2 EASY-SJBF 84.89: pyss runs a pass after every event, so when several jobs end in
/// the same second it backfills before it knows the later ones ended. With `passes=event` the
/// figure is reproduced; one pass per timestamp (the default) gives 82.95, 2.3% lower.
#[test]
fn sdsc_sp2_easy_sjbf_matches_published_bsld_with_pyss_passes() {
    let (jobs, b) = avg_bsld("SDSC-SP2-1998-4.2-cln.swf.gz", "easy-sjbf", &["passes=event"]);
    assert_eq!(jobs, 53_999);
    assert_close("SDSC-SP2 EASY-SJBF (passes=event)", b, 84.89, 0.02);
    let (_, b) = avg_bsld("SDSC-SP2-1998-4.2-cln.swf.gz", "easy", &["passes=event"]);
    assert_close("SDSC-SP2 EASY (passes=event)", b, 87.87, 0.02);
    let (_, b) = avg_bsld("KTH-SP2-1996-2.1-cln.swf.gz", "easy-sjbf", &["passes=event"]);
    assert_close("KTH-SP2 EASY-SJBF (passes=event)", b, 69.41, 0.05);
}

/// Jobs 1-14 of the KTH-SP2 log, which the cleaned version in ../shared drops ("job<=14") and the
/// 2006 conversion used by the publication kept (Parallel Workloads Archive, KTH-SP2; acknowledge
/// Lars Malinowsky). With them the trace is the publication's 28,481 jobs.
const KTH_JOBS_1_TO_14: [&str; 14] = [
    "1 0 964980 97225 56 -1 -1 56 210000 -1 1 1 1 -1 -1 -1 -1 -1",
    "2 327952 291900 9382 80 -1 -1 80 14400 -1 1 2 2 -1 -1 -1 -1 -1",
    "3 327998 303900 177 84 -1 -1 84 14400 -1 1 2 2 -1 -1 -1 -1 -1",
    "4 333654 297120 140 80 -1 -1 80 14400 -1 1 3 3 -1 -1 -1 -1 -1",
    "5 508960 196680 44155 16 -1 -1 16 53400 -1 1 4 4 -1 -1 -1 -1 -1",
    "6 534471 171240 4850 5 -1 -1 5 48000 -1 1 5 5 -1 -1 -1 -1 -1",
    "7 555144 150660 16882 16 -1 -1 16 52800 -1 1 6 6 -1 -1 -1 -1 -1",
    "8 555281 150600 25237 16 -1 -1 16 52800 -1 1 6 6 -1 -1 -1 -1 -1",
    "9 587036 45660 13714 9 -1 -1 9 14280 -1 1 7 7 -1 -1 -1 -1 -1",
    "10 587112 45720 13197 9 -1 -1 9 14280 -1 1 7 7 -1 -1 -1 -1 -1",
    "11 588361 117600 12 10 -1 -1 10 53400 -1 1 8 8 -1 -1 -1 -1 -1",
    "12 588864 117180 20353 5 -1 -1 5 52200 -1 1 9 9 -1 -1 -1 -1 -1",
    "13 590254 21600 3573 16 -1 -1 16 3600 -1 0 10 10 -1 -1 -1 -1 -1",
    "14 593394 17760 16 2 -1 -1 2 60 -1 0 11 11 -1 -1 -1 -1 -1",
];

/// With the publication's KTH file (the cleaned log plus jobs 1-14) and pyss's passes, the
/// published figures are reproduced to the last printed digit: 92.5765397336295 and 69.4054005803035.
#[test]
fn kth_sp2_reproduces_published_figures_exactly_with_their_file() {
    let gz = common::read_shared("traces/KTH-SP2-1996-2.1-cln.swf.gz");
    let text = String::from_utf8(common::gunzip(&gz)).expect("utf-8");
    let (header, body): (Vec<&str>, Vec<&str>) = text.lines().partition(|l| l.starts_with(';'));
    let mut full: Vec<&str> = header;
    full.extend(KTH_JOBS_1_TO_14);
    full.extend(body);
    let s = Settings::parse(&["passes=event"]).expect("settings");
    let trace = parse(full.join("\n").as_bytes(), &s.trace).expect("trace parses");
    assert_eq!(trace.jobs.len(), 28_481);
    for (policy, published) in [("easy", 92.5765397336295), ("easy-sjbf", 69.4054005803035)] {
        let cfg = configure(policy, &s).expect("policy");
        let (_, r) = run_one(&trace, &cfg[0], &s);
        println!("KTH-SP2 + jobs 1-14 {policy} (passes=event): {:.13} vs published {published}", r.metrics.avg_bsld);
        assert!((r.metrics.avg_bsld - published).abs() < 1e-9, "{policy}: {} vs {published}", r.metrics.avg_bsld);
    }
    // predictsim's EASY++ (easy_plus_plus_scheduler, predictor_tsafrir, corrector reqtime): a
    // full window, and no pass at a correction. Its metrics file gives the digits.
    let s = Settings::parse(&PREDICTSIM).expect("settings");
    for (policy, published) in [("easy++", 62.8568827272923), ("perfect++", 49.8477189313406)] {
        let cfg = configure(policy, &s).expect("policy");
        let (_, r) = run_one(&trace, &cfg[0], &s);
        println!("KTH-SP2 + jobs 1-14 {policy} (predictsim): {:.13} vs published {published}", r.metrics.avg_bsld);
        assert!((r.metrics.avg_bsld - published).abs() < 1e-9, "{policy}: {} vs {published}", r.metrics.avg_bsld);
    }
}

/// predictsim's EASY++ as published in SC'15: a pass per event, a prediction only from a full
/// window of two jobs (`fullness=full`), and no pass when a prediction is corrected
/// (`correction_pass=off`): passes run only at arrivals and terminations.
const PREDICTSIM: [&str; 3] = ["passes=event", "fullness=full", "correction_pass=off"];

/// The SC'15 table's EASY++ on the shared traces it covers, with predictsim's options: within
/// 1% (SDSC-SP2 64.99 vs 65.06: the publication's file has 7 more jobs, see VALIDATION.md).
/// Running a pass at each correction instead moves SDSC-SP2 to 71.39 (+9.7%).
#[test]
fn easy_plus_plus_matches_sc15_with_predictsim_options() {
    for (trace, jobs, published) in
        [("SDSC-SP2-1998-4.2-cln.swf.gz", 53_999, 65.06), ("KTH-SP2-1996-2.1-cln.swf.gz", 28_467, 62.86)]
    {
        let (n, b) = avg_bsld(trace, "easy++", &PREDICTSIM);
        assert_eq!(n, jobs);
        assert_close(&format!("{trace} EASY++ (predictsim)"), b, published, 0.01);
    }
    let (_, b) = avg_bsld("SDSC-SP2-1998-4.2-cln.swf.gz", "easy++", &["passes=event", "fullness=full"]);
    assert!((b - 65.06).abs() / 65.06 > 0.05, "with a pass at each correction: {b}");
}

/// Runtime predictions (Tsafrir et al.), average bounded slowdown over all jobs as published
/// with predictsim: SDSC-SP2 EASY++ 65.06 and PERFECT++ 56.84 (within 3%); KTH-SP2 EASY++ 62.86
/// and PERFECT++ 49.85 (within 6%). Defaults: Table 12's predictor with a partial window.
#[test]
fn predictions_match_published_bsld() {
    for (trace, tol, refs) in [
        ("SDSC-SP2-1998-4.2-cln.swf.gz", 0.03, [("easy++", 65.06), ("perfect++", 56.84)]),
        ("KTH-SP2-1996-2.1-cln.swf.gz", 0.06, [("easy++", 62.86), ("perfect++", 49.85)]),
    ] {
        for (policy, published) in refs {
            let (_, b) = avg_bsld(trace, policy, &[]);
            assert_close(&format!("{trace} {policy}"), b, published, tol);
        }
    }
    // predictsim's predictor needs both history jobs (a full window) and its engine runs a pass
    // per event. On KTH-SP2 that variant is closer still. (On SDSC-SP2 EASY++ is chaotic: a
    // 0.01% change of load moves it by 5%, see docs/VALIDATION.md.)
    for (policy, published) in [("easy++", 62.86), ("perfect++", 49.85)] {
        let (_, b) = avg_bsld("KTH-SP2-1996-2.1-cln.swf.gz", policy, &["fullness=full", "passes=event"]);
        assert_close(&format!("KTH-SP2 {policy} (fullness=full, passes=event)"), b, published, 0.02);
    }
}
