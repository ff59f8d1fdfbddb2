//! Figures by calendar month (Ward et al. Tables 1-6), worked out by hand on small schedules in
//! a zone with daylight saving time, and checked for consistency on a real trace.

mod common;

use schedlab::calendar::{Civil, Zone};
use schedlab::engine::{simulate, Outcome};
use schedlab::metrics::monthly::{monthly, Month, Monthly};
use schedlab::metrics::{summarize, MetricOptions};
use schedlab::policy::Configured;
use schedlab::trace::{parse, Trace, TraceOptions};

/// 2001-03-31 23:00 PST = 2001-04-01 07:00 UTC: trace time 3600 is local midnight of 1 April.
const START: i64 = 986_108_400;

/// SWF text with a header and `(submit, runtime, procs, queue)` rows, estimates exact.
fn swf(header: &str, machine: u32, jobs: &[(i64, i64, u32, i32)]) -> String {
    let mut s = format!("{header}; MaxProcs: {machine}\n");
    for (i, (submit, run, procs, queue)) in jobs.iter().enumerate() {
        let id = i + 1;
        s.push_str(&format!("{id} {submit} -1 {run} {procs} -1 -1 {procs} {run} -1 1 1 1 -1 {queue} -1 -1 -1\n"));
    }
    s
}

fn pacific() -> String {
    format!("; UnixStartTime: {START}\n; TimeZone: -28800\n; TimeZoneString: US/Pacific\n")
}

fn outcome(trace: &Trace, policy: &str) -> Outcome {
    let mut p = Configured::new(policy, &[]).unwrap().build(trace);
    simulate(trace, p.as_mut(), &Default::default())
}

/// Queue 2 is the high class in these tests.
fn high(queue: i32) -> bool {
    queue == 2
}

/// Five jobs on 4 processors, the first two submitted on 31 March local time (the second at
/// 23:30, already 1 April in UTC), the rest on 1 April (the first at local midnight exactly).
fn boundary_trace() -> Trace {
    common::trace(&swf(
        &pacific(),
        4,
        &[(0, 3600, 4, 3), (1800, 7200, 2, 2), (3600, 3600, 2, 3), (5400, 1800, 4, 2), (7200, 600, 1, 3)],
    ))
}

/// FCFS: 1 [0, 3600) 4p; 2 [3600, 10800) 2p; 3 [3600, 7200) 2p; 4 [10800, 12600) 4p;
/// 5 [12600, 13200) 1p (behind 4, though it would fit at 7200). Waits 0, 1800, 0, 5400, 5400.
#[test]
fn fcfs_months_by_hand_across_a_local_month_boundary() {
    let t = boundary_trace();
    let out = outcome(&t, "fcfs");
    let starts: Vec<i64> = out.records.iter().map(|r| r.start).collect();
    assert_eq!(starts, vec![0, 3600, 3600, 10800, 12600]);
    let m = monthly(&t, &out, &high);
    assert_eq!(m.zone, "US/Pacific (UTC-08:00, with daylight saving time)");
    assert_eq!(
        m.months,
        vec![
            // Jobs 1 and 2; the simulated part of March is [0, 3600), the machine full.
            Month {
                month: "2001/03".into(),
                jobs: 2,
                utilization_pct: 100.0,
                wait_hours: 0.5,
                jobs_backfilled: 0,
                actual_wait_hours: 0.0,
                actual_wait_jobs: 0,
                high_jobs: 1,
                high_wait_hours: 0.5,
            },
            // Jobs 3-5; April's simulated part is [3600, 13200): 9600 s x 4 = 38400
            // processor-seconds, of which busy 4 x 3600 + 2 x 3600 + 4 x 1800 + 1 x 600 = 29400.
            Month {
                month: "2001/04".into(),
                jobs: 3,
                utilization_pct: 76.5625,
                wait_hours: 3.0,
                jobs_backfilled: 0,
                actual_wait_hours: 0.0,
                actual_wait_jobs: 0,
                high_jobs: 1,
                high_wait_hours: 1.5,
            },
        ]
    );
}

/// EASY backfills job 5 at 7200 (it ends at 7800, before job 4's reservation at 10800).
#[test]
fn easy_months_count_the_backfilled_job_in_its_submit_month() {
    let t = boundary_trace();
    let out = outcome(&t, "easy");
    let starts: Vec<i64> = out.records.iter().map(|r| r.start).collect();
    assert_eq!(starts, vec![0, 3600, 3600, 10800, 7200]);
    let m = monthly(&t, &out, &high);
    assert_eq!(m.months.len(), 2);
    let april = &m.months[1];
    assert_eq!((april.jobs, april.jobs_backfilled, april.high_jobs), (3, 1, 1));
    assert_eq!((april.wait_hours, april.high_wait_hours), (1.5, 1.5));
    // Span now ends at 12600: busy 4 x 3600 + 3 x 600 + 2 x 3000 + 4 x 1800 = 29400 of 4 x 9000.
    assert_eq!(april.utilization_pct, 100.0 * 29400.0 / 36000.0);
    assert_eq!(m.months[0].jobs_backfilled, 0);
}

/// A job on 31 March and one on 15 June (local noon, PDT): April and May appear, empty and idle;
/// June is measured from its local midnight (07:00 UTC) to the last end.
#[test]
fn months_without_jobs_still_appear() {
    // 2001-06-15 12:00 PDT = 19:00 UTC, trace time 6523200; 2001-06-01 00:00 PDT is 5270400.
    let t = common::trace(&swf(&pacific(), 2, &[(0, 3600, 1, 3), (6_523_200, 7200, 2, 2)]));
    let out = outcome(&t, "fcfs");
    let m = monthly(&t, &out, &high);
    let labels: Vec<&str> = m.months.iter().map(|m| m.month.as_str()).collect();
    assert_eq!(labels, ["2001/03", "2001/04", "2001/05", "2001/06"]);
    // March: 1 of 2 processors busy over [0, 3600).
    assert_eq!(m.months[0].utilization_pct, 50.0);
    for empty in &m.months[1..3] {
        assert_eq!((empty.jobs, empty.wait_hours, empty.utilization_pct), (0, 0.0, 0.0), "{}", empty.month);
    }
    let june = &m.months[3];
    assert_eq!((june.jobs, june.high_jobs, june.wait_hours), (1, 1, 0.0));
    let inside = (6_523_200 + 7200 - 5_270_400) as f64;
    assert_eq!(june.utilization_pct, 100.0 * (2.0 * 7200.0) / (2.0 * inside));
}

/// Without UnixStartTime the times count from 1970-01-01 UTC, and the zone says so.
#[test]
fn without_unix_start_time_months_count_from_1970() {
    let t = common::trace(&swf("", 1, &[(0, 60, 1, 1), (31 * 86_400, 60, 1, 1)]));
    let m = monthly(&t, &outcome(&t, "fcfs"), &high);
    assert_eq!(
        m.zone,
        "UTC (the header names no time zone); no UnixStartTime: times are taken as seconds since 1970-01-01 00:00 UTC"
    );
    let labels: Vec<(&str, u64)> = m.months.iter().map(|m| (m.month.as_str(), m.jobs)).collect();
    assert_eq!(labels, [("1970/01", 1), ("1970/02", 1)]);
}

/// Every archive trace's `StartTime` line (local wall-clock time) matches its UnixStartTime read
/// in the zone its header names.
#[test]
fn header_start_times_match_the_zone_rules() {
    const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let dir = common::shared().join("traces");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).expect("../shared/traces exists") {
        let path = entry.unwrap().path();
        if !path.to_string_lossy().ends_with(".swf.gz") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let h = parse(&bytes, &TraceOptions::default()).unwrap().header;
        let (Some(unix), Some(start)) = (h.unix_start_time, h.start_time.clone()) else { continue };
        let local = Zone::from_header(&h).to_local(unix);
        // "Fri Apr 24 18:11:04 PDT 1998"
        let f: Vec<&str> = start.split_whitespace().collect();
        let month = MONTHS.iter().position(|m| *m == f[1]).unwrap() as u32 + 1;
        let hms: Vec<u32> = f[3].split(':').map(|x| x.parse().unwrap()).collect();
        let expected = Civil {
            year: f[5].parse().unwrap(),
            month,
            day: f[2].parse().unwrap(),
            hour: hms[0],
            minute: hms[1],
            second: hms[2],
        };
        assert_eq!(local, expected, "{}: {start}", path.display());
        checked += 1;
    }
    assert!(checked >= 7, "only {checked} traces with a StartTime");
}

fn print_months(m: &Monthly) {
    println!("zone: {}", m.zone);
    println!("{:8} {:>6} {:>7} {:>10} {:>6} {:>5} {:>9}", "month", "jobs", "util%", "wait h", "bf", "high", "high h");
    for x in &m.months {
        println!(
            "{:8} {:>6} {:>7.1} {:>10.0} {:>6} {:>5} {:>9.0}",
            x.month, x.jobs, x.utilization_pct, x.wait_hours, x.jobs_backfilled, x.high_jobs, x.high_wait_hours
        );
    }
}

/// SDSC-SP2 under FCFS and EASY: the months' jobs and waits add up to the trace's, utilizations
/// are percentages, the months are consecutive and cover the trace's dates.
#[test]
fn sdsc_sp2_months_add_up() {
    let bytes = common::read_shared("traces/SDSC-SP2-1998-4.2-cln.swf.gz");
    let t = parse(&bytes, &TraceOptions::default()).expect("trace parses");
    // SDSC-SP2's "express" and "high" queues.
    let is_high = |q: i32| q == 1 || q == 2;
    for policy in ["fcfs", "easy"] {
        let out = outcome(&t, policy);
        let m = monthly(&t, &out, &is_high);
        println!("SDSC-SP2, {policy}");
        print_months(&m);
        assert!(m.zone.starts_with("US/Pacific"), "{}", m.zone);
        // The first job kept in the cleaned log was submitted on 1 May 1998 (PDT).
        assert_eq!(m.months.first().unwrap().month, "1998/05");
        // The last job was submitted in April 2000; FCFS is still working through the queue later.
        assert!(m.months.last().unwrap().month.as_str() >= "2000/04");
        assert!(m.months.len() >= 24, "{} months", m.months.len());
        for w in m.months.windows(2) {
            let (y0, m0) = w[0].month.split_once('/').unwrap();
            let (y1, m1) = w[1].month.split_once('/').unwrap();
            let n0 = y0.parse::<i32>().unwrap() * 12 + m0.parse::<i32>().unwrap();
            let n1 = y1.parse::<i32>().unwrap() * 12 + m1.parse::<i32>().unwrap();
            assert_eq!(n1, n0 + 1, "{} then {}", w[0].month, w[1].month);
        }
        assert_eq!(m.months.iter().map(|x| x.jobs).sum::<u64>(), t.jobs.len() as u64);
        // The logged waits (field 3) are the log's, whatever the policy: every job of this log has one.
        let logged: i64 = t.jobs.iter().map(|j| j.logged_wait).sum();
        assert!(t.jobs.iter().all(|j| j.logged_wait >= 0));
        assert_eq!(m.months.iter().map(|x| x.actual_wait_jobs).sum::<u64>(), t.jobs.len() as u64);
        let actual: f64 = m.months.iter().map(|x| x.actual_wait_hours).sum();
        assert!((actual - logged as f64 / 3600.0).abs() < 1e-6, "{actual} vs {logged} s");
        let high_jobs = t.jobs.iter().filter(|j| is_high(j.queue)).count() as u64;
        assert_eq!(m.months.iter().map(|x| x.high_jobs).sum::<u64>(), high_jobs);
        for x in &m.months {
            assert!((0.0..=100.0).contains(&x.utilization_pct), "{}: {}", x.month, x.utilization_pct);
            assert!(x.high_jobs <= x.jobs && x.jobs_backfilled <= x.jobs && x.high_wait_hours <= x.wait_hours);
        }
        let metrics = summarize(&t, &out, &MetricOptions::default());
        assert_eq!(metrics.jobs_unfinished, 0);
        let total_wait_h = metrics.avg_wait_s * metrics.jobs as f64 / 3600.0;
        let sum: f64 = m.months.iter().map(|x| x.wait_hours).sum();
        assert!((sum - total_wait_h).abs() < 1e-6 * total_wait_h.max(1.0), "{sum} vs {total_wait_h}");
        let backfilled: u64 = m.months.iter().map(|x| x.jobs_backfilled).sum();
        assert_eq!(backfilled, metrics.jobs_backfilled);
        // Busy processor-seconds per month add up to the whole run's.
        let machine = t.machine as f64;
        let (first, last) = (out.series[0].time, out.series.last().unwrap().time);
        let epoch = t.header.unix_start_time.unwrap();
        let zone = Zone::from_header(&t.header);
        let mut busy = 0.0;
        for (k, x) in m.months.iter().enumerate() {
            let (y, mo) = x.month.split_once('/').unwrap();
            let (y, mo): (i64, u32) = (y.parse().unwrap(), mo.parse().unwrap());
            let (ny, nm) = if mo == 12 { (y + 1, 1) } else { (y, mo + 1) };
            let a = (zone.from_local(&Civil::date(y, mo, 1)) - epoch).max(first);
            let b = (zone.from_local(&Civil::date(ny, nm, 1)) - epoch).min(last);
            assert!(b > a || k == 0 || k + 1 == m.months.len(), "{} lies outside the span", x.month);
            busy += x.utilization_pct / 100.0 * machine * (b - a).max(0) as f64;
        }
        let used: f64 = t.jobs.iter().zip(&out.records).map(|(j, r)| j.procs as f64 * (r.end - r.start) as f64).sum();
        assert!((busy - used).abs() < 1e-6 * used, "{busy} vs {used}");
    }
}
