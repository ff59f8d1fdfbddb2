//! Prints a policy's figures by calendar month, laid out like Ward et al. Tables 1-6.
//!
//! `cargo run --release --example monthly -- TRACE.swf[.gz] [POLICY] [HIGH_QUEUES]`
//! (policy `fcfs` by default; high-class queue numbers comma-separated, none by default).

use schedlab::engine::simulate;
use schedlab::metrics::monthly::monthly;
use schedlab::policy::Configured;
use schedlab::trace::{parse, TraceOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        return Err("usage: monthly TRACE.swf[.gz] [POLICY] [HIGH_QUEUES]".into());
    };
    let policy = args.get(1).map_or("fcfs", String::as_str);
    let high: Vec<i32> = match args.get(2) {
        Some(list) => list.split(',').map(|q| q.trim().parse()).collect::<Result<_, _>>()?,
        None => Vec::new(),
    };
    let trace = parse(&std::fs::read(path)?, &TraceOptions::default())?;
    let mut p = Configured::new(policy, &[])?.build(&trace);
    let out = simulate(&trace, p.as_mut(), &Default::default());
    let m = monthly(&trace, &out, &|q| high.contains(&q));
    println!("{path}, {policy}; months in {}", m.zone);
    println!("month      jobs  util %     wait h  backfilled  high jobs  high wait h");
    for x in &m.months {
        println!(
            "{:8} {:>6} {:>7.1} {:>10.0} {:>11} {:>10} {:>12.0}",
            x.month, x.jobs, x.utilization_pct, x.wait_hours, x.jobs_backfilled, x.high_jobs, x.high_wait_hours
        );
    }
    Ok(())
}
