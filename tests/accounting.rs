//! Accounting logs (Slurm, PBS, Grid Engine, LSF) read as a trace, on the samples in `../shared/accounting-logs/` and on
//! hostile variants of them. Expected values are read off the files by hand, as each comment
//! says; times are seconds since 1970 (sacct's local times read as UTC).

mod common;

use schedlab::trace::{parse, Trace, TraceOptions};

fn sample(name: &str) -> Vec<u8> {
    common::read_shared(&format!("accounting-logs/{name}"))
}

fn read(bytes: &[u8]) -> Trace {
    parse(bytes, &TraceOptions::default()).expect("the log reads")
}

/// Seconds since 1970 of a UTC date and time.
fn at(y: i64, mo: u32, d: u32, h: i64, mi: i64, s: i64) -> i64 {
    schedlab::calendar::days_from_civil(y, mo, d) * 86_400 + h * 3600 + mi * 60 + s
}

/// slurm2sql's test data: `--parsable2` with a 51-column header, 2 jobs and 3 steps.
#[test]
fn parsable2_with_header() {
    // Line 2: 43974388, CANCELLED by 1300204, Timelimit 5-00:00:00, Submit 2019-07-31T22:29:13,
    //   Start 22:29:14, End 2019-08-01T02:02:39, Partition jupyter-long, AllocCPUS 2, User user1.
    //   Wait 1 s, run 3 h 33 min 25 s = 12,805 s, estimate 432,000 s.
    // Lines 3-4: its steps .batch and .0, folded. Line 6: the step of 43977780, folded.
    // Line 5: 43977780, CANCELLED, Timelimit 00:01:00, Start 2019-08-01T00:35:27, End Unknown,
    //   Elapsed 00:00:17: it ran 17 s. Partition interactive, AllocCPUS 1.
    // Both ran at 00:35:27: 3 processors at once, the machine's size.
    let t = read(&sample("slurm2sql__test-data1.csv"));
    assert_eq!(t.jobs.len(), 2);
    assert_eq!(t.report.job_lines, 5);
    assert_eq!(t.report.header_lines, 1);
    assert_eq!(t.machine, 3);
    let a = &t.jobs[0];
    assert_eq!(
        (a.id, a.submit, a.runtime, a.estimate, a.procs),
        (43974388, at(2019, 7, 31, 22, 29, 13), 12_805, 432_000, 2)
    );
    assert_eq!(a.logged_wait, 1);
    let b = &t.jobs[1];
    assert_eq!((b.id, b.submit, b.runtime, b.estimate, b.procs), (43977780, at(2019, 8, 1, 0, 35, 26), 17, 60, 1));
    assert_ne!(a.queue, b.queue, "two partitions, two queues");
    assert_eq!(a.user, b.user, "one user");
    let w = t.report.warnings.join("\n");
    assert_eq!(t.report.dropped.get("job_step_folded"), Some(&3));
    assert_eq!(t.report.dropped_lines.get("job_step_folded"), Some(&3));
    assert!(w.contains("3 processors, the most its jobs held at once"), "{w}");
    assert!(w.contains("read as UTC"), "{w}");
    assert_eq!(t.header.unix_start_time, Some(0));
    // A size given answers the remark: it is no longer made.
    let mut o = TraceOptions::default();
    o.set("machine", "8").unwrap();
    let t = parse(&sample("slurm2sql__test-data1.csv"), &o).unwrap();
    assert_eq!(t.machine, 8);
    assert!(!t.report.warnings.iter().any(|w| w.contains("machine's size")), "{:?}", t.report.warnings);
}

/// Output without the columns a simulation needs is refused, saying which and what to run.
#[test]
fn columns_missing_are_named() {
    // OSC's test file: JobID|JobName|Partition|Account|AllocCPUS|State|ExitCode, no times.
    let e = parse(&sample("osc-ood-sacct__test__sacct.txt"), &TraceOptions::default()).unwrap_err();
    assert!(e.message.contains("no Submit, no Start, no End (or Elapsed) column"), "{}", e.message);
    assert!(e.message.contains("sacct -X -P --format"), "{}", e.message);
    // Its fixed-width twin (the default sacct output) is recognised as sacct output too.
    let e = parse(&sample("osc-ood-sacct__sacct.txt"), &TraceOptions::default()).unwrap_err();
    assert!(e.message.contains("this sacct output has no Submit"), "{}", e.message);
}

/// Output printed with `--noheader`: read in the order of a tool that documents its sacct
/// command when the lines fit it (saying so), in the order `fields=` names, or refused saying
/// how to name the columns.
#[test]
fn header_less_sacct_output() {
    // The hpccs samples use AWS HPC Cost Simulator's order (State first, JobID second; a 26th
    // Partition column on some lines only). The array sample: tasks 846_0..846_7 on 1 CPU
    // each, all started 2022-07-05T16:21:22 and ended 16:26:23 (301 s), numbered 1-8 in file
    // order (no JobIDRaw); their 8 .batch steps are folded. Three '#' notes, one blank line.
    let t = read(&sample("hpccs__array__sacct-output.txt"));
    assert_eq!(t.jobs.len(), 8);
    assert!(t.jobs.iter().all(|j| j.runtime == 301 && j.procs == 1 && j.submit == at(2022, 7, 5, 16, 19, 59)));
    assert_eq!(t.report.dropped.get("job_step_folded"), Some(&8));
    assert_eq!(t.machine, 8);
    assert!(t.report.warnings.iter().any(|w| w.contains("no header line") && w.contains("HPC Cost Simulator")));
    // v2: 878 lines, 846 of 25 fields and 32 of 26; 395 steps folded, 109 allocations of 0 s.
    let t = read(&sample("hpccs__sacct-output-v2.txt"));
    assert_eq!((t.report.job_lines, t.jobs.len()), (878, 374));
    assert_eq!(t.report.dropped.get("job_step_folded"), Some(&395));
    // Of the 109 allocations of 0 s, 86 were cancelled (SWF status 5): jobs that never ran.
    assert_eq!(t.report.dropped.get("runtime_not_positive"), Some(&23));
    assert_eq!(t.report.dropped.get("cancelled_before_start"), Some(&86));
    assert!(t.report.errors.is_empty(), "{:?}", t.report.errors.first());
    // issue-61: job 141 CANCELLED with Start=None (line 2), then INVALID with Start=None.
    let e = parse(&sample("hpccs__issues-61__sacct-output.txt"), &TraceOptions::default()).unwrap_err();
    assert_eq!(e.report.dropped.get("cancelled_before_start"), Some(&1));
    assert_eq!(e.report.dropped.get("never_started"), Some(&1));
    // Open XDMoD's order (TZ=UTC sacct ... --format jobid,jobidraw,cluster,partition,qos,...).
    let xdmod = "7_1|8|c1|batch|normal|acct|grp|100|alice|500|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:00:30|2024-01-01T00:10:30|00:10:00|0:0|COMPLETED|1|16|16|4G|cpu=16|cpu=16|01:00:00|n1|job\n";
    let t = read(xdmod.as_bytes());
    let j = &t.jobs[0];
    assert_eq!((j.id, j.logged_wait, j.runtime, j.procs, j.estimate), (8, 30, 600, 16, 3600));
    assert!(t.report.warnings.iter().any(|w| w.contains("Open XDMoD")));
    // Columns the user names.
    let mine = "5|2024-01-01T00:00:00|2024-01-01T00:01:00|2024-01-01T00:03:00|4|00:05:00|COMPLETED\n";
    let e = parse(mine.as_bytes(), &TraceOptions::default()).unwrap_err();
    assert!(
        e.message.contains("without its header line (--noheader)") && e.message.contains("set fields="),
        "{}",
        e.message
    );
    let mut o = TraceOptions::default();
    o.set("fields", "JobIDRaw,Submit,Start,End,AllocCPUS,Timelimit,State").unwrap();
    let t = parse(mine.as_bytes(), &o).unwrap();
    let j = &t.jobs[0];
    assert_eq!((j.id, j.logged_wait, j.runtime, j.procs, j.estimate), (5, 60, 120, 4, 300));
    assert!(TraceOptions::default().set("fields", "Submit,Start").is_err(), "a list without a job id");
}

/// The default fixed-width output, where its columns are not cut.
#[test]
fn fixed_width_output() {
    // Columns as sacct lays them out: JobID left-aligned in 12, the others right-aligned.
    let text = [
        "       JobID      State              Submit               Start                 End  AllocCPUS  Timelimit ",
        "------------ ---------- ------------------- ------------------- ------------------- ---------- ---------- ",
        "101           COMPLETED 2024-01-01T00:00:00 2024-01-01T00:00:10 2024-01-01T01:00:10          4   02:00:00 ",
        "101.batch     COMPLETED 2024-01-01T00:00:10 2024-01-01T00:00:10 2024-01-01T01:00:10          4            ",
        "102          CANCELLED+ 2024-01-01T00:05:00             Unknown             Unknown          8   01:00:00 ",
        "103              FAILED 2024-01-01T00:06:00 2024-01-01T00:06:00 2024-01-01T00:36:00          6 1-00:00:00 ",
    ]
    .join("\n");
    // 101: 1 h run from 00:00:10, 2 h limit. 101.batch folded. 102 cancelled before it started
    // (its state cut to CANCELLED+ does not matter). 103 failed after 30 min, limit 1 day.
    // 101 and 103 overlap: 10 processors.
    let t = read(text.as_bytes());
    let got: Vec<(u64, i64, i64, u32)> = t.jobs.iter().map(|j| (j.id, j.runtime, j.estimate, j.procs)).collect();
    assert_eq!(got, vec![(101, 3600, 7200, 4), (103, 1800, 86_400, 6)]);
    assert_eq!(t.machine, 10);
    let w = t.report.warnings.join("\n");
    assert!(w.contains("10 processors, the most its jobs held at once"), "{w}");
    assert_eq!(t.report.dropped.get("cancelled_before_start"), Some(&1));
    assert_eq!(t.report.dropped_lines.get("cancelled_before_start"), Some(&5));
    assert_eq!(t.report.dropped.get("job_step_folded"), Some(&1));
    assert_eq!(t.report.dropped_lines.get("job_step_folded"), Some(&4));
    // A needed value cut to its column's width is an error on its line; the rest is kept.
    let cut = text.replace("          6 1-00:00:00", "          6 10000-0:0+");
    let t = read(cut.as_bytes());
    assert_eq!(t.jobs.len(), 1);
    assert_eq!(t.report.errors[0].line, 6);
    assert!(t.report.errors[0].message.contains("cut to its width"), "{}", t.report.errors[0].message);
}

/// Hostile variants: each bad line is reported with its number, the good ones are kept, and
/// nothing panics.
#[test]
fn hostile_sacct_lines() {
    let good = String::from_utf8(sample("slurm2sql__test-data1.csv")).unwrap();
    let lines: Vec<&str> = good.lines().collect();
    // A line with a column too few, a garbage line, a bad date, then the good lines.
    let short = lines[1].rsplit_once('|').unwrap().0;
    let bad_date = lines[4].replace("2019-08-01T00:35:26", "2019-08-32T00:35:26");
    let text = [lines[0], short, "garbage without columns", &bad_date, lines[1], lines[2]].join("\n");
    let t = read(text.as_bytes());
    assert_eq!(t.jobs.len(), 1, "the good job of line 5 is kept");
    let errs: Vec<(u64, Option<&str>)> = t.report.errors.iter().map(|e| (e.line, e.field)).collect();
    assert_eq!(errs, vec![(2, None), (3, None), (4, Some("Submit"))]);
    assert!(t.report.errors[0].message.contains("50 fields where the header has 51"), "{}", t.report.errors[0].message);
    // Truncated in the middle of a line: that line is an error, the ones before are kept.
    let cut = &good[..good.len() - 40];
    let t = parse(cut.as_bytes(), &TraceOptions::default()).expect("reads");
    assert_eq!(t.jobs.len(), 2);
    assert_eq!(t.report.errors.len(), 1);
    // Any prefix of the file and any byte flipped: an answer, never a panic.
    let bytes = sample("slurm2sql__test-data1.csv");
    for n in (0..bytes.len()).step_by(7) {
        let _ = parse(&bytes[..n], &TraceOptions::default());
        let mut flipped = bytes.clone();
        flipped[n] ^= 0x5a;
        let _ = parse(&flipped, &TraceOptions::default());
    }
}

/// A log read through the streaming loader in small chunks gives the same trace as whole.
#[test]
fn streamed_in_chunks_as_whole() {
    let bytes = sample("slurm2sql__test-data1.csv");
    let whole = read(&bytes);
    let mut loader = schedlab::trace::Loader::new(None);
    for chunk in bytes.chunks(13) {
        loader.feed(chunk);
    }
    let streamed = read(&loader.finish());
    assert_eq!(streamed.jobs, whole.jobs);
    assert_eq!(streamed.machine, whole.machine);
    assert_eq!(streamed.report.warnings, whole.report.warnings);
    assert_eq!(streamed.report.dropped, whole.report.dropped);
    assert_eq!(streamed.report.errors, whole.report.errors);
}

/// NCAR's PBS Pro log: 18 records, 4 of them `E` (lines 9, 10, 17 and 18).
#[test]
fn pbs_pro_end_records() {
    // Line 9: 4215033, ctime 1743440355, start 1743440371, end 1743440375 (4 s), ncpus 1,
    //   walltime 06:00:00, Exit_status -1. Line 17: 4215265 (user bneuman), ctime 1743442446,
    //   start 1743442452, end 1743442475 (23 s), Resource_List.ncpus 5, walltime 00:25:00.
    // The other 14 lines are Q, S and R records. At 1743442452 jobs 4215065 (1 cpu, until
    // 1743442769) and 4215265 (5 cpus) run together: 6 processors.
    let t = read(&sample("ncar-qhist__testdata"));
    assert_eq!(t.jobs.len(), 4);
    assert_eq!(t.report.dropped.get("not_an_end_record"), Some(&14));
    assert_eq!(t.report.dropped_lines.get("not_an_end_record"), Some(&1));
    let a = t.jobs.iter().find(|j| j.id == 4215033).unwrap();
    assert_eq!((a.submit, a.logged_wait, a.runtime, a.procs, a.estimate), (1743440355, 16, 4, 1, 21_600));
    let b = t.jobs.iter().find(|j| j.id == 4215265).unwrap();
    assert_eq!((b.submit, b.logged_wait, b.runtime, b.procs, b.estimate), (1743442446, 6, 23, 5, 1500));
    assert_ne!(a.user, b.user);
    assert_eq!(t.machine, 6);
    assert_eq!(t.report.machine_source, "most busy at once in the log");
}

/// Torque 6 (KU Leuven): 692 `E` records in 2,776 lines; processors from nodes=N:ppn=M.
#[test]
fn torque_day() {
    // grep -c ';E;' gives 692, and the other 2,084 lines are Q, S and D records. Of the E
    // records, 8 have start=0 (deleted before they ran; the first on line 516) and 2 have no
    // Resource_List.walltime (kept, their runtime standing in: estimate_from_runtime, first on
    // line 428): 684 jobs.
    let t = read(&sample("vsctools__20160601"));
    assert_eq!(t.report.job_lines, 2776);
    assert_eq!(t.report.dropped.get("not_an_end_record"), Some(&2084));
    assert_eq!(t.report.dropped.get("cancelled_before_start"), Some(&8));
    assert_eq!(t.report.dropped_lines.get("cancelled_before_start"), Some(&516));
    assert_eq!(t.jobs.len(), 684);
    assert_eq!(t.report.altered.get("estimate_from_runtime"), Some(&2));
    assert_eq!(t.report.altered_lines.get("estimate_from_runtime"), Some(&428));
    // Line 1's E record, 20316339: nodes=4:ppn=20 (80 processors), walltime 72:00:00, ran
    // from 1464732494 to 1464732555 (61 s), submitted (ctime) at 1464732444.
    let j = t.jobs.iter().find(|j| j.id == 20316339).unwrap();
    assert_eq!((j.submit, j.logged_wait, j.runtime, j.procs, j.estimate), (1464732444, 50, 61, 80, 72 * 3600));
    // A quiet day: its 8 E records are all jobs deleted before they ran, so nothing to simulate.
    let e = parse(&sample("vsctools__20160616"), &TraceOptions::default()).unwrap_err();
    assert!(e.message.contains("8 cancelled_before_start"), "{}", e.message);
}

/// Three PBS dialects in one file (Torque 2.x, Torque 4/5, PBS Pro): 22 `E` records.
#[test]
fn mixed_pbs_dialects() {
    // 22 kept; 3 E records have no Resource_List.walltime (their runtime stands in, from line 53).
    // Line 1's E record, 942312: exec_host tango029/1 (1 processor), walltime 72:00:00.
    let t = read(&sample("alogger__torque.log"));
    assert_eq!(t.jobs.len(), 22);
    assert_eq!(t.report.altered.get("estimate_from_runtime"), Some(&3));
    assert_eq!(t.report.altered_lines.get("estimate_from_runtime"), Some(&53));
    assert_eq!(t.report.dropped.get("not_an_end_record"), Some(&35));
    let j = t.jobs.iter().find(|j| j.id == 942312).unwrap();
    assert_eq!((j.submit, j.runtime, j.procs, j.estimate), (1270125237, 1270126313 - 1270125489, 1, 72 * 3600));
}

/// Hostile PBS lines: a record without ctime, a garbled one, a truncated file; the good
/// records are kept and each bad line is named.
#[test]
fn hostile_pbs_lines() {
    let good = String::from_utf8(sample("ncar-qhist__testdata")).unwrap();
    let lines: Vec<&str> = good.lines().collect();
    let no_ctime = lines[8].replace("ctime=", "xtime=");
    let text = [lines[0], &no_ctime, "03/31/2025 11:03:12;E;garbage", "not a record at all", lines[9]].join("\n");
    let t = read(text.as_bytes());
    assert_eq!(t.jobs.len(), 1);
    let errs: Vec<(u64, Option<&str>)> = t.report.errors.iter().map(|e| (e.line, e.field)).collect();
    assert_eq!(errs, vec![(2, Some("ctime")), (3, Some("ctime")), (4, None)]);
    let bytes = sample("ncar-qhist__testdata");
    for n in (0..bytes.len()).step_by(11) {
        let _ = parse(&bytes[..n], &TraceOptions::default());
        let mut flipped = bytes.clone();
        flipped[n] ^= 0x33;
        let _ = parse(&flipped, &TraceOptions::default());
    }
}

/// LOG -> SWF -> jobs: the SWF `convert` writes reads back as the same jobs, at the same
/// instants (its UnixStartTime is the first submission), on the same machine.
#[test]
fn round_trip_through_swf() {
    for name in [
        "slurm2sql__test-data1.csv",
        "ncar-qhist__testdata",
        "vsctools__20160601",
        "alogger__torque.log",
        "alogger__sge.log",
        "irvined-geacct__ug82_accounting",
        "alogger__slurm.log",
        "hpccs__lsb.acct.16",
    ] {
        let log = read(&sample(name));
        let text = schedlab::trace::to_swf(&log);
        let back = read(text.as_bytes());
        assert_eq!(back.machine, log.machine, "{name}");
        assert_eq!(back.header.version.as_deref(), Some("2.2"), "{name}");
        let base = back.header.unix_start_time.unwrap();
        assert_eq!(base, log.jobs[0].submit, "{name}: UnixStartTime is the first submission");
        assert_eq!(back.jobs.len(), log.jobs.len(), "{name}");
        for (a, b) in log.jobs.iter().zip(&back.jobs) {
            let moved = schedlab::trace::Job { submit: b.submit + base, ..*b };
            // SWF has no field for GPUs, nodes or whole-node jobs.
            let a = &schedlab::trace::Job { gpus: 0, nodes: 0, exclusive: false, ..*a };
            assert_eq!(&moved, a, "{name}: job {}", a.id);
        }
        assert!(back.report.errors.is_empty() && back.report.warnings.is_empty(), "{name}: {:?}", back.report);
    }
}

/// SGE 6 (University of Queensland): 50 records of 22 jobs; a parallel job writes one record
/// per host, one after another, folded into one job.
#[test]
fn grid_engine_records_folded() {
    // Lines 1-10 are job 34474 (9 hosts' records, then the master's, line 10), lines 11 and
    // 12 single-slot jobs with "-l h_rt=600" in their category. Of the 22 jobs, 8 (34474 among
    // them) ask for no h_rt: no estimate, so their runtime stands in, as for an SWF job. 50 - 22
    // = 28 folded.
    let t = read(&sample("alogger__sge.log"));
    assert_eq!(t.report.job_lines, 50);
    assert_eq!(t.jobs.len(), 22);
    assert_eq!(t.report.dropped.get("job_step_folded"), Some(&28));
    assert_eq!(t.report.dropped_lines.get("job_step_folded"), Some(&2));
    assert_eq!(t.report.altered.get("estimate_from_runtime"), Some(&8));
    // Line 11: 34477 submitted 1245307671, started 1245307678, ended 1245307683, 1 slot.
    let j = t.jobs.iter().find(|j| j.id == 34477).unwrap();
    assert_eq!((j.submit, j.logged_wait, j.runtime, j.procs, j.estimate), (1245307671, 7, 5, 1, 600));
    // With an h_rt, job 34474's ten records make one job: the master's submission
    // (1245295004) and start (1245305848), the latest end (1245307503), 12 slots.
    let text =
        String::from_utf8(sample("alogger__sge.log")).unwrap().replace("-pe make 1-12", "-pe make 1-12 -l h_rt=3600");
    let t = read(text.as_bytes());
    let j = t.jobs.iter().find(|j| j.id == 34474).unwrap();
    assert_eq!((j.submit, j.logged_wait, j.runtime, j.procs, j.estimate), (1245295004, 10_844, 1655, 12, 3600));
}

/// Univa GE 8.2: four '#' header lines, times in milliseconds, failed records with no start.
#[test]
fn univa_milliseconds_and_failed_records() {
    // Lines 1-4: '#' header. Lines 8, 10-12 and one more: failed=1 with times 0 (jobs 4-8
    // before their real runs): never started. Line 5, job 1, started and ended in the same
    // second: run time 0, dropped. Line 6, job 2: submitted 1416358737569 ms, started
    // 1416359113028, ended 1416359122829: wait 376 s, run 9 s, exit 137.
    let t = read(&sample("irvined-geacct__ug82_accounting"));
    assert_eq!(t.report.header_lines, 4);
    assert_eq!(t.report.dropped.get("never_started"), Some(&5));
    assert_eq!(t.report.dropped_lines.get("never_started"), Some(&8));
    assert_eq!(t.report.dropped.get("runtime_not_positive"), Some(&1));
    assert_eq!(t.jobs.len(), 15);
    let j = t.jobs.iter().find(|j| j.id == 2).unwrap();
    assert_eq!((j.submit, j.logged_wait, j.runtime, j.procs), (1416358737, 376, 9, 1));
    assert!(t.report.errors.is_empty());
}

/// Hostile Grid Engine lines: cut short, a job number that is not one, a bad time; the good
/// records are kept, each bad line named, nothing panics.
#[test]
fn hostile_grid_engine_lines() {
    let good = String::from_utf8(sample("alogger__sge.log")).unwrap();
    let lines: Vec<&str> = good.lines().collect();
    let short = lines[10].rsplit_once(':').unwrap().0.rsplit_once(':').unwrap().0;
    let bad_job = lines[10].replacen(":34477:", ":x:", 1);
    let bad_time = lines[11].replacen(":1245309957:", ":soon:", 1);
    let text = [lines[10], short, &bad_job, &bad_time, lines[11]].join("\n");
    let t = read(text.as_bytes());
    assert_eq!(t.jobs.len(), 2);
    let errs: Vec<(u64, Option<&str>)> = t.report.errors.iter().map(|e| (e.line, e.field)).collect();
    assert_eq!(errs, vec![(2, None), (3, None), (4, Some("start_time"))]);
    let bytes = sample("irvined-geacct__ug82_accounting");
    for n in (0..bytes.len()).step_by(13) {
        let _ = parse(&bytes[..n], &TraceOptions::default());
        let mut flipped = bytes.clone();
        flipped[n] ^= 0x21;
        let _ = parse(&flipped, &TraceOptions::default());
    }
}

/// A record of several array tasks that ran (`4103947_[9-11,20]`, `_[0-5%2]`) is one job per
/// task, as Open XDMoD reads it; a pending one is one job never started; task lists that
/// cannot be read are errors on their line.
#[test]
fn sacct_array_task_ranges() {
    // With JobIDRaw: tasks of a range are numbered array id x 10^9 + index. Line 2: tasks 9,
    // 10, 11 and 20 of 4103947, each 2 CPUs, submitted at 00:00, started 00:10, ended 01:10,
    // limit 2 h. Line 3: its task 9's step, folded. Line 4: tasks 0-5 of 4103948 ("%2": two
    // at a time, which does not change which ran), 1 CPU, 00:20 to 00:50. Line 5: 4103949's
    // tasks 1-100 still pending (no start). Line 6: a single task, 4103950_3, its own raw id.
    let text = "JobID|JobIDRaw|Submit|Start|End|AllocCPUS|Timelimit|State\n\
                4103947_[9-11,20]|4103947|2024-01-01T00:00:00|2024-01-01T00:10:00|2024-01-01T01:10:00|2|02:00:00|COMPLETED\n\
                4103947_9.batch|4103951.batch|2024-01-01T00:10:00|2024-01-01T00:10:00|2024-01-01T01:10:00|2||COMPLETED\n\
                4103948_[0-5%2]|4103948|2024-01-01T00:00:00|2024-01-01T00:20:00|2024-01-01T00:50:00|1|01:00:00|FAILED\n\
                4103949_[1-100%5]|4103949|2024-01-01T00:05:00|Unknown|Unknown|0|01:00:00|PENDING\n\
                4103950_3|4103953|2024-01-01T00:06:00|2024-01-01T00:07:00|2024-01-01T00:08:00|4|00:30:00|COMPLETED\n";
    let t = read(text.as_bytes());
    assert!(t.report.errors.is_empty(), "{:?}", t.report.errors);
    assert_eq!(t.jobs.len(), 11);
    let range: Vec<(u64, i64, i64, i64, u32, i64)> = t
        .jobs
        .iter()
        .filter(|j| j.id / 1_000_000_000 == 4103947)
        .map(|j| (j.id, j.submit, j.logged_wait, j.runtime, j.procs, j.estimate))
        .collect();
    let day = at(2024, 1, 1, 0, 0, 0);
    assert_eq!(range, [9, 10, 11, 20].map(|i| (4_103_947_000_000_000 + i, day, 600, 3600, 2, 7200)).to_vec());
    let mut throttled: Vec<u64> = t.jobs.iter().filter(|j| j.runtime == 1800).map(|j| j.id).collect();
    throttled.sort_unstable();
    assert_eq!(throttled, (0..6).map(|i| 4_103_948_000_000_000 + i).collect::<Vec<_>>());
    assert!(t.jobs.iter().any(|j| (j.id, j.runtime, j.procs) == (4103953, 60, 4)));
    assert_eq!(t.report.dropped.get("never_started"), Some(&1));
    assert_eq!(t.report.dropped_lines.get("never_started"), Some(&5));
    assert_eq!(t.report.dropped.get("job_step_folded"), Some(&1));
    // 00:20-00:50: 4 x 2 + 6 x 1 processors at once.
    assert_eq!(t.machine, 14);
    // Without JobIDRaw, tasks are numbered in file order, a range's in index order.
    let text = "JobID|Submit|Start|End|AllocCPUS|Timelimit|State\n\
                846_0|2024-01-01T00:00:00|2024-01-01T00:01:00|2024-01-01T00:02:00|1|00:10:00|COMPLETED\n\
                846_[1-3]|2024-01-01T00:00:00|2024-01-01T00:01:00|2024-01-01T00:03:00|1|00:10:00|COMPLETED\n\
                847|2024-01-01T00:00:00|2024-01-01T00:01:00|2024-01-01T00:04:00|1|00:10:00|COMPLETED\n\
                846_4|2024-01-01T00:00:00|2024-01-01T00:01:00|2024-01-01T00:05:00|1|00:10:00|COMPLETED\n";
    let t = read(text.as_bytes());
    let mut got: Vec<(u64, i64)> = t.jobs.iter().map(|j| (j.id, j.runtime)).collect();
    got.sort_unstable();
    assert_eq!(got, vec![(1, 60), (2, 120), (3, 120), (4, 120), (5, 240), (847, 180)]);
    // A list reversed, cut short (a fixed-width column's '+'), or of more tasks than Slurm
    // allows: an error naming the line and JobID; the other lines are kept.
    let bad = "JobID|JobIDRaw|Submit|Start|End|AllocCPUS|Timelimit|State\n\
               9_[3-1]|9|2024-01-01T00:00:00|2024-01-01T00:01:00|2024-01-01T00:02:00|1|00:10:00|COMPLETED\n\
               9_[1-+|9|2024-01-01T00:00:00|2024-01-01T00:01:00|2024-01-01T00:02:00|1|00:10:00|COMPLETED\n\
               9_[0-9999999]|9|2024-01-01T00:00:00|2024-01-01T00:01:00|2024-01-01T00:02:00|1|00:10:00|COMPLETED\n\
               10|10|2024-01-01T00:00:00|2024-01-01T00:01:00|2024-01-01T00:02:00|1|00:10:00|COMPLETED\n";
    let t = read(bad.as_bytes());
    assert_eq!(t.jobs.iter().map(|j| j.id).collect::<Vec<_>>(), vec![10]);
    let errs: Vec<(u64, Option<&str>)> = t.report.errors.iter().map(|e| (e.line, e.field)).collect();
    assert_eq!(errs, vec![(2, Some("JobID")), (3, Some("JobID")), (4, Some("JobID"))]);
    assert!(t.report.errors[2].message.contains("more than 4000001 tasks"), "{:?}", t.report.errors);
}

/// `sacct -P --delimiter=X` (and `--parsable`, each line ending in X): the header's column
/// names are joined by X, and the lines are read with it, as with `|`.
#[test]
fn sacct_other_delimiters() {
    let good = String::from_utf8(sample("slurm2sql__test-data1.csv")).unwrap();
    let base = read(good.as_bytes());
    assert_eq!(base.jobs.len(), 2);
    // None of these occurs in the sample's values; a tab ends the lines whose last field is
    // empty (line 3's SubmitLine), so it must not be trimmed away.
    for delim in [";", "#", "\t", "^", "~", "☃", "::", "!"] {
        assert!(!good.contains(delim), "{delim:?} is in the sample");
        for trailing in [false, true] {
            let end = if trailing { delim } else { "" };
            let text: String = good.lines().map(|l| format!("{}{end}\n", l.replace('|', delim))).collect();
            let t = read(text.as_bytes());
            assert!(t.report.errors.is_empty(), "{delim:?}: {:?}", t.report.errors);
            assert_eq!(t.jobs, base.jobs, "{delim:?} trailing {trailing}");
            assert_eq!(t.report.dropped.get("job_step_folded"), Some(&3), "{delim:?}");
            assert_eq!(t.report.format, Some("Slurm sacct output"));
        }
    }
    // A header whose names are not all joined the same way is no sacct header.
    let e = parse(b"JobID;Submit#Start\n1;2#3\n", &TraceOptions::default()).unwrap_err();
    assert!(!e.message.contains("sacct"), "{}", e.message);
}

/// A JSON dump (`sacct --json`, `squeue --json`) is refused saying what it is and what to run.
#[test]
fn slurm_json_is_refused_with_the_command_to_run() {
    for text in [
        "{\n  \"meta\": {\n    \"plugin\": {\n      \"type\": \"openapi/v0.0.40\"\n    }\n  },\n  \"jobs\": []\n}\n",
        "\n   [ {\"job_id\": 1} ]\n",
    ] {
        let e = parse(text.as_bytes(), &TraceOptions::default()).unwrap_err();
        for needle in [
            "this is JSON",
            "sacct --json",
            "squeue --json",
            "sacct -X -P --allusers",
            "--format JobIDRaw,Submit,Start,End,AllocCPUS",
            "pending and running now, never finished ones: it is no accounting log",
        ] {
            assert!(e.message.contains(needle), "{needle:?} in {}", e.message);
        }
        assert!(!e.message.contains("expected 18 fields"), "{}", e.message);
    }
}

/// Slurm's job-completion text log (VLSCI "bruce"): 177 lines, one per finished job.
#[test]
fn slurm_job_completion_log() {
    // 7 jobs ran 0 s (RunTime=00:00:00, StartTime = EndTime; the first on line 5): dropped as
    // runtime_not_positive, as an SWF job would be. Line 1: 1670440.bruce-m, samuel(500),
    // TimeLimit 00:10:00, submitted and started 2014-02-25T15:49:35, ended 15:49:47, ProcCnt 1.
    let t = read(&sample("alogger__slurm.log"));
    assert_eq!(t.report.job_lines, 177);
    assert_eq!(t.jobs.len(), 170);
    assert_eq!(t.report.dropped.get("runtime_not_positive"), Some(&7));
    assert_eq!(t.report.dropped_lines.get("runtime_not_positive"), Some(&5));
    let j = t.jobs.iter().find(|j| j.id == 1670440).unwrap();
    assert_eq!(
        (j.submit, j.logged_wait, j.runtime, j.procs, j.estimate, j.user),
        (at(2014, 2, 25, 15, 49, 35), 0, 12, 1, 600, 500)
    );
    // Line 48: `Name=hostname; echo ` holds a ';' and spaces; the keys after it still read:
    // 320 processors (ProcCnt=320), a 30-day limit, 4 s from 11:16:42 to 11:16:46.
    let j = t.jobs.iter().find(|j| j.id == 1677806).unwrap();
    assert_eq!((j.runtime, j.procs, j.estimate, j.user), (4, 320, 30 * 86_400, 505));
    // A line cut short and one with a bad ProcCnt: named, the rest kept.
    let good = String::from_utf8(sample("alogger__slurm.log")).unwrap();
    let lines: Vec<&str> = good.lines().collect();
    let cut = &lines[1][..60];
    let bad = lines[2].replace("ProcCnt=1", "ProcCnt=many");
    let text = [lines[0], cut, &bad, lines[3]].join("\n");
    let t = read(text.as_bytes());
    assert_eq!(t.jobs.len(), 2);
    let errs: Vec<(u64, Option<&str>)> = t.report.errors.iter().map(|e| (e.line, e.field)).collect();
    assert_eq!(errs, vec![(2, Some("SubmitTime")), (3, Some("ProcCnt"))]);
}

/// LSF 10.1.0.8 (`"10.108"`), 82 JOB_FINISH records of a test cluster.
#[test]
fn lsf_job_finish_records() {
    // Fields read off each line: 3 Event Time (the end), 4 jobId, 7 numProcessors,
    // 8 submitTime, 11 startTime, 13 queue, then jStatus after the host lists (32 EXIT, 64
    // DONE). 13 records end in the second they started (lines 1, 3, 9, 12-14, 23, 27, 28,
    // 34-36, 81): no run to simulate, dropped as SWF jobs of runtime 0 are. Their runLimit is
    // -1 (none), so the trace has no estimates.
    let t = read(&sample("hpccs__lsb.acct.16"));
    assert_eq!(t.report.job_lines, 82);
    assert_eq!(t.jobs.len(), 69);
    assert_eq!(t.report.dropped.get("runtime_not_positive"), Some(&13));
    assert!(t.report.errors.is_empty(), "{:?}", t.report.errors);
    // Line 2: job 102 submitted 1643910038, started 1643910038, ended 1643910039, EXIT.
    let j = t.jobs.iter().find(|j| j.id == 102).unwrap();
    assert_eq!((j.submit, j.logged_wait, j.runtime, j.procs), (1643910038, 0, 1, 1));
    // Line 82: job 283 submitted 1643926747, started ...748, ended ...749, DONE.
    let j = t.jobs.iter().find(|j| j.id == 283).unwrap();
    assert_eq!((j.submit, j.logged_wait, j.runtime, j.procs), (1643926747, 1, 1, 1));
    // Line 60: job 161 on 30 slots from 1643913200 to ...251, alone: the machine's size.
    let j = t.jobs.iter().find(|j| j.id == 161).unwrap();
    assert_eq!((j.logged_wait, j.runtime, j.procs), (72, 51, 30));
    assert_eq!(t.machine, 30);
    assert!(t.header.computer.as_deref().unwrap_or("").contains("LSF"));
}

/// LSF 9.1.3 and 7.0.6 records (fewer trailing fields), records never dispatched, '#' lines,
/// and a stray byte where the version belongs.
#[test]
fn lsf_versions_and_broken_records() {
    // 9.13: two jobs on 4 slots each, runLimit -1 (none). Job 513431 submitted 1554995282,
    // started ...282, ended ...290; job 513433 submitted ...285, started ...287, ended ...292.
    let t = read(&sample("hpccs__issues-gl-19__lsb.acct.issue-gl-19"));
    let got: Vec<(u64, i64, i64, u32)> = t.jobs.iter().map(|j| (j.id, j.submit, j.runtime, j.procs)).collect();
    assert_eq!(got, vec![(513431, 1554995282, 8, 4), (513433, 1554995285, 5, 4)]);
    assert_eq!(t.machine, 8, "both ran at 1554995287");
    // Lines 4, 6, 11, 14, 17: startTime 0 (killed while pending): left out and counted.
    let t = read(&sample("hpccs__issues-gl-16__lsb.acct.issue-gl-16"));
    assert_eq!(t.report.dropped.get("cancelled_before_start"), Some(&5));
    assert_eq!(t.report.dropped_lines.get("cancelled_before_start"), Some(&4));
    assert_eq!(t.jobs.len(), 3);
    assert_eq!(t.report.header_lines, 7, "the '#' notes");
    // 7.06: five records, one of 0 s (line 3); line 28 has '¡' before the version.
    let t = read(&sample("hpccs__issues-gl-26__lsb.acct.issue-gl-26"));
    assert_eq!(t.jobs.len(), 4);
    let errs: Vec<(u64, Option<&str>)> = t.report.errors.iter().map(|e| (e.line, e.field)).collect();
    assert_eq!(errs, vec![(28, Some("version"))]);
    // A real site's records mixing "10.1" and "10.108", doubled quotes inside strings.
    // runLimit: -1 on lines 1-3 and 11, 2419200 (28 days) on 5 and 7, 86400 on 13-17; the
    // jobs with none keep their runtime as their estimate, as SWF jobs without one do; line 9
    // ran 0 s.
    let t = read(&sample("hpccs__issues-gl-9__lsb.acct.hostFactor-not-a-float"));
    assert!(t.report.errors.is_empty(), "{:?}", t.report.errors);
    let got: Vec<(u64, i64)> = t.jobs.iter().map(|j| (j.id, j.estimate)).collect();
    assert_eq!(
        got,
        vec![
            (981892, 1016),
            (982457, 455),
            (982865, 15),
            (521375, 2419200),
            (789681, 155635),
            (225017, 2419200),
            (793595, 86400),
            (793609, 86400),
            (793614, 86400)
        ]
    );
    assert_eq!(t.report.altered.get("estimate_from_runtime"), Some(&4));
    assert_eq!(t.report.altered_lines.get("estimate_from_runtime"), Some(&1));
}

/// LSF 9.1 and 10.1 write -1 in a count they have nothing for (numHostRusage, num_network)
/// and then no entries: read as an empty list, the fields after it fall in place.
#[test]
fn lsf_counts_of_minus_one() {
    // Line 1 is lsb.acct.16's line 1 with: jobId 7001, numProcessors 4, submitTime
    // 1643910000, startTime ...060, Event Time ...3660 (a 3,600 s run after 60 s), numHostRusage
    // -1 (was 0), runLimit 7200 (was -1), num_network -1 (was 0), numAllocSlots 4 with four
    // host names. Line 2 is the 9.13 record of issue gl-19 as a "9.11" one with: jobId 900001,
    // startTime 1554995300, Event Time 1554998000, numHostRusage -1, runLimit 3600,
    // num_network -1; numProcessors and numAllocSlots 4, submitTime 1554995282.
    let lines = [
        r#""JOB_FINISH" "10.108" 1643913660 7001 1501 33570818 4 1643910000 0 0 1643910060 "simuser" "sender" "" "" "" "ip-10-30-14-225.eu-west-1.compute.internal" "/root" "" "" "" "1643910037.101" 0 1 "ip-10-30-66-253.eu-west-1.compute.internal" 32 100.0 "" "s200p1 200" 0.000991 0.009703 3756 0 -1 0 0 407 4 0 936 8 -1 0 0 0 19 2 -1 "" "default" 32512 1 "" "" 0 0 0 "" "" "" "" 0 "" 0 "" -1 "" "" "" "" -1 "" "" 7184 "" 1643910038 "" "" 6 1058 "1" 1110 "default" 1041 "jfincache" 1086 "-1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 " 1032 "0" 1033 "0" -1 7200 4194304 0 "select[type == any] order[r15s:pg] " "" -1 "" -1 0 "" 0 0 "" 0 "/root" -1 "" 0.000000 0.00 0.00 0.00 0.00 4 "ip-10-30-66-253.eu-west-1.compute.internal" "ip-10-30-66-253.eu-west-1.compute.internal" "ip-10-30-66-253.eu-west-1.compute.internal" "ip-10-30-66-253.eu-west-1.compute.internal" -1 0 0 0 0 1 "schedulingOverhead" "0.00""#,
        r#""JOB_FINISH" "9.11" 1554998000 900001 31875 33833011 4 1554995282 0 0 1554995300 "string2" "batch" "span[hosts=1]" "" "" "string3" "/string4/string2/string5" "" "/tmp/string6.stdout" "/tmp/string6.stderr" "1554995282.513431" 0 4 "string7" "string7" "string7" "string7" 64 10.1 "string7=1.31825673855641e-06" "./string8" 14.093857 1.747734 113252 0 -1 0 0 64357 5 0 1440 9736 -1 0 0 0 474235 202 -1 "" "default" 0 4 "" "" 0 61104 458608 "" "" "" "" 0 "" 0 "" -1 "/string2" "" "" "" -1 "" "" 80 "" 1554995282 "" "" 0 -1 3600 64 61104 "select[ (type == any)] order[r15s:pg] span[hosts=1] " "" -1 "" -1 0 "" 0 0 "" 8 "/data/tmp" -1 "" 0.000000 0.00 0.00 0.00 0.00 4 "string7" "string7" "string7" "string7""#,
    ];
    let t = read(lines.join("\n").as_bytes());
    assert!(t.report.errors.is_empty(), "{:?}", t.report.errors);
    let got: Vec<(u64, i64, i64, i64, u32, i64)> =
        t.jobs.iter().map(|j| (j.id, j.submit, j.logged_wait, j.runtime, j.procs, j.estimate)).collect();
    assert_eq!(got, vec![(900001, 1554995282, 18, 2700, 4, 3600), (7001, 1643910000, 60, 3600, 4, 7200)]);
    // Only -1 means "none": another negative count is still an error naming its field.
    let bad = lines[0].replace(r#""/root" -1 """#, r#""/root" -2 """#);
    let t = read([&bad, lines[1]].join("\n").as_bytes());
    assert_eq!(t.jobs.len(), 1);
    assert!(t.report.errors[0].message.contains("num_network"), "{:?}", t.report.errors);
}

/// Records cut short at each of the last groups of the 10.108 layout are reported with their
/// line and where they end; the whole record is kept.
#[test]
fn hostile_lsf_lines() {
    let t = read(&sample("hpccs__bad-records__lsb.acct-missing-fields"));
    assert_eq!(t.jobs.len(), 1);
    let errs: Vec<(u64, String)> = t.report.errors.iter().map(|e| (e.line, e.message.clone())).collect();
    assert_eq!(errs.iter().map(|e| e.0).collect::<Vec<_>>(), vec![4, 6, 8, 10, 12]);
    assert!(errs[0].1.contains("ends before numGPURusages"), "{:?}", errs);
    assert!(errs[1].1.contains("ends before storageInfoC"), "{:?}", errs);
    assert!(errs[2].1.contains("ends before numKVP"), "{:?}", errs);
    assert!(errs[3].1.contains("inside the 1 entries of numKVP"), "{:?}", errs);
    assert!(errs[4].1.contains("inside the 1 entries of numKVP"), "{:?}", errs);
    // Cut anywhere, or with a byte flipped: no panic.
    let bytes = sample("hpccs__lsb.acct.16");
    for n in (0..bytes.len()).step_by(97) {
        let _ = parse(&bytes[..n], &TraceOptions::default());
        let mut flipped = bytes.clone();
        flipped[n] ^= 0x22;
        let _ = parse(&flipped, &TraceOptions::default());
    }
    let text = String::from_utf8(sample("hpccs__lsb.acct.16")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let cut = &lines[1][..lines[1].len() / 2];
    let t = read([lines[0], cut, "\"JOB_FINISH\" \"10.108\" soon", lines[4]].join("\n").as_bytes());
    let errs: Vec<(u64, Option<&str>)> = t.report.errors.iter().map(|e| (e.line, e.field)).collect();
    assert_eq!(errs, vec![(2, None), (3, Some("Event Time"))]);
}

/// `tz=` reads sacct's wall-clock times in the cluster's zone, across a change of offset, and
/// names the zone in the trace; without it they are read as UTC, with a warning.
#[test]
fn sacct_times_in_the_cluster_zone() {
    let opts = |pairs: &[(&str, &str)]| {
        let mut o = TraceOptions::default();
        for (k, v) in pairs {
            o.set(k, v).unwrap();
        }
        o
    };
    // Helsinki in July is UTC+3: 2019-07-31T22:29:13 local is 19:29:13 UTC.
    let t = parse(&sample("slurm2sql__test-data1.csv"), &opts(&[("tz", "europe/helsinki")])).unwrap();
    assert_eq!(t.jobs[0].submit, at(2019, 7, 31, 19, 29, 13));
    assert_eq!(t.jobs[0].runtime, 12_805);
    assert_eq!(t.header.time_zone_string.as_deref(), Some("Europe/Helsinki"));
    assert!(!t.report.warnings.join("\n").contains("read as UTC"));
    // Paris, the night summer time ends (27 October 2024, 03:00 CEST -> 02:00 CET): from
    // 01:30 CEST (23:30 UTC the day before) to 03:30 CET (02:30 UTC) is 3 hours, not 2.
    let text = "JobID|Submit|Start|End|AllocCPUS|Timelimit|State\n\
                7|2024-10-27T01:00:00|2024-10-27T01:30:00|2024-10-27T03:30:00|2|04:00:00|COMPLETED\n";
    let t = parse(text.as_bytes(), &opts(&[("tz", "Europe/Paris")])).unwrap();
    let j = &t.jobs[0];
    assert_eq!((j.submit, j.logged_wait, j.runtime), (at(2024, 10, 26, 23, 0, 0), 1800, 3 * 3600));
    let t = parse(text.as_bytes(), &TraceOptions::default()).unwrap();
    assert_eq!((t.jobs[0].submit, t.jobs[0].runtime), (at(2024, 10, 27, 1, 0, 0), 2 * 3600));
    assert!(t.report.warnings.join("\n").contains("read as UTC; set tz="));
    // A zone the database does not have is refused by name.
    assert!(TraceOptions::default().set("tz", "Mars/Olympus").is_err());
    // The SWF written keeps the zone, and reads back as the same jobs.
    let t = parse(&sample("slurm2sql__test-data1.csv"), &opts(&[("tz", "Europe/Helsinki")])).unwrap();
    let back = read(schedlab::trace::to_swf(&t).as_bytes());
    assert_eq!(back.header.time_zone_string.as_deref(), Some("Europe/Helsinki"));
    assert_eq!(back.jobs[0].submit + back.header.unix_start_time.unwrap(), t.jobs[0].submit);
}

/// `partition=NAME` keeps one partition's jobs (the others counted), by name or number; a
/// name the log does not have is refused with the ones it has.
#[test]
fn one_partition_selected() {
    let opts = |p: &str| {
        let mut o = TraceOptions::default();
        o.set("partition", p).unwrap();
        o
    };
    // slurm2sql: 43974388 in jupyter-long (queue 1), 43977780 in interactive (queue 2).
    let t = parse(&sample("slurm2sql__test-data1.csv"), &opts("Interactive")).unwrap();
    assert_eq!(t.jobs.iter().map(|j| j.id).collect::<Vec<_>>(), vec![43977780]);
    assert_eq!(t.report.dropped.get("other_partition"), Some(&1));
    assert_eq!(t.report.dropped_lines.get("other_partition"), Some(&2));
    let t = parse(&sample("slurm2sql__test-data1.csv"), &opts("1")).unwrap();
    assert_eq!(t.jobs.iter().map(|j| j.id).collect::<Vec<_>>(), vec![43974388]);
    let e = parse(&sample("slurm2sql__test-data1.csv"), &opts("gpu")).unwrap_err();
    assert!(e.message.contains("its queues: 1 jupyter-long, 2 interactive"), "{}", e.message);
}

/// The report names the format read and how its fields became jobs (the docs' table); an SWF
/// trace has neither.
#[test]
fn report_names_format_and_mapping() {
    for (name, format, field) in [
        ("slurm2sql__test-data1.csv", "Slurm sacct output", "Timelimit"),
        ("alogger__slurm.log", "Slurm job-completion log", "ProcCnt"),
        ("ncar-qhist__testdata", "PBS, Torque or PBS Pro accounting log", "Resource_List.walltime"),
        ("alogger__sge.log", "Grid Engine accounting file", "slots"),
        ("hpccs__lsb.acct.16", "LSF lsb.acct file", "runLimit (LSF 9 and later; -1: none)"),
    ] {
        let t = read(&sample(name));
        assert_eq!(t.report.format, Some(format), "{name}");
        assert!(t.report.mapping.iter().any(|(from, _)| from.contains(field)), "{name}: {:?}", t.report.mapping);
        assert!(t.report.mapping.iter().any(|(_, to)| to.contains("run time")), "{name}");
    }
    let swf = read(b"; MaxProcs: 4\n1 0 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n");
    assert_eq!((swf.report.format, swf.report.mapping.len()), (None, 0));
}

/// What an accounting log says a job held besides processors: an LSF job's distinct execution
/// hosts are its nodes; a Slurm job's AllocTRES gives its memory and nodes (and GPUs when it
/// has any); a PBS Pro job's Resource_List its nodes.
#[test]
fn logs_say_what_jobs_held_besides_processors() {
    let lsf = read(&sample("hpccs__lsb.acct.16"));
    assert!(
        lsf.jobs.iter().all(|j| j.nodes >= 1 && j.nodes <= j.procs.max(1)),
        "every LSF job ran on 1 to procs hosts"
    );
    let slurm = read(&sample("slurm2sql__test-data1.csv"));
    assert!(slurm.jobs.iter().all(|j| j.nodes == 1 && j.memory_kb > 0 && j.gpus == 0), "{:?}", slurm.jobs);
    let pbs = read(&sample("alogger__torque.log"));
    assert!(pbs.jobs.iter().any(|j| j.nodes == 2), "a job on zulu01 and zulu02 held two nodes");
}
