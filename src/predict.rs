//! Runtime predictions and their correction (Tsafrir, Etsion & Feitelson 2007).
//!
//! The user estimate stays the kill time; the scheduler plans with a prediction instead
//! (section 3.1). A [`Planner`] gives every job a prediction at submission, from one of three
//! sources: the user estimate (EASY), the user's history ([`HistoryOptions`], the configuration
//! space of section 7) or the true runtime (PERFECT, clairvoyant). A prediction above the
//! estimate is replaced by the estimate. The scheduler may then scale it (`factor` = 2 is the
//! doubling of X2).
//!
//! When a running job outlives its prediction the policy asks the planner for a correction
//! (section 3.2): jump to the user estimate, grow gradually (+1 min, then 15 x 2^(i-2) min),
//! grow by 20%, or double. Past the estimate every strategy but doubling grows gradually,
//! as the paper prescribes for jobs that overrun their estimate.
//!
//! History is kept per user in termination order ("the last terminated jobs by the user",
//! section 7); each entry remembers its estimate for the `immediate` and `extended` window types.

use std::collections::{HashMap, VecDeque};

use crate::engine::{JobIdx, JobView};
use crate::trace::MAX_TIME;

/// Where a job's first prediction comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The runtime the trace options give the scheduler (the user estimate by default): EASY.
    Estimate,
    /// The user's recent jobs (section 3.1 and section 7).
    History,
    /// The true runtime: clairvoyant, for the PERFECT variants only.
    Perfect,
    /// An outside [`Predictor`] (an array of predictions, a model called at each submission).
    Given,
}

/// An outside runtime predictor, asked once per job at its submission: a machine-learning
/// model, or predictions made beforehand. Its answer is capped at the user estimate (the kill
/// time) like any prediction, and corrected like any when the job outlives it.
pub trait Predictor {
    /// The prediction for `job`, submitted now, in seconds; an error stops the simulation.
    fn predict(&mut self, job: &JobView) -> Result<i64, String>;
}

/// Predictions made beforehand, one per job of the trace, by job index.
pub struct GivenPredictions(pub Vec<i64>);

impl Predictor for GivenPredictions {
    fn predict(&mut self, job: &JobView) -> Result<i64, String> {
        self.0.get(job.idx as usize).copied().ok_or_else(|| format!("no prediction for job {}", job.id))
    }
}

/// Which history jobs form the window (section 7, "window type").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowType {
    /// The user's last jobs, whatever they were.
    All,
    /// The user's last jobs, used only if every one has the new job's estimate; otherwise the
    /// fallback (section 4's predictor).
    Immediate,
    /// The user's last jobs with the new job's estimate, however far back.
    Extended,
}

/// Whether a prediction needs a full window (section 7, "fullness").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fullness {
    /// Predict from whatever history jobs there are (at least one).
    Partial,
    /// Predict only from a full window; otherwise fall back.
    Full,
}

/// How the window's runtimes become a prediction (section 7, "metric").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    /// Mean, rounded down.
    Avg,
    /// Median (mean of the middle two, rounded down, for an even count).
    Med,
    /// Shortest.
    Min,
    /// Longest.
    Max,
}

/// What to predict when the window gives nothing (section 7, "fallback").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fallback {
    /// The user estimate.
    Estimate,
    /// The user estimate scaled by the user's mean runtime/estimate ratio over their last
    /// `window` jobs (Smith et al.'s relative predictions); the estimate if they have none.
    Relative,
}

/// What to do when a running job outlives its prediction (section 3.2 and section 7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Correction {
    /// Nothing: the scheduler keeps believing the job has ended (Fig. 5, left and middle).
    None,
    /// Jump to the user estimate; past it, grow gradually (EASY+, Table 12).
    Estimate,
    /// +1 min, then +15 x 2^(i-2) min for the i-th correction (15 min, 30 min, 1 h, ...),
    /// stopping at the estimate on the way.
    Gradual,
    /// +20% each time, stopping at the estimate; past it, grow gradually.
    Exponential,
    /// Double the prediction each time, estimate or not: the engine's default for
    /// policies without predictions, used when a trace keeps runtimes beyond estimates.
    Double,
}

/// When waiting jobs are predicted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PredictAt {
    /// Once, at submission (the paper's section 3.1).
    Submit,
    /// Again at every scheduling pass after a job has ended, from the user's newest terminated
    /// jobs whenever they were submitted: pyss's EasyPlusPlusScheduler.
    Pass,
}

/// The predictor's configuration space (section 7, Fig. 9 and Table 11); defaults are Table 12.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HistoryOptions {
    /// History jobs to use, 1 to 30.
    pub window: usize,
    /// Which history jobs.
    pub window_type: WindowType,
    /// Whether the window must be full.
    pub fullness: Fullness,
    /// How to combine their runtimes.
    pub metric: Metric,
    /// What to predict without history.
    pub fallback: Fallback,
    /// Update waiting jobs' predictions when one of their user's jobs ends.
    pub propagation: bool,
}

impl Default for HistoryOptions {
    fn default() -> Self {
        HistoryOptions {
            window: 2,
            window_type: WindowType::All,
            fullness: Fullness::Partial,
            metric: Metric::Avg,
            fallback: Fallback::Estimate,
            propagation: false,
        }
    }
}

/// Everything that decides how a policy predicts runtimes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PredictOptions {
    /// Where first predictions come from.
    pub source: Source,
    /// The scheduler plans with `factor` x prediction (2 = X2).
    pub factor: f64,
    /// What happens when a job outlives its prediction.
    pub correction: Correction,
    /// The history predictor's configuration.
    pub history: HistoryOptions,
    /// When waiting jobs are predicted.
    pub at: PredictAt,
}

impl Default for PredictOptions {
    fn default() -> Self {
        PredictOptions {
            source: Source::Estimate,
            factor: 1.0,
            correction: Correction::Double,
            history: HistoryOptions::default(),
            at: PredictAt::Submit,
        }
    }
}

/// The largest window.
pub const MAX_WINDOW: usize = 30;

/// One terminated job of a user.
#[derive(Debug, Clone, Copy)]
struct Done {
    /// Its index, i.e. its place in submission order.
    idx: JobIdx,
    runtime: i64,
    estimate: i64,
}

/// A user's history, newest last.
#[derive(Debug, Default)]
struct UserHistory {
    recent: VecDeque<Done>,
    by_estimate: HashMap<i64, VecDeque<Done>>,
}

impl UserHistory {
    /// The newest terminated jobs submitted before job `idx` (propagation may predict a waiting
    /// job again after jobs submitted later have ended; those are not its history).
    fn before(&self, idx: JobIdx) -> impl Iterator<Item = &Done> {
        self.recent.iter().rev().filter(move |d| d.idx < idx)
    }
}

/// What the planner knows of one job.
#[derive(Debug, Clone, Copy, Default)]
struct JobPlan {
    /// Current prediction before scaling.
    prediction: i64,
    /// Gradual steps taken so far.
    steps: u32,
}

/// Predicts runtimes for one simulation: history, per-job predictions and corrections.
pub struct Planner {
    opts: PredictOptions,
    /// The outside predictor of [`Source::Given`], and the first error it gave.
    given: Option<Box<dyn Predictor>>,
    fault: Option<String>,
    users: HashMap<i32, UserHistory>,
    /// Per job, the prediction made at submission, kept only when it is not the job's own
    /// planning runtime (history or perfect predictions): a plain run pays nothing per job.
    predicted: Vec<i64>,
    /// The jobs whose prediction changed after submission (corrections, propagation).
    changed: HashMap<JobIdx, JobPlan>,
}

impl Planner {
    /// A planner for a trace of `jobs` jobs.
    pub fn new(opts: PredictOptions, jobs: usize) -> Self {
        let predicted = if opts.source == Source::Estimate { Vec::new() } else { vec![0; jobs] };
        Planner { opts, given: None, fault: None, users: HashMap::new(), predicted, changed: HashMap::new() }
    }

    /// A planner whose first predictions come from `predictor` ([`Source::Given`]).
    pub fn with_predictor(opts: PredictOptions, jobs: usize, predictor: Box<dyn Predictor>) -> Self {
        let opts = PredictOptions { source: Source::Given, ..opts };
        Planner { given: Some(predictor), ..Planner::new(opts, jobs) }
    }

    /// The first error of the outside predictor: the simulation cannot go on.
    pub fn fault(&self) -> Option<&String> {
        self.fault.as_ref()
    }

    /// What the planner knows of `job` now.
    fn plan(&self, job: &JobView) -> JobPlan {
        self.changed.get(&job.idx).copied().unwrap_or_else(|| {
            let prediction = self.predicted.get(job.idx as usize).copied().unwrap_or(job.sched_runtime);
            JobPlan { prediction: prediction.max(1), steps: 0 }
        })
    }

    /// The options it runs with.
    pub fn options(&self) -> &PredictOptions {
        &self.opts
    }

    /// Whether waiting jobs' predictions change when a history job ends.
    pub fn propagates(&self) -> bool {
        self.opts.source == Source::History && self.opts.history.propagation
    }

    /// The runtime the scheduler plans `job` with: factor x its prediction, at least 1 s.
    pub fn planned(&self, job: &JobView) -> i64 {
        self.scale(self.plan(job).prediction)
    }

    fn scale(&self, p: i64) -> i64 {
        if self.opts.factor == 1.0 {
            p.max(1)
        } else {
            ((p as f64 * self.opts.factor).round() as i64).clamp(1, MAX_TIME)
        }
    }

    /// Predicts a newly submitted job and returns its planned runtime; `true_runtime` is used
    /// only by the clairvoyant source.
    pub fn arrive(&mut self, job: &JobView, true_runtime: i64) -> i64 {
        let p = match self.opts.source {
            Source::Estimate => job.sched_runtime,
            Source::Perfect => true_runtime,
            Source::History => self.history_prediction(job, true),
            Source::Given => self.ask(job),
        };
        if let Some(slot) = self.predicted.get_mut(job.idx as usize) {
            *slot = p.max(1);
        }
        self.scale(p.max(1))
    }

    /// The outside predictor's answer for `job`, capped at its estimate; the estimate, and a
    /// fault, if it gave none.
    fn ask(&mut self, job: &JobView) -> i64 {
        let Some(p) = self.given.as_mut() else { return job.sched_runtime };
        match p.predict(job) {
            Ok(v) if v > 0 => v.min(job.estimate.max(1)),
            Ok(v) => {
                let why = format!("the prediction for job {} is {v} s; predictions must be positive", job.id);
                self.fault.get_or_insert(why);
                job.sched_runtime
            }
            Err(why) => {
                self.fault.get_or_insert(why);
                job.sched_runtime
            }
        }
    }

    /// Whether waiting jobs are predicted again at every pass after a job ended.
    pub fn predicts_at_pass(&self) -> bool {
        self.opts.source == Source::History && self.opts.at == PredictAt::Pass
    }

    /// Predicts again for a waiting job (propagation); returns the new planned runtime.
    pub fn refresh(&mut self, job: &JobView) -> i64 {
        let p = self.history_prediction(job, true).max(1);
        self.changed.insert(job.idx, JobPlan { prediction: p, ..self.plan(job) });
        self.scale(p)
    }

    /// Predicts again for a waiting job at a pass (`predict_at=pass`) from its user's newest
    /// terminated jobs, including any submitted after it (pyss keeps only the user's last two
    /// runtimes, in termination order); returns the new planned runtime.
    pub fn repredict(&mut self, job: &JobView) -> i64 {
        let p = self.history_prediction(job, false).max(1);
        if p != self.plan(job).prediction {
            self.changed.insert(job.idx, JobPlan { prediction: p, ..self.plan(job) });
        }
        self.scale(p)
    }

    /// Records that `job` ended after running `runtime` seconds.
    pub fn ended(&mut self, job: &JobView, runtime: i64) {
        if self.opts.source != Source::History {
            return;
        }
        let h = self.users.entry(job.user).or_default();
        let done = Done { idx: job.idx, runtime, estimate: job.estimate };
        // Twice the largest window, so that jobs submitted after a waiting one (skipped when it
        // is predicted again) do not crowd its own history out.
        h.recent.push_back(done);
        if h.recent.len() > 2 * MAX_WINDOW {
            h.recent.pop_front();
        }
        if self.opts.history.window_type == WindowType::Extended {
            let d = h.by_estimate.entry(job.estimate).or_default();
            d.push_back(done);
            if d.len() > 2 * MAX_WINDOW {
                d.pop_front();
            }
        }
    }

    /// The history prediction for `job`, capped at its estimate; from jobs submitted before it
    /// when `before`, else from any the user has terminated.
    fn history_prediction(&self, job: &JobView, before: bool) -> i64 {
        let o = &self.opts.history;
        let est = job.estimate;
        let limit = if before { job.idx } else { JobIdx::MAX };
        let mut window: Vec<i64> = Vec::with_capacity(o.window);
        if let Some(h) = self.users.get(&job.user) {
            match o.window_type {
                WindowType::All => window.extend(h.before(limit).take(o.window).map(|d| d.runtime)),
                WindowType::Immediate => {
                    window.extend(h.before(limit).take(o.window).map(|d| d.runtime));
                    if h.before(limit).take(o.window).any(|d| d.estimate != est) {
                        window.clear();
                    }
                }
                WindowType::Extended => {
                    if let Some(d) = h.by_estimate.get(&est) {
                        window.extend(d.iter().rev().filter(|d| d.idx < limit).take(o.window).map(|d| d.runtime));
                    }
                }
            }
        }
        let enough = match o.fullness {
            Fullness::Partial => !window.is_empty(),
            Fullness::Full => window.len() == o.window,
        };
        let p = if enough { combine(&mut window, o.metric) } else { self.fallback(job, limit) };
        p.min(est).max(1)
    }

    fn fallback(&self, job: &JobView, limit: JobIdx) -> i64 {
        let est = job.estimate;
        match self.opts.history.fallback {
            Fallback::Estimate => est,
            Fallback::Relative => {
                let Some(h) = self.users.get(&job.user) else { return est };
                let w: Vec<f64> = h
                    .before(limit)
                    .take(self.opts.history.window)
                    .map(|d| d.runtime as f64 / d.estimate.max(1) as f64)
                    .collect();
                if w.is_empty() {
                    est
                } else {
                    let ratio = w.iter().sum::<f64>() / w.len() as f64;
                    ((est as f64 * ratio).round() as i64).max(1)
                }
            }
        }
    }

    /// A running job outlived its planned runtime: returns the corrected planned runtime, or
    /// `None` if the policy does not correct.
    pub fn correct(&mut self, job: &JobView) -> Option<i64> {
        let est = job.estimate;
        let strategy = self.opts.correction;
        let mut plan = self.plan(job);
        let p = plan.prediction;
        let gradual = |p: i64, steps: &mut u32| {
            let add = if *steps == 0 { 60 } else { 900i64 << (*steps - 1).min(30) };
            *steps += 1;
            p.saturating_add(add)
        };
        let next = match strategy {
            Correction::None => return None,
            Correction::Double => p.saturating_mul(2),
            Correction::Estimate if p < est => est,
            Correction::Exponential if p < est => (p + (p / 5).max(1)).min(est),
            Correction::Gradual if p < est => gradual(p, &mut plan.steps).min(est),
            Correction::Estimate | Correction::Exponential | Correction::Gradual => gradual(p, &mut plan.steps),
        };
        if p < est && next >= est {
            // Reaching the estimate starts the count again: past it, the first step is +1 min.
            plan.steps = 0;
        }
        plan.prediction = next.min(MAX_TIME);
        self.changed.insert(job.idx, plan);
        Some(self.scale(plan.prediction))
    }
}

/// Combines a window's runtimes (newest first) by `metric`.
fn combine(w: &mut [i64], metric: Metric) -> i64 {
    match metric {
        Metric::Avg => w.iter().sum::<i64>() / w.len() as i64,
        Metric::Min => w.iter().copied().min().unwrap_or(1),
        Metric::Max => w.iter().copied().max().unwrap_or(1),
        Metric::Med => {
            w.sort_unstable();
            let n = w.len();
            if n % 2 == 1 {
                w[n / 2]
            } else {
                (w[n / 2 - 1] + w[n / 2]) / 2
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(idx: u32, user: i32, estimate: i64) -> JobView {
        JobView {
            idx,
            id: idx as u64 + 1,
            submit: 0,
            procs: 1,
            estimate,
            sched_runtime: estimate,
            user,
            queue: 0,
            memory_kb: -1,
        }
    }

    fn planner(h: HistoryOptions) -> Planner {
        Planner::new(
            PredictOptions {
                source: Source::History,
                correction: Correction::Estimate,
                history: h,
                ..Default::default()
            },
            100,
        )
    }

    #[test]
    fn average_of_the_last_two_capped_at_the_estimate() {
        let mut p = planner(HistoryOptions::default());
        assert_eq!(p.arrive(&job(0, 7, 1000), 0), 1000, "no history: the estimate");
        p.ended(&job(0, 7, 1000), 100);
        assert_eq!(p.arrive(&job(1, 7, 1000), 0), 100, "partial window: the one job");
        p.ended(&job(1, 7, 1000), 301);
        p.ended(&job(2, 7, 1000), 500);
        assert_eq!(p.arrive(&job(3, 7, 1000), 0), 400, "(301 + 500) / 2 rounded down");
        assert_eq!(p.arrive(&job(4, 7, 300), 0), 300, "capped at the estimate");
        assert_eq!(p.arrive(&job(5, 8, 900), 0), 900, "another user has no history");
    }

    #[test]
    fn window_types_fullness_and_metrics() {
        let h = HistoryOptions { window: 3, window_type: WindowType::Immediate, ..Default::default() };
        let mut p = planner(h);
        for (i, (rt, est)) in [(10, 100), (20, 200), (30, 100), (40, 100)].into_iter().enumerate() {
            p.ended(&job(i as u32, 1, est), rt);
        }
        // Last three: 40 (100), 30 (100), 20 (200): not all have the new job's estimate, so the
        // immediate window is not used (section 4): the estimate.
        assert_eq!(p.arrive(&job(10, 1, 100), 0), 100);
        // With a window of two, both last jobs have estimate 100: their mean.
        let mut two = planner(HistoryOptions { window: 2, ..h });
        for (i, (rt, est)) in [(10, 100), (20, 200), (30, 100), (40, 100)].into_iter().enumerate() {
            two.ended(&job(i as u32, 1, est), rt);
        }
        assert_eq!(two.arrive(&job(10, 1, 100), 0), 35);
        // A partial window of one matching job is used; a full window needs three.
        let mut part = planner(h);
        part.ended(&job(0, 1, 100), 10);
        assert_eq!(part.arrive(&job(10, 1, 100), 0), 10);
        let mut full = planner(HistoryOptions { fullness: Fullness::Full, ..h });
        full.ended(&job(0, 1, 100), 10);
        assert_eq!(full.arrive(&job(10, 1, 100), 0), 100, "window not full: estimate");
        let mut ext = planner(HistoryOptions { window_type: WindowType::Extended, metric: Metric::Max, ..h });
        for (i, (rt, est)) in [(10, 100), (20, 200), (30, 100), (40, 100), (50, 200)].into_iter().enumerate() {
            ext.ended(&job(i as u32, 1, est), rt);
        }
        assert_eq!(ext.arrive(&job(10, 1, 100), 0), 40, "extended: 40, 30, 10 have estimate 100");
        let mut med = planner(HistoryOptions { window: 4, metric: Metric::Med, ..Default::default() });
        for (i, rt) in [5, 1, 9, 7].into_iter().enumerate() {
            med.ended(&job(i as u32, 1, 100), rt);
        }
        assert_eq!(med.arrive(&job(10, 1, 100), 0), 6, "median of 1 5 7 9");
        let mut min = planner(HistoryOptions { window: 4, metric: Metric::Min, ..Default::default() });
        for (i, rt) in [5, 1, 9, 7].into_iter().enumerate() {
            min.ended(&job(i as u32, 1, 100), rt);
        }
        assert_eq!(min.arrive(&job(10, 1, 100), 0), 1);
    }

    #[test]
    fn history_is_only_jobs_submitted_before() {
        // Job 5 waits; jobs 6 and 7 (submitted after it) end first: predicting job 5 again
        // (propagation) uses jobs 0 and 1 only.
        let mut p = planner(HistoryOptions::default());
        for (i, rt) in [(0, 100), (1, 200), (6, 1000), (7, 1000)] {
            p.ended(&job(i, 1, 5000), rt);
        }
        assert_eq!(p.refresh(&job(5, 1, 5000)), 150);
        assert_eq!(p.arrive(&job(8, 1, 5000), 0), 1000);
    }

    #[test]
    fn predicting_at_a_pass_uses_every_terminated_job() {
        // Job 5 waits; jobs 6 and 7 (submitted after it) end: predicted at a pass (pyss), it is
        // their mean; propagation would use jobs 0 and 1 (150, see above).
        let mut p = planner(HistoryOptions::default());
        for (i, rt) in [(0, 100), (1, 200), (6, 1000), (7, 3000)] {
            p.ended(&job(i, 1, 5000), rt);
        }
        assert_eq!(p.repredict(&job(5, 1, 5000)), 2000);
        assert_eq!(p.planned(&job(5, 1, 5000)), 2000, "the new prediction is kept");
        assert_eq!(p.repredict(&job(4, 1, 1500)), 1500, "capped at the estimate");
    }

    #[test]
    fn relative_fallback_scales_the_estimate_by_past_accuracy() {
        let h = HistoryOptions { fullness: Fullness::Full, fallback: Fallback::Relative, ..Default::default() };
        let mut p = planner(h);
        assert_eq!(p.arrive(&job(0, 1, 1000), 0), 1000, "no history at all: the estimate");
        p.ended(&job(0, 1, 1000), 250);
        assert_eq!(p.arrive(&job(1, 1, 800), 0), 200, "window not full: 800 x 0.25");
    }

    #[test]
    fn corrections_per_strategy() {
        let run = |c: Correction, first: i64| {
            let mut p = Planner::new(PredictOptions { correction: c, ..Default::default() }, 1);
            p.arrive(&job(0, 1, 3600), 0);
            p.changed.insert(0, JobPlan { prediction: first, steps: 0 });
            (0..5).map(|_| p.correct(&job(0, 1, 3600)).unwrap_or(-1)).collect::<Vec<_>>()
        };
        // To the estimate, then +1 min, +15 min, +30 min, +1 h beyond it.
        assert_eq!(run(Correction::Estimate, 600), vec![3600, 3660, 4560, 6360, 9960]);
        // +1 min, +15, +30 min, then capped at the estimate, then gradual again beyond it.
        assert_eq!(run(Correction::Gradual, 600), vec![660, 1560, 3360, 3600, 3660]);
        assert_eq!(run(Correction::Exponential, 2000), vec![2400, 2880, 3456, 3600, 3660]);
        assert_eq!(run(Correction::Double, 600), vec![1200, 2400, 4800, 9600, 19200]);
        assert_eq!(run(Correction::None, 600), vec![-1; 5]);
    }
}
