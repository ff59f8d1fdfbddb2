//! Scheduling policies: one file per family behind the engine's [`Policy`] trait, and the
//! registry that turns a name plus `KEY=VALUE` settings into a configured policy.
//!
//! Named policies are presets of a family's options: `easy` is backfilling with one
//! reservation, `conservative` with a reservation for every job, and so on. Names and keys
//! are matched case-insensitively with `-` and `_` equivalent (see [`crate::keys`]).

pub mod backfill;
pub mod custom;
pub mod expr;
pub mod external;
pub mod fairshare;
pub mod multiqueue;
pub mod preempt;
pub mod relaxed;
pub mod slurm;

use std::collections::BTreeMap;

use serde::Serialize;

pub use crate::engine::Policy;
use crate::keys::{normalize, parse_choice, parse_num, KeyError};
use crate::predict::{
    Correction, Fallback, Fullness, HistoryOptions, Metric, PredictAt, PredictOptions, Predictor, Source, WindowType,
    MAX_WINDOW,
};
use crate::trace::Trace;
use backfill::{Backfill, BackfillEnd, BackfillOptions, Order, Reserve};
use custom::{CustomOptions, PriorityOrder, CUSTOM_OWN_DEFAULTS, CUSTOM_OWN_OPTIONS};
use fairshare::{Fairshare, FairshareOptions, FAIRSHARE_DEFAULTS, FAIRSHARE_OPTIONS};
use multiqueue::{MultiQueue, MultiQueueOptions, MULTIQUEUE_DEFAULTS, MULTIQUEUE_OPTIONS};
use preempt::{Limits, Mode, Preempt, PreemptOptions, PREEMPT_DEFAULTS, PREEMPT_OPTIONS};
use relaxed::{QueueClasses, Relaxed, RelaxedOptions, Window};
#[cfg(feature = "whole")]
use slurm::Slurm;
use slurm::{SlurmOptions, SLURM_DEFAULTS, SLURM_OPTIONS};

/// One option a policy family takes.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct OptionDoc {
    /// The key, as in `--set KEY=VALUE`.
    pub key: &'static str,
    /// Accepted values.
    pub values: &'static str,
    /// What it does.
    pub doc: &'static str,
}

/// A named policy: its family, what it is, and the option values that define it.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct PolicyInfo {
    /// Name as users type it (canonical spelling).
    pub name: &'static str,
    /// The family (the file in `src/policy/`).
    pub family: &'static str,
    /// The paper whose presets it belongs to, as the page groups them.
    pub group: &'static str,
    /// One line on what it does and where it comes from.
    pub summary: &'static str,
    /// The preset's option values.
    pub defaults: &'static [(&'static str, &'static str)],
}

/// Options of the backfilling family.
pub const BACKFILL_OPTIONS: &[OptionDoc] = &[
    OptionDoc {
        key: "k",
        values: "0, 1, 2, ... | inf",
        doc: "reservation depth: waiting jobs that hold a reservation (1 = EASY, inf = conservative)",
    },
    OptionDoc {
        key: "backfill",
        values: "none | queue | sjbf | best_fit | worst_fit",
        doc: "order of backfill candidates (none: strict queue order, nothing starts ahead of a waiting job)",
    },
    OptionDoc {
        key: "reserve",
        values: "fcfs | sjf",
        doc: "which waiting jobs get the reservations: the oldest, or the shortest planned (SJF)",
    },
    OptionDoc {
        key: "backfill_end",
        values: "prediction | estimate",
        doc: "a backfill candidate must end before the reservations by its prediction, or by its user estimate (kill time)",
    },
    OptionDoc {
        key: "predict",
        values: "estimate | history | perfect",
        doc: "runtime the scheduler plans with: user estimate, user-history prediction, or true runtime (clairvoyant)",
    },
    OptionDoc { key: "factor", values: "number > 0", doc: "plan with factor x prediction (2 = X2, doubling)" },
    OptionDoc {
        key: "correction",
        values: "none | estimate | gradual | exponential | double",
        doc: "when a job outlives its prediction: keep it, jump to the estimate, +1 min then 15 x 2^(i-2) min, +20%, or double; past the estimate all but double grow gradually",
    },
    OptionDoc { key: "window", values: "1 - 30", doc: "history predictor: how many of the user's last jobs to use" },
    OptionDoc {
        key: "window_type",
        values: "all | immediate | extended",
        doc: "history predictor: the last jobs; only those with the same estimate; same-estimate jobs from the whole history",
    },
    OptionDoc {
        key: "fullness",
        values: "partial | full",
        doc: "history predictor: predict from a partial window, or only from a full one",
    },
    OptionDoc { key: "metric", values: "avg | med | min | max", doc: "history predictor: how the window's runtimes combine" },
    OptionDoc {
        key: "fallback",
        values: "estimate | relative",
        doc: "history predictor without history: the estimate, or the estimate scaled by the user's past accuracy",
    },
    OptionDoc {
        key: "propagation",
        values: "off | on",
        doc: "history predictor: predict waiting jobs again when one of their user's jobs ends",
    },
    OptionDoc {
        key: "predict_at",
        values: "submit | pass",
        doc: "history predictor: predict once at submission, or every waiting job again at each pass after a job ended, from the user's newest runtimes whenever submitted (pyss's EASY++)",
    },
    OptionDoc {
        key: "correction_pass",
        values: "on | off",
        doc: "a correction runs a scheduling pass at once (Fig. 5), or passes run only at arrivals and terminations (pyss, predictsim)",
    },
];

/// Every option of the backfilling family with its default: EASY's values, and Table 12's
/// window for the history predictor (presets such as EASY+ set `correction=estimate` themselves).
const BACKFILL_DEFAULTS: &[(&str, &str)] = &[
    ("k", "1"),
    ("backfill", "queue"),
    ("reserve", "fcfs"),
    ("backfill_end", "prediction"),
    ("predict", "estimate"),
    ("factor", "1"),
    ("correction", "double"),
    ("window", "2"),
    ("window_type", "all"),
    ("fullness", "partial"),
    ("metric", "avg"),
    ("fallback", "estimate"),
    ("propagation", "off"),
    ("predict_at", "submit"),
    ("correction_pass", "on"),
];

/// Options of the relaxed-backfill family (Ward et al.).
pub const RELAXED_OPTIONS: &[OptionDoc] = &[
    OptionDoc { key: "alpha", values: "number", doc: "exponent of the hours waited in the priority (Eq. 1)" },
    OptionDoc { key: "beta", values: "number", doc: "exponent of the runtime in hours (the trace's planning runtime: estimate, or actual with runtime=act)" },
    OptionDoc { key: "gamma", values: "number", doc: "exponent of processors / 32" },
    OptionDoc { key: "r", values: "number > 0", doc: "base of the queue-class factor r^delta" },
    OptionDoc { key: "omega", values: "number >= 0 | inf", doc: "backfill relaxation: window = omega x hpwait (0: none, 1: aggressive, inf: any job that fits)" },
    OptionDoc { key: "dt", values: "seconds >= 0", doc: "priority recalculation grid (0 = at every pass)" },
    OptionDoc {
        key: "queue_classes",
        values: "QUEUE:CLASS,... | *:CLASS | none | header",
        doc: "SWF queue -> class delta (background -1, primary 0, challenge 1, urgent 2); unlisted queues 0 or *; header: from the queue names (urgent 2; high, express, challenge, priority 1; low, standby, scavenge, background -1)",
    },
    OptionDoc {
        key: "runtime",
        values: "est | act",
        doc: "the runtime w of the priority and the backfill test: est (the trace's planning runtime, the user estimate by default) or act (actual runtime, clairvoyant): the paper's Est and Act runs",
    },
    OptionDoc {
        key: "window",
        values: "fig2 | text",
        doc: "fig2: backfill if the job completes within omega x hpwait; text: if it delays the top job by at most (omega - 1) x its runtime",
    },
];

/// Defaults of the relaxed family: the paper's experiment (Eq. 1 with alpha 1, beta -1, gamma 1, r 10).
const RELAXED_DEFAULTS: &[(&str, &str)] = &[
    ("alpha", "1"),
    ("beta", "-1"),
    ("gamma", "1"),
    ("r", "10"),
    ("omega", "2"),
    ("dt", "60"),
    ("queue_classes", "none"),
    ("runtime", "est"),
    ("window", "fig2"),
];

/// Group of the priority presets with relaxed backfilling.
pub const GROUP_RELAXED: &str = "Priorities and relaxed backfill (Ward, Mahood & West 2002)";

/// Group of the multiple-queue presets.
pub const GROUP_MULTIQUEUE: &str = "Multiple-queue backfilling (Lawson & Smirni 2002)";

/// Group of the preemption presets.
pub const GROUP_PREEMPT: &str = "Selective preemption (Kettimuthu et al. 2003)";

/// Group of the fairshare presets.
pub const GROUP_FAIRSHARE: &str = "Fairshare at Sandia (Leung, Sabin & Sadayappan 2010)";

/// Group of Slurm's scheduler on a cluster of nodes.
pub const GROUP_SLURM: &str = "Today's clusters: Slurm on nodes, GPUs and memory";

/// Group of the list-scheduling and backfilling presets every paper shares.
pub const GROUP_CORE: &str = "Backfilling (all papers)";
/// Group of the runtime-prediction presets.
pub const GROUP_PREDICTIONS: &str = "Runtime predictions (Tsafrir, Etsion & Feitelson 2007)";

const HISTORY: (&str, &str) = ("predict", "history");
const PERFECT: (&str, &str) = ("predict", "perfect");
const CORRECT: (&str, &str) = ("correction", "estimate");
const SJBF: (&str, &str) = ("backfill", "sjbf");
const X2: (&str, &str) = ("factor", "2");
const SJF: (&str, &str) = ("reserve", "sjf");
const IMMEDIATE: (&str, &str) = ("window_type", "immediate");
const FULL: (&str, &str) = ("fullness", "full");

/// Every policy this build knows, in the order `--policy all` runs them.
pub const POLICIES: &[PolicyInfo] = &[
    PolicyInfo {
        name: "fcfs",
        family: "backfill",
        group: GROUP_CORE,
        summary: "first come first served, no backfilling: the baseline of every paper (Kettimuthu ch. 2)",
        defaults: &[("k", "0"), ("backfill", "none")],
    },
    PolicyInfo {
        name: "fffs",
        family: "backfill",
        group: GROUP_CORE,
        summary: "first fit: start any waiting job that fits, in queue order, no reservations (Ward et al.)",
        defaults: &[("k", "0"), ("backfill", "queue")],
    },
    PolicyInfo {
        name: "bffs",
        family: "backfill",
        group: GROUP_CORE,
        summary: "best fit: widest waiting job that fits first, no reservations (Ward et al.)",
        defaults: &[("k", "0"), ("backfill", "best_fit")],
    },
    PolicyInfo {
        name: "wffs",
        family: "backfill",
        group: GROUP_CORE,
        summary: "worst fit: narrowest waiting job that fits first, no reservations (Ward et al.)",
        defaults: &[("k", "0"), ("backfill", "worst_fit")],
    },
    PolicyInfo {
        name: "easy",
        family: "backfill",
        group: GROUP_PREDICTIONS,
        summary: "EASY: aggressive backfilling, one reservation for the head job (Lifka; Kettimuthu 2.1.2)",
        defaults: &[("k", "1"), ("backfill", "queue")],
    },
    PolicyInfo {
        name: "perfect",
        family: "backfill",
        group: GROUP_PREDICTIONS,
        summary: "EASY planning with true runtimes (clairvoyant; Tsafrir et al. Fig. 3 \"perfect\")",
        defaults: &[("k", "1"), PERFECT],
    },
    PolicyInfo {
        name: "x2",
        family: "backfill",
        group: GROUP_PREDICTIONS,
        summary: "EASY planning with doubled user estimates (Tsafrir et al. Fig. 3 \"origX2\", Tables 6-7)",
        defaults: &[("k", "1"), X2],
    },
    PolicyInfo {
        name: "easy-pcor",
        family: "backfill",
        group: GROUP_PREDICTIONS,
        summary: "EASY with prediction correction: estimates as predictions, grown gradually past them (Tsafrir et al. Table 2)",
        defaults: &[("k", "1"), CORRECT],
    },
    PolicyInfo {
        name: "easy+",
        family: "backfill",
        group: GROUP_PREDICTIONS,
        summary: "EASY+: mean of the user's last two runtimes as prediction, corrected to the estimate (Tsafrir et al. Table 2)",
        defaults: &[("k", "1"), HISTORY, CORRECT],
    },
    PolicyInfo {
        name: "easy-sjbf",
        family: "backfill",
        group: GROUP_PREDICTIONS,
        summary: "EASY with shortest-job-backfilled-first by user estimate (Tsafrir et al. Table 3)",
        defaults: &[("k", "1"), SJBF],
    },
    PolicyInfo {
        name: "easy++",
        family: "backfill",
        group: GROUP_PREDICTIONS,
        summary: "EASY++: EASY+ with shortest-job-backfilled-first by prediction (Tsafrir et al. Table 3)",
        defaults: &[("k", "1"), HISTORY, CORRECT, SJBF],
    },
    PolicyInfo {
        name: "perfect++",
        family: "backfill",
        group: GROUP_PREDICTIONS,
        summary: "PERFECT++: SJBF with true runtimes (clairvoyant; Tsafrir et al. Table 3)",
        defaults: &[("k", "1"), PERFECT, SJBF],
    },
    PolicyInfo {
        name: "easy++-guarded",
        family: "backfill",
        group: GROUP_PREDICTIONS,
        summary: "EASY++ backfilling only jobs whose user-estimated end is before the reservation, with section 4's predictor (Tsafrir et al. section 4)",
        defaults: &[("k", "1"), HISTORY, CORRECT, SJBF, ("backfill_end", "estimate"), IMMEDIATE, FULL],
    },
    PolicyInfo {
        name: "x2+",
        family: "backfill",
        group: GROUP_PREDICTIONS,
        summary: "X2+: doubled history predictions with correction (Tsafrir et al. Table 7)",
        defaults: &[("k", "1"), HISTORY, CORRECT, X2],
    },
    PolicyInfo {
        name: "x2++",
        family: "backfill",
        group: GROUP_PREDICTIONS,
        summary: "X2++: X2+ with shortest-job-backfilled-first (Tsafrir et al. Table 7)",
        defaults: &[("k", "1"), HISTORY, CORRECT, X2, SJBF],
    },
    PolicyInfo {
        name: "x2-perf",
        family: "backfill",
        group: GROUP_PREDICTIONS,
        summary: "X2 with doubled true runtimes (clairvoyant; Tsafrir et al. Fig. 3 \"perfectX2\", Table 7)",
        defaults: &[("k", "1"), PERFECT, X2],
    },
    PolicyInfo {
        name: "x2++-perf",
        family: "backfill",
        group: GROUP_PREDICTIONS,
        summary: "X2++ with doubled true runtimes (clairvoyant; Tsafrir et al. Table 7)",
        defaults: &[("k", "1"), PERFECT, X2, SJBF],
    },
    PolicyInfo {
        name: "sjf",
        family: "backfill",
        group: GROUP_PREDICTIONS,
        summary: "SJF: reservation and backfilling both shortest user estimate first (Tsafrir et al. Table 6)",
        defaults: &[("k", "1"), SJF, SJBF],
    },
    PolicyInfo {
        name: "sjf+",
        family: "backfill",
        group: GROUP_PREDICTIONS,
        summary: "SJF+: SJF by history predictions with correction (Tsafrir et al. Table 7)",
        defaults: &[("k", "1"), SJF, SJBF, HISTORY, CORRECT],
    },
    PolicyInfo {
        name: "sjf-perf",
        family: "backfill",
        group: GROUP_PREDICTIONS,
        summary: "SJF by true runtimes (clairvoyant; Tsafrir et al. Table 7)",
        defaults: &[("k", "1"), SJF, SJBF, PERFECT],
    },
    PolicyInfo {
        name: "conservative",
        family: "backfill",
        group: GROUP_CORE,
        summary:
            "conservative backfilling: a reservation for every job, compressed when jobs end early (Kettimuthu 2.1.1)",
        defaults: &[("k", "inf"), ("backfill", "queue")],
    },
    PolicyInfo {
        name: "relaxed",
        family: "relaxed",
        group: GROUP_RELAXED,
        summary: "Eq. 1 priorities recalculated every minute, relaxed backfill window omega x hpwait (Ward et al. Fig. 2)",
        defaults: &[],
    },
    PolicyInfo {
        name: "mq-backfill",
        family: "multiqueue",
        group: GROUP_MULTIQUEUE,
        summary: "multiple-queue aggressive backfilling: queues by estimate, one pivot per partition, processor borrowing, speculative runs (Lawson & Smirni Fig. 2)",
        defaults: &[],
    },
    PolicyInfo {
        name: "sq-backfill",
        family: "multiqueue",
        group: GROUP_MULTIQUEUE,
        summary: "single-queue aggressive backfilling with the same speculation, priorities and reservations: Lawson & Smirni's baseline",
        defaults: &[("queues", "1")],
    },
    PolicyInfo {
        name: "ns",
        family: "preempt",
        group: GROUP_PREEMPT,
        summary: "NS: EASY backfilling without suspension, the baseline of the preemption study (Kettimuthu ch. 3)",
        defaults: &[("mode", "ns")],
    },
    PolicyInfo {
        name: "ss",
        family: "preempt",
        group: GROUP_PREEMPT,
        summary: "selective suspension: an idle job suspends running jobs whose xfactor is SF times lower, no reservations (Kettimuthu 3.2-3.3)",
        defaults: &[("mode", "ss")],
    },
    PolicyInfo {
        name: "tss",
        family: "preempt",
        group: GROUP_PREEMPT,
        summary: "tunable selective suspension: SS, but a job past 1.5 x its category's NS average slowdown is not suspended (Kettimuthu 3.5)",
        defaults: &[("mode", "tss")],
    },
    PolicyInfo {
        name: "is",
        family: "preempt",
        group: GROUP_PREEMPT,
        summary: "immediate service: every arrival gets a 10-minute slice at once, suspending the lowest instantaneous xfactor (Kettimuthu 2.3)",
        defaults: &[("mode", "is")],
    },
    PolicyInfo {
        name: "cplant24.nomax.all",
        family: "fairshare",
        group: GROUP_FAIRSHARE,
        summary: "the original CPlant scheduler: no-guarantee backfilling in fairshare order; jobs waiting 24 h enter an FCFS starvation queue whose head gets a reservation (Leung II.A)",
        defaults: &[],
    },
    PolicyInfo {
        name: "cplant72.nomax.all",
        family: "fairshare",
        group: GROUP_FAIRSHARE,
        summary: "CPlant with the starvation queue entered after 72 h (Leung V.E 1)",
        defaults: &[("starve_h", "72")],
    },
    PolicyInfo {
        name: "cplant24.nomax.fair",
        family: "fairshare",
        group: GROUP_FAIRSHARE,
        summary: "CPlant with heavy users barred from the starvation queue (Leung V.B, V.E 2)",
        defaults: &[("starvation", "fair")],
    },
    PolicyInfo {
        name: "cplant24.72max.all",
        family: "fairshare",
        group: GROUP_FAIRSHARE,
        summary: "CPlant with a 72 h maximum runtime: longer jobs run as 72 h segments (Leung V.A, V.E 3)",
        defaults: &[("max_runtime_h", "72")],
    },
    PolicyInfo {
        name: "cplant72.72max.fair",
        family: "fairshare",
        group: GROUP_FAIRSHARE,
        summary: "CPlant with all three changes: 72 h maximum runtime, heavy users barred, starvation after 72 h (Leung V.E 4)",
        defaults: &[("starve_h", "72"), ("starvation", "fair"), ("max_runtime_h", "72")],
    },
    PolicyInfo {
        name: "cons.nomax",
        family: "fairshare",
        group: GROUP_FAIRSHARE,
        summary: "conservative backfilling in fairshare order: a reservation per job at arrival, improved in fairshare order (Leung V.C)",
        defaults: &[("reservations", "conservative")],
    },
    PolicyInfo {
        name: "cons.72max",
        family: "fairshare",
        group: GROUP_FAIRSHARE,
        summary: "conservative backfilling in fairshare order with a 72 h maximum runtime (Leung V.E 6)",
        defaults: &[("reservations", "conservative"), ("max_runtime_h", "72")],
    },
    PolicyInfo {
        name: "consdyn.nomax",
        family: "fairshare",
        group: GROUP_FAIRSHARE,
        summary: "conservative backfilling with dynamic reservations: all rebuilt in fairshare order at every event (Leung V.D)",
        defaults: &[("reservations", "dynamic")],
    },
    PolicyInfo {
        name: "consdyn.72max",
        family: "fairshare",
        group: GROUP_FAIRSHARE,
        summary: "dynamic reservations with a 72 h maximum runtime (Leung V.E 8)",
        defaults: &[("reservations", "dynamic"), ("max_runtime_h", "72")],
    },
    PolicyInfo {
        name: "slurm",
        family: "slurm",
        group: GROUP_SLURM,
        summary: "Slurm's scheduler: multifactor priority, the main scheduler per partition and backfill every bf_interval, on the cluster's nodes, GPUs and memory (settings from slurm.conf, else Slurm's defaults)",
        defaults: &[],
    },
    PolicyInfo {
        name: "easy-cluster",
        family: "slurm",
        group: GROUP_SLURM,
        summary: "EASY on every resource: first come, first served on the cluster's nodes, the first waiting job holding a reservation of its CPUs, GPUs and memory while others backfill",
        defaults: &[
            ("scheduler", "backfill"),
            ("priority", "basic"),
            ("bf_interval", "0"),
            ("bf_window", "inf"),
            ("bf_resolution", "1"),
            ("bf_max_job_test", "inf"),
            ("bf_max_job_start", "0"),
            ("bf_max_job_user", "0"),
            ("bf_max_job_part", "0"),
            ("bf_min_prio_reserve", "0"),
            ("bf_min_age_reserve", "0"),
            ("reservations", "1"),
        ],
    },
];

/// Whether a policy that ran with `options` (every option value, as a run's result keeps them)
/// plans with the jobs' true runtimes: a bound to measure against, not a scheduler a site can run.
pub fn is_clairvoyant(options: &BTreeMap<String, String>) -> bool {
    options.get("predict").is_some_and(|v| v == "perfect") || options.get("runtime").is_some_and(|v| v == "act")
}

/// How a sentence names a policy: the papers' spelling, and what an acronym stands for where it
/// would otherwise read as a word ("IS (immediate service) cuts ...", not "is cuts ...").
pub fn sentence_name(policy: &str) -> String {
    let named = match normalize(policy).as_str() {
        "fcfs" => "FCFS",
        "fffs" => "first fit (fffs)",
        "bffs" => "best fit (bffs)",
        "wffs" => "worst fit (wffs)",
        "easy" => "EASY",
        "perfect" => "PERFECT (EASY with true runtimes)",
        "x2" => "X2",
        "easy_pcor" => "EASY with prediction correction (easy-pcor)",
        "easy+" => "EASY+",
        "easy_sjbf" => "EASY-SJBF",
        "easy++" => "EASY++",
        "perfect++" => "PERFECT++",
        "easy++_guarded" => "guarded EASY++ (easy++-guarded)",
        "x2+" => "X2+",
        "x2++" => "X2++",
        "x2_perf" => "X2 with true runtimes (x2-perf)",
        "x2++_perf" => "X2++ with true runtimes (x2++-perf)",
        "sjf" => "SJF",
        "sjf+" => "SJF+",
        "sjf_perf" => "SJF by true runtimes (sjf-perf)",
        "conservative" => "conservative backfilling",
        "relaxed" => "relaxed backfill",
        "mq_backfill" => "multiple-queue backfilling (mq-backfill)",
        "sq_backfill" => "single-queue backfilling (sq-backfill)",
        "ns" => "NS (no suspension)",
        "ss" => "SS (selective suspension)",
        "tss" => "TSS (tunable selective suspension)",
        "is" => "IS (immediate service)",
        _ => policy,
    };
    named.to_string()
}

/// Looks a policy up by name (case-insensitive, `-` = `_`).
pub fn find(name: &str) -> Option<&'static PolicyInfo> {
    let n = normalize(name);
    POLICIES.iter().chain([&CUSTOM]).find(|p| normalize(p.name) == n)
}

/// Group of the policy users write.
pub const GROUP_CUSTOM: &str = "Your own policy";

/// The policy users write: backfilling ordered by their priority expression. Not among
/// [`POLICIES`]: `--policy all` runs the ones this build ships.
pub const CUSTOM: PolicyInfo = PolicyInfo {
    name: "custom",
    family: "custom",
    group: GROUP_CUSTOM,
    summary: "your own: backfilling in the order of a priority expression (custom:priority=-submit;k=1 is EASY)",
    defaults: &[],
};

/// The backfilling family's options that a custom policy takes: all but `reserve`, which its
/// priority decides.
fn custom_backfill_options() -> impl Iterator<Item = &'static OptionDoc> {
    BACKFILL_OPTIONS.iter().filter(|d| d.key != "reserve")
}

/// The default of option `key` in `family`: the value a preset that does not set it runs with.
pub fn family_default(family: &str, key: &str) -> Option<&'static str> {
    family_defaults(family).iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
}

fn family_defaults(family: &str) -> &'static [(&'static str, &'static str)] {
    static CUSTOM_DEFAULTS: std::sync::OnceLock<Vec<(&str, &str)>> = std::sync::OnceLock::new();
    match family {
        "backfill" => BACKFILL_DEFAULTS,
        "custom" => CUSTOM_DEFAULTS.get_or_init(|| {
            BACKFILL_DEFAULTS.iter().filter(|(k, _)| *k != "reserve").chain(CUSTOM_OWN_DEFAULTS).copied().collect()
        }),
        "relaxed" => RELAXED_DEFAULTS,
        "multiqueue" => MULTIQUEUE_DEFAULTS,
        "preempt" => PREEMPT_DEFAULTS,
        "fairshare" => FAIRSHARE_DEFAULTS,
        "slurm" => SLURM_DEFAULTS,
        _ => &[],
    }
}

/// The option keys a family takes.
pub fn family_options(family: &str) -> &'static [OptionDoc] {
    static CUSTOM_OPTIONS: std::sync::OnceLock<Vec<OptionDoc>> = std::sync::OnceLock::new();
    match family {
        "backfill" => BACKFILL_OPTIONS,
        "custom" => {
            CUSTOM_OPTIONS.get_or_init(|| CUSTOM_OWN_OPTIONS.iter().chain(custom_backfill_options()).copied().collect())
        }
        "relaxed" => RELAXED_OPTIONS,
        "multiqueue" => MULTIQUEUE_OPTIONS,
        "preempt" => PREEMPT_OPTIONS,
        "fairshare" => FAIRSHARE_OPTIONS,
        "slurm" => SLURM_OPTIONS,
        _ => &[],
    }
}

/// A policy name with its full set of option values: enough to build it, and to print.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Configured {
    /// Canonical policy name, or the name a custom policy was given.
    pub policy: String,
    /// Family.
    #[serde(skip)]
    pub family: &'static str,
    /// Every option value, preset values overridden by settings.
    pub options: BTreeMap<String, String>,
    /// The options parsed for the family.
    #[serde(skip)]
    parsed: Parsed,
}

/// A family's parsed options.
#[derive(Debug, Clone, PartialEq)]
enum Parsed {
    Backfill(BackfillOptions),
    Relaxed(RelaxedOptions),
    MultiQueue(MultiQueueOptions),
    Preempt(PreemptOptions),
    Fairshare(FairshareOptions),
    Slurm(SlurmOptions),
    Custom(BackfillOptions, CustomOptions),
}

fn parse_family(family: &str, options: &BTreeMap<String, String>) -> Result<Parsed, KeyError> {
    match family {
        "relaxed" => relaxed_options(options).map(Parsed::Relaxed),
        "multiqueue" => {
            MultiQueueOptions::parse(&|k| options.get(k).cloned().unwrap_or_default()).map(Parsed::MultiQueue)
        }
        "preempt" => PreemptOptions::parse(&|k| options.get(k).cloned().unwrap_or_default()).map(Parsed::Preempt),
        "fairshare" => FairshareOptions::parse(&|k| options.get(k).cloned().unwrap_or_default()).map(Parsed::Fairshare),
        "slurm" => SlurmOptions::parse(&|k| options.get(k).cloned().unwrap_or_default()).map(Parsed::Slurm),
        "custom" => {
            let mut with_reserve = options.clone();
            with_reserve.insert("reserve".into(), "fcfs".into());
            let backfill = backfill_options(&with_reserve)?;
            let own = CustomOptions::parse(&|k| options.get(k).cloned().unwrap_or_default())?;
            Ok(Parsed::Custom(backfill, own))
        }
        _ => backfill_options(options).map(Parsed::Backfill),
    }
}

/// Options given as `(key, value)` pairs, in order.
pub type Settings = Vec<(String, String)>;

/// Splits a policy list at its commas, except those inside parentheses, which belong to a
/// custom policy's expression (`custom:priority=max(wait, 1)`).
pub fn split_policies(names: &str) -> Vec<&str> {
    let (mut out, mut depth, mut from) = (Vec::new(), 0i32, 0);
    for (i, c) in names.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth <= 0 => {
                out.push(names[from..i].trim());
                from = i + 1;
            }
            _ => {}
        }
    }
    out.push(names[from..].trim());
    out.retain(|s| !s.is_empty());
    out
}

/// A policy as written: its name and the options given after a colon, separated by `;` or
/// new lines (`custom: priority = (wait / estimate)^3 * procs; k = 1`).
pub fn split_inline(spec: &str) -> Result<(&str, Settings), PolicyError> {
    let Some((name, rest)) = spec.split_once(':') else { return Ok((spec.trim(), Vec::new())) };
    let mut options = Vec::new();
    for part in rest.split([';', '\n']).map(str::trim).filter(|p| !p.is_empty() && !p.starts_with('#')) {
        let Some((k, v)) = part.split_once('=') else {
            return Err(PolicyError::Option(KeyError::new(
                part,
                "",
                "expected KEY=VALUE (priority=..., k=1, name=...)",
            )));
        };
        options.push((normalize(k), v.trim().to_string()));
    }
    Ok((name.trim(), options))
}

/// Why a policy could not be configured.
#[derive(Debug, Clone, PartialEq)]
pub enum PolicyError {
    /// No policy of that name.
    Unknown(String),
    /// A setting the policy rejects.
    Option(KeyError),
}

impl std::fmt::Display for PolicyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PolicyError::Unknown(n) => {
                let names: Vec<&str> = POLICIES.iter().map(|p| p.name).collect();
                write!(f, "unknown policy {n:?}; known: {}", names.join(", "))
            }
            PolicyError::Option(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PolicyError {}

/// Options as owned strings, later ones replacing earlier ones with the same key. Inserted one
/// by one: collecting into the map would compile a sort for each kind of iterator.
fn string_map<'a>(pairs: impl Iterator<Item = &'a (&'a str, &'a str)>) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    for (k, v) in pairs {
        map.insert(k.to_string(), v.to_string());
    }
    map
}

impl Configured {
    /// The preset `name` with `settings` applied; settings whose key the family does not take
    /// are ignored (the caller checks that every key was taken by someone).
    pub fn new(name: &str, settings: &[(String, String)]) -> Result<Self, PolicyError> {
        Configured::new_among(name, settings, &[])
    }

    /// [`Configured::new`] for a run of several policies whose families are `families`: a key two
    /// of them take (`window`) goes to the one whose values it fits.
    pub fn new_among(spec: &str, settings: &[(String, String)], families: &[&str]) -> Result<Self, PolicyError> {
        let (name, inline) = split_inline(spec)?;
        let info = find(name).ok_or_else(|| PolicyError::Unknown(name.to_string()))?;
        let defaults = string_map(family_defaults(info.family).iter().chain(info.defaults));
        let mut options = defaults.clone();
        let keys = family_options(info.family);
        for (k, v) in settings {
            if !keys.iter().any(|d| d.key == k) {
                continue;
            }
            // The baseline stays single-queue when a run sets the queues of `mq-backfill`.
            if info.name == "sq-backfill" && k == "queues" {
                continue;
            }
            // A key two families take (`window`) goes to those whose values it fits: run with
            // easy++ and relaxed, `window=text` is relaxed's and `window=3` the predictor's.
            let fits = |family: &str| {
                let mut alone = string_map(family_defaults(family).iter());
                alone.insert(k.clone(), v.clone());
                parse_family(family, &alone).is_ok()
            };
            let elsewhere =
                families.iter().any(|f| *f != info.family && family_options(f).iter().any(|d| d.key == k) && fits(f));
            if elsewhere && !fits(info.family) {
                continue;
            }
            options.insert(k.clone(), v.clone());
        }
        // A preset given options of its own is named by them (`slurm:bf_window=1440`), or by
        // its `name=`, so two settings of one preset run side by side.
        let mut own_name = None;
        let inline_given = !inline.is_empty();
        for (k, v) in inline {
            if k == "name" && info.family != "custom" {
                own_name = Some(v.trim().to_string());
                continue;
            }
            if !keys.iter().any(|d| d.key == k) {
                return Err(PolicyError::Option(KeyError::new(&k, &v, format!("{} takes no such option", info.name))));
            }
            options.insert(k, v);
        }
        let parsed = parse_family(info.family, &options).map_err(PolicyError::Option)?;
        let policy = match &parsed {
            Parsed::Custom(_, c) => c.name.clone(),
            _ if own_name.is_some() => own_name.unwrap_or_default(),
            _ if inline_given => spec.split_whitespace().collect::<String>(),
            _ => info.name.to_string(),
        };
        Ok(Configured { policy, family: info.family, options, parsed })
    }

    /// The queue-class mapping this policy runs with on `trace` (every queue 0 for families
    /// without one).
    pub fn queue_classes(&self, trace: &Trace) -> QueueClasses {
        match &self.parsed {
            Parsed::Relaxed(r) => r.classes.resolve(&trace.header),
            Parsed::Backfill(_)
            | Parsed::MultiQueue(_)
            | Parsed::Preempt(_)
            | Parsed::Fairshare(_)
            | Parsed::Slurm(_)
            | Parsed::Custom(..) => QueueClasses::default(),
        }
    }

    /// The multiple-queue options, for a policy of that family (tests build [`MultiQueue`]
    /// directly to look at its partitions).
    pub fn multiqueue_options(&self) -> Option<&MultiQueueOptions> {
        match &self.parsed {
            Parsed::MultiQueue(o) => Some(o),
            _ => None,
        }
    }

    /// The description of a policy decided outside the engine ([`external::External`]), named
    /// `name`, for the runner's results.
    pub fn external(name: &str) -> Self {
        Configured {
            policy: name.to_string(),
            family: "external",
            options: BTreeMap::new(),
            parsed: Parsed::Backfill(easy()),
        }
    }

    /// Builds the policy for `trace`, planning with `predictor`'s runtimes; only the
    /// backfilling family (with the custom policy) plans with predictions.
    pub fn build_with_predictor(
        &self,
        trace: &Trace,
        predictor: Box<dyn Predictor>,
    ) -> Result<Box<dyn Policy>, String> {
        let origin = trace.jobs.first().map_or(0, |j| j.submit);
        let (machine, n) = (trace.machine, trace.jobs.len());
        let backfill = match &self.parsed {
            Parsed::Backfill(o) => Backfill::new(*o, machine, n, origin),
            Parsed::Preempt(o) if o.mode == Mode::Ns => Backfill::new(easy(), machine, n, origin),
            Parsed::Custom(b, c) => Backfill::with_priority(
                *b,
                PriorityOrder::new(c, trace),
                PriorityOrder::backfill(c, trace),
                machine,
                n,
                origin,
            ),
            _ => {
                return Err(format!(
                    "{} does not plan with runtime predictions; predictions work with the backfilling family (easy, conservative, sjf, easy++, custom...)",
                    self.policy
                ))
            }
        };
        Ok(Box::new(backfill.with_predictor(predictor, n)))
    }

    /// Builds the policy for `trace`.
    pub fn build(&self, trace: &Trace) -> Box<dyn Policy> {
        let origin = trace.jobs.first().map_or(0, |j| j.submit);
        match &self.parsed {
            Parsed::Backfill(o) => Box::new(Backfill::new(*o, trace.machine, trace.jobs.len(), origin)),
            Parsed::Relaxed(o) => {
                let classes = o.classes.resolve(&trace.header);
                Box::new(Relaxed::new(o.clone(), classes, trace.machine, trace.jobs.len(), origin))
            }
            Parsed::MultiQueue(o) => Box::new(MultiQueue::new(o.clone(), trace.machine, trace.jobs.len(), origin)),
            Parsed::Preempt(o) if o.mode == Mode::Ns => {
                Box::new(Backfill::new(easy(), trace.machine, trace.jobs.len(), origin))
            }
            Parsed::Preempt(o) => {
                let averages = match &o.limits {
                    Limits::Given(v) => std::array::from_fn(|k| v[k]),
                    Limits::Auto if o.mode == Mode::Tss => preempt::ns_averages(trace),
                    Limits::Auto => [f64::INFINITY; 16],
                };
                Box::new(Preempt::new(o.clone(), &averages, trace.machine, trace.jobs.len(), origin))
            }
            Parsed::Fairshare(o) => Box::new(Fairshare::new(o.clone(), trace)),
            #[cfg(feature = "whole")]
            Parsed::Slurm(o) => Box::new(Slurm::new(o, trace)),
            // The page's start engine leaves Slurm's scheduler to the whole one (its worker sends
            // every slurm run there), and so stays small.
            #[cfg(not(feature = "whole"))]
            Parsed::Slurm(_) => Box::new(Backfill::new(easy(), trace.machine, trace.jobs.len(), origin)),
            Parsed::Custom(b, c) => Box::new(Backfill::with_priority(
                *b,
                PriorityOrder::new(c, trace),
                PriorityOrder::backfill(c, trace),
                trace.machine,
                trace.jobs.len(),
                origin,
            )),
        }
    }

    /// The fairshare options, for a policy of that family.
    pub fn fairshare_options(&self) -> Option<&FairshareOptions> {
        match &self.parsed {
            Parsed::Fairshare(o) => Some(o),
            _ => None,
        }
    }

    /// The preemption options, for a policy of that family.
    pub fn preempt_options(&self) -> Option<&PreemptOptions> {
        match &self.parsed {
            Parsed::Preempt(o) => Some(o),
            _ => None,
        }
    }
}

/// EASY's options: the backfilling family's defaults.
pub fn easy() -> BackfillOptions {
    let defaults = BACKFILL_DEFAULTS.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    match backfill_options(&defaults) {
        Ok(o) => o,
        Err(e) => unreachable!("the backfilling defaults parse: {e}"),
    }
}

/// Parses the backfilling family's options from their text values.
fn backfill_options(options: &BTreeMap<String, String>) -> Result<BackfillOptions, KeyError> {
    let get = |key: &str| options.get(key).map_or("", |s| s.as_str());
    let kv = get("k");
    let k = match normalize(kv).as_str() {
        "inf" | "infinity" | "unlimited" | "all" => None,
        _ => Some(parse_num::<usize>("k", kv)?),
    };
    let order = parse_choice(
        "backfill",
        get("backfill"),
        &[
            ("none", Order::None),
            ("queue", Order::Queue),
            ("sjbf", Order::Sjbf),
            ("best_fit", Order::BestFit),
            ("worst_fit", Order::WorstFit),
        ],
    )?;
    let reserve = parse_choice("reserve", get("reserve"), &[("fcfs", Reserve::Fcfs), ("sjf", Reserve::Sjf)])?;
    let backfill_end = parse_choice(
        "backfill_end",
        get("backfill_end"),
        &[("prediction", BackfillEnd::Prediction), ("estimate", BackfillEnd::Estimate)],
    )?;
    let source = parse_choice(
        "predict",
        get("predict"),
        &[("estimate", Source::Estimate), ("history", Source::History), ("perfect", Source::Perfect)],
    )?;
    let factor: f64 = parse_num("factor", get("factor"))?;
    if !(factor > 0.0 && factor <= 1000.0) {
        return Err(KeyError::new("factor", get("factor"), "must be a number above 0 and at most 1000"));
    }
    let correction = parse_choice(
        "correction",
        get("correction"),
        &[
            ("none", Correction::None),
            ("estimate", Correction::Estimate),
            ("gradual", Correction::Gradual),
            ("exponential", Correction::Exponential),
            ("double", Correction::Double),
        ],
    )?;
    let window: usize = parse_num("window", get("window"))?;
    if !(1..=MAX_WINDOW).contains(&window) {
        return Err(KeyError::new("window", get("window"), "must be 1 to 30"));
    }
    let history = HistoryOptions {
        window,
        window_type: parse_choice(
            "window_type",
            get("window_type"),
            &[
                ("all", WindowType::All),
                ("immediate", WindowType::Immediate),
                ("imm", WindowType::Immediate),
                ("extended", WindowType::Extended),
                ("ext", WindowType::Extended),
            ],
        )?,
        fullness: parse_choice(
            "fullness",
            get("fullness"),
            &[("partial", Fullness::Partial), ("full", Fullness::Full)],
        )?,
        metric: parse_choice(
            "metric",
            get("metric"),
            &[
                ("avg", Metric::Avg),
                ("average", Metric::Avg),
                ("med", Metric::Med),
                ("median", Metric::Med),
                ("min", Metric::Min),
                ("max", Metric::Max),
            ],
        )?,
        fallback: parse_choice(
            "fallback",
            get("fallback"),
            &[
                ("estimate", Fallback::Estimate),
                ("est", Fallback::Estimate),
                ("relative", Fallback::Relative),
                ("rel", Fallback::Relative),
            ],
        )?,
        propagation: parse_choice(
            "propagation",
            get("propagation"),
            &[("off", false), ("no", false), ("false", false), ("on", true), ("yes", true), ("true", true)],
        )?,
    };
    let at =
        parse_choice("predict_at", get("predict_at"), &[("submit", PredictAt::Submit), ("pass", PredictAt::Pass)])?;
    let correction_pass = parse_choice(
        "correction_pass",
        get("correction_pass"),
        &[("off", false), ("no", false), ("false", false), ("on", true), ("yes", true), ("true", true)],
    )?;
    Ok(BackfillOptions {
        k,
        order,
        reserve,
        backfill_end,
        predict: PredictOptions { source, factor, correction, history, at },
        correction_pass,
    })
}

/// Parses the relaxed family's options from their text values.
fn relaxed_options(options: &BTreeMap<String, String>) -> Result<RelaxedOptions, KeyError> {
    let get = |key: &str| options.get(key).map_or("", |s| s.as_str());
    let num = |key: &str| -> Result<f64, KeyError> {
        let v: f64 = parse_num(key, get(key))?;
        if v.is_finite() && v.abs() <= 1000.0 {
            Ok(v)
        } else {
            Err(KeyError::new(key, get(key), "must be a number from -1000 to 1000"))
        }
    };
    let (alpha, beta, gamma, r) = (num("alpha")?, num("beta")?, num("gamma")?, num("r")?);
    if r <= 0.0 {
        return Err(KeyError::new("r", get("r"), "must be above 0"));
    }
    let ov = get("omega");
    let omega = match normalize(ov).as_str() {
        "inf" | "infinity" => f64::INFINITY,
        _ => {
            let o: f64 = parse_num("omega", ov)?;
            if !(o >= 0.0 && o.is_finite()) {
                return Err(KeyError::new("omega", ov, "must be a number >= 0, or inf"));
            }
            o
        }
    };
    let dt: i64 = parse_num("dt", get("dt"))?;
    if !(0..=crate::trace::MAX_TIME).contains(&dt) {
        return Err(KeyError::new("dt", get("dt"), "must be 0 (every pass) or a number of seconds"));
    }
    let classes = QueueClasses::parse(get("queue_classes"))?;
    let window = parse_choice("window", get("window"), &[("fig2", Window::Fig2), ("text", Window::Text)])?;
    let actual = parse_choice("runtime", get("runtime"), &[("est", false), ("act", true)])?;
    Ok(RelaxedOptions { alpha, beta, gamma, r, omega, dt, classes, window, actual })
}
