"""Two simple agents in schedlab.gym (RLScheduler's environment) against the heuristics.

    .venv/bin/python python/examples/gym_agents.py [EPISODES]

For the same seeded windows of SDSC-SP2 (256 jobs each), prints the mean bounded slowdown of
a random agent (a random valid slot), a greedy agent (the valid slot with the shortest
requested time: feature 1; with at most 128 waiting it is SJF, so it scores as the SJF baseline
does, a check that the observation shows what it should), the SJF and F1 baselines the environment computes at each reset,
"EASY-like": slot 0 with backfil=True, i.e. the first-come job committed while jobs that
end (by their request) before its estimated start are backfilled, as RLScheduler backfills
(EASY without its extra-nodes rule), and SchedLab's own `easy` on the same windows (each
window's 256 jobs as RLScheduler reads them, simulated from an empty machine, jobs running past
their request kept running as the environment keeps them). Lower is better.
"""

import gzip
import pathlib
import sys

import numpy as np

import schedlab
import schedlab.gym as sg

TRACE = pathlib.Path(__file__).resolve().parents[3] / "shared" / "traces" / "SDSC-SP2-1998-4.2-cln.swf.gz"


def run(env, choose, episodes, seed=0):
    """Mean total score (minus the reward), and the mean SJF and F1 scores, over `episodes`."""
    totals, sjf, f1 = [], [], []
    for ep in range(episodes):
        obs, info = env.reset(seed=seed if ep == 0 else None)
        while True:
            obs, r, term, _, info = env.step(choose(obs, info["action_mask"]))
            if term:
                totals.append(-r)
                sjf.append(info["sjf_score"])
                f1.append(info["f1_score"])
                break
    return np.mean(totals), np.mean(sjf), np.mean(f1)


def rlscheduler_jobs():
    """The trace's jobs as RLScheduler reads them (../shared/models/rlscheduler-env.md): sorted
    by job id, run time 0 dropped, -1 made 10 s, processors max(allocated, requested), the
    request the run time where it is -1. Rows of (id, submit, run, procs, request)."""
    jobs = []
    for line in gzip.open(TRACE, "rt"):
        if line.startswith(";") or not line.strip():
            continue
        f = line.split()
        run = int(f[3])
        if run == 0:
            continue
        run = 10 if run < 0 else run
        request = int(f[8]) if int(f[8]) != -1 else int(f[3])
        jobs.append((int(f[0]), int(f[1]), run, max(int(f[4]), int(f[7])), request))
    jobs.sort(key=lambda j: j[0])
    return jobs


def schedlab_easy(jobs, starts, window=256):
    """Mean bounded slowdown of SchedLab's `easy` on each window, as the environment scores it."""
    scores = []
    for start in starts:
        lines = ["; MaxProcs: 128"]
        for k, (_, submit, run, procs, request) in enumerate(jobs[start : start + window], 1):
            lines.append(f"{k} {submit} -1 {run} {procs} -1 -1 {procs} {max(request, 1)} -1 1 1 1 1 1 -1 -1 -1")
        trace = schedlab.load(("\n".join(lines) + "\n").encode(), overrun="run")
        s = schedlab.simulate(trace, "easy").schedule
        wait = s.start - s.submit
        scores.append(np.maximum(1, (wait + s.runtime) / np.maximum(s.runtime, 10)).mean())
    return float(np.mean(scores))


def main():
    episodes = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    rng = np.random.default_rng(1)

    def random_agent(obs, mask):
        return int(rng.choice(np.flatnonzero(mask)))

    def shortest_request(obs, mask):
        request = obs.reshape(128, 8)[:, 1]
        return int(np.flatnonzero(mask)[np.argmin(request[mask])])

    def first_slot(obs, mask):
        return 0

    for backfil in (False, True):
        env = sg.SchedGymEnv(TRACE, backfil=backfil)
        print(f"SDSC-SP2, {episodes} windows of 256 jobs, seed 0, backfil={backfil}: mean bounded slowdown")
        rand, sjf, f1 = run(env, random_agent, episodes)
        greedy, _, _ = run(env, shortest_request, episodes)
        print(f"  random agent        {rand:10.1f}")
        print(f"  shortest request    {greedy:10.1f}")
        print(f"  SJF baseline        {sjf:10.1f}")
        print(f"  F1 baseline         {f1:10.1f}")
    env = sg.SchedGymEnv(TRACE, backfil=True)
    starts = []
    easy, _, _ = run(env, first_slot, episodes)
    # The same windows again, to run SchedLab's EASY on them.
    probe = sg.SchedGymEnv(TRACE, compute_baselines=False)
    for ep in range(episodes):
        starts.append(probe.reset(seed=0 if ep == 0 else None)[1]["start_index"])
    print(f"EASY-like (slot 0, backfil=True):       {easy:.1f}")
    print(f"SchedLab's easy on the same windows:    {schedlab_easy(rlscheduler_jobs(), starts):.1f}")


if __name__ == "__main__":
    main()
