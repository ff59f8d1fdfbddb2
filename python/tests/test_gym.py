"""schedlab.gym: the RLScheduler-compatible Gymnasium environment against the reference
numbers of ../shared/models/rlscheduler-env.md (measured on the original code)."""

import pathlib

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import schedlab
import schedlab.gym as sg

ROOT = pathlib.Path(__file__).resolve().parents[2]
SDSC = ROOT.parent / "shared" / "traces" / "SDSC-SP2-1998-4.2-cln.swf.gz"

# (start index, steps, reward, SJF, F1): seed 0, always slot 0, backfil off then on.
REFERENCE = {
    False: [
        (35696, 256, -156.66327398947743, 100.48606075770593, 45.729513153497926),
        (23118, 256, -26.91489755432447, 25.065594234336075, 545.6949669237856),
        (56646, 256, -1010.7680385864236, 375.43931455705575, 318.2281891573649),
        (1339, 256, -7.0457383870769625, 8.298132805786507, 6.295657191659674),
        (2493, 256, -294.6745088805854, 147.98765421788036, 93.36969702719637),
    ],
    True: [
        (35696, 122, -33.256496985064366, 69.03198258070226, 24.097781637093846),
        (23118, 247, -22.18724105326731, 22.08548821961193, 22.76663909027936),
        (56646, 114, -217.86983246424273, 189.85757546889081, 204.47954016768762),
        (1339, 244, -5.154627920621171, 5.401686668174907, 5.782281598125666),
        (2493, 136, -47.0366154148939, 31.90176731852341, 29.045038004483917),
    ],
}


@pytest.mark.parametrize("kwargs", [{}, {"backfil": True, "skip": True}, {"dtype": np.float64, "job_score_type": 3}])
def test_env_checker_passes(kwargs):
    check_env(sg.SchedGymEnv(SDSC, **kwargs), skip_render_check=True)


@pytest.mark.parametrize("backfil", [False, True])
def test_always_first_slot_gives_the_reference_rewards(backfil):
    env = gymnasium.make(sg.ENV_ID, trace=str(SDSC), backfil=backfil)
    for k, (start, steps, reward, sjf, f1) in enumerate(REFERENCE[backfil]):
        obs, info = env.reset(seed=0 if k == 0 else None)
        assert info["start_index"] == start
        assert info["critic_obs"].shape == (768,)
        n = 0
        while True:
            obs, r, terminated, truncated, info = env.step(0)
            n += 1
            assert not truncated
            if terminated:
                break
            assert r == 0.0
        assert (n, info["episode_len"]) == (steps, steps)
        assert r == reward
        assert (info["sjf_score"], info["f1_score"]) == (sjf, f1)
        assert info["best_minus_rl"] == min(sjf, f1) + reward
        assert obs.shape == (1024,) and not info["action_mask"].any()


def test_first_observation_exact_and_float32():
    slot0 = [0, 0.001411186396163141, 0.0078125, 1, 0.3180778032036613, 0.43037974683544306, 0.1969979814536569, 0.99999]
    exact = sg.SchedGymEnv(SDSC, dtype=np.float64)
    obs, info = exact.reset(seed=0)
    assert obs.dtype == np.float64 and list(obs[:8]) == slot0
    assert (obs[8:].reshape(127, 8) == [0, 1, 1, 1, 1, 1, 1, 0]).all()
    assert info["action_mask"].tolist() == [True] + [False] * 127
    f32 = sg.SchedGymEnv(SDSC)
    obs32, _ = f32.reset(seed=0)
    assert obs32.dtype == np.float32 and obs32 in f32.observation_space
    np.testing.assert_array_equal(obs32, obs.astype(np.float32))


def test_seeding_and_start_index():
    env = sg.SchedGymEnv(SDSC, compute_baselines=False)
    starts = [env.reset(seed=0)[1]["start_index"]] + [env.reset()[1]["start_index"] for _ in range(2)]
    assert starts == [35696, 23118, 56646]
    assert env.reset(seed=0)[1]["start_index"] == 35696
    _, info = env.reset(options={"start_index": 1339})
    assert info["start_index"] == 1339
    # Waits: an empty slot is a wait, not an error.
    obs, r, term, _, info = env.step(127)
    assert (r, term) == (0.0, False)
    obs, r, term, _, info = env.step(0)
    while not term:
        obs, r, term, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert np.isnan(info["sjf_score"])


def test_vector_env_agrees_with_single_envs():
    n = 3
    venv = sg.SchedGymVectorEnv(n, SDSC, backfil=True)
    singles = [sg.SchedGymEnv(SDSC, backfil=True) for _ in range(n)]
    obs, infos = venv.reset(seed=11)
    assert obs.shape == (n, 1024) and obs.dtype == np.float32
    single_infos = []
    for i, e in enumerate(singles):
        o, inf = e.reset(seed=11 + i)
        np.testing.assert_array_equal(obs[i], o)
        single_infos.append(inf)
    rng = np.random.default_rng(5)
    done = np.zeros(n, bool)
    endings = 0
    for t in range(800):
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in infos["action_mask"]])
        obs, rewards, terms, truncs, infos = venv.step(actions)
        for i, e in enumerate(singles):
            if done[i]:
                o, single_infos[i] = e.reset()
                r, term = 0.0, False
            else:
                o, r, term, _, single_infos[i] = e.step(int(actions[i]))
                if term:
                    endings += 1
                    assert infos["_sjf_score"][i]
                    assert infos["sjf_score"][i] == single_infos[i]["sjf_score"]
                    assert infos["episode_len"][i] == single_infos[i]["episode_len"]
            np.testing.assert_array_equal(obs[i], o, err_msg=f"env {i} step {t}")
            np.testing.assert_array_equal(infos["action_mask"][i], single_infos[i]["action_mask"])
            assert (rewards[i], terms[i]) == (r, term)
        done = terms.copy()
        assert not truncs.any()
    assert endings >= 3


def test_bad_trace_names_line_and_field():
    with pytest.raises(schedlab.Error, match=r"line 2: field 5 \(allocated processors\)"):
        sg.SchedGymEnv("; MaxNodes: 4\n1 0 0 10 x -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1\n")


def test_actions_outside_the_space_and_options_out_of_range_are_refused():
    for options, said in [
        ({"job_score_type": 7}, "job_score_type=7: must be a whole number, 0 to 4"),
        ({"window": 0}, "window=0: must be a whole number, 1 or more"),
        ({"batch_job_slice": -3}, "batch_job_slice=-3: must be a whole number, 0 or more"),
    ]:
        with pytest.raises(schedlab.Error, match=said):
            sg.SchedGymEnv(SDSC, **options)
    env = sg.SchedGymEnv(SDSC)
    env.reset(seed=0)
    for a in (-1, 128):
        with pytest.raises(ValueError, match=f"action {a} is outside Discrete"):
            env.step(a)
    # An empty slot inside the space is the original's wait: no error, no reward.
    obs, reward, terminated, truncated, info = env.step(127)
    assert (reward, terminated) == (0.0, False)
    with pytest.raises(schedlab.Error, match="num_envs=0"):
        sg.SchedGymVectorEnv(0, SDSC)
    venv = sg.SchedGymVectorEnv(2, SDSC)
    venv.reset(seed=0)
    with pytest.raises(ValueError, match="action 200 of environment 1"):
        venv.step([0, 200])


def test_the_agents_example_runs():
    import subprocess
    import sys

    example = ROOT / "python" / "examples" / "gym_agents.py"
    out = subprocess.run([sys.executable, str(example), "3"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    rows = [l.rsplit(None, 1) for l in out.stdout.splitlines() if l.startswith(("  ", "EASY", "SchedLab"))]
    greedy = [v for k, v in rows if k == "  shortest request"]
    sjf = [v for k, v in rows if k == "  SJF baseline"]
    # The greedy agent picks the shortest request: SJF, the baseline's score to the digit, with
    # and without backfilling.
    assert len(greedy) == 2 and greedy == sjf
    assert float(dict(rows)["SchedLab's easy on the same windows:"]) >= 1.0
