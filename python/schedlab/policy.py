"""Policies written in Python: subclass :class:`Policy` and write ``schedule(self, state)``.

The engine keeps the clock, the machine, the runtimes the scheduler plans with (the user
estimates, or the ``predictions=`` given to :func:`schedlab.simulate`), the metrics and the
log of promises. At each scheduling pass with jobs waiting it calls ``schedule`` with a
:class:`State`: the waiting jobs in arrival order and the running ones as NumPy columns, the
free processors, the time, and the availability profile's answers (``earliest_start``,
``fits_now``) with the pass's own starts and reservations included. The policy starts jobs
(``state.start(index)``) and reserves them (``state.reserve(index, at)``); a reservation lasts
the pass, holds its processors in the profile for the rest of it, is logged as a promise, and
brings a pass at its time.

EASY in a dozen lines (it gives the built-in ``easy`` schedule job for job)::

    class Easy(schedlab.Policy):
        def schedule(self, state):
            w = state.waiting
            for i in range(len(w)):
                if not state.start(w.index[i]):
                    break
            else:
                return
            state.reserve(w.index[i], state.earliest_start(w.procs[i], w.prediction[i]))
            for j in np.flatnonzero(w.procs[i + 1:] <= state.free) + i + 1:
                if state.fits_now(w.procs[j], w.prediction[j]):
                    state.start(w.index[j])

    schedlab.simulate(trace, Easy())
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from . import _schedlab

__all__ = ["Policy", "State", "Jobs"]

_WAITING, _RUNNING = _schedlab.pass_columns()


class Jobs:
    """Jobs as NumPy int64 columns, one row a job. Waiting jobs have ``index`` (the job's row in
    the trace and in a result's schedule: what :meth:`State.start` takes), ``id`` (its SWF
    number), ``submit``, ``procs``, ``estimate`` (the user's, the kill time), ``prediction``
    (the runtime the scheduler plans with: the estimate unless predictions were given),
    ``user``, ``queue`` and ``wait`` (seconds since submission). Running jobs have ``index``,
    ``start``, ``procs`` and ``expected_end`` (start plus prediction, corrected if the job
    outlived it)."""

    def __init__(self, raw: bytes, columns):
        self._rows = np.frombuffer(raw, dtype="<i8").reshape(-1, len(columns))
        for k, name in enumerate(columns):
            setattr(self, name, self._rows[:, k])
        self.columns = list(columns)

    def __len__(self) -> int:
        return self._rows.shape[0]

    def frame(self):
        """The columns as a pandas DataFrame."""
        import pandas as pd

        return pd.DataFrame(self._rows, columns=self.columns)

    def __repr__(self) -> str:
        return f"<Jobs: {len(self)} rows of {', '.join(self.columns)}>"


class State:
    """One scheduling pass, as :meth:`Policy.schedule` sees it. Valid only during that call."""

    __slots__ = ("_raw", "_waiting", "_running")

    def __init__(self, raw):
        self._raw = raw
        self._waiting = None
        self._running = None

    @property
    def now(self) -> int:
        """The time of the pass (the trace's seconds)."""
        return self._raw.now

    @property
    def free(self) -> int:
        """Processors free now, after this pass's starts."""
        return self._raw.free

    @property
    def machine(self) -> int:
        """Machine size, in processors."""
        return self._raw.machine

    @property
    def waiting(self) -> Jobs:
        """The jobs waiting at the beginning of the pass, in arrival order (it does not change
        as jobs are started: :meth:`started` says which have)."""
        if self._waiting is None:
            self._waiting = Jobs(self._raw.waiting_bytes(), _WAITING)
        return self._waiting

    @property
    def running(self) -> Jobs:
        """The jobs running at the beginning of the pass, in the order they started."""
        if self._running is None:
            self._running = Jobs(self._raw.running_bytes(), _RUNNING)
        return self._running

    def start(self, index) -> bool:
        """Starts waiting job ``index`` now: False if fewer processors are free than it needs.
        It need not fit the profile: a policy may delay its own reservations. Raises
        ValueError for a job that is not waiting or has started in this pass."""
        return self._raw.start(int(index))

    def reserve(self, index, at) -> None:
        """Reserves waiting job ``index`` at time ``at`` (not before now) for this pass: its
        processors are held in the profile from then for its prediction, the promise is logged,
        and a pass runs at ``at``."""
        self._raw.reserve(int(index), int(at))

    def earliest_start(self, procs, duration) -> Optional[int]:
        """The earliest time, from now, at which ``procs`` processors are free for ``duration``
        seconds in the profile (running jobs until their expected ends, with this pass's starts
        and reservations), or None for a job wider than the machine."""
        return self._raw.earliest_start(int(procs), int(duration))

    def fits_now(self, procs, duration) -> bool:
        """Whether ``procs`` processors can start now for ``duration`` seconds: free now, and
        left free by every reservation of this pass until then."""
        return self._raw.fits_now(int(procs), int(duration))

    def started(self):
        """Indices of the jobs started in this pass, in order."""
        return self._raw.started()


class Policy:
    """A scheduling policy written in Python: subclass it and write :meth:`schedule`; run it
    with ``schedlab.simulate(trace, MyPolicy())``. The name in results is :attr:`name`, or the
    class's name."""

    #: The name results give the policy (the class's name if None).
    name: Optional[str] = None

    def schedule(self, state: State) -> None:
        """Called at each scheduling pass with jobs waiting: start and reserve jobs through
        ``state``. An exception stops the simulation and reaches the caller of simulate()."""
        raise NotImplementedError("a schedlab.Policy must define schedule(self, state)")

    def _pass(self, raw) -> None:
        self.schedule(State(raw))

    def _name(self) -> str:
        import re

        from . import Error, policies

        name = self.name or type(self).__name__
        if not re.fullmatch(r"[\w+.-]{1,40}", name):
            raise Error(f"policy name {name!r}: must be 1-40 letters, digits, '-', '_', '+' or '.'")
        if name in {p["name"] for p in policies()["policies"]}:
            raise Error(f"policy name {name!r} is the name of a built-in policy: choose another")
        return name
