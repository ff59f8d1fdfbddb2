//! The `schedlab` command line, run as a user would.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn schedlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_schedlab")).args(args).output().expect("schedlab runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A scratch directory unique to one test, removed when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

fn scratch(name: &str) -> Scratch {
    let d = std::env::temp_dir().join(format!("schedlab-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    Scratch(d)
}

/// Four jobs on 4 processors; the schedules of fcfs and easy differ (jobs 3 and 4 backfill under easy).
const SWF: &str = "\
; Version: 2.2
; MaxProcs: 4
1 0 -1 100 2 -1 -1 2 100 -1 1 7 1 -1 1 -1 -1 -1
2 10 -1 50 4 -1 -1 4 50 -1 1 8 1 -1 1 -1 -1 -1
3 20 -1 30 2 -1 -1 2 40 -1 1 7 1 -1 2 -1 -1 -1
4 30 -1 10 1 -1 -1 1 10 -1 1 9 1 -1 1 -1 -1 -1
";

fn write_trace(dir: &Path, gz: bool) -> String {
    let path = dir.join(if gz { "t.swf.gz" } else { "t.swf" });
    let bytes = if gz {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(SWF.as_bytes()).unwrap();
        e.finish().unwrap()
    } else {
        SWF.as_bytes().to_vec()
    };
    std::fs::write(&path, bytes).unwrap();
    path.to_string_lossy().into_owned()
}

/// `run --format json` has the documented shape, metric keys and values.
#[test]
fn run_json_shape_and_values() {
    let d = scratch("json");
    let t = write_trace(&d, true);
    let o = schedlab(&["run", &t, "--policy", "FCFS,Easy", "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["trace"]["jobs_kept"], 4);
    assert_eq!(v["trace"]["machine_size"], 4);
    let res = v["results"].as_array().unwrap();
    assert_eq!(res.len(), 2);
    assert_eq!(res[0]["policy"], "fcfs");
    assert_eq!(res[1]["policy"], "easy");
    assert_eq!(res[1]["options"]["k"], "1");
    for key in
        ["avg_wait_s", "avg_bsld", "max_bsld", "utilization", "loss_of_capacity", "jobs_backfilled", "makespan_s"]
    {
        assert!(res[0]["metrics"].get(key).is_some(), "missing {key}");
    }
    // fcfs: 1 at 0, 2 at 100, 3 at 150, 4 at 150 -> waits 0, 90, 130, 120.
    assert_eq!(res[0]["metrics"]["avg_wait_s"], 85.0);
    assert_eq!(res[0]["metrics"]["jobs_backfilled"], 0);
    assert_eq!(v["settings"]["engine"]["passes"], "timestamp");
    assert_eq!(v["settings"]["metrics"]["tau"], 10);
    assert!(v.get("series").is_none());
    let o = schedlab(&["run", &t, "--policy", "easy", "--format", "json", "--series", "3", "--set", "passes=event"]);
    let w: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(w["settings"]["engine"]["passes"], "event");
    assert_eq!(w["series"][0]["policy"], "easy");
    assert_eq!(w["series"][0]["points"].as_array().unwrap().len(), 3);
    assert_eq!(w["series"][0]["points"][0]["time"], 0);
    // easy: 2 is reserved for 100; 3 (2 procs, estimate 40) ends by then and backfills at 20;
    // 4 (1 proc) finds no free processor until 3 ends at 50, and backfills then.
    assert_eq!(res[1]["metrics"]["jobs_backfilled"], 2);
}

/// `--schedule-out` writes the documented CSV, one file per policy when there are several.
#[test]
fn schedule_csv_is_written() {
    let d = scratch("csv");
    let t = write_trace(&d, false);
    let out = d.join("sched.csv");
    let o = schedlab(&["run", &t, "--policy", "easy", "--schedule-out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let csv = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "job_id,submit,start,end,procs,runtime,estimate,user,queue");
    assert_eq!(lines[1], "1,0,0,100,2,100,100,7,1");
    assert_eq!(lines[2], "2,10,100,150,4,50,50,8,1");
    assert_eq!(lines[3], "3,20,20,50,2,30,40,7,2");
    assert_eq!(lines[4], "4,30,50,60,1,10,10,9,1");
    let o = schedlab(&["run", &t, "--policy", "easy,conservative", "--schedule-out", out.to_str().unwrap()]);
    assert!(o.status.success());
    assert!(d.join("sched.easy.csv").exists() && d.join("sched.conservative.csv").exists());
}

/// `--policy all` runs every policy; csv and table formats print one row each.
#[test]
fn all_policies_in_every_format() {
    let d = scratch("all");
    let t = write_trace(&d, false);
    let o = schedlab(&["run", &t, "--policy", "all", "--format", "csv"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s = stdout(&o);
    assert!(s.starts_with("policy,options,jobs,"));
    assert_eq!(s.lines().count(), 1 + schedlab::policy::POLICIES.len());
    let o = schedlab(&["run", &t, "--policy", "all", "--set", "K=2", "--set", "tau=60"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("conservative"));
}

/// `info` prints the report; `policies` lists every policy and option.
#[test]
fn info_and_policies() {
    let d = scratch("info");
    let t = write_trace(&d, false);
    let o = schedlab(&["info", &t]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("jobs kept        4"), "{}", stdout(&o));
    let o = schedlab(&["info", &t, "--format", "json"]);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["report"]["users"], 3);
    let o = schedlab(&["policies"]);
    let s = stdout(&o);
    for p in schedlab::policy::POLICIES {
        assert!(s.contains(p.name), "{} missing", p.name);
    }
    for key in ["k ", "backfill", "machine", "load", "runtime", "overrun", "wide", "tau", "cut"] {
        assert!(s.contains(key), "{key} missing");
    }
}

/// Mistakes get a clear message and a non-zero exit code.
#[test]
fn errors_are_clear() {
    let d = scratch("err");
    let t = write_trace(&d, false);
    let o = schedlab(&["run", &t, "--policy", "nosuch"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown policy \"nosuch\""), "{}", stderr(&o));
    let o = schedlab(&["run", &t, "--policy", "easy", "--set", "colour=blue"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("colour=blue"), "{}", stderr(&o));
    let o = schedlab(&["run", &t, "--policy", "easy", "--set", "k=many"]);
    assert_eq!(o.status.code(), Some(2));
    let o = schedlab(&["run", "/nonexistent.swf", "--policy", "easy"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("cannot read /nonexistent.swf"));
    let o = schedlab(&["info", &t, "--set", "k=2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("info takes only trace options"), "{}", stderr(&o));
    let o = schedlab(&["run", &t, "--policy", "easy", "--series", "10"]);
    assert_eq!(o.status.code(), Some(2));
    let o = schedlab(&["run", &t, "--policy", "easy,EASY", "--format", "csv"]);
    assert_eq!(stdout(&o).lines().count(), 2, "a policy named twice runs once");
    // A closed output pipe ends the program quietly.
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!("{} policies | head -1", env!("CARGO_BIN_EXE_schedlab")))
        .output()
        .unwrap();
    assert_eq!(stdout(&o), "POLICIES: BACKFILLING (ALL PAPERS)\n");
    assert_eq!(stderr(&o), "");
    let empty = d.join("empty.swf");
    std::fs::write(&empty, "").unwrap();
    let o = schedlab(&["info", empty.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("the file is empty"));
}

/// `schedlab lawson` on KTH: its R at load 1 with every job high priority is Eq. 3 of the two
/// average slowdowns `schedlab run` reports for sq-backfill and mq-backfill; it prints every
/// row of the grid and a verdict for each finding.
#[test]
fn lawson_study_matches_two_plain_runs() {
    let kth = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz");
    let o = schedlab(&["lawson", kth, "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).expect("json");
    let st = &v[0]["study"];
    assert_eq!(st["loads"].as_array().map(Vec::len), Some(9));
    assert_eq!(st["reservations"].as_array().map(Vec::len), Some(3));
    let first = &st["loads"][0];
    assert_eq!((first["load"].as_f64(), first["high_priority"].as_f64()), (Some(1.0), Some(1.0)));
    let r = first["comparison"]["r"].as_f64().expect("R");

    let o = schedlab(&["run", kth, "--policy", "sq-backfill,mq-backfill", "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).expect("json");
    let s1 = v["results"][0]["metrics"]["avg_slowdown"].as_f64().expect("s1");
    let sm = v["results"][1]["metrics"]["avg_slowdown"].as_f64().expect("sm");
    assert!((r - (s1 - sm) / s1.min(sm)).abs() < 1e-12, "R {r} from s1 {s1} sm {sm}");

    let res = &st["reservations"][2]["comparison"]["reservations"];
    let requested = res["requested"].as_u64().expect("requested");
    assert!((6500..7700).contains(&requested), "{requested} of 28467 jobs asked at 0.25");

    let o = schedlab(&["lawson", kth]);
    let text = stdout(&o);
    assert!(text.contains("missed single"), "{text}");
    assert_eq!(text.matches("] ").count(), 5, "{text}");
}

/// Several policies run on several threads print exactly what one thread prints, in every format,
/// and write the same schedules.
#[test]
fn threads_change_no_output_byte() {
    let trace =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz");
    let trace = trace.to_str().unwrap();
    let dir = scratch("threads");
    let mut outputs = Vec::new();
    for threads in ["1", "2"] {
        let mut files = Vec::new();
        for format in ["json", "table", "csv"] {
            let base = dir.join(format!("s{threads}.csv"));
            let schedules = base.to_str().unwrap();
            let policies = "fcfs,easy,conservative,easy++,ss,relaxed,mq-backfill,cplant24.nomax.all";
            let mut args = vec!["run", trace, "--policy", policies, "--format", format, "--threads", threads];
            args.extend(["--schedule-out", schedules]);
            if format == "json" {
                args.extend(["--series", "50"]);
            }
            let o = schedlab(&args);
            assert!(o.status.success(), "{}", stderr(&o));
            files.push(o.stdout);
        }
        for policy in ["fcfs", "ss", "cplant24.nomax.all"] {
            files.push(std::fs::read(dir.join(format!("s{threads}.{policy}.csv"))).unwrap());
        }
        let o = schedlab(&["sweep", trace, "--vary", "window=1-3", "--threads", threads]);
        assert!(o.status.success(), "{}", stderr(&o));
        files.push(o.stdout);
        outputs.push(files);
    }
    assert_eq!(outputs[0].len(), outputs[1].len());
    for (one, two) in outputs[0].iter().zip(&outputs[1]) {
        assert!(!one.is_empty());
        assert_eq!(String::from_utf8_lossy(one), String::from_utf8_lossy(two));
    }
}

/// An accounting log through standard input (`sacct ... | schedlab run -`), and `convert`: the
/// SWF it writes simulates to the same figures as the log itself.
#[test]
fn accounting_log_from_stdin_and_converted() {
    let log = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/accounting-logs/ncar-qhist__testdata");
    let bytes = std::fs::read(&log).expect("the sample is in ../shared");
    let mut child = Command::new(env!("CARGO_BIN_EXE_schedlab"))
        .args(["run", "-", "--policy", "easy", "--format", "json"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("schedlab runs");
    child.stdin.take().unwrap().write_all(&bytes).unwrap();
    let piped = child.wait_with_output().unwrap();
    assert!(piped.status.success(), "{}", stderr(&piped));
    let from_stdin: Value = serde_json::from_str(&stdout(&piped)).unwrap();
    let dir = scratch("convert");
    let swf = dir.join("ncar.swf");
    let o = schedlab(&["convert", log.to_str().unwrap(), "--to", "swf", "-o", swf.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("wrote 4 jobs"), "{}", stderr(&o));
    let o = schedlab(&["run", swf.to_str().unwrap(), "--policy", "easy", "--format", "json"]);
    let converted: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(from_stdin["results"][0]["metrics"], converted["results"][0]["metrics"]);
    let o = schedlab(&["convert", log.to_str().unwrap(), "--to", "csv"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("invalid value 'csv' for '--to <TO>'") && stderr(&o).contains("possible values: swf"),
        "{}",
        stderr(&o)
    );
}

/// Every subcommand has its own --help, naming what it takes; bad arguments are usage errors
/// (exit 2) that name the argument.
#[test]
fn help_for_every_subcommand() {
    let subcommands = [
        ("info", "--format"),
        ("run", "--schedule-out"),
        ("explain", "--job"),
        ("convert", "--to"),
        ("policies", "Usage: schedlab policies"),
        ("bench", "--repeat"),
        ("findings", "SCHEDLAB_TRACES"),
        ("sweep", "--vary"),
        ("omega", "--months"),
        ("lawson", "--plot"),
        ("kettimuthu", "--loads"),
        ("leung", "Sandia-Ross"),
        ("completions", "bash"),
    ];
    let top = stdout(&schedlab(&["--help"]));
    for (cmd, mentions) in subcommands {
        assert!(top.contains(cmd), "the top help lists {cmd}");
        let o = schedlab(&[cmd, "--help"]);
        assert!(o.status.success(), "{cmd} --help: {}", stderr(&o));
        assert!(stdout(&o).contains(mentions), "{cmd} --help mentions {mentions}:\n{}", stdout(&o));
    }
    let o = schedlab(&["run", "x.swf", "--policy", "easy", "--series", "many"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--series"), "{}", stderr(&o));
    let o = schedlab(&["run", "x.swf"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--policy"), "{}", stderr(&o));
}

/// `completions SHELL` prints a script that knows the subcommands and their flags.
#[test]
fn shell_completions() {
    for (shell, marker) in [("bash", "complete -F"), ("zsh", "#compdef schedlab"), ("fish", "complete -c schedlab")] {
        let o = schedlab(&["completions", shell]);
        assert!(o.status.success(), "{shell}: {}", stderr(&o));
        let s = stdout(&o);
        assert!(s.contains(marker), "{shell}: {}", &s[..s.len().min(300)]);
        for word in ["explain", "kettimuthu", "schedule-out"] {
            assert!(s.contains(word), "{shell} completes {word}");
        }
    }
    assert_eq!(schedlab(&["completions", "tcsh"]).status.code(), Some(2));
}

/// Without TRACE, the studies and bench look in the folder SCHEDLAB_TRACES names; an install
/// without it is told what to pass, not sent to a folder it does not have.
#[test]
fn no_trace_says_what_to_pass() {
    for cmd in ["findings", "omega", "lawson", "kettimuthu", "leung", "bench"] {
        let o = Command::new(env!("CARGO_BIN_EXE_schedlab"))
            .arg(cmd)
            .env_remove("SCHEDLAB_TRACES")
            .output()
            .expect("schedlab runs");
        assert_eq!(o.status.code(), Some(2), "{cmd}");
        let e = stderr(&o);
        assert!(e.contains("no TRACE given") && e.contains("SCHEDLAB_TRACES"), "{cmd}: {e}");
    }
    let o = Command::new(env!("CARGO_BIN_EXE_schedlab"))
        .arg("lawson")
        .env("SCHEDLAB_TRACES", "/nonexistent/traces")
        .output()
        .expect("schedlab runs");
    assert!(stderr(&o).contains("is not a folder") && stderr(&o).contains("KTH-SP2"), "{}", stderr(&o));
}

/// Progress bars are for terminals only: a run of several policies into a pipe writes nothing
/// on standard error.
#[test]
fn no_progress_bar_into_a_pipe() {
    let dir = scratch("progress");
    let trace = dir.join("t.swf");
    std::fs::write(&trace, SWF).unwrap();
    let o = schedlab(&["run", trace.to_str().unwrap(), "--policy", "fcfs,easy,conservative", "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stderr(&o), "", "nothing on stderr");
}

/// A header-less sacct sample runs with --plot and explains a job as an SWF trace does.
#[test]
fn sacct_log_plotted_and_explained() {
    let log = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/accounting-logs/hpccs__sacct-output-v2.txt");
    let log = log.to_str().unwrap();
    let dir = scratch("sacct-plot");
    let o = schedlab(&["run", log, "--policy", "easy,conservative", "--plot", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("no header line"), "{}", stderr(&o));
    for f in ["gantt-easy.svg", "gantt-conservative.png", "compare-avg_wait_s.svg", "hashes.json"] {
        assert!(dir.join(f).exists(), "{f}");
    }
    // Job 67108986 (1 CPU) was submitted at 2022-02-18T17:43:11 when all 83 processors were
    // busy; under EASY it starts when the first running jobs end.
    let o = schedlab(&["explain", log, "--policy", "easy", "--job", "67108986"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.starts_with("Job 67108986 (1 processor,"), "{text}");
    assert!(text.contains("submitted at 2022-02-18 17:43:11"), "{text}");
    assert!(text.contains("83 of 83 processors were busy"), "{text}");
    assert!(text.contains("gets a reservation for 1 processor at"), "{text}");
}

/// `run` on a gzip file decompresses on a second thread; standard input goes through the
/// loader's own decoder. Both read the same: a real log, a file of two gzip members, and
/// files whose stream breaks (cut short, or with bytes after its end), whose reports say so.
#[test]
fn a_gzip_file_reads_as_its_stream_does() {
    let dir = scratch("gzip-beside");
    let sdsc = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/traces/SDSC-SP2-1998-4.2-cln.swf.gz");
    let real = std::fs::read(&sdsc).expect("the trace is in ../shared");
    let gz = |text: &[u8]| {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(text).unwrap();
        e.finish().unwrap()
    };
    let (head, tail) = SWF.split_at(SWF.find("\n3 ").expect("job 3") + 1);
    let two_members = [gz(head.as_bytes()), gz(tail.as_bytes())].concat();
    let mut long: String = SWF.lines().take(2).map(|l| format!("{l}\n")).collect();
    for i in 0..3000 {
        long += &format!("{} {} -1 50 1 -1 -1 1 60 -1 1 7 1 -1 1 -1 -1 -1\n", i + 1, i * 10);
    }
    let long = gz(long.as_bytes());
    let cut = long[..long.len() / 2].to_vec();
    let trailing = [gz(SWF.as_bytes()), b"not gzip".to_vec()].concat();
    for (name, bytes, says) in [
        ("real.swf.gz", &real, None),
        ("members.swf.gz", &two_members, None),
        ("cut.swf.gz", &cut, Some("corrupt or truncated")),
        ("trailing.swf.gz", &trailing, None),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let args = ["--policy", "fcfs", "--format", "json"];
        let file = schedlab(&[&["run", path.to_str().unwrap()][..], &args].concat());
        let mut child = Command::new(env!("CARGO_BIN_EXE_schedlab"))
            .args([&["run", "-"][..], &args].concat())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(bytes).unwrap();
        let piped = child.wait_with_output().unwrap();
        assert_eq!(file.status.success(), piped.status.success(), "{name}: {}", stderr(&file));
        assert_eq!(stdout(&file), stdout(&piped), "{name}");
        assert_eq!(stderr(&file).replace(path.to_str().unwrap(), "-"), stderr(&piped), "{name}");
        if let Some(s) = says {
            assert!(stderr(&file).contains(s), "{name}: {}", stderr(&file));
        }
        let v: Value = serde_json::from_str(&stdout(&file)).expect("json");
        let jobs = v["results"][0]["metrics"]["jobs"].as_u64().expect("jobs");
        assert!(jobs >= 4, "{name}: {jobs} jobs");
    }
}

/// `info --cluster`: the cluster a slurm.conf describes (slurm.conf(5)'s example, with a GPU
/// partition and the scheduler's settings) beside a shared sacct sample, its CPUs the machine's size.
#[test]
fn info_shows_the_cluster_of_a_slurm_conf() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let log = root.join("../shared/accounting-logs/hpccs__sacct-output-v2.txt");
    let conf = root.join("tests/fixtures/slurm.conf");
    let o = schedlab(&["info", log.to_str().unwrap(), "--cluster", conf.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for line in [
        "machine          116 processors",
        "  28 nodes: 116 CPUs, 8 GPUs, 550 GB of memory",
        "    26 × 2 CPUs, 2000 MB: dev0, dev1 ... dev25",
        "    2 × 32 CPUs, 4 GPUs, 256000 MB: gpu1, gpu2",
        "    partition debug (default): 17 nodes, MaxTime 00:30:00, MaxNodes 10",
        "    partition gpu (PriorityTier 2): 2 nodes, MaxTime 2-00:00:00, MaxNodes 2",
        "    SchedulerParameters=bf_window=4320,bf_resolution=300,bf_max_job_test=500,bf_continue (line 22)",
    ] {
        assert!(out.contains(line), "{line:?} missing from:\n{out}");
    }
    assert!(out.contains("not used: SlurmctldHost (lines 6, 7), AuthType (line 9)"), "{out}");
    assert!(out.contains("DownNodes (line 47)"), "{out}");
    // A machine size given outright wins over the cluster's.
    let o = schedlab(&["info", log.to_str().unwrap(), "--cluster", conf.to_str().unwrap(), "--set", "machine=64"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("machine          64 processors"));
    let json = schedlab(&["info", log.to_str().unwrap(), "--cluster", conf.to_str().unwrap(), "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    assert_eq!(v["cluster"]["nodes"].as_array().map(Vec::len), Some(28));
    assert_eq!(v["cluster"]["partitions"][3]["max_time_s"], 172_800);
}

/// Without a slurm.conf, `info` on a sacct log shows the cluster its jobs ran on (NodeList),
/// or says why none can be inferred.
#[test]
fn info_infers_the_cluster_of_a_sacct_log_or_says_why_not() {
    let logs = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/accounting-logs");
    let o = schedlab(&["info", logs.join("slurm2sql__test-data1.csv").to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("cluster          inferred from the log's NodeList and AllocTRES"), "{out}");
    assert!(out.contains("    1 × 2 CPUs, 0 MB: pe2") && out.contains("partition jupyter-long: 1 node"), "{out}");
    let o = schedlab(&["info", logs.join("hpccs__sacct-output-v2.txt").to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("cluster          none inferred: the log has no NodeList column"), "{out}");
}
