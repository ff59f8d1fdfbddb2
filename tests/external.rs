//! Policies decided outside the engine ([`External`]): EASY written against the pass's profile
//! questions gives the built-in schedule job for job on every shared trace; an outside predictor equal to the true runtimes gives PERFECT's schedule;
//! refused actions and failing predictors stop the run with their reason.

mod common;

use schedlab::engine::{EngineOptions, JobView};
use schedlab::metrics::schedule_hash;
use schedlab::policy::external::{Decide, External, Pass};
use schedlab::policy::Configured;
use schedlab::predict::{GivenPredictions, Predictor};
use schedlab::run::{configure, run_one, simulate_policy, Settings};
use schedlab::trace::{parse, Trace, TraceOptions};

/// EASY as a user writes it: start jobs in arrival order while they can; the first that cannot
/// takes the earliest start in the profile; every later job starts if it fits now beside it.
struct Easy;

impl Decide for Easy {
    fn decide(&mut self, pass: &mut Pass) -> Result<(), String> {
        let waiting = pass.waiting().to_vec();
        let mut jobs = waiting.iter();
        for w in jobs.by_ref() {
            if !pass.start(w.idx).map_err(|e| e.0)? {
                let at = pass.earliest_start(w.procs as i64, w.planned).ok_or("wider than the machine")?;
                pass.reserve(w.idx, at).map_err(|e| e.0)?;
                break;
            }
        }
        for w in jobs {
            if pass.fits_now(w.procs as i64, w.planned) {
                pass.start(w.idx).map_err(|e| e.0)?;
            }
        }
        Ok(())
    }
}

fn external<D: Decide>(trace: &Trace, d: D, predictor: Option<Box<dyn Predictor>>) -> (String, Option<String>) {
    let origin = trace.jobs.first().map_or(0, |j| j.submit);
    let mut policy = External::new(d, trace.machine, trace.jobs.len(), origin, predictor);
    let cfg = Configured::external("mine");
    let outcome = simulate_policy(trace, &cfg, &mut policy, &EngineOptions::default(), &mut |_| true);
    (schedule_hash(trace, &outcome), outcome.failed)
}

fn built_in(trace: &Trace, name: &str) -> String {
    let s = Settings::parse::<&str>(&[]).expect("settings");
    let cfg = &configure(name, &s).expect("configures")[0];
    let (outcome, _) = run_one(trace, cfg, &s);
    schedule_hash(trace, &outcome)
}

fn shared(file: &str) -> Trace {
    parse(&common::read_shared(&format!("traces/{file}")), &TraceOptions::default()).expect("parses")
}

#[test]
fn easy_written_outside_gives_the_built_in_schedule_on_every_shared_trace() {
    for file in common::shared_traces() {
        let t = shared(&file);
        assert_eq!(external(&t, Easy, None), (built_in(&t, "easy"), None), "{file}: EASY");
    }
}

/// A predictor that knows each job's true runtime, asked at submission.
struct Oracle(Vec<i64>);

impl Predictor for Oracle {
    fn predict(&mut self, job: &JobView) -> Result<i64, String> {
        Ok(self.0[job.idx as usize])
    }
}

#[test]
fn true_runtimes_as_predictions_give_perfect() {
    let t = shared("KTH-SP2-1996-2.1-cln.swf.gz");
    let truth: Vec<i64> = t.jobs.iter().map(|j| j.runtime).collect();
    let perfect = built_in(&t, "perfect");
    assert_ne!(perfect, built_in(&t, "easy"));
    // Through an External decider, and through the built-in EASY given the predictions.
    assert_eq!(external(&t, Easy, Some(Box::new(Oracle(truth.clone())))), (perfect.clone(), None));
    let s = Settings::parse::<&str>(&[]).expect("settings");
    let cfg = &configure("easy", &s).expect("configures")[0];
    let mut policy = cfg.build_with_predictor(&t, Box::new(GivenPredictions(truth))).expect("easy predicts");
    let outcome = simulate_policy(&t, cfg, policy.as_mut(), &s.engine, &mut |_| true);
    assert_eq!(schedule_hash(&t, &outcome), perfect);
}

#[test]
fn predictions_only_for_the_backfilling_family() {
    let t = common::trace(&common::swf(4, &[(0, 100, 4, 100)]));
    let s = Settings::parse::<&str>(&[]).expect("settings");
    let cfg = &configure("relaxed", &s).expect("configures")[0];
    let err = cfg.build_with_predictor(&t, Box::new(GivenPredictions(vec![1]))).err().expect("refused");
    assert!(err.contains("backfilling family"), "{err}");
}

/// A bad prediction or a refused action stops the run where it happened, saying why.
#[test]
fn faults_stop_the_run_with_their_reason() {
    let t = common::trace(&common::swf(4, &[(0, 100, 4, 100), (10, 50, 2, 50)]));
    let (_, failed) = external(&t, Easy, Some(Box::new(GivenPredictions(vec![100, -5]))));
    let failed = failed.expect("stopped");
    assert!(failed.contains("predictions must be positive") && failed.contains("job 2"), "{failed}");

    struct Twice;
    impl Decide for Twice {
        fn decide(&mut self, pass: &mut Pass) -> Result<(), String> {
            let idx = pass.waiting()[0].idx;
            pass.start(idx).map_err(|e| e.0)?;
            pass.start(idx).map_err(|e| e.0)?;
            Ok(())
        }
    }
    let (_, failed) = external(&t, Twice, None);
    assert_eq!(failed.as_deref(), Some("job index 0 has already started in this pass"));
}

/// By hand, 4 processors: J1 (4 procs, estimate 100) runs from 0; J2 (2 procs, estimate 50)
/// arrives at 10 and is reserved at 100 (J1's planned end); J3 (2 procs, estimate 40) arrives at
/// 20 and cannot backfill (nothing is free). J1 ends at 60: J2 and J3 start together.
#[test]
fn a_reservation_is_logged_and_starts_follow_the_profile() {
    let t = common::trace(&common::swf(4, &[(0, 60, 4, 100), (10, 50, 2, 50), (20, 30, 2, 40)]));
    let origin = 0;
    let mut policy = External::new(Easy, t.machine, t.jobs.len(), origin, None);
    let cfg = Configured::external("mine");
    let outcome = simulate_policy(&t, &cfg, &mut policy, &EngineOptions::default(), &mut |_| true);
    let starts: Vec<i64> = outcome.records.iter().map(|r| r.start).collect();
    assert_eq!(starts, vec![0, 60, 60]);
}

/// A decider that never starts anything, or only ever reserves a second later, stops the run
/// with its reason instead of ending quietly or running forever.
#[test]
fn a_decider_that_never_starts_stops_the_run() {
    let t = common::trace(&common::swf(4, &[(0, 100, 4, 100), (10, 50, 2, 50)]));
    struct Never;
    impl Decide for Never {
        fn decide(&mut self, _: &mut Pass) -> Result<(), String> {
            Ok(())
        }
    }
    let (_, failed) = external(&t, Never, None);
    assert_eq!(
        failed.as_deref(),
        Some("the policy started none of the 2 waiting jobs on an idle machine with no job left to arrive, and reserved none: they would wait forever")
    );
    struct Later;
    impl Decide for Later {
        fn decide(&mut self, pass: &mut Pass) -> Result<(), String> {
            let (idx, at) = (pass.waiting()[0].idx, pass.now() + 1);
            pass.reserve(idx, at).map_err(|e| e.0)
        }
    }
    let (_, failed) = external(&t, Later, None);
    let failed = failed.expect("stopped");
    assert!(failed.contains("in 1000 passes, reserving them later each time"), "{failed}");
}
