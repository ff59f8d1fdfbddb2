"""`sweep(client=...)` in each form a Dask user has at hand: a `Client`, a cluster object
(`LocalCluster`, dask-jobqueue's `SLURMCluster`) or a scheduler's address; and a bad policy,
option or grid value refused before any task is sent."""

import pathlib

import pandas as pd

import pytest

import schedlab

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
SACCT = SHARED / "accounting-logs" / "slurm2sql__test-data1.csv"
GRID = {"window": [1, 2]}
pytestmark = pytest.mark.filterwarnings("ignore::schedlab.TraceWarning")


@pytest.fixture(scope="module")
def cluster():
    from dask.distributed import LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as c:
        yield c


@pytest.fixture(scope="module")
def want():
    t = schedlab.load(SACCT)
    return t, [schedlab.simulate(t, "easy++", window=w).metrics["avg_wait_s"] for w in GRID["window"]]


def waits(df, trace):
    label = "slurm2sql__test-data1.csv"
    return [float(df.loc[df["window"] == w, f"{label}:avg_wait_s"].iloc[0]) for w in GRID["window"]]


def test_a_cluster_object_an_address_and_a_client_all_run_the_sweep(cluster, want):
    from dask.distributed import Client

    t, expected = want
    for client in [cluster, cluster.scheduler_address]:
        df = schedlab.sweep([t], "easy++", GRID, client=client)
        assert waits(df, t) == expected
    with Client(cluster) as c:
        df = schedlab.sweep([t], "easy++", GRID, client=c)
        assert waits(df, t) == expected
        # The caller's client stays open for more work; the cluster too.
        assert c.status == "running"
    assert cluster.status.name == "running"


def test_a_slurm_cluster_is_taken_as_it_is_built_for_a_site():
    # Built as on an HPC site's login node, never submitted: its job script is what each
    # worker runs, and the package must be importable there (the same environment).
    from dask_jobqueue import SLURMCluster

    from schedlab.sweep import _connect

    with SLURMCluster(cores=2, processes=2, memory="4GB", walltime="01:00:00", queue="batch", python="/opt/venv/bin/python") as site:
        script = site.job_script()
        assert "#SBATCH -p batch" in script and "#SBATCH -t 01:00:00" in script
        assert "/opt/venv/bin/python -m distributed.cli.dask_worker" in script
        client, close = _connect(site, None)
        try:
            assert client.scheduler.address == site.scheduler_address
            assert close == [client]
        finally:
            for c in close:
                c.close()


def test_grid_columns_have_their_values_types(cluster):
    df = schedlab.sweep([SACCT], "easy++", {"window": [1, 2], "metric": ["avg", "max"], "factor": [0.5, 1.5]}, client=cluster)
    assert df["window"].dtype.kind == "i" and df["factor"].dtype.kind == "f" and not pd.api.types.is_numeric_dtype(df["metric"])
    assert sorted(df["window"].unique()) == [1, 2] and sorted(df["factor"].unique()) == [0.5, 1.5]


def test_what_is_no_client_is_refused():
    with pytest.raises(TypeError, match="client must be a distributed.Client, a Dask cluster"):
        schedlab.sweep([SACCT], "easy++", GRID, client=42)


@pytest.mark.parametrize(
    "policy, grid, options, said",
    [
        ("no-such-policy", GRID, {}, "no-such-policy"),
        ("easy++", {"window": [1, "many"]}, {}, r"window=many.*\(in the configuration window=many\)"),
        ("easy++", {"alpha": [1]}, {}, "alpha=1: no trace, metric or selected policy option"),
        ("easy++", GRID, {"tau": "x"}, "tau=x"),
    ],
)
def test_bad_input_is_refused_before_any_task_is_sent(policy, grid, options, said):
    class NoCluster:
        """A client that fails the test if the sweep gets as far as using it."""

        scheduler_address = "tcp://127.0.0.1:1"

        def __getattr__(self, name):
            raise AssertionError(f"the sweep used its client ({name}) before checking its input")

    with pytest.raises(ValueError, match=said) as e:
        schedlab.sweep([SACCT], policy, grid, client=NoCluster(), **options)
    assert isinstance(e.value, schedlab.InputError)


def test_runs_that_fail_on_the_workers_raise_one_error_naming_where(cluster, capfd):
    # A priority that is a number on the two-job example (every job there has 2 processors or
    # more) but not on KTH, whose one-processor jobs take the square root of -1.
    kth = schedlab.load(SHARED / "traces" / "KTH-SP2-1996-2.1-cln.swf.gz")
    grid = {"priority": ["sqrt(procs-2)", "-submit"]}
    with pytest.raises(schedlab.InputError) as raised:
        schedlab.sweep([kth], "custom", grid, client=cluster)
    said = str(raised.value)
    assert said.startswith('the priority "sqrt(procs-2)" gives no number for job ')
    assert "(trace KTH-SP2-1996-2.1-cln, configuration priority=sqrt(procs-2))" in said
    assert "other run" not in said
    # The workers printed no traceback for it.
    assert "Traceback" not in capfd.readouterr().err
