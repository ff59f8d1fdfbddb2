"""Synthetic workloads from Python: `schedlab.generate` is the command line's `generate:` trace,
the same seed gives the same jobs, a target load is reached, and bad options are refused."""

import subprocess
import pathlib

import pandas as pd
import pytest

import schedlab

ROOT = pathlib.Path(__file__).resolve().parents[2]
CLI = ROOT / "target" / "release" / "schedlab"


def test_a_span_of_days_instead_of_a_number_of_jobs():
    t = schedlab.generate(days=5, load=0.8, seed=2)
    j = t.jobs
    assert j.submit.max() < 5 * 86400 and j.submit.max() > 4 * 86400
    load = (j.runtime * j.procs).sum() / ((j.submit.max() - j.submit.min()) * 128)
    assert abs(load / 0.8 - 1) <= 0.005
    assert len(t) == len(schedlab.load("generate:days=5,load=0.8,seed=2"))
    with pytest.raises(ValueError, match="jobs or days"):
        schedlab.generate(jobs=100, days=5)


def test_a_seed_is_a_workload_and_the_load_is_reached():
    t = schedlab.generate(machine=256, jobs=4000, load=0.85, seed=9)
    assert (len(t), t.machine, t.warnings) == (4000, 256, [])
    j = t.jobs
    again = schedlab.generate(machine=256, jobs=4000, load=0.85, seed=9).jobs
    assert j.equals(again)
    assert not j.equals(schedlab.generate(machine=256, jobs=4000, load=0.85, seed=10).jobs)
    load = (j.runtime * j.procs).sum() / ((j.submit.max() - j.submit.min()) * 256)
    assert abs(load / 0.85 - 1) <= 0.005
    # Batch (queue 1) and interactive (queue 0) jobs, estimates exact by default.
    assert set(j.queue) == {0, 1} and (j.estimate == j.runtime).all()
    doubled = schedlab.generate(machine=256, jobs=4000, load=0.85, seed=9, estimate=2).jobs
    assert (doubled.estimate >= 2 * doubled.runtime).all()
    # Tsafrir, Etsion & Feitelson's modal estimates: few distinct values, none under its runtime.
    tef = schedlab.generate(machine=256, jobs=4000, load=0.85, seed=9, estimate="tef").jobs
    assert (tef.estimate >= tef.runtime).all() and tef.estimate.nunique() <= 60


def test_the_same_as_the_command_line(tmp_path):
    f = tmp_path / "g.swf"
    out = subprocess.run(
        [str(CLI), "generate", "--machine", "64", "--jobs", "2000", "--load", "0.7", "--seed", "3", "-o", str(f)],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    mine = schedlab.simulate(schedlab.generate(machine=64, jobs=2000, load=0.7, seed=3), "easy")
    assert mine.schedule_hash == schedlab.simulate(schedlab.load(f), "easy").schedule_hash
    spelled = schedlab.load("generate:machine=64,jobs=2000,load=0.7,seed=3")
    assert schedlab.simulate(spelled, "easy").schedule_hash == mine.schedule_hash


def test_bad_options_are_refused():
    with pytest.raises(schedlab.Error, match="jobs=0: must be a whole number of jobs"):
        schedlab.generate(jobs=0)
    with pytest.raises(schedlab.Error, match="types=gpu"):
        schedlab.generate(types="gpu")


def test_loadsweep_equals_the_command_line(tmp_path):
    import json

    r = schedlab.loadsweep("generate:machine=64,jobs=2000", "fcfs,easy", loads=[0.5, 0.8], seeds=2)
    assert len(r.points) == 2 * 2 * 2 and len(r.summary) == 2 * 2
    out = subprocess.run(
        [str(CLI), "loadsweep", "generate:machine=64,jobs=2000", "-p", "fcfs,easy", "--loads", "0.5,0.8", "--seeds", "2", "-f", "json"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    cli = json.loads(out.stdout)
    assert cli["saturates_at"] == r.saturates_at
    mine = r.points.sort_values(["load", "seed", "policy"]).reset_index(drop=True)
    theirs = pd.DataFrame(cli["points"]).sort_values(["load", "seed", "policy"]).reset_index(drop=True)
    assert mine.equals(theirs[mine.columns])
    import matplotlib

    matplotlib.use("Agg")
    ax = r.plot("wait")
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert len(texts) == 2 and texts[0].startswith("fcfs (") and texts[1].startswith("easy (")
    # One line per policy, through its mean wait in hours at each load.
    fcfs = r.summary[r.summary.policy == "fcfs"]
    assert list(ax.get_lines()[0].get_ydata()) == list(fcfs.wait_mean / 3600)
