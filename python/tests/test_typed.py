"""The public API as a typed program uses it: every call here is checked by mypy --strict in
the test command (scripts/test.sh), and run by pytest, so the annotations the package ships
(py.typed, _schedlab.pyi) say what the calls do."""

from __future__ import annotations

import datetime
import pathlib
from typing import Any, Dict, List, Optional, Union

import pytest

import schedlab

ROOT = pathlib.Path(__file__).resolve().parents[2]
KTH = ROOT.parent / "shared" / "traces" / "KTH-SP2-1996-2.1-cln.swf.gz"

pytestmark = pytest.mark.filterwarnings("ignore::schedlab.TraceWarning")


def mean_wait(trace: schedlab.Trace, policy: str, **options: Any) -> float:
    r: schedlab.Result = schedlab.simulate(trace, policy, **options)
    wait: float = r.metrics["avg_wait_s"]
    return wait


def test_the_typed_api_does_what_its_types_say(tmp_path: pathlib.Path) -> None:
    t: schedlab.Trace = schedlab.load(KTH)
    n: int = len(t)
    machine: int = t.machine
    zone: datetime.tzinfo = t.header["zone"]
    assert n == 28467 and machine == 100 and zone is not None
    warnings: List[str] = t.warnings
    assert warnings

    r = schedlab.simulate(KTH, "easy", window=1)
    stopped: Optional[str] = r.stopped
    digest: str = r.schedule_hash
    assert stopped is None and len(digest) == 16
    assert mean_wait(t, "easy") == r.metrics["avg_wait_s"]

    chart: schedlab.Chart = r.plot("busy", tmp_path / "busy.svg")
    hash_: Optional[str] = chart.hash
    svg: str = chart.svg
    png: bytes = chart.png()
    assert hash_ and svg.startswith("<svg") and png[:4] == b"\x89PNG"
    both: schedlab.Chart = schedlab.plot([r, schedlab.simulate(t, "fcfs")], "queue")
    assert both.hash != r.plot("queue").hash

    text: Union[str, Dict[str, Any]] = r.explain(int(t.jobs["id"][0]))
    assert isinstance(text, str) and text.startswith("Job ")

    df = schedlab.compare([t], ["easy", "fcfs"])
    assert set(df["policy"]) == {"easy", "fcfs"}

    p: Dict[str, Any] = schedlab.policies()
    assert any(o["kind"] == "integer" for q in p["policies"] for o in q["options"])
    version: str = schedlab.__version__
    assert version

    try:
        schedlab.load(tmp_path / "missing.swf")
    except FileNotFoundError as e:
        assert isinstance(e, schedlab.NotFoundError) and isinstance(e, schedlab.Error)
    else:
        raise AssertionError("a missing file was read")
