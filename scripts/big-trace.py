#!/usr/bin/env python3
"""Writes a large SWF trace for memory and speed measurements: a real log's header once, then
its jobs repeated with submit times shifted by the log's span and job numbers offset, until the
file reaches the size asked for. Usage: big-trace.py SOURCE.swf[.gz] SIZE_MB OUT.swf"""
import gzip
import sys


def main():
    src, size_mb, out = sys.argv[1], float(sys.argv[2]), sys.argv[3]
    opener = gzip.open if src.endswith('.gz') else open
    with opener(src, 'rb') as f:
        lines = f.read().split(b'\n')
    header = [l for l in lines if l.startswith(b';')]
    jobs = [l.split() for l in lines if l.strip() and not l.startswith(b';')]
    span = int(jobs[-1][1]) - int(jobs[0][1]) + 1
    last_id = max(int(j[0]) for j in jobs)
    limit = int(size_mb * 1024 * 1024)
    with open(out, 'wb') as f:
        written = f.write(b'\n'.join(header) + b'\n')
        k = 0
        while written < limit:
            id_off, t_off = k * last_id, k * span
            chunk = b''.join(
                b' '.join([str(int(j[0]) + id_off).encode(), str(int(j[1]) + t_off).encode(), *j[2:]]) + b'\n'
                for j in jobs
            )
            chunk = chunk[: limit - written]
            chunk = chunk[: chunk.rfind(b'\n') + 1]
            if not chunk:
                break
            written += f.write(chunk)
            k += 1
    print(f'{out}: {written} bytes, {k} repetitions of {len(jobs)} jobs')


if __name__ == '__main__':
    main()
