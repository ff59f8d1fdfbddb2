//! Scheduling policies: one file per family behind the engine's [`Policy`] trait, and the
//! registry that turns a name plus `KEY=VALUE` settings into a configured policy.
//!
//! Named policies are presets of a family's options: `easy` is backfilling with one
//! reservation, `conservative` with a reservation for every job, and so on. Names and keys
//! are matched case-insensitively with `-` and `_` equivalent (see [`crate::keys`]).

pub mod backfill;

use std::collections::BTreeMap;

use serde::Serialize;

pub use crate::engine::Policy;
use crate::keys::{normalize, parse_choice, parse_num, KeyError};
use crate::trace::Trace;
use backfill::{Backfill, BackfillOptions, Order};

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
];

/// Every policy this build knows, in the order `--policy all` runs them.
pub const POLICIES: &[PolicyInfo] = &[
    PolicyInfo {
        name: "fcfs",
        family: "backfill",
        summary: "first come first served, no backfilling: the baseline of every paper (Kettimuthu ch. 2)",
        defaults: &[("k", "0"), ("backfill", "none")],
    },
    PolicyInfo {
        name: "fffs",
        family: "backfill",
        summary: "first fit: start any waiting job that fits, in queue order, no reservations (Ward et al.)",
        defaults: &[("k", "0"), ("backfill", "queue")],
    },
    PolicyInfo {
        name: "bffs",
        family: "backfill",
        summary: "best fit: widest waiting job that fits first, no reservations (Ward et al.)",
        defaults: &[("k", "0"), ("backfill", "best_fit")],
    },
    PolicyInfo {
        name: "wffs",
        family: "backfill",
        summary: "worst fit: narrowest waiting job that fits first, no reservations (Ward et al.)",
        defaults: &[("k", "0"), ("backfill", "worst_fit")],
    },
    PolicyInfo {
        name: "easy",
        family: "backfill",
        summary: "EASY: aggressive backfilling, one reservation for the head job (Lifka; Kettimuthu 2.1.2)",
        defaults: &[("k", "1"), ("backfill", "queue")],
    },
    PolicyInfo {
        name: "easy-sjbf",
        family: "backfill",
        summary: "EASY with shortest-job-backfilled-first (Tsafrir et al.)",
        defaults: &[("k", "1"), ("backfill", "sjbf")],
    },
    PolicyInfo {
        name: "conservative",
        family: "backfill",
        summary:
            "conservative backfilling: a reservation for every job, compressed when jobs end early (Kettimuthu 2.1.1)",
        defaults: &[("k", "inf"), ("backfill", "queue")],
    },
];

/// Looks a policy up by name (case-insensitive, `-` = `_`).
pub fn find(name: &str) -> Option<&'static PolicyInfo> {
    let n = normalize(name);
    POLICIES.iter().find(|p| normalize(p.name) == n)
}

/// The option keys a family takes.
pub fn family_options(family: &str) -> &'static [OptionDoc] {
    match family {
        "backfill" => BACKFILL_OPTIONS,
        _ => &[],
    }
}

/// A policy name with its full set of option values: enough to build it, and to print.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Configured {
    /// Canonical policy name.
    pub policy: &'static str,
    /// Family.
    #[serde(skip)]
    pub family: &'static str,
    /// Every option value, preset values overridden by settings.
    pub options: BTreeMap<String, String>,
    /// The options parsed for the family.
    #[serde(skip)]
    backfill: BackfillOptions,
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

impl Configured {
    /// The preset `name` with `settings` applied; settings whose key the family does not take
    /// are ignored (the caller checks that every key was taken by someone).
    pub fn new(name: &str, settings: &[(String, String)]) -> Result<Self, PolicyError> {
        let info = find(name).ok_or_else(|| PolicyError::Unknown(name.to_string()))?;
        let mut options: BTreeMap<String, String> =
            info.defaults.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let keys = family_options(info.family);
        for (k, v) in settings {
            if keys.iter().any(|d| d.key == k) {
                options.insert(k.clone(), v.clone());
            }
        }
        let backfill = backfill_options(&options).map_err(PolicyError::Option)?;
        Ok(Configured { policy: info.name, family: info.family, options, backfill })
    }

    /// Builds the policy for `trace`.
    pub fn build(&self, trace: &Trace) -> Box<dyn Policy> {
        let origin = trace.jobs.first().map_or(0, |j| j.submit);
        // Every family so far is "backfill".
        Box::new(Backfill::new(self.backfill, trace.machine, trace.jobs.len(), origin))
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
    Ok(BackfillOptions { k, order })
}
