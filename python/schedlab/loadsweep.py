"""The classic figure of scheduling papers from Python: each policy's mean wait and mean bounded
slowdown against the offered load, as ``schedlab loadsweep`` computes it."""

from __future__ import annotations

import json
import os
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Dict, Iterable, Optional, Sequence, Union

import pandas as pd

from . import _schedlab

__all__ = ["LoadSweep", "loadsweep"]

DEFAULT_LOADS = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95)


class LoadSweep:
    """A load sweep's results."""

    def __init__(self, points, summary, saturates_at):
        #: One row per simulation: load, seed, policy, offered (the workload's offered load),
        #: avg_wait_s, avg_bsld, utilization, unhindered (its utilization were every job started
        #: at its submission), overrun_s (how far the schedule ends past that one's end) and
        #: allowance_s (the overrun a policy that keeps up may have: the longer of the longest
        #: runtime and 5% of the span).
        self.points: pd.DataFrame = pd.DataFrame(points)
        rows = []
        for s in summary:
            rows.append(
                {
                    "policy": s["policy"],
                    "load": s["load"],
                    "runs": s["runs"],
                    "wait_mean": s["wait"][0],
                    "wait_min": s["wait"][1],
                    "wait_max": s["wait"][2],
                    "bsld_mean": s["bsld"][0],
                    "bsld_min": s["bsld"][1],
                    "bsld_max": s["bsld"][2],
                    "utilization": s["utilization"],
                    "offered": s["offered"],
                    "keeps_up": s["keeps_up"],
                }
            )
        #: One row per (policy, load): the means over the workloads and their least and greatest.
        self.summary: pd.DataFrame = pd.DataFrame(rows)
        #: Per policy, the lowest load at which it saturates (None if it keeps up at every load).
        self.saturates_at: Dict[str, Optional[float]] = saturates_at

    def plot(self, metric: str = "bsld", ax=None):
        """The figure: ``metric`` ("bsld" or "wait") against load, one line per policy with the
        spread over the workloads shaded and the saturation point ringed. Needs matplotlib."""
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(7, 4))
        scale, label = (1.0, "mean bounded slowdown") if metric == "bsld" else (3600.0, "mean wait (hours)")
        for policy, g in self.summary.groupby("policy", sort=False):
            at = self.saturates_at.get(policy)
            name = f"{policy} (saturates at {at})" if at is not None else f"{policy} (keeps up)"
            line = ax.plot(g["load"], g[f"{metric}_mean"] / scale, marker="o", label=name)[0]
            ax.fill_between(g["load"], g[f"{metric}_min"] / scale, g[f"{metric}_max"] / scale, alpha=0.15, color=line.get_color())
            if at is not None:
                y = g.loc[g["load"] == at, f"{metric}_mean"].iloc[0] / scale
                ax.plot([at], [y], marker="o", markersize=14, fillstyle="none", color=line.get_color())
        ax.set_xlabel("offered load")
        ax.set_ylabel(label)
        ax.set_yscale("log")
        ax.set_title(f"{label.capitalize()} against offered load (shaded: least to most over the workloads)", fontsize=10)
        ax.legend()
        return ax

    def __repr__(self) -> str:
        sat = ", ".join(f"{p} at {a}" if a is not None else f"{p} keeps up" for p, a in self.saturates_at.items())
        return f"<LoadSweep: {len(self.points)} simulations; {sat}>"


def loadsweep(
    workload: Union[str, os.PathLike, bytes] = "generate:machine=128,jobs=10000",
    policies: Union[str, Sequence[str]] = "fcfs,easy,conservative",
    loads: Iterable[float] = DEFAULT_LOADS,
    seeds: int = 3,
    threads: Optional[int] = None,
    **options: Any,
) -> LoadSweep:
    """Runs ``policies`` at every offered load of ``loads``: on generated workloads
    (``workload="generate:..."``, ``seeds`` of them per load, from the spec's seed on) or on a
    log whose arrivals are scaled to each load (a path or bytes; one run per load). Options are
    the policies', the engine's and the metrics', as for :func:`schedlab.simulate`. Simulations
    run on ``threads`` threads (default: every core), the GIL released."""
    from . import Error, _read, _sets

    if not isinstance(policies, str):
        policies = ",".join(policies)
    loads = [float(x) for x in loads]
    sets = _sets(options)
    tasks: list = []
    if isinstance(workload, str) and workload.startswith("generate:"):
        seed = int((re.findall(r"seed\s*=\s*(\d+)", workload) or ["1"])[-1])
        for load in loads:
            for s in range(seed, seed + seeds):
                tasks.append((f"{workload},load={load},seed={s}", {}, load, s))
    else:
        own = _schedlab.offered_load(_read(workload, {})._native)
        if own <= 0:
            raise Error("the trace has no work to scale")
        tasks = [(workload, {"load": load / own}, load, 0) for load in loads]

    def run(task):
        source, trace_options, load, seed = task
        trace = _read(source, trace_options)
        return json.loads(_schedlab.loadsweep_points(trace._native, policies, sets, load, seed))

    with ThreadPoolExecutor(max_workers=threads or os.cpu_count()) as pool:
        points = [p for ps in pool.map(run, tasks) for p in ps]
    summary = json.loads(_schedlab.loadsweep_summary(json.dumps(points)))
    return LoadSweep(points, summary["summary"], summary["saturates_at"])
