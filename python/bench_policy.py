"""Figures for docs/PERFORMANCE.md: policies written in Python against the built-in ones, and
the cost of a runtime predictor called from Python at each submission.

    .venv/bin/python python/bench_policy.py [TRACE]   (default: HPC2N)"""

import pathlib
import sys
import time
import warnings

import numpy as np

import schedlab

ROOT = pathlib.Path(__file__).resolve().parents[1]
TRACE = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "traces" / "HPC2N-2002-2.2-cln.swf.gz"


class Fcfs(schedlab.Policy):
    """Strict arrival order: the least a policy can do at a pass."""

    def schedule(self, state):
        w = state.waiting
        for i in range(len(w)):
            if not state.start(w.index[i]):
                return


class Easy(schedlab.Policy):
    """EASY, as in the package's documentation."""

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


def timed(f):
    t = time.perf_counter()
    r = f()
    return r, time.perf_counter() - t


def main():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", schedlab.TraceWarning)
        trace = schedlab.load(TRACE)
    print(f"{TRACE.name}: {len(trace)} jobs on {trace.machine} processors")
    for name, policy, twin in [("FCFS", Fcfs(), "fcfs"), ("EASY", Easy(), "easy")]:
        built, tb = timed(lambda: schedlab.simulate(trace, twin))
        mine, tp = timed(lambda: schedlab.simulate(trace, policy))
        same = "same schedule" if mine.schedule_hash == built.schedule_hash else "DIFFERENT schedule"
        print(
            f"{name:5} in Python: {tp:6.2f} s, {mine.passes} passes, {tp / mine.passes * 1e6:5.1f} us a pass;"
            f" built-in {tb:.3f} s ({same})"
        )
    runtime = trace.jobs["runtime"].to_numpy()
    perfect, tb = timed(lambda: schedlab.simulate(trace, "perfect"))
    given, ta = timed(lambda: schedlab.simulate(trace, "easy", predictions=runtime))
    called, tc = timed(lambda: schedlab.simulate(trace, "easy", predictions=lambda job: runtime[job["index"]]))
    ok = perfect.schedule_hash == given.schedule_hash == called.schedule_hash
    print(
        f"predictions: built-in perfect {tb:.3f} s; an array {ta:.3f} s; a callable {tc:.2f} s"
        f" ({(tc - tb) / len(trace) * 1e6:.1f} us a job){'' if ok else ' DIFFERENT schedules'}"
    )


if __name__ == "__main__":
    main()
