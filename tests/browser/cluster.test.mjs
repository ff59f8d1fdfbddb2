// A cluster in the page: a sacct log and its slurm.conf dropped together, Slurm's scheduler run
// on the cluster's nodes, GPUs and memory with two bf_window values side by side, and the GPU
// and memory strips of the Timeline, each checked against the command line.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, launch, open, dist, shots, root, waitForResults, tableValues, showView } from './harness.mjs';

const cli = path.join(root, 'target', 'release', 'schedlab');
let server;
let base;
let browser;
let dir;

before(async () => {
  ({ server, base } = await serve(dist, ''));
  browser = await launch();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-cluster-'));
  // A GPU cluster's log: 8 nodes of 32 CPUs, 2 of them with 4 GPUs each.
  execFileSync(cli, ['generate', '--model', 'cluster', '--machine', '256', '--jobs', '600', '--load', '0.9', '--estimate', 'tef', '-o', path.join(dir, 'cluster.txt')], { stdio: 'ignore' });
});

after(async () => {
  await browser?.close();
  server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** The command line's JSON of `args` run on the log with its slurm.conf. */
const cliRun = (...args) => JSON.parse(execFileSync(cli, ['run', path.join(dir, 'cluster.txt'), '--cluster', path.join(dir, 'cluster.txt.slurm.conf'), '--format', 'json', ...args], { encoding: 'utf8' }));

test('a sacct log dropped with its slurm.conf runs Slurm on the nodes, two bf_window values side by side, and draws the GPU strip', async () => {
  const page = await open(browser, `${base}/?view=trace&policies=easy-cluster,slurm`);
  await waitForResults(page, 2);
  // Both files dropped on the window at once, as a user would.
  const files = ['cluster.txt', 'cluster.txt.slurm.conf'].map((f) => [f, [...fs.readFileSync(path.join(dir, f))]]);
  await page.evaluate((files) => {
    const dt = new DataTransfer();
    for (const [name, bytes] of files) dt.items.add(new File([new Uint8Array(bytes)], name, { type: 'text/plain' }));
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, files);
  await page.waitForFunction(() => document.querySelector('#trace-report')?.textContent.includes('8 nodes: 256 CPUs, 8 GPUs'), null, { timeout: 60_000 });
  const report = await page.textContent('#trace-report');
  assert.ok(report.includes('partition gpu: 2 nodes'), report);
  assert.ok(report.includes('SchedulerParameters=bf_window=2880'), report);
  await page.locator('#trace-report').screenshot({ path: path.join(shots, 'cluster-trace-report.png') });
  await page.waitForFunction(() => document.querySelector('#trace-name')?.textContent.includes('cluster.txt'));
  await waitForResults(page, 2);
  // The page's schedules are the command line's on the same cluster.
  const web = await tableValues(page);
  const want = cliRun('--policy', 'easy-cluster,slurm');
  for (const r of want.results) assert.equal(web[r.policy].hash, r.schedule_hash, r.policy);
  assert.notEqual(web.slurm.hash, web['easy-cluster'].hash);

  // Two bf_window values side by side: the sweep study with Slurm as its base.
  await showView(page, 'studies', 'tsafrir');
  await page.selectOption('#sweep-base', 'slurm');
  await page.fill('#sweep-axes', 'bf_window=60,2880');
  assert.match(await page.textContent('#sweep-count'), /^2 configurations/);
  await page.click('#sweep-run');
  await page.waitForFunction(() => document.body.dataset.sweep === 'done', null, { timeout: 120_000 });
  const rows = await page.evaluate(() =>
    [...document.querySelectorAll('#sweep-table tbody tr')].map((tr) => Object.fromEntries([...tr.querySelectorAll('td[data-key]')].map((td) => [td.dataset.key, td.dataset.value]))),
  );
  assert.equal(rows.length, 2);
  // Each configuration's mean wait is the command line's run of slurm with that bf_window.
  const waits = Object.fromEntries(['60', '2880'].map((w) => [w, cliRun('--policy', 'slurm', '--set', `bf_window=${w}`).results[0].metrics.avg_wait_s]));
  assert.deepEqual(rows.map((r) => Number(r.avg_wait_s)).sort((a, b) => a - b), Object.values(waits).sort((a, b) => a - b));
  assert.notEqual(waits['60'], waits['2880'], 'bf_window changes the schedule');
  await page.locator('#sweep-section').screenshot({ path: path.join(shots, 'cluster-bf-window-sweep.png') });

  // The Timeline: busy cores, then GPUs and memory in use, drawn from the same runs.
  await showView(page, 'timeline');
  for (const id of ['#chart-busy', '#chart-gpus', '#chart-memory']) {
    await page.waitForFunction((id) => document.querySelector(id)?.dataset.hash, id, { timeout: 30_000 });
  }
  const gpus = await page.evaluate(() => {
    const t = document.querySelector('#chart-gpus').figure.table();
    return { title: t.title, columns: t.columns, rows: t.rows };
  });
  assert.match(gpus.title, /GPUs in use over time/);
  const peak = Math.max(...gpus.rows.flatMap((r) => r.slice(1).map((v) => Number(String(v).replace(/,/g, '')) || 0)));
  assert.ok(peak > 0 && peak <= 8, `GPUs in use peak at ${peak} of the cluster's 8`);
  await page.locator('#view-timeline').screenshot({ path: path.join(shots, 'cluster-timeline-gpus.png') });
  // On a phone the strips stack under the Gantt chart, each still drawn.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForFunction(() => document.querySelector('#chart-gpus')?.dataset.hash && document.querySelector('#chart-gpus').clientWidth < 400);
  await page.locator('#chart-gpus').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'cluster-timeline-gpus-phone.png') });
  assert.deepEqual(page.errors, []);
  await page.close();
});
