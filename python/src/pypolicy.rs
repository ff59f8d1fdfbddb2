//! Policies and runtime predictors written in Python: `schedlab.Policy` subclasses decide the
//! engine's passes through a [`PassState`], and a callable predicts each job at its submission.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use schedlab::engine::JobView;
use schedlab::policy::external::{Decide, Pass};
use schedlab::predict::Predictor;

/// Columns of the waiting jobs, in the order `PassState.waiting_bytes` packs them.
pub const WAITING_COLUMNS: &[&str] =
    &["index", "id", "submit", "procs", "estimate", "prediction", "user", "queue", "wait"];

/// Columns of the running jobs, in the order `PassState.running_bytes` packs them.
pub const RUNNING_COLUMNS: &[&str] = &["index", "start", "procs", "expected_end"];

/// One scheduling pass, as a `schedlab.Policy` sees it (wrapped by `schedlab.State`): valid
/// only during the call of its `schedule`.
#[pyclass(module = "schedlab._schedlab")]
pub struct PassState {
    pass: Pass,
    /// Whether the pass is under way (the state is handed back to the engine after it).
    live: bool,
}

impl PassState {
    fn pass(&self) -> PyResult<&Pass> {
        if self.live {
            Ok(&self.pass)
        } else {
            Err(PyValueError::new_err("this state belongs to a pass that is over; use the one schedule() is given"))
        }
    }

    fn pass_mut(&mut self) -> PyResult<&mut Pass> {
        self.pass()?;
        Ok(&mut self.pass)
    }
}

fn refused(e: schedlab::policy::external::ActionError) -> PyErr {
    PyValueError::new_err(e.0)
}

#[pymethods]
impl PassState {
    /// The time of the pass.
    #[getter]
    fn now(&self) -> PyResult<i64> {
        Ok(self.pass()?.now())
    }

    /// Processors free now, after the starts of this pass.
    #[getter]
    fn free(&self) -> PyResult<u32> {
        Ok(self.pass()?.free())
    }

    /// Machine size.
    #[getter]
    fn machine(&self) -> PyResult<u32> {
        Ok(self.pass()?.machine())
    }

    /// The waiting jobs at the beginning of the pass, in arrival order, as little-endian int64
    /// rows of [`WAITING_COLUMNS`].
    fn waiting_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let p = self.pass()?;
        let now = p.now();
        let mut out = Vec::with_capacity(p.waiting().len() * WAITING_COLUMNS.len() * 8);
        for w in p.waiting() {
            for v in [
                w.idx as i64,
                w.id as i64,
                w.submit,
                w.procs as i64,
                w.estimate,
                w.planned,
                w.user as i64,
                w.queue as i64,
                now - w.submit,
            ] {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        Ok(PyBytes::new(py, &out))
    }

    /// The running jobs at the beginning of the pass, in the order they started, as
    /// little-endian int64 rows of [`RUNNING_COLUMNS`].
    fn running_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let p = self.pass()?;
        let mut out = Vec::with_capacity(p.running().len() * RUNNING_COLUMNS.len() * 8);
        for r in p.running() {
            for v in [r.idx as i64, r.start, r.procs as i64, r.planned_end] {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        Ok(PyBytes::new(py, &out))
    }

    /// Starts waiting job `index` now; False if too few processors are free.
    fn start(&mut self, index: i64) -> PyResult<bool> {
        let idx = job_index(index)?;
        self.pass_mut()?.start(idx).map_err(refused)
    }

    /// Reserves waiting job `index` at time `at` for this pass.
    fn reserve(&mut self, index: i64, at: i64) -> PyResult<()> {
        let idx = job_index(index)?;
        self.pass_mut()?.reserve(idx, at).map_err(refused)
    }

    /// The earliest start of `procs` processors for `duration` seconds, or None.
    fn earliest_start(&self, procs: i64, duration: i64) -> PyResult<Option<i64>> {
        Ok(self.pass()?.earliest_start(procs, duration))
    }

    /// Whether `procs` processors for `duration` seconds can start now.
    fn fits_now(&self, procs: i64, duration: i64) -> PyResult<bool> {
        Ok(self.pass()?.fits_now(procs, duration))
    }

    /// Jobs started in this pass, in order.
    fn started(&self) -> PyResult<Vec<u32>> {
        Ok(self.pass()?.starts().to_vec())
    }
}

fn job_index(index: i64) -> PyResult<u32> {
    u32::try_from(index).map_err(|_| PyValueError::new_err(format!("{index} is not a job index")))
}

/// A `schedlab.Policy` as the engine's decider: its `_pass(state)` is called at each pass.
pub struct PyDecider<'py> {
    policy: Bound<'py, PyAny>,
    state: Bound<'py, PassState>,
    /// The exception the policy raised, to be raised again once the run has stopped.
    pub error: Option<PyErr>,
    /// Passes decided.
    pub passes: u64,
}

impl<'py> PyDecider<'py> {
    /// A decider calling `policy._pass`.
    pub fn new(py: Python<'py>, policy: Bound<'py, PyAny>) -> PyResult<Self> {
        let state = Bound::new(py, PassState { pass: Pass::default(), live: false })?;
        Ok(PyDecider { policy, state, error: None, passes: 0 })
    }
}

impl Decide for PyDecider<'_> {
    fn decide(&mut self, pass: &mut Pass) -> Result<(), String> {
        self.passes += 1;
        {
            let mut s = self.state.borrow_mut();
            std::mem::swap(&mut s.pass, pass);
            s.live = true;
        }
        let called = self.policy.call_method1("_pass", (&self.state,));
        {
            let mut s = self.state.borrow_mut();
            std::mem::swap(&mut s.pass, pass);
            s.live = false;
        }
        called.map(|_| ()).map_err(|e| {
            let why = format!("the policy raised {e}");
            self.error = Some(e);
            why
        })
    }
}

/// A Python callable as the runtime predictor: called with each job (a dict) at its submission.
pub struct PyPredictor {
    predict: Py<PyAny>,
    /// The exception the callable raised, to be raised again once the run has stopped.
    pub error: std::rc::Rc<std::cell::RefCell<Option<PyErr>>>,
}

impl PyPredictor {
    /// A predictor calling `predict(job)`.
    pub fn new(predict: Bound<'_, PyAny>) -> Self {
        PyPredictor { predict: predict.unbind(), error: Default::default() }
    }
}

impl Predictor for PyPredictor {
    fn predict(&mut self, job: &JobView) -> Result<i64, String> {
        let answer = Python::attach(|py| -> PyResult<f64> {
            let d = PyDict::new(py);
            d.set_item("index", job.idx)?;
            d.set_item("id", job.id)?;
            d.set_item("submit", job.submit)?;
            d.set_item("procs", job.procs)?;
            d.set_item("estimate", job.estimate)?;
            d.set_item("user", job.user)?;
            d.set_item("queue", job.queue)?;
            self.predict.bind(py).call1((d,))?.extract::<f64>()
        });
        match answer {
            Ok(v) if v.is_finite() => Ok(v.round() as i64),
            Ok(v) => Err(format!("the prediction for job {} is {v}; predictions must be positive numbers", job.id)),
            Err(e) => {
                let why = format!("predicting job {} raised {e}", job.id);
                *self.error.borrow_mut() = Some(e);
                Err(why)
            }
        }
    }
}
