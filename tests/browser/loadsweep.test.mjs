// The Load view in headless Chromium: a link generates its workload, runs the default policies,
// sweeps them over loads and seeds and draws the classic figure with the numbers the command
// line's `schedlab loadsweep` prints; results show as they finish and Cancel stops the rest; a
// log is swept with its arrivals scaled as the command line scales it; the figure embeds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { useBrowser, open, waitForResults, DEFAULTS, root, shots } from './harness.mjs';

let base;
let browser;
useBrowser((s) => ({ base, browser } = s));

const CLI = path.join(root, 'target', 'release', 'schedlab');

/** `schedlab loadsweep TRACE --policy P --loads L [--seeds N] --format json`. */
function cliSweep(trace, policies, loads, seeds = 1) {
  const args = ['loadsweep', trace, '--policy', policies.join(','), '--loads', loads, '--seeds', String(seeds), '--format', 'json'];
  return JSON.parse(execFileSync(CLI, args, { stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 26 }));
}

/** Waits until the sweep ends (done or stopped). */
async function waitForSweep(page, timeout = 120_000) {
  await page.waitForFunction(() => ['done', 'stopped'].includes(document.body.dataset.loadsweep), null, { timeout });
  return page.evaluate(() => document.body.dataset.loadsweep);
}

/** The figure's own numbers (its table: a row per load, a column per policy and its spread) and its legend. */
async function figure(page, measure) {
  return page.evaluate((id) => {
    const c = document.getElementById(id);
    return c.figure ? { hash: c.dataset.hash, table: c.figure.table() } : null;
  }, `chart-load-${measure}`);
}

/** The policy names of the Load view's findings, by the load each saturates at ('' : none). */
async function findings(page) {
  return page.evaluate(() => {
    const out = {};
    for (const li of document.querySelectorAll('#ls-findings li')) {
      for (const b of li.querySelectorAll('b[data-policy]')) out[b.dataset.policy] = li.dataset.saturates === '' ? null : Number(li.dataset.saturates);
    }
    return out;
  });
}

/** Checks a figure's means (and spread) against the command line's summary, policy by policy. */
function sameAsCli(fig, summary, pick, scale) {
  const { columns, rows } = fig.table;
  let checked = 0;
  for (const s of summary) {
    const row = rows.find((r) => Number(r[0]) === s.load);
    const col = columns.findIndex((c) => c.startsWith(`${s.policy} (`) && !c.endsWith(' least') && !c.endsWith(' most'));
    assert.ok(row && col > 0, `${s.policy} at ${s.load} is in the figure`);
    const [mean, least, most] = pick(s).map((v) => v / scale);
    const close = (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
    assert.ok(close(Number(row[col]), mean), `${s.policy} at ${s.load}: ${row[col]} against ${mean}`);
    if (s.runs > 1) {
      assert.ok(close(Number(row[col + 1]), least) && close(Number(row[col + 2]), most), `${s.policy} at ${s.load}: spread`);
    }
    checked++;
  }
  return checked;
}

test('a link generates a workload, runs the default policies and draws the Load view as the command line computes it', async () => {
  const gen = 'machine=64,jobs=2000,load=0.8,seed=2';
  const page = await open(browser, `${base}/?view=load&gen=${gen}&ls_loads=0.5,0.7,0.9&ls_seeds=2`);
  assert.equal(await waitForSweep(page), 'done');
  await waitForResults(page, DEFAULTS);
  const names = await page.evaluate(() => [...document.querySelectorAll('#policy-list input:checked')].map((i) => i.value));
  assert.equal(names.length, DEFAULTS);
  assert.match(await page.textContent('#ls-count'), new RegExp(`${DEFAULTS} policies × 3 loads × 2 seeds = ${DEFAULTS * 6} runs on Lublin-Feitelson workloads: 64 processors, 2000 jobs, seeds 2-3`));
  assert.equal(await page.locator('#ls-table tbody tr').count(), DEFAULTS * 3);
  // The command line sweeps the same workloads: seeds 2 and 3 of the generator's options at each load.
  const cli = cliSweep('generate:lublin99,machine=64,jobs=2000,seed=2', names, '0.5,0.7,0.9', 2);
  const bsld = await figure(page, 'bsld');
  const wait = await figure(page, 'wait');
  assert.ok(bsld?.hash && wait?.hash, 'both figures are drawn');
  assert.equal(sameAsCli(bsld, cli.summary, (s) => s.bsld, 1), DEFAULTS * 3);
  assert.equal(sameAsCli(wait, cli.summary, (s) => s.wait, 3600), DEFAULTS * 3);
  assert.deepEqual(await findings(page), cli.saturates_at);
  // The legend says where each saturates, as the findings do.
  for (const [p, at] of Object.entries(cli.saturates_at)) {
    assert.ok(bsld.table.columns.includes(at === null ? `${p} (keeps up)` : `${p} (saturates at ${at})`), p);
  }
  // What the papers show: FCFS's slowdown is far above EASY's at every load.
  for (const load of [0.5, 0.7, 0.9]) {
    const at = (p) => cli.summary.find((s) => s.policy === p && s.load === load).bsld[0];
    assert.ok(at('fcfs') > at('easy'), `load ${load}`);
  }
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('ls_loads'), '0.5,0.7,0.9');
  assert.equal(url.searchParams.get('ls_seeds'), '2');
  assert.equal(url.searchParams.get('view'), 'load');
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(shots, 'load-view-1400.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(shots, 'load-view-390.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
});

test('results show as they finish, and Cancel stops the rest and keeps them', async () => {
  const page = await open(browser, `${base}/?embed&view=load&gen=machine=128,jobs=10000,seed=1&policies=fcfs,easy,conservative&ls_seeds=8`);
  // The first points are drawn while the sweep goes on.
  await page.waitForFunction(() => document.getElementById('chart-load-bsld')?.dataset.hash && document.body.dataset.loadsweep === 'running', null, { timeout: 60_000 });
  await page.evaluate(() => document.getElementById('ls-cancel').click());
  assert.equal(await waitForSweep(page), 'stopped');
  const status = await page.textContent('#ls-status');
  const [, done, total] = /^Cancelled after (\d+) of (\d+) tasks\.$/.exec(status) ?? [];
  assert.equal(Number(total), 3 * 7 * 8, status);
  assert.ok(Number(done) > 0 && Number(done) < Number(total), status);
  // The finished points stay: the table has a row per (policy, load) reached.
  assert.ok((await page.locator('#ls-table tbody tr').count()) > 0);
  assert.ok((await figure(page, 'bsld')).hash);
  assert.equal(await page.evaluate(() => document.body.dataset.state ?? ''), '', 'an embedded sweep runs nothing else');
  assert.deepEqual(page.errors, []);
});

test('the figure embeds: only the figures, their findings and progress', async () => {
  const page = await open(browser, `${base}/?embed&view=load&gen=machine=128,jobs=10000,seed=5&policies=fcfs,easy,conservative&ls_loads=0.6,0.8&ls_seeds=1`);
  assert.equal(await waitForSweep(page), 'done');
  for (const id of ['#views', '#runs', '#ls-form', '#ls-intro']) assert.equal(await page.isVisible(id), false, id);
  for (const id of ['#chart-load-bsld', '#chart-load-wait', '#ls-findings']) assert.equal(await page.isVisible(id), true, id);
  assert.equal(await page.locator('#ls-table tbody tr').count(), 6);
  assert.equal(await page.locator('#results tbody tr').count(), 0, 'no comparison runs');
  await page.setViewportSize({ width: 800, height: 700 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(shots, 'load-embed-800.png') });
  assert.deepEqual(page.errors, []);
});

test('a log is swept with its arrivals scaled to each load, as the command line scales them', async () => {
  const page = await open(browser, `${base}/?view=load&policies=fcfs,easy&ls_loads=0.6,0.9`);
  assert.equal(await waitForSweep(page), 'done');
  assert.equal(await page.inputValue('#ls-source'), 'trace');
  assert.equal(await page.isHidden('#ls-seeds-label'), true, 'a log has no seeds');
  assert.match(await page.textContent('#ls-count'), /2 policies × 2 loads = 4 runs on KTH-SP2 excerpt \(demo\) \(offered load 0\.\d{3}\), arrivals scaled/);
  const demo = path.join(root, 'www', 'demo', 'KTH-SP2-1996-2.1-cln.excerpt.swf');
  const cli = cliSweep(demo, ['fcfs', 'easy'], '0.6,0.9');
  assert.equal(sameAsCli(await figure(page, 'bsld'), cli.summary, (s) => s.bsld, 1), 4);
  // Each workload has the load asked for.
  for (const s of cli.summary) assert.ok(Math.abs(s.offered - s.load) < 0.01 * s.load, `${s.policy} at ${s.load}: offered ${s.offered}`);
  assert.deepEqual(page.errors, []);
});
