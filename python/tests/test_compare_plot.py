"""Many runs at once, pictures and explanations: `compare()` equal to the command line's
`run --policy` runs, `plot()` the command line's `--plot` pictures (the same display-list
hashes, the same Gantt chart), `explain()` its `explain --job`, and Ctrl-C stopping a run."""

import _thread
import json
import pathlib
import subprocess
import threading
import time

import pytest

import schedlab

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
CLI = ROOT / "target" / "release" / "schedlab"
KTH = SHARED / "traces" / "KTH-SP2-1996-2.1-cln.swf.gz"
SDSC = SHARED / "traces" / "SDSC-Par-1996-3.1-cln.swf.gz"
SACCT = SHARED / "accounting-logs" / "slurm2sql__test-data1.csv"

pytestmark = pytest.mark.filterwarnings("ignore::schedlab.TraceWarning")


def cli(*args: str) -> str:
    out = subprocess.run([str(CLI), *args], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout


def cli_results(trace: pathlib.Path, policies: str) -> dict:
    return {r["policy"]: r for r in json.loads(cli("run", str(trace), "--policy", policies, "--format", "json"))["results"]}


def test_compare_is_the_command_lines_runs_of_each_trace():
    policies = ["fcfs", "easy", "conservative", "easy-sjbf", "slurm"]
    df = schedlab.compare([KTH, SDSC, schedlab.load(SACCT)], policies, tau=10)
    assert list(df.columns) == ["trace", "policy", "metric", "value"]
    assert df["value"].dtype == float
    names = [str(KTH), str(SDSC), str(SACCT)]
    # Rows come in the order asked, traces then policies.
    assert list(dict.fromkeys(df["trace"])) == names
    assert list(dict.fromkeys(df["policy"])) == policies
    for path in (KTH, SDSC, SACCT):
        want = {
            r["policy"]: r
            for r in json.loads(
                cli("run", str(path), "--policy", ",".join(policies), "--set", "tau=10", "--format", "json")
            )["results"]
        }
        got = df[df["trace"] == str(path)]
        for policy, r in want.items():
            assert df.attrs["schedule_hash"][(str(path), policy)] == r["schedule_hash"]
            mine = got[got["policy"] == policy].set_index("metric")["value"]
            numbers = {k: float(v) for k, v in r["metrics"].items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
            assert mine.to_dict() == numbers, (path, policy)
            assert mine["jobs"] == r["metrics"]["jobs"] > 0


def test_compare_takes_all_and_refuses_what_a_run_would():
    df = schedlab.compare("example:tsafrir-fig1", "all")
    assert df["policy"].nunique() == len(schedlab.policies()["policies"]) - 1  # `custom` needs its priority
    with pytest.raises(schedlab.InputError, match='unknown policy "nothing"'):
        schedlab.compare([KTH], "easy,nothing")
    with pytest.raises(schedlab.InputError, match="window"):
        schedlab.compare([KTH], "easy", window="x")
    with pytest.raises(TypeError, match="schedlab.Trace or a path"):
        schedlab.compare([3], "easy")


@pytest.fixture(scope="module")
def kth_pictures(tmp_path_factory) -> pathlib.Path:
    d = tmp_path_factory.mktemp("plots")
    cli("run", str(KTH), "--policy", "easy", "--plot", str(d / "one"))
    cli("run", str(KTH), "--policy", "easy,conservative", "--plot", str(d / "two"))
    return d


def test_plot_is_the_command_lines_picture_of_each_kind(kth_pictures, tmp_path):
    r = schedlab.simulate(schedlab.load(KTH), "easy")
    hashes = json.loads((kth_pictures / "one" / "hashes.json").read_text())
    kinds = {stem.removesuffix("-easy"): stem for stem in hashes}
    assert {"compare-avg_wait_s", "wait-cdf", "busy", "queue", "categories", "accuracy"} <= set(kinds)
    for kind, stem in kinds.items():
        c = r.plot(kind)
        assert c.hash == hashes[stem], kind
        assert c.svg == (kth_pictures / "one" / f"{stem}.svg").read_text(), kind
    # A metric by its key alone, and the PNG beside the SVG.
    assert r.plot("avg_bsld").hash == hashes["compare-avg_bsld"]
    r.plot("busy", tmp_path / "busy.png")
    assert (tmp_path / "busy.png").read_bytes() == (kth_pictures / "one" / "busy.png").read_bytes()
    # The Gantt chart is rasterised: no display list, the same picture.
    g = r.plot("gantt", tmp_path / "gantt.svg")
    assert g.hash is None
    assert g.svg == (kth_pictures / "one" / "gantt-easy.svg").read_text()
    assert (tmp_path / "gantt.svg").read_text() == g.svg
    assert g.png() == (kth_pictures / "one" / "gantt-easy.png").read_bytes()


def test_plot_of_several_results_is_the_command_lines_run_of_them(kth_pictures):
    t = schedlab.load(KTH)
    runs = [schedlab.simulate(t, p) for p in ("easy", "conservative")]
    hashes = json.loads((kth_pictures / "two" / "hashes.json").read_text())
    for kind in ("busy", "queue", "wait-cdf", "compare-avg_wait_s", "compare-utilization"):
        assert schedlab.plot(runs, kind).hash == hashes[kind], kind
    with pytest.raises(schedlab.InputError, match="draws one run"):
        schedlab.plot(runs, "gantt")
    other = schedlab.simulate(schedlab.load(SDSC), "easy")
    with pytest.raises(schedlab.InputError, match="one trace"):
        schedlab.plot([runs[0], other], "busy")
    with pytest.raises(schedlab.InputError, match="the kinds are"):
        runs[0].plot("nothing")


def test_a_cluster_log_has_its_gpu_and_memory_pictures(tmp_path):
    cli("run", str(SACCT), "--policy", "slurm", "--plot", str(tmp_path))
    hashes = json.loads((tmp_path / "hashes.json").read_text())
    r = schedlab.simulate(schedlab.load(SACCT), "slurm")
    for kind in ("gpus", "memory", "busy"):
        if kind in hashes:
            assert r.plot(kind).hash == hashes[kind], kind
    assert "memory" in hashes


def test_explain_is_the_command_lines(tmp_path):
    t = schedlab.load(KTH)
    r = schedlab.simulate(t, "easy")
    waited = r.schedule.dropna(subset=["start"])
    job = int(waited.loc[(waited["start"] - waited["submit"]).idxmax(), "job_id"])
    text = r.explain(job)
    assert text + "\n" == cli("explain", str(KTH), "--policy", "easy", "--job", str(job))
    assert text.startswith(f"Job {job} ")
    data = r.explain(job, format="json")
    assert data == json.loads(cli("explain", str(KTH), "--policy", "easy", "--job", str(job), "--format", "json"))
    with pytest.raises(schedlab.InputError, match="there is no job 0 in the trace"):
        r.explain(0)


class Firstcome(schedlab.Policy):
    """First come, first served, in Python: start jobs in arrival order while they fit."""

    def schedule(self, state):
        for i in state.waiting.index:
            if not state.start(i):
                break


def test_a_python_policys_result_is_pictured_from_what_it_kept():
    t = schedlab.load("example:tsafrir-fig1")
    r = schedlab.simulate(t, "fcfs")
    mine = schedlab.simulate(t, Firstcome())
    assert mine.schedule_hash == r.schedule_hash
    # The same lines under its own name.
    busy = mine.plot("busy")
    assert busy.hash != r.plot("busy").hash and "Firstcome" in busy.svg
    assert mine.plot("gantt").svg.replace("Firstcome", "fcfs") == r.plot("gantt").svg
    with pytest.raises(schedlab.InputError, match="explain\\(\\) re-runs a named policy"):
        mine.explain(1)


def interrupt_after(seconds: float) -> list:
    sent: list = []

    def go():
        time.sleep(seconds)
        sent.append(time.monotonic())
        _thread.interrupt_main()

    threading.Thread(target=go, daemon=True).start()
    return sent


# A run of about forty seconds: conservative backfilling with dynamic reservations on a long queue.
LONG = dict(machine=256, jobs=50_000, load=1.3, seed=3)


def test_ctrl_c_stops_a_simulation():
    t = schedlab.generate(**LONG)
    sent = interrupt_after(0.5)
    with pytest.raises(KeyboardInterrupt):
        schedlab.simulate(t, "consdyn.nomax")
    took = time.monotonic() - sent[0]
    print(f"simulate() stopped {took:.3f} s after Ctrl-C")
    # The package goes on working after it.
    assert schedlab.simulate("example:tsafrir-fig1", "easy").metrics["jobs"] == len(schedlab.load("example:tsafrir-fig1"))


def test_ctrl_c_stops_every_run_of_a_compare():
    t = schedlab.generate(**LONG)
    sent = interrupt_after(0.5)
    with pytest.raises(KeyboardInterrupt):
        schedlab.compare([t, t], "consdyn.nomax,consdyn.72max")
    took = time.monotonic() - sent[0]
    print(f"compare() stopped {took:.3f} s after Ctrl-C")
    assert len(schedlab.compare("example:tsafrir-fig1", "easy,fcfs")) > 0
