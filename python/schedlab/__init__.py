"""SchedLab from Python: read workload traces, simulate scheduling policies, sweep options.

The simulator is the same Rust library as the ``schedlab`` command line and the page; this
package calls it directly (no subprocess), with the same option names, the same results and
the same error messages.

>>> import schedlab
>>> t = schedlab.load("KTH-SP2-1996-2.1-cln.swf.gz")
>>> r = schedlab.simulate(t, "easy")
>>> r.metrics["avg_wait_s"], r.schedule_hash
>>> schedlab.sweep([t], "easy++", {"window": [1, 2, 3], "metric": ["avg", "med"]})

What the loader remarks on a trace (no user estimates, a machine sized by its widest job,
malformed lines skipped...) is issued as a :class:`TraceWarning` when it is read, and kept on
the trace (``t.warnings``), on each result of it and on a sweep's table.
"""

from __future__ import annotations

import datetime
import functools
import json
import os
import warnings
import zoneinfo
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, TypeVar, Union, cast

import numpy as np
import pandas as pd

from . import _schedlab
from .policy import Jobs, Policy, State

__all__ = ["__version__", "Error", "ReadError", "NotFoundError", "InputError", "TraceWarning", "Trace", "Result", "Policy", "State", "load", "generate", "simulate", "compare", "plot", "Chart", "policies", "sweep", "loadsweep", "LoadSweep"]


__version__: str = _schedlab.__version__


class Error(Exception):
    """A trace, an option or a policy SchedLab cannot use; the message is the command line's.
    Each is also the built-in exception it is a case of: :class:`NotFoundError` a
    ``FileNotFoundError``, :class:`ReadError` an ``OSError``, :class:`InputError` a ``ValueError``."""


class ReadError(Error, OSError):
    """A file (a trace, a slurm.conf) that could not be read."""


class NotFoundError(ReadError, FileNotFoundError):
    """A file (a trace, a slurm.conf) that is not where its path says."""


class InputError(Error, ValueError):
    """A trace that cannot be read as one, or a policy, option or value SchedLab does not take."""


def _error(raised: Union[str, BaseException], kind: Optional[str] = None) -> Error:
    """The library's error (its exception, or a message) as the exception of its kind: the
    library says which (``kind``: ``"not_found"``, ``"read"``), anything else is bad input."""
    if isinstance(raised, BaseException):
        kind = kind or getattr(raised, "kind", None)
    message = str(raised)
    if kind == "not_found":
        return NotFoundError(message)
    if kind == "read":
        return ReadError(message)
    return InputError(message)


class TraceWarning(UserWarning):
    """A remark of the loader on a trace it could use (no user estimates, a machine sized by its
    widest job, jobs dropped or changed, malformed lines skipped...): the results stand, but may
    not mean what one expects. The message is the trace's name, then the command line's remark."""


_F = TypeVar("_F", bound=Callable[..., Any])


def _translated(f: _F) -> _F:
    """Raises the library's errors as :class:`Error` (a plain Python class: it pickles, so a
    Dask worker's error reaches the caller as itself)."""

    @functools.wraps(f)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return f(*args, **kwargs)
        except _schedlab.Error as e:
            raise _error(e) from None

    return cast(_F, call)


def _sets(options: Mapping[str, Any]) -> List[str]:
    """Keyword options as the command line's ``KEY=VALUE`` settings."""
    out = []
    for k, v in options.items():
        if isinstance(v, bool):
            v = "on" if v else "off"
        elif isinstance(v, float) and v.is_integer():
            # A whole number read back from a table (a sweep's row) is that number.
            v = int(v)
        out.append(f"{k}={v}")
    return out


def _zone(header: Mapping[str, Any]) -> datetime.tzinfo:
    """The zone a trace's times are read in, as the command line reads them: its named zone if
    the tz database has it, else its fixed offset, else UTC."""
    name = (header.get("time_zone_string") or "").strip()
    if name:
        try:
            return zoneinfo.ZoneInfo(name)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            pass
    offset = header.get("time_zone")
    if isinstance(offset, int) and abs(offset) <= 18 * 3600:
        return datetime.timezone(datetime.timedelta(seconds=offset))
    return datetime.timezone.utc


def _frame(columns) -> pd.DataFrame:
    """Little-endian column buffers from the library as a DataFrame (one copy per column)."""
    return pd.DataFrame({name: np.frombuffer(buf, dtype=dtype) for name, dtype, buf in columns})


class Trace:
    """A trace read and ready to simulate. It pickles as its packed scan (a few bytes per job),
    so sending it to a Dask worker costs little."""

    def __init__(self, native: "_schedlab.Trace"):
        self._native = native

    @property
    def report(self) -> Dict[str, Any]:
        """What was read: lines, jobs kept and dropped by reason with their first lines, the
        machine and how it was sized, warnings, line errors."""
        return json.loads(self._native.report_json())["report"]

    @functools.cached_property
    def header(self) -> Dict[str, Any]:
        """The trace's header: an SWF file's header comments (``unix_start_time``,
        ``time_zone``, ``time_zone_string``, ``computer``, ``max_procs``...), or what an
        accounting log says of itself; ``queues``, ``partitions`` and ``qos`` map each number
        the jobs carry to its name (``{1: "jupyter-long"}``); ``zone`` is the zone its times are
        read in (a ``tzinfo``: the named zone, else the fixed offset, else UTC) and ``start``
        the time its seconds count from, a datetime in that zone."""
        h = json.loads(self._native.report_json())["header"]
        for key in ("queues", "partitions", "qos"):
            h[key] = {int(n): name for n, name in h.get(key) or []}
        h["zone"] = _zone(h)
        h["start"] = pd.Timestamp(h.get("unix_start_time") or 0, unit="s", tz="UTC").tz_convert(h["zone"])
        return h

    @property
    def jobs(self) -> pd.DataFrame:
        """The jobs as simulated: id, submit, runtime, estimate, procs, user, group, queue,
        partition, logged_wait."""
        return _frame(self._native.jobs_columns())

    @property
    def warnings(self) -> List[str]:
        """The loader's remarks, each issued as a :class:`TraceWarning` when it was read: the
        report's ``warnings``, then how many malformed lines were skipped and the first."""
        return self._native.warnings

    @property
    def machine(self) -> int:
        """The machine's size in processors."""
        return self._native.machine

    @property
    def name(self) -> str:
        """The path it was read from, or ``<bytes>``."""
        return self._native.name

    @property
    def options(self) -> List[str]:
        """The trace options it was read with, as ``KEY=VALUE``."""
        return self._native.options

    def __len__(self) -> int:
        return len(self._native)

    def __repr__(self) -> str:
        return f"<Trace {self.name}: {len(self)} jobs on {self.machine} processors>"


@_translated
def _read(source: "Source", trace_options: Mapping[str, Any], cluster: Optional[Union[str, os.PathLike]] = None) -> Trace:
    """Reads a trace without issuing its warnings."""
    if isinstance(source, os.PathLike):
        source = os.fspath(source)
    elif isinstance(source, (bytearray, memoryview)):
        source = bytes(source)
    elif hasattr(source, "read"):
        data = source.read()
        source = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    elif not isinstance(source, (str, bytes)):
        raise TypeError(f"a trace is a path, bytes, a binary file object or 'example:NAME', not {type(source).__name__}")
    conf = None
    if cluster is not None:
        text = os.fspath(cluster)
        # A path to the file, or the file's text itself (it has a NodeName line).
        if "NodeName" in text:
            conf = text
        else:
            try:
                with open(text, encoding="utf-8", errors="replace") as f:
                    conf = f.read()
            except FileNotFoundError as e:
                raise NotFoundError(f"cannot read {text}: {e.strerror}") from None
            except OSError as e:
                raise ReadError(f"cannot read {text}: {e.strerror or e}") from None
    return Trace(_schedlab.load(source, _sets(trace_options), conf))


def _warn(trace: Trace, stacklevel: int) -> None:
    """Issues each of the trace's warnings as a :class:`TraceWarning`, attributed to the line
    ``stacklevel`` frames above the caller (1: the caller's own line)."""
    for w in trace.warnings:
        warnings.warn(f"{trace.name}: {w}", TraceWarning, stacklevel=stacklevel + 1)


def _as_trace(trace: Union["Trace", str, "os.PathLike[str]"], stacklevel: int) -> "Trace":
    """``trace`` itself, or the trace at a path read with its default options, its warnings
    issued ``stacklevel`` frames above the caller (1: the caller's own line)."""
    if isinstance(trace, Trace):
        return trace
    if not isinstance(trace, (str, os.PathLike)):
        raise TypeError(f"a trace must be a schedlab.Trace or a path, not {type(trace).__name__}")
    t = _read(trace, {})
    _warn(t, stacklevel=stacklevel + 1)
    return t


#: What :func:`load` reads: a path, the file's bytes, a binary file object, or the command
#: line's ``example:NAME`` and ``generate:...`` traces.
Source = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, Any]


def load(source: Source, cluster: Optional[Union[str, os.PathLike]] = None, **trace_options: Any) -> Trace:
    """Reads a trace: SWF (plain or gzip) or an accounting log (Slurm sacct or job-completion,
    PBS/Torque, Grid Engine, LSF), from a path, the file's bytes or a file opened in binary
    mode; ``"example:tsafrir-fig1"`` is a worked example of the decision log's, as on the
    command line. Trace options are the command line's (``machine=128``, ``tz="Europe/Paris"``,
    ``load=1.2``, ``partition="gpu"``...). Raises :class:`Error` with the command line's
    message when it cannot be used: :class:`NotFoundError` (a ``FileNotFoundError``) for a
    missing file, :class:`InputError` (a ``ValueError``) for a trace or option it cannot take.

    ``cluster`` is the cluster's slurm.conf (a path, or its text), as the command line's
    ``--cluster``: the ``slurm`` policies place jobs on its nodes; without it a sacct log's
    ``NodeList`` gives the nodes (with a warning that they are inferred).

    Each of the loader's remarks (what the command line warns of on reading the trace) is issued
    as a :class:`TraceWarning` naming the trace, at the line that called ``load``, and kept in
    the trace's :attr:`Trace.warnings`."""
    trace = _read(source, trace_options, cluster)
    _warn(trace, stacklevel=2)
    return trace


def generate(
    machine: int = 128,
    jobs: Optional[int] = None,
    load: Optional[float] = None,
    seed: int = 1,
    types: str = "both",
    estimate: Union[str, float] = "exact",
    model: str = "lublin99",
    days: Optional[float] = None,
    **trace_options: Any,
) -> Trace:
    """A synthetic workload from Lublin & Feitelson's model (``lublin99``, its published
    parameters and its reference program's draws): ``jobs`` jobs for a machine of ``machine``
    processors (10,000 if neither ``jobs`` nor ``days`` is given; ``days``: the jobs submitted
    in that many days), batch and interactive (``types="both"``, or ``"batch"``, ``"interactive"``,
    ``"typeless"``), reaching the offered ``load`` if given by stretching every inter-arrival
    gap. Estimates are not part of the model: ``"exact"`` (the runtime), a factor, or ``"tef"``
    (Tsafrir, Etsion & Feitelson's model of modal estimates). The same
    seed gives the same workload. Its jobs are :attr:`Trace.jobs` (queue 1 = batch, 0 =
    interactive); the header of ``schedlab generate``'s SWF names the model and its options.
    Same as ``load("generate:machine=...,jobs=...")``."""
    if jobs is not None and days is not None:
        raise ValueError("generate: give jobs or days, not both")
    size = f"days={days}" if days is not None else f"jobs={10_000 if jobs is None else jobs}"
    spec = (
        f"generate:model={model},machine={machine},{size},load={'model' if load is None else load},"
        f"seed={seed},types={types},estimate={estimate}"
    )
    return _read(spec, trace_options)


class Result:
    """One policy's simulation of a trace."""

    def __init__(
        self,
        result_json: str,
        schedule: Any,
        series: Any,
        run: Any,
        trace_warnings: List[str],
        header: Optional[Mapping[str, Any]] = None,
    ):
        r = json.loads(result_json)
        #: The policy's name.
        self.policy: str = r["policy"]
        #: Every option value it ran with.
        self.options: Dict[str, str] = r["options"]
        #: The metrics, under the command line's keys (``avg_wait_s``, ``avg_bsld``...).
        self.metrics: Dict[str, Any] = r["metrics"]
        #: A hash of the schedule, equal to the command line's and the page's.
        self.schedule_hash: str = r["schedule_hash"]
        #: Why the run stopped early (its time budget), or None.
        self.stopped: Optional[str] = r.get("stopped")
        #: What the policy said of its run (the ``slurm`` policies: the cluster, each setting's
        #: source, how often the nodes refused what counts allowed).
        self.notes: List[str] = list(r.get("notes", []))
        #: The remarks of the loader on the trace it ran on (its :attr:`Trace.warnings`, issued
        #: when it was read, not again here), so the result keeps them.
        self.warnings: List[str] = list(trace_warnings)
        self._raw = r
        self._schedule = schedule
        self._series = series
        self._run = run
        self._header = header or {}
        #: How many scheduling passes a Python policy decided (None for a named policy).
        self.passes: Optional[int] = None

    @functools.cached_property
    def schedule(self) -> pd.DataFrame:
        """Each job: job_id, submit, start, end (seconds, as the command line counts them;
        start and end missing, ``<NA>``, for a job that never ran), procs, runtime, estimate,
        user, queue, backfilled (``True`` if it started while a job submitted before it
        waited); then ``submit_time``, ``start_time`` and ``end_time``, the same times as
        dates in the trace's zone (:attr:`Trace.header`'s ``zone``, ``NaT`` where missing)."""
        df = _frame(self._schedule)
        for c in ("start", "end"):
            df[c] = df[c].astype("Int64").where(df[c] >= 0)
        df["backfilled"] = df["backfilled"].astype(bool)
        zone = self._header.get("zone", datetime.timezone.utc)
        origin = self._header.get("unix_start_time") or 0
        for c in ("submit", "start", "end"):
            seconds = df[c].astype("Int64") + origin
            df[f"{c}_time"] = pd.to_datetime(seconds, unit="s", utc=True).dt.tz_convert(zone)
        return df

    @property
    def series(self) -> pd.DataFrame:
        """The machine's steps: from each ``time`` on, ``busy`` processors and ``queued`` jobs."""
        return pd.DataFrame({name: np.frombuffer(buf, dtype="<i8") for name, buf in self._series})

    @property
    def accuracy_histogram(self) -> pd.DataFrame:
        """The finished jobs' prediction accuracy (Tsafrir et al.'s Fig. 2: for EASY, whose
        predictions are the estimates, the estimates' accuracy), in 20 bins of 5 percent: one
        row per bin (``from_pct``, ``to_pct``), with ``jobs`` and ``jobs_not_killed`` (without
        those that reached their estimate). Empty unless the run observed its predictions
        (``observe="predictions"`` or ``"all"``)."""
        h = self._raw.get("accuracy_histogram") or {}
        n = len(h.get("all") or [])
        return pd.DataFrame(
            {
                "from_pct": [5 * i for i in range(n)],
                "to_pct": [5 * i + 5 for i in range(n)],
                "jobs": list(h.get("all") or []),
                "jobs_not_killed": list(h.get("without_killed") or []),
            }
        )

    @property
    def monthly(self) -> Dict[str, Any]:
        """Jobs, utilization and waits per calendar month (Ward et al.)."""
        return self._raw["monthly"]

    def plot(self, kind: str, path: Optional[Union[str, "os.PathLike[str]"]] = None, width: int = 800, height: int = 450) -> "Chart":
        """One of the command line's pictures of this run (``schedlab run --plot DIR``), drawn
        by the same chart code: ``kind`` is the name of its file there: ``"gantt"`` (the
        schedule; over more than two weeks, the week of the longest queue), ``"busy"``,
        ``"queue"``, ``"wait-cdf"``, ``"gpus"`` and ``"memory"`` (when jobs hold them),
        ``"categories"`` (bounded slowdown by job category), ``"accuracy"`` (the predictions'
        accuracy histogram), or ``"compare-avg_wait_s"`` (a bar of any metric, also given as its
        key alone). :func:`plot` draws several results in one chart. With ``path``, the picture
        is written there as SVG, or as PNG when the name ends in ``.png``. A named policy is run
        once more for its first picture, as the command line does for pictures (every job's
        processors, every measure: the schedule is the same, which is checked)."""
        return plot([self], kind, path, width, height)

    def explain(self, job: int, format: str = "text") -> Union[str, Dict[str, Any]]:
        """Why job number ``job`` (the trace's ``id``) started when it did, as ``schedlab
        explain --job`` says it: what it waited for, its reservations, the jobs started ahead
        of it and every decision about it. ``format="json"`` gives the same as a dict (the
        command line's ``--format json``). A named policy only: it is run again with its
        decision log."""
        if format not in ("text", "json"):
            raise ValueError(f"format={format!r}: expected 'text' or 'json'")
        try:
            text, data = self._run.explain(int(job))
        except _schedlab.Error as e:
            raise _error(e) from None
        return text if format == "text" else json.loads(data)

    def __repr__(self) -> str:
        m = self.metrics
        return f"<Result {self.policy}: avg wait {m['avg_wait_s']:.0f} s, avg bsld {m['avg_bsld']:.2f}>"


class Chart:
    """A picture of one or more runs, as the command line writes it: :attr:`svg`, :meth:`png`,
    and :attr:`hash`, the hash of its display list (the command line's ``hashes.json``, the
    page's ``data-hash``; None for the Gantt chart, which is rasterised). Shown inline in a
    notebook."""

    def __init__(self, kind: str, runs: List[Any], width: int, height: int, svg: str, hash: Optional[str]):
        #: The kind of picture (``"busy"``, ``"gantt"``...).
        self.kind = kind
        #: The picture as SVG text.
        self.svg = svg
        #: Its display list's hash, equal to the command line's for the same picture.
        self.hash = hash
        self._args = (runs, kind, width, height)

    def png(self) -> bytes:
        """The picture as PNG, as the command line writes it beside the SVG."""
        try:
            data = _schedlab.picture(*self._args, png=True)[1]
        except _schedlab.Error as e:
            raise _error(e) from None
        assert data is not None, "a picture asked for as PNG comes with it"
        return data

    def save(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """Writes the picture to ``path``: PNG if its name ends in ``.png``, else SVG."""
        p = os.fspath(path)
        if p.lower().endswith(".png"):
            with open(p, "wb") as f:
                f.write(self.png())
        else:
            with open(p, "w", encoding="utf-8") as f:
                f.write(self.svg)

    def _repr_svg_(self) -> str:
        return self.svg

    def __repr__(self) -> str:
        return f"<Chart {self.kind}: {len(self.svg)} bytes of SVG>"


def plot(
    results: List[Result], kind: str, path: Optional[Union[str, "os.PathLike[str]"]] = None, width: int = 800, height: int = 450
) -> Chart:
    """Several results of one trace in one of the command line's pictures, as ``schedlab run
    --policy A,B --plot DIR`` draws them: ``kind`` is ``"compare-avg_wait_s"`` (or any metric's
    key), ``"busy"``, ``"queue"``, ``"wait-cdf"``, ``"gpus"`` or ``"memory"``; the kinds that
    draw one run (``"gantt"``, ``"categories"``, ``"accuracy"``) take one result
    (:meth:`Result.plot`). With ``path``, also written there (PNG if it ends in ``.png``)."""
    runs = [r._run for r in results]
    try:
        svg, _, digest = _schedlab.picture(runs, kind, int(width), int(height))
    except _schedlab.Error as e:
        raise _error(e) from None
    chart = Chart(kind, runs, int(width), int(height), svg, digest)
    if path is not None:
        chart.save(path)
    return chart


@_translated
def simulate(trace: Union[Trace, str, os.PathLike], policy: Union[str, "Policy"], predictions=None, **options: Any) -> Result:
    """Simulates one policy on a trace (a :class:`Trace`, or a path :func:`load` reads with
    its default options, its warnings issued at the caller's line): a name (``"easy"``, ``"custom"`` with ``priority=...``)
    or a :class:`Policy` object written in Python. Options are the policy's, the engine's and
    the metrics' (``window=2``, ``observe="all"``, ``tau=10``); trace options belong to
    :func:`load`. A named policy runs with the GIL released, so threads simulate in parallel.

    ``predictions`` plugs a runtime predictor into a backfilling policy (or a Python one): a
    sequence of seconds, one per job in the trace's order (``trace.jobs`` rows), or a callable
    called with each job (a dict: index, id, submit, procs, estimate, user, queue) at its
    submission and returning seconds. A prediction is capped at the job's estimate (its kill
    time) and corrected, like any, when the job outlives it.

    The result keeps the trace's warnings (:attr:`Result.warnings`); they were issued when it
    was loaded, not again here."""
    # The caller's line: this function's frame and the wrapper that translates errors between.
    t = _as_trace(trace, stacklevel=3)
    if isinstance(policy, Policy):
        (raw, passes) = _schedlab.simulate_python(t._native, policy, policy._name(), _sets(options), _predictions(predictions))
        result = Result(*raw, t.warnings, t.header)
        result.passes = passes
        return result
    if not isinstance(policy, str):
        raise TypeError(f"policy must be a name or a schedlab.Policy, not {type(policy).__name__}")
    return Result(*_schedlab.simulate(t._native, policy, _sets(options), _predictions(predictions)), t.warnings, t.header)


def compare(
    traces: Union[Trace, str, "os.PathLike[str]", Sequence[Union[Trace, str, "os.PathLike[str]"]]],
    policies: Union[str, Sequence[str]],
    **options: Any,
) -> pd.DataFrame:
    """Every policy on every trace, each pair on its own core in the library (as ``schedlab run
    --policy A,B`` runs them), into one long table: a row per ``trace``, ``policy``, ``metric``
    (the command line's keys: ``avg_wait_s``, ``avg_bsld``...) and ``value``. ``traces``: one
    or a list of :class:`Trace` objects or paths (read with their default options);
    ``policies``: names, as a list or ``"easy,conservative"``, or ``"all"``; options as for
    :func:`simulate`, the same for every run. Metrics without a value (none of the jobs they
    count) are left out. ``df.attrs["schedule_hash"]`` maps each (trace, policy) to its
    schedule's hash and ``df.attrs["stopped"]`` to why it stopped early, where one did. Ctrl-C
    stops every run."""
    if isinstance(traces, (Trace, str, os.PathLike)):
        traces = [traces]
    # A loop, not a comprehension: the warnings' stack level counts frames.
    loaded = []
    for t in traces:
        loaded.append(_as_trace(t, stacklevel=2))
    names = policies if isinstance(policies, str) else ",".join(policies)
    try:
        runs = json.loads(_schedlab.compare([t._native for t in loaded], names, _sets(options)))
    except _schedlab.Error as e:
        raise _error(e) from None
    rows: List[tuple] = []
    hashes: Dict[tuple, str] = {}
    stopped: Dict[tuple, str] = {}
    for run in runs:
        trace, r = loaded[run["trace"]].name, run["result"]
        hashes[(trace, r["policy"])] = r["schedule_hash"]
        if r.get("stopped"):
            stopped[(trace, r["policy"])] = r["stopped"]
        for metric, value in r["metrics"].items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                rows.append((trace, r["policy"], metric, float(value)))
    df = pd.DataFrame(rows, columns=["trace", "policy", "metric", "value"])
    df.attrs["schedule_hash"] = hashes
    df.attrs["stopped"] = stopped
    return df


def _predictions(p):
    """Predictions as the engine takes them: None, a callable, or a list of whole seconds."""
    if p is None or callable(p):
        return p
    a = np.asarray(p, dtype=float)
    if a.ndim != 1:
        raise Error(f"predictions must be one value per job; got an array of shape {a.shape}")
    # Whole seconds from 1 s to about 30,000 years: a value outside cannot be a runtime.
    bad = np.flatnonzero(~np.isfinite(a) | (a < 0.5) | (a > 1e12))
    if len(bad):
        raise Error(
            f"predictions must be numbers of seconds from 1 to 1e12; the one for the job at index {bad[0]} is {a[bad[0]]}"
        )
    return np.rint(a).astype(np.int64).tolist()


_UNITS = {"seconds": "s", "minutes": "min", "hours": "h"}
_KINDS = {"integer": "integer", "number": "number", "seconds": "number", "minutes": "number", "hours": "number"}


def _values(text: str) -> Dict[str, Any]:
    """An option's values as the command line writes them (``"0, 1,2, ... | inf"``,
    ``"number in (0, 1]"``, ``"seconds >= 0 | conf"``) in a form a program can check:
    ``choices`` (the words it takes), and where it takes a number its ``kind`` (``"integer"``
    or ``"number"``), ``unit``, ``min``/``max`` and whether each bound is itself allowed."""
    import re

    out: Dict[str, Any] = {"choices": [], "kind": None, "unit": None, "min": None, "max": None, "min_inclusive": None, "max_inclusive": None, "other": []}

    def number(v: str):
        return int(v) if re.fullmatch(r"-?\d+", v) else float(v)

    alts = [a.strip() for a in text.split("|")]
    for alt in alts:
        m = re.fullmatch(r"(integer|number|seconds|minutes|hours) (>=|>) (-?[\d.]+)", alt)
        r = re.fullmatch(r"(-?[\d.]+) - (-?[\d.]+)", alt)
        i = re.fullmatch(r"number in ([(\[])(-?[\d.]+), (-?[\d.]+)([)\]])", alt)
        if alt == "0, 1, 2, ...":
            out.update(kind="integer", min=0, min_inclusive=True)
        elif m:
            out.update(kind=_KINDS[m[1]], unit=_UNITS.get(m[1]), min=number(m[3]), min_inclusive=m[2] == ">=")
        elif r:
            lo, hi = number(r[1]), number(r[2])
            kind = "integer" if isinstance(lo, int) and isinstance(hi, int) else "number"
            out.update(kind=kind, min=lo, max=hi, min_inclusive=True, max_inclusive=True)
        elif i:
            out.update(kind="number", min=number(i[2]), max=number(i[3]), min_inclusive=i[1] == "[", max_inclusive=i[4] == "]")
        elif alt in ("number", "integer"):
            out.update(kind=alt)
        elif re.fullmatch(r"[a-z][a-z0-9_]*", alt) and alt != "expression" and not (alt == "text" and len(alts) == 1):
            out["choices"].append(alt)
        else:
            # A form of its own (an expression, a list, a clock time): the prose says it.
            out["other"].append(alt)
    return out


def policies() -> Dict[str, Any]:
    """Every policy (name, family, group, summary, and each option with its values and
    default), and the trace, engine and metric options with their defaults. Each option's
    ``values`` is the command line's prose; beside it, the same for a program: ``choices``
    (the words it takes), ``kind`` (``"integer"``, ``"number"`` or None), ``unit`` (``"s"``,
    ``"min"``, ``"h"``), ``min``/``max`` with ``min_inclusive``/``max_inclusive``, and
    ``other`` (any form of its own, such as ``"expression"`` or ``"NAME:PRIORITY,..."``)."""
    p = json.loads(_schedlab.policies_json())
    for policy in p["policies"]:
        for o in policy["options"]:
            o.update(_values(o.get("values") or ""))
    return p


from .sweep import sweep  # noqa: E402
from .loadsweep import LoadSweep, loadsweep  # noqa: E402
