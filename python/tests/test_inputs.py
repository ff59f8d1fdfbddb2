"""What the package reads and how it refuses: every form of trace `load()` and `simulate()`
take, each equal to the path's; errors that are the built-in exception of their kind as well
as `schedlab.Error`; the loader's remarks as warnings of their own category."""

import io
import pathlib
import pickle
import subprocess
import warnings

import pytest

import schedlab

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
CLI = ROOT / "target" / "release" / "schedlab"
KTH = SHARED / "traces" / "KTH-SP2-1996-2.1-cln.swf.gz"
SACCT = SHARED / "accounting-logs" / "slurm2sql__test-data1.csv"


@pytest.mark.filterwarnings("ignore::schedlab.TraceWarning")
def test_a_trace_from_a_path_bytes_or_a_file_object_is_the_same_trace():
    by_path = schedlab.load(KTH)
    want = schedlab.simulate(by_path, "easy").schedule_hash
    data = KTH.read_bytes()
    with open(KTH, "rb") as f:
        from_file = schedlab.load(f)
    for t in [schedlab.load(str(KTH)), schedlab.load(data), schedlab.load(bytearray(data)), schedlab.load(io.BytesIO(data)), from_file]:
        assert len(t) == len(by_path) == 28467
        assert schedlab.simulate(t, "easy").schedule_hash == want
    # simulate() reads a path itself, with the loader's default options.
    assert schedlab.simulate(KTH, "easy").schedule_hash == want
    assert schedlab.simulate(str(KTH), "easy").schedule_hash == want


def test_a_text_file_object_is_read_as_its_text():
    text = "; MaxProcs: 4\n1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1\n2 0 -1 10 4 -1 -1 4 20 -1 1 1 1 -1 1 -1 -1 -1\n"
    t = schedlab.load(io.StringIO(text))
    assert len(t) == 2 and t.machine == 4
    assert list(schedlab.simulate(t, "fcfs").schedule["start"]) == [0, 10]


def test_an_example_is_the_command_lines():
    t = schedlab.load("example:tsafrir-fig1")
    assert t.name == "example:tsafrir-fig1"
    out = subprocess.run(
        [str(CLI), "run", "example:tsafrir-fig1", "--policy", "easy", "--format", "json"], capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    import json

    want = json.loads(out.stdout)["results"][0]["schedule_hash"]
    assert schedlab.simulate(t, "easy").schedule_hash == want
    assert schedlab.simulate("example:tsafrir-fig1", "easy").schedule_hash == want
    with pytest.raises(schedlab.InputError, match="no example nothing: the examples are tsafrir-fig1"):
        schedlab.load("example:nothing")


def test_a_missing_file_is_a_file_not_found_error():
    for call in [
        lambda: schedlab.load("no/such/trace.swf"),
        lambda: schedlab.simulate("no/such/trace.swf", "easy"),
        lambda: schedlab.load(SACCT, cluster="no/such/slurm.conf"),
    ]:
        with pytest.raises(FileNotFoundError) as e:
            call()
        assert isinstance(e.value, schedlab.NotFoundError)
        assert isinstance(e.value, schedlab.ReadError) and isinstance(e.value, OSError)
        assert isinstance(e.value, schedlab.Error)
        assert "cannot read no/such/" in str(e.value)
    # A directory is no trace: an OSError, not a missing file.
    with pytest.raises(OSError) as e:
        schedlab.load(ROOT)
    assert isinstance(e.value, schedlab.ReadError) and not isinstance(e.value, FileNotFoundError)


def test_bad_input_is_a_value_error():
    t = schedlab.load("example:tsafrir-fig1")
    cases = [
        (lambda: schedlab.simulate(t, "no-such-policy"), "no-such-policy"),
        (lambda: schedlab.simulate(t, "easy", alpha=1), "alpha=1: no trace, metric or selected policy option"),
        (lambda: schedlab.simulate(t, "easy", k="many"), "k=many: not a valid number"),
        (lambda: schedlab.load(KTH, machine="many"), "machine"),
        (lambda: schedlab.load(b"1 2 3\n"), "line 1: expected 18 fields, found 3"),
    ]
    for call, said in cases:
        with pytest.raises(ValueError, match=said) as e:
            call()
        assert isinstance(e.value, schedlab.InputError) and isinstance(e.value, schedlab.Error)


def test_errors_pickle_as_themselves():
    # A Dask worker's error reaches the caller as its own class.
    for e in [schedlab.NotFoundError("cannot read x: No such file"), schedlab.InputError("bad"), schedlab.ReadError("cannot read y")]:
        back = pickle.loads(pickle.dumps(e))
        assert type(back) is type(e) and str(back) == str(e)


def test_what_is_not_a_trace_is_a_type_error():
    with pytest.raises(TypeError, match="a trace is a path, bytes"):
        schedlab.load(12)
    with pytest.raises(TypeError, match="trace must be a schedlab.Trace or a path"):
        schedlab.simulate(12, "easy")


def test_the_loaders_remarks_are_trace_warnings_at_the_callers_line():
    text = b"1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1\n"
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        schedlab.load(text)
    assert w and all(issubclass(x.category, schedlab.TraceWarning) and issubclass(x.category, UserWarning) for x in w)
    assert all(x.filename == __file__ for x in w)
    path = ROOT / "target" / "python-input-test.swf"
    path.write_bytes(text)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        schedlab.simulate(path, "fcfs")
    assert w and all(issubclass(x.category, schedlab.TraceWarning) and x.filename == __file__ for x in w)


def test_the_package_says_its_version_and_that_it_is_typed():
    assert schedlab.__version__ == "0.1.0"
    assert (pathlib.Path(schedlab.__file__).parent / "py.typed").exists()


def test_policies_give_option_values_a_program_can_check():
    p = schedlab.policies()
    options = {(x["name"], o["key"]): o for x in p["policies"] for o in x["options"]}
    k = options[("easy++", "k")]
    assert k["values"] == "0, 1, 2, ... | inf"  # the command line's prose stays
    assert (k["kind"], k["min"], k["min_inclusive"], k["choices"]) == ("integer", 0, True, ["inf"])
    order = options[("easy++", "backfill")]
    assert order["choices"] == ["none", "queue", "sjbf", "best_fit", "worst_fit"] and order["kind"] is None
    window = options[("slurm", "bf_window")]
    assert (window["kind"], window["unit"], window["min"], window["min_inclusive"]) == ("number", "min", 0, False)
    assert window["choices"] == ["inf", "conf"]
    share = options[("mq-backfill", "high_priority")]
    assert (share["min"], share["max"], share["min_inclusive"], share["max_inclusive"]) == (0, 1, True, True)
    assert options[("custom", "priority")]["other"] == ["expression"]
    # Every default is one of its option's choices, or within its range.
    for (name, key), o in options.items():
        d = o["default"]
        if d in o["choices"] or o["other"] or o["kind"] is None:
            continue
        v = float(d)
        assert o["min"] is None or (v >= o["min"] if o["min_inclusive"] else v > o["min"]), (name, key, d)
        assert o["max"] is None or (v <= o["max"] if o["max_inclusive"] else v < o["max"]), (name, key, d)


@pytest.mark.filterwarnings("ignore::schedlab.TraceWarning")
def test_the_accuracy_histogram_is_the_command_lines():
    import json

    t = schedlab.load(KTH)
    h = schedlab.simulate(t, "easy", observe="predictions").accuracy_histogram
    out = subprocess.run(
        [str(CLI), "run", str(KTH), "--policy", "easy", "--set", "observe=predictions", "--format", "json"],
        capture_output=True,
        text=True,
    )
    want = json.loads(out.stdout)["results"][0]["accuracy_histogram"]
    assert list(h["jobs"]) == want["all"] and list(h["jobs_not_killed"]) == want["without_killed"]
    assert list(h["from_pct"]) == list(range(0, 100, 5)) and h["jobs"].sum() == len(t)
    assert schedlab.simulate(t, "easy").accuracy_histogram.empty
