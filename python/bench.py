"""Figures for docs/PERFORMANCE.md: the package's overhead against the command line, two
threads against one, compare() against a Python loop over simulate() (every policy on KTH and
HPC2N) and the command line's `run --policy all`, and a sweep's throughput on a 2-worker
LocalCluster.

    .venv/bin/python python/bench.py [ROUNDS]"""

import pathlib
import statistics
import subprocess
import sys
import threading
import time

import schedlab

ROOT = pathlib.Path(__file__).resolve().parents[1]
TRACES = ROOT.parent / "shared" / "traces"
HPC2N = TRACES / "HPC2N-2002-2.2-cln.swf.gz"
KTH = TRACES / "KTH-SP2-1996-2.1-cln.swf.gz"
SDSC = TRACES / "SDSC-SP2-1998-4.2-cln.swf.gz"
CLI = ROOT / "target" / "release" / "schedlab"


def median_time(f, rounds):
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    cli = median_time(
        lambda: subprocess.run([CLI, "run", HPC2N, "--policy", "easy", "--format", "json"], capture_output=True, check=True),
        rounds,
    )
    py = median_time(lambda: schedlab.simulate(schedlab.load(HPC2N), "easy").metrics, rounds)
    print(f"HPC2N, EASY, read and simulate: command line (whole process) {cli:.3f} s, Python load()+simulate() {py:.3f} s, overhead {100 * (py / cli - 1):+.1f}%")

    t = schedlab.load(HPC2N)
    one = median_time(lambda: [schedlab.simulate(t, "conservative") for _ in range(2)], max(3, rounds // 2))

    def two_threads():
        ths = [threading.Thread(target=schedlab.simulate, args=(t, "conservative")) for _ in range(2)]
        for th in ths:
            th.start()
        for th in ths:
            th.join()

    two = median_time(two_threads, max(3, rounds // 2))
    print(f"HPC2N, conservative twice: one thread {one:.3f} s, two threads {two:.3f} s, speedup {one / two:.2f}x")

    names = [p["name"] for p in schedlab.policies()["policies"] if p["name"] != "custom"]
    for path in (KTH, HPC2N):
        trace = schedlab.load(path)
        n = max(1, rounds // 3)
        loop = median_time(lambda: [schedlab.simulate(trace, p).metrics for p in names], n)
        together = median_time(lambda: schedlab.compare([trace], "all"), n)
        cli = median_time(
            lambda: subprocess.run([CLI, "run", path, "--policy", "all", "--format", "json"], capture_output=True, check=True),
            n,
        )
        print(
            f"{path.name.split('-')[0]}, every policy ({len(names)}): a Python loop over simulate() {loop:.2f} s, "
            f"compare() {together:.2f} s ({loop / together:.2f}x), the command line's run --policy all {cli:.2f} s"
        )

    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            sdsc = schedlab.load(SDSC)
            schedlab.sweep([sdsc], "easy++", {"window": [1]}, client=client)  # warm the workers
            grid = {"window": "1-8", "metric": ["avg", "med"], "propagation": ["off", "on"]}
            start = time.perf_counter()
            df = schedlab.sweep([sdsc], "easy++", grid, client=client)
            took = time.perf_counter() - start
    print(f"sweep on a 2-worker LocalCluster: {len(df)} simulations of SDSC-SP2 (easy++) in {took:.2f} s, {len(df) / took:.1f} simulations/s")


if __name__ == "__main__":
    main()
