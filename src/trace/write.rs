//! A trace written back as Standard Workload Format v2.2 text with a full header: what
//! `schedlab convert` writes from an accounting log, and what the page exports. Reading the text
//! back gives the same jobs.

use super::Trace;
use crate::calendar::{weekday, Civil};

const DAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/// A Unix time as SWF headers write it, in UTC: `Tue Mar 31 10:59:35 UTC 2025`.
fn swf_date(t: i64) -> String {
    let c = Civil::from_unix(t);
    format!(
        "{} {} {:2} {:02}:{:02}:{:02} UTC {}",
        DAYS[weekday(t.div_euclid(86_400)) as usize],
        MONTHS[(c.month - 1) as usize],
        c.day,
        c.hour,
        c.minute,
        c.second,
        c.year
    )
}

/// The trace as SWF v2.2 text. Times become offsets from the first submission, which the
/// header's UnixStartTime gives; processors are written as both requested and allocated;
/// what the source said in its header (computer, queues) is kept, and a note says where the
/// jobs came from.
pub fn to_swf(trace: &Trace) -> String {
    let h = &trace.header;
    let base = h.unix_start_time.unwrap_or(0);
    let first = trace.jobs.first().map_or(0, |j| j.submit);
    let last_end = trace.jobs.iter().map(|j| j.submit + j.logged_wait.max(0) + j.runtime).max().unwrap_or(first);
    let mut out = String::new();
    let mut line = |s: String| {
        out.push_str("; ");
        out.push_str(&s);
        out.push('\n');
    };
    line("Version: 2.2".into());
    if let Some(c) = &h.computer {
        line(format!("Computer: {c}"));
    }
    if let Some(i) = &h.installation {
        line(format!("Installation: {i}"));
    }
    line(format!("MaxJobs: {}", trace.jobs.len()));
    line(format!("MaxRecords: {}", trace.jobs.len()));
    line(format!("MaxProcs: {}", trace.machine));
    line(format!("UnixStartTime: {}", base + first));
    line(format!("TimeZoneString: {}", h.time_zone_string.as_deref().unwrap_or("UTC")));
    line(format!("StartTime: {}", swf_date(base + first)));
    line(format!("EndTime: {}", swf_date(base + last_end)));
    for raw in &h.lines {
        let t = raw.trim();
        let t_lower = t.to_ascii_lowercase();
        if ["queues:", "queue:", "note:"].iter().any(|k| t_lower.starts_with(k)) {
            line(t.to_string());
        }
    }
    line(format!(
        "Note: written by schedlab from {}; the machine's size is {} ({}); docs/ACCOUNTING.md gives the mapping of accounting logs (GPUs and nodes have no SWF field and are not written)",
        h.computer.as_deref().unwrap_or("an SWF trace"),
        trace.machine,
        trace.report.machine_source
    ));
    out.push_str(";\n");
    for j in &trace.jobs {
        out.push_str(&format!(
            "{} {} {} {} {} -1 -1 {} {} {} -1 {} {} -1 {} {} -1 -1\n",
            j.id,
            j.submit - first,
            j.logged_wait,
            j.runtime,
            j.procs,
            j.procs,
            j.estimate,
            j.memory_kb,
            j.user,
            j.group,
            j.queue,
            j.partition
        ));
    }
    out
}
