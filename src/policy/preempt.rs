//! Selective preemption (Kettimuthu et al. 2003): selective suspension (SS), tunable selective
//! suspension (TSS), immediate service (IS), and NS, EASY without suspension, as the baseline.
//!
//! A suspended job keeps its processors as its own: it resumes on exactly those
//! ([`System::resume`]), so a job that wants back in must suspend whoever holds them. Under SS
//! and TSS nobody else starts on them: a new job takes open processors (free, and no suspended
//! job's, [`System::open`]) and the processors of the jobs it has just suspended
//! ([`System::start_taking`]). Were a suspended job's free processors open to any job that
//! fits, a stream of fresh jobs (threshold 1) would hold it out until its threshold passed SF
//! times theirs, a wait of its whole estimate at SF = 2; under load the suspended jobs pile
//! up, free processors no suspended job can use go idle, and the backlog never clears
//! (docs/VALIDATION.md, Kettimuthu).
//!
//! - **Threshold** (section 3.1): a job's xfactor, (wait + estimate) / estimate, where wait is
//!   the time it has spent not running since submission: it grows while the job waits or is
//!   suspended and is frozen while it runs. The estimate is the scheduler's planned runtime
//!   (the user estimate, or the runtime itself with `runtime=exact`, the thesis's chapter 3).
//! - **SS** (sections 3.2-3.3): idle jobs (waiting or suspended) are taken in decreasing
//!   threshold order. One that fits starts (a suspended one: if its own processors are free;
//!   a new one: in open processors), which is backfilling without reservations. One that does not fit may suspend running jobs
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
//!
//! Sleeping suspended jobs: a suspended job turned down because of one holder (one that may
//! not be suspended for it, or the one whose threshold SF times its own does not pass) is
//! turned down again, at the same place in the sweep, for as long as that holder holds its
//! processors and its threshold has not reached theirs. SS and TSS let it sleep until then
//! (the machine says when that holder leaves, [`Machine::watch`]) rather than
//! look at it in every sweep: with thousands of suspended jobs (CEA-Curie) a pass costs what
//! can act, not the whole queue. `ticks=every` looks at every job in every sweep, the
//! straightforward routine the tests hold this one to.
//!
//! Holders found when asked: nothing keeps a list of who holds each suspended job's processors
//! (on CEA-Curie every processor taken would have to tell some twenty suspended jobs). A job's
//! processors are its own for life, so a holder found by an earlier scan that is running still
//! holds them: a job that wakes is first checked against those, and one that still turns it
//! down is enough to sleep again. Otherwise its processors are scanned, up to the first holder
//! that turns it down. The tick asked for after a pass comes from crossing times that may be
//! early (holders may have joined since they were found); when it comes, the earliest
//! crossings are checked by a scan and a pass runs only if some job can act then
//! ([`Policy::on_wake`]).
//!
//! [`Machine::watch`]: crate::engine::Machine::watch

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::engine::{Decision, JobIdx, JobView, Policy, System, Why};
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
        doc: "SS, TSS: wake only at the ticks where some waiting job can act and look only at the jobs that can, or at every tick while jobs wait and at every job (same schedule, slower)",
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
    /// SS and TSS: each suspended idle job's place in the sweeps ([`Sleep`]), by job.
    sleep: Vec<Sleep>,
    /// SS and TSS: a number per job that voids its older entries in `alarms`.
    stamp: Vec<u32>,
    /// SS and TSS: the suspended idle jobs the next sweep looks at.
    awake: Vec<JobIdx>,
    /// SS and TSS: jobs asleep until their threshold may have reached their holders', by
    /// (that time, job, stamp).
    alarms: BinaryHeap<Reverse<(i64, JobIdx, u32)>>,
    /// SS and TSS: when each suspended job's threshold crosses what its holders need, by
    /// (that time rounded down, job, entry number: [`Held::entry`]), for the next wake-up.
    crossings: BinaryHeap<Reverse<(i64, JobIdx, u32)>>,
    /// SS and TSS: suspended idle jobs (those in `idle` are waiting and have never run).
    suspended_idle: usize,
    /// SS and TSS: for each sleeping job, the holder whose leaving wakes it (the one that turned
    /// it down: one that may not be suspended for it, or the highest threshold among the
    /// holders seen).
    watch: Vec<JobIdx>,
    /// SS and TSS: for each suspended job, the holder the machine will tell of its leaving
    /// ([`Machine::watch`](crate::engine::Machine::watch)), or `JobIdx::MAX`: asked once each.
    watched: Vec<JobIdx>,
    /// Scratch: (suspended job, holder that left its processors).
    departures: Vec<(JobIdx, JobIdx)>,
    /// SS and TSS: per suspended job, what its holders allow ([`Held`]).
    held: Vec<Held>,
    /// SS and TSS: per suspended job, the holders of its processors found by the last scan of
    /// them ([`Preempt::scan`]): all of them, or those up to the first that turned it down; the
    /// scan may date from an earlier suspension (the job's processors are the same).
    found: Vec<Vec<JobIdx>>,
    /// SS and TSS: when the last pass ran (the next tick is the first after it).
    last_pass: i64,
    /// Scratch: the processors of the jobs suspended for the job starting.
    room: Vec<u32>,
}

/// What the holders of a suspended job's processors allow it, as last found.
#[derive(Debug, Clone, Copy)]
struct Held {
    /// The machine's [`epoch`](crate::engine::Machine::epoch) when it was found; the answer
    /// holds while no processor changes hands. `u64::MAX`: not found by a whole scan of the
    /// job's processors since they last changed hands (`worst` is then a lower bound).
    epoch: u64,
    /// Whether every holder may be suspended for the job by width and TSS limit.
    ok: bool,
    /// Their highest threshold (a lower bound while `epoch` is `u64::MAX`).
    worst: f64,
    /// The holder that decides: one that may not be suspended, else the highest threshold's.
    decides: JobIdx,
    /// The number of the job's entry in `crossings`; entries with another number are void.
    entry: u32,
    /// Whether that entry is in `crossings` (or being looked at).
    listed: bool,
}

impl Held {
    /// Nothing found yet.
    const NEW: Held = Held { epoch: u64::MAX, ok: false, worst: 0.0, decides: JobIdx::MAX, entry: 0, listed: false };
}

/// Where a suspended idle job stands in SS and TSS's sweeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sleep {
    /// Not a suspended idle job.
    Out,
    /// In `awake`: the next sweep looks at it.
    Awake,
    /// In the sweep under way, not yet looked at.
    Listed,
    /// Turned down by its holders: looked at again when the one it watches leaves, or at its
    /// alarm.
    Asleep,
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
            held: Vec::new(),
            found: Vec::new(),
            last_pass: i64::MIN,
            room: Vec::new(),
            sleep: vec![Sleep::Out; jobs],
            stamp: vec![0; jobs],
            awake: Vec::new(),
            alarms: BinaryHeap::new(),
            crossings: BinaryHeap::new(),
            suspended_idle: 0,
            watch: vec![JobIdx::MAX; jobs],
            watched: vec![JobIdx::MAX; jobs],
            departures: Vec::new(),
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
        tau_i > self.opts.sf * tau_j && self.suspendable(n_i, tau_j, j) && self.started_in[j.idx as usize] != self.pass
    }

    /// Whether running job `j` (threshold `tau_j`) may ever be suspended for a job of width
    /// `n_i`, whatever that job's threshold: at most twice as wide, and within its TSS limit.
    fn suspendable(&self, n_i: u32, tau_j: f64, j: &JobView) -> bool {
        j.procs <= 2 * n_i && tau_j <= self.limit[category(j)]
    }

    /// Starts or resumes job `idx` with threshold `tau`; `preempted` says it suspended jobs for it.
    fn start(&mut self, sys: &mut System, idx: JobIdx, tau: f64, preempted: bool) -> bool {
        let v = sys.view(idx);
        let resuming = sys.is_suspended(idx);
        let ok = if resuming {
            sys.resume(idx, self.cost(&v))
        } else if self.opts.mode == Mode::Is {
            sys.start(idx)
        } else {
            // The processors of the jobs it has just suspended, if any, then open ones only.
            self.room.clear();
            if preempted {
                for &j in &self.picked {
                    self.room.extend_from_slice(sys.machine().held(j));
                }
            }
            sys.start_taking(idx, &self.room)
        };
        if ok && sys.explaining() {
            let xfactor = if self.opts.mode == Mode::Is { Self::instantaneous(sys, &v) } else { tau };
            sys.explain(|| match (resuming, preempted) {
                (true, _) => Decision::Resumed { job: idx, xfactor },
                (false, true) => Decision::Started { job: idx, why: Why::Preempting { xfactor } },
                (false, false) => Decision::Started { job: idx, why: Why::Free },
            });
        }
        if ok {
            self.running.push((tau, idx));
            self.tau_of[idx as usize] = tau;
            self.started_in[idx as usize] = self.pass;
        }
        ok
    }

    /// Suspends the picked jobs to make room for job `for_job` (threshold `tau`).
    fn suspend_picked(&mut self, sys: &mut System, out: &mut Vec<JobIdx>, for_job: JobIdx, tau: f64) {
        for &j in &self.picked {
            let v = sys.view(j);
            let xfactor = self.tau_of[j as usize];
            if sys.suspend(j, self.cost(&v)) {
                let for_xfactor =
                    if self.opts.mode == Mode::Is { Self::instantaneous(sys, &sys.view(for_job)) } else { tau };
                sys.explain(|| Decision::Suspended { job: j, xfactor, for_job, for_xfactor });
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
    /// suspended for it by width and TSS limit, the highest threshold among them, and the
    /// holder that decides (one that may not be suspended, else the highest threshold's). A
    /// holder's threshold is frozen while it runs, so the answer holds while the holders do;
    /// it is found anew (a scan of the job's processors) once processors have changed hands.
    /// When the crossing time it gives changes, the job's entry in `crossings` is replaced.
    fn summary(&mut self, sys: &System, v: &JobView) -> (bool, f64, JobIdx) {
        self.scan(sys, v, None)
    }

    /// [`Preempt::summary`]; with the job's threshold `tau_i`, the scan stops at the first
    /// holder that turns it down, and `worst` may then be a lower bound.
    fn scan(&mut self, sys: &System, v: &JobView, tau_i: Option<f64>) -> (bool, f64, JobIdx) {
        let i = v.idx as usize;
        if self.held.is_empty() {
            self.held = vec![Held::NEW; self.tau_of.len()];
        }
        let machine = sys.machine();
        let epoch = machine.epoch();
        let h = self.held[i];
        if h.epoch != epoch {
            if self.found.is_empty() {
                self.found = vec![Vec::new(); self.tau_of.len()];
            }
            let mut holders = std::mem::take(&mut self.found[i]);
            let (mut ok, mut worst, mut top, mut bad) = (true, 0.0f64, JobIdx::MAX, JobIdx::MAX);
            let mut partial = false;
            machine.holders_until(v.idx, &mut holders, &mut |j| {
                let (tau_j, w) = (self.tau_of[j as usize], sys.view(j));
                if top == JobIdx::MAX || tau_j > worst {
                    top = j;
                }
                worst = worst.max(tau_j);
                if !self.suspendable(v.procs, tau_j, &w) {
                    (ok, bad) = (false, j);
                    return true;
                }
                partial = tau_i.is_some_and(|t| t <= self.opts.sf * tau_j);
                partial
            });
            self.found[i] = holders;
            let decides = if ok { top } else { bad };
            self.list(sys, v, ok, worst);
            let h = &mut self.held[i];
            // One holder that may not be suspended is the whole answer; a highest threshold
            // is one only when every holder was seen.
            (h.epoch, h.decides) = (if partial { u64::MAX } else { epoch }, decides);
            if self.sleep[i] == Sleep::Asleep {
                // Asked while asleep (for the next crossing): the holder that decides now is
                // the one to wait for. As long as it stays the job is turned down as before,
                // and its leaving must wake it even if the one it waited for has not left.
                self.wait_for(sys, v.idx, decides);
            }
        }
        let h = &self.held[i];
        (h.ok, h.worst, h.decides)
    }

    /// Records that the holders of suspended job `v` allow it `ok` with highest threshold
    /// `worst` (or at least that), replacing its entry in `crossings` if its crossing moved.
    /// What is recorded is taken as found by no scan ([`Held::epoch`]) until the caller says.
    fn list(&mut self, sys: &System, v: &JobView, ok: bool, worst: f64) {
        let mut h = self.held[v.idx as usize];
        let crossing = if ok { self.crossing(sys, v, worst) } else { None };
        match crossing {
            Some(t) if !h.listed || worst != h.worst => {
                h.entry = h.entry.wrapping_add(1);
                h.listed = true;
                self.crossings.push(Reverse((t.floor() as i64, v.idx, h.entry)));
            }
            Some(_) => {}
            None => {
                h.entry = h.entry.wrapping_add(1);
                h.listed = false;
            }
        }
        (h.epoch, h.ok, h.worst) = (u64::MAX, ok, worst);
        self.held[v.idx as usize] = h;
    }

    /// A holder found by the last scan of suspended job `v`'s processors that still turns it
    /// down (threshold `tau_i`): one that may not be suspended for it, else the one with the
    /// highest threshold, if SF times that is not passed. A running job keeps its processors,
    /// so one found there that runs still holds them (this family starts jobs with
    /// [`System::start`] only, never with a limit or in segments, so a job's processors are its
    /// own for life); new holders can only add to the answer.
    /// Returns what [`Preempt::summary`] does, `worst` a lower bound; `None` if none does.
    fn known_holder(&self, sys: &System, v: &JobView, tau_i: f64) -> Option<(bool, f64, JobIdx)> {
        let mut top: Option<(f64, JobIdx)> = None;
        for &j in self.found.get(v.idx as usize)? {
            if !sys.is_running(j) {
                continue;
            }
            let (tau_j, w) = (self.tau_of[j as usize], sys.view(j));
            if !self.suspendable(v.procs, tau_j, &w) {
                return Some((false, tau_j, j));
            }
            if top.is_none_or(|(t, _)| tau_j > t) {
                top = Some((tau_j, j));
            }
        }
        let (worst, j) = top?;
        (tau_i <= self.opts.sf * worst).then_some((true, worst, j))
    }

    /// Suspended job `i` waits for `holder` to leave its processors: the machine tells.
    fn wait_for(&mut self, sys: &System, i: JobIdx, holder: JobIdx) {
        self.watch[i as usize] = holder;
        if self.watched[i as usize] != holder {
            self.watched[i as usize] = holder;
            sys.machine().watch(i, holder);
        }
    }

    /// When the threshold of idle job `v` passes SF x `worst` (the highest threshold it must
    /// beat): the time t* at which (t - submit - done + est) / est reaches it; `None` if never.
    fn crossing(&self, sys: &System, v: &JobView, worst: f64) -> Option<f64> {
        let target = self.opts.sf * worst;
        let est = v.sched_runtime.max(1) as f64;
        let base = v.submit + sys.done(v.idx);
        let t_star = base as f64 + est * (target - 1.0);
        t_star.is_finite().then_some(t_star)
    }

    /// Puts suspended idle job `i` in `awake`, for the next sweep.
    fn rouse(&mut self, i: JobIdx) {
        if matches!(self.sleep[i as usize], Sleep::Asleep) {
            self.sleep[i as usize] = Sleep::Awake;
            self.awake.push(i);
        }
    }

    /// Suspended idle job `v` was turned down by its holders: it sleeps until `decides` leaves
    /// its processors or, with `worst` (their highest threshold), until its own threshold may
    /// have passed SF x it. No other holder's leaving can change the answer.
    fn doze(&mut self, sys: &System, v: &JobView, worst: Option<f64>, decides: JobIdx) {
        let i = v.idx as usize;
        self.sleep[i] = Sleep::Asleep;
        self.wait_for(sys, v.idx, decides);
        self.stamp[i] = self.stamp[i].wrapping_add(1);
        if self.opts.every_tick {
            // The straightforward routine: every job is looked at in every sweep.
            self.rouse(v.idx);
            return;
        }
        let Some(worst) = worst else { return };
        let Some(t_star) = self.crossing(sys, v, worst) else { return };
        // The first second the threshold test can pass: the test is monotone in time, so a
        // second at which it fails bounds the crossing from below, whatever the rounding.
        let target = self.opts.sf * worst;
        let base = v.submit + sys.done(v.idx);
        let lo = (t_star.min((crate::trace::MAX_TIME * 4) as f64) as i64 - 2).max(sys.now());
        let at = if xfactor(lo - base, v.sched_runtime) > target { sys.now() + 1 } else { lo + 1 };
        self.alarms.push(Reverse((at, v.idx, self.stamp[i])));
    }

    /// The sleeping jobs whose deciding holder left (or whose processors are all free now), for
    /// a sweep under way at position `k` of `order` (`None` between sweeps): one not yet passed
    /// joins the sweep at its place, one passed is looked at in the next sweep.
    fn take_departures(&mut self, sys: &System, order: &mut Vec<(f64, JobIdx)>, k: Option<usize>) {
        let mut departures = std::mem::take(&mut self.departures);
        sys.machine().take_departures(&mut departures);
        let mut joining = Vec::new();
        for &(c, left) in &departures {
            if self.watched[c as usize] == left {
                self.watched[c as usize] = JobIdx::MAX;
            }
            if self.sleep[c as usize] != Sleep::Asleep || (self.watch[c as usize] != left && !Self::home_free(sys, c)) {
                continue;
            }
            let key = (Self::tau_idle(sys, &sys.view(c)), c);
            match k {
                Some(k) if k == 0 || b_before(&order[k - 1], &key) => {
                    joining.push(key);
                    self.sleep[c as usize] = Sleep::Listed;
                }
                _ => self.rouse(c),
            }
        }
        if let (Some(k), false) = (k, joining.is_empty()) {
            // Merged into the rest of the sweep, which is in sweep order.
            joining.sort_unstable_by(sweep_order);
            let rest = order.split_off(k);
            let (mut a, mut b) = (rest.into_iter().peekable(), joining.into_iter().peekable());
            while let (Some(x), Some(y)) = (a.peek(), b.peek()) {
                let next = if b_before(y, x) { b.next() } else { a.next() };
                order.extend(next);
            }
            order.extend(a);
            order.extend(b);
        }
        self.departures = departures;
    }

    /// SS and TSS: one sweep, by decreasing threshold, over the idle jobs that can act: the
    /// waiting jobs that never ran, and the suspended jobs that are awake; returns whether it
    /// suspended anything (a later job may then fit in what was left over).
    /// One sweep of SS over the idle jobs; true if it suspended jobs (another sweep may then
    /// start jobs passed before). `first`: the pass's first sweep, which the decision log shows
    /// the queue of.
    fn sweep_ss(&mut self, sys: &mut System, fresh: &mut Vec<JobIdx>, first: bool) -> bool {
        let now = sys.now();
        while let Some(&Reverse((t, i, stamp))) = self.alarms.peek() {
            if t > now {
                break;
            }
            self.alarms.pop();
            if self.stamp[i as usize] == stamp {
                self.rouse(i);
            }
        }
        let mut order = std::mem::take(&mut self.order);
        order.clear();
        self.take_departures(sys, &mut order, None);
        let mut suspended_any = false;
        for &i in self.idle.iter().chain(&self.awake) {
            let v = sys.view(i);
            order.push((Self::tau_idle(sys, &v), i));
        }
        for i in self.awake.drain(..) {
            self.sleep[i as usize] = Sleep::Listed;
        }
        order.sort_unstable_by(sweep_order);
        if sys.explaining() && (first || !order.is_empty()) {
            let (queue, free) = (order.iter().map(|o| o.1).collect(), sys.free() as i64);
            sys.explain(|| Decision::Queue { order: queue, free });
        }
        // Candidates are scanned lowest threshold first.
        self.running.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
        let mut k = 0;
        while k < order.len() {
            let (tau_i, i) = order[k];
            k += 1;
            let v = sys.view(i);
            let mut preempted = false;
            let suspended = sys.is_suspended(i);
            if suspended {
                if !Self::home_free(sys, i) {
                    // Most jobs end here: some holder's threshold is too high.
                    // Mostly one found before still holds its processors: no scan of them.
                    // `ticks=every`, the reference, always scans them all.
                    let known = if self.opts.every_tick { None } else { self.known_holder(sys, &v, tau_i) };
                    let (ok, worst, decides) = match known {
                        Some((ok, worst, j)) => {
                            self.list(sys, &v, ok, worst);
                            (ok, worst, j)
                        }
                        None => self.scan(sys, &v, (!self.opts.every_tick).then_some(tau_i)),
                    };
                    if !ok || tau_i <= self.opts.sf * worst {
                        self.doze(sys, &v, ok.then_some(worst), decides);
                        continue;
                    }
                    // Suspended in the order of the job's processors.
                    sys.machine().holders(i, &mut self.picked);
                    let all = self.picked.iter().all(|&j| {
                        self.candidate(tau_i, v.procs, self.tau_of[j as usize], &sys.view(j)) && sys.working(j)
                    });
                    if !all {
                        // Turned down for what this pass did (or a resume still under way).
                        self.sleep[i as usize] = Sleep::Asleep;
                        self.rouse(i);
                        continue;
                    }
                    self.suspend_picked(sys, fresh, i, tau_i);
                    preempted = true;
                }
            } else if v.procs > sys.open() {
                if !self.pick_fewest(sys, tau_i, &v) {
                    if sys.explaining() {
                        let text = format!(
                            "it needs {} processors and {} are free{}, and too few are held by running jobs it may suspend: those with an xfactor below {:.2} (its own, {:.2}, divided by the suspension factor {})",
                            v.procs,
                            sys.open(),
                            if sys.open() < sys.free() { " (others are kept for suspended jobs)" } else { "" },
                            tau_i / self.opts.sf,
                            tau_i,
                            self.opts.sf
                        );
                        sys.explain(|| Decision::Waits { job: i, why: Why::Other { text } });
                    }
                    continue;
                }
                self.suspend_picked(sys, fresh, i, tau_i);
                preempted = true;
            }
            let started = self.start(sys, i, tau_i, preempted);
            if started {
                if suspended {
                    self.sleep[i as usize] = Sleep::Out;
                    self.suspended_idle -= 1;
                } else {
                    self.idle.retain(|&x| x != i);
                }
                suspended_any |= preempted;
            } else if suspended {
                self.sleep[i as usize] = Sleep::Asleep;
                self.rouse(i);
            }
            if preempted || started {
                self.take_departures(sys, &mut order, Some(k));
            }
        }
        self.order = order;
        suspended_any
    }

    /// Picks a minimal set of candidates whose processors, with the free ones, make room for
    /// the new job `v`: lowest thresholds first, then any the job can do without given back,
    /// highest threshold first. False if the candidates are not enough.
    fn pick_fewest(&mut self, sys: &System, tau_i: f64, v: &JobView) -> bool {
        let need = v.procs - sys.open();
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

    /// SS and TSS: the first tick after the last pass at which some idle job can suspend
    /// enough jobs, if any; not `exact`, a tick no later than that, found without scanning the
    /// processors of suspended jobs whose holders may have changed ([`Policy::on_wake`] checks).
    fn next_crossing(&mut self, sys: &System, exact: bool) -> Option<i64> {
        let now = self.last_pass;
        let p = self.opts.period_s;
        let max_from = crate::trace::MAX_TIME * 4;
        let origin = self.origin;
        let first_tick = move |from: i64| origin + ((from - origin).div_euclid(p) + 1) * p;
        let mut best: Option<i64> = None;
        // The first tick after now, at or after t*, at which job `v`'s threshold passes `target`.
        // From the second t* falls in: t* can be a hair past a tick at which the test itself
        // passes (when the two thresholds are equal as fractions, rounding decides).
        let tick_of = |v: &JobView, t_star: f64, target: f64| {
            let base = v.submit + sys.done(v.idx);
            let from = ((t_star.max(now as f64) as i64).min(max_from) - 1).max(now);
            let mut tick = first_tick(from);
            // Float rounding: step on until the threshold test itself passes at the tick.
            for _ in 0..4 {
                if xfactor(tick - base, v.sched_runtime) > target {
                    break;
                }
                tick += p;
            }
            tick
        };
        for &i in &self.idle {
            let v = sys.view(i);
            // The threshold the job must pass: SF x that of the last candidate it needs.
            let need = v.procs.saturating_sub(sys.open());
            let mut sum = 0u32;
            let mut needed = None;
            for &(tau_j, j) in &self.running {
                let w = sys.view(j);
                if self.suspendable(v.procs, tau_j, &w) {
                    sum += w.procs;
                    if sum >= need {
                        needed = Some(tau_j);
                        break;
                    }
                }
            }
            let Some(tau_j) = needed else { continue };
            if let Some(t_star) = self.crossing(sys, &v, tau_j) {
                let tick = tick_of(&v, t_star, self.opts.sf * tau_j);
                best = Some(best.map_or(tick, |b: i64| b.min(tick)));
            }
        }
        // Suspended jobs: what their holders need is in `crossings` once asked; the awake ones
        // are asked now, the others when their entry comes up (by a scan if `exact`).
        let mut order = std::mem::take(&mut self.order);
        self.take_departures(sys, &mut order, None);
        self.order = order;
        for k in 0..self.awake.len() {
            let i = self.awake[k];
            if !Self::home_free(sys, i) {
                self.summary(sys, &sys.view(i));
            }
        }
        // Entries a job left behind (it resumed, or its crossing changed since) are dropped
        // once they outnumber the suspended jobs.
        let room = 4 * (self.suspended_idle + 1024);
        if self.crossings.len() > room {
            let mut old = std::mem::take(&mut self.crossings).into_vec();
            old.retain(|&Reverse((_, i, entry))| {
                let h = &mut self.held[i as usize];
                if h.entry != entry || !h.listed {
                    return false;
                }
                h.listed = self.sleep[i as usize] != Sleep::Out && !Self::home_free(sys, i);
                h.listed
            });
            self.crossings = old.into();
        }
        if self.alarms.len() > room {
            let (sleep, stamp) = (&self.sleep, &self.stamp);
            self.alarms.retain(|Reverse((_, i, s))| sleep[*i as usize] == Sleep::Asleep && stamp[*i as usize] == *s);
        }
        // By time rounded down, so the first tick of each entry is no earlier than the first
        // tick at or after its key: entries are taken until that passes the best tick found.
        let mut valid = Vec::new();
        while let Some(&Reverse((key, i, entry))) = self.crossings.peek() {
            if best.is_some_and(|b| first_tick((key.min(max_from) - 1).max(now)) > b) {
                break;
            }
            self.crossings.pop();
            let h = &mut self.held[i as usize];
            if h.entry != entry || !h.listed {
                continue;
            }
            if self.sleep[i as usize] == Sleep::Out || Self::home_free(sys, i) {
                h.listed = false;
                continue;
            }
            // Holders may have joined since it was found (the watched one leaving would have
            // woken the job and asked anew), which can only make the crossing later: asked now
            // (if `exact`), an entry that changed goes back in its new place.
            let v = sys.view(i);
            if exact {
                self.summary(sys, &v);
                if self.held[i as usize].entry != entry {
                    continue;
                }
            }
            let worst = self.held[i as usize].worst;
            if let Some(t_star) = self.crossing(sys, &v, worst) {
                let tick = tick_of(&v, t_star, self.opts.sf * worst);
                best = Some(best.map_or(tick, |b: i64| b.min(tick)));
            }
            valid.push(Reverse((key, i, entry)));
        }
        self.crossings.extend(valid);
        best
    }

    fn schedule_ss(&mut self, sys: &mut System) {
        let mut fresh = Vec::new();
        // A sweep that suspended jobs may have left processors over for a job passed before.
        self.pass = self.pass.wrapping_add(1);
        let mut first = true;
        while self.sweep_ss(sys, &mut fresh, first) {
            first = false;
        }
        // Jobs suspended in this pass wait from now on; they are not reconsidered in it.
        for i in fresh {
            if let Some(h) = self.held.get_mut(i as usize) {
                // What its holders allowed belongs to an earlier suspension.
                *h = Held { entry: h.entry.wrapping_add(1), ..Held::NEW };
            }
            self.sleep[i as usize] = Sleep::Awake;
            self.awake.push(i);
            self.suspended_idle += 1;
        }
        self.running.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
        if self.opts.every_tick {
            if !self.idle.is_empty() || self.suspended_idle > 0 {
                let p = self.opts.period_s;
                sys.wake_at(self.origin + ((sys.now() - self.origin).div_euclid(p) + 1) * p);
            }
        } else {
            self.last_pass = sys.now();
            if let Some(t) = self.next_crossing(sys, false) {
                sys.wake_at(t);
            }
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
        let mut preempted = false;
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
            self.suspend_picked(sys, fresh, i, 0.0);
            *stale = true;
            preempted = true;
        }
        let started = self.start(sys, i, 0.0, preempted);
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
        order.sort_unstable_by(sweep_order);
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

/// The order of a sweep over (priority, job): higher first, then lower index, so the order is
/// total and an unstable sort gives the one order there is.
fn sweep_order(a: &(f64, JobIdx), b: &(f64, JobIdx)) -> std::cmp::Ordering {
    b.0.total_cmp(&a.0).then(a.1.cmp(&b.1))
}

/// Whether `a` comes before `b` in a sweep.
fn b_before(a: &(f64, JobIdx), b: &(f64, JobIdx)) -> bool {
    sweep_order(a, b).is_lt()
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

    /// SS and TSS asked for the first tick at which some job may act, by crossing times that
    /// may be early (holders may have joined since): a pass runs only if one can act now.
    fn on_wake(&mut self, sys: &mut System) -> bool {
        if self.opts.mode == Mode::Is || self.opts.every_tick {
            return true;
        }
        match self.next_crossing(sys, true) {
            Some(t) if t > sys.now() => {
                sys.wake_at(t);
                false
            }
            Some(_) => true,
            None => false,
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
