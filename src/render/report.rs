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

/// A byte count for people: 312 MB, 1.02 GB.
pub fn bytes_text(n: f64) -> String {
    match n {
        n if n >= 1e9 => format!("{:.2} GB", n / 1e9),
        n if n >= 1e6 => format!("{} MB", (n / 1e6).round()),
        n if n >= 1e3 => format!("{} kB", (n / 1e3).round()),
        n => format!("{n} bytes"),
    }
}

/// The Trace view's report of a trace read from `name` as HTML: why it cannot be used (when it
/// cannot), its rows and the packed size of its `packed` bytes, how an accounting log's fields
/// became jobs, the button exporting it as SWF, and its first malformed lines.
pub fn report_html(rows: &[ReportRow], report: &TraceReport, failure: Option<&str>, packed: usize) -> String {
    use super::html::El;
    let mut out = String::new();
    if let Some(message) = failure {
        out += &El::new("p").attr("class", "error").text(format!("This trace cannot be used: {message}")).to_string();
    }
    let per_job = packed as f64 / report.jobs_kept.max(1) as f64;
    let packed = format!("{} ({per_job:.1} bytes per job)", bytes_text(packed as f64));
    let cells = |key: &str, text: &str, tag| El::new("tr").kid(El::new(tag).text(key)).kid(El::new(tag).text(text));
    let table = El::new("table")
        .kids(rows.iter().map(|r| cells(r.key, &r.text, "td").some("class", r.class)))
        .kid(cells("packed", &packed, "td"));
    out += &table.to_string();
    if let (Some(format), false) = (report.format, report.mapping.is_empty()) {
        let head = cells("in the log", "in the simulation", "th");
        let fields = El::new("table").kid(head).kids(report.mapping.iter().map(|(from, to)| cells(from, to, "td")));
        let summary = El::new("summary").text(format!("Read as {format}: how its fields became jobs"));
        out += &El::new("details").attr("class", "mapping").kid(summary).kid(fields).to_string();
    }
    let export = El::new("button")
        .attr("type", "button")
        .attr("id", "export-swf")
        .attr("title", "the jobs as read, in the Standard Workload Format v2.2 with a full header")
        .text("Export as SWF");
    out += &El::new("p").kid(export).to_string();
    if report.errors_total > 0 {
        let line = |e: &crate::trace::LineError| {
            let field = e.field.map_or(String::new(), |f| format!(", field {f}"));
            El::new("li").text(format!("line {}{field}: {}", e.line, e.message))
        };
        out += &El::new("p")
            .attr("class", "error")
            .text(format!("{} malformed line(s) skipped:", report.errors_total))
            .to_string();
        out += &El::new("ul").attr("class", "errors").kids(report.errors.iter().take(20).map(line)).to_string();
    }
    out
}

/// The header's line about a trace: its machine's name, jobs, processors and span.
pub fn chip_text(report: &TraceReport, header: &Header) -> String {
    let mut facts = vec![
        format!("{} jobs", group(report.jobs_kept)),
        format!("{} processors", group(report.machine_size as u64)),
        format!("{} of submissions", fmt_value(Unit::Seconds, report.span_s as f64)),
    ];
    if let Some(c) = &header.computer {
        facts.insert(0, c.clone());
    }
    format!("· {}", facts.join(" · "))
}

/// How the loader stopped: where the user's Cancel stopped it (why), and whether it stopped at the
/// page's limit on jobs (`full`) after reading `jobs` job lines.
#[derive(Debug, Clone, Default)]
pub struct Loaded {
    /// Why the page stopped the reading, when it did.
    pub stopped: Option<String>,
    /// The loader stopped at its job limit.
    pub full: bool,
    /// The job lines it read.
    pub jobs: u64,
}

/// What the page says prominently when reading stopped before the end of the file (at the page's
/// job limit, at a fault in the file, or at the user's Cancel): `(HTML, line)`, the engine's own
/// words following the sentence; None when the whole file was read.
pub fn load_warning(name: &str, report: &TraceReport, loaded: &Loaded) -> Option<(String, Option<u64>)> {
    use super::html::El;
    let fault = report.warnings.iter().any(|w| w.contains("gzip data is corrupt or truncated"));
    let line = report.stopped_at_line;
    if line.is_none() && !fault {
        return None;
    }
    let at = format!("eading stopped at line {}", commas(line.unwrap_or(0)));
    let limit = crate::trace::PAGE_JOB_LIMIT;
    let text = if line.is_none() {
        format!(
            "{name} ends early: its compressed data is damaged. The {} jobs read before the fault are kept.",
            report.jobs_kept
        )
    } else if loaded.full && loaded.jobs >= limit {
        format!("The page keeps at most {} jobs: r{at} of {name}; the jobs before it are kept. Use the schedlab command-line tool for the whole trace.", commas(limit))
    } else if let Some(why) = &loaded.stopped {
        format!("R{at} ({why}); the jobs before it are kept.")
    } else {
        format!("R{at} of {name}; the jobs before it are kept.")
    };
    let details = report.warnings.iter().map(|w| El::new("div").attr("class", "detail").text(w));
    let html: String = std::iter::once(super::html::esc(&text)).chain(details.map(|d| d.to_string())).collect();
    Some((html, line))
}

/// A whole number with every thousand grouped (`1,234`), as the page's sentences write counts.
pub fn commas(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
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

    #[test]
    fn the_report_is_html_with_its_loss_escaped_and_a_stop_is_said() {
        let swf = "; Computer: <Test>\n; MaxProcs: 4\n1 0 -1 10 2 -1 -1 2 10 -1 1 1 1 -1 1 -1 -1 -1\nx y\n";
        let t = crate::trace::parse(swf.as_bytes(), &Default::default()).unwrap();
        let rows = report_rows("a<b>.swf", &t.report, &t.header);
        let html = report_html(&rows, &t.report, None, 2048);
        assert!(html.starts_with(
            "<table><tr><td>trace</td><td>a&lt;b&gt;.swf</td></tr><tr><td>computer</td><td>&lt;Test&gt;</td></tr>"
        ));
        assert!(html.contains("<tr><td>packed</td><td>2 kB (2048.0 bytes per job)</td></tr>"));
        assert!(html.contains("<p class=\"error\">1 malformed line(s) skipped:</p><ul class=\"errors\"><li>line 4"));
        assert_eq!(chip_text(&t.report, &t.header), "· <Test> · 1 jobs · 4 processors · 0 s of submissions");
        assert_eq!(load_warning("a", &t.report, &Loaded::default()), None);
        let mut stopped = t.report.clone();
        stopped.stopped_at_line = Some(12345);
        let loaded = Loaded { stopped: Some("stopped by the user".into()), ..Loaded::default() };
        let (html, line) = load_warning("a", &stopped, &loaded).unwrap();
        assert_eq!(line, Some(12345));
        assert!(html.starts_with("Reading stopped at line 12,345 (stopped by the user); the jobs before it are kept."));
        assert_eq!(bytes_text(1.5e9), "1.50 GB");
        assert_eq!(bytes_text(999.0), "999 bytes");
    }
}
