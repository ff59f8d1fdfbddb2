//! pyss's own FCFS, EASY and conservative test cases (126 traces with expected end times).

mod common;

use std::collections::BTreeMap;

use serde_json::Value;

#[test]
fn every_pyss_case_ends_every_job_on_time() {
    let manifest: Value =
        serde_json::from_slice(&common::read_shared("peer-tests/pyss/manifest.json")).expect("manifest is JSON");
    let cases = manifest.as_array().expect("manifest is a list");
    assert_eq!(cases.len(), 126);
    let mut failures = Vec::new();
    for case in cases {
        let swf = case["swf"].as_str().unwrap();
        let policy = case["policy"].as_str().unwrap();
        let text = String::from_utf8(common::read_shared(&format!("peer-tests/pyss/{swf}"))).unwrap();
        let trace = common::trace(&text);
        assert_eq!(trace.machine, case["machine"].as_u64().unwrap() as u32);
        let recs = common::run(&trace, policy, &[]);
        let got: BTreeMap<u64, i64> = recs.iter().map(|r| (r.job_id, r.end)).collect();
        let want: BTreeMap<u64, i64> = case["expected_end"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.parse().unwrap(), v.as_i64().unwrap()))
            .collect();
        if got != want {
            let diff: Vec<String> = want
                .iter()
                .filter(|(k, v)| got.get(k) != Some(v))
                .map(|(k, v)| format!("job {k}: expected {v}, got {:?}", got.get(k)))
                .collect();
            failures.push(format!("{policy} {swf}: {}", diff.join("; ")));
        }
    }
    assert!(failures.is_empty(), "{} of 126 cases fail:\n{}", failures.len(), failures.join("\n"));
}
