//! The trace report in rows of a key and a text, as `schedlab info` prints it and the page's
//! Trace view shows it: one wording for both.

use serde::Serialize;

use crate::metrics::categories::Grid;
use crate::render::compare::{fmt_value, Unit};
use crate::render::generic::{Labels, Spec};
use crate::trace::{first_at, reason_text, Header, TraceReport};

/// One line of the report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReportRow {
    /// What it is about (`jobs kept`, `warning`).
    pub key: &'static str,
    /// What it says.
    pub text: String,
    /// `warn` for a warning, `warn loss` for one that every result repeats, else empty.
    pub class: &'static str,
}

/// The report of the trace read from `name`, with what its header says, in the order shown.
pub fn report_rows(name: &str, report: &TraceReport, header: &Header) -> Vec<ReportRow> {
    let r = report;
    let mut rows = Vec::new();
    let mut put = |key, text: String| rows.push(ReportRow { key, text, class: "" });
    put("trace", name.to_string());
    for (key, value) in [("computer", &header.computer), ("installation", &header.installation)] {
        if let Some(v) = value {
            put(key, v.clone());
        }
    }
    if let (Some(a), Some(b)) = (&header.start_time, &header.end_time) {
        put("period", format!("{a} -> {b}"));
    }
    if let Some(tz) = &header.time_zone_string {
        put("time zone", tz.clone());
    }
    for note in &header.notes {
        put("note", note.clone());
    }
    let lines = format!(
        "{} ({} header, {} blank, {} job lines)",
        group(r.lines_read),
        group(r.header_lines),
        group(r.blank_lines),
        group(r.job_lines)
    );
    put("lines read", lines);
    if let Some(f) = r.format {
        put("read as", f.to_string());
    }
    put("jobs kept", group(r.jobs_kept));
    for (k, v) in &r.dropped {
        put("dropped", format!("{} {}{}", group(*v), reason_text(k), first_at(&r.dropped_lines, k)));
    }
    for (k, v) in &r.altered {
        put("altered", format!("{} {}{}", group(*v), reason_text(k), first_at(&r.altered_lines, k)));
    }
    put("machine", format!("{} processors ({})", group(r.machine_size as u64), r.machine_source));
    let estimates = if r.estimates_exact { "none in trace: runtimes used (exact)" } else { "from the trace" };
    put("estimates", estimates.to_string());
    let span = fmt_value(Unit::Seconds, r.span_s as f64);
    put("submit span", format!("{span} ({} .. {} s)", r.first_submit, r.last_submit));
    put("users, queues", format!("{}, {}", group(r.users), group(r.queues)));
    if let Some(line) = r.stopped_at_line {
        put("reading stopped", format!("at line {line}"));
    }
    for w in &r.warnings {
        let class = if r.loss.contains(w) { "warn loss" } else { "warn" };
        rows.push(ReportRow { key: "warning", text: w.clone(), class });
    }
    rows
}

/// The trace's shape as two heatmaps, jobs and processor-hours by length and width (Leung et
/// al. Tables I and II), for [`crate::render::generic::draw`].
pub fn shape_charts(g: &Grid) -> [Spec; 2] {
    let heatmap = |title: &str, value: &str, values: &[Vec<f64>], counts: Option<Vec<Vec<u64>>>| Spec::Heatmap {
        labels: Labels {
            title: title.into(),
            subtitle: "length by actual runtime, width by processors asked for".into(),
            x: "processors".into(),
            y: "runtime".into(),
            log: true,
            value: value.into(),
            ..Labels::default()
        },
        rows: g.rows.clone(),
        cols: g.cols.clone(),
        values: values.iter().map(|row| row.iter().map(|&v| (v != 0.0).then_some(v)).collect()).collect(),
        counts,
        range: None,
    };
    let counts: Vec<Vec<f64>> = g.count.iter().map(|row| row.iter().map(|&c| c as f64).collect()).collect();
    [
        heatmap("Jobs by length and width (Leung et al. Table I)", "jobs", &counts, None),
        heatmap("Processor-hours by length and width (Table II)", "processor-hours", &g.value, Some(g.count.clone())),
    ]
}

/// A count with its thousands grouped, as every chart writes it.
fn group(n: u64) -> String {
    crate::render::axis::whole_or_number(n as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_says_what_was_dropped_and_warns() {
        let swf = "; Computer: Test\n; MaxProcs: 4\n1 0 -1 10 2 -1 -1 2 10 -1 1 1 1 -1 1 -1 -1 -1\n\
                   2 5 -1 10 9 -1 -1 9 10 -1 1 1 1 -1 1 -1 -1 -1\n";
        let t = crate::trace::parse(swf.as_bytes(), &Default::default()).unwrap();
        let rows = report_rows("t.swf", &t.report, &t.header);
        let text = |key| rows.iter().find(|r| r.key == key).map(|r| r.text.clone()).unwrap();
        assert_eq!(text("trace"), "t.swf");
        assert_eq!(text("computer"), "Test");
        assert_eq!(text("jobs kept"), "1");
        assert_eq!(text("dropped"), "1 wider than the machine (first at line 4)");
        assert!(rows.iter().any(|r| r.key == "warning" && r.class.starts_with("warn")));
    }
}
