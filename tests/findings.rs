//! Tsafrir et al.'s qualitative findings on the paper's own traces (SDSC-SP2 and KTH-SP2), the
//! `findings` and `sweep` commands, and the section 7 ranking on a real trace.

mod common;

use std::process::Command;

use schedlab::metrics::Cut;
use schedlab::run::Settings;
use schedlab::studies::findings::tsafrir;
use schedlab::trace::parse;

fn schedlab(args: &[&str]) -> (bool, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_schedlab")).args(args).output().expect("schedlab runs");
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn shared_trace(name: &str) -> String {
    common::shared().join("traces").join(name).to_string_lossy().into_owned()
}

/// On SDSC-SP2 and KTH-SP2, measured with the paper's cut, every finding of the paper holds.
#[test]
fn every_finding_holds_on_the_papers_traces() {
    let mut s = Settings::default();
    s.metrics.cut = Cut::Tsafrir;
    for name in ["SDSC-SP2-1998-4.2-cln.swf.gz", "KTH-SP2-1996-2.1-cln.swf.gz"] {
        let trace = parse(&common::read_shared(&format!("traces/{name}")), &s.trace).expect("trace parses");
        let st = tsafrir(&trace, &s).expect("policies configure");
        assert_eq!(st.findings.len(), 5);
        for f in &st.findings {
            println!("{name}: [{:?}] {}: {}", f.holds, f.claim, f.detail);
            assert_eq!(f.holds, Some(true), "{name}: {} does not hold: {}", f.claim, f.detail);
        }
        // Table 2/3: the accuracy of EASY's user estimates and of EASY+'s predictions.
        let acc = |p: &str| st.get(p).expect("ran").metrics.accuracy_pct.expect("the study observes predictions");
        assert!(acc("easy") < 50.0 && acc("easy+") > 55.0, "{name}: {} {}", acc("easy"), acc("easy+"));
        assert_eq!(acc("perfect++").round(), 100.0);
    }
}

/// The command prints the three table layouts and one verdict per claim and trace, skipping
/// logs without estimates.
#[test]
fn findings_command_reports_every_trace() {
    let (ok, out, err) = schedlab(&[
        "findings",
        &shared_trace("KTH-SP2-1996-2.1-cln.swf.gz"),
        &shared_trace("NASA-iPSC-1993-3.1-cln.swf.gz"),
    ]);
    assert!(ok, "{err}");
    for want in ["Table 3 layout", "Tables 4-5 layout", "Table 10 layout", "Summary", "NASA-iPSC-1993-3.1-cln: skipped"]
    {
        assert!(out.contains(want), "missing {want:?} in\n{out}");
    }
    let kth = out.lines().find(|l| l.trim_start().starts_with("KTH-SP2-1996-2.1-cln ")).expect("summary row");
    assert_eq!(kth.matches("holds").count(), 5, "{kth}");
}

/// The sweep ranks configurations best first, prints the per-window means (Fig. 10) and refuses
/// values out of range.
#[test]
fn sweep_ranks_configurations() {
    let demo = concat!(env!("CARGO_MANIFEST_DIR"), "/www/demo/KTH-SP2-1996-2.1-cln.excerpt.swf");
    let (ok, out, err) = schedlab(&["sweep", demo, "--vary", "window=1-3", "--vary", "metric=avg,max"]);
    assert!(ok, "{err}");
    assert!(out.starts_with("6 configurations of easy++"), "{out}");
    let degr: Vec<f64> =
        out.lines().filter_map(|l| l.split_whitespace().nth(1)?.strip_suffix('%')?.parse().ok()).take(6).collect();
    assert_eq!(degr.len(), 6, "{out}");
    assert!(degr.windows(2).all(|w| w[0] <= w[1]), "ranked best first: {degr:?}");
    assert!(out.contains("mean degradation by window"), "{out}");
    let (ok, _, err) = schedlab(&["sweep", demo, "--vary", "window=0"]);
    assert!(!ok && err.contains("window"), "{err}");
}

/// Ward et al.'s findings on Sandia-Ross (two queues, no high class by name): total wait falls
/// as omega grows under Est and Act, omega = infinity is best in most months, and the
/// high-class claim cannot be checked.
#[test]
fn ward_findings_on_sandia_ross() {
    let bytes = common::read_shared("traces/Sandia-Ross-2001-1.1-cln.swf.gz");
    let s = Settings::parse(&["queue_classes=header"]).expect("settings");
    let est = parse(&bytes, &s.trace).expect("trace parses");
    let st = schedlab::studies::findings::ward(&est, &s).expect("relaxed configures");
    let holds: Vec<Option<bool>> = st.findings.iter().map(|f| f.holds).collect();
    assert_eq!(holds, [Some(true), Some(true), Some(true), None], "{:#?}", st.findings);
    // Every month's jobs add up to the trace, in every run.
    for r in st.est.iter().chain(&st.act) {
        assert_eq!(r.monthly.months.iter().map(|m| m.jobs).sum::<u64>(), est.jobs.len() as u64);
    }
}

/// The command prints one table and one verdict per claim for each trace with several queues,
/// skipping the others, and the month table on request.
#[test]
fn omega_command_reports_each_trace() {
    let par = shared_trace("SDSC-Par-1996-3.1-cln.swf.gz");
    let (ok, out, err) = schedlab(&["omega", &par, "--months"]);
    assert!(ok, "{err}");
    for want in ["omega=inf", "total wait [h], Est", "total wait [h], Act", "Table 1 layout", "Summary", "1996/01"] {
        assert!(out.contains(want), "missing {want:?} in\n{out}");
    }
    assert_eq!(out.lines().filter(|l| l.trim_start().starts_with('[')).count(), 4, "{out}");
}
