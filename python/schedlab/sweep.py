"""Parameter sweeps on a Dask cluster: every configuration of a grid on every trace, ranked as
Tsafrir, Etsion & Feitelson (2007) section 7 rank predictors, the same ranking as the command
line's ``schedlab sweep``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Mapping, Optional, Sequence, Union
import os

import pandas as pd

from . import _schedlab

if TYPE_CHECKING:
    from . import Trace


def _axis(key: str, values: Any) -> str:
    """One grid axis as the command line's ``--vary KEY=V1,V2`` (or ``KEY=A-B``)."""
    if isinstance(values, (list, tuple, range)):
        return f"{key}={','.join(str(v) for v in values)}"
    return f"{key}={values}"


def _short(name: str) -> str:
    """A trace's file name without ``.swf`` or ``.swf.gz``, as the command line's tables show it."""
    return os.path.basename(name).removesuffix(".gz").removesuffix(".swf")


def _folders(paths: List[str]) -> List[str]:
    """The fewest trailing folders of each path's directory that tell the distinct directories
    apart (``a`` for /x/a/log.swf beside /x/b/log.swf; ``x/a`` beside /y/a/log.swf)."""
    dirs = [os.path.dirname(os.path.abspath(p)).split(os.sep) for p in paths]
    distinct = len({tuple(d) for d in dirs})
    depth = max(len(d) for d in dirs)
    for k in range(1, depth + 1):
        tails = ["/".join(d[-k:]) for d in dirs]
        if len(set(tails)) == distinct:
            return tails
    return ["/".join(d) for d in dirs]


def _labels(traces: Sequence["Trace"]) -> List[str]:
    """A unique, readable label per trace, in order: its file name without ``.swf``/``.swf.gz``;
    where names are shared, then the folder when the files differ (``log (a)``, ``log (b)``) and
    the trace options when they differ (``log load=1.3``); ``#1``, ``#2``... for the same file
    read alike (or bytes) more than once."""
    out = [_short(t.name) for t in traces]
    groups: Dict[str, List[int]] = {}
    for i, name in enumerate(out):
        groups.setdefault(name, []).append(i)
    for name, idx in groups.items():
        if len(idx) < 2:
            continue
        paths = [traces[i].name for i in idx]
        files = [p for p in paths if p != "<bytes>"]
        # One file under two spellings (relative and absolute) is not two folders.
        distinct_files = len({os.path.abspath(p) for p in files}) > 1
        folder = dict(zip(files, _folders(files))) if distinct_files else {}
        options_differ = len({tuple(traces[i].options) for i in idx}) > 1
        for i, path in zip(idx, paths):
            label = name
            if path in folder:
                label += f" ({folder[path]})"
            if options_differ and traces[i].options:
                label += " " + " ".join(traces[i].options)
            out[i] = label
    while len(set(out)) < len(out):
        seen: Dict[str, int] = {}
        for label in out:
            seen[label] = seen.get(label, 0) + 1
        count: Dict[str, int] = {}
        for i, label in enumerate(out):
            if seen[label] > 1:
                count[label] = count.get(label, 0) + 1
                out[i] = f"{label} #{count[label]}"
    return out


def _run(trace: Any, policy: str, sets: List[str]) -> tuple:
    """On a worker: one configuration on one trace, its average wait and bounded slowdown, or
    the library's error as a value (``(None, error)``): a task that raised would have the
    worker print its traceback, once per failing task."""
    from . import Error, simulate  # the worker's own import of the package

    try:
        r = simulate(trace, policy, **dict(s.split("=", 1) for s in sets))
    except Error as e:
        return None, e
    return r.metrics["avg_wait_s"], r.metrics["avg_bsld"]


def _failed(results: List[List[tuple]], configs: List[list], names: List[str]) -> None:
    """Raises one error for the runs that failed on the workers: the first, where it was, and
    how many others failed."""
    failed = [(c, n, r) for c, row in zip(configs, results) for n, r in zip(names, row) if r[0] is None]
    if not failed:
        return
    c, name, (_, error) = failed[0]
    where = ", ".join(f"{k}={v}" for k, v in c) or "the policy's defaults"
    more = f"; {len(failed) - 1} other run(s) of the sweep failed too" if len(failed) > 1 else ""
    # The same kind of error (an InputError, a NotFoundError...), saying where it was.
    raise type(error)(f"{error} (trace {name}, configuration {where}){more}") from None


def _connect(client: Any, workers: Optional[int]) -> tuple:
    """A Dask client for ``client`` and what to close after: ``None`` starts a ``LocalCluster``
    here; a ``distributed.Client`` is used as it is; a cluster object (``LocalCluster``, any
    dask-jobqueue cluster: anything with a ``scheduler_address``) or a scheduler's address
    gets a client of its own, closed after (the cluster is the caller's)."""
    from dask.distributed import Client, LocalCluster

    if client is None:
        n = workers or os.cpu_count() or 1
        own = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None)
        c = Client(own)
        return c, [c, own]
    if isinstance(client, Client):
        return client, []
    if isinstance(client, (str, os.PathLike)) or hasattr(client, "scheduler_address"):
        c = Client(client)
        return c, [c]
    raise TypeError(
        "client must be a distributed.Client, a Dask cluster (LocalCluster, dask-jobqueue's SLURMCluster...) "
        f"or a scheduler's address, not {type(client).__name__}"
    )


def _check(policy: str, configs: List[list], base: List[str]) -> None:
    """Runs every configuration on a two-job example here, before any task is sent: an unknown
    policy, an option it does not take or a bad value fails at once, with the command line's
    message, instead of on every worker."""
    from . import _error

    tiny = _schedlab.load("example:tsafrir-fig1", [], None)
    for c in configs:
        try:
            _schedlab.simulate(tiny, policy, base + [f"{k}={v}" for k, v in c], None)
        except _schedlab.Error as e:
            where = ", ".join(f"{k}={v}" for k, v in c)
            raise _error(f"{e}" + (f" (in the configuration {where})" if where else ""), getattr(e, "kind", None)) from None


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
    ``client`` is a ``distributed.Client``, a cluster (a ``LocalCluster``, dask-jobqueue's
    ``SLURMCluster``...) or a scheduler's address (``"tcp://host:8786"``); without one, a
    ``LocalCluster`` of ``workers`` processes (default: every core) is started and closed here.
    The policy, ``options`` and every configuration are checked here before any task is sent
    (an error names the configuration). Each trace is sent to each worker once, not with every
    task. ``options`` apply to every run.

    Returns one row per configuration, best first: ``rank``, ``degradation`` (average
    performance degradation in percent over the test cases, each trace's average wait and
    average bounded slowdown), the configuration's values, and each trace's two metrics as
    ``LABEL:avg_wait_s`` and ``LABEL:avg_bsld``. A trace's label is its file name without
    ``.swf``/``.swf.gz``; traces that share one are told apart by folder or trace options
    (``log (a)``, ``log load=1.3``; ``#1``, ``#2`` for one read twice alike), so each
    keeps its own columns.

    The loader's remarks on a trace given as a path are issued as :class:`TraceWarning` here
    (those of a :class:`Trace` were when it was loaded), and every trace's stay on the table:
    ``df.attrs["traces"]`` maps each label to the trace's ``name``, ``options`` and
    ``warnings``."""
    from . import _as_trace, _sets

    # A loop, not a comprehension: the warnings' stack level counts frames.
    loaded = []
    for t in traces:
        loaded.append(_as_trace(t, stacklevel=2))
    if not loaded:
        raise ValueError("sweep needs one or more traces")
    axes = [_axis(k, v) for k, v in grid.items()]
    try:
        configs = _schedlab.sweep_grid(axes)
    except _schedlab.Error as e:
        from . import _error

        raise _error(e) from None
    base = _sets(options)
    _check(policy, configs, base)
    client, close = _connect(client, workers)
    try:
        # Each trace once to every worker; the tasks carry only its key.
        shipped = [client.scatter(t, broadcast=True, hash=False) for t in loaded]
        tasks = [
            [client.submit(_run, s, policy, base + [f"{k}={v}" for k, v in c], pure=False) for s in shipped]
            for c in configs
        ]
        results = client.gather(tasks)
    finally:
        for c in close:
            c.close()
    names = _labels(loaded)
    _failed(results, configs, names)
    perf = [[x for pair in row for x in pair] for row in results]
    degradation, order = _schedlab.sweep_rank(perf)
    keys = list(dict.fromkeys(k for c in configs for k, _ in c))
    rows = []
    for rank, i in enumerate(order, 1):
        row: Dict[str, Any] = {"rank": rank, "degradation": degradation[i]}
        row.update(dict(configs[i]))
        for name, (wait, bsld) in zip(names, results[i]):
            row[f"{name}:avg_wait_s"] = wait
            row[f"{name}:avg_bsld"] = bsld
        rows.append(row)
    df = pd.DataFrame(rows, columns=["rank", "degradation", *keys, *[c for n in names for c in (f"{n}:avg_wait_s", f"{n}:avg_bsld")]])
    # A grid of numbers gives a column of numbers (sorted and plotted as such); words stay text.
    for k in keys:
        try:
            df[k] = pd.to_numeric(df[k])
        except (ValueError, TypeError):
            pass
    df.attrs["traces"] = {n: {"name": t.name, "options": t.options, "warnings": t.warnings} for n, t in zip(names, loaded)}
    return df
