"""Policies and runtime predictors written in Python: EASY as a `schedlab.Policy` gives the
built-in schedule, a predictor that knows the true runtimes gives PERFECT's, hand-made passes
start and reserve as worked out in comments, and every fault reaches the caller."""

import pathlib
import warnings

import numpy as np
import pytest

import schedlab

ROOT = pathlib.Path(__file__).resolve().parents[2]
KTH = ROOT.parent / "shared" / "traces" / "KTH-SP2-1996-2.1-cln.swf.gz"


class Easy(schedlab.Policy):
    """EASY: start jobs in arrival order while they can; the first that cannot takes the
    earliest start in the profile; every later job starts if it fits now beside it."""

    def schedule(self, state):
        w = state.waiting
        for i in range(len(w)):
            if not state.start(w.index[i]):
                break
        else:
            return
        state.reserve(w.index[i], state.earliest_start(w.procs[i], w.prediction[i]))
        for j in np.flatnonzero(w.procs[i + 1 :] <= state.free) + i + 1:
            if state.fits_now(w.procs[j], w.prediction[j]):
                state.start(w.index[j])


@pytest.fixture(scope="module")
def kth():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", schedlab.TraceWarning)
        return schedlab.load(KTH)


def swf(machine, jobs):
    """An SWF trace of `jobs` (submit, runtime, procs, estimate), numbered from 1."""
    lines = [f"; MaxProcs: {machine}"]
    for k, (submit, run, procs, est) in enumerate(jobs, 1):
        lines.append(f"{k} {submit} 0 {run} {procs} -1 -1 {procs} {est} -1 1 1 1 1 1 -1 -1 -1")
    return ("\n".join(lines) + "\n").encode()


def test_easy_as_a_python_policy_gives_the_easy_schedule(kth):
    r = schedlab.simulate(kth, Easy())
    assert r.schedule_hash == schedlab.simulate(kth, "easy").schedule_hash
    assert r.policy == "Easy" and r.passes > 10_000
    assert (r.schedule["start"] >= r.schedule["submit"]).all()


def test_a_predictor_of_true_runtimes_gives_perfect(kth):
    runtime = kth.jobs["runtime"].to_numpy()
    perfect = schedlab.simulate(kth, "perfect").schedule_hash
    assert perfect != schedlab.simulate(kth, "easy").schedule_hash
    called = []

    def oracle(job):
        called.append(job["index"])
        return runtime[job["index"]]

    assert schedlab.simulate(kth, "easy", predictions=oracle).schedule_hash == perfect
    # Once per job, at its submission, in submission order.
    assert called == list(range(len(kth)))
    assert schedlab.simulate(kth, "easy", predictions=runtime).schedule_hash == perfect
    # A Python policy plans with the same predictions.
    assert schedlab.simulate(kth, Easy(), predictions=runtime).schedule_hash == perfect


def test_passes_by_hand():
    """4 processors. J1 (4 procs, estimate 100) runs from 0 and ends at 60. J2 (2 procs,
    estimate 50) arrives at 10: the pass sees it waiting 0 s, J1 running to 100, and reserves it
    at 100. J3 (2 procs, estimate 40) arrives at 20: J2 is reserved again at 100 and J3 cannot
    start (nothing is free). At 60 both start."""
    t = schedlab.load(swf(4, [(0, 60, 4, 100), (10, 50, 2, 50), (20, 30, 2, 40)]))
    seen = []

    class Watch(Easy):
        def schedule(self, state):
            w, r = state.waiting, state.running
            seen.append((state.now, state.free, list(w.index), list(w.wait), list(r.index), list(r.expected_end)))
            if state.now == 10:
                assert state.earliest_start(2, 50) == 100 and not state.fits_now(2, 50)
            super().schedule(state)

    r = schedlab.simulate(t, Watch(), observe="promises")
    assert seen == [
        (0, 4, [0], [0], [], []),
        (10, 0, [1], [0], [0], [100]),
        (20, 0, [1, 2], [10, 0], [0], [100]),
        (60, 4, [1, 2], [50, 40], [], []),
    ]
    assert list(r.schedule["start"]) == [0, 60, 60]


def test_faults_reach_the_caller(kth):
    class Raises(schedlab.Policy):
        def schedule(self, state):
            raise KeyError("my bug")

    with pytest.raises(KeyError, match="my bug"):
        schedlab.simulate(kth, Raises())

    class Twice(schedlab.Policy):
        def schedule(self, state):
            state.start(state.waiting.index[0])
            state.start(state.waiting.index[0])

    with pytest.raises(ValueError, match="already started in this pass"):
        schedlab.simulate(kth, Twice())

    kept = []

    class Keeps(schedlab.Policy):
        def schedule(self, state):
            kept.append(state)
            state.start(state.waiting.index[0])

    schedlab.simulate(schedlab.load(swf(4, [(0, 10, 1, 10)])), Keeps())
    with pytest.raises(ValueError, match="pass that is over"):
        kept[0].free

    class Nothing(schedlab.Policy):
        pass

    with pytest.raises(NotImplementedError):
        schedlab.simulate(kth, Nothing())

    runtime = kth.jobs["runtime"].to_numpy()
    with pytest.raises(schedlab.Error, match="NaN"):
        schedlab.simulate(kth, "easy", predictions=lambda job: float("nan"))
    with pytest.raises(ZeroDivisionError):
        schedlab.simulate(kth, "easy", predictions=lambda job: 1 / 0)
    with pytest.raises(schedlab.Error, match="5 values for a trace of 28467 jobs"):
        schedlab.simulate(kth, "easy", predictions=runtime[:5])
    with pytest.raises(schedlab.Error, match="job at index 7 is -1"):
        schedlab.simulate(kth, "easy", predictions=np.where(np.arange(len(runtime)) == 7, -1, runtime))
    with pytest.raises(schedlab.Error, match="backfilling family"):
        schedlab.simulate(kth, "relaxed", predictions=runtime)


def test_stalled_policies_and_misused_options_are_errors():
    t = schedlab.load(swf(4, [(0, 100, 4, 100), (10, 50, 2, 50)]))

    class Never(schedlab.Policy):
        def schedule(self, state):
            pass

    with pytest.raises(schedlab.Error, match="started none of the 2 waiting jobs on an idle machine"):
        schedlab.simulate(t, Never())

    class Later(schedlab.Policy):
        def schedule(self, state):
            state.reserve(state.waiting.index[0], state.now + 1)

    with pytest.raises(schedlab.Error, match="in 1000 passes, reserving them later each time"):
        schedlab.simulate(t, Later())
    with pytest.raises(schedlab.Error, match="k=1: a schedlab.Policy takes engine and metric options only"):
        schedlab.simulate(t, Easy(), k=1)
    assert schedlab.simulate(t, Easy(), observe="promises").policy == "Easy"

    class Named(Easy):
        name = "easy"

    with pytest.raises(schedlab.Error, match="name of a built-in policy"):
        schedlab.simulate(t, Named())
    Named.name = "has spaces"
    with pytest.raises(schedlab.Error, match="must be 1-40 letters"):
        schedlab.simulate(t, Named())
    with pytest.raises(schedlab.Error, match="the one for the job at index 0 is 1e\\+30"):
        schedlab.simulate(t, "easy", predictions=[1e30, 10])
    with pytest.raises(schedlab.Error, match="the one for the job at index 1 is 0.3"):
        schedlab.simulate(t, "easy", predictions=[10, 0.3])


def test_expression_faults_are_errors_with_their_column():
    t = schedlab.load(swf(4, [(0, 100, 4, 100), (10, 50, 2, 50), (20, 50, 2, 200)]))
    # At 100 J2 has waited 90 s: 2 / 0.
    with pytest.raises(schedlab.Error, match=r"gives no number for job 2 at 100 s \(column 7: division by zero \(2 / 0\)\)"):
        schedlab.simulate(t, "custom", priority="procs / (wait - 90)")
    with pytest.raises(schedlab.Error, match=r"column 1: sqrt\(-4\) is not a number"):
        schedlab.simulate(t, "custom", priority="sqrt(-procs)")
    with pytest.raises(schedlab.Error, match=r"priority=\(wait: column 6: expected \"\)\" at the end"):
        schedlab.simulate(t, "custom", priority="(wait")
    with pytest.raises(schedlab.Error, match="nested more than 200 levels deep"):
        schedlab.simulate(t, "custom", priority="(" * 100_000 + "1" + ")" * 100_000)
    with pytest.raises(schedlab.Error, match="division by zero"):
        schedlab.simulate(t, "custom", priority="procs / (wait - 90)", predictions=[100, 50, 50])
