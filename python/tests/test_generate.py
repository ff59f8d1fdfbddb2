"""Synthetic workloads from Python: `schedlab.generate` is the command line's `generate:` trace,
the same seed gives the same jobs, a target load is reached, and bad options are refused."""

import subprocess
import pathlib

import pytest

import schedlab

ROOT = pathlib.Path(__file__).resolve().parents[2]
CLI = ROOT / "target" / "release" / "schedlab"


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
