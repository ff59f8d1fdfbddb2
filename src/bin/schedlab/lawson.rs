//! `schedlab lawson`: Lawson & Smirni's multiple- against single-queue backfilling study.

use schedlab::lawson::{study, TAIL_POINTS};

use crate::study::{load_scaled, paths_or, short, verdict};
use crate::{fail, load_trace, settings, Args, Fail};

/// The paper's traces (KTH, SP2, PAR) as ../shared/traces names them.
const PAPER_TRACES: &[&str] =
    &["KTH-SP2-1996-2.1-cln.swf.gz", "SDSC-SP2-1998-4.2-cln.swf.gz", "SDSC-Par-1996-3.1-cln.swf.gz"];

fn r(x: Option<f64>) -> String {
    x.map_or("-".into(), |v| format!("{v:+.3}"))
}

/// Runs the study on each trace (default: the paper's three) and prints its tables and findings.
/// `--plot`: R against the load, one line per share of high-priority jobs.
fn plot_r(out: &crate::plot::Out, name: &str, st: &schedlab::lawson::LawsonStudy) -> Result<(), Fail> {
    use schedlab::render::generic::{Labels, Series};
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
            Series::new(
                format!("{:.0}% high priority", 100.0 * h),
                loads
                    .iter()
                    .map(|x| st.loads.iter().find(|l| l.load == *x && l.high_priority == *h).map(|l| l.comparison.r))
                    .collect(),
            )
        })
        .collect();
    let labels = Labels {
        title: format!("{name}: multiple against single queue backfilling"),
        subtitle: "Lawson & Smirni Eq. 3: R = (s1 − sm) / min(s1, sm); above 0, multiple queues do better".into(),
        x: "load".into(),
        y: "R".into(),
        log: false,
        ..Default::default()
    };
    crate::plot::xy(out, &format!("lawson-{}-r", crate::plot::file_name(name)), &labels, &loads, &series)
}

pub fn cmd_lawson(a: &Args) -> Result<(), Fail> {
    let s = settings(a)?;
    let paths = paths_or(a, PAPER_TRACES);
    let json = a.format.as_deref() == Some("json");
    let pics = a.plot.as_deref().map(crate::plot::Out::new).transpose()?;
    if !json {
        out!("Lawson & Smirni (2002): multiple-queue (mq-backfill) against single-queue (sq-backfill) backfilling");
        out!("slowdown s = 1 + d/v (Eq. 2); R = (s1 - sm) / min(s1, sm) (Eq. 3), R > 0: multiple queues do better");
    }
    let mut docs = Vec::new();
    let mut summary: Vec<(String, Vec<Option<bool>>)> = Vec::new();
    let mut claims: Vec<&str> = Vec::new();
    for path in &paths {
        let base = load_trace(path, &s)?;
        let loader = |f: f64| load_scaled(path, &s, f);
        let st = study(&loader, &s).map_err(fail)?;
        let name = short(path);
        if let Some(o) = &pics {
            plot_r(o, &name, &st)?;
        }
        if json {
            docs.push(serde_json::json!({ "trace": name, "study": st }));
            continue;
        }
        let th = &st.loads[0].comparison.thresholds;
        out!(
            "\n{name}: {} jobs, {} processors; classes by estimate: short < {} s <= medium < {} s <= long",
            base.jobs.len(),
            base.machine,
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
