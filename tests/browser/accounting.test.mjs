// Accounting logs in the page: Slurm sacct output read like an SWF file, with the same trace
// report and the same results as the command line.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, launch, open, dist, shared, shots, root, waitForResults, tableValues, foreignRequests } from './harness.mjs';

let server;
let base;
let browser;

before(async () => {
  ({ server, base } = await serve(dist, ''));
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.close();
});

/** Drops the file at `log` on the page, as a user would, and checks the report and results. */
async function dropAndCompare(name, expect, gzipped = false) {
  const log = path.join(shared, 'accounting-logs', name);
  const page = await open(browser, `${base}/?view=trace&policies=easy,fcfs`);
  await waitForResults(page, 2);
  // Dropped on the window, as a user would.
  const raw = (await import('node:fs')).readFileSync(log);
  const bytes = [...(gzipped ? (await import('node:zlib')).gzipSync(raw) : raw)];
  await page.evaluate((bytes) => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(bytes)], 'accounting.log', { type: 'text/plain' }));
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, bytes);
  await page.waitForFunction((e) => document.querySelector('#trace-report')?.textContent.includes(e), expect, { timeout: 60_000 });
  await waitForResults(page, 2);
  const report = await page.textContent('#trace-report');
  const info = JSON.parse(execFileSync(path.join(root, 'target', 'release', 'schedlab'), ['info', log, '--format', 'json'], { encoding: 'utf8' }));
  // The command line infers a sacct log's cluster from the file's NodeList; the page takes a
  // cluster from a slurm.conf dropped beside the log (cluster.test.mjs).
  for (const w of info.report.warnings.filter((w) => !w.startsWith('the cluster is inferred'))) assert.ok(report.includes(w), `the page's report lacks: ${w}`);
  // The mapping of the log's fields, as the command line's `info` gives it.
  assert.ok(report.includes(`Read as ${info.report.format}`), info.report.format);
  assert.ok(info.report.mapping.length >= 8);
  for (const [from, to] of info.report.mapping) assert.ok(report.includes(from) && report.includes(to), `${from} -> ${to}`);
  assert.ok(report.includes(expect), expect);
  const web = await tableValues(page);
  const cli = JSON.parse(
    execFileSync(path.join(root, 'target', 'release', 'schedlab'), ['run', log, '--policy', 'easy,fcfs', '--format', 'json', '--set', 'observe=all'], {
      encoding: 'utf8',
    }),
  );
  for (const r of cli.results) {
    assert.equal(web[r.policy].hash, r.schedule_hash, r.policy);
    for (const [k, v] of Object.entries(web[r.policy].metrics)) assert.equal(v, r.metrics[k], `${r.policy} ${k}`);
  }
  // The page exports the converted SWF: the same text `schedlab convert` writes.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-swf')]);
  const exported = (await import('node:fs')).readFileSync(await download.path(), 'utf8');
  const converted = execFileSync(path.join(root, 'target', 'release', 'schedlab'), ['convert', log, '--to', 'swf'], { encoding: 'utf8' });
  assert.equal(exported, converted);
  await page.screenshot({ path: path.join(shots, `accounting-${name}${gzipped ? '.gz' : ''}.png`), fullPage: true });
  assert.deepEqual(foreignRequests(page), []);
  assert.deepEqual(page.errors, []);
  await page.close();
}

test('a sacct file dropped on the page gives the CLI report and results', async () => {
  await dropAndCompare('slurm2sql__test-data1.csv', '3 job step folded (first at line 3)');
});

test('a gzipped sacct file is read as the file itself: the start engine hands it to the whole one', async () => {
  await dropAndCompare('slurm2sql__test-data1.csv', '3 job step folded (first at line 3)', true);
});

test('a PBS accounting log dropped on the page gives the CLI report and results', async () => {
  await dropAndCompare('ncar-qhist__testdata', '14 not an end record (first at line 1)');
});

test('an LSF lsb.acct file dropped on the page gives the CLI report and results', async () => {
  await dropAndCompare('hpccs__lsb.acct.16', '13 with no runtime (0 s or missing) (first at line 1)');
});

test('header-less sacct output in a documented column order gives the CLI report and results', async () => {
  await dropAndCompare('hpccs__array__sacct-output.txt', '8 job step folded (first at line 6)');
});
