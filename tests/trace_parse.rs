//! SWF ingestion: header, defaults, options, malformed lines and compressed input.

use std::io::Write;

mod common;

use schedlab::run::Settings;
use schedlab::trace::{parse, Overrun, RuntimeSource, TraceOptions, Wide};

/// A job line with the fields that matter here; the rest are -1 or plain.
#[allow(clippy::too_many_arguments)]
fn line(id: u64, submit: i64, run: i64, alloc: i64, req: i64, est: i64, status: i64, user: i64) -> String {
    format!("{id} {submit} -1 {run} {alloc} -1 -1 {req} {est} -1 {status} {user} 1 -1 2 1 -1 -1\n")
}

fn defaults() -> TraceOptions {
    TraceOptions::default()
}

/// The header's keys are read, numbers from their leading digits, with or without a space after `;`.
#[test]
fn header_fields_and_notes_are_read() {
    let text = "\
;Version: SWF v2
; Computer: IBM SP2
;Installation: SDSC
; MaxNodes: 338 (batch partition; 512 total)
; MaxProcs: 400 (48 interactive, 352 batch)
; UnixStartTime: 893466664
; TimeZoneString: US/Pacific
; MaxQueues: 2
; Queue:  0  interactive
; Queue:  1  batch
; Note: THIS IS A CLEANED VERSION OF THE LOG!
;       The filters used to produce it were
;
"
    .to_string()
        + &line(1, 0, 10, 4, 4, 20, 1, 1);
    let t = parse(text.as_bytes(), &defaults()).unwrap();
    let h = &t.header;
    assert_eq!(h.version.as_deref(), Some("SWF v2"));
    assert_eq!(h.installation.as_deref(), Some("SDSC"));
    assert_eq!(h.max_nodes, Some(338));
    assert_eq!(h.max_procs, Some(400));
    assert_eq!(h.unix_start_time, Some(893466664));
    assert_eq!(h.time_zone_string.as_deref(), Some("US/Pacific"));
    assert_eq!(h.queues, vec![(0, "interactive".to_string()), (1, "batch".to_string())]);
    assert_eq!(h.notes, vec!["THIS IS A CLEANED VERSION OF THE LOG!\nThe filters used to produce it were".to_string()]);
    assert_eq!(t.machine, 400);
    assert_eq!(t.report.machine_source, "header MaxProcs");
    assert_eq!(t.report.header_lines, 13);
}

/// CRLF, tabs, trailing blanks and blank lines are all accepted.
#[test]
fn whitespace_variants_are_accepted() {
    let text = "; MaxProcs: 8\r\n\r\n1\t0\t-1\t10\t2\t-1\t-1\t2\t20\t-1\t1\t1\t1\t-1\t1\t1\t-1\t-1   \r\n\n   \n2 5 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 1 -1 -1";
    let t = parse(text.as_bytes(), &defaults()).unwrap();
    assert_eq!(t.jobs.len(), 2);
    assert_eq!(t.report.errors_total, 0);
    assert_eq!(t.report.blank_lines, 3);
    assert_eq!(t.jobs[1].submit, 5);
}

/// A malformed line is reported with its line number and field, and the good lines around it are kept.
#[test]
fn malformed_lines_are_reported_and_skipped() {
    let mut text = String::from("; MaxProcs: 8\n");
    text += &line(1, 0, 10, 2, 2, 20, 1, 1); // line 2
    text += "2 0 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 1 -1\n"; // line 3: 17 fields
    text += "3 0 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 1 -1 -1 7\n"; // line 4: 19 fields
    text += "4 0 -1 ten 2 -1 -1 2 20 -1 1 1 1 -1 1 1 -1 -1\n"; // line 5: non-numeric run time
    text += "5 0 -1 10 2 -1 -1 99999999999999999999999 20 -1 1 1 1 -1 1 1 -1 -1\n"; // line 6: overflow
    text += &"x".repeat(300);
    text += "\n"; // line 7: garbage
    text += &line(6, 5, 10, 2, 2, 20, 1, 1); // line 8
    let t = parse(text.as_bytes(), &defaults()).unwrap();
    assert_eq!(t.jobs.iter().map(|j| j.id).collect::<Vec<_>>(), vec![1, 6]);
    let msgs: Vec<String> = t.report.errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        msgs,
        vec![
            "line 3: expected 18 fields, found 17",
            "line 4: expected 18 fields, found 19",
            "line 5: field run_time: not a number: \"ten\"",
            "line 6: field requested_processors: number out of range: 99999999999999999999999",
            "line 7: expected 18 fields, found 1",
        ]
    );
    assert_eq!(t.report.dropped.get("malformed_line"), Some(&5));
}

/// DESIGN.md's defaults: processors from field 8 else 5; non-positive runtime or processors
/// dropped; a missing estimate replaced by the runtime; partial records skipped; overruns killed
/// at the estimate; sorting counted.
#[test]
fn default_filters_and_alterations_are_counted() {
    let mut text = String::from("; MaxProcs: 16\n");
    text += &line(1, 100, 10, 4, -1, 20, 1, 1); // procs from allocated
    text += &line(2, 50, 0, 4, 4, 20, 1, 1); // runtime 0: dropped
    text += &line(3, 60, 10, 4, 4, -1, 1, 1); // no estimate: the runtime stands in
    text += &line(4, 70, 10, -1, -1, 20, 1, 1); // no procs: dropped
    text += &line(5, 80, 10, 4, 4, 20, 3, 1); // status 3: partial record
    text += &line(6, 90, 50, 4, 4, 20, 1, 2); // runs past estimate: killed
    text += &line(7, 95, 10, 32, 32, 20, 1, 2); // wider than the machine
    text += &line(8, 96, -1, 4, 4, 20, 5, 2); // cancelled before it ran
    let t = parse(text.as_bytes(), &defaults()).unwrap();
    let ids: Vec<u64> = t.jobs.iter().map(|j| j.id).collect();
    assert_eq!(ids, vec![3, 6, 1], "sorted by submit time");
    assert_eq!(t.jobs[2].procs, 4);
    assert_eq!((t.jobs[0].estimate, t.jobs[0].runtime), (10, 10));
    assert_eq!(t.jobs[1].runtime, 20);
    let r = &t.report;
    for (k, v) in [
        ("runtime_not_positive", 1),
        ("procs_not_positive", 1),
        ("partial_record", 1),
        ("wider_than_machine", 1),
        ("cancelled_before_start", 1),
    ] {
        assert_eq!(r.dropped.get(k), Some(&v), "{k}");
    }
    assert_eq!(r.dropped.len(), 5, "{:?}", r.dropped);
    for (k, v, line) in [
        ("killed_at_estimate", 1, 7),
        ("estimate_from_runtime", 1, 4),
        ("procs_from_allocated", 1, 2),
        ("sorted", 1, 4),
    ] {
        assert_eq!((r.altered.get(k), r.altered_lines.get(k)), (Some(&v), Some(&line)), "{k}");
    }
    assert_eq!(r.jobs_kept, 3);
    assert_eq!(r.users, 2);
    assert_eq!((r.first_submit, r.last_submit, r.span_s), (60, 100, 40));
}

/// A job that lacks its estimate, and one that lacks the processor field read first, are both
/// kept: the other field stands in, each is counted as altered, and since each is more than 1%
/// of the job lines, each is a warning with its first line; so is the loss of the jobs dropped.
#[test]
fn jobs_missing_a_field_are_kept_altered_and_warned() {
    let mut text = String::from("; MaxProcs: 16\n");
    text += &line(1, 0, 100, 4, 4, 200, 1, 1);
    text += &line(2, 10, 300, 2, 2, -1, 1, 1); // no estimate: 300 stands in
    text += &line(3, 20, 50, -1, 8, 60, 1, 1); // no allocated processors
    text += &line(4, 30, 50, 4, -1, 60, 1, 1); // no requested processors
    text += &line(5, 40, 0, 4, 4, 60, 1, 1); // ran 0 s: dropped
    let t = parse(text.as_bytes(), &defaults()).unwrap();
    assert_eq!(t.jobs.len(), 4);
    let got: Vec<(u64, u32, i64)> = t.jobs.iter().map(|j| (j.id, j.procs, j.estimate)).collect();
    assert_eq!(got, vec![(1, 4, 200), (2, 2, 300), (3, 8, 60), (4, 4, 60)]);
    let r = &t.report;
    assert_eq!(r.altered.get("estimate_from_runtime"), Some(&1));
    assert_eq!(r.altered.get("procs_from_allocated"), Some(&1));
    assert_eq!(
        r.loss,
        [
            "this trace lost 20% of its job lines (1 of 5): 1 with no runtime (0 s or missing) (first at line 6); every figure describes the rest",
            "20% of this trace's job lines (1) were altered: 1 without an estimate (the runtime stands in) (first at line 3)",
            "20% of this trace's job lines (1) were altered: 1 without requested processors (the allocated stand in) (first at line 5)",
        ]
    );
    assert!(r.loss.iter().all(|l| r.warnings.contains(l)), "every loss sentence is a warning");
    // Allocated processors first: job 3 lacks them, and its requested 8 stand in.
    let mut o = defaults();
    o.set("procs", "allocated").unwrap();
    let t = parse(text.as_bytes(), &o).unwrap();
    let got: Vec<(u64, u32)> = t.jobs.iter().map(|j| (j.id, j.procs)).collect();
    assert_eq!(got, vec![(1, 4), (2, 2), (3, 8), (4, 4)]);
    assert_eq!(t.report.altered.get("procs_from_requested"), Some(&1));
    assert_eq!(t.report.altered_lines.get("procs_from_requested"), Some(&4));
    // A trace where no job gives requested processors alters none: allocated is simply the field.
    let text =
        String::from("; MaxProcs: 16\n") + &line(1, 0, 100, 4, -1, 200, 1, 1) + &line(2, 5, 100, 2, -1, 200, 1, 1);
    let t = parse(text.as_bytes(), &defaults()).unwrap();
    assert_eq!(t.report.altered.get("procs_from_allocated"), None);
    assert!(t.report.loss.is_empty());
    // missing_estimate=drop gives the old filtered trace; partition_max the queue's longest.
    let text = String::from("; MaxProcs: 16\n") + &line(1, 0, 100, 4, 4, 200, 1, 1) + &line(2, 10, 30, 2, 2, -1, 1, 1);
    let mut o = defaults();
    o.set("missing_estimate", "drop").unwrap();
    let t = parse(text.as_bytes(), &o).unwrap();
    assert_eq!((t.jobs.len(), t.report.dropped.get("estimate_missing")), (1, Some(&1)));
    o.set("missing_estimate", "partition_max").unwrap();
    let t = parse(text.as_bytes(), &o).unwrap();
    assert_eq!(t.jobs[1].estimate, 200);
    assert_eq!(t.report.altered.get("estimate_from_partition"), Some(&1));
}

/// Each default can be switched off: allocated processors, clamping, running past the estimate, partial records.
#[test]
fn trace_options_switch_the_defaults() {
    let mut text = String::from("; MaxProcs: 16\n");
    text += &line(1, 0, 50, 6, 4, 20, 1, 1);
    text += &line(2, 10, 10, 32, 32, 20, 1, 1);
    text += &line(3, 20, 10, 4, 4, 20, 4, 1);
    let opts = TraceOptions {
        overrun: Overrun::Run,
        wide: Wide::Clamp,
        procs: schedlab::trace::ProcsField::Allocated,
        keep_partial: true,
        ..defaults()
    };
    let t = parse(text.as_bytes(), &opts).unwrap();
    assert_eq!(t.jobs.len(), 3);
    assert_eq!((t.jobs[0].procs, t.jobs[0].runtime), (6, 50));
    assert_eq!(t.jobs[1].procs, 16);
    assert_eq!(t.report.altered.get("clamped_to_machine"), Some(&1));
    assert_eq!(t.report.altered.get("ran_past_estimate"), Some(&1));
}

/// The machine size comes from the option, else MaxProcs, else the widest job.
#[test]
fn machine_size_sources() {
    let body = line(1, 0, 10, 6, 6, 20, 1, 1) + &line(2, 0, 10, 9, 9, 20, 1, 1);
    let t = parse(body.as_bytes(), &defaults()).unwrap();
    assert_eq!((t.machine, t.report.machine_source), (9, "widest job"));
    let with_header = String::from("; MaxProcs: 0\n") + &body;
    let t = parse(with_header.as_bytes(), &defaults()).unwrap();
    assert_eq!((t.machine, t.report.machine_source), (9, "widest job"));
    let t = parse(body.as_bytes(), &TraceOptions { machine: Some(8), ..defaults() }).unwrap();
    assert_eq!((t.machine, t.report.machine_source), (8, "option"));
    assert_eq!(t.report.dropped.get("wider_than_machine"), Some(&1));
}

/// A trace without estimates uses the runtimes and says so.
#[test]
fn missing_estimates_become_exact() {
    let body = line(1, 0, 10, 2, 2, -1, 1, 1) + &line(2, 5, 30, 2, 2, -1, 1, 1);
    let t = parse(body.as_bytes(), &defaults()).unwrap();
    assert!(t.report.estimates_exact);
    assert_eq!(t.jobs[1].estimate, 30);
    assert!(t.report.warnings.iter().any(|w| w.contains("no user estimates")));
}

/// Load scaling divides submit offsets; the runtime source sets what the scheduler plans with.
#[test]
fn load_scaling_and_runtime_source() {
    let body =
        String::from("; MaxProcs: 4\n") + &line(1, 1000, 10, 2, 2, 40, 1, 1) + &line(2, 1100, 10, 2, 2, 40, 1, 1);
    let s = Settings::parse(&["load=2", "runtime=x2"]).unwrap();
    let t = parse(body.as_bytes(), &s.trace).unwrap();
    assert_eq!(t.jobs.iter().map(|j| j.submit).collect::<Vec<_>>(), vec![1000, 1050]);
    assert_eq!(t.jobs[0].sched_runtime, 80);
    let t = parse(body.as_bytes(), &TraceOptions { runtime: RuntimeSource::Exact, ..defaults() }).unwrap();
    assert_eq!(t.jobs[0].sched_runtime, 10);
    let t = parse(body.as_bytes(), &defaults()).unwrap();
    assert_eq!(t.jobs[0].sched_runtime, 40);
}

/// Settings are matched case-insensitively with - and _ alike, and bad values are refused with the key.
#[test]
fn settings_parse_and_reject() {
    let s = Settings::parse(&["Runtime=EXACT", "OVERRUN=run", "wide=Clamp", "machine=64", "TAU=60", "k=3"]).unwrap();
    assert_eq!(s.trace.runtime, RuntimeSource::Exact);
    assert_eq!(s.trace.overrun, Overrun::Run);
    assert_eq!(s.trace.wide, Wide::Clamp);
    assert_eq!(s.trace.machine, Some(64));
    assert_eq!(s.metrics.tau, 60);
    assert_eq!(s.policy, vec![("k".to_string(), "3".to_string())]);
    let e = Settings::parse(&["runtime=sometimes"]).unwrap_err();
    assert_eq!(e.to_string(), "runtime=sometimes: expected one of estimate, exact, perfect, x2");
    assert!(Settings::parse(&["machine=0"]).is_err());
    assert!(Settings::parse(&["load=-1"]).is_err());
    assert!(Settings::parse(&["load=1e-300"]).is_err());
    assert!(Settings::parse(&["load=NaN"]).is_err());
    assert!(Settings::parse(&["noequals"]).is_err());
}

/// Empty input, header-only input and input whose every job is dropped fail with a reason.
#[test]
fn nothing_usable_fails_with_a_reason() {
    let e = parse(b"", &defaults()).unwrap_err();
    assert_eq!(e.message, "the file is empty");
    let e = parse(b"; Version: 2.2\n; MaxProcs: 8\n", &defaults()).unwrap_err();
    assert!(e.message.starts_with("no job lines"), "{}", e.message);
    let body = line(1, 0, 0, 2, 2, 20, 1, 1) + "garbage\n";
    let e = parse(body.as_bytes(), &defaults()).unwrap_err();
    assert_eq!(
        e.message,
        "no usable jobs: all 2 job lines were dropped (1 malformed_line from line 2, 1 runtime_not_positive from line 1); first error: line 2: expected 18 fields, found 1"
    );
}

/// Arbitrary bytes never panic the parser.
#[test]
fn binary_input_does_not_panic() {
    let mut bytes: Vec<u8> = (0..4096u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
    assert!(parse(&bytes, &defaults()).is_err());
    bytes.extend_from_slice(b"\n1 0 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 1 -1 -1\n");
    let t = parse(&bytes, &defaults()).unwrap();
    assert_eq!(t.jobs.len(), 1);
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(data).unwrap();
    enc.finish().unwrap()
}

/// Gzip input reads like plain input; a truncated stream keeps its complete lines and says so.
#[test]
fn gzip_input_plain_truncated_and_corrupt() {
    let mut text = String::from("; MaxProcs: 8\n");
    for i in 0..2000 {
        text += &line(i + 1, i as i64 * 7, 10 + (i as i64 % 50), 2, 2, 100, 1, (i % 13) as i64);
    }
    let plain = parse(text.as_bytes(), &defaults()).unwrap();
    let gz = gzip(text.as_bytes());
    let t = parse(&gz, &defaults()).unwrap();
    assert_eq!(t.jobs, plain.jobs);

    let cut = &gz[..gz.len() / 2];
    let t = parse(cut, &defaults()).unwrap();
    assert!(t.jobs.len() > 10 && t.jobs.len() < 2000, "kept {}", t.jobs.len());
    assert_eq!(t.jobs[..], plain.jobs[..t.jobs.len()]);
    assert!(t.report.warnings.iter().any(|w| w.contains("corrupt or truncated")), "{:?}", t.report.warnings);

    let mut bad = gz[..10].to_vec();
    bad.extend_from_slice(&[0xff; 64]);
    let e = parse(&bad, &defaults()).unwrap_err();
    assert!(e.message.contains("gzip data is corrupt or truncated"), "{}", e.message);
}

#[test]
fn the_header_is_read_alone_from_text_gzip_and_packed() {
    let text = format!("; TimeZoneString: Europe/Stockholm\n; MaxProcs: 4\n{}\n", line(1, 0, 10, 1, 1, 10, 1, 1));
    let mut loader = schedlab::trace::Loader::new(None);
    loader.feed(text.as_bytes());
    let packed = loader.finish();
    for bytes in [text.as_bytes().to_vec(), gzip(text.as_bytes()), packed] {
        let h = schedlab::trace::read_header(&bytes);
        assert_eq!((h.time_zone_string.as_deref(), h.max_procs), (Some("Europe/Stockholm"), Some(4)));
    }
    assert_eq!(schedlab::trace::read_header(b"\0SCHEDLAB-PACK4\n\xff").time_zone_string, None);
}

/// Inputs found by fuzzing: negative or extreme submit times, absurd machine sizes, extreme load.
#[test]
fn extreme_values_are_refused_or_dropped() {
    // A negative submit time is SWF's "missing": the job is dropped, not simulated.
    let body = String::from("; MaxProcs: 4\n") + &line(1, -100, 10, 1, 1, 20, 1, 1) + &line(2, 0, 10, 1, 1, 20, 1, 1);
    let t = parse(body.as_bytes(), &defaults()).unwrap();
    assert_eq!(t.report.dropped.get("submit_missing"), Some(&1));
    assert_eq!(t.jobs.len(), 1);
    let body = format!("; MaxProcs: 4\n{}{}", line(1, i64::MIN, 10, 1, 1, 20, 1, 1), line(2, 0, 10, 1, 1, 20, 1, 1));
    let t = parse(body.as_bytes(), &defaults()).unwrap();
    assert_eq!(t.jobs.len(), 1);
    assert_eq!(t.report.span_s, 0);
    // A dropped record cannot make the machine huge; a huge header is refused with a reason.
    let body = line(1, 0, -1, 1, 4_000_000_000, 10, 1, 1) + &line(2, 0, 10, 2, 2, 20, 1, 1);
    let t = parse(body.as_bytes(), &defaults()).unwrap();
    assert_eq!(t.machine, 2);
    let body = String::from("; MaxProcs: 4000000000\n") + &line(1, 0, 10, 2, 2, 20, 1, 1);
    let e = parse(body.as_bytes(), &defaults()).unwrap_err();
    assert!(e.message.contains("machine size 4000000000"), "{}", e.message);
    // The library checks the load factor too, not only the command line.
    let body = line(1, 0, 10, 2, 2, 20, 1, 1);
    assert!(parse(body.as_bytes(), &TraceOptions { load: 0.0, ..defaults() }).is_err());
    assert!(parse(body.as_bytes(), &TraceOptions { load: -1.0, ..defaults() }).is_err());
}

/// A cluster whose users gave time limits in one partition only: SDSC-SP2 with every estimate
/// removed outside queue 2 ("high"). No job is lost: each keeps its runtime as its estimate,
/// counted as altered, and the report's warning says what share of the trace that is.
#[test]
fn a_trace_with_estimates_in_one_partition_only_keeps_every_job() {
    let text = String::from_utf8(common::gunzip(&common::read_shared("traces/SDSC-SP2-1998-4.2-cln.swf.gz"))).unwrap();
    let mut removed = String::with_capacity(text.len());
    // Job numbers without an estimate, and queue 2's longest estimate.
    let mut missing = std::collections::HashSet::new();
    let mut longest = 0i64;
    for l in text.lines() {
        let mut f: Vec<&str> = l.split_whitespace().collect();
        if !l.starts_with(';') && f.len() == 18 {
            if f[14] != "2" {
                f[8] = "-1";
            }
            let est: i64 = f[8].parse().unwrap();
            if est <= 0 {
                missing.insert(f[0].parse::<u64>().unwrap());
            } else if !["2", "3", "4"].contains(&f[10]) {
                longest = longest.max(est);
            }
        }
        removed.push_str(&f.join(" "));
        removed.push('\n');
    }
    let whole = parse(text.as_bytes(), &defaults()).unwrap();
    let t = parse(removed.as_bytes(), &defaults()).unwrap();
    assert_eq!(t.report.jobs_kept, whole.report.jobs_kept, "no job is lost for lack of an estimate");
    assert_eq!(t.report.dropped, whole.report.dropped);
    let lacking = t.jobs.iter().filter(|j| missing.contains(&j.id)).count() as u64;
    assert!(lacking > 40_000, "{lacking}");
    assert_eq!(t.report.altered["estimate_from_runtime"], lacking);
    assert!(t.jobs.iter().filter(|j| missing.contains(&j.id)).all(|j| j.estimate == j.runtime));
    // The share is of the job lines that describe jobs that ran: cancelled ones are not lost.
    let ran = whole.report.job_lines - whole.report.dropped["cancelled_before_start"];
    let warning = format!(
        "{:.0}% of this trace's job lines ({}) were altered: ",
        100.0 * lacking as f64 / ran as f64,
        group(lacking)
    );
    assert!(t.report.warnings.iter().any(|w| w.starts_with(&warning)), "{warning} in {:?}", t.report.warnings);
    // The one partition with estimates lends its longest to its own jobs that have none only.
    let mut o = defaults();
    o.set("missing_estimate", "partition_max").unwrap();
    let p = parse(removed.as_bytes(), &o).unwrap();
    assert_eq!(p.report.jobs_kept, t.report.jobs_kept);
    let lent = p.jobs.iter().filter(|j| j.queue == 2 && missing.contains(&j.id));
    assert!(lent.clone().count() > 0);
    assert!(lent.clone().all(|j| j.estimate == longest.max(j.runtime)));
    assert_eq!(p.report.altered["estimate_from_partition"], lent.count() as u64);
    assert!(p.jobs.iter().filter(|j| j.queue != 2).all(|j| j.estimate == j.runtime));
}

fn group(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
