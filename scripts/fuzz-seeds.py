#!/usr/bin/env python3
"""Writes seed inputs for the fuzz targets into fuzz/seeds/<target>/ (not committed: the fuzz
script minimizes them into fuzz/corpus/<target>/, which is).

From each real trace in ../shared/traces: its header with the first 30 job lines, and 10 lines
from the middle; for `simulate`, the first 40 jobs of each trace in the target's byte encoding
(fuzz/checks.rs, sim_trace). Plus hand-made hostile inputs: CRLF line ends, 17 and 19 fields,
binary, a 300-character garbage line, huge and negative numbers, gzip whole and truncated.
Never copies a whole trace.

Usage: scripts/fuzz-seeds.py [OUT_DIR]   (default fuzz/seeds)
"""

import gzip
import pathlib
import struct
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
TRACES = ROOT.parent / "shared" / "traces"
OUT = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "fuzz" / "seeds"

JOB = b"1 0 -1 100 4 -1 -1 4 100 -1 1 1 1 -1 1 -1 -1 -1"
HOSTILE = {
    # Slurm's job-completion log: a name with spaces, a job cancelled before it started, junk.
    "slurm-jobcomp": b"JobId=1.srv UserId=alice(500) GroupId=g(10) Name=echo $A; b JobState=COMPLETED Partition=main TimeLimit=1-00:00:00 StartTime=2024-01-01T00:00:10 EndTime=2024-01-01T00:10:00 SubmitTime=2024-01-01T00:00:00 ProcCnt=4\n"
    b"JobId=2.srv UserId=bob JobState=CANCELLED Partition=gpu TimeLimit=UNLIMITED StartTime=Unknown EndTime=Unknown SubmitTime=2024-01-01T00:01:00 ProcCnt=8\n"
    b"JobId=3.srv StartTime=soon EndTime= ProcCnt=x\n",
    # Grid Engine accounting: a Univa header, a run with h_rt, a failed record, a short line.
    "sge-records": b"# Version: 8.2.0\n#\n"
    b"all.q:n1:g:alice:job:7:sge:0:1700000000:1700000010:1700000070:0:0:60:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:NONE:dept:NONE:4:0:1:2:3:-q all.q -l h_rt=00:10:00:0:NONE:100\n"
    b"all.q:n2:g:bob:job:8:sge:0:0:0:0:1:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:NONE:dept:NONE:1:0:0:0:0::0:NONE:0\n"
    b"short:line:9\n",
    # PBS accounting records: queued, an end, one deleted before it ran, exec_host cores, a bad ctime.
    "pbs-records": b"03/31/2025 10:59:35;Q;1.srv;queue=htc\n"
    b"03/31/2025 10:59:35;E;1.srv;user=a group=g queue=htc ctime=100 start=110 end=170 Resource_List.ncpus=2 Resource_List.walltime=00:10:00 Exit_status=0\n"
    b"03/31/2025 10:59:36;E;2.srv;user=b queue=q ctime=105 start=0 end=106 Resource_List.walltime=01:00:00\n"
    b"03/31/2025 10:59:37;E;3.srv;user=b queue=q ctime=106 start=120 end=200 exec_host=n1/0-3+n2/0*2 Resource_List.walltime=99\n"
    b"03/31/2025 10:59:38;E;4.srv;ctime=x start=1 end=2\n",
    # LSF lsb.acct: a 10.108 record (with its lists), a 9.13 job killed while pending, a cut
    # record, a stray byte before the version, a record of another kind.
    "lsf-records": b'"JOB_FINISH" "10.108" 1643910039 102 1501 33570818 2 1643910038 0 0 1643910038 "u" "q" "" "" "" "h" "/" "" "" "" "f" 0 2 "a" "b" 64 100.0 "" "c ""x""" 0 0 0 0 -1 0 0 0 0 0 0 0 -1 0 0 0 0 0 -1 "" "p" 0 2 "" "" 0 0 0 "" "" "" "" 0 "" 0 "" -1 "" "" "" "" -1 "" "" 7184 "" 1643910038 "" "" 1 1058 "1" 0 600 0 0 "" "" -1 "" -1 0 "" 0 0 "" 0 "/" 0 "" 0.0 0.0 0.0 0.0 0.0 2 "a" "b" -1 0 0 0 0 1 "k" "v"\n'
    b'"JOB_FINISH" "9.13" 1554995290 5 3 0 4 1554995282 0 0 0 "u" "q" "" "" "" "h" "/" "" "" "" "f" 0 0 32 1.0\n'
    b'"JOB_FINISH" "10.108" 1643910039 103 1501 33570818 1 1643910038 0 0 1643910038 "u" "q"\n'
    b'"JOB_FINISH" \xc2\xa1 "7.06" 1\n'
    b'"JOB_NEW" "10.108" 1643910039 104\n',
    # Slurm sacct output: -P with a header, --parsable's trailing '|', the fixed-width layout
    # with a cut value, and -P printed without its header.
    "sacct-parsable2": b"JobID|JobIDRaw|User|State|Timelimit|Submit|Start|End|Partition|AllocCPUS|ReqCPUS\n"
    b"10|10|alice|COMPLETED|01:00:00|2024-01-01T00:00:00|2024-01-01T00:00:05|2024-01-01T00:30:00|cpu|4|4\n"
    b"10.batch|10.batch||COMPLETED||2024-01-01T00:00:05|2024-01-01T00:00:05|2024-01-01T00:30:00||4|4\n"
    b"11_3|11_3|bob|CANCELLED by 0|1-00:00:00|2024-01-01T00:01:00|Unknown|Unknown|gpu|8|8\n",
    "sacct-parsable-trailing": b"JobID|Submit|Start|End|NCPUS|State|\n"
    b"1|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:10:00|2|COMPLETED|\n"
    b"2|2024-01-01T00:00:01|bad-time|2024-01-01T00:10:00|2|COMPLETED|\n",
    "sacct-fixed-width": b"       JobID      State              Submit               Start                 End  AllocCPUS \n"
    b"------------ ---------- ------------------- ------------------- ------------------- ---------- \n"
    b"7             COMPLETED 2024-01-01T00:00:00 2024-01-01T00:00:10 2024-01-01T01:00:10          4 \n",
    "sacct-headless": b"COMPLETED|123|4|0n|1||2022-06-10T06:19:15|2022-06-10T06:19:15|2022-06-10T06:19:15\n",
    "crlf": b"; MaxProcs: 8\r\n" + JOB + b"\r\n" + JOB.replace(b"1 0", b"2 5", 1) + b"\r\n",
    "fields17": b"; MaxProcs: 8\n" + b" ".join(JOB.split()[:17]) + b"\n",
    "fields19": b"; MaxProcs: 8\n" + JOB + b" 7\n",
    "binary": bytes(range(256)),
    "garbage_line": b"; MaxProcs: 8\n" + b"x" * 300 + b"\n" + JOB + b"\n",
    "huge": b"; MaxProcs: 99999999999999999999\n"
    + b"1 9223372036854775807 -1 9223372036854775807 4294967296 -1 -1 4294967296 1e30 -1 1 1 1 -1 1 -1 -1 -1\n",
    "negative": b"; MaxProcs: 8\n1 -100 -1 -5 -4 -1 -1 -4 -100 -1 1 -1 -1 -1 -1 -1 -1 -1\n" + JOB + b"\n",
    "no_estimates": b"; MaxProcs: 8\n1 0 -1 100 4 -1 -1 4 -1 -1 1 1 1 -1 1 -1 -1 -1\n",
    "unsorted_partial": b"; MaxProcs: 8\n2 50 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n"
    + b"1 0 -1 10 9 -1 -1 9 10 -1 3 1 1 -1 1 -1 -1 -1\n"
    + b"3 0 -1 10 2 -1 -1 -1 10 -1 1 1 1 -1 1 -1 -1 -1\n",
    "header_only": b"; MaxProcs: 8\n; Note: nothing else\n\n",
    "gzip": gzip.compress(b"; MaxProcs: 8\n" + JOB + b"\n", mtime=0),
    "gzip_truncated": gzip.compress(b"; MaxProcs: 8\n" + (JOB + b"\n") * 50, mtime=0)[:40],
}


def sim_encode(jobs, machine):
    """The `simulate` target's encoding of (gap, runtime, procs, estimate, user, queue) rows."""
    out = bytearray([(machine - 1) % 64, 0])
    for gap, run, procs, est, user, queue in jobs:
        g = 0 if gap <= 0 else min(255, 63 + max(1, gap // 37))
        r = run - 1
        enc = r if r < 0x8000 else 0x8000 | min(0x7FFF, r // 8)
        e = 0 if est == run else max(1, min(255, (est * 64) // max(run, 1)))
        out += bytes([g]) + struct.pack("<H", enc) + bytes([(procs - 1) % 256, e, (user & 7) | ((queue & 3) << 6)])
    return bytes(out)


def main():
    for target in ("swf_parse", "swf_chunks", "simulate"):
        (OUT / target).mkdir(parents=True, exist_ok=True)
    for path in sorted(TRACES.glob("*.swf.gz")):
        name = path.name.removesuffix(".swf.gz")
        with gzip.open(path, "rb") as f:
            lines = f.read().split(b"\n")
        header = [l for l in lines[:200] if l.startswith(b";")]
        jobs = [l for l in lines if l.strip() and not l.startswith(b";")]
        head = b"\n".join(header + jobs[:30]) + b"\n"
        mid = len(jobs) // 2
        middle = b"\n".join(header[-3:] + jobs[mid : mid + 10]) + b"\n"
        for target in ("swf_parse", "swf_chunks"):
            (OUT / target / f"{name}-head").write_bytes(head)
            (OUT / target / f"{name}-middle").write_bytes(middle)
        (OUT / "swf_chunks" / f"{name}-head.gz").write_bytes(gzip.compress(head, mtime=0))
        machine = next((int(l.split(b":")[1].split()[0]) for l in header if l.startswith(b"; MaxProcs:")), 64)
        rows, prev = [], None
        for l in jobs[:40]:
            f = [int(float(x)) for x in l.split()]
            submit, run, procs, est = f[1], max(f[3], 1), f[7] if f[7] > 0 else max(f[4], 1), f[8]
            rows.append((0 if prev is None else submit - prev, run, procs, est if est > 0 else run, f[11], f[14]))
            prev = submit
        (OUT / "simulate" / name).write_bytes(sim_encode(rows, min(machine, 64)))
    for name, data in HOSTILE.items():
        for target in ("swf_parse", "swf_chunks"):
            (OUT / target / name).write_bytes(data)
    # A few hand-made schedules for `simulate`: a full-machine queue, a burst, mixed widths.
    (OUT / "simulate" / "burst").write_bytes(sim_encode([(0, 100, 4, 100, 1, 0)] * 12, 8))
    (OUT / "simulate" / "wide_long").write_bytes(
        sim_encode([(0, 300000, 8, 400000, 1, 0), (100, 50, 8, 60, 2, 1), (10, 40000, 3, 80000, 3, 2)], 8)
    )


if __name__ == "__main__":
    main()
