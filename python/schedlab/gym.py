"""A Gymnasium environment compatible with RLScheduler's ``HPCEnv`` (Zhang et al., SC'20).

The simulation runs in Rust (``schedlab::rlenv``), in RLScheduler's "exact" mode: the same
observations, rewards and SJF/F1 baseline scores as the released code for the same seed and
actions (``../shared/models/rlscheduler-env.md`` is the specification; docs/VALIDATION.md says
what is checked). Importing this module registers ``schedlab/RLScheduler-v0``::

    import gymnasium, schedlab.gym
    env = gymnasium.make("schedlab/RLScheduler-v0", trace="SDSC-SP2-1998-4.2-cln.swf.gz")
    obs, info = env.reset(seed=0)                  # window start drawn as gym 0.21 drew it
    obs, reward, terminated, truncated, info = env.step(0)

- ``observation_space``: ``Box(0, 1, (1024,), float32)`` (128 slots x 8 features; a few values
  fall outside [0, 1] as in the original); ``dtype=np.float64`` gives the exact values.
- ``action_space``: ``Discrete(128)``: the slot to commit; a slot without a job waits.
- ``info["action_mask"]``: bool[128], the mask RLScheduler's training code derives.
- reward: 0 until the window's last job starts, then minus the average score; the terminal
  ``info`` holds ``sjf_score``, ``f1_score``, ``best_minus_rl`` and ``episode_len``.
"""

from __future__ import annotations

import os
from typing import Any, Dict, Optional, Tuple, Union

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from . import Error, _schedlab

__all__ = ["SchedGymEnv", "SchedGymVectorEnv", "load_workload", "ENV_ID", "MAX_QUEUE_SIZE", "JOB_FEATURES"]

ENV_ID = "schedlab/RLScheduler-v0"
MAX_QUEUE_SIZE = 128
JOB_FEATURES = 8
OBS_LEN = MAX_QUEUE_SIZE * JOB_FEATURES

_CACHE: Dict[Tuple[str, int, int], Any] = {}

TraceArg = Union[str, os.PathLike, bytes, bytearray, Any]


def _raise(e: Exception):
    from . import _error

    raise _error(e) from None


def load_workload(trace: TraceArg):
    """Reads a trace as RLScheduler reads it, from a path (``.swf`` or ``.swf.gz``), SWF text
    (a string with a newline), or bytes; a workload already read is returned as it is. Paths
    are read once per process (cached by path, size and modification time)."""
    if isinstance(trace, _schedlab.RlWorkload):
        return trace
    try:
        return _read(trace)
    except _schedlab.Error as e:
        _raise(e)


def _read(trace: TraceArg):
    if isinstance(trace, (bytes, bytearray, memoryview)):
        return _schedlab.RlWorkload.parse(bytes(trace))
    if isinstance(trace, str) and "\n" in trace:
        return _schedlab.RlWorkload.parse(trace.encode())
    path = os.path.abspath(os.fspath(trace))
    st = os.stat(path)
    key = (path, st.st_size, st.st_mtime_ns)
    if key not in _CACHE:
        with open(path, "rb") as f:
            _CACHE[key] = _schedlab.RlWorkload.parse(f.read())
    return _CACHE[key]


def _default_trace() -> str:
    return os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "traces", "SDSC-SP2-1998-4.2-cln.swf.gz")


class SchedGymEnv(gymnasium.Env):
    """RLScheduler's ``HPCEnv`` as a Gymnasium environment (exact mode).

    Args:
        trace: path, SWF text or bytes, or a workload from :func:`load_workload`
            (default: ``../shared/traces/SDSC-SP2-1998-4.2-cln.swf.gz`` beside the repository).
        backfil: backfill while the picked job waits for room (RLScheduler's ``backfil``).
        skip: show a skip slot after the visible jobs (the agent may wait).
        job_score_type: 0 bounded slowdown, 1 wait, 2 turnaround, 3 utilization, 4 slowdown.
        batch_job_slice: draw windows from the first this-many jobs only (0: all).
        window: jobs per episode (``JOB_SEQUENCE_SIZE``; 256, or 1024 for the paper's tables).
        compute_baselines: schedule each window with SJF and F1 at reset (their scores are in
            the terminal info; NaN when off).
        dtype: ``np.float32`` (default) or ``np.float64`` (the original's exact values).
        unrunnable: ``"resample"`` skips drawn windows holding a job the original cannot run
            (KTH-SP2's job 27313 with -1 processors, a job wider than the machine) and draws
            again; ``"error"`` runs them and raises ``schedlab.Error`` where the original fails.

    Seeding: ``reset(seed=s)`` seeds the window sampler as gym 0.21's ``env.seed(s)`` did
    (SHA-512 of the seed into NumPy's legacy MT19937); every reset then draws the next window
    start, as the original does. ``options={"start_index": k}`` takes window ``k`` instead.
    """

    metadata: Dict[str, Any] = {"render_modes": []}

    def __init__(
        self,
        trace: TraceArg = None,
        *,
        backfil: bool = False,
        skip: bool = False,
        job_score_type: int = 0,
        batch_job_slice: int = 0,
        window: int = 256,
        compute_baselines: bool = True,
        dtype: Any = np.float32,
        unrunnable: str = "resample",
    ):
        super().__init__()
        self.workload = load_workload(_default_trace() if trace is None else trace)
        self.dtype = np.dtype(dtype)
        if self.dtype not in (np.dtype(np.float32), np.dtype(np.float64)):
            raise ValueError(f"dtype {self.dtype}: float32 or float64")
        self.window = int(window)
        _check_counts(job_score_type=job_score_type, batch_job_slice=batch_job_slice, window=window)
        try:
            self._core = self._make_core(backfil, skip, job_score_type, batch_job_slice, compute_baselines, unrunnable)
        except _schedlab.Error as e:
            _raise(e)
        self.observation_space = spaces.Box(0.0, 1.0, (OBS_LEN,), dtype=self.dtype)
        self.action_space = spaces.Discrete(MAX_QUEUE_SIZE)
        self._seeded = False

    def _make_core(self, backfil, skip, job_score_type, batch_job_slice, compute_baselines, unrunnable):
        return _schedlab.RlEnv(
            self.workload,
            backfil=bool(backfil),
            skip=bool(skip),
            job_score_type=int(job_score_type),
            batch_job_slice=int(batch_job_slice),
            window=self.window,
            compute_baselines=bool(compute_baselines),
            unrunnable=unrunnable,
            float64=self.dtype == np.float64,
        )

    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None):
        super().reset(seed=seed)
        if seed is not None:
            self._core.seed(int(seed))
            self._seeded = True
        elif not self._seeded:
            self._core.seed(int(self.np_random.integers(0, 2**63)))
            self._seeded = True
        start = None if not options else options.get("start_index")
        try:
            start, obs, mask = self._core.reset(None if start is None else int(start))
        except _schedlab.Error as e:
            _raise(e)
        info = {
            "action_mask": np.frombuffer(mask, dtype=np.bool_),
            "critic_obs": np.frombuffer(self._core.critic_obs(), dtype=np.float64),
            "start_index": start,
        }
        return np.frombuffer(obs, dtype=self.dtype), info

    def step(self, action):
        a = int(action)
        if not 0 <= a < MAX_QUEUE_SIZE:
            # Outside the action space: an agent's bug, not the wait an empty slot is.
            raise ValueError(f"action {a} is outside Discrete({MAX_QUEUE_SIZE})")
        try:
            obs, reward, terminated, mask = self._core.step(a)
        except _schedlab.Error as e:
            _raise(e)
        info: Dict[str, Any] = {"action_mask": np.frombuffer(mask, dtype=np.bool_)}
        if terminated:
            start, steps, sjf, f1, _total, best = self._core.episode()
            info.update(sjf_score=sjf, f1_score=f1, best_minus_rl=best, episode_len=steps, start_index=start)
        return np.frombuffer(obs, dtype=self.dtype), float(reward), bool(terminated), False, info


# The whole-number options and their least values (job_score_type also has a greatest, 4).
_COUNTS = {"job_score_type": 0, "batch_job_slice": 0, "window": 1, "num_envs": 1}


def _check_counts(**given: Any) -> None:
    """Refuses a whole-number option out of its range with a sentence, not an OverflowError."""
    from . import Error

    for key, value in given.items():
        v = int(value)
        if v < _COUNTS[key] or (key == "job_score_type" and v > 4):
            top = " to 4" if key == "job_score_type" else " or more"
            raise Error(f"{key}={value}: must be a whole number, {_COUNTS[key]}{top}")


class SchedGymVectorEnv(VectorEnv):
    """N :class:`SchedGymEnv` stepped at once in Rust (float32 observations).

    Environment i behaves as a ``SchedGymEnv`` with the same options reset with ``seed + i``.
    An environment whose episode ended is reset on the next ``step`` (its action is ignored,
    it returns the new first observation with reward 0): Gymnasium's ``NEXT_STEP`` autoreset.
    ``infos["action_mask"]`` is bool[N, 128]; on the step that ends an episode ``infos``
    holds ``sjf_score``, ``f1_score``, ``best_minus_rl``, ``episode_len`` (and ``_``-prefixed
    masks of the environments they concern). Observations are fresh arrays each call.
    """

    metadata: Dict[str, Any] = {"render_modes": [], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int, trace: TraceArg = None, **kwargs: Any):
        dtype = np.dtype(kwargs.pop("dtype", np.float32))
        if dtype != np.float32:
            raise ValueError("the vector environment gives float32 observations")
        self.workload = load_workload(_default_trace() if trace is None else trace)
        self.num_envs = int(num_envs)
        _check_counts(num_envs=num_envs, **{k: v for k, v in kwargs.items() if k in _COUNTS})
        try:
            self._core = _schedlab.RlVecEnv(self.workload, self.num_envs, **kwargs)
        except _schedlab.Error as e:
            _raise(e)
        self.single_observation_space = spaces.Box(0.0, 1.0, (OBS_LEN,), dtype=np.float32)
        self.single_action_space = spaces.Discrete(MAX_QUEUE_SIZE)
        self.observation_space = spaces.Box(0.0, 1.0, (self.num_envs, OBS_LEN), dtype=np.float32)
        self.action_space = spaces.MultiDiscrete(np.full(self.num_envs, MAX_QUEUE_SIZE))
        self._seeded = False

    def _unpack(self, batch):
        obs, masks, rewards, terms = batch
        n = self.num_envs
        return (
            np.frombuffer(obs, dtype=np.float32).reshape(n, OBS_LEN),
            np.frombuffer(masks, dtype=np.bool_).reshape(n, MAX_QUEUE_SIZE),
            np.frombuffer(rewards, dtype=np.float64),
            np.frombuffer(terms, dtype=np.bool_),
        )

    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None):
        super().reset(seed=seed)
        if seed is None and not self._seeded:
            seed = int(self.np_random.integers(0, 2**62))
        self._seeded = True
        try:
            obs, masks, _, _ = self._unpack(self._core.reset(None if seed is None else int(seed)))
        except _schedlab.Error as e:
            _raise(e)
        return obs, {"action_mask": masks}

    def step(self, actions):
        a = np.ascontiguousarray(np.asarray(actions, dtype=np.int64).reshape(self.num_envs))
        outside = np.flatnonzero((a < 0) | (a >= MAX_QUEUE_SIZE))
        if len(outside):
            raise ValueError(f"action {a[outside[0]]} of environment {outside[0]} is outside Discrete({MAX_QUEUE_SIZE})")
        try:
            obs, masks, rewards, terms = self._unpack(self._core.step(a.tobytes()))
        except _schedlab.Error as e:
            _raise(e)
        infos: Dict[str, Any] = {"action_mask": masks}
        if terms.any():
            figures = np.full((4, self.num_envs), np.nan)
            for i in np.flatnonzero(terms):
                _, steps, sjf, f1, _total, best = self._core.episode(int(i))
                figures[:, i] = (sjf, f1, best, steps)
            for k, name in enumerate(("sjf_score", "f1_score", "best_minus_rl")):
                infos[name] = figures[k]
                infos["_" + name] = terms.copy()
            infos["episode_len"] = np.nan_to_num(figures[3]).astype(np.int64)
            infos["_episode_len"] = terms.copy()
        return obs, rewards, terms, np.zeros(self.num_envs, dtype=np.bool_), infos


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="schedlab.gym:SchedGymEnv")
