"""SchedLab from Python, start to finish: load a trace, compare policies, plot, sweep a grid
of options on a local Dask cluster, and the lines that move the sweep to a Slurm cluster.

    python python/examples/compare_and_sweep.py [TRACE] [OUT.png]

TRACE defaults to SDSC-SP2 in ../shared/traces (any SWF file or accounting log works)."""

import pathlib
import sys

import matplotlib

matplotlib.use("Agg")  # draws to a file; drop this line in a notebook
import matplotlib.pyplot as plt

import schedlab


def main():
    here = pathlib.Path(__file__).resolve()
    trace_path = sys.argv[1] if len(sys.argv) > 1 else here.parents[3] / "shared" / "traces" / "SDSC-SP2-1998-4.2-cln.swf.gz"
    out = pathlib.Path(sys.argv[2] if len(sys.argv) > 2 else "compare.png")

    # 1. Load a trace: SWF or an accounting log; trace options as keywords.
    trace = schedlab.load(trace_path)
    print(trace, "-", trace.report["jobs_kept"], "jobs kept")

    # 2. Compare policies: each result has the command line's metrics and the schedule.
    results = {p: schedlab.simulate(trace, p) for p in ["fcfs", "easy", "conservative", "easy++"]}
    for name, r in results.items():
        print(f"{name:<14} avg wait {r.metrics['avg_wait_s']:>9.0f} s   avg bsld {r.metrics['avg_bsld']:>7.2f}")

    # 3. Plot: the wait of each job over time, a week-long rolling mean per policy.
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for name, r in results.items():
        s = r.schedule
        s = s[s["start"].notna()].sort_values("submit")
        days = (s["submit"] - s["submit"].min()) / 86400
        wait_h = (s["start"] - s["submit"]).rolling(500, min_periods=50).mean() / 3600
        ax.plot(days, wait_h, label=name)
    ax.set_yscale("log")  # FCFS's waits run to weeks; backfilling's stay within hours
    ax.set_xlabel("days since the first submission")
    ax.set_ylabel("wait, hours (mean of 500 jobs, log scale)")
    ax.set_title(f"{pathlib.Path(trace_path).name}: waits under four policies")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    print("wrote", out)

    # 4. Sweep a grid on a local Dask cluster (one worker process per core), ranked by average
    #    degradation as in Tsafrir et al. section 7, exactly as `schedlab sweep` ranks.
    ranked = schedlab.sweep([trace], "easy++", {"window": [1, 2, 4], "metric": ["avg", "med"]})
    print(ranked.head(3).to_string(index=False))

    # 5. The same sweep on a Slurm cluster: dask-jobqueue starts the workers as Slurm jobs,
    #    and the traces go to each worker once.
    #
    #    from dask_jobqueue import SLURMCluster
    #    from dask.distributed import Client
    #    cluster = SLURMCluster(cores=1, memory="2GB", walltime="01:00:00", queue="normal")
    #    cluster.scale(jobs=64)
    #    ranked = schedlab.sweep(traces, "easy++", grid, client=Client(cluster))


if __name__ == "__main__":
    main()
