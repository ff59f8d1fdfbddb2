//! `schedlab loadsweep`: each policy's mean wait and mean bounded slowdown against the offered
//! load, on generated workloads (several seeds) or on a log scaled to each load.

use indicatif::ParallelProgressIterator;
use rayon::prelude::*;

use schedlab::run::configure;
use schedlab::studies::loadsweep::{generated, offered_load, points, saturation, summarize, Point, SPAN_SHARE};
use schedlab::workload::WorkloadOptions;

use crate::{fail, load_trace, settings, usage, Args, Fail};

/// What one (load, seed) workload is made from.
enum Source {
    Generated(WorkloadOptions),
    /// A log, with its own offered load.
    Scaled(String, f64),
}

pub fn cmd_loadsweep(a: &Args) -> Result<(), Fail> {
    let base = settings(a)?;
    let spec = &a.positional[0];
    let loads: Vec<f64> = a
        .loads
        .as_deref()
        .unwrap_or_default()
        .split(',')
        .map(|v| v.trim().parse::<f64>().ok().filter(|l| (0.01..=10.0).contains(l)))
        .collect::<Option<_>>()
        .ok_or_else(|| usage("--loads: give offered loads from 0.01 to 10, comma-separated (0.5,0.7,0.9)"))?;
    let policy = a.policy.clone().unwrap_or_default();
    let configs = configure(&policy, &base).map_err(|e| usage(e.to_string()))?;
    let seeds = a.repeat.unwrap_or(3) as u64;
    let (source, what) = match spec.strip_prefix("generate:") {
        Some(g) => {
            let o = WorkloadOptions::parse(g).map_err(|e| usage(format!("generate: {e}")))?;
            let what = format!(
                "Lublin-Feitelson, {} jobs on {} processors, seeds {}-{}",
                o.jobs,
                o.machine,
                o.seed,
                o.seed + seeds - 1
            );
            (Source::Generated(o), what)
        }
        None => {
            let t = load_trace(spec, &base)?;
            let own = offered_load(&t);
            let what = format!("{spec} (offered load {own:.3}) with its arrivals scaled to each load");
            (Source::Scaled(spec.clone(), own), what)
        }
    };
    let tasks: Vec<(f64, u64)> = match &source {
        Source::Generated(o) => loads.iter().flat_map(|&l| (0..seeds).map(move |k| (l, o.seed + k))).collect(),
        Source::Scaled(..) => loads.iter().map(|&l| (l, 0)).collect(),
    };
    let bar = crate::progress(tasks.len(), "simulating loads");
    let points: Vec<Vec<Point>> = tasks
        .par_iter()
        .progress_with(bar.clone())
        .map(|&(load, seed)| -> Result<Vec<Point>, Fail> {
            let (trace, s) = match &source {
                Source::Generated(o) => (generated(o, load, seed, &base.trace).map_err(fail)?, base.clone()),
                Source::Scaled(path, own) => {
                    let mut sets = a.sets.clone();
                    sets.push(format!("load={}", load / own));
                    let s = schedlab::run::Settings::parse(&sets).map_err(|e| usage(format!("--set {e}")))?;
                    (load_trace(path, &s)?, s)
                }
            };
            Ok(points(&trace, &configs, &s, load, seed))
        })
        .collect::<Result<_, _>>()?;
    bar.finish_and_clear();
    let points: Vec<Point> = points.into_iter().flatten().collect();
    let summaries = summarize(&points);
    if let Some(dir) = a.plot.as_deref() {
        figures(&crate::plot::Out::new(dir)?, &what, &summaries)?;
    }
    if a.format.as_deref() == Some("json") {
        let saturates: serde_json::Map<String, serde_json::Value> =
            configs.iter().map(|c| (c.policy.clone(), serde_json::json!(saturation(&summaries, &c.policy)))).collect();
        let v =
            serde_json::json!({"workload": what, "points": points, "summary": summaries, "saturates_at": saturates});
        out!("{}", serde_json::to_string_pretty(&v).map_err(|e| fail(e.to_string()))?);
        return Ok(());
    }
    out!("Mean wait and mean bounded slowdown against offered load: {what}");
    let spread = matches!(source, Source::Generated(_)) && seeds > 1;
    out!(
        "{:<14} {:>6} {:>8}  {:>12} {:>21}  {:>10} {:>19}  {:>6}",
        "policy",
        "load",
        "offered",
        "mean wait",
        if spread { "(least - most)" } else { "" },
        "mean bsld",
        if spread { "(least - most)" } else { "" },
        "util"
    );
    for s in &summaries {
        let range = |(_, lo, hi): (f64, f64, f64), f: &dyn Fn(f64) -> String| {
            if spread {
                format!("({} - {})", f(lo), f(hi))
            } else {
                String::new()
            }
        };
        out!(
            "{:<14} {:>6.2} {:>8.3}  {:>12} {:>21}  {:>10.1} {:>19}  {:>6.3}{}",
            s.policy,
            s.load,
            s.offered,
            hours(s.wait.0),
            range(s.wait, &hours),
            s.bsld.0,
            range(s.bsld, &|x| format!("{x:.1}")),
            s.utilization,
            if s.keeps_up { "" } else { "  saturated" }
        );
    }
    out!("");
    for c in &configs {
        match saturation(&summaries, &c.policy) {
            Some(l) => out!(
                "{} saturates at load {l}: its queue grows for as long as jobs arrive (its schedule overruns the one without waiting by more than the longest runtime and {:.0}% of the span).",
                c.policy,
                SPAN_SHARE * 100.0
            ),
            None => out!("{} keeps up at every load swept.", c.policy),
        }
    }
    Ok(())
}

/// A wait in seconds, hours or days, as a person reads it.
fn hours(s: f64) -> String {
    if s < 3600.0 {
        format!("{s:.0} s")
    } else if s < 2.0 * 86400.0 {
        format!("{:.1} h", s / 3600.0)
    } else {
        format!("{:.1} d", s / 86400.0)
    }
}

/// The classic figures: mean bounded slowdown and mean wait against load, one line per policy,
/// its saturation load in the legend.
fn figures(
    out: &crate::plot::Out,
    what: &str,
    summaries: &[schedlab::studies::loadsweep::Summary],
) -> Result<(), Fail> {
    use schedlab::studies::loadsweep::{figure, Measure};
    for (stem, measure) in [("loadsweep-bsld", Measure::Bsld), ("loadsweep-wait", Measure::Wait)] {
        crate::study::picture(out, stem, &figure(summaries, measure, what), None)?;
    }
    Ok(())
}
