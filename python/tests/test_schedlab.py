"""The Python package against the command line: the same results, hashes and messages, the GIL
released while simulating, and sweeps on a Dask LocalCluster ranked as `schedlab sweep` ranks.

Traces come from ../shared beside the repository; the command line is the release build
(target/release/schedlab, built by the test command before these run)."""

import json
import os
import pathlib
import pickle
import subprocess
import threading
import time

import pandas as pd
import pytest

import schedlab

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
CLI = ROOT / "target" / "release" / "schedlab"
KTH = SHARED / "traces" / "KTH-SP2-1996-2.1-cln.swf.gz"
SDSC = SHARED / "traces" / "SDSC-SP2-1998-4.2-cln.swf.gz"
SACCT = SHARED / "accounting-logs" / "slurm2sql__test-data1.csv"
LSF = SHARED / "accounting-logs" / "hpccs__lsb.acct.16"


def cli(*args):
    out = subprocess.run([str(CLI), *map(str, args)], capture_output=True, text=True)
    return out


def cli_json(trace, policy, *sets):
    args = ["run", trace, "--policy", policy, "--format", "json"]
    for s in sets:
        args += ["--set", s]
    out = cli(*args)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.fixture(scope="module")
def kth():
    return schedlab.load(KTH)


@pytest.mark.parametrize(
    "path,policy,options",
    [
        (KTH, "easy", {}),
        (KTH, "conservative", {}),
        (KTH, "easy++", {"window": 3}),
        (SDSC, "relaxed", {"omega": 2}),
        (SDSC, "ss", {"sf": 2}),
        (SACCT, "fcfs", {}),
        (LSF, "easy", {"observe": "all"}),
    ],
)
def test_results_equal_the_command_line(path, policy, options):
    t = schedlab.load(path)
    r = schedlab.simulate(t, policy, **options)
    c = cli_json(path, policy, *[f"{k}={v}" for k, v in options.items()])
    assert r.schedule_hash == c["results"][0]["schedule_hash"]
    assert r.metrics == c["results"][0]["metrics"]
    assert r.options == c["results"][0]["options"]
    assert t.report == c["trace"]
    # The schedule as a table, one row per job, in the trace's order.
    s = r.schedule
    assert list(s.columns[:4]) == ["job_id", "submit", "start", "end"]
    assert len(s) == len(t) == c["trace"]["jobs_kept"]
    waits = (s["start"] - s["submit"]).where(s["start"] >= 0)
    assert waits.mean() == pytest.approx(r.metrics["avg_wait_s"], rel=1e-9)


def test_trace_options_report_and_jobs():
    t = schedlab.load(SACCT, tz="Europe/Helsinki", machine=8)
    assert t.machine == 8 and t.report["machine_source"] == "option"
    assert t.report["format"] == "Slurm sacct output"
    jobs = t.jobs
    assert list(jobs["id"]) == [43974388, 43977780]
    # 2019-07-31T22:29:13 in Helsinki (UTC+3) is 19:29:13 UTC.
    assert jobs["submit"][0] == 1564601353
    # Bytes read as a file is.
    same = schedlab.load(SACCT.read_bytes(), tz="Europe/Helsinki", machine=8)
    assert same.report == t.report and same.jobs.equals(jobs)


def test_errors_carry_the_command_line_messages(kth, tmp_path):
    with pytest.raises(schedlab.Error, match='unknown policy "nosuch"'):
        schedlab.simulate(kth, "nosuch")
    with pytest.raises(schedlab.Error) as e:
        schedlab.simulate(kth, "easy", window="many")
    assert "window" in str(e.value) and str(e.value) in cli("run", KTH, "--policy", "easy", "--set", "window=many").stderr
    with pytest.raises(schedlab.Error, match="is a trace option: give it to load"):
        schedlab.simulate(kth, "easy", machine=64)
    with pytest.raises(schedlab.Error, match="window is not a trace option"):
        schedlab.load(KTH, window=2)
    with pytest.raises(schedlab.Error, match="tz=Mars/Olympus: must be a time zone"):
        schedlab.load(SACCT, tz="Mars/Olympus")
    with pytest.raises(schedlab.Error, match="cannot read"):
        schedlab.load(tmp_path / "missing.swf")
    with pytest.raises(schedlab.Error, match="no usable jobs"):
        schedlab.load(b"not a trace\n")
    bad = tmp_path / "bad.swf"
    bad.write_text("; MaxProcs: 4\n1 0 -1 10 1\n")
    msg = cli("info", bad).stderr.strip().removeprefix("schedlab: ")
    with pytest.raises(schedlab.Error) as e:
        schedlab.load(bad)
    assert str(e.value) == msg


def test_policies_lists_every_policy_and_option():
    p = schedlab.policies()
    names = [x["name"] for x in p["policies"]]
    assert len(names) == 37 and "easy++" in names and "cons.72max" in names
    easy_pp = next(x for x in p["policies"] if x["name"] == "easy++")
    window = next(o for o in easy_pp["options"] if o["key"] == "window")
    assert window["default"] is not None
    assert {"tz", "partition", "machine"} <= {o["key"] for o in p["trace_options"]}


def test_a_trace_pickles_as_itself(kth):
    back = pickle.loads(pickle.dumps(kth))
    assert back.report == kth.report and back.jobs.equals(kth.jobs)
    assert schedlab.simulate(back, "easy").schedule_hash == schedlab.simulate(kth, "easy").schedule_hash
    assert len(pickle.dumps(kth)) < 32 * len(kth), "packed, a few bytes per job"


def test_the_gil_is_released_while_simulating(kth):
    """While one thread simulates, another runs Python: its loop turns during the call. (Were
    the GIL held for the whole native call, not one turn could happen inside it.)"""
    window = {}

    def work():
        window["from"] = time.perf_counter()
        schedlab.simulate(kth, "conservative")
        window["to"] = time.perf_counter()

    th = threading.Thread(target=work)
    turns = []
    th.start()
    while th.is_alive():
        turns.append(time.perf_counter())
    th.join()
    inside = [t for t in turns if window["from"] < t < window["to"]]
    assert len(inside) > 100, f"{len(inside)} turns of the main thread during the simulation"


def sweep_cli(*traces, axes):
    args = ["sweep", *traces, "--top", "1000"]
    for a in axes:
        args += ["--vary", a]
    out = cli(*args)
    assert out.returncode == 0, out.stderr
    rows = []
    for line in out.stdout.splitlines()[2:]:
        if not line.strip() or "mean degradation" in line:
            break
        rank, deg, *config = line.split()
        rows.append((int(rank), float(deg.rstrip("%")), " ".join(config)))
    return rows


def test_sweep_on_a_local_cluster_equals_the_command_line():
    from dask.distributed import Client, LocalCluster

    traces = [schedlab.load(SDSC), schedlab.load(KTH)]
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            df = schedlab.sweep(traces, "easy++", {"window": "1-3", "metric": ["avg", "max"]}, client=client)
            received = client.run(schedlab._schedlab.traces_received)
            # Again on the same client: the traces are sent anew, under keys of their own.
            again = schedlab.sweep(traces, "easy++", {"window": "1-3", "metric": ["avg", "max"]}, client=client)
            assert again.equals(df)
    # Each trace was shipped once to each of the two workers, not once per task (12 tasks).
    assert sorted(received.values()) == [2, 2]
    want = sweep_cli(SDSC, KTH, axes=["window=1-3", "metric=avg,max"])
    got = [(r.rank, round(r.degradation, 2), f"window={r.window} metric={r.metric}") for r in df.itertuples()]
    assert got == want
    assert isinstance(df, pd.DataFrame) and len(df) == 6
    # Each row's metrics are the plain simulation's.
    best = df.iloc[0]
    r = schedlab.simulate(traces[0], "easy++", window=best["window"], metric=best["metric"])
    assert best["SDSC-SP2-1998-4.2-cln:avg_wait_s"] == r.metrics["avg_wait_s"]


def test_sweep_errors_and_own_cluster():
    with pytest.raises(schedlab.Error):
        schedlab.sweep([KTH], "easy++", {"window": ["x-y-z"]}, workers=1)
    df = schedlab.sweep([SACCT], "easy++", {"window": [1, 2]}, workers=1)
    assert list(df["rank"]) == [1, 2]


def test_the_example_script_runs(tmp_path):
    png = tmp_path / "compare.png"
    out = subprocess.run(
        [os.sys.executable, str(ROOT / "python" / "examples" / "compare_and_sweep.py"), str(SDSC), str(png)],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    assert png.stat().st_size > 10_000
    assert "easy++" in out.stdout and "rank" in out.stdout
