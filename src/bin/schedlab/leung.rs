//! `schedlab leung`: Leung, Sabin & Sadayappan's fairshare study.

use indicatif::ParallelProgressIterator;
use rayon::prelude::*;
use schedlab::run::Settings;
use schedlab::studies::leung::{compare, Comparison, PolicyRun};

use schedlab::render::generic::{Bar, Labels, Series, Spec};

use crate::study::{picture, short, traces_dir, verdict};
use crate::{fail, load_trace, settings, Args, Fail};

/// The runs the command makes by default: Sandia-Ross in the paper's period (December 1, 2002 to
/// July 14, 2003), the whole Sandia-Ross log, and SDSC-SP2 for contrast.
const DEFAULT_RUNS: &[(&str, &[&str])] = &[
    ("Sandia-Ross-2001-1.1-cln.swf.gz", &["from=2002-12-01", "to=2003-07-14"]),
    ("Sandia-Ross-2001-1.1-cln.swf.gz", &[]),
    ("SDSC-SP2-1998-4.2-cln.swf.gz", &[]),
];

/// `--plot`: the page's figures of the same numbers: one bar per policy for the missed fair
/// starts (Fig. 8), the mean miss (Fig. 9), the turnaround per submission (Fig. 11) and the loss
/// of capacity (Fig. 13), and the share of submissions missing their fair start by width class.
fn plots(out: &crate::plot::Out, stem: &str, name: &str, cmp: &Comparison) -> Result<(), Fail> {
    let Some(first) = cmp.policies.first() else { return Ok(()) };
    let lower = "lower is better";
    let hours = |v: Option<f64>| v.map(|x| x / 3600.0);
    for (what, title, subtitle, x, value, unit, pick) in [
        (
            "missed",
            "Missed fair starts (Fig. 8)",
            "submissions started after their hybrid fair start time",
            "missed [%]",
            "missed",
            "%",
            &(|p: &PolicyRun| p.metrics.fst_miss_share.map(|x| 100.0 * x)) as &dyn Fn(&PolicyRun) -> Option<f64>,
        ),
        (
            "miss",
            "Fair-start miss (Fig. 9)",
            "max(0, start − fair start time), averaged over the submissions",
            "miss [h]",
            "average miss",
            " h",
            &|p: &PolicyRun| hours(p.metrics.avg_fst_miss_s),
        ),
        (
            "turnaround",
            "Turnaround per submission (Fig. 11)",
            "end − submit, averaged over the submissions",
            "turnaround [h]",
            "average turnaround",
            " h",
            &|p: &PolicyRun| Some(p.metrics.avg_response_submitted_s / 3600.0),
        ),
        (
            "loss-of-capacity",
            "Loss of capacity (Fig. 13)",
            "processors idle while jobs wait, over machine size × makespan",
            "loss of capacity",
            "loss of capacity",
            "",
            &|p: &PolicyRun| Some(p.metrics.loss_of_capacity),
        ),
    ] {
        let bars: Vec<Bar> = cmp
            .policies
            .iter()
            .enumerate()
            .map(|(i, p)| Bar { name: p.policy.clone(), value: pick(p), colour: Some(i) })
            .collect();
        if bars.iter().all(|b| b.value.is_none()) {
            continue;
        }
        let spec = Spec::Bars {
            labels: Labels {
                title: format!("{name}: {title}"),
                subtitle: format!("{subtitle}; {lower}"),
                x: x.into(),
                y: "policy".into(),
                value: value.into(),
                unit: unit.into(),
                ..Default::default()
            },
            bars,
        };
        picture(out, &format!("{stem}-{what}"), &spec, None)?;
    }
    let cats: Vec<String> = first.by_width.iter().map(|w| w.width.to_string()).collect();
    let series: Vec<Series> = cmp
        .policies
        .iter()
        .map(|p| {
            Series::new(p.policy.clone(), p.by_width.iter().map(|w| w.fst_miss_share.map(|x| 100.0 * x)).collect())
        })
        .collect();
    let labels = Labels {
        title: format!("{name}: jobs missing their fair start time, by width"),
        subtitle: "Leung et al.: share of submissions starting after their hybrid fair start time; lower is fairer"
            .into(),
        x: "processors".into(),
        y: "missed (percent)".into(),
        unit: "%".into(),
        ..Default::default()
    };
    crate::plot::bars(out, &format!("{stem}-fst-by-width"), &labels, &cats, &series)
}

/// Prints one figure per policy by width class.
fn by_width(title: &str, cmp: &Comparison, pick: &dyn Fn(&PolicyRun, usize) -> Option<f64>) {
    out!("  {title}");
    let mut head = format!("  {:<8}", "width");
    for k in 1..=cmp.policies.len() {
        head.push_str(&format!(" {:>8}", format!("({k})")));
    }
    out!("{head}");
    let rows = cmp.policies.first().map_or(0, |p| p.by_width.len());
    for c in 0..rows {
        let first = &cmp.policies[0].by_width[c];
        if first.jobs == 0 {
            continue;
        }
        let mut line = format!("  {:<8}", first.width);
        for p in &cmp.policies {
            match pick(p, c) {
                Some(v) => line.push_str(&format!(" {v:>8.2}")),
                None => line.push_str(&format!(" {:>8}", "-")),
            }
        }
        out!("{line}");
    }
}

fn print(name: &str, period: &str, jobs: usize, machine: u32, cmp: &Comparison) {
    out!("\n{name}{period}: {jobs} jobs, {machine} processors");
    out!(
        "  {:<24} {:>7} {:>6} {:>8} {:>9} {:>9} {:>9} {:>8} {:>6}",
        "policy",
        "subm",
        "split",
        "missed%",
        "miss h",
        "turn/sub",
        "turn/job",
        "LOC",
        "util"
    );
    for (k, p) in cmp.policies.iter().enumerate() {
        let m = &p.metrics;
        out!(
            "  {:<24} {:>7} {:>6} {:>8.2} {:>9.2} {:>9.2} {:>9.2} {:>8.4} {:>6.3}",
            format!("({}) {}", k + 1, p.policy),
            m.submissions,
            m.segmented_jobs,
            100.0 * m.fst_miss_share.unwrap_or(f64::NAN),
            m.avg_fst_miss_s.unwrap_or(f64::NAN) / 3600.0,
            m.avg_response_submitted_s / 3600.0,
            m.avg_response_s / 3600.0,
            m.loss_of_capacity,
            m.utilization
        );
    }
    by_width("mean fair-start miss by width, hours (Figs. 6, 10)", cmp, &|p, c| {
        p.by_width[c].avg_fst_miss_s.map(|v| v / 3600.0)
    });
    by_width("mean turnaround per submission by width, hours (Figs. 7, 12)", cmp, &|p, c| {
        Some(p.by_width[c].avg_response_submitted_s / 3600.0)
    });
    for f in &cmp.findings {
        out!("  [{}] {}\n      {}", verdict(f.holds), f.claim, f.detail);
    }
}

/// Runs the nine policies on each trace and prints the figures and findings.
pub fn cmd_leung(a: &Args) -> Result<(), Fail> {
    let base = settings(a)?;
    let runs: Vec<(String, Vec<String>)> = if a.positional.is_empty() {
        let names: Vec<&str> = DEFAULT_RUNS.iter().map(|(t, _)| *t).collect();
        let dir = traces_dir(&names)?;
        DEFAULT_RUNS
            .iter()
            .map(|(t, extra)| {
                (dir.join(t).to_string_lossy().into_owned(), extra.iter().map(|s| s.to_string()).collect())
            })
            .collect()
    } else {
        a.positional.iter().map(|p| (p.clone(), Vec::new())).collect()
    };
    let json = a.format.as_deref() == Some("json");
    let pics = a.plot.as_deref().map(crate::plot::Out::new).transpose()?;
    if !json {
        out!("Leung, Sabin & Sadayappan (2010): the CPlant fairshare scheduler and its modifications");
        out!("missed% and miss h: submissions starting after their hybrid fair start time, and the mean miss over all");
        out!("submissions; turn/sub: mean turnaround per submission (each 72 h segment a job, as the paper counts);");
        out!("turn/job: from a job's submission to its last segment's end; LOC: loss of capacity (eq. 1)");
    }
    let mut docs = Vec::new();
    // Each trace's study on its own core, printed in the order the traces were named.
    let bar = crate::progress(runs.len(), "studying traces");
    let studies: Vec<_> = runs
        .par_iter()
        .progress_with(bar.clone())
        .map(|(path, extra)| -> Result<_, Fail> {
            let mut s: Settings = base.clone();
            for e in extra {
                let (k, v) = schedlab::keys::split_setting(e).map_err(|e| fail(e.to_string()))?;
                s.trace.set(&k, &v).map_err(|e| fail(e.to_string()))?;
            }
            let trace = load_trace(path, &s)?;
            let cmp = compare(&trace, &s).map_err(|e| fail(e.to_string()))?;
            Ok((trace.jobs.len(), trace.machine, cmp))
        })
        .collect::<Result<_, _>>()?;
    bar.finish_and_clear();
    for (k, ((path, extra), (jobs, machine, cmp))) in runs.iter().zip(studies).enumerate() {
        let name = short(path);
        let period = if extra.is_empty() { String::new() } else { format!(" ({})", extra.join(" ")) };
        if let Some(o) = &pics {
            plots(o, &format!("leung-{}-{}", k + 1, crate::plot::file_name(&name)), &format!("{name}{period}"), &cmp)?;
        }
        if json {
            docs.push(serde_json::json!({ "trace": name, "settings": extra, "comparison": cmp }));
        } else {
            print(&name, &period, jobs, machine, &cmp);
        }
    }
    if json {
        let doc = serde_json::json!({ "traces": docs });
        out!("{}", serde_json::to_string_pretty(&doc).map_err(|e| fail(e.to_string()))?);
    }
    Ok(())
}
