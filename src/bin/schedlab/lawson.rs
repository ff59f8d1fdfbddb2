//! `schedlab lawson`: Lawson & Smirni's multiple- against single-queue backfilling study.

use indicatif::ParallelProgressIterator;
use rayon::prelude::*;
use schedlab::render::axis::fmt_number;
use schedlab::render::generic::{Labels, Series, Spec, XScale};
use schedlab::studies::lawson::{study, LawsonStudy, LoadRun, TAIL_POINTS};

use crate::study::{load_scaled, paths_or, picture, short, verdict};
use crate::{fail, load_trace, settings, Args, Fail};

/// The paper's traces (KTH, SP2, PAR) as ../shared/traces names them.
const PAPER_TRACES: &[&str] =
    &["KTH-SP2-1996-2.1-cln.swf.gz", "SDSC-SP2-1998-4.2-cln.swf.gz", "SDSC-Par-1996-3.1-cln.swf.gz"];

fn r(x: Option<f64>) -> String {
    x.map_or("-".into(), |v| format!("{v:+.3}"))
}

/// The job classes of the thresholds, as the page names them: short, medium and long for the
/// paper's two, else by number.
fn class_names(thresholds: &[i64]) -> Vec<String> {
    match thresholds.len() {
        1 => vec!["short".into(), "long".into()],
        2 => vec!["short".into(), "medium".into(), "long".into()],
        n => (1..=n + 1).map(|i| format!("class {i}")).collect(),
    }
}

/// A delay in seconds as the page's Fig. 11 labels it: 0, 5 min, 4 h, 2 d.
fn duration(v: i64) -> String {
    let unit = |x: f64, name: &str| {
        if x.fract() == 0.0 {
            format!("{x} {name}")
        } else {
            format!("{} {name}", fmt_number(x))
        }
    };
    match v {
        v if v <= 0 => "0".into(),
        v if v < 60 => format!("{v} s"),
        v if v < 3600 => unit(v as f64 / 60.0, "min"),
        v if v < 86_400 => unit(v as f64 / 3600.0, "h"),
        v => unit(v as f64 / 86_400.0, "d"),
    }
}

/// `--plot`: R against the load per share of high-priority jobs, and the page's figures of the
/// same numbers: R per class (Figs. 3, 5), by priority (Figs. 6, 8), over time (Figs. 4, 7, 9)
/// and the reservation delays' tail (Fig. 11).
fn plots(out: &crate::plot::Out, name: &str, st: &LawsonStudy, unix_start: Option<i64>) -> Result<(), Fail> {
    let stem = |what: &str| format!("lawson-{}-{what}", crate::plot::file_name(name));
    let mut loads: Vec<f64> = Vec::new();
    let mut highs: Vec<f64> = Vec::new();
    for l in &st.loads {
        if !loads.contains(&l.load) {
            loads.push(l.load);
        }
        if !highs.contains(&l.high_priority) {
            highs.push(l.high_priority);
        }
    }
    let series: Vec<Series> = highs
        .iter()
        .map(|h| {
            let values = loads
                .iter()
                .map(|x| st.loads.iter().find(|l| l.load == *x && l.high_priority == *h).map(|l| l.comparison.r))
                .collect();
            Series::new(format!("{:.0}% high priority", 100.0 * h), values)
        })
        .collect();
    let labels = Labels {
        title: format!("{name}: multiple against single queue backfilling"),
        subtitle: "Lawson & Smirni Eq. 3: R = (s1 − sm) / min(s1, sm); above 0, multiple queues do better".into(),
        x: "load".into(),
        y: "R".into(),
        ..Default::default()
    };
    crate::plot::xy(out, &stem("r"), &labels, &loads, &series)?;

    let what = "R = (s1 − sm) / min(s1, sm): above 0, multiple queues do better";
    let r_labels = |title: String, subtitle: String| Labels {
        title: format!("{name}: {title}"),
        subtitle,
        x: "jobs (classes by estimated runtime)".into(),
        y: "R".into(),
        value: "R".into(),
        ..Default::default()
    };
    let at = |h: f64| -> Vec<(usize, &LoadRun)> {
        st.loads
            .iter()
            .filter(|l| l.high_priority == h)
            .map(|l| (loads.iter().position(|x| *x == l.load).unwrap_or(0), l))
            .collect()
    };
    let all = at(1.0);
    let Some((_, first)) = all.first() else { return Ok(()) };
    let mut categories = vec!["all".to_string()];
    categories.extend(class_names(&first.comparison.thresholds));
    let by_class = |r: f64, classes: &[Option<f64>]| -> Vec<Option<f64>> {
        std::iter::once(Some(r)).chain(classes.iter().copied()).collect()
    };
    let spec = Spec::GroupedBars {
        labels: r_labels("R per class (Figs. 3, 5)".into(), what.into()),
        categories: categories.clone(),
        series: all
            .iter()
            .map(|(i, l)| Series {
                colour: Some(*i),
                ..Series::new(format!("load {}", l.load), by_class(l.comparison.r, &l.comparison.r_classes))
            })
            .collect(),
    };
    picture(out, &stem("r-classes"), &spec, None)?;
    // The priorities of the paper's 75% high-priority runs (Fig. 6), else its lowest share.
    if let Some(h) = highs.iter().copied().filter(|h| *h < 1.0).min_by(|a, b| a.total_cmp(b)) {
        let series = at(h)
            .iter()
            .flat_map(|(i, l)| {
                let c = &l.comparison;
                [
                    Series {
                        colour: Some(*i),
                        ..Series::new(
                            format!("load {} high", l.load),
                            c.r_high.map_or(vec![None; categories.len()], |r| by_class(r, &c.r_classes_high)),
                        )
                    },
                    Series {
                        colour: Some(*i),
                        pale: true,
                        ..Series::new(
                            format!("load {} low", l.load),
                            c.r_low.map_or(vec![None; categories.len()], |r| by_class(r, &c.r_classes_low)),
                        )
                    },
                ]
            })
            .collect();
        let subtitle = format!("per class, {:.0}% of the jobs high priority; paler bars: low priority", 100.0 * h);
        let spec = Spec::GroupedBars {
            labels: r_labels("R by priority (Figs. 6, 8)".into(), subtitle),
            categories: categories.clone(),
            series,
        };
        picture(out, &stem("r-priority"), &spec, None)?;
    }
    // Each load's batches start at their own times: the xs are all of them, each line through its own.
    let mut xs: Vec<f64> = all.iter().flat_map(|(_, l)| l.comparison.transient.iter().map(|b| b.time as f64)).collect();
    xs.sort_by(|a, b| a.total_cmp(b));
    xs.dedup();
    let series = all
        .iter()
        .map(|(i, l)| {
            let values =
                xs.iter().map(|t| l.comparison.transient.iter().find(|b| b.time as f64 == *t).map(|b| b.r)).collect();
            Series { colour: Some(*i), ..Series::new(format!("load {}", l.load), values) }
        })
        .collect();
    let spec = Spec::Lines {
        labels: Labels {
            title: format!("{name}: R over time (Figs. 4, 7, 9)"),
            subtitle: format!("R of each batch of 1,000 submissions, at its first job's submit time; {what}"),
            y: "R".into(),
            ..Default::default()
        },
        xs,
        series,
        x_scale: XScale::Time,
        x_labels: Vec::new(),
    };
    picture(out, &stem("transient"), &spec, unix_start)?;
    // Fig. 11: one pair of lines per reservation fraction.
    if st.reservations.iter().any(|r| r.comparison.reservations.requested > 0) {
        let percent = |v: &[f64]| v.iter().map(|x| Some(100.0 * x)).collect::<Vec<_>>();
        let series = st
            .reservations
            .iter()
            .enumerate()
            .flat_map(|(i, r)| {
                let x = &r.comparison.reservations;
                [
                    Series {
                        colour: Some(i),
                        ..Series::new(format!("{} multiple", r.fraction), percent(&x.tail_multi))
                    },
                    Series {
                        colour: Some(i),
                        pale: true,
                        ..Series::new(format!("{} single", r.fraction), percent(&x.tail_single))
                    },
                ]
            })
            .collect();
        let spec = Spec::Lines {
            labels: Labels {
                title: format!("{name}: reservations delayed (Fig. 11)"),
                subtitle: "share of the reservation requests granted a start more than x later than asked, by the fraction of jobs asking; dashed: one queue (sq-backfill)".into(),
                x: "delay".into(),
                y: "requests [%]".into(),
                unit: "%".into(),
                ..Default::default()
            },
            xs: (0..TAIL_POINTS.len()).map(|k| k as f64).collect(),
            series,
            x_scale: XScale::Linear,
            x_labels: TAIL_POINTS.iter().map(|&v| duration(v)).collect(),
        };
        picture(out, &stem("tail"), &spec, None)?;
    }
    Ok(())
}

/// Runs the study on each trace (default: the paper's three) and prints its tables and findings.
pub fn cmd_lawson(a: &Args) -> Result<(), Fail> {
    let s = settings(a)?;
    let paths = paths_or(a, PAPER_TRACES)?;
    let json = a.format.as_deref() == Some("json");
    let pics = a.plot.as_deref().map(crate::plot::Out::new).transpose()?;
    if !json {
        out!("Lawson & Smirni (2002): multiple-queue (mq-backfill) against single-queue (sq-backfill) backfilling");
        out!("slowdown s = 1 + d/v (Eq. 2); R = (s1 - sm) / min(s1, sm) (Eq. 3), R > 0: multiple queues do better");
    }
    let mut docs = Vec::new();
    let mut summary: Vec<(String, Vec<Option<bool>>)> = Vec::new();
    let mut claims: Vec<&str> = Vec::new();
    // Each trace's study on its own core, printed in the order the traces were named.
    let bar = crate::progress(paths.len(), "studying traces");
    let studies: Vec<_> = paths
        .par_iter()
        .progress_with(bar.clone())
        .map(|path| -> Result<_, Fail> {
            let base = load_trace(path, &s)?;
            let loader = |f: f64| load_scaled(path, &s, f);
            Ok((base.header.unix_start_time, base.jobs.len(), base.machine, study(&loader, &s).map_err(fail)?))
        })
        .collect::<Result<_, _>>()?;
    bar.finish_and_clear();
    for (path, (unix_start, jobs, machine, st)) in paths.iter().zip(studies) {
        let name = short(path);
        if let Some(o) = &pics {
            plots(o, &name, &st, unix_start)?;
        }
        if json {
            docs.push(serde_json::json!({ "trace": name, "study": st }));
            continue;
        }
        let th = &st.loads[0].comparison.thresholds;
        out!(
            "\n{name}: {} jobs, {} processors; classes by estimate: short < {} s <= medium < {} s <= long",
            jobs,
            machine,
            th.first().copied().unwrap_or(0),
            th.get(1).copied().unwrap_or(0)
        );
        out!(
            "  {:>5} {:>5} {:>9} {:>9} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>9}",
            "load",
            "high",
            "s1",
            "sm",
            "R",
            "short",
            "medium",
            "long",
            "R high",
            "R low",
            "spec lost"
        );
        for l in &st.loads {
            let c = &l.comparison;
            let (rh, rl) = if l.high_priority < 1.0 { (r(c.r_high), r(c.r_low)) } else { ("".into(), "".into()) };
            out!(
                "  {:>5.2} {:>4.0}% {:>9.2} {:>9.2} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7.0} h",
                l.load,
                100.0 * l.high_priority,
                c.single.overall,
                c.multi.overall,
                r(Some(c.r)),
                r(c.r_classes.first().copied().flatten()),
                r(c.r_classes.get(1).copied().flatten()),
                r(c.r_classes.get(2).copied().flatten()),
                rh,
                rl,
                c.multi_metrics.speculative_lost_proc_h
            );
        }
        let hour = TAIL_POINTS.iter().position(|&x| x == 3600).unwrap_or(0);
        out!("  reservations at load 1 (Table 2, Fig. 10, 11):");
        out!(
            "  {:>8} {:>9} {:>13} {:>12} {:>9} {:>9} {:>7} {:>18}",
            "fraction",
            "requested",
            "missed single",
            "missed multi",
            "s1",
            "sm",
            "R",
            "delay > 1 h s / m"
        );
        for rr in &st.reservations {
            let c = &rr.comparison;
            let x = &c.reservations;
            out!(
                "  {:>8} {:>9} {:>13} {:>12} {:>9.2} {:>9.2} {:>7} {:>8.3} / {:<8.3}",
                rr.fraction,
                x.requested,
                x.missed_single,
                x.missed_multi,
                c.single.overall,
                c.multi.overall,
                r(Some(c.r)),
                x.tail_single[hour],
                x.tail_multi[hour]
            );
        }
        for f in &st.findings {
            out!("  [{}] {}\n      {}", verdict(f.holds), f.claim, f.detail);
        }
        if claims.is_empty() {
            claims = st.findings.iter().map(|f| f.claim).collect();
        }
        summary.push((name, st.findings.iter().map(|f| f.holds).collect()));
    }
    if json {
        out!("{}", serde_json::to_string_pretty(&docs).map_err(|e| fail(e.to_string()))?);
        return Ok(());
    }
    out!("\nSummary (claim: traces where it holds)");
    for (i, c) in claims.iter().enumerate() {
        let held: Vec<&str> = summary.iter().filter(|(_, h)| h[i] == Some(true)).map(|(n, _)| n.as_str()).collect();
        out!(
            "  {}/{}  {c}{}",
            held.len(),
            summary.len(),
            if held.is_empty() { String::new() } else { format!(" ({})", held.join(", ")) }
        );
    }
    Ok(())
}
