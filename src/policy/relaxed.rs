//! Priority scheduling with relaxed backfilling (Ward, Mahood & West 2002).
//!
//! Every waiting job has the priority of Eq. 1,
//! P = ((t - t_q)/3600)^alpha x (w/3600)^beta x (n/32)^gamma x r^delta,
//! with w the runtime the scheduler uses (the trace's planning runtime: the user estimate, or the
//! actual runtime with `--set runtime=act`), n the processors and delta the class of the job's
//! queue. Priorities are recalculated on a grid of `dt` seconds of simulated time (t is the last
//! grid point at or before now; `dt=0` recalculates at every pass), and the queue is sorted by them.
//!
//! A pass (on arrivals and completions, as in Fig. 2) starts the highest-priority jobs while they
//! fit; hpwait is then the time until the highest-priority waiting job could start, the backfill
//! window is omega x hpwait, and every other waiting job, in priority order, is backfilled if
//! enough processors are free now and it completes within the window (`window=fig2`). With
//! `window=text`, section 2's wording instead: a job is backfilled if it delays the
//! highest-priority job's start by at most (omega - 1) x that job's runtime.
//!
//! Special cases (section 3): alpha = 1 and beta = gamma = delta = omega = 0 is FCFS; with omega
//! = infinity, FFFS; alpha = beta = delta = 0 and omega = infinity with gamma = 1 is BFFS
//! (widest job that fits first) and with gamma = -1 WFFS. Ties in priority go to the earlier
//! job, so these coincide job for job with `fcfs`, `fffs`, `bffs` and `wffs` (tests/relaxed.rs).

use crate::engine::{Decision, JobIdx, JobView, Policy, System, Why};
use crate::keys::KeyError;
use crate::profile::Profile;

/// How the backfill test reads omega.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Window {
    /// Fig. 2: a candidate must complete before now + omega x hpwait.
    Fig2,
    /// Section 2's text: a candidate may delay the highest-priority job by at most
    /// (omega - 1) x that job's runtime.
    Text,
}

/// The SWF queue number -> queue class (delta) mapping.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct QueueClasses {
    /// (queue, class) pairs.
    pairs: Vec<(i32, i32)>,
    /// Class of queues not listed.
    default: i32,
    /// Classes come from the queue names in the trace header ([`QueueClasses::from_header`]).
    by_name: bool,
}

impl QueueClasses {
    /// Parses `QUEUE:CLASS,...` (`*:CLASS` for unlisted queues); empty or `none`: every queue 0;
    /// `header`: from the queue names in the trace header. The paper's classes: background -1,
    /// primary 0, challenge 1, urgent 2.
    pub fn parse(text: &str) -> Result<QueueClasses, KeyError> {
        let mut out = QueueClasses::default();
        let t = text.trim();
        if t.is_empty() || t.eq_ignore_ascii_case("none") {
            return Ok(out);
        }
        if t.eq_ignore_ascii_case("header") {
            out.by_name = true;
            return Ok(out);
        }
        for part in t.split([',', ';', ' ']).map(str::trim).filter(|p| !p.is_empty()) {
            let bad = || {
                KeyError::new(
                    "queue_classes",
                    text,
                    format!("{part:?}: expected QUEUE:CLASS, e.g. 1:-1,2:0,3:1,4:2 or *:0"),
                )
            };
            let (q, c) = part.split_once([':', '=']).ok_or_else(bad)?;
            let c: i32 = c.trim().parse().map_err(|_| bad())?;
            if !(-100..=100).contains(&c) {
                return Err(KeyError::new("queue_classes", text, format!("class {c} is out of -100..100")));
            }
            if q.trim() == "*" {
                out.default = c;
            } else {
                out.pairs.push((q.trim().parse().map_err(|_| bad())?, c));
            }
        }
        Ok(out)
    }

    /// The class (delta) of SWF queue `queue`.
    pub fn class(&self, queue: i32) -> i32 {
        self.pairs.iter().find(|(q, _)| *q == queue).map_or(self.default, |&(_, c)| c)
    }

    /// With `header`, the classes the header's queue names suggest; otherwise unchanged.
    pub fn resolve(&self, header: &crate::trace::Header) -> QueueClasses {
        if self.by_name {
            QueueClasses::from_header(header)
        } else {
            self.clone()
        }
    }

    /// Classes from the queue names of a trace header (`; Queue: N name`), by whole words: a name
    /// with `urgent` is urgent (2); else with `low`, `standby`, `scavenge` or `background`,
    /// background (-1); else with `high`, `express`, `challenge` or `priority`, challenge (1);
    /// every other queue primary (0).
    pub fn from_header(header: &crate::trace::Header) -> QueueClasses {
        let class = |name: &str| {
            let n = name.to_ascii_lowercase();
            // Whole words (`highmem` and `slow` say nothing), and a low word wins: `low_priority`.
            let words: Vec<&str> = n.split(|c: char| !c.is_ascii_alphanumeric()).collect();
            let has = |set: &[&str]| words.iter().any(|w| set.contains(w));
            if has(&["urgent"]) {
                2
            } else if has(&["low", "standby", "scavenge", "background"]) {
                -1
            } else if has(&["high", "express", "challenge", "priority"]) {
                1
            } else {
                0
            }
        };
        let pairs = header.queues.iter().map(|(q, name)| (*q as i32, class(name))).filter(|&(_, c)| c != 0).collect();
        QueueClasses { pairs, default: 0, by_name: false }
    }

    /// Whether `queue` is a high class (challenge or urgent), as the paper's Tables 3 and 6 count them.
    pub fn is_high(&self, queue: i32) -> bool {
        self.class(queue) >= 1
    }
}

/// Everything the policy takes.
#[derive(Debug, Clone, PartialEq)]
pub struct RelaxedOptions {
    /// Exponent of the time waited.
    pub alpha: f64,
    /// Exponent of the runtime.
    pub beta: f64,
    /// Exponent of the processors.
    pub gamma: f64,
    /// Base of the queue-class factor.
    pub r: f64,
    /// Backfill relaxation, >= 0; infinity allowed.
    pub omega: f64,
    /// Priority recalculation grid in seconds; 0 = at every pass.
    pub dt: i64,
    /// Queue classes.
    pub classes: QueueClasses,
    /// How omega is read.
    pub window: Window,
    /// Plan with actual runtimes (the paper's "Act" runs; clairvoyant) rather than the trace's
    /// planning runtime, the user estimate by default ("Est").
    pub actual: bool,
}

/// One waiting job.
#[derive(Debug, Clone, Copy)]
struct Waiting {
    idx: JobIdx,
    submit: i64,
    procs: u32,
    /// Runtime the scheduler uses (w).
    w: i64,
    /// The factors of Eq. 1 that do not change while it waits.
    constant: f64,
    priority: f64,
}

/// The relaxed-backfill scheduler.
pub struct Relaxed {
    opts: RelaxedOptions,
    /// The queue classes, resolved against the trace header.
    classes: QueueClasses,
    queue: Vec<Waiting>,
    /// The grid point the queue's priorities were computed at (None: never).
    computed_at: Option<i64>,
    /// Jobs arrived since the last pass.
    arrived: usize,
    /// Something arrived or ended since the last pass (Fig. 2 schedules only then).
    changed: bool,
    /// Running jobs as the scheduler plans them: start + w.
    profile: Profile,
    planned_end: Vec<i64>,
    planned: Vec<i64>,
}

impl Relaxed {
    /// A scheduler for `jobs` jobs on `machine` processors, from time `origin`.
    pub fn new(opts: RelaxedOptions, classes: QueueClasses, machine: u32, jobs: usize, origin: i64) -> Self {
        Relaxed {
            opts,
            classes,
            queue: Vec::new(),
            computed_at: None,
            arrived: 0,
            changed: false,
            profile: Profile::new(machine, origin),
            planned_end: vec![0; jobs],
            planned: vec![0; jobs],
        }
    }

    /// Eq. 1 at grid time `t` for a job queued at `submit` (a job queued after `t` has waited 0).
    fn priority(&self, constant: f64, submit: i64, t: i64) -> f64 {
        let waited = (t - submit).max(0) as f64 / 3600.0;
        let a = self.opts.alpha;
        let f = if a == 0.0 {
            1.0
        } else if a == 1.0 {
            waited
        } else {
            waited.powf(a)
        };
        let p = f * constant;
        if p.is_nan() {
            0.0
        } else {
            p
        }
    }

    /// Priority order: highest first, ties to the earlier job. A stable sort, as recalculated
    /// priorities mostly keep the previous order, which it merges in about linear time.
    fn sort(&mut self) {
        self.queue.sort_by(ahead);
    }

    /// Time from now until `procs` processors are free by the scheduler's plan.
    fn wait_for(&self, now: i64, procs: u32) -> i64 {
        self.profile.earliest(procs as i64, 1).map_or(i64::MAX, |s| s - now)
    }

    /// Processors free now as the scheduler knows it: with `passes=event` a job that has just
    /// ended is still booked until the policy hears of it.
    fn free(&self, sys: &System) -> u32 {
        (self.profile.free_now().max(0) as u32).min(sys.free())
    }

    fn start(&mut self, sys: &mut System, pos: usize) -> bool {
        let j = self.queue[pos];
        if !sys.start(j.idx) {
            return false;
        }
        let now = sys.now();
        self.profile.reserve(now, j.procs as i64, j.w);
        let i = j.idx as usize;
        self.planned_end[i] = now + j.w;
        self.planned[i] = j.w;
        self.queue.remove(pos);
        true
    }
}

impl Policy for Relaxed {
    /// A job is backfilled when Fig. 2's backfill step starts it, not when its priority does
    /// (the paper's Tables 2 and 5).
    fn declares_backfills(&self) -> bool {
        true
    }

    fn on_arrival(&mut self, job: JobView, sys: &mut System) {
        let o = &self.opts;
        let w = if o.actual { sys.clairvoyant_runtime(job.idx) } else { job.sched_runtime }.max(1);
        let class = self.classes.class(job.queue);
        let pow = |x: f64, e: f64| if e == 0.0 { 1.0 } else { x.powf(e) };
        let constant = pow(w as f64 / 3600.0, o.beta) * pow(job.procs as f64 / 32.0, o.gamma) * pow(o.r, class as f64);
        // Extreme exponents may overflow; an infinite factor would make 0 x inf = NaN later.
        let constant = if constant.is_nan() { 0.0 } else { constant.min(f64::MAX) };
        self.queue.push(Waiting { idx: job.idx, submit: job.submit, procs: job.procs, w, constant, priority: 0.0 });
        self.arrived += 1;
        self.changed = true;
    }

    fn on_completion(&mut self, job: JobView, sys: &mut System) {
        let i = job.idx as usize;
        let end = self.planned_end[i];
        if end > sys.now() {
            self.profile.release(sys.now(), job.procs as i64, end - sys.now());
        }
        self.changed = true;
    }

    fn on_overdue(&mut self, job: JobView, sys: &mut System) -> bool {
        // A job ran past the runtime planned for it (overrun=run): plan it for as long again.
        let i = job.idx as usize;
        let now = sys.now();
        if self.planned_end[i] > now {
            return false;
        }
        let ext = self.planned[i].max(1);
        self.profile.reserve(now, job.procs as i64, ext);
        self.planned_end[i] = now + ext;
        self.planned[i] = ext.saturating_mul(2);
        sys.watch(job.idx, now + ext);
        false
    }

    fn schedule(&mut self, sys: &mut System) {
        if !self.changed {
            return;
        }
        self.changed = false;
        let now = sys.now();
        self.profile.advance(now);
        if self.free(sys) == 0 {
            // Nothing can start: priorities are brought up to date at the next pass that can.
            let left = self.queue.len();
            sys.explain(|| Decision::Full { left });
            return;
        }
        let grid = if self.opts.dt > 0 { now - now.rem_euclid(self.opts.dt) } else { now };
        if self.opts.omega <= 0.0 {
            // No backfilling: only the highest-priority job matters, so it is picked out rather
            // than the queue sorted (with omega 0 queues grow to thousands).
            for k in 0..self.queue.len() {
                let j = self.queue[k];
                self.queue[k].priority = self.priority(j.constant, j.submit, grid);
            }
            self.computed_at = None;
            self.arrived = 0;
            loop {
                let Some(top) = (0..self.queue.len()).min_by(|&a, &b| ahead(&self.queue[a], &self.queue[b])) else {
                    return;
                };
                let (job, procs, free) = (self.queue[top].idx, self.queue[top].procs, self.free(sys));
                if procs > free || !self.start(sys, top) {
                    let why = Why::TooWide { procs: procs as i64, free: free as i64 };
                    sys.explain(|| Decision::Waits { job, why });
                    return;
                }
                sys.explain(|| Decision::Started { job, why: Why::First });
            }
        }
        if self.computed_at != Some(grid) {
            for k in 0..self.queue.len() {
                let j = self.queue[k];
                self.queue[k].priority = self.priority(j.constant, j.submit, grid);
            }
            self.computed_at = Some(grid);
            self.sort();
        } else if self.arrived > 0 {
            // Priorities stand until the next grid point; the newcomers get theirs at this one
            // and take their places in the sorted queue.
            let n = self.queue.len();
            let newcomers: Vec<Waiting> = self.queue.drain(n - self.arrived.min(n)..).collect();
            for mut j in newcomers {
                j.priority = self.priority(j.constant, j.submit, grid);
                let at = self.queue.partition_point(|q| ahead(q, &j) == std::cmp::Ordering::Less);
                self.queue.insert(at, j);
            }
        }
        self.arrived = 0;
        let explaining = sys.explaining();
        if explaining {
            let order = self.queue.iter().map(|j| j.idx).collect();
            let free = self.free(sys) as i64;
            sys.explain(|| Decision::Queue { order, free });
        }

        // Start the highest-priority jobs while they fit.
        while let Some(&top) = self.queue.first() {
            let free = self.free(sys);
            if top.procs > free || !self.start(sys, 0) {
                let why = Why::TooWide { procs: top.procs as i64, free: free as i64 };
                sys.explain(|| Decision::Waits { job: top.idx, why });
                break;
            }
            sys.explain(|| Decision::Started { job: top.idx, why: Why::First });
        }
        let Some(&top) = self.queue.first() else { return };
        let omega = self.opts.omega;
        if omega <= 0.0 || self.free(sys) == 0 {
            return;
        }
        let hpwait = self.wait_for(now, top.procs);
        let mut pos = 1;
        match self.opts.window {
            Window::Fig2 => {
                let window = if omega.is_infinite() { f64::INFINITY } else { omega * hpwait as f64 };
                let shown = window.is_finite().then_some(window.min(i64::MAX as f64) as i64);
                sys.explain(|| Decision::Window { job: top.idx, hpwait, omega, window: shown });
                while pos < self.queue.len() && self.free(sys) > 0 {
                    let j = self.queue[pos];
                    let free = self.free(sys);
                    if j.procs <= free && j.w as f64 <= window && self.start(sys, pos) {
                        sys.note_backfill(j.idx);
                        sys.explain(|| Decision::Started {
                            job: j.idx,
                            why: Why::WithinWindow { length: j.w, window: shown },
                        });
                        continue;
                    }
                    if explaining {
                        let why = if j.procs > free {
                            Why::TooWide { procs: j.procs as i64, free: free as i64 }
                        } else {
                            Why::BeyondWindow { length: j.w, window: shown.unwrap_or(i64::MAX) }
                        };
                        sys.explain(|| Decision::Waits { job: j.idx, why });
                    }
                    pos += 1;
                }
            }
            Window::Text => {
                // omega < 1 would allow a negative delay: nothing is backfilled then.
                let allowed = if omega.is_infinite() { f64::INFINITY } else { (omega - 1.0) * top.w as f64 };
                let base = now + hpwait;
                let shown = allowed.is_finite().then_some(allowed.min(i64::MAX as f64) as i64);
                sys.explain(|| Decision::Window { job: top.idx, hpwait, omega, window: shown });
                while pos < self.queue.len() && self.free(sys) > 0 {
                    let j = self.queue[pos];
                    let free = self.free(sys);
                    if j.procs <= free {
                        // Book it tentatively and see how far the top job's start moves.
                        self.profile.reserve(now, j.procs as i64, j.w);
                        let delay = (now + self.wait_for(now, top.procs)).saturating_sub(base);
                        self.profile.release(now, j.procs as i64, j.w);
                        if delay as f64 <= allowed && self.start(sys, pos) {
                            sys.note_backfill(j.idx);
                            sys.explain(|| Decision::Started {
                                job: j.idx,
                                why: Why::SmallDelay { delay, allowed: shown },
                            });
                            continue;
                        }
                        let why = Why::LargeDelay { delay, allowed: shown.unwrap_or(i64::MAX) };
                        sys.explain(|| Decision::Waits { job: j.idx, why });
                    } else {
                        let why = Why::TooWide { procs: j.procs as i64, free: free as i64 };
                        sys.explain(|| Decision::Waits { job: j.idx, why });
                    }
                    pos += 1;
                }
            }
        }
    }
}

/// Whether `a` goes before `b`: higher priority first, ties to the earlier job.
fn ahead(a: &Waiting, b: &Waiting) -> std::cmp::Ordering {
    b.priority.total_cmp(&a.priority).then(a.idx.cmp(&b.idx))
}
