//! `schedlab findings` and `schedlab sweep`: the Tsafrir et al. study on any traces.

use indicatif::ParallelProgressIterator;
use rayon::prelude::*;
use schedlab::metrics::Cut;
use schedlab::render::generic::{draw, Spec};
use schedlab::run::{configure, run_one, Settings};
use schedlab::studies::findings::{tsafrir, Study};
use schedlab::studies::sweep::{by_key, degradation, figure as sweep_figure, grid, ranking, Axis, DEFAULT_AXES};
use schedlab::trace::Trace;

use crate::plot;
use crate::{fail, load_trace, settings, usage, Args, Fail};

/// Writes the chart of `spec` as `stem.svg` and `stem.png` (time axes dated from `unix_start`).
pub fn picture(out: &plot::Out, stem: &str, spec: &Spec, unix_start: Option<i64>) -> Result<(), Fail> {
    out.chart(stem, &draw(spec, &plot::options(unix_start)).map_err(fail)?)
}

/// The environment variable naming the folder of the archive's traces that commands run
/// without TRACE look in (`cargo run` sets it to `../shared/traces`, .cargo/config.toml).
pub const TRACES_VAR: &str = "SCHEDLAB_TRACES";

/// The folder [`TRACES_VAR`] names, or what to do when it names none.
pub fn traces_dir(wanted: &[&str]) -> Result<std::path::PathBuf, Fail> {
    let dir = std::env::var_os(TRACES_VAR).filter(|d| !d.is_empty()).map(std::path::PathBuf::from);
    let what = if wanted.is_empty() {
        "the traces to study".to_string()
    } else {
        format!("the traces to study (the paper's: {})", wanted.join(", "))
    };
    match dir {
        Some(d) if d.is_dir() => Ok(d),
        Some(d) => Err(usage(format!("no TRACE given, and {TRACES_VAR}={} is not a folder: name {what}", d.display()))),
        None => Err(usage(format!(
            "no TRACE given: name {what}, cleaned logs of the Parallel Workloads Archive (https://www.cs.huji.ac.il/labs/parallel/workload/), or set {TRACES_VAR} to the folder that holds them"
        ))),
    }
}

/// The traces named on the command line, else `defaults` in the [`TRACES_VAR`] folder.
pub fn paths_or(a: &Args, defaults: &[&str]) -> Result<Vec<String>, Fail> {
    if !a.positional.is_empty() {
        return Ok(a.positional.clone());
    }
    let dir = traces_dir(defaults)?;
    Ok(defaults.iter().map(|t| dir.join(t).to_string_lossy().into_owned()).collect())
}

/// The trace at `path` with `settings`, its offered load multiplied by `factor` (a load study).
pub fn load_scaled(path: &str, settings: &Settings, factor: f64) -> Result<Trace, String> {
    let mut s = settings.clone();
    s.trace.load = settings.trace.load * factor;
    load_trace(path, &s).map_err(|e| e.0)
}

/// The traces in the [`TRACES_VAR`] folder.
pub fn shared_traces() -> Result<Vec<String>, Fail> {
    let dir = traces_dir(&[])?;
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    v.retain(|p| p.ends_with(".swf") || p.ends_with(".swf.gz"));
    v.sort();
    Ok(v)
}

/// A trace's file name without `.swf` or `.swf.gz`, for tables.
pub fn short(path: &str) -> String {
    let name = std::path::Path::new(path).file_name().map_or(path.to_string(), |n| n.to_string_lossy().into_owned());
    name.trim_end_matches(".gz").trim_end_matches(".swf").to_string()
}

/// A metric the study observed (NaN if, against its settings, it was not).
fn seen(v: Option<f64>) -> f64 {
    v.unwrap_or(f64::NAN)
}

/// How a finding is printed: holds, CONTRADICTED or n/a.
pub fn verdict(h: Option<bool>) -> &'static str {
    match h {
        Some(true) => "holds",
        Some(false) => "CONTRADICTED",
        None => "n/a",
    }
}

fn change(x: f64, base: f64) -> String {
    if base == 0.0 {
        return "-".into();
    }
    format!("{:+.0}%", 100.0 * (x - base) / base)
}

/// Settings with the paper's measurement cut unless the user chose one.
fn paper_settings(a: &Args) -> Result<Settings, Fail> {
    let mut s = settings(a)?;
    if !a.sets.iter().any(|x| x.trim_start().to_ascii_lowercase().starts_with("cut")) {
        s.metrics.cut = Cut::Tsafrir;
    }
    Ok(s)
}

fn print_study(name: &str, jobs: usize, machine: u32, s: &Settings, st: &Study) {
    let cut = match s.metrics.cut {
        Cut::Tsafrir => "the Tsafrir et al. cut (first 1% and jobs ending after the last arrival left out)",
        Cut::None => "all jobs",
    };
    out!("\n{name}: {jobs} jobs, {machine} processors; averages over {cut}");
    let easy = st.get("easy").map(|r| r.metrics.clone()).unwrap_or_default();
    out!("  Table 3 layout          wait [min]         b. slowdown        accuracy [%]      corrections");
    out!(
        "  {:<16} {:>9} {:>8} {:>9} {:>8} {:>9} {:>8} {:>10}",
        "policy",
        "avg",
        "vs EASY",
        "avg",
        "vs EASY",
        "avg",
        "vs EASY",
        "per job"
    );
    for r in &st.results {
        let m = &r.metrics;
        out!(
            "  {:<16} {:>9.1} {:>8} {:>9.2} {:>8} {:>9.1} {:>8} {:>10.2}",
            r.policy,
            m.avg_wait_s / 60.0,
            change(m.avg_wait_s, easy.avg_wait_s),
            m.avg_bsld,
            change(m.avg_bsld, easy.avg_bsld),
            seen(m.accuracy_pct),
            change(seen(m.accuracy_pct), seen(easy.accuracy_pct)),
            seen(m.corrections_avg)
        );
    }
    out!("  Tables 4-5 layout  reserved  |start - reservation| [min]   delayed   delay beyond reservation [min]");
    out!("  (the paper's Tables 4-5 use section 4's predictor, the \"(sec. 4)\" rows; EASY is delayed only with --set overrun=run)");
    out!(
        "  {:<16} {:>8} {:>9} {:>8} {:>8} {:>9} {:>9} {:>8} {:>8}",
        "policy",
        "% jobs",
        "avg",
        "median",
        "std",
        "% jobs",
        "avg",
        "median",
        "std"
    );
    let rows =
        st.results.iter().filter(|r| ["easy", "easy+", "easy++"].contains(&r.policy.as_str())).chain(&st.section4);
    for r in rows {
        let m = &r.metrics;
        out!(
            "  {:<16} {:>8.1} {:>9.1} {:>8.1} {:>8.1} {:>9.2} {:>9.1} {:>8.1} {:>8.1}",
            r.policy,
            seen(m.reserved_pct),
            seen(m.reservation_diff_avg_s) / 60.0,
            seen(m.reservation_diff_median_s) / 60.0,
            seen(m.reservation_diff_std_s) / 60.0,
            seen(m.delayed_pct),
            seen(m.delay_avg_s) / 60.0,
            seen(m.delay_median_s) / 60.0,
            seen(m.delay_std_s) / 60.0
        );
    }
    out!("  Table 10 layout    stalled [%]  stall time [min]  thieves per stalled job");
    for r in st.results.iter().filter(|r| ["easy", "x2"].contains(&r.policy.as_str())) {
        let m = &r.metrics;
        out!(
            "  {:<16} {:>11.1} {:>17.1} {:>24.2}",
            r.policy,
            seen(m.stalled_pct),
            seen(m.stall_avg_s) / 60.0,
            seen(m.thieves_avg)
        );
    }
    for f in &st.findings {
        out!("  [{}] {}: {}", verdict(f.holds), f.claim, f.detail);
    }
}

/// `schedlab findings [TRACE...]`: Tables 3, 4-5 and 10 and the paper's claims, per trace.
pub fn cmd_findings(a: &Args) -> Result<(), Fail> {
    let s = paper_settings(a)?;
    let paths = if a.positional.is_empty() { shared_traces()? } else { a.positional.clone() };
    if paths.is_empty() {
        return Err(usage("findings: no TRACE given and none found in ../shared/traces"));
    }
    out!("Tsafrir, Etsion & Feitelson (2007): the paper's findings on each trace with user estimates");
    let mut summary: Vec<(String, Vec<Option<bool>>)> = Vec::new();
    let mut claims: Vec<&str> = Vec::new();
    // Each trace's study on its own core, printed in the order the traces were named.
    let bar = crate::progress(paths.len(), "studying traces");
    let studies: Vec<_> = paths
        .par_iter()
        .progress_with(bar.clone())
        .map(|path| -> Result<_, Fail> {
            let trace = load_trace(path, &s)?;
            if trace.report.estimates_exact {
                return Ok((trace.jobs.len(), trace.machine, None));
            }
            let st = tsafrir(&trace, &s).map_err(|e| fail(e.to_string()))?;
            Ok((trace.jobs.len(), trace.machine, Some(st)))
        })
        .collect::<Result<_, _>>()?;
    bar.finish_and_clear();
    for (path, (jobs, machine, st)) in paths.iter().zip(studies) {
        let name = short(path);
        let Some(st) = st else {
            out!("\n{name}: skipped, the log has no user estimates (estimate = runtime)");
            continue;
        };
        print_study(&name, jobs, machine, &s, &st);
        claims = st.findings.iter().map(|f| f.claim).collect();
        summary.push((name, st.findings.iter().map(|f| f.holds).collect()));
    }
    print_summary(&claims, &summary);
    Ok(())
}

/// The claims, numbered, and one row of verdicts per trace.
fn print_summary(claims: &[&str], summary: &[(String, Vec<Option<bool>>)]) {
    out!("\nSummary (holds / CONTRADICTED / n/a):");
    for (i, c) in claims.iter().enumerate() {
        out!("  {}. {c}", i + 1);
    }
    let mut head = format!("  {:<32}", "trace");
    for i in 0..claims.len() {
        head.push_str(&format!(" {:>13}", i + 1));
    }
    out!("{head}");
    for (name, holds) in summary {
        let mut line = format!("  {name:<32}");
        for h in holds {
            line.push_str(&format!(" {:>13}", verdict(*h)));
        }
        out!("{line}");
    }
}

/// `schedlab sweep TRACE... [--policy P] [--vary KEY=VALUES ...] [--top N]`: section 7's ranking.
pub fn cmd_sweep(a: &Args) -> Result<(), Fail> {
    let base = settings(a)?;
    let policy = a.policy.clone().unwrap_or_else(|| "easy++".into());
    if policy.contains(',') || policy.eq_ignore_ascii_case("all") {
        return Err(usage("sweep takes one --policy"));
    }
    let specs: Vec<String> =
        if a.vary.is_empty() { DEFAULT_AXES.iter().map(|s| s.to_string()).collect() } else { a.vary.clone() };
    let axes: Vec<Axis> =
        specs.iter().map(|s| Axis::parse(s)).collect::<Result<_, _>>().map_err(|e| usage(format!("--vary {e}")))?;
    for ax in &axes {
        // Trace, engine and metric options are the same for every configuration of a sweep.
        let probe =
            Settings::parse(&[format!("{}={}", ax.key, ax.values[0])]).map_err(|e| usage(format!("--vary {e}")))?;
        if probe.policy.is_empty() {
            return Err(usage(format!(
                "--vary {}: sweep varies policy options only; set trace, engine and metric options with --set",
                ax.key
            )));
        }
    }
    let configs = grid(&axes);
    let paths = &a.positional;
    if paths.is_empty() {
        return Err(usage("sweep needs one or more TRACE"));
    }
    let traces: Vec<_> = paths.iter().map(|p| load_trace(p, &base)).collect::<Result<_, _>>()?;
    let pics = a.plot.as_deref().map(plot::Out::new).transpose()?;
    // Configurations run on every core; rows come back in grid order.
    let bar = crate::progress(configs.len(), "sweeping configurations");
    let perf: Vec<Vec<f64>> = configs
        .par_iter()
        .progress_with(bar.clone())
        .map(|c| -> Result<Vec<f64>, Fail> {
            let mut s = base.clone();
            s.policy.extend(c.iter().cloned());
            let cfg = configure(&policy, &s).map_err(|e| usage(e.to_string()))?;
            let mut row = Vec::new();
            for t in &traces {
                let (_, r) = run_one(t, &cfg[0], &s);
                row.push(r.metrics.avg_wait_s);
                row.push(r.metrics.avg_bsld);
            }
            Ok(row)
        })
        .collect::<Result<_, _>>()?;
    bar.finish_and_clear();
    let d = degradation(&perf);
    let order = ranking(&d);
    let top = a.top.unwrap_or(10).min(order.len());
    out!(
        "{} configurations of {policy} on {} trace(s); test cases: avg wait and avg bounded slowdown per trace",
        configs.len(),
        traces.len()
    );
    out!("{:>5} {:>12}  configuration", "rank", "degradation");
    let show = |i: usize| configs[i].iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ");
    for (rank, &i) in order.iter().enumerate().take(top) {
        out!("{:>5} {:>11.2}%  {}", rank + 1, d[i], show(i));
    }
    if let Some(&worst) = order.last() {
        if order.len() > top {
            out!("{:>5} {:>11.2}%  {}", order.len(), d[worst], show(worst));
        }
    }
    let names: Vec<String> = paths.iter().map(|p| short(p)).collect();
    for ax in &axes {
        let fig = if ax.key == "window" { " (Fig. 10)" } else { "" };
        out!("\nmean degradation by {}{fig}:", ax.key);
        let groups = by_key(&configs, &d, &ax.key);
        for g in &groups {
            out!("  {:<12} {:>8.2}% +- {:>6.2}  ({} configurations)", g.value, g.mean, g.std, g.count);
        }
        if let Some(o) = &pics {
            // The page's Fig. 10 of the same groups, the traces named.
            let title = format!("{}: degradation by {}{fig}", names.join(", "), ax.key);
            let spec = sweep_figure(&groups, &ax.key, &policy, title);
            picture(o, &format!("sweep-{}", plot::file_name(&ax.key)), &spec, None)?;
        }
    }
    Ok(())
}

/// `schedlab omega [TRACE...] [--months]`: Ward et al.'s omega study, per trace.
pub fn cmd_omega(a: &Args) -> Result<(), Fail> {
    let mut s = settings(a)?;
    if !s.policy.iter().any(|(k, _)| k == "queue_classes") {
        s.policy.push(("queue_classes".into(), "header".into()));
    }
    let explicit = !a.positional.is_empty();
    let paths = if explicit { a.positional.clone() } else { shared_traces()? };
    out!("Ward, Mahood & West (2002): relaxed backfilling, total wait by omega, Est and Act runs");
    let mut summary: Vec<(String, Vec<Option<bool>>)> = Vec::new();
    let mut claims: Vec<&str> = Vec::new();
    // Each trace's study on its own core, printed in the order the traces were named.
    let bar = crate::progress(paths.len(), "studying traces");
    let studies: Vec<_> = paths
        .par_iter()
        .progress_with(bar.clone())
        .map(|path| -> Result<_, Fail> {
            let est = load_trace(path, &s)?;
            if !explicit && est.report.queues < 2 {
                return Ok((est, None));
            }
            let st = schedlab::studies::findings::ward(&est, &s).map_err(|e| fail(e.to_string()))?;
            Ok((est, Some(st)))
        })
        .collect::<Result<_, _>>()?;
    bar.finish_and_clear();
    for (path, (est, st)) in paths.iter().zip(studies) {
        let name = short(path);
        let Some(st) = st else {
            out!("\n{name}: skipped, its jobs are all in one queue");
            continue;
        };
        let zone = st.est.first().map_or(String::new(), |r| r.monthly.zone.clone());
        out!("\n{name}: {} jobs, {} processors; months in {zone}", est.jobs.len(), est.machine);
        let classes = schedlab::run::configure("relaxed", &s).map_err(|e| fail(e.to_string()))?[0].queue_classes(&est);
        let named: Vec<String> = est
            .header
            .queues
            .iter()
            .filter(|(q, _)| classes.class(*q as i32) != 0)
            .map(|(q, n)| format!("{q} {} -> {}", n.trim(), classes.class(*q as i32)))
            .collect();
        out!(
            "  queue classes: {}",
            if named.is_empty() { "every queue primary (0)".to_string() } else { named.join(", ") }
        );
        let mut head = format!("  {:<26}", "");
        for o in schedlab::studies::findings::OMEGAS {
            head.push_str(&format!(" {:>11}", format!("omega={o}")));
        }
        out!("{head}");
        let row = |label: &str,
                   runs: &[schedlab::studies::findings::OmegaRun],
                   f: &dyn Fn(&schedlab::studies::findings::OmegaRun) -> f64| {
            let mut line = format!("  {label:<26}");
            for r in runs {
                line.push_str(&format!(" {:>11.0}", f(r)));
            }
            out!("{line}");
        };
        row("total wait [h], Est", &st.est, &|r| r.wait_hours);
        row("total wait [h], Act", &st.act, &|r| r.wait_hours);
        row("high-class wait [h], Est", &st.est, &|r| r.high_wait_hours);
        row("jobs backfilled, Est", &st.est, &|r| r.jobs_backfilled as f64);
        row("jobs backfilled, Act", &st.act, &|r| r.jobs_backfilled as f64);
        let logged = st.est.first().map_or(0.0, |r| r.monthly.months.iter().map(|m| m.actual_wait_hours).sum());
        out!("  {:<26} {logged:>11.0}  (the log's own scheduler, SWF field 3)", "actual wait [h]");
        if a.months {
            out!("  Table 1 layout: month, jobs, utilization % (omega=inf, Est), actual (logged) wait hours, wait hours Est / Act per omega");
            let find = |r: &schedlab::studies::findings::OmegaRun, label: &str| {
                r.monthly.months.iter().find(|m| m.month == label).cloned().unwrap_or_default()
            };
            // Every month any run reaches (runs end at different times).
            let mut labels: Vec<&str> =
                st.est.iter().chain(&st.act).flat_map(|r| r.monthly.months.iter().map(|m| m.month.as_str())).collect();
            labels.sort_unstable();
            labels.dedup();
            for label in labels {
                let mo = find(&st.est[0], label);
                let util = st.est.last().map_or(0.0, |r| find(r, label).utilization_pct);
                let mut line = format!("  {label:<8} {:>6} {:>6.1} {:>9.0}", mo.jobs, util, mo.actual_wait_hours);
                for (e, ac) in st.est.iter().zip(&st.act) {
                    line.push_str(&format!(" {:>8.0}/{:<8.0}", find(e, label).wait_hours, find(ac, label).wait_hours));
                }
                out!("{line}");
            }
        }
        for f in &st.findings {
            out!("  [{}] {}: {}", verdict(f.holds), f.claim, f.detail);
        }
        claims = st.findings.iter().map(|f| f.claim).collect();
        summary.push((name, st.findings.iter().map(|f| f.holds).collect()));
    }
    print_summary(&claims, &summary);
    Ok(())
}
