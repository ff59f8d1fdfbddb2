"""Times as a researcher plots them: the trace's header (start, zone, queue names), the
schedule's seconds beside dates in the trace's zone, unstarted jobs missing, flags as bools."""

import datetime
import pathlib
import zoneinfo

import pandas as pd
import pytest

import schedlab

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
KTH = SHARED / "traces" / "KTH-SP2-1996-2.1-cln.swf.gz"
SACCT = SHARED / "accounting-logs" / "slurm2sql__test-data1.csv"
pytestmark = pytest.mark.filterwarnings("ignore::schedlab.TraceWarning")

# 2024-03-31 00:00 UTC is 01:00 in Paris; at 01:00 UTC the clocks there go from 02:00 to 03:00.
PARIS = (
    "; UnixStartTime: 1711843200\n; TimeZoneString: Europe/Paris\n; MaxProcs: 4\n; MaxQueues: 2\n"
    "; Queue: 1 batch\n; Queue: 2 debug\n"
    "1 0 -1 3600 4 -1 -1 4 3600 -1 1 1 1 -1 1 -1 -1 -1\n"
    "2 60 -1 1800 2 -1 -1 2 1800 -1 1 1 1 -1 2 -1 -1 -1\n"
    "3 120 -1 600 2 -1 -1 2 600 -1 1 1 1 -1 1 -1 -1 -1\n"
)


def test_the_header_says_when_where_and_which_queues():
    t = schedlab.load(PARIS.encode())
    h = t.header
    assert h["unix_start_time"] == 1711843200
    assert h["zone"] == zoneinfo.ZoneInfo("Europe/Paris")
    assert h["start"] == pd.Timestamp("2024-03-31 01:00", tz="Europe/Paris")
    assert h["queues"] == {1: "batch", 2: "debug"}
    k = schedlab.load(KTH).header
    assert k["zone"] == zoneinfo.ZoneInfo("Europe/Stockholm")
    assert k["start"] == pd.Timestamp("1996-09-23 14:00:31", tz="Europe/Stockholm")
    # An accounting log's seconds are Unix times; its partitions are its queues, by name.
    s = schedlab.load(SACCT).header
    assert str(s["zone"]) == "UTC" and s["start"] == pd.Timestamp(0, unit="s", tz="UTC")
    assert s["queues"] == {1: "jupyter-long", 2: "interactive"}


def test_dates_in_the_traces_zone_across_a_summer_time_change():
    r = schedlab.simulate(schedlab.load(PARIS.encode()), "fcfs")
    s = r.schedule
    # Job 1 runs the hour in which the clocks go forward: it ends at 03:00, summer time.
    one = s.iloc[0]
    assert one["submit_time"] == pd.Timestamp("2024-03-31 01:00", tz="Europe/Paris")
    assert one["end_time"] == pd.Timestamp("2024-03-31 03:00", tz="Europe/Paris")
    assert one["end_time"].utcoffset() == datetime.timedelta(hours=2)
    assert one["submit_time"].utcoffset() == datetime.timedelta(hours=1)
    assert (one["end_time"] - one["submit_time"]) == pd.Timedelta(hours=1)
    # The seconds stay, as the command line counts them.
    assert list(s["start"]) == [0, 3600, 3600] and list(s["end"]) == [3600, 5400, 4200]
    assert str(s["start_time"].dt.tz) == "Europe/Paris"


def test_unstarted_jobs_are_missing_and_flags_are_bools():
    t = schedlab.load(KTH)
    # A budget of a millisecond stops the run after its first passes: later jobs never start.
    r = schedlab.simulate(t, "easy", budget_s=0.000001)
    assert r.stopped
    s = r.schedule
    assert s["start"].dtype == "Int64" and s["end"].dtype == "Int64"
    never = s["start"].isna()
    assert never.any() and not never.all()
    assert s.loc[never, "end"].isna().all() and s.loc[never, "start_time"].isna().all()
    done = schedlab.simulate(t, "easy").schedule
    assert not done["start"].isna().any()
    assert done["backfilled"].dtype == bool and done["backfilled"].any() and not done["backfilled"].all()
    # The metrics average over the jobs that ran, as the mean of the column does.
    assert (done["start"] - done["submit"]).mean() == pytest.approx(schedlab.simulate(t, "easy").metrics["avg_wait_s"])


def test_the_schedule_is_one_table_not_one_per_look():
    r = schedlab.simulate(schedlab.load(PARIS.encode()), "fcfs")
    assert r.schedule is r.schedule
