//! The RLScheduler-compatible environment (`schedlab::rlenv`) for Python: a workload read
//! once and shared, one environment, and N environments stepped at once. Observations leave
//! as `bytearray`s (float32 or float64, native order) and masks as `bytes` of 0/1, which
//! `schedlab.gym` views with `numpy.frombuffer` without copying.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes};

use schedlab::rlenv::{Env, Options, RlError, ScoreType, Unrunnable, VecEnv, Workload, MAX_QUEUE_SIZE, OBS_LEN};

use crate::error;

fn rl_error(e: RlError) -> PyErr {
    error(e.to_string())
}

/// A trace as RLScheduler reads it (its own rules: see `schedlab.gym`).
#[pyclass(module = "schedlab._schedlab", name = "RlWorkload", frozen)]
struct RlWorkload {
    inner: Arc<Workload>,
}

#[pymethods]
impl RlWorkload {
    /// Reads SWF text, plain or gzip-compressed, from bytes.
    #[staticmethod]
    fn parse(py: Python<'_>, data: &[u8]) -> PyResult<RlWorkload> {
        let parsed = py.detach(|| Workload::parse(data));
        let w = parsed.map_err(|e| error(e.to_string()))?;
        Ok(RlWorkload { inner: Arc::new(w) })
    }

    /// Kept jobs.
    fn __len__(&self) -> usize {
        self.inner.len()
    }

    /// The header and normalising values: MaxNodes, MaxProcs, job lines read, largest run
    /// time, memory, user, group and executable.
    fn summary(&self) -> Vec<(&'static str, i64)> {
        let w = &self.inner;
        vec![
            ("jobs", w.len() as i64),
            ("job_lines", w.job_lines as i64),
            ("max_nodes", w.max_nodes),
            ("max_procs", w.max_procs),
            ("max_exec_time", w.max_exec_time),
            ("max_requested_memory", w.max_requested_memory),
            ("max_user_id", w.max_user_id),
            ("max_group_id", w.max_group_id),
            ("max_executable_number", w.max_executable_number),
        ]
    }
}

#[allow(clippy::too_many_arguments)]
fn options(
    backfil: bool,
    skip: bool,
    job_score_type: u8,
    batch_job_slice: usize,
    window: usize,
    compute_baselines: bool,
    unrunnable: &str,
) -> PyResult<Options> {
    let score_type = ScoreType::from_code(job_score_type)
        .ok_or_else(|| error(format!("job_score_type {job_score_type}: expected 0 to 4")))?;
    let unrunnable = match unrunnable {
        "resample" => Unrunnable::Resample,
        "error" => Unrunnable::Error,
        other => return Err(error(format!("unrunnable {other:?}: expected \"resample\" or \"error\""))),
    };
    Ok(Options { backfil, skip, score_type, batch_job_slice, window, compute_baselines, unrunnable })
}

/// Slot number of a Python action: anything outside 0..128 is a wait, as an empty slot is.
fn slot(action: i64) -> usize {
    usize::try_from(action).unwrap_or(usize::MAX)
}

fn le_f32(out: &mut [u8], values: &[f32]) {
    for (o, v) in out.chunks_exact_mut(4).zip(values) {
        o.copy_from_slice(&v.to_ne_bytes());
    }
}

fn le_f64(out: &mut [u8], values: &[f64]) {
    for (o, v) in out.chunks_exact_mut(8).zip(values) {
        o.copy_from_slice(&v.to_ne_bytes());
    }
}

fn mask_bytes<'py>(py: Python<'py>, mask: &[bool]) -> Bound<'py, PyBytes> {
    PyBytes::new_with(py, mask.len(), |b| {
        for (o, &m) in b.iter_mut().zip(mask) {
            *o = m as u8;
        }
        Ok(())
    })
    .expect("bytes of a known length")
}

/// One environment (the Rust core of `schedlab.gym.SchedGymEnv`).
#[pyclass(module = "schedlab._schedlab", name = "RlEnv")]
struct RlEnv {
    env: Env,
    float64: bool,
    obs32: Vec<f32>,
    obs64: Vec<f64>,
    mask: [bool; MAX_QUEUE_SIZE],
}

impl RlEnv {
    fn observation<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyByteArray> {
        if self.float64 {
            self.env.observation(&mut self.obs64);
            let v = &self.obs64;
            PyByteArray::new_with(py, OBS_LEN * 8, |b| {
                le_f64(b, v);
                Ok(())
            })
        } else {
            self.env.observation(&mut self.obs32);
            let v = &self.obs32;
            PyByteArray::new_with(py, OBS_LEN * 4, |b| {
                le_f32(b, v);
                Ok(())
            })
        }
        .expect("bytearray of a known length")
    }
}

#[pymethods]
impl RlEnv {
    /// An environment over `workload` with the original's options (see `schedlab.gym`).
    #[new]
    #[pyo3(signature = (workload, backfil=false, skip=false, job_score_type=0, batch_job_slice=0, window=256, compute_baselines=true, unrunnable="resample", float64=false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        workload: &RlWorkload,
        backfil: bool,
        skip: bool,
        job_score_type: u8,
        batch_job_slice: usize,
        window: usize,
        compute_baselines: bool,
        unrunnable: &str,
        float64: bool,
    ) -> PyResult<RlEnv> {
        let opts = options(backfil, skip, job_score_type, batch_job_slice, window, compute_baselines, unrunnable)?;
        let env = Env::new(workload.inner.clone(), opts).map_err(rl_error)?;
        Ok(RlEnv { env, float64, obs32: vec![0.0; OBS_LEN], obs64: vec![0.0; OBS_LEN], mask: [false; MAX_QUEUE_SIZE] })
    }

    /// Seeds the window sampler as gym 0.21's `env.seed(seed)` did.
    fn seed(&mut self, seed: u64) {
        self.env.seed(seed);
    }

    /// Starts an episode (at `start`, else at the sampler's next draw): (start index,
    /// observation bytes, mask bytes).
    #[pyo3(signature = (start=None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        start: Option<usize>,
    ) -> PyResult<(usize, Bound<'py, PyByteArray>, Bound<'py, PyBytes>)> {
        let s = self.env.reset(start).map_err(rl_error)?;
        self.env.action_mask(&mut self.mask);
        Ok((s, self.observation(py), mask_bytes(py, &self.mask)))
    }

    /// One step: (observation bytes, reward, terminated, mask bytes).
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        action: i64,
    ) -> PyResult<(Bound<'py, PyByteArray>, f64, bool, Bound<'py, PyBytes>)> {
        let s = self.env.step(slot(action)).map_err(rl_error)?;
        self.env.action_mask(&mut self.mask);
        Ok((self.observation(py), s.reward, s.terminated, mask_bytes(py, &self.mask)))
    }

    /// The critic observation (3 float64 per window job) as bytes.
    fn critic_obs<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let mut v = vec![0f64; 3 * self.env.options().window];
        self.env.critic_observation(&mut v);
        PyBytes::new_with(py, v.len() * 8, |b| {
            le_f64(b, &v);
            Ok(())
        })
        .expect("bytes of a known length")
    }

    /// The episode's figures: (start index, steps, SJF total, F1 total, agent total, best - rl).
    fn episode(&self) -> (usize, usize, f64, f64, f64, f64) {
        let e = &self.env;
        (e.start_index(), e.episode_len(), e.sjf_score(), e.f1_score(), e.total(), e.best_minus_rl())
    }

    /// The state: (clock, free nodes, queued jobs, visible jobs).
    fn state(&self) -> (i64, i64, usize, usize) {
        let e = &self.env;
        (e.clock(), e.free_nodes(), e.queue_len(), e.visible_len())
    }

    /// Trace index of the job in each visible slot.
    fn visible_jobs(&self) -> Vec<usize> {
        (0..self.env.visible_len()).filter_map(|s| self.env.slot_job(s)).collect()
    }
}

/// N environments stepped at once (the Rust core of `schedlab.gym.SchedGymVectorEnv`).
#[pyclass(module = "schedlab._schedlab", name = "RlVecEnv")]
struct RlVecEnv {
    venv: VecEnv,
    obs: Vec<f32>,
    masks: Vec<bool>,
    rewards: Vec<f64>,
    terminated: Vec<bool>,
    actions: Vec<usize>,
}

type Batch<'py> = (Bound<'py, PyByteArray>, Bound<'py, PyBytes>, Bound<'py, PyBytes>, Bound<'py, PyBytes>);

impl RlVecEnv {
    fn batch<'py>(&self, py: Python<'py>) -> Batch<'py> {
        let obs = PyByteArray::new_with(py, self.obs.len() * 4, |b| {
            le_f32(b, &self.obs);
            Ok(())
        })
        .expect("bytearray of a known length");
        let rewards = PyBytes::new_with(py, self.rewards.len() * 8, |b| {
            le_f64(b, &self.rewards);
            Ok(())
        })
        .expect("bytes of a known length");
        (obs, mask_bytes(py, &self.masks), rewards, mask_bytes(py, &self.terminated))
    }
}

#[pymethods]
impl RlVecEnv {
    /// `n` environments over `workload` with the same options (float32 observations).
    #[new]
    #[pyo3(signature = (workload, n, backfil=false, skip=false, job_score_type=0, batch_job_slice=0, window=256, compute_baselines=true, unrunnable="resample"))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        workload: &RlWorkload,
        n: usize,
        backfil: bool,
        skip: bool,
        job_score_type: u8,
        batch_job_slice: usize,
        window: usize,
        compute_baselines: bool,
        unrunnable: &str,
    ) -> PyResult<RlVecEnv> {
        let opts = options(backfil, skip, job_score_type, batch_job_slice, window, compute_baselines, unrunnable)?;
        let venv = VecEnv::new(workload.inner.clone(), opts, n).map_err(rl_error)?;
        Ok(RlVecEnv {
            venv,
            obs: vec![0.0; n * OBS_LEN],
            masks: vec![false; n * MAX_QUEUE_SIZE],
            rewards: vec![0.0; n],
            terminated: vec![false; n],
            actions: vec![0; n],
        })
    }

    /// Resets every environment (environment i seeded with `seed + i` if a seed is given):
    /// (observations, masks, rewards, terminated) as bytes.
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(&mut self, py: Python<'py>, seed: Option<u64>) -> PyResult<Batch<'py>> {
        self.venv.reset(seed, &mut self.obs, &mut self.masks).map_err(rl_error)?;
        self.rewards.fill(0.0);
        self.terminated.fill(false);
        Ok(self.batch(py))
    }

    /// Steps every environment; `actions` is the native-order int64 bytes of N actions.
    fn step<'py>(&mut self, py: Python<'py>, actions: &[u8]) -> PyResult<Batch<'py>> {
        if actions.len() != self.actions.len() * 8 {
            return Err(error(format!("{} actions expected, got {} bytes", self.actions.len(), actions.len())));
        }
        for (a, b) in self.actions.iter_mut().zip(actions.chunks_exact(8)) {
            *a = slot(i64::from_ne_bytes(b.try_into().expect("8 bytes")));
        }
        let (obs, masks, rewards, terms) = (&mut self.obs, &mut self.masks, &mut self.rewards, &mut self.terminated);
        self.venv.step(&self.actions, obs, masks, rewards, terms).map_err(rl_error)?;
        Ok(self.batch(py))
    }

    /// Environment i's episode figures: (start index, steps, SJF total, F1 total, agent total,
    /// best - rl).
    fn episode(&self, i: usize) -> PyResult<(usize, usize, f64, f64, f64, f64)> {
        if i >= self.venv.len() {
            return Err(error(format!("environment {i} of {}", self.venv.len())));
        }
        let e = self.venv.env(i);
        Ok((e.start_index(), e.episode_len(), e.sjf_score(), e.f1_score(), e.total(), e.best_minus_rl()))
    }
}

/// Adds the classes to the extension module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<RlWorkload>()?;
    m.add_class::<RlEnv>()?;
    m.add_class::<RlVecEnv>()?;
    Ok(())
}
