//! Every policy's schedule on every shared trace, with default options, against the hashes in
//! `tests/fixtures/schedule-hashes.json` ([`schedlab::metrics::schedule_hash`]: each job's
//! number, start and end). A change to the engine, a policy or the trace reader that moves a
//! single job fails here, with every policy that moved named.
//!
//! CEA-Curie (295,540 jobs) is the scale test: `cargo test --release --test schedule_hashes --
//! --ignored` runs it. A policy with no hash recorded for a trace is listed, not passed over
//! silently.

mod common;

use std::collections::BTreeMap;

use schedlab::metrics::schedule_hash;
use schedlab::run::{configure, simulate_configured, Settings};
use schedlab::trace::{parse, TraceOptions};

fn fixture() -> BTreeMap<String, BTreeMap<String, String>> {
    let text = include_str!("fixtures/schedule-hashes.json");
    serde_json::from_str(text).expect("the fixture is JSON")
}

fn check(file: &str) {
    let expected = fixture().remove(file).unwrap_or_else(|| panic!("no hashes recorded for {file}"));
    let trace = parse(&common::read_shared(&format!("traces/{file}")), &TraceOptions::default()).expect("trace parses");
    let settings = Settings::default();
    let configs = configure("all", &settings).expect("every policy configures");
    let mut moved = Vec::new();
    let mut unrecorded = Vec::new();
    for cfg in &configs {
        let outcome = simulate_configured(&trace, cfg, &settings.engine, &mut |_| {});
        let got = schedule_hash(&trace, &outcome);
        match expected.get(&cfg.policy) {
            Some(want) if *want == got => {}
            Some(want) => moved.push(format!("{}: {want} -> {got}", cfg.policy)),
            None => unrecorded.push(format!("{}: {got}", cfg.policy)),
        }
    }
    assert!(moved.is_empty(), "{file}: schedules changed:\n{}", moved.join("\n"));
    if !unrecorded.is_empty() {
        eprintln!("{file}: no hash recorded for (schedule now):\n{}", unrecorded.join("\n"));
    }
    assert_eq!(
        configs.len() - unrecorded.len(),
        expected.len(),
        "{file}: the fixture names a policy that no longer exists"
    );
}

#[test]
fn hpc2n() {
    check("HPC2N-2002-2.2-cln.swf.gz");
}

#[test]
fn kth_sp2() {
    check("KTH-SP2-1996-2.1-cln.swf.gz");
}

#[test]
fn lanl_cm5() {
    check("LANL-CM5-1994-4.1-cln.swf.gz");
}

#[test]
fn nasa_ipsc() {
    check("NASA-iPSC-1993-3.1-cln.swf.gz");
}

#[test]
fn sdsc_par() {
    check("SDSC-Par-1996-3.1-cln.swf.gz");
}

#[test]
fn sdsc_sp2() {
    check("SDSC-SP2-1998-4.2-cln.swf.gz");
}

#[test]
fn sandia_ross() {
    check("Sandia-Ross-2001-1.1-cln.swf.gz");
}

#[test]
#[ignore = "the scale test: minutes on two cores; run with --ignored"]
fn cea_curie() {
    check("CEA-Curie-2011-2.1-cln.swf.gz");
}
