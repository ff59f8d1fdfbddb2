//! Your own policy: backfilling whose queue order is a priority expression ([`super::expr`]).
//!
//! `custom:priority=(wait / estimate)^3 * procs;k=1` orders the waiting jobs by the
//! expression, highest first, ties by arrival; the first `k` that cannot start hold
//! reservations in that order and the rest backfill around them, tried in that order too
//! (`backfill=queue`, the queue being sorted) or by one of the family's other candidate
//! orders. Everything else is the backfilling family's ([`super::backfill`]): the availability
//! profile, predictions and corrections, the decision log.
//!
//! An expression that reads only the job's own fields (`-submit`, `-estimate * procs`) gives
//! each job one value, computed when the queue is sorted after an arrival; one that reads the
//! time, the queue, free processors or usage is evaluated again for every waiting job at every
//! pass, and when that changes the order its reservations are handed out again in the new one,
//! as SJF's are. A value that is no number (a division by zero, `sqrt(-1)`) stops the
//! simulation with the column of the operator that made it.

use crate::engine::JobView;
use crate::keys::{parse_num, KeyError};
use crate::policy::expr::{Expr, Var, VAR_COUNT};
use crate::policy::fairshare::{Decay, Usage};
use crate::trace::Trace;

/// Options of the custom policy besides the backfilling family's.
pub const CUSTOM_OWN_OPTIONS: &[super::OptionDoc] = &[
    super::OptionDoc {
        key: "priority",
        values: "expression",
        doc: "queue order, highest first: an expression over wait, estimate, prediction, procs, submit, now, user_usage, group_usage, queue, waiting, free, machine with + - * / ^, comparisons, and log, log2, log10, sqrt, exp, pow, min, max, abs, floor, ceil, if",
    },
    super::OptionDoc {
        key: "backfill_priority",
        values: "expression | none",
        doc: "backfill candidates tried highest first by this expression (same variables), instead of the order `backfill` names",
    },
    super::OptionDoc { key: "name", values: "text", doc: "the name the policy's results are shown under" },
    super::OptionDoc {
        key: "usage_half_life_h",
        values: "hours > 0",
        doc: "user_usage and group_usage: processor-seconds of running jobs, halved every this many hours",
    },
];

/// Defaults of the options of [`CUSTOM_OWN_OPTIONS`]: arrival order, which is EASY's with `k=1`.
pub const CUSTOM_OWN_DEFAULTS: &[(&str, &str)] =
    &[("priority", "-submit"), ("backfill_priority", "none"), ("name", "custom"), ("usage_half_life_h", "24")];

/// The parsed options of [`CUSTOM_OWN_OPTIONS`].
#[derive(Debug, Clone, PartialEq)]
pub struct CustomOptions {
    /// The priority expression.
    pub priority: Expr,
    /// The backfill order's expression, if it has its own.
    pub backfill_priority: Option<Expr>,
    /// The name shown.
    pub name: String,
    /// How usage decays.
    pub decay: Decay,
}

impl CustomOptions {
    /// Parses the custom options from `get`, which gives each key's text value.
    pub fn parse(get: &dyn Fn(&str) -> String) -> Result<Self, KeyError> {
        let text = get("priority");
        let priority = Expr::parse(&text).map_err(|e| KeyError::new("priority", &text, e.to_string()))?;
        let text = get("backfill_priority");
        let backfill_priority = match text.trim() {
            "" | "none" => None,
            t => Some(Expr::parse(t).map_err(|e| KeyError::new("backfill_priority", &text, e.to_string()))?),
        };
        let name = get("name").trim().to_string();
        let ok =
            !name.is_empty() && name.len() <= 40 && name.chars().all(|c| c.is_alphanumeric() || "-_+.".contains(c));
        if !ok {
            return Err(KeyError::new("name", &name, "must be 1-40 letters, digits, '-', '_', '+' or '.'"));
        }
        if name != "custom" && super::find(&name).is_some() {
            return Err(KeyError::new("name", &name, "is the name of a built-in policy: choose another"));
        }
        let h: f64 = parse_num("usage_half_life_h", &get("usage_half_life_h"))?;
        if !(h > 0.0 && h <= 1e6) {
            return Err(KeyError::new(
                "usage_half_life_h",
                &get("usage_half_life_h"),
                "must be a number of hours above 0",
            ));
        }
        Ok(CustomOptions {
            priority,
            backfill_priority,
            name,
            decay: Decay { factor: 0.5, period_s: (h * 3600.0).round().max(1.0) as i64 },
        })
    }
}

/// What the expression needs of the moment of a pass.
#[derive(Debug, Clone, Copy)]
pub struct Moment {
    /// The pass's time.
    pub now: i64,
    /// Jobs waiting.
    pub waiting: usize,
    /// Free processors.
    pub free: u32,
    /// The machine's processors.
    pub machine: u32,
}

impl Moment {
    /// The moment for an expression that reads only the job's own fields (and the machine's
    /// size): the queue and free processors are not asked for.
    pub fn fixed(now: i64, machine: u32) -> Moment {
        Moment { now, waiting: 0, free: 0, machine }
    }
}

/// The queue order of a custom policy: its expression, the usage it may read, and the first
/// value that was not a number.
pub struct PriorityOrder {
    /// Which option the expression is, for messages.
    what: &'static str,
    expr: Expr,
    /// Whether the expression reads anything that changes while a job waits.
    dynamic: bool,
    stack: Vec<f64>,
    /// User and group ledgers, if the expression reads them.
    usage: Option<(Usage, Usage)>,
    fault: Option<String>,
}

impl PriorityOrder {
    /// The order of `opts` on `trace`.
    pub fn new(opts: &CustomOptions, trace: &Trace) -> Self {
        PriorityOrder::of("priority", &opts.priority, opts, trace)
    }

    /// The backfill order of `opts` on `trace`, if it has its own expression.
    pub fn backfill(opts: &CustomOptions, trace: &Trace) -> Option<Self> {
        opts.backfill_priority.as_ref().map(|e| PriorityOrder::of("backfill_priority", e, opts, trace))
    }

    fn of(what: &'static str, expr: &Expr, opts: &CustomOptions, trace: &Trace) -> Self {
        let expr = expr.clone();
        let usage = (expr.reads(Var::UserUsage) || expr.reads(Var::GroupUsage))
            .then(|| (Usage::new(trace, opts.decay), Usage::by_group(trace, opts.decay)));
        PriorityOrder { what, dynamic: expr.is_dynamic(), expr, stack: Vec::new(), usage, fault: None }
    }

    /// Whether a job's value may change while it waits.
    pub fn is_dynamic(&self) -> bool {
        self.dynamic
    }

    /// The sort key of `job` (planned runtime `prediction`) at `at`: ascending keys are
    /// descending priorities (infinite ones first or last). No number (NaN) sorts last and is
    /// kept as the fault.
    pub fn key(&mut self, job: &JobView, prediction: i64, at: Moment) -> i64 {
        let mut v = [0.0; VAR_COUNT];
        v[Var::Wait as usize] = (at.now - job.submit) as f64;
        v[Var::Estimate as usize] = job.estimate as f64;
        v[Var::Prediction as usize] = prediction as f64;
        v[Var::Procs as usize] = job.procs as f64;
        v[Var::Submit as usize] = job.submit as f64;
        v[Var::Now as usize] = at.now as f64;
        v[Var::Queue as usize] = job.queue as f64;
        v[Var::Waiting as usize] = at.waiting as f64;
        v[Var::Free as usize] = at.free as f64;
        v[Var::Machine as usize] = at.machine as f64;
        if let Some((users, groups)) = &mut self.usage {
            v[Var::UserUsage as usize] = users.usage(users.user_of(job.idx), at.now);
            v[Var::GroupUsage as usize] = groups.usage(groups.user_of(job.idx), at.now);
        }
        let p = self.expr.eval(&v, &mut self.stack);
        if !p.is_nan() {
            return ordered(-p);
        }
        if self.fault.is_none() {
            let why = match self.expr.eval_checked(&v, &mut self.stack) {
                Err(f) => f.to_string(),
                Ok(x) => format!("the value is {x}"),
            };
            self.fault = Some(format!(
                "the {} {:?} gives no number for job {} at {} s ({why})",
                self.what,
                self.expr.text(),
                job.id,
                at.now
            ));
        }
        i64::MAX
    }

    /// Job `job` started at `t`: its user and group are charged from now on.
    pub fn started(&mut self, job: &JobView, t: i64) {
        if let Some((users, groups)) = &mut self.usage {
            users.start(job.idx, job.procs, t);
            groups.start(job.idx, job.procs, t);
        }
    }

    /// Job `job` ended at `t`.
    pub fn ended(&mut self, job: &JobView, t: i64) {
        if let Some((users, groups)) = &mut self.usage {
            users.stop(job.idx, job.procs, t);
            groups.stop(job.idx, job.procs, t);
        }
    }

    /// The first value that was not a number, said with its column.
    pub fn fault(&self) -> Option<&String> {
        self.fault.as_ref()
    }
}

/// `x` as an integer that orders as `f64::total_cmp` orders the values (0 and -0 alike).
fn ordered(x: f64) -> i64 {
    let x = if x == 0.0 { 0.0 } else { x };
    let bits = x.to_bits() as i64;
    bits ^ (((bits >> 63) as u64) >> 1) as i64
}

#[cfg(test)]
mod tests {
    use super::ordered;

    #[test]
    fn keys_order_as_the_values() {
        let xs = [f64::NEG_INFINITY, -1e300, -2.5, -1.0, -0.0, 0.0, 1e-300, 1.0, 3.5, 1e300, f64::INFINITY];
        for w in xs.windows(2) {
            assert!(ordered(w[0]) <= ordered(w[1]), "{} {}", w[0], w[1]);
        }
        assert_eq!(ordered(-0.0), ordered(0.0));
    }
}
