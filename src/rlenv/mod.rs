//! An environment compatible with RLScheduler's `HPCEnv` (Zhang et al., SC'20), as specified
//! in `../shared/models/rlscheduler-env.md`: an agent picks, at each decision, one of up to
//! 128 waiting jobs of a 256-job window of an SWF trace; the episode's reward is minus the
//! window's average bounded slowdown (or another score). This is the "exact" mode: the
//! original's lazy releases, tie orders, visible-set rule, wait action and backfilling are
//! reproduced, so observations, rewards and baseline scores match it; there is no "clean"
//! mode.
//!
//! - [`Workload`]: RLScheduler's own SWF reading (plain or gzip bytes).
//! - [`Env`]: one environment: `reset`, `step`, the observation written into the caller's
//!   buffer (`f32` or exact `f64`), the action mask, the critic observation.
//! - [`VecEnv`]: N environments stepped at once, reset automatically on the step after an
//!   episode ends (Gymnasium's "next step" autoreset).
//! - [`sampler`]: gym 0.21's seeding and NumPy's legacy `randint`, so a seed draws the
//!   original's windows.
//! - [`Heuristic`] and [`evaluate`]: the heuristics of the paper's tables, run on a window as
//!   the original's evaluation protocol does.
//!
//! Quirk 1 of the specification (a job with negative processors, KTH-SP2's job 27313, makes
//! the original fail when it is freed or counted for a backfill estimate): with
//! [`Unrunnable::Resample`] (the default) a drawn window holding such a job, or a job wider
//! than the machine, is skipped and the next start drawn (the original would survive a few of
//! those windows); with [`Unrunnable::Error`] the window is run and fails where the original
//! fails, with [`RlError::NegativeProcs`] or [`RlError::NeverFits`].

mod observe;
pub mod sampler;
mod sim;
mod workload;

use std::fmt;
use std::sync::Arc;

pub use observe::{write_padding, ObsValue, JOB_FEATURES, MAX_QUEUE_SIZE, MAX_WAIT_TIME, OBS_LEN};
pub use sim::{Heuristic, SKIP_TIME};
pub use workload::{RlJob, Workload, WorkloadError};

use observe::Visible;
use sampler::Mt19937;
use sim::Sim;
use workload::CAP;

/// The per-job score an episode averages (`job_score_type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ScoreType {
    /// 0: bounded slowdown max(1, (wait + run) / max(run, 10)).
    #[default]
    BoundedSlowdown,
    /// 1: wait time.
    Wait,
    /// 2: turnaround (wait + run).
    Turnaround,
    /// 3: "utilization": -run x procs over the processor-seconds to the last start.
    Utilization,
    /// 4: slowdown (wait + run) / run.
    Slowdown,
}

impl ScoreType {
    /// From RLScheduler's `job_score_type` code 0-4.
    pub fn from_code(code: u8) -> Option<ScoreType> {
        Some(match code {
            0 => ScoreType::BoundedSlowdown,
            1 => ScoreType::Wait,
            2 => ScoreType::Turnaround,
            3 => ScoreType::Utilization,
            4 => ScoreType::Slowdown,
            _ => return None,
        })
    }
}

/// What `reset` does with a drawn window that holds a job the original cannot run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Unrunnable {
    /// Skip it and draw the next start.
    #[default]
    Resample,
    /// Run it; it fails where the original fails.
    Error,
}

/// The environment's options (the original's constructor arguments and more).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Options {
    /// Backfill while the picked job waits for room (`backfil`).
    pub backfil: bool,
    /// Show a skip slot after the visible jobs (`skip`).
    pub skip: bool,
    /// The per-job score (`job_score_type`).
    pub score_type: ScoreType,
    /// Draw windows only from the first this-many jobs (0: the whole trace).
    pub batch_job_slice: usize,
    /// Jobs per window (`JOB_SEQUENCE_SIZE`: 256 for training, 1024 for the paper's tables).
    pub window: usize,
    /// Run SJF and F1 on each window at reset, for the scores reported at the end.
    pub compute_baselines: bool,
    /// Windows holding a job the original cannot run.
    pub unrunnable: Unrunnable,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            backfil: false,
            skip: false,
            score_type: ScoreType::BoundedSlowdown,
            batch_job_slice: 0,
            window: 256,
            compute_baselines: true,
            unrunnable: Unrunnable::Resample,
        }
    }
}

/// Why the environment cannot go on.
#[derive(Debug, Clone, PartialEq)]
pub enum RlError {
    /// A job with negative processors was freed or counted for a backfill estimate (the
    /// original raises ValueError there).
    NegativeProcs {
        /// Its SWF job number.
        job_id: i64,
    },
    /// A job needs more nodes than the machine has (the original fails an assertion).
    NeverFits {
        /// Its SWF job number.
        job_id: i64,
    },
    /// An option or a start index the trace cannot serve.
    Invalid(String),
    /// `step` before `reset` or after the episode ended.
    NotRunning,
}

impl fmt::Display for RlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RlError::NegativeProcs { job_id } => write!(
                f,
                "job {job_id} has negative processors: RLScheduler's environment fails when it is freed or counted for a backfill estimate"
            ),
            RlError::NeverFits { job_id } => {
                write!(f, "job {job_id} needs more nodes than the machine has: it can never start")
            }
            RlError::Invalid(m) => write!(f, "{m}"),
            RlError::NotRunning => write!(f, "the episode is over (or was never started): call reset"),
        }
    }
}

impl std::error::Error for RlError {}

/// What one step did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Step {
    /// Whether the last job of the window has started.
    pub terminated: bool,
    /// 0 until the end, then minus the episode's total score.
    pub reward: f64,
}

/// How many draws `reset` tries before giving up on finding a runnable window.
const MAX_DRAWS: usize = 10_000;

/// One environment over a shared workload.
#[derive(Debug, Clone)]
pub struct Env {
    workload: Arc<Workload>,
    opts: Options,
    rng: Mt19937,
    sim: Sim,
    visible: Visible,
    sjf: f64,
    f1: f64,
    total: f64,
    steps: usize,
    running: bool,
}

impl fmt::Debug for Mt19937 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Mt19937")
    }
}

impl Env {
    /// An environment over `workload`; its window sampler is seeded with 0 until [`Env::seed`].
    pub fn new(workload: Arc<Workload>, opts: Options) -> Result<Env, RlError> {
        let m = workload.len();
        if opts.window == 0 {
            return Err(RlError::Invalid("the window must hold at least one job".into()));
        }
        if opts.batch_job_slice > m {
            return Err(RlError::Invalid(format!(
                "batch_job_slice {} is larger than the trace ({m} jobs)",
                opts.batch_job_slice
            )));
        }
        if opts.window >= m {
            return Err(RlError::Invalid(format!(
                "a window of {} jobs does not fit in the trace's {m} jobs",
                opts.window
            )));
        }
        let sim = Sim::new(opts.backfil, opts.score_type);
        Ok(Env {
            workload,
            opts,
            rng: sampler::gym021(0),
            sim,
            visible: Visible::default(),
            sjf: f64::NAN,
            f1: f64::NAN,
            total: f64::NAN,
            steps: 0,
            running: false,
        })
    }

    /// Seeds the window sampler as gym 0.21's `env.seed(seed)` did.
    pub fn seed(&mut self, seed: u64) {
        self.rng = sampler::gym021(seed);
    }

    /// The options.
    pub fn options(&self) -> &Options {
        &self.opts
    }

    /// The workload.
    pub fn workload(&self) -> &Arc<Workload> {
        &self.workload
    }

    /// Draws the next window start as the original's reset does: randint(window, M - window - 1),
    /// M being `batch_job_slice` when positive, else the number of jobs.
    pub fn draw_start(&mut self) -> Result<usize, RlError> {
        let w = self.opts.window as i64;
        let m = if self.opts.batch_job_slice > 0 { self.opts.batch_job_slice } else { self.workload.len() } as i64;
        if m - w - 1 <= w {
            return Err(RlError::Invalid(format!(
                "windows of {w} jobs are drawn from [{w}, {m} - {w} - 1): {m} jobs are too few (give a start index)"
            )));
        }
        Ok(self.rng.randint(w, m - w - 1) as usize)
    }

    /// Starts an episode on the window at `start` (drawn by the sampler when `None`) and
    /// returns its start index. Runs the SJF and F1 baselines first if asked.
    pub fn reset(&mut self, start: Option<usize>) -> Result<usize, RlError> {
        self.running = false;
        let window = self.opts.window;
        let m = self.workload.len();
        let start = match start {
            Some(s) => {
                if s + window >= m {
                    return Err(RlError::Invalid(format!(
                        "start index {s}: the window of {window} jobs and the job after it must lie within the trace's {m} jobs"
                    )));
                }
                s
            }
            None => {
                let mut tries = 0;
                loop {
                    let s = self.draw_start()?;
                    if self.opts.unrunnable == Unrunnable::Error || self.workload.unrunnable_in(s, s + window) == 0 {
                        break s;
                    }
                    tries += 1;
                    if tries >= MAX_DRAWS {
                        return Err(RlError::Invalid(format!(
                            "{MAX_DRAWS} windows drawn in a row hold a job that cannot run"
                        )));
                    }
                }
            }
        };
        let w = &*self.workload;
        if self.opts.compute_baselines {
            self.sim.begin(w, start, window);
            self.sjf = self.sim.run_heuristic(w, Heuristic::Sjf)?;
            self.sim.begin(w, start, window);
            self.f1 = self.sim.run_heuristic(w, Heuristic::F1)?;
        } else {
            self.sjf = f64::NAN;
            self.f1 = f64::NAN;
        }
        self.sim.begin(w, start, window);
        self.visible.build(&mut self.sim, w);
        self.total = f64::NAN;
        self.steps = 0;
        self.running = true;
        Ok(start)
    }

    /// Acts on slot `action` of the last observation: commits the job there, or waits if the
    /// slot holds none (padding, the skip slot, or a slot number past 127).
    pub fn step(&mut self, action: usize) -> Result<Step, RlError> {
        if !self.running {
            return Err(RlError::NotRunning);
        }
        self.steps += 1;
        let w = &*self.workload;
        let outcome = match self.visible.jobs.get(action) {
            Some(&idx) => self.sim.schedule(w, idx),
            None => self.sim.wait(w).map(|_| false),
        };
        let done = match outcome {
            Ok(d) => d,
            Err(e) => {
                self.running = false;
                return Err(e);
            }
        };
        if done {
            self.running = false;
            self.visible.jobs.clear();
            self.total = self.sim.total(w);
            return Ok(Step { terminated: true, reward: -self.total });
        }
        self.visible.build(&mut self.sim, w);
        Ok(Step { terminated: false, reward: 0.0 })
    }

    /// Writes the current observation (1024 values; all padding once the episode is over).
    pub fn observation<T: ObsValue>(&self, out: &mut [T]) {
        if self.running {
            self.visible.write(&self.sim, &self.workload, self.opts.skip, out);
        } else {
            write_padding(out);
        }
    }

    /// Writes the action mask (128 values): the slots holding a job, and the usable skip slot.
    pub fn action_mask(&self, out: &mut [bool]) {
        if self.running {
            self.visible.mask(&self.sim, self.opts.skip, out);
        } else {
            out[..MAX_QUEUE_SIZE].fill(false);
        }
    }

    /// Writes the critic observation (3 values per window job: submit offset / 43,200,
    /// requested time / largest run time, processors / MaxProcs, each capped below 1).
    pub fn critic_observation(&self, out: &mut [f64]) {
        let w = &*self.workload;
        let first = w.jobs[self.sim.start].submit;
        for (k, o) in out.chunks_exact_mut(3).take(self.opts.window).enumerate() {
            let j = &w.jobs[self.sim.start + k];
            o[0] = (((j.submit - first) as f64) / MAX_WAIT_TIME).min(CAP);
            o[1] = j.feat[0];
            o[2] = j.feat[1];
        }
    }

    /// The window's start index.
    pub fn start_index(&self) -> usize {
        self.sim.start
    }

    /// SJF's total on this window (NaN without baselines).
    pub fn sjf_score(&self) -> f64 {
        self.sjf
    }

    /// F1's total on this window (NaN without baselines).
    pub fn f1_score(&self) -> f64 {
        self.f1
    }

    /// The agent's total once the episode is over (NaN before).
    pub fn total(&self) -> f64 {
        self.total
    }

    /// min(SJF, F1) minus the agent's total (positive: the agent beat the better heuristic).
    pub fn best_minus_rl(&self) -> f64 {
        self.sjf.min(self.f1) - self.total
    }

    /// Steps taken in this episode.
    pub fn episode_len(&self) -> usize {
        self.steps
    }

    /// Whether an episode is under way.
    pub fn is_running(&self) -> bool {
        self.running
    }

    /// Jobs waiting now.
    pub fn queue_len(&self) -> usize {
        self.sim.queue.len()
    }

    /// Jobs visible in the observation now.
    pub fn visible_len(&self) -> usize {
        self.visible.jobs.len()
    }

    /// The current time (trace seconds).
    pub fn clock(&self) -> i64 {
        self.sim.clock
    }

    /// Free nodes now.
    pub fn free_nodes(&self) -> i64 {
        self.sim.free
    }

    /// The trace index of the job in slot `slot`, if one is there.
    pub fn slot_job(&self, slot: usize) -> Option<usize> {
        self.visible.jobs.get(slot).map(|&i| i as usize)
    }
}

/// Schedules the window at `start` with heuristic `h` from the initial state, as the
/// original's `reset_for_test` and evaluation scripts do, and returns its total score
/// (positive, as `step_for_test` returns it).
pub fn evaluate(workload: &Workload, opts: &Options, start: usize, h: Heuristic) -> Result<f64, RlError> {
    if start + opts.window > workload.len() {
        return Err(RlError::Invalid(format!("start index {start} leaves no room for the window")));
    }
    let mut sim = Sim::new(opts.backfil, opts.score_type);
    sim.begin(workload, start, opts.window);
    sim.run_heuristic(workload, h)
}

/// The starts the evaluation protocol draws: `seed(seed)`, then `count` draws of
/// randint(window, M - window - 1), M being `batch_job_slice` when it is positive.
pub fn evaluation_starts(workload: &Workload, opts: &Options, seed: u64, count: usize) -> Vec<usize> {
    let mut rng = sampler::gym021(seed);
    let w = opts.window as i64;
    let m = if opts.batch_job_slice > 0 { opts.batch_job_slice } else { workload.len() } as i64;
    (0..count).map(|_| rng.randint(w, m - w - 1) as usize).collect()
}

/// N environments stepped together, each reset automatically on the step after its episode
/// ends (that step's action is ignored; it returns the new episode's first observation,
/// reward 0, not terminated), as Gymnasium's vector environments do by default.
#[derive(Debug, Clone)]
pub struct VecEnv {
    envs: Vec<Env>,
    needs_reset: Vec<bool>,
}

impl VecEnv {
    /// `n` environments over one workload with the same options.
    pub fn new(workload: Arc<Workload>, opts: Options, n: usize) -> Result<VecEnv, RlError> {
        if n == 0 {
            return Err(RlError::Invalid("a vector environment needs at least one environment".into()));
        }
        let env = Env::new(workload, opts)?;
        Ok(VecEnv { envs: vec![env; n], needs_reset: vec![false; n] })
    }

    /// Number of environments.
    pub fn len(&self) -> usize {
        self.envs.len()
    }

    /// Always false (a vector environment holds at least one).
    pub fn is_empty(&self) -> bool {
        self.envs.is_empty()
    }

    /// Environment `i`.
    pub fn env(&self, i: usize) -> &Env {
        &self.envs[i]
    }

    /// Resets every environment (environment i seeded with `seed + i` when a seed is given)
    /// and writes their observations (n x 1024) and masks (n x 128).
    pub fn reset(&mut self, seed: Option<u64>, obs: &mut [f32], masks: &mut [bool]) -> Result<(), RlError> {
        for (i, env) in self.envs.iter_mut().enumerate() {
            if let Some(s) = seed {
                env.seed(s.wrapping_add(i as u64));
            }
            env.reset(None)?;
            env.observation(&mut obs[i * OBS_LEN..(i + 1) * OBS_LEN]);
            env.action_mask(&mut masks[i * MAX_QUEUE_SIZE..(i + 1) * MAX_QUEUE_SIZE]);
            self.needs_reset[i] = false;
        }
        Ok(())
    }

    /// Steps every environment with its action and writes observations, masks, rewards and
    /// whether each episode ended (an ended environment shows the padding observation; it is
    /// reset on its next step).
    pub fn step(
        &mut self,
        actions: &[usize],
        obs: &mut [f32],
        masks: &mut [bool],
        rewards: &mut [f64],
        terminated: &mut [bool],
    ) -> Result<(), RlError> {
        for (i, env) in self.envs.iter_mut().enumerate() {
            if self.needs_reset[i] {
                env.reset(None)?;
                self.needs_reset[i] = false;
                rewards[i] = 0.0;
                terminated[i] = false;
            } else {
                let s = env.step(actions[i])?;
                rewards[i] = s.reward;
                terminated[i] = s.terminated;
                self.needs_reset[i] = s.terminated;
            }
            env.observation(&mut obs[i * OBS_LEN..(i + 1) * OBS_LEN]);
            env.action_mask(&mut masks[i * MAX_QUEUE_SIZE..(i + 1) * MAX_QUEUE_SIZE]);
        }
        Ok(())
    }
}
