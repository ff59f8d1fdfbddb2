"""Steps per second of schedlab.gym on one core: the single environment through Python's
``env.step`` (slot-0 and random-valid agents, backfilling off and on) and the vector
environment, SDSC-SP2, window 256. Times include ``reset`` (with its SJF and F1 runs).

    .venv/bin/python python/bench_gym.py [EPISODES]

The Rust core alone: ``cargo run --release --example rlenv_bench``.
"""

import pathlib
import sys
import time

import numpy as np

import schedlab.gym as sg

TRACE = pathlib.Path(__file__).resolve().parents[2] / "shared" / "traces" / "SDSC-SP2-1998-4.2-cln.swf.gz"


def single(episodes: int, backfil: bool, agent: str):
    env = sg.SchedGymEnv(TRACE, backfil=backfil)
    rng = np.random.default_rng(0)
    steps, total, reset_s, step_s = 0, 0.0, 0.0, 0.0
    t0 = time.perf_counter()
    for ep in range(episodes):
        r0 = time.perf_counter()
        obs, info = env.reset(seed=0 if ep == 0 else None)
        reset_s += time.perf_counter() - r0
        while True:
            if agent == "slot0":
                a = 0
            else:
                valid = np.flatnonzero(info["action_mask"])
                a = int(valid[rng.integers(len(valid))])
            s0 = time.perf_counter()
            obs, r, term, _, info = env.step(a)
            step_s += time.perf_counter() - s0
            steps += 1
            if term:
                total += r
                break
    dt = time.perf_counter() - t0
    return steps / dt, steps / (dt - reset_s), steps / step_s, episodes / dt, 1e3 * reset_s / episodes, total / episodes


def vector(n: int, rounds: int, backfil: bool, agent: str):
    venv = sg.SchedGymVectorEnv(n, TRACE, backfil=backfil)
    rng = np.random.default_rng(0)
    obs, infos = venv.reset(seed=0)
    t0 = time.perf_counter()
    for _ in range(rounds):
        if agent == "slot0":
            actions = np.zeros(n, dtype=np.int64)
        else:
            masks = infos["action_mask"]
            # A random valid slot per environment, vectorised: the largest random key among valid slots.
            keys = np.where(masks, rng.random(masks.shape), -1.0)
            actions = keys.argmax(axis=1)
        obs, rewards, terms, truncs, infos = venv.step(actions)
    dt = time.perf_counter() - t0
    return n * rounds / dt


def main():
    episodes = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    print(f"trace {TRACE.name}, window 256, bsld; single env: {episodes} episodes per row")
    print("steps/s: all of it, the agent included; step-only: without reset; in env.step: the time inside env.step alone")
    print(f"{'backfil':<8} {'agent':<8} {'steps/s':>10} {'step-only/s':>12} {'in env.step/s':>14} {'episodes/s':>11} {'reset ms':>9} {'mean reward':>12}")
    for backfil in (False, True):
        for agent in ("slot0", "random"):
            s, so, ins, e, rm, mr = single(episodes, backfil, agent)
            print(f"{str(backfil):<8} {agent:<8} {s:>10.0f} {so:>12.0f} {ins:>14.0f} {e:>11.1f} {rm:>9.3f} {mr:>12.1f}")
    for n in (16, 64):
        rounds = max(1, episodes * 256 // n)
        for backfil in (False, True):
            for agent in ("slot0", "random"):
                print(f"vector env n={n:<3} backfil {str(backfil):<5} {agent:<6}: {vector(n, rounds, backfil, agent):>10.0f} env-steps/s")


if __name__ == "__main__":
    main()
