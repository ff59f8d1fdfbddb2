"""Two simple agents in schedlab.gym (RLScheduler's environment) against the heuristics.

    .venv/bin/python python/examples/gym_agents.py [EPISODES]

For the same seeded windows of SDSC-SP2 (256 jobs each), prints the mean bounded slowdown of
a random agent (a random valid slot), a greedy agent (the valid slot with the shortest
requested time: feature 1; with at most 128 waiting it is SJF, so it scores as the SJF baseline
does, a check that the observation shows what it should), the SJF and F1 baselines the environment computes at each reset,
and "EASY-like": slot 0 with backfil=True, i.e. the first-come job committed while jobs that
end (by their request) before its estimated start are backfilled, as RLScheduler backfills
(EASY without its extra-nodes rule). Lower is better.
"""

import pathlib
import sys

import numpy as np

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
    easy, _, _ = run(sg.SchedGymEnv(TRACE, backfil=True), first_slot, episodes)
    print(f"EASY-like (slot 0, backfil=True): {easy:.1f}")


if __name__ == "__main__":
    main()
