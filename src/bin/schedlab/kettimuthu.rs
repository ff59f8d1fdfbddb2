//! `schedlab kettimuthu`: Kettimuthu et al.'s selective preemption study.

use indicatif::ParallelProgressIterator;
use rayon::prelude::*;
use schedlab::metrics::categories::CategoryTable;
use schedlab::studies::kettimuthu::{compare, load_findings, load_study, LOAD_FACTORS};

use schedlab::render::chart::ChartOptions;
use schedlab::render::generic::{draw, Labels, Panel, Series, Spec, XScale};

use crate::plot;
use crate::study::{load_scaled, paths_or, picture, short, verdict};
use crate::{fail, load_trace, settings, usage, Args, Fail};

/// The first word of a category label ("VS <=10 min" -> "VS"), as the heatmaps' axes show it.
fn word(s: &str) -> String {
    s.split(' ').next().unwrap_or("").to_string()
}

/// A table's average or worst-case bounded slowdown by category.
fn bsld(t: &CategoryTable, worst: bool) -> &[Vec<f64>] {
    if worst {
        &t.max_bsld
    } else {
        &t.avg_bsld
    }
}

/// `--plot`: the page's figures of the same numbers: the average and worst-case bounded
/// slowdown by category of every scheme as heatmaps on one scale (Figs. 3.1-3.6), and the load
/// study's average bounded slowdown and utilization against the load factor (Figs. 4.9, 4.10).
fn plots(
    out: &plot::Out,
    name: &str,
    cmp: &schedlab::studies::kettimuthu::Comparison,
    points: &[schedlab::studies::kettimuthu::LoadPoint],
) -> Result<(), Fail> {
    let stem = |what: &str| format!("kettimuthu-{}-{what}", plot::file_name(name));
    let Some(first) = cmp.schemes.first() else { return Ok(()) };
    let t = &first.all;
    for (what, kind, figs) in
        [("categories", "Average", "Figs. 3.1, 3.3"), ("worst", "Worst-case", "Figs. 3.2, 3.4-3.6")]
    {
        let spec = Spec::Heatmaps {
            labels: Labels {
                title: format!("{name}: {} bsld, all jobs", kind.to_lowercase()),
                subtitle: format!(
                    "by category ({figs}): runtime {}; processors {}; lower is better",
                    t.rows.join(", "),
                    t.cols.join(", ")
                ),
                x: "processors".into(),
                y: "runtime".into(),
                log: true,
                value: format!("{} bounded slowdown", kind.to_lowercase()),
                ..Default::default()
            },
            rows: t.rows.iter().map(|r| word(r)).collect(),
            cols: t.cols.iter().map(|c| word(c)).collect(),
            panels: cmp
                .schemes
                .iter()
                .map(|s| Panel {
                    name: s.scheme.label.to_string(),
                    values: bsld(&s.all, what == "worst")
                        .iter()
                        .zip(&s.all.count)
                        .map(|(row, n)| row.iter().zip(n).map(|(v, n)| (*n > 0).then_some(*v)).collect())
                        .collect(),
                    counts: Some(s.all.count.clone()),
                })
                .collect(),
            range: None,
        };
        let opts = ChartOptions { height: 560, ..plot::options(None) };
        out.chart(&stem(what), &draw(&spec, &opts).map_err(fail)?)?;
    }
    let mut loads: Vec<f64> = points.iter().map(|p| p.load).collect();
    loads.sort_by(|a, b| a.total_cmp(b));
    loads.dedup();
    if loads.is_empty() {
        return Ok(());
    }
    let mut names: Vec<&str> = Vec::new();
    for p in points {
        if !names.contains(&p.scheme.label) {
            names.push(p.scheme.label);
        }
    }
    let curves = |pick: &dyn Fn(&schedlab::studies::kettimuthu::LoadPoint) -> f64| -> Vec<Series> {
        names
            .iter()
            .map(|n| Series {
                // A scheme's colour is its place among the comparison's schemes, as on the page.
                colour: cmp.schemes.iter().position(|s| s.scheme.label == *n),
                ..Series::new(
                    n.to_string(),
                    loads
                        .iter()
                        .map(|l| points.iter().find(|p| p.scheme.label == *n && p.load == *l).map(pick))
                        .collect(),
                )
            })
            .collect()
    };
    // The load factors as the thesis writes them: 1.0, 1.3.
    let x_labels: Vec<String> =
        loads.iter().map(|l| if l.fract() == 0.0 { format!("{l:.1}") } else { format!("{l}") }).collect();
    for (what, title, y, subtitle, pick) in [
        (
            "loads",
            "average bsld against load (Fig. 4.10)",
            "average bsld",
            "lower is better",
            &(|p: &schedlab::studies::kettimuthu::LoadPoint| p.avg_bsld)
                as &dyn Fn(&schedlab::studies::kettimuthu::LoadPoint) -> f64,
        ),
        (
            "utilization",
            "utilization against load (Fig. 4.9)",
            "utilization",
            "used processor-seconds / (makespan × machine size); higher is better",
            &|p: &schedlab::studies::kettimuthu::LoadPoint| p.utilization,
        ),
    ] {
        let series = curves(pick);
        let log = plot::wide(&series);
        let spec = Spec::Lines {
            labels: Labels {
                title: format!("{name}: {title}"),
                subtitle: if log { format!("{subtitle}; log scale") } else { subtitle.to_string() },
                x: "load factor".into(),
                y: y.into(),
                log,
                ..Default::default()
            },
            xs: loads.clone(),
            series,
            x_scale: XScale::Linear,
            x_labels: x_labels.clone(),
        };
        picture(out, &stem(what), &spec, None)?;
    }
    Ok(())
}

/// The traces the command runs by default.
const DEFAULT_TRACES: &[&str] = &["SDSC-SP2-1998-4.2-cln.swf.gz", "KTH-SP2-1996-2.1-cln.swf.gz"];

/// Prints one value per scheme for every category and overall.
fn table(title: &str, tables: &[(&str, &CategoryTable, f64)], pick: &dyn Fn(&CategoryTable, usize, usize) -> f64) {
    let mut head = format!("  {:<12} {:>6}", title, "jobs");
    for (label, _, _) in tables {
        head.push_str(&format!(" {label:>9}"));
    }
    out!("{head}");
    let t0 = tables[0].1;
    for r in 0..t0.rows.len() {
        for c in 0..t0.cols.len() {
            let name = format!(
                "{} {}",
                t0.rows[r].split(' ').next().unwrap_or(""),
                t0.cols[c].split(' ').next().unwrap_or("")
            );
            let mut line = format!("  {:<12} {:>6}", name, t0.count[r][c]);
            for (_, t, _) in tables {
                if t.count[r][c] == 0 {
                    line.push_str(&format!(" {:>9}", "-"));
                } else {
                    line.push_str(&format!(" {:>9.2}", pick(t, r, c)));
                }
            }
            out!("{line}");
        }
    }
    let mut line = format!("  {:<12} {:>6}", "overall", t0.count.iter().flatten().sum::<u64>());
    for (_, _, overall) in tables {
        line.push_str(&format!(" {overall:>9.2}"));
    }
    out!("{line}");
}

fn parse_loads(a: &Args) -> Result<Vec<f64>, Fail> {
    match a.loads.as_deref() {
        None => Ok(LOAD_FACTORS.to_vec()),
        Some("none") => Ok(Vec::new()),
        Some(list) => list
            .split(',')
            .map(|x| match x.trim().parse::<f64>() {
                Ok(v) if (0.01..=100.0).contains(&v) => Ok(v),
                _ => Err(usage(format!("--loads: not a load factor: {x}"))),
            })
            .collect(),
    }
}

/// Runs the comparison and the load study on each trace and prints tables and findings.
pub fn cmd_kettimuthu(a: &Args) -> Result<(), Fail> {
    let s = settings(a)?;
    let loads = parse_loads(a)?;
    let paths = paths_or(a, DEFAULT_TRACES)?;
    let json = a.format.as_deref() == Some("json");
    let pics = a.plot.as_deref().map(plot::Out::new).transpose()?;
    if !json {
        out!("Kettimuthu et al. (2003): selective suspension (SS), tunable SS (TSS) and immediate service (IS) against NS (EASY)");
        out!("bounded slowdown = max(1, turnaround / max(runtime, 10)); categories by actual runtime (Table 2.1)");
    }
    let mut docs = Vec::new();
    // Each trace's study on its own core, printed in the order the traces were named.
    let bar = crate::progress(paths.len(), "studying traces");
    let studies: Vec<_> = paths
        .par_iter()
        .progress_with(bar.clone())
        .map(|path| -> Result<_, Fail> {
            let trace = load_trace(path, &s)?;
            let cmp = compare(&trace, &s).map_err(|e| fail(e.to_string()))?;
            let loader = |f: f64| load_scaled(path, &s, f);
            let points = load_study(&loader, &s, &loads).map_err(fail)?;
            Ok((trace.jobs.len(), trace.machine, cmp, points))
        })
        .collect::<Result<_, _>>()?;
    bar.finish_and_clear();
    for (path, (jobs, machine, cmp, points)) in paths.iter().zip(studies) {
        let lf = if points.is_empty() { Vec::new() } else { load_findings(&points) };
        let name = short(path);
        if let Some(o) = &pics {
            plots(o, &name, &cmp, &points)?;
        }
        if json {
            docs.push(serde_json::json!({ "trace": name, "comparison": cmp, "loads": points, "load_findings": lf }));
            continue;
        }
        out!("\n{name}: {jobs} jobs, {machine} processors");
        let avg: Vec<(&str, &CategoryTable, f64)> =
            cmp.schemes.iter().map(|r| (r.scheme.label, &r.all, r.metrics.avg_bsld)).collect();
        table("avg bsld", &avg, &|t, r, c| t.avg_bsld[r][c]);
        let worst: Vec<(&str, &CategoryTable, f64)> =
            cmp.schemes.iter().map(|r| (r.scheme.label, &r.all, r.metrics.max_bsld)).collect();
        table("worst bsld", &worst, &|t, r, c| t.max_bsld[r][c]);
        let mut line = format!("  {:<19}", "suspensions");
        for r in &cmp.schemes {
            line.push_str(&format!(" {:>9}", r.metrics.suspensions));
        }
        out!("{line}");
        let mut line = format!("  {:<19}", "avg turnaround h");
        for r in &cmp.schemes {
            line.push_str(&format!(" {:>9.2}", r.metrics.avg_response_s / 3600.0));
        }
        out!("{line}");
        let mut line = format!("  {:<19}", "utilization");
        for r in &cmp.schemes {
            line.push_str(&format!(" {:>9.3}", r.metrics.utilization));
        }
        out!("{line}");
        for f in &cmp.findings {
            out!("  [{}] {}\n      {}", verdict(f.holds), f.claim, f.detail);
        }
        if !points.is_empty() {
            out!("  load study (Table 4.1 categories; Figs. 4.9-4.11):");
            out!(
                "  {:>5} {:<6} {:>6} {:>9} {:>10} {:>9} {:>9} {:>9} {:>9} {:>11}",
                "load",
                "scheme",
                "util",
                "avg bsld",
                "turn h",
                "SN",
                "SW",
                "LN",
                "LW",
                "suspensions"
            );
            for p in &points {
                out!(
                    "  {:>5.1} {:<6} {:>6.3} {:>9.2} {:>10.2} {:>9.2} {:>9.2} {:>9.2} {:>9.2} {:>11}",
                    p.load,
                    p.scheme.label,
                    p.utilization,
                    p.avg_bsld,
                    p.avg_turnaround_s / 3600.0,
                    p.four.avg_bsld[0][0],
                    p.four.avg_bsld[0][1],
                    p.four.avg_bsld[1][0],
                    p.four.avg_bsld[1][1],
                    p.suspensions
                );
            }
            for f in &lf {
                out!("  [{}] {}\n      {}", verdict(f.holds), f.claim, f.detail);
            }
        }
    }
    if json {
        out!("{}", serde_json::to_string_pretty(&docs).map_err(|e| fail(e.to_string()))?);
    }
    Ok(())
}
