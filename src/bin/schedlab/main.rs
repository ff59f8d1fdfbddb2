//! `schedlab`: the command-line face of the engine (trace reports, runs, benchmarks).

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use indicatif::ParallelProgressIterator;
use rayon::prelude::*;
use serde_json::{json, Value};

use schedlab::metrics::{compress, records, schedule_csv, Cut, Record};
use schedlab::policy::{family_options, Configured, PolicyInfo, POLICIES};
use schedlab::render::compare::RunView;
use schedlab::render::gantt::Gantt;
use schedlab::run::{configure, result_of, simulate_configured, PolicyResult, RunReport, RunSettings, Settings};
use schedlab::trace::{parse, Trace, TraceReport, TRACE_KEYS};

/// Prints a line to standard output; a closed pipe (`schedlab policies | head`) ends the program
/// quietly instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if writeln!(std::io::stdout(), $($arg)*).is_err() {
            std::process::exit(0);
        }
    }};
}

mod alloc;
mod cli;
mod explain;
mod kettimuthu;
mod lawson;
mod leung;
mod loadsweep;
mod plot;
mod study;

#[global_allocator]
static ALLOC: alloc::Counting = alloc::Counting;

/// A command-line failure: the message and the exit code.
struct Fail(String, u8);

fn usage(msg: impl Into<String>) -> Fail {
    Fail(format!("{}\n(schedlab COMMAND --help says what each command takes)", msg.into()), 2)
}

fn fail(msg: impl Into<String>) -> Fail {
    Fail(msg.into(), 1)
}

/// The arguments of a subcommand, as the commands read them (parsed by [`cli::Cli`]).
#[derive(Default)]
pub struct Args {
    positional: Vec<String>,
    policy: Option<String>,
    /// A custom policy's file (`--policy-file`), added to `policy` before the command runs.
    policy_file: Option<String>,
    sets: Vec<String>,
    format: Option<String>,
    schedule_out: Option<String>,
    series: Option<usize>,
    repeat: Option<usize>,
    vary: Vec<String>,
    top: Option<usize>,
    months: bool,
    loads: Option<String>,
    plot: Option<String>,
    threads: Option<usize>,
    job: Option<u64>,
    at: Option<i64>,
    log: bool,
    from: Option<i64>,
    to: Option<i64>,
    /// `convert --to FORMAT`.
    format_to: Option<String>,
    /// `convert -o FILE`.
    output: Option<String>,
    /// `info --cluster FILE`: the cluster's slurm.conf.
    cluster: Option<String>,
}

/// A progress bar on standard error for `n` pieces of work, drawn only when standard error is
/// a terminal: a pipe, a file or a test gets nothing.
pub fn progress(n: usize, what: &str) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if n < 2 || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(n as u64);
    if let Ok(style) = indicatif::ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len}, {elapsed}") {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(what.to_string());
    bar
}

/// Reads a trace for a simulation, telling on stderr what was skipped or doubtful (on stderr,
/// so a table or JSON on stdout stays clean).
fn load_trace(path: &str, settings: &Settings) -> Result<Trace, Fail> {
    let trace = read_trace(path, settings)?;
    let r = &trace.report;
    for w in &r.warnings {
        eprintln!("schedlab: {path}: warning: {w}");
    }
    if r.errors_total > 0 {
        eprintln!(
            "schedlab: {path}: {} malformed line(s) skipped (`schedlab info` lists them), the first:",
            r.errors_total
        );
        for e in r.errors.iter().take(3) {
            eprintln!("  {e}");
        }
    }
    Ok(trace)
}

/// The `--cluster` slurm.conf of this run, if given: every trace read gets its cluster.
static CLUSTER: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();

/// Reads a trace and gives it its cluster: the `--cluster` slurm.conf (whose CPUs are the
/// machine's size unless `machine=` is set), else for a sacct log the cluster its NodeList and
/// AllocTRES show, with a warning that it is inferred.
fn read_trace(path: &str, settings: &Settings) -> Result<Trace, Fail> {
    let conf = match CLUSTER.get().and_then(|c| c.as_deref()) {
        Some(file) => Some((file, std::fs::read_to_string(file).map_err(|e| fail(format!("{file}: {e}")))?)),
        None => None,
    };
    let mut trace = read_trace_alone(path, settings)?;
    // Without a slurm.conf, a sacct file's own text says which nodes its jobs ran on.
    let log =
        (conf.is_none() && trace.report.format == Some("Slurm sacct output") && path != "-" && !path.contains(':'))
            .then(|| std::fs::read(path).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default());
    schedlab::cluster::attach(
        &mut trace,
        conf.as_ref().map(|c| c.1.as_str()),
        log.as_deref(),
        settings.trace.machine.is_some(),
    )
    .map_err(|e| fail(format!("{}: {e}", conf.as_ref().map_or("", |c| c.0))))?;
    Ok(trace)
}

/// Reads a trace, streamed through the loader so a large file is never held whole.
fn read_trace_alone(path: &str, settings: &Settings) -> Result<Trace, Fail> {
    if let Some(spec) = path.strip_prefix("generate:") {
        let w = generated(spec)?;
        return parse(w.to_swf().as_bytes(), &settings.trace).map_err(|e| fail(format!("{path}: {e}")));
    }
    if let Some(name) = path.strip_prefix("example:") {
        let names: Vec<&str> = schedlab::explain::examples::EXAMPLES.iter().map(|e| e.name).collect();
        let e = schedlab::explain::examples::find(name)
            .ok_or_else(|| fail(format!("no example {name}: the examples are {}", names.join(", "))))?;
        return parse(e.swf.as_bytes(), &settings.trace).map_err(|e| fail(format!("{path}: {e}")));
    }
    let cannot = |e: std::io::Error| fail(format!("cannot read {path}: {e}"));
    let fields = settings.trace.fields.as_deref();
    let mut loader = schedlab::trace::Loader::new(None).fields(fields);
    if path != "-" {
        let mut file = std::fs::File::open(path).map_err(cannot)?;
        let mut magic = [0u8; 2];
        let gzip = std::io::Read::read_exact(&mut file, &mut magic).is_ok() && schedlab::trace::is_gzip(&magic);
        if gzip {
            std::io::Seek::rewind(&mut file).map_err(cannot)?;
            if let Some(l) = read_gzip_beside(file, fields) {
                return parse(&l.finish(), &settings.trace).map_err(|e| fail(format!("{path}: {e}")));
            }
        }
    }
    // `-` is standard input: `sacct -X -P ... | schedlab run - --policy easy`.
    let mut file: Box<dyn std::io::Read> = if path == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::fs::File::open(path).map_err(cannot)?)
    };
    let mut buf = vec![0u8; 1 << 22];
    loop {
        let n = std::io::Read::read(&mut file, &mut buf).map_err(cannot)?;
        if n == 0 || !loader.feed(&buf[..n]) {
            break;
        }
    }
    parse(&loader.finish(), &settings.trace).map_err(|e| fail(format!("{path}: {e}")))
}

/// Reads a gzip file with the decompression on a second thread and the scan on this one (they
/// take about as long as each other). `None` when the stream breaks: the file is then read
/// again the ordinary way, whose report says how and where.
fn read_gzip_beside(file: std::fs::File, fields: Option<&str>) -> Option<schedlab::trace::Loader> {
    const CHUNK: usize = 1 << 20;
    // The buffers go round between the two threads and are made and freed on this one, so the
    // heap `bench` counts for reading is this thread's.
    let (to_fill, empty) = std::sync::mpsc::sync_channel::<Vec<u8>>(4);
    let (send, filled) = std::sync::mpsc::sync_channel::<std::io::Result<Vec<u8>>>(4);
    for _ in 0..4 {
        to_fill.send(vec![0; CHUNK]).ok()?;
    }
    let unpack = std::thread::spawn(move || {
        let mut dec = flate2::read::MultiGzDecoder::new(std::io::BufReader::with_capacity(CHUNK, file));
        for mut buf in empty.iter() {
            buf.resize(CHUNK, 0);
            let got = std::io::Read::read(&mut dec, &mut buf).map(|n| {
                buf.truncate(n);
                buf
            });
            let last = !matches!(&got, Ok(b) if !b.is_empty());
            // The reader hangs up once it wants no more.
            if send.send(got).is_err() || last {
                return;
            }
        }
    });
    let mut loader = schedlab::trace::Loader::decompressed(None).fields(fields);
    let mut whole = true;
    for got in filled.iter() {
        match got {
            Ok(b) if b.is_empty() => break,
            Ok(b) if loader.feed(&b) => {
                let _ = to_fill.send(b);
            }
            Ok(_) => break,
            Err(_) => {
                whole = false;
                break;
            }
        }
    }
    drop((to_fill, filled));
    whole &= unpack.join().is_ok();
    whole.then_some(loader)
}

fn settings(a: &Args) -> Result<Settings, Fail> {
    Settings::parse(&a.sets).map_err(|e| usage(format!("--set {e}")))
}

fn one_trace(a: &Args) -> Result<&str, Fail> {
    match a.positional.as_slice() {
        [p] => Ok(p),
        [] => Err(usage("missing TRACE")),
        _ => Err(usage(format!("expected one TRACE, got {}", a.positional.len()))),
    }
}

fn print_report_table(path: &str, trace: &Trace) {
    let r = &trace.report;
    for row in schedlab::render::report::report_rows(path, r, &trace.header) {
        out!("{:<16} {}", row.key, row.text.replace('\n', "\n                 "));
        if row.key == "read as" {
            for (from, to) in r.mapping {
                out!("  {from:<34} -> {to}");
            }
        }
    }
    if r.errors_total > 0 {
        out!("malformed lines  {} (first {} shown)", r.errors_total, r.errors.len().min(10));
        for e in r.errors.iter().take(10) {
            out!("  {e}");
        }
    }
}

fn cmd_info(a: &Args) -> Result<(), Fail> {
    let path = one_trace(a)?;
    let s = settings(a)?;
    if let Some((k, v)) = s.policy.first() {
        return Err(usage(format!("--set {k}={v}: info takes only trace options")));
    }
    let trace = read_trace(path, &s)?;
    match a.format.as_deref().unwrap_or("table") {
        "json" => out!(
            "{}",
            json!({"report": trace.report, "header": trace.header, "shape": schedlab::metrics::categories::shape(&trace),
                   "cluster": trace.cluster})
        ),
        "table" => {
            print_report_table(path, &trace);
            match (&trace.cluster, &a.cluster) {
                (Some(c), Some(file)) => {
                    out!("{:<16} {file} (slurm.conf)", "cluster");
                    for line in c.describe() {
                        out!("  {line}");
                    }
                    out!(
                        "  The slurm policies place jobs on these nodes; the papers' policies run on their {} CPUs.",
                        c.cpus()
                    );
                }
                (Some(c), None) => {
                    out!("{:<16} inferred from the log's NodeList and AllocTRES (give --cluster slurm.conf for the real one)", "cluster");
                    for line in c.describe() {
                        out!("  {line}");
                    }
                    out!("  Each node is as large as the most a job held on it: a lower bound.");
                }
                (None, _) if trace.report.format == Some("Slurm sacct output") => {
                    let text =
                        std::fs::read(path).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default();
                    if let Err(why) = schedlab::cluster::infer::from_sacct(&text) {
                        out!("{:<16} none inferred: {why}; give --cluster slurm.conf", "cluster");
                    }
                }
                _ => {}
            }
        }
        f => return Err(usage(format!("--format {f}: expected table or json"))),
    }
    Ok(())
}

const TABLE_COLUMNS: &[(&str, &str)] = &[
    ("avg_wait_s", "avg wait s"),
    ("max_wait_s", "max wait s"),
    ("avg_response_s", "avg resp s"),
    ("avg_bsld", "avg bsld"),
    ("max_bsld", "max bsld"),
    ("utilization", "util"),
    ("loss_of_capacity", "LOC"),
    ("jobs_backfilled", "backfilled"),
];

fn fmt_num(v: &Value) -> String {
    match v.as_f64() {
        Some(f) if v.is_f64() => {
            if f.abs() >= 1000.0 {
                format!("{f:.0}")
            } else {
                format!("{f:.4}")
            }
        }
        _ => v.to_string(),
    }
}

fn write_schedule(path: &str, recs: &[Record]) -> Result<(), Fail> {
    std::fs::write(path, schedule_csv(recs)).map_err(|e| fail(format!("cannot write {path}: {e}")))
}

fn schedule_path(base: &str, policy: &str, many: bool) -> String {
    if !many {
        return base.to_string();
    }
    match base.strip_suffix(".csv") {
        Some(stem) => format!("{stem}.{policy}.csv"),
        None => format!("{base}.{policy}.csv"),
    }
}

fn cmd_run(a: &Args) -> Result<(), Fail> {
    let path = one_trace(a)?;
    let mut s = settings(a)?;
    if a.plot.is_some() {
        s.engine = s.engine.pictured();
    }
    let names = a.policy.as_deref().ok_or_else(|| usage("run needs --policy NAME[,NAME...] or --policy all"))?;
    let configs = configure(names, &s).map_err(|e| usage(e.to_string()))?;
    let format = a.format.as_deref().unwrap_or("table");
    if !["table", "json", "csv"].contains(&format) {
        return Err(usage(format!("--format {format}: expected table, json or csv")));
    }
    if a.series.is_some() && format != "json" {
        return Err(usage("--series goes with --format json"));
    }
    let out = a.plot.as_deref().map(plot::Out::new).transpose()?;
    let trace = load_trace(path, &s)?;
    // Each policy on its own core; what a run leaves behind is small, and comes back in the
    // order the policies were named, so the output is the same on any number of threads.
    let pictured = out.is_some();
    let bar = progress(configs.len(), "simulating");
    let runs: Vec<_> = configs
        .par_iter()
        .progress_with(bar.clone())
        .map(|cfg| -> Result<_, Fail> {
            // The summary and the other measures of one run are worked out at once too.
            let outcome = simulate_configured(&trace, cfg, &s.engine, &mut |_| {});
            let result = result_of(&trace, cfg, &s, &outcome, &|a, b| {
                rayon::join(a, b);
            });
            let pictures = pictured.then(|| {
                (
                    RunView::new(&trace, &outcome, &result, s.metrics.tau, 400),
                    (cfg.policy.to_string(), Gantt::new(&trace, &outcome)),
                )
            });
            if let Some(base) = &a.schedule_out {
                write_schedule(&schedule_path(base, &cfg.policy, configs.len() > 1), &records(&trace, &outcome))?;
            }
            let points = a.series.map(|n| json!({"policy": cfg.policy, "points": compress(&outcome.series, n)}));
            Ok((result, pictures, points))
        })
        .collect::<Result<_, _>>()?;
    bar.finish_and_clear();
    let mut results: Vec<PolicyResult> = Vec::new();
    let mut series: Vec<Value> = Vec::new();
    let mut views = Vec::new();
    let mut gantts = Vec::new();
    for (result, pictures, points) in runs {
        if let Some((view, gantt)) = pictures {
            views.push(view);
            gantts.push(gantt);
        }
        series.extend(points);
        results.push(result);
    }
    let report = RunReport {
        trace: trace.report.clone(),
        settings: RunSettings { engine: s.engine, metrics: s.metrics },
        results,
    };
    if let Some(out) = &out {
        plot::run_plots(out, &views, &gantts, trace.header.unix_start_time)?;
    }
    match format {
        "json" => {
            let mut v = serde_json::to_value(&report).map_err(|e| fail(e.to_string()))?;
            if a.series.is_some() {
                v["series"] = Value::Array(series);
            }
            out!("{v}");
        }
        "csv" => print_csv(&report),
        _ => print_table(path, &trace.report, &report, s.metrics.cut),
    }
    Ok(())
}

fn metric_values(r: &PolicyResult) -> Vec<(String, Value)> {
    match serde_json::to_value(&r.metrics) {
        Ok(Value::Object(m)) => m.into_iter().collect(),
        _ => Vec::new(),
    }
}

fn print_csv(report: &RunReport) {
    let Some(first) = report.results.first() else { return };
    let keys: Vec<String> = metric_values(first).into_iter().map(|(k, _)| k).collect();
    out!("policy,options,{}", keys.join(","));
    for r in &report.results {
        let opts: Vec<String> = r.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let vals: Vec<String> = metric_values(r).into_iter().map(|(_, v)| v.to_string()).collect();
        out!("{},{},{}", r.policy, opts.join(" "), vals.join(","));
    }
}

fn print_table(path: &str, tr: &TraceReport, report: &RunReport, cut: Cut) {
    out!(
        "{path}: {} jobs on {} processors ({}); averages over {}",
        tr.jobs_kept,
        tr.machine_size,
        tr.machine_source,
        match cut {
            Cut::None => "all jobs",
            Cut::Tsafrir => "jobs left by the Tsafrir et al. warm-up/cool-down cut",
        }
    );
    let mut header = format!("{:<14}", "policy");
    for (_, title) in TABLE_COLUMNS {
        header.push_str(&format!("{title:>12}"));
    }
    out!("{header}");
    for r in &report.results {
        let vals: std::collections::BTreeMap<String, Value> = metric_values(r).into_iter().collect();
        let mut line = format!("{:<14}", r.policy);
        for (key, _) in TABLE_COLUMNS {
            line.push_str(&format!("{:>12}", vals.get(*key).map_or(String::new(), fmt_num)));
        }
        out!("{line}");
    }
    for r in &report.results {
        if let Some(why) = &r.stopped {
            out!("{}: {why}", r.policy);
        }
        for note in &r.notes {
            out!("{}: {note}", r.policy);
        }
    }
    // The page's answer in words: what the trace lost, which policy starves jobs, which is a bound.
    let views: Vec<RunView> = report.results.iter().map(|r| RunView::summary(tr, r)).collect();
    let said = schedlab::render::answer::answer(&views, &tr.loss);
    out!();
    for w in &said.warnings {
        out!("warning: {w}");
    }
    out!("{}", said.lead);
    for line in &said.more {
        out!("{line}");
    }
}

fn cmd_convert(a: &Args) -> Result<(), Fail> {
    let path = one_trace(a)?;
    let s = settings(a)?;
    match a.format_to.as_deref() {
        Some("swf") => {}
        Some(f) => return Err(usage(format!("--to {f}: the only format written is swf"))),
        None => return Err(usage("convert needs --to swf")),
    }
    let trace = load_trace(path, &s)?;
    write_out(a, &schedlab::trace::to_swf(&trace), &format!("{} jobs", trace.jobs.len()), false)
}

/// Writes `text` to `-o FILE`, saying "wrote WHAT to FILE", or to standard output (saying
/// "generated WHAT" first when `tell` asks); a closed pipe ends the process quietly.
fn write_out(a: &Args, text: &str, what: &str, tell: bool) -> Result<(), Fail> {
    match a.output.as_deref() {
        Some(file) => {
            std::fs::write(file, text).map_err(|e| fail(format!("cannot write {file}: {e}")))?;
            eprintln!("schedlab: wrote {what} to {file}");
        }
        None => {
            if tell {
                eprintln!("schedlab: generated {what}");
            }
            if std::io::stdout().write_all(text.as_bytes()).is_err() {
                std::process::exit(0);
            }
        }
    }
    Ok(())
}

/// The workload a `generate:` spec asks for; a bad option is a usage error.
fn generated(spec: &str) -> Result<schedlab::workload::Workload, Fail> {
    let o = schedlab::workload::WorkloadOptions::parse(spec).map_err(|e| usage(format!("generate: {e}")))?;
    Ok(schedlab::workload::generate(&o))
}

fn cmd_generate(a: &Args) -> Result<(), Fail> {
    let spec = &a.positional[0];
    if spec.to_ascii_lowercase().contains("model=cluster") {
        let w = generated(&spec.to_ascii_lowercase().replace("model=cluster", "model=lublin99"))?;
        let seed = w.options.seed;
        let text = schedlab::workload::cluster_log::sacct(&w, seed);
        let conf = schedlab::workload::cluster_log::slurm_conf(w.options.machine);
        let what =
            format!("{} jobs of lublin99 as a Slurm cluster's sacct log on {} CPUs", w.jobs.len(), w.options.machine);
        if let Some(file) = a.output.as_deref() {
            let beside = format!("{file}.slurm.conf");
            std::fs::write(&beside, conf).map_err(|e| fail(format!("cannot write {beside}: {e}")))?;
            eprintln!("schedlab: wrote its cluster's slurm.conf to {beside}");
        }
        return write_out(a, &text, &what, true);
    }
    let w = generated(spec)?;
    let text = w.to_swf();
    let what = format!(
        "{} jobs of lublin99 on {} processors, offered load {:.3}{}",
        w.jobs.len(),
        w.options.machine,
        w.load,
        if w.options.load.is_some() {
            format!(" (inter-arrival gaps stretched x{:.3})", w.stretch)
        } else {
            String::new()
        }
    );
    write_out(a, &text, &what, true)
}

fn cmd_policies() {
    let mut groups: Vec<&str> = Vec::new();
    let every: Vec<&PolicyInfo> = POLICIES.iter().chain([&schedlab::policy::CUSTOM]).collect();
    for p in &every {
        if !groups.contains(&p.group) {
            groups.push(p.group);
        }
    }
    for g in groups {
        out!("POLICIES: {}", g.to_uppercase());
        for p in every.iter().filter(|p| p.group == g) {
            let d: Vec<String> = p.defaults.iter().map(|(k, v)| format!("{k}={v}")).collect();
            out!("  {:<14} {}", p.name, p.summary);
            out!("  {:<14} family {}, preset: {}", "", p.family, d.join(" "));
        }
        out!("");
    }
    let mut families: Vec<&str> = every.iter().map(|p| p.family).collect();
    families.dedup();
    for f in families {
        out!("OPTIONS OF THE {} FAMILY (a preset sets some; the rest keep these defaults)", f.to_uppercase());
        let opts = family_options(f);
        let kw = opts.iter().map(|o| o.key.len()).max().unwrap_or(0);
        let vw = opts.iter().map(|o| o.values.len()).max().unwrap_or(0);
        for o in opts {
            let def = schedlab::policy::family_default(f, o.key).unwrap_or("");
            out!("  {:<kw$}  {:<vw$}  default {def:<10} {}", o.key, o.values, o.doc);
        }
    }
    out!("\nTRACE OPTIONS");
    for (k, d, doc) in TRACE_KEYS {
        out!("  {k:<10} default {d:<10} {doc}");
    }
    out!("\nENGINE OPTIONS");
    for (k, d, doc) in schedlab::engine::ENGINE_KEYS {
        out!("  {k:<10} default {d:<10} {doc}");
    }
    out!("\nMETRIC OPTIONS");
    for (k, d, doc) in schedlab::metrics::METRIC_KEYS {
        out!("  {k:<10} default {d:<10} {doc}");
    }
}

/// The median of `v` (the upper one of an even count).
fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

/// One policy's figures in `schedlab bench`.
struct Measured {
    seconds: Vec<f64>,
    passes: u64,
    peak_bytes: u64,
    fst: schedlab::fairstart::FstCost,
}

/// Simulates `cfg` once on this thread: seconds, passes, the heap it held at its peak beyond
/// what the thread held before, and the fair-start cost.
fn measure_once(trace: &Trace, cfg: &Configured, s: &Settings) -> (f64, u64, u64, schedlab::fairstart::FstCost) {
    let start = alloc::reset_peak();
    let t = Instant::now();
    let outcome = simulate_configured(trace, cfg, &s.engine, &mut |_| {});
    let secs = t.elapsed().as_secs_f64();
    let peak = alloc::peak_since(start);
    let out = (secs, outcome.passes, peak, outcome.observed.fst_cost);
    drop(std::hint::black_box(outcome));
    out
}

/// Seconds flate2 alone takes to decompress the gzip file at `path` (from memory, into nothing),
/// the median of `repeat` runs, and the bytes it gives; `None` for a file that is not gzip.
fn gunzip_floor(path: &str, repeat: usize) -> Option<(f64, u64)> {
    let gz = std::fs::read(path).ok()?;
    if !schedlab::trace::is_gzip(&gz) {
        return None;
    }
    let mut times = Vec::new();
    let mut bytes = 0;
    for _ in 0..repeat {
        let t = Instant::now();
        bytes = std::io::copy(&mut flate2::read::MultiGzDecoder::new(&gz[..]), &mut std::io::sink()).ok()?;
        times.push(t.elapsed().as_secs_f64());
    }
    Some((median(&mut times), bytes))
}

/// Seconds the whole `schedlab run PATH --policy NAME --format json` takes as a new process
/// (reading, simulating, summarising, printing), the median of `repeat` runs.
fn whole_process(path: &str, name: &str, sets: &[String], repeat: usize) -> Option<f64> {
    let exe = std::env::current_exe().ok()?;
    let mut times = Vec::new();
    for _ in 0..repeat {
        let mut cmd = std::process::Command::new(&exe);
        cmd.args(["run", path, "--policy", name, "--format", "json", "--threads", "1"]);
        for set in sets {
            cmd.args(["--set", set]);
        }
        cmd.stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null());
        let t = Instant::now();
        if !cmd.status().ok()?.success() {
            return None;
        }
        times.push(t.elapsed().as_secs_f64());
    }
    Some(median(&mut times))
}

fn cmd_bench(a: &Args) -> Result<(), Fail> {
    let s = settings(a)?;
    let configs: Vec<Configured> =
        configure(a.policy.as_deref().unwrap_or("all"), &s).map_err(|e| usage(e.to_string()))?;
    let paths = study::paths_or(a, &["SDSC-SP2-1998-4.2-cln.swf.gz", "HPC2N-2002-2.2-cln.swf.gz"])?;
    let repeat = a.repeat.unwrap_or(3).max(1);
    let threads = rayon::current_num_threads();
    out!(
        "{:<24} {:<20} {:>8} {:>9} {:>11} {:>8} {:>10} {:>9}",
        "trace",
        "policy",
        "jobs",
        "seconds",
        "jobs/s",
        "passes",
        "peak B/job",
        "peak MiB"
    );
    let per_job = |b: u64, n: usize| format!("{:.0}", b as f64 / n.max(1) as f64);
    let mib = |b: u64| format!("{:.1}", b as f64 / (1024.0 * 1024.0));
    for path in &paths {
        let mut parse = Vec::new();
        let mut parse_peak = 0;
        let mut loaded = None;
        for _ in 0..repeat {
            let start = alloc::reset_peak();
            let t0 = Instant::now();
            let trace = load_trace(path, &s)?;
            parse.push(t0.elapsed().as_secs_f64());
            parse_peak = alloc::peak_since(start);
            loaded = Some(trace);
        }
        let Some(trace) = loaded else { continue };
        let parse_s = median(&mut parse);
        let short: String = study::short(path).chars().take(24).collect();
        let n = trace.jobs.len();
        if let Some((secs, bytes)) = gunzip_floor(path, repeat) {
            out!(
                "{short:<24} {:<20} {n:>8} {secs:>9.3} {:>11.0}   (flate2 alone: {:.0} MB of SWF text at {:.0} MB/s, the floor of reading)",
                "(gzip alone)",
                n as f64 / secs,
                bytes as f64 / 1e6,
                bytes as f64 / 1e6 / secs
            );
        }
        out!(
            "{short:<24} {:<20} {n:>8} {parse_s:>9.3} {:>11.0} {:>8} {:>10} {:>9}",
            "(read and parse)",
            n as f64 / parse_s,
            "-",
            per_job(parse_peak, n),
            mib(parse_peak)
        );
        // One untimed run first: the allocator's first large blocks come fresh from the kernel,
        // which would otherwise be charged to whichever policy is measured first.
        if let Some(cfg) = configs.first() {
            std::hint::black_box(measure_once(&trace, cfg, &s));
        }
        // Rounds over every policy rather than all runs of one policy in a row: a slow spell of
        // the machine then costs each policy a run or two, not one policy all of its runs.
        let mut m: Vec<Measured> = configs
            .iter()
            .map(|_| Measured { seconds: Vec::new(), passes: 0, peak_bytes: 0, fst: Default::default() })
            .collect();
        let mut walls = Vec::new();
        let bar = progress(repeat * configs.len(), &format!("timing {}", study::short(path)));
        for _ in 0..repeat {
            let wall = Instant::now();
            let round: Vec<_> =
                configs.par_iter().progress_with(bar.clone()).map(|cfg| measure_once(&trace, cfg, &s)).collect();
            walls.push(wall.elapsed().as_secs_f64());
            for (m, (secs, passes, peak, fst)) in m.iter_mut().zip(round) {
                m.seconds.push(secs);
                m.passes = passes;
                m.peak_bytes = m.peak_bytes.max(peak);
                m.fst = fst;
            }
        }
        bar.finish_and_clear();
        for (m, cfg) in m.iter_mut().zip(&configs) {
            let secs = median(&mut m.seconds);
            out!(
                "{short:<24} {:<20} {n:>8} {secs:>9.3} {:>11.0} {:>8} {:>10} {:>9}",
                cfg.policy,
                n as f64 / secs,
                m.passes,
                per_job(m.peak_bytes, n),
                mib(m.peak_bytes)
            );
        }
        if configs.len() > 1 {
            out!(
                "{short:<24} {:<20} {n:>8} {:>9.3}   (wall, {} policies on {threads} thread(s))",
                "(all of them)",
                median(&mut walls),
                configs.len()
            );
        }
        let first = configs.iter().find(|c| c.policy == "easy").or(configs.first());
        if let Some(cfg) = first {
            if let Some(w) = whole_process(path, &cfg.policy, &a.sets, repeat) {
                out!(
                    "{short:<24} {:<20} {n:>8} {w:>9.3}   (schedlab run --policy {} --format json, one process)",
                    "(whole process)",
                    cfg.policy
                );
            }
        }
        for (m, cfg) in m.iter().zip(&configs) {
            let c = m.fst;
            if c.computed > 0 {
                let per = |x: u64| x as f64 / c.computed as f64;
                out!(
                    "  {:<20} fair start times: {} computed ({} going on from the one before); per submission {:.1} jobs waiting, {:.1} placed ahead, {:.1} groups taken",
                    cfg.policy,
                    c.computed,
                    c.continued,
                    per(c.scanned),
                    per(c.placed),
                    per(c.groups)
                );
            }
        }
        let _ = std::io::stdout().flush();
    }
    out!("seconds: the median of {repeat} rounds over every policy (after one untimed run), each simulation timed on its own thread, {threads} at once (--threads N); the trace is parsed once, metrics are not included");
    out!("peak: the most heap a simulation held beyond the trace, per trace job and in MiB (for reading: the trace's own peak)");
    out!("fair start times (fst=on, or the fairshare policies) are measured inside the timed simulation");
    Ok(())
}

/// Adds the policy of `--policy-file` to `--policy`: `KEY = VALUE` lines (`#` starts a comment)
/// become `custom:KEY=VALUE;...`, or `NAME:KEY=VALUE;...` when the file's first line is `NAME:`.
fn with_policy_file(a: &mut Args) -> Result<(), Fail> {
    let Some(path) = &a.policy_file else { return Ok(()) };
    let text = std::fs::read_to_string(path).map_err(|e| Fail(format!("{path}: {e}"), 1))?;
    // (line number, text) of every line with something on it.
    let lines: Vec<(usize, &str)> = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .enumerate()
        .filter(|(_, l)| !l.is_empty())
        .map(|(k, l)| (k + 1, l))
        .collect();
    let (base, body) = match lines.first() {
        Some((_, first)) if first.ends_with(':') && !first.contains('=') => (first.trim_end_matches(':'), &lines[1..]),
        _ => ("custom", &lines[..]),
    };
    for (n, line) in body {
        // A `;` would split the line into settings of its own: each line is one KEY = VALUE.
        if !line.contains('=') || line.contains(';') {
            return Err(usage(format!(
                "{path}: line {n}: expected one KEY = VALUE (priority = ..., k = 1, name = ...), found {line:?}"
            )));
        }
    }
    let body: Vec<&str> = body.iter().map(|(_, l)| *l).collect();
    let spec = format!("{base}:{}", body.join(";"));
    a.policy = Some(match a.policy.take() {
        Some(p) => format!("{p},{spec}"),
        None => spec,
    });
    Ok(())
}

fn main() -> ExitCode {
    use clap::{CommandFactory, Parser};
    let cli = cli::Cli::parse();
    if let Some(n) = cli.threads {
        // Only fails if a pool exists already, which nothing before this line builds.
        let _ = rayon::ThreadPoolBuilder::new().num_threads(n as usize).build_global();
    }
    if let cli::Command::Completions { shell } = cli.command {
        clap_complete::generate(shell, &mut cli::Cli::command(), "schedlab", &mut std::io::stdout());
        return ExitCode::SUCCESS;
    }
    let (cmd, mut a, size) = cli.command.into_args();
    let _ = CLUSTER.set(a.cluster.clone());
    a.threads = cli.threads.map(|n| n as usize);
    let result =
        size.map_or(Ok(()), |s| plot::set_size(&s)).and_then(|()| with_policy_file(&mut a)).and_then(|()| match cmd {
            "info" => cmd_info(&a),
            "run" => cmd_run(&a),
            "policies" => {
                cmd_policies();
                Ok(())
            }
            "bench" => cmd_bench(&a),
            "explain" => explain::cmd_explain(&a),
            "convert" => cmd_convert(&a),
            "generate" => cmd_generate(&a),
            "loadsweep" => loadsweep::cmd_loadsweep(&a),
            "findings" => study::cmd_findings(&a),
            "sweep" => study::cmd_sweep(&a),
            "omega" => study::cmd_omega(&a),
            "lawson" => lawson::cmd_lawson(&a),
            "kettimuthu" => kettimuthu::cmd_kettimuthu(&a),
            _ => leung::cmd_leung(&a),
        });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Fail(msg, 0)) => {
            out!("{msg}");
            ExitCode::SUCCESS
        }
        Err(Fail(msg, code)) => {
            eprintln!("schedlab: {msg}");
            ExitCode::from(code)
        }
    }
}
