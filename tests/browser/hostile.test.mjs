// Every class of hostile or broken input of docs/ROBUSTNESS.md, dropped on the page: the page
// shows the line-numbered message the command line prints, and keeps the good lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { useBrowser, open, shared, root } from './harness.mjs';

let base;
let browser;
useBrowser((s) => ({ base, browser } = s));

const HEADER = '; Version: 2.2\n; MaxProcs: 8\n';
const good = (id, submit) => `${id} ${submit} -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 1 -1 -1\n`;
const job = (fields) => `${fields}\n`;

/** The jobs of a real log, gzipped, for the gzip cases. */
function realGzip() {
  const text = zlib.gunzipSync(fs.readFileSync(path.join(shared, 'traces', 'KTH-SP2-1996-2.1-cln.swf.gz')));
  return zlib.gzipSync(text);
}

/** The command line's verdict on the same bytes: `schedlab info`'s output, or its error. */
function cli(bytes) {
  const file = path.join(os.tmpdir(), `schedlab-hostile-${process.pid}.swf`);
  fs.writeFileSync(file, bytes);
  try {
    return { ok: true, text: execFileSync(path.join(root, 'target', 'release', 'schedlab'), ['info', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) };
  } catch (e) {
    return { ok: false, text: String(e.stderr) };
  } finally {
    fs.rmSync(file, { force: true });
  }
}

const gz = realGzip();
const badGzip = Buffer.concat([gz.subarray(0, 10), Buffer.alloc(200, 0xff)]);
const binary = Buffer.from(Array.from({ length: 20000 }, (_, i) => (Math.imul(i, 2654435761) >>> 11) & 0xff));
const garbage = Array.from({ length: 300 }, (_, i) => String.fromCharCode(33 + ((i * 37) % 90))).join('');

// [name, bytes, usable, what the page must show (all of them)]
const CASES = [
  ['empty.swf', Buffer.alloc(0), false, [/the file is empty/]],
  ['header-only.swf', Buffer.from(HEADER), false, [/no job lines: the 2 lines read are header or blank lines/]],
  ['binary.swf', binary, false, [/binary data, not SWF text \(control bytes from line 1\)/]],
  ['trace.zip', Buffer.from('PK\x03\x04\x14\x00\x08\x00rest of a zip', 'latin1'), false, [/zip archive.*unpack it first/]],
  ['truncated.swf.gz', gz.subarray(0, gz.length >> 1), true, [/gzip data is corrupt or truncated .*kept the \d+ complete lines decoded before the fault/]],
  ['corrupt.swf.gz', badGzip, false, [/gzip data is corrupt or truncated .*nothing could be decoded/]],
  ['crlf.swf', Buffer.from(`${HEADER}${good(1, 0)}${good(2, 5)}${good(3, 9)}`.replaceAll('\n', '\r\n')), true, [/jobs kept\s*3/]],
  ['mixed.swf', Buffer.from(`${HEADER}${good(1, 0)}`.replaceAll('\n', '\r\n') + good(2, 5).replace('\n', '\r') + good(3, 9)), true, [/jobs kept\s*3/]],
  [
    'fields.swf',
    Buffer.from(`${HEADER}${good(1, 0)}1 0 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 1 -1\n${good(2, 5)}1 0 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 1 -1 -1 7\n${good(3, 9)}`),
    true,
    [/line 4: expected 18 fields, found 17/, /line 6: expected 18 fields, found 19/, /jobs kept\s*3/],
  ],
  [
    'numbers.swf',
    Buffer.from(`${HEADER}${good(1, 0)}${job('2 5 -1 ten 2 -1 -1 2 20 -1 1 1 1 -1 1 1 -1 -1')}${job('3 99999999999999999999 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 1 -1 -1')}${good(4, 12)}`),
    true,
    [/line 4, field run_time: not a number: "ten"/, /line 5, field submit_time: number out of range: 99999999999999999999/],
  ],
  [
    'negative.swf',
    Buffer.from(`${HEADER}${good(1, 0)}${job('2 -50 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 1 -1 -1')}${job('3 6 -1 -10 2 -1 -1 2 20 -1 1 1 1 -1 1 1 -1 -1')}${good(5, 12)}`),
    true,
    [/without a submit time \(first at line 4/, /with no runtime \(0 s or missing\) \(first at line 5/],
  ],
  ['order.swf', Buffer.from(`${HEADER}${good(1, 0)}${good(2, 50)}${good(3, 20)}${good(4, 60)}`), true, [/sorted\D*line 5/]],
  ['wide.swf', Buffer.from(`${HEADER}${good(1, 0)}${job('2 5 -1 10 16 -1 -1 16 20 -1 1 1 1 -1 1 1 -1 -1')}${good(3, 9)}`), true, [/wider than the machine \(first at line 4/]],
  [
    'maxprocs-0.swf',
    Buffer.from(`; MaxProcs: 0\n${good(1, 0)}${job('2 5 -1 10 6 -1 -1 6 20 -1 1 1 1 -1 1 1 -1 -1')}`),
    true,
    [/MaxProcs is 0 \(line 1\), not a machine size: the widest job \(6 processors, line 3\) sizes the machine/],
  ],
  ['no-maxprocs.swf', Buffer.from(`; Version: 2.2\n${good(1, 0)}`), true, [/the header has no MaxProcs: the widest job \(2 processors, line 2\)/]],
  [
    'all-dropped.swf',
    Buffer.from(`${HEADER}${job('1 0 -1 0 2 -1 -1 2 20 -1 1 1 1 -1 1 1 -1 -1')}${job('2 5 -1 10 0 -1 -1 0 20 -1 1 1 1 -1 1 1 -1 -1')}`),
    false,
    [/no usable jobs: all 2 job lines were dropped \(1 procs_not_positive from line 4, 1 runtime_not_positive from line 3\)/],
  ],
  ['garbage.swf', Buffer.from(`${HEADER}${good(1, 0)}${garbage}\n${good(2, 5)}${good(3, 9)}`), true, [/line 4: expected 18 fields, found 1/, /jobs kept\s*3/]],
];

test('every class of broken input shows its line-numbered message, as the command line does', async () => {
  const page = await open(browser, `${base}/?policies=easy`);
  await page.waitForFunction(() => document.querySelector('#status.done'), null, { timeout: 120_000 });
  for (const [name, bytes, usable, shows] of CASES) {
    const verdict = cli(bytes);
    assert.equal(verdict.ok, usable, `${name}: the command line ${verdict.ok ? 'accepted' : 'refused'} it: ${verdict.text}`);
    await page.setInputFiles('#file', { name, mimeType: 'application/octet-stream', buffer: bytes });
    if (usable) {
      // Read, reported, and simulated.
      await page.waitForFunction((name) => document.querySelector('#status.done') && document.querySelector('#status').textContent.includes('Ran') && document.querySelector('#trace-report').textContent.includes(name), name, { timeout: 60_000 });
      assert.equal(await page.locator('#results tbody tr').count(), 1, name);
    } else {
      await page.waitForFunction((name) => document.querySelector('#status.error')?.textContent.includes(name), name, { timeout: 60_000 });
      assert.equal(await page.locator('#results tbody tr').count(), 0, `${name}: results of an unusable trace`);
    }
    const seen = `${await page.textContent('#status')}\n${await page.textContent('#trace-report')}`;
    for (const re of shows) {
      assert.match(seen, re, `${name}: the page`);
      // The command line says the same (its `field` is printed with a colon, the page's with a comma).
      assert.match(verdict.text.replaceAll(': field ', ', field ').replaceAll('_', ' '), new RegExp(re.source.replaceAll('_', ' ')), `${name}: the command line`);
    }
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});
