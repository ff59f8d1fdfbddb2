//! Prints the Lublin-Feitelson model's per-sample statistics for seeds 1001-1050, 20,000 jobs
//! each, as ../shared/models/lublin99-reference-stats.json gives them for the reference program,
//! then the time to generate 100,000 jobs (median of 15), with the model's load and with a
//! target load, and to write and read them back as SWF.
//!
//!     cargo run --release --example lublin_stats
use schedlab::trace::{parse, TraceOptions};
use schedlab::workload::lublin::{draw, JobTypes};
use schedlab::workload::{generate, WorkloadOptions};

fn median_ms(f: &mut dyn FnMut()) -> f64 {
    let mut t: Vec<f64> = (0..15)
        .map(|_| {
            let s = std::time::Instant::now();
            f();
            s.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[7]
}

fn main() {
    for (name, types, log2) in [
        ("128_batch", JobTypes::Batch, 7.0),
        ("1024_batch", JobTypes::Batch, 10.0),
        ("128_both", JobTypes::Both, 7.0),
        ("128_typeless", JobTypes::Typeless, 7.0),
        ("128_interactive", JobTypes::Interactive, 7.0),
    ] {
        let (mut serial, mut first, mut size, mut rt, mut ia) = (0.0, 0.0, 0.0, 0.0, 0.0);
        let t = std::time::Instant::now();
        for seed in 1001..=1050u64 {
            let jobs = draw(seed, 20_000, types, log2, 1.0);
            serial += jobs.iter().filter(|j| j.size == 1).count() as f64 / 20_000.0;
            first += jobs[0].submit as f64;
            size += jobs.iter().map(|j| j.size as f64).sum::<f64>() / 20_000.0;
            rt += jobs.iter().map(|j| j.runtime as f64).sum::<f64>() / 20_000.0;
            let mut s: Vec<u64> = jobs.iter().map(|j| j.submit).collect();
            s.sort();
            ia += (s[s.len() - 1] - s[0]) as f64 / (s.len() - 1) as f64;
        }
        println!(
            "{name}: serial {:.5} first {:.2} size {:.6} runtime {:.6} ia {:.4} ({:?})",
            serial / 50.0,
            first / 50.0,
            size / 50.0,
            rt / 50.0,
            ia / 50.0,
            t.elapsed() / 50
        );
    }
    for load in [None, Some(0.8)] {
        let o = WorkloadOptions { jobs: 100_000, load, ..Default::default() };
        let gen = median_ms(&mut || {
            generate(&o);
        });
        let w = generate(&o);
        let swf = median_ms(&mut || {
            w.to_swf();
        });
        let text = w.to_swf();
        let read = median_ms(&mut || {
            parse(text.as_bytes(), &TraceOptions::default()).expect("reads");
        });
        println!(
            "100,000 jobs, machine 128, load {:?}: generate {gen:.1} ms (load {:.3}), write SWF {swf:.1} ms, read it {read:.1} ms",
            load, w.load
        );
    }
}
