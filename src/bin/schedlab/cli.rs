//! The command line's grammar: every subcommand, its arguments and its help, parsed by clap.
//! Each subcommand becomes the [`Args`] the commands read.

use clap::{Parser, Subcommand};

use crate::Args;

/// Simulate parallel job schedulers on workload traces: SWF, Slurm sacct, PBS, Grid Engine,
/// LSF.
#[derive(Parser)]
#[command(name = "schedlab", version, after_long_help = AFTER)]
pub struct Cli {
    /// How many threads run independent simulations (default: every core); the output is the
    /// same on any number.
    #[arg(long, short = 'j', global = true, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub threads: Option<u32>,
    #[command(subcommand)]
    pub command: Command,
}

const AFTER: &str = "\
TRACE is a .swf or .swf.gz file, Slurm sacct output, a Slurm job-completion log, a PBS, Torque,
Grid Engine or LSF accounting log (told apart by content), - for standard input, example:NAME
for a worked example of the papers (example:tsafrir-fig1, example:kettimuthu-fig2,
example:ward-omega, example:lawson-borrow, example:leung-starvation, example:kettimuthu-ss), or
generate:KEY=VALUE,... for a synthetic workload (schedlab generate --help: machine, jobs, load,
seed, types, estimate).
Trace, metric and policy options are set with --set KEY=VALUE; 'schedlab policies' lists them.
Names and keys are case-insensitive, '-' and '_' alike.

The studies (findings, sweep, omega, lawson, kettimuthu, leung) and bench run on the traces named;
with none, they look for the paper's traces (cleaned logs of the Parallel Workloads Archive) in
the folder SCHEDLAB_TRACES names.";

/// `--set KEY=VALUE`, repeated.
#[derive(clap::Args, Default)]
pub struct Sets {
    /// A trace, metric or policy option (repeatable): machine=N, tz=Europe/Paris, window=2...
    /// ('schedlab policies' lists them all).
    #[arg(long = "set", short = 's', value_name = "KEY=VALUE")]
    pub sets: Vec<String>,
    /// The cluster's slurm.conf: its nodes, GPUs, memory, partitions and scheduler settings.
    /// The slurm policies place jobs on its nodes with its settings; the papers' policies run on
    /// its CPUs (the machine's size unless --set machine= gives one). Without it, a sacct log's
    /// cluster is inferred from its NodeList and AllocTRES.
    #[arg(long, value_name = "SLURM_CONF")]
    pub cluster: Option<String>,
}

/// `--plot DIR`.
#[derive(clap::Args, Default)]
pub struct PlotDir {
    /// Also write the figures into DIR, as SVG and PNG, with their display-list hashes in
    /// hashes.json.
    #[arg(long, value_name = "DIR")]
    pub plot: Option<String>,
    /// The figures' size in pixels.
    #[arg(long, value_name = "WxH", default_value = "800x450")]
    pub plot_size: String,
}

/// What a paper's study takes: its traces, options, output format and figures.
#[derive(clap::Args)]
pub struct Study {
    /// Traces (default: the paper's, in the folder SCHEDLAB_TRACES names).
    #[arg(value_name = "TRACE")]
    pub traces: Vec<String>,
    #[command(flatten)]
    pub set: Sets,
    /// Output format.
    #[arg(long, short, value_parser = ["table", "json"], ignore_case = true)]
    pub format: Option<String>,
    #[command(flatten)]
    pub plot: PlotDir,
}

/// The subcommands.
#[derive(Subcommand)]
pub enum Command {
    /// Read a trace and print its report: jobs kept and dropped (and why), the machine, warnings.
    Info {
        /// The trace: SWF (.swf, .swf.gz), an accounting log, - for standard input, or
        /// example:NAME.
        #[arg(value_name = "TRACE")]
        trace: String,
        #[command(flatten)]
        set: Sets,
        /// Output format.
        #[arg(long, short, value_parser = ["table", "json"], ignore_case = true)]
        format: Option<String>,
    },
    /// Simulate policies on a trace and print their metrics.
    ///
    /// With --plot DIR, writes the page's charts: compare-<metric> for avg_wait_s, avg_bsld,
    /// p95_wait_s and utilization, wait-cdf, busy, queue (gpus and memory when the jobs hold them), and per policy categories-<policy>,
    /// accuracy-<policy> and gantt-<policy> (characters other than letters, digits, '.', '_',
    /// '+' and '-' become '_' in file names).
    Run {
        /// The trace: SWF (.swf, .swf.gz), an accounting log, - for standard input, or
        /// example:NAME.
        #[arg(value_name = "TRACE")]
        trace: String,
        /// Policies to run, comma-separated, or all ('schedlab policies' lists them); your own as
        /// custom:priority=EXPR;k=1;name=NAME.
        #[arg(long, short, value_name = "NAME[,NAME...]", required_unless_present = "policy_file")]
        policy: Option<String>,
        /// Your own policy from a file of KEY = VALUE lines (priority, k, name, ...), run after
        /// those of --policy.
        #[arg(long, value_name = "FILE")]
        policy_file: Option<String>,
        #[command(flatten)]
        set: Sets,
        /// Output format.
        #[arg(long, short, value_parser = ["table", "json", "csv"], ignore_case = true)]
        format: Option<String>,
        /// Write each job's schedule as CSV (FILE.<policy>.csv with several policies).
        #[arg(long, value_name = "FILE.csv")]
        schedule_out: Option<String>,
        /// Keep time series of N points in the JSON output.
        #[arg(long, value_name = "N")]
        series: Option<usize>,
        #[command(flatten)]
        plot: PlotDir,
    },
    /// Explain in sentences why a job started when it did, what the scheduler saw at a time,
    /// or every decision it made.
    ///
    /// --job ID tells what the job waited for, its reservations and the jobs started ahead of
    /// it; --at TIME (seconds from the trace's start) shows the scheduler's last pass at or
    /// before it; --log prints the decision log of every pass from --from to --to (bounded at a
    /// million items). With --plot DIR, on a trace of at most 500 jobs, each pass is drawn as
    /// the page's Learn view does.
    Explain {
        /// The trace: SWF (.swf, .swf.gz), an accounting log, - for standard input, or
        /// example:NAME.
        #[arg(value_name = "TRACE")]
        trace: String,
        /// The policy to explain.
        #[arg(long, short, value_name = "NAME", required_unless_present = "policy_file")]
        policy: Option<String>,
        /// Your own policy from a file of KEY = VALUE lines (priority, k, name, ...).
        #[arg(long, value_name = "FILE", conflicts_with = "policy")]
        policy_file: Option<String>,
        /// Why this job started when it did.
        #[arg(long, value_name = "ID", group = "what")]
        job: Option<u64>,
        /// What the scheduler saw and decided at this time (seconds from the trace's start).
        #[arg(long, value_name = "TIME", group = "what")]
        at: Option<i64>,
        /// Every decision, pass by pass.
        #[arg(long, group = "what")]
        log: bool,
        /// With --log: from this time (seconds from the trace's start).
        #[arg(long, value_name = "T")]
        from: Option<i64>,
        /// With --log: up to this time.
        #[arg(long, value_name = "T")]
        to: Option<i64>,
        #[command(flatten)]
        set: Sets,
        /// Output format.
        #[arg(long, short, value_parser = ["text", "json"], ignore_case = true)]
        format: Option<String>,
        #[command(flatten)]
        plot: PlotDir,
    },
    /// Write a trace (an accounting log) as SWF v2.2 with a full header; reading it back gives
    /// the same jobs.
    Convert {
        /// The log (or any trace), or - for standard input.
        #[arg(value_name = "LOG")]
        log: String,
        /// The format to write.
        #[arg(long, value_parser = ["swf"], ignore_case = true)]
        to: String,
        /// Write to FILE instead of standard output.
        #[arg(long, short, value_name = "FILE")]
        output: Option<String>,
        #[command(flatten)]
        set: Sets,
    },
    /// Generate a synthetic workload as SWF: the Lublin-Feitelson model (lublin99) with its
    /// published parameters, reaching a target offered load if given. The same options are a
    /// TRACE anywhere as generate:machine=128,jobs=5000,load=0.9,seed=1.
    ///
    /// --model cluster writes the same jobs as a Slurm cluster's sacct log instead (GPUs,
    /// memory, nodes, partitions), and that cluster's slurm.conf beside --output (OUTPUT.slurm.conf).
    Generate {
        /// The workload model: lublin99, or cluster (lublin99's jobs as a GPU cluster's sacct log).
        #[arg(long, value_parser = ["lublin99", "cluster"], ignore_case = true, default_value = "lublin99")]
        model: String,
        /// Machine size in processors (sizes scale with its log2).
        #[arg(long, default_value_t = 128)]
        machine: u32,
        /// Number of jobs (default 10,000).
        #[arg(long, conflicts_with = "days")]
        jobs: Option<u64>,
        /// Instead of a number of jobs: the jobs submitted in this many days.
        #[arg(long)]
        days: Option<f64>,
        /// Offered load to reach by stretching every inter-arrival gap (default: the model's own).
        #[arg(long)]
        load: Option<f64>,
        /// Seed of the model's random stream: the same seed gives the same workload.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Job types: both (batch and interactive), batch, interactive, typeless.
        #[arg(long, default_value = "both")]
        types: String,
        /// User estimates: exact (the runtime), a factor >= 1 (the runtime times it, rounded up),
        /// or tef (Tsafrir, Etsion & Feitelson's model of modal estimates).
        #[arg(long, default_value = "exact")]
        estimate: String,
        /// Write to FILE instead of standard output.
        #[arg(long, short, value_name = "FILE")]
        output: Option<String>,
    },
    /// List the policies, their options and defaults, and the trace, engine and metric
    /// options.
    Policies,
    /// Time each policy's simulation: seconds, jobs per second, passes and peak memory, plus
    /// reading and the whole process.
    Bench {
        /// Traces (default: SDSC-SP2 and HPC2N in SCHEDLAB_TRACES).
        #[arg(value_name = "TRACE")]
        traces: Vec<String>,
        /// Policies to time, comma-separated, or all.
        #[arg(long, short, value_name = "NAME[,NAME...]")]
        policy: Option<String>,
        /// Your own policy from a file of KEY = VALUE lines (priority, k, name, ...), timed after
        /// those of --policy.
        #[arg(long, value_name = "FILE")]
        policy_file: Option<String>,
        #[command(flatten)]
        set: Sets,
        /// Timed rounds; each policy's median is printed.
        #[arg(long, value_name = "N")]
        repeat: Option<usize>,
    },
    /// The classic figure: each policy's mean wait and mean bounded slowdown against the
    /// offered load, with the load at which it saturates.
    ///
    /// On generated workloads (the default, or TRACE = generate:...): several seeds per load,
    /// the spread printed. On a log: its arrivals scaled to each load (the trace option load=).
    Loadsweep {
        /// The workload: generate:KEY=VALUE,... (default generate:machine=128,jobs=10000) or a
        /// trace.
        #[arg(value_name = "TRACE")]
        trace: Option<String>,
        /// Policies, comma-separated.
        #[arg(long, short, default_value = "fcfs,easy,conservative")]
        policy: String,
        /// Offered loads, comma-separated.
        #[arg(long, value_name = "LOADS", default_value = "0.5,0.6,0.7,0.8,0.85,0.9,0.95")]
        loads: String,
        /// Generated workloads per load (seeds from the spec's seed on).
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..=100))]
        seeds: u64,
        #[command(flatten)]
        set: Sets,
        /// Output format.
        #[arg(long, short, value_parser = ["table", "json"], ignore_case = true)]
        format: Option<String>,
        #[command(flatten)]
        plot: PlotDir,
    },
    /// Check the claims of Tsafrir, Etsion & Feitelson (2007) on each trace.
    Findings {
        /// Traces (default: the paper's five in SCHEDLAB_TRACES).
        #[arg(value_name = "TRACE")]
        traces: Vec<String>,
        #[command(flatten)]
        set: Sets,
    },
    /// Rank predictor configurations by average degradation, as Tsafrir et al. section 7 do.
    ///
    /// The default policy is easy++, the default grid window=1-8 metric=avg,med
    /// propagation=off,on.
    Sweep {
        /// The traces.
        #[arg(value_name = "TRACE", required = true)]
        traces: Vec<String>,
        /// The policy whose options vary.
        #[arg(long, short, value_name = "NAME")]
        policy: Option<String>,
        /// One axis of the grid (repeatable): KEY=V1,V2 or KEY=A-B.
        #[arg(long, value_name = "KEY=V1,V2|A-B")]
        vary: Vec<String>,
        #[command(flatten)]
        set: Sets,
        /// Print the best N configurations.
        #[arg(long, value_name = "N")]
        top: Option<usize>,
        #[command(flatten)]
        plot: PlotDir,
    },
    /// Ward, Mahood & West's relaxed backfilling for omega = 0, 1, 2, 4, inf under Est and Act.
    Omega {
        /// Traces (default: those in SCHEDLAB_TRACES with more than one queue).
        #[arg(value_name = "TRACE")]
        traces: Vec<String>,
        /// Also print the per-month tables (Tables 1-6).
        #[arg(long)]
        months: bool,
        #[command(flatten)]
        set: Sets,
    },
    /// Compare mq-backfill with sq-backfill as Lawson & Smirni (2002) do.
    ///
    /// R overall, per class and priority at loads 1, 1.25, 1.5 with 100/75/95% high
    /// priority, and missed reservations at fractions 0.01, 0.05, 0.25. The paper's traces:
    /// KTH-SP2, SDSC-SP2 and SDSC-Par.
    Lawson {
        #[command(flatten)]
        study: Study,
    },
    /// Compare NS, SS (SF 1.5, 2, 5), TSS and IS as Kettimuthu et al. (2003) do.
    ///
    /// Average and worst-case bounded slowdown per Table 2.1 category, then NS, SS and IS at
    /// load factors 1.0-1.6. The paper's traces: SDSC-SP2 and KTH-SP2.
    Kettimuthu {
        /// Load factors of the load study, comma-separated, or none.
        #[arg(long, value_name = "F,F,...|none")]
        loads: Option<String>,
        #[command(flatten)]
        study: Study,
    },
    /// Run the nine CPlant fairshare policies of Leung, Sabin & Sadayappan (2010).
    ///
    /// Jobs missing their hybrid fair start time, the mean miss, turnaround and loss of
    /// capacity, overall and by width. The traces by default: Sandia-Ross in the paper's period
    /// and whole, and SDSC-SP2.
    Leung {
        #[command(flatten)]
        study: Study,
    },
    /// Print a shell completion script: schedlab completions bash > ~/.local/share/bash-completion/completions/schedlab
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

impl Command {
    /// The subcommand's name and its arguments as the commands read them; `None` for
    /// `completions`, which needs none.
    pub fn into_args(self) -> (&'static str, Args, Option<String>) {
        let mut a = Args::default();
        let lower = |f: Option<String>| f.map(|f| f.to_ascii_lowercase());
        let mut size = None;
        let mut plot = |a: &mut Args, p: PlotDir| {
            a.plot = p.plot;
            size = Some(p.plot_size);
        };
        let study = |a: &mut Args, st: Study, plot: &mut dyn FnMut(&mut Args, PlotDir)| {
            a.cluster = st.set.cluster;
            (a.positional, a.sets, a.format) = (st.traces, st.set.sets, lower(st.format));
            plot(a, st.plot);
        };
        let name = match self {
            Command::Info { trace, set, format } => {
                a.cluster = set.cluster;
                (a.positional, a.sets, a.format) = (vec![trace], set.sets, lower(format));
                "info"
            }
            Command::Run { trace, policy, policy_file, set, format, schedule_out, series, plot: p } => {
                a.cluster = set.cluster;
                (a.positional, a.policy, a.sets, a.format) = (vec![trace], policy, set.sets, lower(format));
                a.policy_file = policy_file;
                (a.schedule_out, a.series) = (schedule_out, series);
                plot(&mut a, p);
                "run"
            }
            Command::Explain { trace, policy, policy_file, job, at, log, from, to, set, format, plot: p } => {
                a.cluster = set.cluster;
                (a.positional, a.policy, a.sets, a.format) = (vec![trace], policy, set.sets, lower(format));
                a.policy_file = policy_file;
                (a.job, a.at, a.log, a.from, a.to) = (job, at, log, from, to);
                plot(&mut a, p);
                "explain"
            }
            Command::Convert { log, to, output, set } => {
                a.cluster = set.cluster;
                (a.positional, a.format_to, a.output, a.sets) = (vec![log], lower(Some(to)), output, set.sets);
                "convert"
            }
            Command::Generate { model, machine, jobs, days, load, seed, types, estimate, output } => {
                let load = load.map_or("model".to_string(), |l| l.to_string());
                let size = days.map_or(format!("jobs={}", jobs.unwrap_or(10_000)), |d| format!("days={d}"));
                let spec = format!(
                    "model={model},machine={machine},{size},load={load},seed={seed},types={types},estimate={estimate}"
                );
                (a.positional, a.output) = (vec![spec], output);
                "generate"
            }
            Command::Policies => "policies",
            Command::Bench { traces, policy, policy_file, set, repeat } => {
                a.cluster = set.cluster;
                (a.positional, a.policy, a.sets, a.repeat) = (traces, policy, set.sets, repeat);
                a.policy_file = policy_file;
                "bench"
            }
            Command::Loadsweep { trace, policy, loads, seeds, set, format, plot: p } => {
                plot(&mut a, p);
                let trace = trace.unwrap_or_else(|| "generate:machine=128,jobs=10000".into());
                a.cluster = set.cluster;
                (a.positional, a.policy, a.loads, a.sets, a.format) =
                    (vec![trace], Some(policy), Some(loads), set.sets, format);
                a.repeat = Some(seeds as usize);
                "loadsweep"
            }
            Command::Findings { traces, set } => {
                a.cluster = set.cluster;
                (a.positional, a.sets) = (traces, set.sets);
                "findings"
            }
            Command::Sweep { traces, policy, vary, set, top, plot: p } => {
                a.cluster = set.cluster;
                (a.positional, a.policy, a.vary, a.sets, a.top) = (traces, policy, vary, set.sets, top);
                plot(&mut a, p);
                "sweep"
            }
            Command::Omega { traces, months, set } => {
                a.cluster = set.cluster;
                (a.positional, a.months, a.sets) = (traces, months, set.sets);
                "omega"
            }
            Command::Lawson { study: st } => {
                study(&mut a, st, &mut plot);
                "lawson"
            }
            Command::Kettimuthu { loads, study: st } => {
                a.loads = loads;
                study(&mut a, st, &mut plot);
                "kettimuthu"
            }
            Command::Leung { study: st } => {
                study(&mut a, st, &mut plot);
                "leung"
            }
            Command::Completions { .. } => "completions",
        };
        (name, a, size)
    }
}
