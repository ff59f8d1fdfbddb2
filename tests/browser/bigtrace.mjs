// A large trace for the browser tests and the memory figures, made on the fly (never committed):
// a real log's header once, then its job lines again and again, each copy's submit times shifted
// by the log's span and its job numbers by its largest job number.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { shared } from './harness.mjs';

export const HPC2N = path.join(shared, 'traces', 'HPC2N-2002-2.2-cln.swf.gz');

/**
 * Writes `file` from `source` (an .swf.gz log) until it holds at least `target` bytes, ending
 * after a whole copy's line. Resolves to {bytes, copies, jobLines, headerLines}.
 */
export async function writeBigTrace(file, target = 2 ** 30, source = HPC2N) {
  const lines = zlib.gunzipSync(fs.readFileSync(source)).toString('latin1').split('\n');
  const header = lines.filter((l) => l.startsWith(';'));
  const jobs = lines.filter((l) => l.trim() !== '' && !l.startsWith(';')).map((l) => l.trim().split(/\s+/));
  const max = (xs) => xs.reduce((a, b) => Math.max(a, b), -Infinity);
  const submits = jobs.map((f) => Number(f[1]));
  const span = max(submits) + max(submits.map((s) => -s)) + 1; // last submit - first submit + 1
  const maxId = max(jobs.map((f) => Number(f[0])));
  const out = fs.createWriteStream(file);
  const head = header.join('\n') + '\n';
  out.write(head);
  let bytes = Buffer.byteLength(head, 'latin1');
  let copies = 0;
  while (bytes < target) {
    const id = copies * maxId;
    const dt = copies * span;
    const text =
      jobs
        .map((f) => {
          const g = f.slice();
          g[0] = String(Number(f[0]) + id);
          g[1] = String(Number(f[1]) + dt);
          if (Number(f[16]) > 0) g[16] = String(Number(f[16]) + id); // the preceding job's number
          return g.join(' ');
        })
        .join('\n') + '\n';
    const buf = Buffer.from(text, 'latin1');
    bytes += buf.length;
    copies++;
    if (!out.write(buf)) await once(out, 'drain');
  }
  out.end();
  await finished(out);
  return { bytes, copies, jobLines: copies * jobs.length, headerLines: header.length };
}

/** Writes the first `n` lines of `file` to `out` (a prefix of the big trace, for the command-line tool). */
export async function writePrefix(file, out, n) {
  const input = fs.createReadStream(file, { highWaterMark: 1 << 22 });
  const output = fs.createWriteStream(out);
  let left = n;
  for await (const chunk of input) {
    let end = 0;
    while (left > 0 && end < chunk.length) {
      const i = chunk.indexOf(10, end);
      if (i < 0) {
        end = chunk.length;
        break;
      }
      end = i + 1;
      left--;
    }
    if (!output.write(chunk.subarray(0, end))) await once(output, 'drain');
    if (left === 0) break;
  }
  input.destroy();
  output.end();
  await finished(output);
}
