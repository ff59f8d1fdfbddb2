//! The Lublin-Feitelson generator against its specification (../shared/models/lublin99.md)
//! and the reference program's statistics (lublin99-reference-stats.json): the same per-sample
//! statistics to every printed digit for the reference's seeds (the same draws), the model's
//! figures on 100,000 jobs of other seeds within the reference's own spread, the daily weights,
//! and a target load reached within 2%.

mod common;

use schedlab::trace::{parse, TraceOptions};
use schedlab::workload::lublin::{daily_weights, draw, JobTypes, ModelJob, BATCH, INTERACTIVE, TYPELESS};
use schedlab::workload::{generate, WorkloadOptions};
use serde_json::Value;

const CONFIGS: [(&str, JobTypes, f64); 5] = [
    ("128_batch", JobTypes::Batch, 7.0),
    ("1024_batch", JobTypes::Batch, 10.0),
    ("128_both", JobTypes::Both, 7.0),
    ("128_typeless", JobTypes::Typeless, 7.0),
    ("128_interactive", JobTypes::Interactive, 7.0),
];

fn reference() -> Value {
    serde_json::from_slice(&common::read_shared("models/lublin99-reference-stats.json")).expect("JSON")
}

/// One sample's statistics, computed as the reference file says: quantile q = sorted[floor(q
/// (n - 1))], inter-arrivals = gaps of the sorted submits, load over last - first submit.
fn stats(jobs: &[ModelJob], machine: f64) -> Vec<(&'static str, f64)> {
    let n = jobs.len() as f64;
    let mut rt: Vec<u64> = jobs.iter().map(|j| j.runtime).collect();
    rt.sort_unstable();
    let q = |v: &[u64], p: f64| v[(p * (v.len() - 1) as f64).floor() as usize] as f64;
    let mut submits: Vec<u64> = jobs.iter().map(|j| j.submit).collect();
    submits.sort_unstable();
    let mut gaps: Vec<u64> = submits.windows(2).map(|w| w[1] - w[0]).collect();
    let ia_mean = gaps.iter().sum::<u64>() as f64 / gaps.len() as f64;
    let ia_sd = (gaps.iter().map(|&g| (g as f64 - ia_mean).powi(2)).sum::<f64>() / (gaps.len() - 1) as f64).sqrt();
    gaps.sort_unstable();
    let parallel = jobs.iter().filter(|j| j.size > 1).count() as f64;
    let pow2 = jobs.iter().filter(|j| j.size > 1 && j.size.is_power_of_two()).count() as f64;
    let span = (submits[submits.len() - 1] - submits[0]) as f64;
    let work: f64 = jobs.iter().map(|j| j.runtime as f64 * j.size as f64).sum();
    vec![
        ("serial", jobs.iter().filter(|j| j.size == 1).count() as f64 / n),
        ("pow2_of_parallel", pow2 / parallel),
        ("size_mean", jobs.iter().map(|j| j.size as f64).sum::<f64>() / n),
        ("runtime_mean", rt.iter().sum::<u64>() as f64 / n),
        ("runtime_p10", q(&rt, 0.1)),
        ("runtime_p50", q(&rt, 0.5)),
        ("runtime_p90", q(&rt, 0.9)),
        ("ln_runtime_mean", rt.iter().map(|&r| (r as f64).ln()).sum::<f64>() / n),
        ("ia_mean", ia_mean),
        ("ia_cv", ia_sd / ia_mean),
        ("ia_median", q(&gaps, 0.5)),
        ("load", work / (span * machine)),
        ("batch_fraction", jobs.iter().filter(|j| j.batch).count() as f64 / n),
        ("first_submit", jobs[0].submit as f64),
    ]
}

/// Means over samples of each statistic.
fn mean_stats(samples: &[Vec<ModelJob>], machine: f64) -> Vec<(&'static str, f64)> {
    let all: Vec<_> = samples.iter().map(|s| stats(s, machine)).collect();
    (0..all[0].len()).map(|k| (all[0][k].0, all.iter().map(|s| s[k].1).sum::<f64>() / all.len() as f64)).collect()
}

/// The reference's seeds 1001-1050, 20,000 jobs each: every statistic's mean over the 50
/// samples is the reference program's to the digits the file prints (1e-9 relative), because
/// the draws are the reference's (drand48, its order, its gamma sampler).
#[test]
fn the_reference_seeds_give_the_reference_statistics() {
    let r = reference();
    for (name, types, log2) in CONFIGS {
        let machine = 2f64.powf(log2);
        let samples: Vec<_> = (1001..=1050).map(|seed| draw(seed, 20_000, types, log2, 1.0)).collect();
        for (stat, ours) in mean_stats(&samples, machine) {
            let want = r[name]["reference_50x20000"][stat]["mean"].as_f64().expect("a reference mean");
            let close = (ours - want).abs() <= 1e-9 * want.abs().max(1.0);
            assert!(close, "{name} {stat}: ours {ours}, the reference's {want}");
        }
    }
}

/// Other seeds (1-5, 100,000 jobs): each mean statistic lies within 4 standard errors of the
/// reference's mean (its sd over 20,000-job samples / sqrt(5)); the size and runtime
/// distributions are within the two-sample KS distance that two independent reference samples
/// show; the hourly arrival profile is the reference's within 0.006 per hour.
#[test]
fn other_seeds_give_the_models_figures() {
    let r = reference();
    for (name, types, log2) in CONFIGS {
        let machine = 2f64.powf(log2);
        let samples: Vec<_> = (1..=5).map(|seed| draw(seed, 20_000, types, log2, 1.0)).collect();
        for (stat, ours) in mean_stats(&samples, machine) {
            let refs = &r[name]["reference_50x20000"][stat];
            let (mean, sd) = (refs["mean"].as_f64().expect("mean"), refs["sd"].as_f64().expect("sd"));
            // A statistic with no spread (runtime_p10 = 3 in every reference sample) must match.
            let tolerance = (4.0 * sd / 5f64.sqrt()).max(1e-9);
            assert!((ours - mean).abs() <= tolerance, "{name} {stat}: ours {ours}, reference {mean} +/- {sd}");
        }
        let jobs: Vec<ModelJob> = samples.concat();
        // Runtime quantiles against the pooled reference ones (1,000,000 jobs).
        let mut rt: Vec<u64> = jobs.iter().map(|j| j.runtime).collect();
        rt.sort_unstable();
        let pooled = r[name]["reference_50x20000"]["pooled_runtime_quantiles"].as_object().expect("quantiles");
        for (q, want) in pooled {
            let q: f64 = q.parse().expect("a quantile");
            let want = want.as_f64().expect("a value");
            // The CDF at our quantile must be within the KS noise (0.016) of q.
            let at = rt.partition_point(|&x| (x as f64) <= want) as f64 / rt.len() as f64;
            let below = rt.partition_point(|&x| (x as f64) < want) as f64 / rt.len() as f64;
            assert!(
                below - 0.016 <= q && q <= at + 0.016,
                "{name} runtime q{q}: reference {want}, our CDF {below}..{at}"
            );
        }
        // Arrivals by hour of day (the printed, truncated clock).
        let mut hours = [0f64; 24];
        for j in &jobs {
            hours[(j.submit / 3600 % 24) as usize] += 1.0 / jobs.len() as f64;
        }
        let want = r[name]["reference_50x20000"]["pooled_arrivals_by_hour"].as_array().expect("hours");
        for (h, w) in want.iter().enumerate() {
            let w = w.as_f64().expect("a fraction");
            assert!((hours[h] - w).abs() <= 0.006, "{name} hour {h}: ours {:.4}, reference {w}", hours[h]);
        }
    }
}

/// The 48 half-hour weights are the reference's to 9 digits (lublin99-daily-weights.csv; its
/// gamma CDF stops at a relative 1e-10, so the last digits depend on the series' terms).
#[test]
fn daily_weights_are_the_references() {
    let csv = String::from_utf8(common::read_shared("models/lublin99-daily-weights.csv")).expect("text");
    let ours = [daily_weights(&BATCH), daily_weights(&INTERACTIVE), daily_weights(&TYPELESS)];
    let mut rows = 0;
    for line in csv.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let k: usize = f[0].parse().expect("bucket");
        for t in 0..3 {
            let want: f64 = f[2 + t].parse().expect("weight");
            assert!((ours[t][k] - want).abs() < 1e-9, "type {t} bucket {k}: {} against {want}", ours[t][k]);
        }
        rows += 1;
    }
    assert_eq!(rows, 48);
}

/// A target load is reached within 0.5% (the generator's stopping rule) for
/// several seeds, machine sizes and loads; the trace reads back with every job and the load.
#[test]
fn a_target_load_is_reached() {
    for machine in [64u32, 128, 100, 1024] {
        for (seed, load) in [(1u64, 0.5), (2, 0.8), (3, 0.95)] {
            let o = WorkloadOptions { machine, jobs: 5000, seed, load: Some(load), ..Default::default() };
            let w = generate(&o);
            assert!((w.load / load - 1.0).abs() <= 0.005, "machine {machine} seed {seed}: {} for {load}", w.load);
            let t = parse(w.to_swf().as_bytes(), &TraceOptions::default()).expect("reads");
            assert_eq!((t.jobs.len(), t.machine), (5000, machine));
            let work: f64 = t.jobs.iter().map(|j| j.runtime as f64 * j.procs as f64).sum();
            let span = (t.jobs[4999].submit - t.jobs[0].submit) as f64;
            assert!((work / (span * machine as f64) / w.load - 1.0).abs() < 1e-9);
        }
    }
}

/// A span of days instead of a number of jobs: every job submitted within it and none after,
/// the model's own jobs (at its own load, the first days of a longer span), and a target load
/// reached by the jobs within it; `days` and `jobs` together are refused.
#[test]
fn a_span_of_days_is_a_workload() {
    let day = 86_400u64;
    let month = generate(&WorkloadOptions { days: Some(30.0), seed: 3, ..Default::default() });
    let two = generate(&WorkloadOptions { days: Some(60.0), seed: 3, ..Default::default() });
    let last = month.jobs.last().expect("jobs").submit;
    assert!(last < 30 * day && last > 29 * day, "last submit {last}");
    // The model's jobs in submission order: a month is the first month of two.
    assert!(
        month.jobs.len() > 1000 && two.jobs.len() > month.jobs.len() * 3 / 2,
        "{} {}",
        month.jobs.len(),
        two.jobs.len()
    );
    assert_eq!(month.jobs[..], two.jobs[..month.jobs.len()]);
    assert!(two.jobs[month.jobs.len()].submit >= 30 * day);
    for (machine, load) in [(128u32, 0.8), (1024, 0.6), (64, 0.95)] {
        let o = WorkloadOptions { machine, days: Some(20.0), load: Some(load), seed: 5, ..Default::default() };
        let w = generate(&o);
        assert!((w.load / load - 1.0).abs() <= 0.005, "machine {machine}: {} for {load}", w.load);
        let last = w.jobs.last().expect("jobs").submit;
        assert!(last < 20 * day && last > 19 * day, "machine {machine}: last submit {last}");
        let swf = w.to_swf();
        assert!(swf.contains(&format!("generated with model=lublin99,machine={machine},days=20,")), "{}", &swf[..800]);
    }
    let err = WorkloadOptions::parse("jobs=100,days=3").expect_err("refused").to_string();
    assert!(err.contains("cannot both be given"), "{err}");
    assert_eq!(WorkloadOptions::parse("days=2.5").expect("parses").days, Some(2.5));
}

/// Estimates from Tsafrir, Etsion & Feitelson's model (`estimate=tef`): as many distinct
/// estimates as its bin count for the number of jobs, its 20 most popular held by 89% of the
/// jobs, the maximum (the longest runtime rounded up to an hour) the most popular with the
/// share its head formula leaves (89% less ranks 2-20: 21.73%), every value popular on the four
/// logs below the maximum among them, and no estimate below its job's runtime.
#[test]
fn tef_estimates_are_the_models() {
    use schedlab::workload::estimates::{bin_count, EST_JOINT};
    use schedlab::workload::Estimates;
    for (jobs, seed) in [(10_000usize, 1u64), (40_000, 2), (3_000, 3)] {
        let o = WorkloadOptions { jobs, seed, load: Some(0.8), estimates: Estimates::Tef, ..Default::default() };
        let w = generate(&o);
        assert_eq!(w.estimates.len(), jobs);
        assert!(w.jobs.iter().zip(&w.estimates).all(|(j, &e)| e >= j.runtime), "an estimate under its runtime");
        let mut counts: std::collections::BTreeMap<u64, usize> = Default::default();
        w.estimates.iter().for_each(|&e| *counts.entry(e).or_default() += 1);
        assert_eq!(counts.len(), bin_count(jobs), "{jobs} jobs");
        let mut by_count: Vec<(usize, u64)> = counts.iter().map(|(&e, &n)| (n, e)).collect();
        by_count.sort_by(|a, b| b.cmp(a));
        let head: usize = by_count.iter().take(20).map(|c| c.0).sum();
        assert!((head as f64 / jobs as f64 - 0.89).abs() < 0.005, "{jobs} jobs: head {head}");
        let longest = w.jobs.iter().map(|j| j.runtime).max().expect("jobs");
        let max = longest.div_ceil(3600) * 3600;
        assert_eq!(by_count[0].1, max, "{jobs} jobs: the maximum is the most popular");
        assert!((by_count[0].0 as f64 / jobs as f64 - 0.217329).abs() < 0.002, "{jobs} jobs: {}", by_count[0].0);
        for e in EST_JOINT.iter().filter(|&&e| e < max) {
            assert!(counts.contains_key(e), "{jobs} jobs: {e} s missing");
        }
        assert_eq!(generate(&o).estimates, w.estimates, "same seed, same estimates");
        let swf = w.to_swf();
        assert!(swf.contains("estimate=tef") && swf.contains("Tsafrir, Etsion & Feitelson"));
    }
}

/// The same seed gives the same SWF; another seed another.
#[test]
fn a_seed_is_a_workload() {
    let o = WorkloadOptions { jobs: 2000, seed: 7, load: Some(0.7), ..Default::default() };
    assert_eq!(generate(&o).to_swf(), generate(&o).to_swf());
    assert_ne!(generate(&o).to_swf(), generate(&WorkloadOptions { seed: 8, ..o.clone() }).to_swf());
    let parsed =
        WorkloadOptions::parse("lublin99,machine=256,jobs=300,load=0.9,seed=3,types=batch,estimate=2").expect("parses");
    assert_eq!(
        (parsed.machine, parsed.jobs, parsed.seed, parsed.load, parsed.types),
        (256, 300, 3, Some(0.9), JobTypes::Batch)
    );
    assert_eq!(parsed.estimates, schedlab::workload::Estimates::Factor(2.0));
    let err = WorkloadOptions::parse("machine=12x").expect_err("refused").to_string();
    assert!(err.contains("machine=12x"), "{err}");
    let err = WorkloadOptions::parse("jobs=1,load=0.5").expect_err("refused").to_string();
    assert_eq!(err, "jobs=1: must be at least 2 to reach a load");
    let err = WorkloadOptions::parse("colour=red").expect_err("refused").to_string();
    assert!(err.contains("not a workload option"), "{err}");
}

/// The command line: `schedlab generate` writes the SWF whose `generate:` spelling runs as a
/// trace with the same schedule; a bad option is a usage error naming it.
#[test]
fn command_line_generate() {
    let dir = std::env::temp_dir().join(format!("schedlab-generate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("g.swf");
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_schedlab")).args(args).output().expect("schedlab runs")
    };
    let f = file.to_str().expect("path");
    let out = run(&["generate", "--machine", "64", "--jobs", "3000", "--load", "0.85", "--seed", "4", "-o", f]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("3000 jobs of lublin99 on 64 processors, offered load 0.8"), "{said}");
    let hash = |trace: &str| -> String {
        let out = run(&["run", trace, "--policy", "easy", "-f", "json"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        v["results"][0]["schedule_hash"].as_str().expect("hash").to_string()
    };
    assert_eq!(hash(f), hash("generate:machine=64,jobs=3000,load=0.85,seed=4"));
    let bad = run(&["run", "generate:machine=64,jobz=3", "--policy", "easy"]);
    assert_eq!(bad.status.code(), Some(2));
    let said = String::from_utf8_lossy(&bad.stderr);
    assert!(said.contains("generate: jobz=3: is not a workload option; they are model, machine"), "{said}");
    std::fs::remove_dir_all(&dir).ok();
}

/// What every scheduling paper's load figure shows, on generated 128-processor workloads (5,000
/// jobs, seeds 1-5): each policy's mean wait grows with the offered load, within the seeds'
/// spread (from one load to the next the mean change over the seeds is above minus two standard
/// errors of it, and from 0.5 to 0.95 it grows for every seed), and FCFS's mean bounded
/// slowdown is above EASY's at every load from 0.6 on.
#[test]
fn waits_grow_with_load_and_fcfs_falls_behind_easy() {
    use schedlab::run::{configure, run_one, Settings};
    let s = Settings::parse::<&str>(&[]).expect("settings");
    let policies = configure("fcfs,easy,conservative", &s).expect("configure");
    let loads = [0.5, 0.6, 0.7, 0.8, 0.9, 0.95];
    let seeds = 5;
    // [load][policy][seed] = (avg wait, avg bsld)
    let mut m = vec![vec![Vec::new(); policies.len()]; loads.len()];
    for (li, &load) in loads.iter().enumerate() {
        for seed in 1..=seeds {
            let w = generate(&WorkloadOptions { jobs: 5000, seed, load: Some(load), ..Default::default() });
            let t = parse(w.to_swf().as_bytes(), &TraceOptions::default()).expect("reads");
            for (pi, cfg) in policies.iter().enumerate() {
                let r = run_one(&t, cfg, &s).1.metrics;
                m[li][pi].push((r.avg_wait_s, r.avg_bsld));
            }
        }
    }
    let n = seeds as f64;
    for (pi, cfg) in policies.iter().enumerate() {
        for li in 1..loads.len() {
            let d: Vec<f64> = (0..seeds as usize).map(|k| m[li][pi][k].0 - m[li - 1][pi][k].0).collect();
            let mean = d.iter().sum::<f64>() / n;
            let sd = (d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
            assert!(
                mean > -2.0 * sd / n.sqrt(),
                "{}: mean wait falls by {:.0} s (+/- {:.0}) from load {} to {}",
                cfg.policy,
                -mean,
                sd / n.sqrt(),
                loads[li - 1],
                loads[li]
            );
        }
        for (k, (low, high)) in m[0][pi].iter().zip(&m[loads.len() - 1][pi]).enumerate() {
            assert!(
                high.0 > low.0,
                "{} seed {}: mean wait {:.0} s at 0.5, {:.0} s at 0.95",
                cfg.policy,
                k + 1,
                low.0,
                high.0
            );
        }
    }
    for (li, &load) in loads.iter().enumerate().skip(1) {
        let mean = |pi: usize| m[li][pi].iter().map(|x| x.1).sum::<f64>() / n;
        assert!(mean(0) > mean(1), "load {load}: FCFS bsld {:.1}, EASY {:.1}", mean(0), mean(1));
    }
}

/// `schedlab loadsweep`: every policy at every load and seed, summarised with the spread, and
/// where each saturates: FCFS before EASY on generated workloads of 10,000 jobs, and EASY not
/// at load 0.5 on a short one (whose last burst is no saturation); a log is scaled to each load.
#[test]
fn command_line_loadsweep() {
    let run = |args: &[&str]| -> Value {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_schedlab")).args(args).output().expect("runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice(&out.stdout).expect("JSON")
    };
    let v = run(&[
        "loadsweep",
        "generate:jobs=10000",
        "--loads",
        "0.5,0.7,0.9",
        "--seeds",
        "3",
        "-p",
        "fcfs,easy",
        "-f",
        "json",
    ]);
    assert_eq!(v["points"].as_array().expect("points").len(), 3 * 3 * 2);
    let summary = v["summary"].as_array().expect("summary");
    assert_eq!(summary.len(), 3 * 2);
    for s in summary {
        let offered = s["offered"].as_f64().expect("offered");
        assert!((offered / s["load"].as_f64().expect("load") - 1.0).abs() <= 0.005, "{s}");
        let w = &s["wait"];
        assert!(w[1].as_f64() <= w[0].as_f64() && w[0].as_f64() <= w[2].as_f64(), "{s}");
    }
    let fcfs = v["saturates_at"]["fcfs"].as_f64().expect("FCFS saturates");
    // --plot writes the two figures, the lines' values being the summary's means.
    let dir = std::env::temp_dir().join(format!("schedlab-loadsweep-{}", std::process::id()));
    let d = dir.to_str().expect("path");
    let short = run(&[
        "loadsweep",
        "generate:jobs=2000",
        "--loads",
        "0.5,0.9",
        "--seeds",
        "1",
        "-p",
        "easy",
        "--plot",
        d,
        "-f",
        "json",
    ]);
    let at_half = &short["summary"][0];
    assert_eq!(at_half["load"].as_f64(), Some(0.5));
    assert_eq!(at_half["keeps_up"].as_bool(), Some(true), "{at_half}");
    let p = &short["points"][0];
    assert!(p["overrun_s"].as_f64() <= p["allowance_s"].as_f64(), "{p}");
    for f in ["loadsweep-bsld.svg", "loadsweep-bsld.png", "loadsweep-wait.svg", "loadsweep-wait.png", "hashes.json"] {
        assert!(dir.join(f).exists(), "{f}");
    }
    let svg = std::fs::read_to_string(dir.join("loadsweep-bsld.svg")).expect("svg");
    assert!(svg.contains("Mean bounded slowdown against offered load") && svg.contains("easy ("), "{svg}");
    std::fs::remove_dir_all(&dir).ok();
    assert!(v["saturates_at"]["easy"].as_f64().is_none_or(|easy| easy > fcfs), "{}", v["saturates_at"]);
    let kth = common::shared().join("traces/KTH-SP2-1996-2.1-cln.swf.gz");
    let v = run(&["loadsweep", kth.to_str().expect("path"), "--loads", "0.6,0.9", "-p", "easy", "-f", "json"]);
    let points = v["points"].as_array().expect("points");
    assert_eq!(points.len(), 2);
    for p in points {
        assert!(
            (p["offered"].as_f64().expect("offered") / p["load"].as_f64().expect("load") - 1.0).abs() < 0.001,
            "{p}"
        );
    }
    assert!(points[1]["avg_wait_s"].as_f64() > points[0]["avg_wait_s"].as_f64());
}

/// Every machine size keeps every job: on small machines (below 32 processors the shifted size
/// break points are held at the smallest parallel size) and on large ones, sizes stay within
/// 1..=machine and the loader drops nothing.
#[test]
fn every_machine_keeps_every_job() {
    for machine in [1u32, 2, 3, 4, 8, 16, 31, 32, 100, 4096, 100_000] {
        let w = generate(&WorkloadOptions { machine, jobs: 2000, ..Default::default() });
        assert!(w.jobs.iter().all(|j| (1..=machine).contains(&j.size)), "machine {machine}");
        let t = parse(w.to_swf().as_bytes(), &TraceOptions::default()).expect("reads");
        assert_eq!((t.jobs.len(), t.report.warnings.len()), (2000, 0), "machine {machine}: {:?}", t.report.warnings);
        if machine >= 8 {
            assert!(w.jobs.iter().any(|j| j.size > 1), "machine {machine}: parallel jobs");
        }
    }
}
