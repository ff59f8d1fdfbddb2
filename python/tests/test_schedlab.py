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
import warnings

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
    waits = s["start"] - s["submit"]  # missing for a job that never ran
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
    assert len(names) == 40 and "easy++" in names and "slurm" in names and "cons.72max" in names and names[-1] == "custom"
    custom = next(x for x in p["policies"] if x["name"] == "custom")
    assert {"priority", "k", "name"} <= {o["key"] for o in custom["options"]}
    easy_pp = next(x for x in p["policies"] if x["name"] == "easy++")
    window = next(o for o in easy_pp["options"] if o["key"] == "window")
    assert window["default"] is not None
    assert {"tz", "partition", "machine"} <= {o["key"] for o in p["trace_options"]}


def test_a_policy_in_one_line(kth):
    # Arrival order with one reservation is EASY, job for job.
    mine = schedlab.simulate(kth, "custom", priority="-submit", k=1, name="mine")
    assert mine.schedule_hash == schedlab.simulate(kth, "easy").schedule_hash
    assert mine.policy == "mine"
    wfp3 = schedlab.simulate(kth, "custom", priority="(wait / estimate)^3 * procs", k=1)
    assert wfp3.schedule_hash != mine.schedule_hash and wfp3.metrics["jobs_unfinished"] == 0
    with pytest.raises(schedlab.Error, match=r'priority=wait / estmate: column 8: unknown name "estmate"'):
        schedlab.simulate(kth, "custom", priority="wait / estmate")


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
    # Each trace reached each of the two workers, and far fewer times than once per task (12
    # tasks): broadcast once to each, plus any copy Dask's balancing makes between workers.
    assert len(received) == 2 and min(received.values()) >= 2 and sum(received.values()) < 12, received
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


# Hand-made SWF lines: job, submit, wait, runtime, procs, cpu, memory, requested procs,
# requested time (the user's estimate), requested memory, status, user, group, app, queue,
# partition, preceding job, think time.
JOBS = (
    "1 0 -1 100 2 -1 -1 2 200 -1 1 1 1 -1 1 -1 -1 -1\n"
    "2 10 -1 50 4 -1 -1 4 60 -1 1 2 1 -1 1 -1 -1 -1\n"
    "3 20 -1 30 1 -1 -1 1 100 -1 1 1 1 -1 1 -1 -1 -1\n"
)
NO_ESTIMATES = "\n".join(" ".join("-1" if i == 8 else f for i, f in enumerate(line.split())) for line in JOBS.splitlines()) + "\n"


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_loader_warnings_are_issued_and_kept(tmp_path):
    path = write(tmp_path / "noest.swf", "; MaxProcs: 4\n" + NO_ESTIMATES)
    with pytest.warns(schedlab.TraceWarning, match="the trace has no user estimates") as caught:
        t = schedlab.load(path)
    remark = "the trace has no user estimates: runtimes stand in for them (estimates are exact)"
    assert [str(w.message) for w in caught] == [f"{path}: {remark}"]
    # At the line that called load(), not inside the package.
    assert caught[0].filename == __file__
    assert t.warnings == t.report["warnings"] == [remark]
    assert issubclass(schedlab.TraceWarning, UserWarning) and "TraceWarning" in schedlab.__all__
    # Results keep them, and simulate() does not issue them again.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = schedlab.simulate(t, "easy")
    assert r.warnings == [remark]

    # A header without MaxProcs: the widest job sizes the machine, and says so.
    path = write(tmp_path / "nomax.swf", JOBS)
    with pytest.warns(schedlab.TraceWarning, match=r"the header has no MaxProcs: the widest job \(4 processors, line 2\) sizes the machine") as caught:
        t = schedlab.load(path)
    assert len(caught) == 1 and t.machine == 4 and t.report["machine_source"] == "widest job"

    # Malformed lines are skipped with a warning, as the command line tells on reading.
    path = write(tmp_path / "bad.swf", "; MaxProcs: 4\n" + JOBS + "4 30 -1 x 1 -1 -1 1 100 -1 1 1 1 -1 1 -1 -1 -1\n")
    with pytest.warns(schedlab.TraceWarning, match=r"1 malformed line\(s\) skipped .*the first: line 5: field") as caught:
        t = schedlab.load(path)
    assert len(t) == 3 and t.report["errors_total"] == 1
    # A quarter of the job lines lost is also said as a share of the trace.
    said = [str(w.message).split(": ", 1)[1] for w in caught]
    assert len(said) == 2 and said.count(
        "this trace lost 25% of its job lines (1 of 4): 1 malformed (first at line 5); every figure describes the rest"
    ) == 1


def test_a_clean_trace_warns_of_nothing(tmp_path):
    path = write(tmp_path / "clean.swf", "; MaxProcs: 4\n" + JOBS)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        t = schedlab.load(path)
        # The option answers what the header does not: no warning either.
        u = schedlab.load(write(tmp_path / "nomax.swf", JOBS), machine=4)
    assert t.warnings == [] and u.warnings == [] and len(t) == len(u) == 3


def test_sweep_labels_tell_traces_apart():
    from types import SimpleNamespace as T

    from schedlab.sweep import _labels

    traces = [
        T(name="/x/a/log.swf", options=[]),
        T(name="/y/a/log.swf.gz", options=[]),
        T(name="/x/b/log.swf", options=["load=1.3"]),
        T(name="/x/b/log.swf", options=[]),
        T(name="/x/KTH.swf", options=[]),
        T(name="<bytes>", options=[]),
        T(name="<bytes>", options=[]),
        T(name="/x/c/same.swf", options=["machine=8"]),
        T(name="/x/c/same.swf", options=["machine=8"]),
    ]
    assert _labels(traces) == [
        "log (x/a)",
        "log (y/a)",
        "log (x/b) load=1.3",
        "log (x/b)",
        "KTH",
        "<bytes> #1",
        "<bytes> #2",
        "same #1",
        "same #2",
    ]


@pytest.fixture(scope="module")
def one_worker():
    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            yield client


def test_sweep_of_two_traces_with_one_file_name(tmp_path, one_worker):
    a = tmp_path / "a" / "log.swf.gz"
    b = tmp_path / "b" / "log.swf.gz"
    a.parent.mkdir()
    b.parent.mkdir()
    a.symlink_to(KTH)
    b.symlink_to(SHARED / "traces" / "NASA-iPSC-1993-3.1-cln.swf.gz")
    # NASA's log has no estimates: the sweep, reading it, says so, naming the file.
    with pytest.warns(schedlab.TraceWarning, match=f"^{b}: the trace has no user estimates"):
        df = schedlab.sweep([a, b], "easy++", {"window": [1, 2]}, client=one_worker)
    assert list(df.columns) == ["rank", "degradation", "window", "log (a):avg_wait_s", "log (a):avg_bsld", "log (b):avg_wait_s", "log (b):avg_bsld"]
    assert df.attrs["traces"]["log (a)"]["name"] == str(a) and df.attrs["traces"]["log (b)"]["name"] == str(b)
    with pytest.warns(schedlab.TraceWarning):
        traces = {"log (a)": schedlab.load(a), "log (b)": schedlab.load(b)}
    assert (df["log (a):avg_wait_s"] != df["log (b):avg_wait_s"]).all()
    for _, row in df.iterrows():
        for label, t in traces.items():
            r = schedlab.simulate(t, "easy++", window=row["window"])
            assert row[f"{label}:avg_wait_s"] == r.metrics["avg_wait_s"], label
            assert row[f"{label}:avg_bsld"] == r.metrics["avg_bsld"], label


def test_sweep_of_one_file_read_with_two_options(kth, one_worker):
    heavier = schedlab.load(KTH, load=1.3)
    df = schedlab.sweep([kth, heavier], "easy++", {"window": [1, 2]}, client=one_worker)
    plain, loaded = "KTH-SP2-1996-2.1-cln", "KTH-SP2-1996-2.1-cln load=1.3"
    assert list(df.columns) == ["rank", "degradation", "window", f"{plain}:avg_wait_s", f"{plain}:avg_bsld", f"{loaded}:avg_wait_s", f"{loaded}:avg_bsld"]
    assert df.attrs["traces"][loaded]["options"] == ["load=1.3"]
    assert (df[f"{plain}:avg_wait_s"] != df[f"{loaded}:avg_wait_s"]).all()
    for _, row in df.iterrows():
        for label, t in [(plain, kth), (loaded, heavier)]:
            r = schedlab.simulate(t, "easy++", window=row["window"])
            assert row[f"{label}:avg_wait_s"] == r.metrics["avg_wait_s"], label
            assert row[f"{label}:avg_bsld"] == r.metrics["avg_bsld"], label


def test_sweep_issues_and_keeps_the_traces_warnings(tmp_path, one_worker):
    noest = write(tmp_path / "noest.swf", "; MaxProcs: 4\n" + NO_ESTIMATES)
    clean = write(tmp_path / "clean.swf", "; MaxProcs: 4\n" + JOBS)
    with pytest.warns(schedlab.TraceWarning, match="no user estimates") as caught:
        df = schedlab.sweep([noest, clean], "easy++", {"window": [1, 2]}, client=one_worker)
    ours = [w for w in caught if issubclass(w.category, schedlab.TraceWarning)]
    assert [str(w.message) for w in ours] == [f"{noest}: the trace has no user estimates: runtimes stand in for them (estimates are exact)"]
    assert ours[0].filename == __file__
    remark = "the trace has no user estimates: runtimes stand in for them (estimates are exact)"
    assert df.attrs["traces"]["noest"]["warnings"] == [remark]
    assert df.attrs["traces"]["clean"]["warnings"] == []
    # A loaded trace's warnings were issued by load(): the sweep keeps them without issuing them again.
    with pytest.warns(schedlab.TraceWarning):
        t = schedlab.load(noest)
    with warnings.catch_warnings():
        warnings.simplefilter("error", schedlab.TraceWarning)
        again = schedlab.sweep([t], "easy++", {"window": [1, 2]}, client=one_worker)
    assert again.attrs["traces"]["noest"]["warnings"] == [remark]


def test_a_cluster_from_its_slurm_conf_runs_slurms_scheduler(tmp_path):
    conf = ROOT / "tests" / "fixtures" / "slurm.conf"
    log = SHARED / "accounting-logs" / "hpccs__sacct-output-v2.txt"
    t = schedlab.load(log, cluster=conf)
    assert t.machine == 116
    assert any("not in the slurm.conf" in w for w in t.warnings)
    # The same schedules as the command line's, two bf_window values side by side.
    for window in (1440, 5):
        r = schedlab.simulate(t, "slurm", bf_window=window)
        out = cli("run", log, "--cluster", conf, "--policy", "slurm", "--set", f"bf_window={window}", "--format", "json")
        assert out.returncode == 0, out.stderr
        assert r.schedule_hash == json.loads(out.stdout)["results"][0]["schedule_hash"]
        assert r.metrics["jobs_unfinished"] == 0
        assert any("bf_window=" in n for n in r.notes)
    # A pickled trace (what a Dask worker gets) keeps its cluster.
    again = pickle.loads(pickle.dumps(t))
    assert schedlab.simulate(again, "slurm").schedule_hash == schedlab.simulate(t, "slurm").schedule_hash
    # A generated cluster log: its GPUs and nodes are columns of the jobs.
    out = cli("generate", "--model", "cluster", "--machine", "256", "--jobs", "400", "-o", tmp_path / "g.txt")
    assert out.returncode == 0, out.stderr
    g = schedlab.load(tmp_path / "g.txt", cluster=tmp_path / "g.txt.slurm.conf")
    assert g.jobs["gpus"].sum() > 0 and (g.jobs["nodes"] >= 1).all()
    r = schedlab.simulate(g, "easy-cluster")
    assert r.metrics["jobs"] == 400 and r.metrics["jobs_unfinished"] == 0
