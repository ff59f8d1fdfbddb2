//! Selective preemption (Kettimuthu et al. 2003): selective suspension (SS), tunable selective
//! suspension (TSS), immediate service (IS), and NS, EASY without suspension, as the baseline.
//!
//! A suspended job keeps its processors as its own: it resumes on exactly those
//! ([`System::resume`]), so a job that wants back in must suspend whoever holds them.
//!
//! - **Threshold** (section 3.1): a job's xfactor, (wait + estimate) / estimate, where wait is
//!   the time it has spent not running since submission: it grows while the job waits or is
//!   suspended and is frozen while it runs. The estimate is the scheduler's planned runtime
//!   (the user estimate, or the runtime itself with `runtime=exact`, the thesis's chapter 3).
//! - **SS** (sections 3.2-3.3): idle jobs (waiting or suspended) are taken in decreasing
//!   threshold order. One that fits starts (a suspended one: if its own processors are free),
//!   which is backfilling without reservations. One that does not fit may suspend running jobs
//!   T_j whose threshold is lower by the suspension factor (tau_i > SF x tau_j) and which are at
//!   most twice as wide as it is (n_j <= 2 n_i: the suspender needs at least half the
//!   processors of each job it suspends). A new job takes the candidates lowest threshold
//!   first until enough processors are free, then gives back any it can do without, highest
//!   threshold first: a minimal set (the section 3.3 condition). A suspended job must suspend
//!   exactly the jobs holding its processors, and all of them must be candidates.
//!   The routine runs at every scheduling event and every `period_s` seconds while jobs wait.
//! - **TSS** (section 3.5): a running job can no longer be suspended once its threshold exceeds
//!   `limit_factor` (1.5) x the average bounded slowdown of its category under NS. The category
//!   is the 16-way one of Table 2.1 by planned runtime and width (the scheduler does not know
//!   the actual runtime). The averages come from an NS run of the same trace made when the
//!   policy is built, or from the `limits` option.
//! - **IS** (section 2.3, after Chiang & Vernon): every arriving job gets an immediate slice of
//!   `slice_s` (600) seconds, suspending the running jobs with the lowest instantaneous xfactor,
//!   (wait + work done) / work done, as needed; jobs still within their first `slice_s` seconds
//!   of work are never suspended. After its slice a job runs on as an ordinary job until it ends
//!   or a later arrival suspends it. An arrival that cannot get a slice (too many processors in
//!   protected jobs) waits and tries again at every pass; suspended jobs resume in decreasing
//!   instantaneous xfactor order when their own processors are free.
//! - **Overhead** (section 4.1, `overhead=on`): each suspension and each resume costs the job's
//!   memory per processor / 2 MB/s on its processors. The memory is the trace's (used, else
//!   requested, per processor) when it records one, else drawn uniformly from 100 MB to 1 GB
//!   with the seed.
//!
//! A job killed at its estimate is killed after that much work, however often it is suspended:
//! the engine counts work, not wall time.
//!
//! Ticks skipped: between events nothing changes but the waiting jobs' thresholds, so instead
//! of waking every `period_s` seconds the policy wakes at the first tick at which some idle
//! job's threshold will have crossed what it needs to suspend enough jobs. The schedule is the
//! one a pass at every tick would give.

use crate::engine::{JobIdx, JobView, Policy, System};
use crate::keys::{normalize, parse_choice, parse_num, KeyError};
use crate::metrics::categories::kettimuthu_cell;
use crate::random::{Draws, Stream};

/// Options of the preemption family.
pub const PREEMPT_OPTIONS: &[super::OptionDoc] = &[
    super::OptionDoc {
        key: "mode",
        values: "ns | ss | tss | is",
        doc: "no suspension (EASY), selective suspension, tunable selective suspension, immediate service",
    },
    super::OptionDoc {
        key: "sf",
        values: "number >= 1",
        doc: "suspension factor: an idle job suspends only jobs whose xfactor is lower by this factor (SS, TSS)",
    },
    super::OptionDoc {
        key: "period_s",
        values: "seconds >= 1",
        doc: "the preemption routine runs at every event and every this many seconds while jobs wait (SS, TSS)",
    },
    super::OptionDoc {
        key: "overhead",
        values: "off | on",
        doc: "each suspension and resume costs memory per processor / 2 MB/s on the job's processors",
    },
    super::OptionDoc {
        key: "seed",
        values: "integer >= 0",
        doc: "seed of the memory draws (100 MB - 1 GB per processor) when the trace records no memory",
    },
    super::OptionDoc { key: "slice_s", values: "seconds >= 1", doc: "IS: the immediate slice every arriving job gets" },
    super::OptionDoc {
        key: "limit_factor",
        values: "number > 0",
        doc: "TSS: a job is no longer suspended once its xfactor exceeds this x its category's average slowdown",
    },
    super::OptionDoc {
        key: "limits",
        values: "auto | 16 numbers",
        doc: "TSS: average slowdown per Table 2.1 category (rows VS, S, L, VL; columns Seq, N, W, VW), or auto: from an NS run of the trace",
    },
    super::OptionDoc {
        key: "ticks",
        values: "needed | every",
        doc: "SS, TSS: wake only at the ticks where some waiting job can act, or at every tick while jobs wait (same schedule, slower)",
    },
];

/// Defaults of the preemption family: SS with the thesis's SF = 2 and a one-minute routine.
pub const PREEMPT_DEFAULTS: &[(&str, &str)] = &[
    ("mode", "ss"),
    ("sf", "2"),
    ("period_s", "60"),
    ("overhead", "off"),
    ("seed", "1"),
    ("slice_s", "600"),
    ("limit_factor", "1.5"),
    ("limits", "auto"),
    ("ticks", "needed"),
];

/// Which scheme runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// No suspension: EASY backfilling, the baseline.
    Ns,
    /// Selective suspension.
    Ss,
    /// Tunable selective suspension.
    Tss,
    /// Immediate service.
    Is,
}

/// Where TSS's category averages come from.
#[derive(Debug, Clone, PartialEq)]
pub enum Limits {
    /// From an NS run of the same trace.
    Auto,
    /// Given: average slowdown per category, row-major (VS, S, L, VL) x (Seq, N, W, VW).
    Given(Vec<f64>),
}

/// The family's parsed options.
#[derive(Debug, Clone, PartialEq)]
pub struct PreemptOptions {
    /// The scheme.
    pub mode: Mode,
    /// Suspension factor SF.
    pub sf: f64,
    /// Period of the preemption routine.
    pub period_s: i64,
    /// Whether suspensions and resumes cost time.
    pub overhead: bool,
    /// Seed of the memory draws.
    pub seed: u64,
    /// IS slice.
    pub slice_s: i64,
    /// TSS: the factor on the category average.
    pub limit_factor: f64,
    /// TSS: the category averages.
    pub limits: Limits,
    /// Run the routine at every tick while jobs wait instead of only at the ticks where it
    /// can act (the same schedule, slower: for checking that).
    pub every_tick: bool,
}

impl PreemptOptions {
    /// Parses the options from their text values (`get` returns a key's value).
    pub fn parse(get: &dyn Fn(&str) -> String) -> Result<Self, KeyError> {
        let mode = parse_choice(
            "mode",
            &get("mode"),
            &[("ns", Mode::Ns), ("ss", Mode::Ss), ("tss", Mode::Tss), ("is", Mode::Is)],
        )?;
        let num = |key: &str, lo: f64, why: &str| -> Result<f64, KeyError> {
            let v = get(key);
            let x: f64 = parse_num(key, &v)?;
            if x.is_finite() && x >= lo && x <= 1e6 {
                Ok(x)
            } else {
                Err(KeyError::new(key, &v, why))
            }
        };
        let secs = |key: &str| -> Result<i64, KeyError> {
            let v = get(key);
            let s: i64 = parse_num(key, &v)?;
            if (1..=crate::trace::MAX_TIME).contains(&s) {
                Ok(s)
            } else {
                Err(KeyError::new(key, &v, "must be a number of seconds >= 1"))
            }
        };
        let sf = num("sf", 1.0, "must be a number from 1 to 10^6")?;
        let limit_factor = num("limit_factor", 1e-9, "must be a number above 0")?;
        let lv = get("limits");
        let limits = if normalize(&lv) == "auto" {
            Limits::Auto
        } else {
            let mut v = Vec::new();
            for part in lv.split(',').map(str::trim) {
                let x: f64 = parse_num("limits", part)?;
                if !(x.is_finite() && x >= 1.0) {
                    return Err(KeyError::new("limits", &lv, "slowdowns are numbers >= 1"));
                }
                v.push(x);
            }
            if v.len() != 16 {
                return Err(KeyError::new("limits", &lv, "needs 16 numbers (4 length x 4 width classes) or auto"));
            }
            Limits::Given(v)
        };
        let sv = get("seed");
        Ok(PreemptOptions {
            mode,
            sf,
            period_s: secs("period_s")?,
            overhead: parse_choice(
                "overhead",
                &get("overhead"),
                &[("off", false), ("no", false), ("false", false), ("on", true), ("yes", true), ("true", true)],
            )?,
            seed: parse_num("seed", &sv)?,
            slice_s: secs("slice_s")?,
            limit_factor,
            limits,
            every_tick: parse_choice("ticks", &get("ticks"), &[("needed", false), ("every", true)])?,
        })
    }
}

/// Memory per processor in MB of `job`: the trace's, else drawn from 100 MB to 1 GB.
pub fn memory_mb(job: &JobView, draws: &Draws) -> f64 {
    if job.memory_kb > 0 {
        job.memory_kb as f64 / 1024.0
    } else {
        100.0 + 900.0 * draws.unit(job.id, Stream::Memory)
    }
}

/// Seconds one suspension or one resume of `job` costs: its memory per processor at 2 MB/s.
pub fn overhead_s(job: &JobView, draws: &Draws) -> i64 {
    (memory_mb(job, draws) / 2.0).ceil() as i64
}

/// The policy: its idle jobs (waiting or suspended) and running jobs with their thresholds.
pub struct Preempt {
    opts: PreemptOptions,
    draws: Draws,
    origin: i64,
    /// TSS: the threshold above which a job of each category is no longer suspended.
    limit: [f64; 16],
    idle: Vec<JobIdx>,
    /// IS: the waiting jobs that have never run, by index (then `idle` holds suspended jobs only).
    unstarted: Vec<JobIdx>,
    /// Running jobs with their thresholds, frozen while they run.
    running: Vec<(f64, JobIdx)>,
    /// Scratch: idle jobs by priority, candidates.
    order: Vec<(f64, JobIdx)>,
    picked: Vec<JobIdx>,
    /// The number of the current pass (SS and TSS), and per job the pass in which it last
    /// started or resumed: a job started in this pass is not suspended in it.
    pass: u32,
    started_in: Vec<u32>,
    /// Scratch: IS's jobs started from one list in the current pass.
    picked_now: Vec<JobIdx>,
    /// Per job: its threshold when it last started or resumed (valid while it runs).
    tau_of: Vec<f64>,
    /// Per suspended job, what its holders allow, kept while they stay the same
    /// ([`Machine::home_version`](crate::engine::Machine::home_version)): the version, whether
    /// every holder may be suspended for it by width and TSS limit, and their highest threshold.
    held_summary: Vec<(u64, bool, f64)>,
}

/// The xfactor of a job that has waited `wait` seconds, with planned runtime `est`.
fn xfactor(wait: i64, est: i64) -> f64 {
    let e = est.max(1) as f64;
    (wait.max(0) as f64 + e) / e
}

impl Preempt {
    /// The policy for a trace of `jobs` jobs on `machine` processors starting at `origin`;
    /// `averages` are TSS's category averages (row-major, as [`Limits::Given`]).
    pub fn new(opts: PreemptOptions, averages: &[f64; 16], _machine: u32, jobs: usize, origin: i64) -> Self {
        let mut limit = [f64::INFINITY; 16];
        if opts.mode == Mode::Tss {
            for (l, a) in limit.iter_mut().zip(averages) {
                *l = opts.limit_factor * a;
            }
        }
        Preempt {
            draws: Draws::new(opts.seed),
            opts,
            origin,
            limit,
            idle: Vec::new(),
            unstarted: Vec::new(),
            running: Vec::new(),
            order: Vec::new(),
            picked: Vec::new(),
            pass: 0,
            started_in: vec![u32::MAX; jobs],
            picked_now: Vec::new(),
            tau_of: vec![f64::INFINITY; jobs],
            held_summary: Vec::new(),
        }
    }

    fn cost(&self, job: &JobView) -> i64 {
        if self.opts.overhead {
            overhead_s(job, &self.draws)
        } else {
            0
        }
    }

    /// The threshold of an idle job now.
    fn tau_idle(sys: &System, job: &JobView) -> f64 {
        xfactor(sys.now() - job.submit - sys.done(job.idx), job.sched_runtime)
    }

    /// IS's priority: (wait + work done) / work done, infinite before any work.
    fn instantaneous(sys: &System, job: &JobView) -> f64 {
        let done = sys.done(job.idx);
        if done <= 0 {
            f64::INFINITY
        } else {
            (sys.now() - job.submit) as f64 / done as f64
        }
    }

    /// Whether the idle job with threshold `tau_i` and width `n_i` may suspend running job `j`
    /// (not one started in this very pass: a later sweep must not undo an earlier one's start;
    /// callers also skip jobs still in their resume overhead, [`System::working`]).
    fn candidate(&self, tau_i: f64, n_i: u32, tau_j: f64, j: &JobView) -> bool {
        tau_i > self.opts.sf * tau_j
            && j.procs <= 2 * n_i
            && tau_j <= self.limit[category(j)]
            && self.started_in[j.idx as usize] != self.pass
    }

    fn start(&mut self, sys: &mut System, idx: JobIdx, tau: f64) -> bool {
        let v = sys.view(idx);
        let ok = if sys.is_suspended(idx) { sys.resume(idx, self.cost(&v)) } else { sys.start(idx) };
        if ok {
            self.running.push((tau, idx));
            self.tau_of[idx as usize] = tau;
            self.started_in[idx as usize] = self.pass;
        }
        ok
    }

    fn suspend_picked(&mut self, sys: &mut System, out: &mut Vec<JobIdx>) {
        for &j in &self.picked {
            let v = sys.view(j);
            if sys.suspend(j, self.cost(&v)) {
                self.running.retain(|&(_, r)| r != j);
                out.push(j);
            }
        }
    }

    /// Whether every processor of the suspended job `idx` is free.
    fn home_free(sys: &System, idx: JobIdx) -> bool {
        sys.machine().home_free(idx)
    }

    /// For the suspended job `v` whose processors are taken: whether every holder may be
    /// suspended for it by width and TSS limit, and the highest threshold among them. A
    /// holder's threshold is frozen while it runs, so the answer holds while the holders do.
    fn summary(&mut self, sys: &System, v: &JobView) -> (bool, f64) {
        let i = v.idx as usize;
        if self.held_summary.is_empty() {
            self.held_summary = vec![(u64::MAX, false, 0.0); self.tau_of.len()];
        }
        let machine = sys.machine();
        let version = machine.home_version(v.idx);
        if self.held_summary[i].0 != version {
            let mut worst = 0.0f64;
            let ok = machine.all_holders(v.idx, &mut |j| {
                let (tau_j, w) = (self.tau_of[j as usize], sys.view(j));
                worst = worst.max(tau_j);
                w.procs <= 2 * v.procs && tau_j <= self.limit[category(&w)]
            });
            // Listing them (the first time) may have started the count: read the version after.
            self.held_summary[i] = (machine.home_version(v.idx), ok, worst);
        }
        let (_, ok, worst) = self.held_summary[i];
        (ok, worst)
    }

    /// Whether `keep` accepts every job running on the suspended job `idx`'s processors, and
    /// some job does: the machine's running count answers at any width.
    fn held_by(sys: &System, idx: JobIdx, keep: &mut dyn FnMut(JobIdx) -> bool) -> bool {
        sys.machine().all_holders(idx, keep)
    }

    /// SS and TSS: one sweep over the idle jobs by decreasing threshold; returns whether it
    /// suspended anything (a later job may then fit in what was left over).
    fn sweep_ss(&mut self, sys: &mut System, fresh: &mut Vec<JobIdx>) -> bool {
        let mut suspended_any = false;
        self.order.clear();
        for &i in &self.idle {
            let v = sys.view(i);
            self.order.push((Self::tau_idle(sys, &v), i));
        }
        self.order.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        // Candidates are scanned lowest threshold first.
        self.running.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
        let order = std::mem::take(&mut self.order);
        for &(tau_i, i) in &order {
            let v = sys.view(i);
            let mut preempted = false;
            if sys.is_suspended(i) {
                if !Self::home_free(sys, i) {
                    // Most passes end here: some holder's threshold is too high.
                    let (ok, worst) = self.summary(sys, &v);
                    if !ok || tau_i <= self.opts.sf * worst {
                        continue;
                    }
                    let all = Self::held_by(sys, i, &mut |j| {
                        self.candidate(tau_i, v.procs, self.tau_of[j as usize], &sys.view(j)) && sys.working(j)
                    });
                    if !all {
                        continue;
                    }
                    // Suspended in the order of the job's processors, which costs its width:
                    // only now that they all go.
                    sys.machine().holders(i, &mut self.picked);
                    self.suspend_picked(sys, fresh);
                    preempted = true;
                }
            } else if v.procs > sys.free() {
                if !self.pick_fewest(sys, tau_i, &v) {
                    continue;
                }
                self.suspend_picked(sys, fresh);
                preempted = true;
            }
            if self.start(sys, i, tau_i) {
                self.idle.retain(|&x| x != i);
                suspended_any |= preempted;
            }
        }
        self.order = order;
        suspended_any
    }

    /// Picks a minimal set of candidates whose processors, with the free ones, make room for
    /// the new job `v`: lowest thresholds first, then any the job can do without given back,
    /// highest threshold first. False if the candidates are not enough.
    fn pick_fewest(&mut self, sys: &System, tau_i: f64, v: &JobView) -> bool {
        let need = v.procs - sys.free();
        let mut sum = 0u32;
        self.picked.clear();
        for &(tau_j, j) in &self.running {
            if tau_i <= self.opts.sf * tau_j {
                break;
            }
            if self.candidate(tau_i, v.procs, tau_j, &sys.view(j)) && sys.working(j) {
                self.picked.push(j);
                sum += sys.view(j).procs;
                if sum >= need {
                    break;
                }
            }
        }
        if sum < need {
            return false;
        }
        self.give_back(sys, need, sum);
        true
    }

    /// Drops from `picked` (whose processors number `sum`) every job the rest can do without
    /// to free `need` processors, the last picked first: the set left is minimal.
    fn give_back(&mut self, sys: &System, need: u32, mut sum: u32) {
        for k in (0..self.picked.len()).rev() {
            let n = sys.view(self.picked[k]).procs;
            if sum - n >= need {
                sum -= n;
                self.picked.remove(k);
            }
        }
    }

    /// SS and TSS: the first tick at which some idle job can suspend enough jobs, if any.
    fn next_crossing(&mut self, sys: &System) -> Option<i64> {
        let now = sys.now();
        let mut best: Option<i64> = None;
        let idle = std::mem::take(&mut self.idle);
        for &i in &idle {
            let v = sys.view(i);
            // The threshold the job must pass: SF x that of the last candidate it needs.
            let mut needed: Option<f64> = None;
            if sys.is_suspended(i) {
                if !Self::home_free(sys, i) {
                    let (ok, worst) = self.summary(sys, &v);
                    needed = ok.then_some(worst);
                }
            } else {
                let need = v.procs.saturating_sub(sys.free());
                let mut sum = 0u32;
                for &(tau_j, j) in &self.running {
                    let w = sys.view(j);
                    if w.procs <= 2 * v.procs && tau_j <= self.limit[category(&w)] {
                        sum += w.procs;
                        if sum >= need {
                            needed = Some(tau_j);
                            break;
                        }
                    }
                }
            }
            let Some(tau_j) = needed else { continue };
            let target = self.opts.sf * tau_j;
            // tau_i(t) = (t - submit - done + est) / est passes `target` after t*.
            let est = v.sched_runtime.max(1) as f64;
            let base = v.submit + sys.done(i);
            let t_star = base as f64 + est * (target - 1.0);
            let p = self.opts.period_s;
            let from = if t_star.is_finite() {
                (t_star.max(now as f64) as i64).min(crate::trace::MAX_TIME * 4)
            } else {
                continue;
            };
            let mut tick = self.origin + ((from - self.origin).div_euclid(p) + 1) * p;
            // Float rounding: step on until the threshold test itself passes at the tick.
            for _ in 0..4 {
                if xfactor(tick - base, v.sched_runtime) > target {
                    break;
                }
                tick += p;
            }
            best = Some(best.map_or(tick, |b: i64| b.min(tick)));
        }
        self.idle = idle;
        best
    }

    fn schedule_ss(&mut self, sys: &mut System) {
        let mut fresh = Vec::new();
        // A sweep that suspended jobs may have left processors over for a job passed before.
        self.pass = self.pass.wrapping_add(1);
        while self.sweep_ss(sys, &mut fresh) {}
        // Jobs suspended in this pass wait from now on; they are not reconsidered in it.
        self.idle.append(&mut fresh);
        self.running.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
        if self.opts.every_tick {
            if !self.idle.is_empty() {
                let p = self.opts.period_s;
                sys.wake_at(self.origin + ((sys.now() - self.origin).div_euclid(p) + 1) * p);
            }
        } else if let Some(t) = self.next_crossing(sys) {
            sys.wake_at(t);
        }
    }

    /// IS: starts or resumes idle job `i` if it can, a new job taking its slice from the
    /// unprotected running jobs (`cands`, rebuilt when `stale`), whose victims go to `fresh`.
    fn start_is(
        &mut self,
        sys: &mut System,
        i: JobIdx,
        cands: &mut Vec<(f64, JobIdx)>,
        stale: &mut bool,
        fresh: &mut Vec<JobIdx>,
    ) -> bool {
        let slice = self.opts.slice_s;
        let v = sys.view(i);
        if sys.is_suspended(i) {
            if !Self::home_free(sys, i) {
                return false;
            }
        } else if v.procs > sys.free() {
            // A job that has never run takes its slice from the unprotected running jobs,
            // lowest instantaneous xfactor first; then gives back what it can do without.
            if *stale {
                cands.clear();
                cands.extend(
                    self.running
                        .iter()
                        .filter(|&&(_, j)| sys.done(j) >= slice && sys.working(j))
                        .map(|&(_, j)| (Self::instantaneous(sys, &sys.view(j)), j)),
                );
                cands.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
                *stale = false;
            }
            let need = v.procs - sys.free();
            let mut sum = 0;
            self.picked.clear();
            for &(_, j) in cands.iter() {
                if sum >= need {
                    break;
                }
                self.picked.push(j);
                sum += sys.view(j).procs;
            }
            if sum < need {
                return false;
            }
            self.give_back(sys, need, sum);
            self.suspend_picked(sys, fresh);
            *stale = true;
        }
        let started = self.start(sys, i, 0.0);
        *stale |= started;
        started
    }

    fn schedule_is(&mut self, sys: &mut System) {
        // Jobs that have never run have an infinite priority and come first, by index. The
        // others are suspended and can only resume on their own processors, which the first
        // group may take but never frees (its victims wait until the next pass): only those
        // whose processors are free after it need ranking, which spares a sort of the queue.
        self.unstarted.sort_unstable();
        let mut order = std::mem::take(&mut self.order);
        let mut fresh = Vec::new();
        // The unprotected running jobs in suspension order. Within a pass they change only when
        // a job starts or is suspended; until then every idle job that cannot get its slice
        // would sort the same list again.
        let mut cands: Vec<(f64, JobIdx)> = Vec::new();
        let mut stale = true;
        let mut started = std::mem::take(&mut self.picked_now);
        started.clear();
        let unstarted = std::mem::take(&mut self.unstarted);
        for &i in &unstarted {
            if self.start_is(sys, i, &mut cands, &mut stale, &mut fresh) {
                started.push(i);
            }
        }
        self.unstarted = unstarted;
        if !started.is_empty() {
            // Both lists are in index order.
            let mut k = 0;
            self.unstarted.retain(|&x| {
                let gone = started.get(k) == Some(&x);
                k += gone as usize;
                !gone
            });
        }
        order.clear();
        for &i in &self.idle {
            if Self::home_free(sys, i) {
                order.push((Self::instantaneous(sys, &sys.view(i)), i));
            }
        }
        // Ties are broken by index, so the unstable sort gives the one order there is.
        order.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        started.clear();
        for &(_, i) in &order {
            if self.start_is(sys, i, &mut cands, &mut stale, &mut fresh) {
                started.push(i);
            }
        }
        if !started.is_empty() {
            self.idle.retain(|x| !started.contains(x));
        }
        self.picked_now = started;
        self.order = order;
        self.idle.append(&mut fresh);
        // A job that could not get its slice tries again when a protected job's slice ends.
        if !self.unstarted.is_empty() {
            let (now, slice) = (sys.now(), self.opts.slice_s);
            let end = self.running.iter().map(|&(_, j)| slice - sys.done(j)).filter(|&left| left > 0).min();
            if let Some(left) = end {
                sys.wake_at(now + left);
            }
        }
    }
}

/// The Table 2.1 category (0-15, row-major) of a job by its planned runtime and width.
fn category(job: &JobView) -> usize {
    let (r, c) = kettimuthu_cell(job.sched_runtime, job.procs);
    r * 4 + c
}

impl Policy for Preempt {
    fn on_arrival(&mut self, job: JobView, _sys: &mut System) {
        match self.opts.mode {
            Mode::Is => self.unstarted.push(job.idx),
            _ => self.idle.push(job.idx),
        }
    }

    fn on_completion(&mut self, job: JobView, _sys: &mut System) {
        if let Some(k) = self.running.iter().position(|r| r.1 == job.idx) {
            self.running.swap_remove(k);
        }
    }

    fn schedule(&mut self, sys: &mut System) {
        match self.opts.mode {
            Mode::Is => self.schedule_is(sys),
            _ => self.schedule_ss(sys),
        }
    }

    fn suspends(&self) -> bool {
        true
    }
}

/// TSS's category averages from an NS run of `trace`: the mean bounded slowdown (10 s) of
/// each Table 2.1 category by planned runtime, row-major; the overall mean for empty ones.
pub fn ns_averages(trace: &crate::trace::Trace) -> [f64; 16] {
    use crate::engine::{simulate, EngineOptions};
    let origin = trace.jobs.first().map_or(0, |j| j.submit);
    let mut ns = super::backfill::Backfill::new(super::easy(), trace.machine, trace.jobs.len(), origin);
    let out = simulate(trace, &mut ns, &EngineOptions::default());
    let recs = crate::metrics::records(trace, &out);
    let (mut sum, mut count) = ([0.0f64; 16], [0u64; 16]);
    let (mut all, mut n) = (0.0, 0u64);
    for (j, r) in trace.jobs.iter().zip(&recs) {
        if r.end < 0 {
            continue;
        }
        let (row, col) = kettimuthu_cell(j.sched_runtime, j.procs);
        let b = r.bsld(10);
        sum[row * 4 + col] += b;
        count[row * 4 + col] += 1;
        all += b;
        n += 1;
    }
    let overall = if n > 0 { all / n as f64 } else { 1.0 };
    std::array::from_fn(|k| if count[k] > 0 { sum[k] / count[k] as f64 } else { overall })
}
