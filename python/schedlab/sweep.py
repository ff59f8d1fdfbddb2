"""Parameter sweeps on a Dask cluster: every configuration of a grid on every trace, ranked as
Tsafrir, Etsion & Feitelson (2007) section 7 rank predictors, the same ranking as the command
line's ``schedlab sweep``."""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Union
import os

import pandas as pd

from . import _schedlab


def _axis(key: str, values: Any) -> str:
    """One grid axis as the command line's ``--vary KEY=V1,V2`` (or ``KEY=A-B``)."""
    if isinstance(values, (list, tuple, range)):
        return f"{key}={','.join(str(v) for v in values)}"
    return f"{key}={values}"


def _run(trace, policy: str, sets: List[str]) -> tuple:
    """On a worker: one configuration on one trace, its average wait and bounded slowdown."""
    from . import simulate  # the worker's own import of the package

    r = simulate(trace, policy, **dict(s.split("=", 1) for s in sets))
    return r.metrics["avg_wait_s"], r.metrics["avg_bsld"]


def sweep(
    traces: Sequence[Union[str, os.PathLike, "Trace"]],
    policy: str,
    grid: Mapping[str, Any],
    client: Optional[Any] = None,
    *,
    workers: Optional[int] = None,
    **options: Any,
) -> pd.DataFrame:
    """Runs ``policy`` under every configuration of ``grid`` (option key -> list of values, or
    a range string such as ``"1-8"``) on every trace (paths or :class:`Trace` objects), on Dask:
    the given ``client`` (a scheduler address's, or dask-jobqueue's ``SLURMCluster``'s), else a
    ``LocalCluster`` of ``workers`` processes (default: every core) started and closed here.
    Each trace is sent to each worker once, not with every task. ``options`` apply to every run.

    Returns one row per configuration, best first: ``rank``, ``degradation`` (average
    performance degradation in percent over the test cases, each trace's average wait and
    average bounded slowdown), the configuration's values, and each trace's two metrics."""
    from . import Trace, load, _sets

    loaded = [t if isinstance(t, Trace) else load(t) for t in traces]
    if not loaded:
        raise ValueError("sweep needs one or more traces")
    axes = [_axis(k, v) for k, v in grid.items()]
    try:
        configs = _schedlab.sweep_grid(axes)
    except _schedlab.Error as e:
        from . import Error

        raise Error(str(e)) from None
    base = _sets(options)
    own = None
    if client is None:
        from dask.distributed import Client, LocalCluster

        n = workers or os.cpu_count() or 1
        own = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(own)
    try:
        # Each trace once to every worker; the tasks carry only its key.
        shipped = [client.scatter(t, broadcast=True, hash=False) for t in loaded]
        tasks = [
            [client.submit(_run, s, policy, base + [f"{k}={v}" for k, v in c], pure=False) for s in shipped]
            for c in configs
        ]
        results = client.gather(tasks)
    finally:
        if own is not None:
            client.close()
            own.close()
    perf = [[x for pair in row for x in pair] for row in results]
    degradation, order = _schedlab.sweep_rank(perf)
    keys = list(dict.fromkeys(k for c in configs for k, _ in c))
    names = [os.path.basename(t.name).removesuffix(".gz").removesuffix(".swf") for t in loaded]
    rows = []
    for rank, i in enumerate(order, 1):
        row: Dict[str, Any] = {"rank": rank, "degradation": degradation[i]}
        row.update(dict(configs[i]))
        for name, (wait, bsld) in zip(names, results[i]):
            row[f"{name}:avg_wait_s"] = wait
            row[f"{name}:avg_bsld"] = bsld
        rows.append(row)
    return pd.DataFrame(rows, columns=["rank", "degradation", *keys, *[c for n in names for c in (f"{n}:avg_wait_s", f"{n}:avg_bsld")]])
