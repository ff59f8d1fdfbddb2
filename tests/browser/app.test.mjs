// The page in headless Chromium: demo, real traces, charts, errors, network isolation.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { POLICIES, DEFAULTS, serve, launch, open, waitForResults, tableValues, foreignRequests, dist, shared, shots, root, showView, choosePolicies, allMetrics, policyOption } from './harness.mjs';

let server;
let base;
let browser;

before(async () => {
  // A sub-path, as on a course website.
  ({ server, base } = await serve(dist, '/course/schedlab'));
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.close();
});

test('the demo loads and its results fill the table with no user action', async () => {
  const page = await open(browser, `${base}/`);
  await waitForResults(page, DEFAULTS);
  const values = await tableValues(page);
  assert.deepEqual(Object.keys(values).sort(), ['conservative', 'cplant24.nomax.all', 'easy', 'easy++', 'fcfs', 'mq-backfill', 'relaxed', 'ss']);
  assert.ok(values.easy.metrics.avg_bsld > 1);
  assert.equal(values.easy.metrics.jobs, 2999);
  await page.screenshot({ path: path.join(shots, 'demo.png'), fullPage: true });
  // The Content-Security-Policy refuses connections to anything but the page's origin.
  const blocked = await page.evaluate(async () => {
    const violations = [];
    document.addEventListener('securitypolicyviolation', (e) => violations.push(e.violatedDirective));
    const r = await fetch('http://127.0.0.2:9/').then(() => 'fetched', () => 'refused');
    await new Promise((res) => setTimeout(res, 100));
    return { r, violations };
  });
  assert.equal(blocked.r, 'refused');
  assert.deepEqual(blocked.violations, ['connect-src']);
  page.errors = page.errors.filter((e) => !/Content Security Policy|Failed to fetch/.test(e));
  assert.deepEqual(foreignRequests(page), []);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a real gzip trace loaded by the file input gives the CLI figures and schedules', async () => {
  const trace = path.join(shared, 'traces', 'SDSC-SP2-1998-4.2-cln.swf.gz');
  const page = await open(browser, `${base}/?policies=all`);
  await waitForResults(page, POLICIES);
  await page.setInputFiles('#file', trace);
  await page.waitForFunction(() => document.querySelector('#trace-report')?.textContent.includes('SDSC-SP2'));
  await waitForResults(page, POLICIES);
  const web = await tableValues(page);
  const cli = JSON.parse(
    execFileSync(path.join(root, 'target', 'release', 'schedlab'), ['run', trace, '--policy', 'all', '--format', 'json', '--set', 'observe=all'], {
      maxBuffer: 1 << 26,
    }),
  );
  assert.equal(cli.results.length, POLICIES);
  for (const r of cli.results) {
    const w = web[r.policy];
    assert.ok(w, `${r.policy} missing in the page`);
    assert.equal(w.hash, r.schedule_hash, `${r.policy}: schedule differs between wasm and native`);
    for (const [k, v] of Object.entries(w.metrics)) assert.equal(v, r.metrics[k], `${r.policy} ${k}`);
  }
  await page.screenshot({ path: path.join(shots, 'sdsc.png'), fullPage: true });
  assert.deepEqual(foreignRequests(page), []);
  await page.close();
});

test('a malformed trace shows line-numbered errors, and an unusable one says why', async () => {
  const page = await open(browser, `${base}/?view=trace`);
  await waitForResults(page, DEFAULTS);
  const good = '1 0 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1\n';
  const text = `; MaxProcs: 4\n${good}1 0 -1 ten 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1\n<img src=x onerror=alert(1)>\n${good}`;
  await page.setInputFiles('#file', { name: 'bad.swf', mimeType: 'text/plain', buffer: Buffer.from(text) });
  await page.waitForFunction(() => document.querySelector('#trace-report ul.errors'));
  const report = await page.textContent('#trace-report');
  assert.match(report, /line 3, field run_time: not a number/);
  assert.match(report, /line 4: expected 18 fields, found 3/);
  assert.equal(await page.locator('#trace-report img').count(), 0, 'trace text became markup');
  await waitForResults(page, DEFAULTS);
  await page.screenshot({ path: path.join(shots, 'malformed.png'), fullPage: true });

  await page.setInputFiles('#file', { name: 'empty.swf', mimeType: 'text/plain', buffer: Buffer.from('; MaxProcs: 4\n') });
  await page.waitForFunction(() => document.querySelector('#status.error'));
  assert.match(await page.textContent('#status'), /no job lines/);
  await page.close();
});

test('the configuration lives in the URL and embed mode is compact', async () => {
  const query = '?embed&policies=EASY,conservative,fcfs&set=k=2&set=tau=60&opt=fcfs.backfill=queue';
  const page = await open(browser, `${base}/${query}`);
  await waitForResults(page, 3);
  assert.ok(await page.evaluate(() => document.body.classList.contains('embed')));
  assert.equal(await page.inputValue('[data-policy="fcfs"][data-opt="backfill"]'), 'queue');
  assert.equal(await page.inputValue('[data-setting="tau"]'), '60');
  const web = await tableValues(page);
  const demo = path.join(dist, 'www', 'demo', 'KTH-SP2-1996-2.1-cln.excerpt.swf');
  const cli = JSON.parse(
    execFileSync(path.join(root, 'target', 'release', 'schedlab'), [
      'run', demo, '--policy', 'easy,conservative', '--set', 'k=2', '--set', 'tau=60', '--format', 'json',
    ]),
  );
  for (const r of cli.results) {
    assert.equal(web[r.policy].hash, r.schedule_hash, r.policy);
    assert.equal(web[r.policy].metrics.avg_bsld, r.metrics.avg_bsld, r.policy);
  }
  // fcfs with backfill=queue (and k=2) is backfilling with two reservations: the CLI agrees.
  const fcfs = JSON.parse(
    execFileSync(path.join(root, 'target', 'release', 'schedlab'), [
      'run', demo, '--policy', 'fcfs', '--set', 'k=2', '--set', 'backfill=queue', '--set', 'tau=60', '--format', 'json',
    ]),
  );
  assert.equal(web.fcfs.hash, fcfs.results[0].schedule_hash);
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('policies'), 'fcfs,easy,conservative');
  assert.deepEqual(url.searchParams.getAll('opt'), ['fcfs.backfill=queue']);
  assert.deepEqual(url.searchParams.getAll('set').sort(), ['k=2', 'tau=60']);
  await page.screenshot({ path: path.join(shots, 'embed.png'), fullPage: true });
  await page.close();
});

test('the single-file build works opened from disk (file://)', async () => {
  const page = await open(browser, `file://${path.join(dist, 'schedlab.html')}?policies=all`);
  await waitForResults(page, POLICIES);
  const web = await tableValues(page);
  const demo = path.join(dist, 'www', 'demo', 'KTH-SP2-1996-2.1-cln.excerpt.swf');
  const cli = JSON.parse(
    execFileSync(path.join(root, 'target', 'release', 'schedlab'), ['run', demo, '--policy', 'all', '--format', 'json', '--set', 'observe=all']),
  );
  for (const r of cli.results) assert.equal(web[r.policy].hash, r.schedule_hash, r.policy);
  // Charts are drawn by the engine on the page in the single file too.
  await page.waitForFunction(() => document.querySelector('#chart-avg_bsld').dataset.hash);
  // Sweeps and their ranking run in the Blob workers too.
  await showView(page, 'studies', 'tsafrir');
  await page.fill('#sweep-axes', 'window=1-2');
  await page.click('#sweep-run');
  await page.waitForFunction(() => document.body.dataset.sweep === 'done', null, { timeout: 60_000 });
  assert.equal(await page.locator('#sweep-table tbody tr').count(), 2);
  assert.deepEqual((await drawnTable(page, '#chart-sweep')).rows.map((row) => row[0]), ['1', '2']);
  // So does the multiple-queue comparison (the worker task `lawson`).
  await showView(page, 'studies', 'lawson');
  await page.uncheck('#lawson-loads input[value="1.25"]');
  await page.uncheck('#lawson-loads input[value="1.5"]');
  await page.click('#lawson-run');
  await page.waitForFunction(() => document.body.dataset.lawson === 'done', null, { timeout: 60_000 });
  const r = Number(await page.getAttribute('#lawson-summary tr[data-load="1"][data-priority="all"] td[data-key="r"]', 'data-value'));
  assert.ok(Math.abs(r - cliRatio(cliRun('mq-backfill,sq-backfill').results)) < 1e-12, `R ${r}`);
  assert.equal(num((await drawnTable(page, '#chart-lawson-r')).rows[0][1]), r);
  // And the selective-preemption panel (worker tasks `kettimuthu`, `kettimuthu-load` and the load findings).
  await showView(page, 'studies', 'kettimuthu');
  await page.click('#km-run');
  await page.waitForFunction(() => document.body.dataset.kettimuthu === 'done', null, { timeout: 60_000 });
  const km = cliKettimuthu('1.0,1.3');
  const ss2 = km.comparison.schemes.find((x) => x.scheme.label === 'SS 2').metrics;
  assert.equal(Number(await page.getAttribute('#km-summary tr[data-scheme="SS 2"] td[data-key="avg_bsld"]', 'data-value')), ss2.avg_bsld);
  assert.equal(Number(await page.getAttribute('#km-summary tr[data-scheme="SS 2"] td[data-key="suspensions"]', 'data-value')), ss2.suspensions);
  assert.deepEqual(await page.$$eval('#km-load-findings li', (l) => l.map((li) => li.dataset.holds)), km.load_findings.map((f) => String(f.holds)));
  // The engine draws the studies' charts in the single file too.
  assert.deepEqual((await drawnTable(page, '#chart-km-avg', 0.05)).columns.slice(3), ['NS', 'SS 1.5', 'SS 2', 'SS 5', 'TSS 2', 'IS']);
  // Months in the zone the demo names, from the zone files the single file carries (no fetch).
  await showView(page, 'studies', 'ward');
  await page.waitForFunction(() => document.body.dataset.ward === 'done', null, { timeout: 120_000 });
  assert.match(await page.textContent('#ward-status'), /months in Europe\/Stockholm \(UTC\+01:00, with daylight saving time\)\./);
  // And the fairshare panel (worker tasks `study`).
  assert.equal(await page.locator('#leung-section #lg-run').count(), 1);
  await showView(page, 'studies', 'leung');
  await page.click('#lg-run');
  await page.waitForFunction(() => document.body.dataset.leung === 'done', null, { timeout: 60_000 });
  await checkLeung(page, cliLeung(DEMO));
  const trace = path.join(shared, 'traces', 'KTH-SP2-1996-2.1-cln.swf.gz');
  await page.setInputFiles('#file', trace);
  await page.waitForFunction(() => document.querySelector('#trace-report')?.textContent.includes('28,467'));
  await waitForResults(page, POLICIES);
  // An accounting log: the loader worker hands it from its SWF-only loader to the whole engine's.
  await page.setInputFiles('#file', path.join(shared, 'accounting-logs', 'slurm2sql__test-data1.csv'));
  await page.waitForFunction(() => document.querySelector('#trace-report')?.textContent.includes('Read as Slurm sacct output'), null, { timeout: 60_000 });
  await waitForResults(page, POLICIES);
  assert.deepEqual(
    page.requests.filter((u) => !u.startsWith('file://') && !/^(data|blob):/.test(u)),
    [],
  );
  assert.deepEqual(page.errors, []);
  await page.screenshot({ path: path.join(shots, 'single-file.png'), fullPage: true });
  await page.close();
});

test('exports: a policy schedule as CSV equals the CLI, charts as PNG and SVG, results as CSV and JSON', async () => {
  const page = await open(browser, `${base}/`);
  await waitForResults(page, DEFAULTS);
  await allMetrics(page);
  const save = async (click) => {
    const [dl] = await Promise.all([page.waitForEvent('download'), click()]);
    return fs.readFileSync(await dl.path());
  };
  const csv = await save(() => page.click('#results tr[data-policy="easy"] button'));
  const demo = path.join(dist, 'www', 'demo', 'KTH-SP2-1996-2.1-cln.excerpt.swf');
  const out = path.join(shots, 'easy-schedule.csv');
  execFileSync(path.join(root, 'target', 'release', 'schedlab'), ['run', demo, '--policy', 'easy', '--schedule-out', out]);
  assert.equal(csv.toString(), fs.readFileSync(out, 'utf8'));
  const chart = page.locator('.figure:has(#chart-avg_bsld)');
  const png = await save(() => chart.locator('.tools button:text("PNG")').click());
  assert.deepEqual([...png.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
  const svg = (await save(() => chart.locator('.tools button:text("SVG")').click())).toString();
  assert.match(svg, /^<svg/);
  assert.match(svg, /easy\+\+/);
  const results = (await save(() => page.click('#export-csv'))).toString().trim().split('\n');
  assert.equal(results.length, 1 + DEFAULTS);
  const json = JSON.parse(await save(() => page.click('#export-json')));
  assert.equal(json.results.length, DEFAULTS);
  await page.close();
});

test('a long run shows progress, keeps the page responsive, and Cancel stops it', async () => {
  const page = await open(browser, `${base}/`);
  await waitForResults(page, DEFAULTS);
  await page.evaluate(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => window.longTasks.push(...list.getEntries().map((e) => e.duration))).observe({
      type: 'longtask',
    });
  });
  await page.setInputFiles('#file', path.join(shared, 'traces', 'HPC2N-2002-2.2-cln.swf.gz'));
  await page.waitForFunction(() => [...document.querySelectorAll('#progress progress')].some((p) => p.value > 0 && p.value < 1));
  await page.screenshot({ path: path.join(shots, 'progress.png') });
  await page.click('#cancel');
  await page.waitForFunction(() => /Stopped/.test(document.querySelector('#status').textContent));
  const stopped = await page.locator('#progress label.stopped').count();
  assert.ok(stopped > 0, 'no policy was stopped');
  const longTasks = await page.evaluate(() => window.longTasks);
  console.log(`main-thread long tasks during the run (ms): ${JSON.stringify(longTasks.map(Math.round))}`);
  assert.ok(longTasks.every((d) => d < 250), `the main thread blocked: ${longTasks}`);
  // The page still works after a cancel.
  await page.click('#run-selected');
  await waitForResults(page, DEFAULTS, 180_000);
  await page.close();
});

test('the Gantt chart of a 200,000-job schedule zooms, pans and names the job under the pointer', async () => {
  const page = await open(browser, `${base}/?policies=easy&view=timeline`);
  await waitForResults(page, 1);
  await page.setInputFiles('#file', path.join(shared, 'traces', 'HPC2N-2002-2.2-cln.swf.gz'));
  await page.waitForFunction(() => document.querySelector('#trace-report')?.textContent.includes('202,871'));
  await waitForResults(page, 1, 180_000);
  await page.waitForFunction(() => / on 240 processors/.test(document.querySelector('#gantt-view').textContent), null, {
    timeout: 60_000,
  });
  const gantt = page.locator('#gantt');
  await gantt.scrollIntoViewIfNeeded();
  const box = await gantt.boundingBox();
  const full = await gantt.getAttribute('data-view');
  const times = [];
  for (let i = 0; i < 8; i++) {
    const before = await gantt.getAttribute('data-view');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -200);
    await page.waitForFunction((v) => document.querySelector('#gantt').dataset.view !== v, before);
    times.push(Number(await gantt.getAttribute('data-render-ms')));
  }
  const zoomed = (await gantt.getAttribute('data-view')).split(',').map(Number);
  const [f0, f1] = full.split(',').map(Number);
  assert.ok(zoomed[1] - zoomed[0] < (f1 - f0) / 5, `not zoomed: ${zoomed} of ${full}`);
  const before = await gantt.getAttribute('data-view');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 4, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  await page.waitForFunction((v) => document.querySelector('#gantt').dataset.view !== v, before);
  const panned = (await gantt.getAttribute('data-view')).split(',').map(Number);
  assert.ok(panned[0] > zoomed[0], 'dragging left moves later in time');
  console.log(`Gantt of HPC2N (easy): render ms per zoom step ${JSON.stringify(times.map(Math.round))}`);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 3);
  await page.mouse.move(box.x + box.width / 2 + 2, box.y + box.height / 3);
  await page.waitForFunction(() => /^job \d+/.test(document.querySelector('#tip').textContent), null, { timeout: 10_000 });
  await page.screenshot({ path: path.join(shots, 'gantt.png'), fullPage: false });
  await page.close();
});

test('an engine that fails to load is reported on the page, not a blank page', async () => {
  const page = await browser.newPage();
  page.errors = [];
  await page.route('**/schedlab_bg.wasm', (route) => route.fulfill({ status: 200, contentType: 'application/wasm', body: 'not wasm' }));
  await page.goto(`${base}/`);
  await page.waitForFunction(() => document.querySelector('#status.error'), null, { timeout: 30_000 });
  assert.match(await page.textContent('#status'), /The engine failed to load: .+/);
  await page.screenshot({ path: path.join(shots, 'engine-failure.png') });
  await page.close();
});

test('a trace dropped on the page is read like a chosen one', async () => {
  const page = await open(browser, `${base}/?policies=easy`);
  await waitForResults(page, 1);
  const text = '; MaxProcs: 8\n1 0 -1 100 4 -1 -1 4 100 -1 1 1 1 -1 1 -1 -1 -1\n2 5 -1 50 8 -1 -1 8 60 -1 1 2 1 -1 1 -1 -1 -1\n';
  const dt = await page.evaluateHandle((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'dropped.swf', { type: 'text/plain' }));
    return dt;
  }, text);
  await page.dispatchEvent('#drop', 'drop', { dataTransfer: dt });
  await page.waitForFunction(() => document.querySelector('#trace-report')?.textContent.includes('dropped.swf'));
  await waitForResults(page, 1);
  const web = await tableValues(page);
  assert.equal(web.easy.metrics.jobs, 2);
  assert.equal(web.easy.metrics.avg_wait_s, 47.5); // job 2 waits from 5 to 100
  await page.close();
});

// ---------------------------------------------------------------- runtime predictions (Tsafrir et al. 2007)

const DEMO = path.join(dist, 'www', 'demo', 'KTH-SP2-1996-2.1-cln.excerpt.swf');

/** The CLI's JSON for the demo with these policies and settings. */
function cliRun(policies, sets = []) {
  // The page observes everything it can show (observe=all), so the CLI is asked to as well.
  const args = ['run', DEMO, '--policy', policies, '--set', 'observe=all', ...sets.flatMap((s) => ['--set', s]), '--format', 'json'];
  return JSON.parse(execFileSync(path.join(root, 'target', 'release', 'schedlab'), args));
}

/** Every data cell of a table, by row (data-policy or position) and data-key, as numbers. */
async function tableData(page, selector) {
  return page.evaluate((selector) => {
    const out = [];
    for (const tr of document.querySelectorAll(`${selector} tbody tr`)) {
      const row = { policy: tr.dataset.policy, index: tr.dataset.index };
      for (const td of tr.querySelectorAll('td[data-key]')) row[td.dataset.key] = td.dataset.value;
      out.push(row);
    }
    return out;
  }, selector);
}

/** Share of a canvas's pixels that are not near-white. */
async function ink(page, selector) {
  return page.evaluate((selector) => {
    const c = document.querySelector(selector);
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] < 200 || d[i + 1] < 200 || d[i + 2] < 200) n++;
    return n / (d.length / 4);
  }, selector);
}

/** The chart the engine drew on a canvas: its display list's hash and its numbers ({title, columns, rows}), or null. */
async function figureOf(page, selector) {
  return page.evaluate((sel) => {
    const c = document.querySelector(sel);
    return c.figure ? { hash: c.dataset.hash, table: c.figure.table() } : null;
  }, selector);
}

/** A chart's numbers, checked drawn: its hash is set and its canvas has ink. */
async function drawnTable(page, selector, minInk = 0.01) {
  const fig = await figureOf(page, selector);
  assert.ok(fig, `${selector} has no chart`);
  assert.match(fig.hash, /^[0-9a-f]{16}$/, `${selector} hash`);
  assert.ok((await ink(page, selector)) > minInk, `${selector} is blank`);
  return fig.table;
}

/** No chart on a canvas, and the message shown in its place. */
async function noFigure(page, selector) {
  assert.equal(await figureOf(page, selector), null, `${selector} still has a chart`);
  assert.equal(await page.getAttribute(selector, 'data-hash'), null);
  return page.evaluate((sel) => document.querySelector(sel).parentElement.querySelector('p.empty')?.textContent ?? '', selector);
}

/**
 * Finds a place on a chart (scanning its canvas) where the engine's hit text is `want`, moves the
 * pointer there and waits for the tooltip to say it.
 */
async function hoverChart(page, selector, want) {
  await page.locator(selector).scrollIntoViewIfNeeded();
  const at = await page.evaluate(
    ([sel, want]) => {
      const c = document.querySelector(sel);
      for (let y = 0; y < c.clientHeight; y += 2) {
        for (let x = 0; x < c.clientWidth; x += 2) {
          const text = c.figure?.hit(x, y)?.text;
          if (text === want) return { x, y, text };
        }
      }
      return null;
    },
    [selector, want],
  );
  assert.ok(at, `${selector}: nowhere under the pointer says "${want}"`);
  await page.locator(selector).hover({ position: { x: at.x, y: at.y } });
  await page.waitForFunction((t) => !document.querySelector('#tip').hidden && document.querySelector('#tip').textContent === t, want);
}

/** Thousands separators as the engine writes them: only in numbers of five digits or more. */
function grouped(s) {
  const [sign, rest] = s.startsWith('-') ? ['-', s.slice(1)] : ['', s];
  const [int, frac] = rest.split('.');
  if (int.length <= 4) return s;
  return sign + int.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (frac === undefined ? '' : `.${frac}`);
}

/** A value as the engine's charts write it (render::axis::fmt_number): three significant digits. */
function fmt3(v) {
  if (!Number.isFinite(v)) return 'n/a';
  const a = Math.abs(v);
  if (a >= 100 || a === 0) return grouped(v.toFixed(0));
  if (a >= 10) return v.toFixed(1);
  if (a >= 1) return v.toFixed(2);
  return v.toFixed(Math.min(6, Math.max(2, 2 - Math.floor(Math.log10(a)))));
}

/** A table cell of a chart as a number, or null when blank (no value). */
const num = (cell) => (cell === '' ? null : Number(cell));

test('the policies are grouped, the prediction presets under the paper\'s heading', async () => {
  const page = await open(browser, `${base}/`);
  await waitForResults(page, DEFAULTS);
  await choosePolicies(page);
  const groups = await page.evaluate(() =>
    [...document.querySelectorAll('#policy-list fieldset')].map((fs) => ({
      legend: fs.querySelector('legend').firstChild.textContent.trim(),
      names: [...fs.querySelectorAll('input[type=checkbox]')].map((i) => i.value),
    })),
  );
  assert.deepEqual(
    groups.map((g) => g.legend),
    [
      'Your own policy',
      'Backfilling (all papers)',
      'Runtime predictions (Tsafrir, Etsion & Feitelson 2007)',
      'Priorities and relaxed backfill (Ward, Mahood & West 2002)',
      'Multiple-queue backfilling (Lawson & Smirni 2002)',
      'Selective preemption (Kettimuthu et al. 2003)',
      'Fairshare at Sandia (Leung, Sabin & Sadayappan 2010)',
      "Today's clusters: Slurm on nodes, GPUs and memory",
    ],
  );
  assert.deepEqual(groups[0].names, ['mine']);
  assert.deepEqual(groups[1].names, ['fcfs', 'fffs', 'bffs', 'wffs', 'conservative']);
  const presets = ['easy', 'perfect', 'x2', 'easy-pcor', 'easy+', 'easy-sjbf', 'easy++', 'perfect++', 'easy++-guarded'];
  for (const p of [...presets, 'x2+', 'x2++', 'x2-perf', 'x2++-perf', 'sjf', 'sjf+', 'sjf-perf', 'custom']) {
    assert.ok(groups[2].names.includes(p), `${p} missing from the prediction group`);
  }
  assert.deepEqual(groups[3].names, ['relaxed']);
  assert.deepEqual(groups[4].names, ['mq-backfill', 'sq-backfill']);
  assert.deepEqual(groups[5].names, ['ns', 'ss', 'tss', 'is']);
  assert.deepEqual(groups[6].names, LG_POLICIES);
  assert.deepEqual(groups[7].names, ['slurm', 'easy-cluster']);
  assert.equal(groups.reduce((n, g) => n + g.names.length, 0), POLICIES + 2); // and the custom configuration and your own
  // The group buttons tick and clear a whole group; the run keeps catalogue order.
  await page.click('#policy-list fieldset:nth-of-type(3) legend button:text("none")');
  assert.equal(await page.locator('#policy-list fieldset:nth-of-type(3) input:checked').count(), 0);
  await page.close();
});

test('Table 3 and the predictability tables give the CLI figures and their changes relative to EASY', async () => {
  const page = await open(browser, `${base}/?policies=easy,easy%2B,easy%2B%2B`);
  await waitForResults(page, 3);
  const cli = cliRun('easy,easy+,easy++').results;
  const easy = cli.find((r) => r.policy === 'easy').metrics;
  // The engine makes the tables when the Studies view shows them.
  await showView(page, 'studies', 'tsafrir');
  const rows = await tableData(page, '#table3');
  assert.deepEqual(rows.map((r) => r.policy), ['easy', 'easy+', 'easy++']);
  for (const r of cli) {
    const row = rows.find((x) => x.policy === r.policy);
    for (const key of ['avg_wait_s', 'avg_bsld', 'accuracy_pct', 'corrections_avg']) {
      assert.equal(Number(row[key]), r.metrics[key], `${r.policy} ${key}`);
    }
    for (const key of ['avg_wait_s', 'avg_bsld', 'accuracy_pct']) {
      if (r.policy === 'easy') assert.equal(row[`${key}:change`], undefined);
      else assert.equal(Number(row[`${key}:change`]), (100 * r.metrics[key]) / easy[key] - 100, `${r.policy} ${key} change`);
    }
  }
  // What the table shows: minutes and whole percentages, as in the paper.
  const easyPlus = cli.find((r) => r.policy === 'easy++').metrics;
  const shown = await page.locator('#table3 tr[data-policy="easy++"] td').allTextContents();
  assert.equal(shown[1], (easyPlus.avg_wait_s / 60).toFixed(0));
  const change = Math.round((100 * easyPlus.avg_wait_s) / easy.avg_wait_s - 100);
  assert.equal(shown[2], `${change < 0 ? '-' : '+'}${Math.abs(change)}%`);
  const keys = [
    'reserved_pct', 'reservation_diff_avg_s', 'reservation_diff_median_s', 'reservation_diff_std_s',
    'delayed_pct', 'delay_avg_s', 'delay_median_s', 'delay_std_s', 'stalled_pct', 'stall_avg_s', 'thieves_avg',
  ];
  const more = await tableData(page, '#predictability');
  for (const r of cli) {
    const row = more.find((x) => x.policy === r.policy);
    for (const key of keys) assert.equal(Number(row[key]), r.metrics[key], `${r.policy} ${key}`);
  }
  // Every new metric is in the results table, with its definition on hover.
  const titles = await page.evaluate(() =>
    Object.fromEntries([...document.querySelectorAll('#results th[data-key]')].map((th) => [th.dataset.key, th.title])),
  );
  for (const key of [...keys, 'accuracy_pct', 'corrections_avg', 'corrections_std']) assert.ok(titles[key]?.length > 10, key);
  assert.match(await page.textContent('#table3-note'), /relative to EASY/);
  await page.locator('#predictions-section').screenshot({ path: path.join(shots, 'predictions.png') });
  // Without easy there is nothing to compare with, and the page says so.
  await choosePolicies(page);
  await page.uncheck('#policy-list input[value="easy"]');
  await page.click('#run-selected');
  await waitForResults(page, 2);
  assert.match(await page.textContent('#table3-note'), /Run easy too/);
  assert.equal((await tableData(page, '#table3'))[0]['avg_wait_s:change'], undefined);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the accuracy histogram (Fig. 2) is drawn from the CLI\'s accuracy_histogram', async () => {
  const page = await open(browser, `${base}/?policies=easy,easy%2B%2B&view=jobs`);
  await waitForResults(page, 2);
  const cli = cliRun('easy,easy++').results;
  for (const policy of ['easy++', 'easy']) {
    if (policy !== 'easy++') await page.selectOption('#accuracy-policy', policy);
    await page.waitForFunction((p) => document.querySelector('#chart-accuracy').dataset.policy === p, policy);
    const data = JSON.parse(await page.getAttribute('#chart-accuracy', 'data-data'));
    const want = cli.find((r) => r.policy === policy).accuracy_histogram;
    assert.deepEqual(data, want, policy);
    assert.equal(data.all.length, 20);
    assert.ok((await ink(page, '#chart-accuracy')) > 0.02, `${policy}: the histogram is blank`);
  }
  // Hover names the bin and both counts.
  const c = page.locator('#chart-accuracy');
  await c.scrollIntoViewIfNeeded();
  const box = await c.boundingBox();
  // The last bin: move left from the right edge until the tip names it.
  let said = '';
  for (const y of [0.7, 0.6, 0.5].map((f) => box.height * f)) {
    for (let x = box.width - 8; x > box.width - 120 && !/with accuracy 95-100%/.test(said); x -= 4) {
      await c.hover({ position: { x, y } });
      said = await page.evaluate(() => (document.querySelector('#tip').hidden ? '' : document.querySelector('#tip').textContent));
    }
  }
  assert.match(said, /^easy: \d+ .*jobs.* \([\d.]+%\) with accuracy 95-100%$/);
  // The choice survives a new run.
  await page.click('#run-selected');
  await waitForResults(page, 2);
  assert.equal(await page.inputValue('#accuracy-policy'), 'easy');
  await page.close();
});

test('a sweep runs every configuration, ranks them as section 7 does with the CLI\'s figures, and plots Fig. 10', async () => {
  const page = await open(browser, `${base}/?policies=easy&view=studies&study=tsafrir`);
  await waitForResults(page, 1);
  assert.equal(await page.inputValue('#sweep-base'), 'easy++');
  assert.equal(await page.inputValue('#sweep-axes'), 'window=1-8\nmetric=avg,med\npropagation=off,on');
  assert.match(await page.textContent('#sweep-count'), /^32 configurations/);
  await page.evaluate(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => window.longTasks.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
  });
  await page.fill('#sweep-axes', 'window=1-3\nmetric=avg,med');
  assert.match(await page.textContent('#sweep-count'), /^6 configurations/);
  await page.click('#sweep-run');
  await page.waitForFunction(() => document.body.dataset.sweep === 'done', null, { timeout: 60_000 });
  const rows = await tableData(page, '#sweep-table');
  assert.equal(rows.length, 6);
  // The best configuration is best in both test cases here: no degradation (to rounding).
  assert.ok(Math.abs(Number(rows[0].degradation)) < 1e-9, rows[0].degradation);
  assert.equal(await page.textContent('#sweep-table tbody tr td:nth-child(2)'), '0.00%');
  // The same ranking from the CLI's runs of the same configurations (grid order: window slowest).
  const configs = [];
  for (const w of ['1', '2', '3']) for (const m of ['avg', 'med']) configs.push({ window: w, metric: m });
  const perf = configs.map((c) => {
    const m = cliRun('easy++', [`window=${c.window}`, `metric=${c.metric}`]).results[0].metrics;
    return [m.avg_wait_s, m.avg_bsld];
  });
  const best = [0, 1].map((t) => Math.min(...perf.map((p) => p[t])));
  const degradation = perf.map((p) => ((100 * p[0]) / best[0] - 100 + ((100 * p[1]) / best[1] - 100)) / 2);
  const order = degradation.map((d, i) => i).sort((a, b) => degradation[a] - degradation[b] || a - b);
  assert.deepEqual(rows.map((r) => Number(r.index)), order);
  for (const [pos, i] of order.entries()) {
    assert.ok(Math.abs(Number(rows[pos].degradation) - degradation[i]) < 1e-9, `row ${pos}`);
    assert.deepEqual([rows[pos].window, rows[pos].metric], [configs[i].window, configs[i].metric]);
    assert.equal(Number(rows[pos].avg_wait_s), perf[i][0]);
  }
  // Fig. 10, drawn by the engine: mean and standard deviation of the degradation per window size.
  const fig = await drawnTable(page, '#chart-sweep');
  assert.deepEqual(fig.columns, ['window', 'mean', '±', 'configurations']);
  assert.deepEqual(fig.rows.map((r) => r[0]), ['1', '2', '3']);
  for (const [value, mean, std, count] of fig.rows) {
    const ds = degradation.filter((_, i) => configs[i].window === value);
    const want = ds.reduce((a, b) => a + b, 0) / ds.length;
    assert.ok(Math.abs(Number(mean) - want) < 1e-9, `window ${value} mean`);
    assert.ok(Math.abs(Number(std) - Math.sqrt(ds.reduce((a, d) => a + (d - want) ** 2, 0) / ds.length)) < 1e-9);
    assert.equal(count, '2');
  }
  // The pointer on window 2's whisker names the base, the value, mean ± std and the configurations.
  const [, mean2, std2] = fig.rows[1];
  await hoverChart(page, '#chart-sweep', `easy++, window 2: ${fmt3(Number(mean2))}% ± ${fmt3(Number(std2))}% over 2 configurations`);
  const longTasks = await page.evaluate(() => window.longTasks);
  assert.ok(longTasks.every((d) => d < 250), `the main thread blocked: ${longTasks}`);
  const url = new URL(page.url());
  assert.deepEqual(url.searchParams.getAll('sweep'), ['window=1-3', 'metric=avg,med']);
  await page.locator('#sweep-section').screenshot({ path: path.join(shots, 'sweep.png') });
  // A bigger grid can be cancelled part way; the ranking then waits for a complete sweep.
  await page.fill('#sweep-axes', 'window=1-30\nmetric=avg,med,min,max\nfallback=estimate,relative');
  await page.click('#sweep-run');
  await page.waitForFunction(() => document.querySelector('#sweep-progress').value > 3);
  await page.click('#sweep-cancel');
  await page.waitForFunction(() => document.body.dataset.sweep === 'stopped');
  assert.match(await page.textContent('#sweep-status'), /^Cancelled after \d+ of 240 configurations/);
  assert.equal(await page.locator('#sweep-table tbody tr').count(), 0);
  // Bad axes are refused before anything runs.
  await page.fill('#sweep-axes', 'windw=1-3');
  assert.match(await page.textContent('#sweep-count'), /no option is called windw/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the predictor panel runs as "custom", lives in the URL, and a reload restores it and its results', async () => {
  const page = await open(browser, `${base}/?policies=easy%2B%2B,custom`);
  await waitForResults(page, 2);
  await choosePolicies(page);
  // Its defaults are Table 12's EASY++: the same schedule as the preset.
  let web = await tableValues(page);
  assert.equal(web.custom.hash, web['easy++'].hash);
  assert.equal(await page.inputValue('[data-pred="window"]'), '2');
  assert.equal(await page.inputValue('[data-pred="window_type"]'), 'all');
  assert.equal(await page.inputValue('[data-pred="metric"]'), 'avg');
  assert.equal(await page.inputValue('[data-pred="correction"]'), 'estimate');
  assert.match(await page.getAttribute('#predictor label[data-key="window"]', 'title'), /how many of the user's last jobs/);
  // The family's own values, shown when a preset sets none, are what the CLI runs easy with.
  await page.selectOption('[data-pred="base"]', 'easy');
  const easyOptions = cliRun('easy').results[0].options;
  for (const key of ['predict', 'factor', 'correction', 'window', 'window_type', 'fullness', 'metric', 'fallback', 'propagation', 'reserve', 'backfill_end']) {
    assert.equal(await page.inputValue(`[data-pred="${key}"]`), easyOptions[key], key);
  }
  await page.click('#predictor button:text("Table 12 (EASY++)")');
  assert.equal(await page.inputValue('[data-pred="base"]'), 'easy++');
  // Edit, run, and compare with the CLI.
  await page.fill('[data-pred="window"]', '3');
  await page.dispatchEvent('[data-pred="window"]', 'change');
  await page.selectOption('[data-pred="metric"]', 'med');
  await page.selectOption('[data-pred="propagation"]', 'on');
  assert.ok(await page.locator('#predictor label[data-key="metric"].changed').count());
  const url0 = new URL(page.url());
  assert.ok(url0.searchParams.getAll('pred').includes('metric=med'), 'the URL follows the panel');
  await page.click('#run-selected');
  await waitForResults(page, 2);
  web = await tableValues(page);
  const cli = cliRun('easy++', ['window=3', 'metric=med', 'propagation=on']).results[0];
  assert.equal(web.custom.hash, cli.schedule_hash);
  for (const [k, v] of Object.entries(web.custom.metrics)) assert.equal(v, cli.metrics[k], k);
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('policies'), 'easy++,custom');
  const pred = url.searchParams.getAll('pred');
  for (const kv of ['base=easy++', 'window=3', 'metric=med', 'propagation=on', 'correction=estimate']) assert.ok(pred.includes(kv), kv);
  await page.locator('#policies').screenshot({ path: path.join(shots, 'predictor.png') });
  // The custom row's schedule export is the CLI's schedule for the same settings.
  const [dl] = await Promise.all([page.waitForEvent('download'), allMetrics(page).then(() => page.click('#results tr[data-policy="custom"] button'))]);
  const out = path.join(shots, 'custom-schedule.csv');
  execFileSync(path.join(root, 'target', 'release', 'schedlab'), [
    'run', DEMO, '--policy', 'easy++', '--set', 'window=3', '--set', 'metric=med', '--set', 'propagation=on', '--schedule-out', out,
  ]);
  assert.equal(fs.readFileSync(await dl.path(), 'utf8'), fs.readFileSync(out, 'utf8'));
  // A reload of the link restores the panel and gives the same results.
  const again = await open(browser, page.url());
  await waitForResults(again, 2);
  assert.equal(await again.inputValue('[data-pred="window"]'), '3');
  assert.equal(await again.inputValue('[data-pred="metric"]'), 'med');
  assert.equal(await again.inputValue('[data-pred="propagation"]'), 'on');
  assert.ok(await again.isChecked('#policy-list input[value="custom"]'));
  const restored = await tableValues(again);
  assert.equal(restored.custom.hash, cli.schedule_hash);
  assert.deepEqual(restored.custom.metrics, web.custom.metrics);
  await showView(again, 'studies', 'tsafrir');
  assert.deepEqual(Number((await tableData(again, '#table3')).find((r) => r.policy === 'custom').avg_wait_s), cli.metrics.avg_wait_s);
  // A hand-typed link may leave '+' unencoded.
  const typed = await open(browser, `${base}/?policies=easy++,custom&pred=base=easy++&pred=window=3&pred=metric=med&pred=propagation=on`);
  await waitForResults(typed, 2);
  assert.equal((await tableValues(typed)).custom.hash, cli.schedule_hash);
  assert.deepEqual([...page.errors, ...again.errors, ...typed.errors], []);
  await Promise.all([page.close(), again.close(), typed.close()]);
});

test('relaxed backfill (Ward et al.): omega x Est/Act runs give Tables 1-3 equal to the CLI\'s monthly figures, a chart, URL state and Cancel', async () => {
  const page = await open(browser, `${base}/?policies=easy&view=studies&study=ward`);
  await waitForResults(page, 1);
  // The defaults, and nothing runs until asked.
  assert.equal(await page.inputValue('#ward-omegas'), '0, 1, 2, 4, inf');
  assert.equal(await page.inputValue('#ward-classes'), 'header');
  assert.match(await page.textContent('#ward-count'), /^10 runs/);
  await page.waitForFunction(() => document.body.dataset.ward === 'done', null, { timeout: 120_000 });
  assert.ok((await page.locator('#ward-wait tbody tr').count()) > 0, 'the study ran by itself with its defaults');
  await page.fill('#ward-omegas', '0, 1, inf');
  assert.match(await page.textContent('#ward-count'), /^6 runs/);
  await page.click('#ward-run');
  await page.waitForFunction(() => document.body.dataset.ward === 'done', null, { timeout: 60_000 });
  const omegas = ['0', '1', 'inf'];
  const cli = {};
  for (const w of omegas) {
    for (const rt of ['est', 'act']) {
      cli[`${w}:${rt}`] = cliRun('relaxed', [`omega=${w}`, `runtime=${rt}`, 'queue_classes=header']).results[0];
    }
  }
  const months = cli['inf:est'].monthly.months;
  assert.ok(months.length >= 3, 'the demo spans several months');
  // Months are those of the zone the demo names, whose file the workers fetch, as the CLI reads them.
  assert.match(cli['inf:est'].monthly.zone, /^Europe\/Stockholm \(UTC\+01:00, with daylight saving time\)/);
  assert.ok((await page.textContent('#ward-status')).includes(`months in ${cli['inf:est'].monthly.zone}.`));
  // Table 1: two sub-rows per month, then the Total rows.
  const wait = await tableData(page, '#ward-wait');
  const rowsOf = (rows) =>
    page.evaluate((sel) => [...document.querySelectorAll(`${sel} tbody tr`)].map((tr) => [tr.dataset.month, tr.dataset.runtime]), rows);
  const keys = await rowsOf('#ward-wait');
  assert.deepEqual(keys, [...months.flatMap((m) => [[m.month, 'est'], [m.month, 'act']]), ['total', 'est'], ['total', 'act']]);
  keys.forEach(([month, rt], i) => {
    const row = wait[i];
    if (rt === 'est' && month !== 'total') {
      const m = months.find((x) => x.month === month);
      assert.equal(Number(row.jobs), m.jobs, `${month} jobs`);
      assert.equal(Number(row.utilization_pct), m.utilization_pct, `${month} utilization (omega=inf, Est)`);
      assert.equal(Number(row.actual_wait_hours), m.actual_wait_hours, `${month} actual (logged) wait`);
    }
    for (const w of omegas) {
      const ms = cli[`${w}:${rt}`].monthly.months;
      const want = month === 'total' ? ms.reduce((s, m) => s + m.wait_hours, 0) : ms.find((m) => m.month === month).wait_hours;
      assert.ok(Math.abs(Number(row[`omega=${w}`]) - want) < 1e-9, `wait ${month} ${rt} omega=${w}`);
    }
  });
  assert.match(await page.textContent('#ward-wait-note'), /utilization is that of the ω=inf Est run/);
  // Table 2: jobs backfilled, the same layout without the Total rows.
  const backfilled = await tableData(page, '#ward-backfilled');
  const keys2 = await rowsOf('#ward-backfilled');
  assert.deepEqual(keys2, months.flatMap((m) => [[m.month, 'est'], [m.month, 'act']]));
  keys2.forEach(([month, rt], i) => {
    for (const w of omegas) {
      const want = cli[`${w}:${rt}`].monthly.months.find((m) => m.month === month).jobs_backfilled;
      assert.equal(Number(backfilled[i][`omega=${w}`]), want, `backfilled ${month} ${rt} omega=${w}`);
    }
  });
  // Table 3: the demo's queues give no high-class job with the header's classes: a note instead.
  assert.ok(months.every((m) => m.high_jobs === 0));
  assert.match(await page.textContent('#ward-high-note'), /give no job of this trace a class of 1 or more/);
  assert.equal(await page.locator('#ward-high tbody tr').count(), 0);
  // The chart, drawn by the engine: total wait against omega, Est and Act, ∞ at the right end.
  const fig = await drawnTable(page, '#chart-ward');
  assert.deepEqual(fig.columns, ['ω', 'Est', 'Act']);
  assert.deepEqual(fig.rows.map((r) => r[0]), ['0', '1', '∞']);
  for (const [label, rt, col] of [['Est', 'est', 1], ['Act', 'act', 2]]) {
    fig.rows.forEach((row, i) => {
      const want = cli[`${omegas[i]}:${rt}`].monthly.months.reduce((s, m) => s + m.wait_hours, 0);
      assert.ok(Math.abs(Number(row[col]) - want) < 1e-9, `chart ${label} omega=${omegas[i]}`);
    });
  }
  await hoverChart(page, '#chart-ward', `Est at ω = ∞: ${fmt3(Number(fig.rows[2][1]))} h`);
  // The grid is in the URL, and a reload brings it back without running.
  assert.equal(new URL(page.url()).searchParams.get('omegas'), '0,1,inf');
  await page.locator('#ward-section').screenshot({ path: path.join(shots, 'ward.png') });
  // The relaxed policy's own options apply: alpha=0 changes the figures (the CLI agrees).
  await policyOption(page, 'relaxed', 'alpha', '0');
  await page.fill('#ward-omegas', 'inf');
  await page.click('#ward-run');
  await page.waitForFunction(() => document.body.dataset.ward === 'done' && document.querySelectorAll('#ward-wait thead tr:last-child th').length === 1, null, { timeout: 60_000 });
  const alpha0 = cliRun('relaxed', ['omega=inf', 'runtime=est', 'queue_classes=header', 'alpha=0']).results[0].monthly.months;
  const total = (await tableData(page, '#ward-wait')).find((r) => r.month === 'total')['omega=inf'];
  assert.ok(Math.abs(Number(total) - alpha0.reduce((s, m) => s + m.wait_hours, 0)) < 1e-9);
  // Table 3 with queue classes that make every job high-class (*:1): Est runs, by month, a Total row.
  await page.fill('[data-policy="relaxed"][data-opt="alpha"]', '');
  await page.fill('#ward-classes', '*:1');
  await page.fill('#ward-omegas', '0, inf');
  await page.click('#ward-run');
  await page.waitForFunction(() => document.body.dataset.ward === 'done' && document.querySelectorAll('#ward-high tbody tr').length > 0, null, { timeout: 60_000 });
  assert.equal(new URL(page.url()).searchParams.get('ward_classes'), '*:1');
  const high = await tableData(page, '#ward-high');
  const highCli = Object.fromEntries(['0', 'inf'].map((w) => [w, cliRun('relaxed', [`omega=${w}`, 'runtime=est', 'queue_classes=*:1']).results[0].monthly.months]));
  assert.deepEqual(high.map((r) => r.month), [...highCli.inf.map((m) => m.month), 'total']);
  for (const row of high) {
    for (const w of ['0', 'inf']) {
      const ms = highCli[w];
      const want = row.month === 'total' ? ms.reduce((s, m) => s + m.high_wait_hours, 0) : ms.find((m) => m.month === row.month).high_wait_hours;
      assert.ok(Math.abs(Number(row[`omega=${w}`]) - want) < 1e-9, `high ${row.month} omega=${w}`);
    }
    const jobs = row.month === 'total' ? highCli.inf.reduce((s, m) => s + m.high_jobs, 0) : highCli.inf.find((m) => m.month === row.month).high_jobs;
    assert.equal(Number(row.high_jobs), jobs);
  }
  await page.locator('#ward-section').screenshot({ path: path.join(shots, 'ward-high.png') });
  // Cancel stops a run part way.
  // Enough runs (400) that Cancel lands before they are all done, even on a loaded machine.
  await page.fill('#ward-omegas', Array.from({ length: 200 }, (_, i) => i / 4).join(', '));
  await page.click('#ward-run');
  await page.waitForFunction(() => document.querySelector('#ward-progress').value > 2);
  await page.click('#ward-cancel');
  await page.waitForFunction(() => document.body.dataset.ward === 'stopped');
  assert.match(await page.textContent('#ward-status'), /Cancelled after \d+ of 400 runs/);
  assert.equal(await page.locator('#ward-wait tbody tr').count(), 0, 'a cancelled run leaves no tables');
  // Bad omegas are refused before anything runs.
  await page.fill('#ward-omegas', '0, x');
  assert.match(await page.textContent('#ward-count'), /x is not an omega/);
  const reload = await open(browser, `${base}/?policies=easy&omegas=0,2,inf&view=studies&study=ward`);
  await waitForResults(reload, 1);
  assert.equal(await reload.inputValue('#ward-omegas'), '0, 2, inf');
  // The study runs by itself with the link's omegas.
  await reload.waitForFunction(() => document.body.dataset.ward === 'done', null, { timeout: 120_000 });
  assert.match(await reload.textContent('#ward-status'), /for 3 omegas × Est and Act \(6 runs\)/);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(reload.errors, []);
  await reload.close();
  await page.close();
});

/** R = (s1 - sm) / min(s1, sm) from the CLI's average slowdowns of sq-backfill (s1) and mq-backfill (sm). */
function cliRatio(results) {
  const s1 = results.find((r) => r.policy === 'sq-backfill').metrics.avg_slowdown;
  const sm = results.find((r) => r.policy === 'mq-backfill').metrics.avg_slowdown;
  return (s1 - sm) / Math.min(s1, sm);
}

/** `schedlab lawson` on the demo: the paper's grid of loads, priority mixes and reservation fractions. */
function cliLawsonStudy(sets = []) {
  const args = ['lawson', DEMO, ...sets.flatMap((s) => ['--set', s]), '--format', 'json'];
  return JSON.parse(execFileSync(path.join(root, 'target', 'release', 'schedlab'), args))[0].study;
}

const close = (a, b, what) => assert.ok(Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b)), `${what}: ${a} != ${b}`);

/** The demo's UnixStartTime, from its header. */
const DEMO_START = Number(fs.readFileSync(DEMO, 'utf8').match(/UnixStartTime:\s*(\d+)/)[1]);

/** A trace time of the demo as the engine's time charts write it: the UTC minute. */
const utc = (t) => new Date((DEMO_START + Math.floor(t)) * 1000).toISOString().slice(0, 16).replace('T', ' ');

/**
 * The transient chart's lines as drawn, [[UTC minute, R], ...] per series named: its rows are
 * every batch time of any line, each line valued at its own.
 */
async function lawsonTransient(page, names) {
  const fig = await drawnTable(page, '#chart-lawson-transient');
  assert.deepEqual(fig.columns, ['date (UTC)', ...names]);
  return names.map((_, k) => fig.rows.filter((r) => r[k + 1] !== '').map((r) => [r[0], Number(r[k + 1])]));
}

/** The multiple-queue summary table: {load: {priority: {key: number or null}}}. */
async function lawsonTable(page) {
  return page.evaluate(() => {
    const out = {};
    for (const tr of document.querySelectorAll('#lawson-summary tbody tr')) {
      const row = {};
      for (const td of tr.querySelectorAll('td[data-key]')) row[td.dataset.key] = td.dataset.value === 'null' ? null : td.dataset.value;
      (out[tr.dataset.load] ??= {})[tr.dataset.priority] = row;
    }
    return out;
  });
}

test('multiple queues (Lawson & Smirni): R per class, priority and batch, reservations and delay tails equal the engine\'s; charts, URL state and Cancel', async () => {
  const page = await open(browser, `${base}/?policies=easy&view=studies&study=lawson`);
  await waitForResults(page, 1);
  // The defaults, and nothing runs until asked.
  assert.equal(await page.inputValue('#lawson-high'), '1');
  assert.equal(await page.inputValue('#lawson-reservations'), '0');
  assert.deepEqual(await page.$$eval('#lawson-loads input:checked', (l) => l.map((i) => i.value)), ['1', '1.25', '1.5']);
  assert.equal(await page.inputValue('#lawson-queues'), '3');
  assert.equal(await page.inputValue('#lawson-thresholds'), '1000,10000');
  assert.equal(await page.inputValue('#lawson-seed'), '1');
  assert.match(await page.textContent('#lawson-count'), /^3 comparisons .*6 runs/);
  await page.waitForFunction(() => document.body.dataset.lawson === 'done', null, { timeout: 120_000 });
  assert.ok((await page.locator('#lawson-summary tbody tr').count()) > 0, 'the study ran by itself with its defaults');
  assert.match(await page.textContent('#lawson-explain'), /s = 1 \+ d\/v.*R = \(s1 − sm\) \/ min\(s1, sm\)/s);

  // No priorities, no reservations: R per class at three loads, as the CLI's study has them.
  await page.click('#lawson-run');
  await page.waitForFunction(() => document.body.dataset.lawson === 'done', null, { timeout: 60_000 });
  const study = cliLawsonStudy();
  const run = (load, high) => study.loads.find((l) => l.load === load && l.high_priority === high).comparison;
  let table = await lawsonTable(page);
  assert.deepEqual(Object.keys(table).sort(), ['1', '1.25', '1.5']);
  for (const load of [1, 1.25, 1.5]) {
    const c = run(load, 1);
    const row = table[String(load)].all;
    assert.deepEqual(Object.keys(table[String(load)]), ['all'], 'no priority rows with every job high priority');
    assert.equal(Number(row.r), c.r, `load ${load} R`);
    assert.equal(Number(row.s1), c.single.overall, `load ${load} s1`);
    assert.equal(Number(row.sm), c.multi.overall, `load ${load} sm`);
    ['short', 'medium', 'long'].forEach((name, i) => assert.equal(Number(row[`r_${name}`]), c.r_classes[i], `load ${load} ${name}`));
    assert.equal(Number(row.jobs), c.single.class_jobs.reduce((a, b) => a + b, 0));
  }
  // Independently of the comparison code: R from the average slowdowns of two plain runs.
  const plain = cliRun('mq-backfill,sq-backfill').results;
  close(Number(table['1'].all.r), cliRatio(plain), 'R at load 1 from the CLI runs');
  close(Number(table['1.5'].all.r), cliRatio(cliRun('mq-backfill,sq-backfill', ['load=1.5']).results), 'R at load 1.5 from the CLI runs');
  // What the table shows: R signed to three decimals, coloured by who does better.
  const shown = await page.textContent('#lawson-summary tr[data-load="1"] td[data-key="r"]');
  const r1 = run(1, 1).r;
  assert.equal(shown, `${r1 >= 0 ? '+' : '−'}${Math.abs(r1).toFixed(3)}`);
  assert.equal(await page.getAttribute('#lawson-summary tr[data-load="1"] td[data-key="r"]', 'class'), r1 > 0 ? 'better' : 'worse');
  // Fig. 3/5, drawn by the engine: one bar per load in each class group, the study's R exactly.
  const bars = await drawnTable(page, '#chart-lawson-r');
  assert.deepEqual(bars.columns, ['jobs (classes by estimated runtime)', 'load 1', 'load 1.25', 'load 1.5']);
  assert.deepEqual(bars.rows.map((r) => r[0]), ['all', 'short', 'medium', 'long']);
  [1, 1.25, 1.5].forEach((load, i) => assert.deepEqual(bars.rows.map((r) => num(r[i + 1])), [run(load, 1).r, ...run(load, 1).r_classes], `load ${load}`));
  await hoverChart(page, '#chart-lawson-r', `load 1.25, short: ${fmt3(run(1.25, 1).r_classes[0])}`);
  // Fig. 4: one line per load, one point per 1,000 submissions at its first job's submit time.
  const lines = await lawsonTransient(page, ['load 1', 'load 1.25', 'load 1.5']);
  [1, 1.25, 1.5].forEach((load, i) => assert.deepEqual(lines[i], run(load, 1).transient.map((b) => [utc(b.time), b.r]), `load ${load}`));
  assert.equal(lines[0].length, 3, 'the demo\'s 2,999 jobs make three batches');
  // Dates on the transient chart: the batches' submit times after the header's UnixStartTime (UTC).
  const first = run(1, 1).transient[0];
  assert.match(utc(first.time), /^1996-09-30 /);
  await hoverChart(page, '#chart-lawson-transient', `load 1 at ${utc(first.time)}: ${fmt3(first.r)}`);
  // No reservations were asked for: the table says none and Fig. 11 waits.
  assert.equal(await page.getAttribute('#lawson-reservations-table tr[data-load="1"] td[data-key="requested"]', 'data-value'), '0');
  assert.match(await page.textContent('#lawson-reservations-note'), /No job asks for a reservation/);
  assert.match(await noFigure(page, '#chart-lawson-tail'), /No reservations were requested/);
  assert.match(await noFigure(page, '#chart-lawson-priority'), /Every job is high priority/);
  await page.locator('#lawson-section').screenshot({ path: path.join(shots, 'lawson.png') });

  // 75% high priority: rows and bars for high and low priority (Figs. 6-7), equal to the study's.
  await page.selectOption('#lawson-high', '0.75');
  await page.click('#lawson-run');
  await page.waitForFunction(() => document.body.dataset.lawson === 'done' && document.querySelector('#lawson-summary tr[data-priority="low"]'), null, { timeout: 60_000 });
  table = await lawsonTable(page);
  for (const load of [1, 1.25, 1.5]) {
    const c = run(load, 0.75);
    const rows = table[String(load)];
    assert.deepEqual(Object.keys(rows), ['all', 'high', 'low']);
    assert.equal(Number(rows.all.r), c.r);
    for (const [p, key] of [['high', 'high'], ['low', 'low']]) {
      assert.equal(Number(rows[p].r), c[`r_${key}`], `load ${load} R ${p}`);
      assert.equal(Number(rows[p].s1), c.single[key]);
      assert.equal(Number(rows[p].sm), c.multi[key]);
      ['short', 'medium', 'long'].forEach((name, i) => {
        const want = c[`r_classes_${key}`][i];
        if (want === null) assert.equal(rows[p][`r_${name}`], null);
        else assert.equal(Number(rows[p][`r_${name}`]), want, `load ${load} ${p} ${name}`);
      });
    }
  }
  close(Number(table['1'].all.r), cliRatio(cliRun('mq-backfill,sq-backfill', ['high_priority=0.75']).results), 'R with priorities from the CLI runs');
  const prio = await drawnTable(page, '#chart-lawson-priority');
  assert.deepEqual(prio.columns.slice(1), ['load 1 high', 'load 1 low', 'load 1.25 high', 'load 1.25 low', 'load 1.5 high', 'load 1.5 low']);
  assert.deepEqual(prio.rows.map((r) => num(r[1])), [run(1, 0.75).r_high, ...run(1, 0.75).r_classes_high]);
  assert.deepEqual(prio.rows.map((r) => num(r[2])), [run(1, 0.75).r_low, ...run(1, 0.75).r_classes_low]);
  const lowAll = run(1.5, 0.75).r_low;
  await hoverChart(page, '#chart-lawson-priority', `load 1.5 low, all: ${fmt3(lowAll)}`);
  const prioLines = await lawsonTransient(page, ['load 1 high', 'load 1 low', 'load 1.25 high', 'load 1.25 low', 'load 1.5 high', 'load 1.5 low']);
  assert.deepEqual(prioLines[1], run(1, 0.75).transient.filter((b) => b.r_low !== null).map((b) => [utc(b.time), b.r_low]));
  let url = new URL(page.url());
  // A link names the values that are not the defaults.
  assert.deepEqual([url.searchParams.get('mq_loads'), url.searchParams.get('mq_high'), url.searchParams.get('mq_res')], [null, '0.75', null]);

  // Reservations (Table 2, Fig. 11): 5% of the jobs at load 1 with every job high priority, as the study's.
  await page.selectOption('#lawson-high', '1');
  await page.selectOption('#lawson-reservations', '0.05');
  await page.uncheck('#lawson-loads input[value="1.25"]');
  await page.uncheck('#lawson-loads input[value="1.5"]');
  assert.match(await page.textContent('#lawson-count'), /^1 comparison \(load 1\)/);
  await page.click('#lawson-run');
  await page.waitForFunction(() => document.body.dataset.lawson === 'done' && document.querySelector('#chart-lawson-tail').dataset.hash, null, { timeout: 60_000 });
  const res = study.reservations.find((r) => r.fraction === 0.05).comparison;
  const cells = await page.$$eval('#lawson-reservations-table tbody tr', (trs) =>
    trs.map((tr) => Object.fromEntries([...tr.querySelectorAll('td[data-key]')].map((td) => [td.dataset.key, Number(td.dataset.value)]))),
  );
  assert.equal(cells.length, 1);
  assert.ok(cells[0].requested > 0, 'reservations were requested');
  assert.equal(cells[0].requested, res.reservations.requested);
  assert.equal(cells[0].missed_single, res.reservations.missed_single);
  assert.equal(cells[0].missed_multi, res.reservations.missed_multi);
  assert.equal(cells[0].delay_single_s, res.single_metrics.reservation_delay_avg_s);
  assert.equal(cells[0].delay_multi_s, res.multi_metrics.reservation_delay_avg_s);
  const sets = ['reservations=0.05'];
  const withRes = cliRun('mq-backfill,sq-backfill', sets).results;
  assert.equal(cells[0].requested, withRes[0].metrics.reservations_requested);
  assert.equal(cells[0].missed_multi, withRes.find((r) => r.policy === 'mq-backfill').metrics.missed_reservations);
  assert.equal(cells[0].missed_single, withRes.find((r) => r.policy === 'sq-backfill').metrics.missed_reservations);
  const tail = await drawnTable(page, '#chart-lawson-tail');
  assert.equal(tail.rows.length, res.reservations.tail_single.length);
  assert.deepEqual(tail.rows.slice(0, 3).map((r) => r[0]), ['0 s', '60 s', '5 min']);
  assert.deepEqual(tail.columns, ['delay', 'load 1 multiple', 'load 1 single']);
  assert.deepEqual(tail.rows.map((r) => num(r[1])), res.reservations.tail_multi.map((v) => 100 * v));
  assert.deepEqual(tail.rows.map((r) => num(r[2])), res.reservations.tail_single.map((v) => 100 * v));
  assert.ok(res.reservations.tail_single[0] > 0 && res.reservations.tail_single[0] <= 1);
  const single0 = 100 * res.reservations.tail_single[0];
  await hoverChart(page, '#chart-lawson-tail', `load 1 single at delay = 0 s: ${fmt3(single0)}%`);
  assert.match(await page.textContent('#lawson-reservations-note'), /0\.05 of the jobs/);
  await page.locator('#lawson-section').screenshot({ path: path.join(shots, 'lawson-reservations.png') });

  // mq-backfill's own options under Policies apply to both runs, and the panel's queues and seed too (the CLI agrees).
  await page.selectOption('#lawson-reservations', '0');
  await policyOption(page, 'mq-backfill', 'speculate_s', '0');
  await page.fill('#lawson-queues', '2');
  await page.fill('#lawson-thresholds', '3600');
  await page.fill('#lawson-seed', '7');
  await page.click('#lawson-run');
  await page.waitForFunction(() => document.body.dataset.lawson === 'done' && document.querySelector('#lawson-summary td[data-key="r_short"]') && !document.querySelector('#lawson-summary td[data-key="r_medium"]'), null, { timeout: 60_000 });
  const own = cliRun('mq-backfill,sq-backfill', ['speculate_s=0', 'queues=2', 'thresholds=3600', 'seed=7']).results;
  assert.equal(own.find((r) => r.policy === 'mq-backfill').metrics.speculative_runs, 0);
  table = await lawsonTable(page);
  close(Number(table['1'].all.r), cliRatio(own), 'R with speculate_s=0, two queues');
  assert.deepEqual((await drawnTable(page, '#chart-lawson-r')).rows.map((r) => r[0]), ['all', 'short', 'long']);
  assert.match(await page.textContent('#lawson-explain'), /short \(estimate < 3600 s\), long \(estimate >= 3600 s\)/);
  url = new URL(page.url());
  assert.deepEqual(
    ['mq_loads', 'mq_high', 'mq_res', 'mq_queues', 'mq_thresholds', 'mq_seed'].map((k) => url.searchParams.get(k)),
    ['1', null, null, '2', '3600', '7'],
  );

  // Bad input is refused before anything runs.
  await page.fill('#lawson-thresholds', '10000,1000');
  assert.match(await page.textContent('#lawson-count'), /ascending whole seconds/);
  await page.fill('#lawson-thresholds', '3600');
  await page.uncheck('#lawson-loads input[value="1"]');
  assert.match(await page.textContent('#lawson-count'), /tick one or more load factors/);

  // Cancel stops the comparisons in flight and leaves no stale figures.
  await page.fill('#lawson-queues', '3');
  await page.fill('#lawson-thresholds', '1000,10000');
  for (const l of ['1', '1.25', '1.5']) await page.check(`#lawson-loads input[value="${l}"]`);
  await page.evaluate(() => {
    document.querySelector('#lawson-run').click();
    document.querySelector('#lawson-cancel').click();
  });
  await page.waitForFunction(() => document.body.dataset.lawson === 'stopped');
  assert.match(await page.textContent('#lawson-status'), /Cancelled after 0 of 3 comparisons/);
  assert.equal(await page.locator('#lawson-summary tbody tr').count(), 0);
  assert.equal(await page.locator('#chart-lawson-r').count(), 0);
  assert.match(await page.textContent('#lawson-report'), /Run the study to see its tables and charts here/);
  // The pool still works after the cancel.
  await page.click('#lawson-run');
  await page.waitForFunction(() => document.body.dataset.lawson === 'done', null, { timeout: 60_000 });
  assert.equal(await page.locator('#lawson-summary tbody tr').count(), 3);

  // A link restores the panel, and the study runs by itself with the link's settings.
  const reload = await open(browser, `${base}/?policies=easy&mq_loads=1.25,1.5&mq_high=0.95&mq_res=0.25&mq_seed=3&view=studies&study=lawson`);
  await waitForResults(reload, 1);
  assert.deepEqual(await reload.$$eval('#lawson-loads input:checked', (l) => l.map((i) => i.value)), ['1.25', '1.5']);
  assert.equal(await reload.inputValue('#lawson-high'), '0.95');
  assert.equal(await reload.inputValue('#lawson-reservations'), '0.25');
  assert.equal(await reload.inputValue('#lawson-seed'), '3');
  assert.equal(await reload.inputValue('#lawson-queues'), '3');
  await reload.waitForFunction(() => document.body.dataset.lawson === 'done', null, { timeout: 120_000 });
  assert.match(await reload.textContent('#lawson-status'), /at load 1\.25, 1\.5 in .*95% high priority, 0\.25 of the jobs asking for a reservation, seed 3\./);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(reload.errors, []);
  await reload.close();
  await page.close();
});

// ---------------------------------------------------------------- selective preemption (Kettimuthu et al. 2003)

/** `schedlab kettimuthu` on the demo: the comparison, the load study at `loads` (or none) and the findings. */
function cliKettimuthu(loads, sets = []) {
  const args = ['kettimuthu', DEMO, '--format', 'json', '--loads', loads, ...sets.flatMap((s) => ['--set', s])];
  return JSON.parse(execFileSync(path.join(root, 'target', 'release', 'schedlab'), args, { maxBuffer: 1 << 26 }))[0];
}

const KM_ROWS = ['VS', 'S', 'L', 'VL'];
const KM_COLS = ['Seq', 'N', 'W', 'VW'];
const KM_FOUR = [['SN', 0, 0], ['SW', 0, 1], ['LN', 1, 0], ['LW', 1, 1]];

/** The category table: {"VS Seq": {key: {value, text}}}. */
async function kmHeatTable(page) {
  return page.evaluate(() => {
    const out = {};
    for (const tr of document.querySelectorAll('#km-heat-table tbody tr')) {
      const row = {};
      for (const td of tr.querySelectorAll('td[data-key]')) row[td.dataset.key] = { value: Number(td.dataset.value), text: td.textContent };
      out[`${tr.dataset.row} ${tr.dataset.col}`] = row;
    }
    return out;
  });
}

/** Every number of the category table against the CLI's tables of `split` for `avg` and `max`. */
async function checkKmHeat(page, cli, split, avg, max, scale) {
  const table = await kmHeatTable(page);
  assert.equal(Object.keys(table).length, 16);
  let empty = 0;
  KM_ROWS.forEach((row, r) =>
    KM_COLS.forEach((col, c) => {
      const cellOf = table[`${row} ${col}`];
      const ns = cli.comparison.schemes[0][split];
      assert.equal(cellOf.count.value, ns.count[r][c], `${row} ${col} jobs`);
      for (const run of cli.comparison.schemes) {
        const t = run[split];
        for (const [prefix, key] of [['avg', avg], ['max', max]]) {
          const got = cellOf[`${prefix}:${run.scheme.label}`];
          assert.equal(got.value, t[key][r][c], `${split} ${row} ${col} ${prefix} ${run.scheme.label}`);
          assert.equal(got.text, t.count[r][c] ? (t[key][r][c] * scale).toFixed(2) : '-');
          if (!t.count[r][c]) empty++;
        }
      }
    }),
  );
  // The heatmaps are drawn by the engine from the same numbers: a row per category, the jobs (the
  // same under every scheme), then a column per scheme; no value where a category has no jobs.
  const schemes = ['NS', 'SS 1.5', 'SS 2', 'SS 5', 'TSS 2', 'IS'];
  for (const [id, key] of [['#chart-km-avg', avg], ['#chart-km-worst', max]]) {
    const fig = await drawnTable(page, id);
    assert.deepEqual(fig.columns, ['runtime', 'processors', 'jobs', ...schemes]);
    assert.match(fig.title, split === 'all' ? /, all jobs$/ : split === 'well' ? /, well estimated$/ : /, poorly estimated$/);
    KM_ROWS.forEach((row, r) =>
      KM_COLS.forEach((col, c) => {
        const cells = fig.rows[4 * r + c];
        assert.deepEqual(cells.slice(0, 3), [row, col, String(cli.comparison.schemes[0][split].count[r][c])], `${id} ${row} ${col}`);
        cli.comparison.schemes.forEach((run, i) => {
          const t = run[split];
          assert.equal(num(cells[3 + i]), t.count[r][c] ? t[key][r][c] * scale : null, `${id} ${row} ${col} ${run.scheme.label}`);
        });
      }),
    );
  }
  return empty;
}

/** A load curve chart's lines as drawn, by scheme: [[load, value], ...] where it has a value. */
async function kmCurves(page, selector) {
  const fig = await drawnTable(page, selector);
  assert.equal(fig.columns[0], 'load factor');
  const loads = fig.rows.map((r) => Number(r[0]));
  return Object.fromEntries(
    fig.columns.slice(1).map((label, k) => [label, fig.rows.map((r, i) => [loads[i], num(r[k + 1])]).filter((p) => p[1] !== null)]),
  );
}

/** The findings as shown: [{holds, claim, detail}]. */
async function kmFindings(page, selector) {
  return page.$$eval(`${selector} li`, (list) =>
    list.map((li) => ({ holds: li.dataset.holds, verdict: li.querySelector('b').textContent, claim: li.querySelector('.claim').textContent.trim(), detail: li.querySelector('.detail').textContent })),
  );
}

function checkKmFindings(shown, cli) {
  assert.equal(shown.length, cli.length);
  shown.forEach((f, i) => {
    assert.equal(f.holds, String(cli[i].holds));
    assert.equal(f.verdict, cli[i].holds === true ? 'holds' : cli[i].holds === false ? 'CONTRADICTED' : 'n/a');
    assert.equal(f.claim, cli[i].claim);
    assert.equal(f.detail, cli[i].detail);
  });
}

test('selective preemption (Kettimuthu et al.): category heatmaps, findings, distribution and load curves equal the CLI\'s; URL state and Cancel', async () => {
  const page = await open(browser, `${base}/?policies=easy&view=studies&study=kettimuthu`);
  await waitForResults(page, 1);
  // The defaults, and nothing runs until asked.
  assert.equal(await page.textContent('#km-schemes'), 'schemes NS, SS 1.5, SS 2, SS 5, TSS 2, IS');
  assert.match(await page.getAttribute('#km-schemes b:nth-of-type(3)', 'title'), /policy ss, suspension factor SF = 2$/);
  assert.deepEqual(await page.$$eval('#km-loads input', (l) => l.map((i) => i.value)), ['1', '1.1', '1.2', '1.3', '1.4', '1.5', '1.6']);
  assert.deepEqual(await page.$$eval('#km-loads input:checked', (l) => l.map((i) => i.value)), ['1', '1.3']);
  assert.deepEqual(
    [await page.inputValue('#km-split'), await page.inputValue('#km-metric'), await page.inputValue('#km-overhead')],
    ['all', 'bsld', 'off'],
  );
  assert.match(await page.textContent('#km-count'), /^the comparison of 6 schemes and 6 load-study runs \(NS, SS 2, IS at load 1\.0, 1\.3\)$/);
  await page.waitForFunction(() => document.body.dataset.kettimuthu === 'done', null, { timeout: 120_000 });
  assert.ok((await page.locator('#km-heat-table tbody tr').count()) > 0, 'the study ran by itself with its defaults');
  assert.match(await page.textContent('#km-explain'), /max\(1, turnaround \/ max\(runtime, 10 s\)\).*xfactor = \(wait \+ estimate\) \/ estimate/s);
  // The results table has the preemption metrics, with their definitions on hover.
  for (const key of ['suspensions', 'suspended_jobs', 'overhead_proc_h']) {
    assert.ok((await page.getAttribute(`#results th[data-key="${key}"]`, 'title')).length > 10, key);
    assert.equal(await page.getAttribute(`#results tr[data-policy="easy"] td[data-key="${key}"]`, 'data-value'), '0');
  }

  await page.click('#km-run');
  await page.waitForFunction(() => document.body.dataset.kettimuthu === 'done', null, { timeout: 60_000 });
  assert.match(await page.textContent('#km-status'), /^Ran NS, SS 1\.5, SS 2, SS 5, TSS 2, IS and the load study at 1\.0, 1\.3 in [\d.]+ m?s\.$/);
  assert.equal(await page.getAttribute('#km-status', 'role'), 'status');
  // The page passes the default settings: the CLI with no --set gives the same runs.
  const cli = cliKettimuthu('1.0,1.3');
  assert.equal(await checkKmHeat(page, cli, 'all', 'avg_bsld', 'max_bsld', 1), 0, 'every category has jobs');
  checkKmFindings(await kmFindings(page, '#km-findings'), cli.comparison.findings);
  checkKmFindings(await kmFindings(page, '#km-load-findings'), cli.load_findings);
  assert.equal(cli.comparison.findings.length, 7);
  // Per scheme: the overall figures, suspensions and overhead.
  const summary = await tableData(page, '#km-summary');
  assert.equal(summary.length, 6);
  const schemes = await page.$$eval('#km-summary tbody tr', (l) => l.map((tr) => tr.dataset.scheme));
  cli.comparison.schemes.forEach((run, i) => {
    assert.equal(schemes[i], run.scheme.label);
    for (const key of ['avg_bsld', 'max_bsld', 'avg_response_s', 'max_response_s', 'utilization', 'suspensions', 'suspended_jobs', 'overhead_proc_h']) {
      assert.equal(Number(summary[i][key]), run.metrics[key], `${run.scheme.label} ${key}`);
    }
  });
  assert.equal(Number(summary[0].suspensions), 0, 'NS suspends nothing');
  assert.ok(Number(summary[2].suspensions) > 0, 'SS 2 suspends');
  // Table 2.2: the share of the jobs per category, NS's table of all jobs.
  const shares = await tableData(page, '#km-distribution');
  const ns = cli.comparison.schemes[0].all;
  KM_ROWS.forEach((row, r) => KM_COLS.forEach((col, c) => assert.equal(Number(shares[r][col]), ns.share_pct[r][c], `share ${row} ${col}`)));
  assert.ok(Math.abs(Number(shares[4].all) - 100) < 1e-9);
  // The load study: every point and Table 4.1 category.
  const load = await page.$$eval('#km-load-table tbody tr', (trs) =>
    trs.map((tr) => ({ load: tr.dataset.load, scheme: tr.dataset.scheme, ...Object.fromEntries([...tr.querySelectorAll('td[data-key]')].map((td) => [td.dataset.key, Number(td.dataset.value)])) })),
  );
  assert.equal(load.length, cli.loads.length);
  assert.equal(load.length, 6);
  cli.loads.forEach((p, i) => {
    assert.deepEqual([Number(load[i].load), load[i].scheme], [p.load, p.scheme.label]);
    for (const key of ['utilization', 'avg_bsld', 'avg_turnaround_s', 'suspensions']) assert.equal(load[i][key], p[key], `load ${p.load} ${p.scheme.label} ${key}`);
    for (const [name, r, c] of KM_FOUR) assert.equal(load[i][name], p.four.avg_bsld[r][c], `load ${p.load} ${p.scheme.label} ${name}`);
  });
  // The curves, drawn by the engine: one line per scheme, one point per load.
  const of = (label, pick) => cli.loads.filter((p) => p.scheme.label === label).map((p) => [p.load, pick(p)]);
  const util = await kmCurves(page, '#chart-km-util');
  assert.deepEqual(Object.keys(util), ['NS', 'SS 2', 'IS']);
  for (const [label, points] of Object.entries(util)) assert.deepEqual(points, of(label, (p) => p.utilization), `utilization ${label}`);
  for (const [label, points] of Object.entries(await kmCurves(page, '#chart-km-overall'))) assert.deepEqual(points, of(label, (p) => p.avg_bsld));
  for (const [name, r, c] of KM_FOUR) {
    for (const [label, points] of Object.entries(await kmCurves(page, `#chart-km-${name.toLowerCase()}`))) {
      assert.deepEqual(points, of(label, (p) => p.four.avg_bsld[r][c]), `${name} ${label}`);
    }
  }
  const ss2 = cli.loads.find((p) => p.scheme.label === 'SS 2' && p.load === 1.3);
  await hoverChart(page, '#chart-km-overall', `SS 2 at load factor = 1.3: ${fmt3(ss2.avg_bsld)}`);
  // Hover names the scheme, the category, the value and the jobs.
  const nsAll = cli.comparison.schemes[0].all;
  const jobs = nsAll.count[0][0];
  await hoverChart(page, '#chart-km-avg', `NS: VS × Seq: average bounded slowdown ${fmt3(nsAll.avg_bsld[0][0])} over ${grouped(String(jobs))} job${jobs === 1 ? '' : 's'}`);
  const box = await page.locator('#chart-km-avg').boundingBox();
  assert.ok(box.height > 150, 'the heatmap canvas grows to hold its panels');
  assert.equal(new URL(page.url()).searchParams.get('km_loads'), null, 'a link leaves out the defaults');
  await page.locator('#kettimuthu-section').screenshot({ path: path.join(shots, 'kettimuthu.png') });

  // The poorly estimated jobs' turnaround, from the same runs: no rerun, empty cells shown as "-".
  await page.selectOption('#km-split', 'poor');
  await page.selectOption('#km-metric', 'turnaround');
  assert.ok((await checkKmHeat(page, cli, 'poor', 'avg_turnaround_s', 'max_turnaround_s', 1 / 3600)) > 0, 'the poorly estimated jobs leave some category empty');
  const turn = await page.$$eval('#km-load-table tbody tr', (trs) => trs.map((tr) => Number(tr.querySelector('td[data-key="LW"]').dataset.value)));
  assert.deepEqual(turn, cli.loads.map((p) => p.four.avg_turnaround_s[1][1]));
  for (const [label, points] of Object.entries(await kmCurves(page, '#chart-km-lw'))) {
    assert.deepEqual(points, of(label, (p) => p.four.count[1][1] ? p.four.avg_turnaround_s[1][1] * (1 / 3600) : null).filter((x) => x[1] !== null), `LW ${label}`);
  }
  let url = new URL(page.url());
  assert.deepEqual([url.searchParams.get('km_split'), url.searchParams.get('km_metric')], ['poor', 'turnaround']);
  await page.locator('#kettimuthu-section').screenshot({ path: path.join(shots, 'kettimuthu-poor.png') });

  // Overhead on, no load study: the CLI with overhead=on and --loads none agrees; the curves wait.
  await page.selectOption('#km-split', 'well');
  await page.selectOption('#km-overhead', 'on');
  for (const l of ['1', '1.3']) await page.uncheck(`#km-loads input[value="${l}"]`);
  assert.match(await page.textContent('#km-count'), /no load study.*with suspension overhead/);
  await page.click('#km-run');
  await page.waitForFunction(() => document.body.dataset.kettimuthu === 'done', null, { timeout: 60_000 });
  const withOverhead = cliKettimuthu('none', ['overhead=on']);
  await checkKmHeat(page, withOverhead, 'well', 'avg_turnaround_s', 'max_turnaround_s', 1 / 3600);
  const summary2 = await tableData(page, '#km-summary');
  withOverhead.comparison.schemes.forEach((run, i) => assert.equal(Number(summary2[i].overhead_proc_h), run.metrics.overhead_proc_h));
  assert.ok(Number(summary2[2].overhead_proc_h) > 0, 'suspensions cost processor-hours with overhead on');
  checkKmFindings(await kmFindings(page, '#km-findings'), withOverhead.comparison.findings);
  assert.equal(await page.locator('#km-load-table tbody tr').count(), 0);
  assert.equal(await page.locator('#km-load-findings li').count(), 0);
  assert.match(await noFigure(page, '#chart-km-util'), /No load factor was ticked/);
  url = new URL(page.url());
  assert.deepEqual(
    ['km_loads', 'km_split', 'km_metric', 'km_overhead'].map((k) => url.searchParams.get(k)),
    ['', 'well', 'turnaround', 'on'],
  );

  // The preemption options typed for ss under Policies apply to every scheme; sf and mode stay the schemes' own.
  await policyOption(page, 'ss', 'slice_s', '300');
  await policyOption(page, 'ss', 'sf', '9');
  await page.click('#km-run');
  await page.waitForFunction(() => document.body.dataset.kettimuthu === 'done', null, { timeout: 60_000 });
  const own = cliKettimuthu('none', ['overhead=on', 'slice_s=300']);
  assert.notEqual(own.comparison.schemes[5].metrics.avg_bsld, withOverhead.comparison.schemes[5].metrics.avg_bsld, 'the slice changes IS');
  await checkKmHeat(page, own, 'well', 'avg_turnaround_s', 'max_turnaround_s', 1 / 3600);
  const summary3 = await tableData(page, '#km-summary');
  own.comparison.schemes.forEach((run, i) => assert.equal(Number(summary3[i].avg_bsld), run.metrics.avg_bsld, run.scheme.label));
  await page.fill('[data-policy="ss"][data-opt="slice_s"]', '');
  await page.fill('[data-policy="ss"][data-opt="sf"]', '');

  // Cancel stops every task in flight and leaves no stale figures.
  await page.selectOption('#km-overhead', 'off');
  for (const l of ['1', '1.1', '1.2', '1.3', '1.4', '1.5', '1.6']) await page.check(`#km-loads input[value="${l}"]`);
  await page.evaluate(() => {
    document.querySelector('#km-run').click();
    document.querySelector('#km-cancel').click();
  });
  await page.waitForFunction(() => document.body.dataset.kettimuthu === 'stopped');
  assert.match(await page.textContent('#km-status'), /^Cancelled after 0 of 22 tasks\.$/);
  assert.equal(await page.locator('#km-heat-table tbody tr').count(), 0);
  assert.equal(await page.locator('#km-findings li').count(), 0);
  assert.equal(await page.locator('#chart-km-avg').count(), 0);
  assert.match(await page.textContent('#km-report'), /Run the study to see its tables and charts here/);
  assert.equal(await page.evaluate(() => document.querySelector('#busy').textContent), '');
  // The pool still works after the cancel: the whole load study.
  await page.click('#km-run');
  await page.waitForFunction(() => document.body.dataset.kettimuthu === 'done', null, { timeout: 120_000 });
  assert.equal(await page.locator('#km-load-table tbody tr').count(), 21);
  assert.equal(new URL(page.url()).searchParams.get('km_loads'), '1,1.1,1.2,1.3,1.4,1.5,1.6');

  // A link restores the panel without running it (a load factor off the list is added).
  const reload = await open(browser, `${base}/?policies=easy&km_loads=1.1,1.60,1.75&km_split=poor&km_metric=turnaround&km_overhead=on&view=studies&study=kettimuthu`);
  await waitForResults(reload, 1);
  assert.deepEqual(await reload.$$eval('#km-loads input:checked', (l) => l.map((i) => i.value)), ['1.1', '1.6', '1.75']);
  assert.deepEqual(
    [await reload.inputValue('#km-split'), await reload.inputValue('#km-metric'), await reload.inputValue('#km-overhead')],
    ['poor', 'turnaround', 'on'],
  );
  await reload.waitForFunction(() => document.body.dataset.kettimuthu === 'done', null, { timeout: 120_000 });
  // A new trace forgets the runs, and the study runs again on it.
  await page.setInputFiles('#file', { name: 'tiny.swf', mimeType: 'text/plain', buffer: Buffer.from('; MaxProcs: 8\n1 0 -1 100 4 -1 -1 4 100 -1 1 1 1 -1 1 -1 -1 -1\n') });
  await waitForResults(page, 1);
  await page.waitForFunction(() => document.body.dataset.kettimuthu === 'done', null, { timeout: 60_000 });
  assert.ok((await page.locator('#km-summary tbody tr').count()) > 0, 'the study ran on the new trace');
  assert.deepEqual(page.errors, []);
  assert.deepEqual(reload.errors, []);
  await reload.close();
  await page.close();
});

// ---------------------------------------------------------------- fairshare at Sandia (Leung et al. 2010)

/** `schedlab leung` on one trace: the nine policies, the shape of the period and the findings. */
function cliLeung(trace, sets = []) {
  const args = ['leung', trace, '--format', 'json', ...sets.flatMap((s) => ['--set', s])];
  return JSON.parse(execFileSync(path.join(root, 'target', 'release', 'schedlab'), args, { maxBuffer: 1 << 26 })).traces[0].comparison;
}

const LG_POLICIES = ['cplant24.nomax.all', 'cplant72.nomax.all', 'cplant24.nomax.fair', 'cplant24.72max.all', 'cplant72.72max.fair', 'cons.nomax', 'cons.72max', 'consdyn.nomax', 'consdyn.72max'];
const LG_WIDTHS = ['1', '2', '3-4', '5-8', '9-16', '17-32', '33-64', '65-128', '129-256', '257-512', '513+'];
/** The numbers table's columns and how each writes its value. */
const LG_SHOWN = {
  jobs: String,
  submissions: String,
  segmented_jobs: String,
  fst_miss_share: (v) => (100 * v).toFixed(2),
  avg_fst_miss_s: (v) => (v / 3600).toFixed(2),
  avg_response_submitted_s: (v) => (v / 3600).toFixed(2),
  fst_miss_share_jobs: (v) => (100 * v).toFixed(2),
  avg_fst_miss_jobs_s: (v) => (v / 3600).toFixed(2),
  avg_response_s: (v) => (v / 3600).toFixed(2),
  loss_of_capacity: (v) => v.toFixed(4),
  utilization: (v) => v.toFixed(3),
};
/** The views of the table and chart by width: the width row's key, the scale, and what the class must hold to be shown. */
const LG_VIEWS = {
  turnaround: ['avg_response_submitted_s', 1 / 3600, 'submissions'],
  turnaround_jobs: ['avg_response_s', 1 / 3600, 'jobs'],
  miss: ['avg_fst_miss_s', 1 / 3600, 'submissions'],
  missed: ['fst_miss_share', 100, 'submissions'],
};

/** How the chart by width is titled in each view. */
const LG_VIEW_TITLES = {
  turnaround: 'Turnaround per submission by width (Figs. 7, 12)',
  turnaround_jobs: 'Turnaround per job by width (Figs. 7, 12, per job)',
  miss: 'Fair-start miss by width (Figs. 6, 10)',
  missed: 'Missed fair starts by width (Fig. 8 by width)',
};

/** A table's body cells: [{row: data-*, cells: {key: {value, text}}}]. */
async function lgRows(page, selector, attr) {
  return page.$$eval(
    `${selector} tbody tr`,
    (trs, attr) => trs.map((tr) => ({ row: tr.dataset[attr], cells: Object.fromEntries([...tr.querySelectorAll('td[data-key]')].map((td) => [td.dataset.key, { value: td.dataset.value, text: td.textContent }])) })),
    attr,
  );
}

/** Every number the panel shows against the engine's comparison `cmp` (the CLI's). */
async function checkLeung(page, cmp) {
  // The numbers table: every figure of every policy, null written as "–".
  const rows = await lgRows(page, '#lg-table', 'policy');
  assert.deepEqual(rows.map((r) => r.row), LG_POLICIES);
  cmp.policies.forEach((run, i) => {
    assert.equal(run.policy, LG_POLICIES[i]);
    for (const [key, show] of Object.entries(LG_SHOWN)) {
      const v = run.metrics[key];
      assert.equal(rows[i].cells[key].value, String(v), `${run.policy} ${key}`);
      assert.equal(rows[i].cells[key].text, v === null ? '–' : show(v), `${run.policy} ${key} as written`);
    }
  });
  // The claims.
  const findings = await page.$$eval('#lg-findings li', (list) =>
    list.map((li) => ({ holds: li.dataset.holds, verdict: li.querySelector('b').textContent, claim: li.querySelector('.claim').textContent.trim(), detail: li.querySelector('.detail').textContent })),
  );
  assert.equal(findings.length, cmp.findings.length);
  assert.equal(findings.length, 3);
  cmp.findings.forEach((f, i) => {
    assert.equal(findings[i].holds, String(f.holds));
    assert.equal(findings[i].verdict, f.holds === true ? 'holds' : f.holds === false ? 'CONTRADICTED' : 'n/a');
    assert.equal(findings[i].claim, f.claim);
    assert.equal(findings[i].detail, f.detail);
  });
  // Tables I and II as the paper prints them: a row per width class, a column per length class, and the totals.
  for (const [id, grid] of [['#lg-shape-jobs', cmp.shape.count], ['#lg-shape-hours', cmp.shape.value]]) {
    const shape = await lgRows(page, id, 'width');
    assert.deepEqual(shape.map((r) => r.row), [...LG_WIDTHS, 'all']);
    const sum = (list) => list.reduce((a, b) => a + b, 0);
    cmp.shape.cols.forEach((col, c) => {
      cmp.shape.rows.forEach((row, r) => {
        assert.equal(Number(shape[c].cells[row].value), grid[r][c], `${id} ${row} ${col}`);
        assert.equal(shape[c].cells[row].text, id === '#lg-shape-jobs' ? String(grid[r][c]) : grid[r][c].toFixed(0));
      });
      assert.ok(Math.abs(Number(shape[c].cells.all.value) - sum(grid.map((line) => line[c]))) < 1e-6, `${id} ${col} all`);
    });
    assert.ok(Math.abs(Number(shape[11].cells.all.value) - sum(grid.flat())) < 1e-6);
  }
  assert.equal(Number((await lgRows(page, '#lg-shape-jobs', 'width'))[11].cells.all.value), cmp.policies[0].metrics.jobs);
  // The bars of Figs. 8, 9, 11 (per submission or per job, as chosen) and 13, drawn by the engine: one per policy.
  const perJob = (await page.inputValue('#lg-turn')) === 'job';
  for (const [id, what, pick] of [
    ['#chart-lg-missed', 'missed', (m) => 100 * m.fst_miss_share],
    ['#chart-lg-miss', 'average miss', (m) => m.avg_fst_miss_s / 3600],
    ['#chart-lg-turnaround', 'average turnaround', (m) => (perJob ? m.avg_response_s : m.avg_response_submitted_s) / 3600],
    ['#chart-lg-loc', 'loss of capacity', (m) => m.loss_of_capacity],
  ]) {
    const bars = await drawnTable(page, id);
    assert.deepEqual(bars.columns, ['policy', what], id);
    assert.deepEqual(bars.rows.map(([policy, v]) => [policy, num(v)]), cmp.policies.map((r) => [r.policy, pick(r.metrics)]), id);
  }
  assert.match((await drawnTable(page, '#chart-lg-turnaround')).title, perJob ? /per job/ : /per submission/);
  // Every view of the table by width, and the chart of the ticked policies.
  const view = await page.inputValue('#lg-view');
  const ticked = await page.$$eval('#lg-series input:checked', (l) => l.map((i) => i.value));
  for (const v of Object.keys(LG_VIEWS)) {
    await page.selectOption('#lg-view', v);
    const [key, scale, need] = LG_VIEWS[v];
    assert.equal(await page.getAttribute('#lg-width-table', 'data-view'), v);
    const width = await lgRows(page, '#lg-width-table', 'policy');
    assert.deepEqual(width.map((r) => r.row), LG_POLICIES);
    cmp.policies.forEach((run, i) => {
      assert.deepEqual(run.by_width.map((w) => w.width), LG_WIDTHS);
      for (const w of run.by_width) {
        const got = width[i].cells[w.width];
        assert.equal(got.value, String(w[key]), `${v} ${run.policy} ${w.width}`);
        assert.equal(got.text, w[need] && w[key] !== null ? (w[key] * scale).toFixed(2) : '–', `${v} ${run.policy} ${w.width} as written`);
      }
    });
    if (!ticked.length) {
      assert.match(await noFigure(page, '#chart-lg-width'), /Tick one or more policies/);
      continue;
    }
    const chart = await drawnTable(page, '#chart-lg-width');
    assert.ok(chart.title.startsWith(LG_VIEW_TITLES[v]), `${v}: ${chart.title}`);
    assert.deepEqual(chart.columns, ['processors', ...cmp.policies.filter((r) => ticked.includes(r.policy)).map((r) => r.policy)]);
    assert.deepEqual(chart.rows.map((r) => r[0]), LG_WIDTHS);
    cmp.policies
      .filter((r) => ticked.includes(r.policy))
      .forEach((r, k) => assert.deepEqual(chart.rows.map((row) => num(row[k + 1])), r.by_width.map((w) => (w[need] && w[key] !== null ? w[key] * scale : null)), `${v} ${r.policy}`));
  }
  await page.selectOption('#lg-view', view);
}

test('fairshare at Sandia (Leung et al.): the numbers, figures, Tables I-II and claims equal schedlab leung\'s; options, URL state and Cancel', async () => {
  const page = await open(browser, `${base}/?policies=easy,cplant24.nomax.all&view=studies&study=leung`);
  await waitForResults(page, 2);
  // The results table has the fairshare metrics with their definitions; figures not measured read "–".
  const run = cliRun('easy,cplant24.nomax.all');
  for (const key of ['submissions', 'segmented_jobs', 'avg_response_submitted_s', 'fst_miss_share', 'avg_fst_miss_s', 'fst_miss_share_jobs', 'avg_fst_miss_jobs_s']) {
    assert.ok((await page.getAttribute(`#results th[data-key="${key}"]`, 'title')).length > 30, key);
    for (const r of run.results) {
      const td = `#results tr[data-policy="${r.policy}"] td[data-key="${key}"]`;
      assert.equal(await page.getAttribute(td, 'data-value'), String(r.metrics[key]), `${r.policy} ${key}`);
      if (r.metrics[key] === null) assert.equal(await page.textContent(td), '–');
      else assert.match(await page.textContent(td), /^[\d.,]+( s| min| h| d|%)?$/);
    }
  }
  assert.equal(run.results[0].metrics.fst_miss_share, null, 'fair starts are measured for the fairshare policies only');
  assert.ok(run.results[1].metrics.fst_miss_share > 0);
  assert.equal(await page.textContent('#results tr[data-policy="easy"] td[data-key="fst_miss_share"]'), '–');

  // The defaults, and nothing runs until asked.
  assert.deepEqual(
    [await page.inputValue('#lg-from'), await page.inputValue('#lg-to'), await page.inputValue('#lg-decay'), await page.inputValue('#lg-heavy')],
    ['', '', '0.5', '0.1'],
  );
  assert.deepEqual([await page.inputValue('#lg-view'), await page.inputValue('#lg-turn')], ['turnaround', 'submission']);
  assert.deepEqual(await page.$$eval('#lg-series input', (l) => l.map((i) => i.value)), LG_POLICIES);
  assert.deepEqual(await page.$$eval('#lg-series input:checked', (l) => l.map((i) => i.value)), ['cplant24.nomax.all', 'cplant24.72max.all', 'cons.72max', 'consdyn.72max']);
  assert.equal(await page.textContent('#lg-count'), '9 policies on the whole trace, decay 0.5, heavy_share 0.1');
  assert.equal(await page.textContent('#lg-span'), '(this trace: 1996-09-30 to 1996-11-11)');
  await page.waitForFunction(() => document.body.dataset.leung === 'done', null, { timeout: 120_000 });
  assert.ok((await page.locator('#lg-table tbody tr').count()) > 0, 'the study ran by itself with its defaults');
  assert.match(await page.textContent('#lg-count-note'), /Per submission, as the paper counts: under a 72 h limit each segment of a long job is a job of its own.*Per job: the original job, from its first submission to its last segment’s end/s);

  await page.click('#lg-run');
  await page.waitForFunction(() => document.body.dataset.leung === 'done', null, { timeout: 60_000 });
  assert.match(await page.textContent('#lg-status'), /^Ran 9 policies on 2999 jobs in (\d+ ms|[\d.]+ s)\.$/);
  const cmp = cliLeung(DEMO);
  await checkLeung(page, cmp);
  // The demo has no job over 72 h: per submission and per job agree, and the 72 h limit changes nothing.
  for (const r of cmp.policies) {
    assert.equal(r.metrics.segmented_jobs, 0);
    assert.equal(r.metrics.avg_response_submitted_s, r.metrics.avg_response_s);
  }
  let url = new URL(page.url());
  assert.deepEqual([...url.searchParams.keys()].filter((k) => k.startsWith('lg_')), [], 'the defaults stay out of the link');
  // Hover names the policy, the figure and its value.
  await hoverChart(page, '#chart-lg-loc', `cplant24.nomax.all: loss of capacity ${fmt3(cmp.policies[0].metrics.loss_of_capacity)}`);
  const cons = cmp.policies.find((r) => r.policy === 'cons.72max').metrics;
  await hoverChart(page, '#chart-lg-missed', `cons.72max: missed ${fmt3(100 * cons.fst_miss_share)}%`);
  await page.locator('#leung-section').screenshot({ path: path.join(shots, 'leung.png') });

  // The views follow the selects from the same runs, and live in the URL.
  await page.selectOption('#lg-view', 'miss');
  await page.selectOption('#lg-turn', 'job');
  await page.uncheck('#lg-series input[value="consdyn.72max"]');
  await page.check('#lg-series input[value="cons.nomax"]');
  await checkLeung(page, cmp);
  url = new URL(page.url());
  assert.deepEqual(
    ['lg_view', 'lg_turn', 'lg_series'].map((k) => url.searchParams.get(k)),
    ['miss', 'job', 'cplant24.nomax.all,cplant24.72max.all,cons.nomax,cons.72max'],
  );
  assert.match(await page.textContent('#lg-width-note'), /^Average fair-start miss in hours by the processors a job asks for; each 72 h segment counted as a job/);

  // A period, decay and heavy share: the CLI with the same settings agrees, and they differ from the defaults.
  await page.fill('#lg-from', '1996-10-01');
  await page.fill('#lg-to', '1996-10-31');
  await page.fill('#lg-decay', '0.9');
  await page.fill('#lg-heavy', '0.2');
  assert.equal(await page.textContent('#lg-count'), '9 policies on the jobs submitted from 1996-10-01 to 1996-10-31, decay 0.9, heavy_share 0.2');
  await page.click('#lg-run');
  await page.waitForFunction(() => document.body.dataset.leung === 'done', null, { timeout: 60_000 });
  assert.match(await page.textContent('#lg-status'), /^Ran 9 policies on 2406 jobs submitted 1996-10-01 to 1996-10-31 in (\d+ ms|[\d.]+ s)\.$/);
  const period = cliLeung(DEMO, ['from=1996-10-01', 'to=1996-10-31', 'decay=0.9', 'heavy_share=0.2']);
  assert.equal(period.policies[0].metrics.jobs, 2406);
  assert.notEqual(period.policies[2].metrics.fst_miss_share, cliLeung(DEMO, ['from=1996-10-01', 'to=1996-10-31']).policies[2].metrics.fst_miss_share, 'heavy_share and decay change cplant24.nomax.fair');
  await checkLeung(page, period);
  url = new URL(page.url());
  assert.deepEqual(['lg_from', 'lg_to', 'lg_decay', 'lg_heavy'].map((k) => url.searchParams.get(k)), ['1996-10-01', '1996-10-31', '0.9', '0.2']);
  // The panel's own options win over the same keys among the shared settings.
  await choosePolicies(page);
  await page.click('#policies > details > summary');
  await page.fill('[data-setting="to"]', '1996-10-15');
  await page.click('#lg-run');
  await page.waitForFunction(() => document.body.dataset.leung === 'done', null, { timeout: 60_000 });
  await checkLeung(page, period);
  await page.fill('[data-setting="to"]', '');

  // Bad options are refused before anything runs.
  await page.fill('#lg-decay', '1.5');
  assert.equal(await page.textContent('#lg-count'), 'decay must be a number above 0 and at most 1, not "1.5"');
  await page.click('#lg-run');
  assert.equal(await page.textContent('#lg-status'), 'Not run: decay must be a number above 0 and at most 1, not "1.5".');
  assert.equal(await page.locator('#lg-table tbody tr').count(), 9, 'the last runs stay');
  await page.fill('#lg-decay', '0.9');
  await page.fill('#lg-to', '1996-09-01');
  assert.equal(await page.textContent('#lg-count'), 'the period ends (1996-09-01) before it begins (1996-10-01)');
  // A period with no jobs is the engine's to refuse: every task stops with its message.
  await page.fill('#lg-from', '1997-01-01');
  await page.fill('#lg-to', '1997-01-31');
  await page.click('#lg-run');
  await page.waitForFunction(() => document.body.dataset.leung === 'stopped', null, { timeout: 60_000 });
  assert.match(await page.textContent('#lg-status'), /^Stopped: .+/);
  assert.equal(await page.getAttribute('#lg-status', 'class'), 'error');
  assert.equal(await page.locator('#lg-table tbody tr').count(), 0);

  // Cancel stops every task in flight and leaves no stale figures.
  await page.click('#lg-whole');
  assert.deepEqual([await page.inputValue('#lg-from'), await page.inputValue('#lg-to')], ['', '']);
  await page.evaluate(() => {
    document.querySelector('#lg-run').click();
    document.querySelector('#lg-cancel').click();
  });
  await page.waitForFunction(() => document.body.dataset.leung === 'stopped');
  assert.equal(await page.textContent('#lg-status'), 'Cancelled after 0 of 10 tasks.');
  assert.equal(await page.locator('#lg-table tbody tr').count(), 0);
  assert.equal(await page.locator('#lg-findings li').count(), 0);
  for (const id of ['missed', 'miss', 'turnaround', 'loc', 'width']) assert.equal(await page.locator(`#chart-lg-${id}`).count(), 0, id);
  assert.match(await page.textContent('#lg-report'), /Run the study to see its tables and charts here/);
  assert.equal(await page.evaluate(() => document.querySelector('#busy').textContent), '');
  // The pool still works after the cancel.
  await page.click('#lg-run');
  await page.waitForFunction(() => document.body.dataset.leung === 'done', null, { timeout: 60_000 });
  await checkLeung(page, cliLeung(DEMO, ['decay=0.9', 'heavy_share=0.2']));

  // A link restores the panel, and the study runs by itself with the link's settings.
  const reload = await open(browser, `${base}/?policies=easy&lg_from=1996-10-01&lg_to=1996-10-31&lg_decay=0.9&lg_heavy=0.2&lg_view=missed&lg_turn=job&lg_series=cons.nomax,consdyn.nomax&view=studies&study=leung`);
  await waitForResults(reload, 1);
  assert.deepEqual(
    [await reload.inputValue('#lg-from'), await reload.inputValue('#lg-to'), await reload.inputValue('#lg-decay'), await reload.inputValue('#lg-heavy')],
    ['1996-10-01', '1996-10-31', '0.9', '0.2'],
  );
  assert.deepEqual([await reload.inputValue('#lg-view'), await reload.inputValue('#lg-turn')], ['missed', 'job']);
  assert.deepEqual(await reload.$$eval('#lg-series input:checked', (l) => l.map((i) => i.value)), ['cons.nomax', 'consdyn.nomax']);
  await reload.waitForFunction(() => document.body.dataset.leung === 'done', null, { timeout: 60_000 });
  await checkLeung(reload, period);
  assert.deepEqual(
    ['lg_from', 'lg_to', 'lg_decay', 'lg_heavy', 'lg_view', 'lg_turn', 'lg_series'].map((k) => new URL(reload.url()).searchParams.get(k)),
    ['1996-10-01', '1996-10-31', '0.9', '0.2', 'missed', 'job', 'cons.nomax,consdyn.nomax'],
  );
  // A new trace forgets the runs, and the study runs again on it.
  await page.setInputFiles('#file', { name: 'tiny.swf', mimeType: 'text/plain', buffer: Buffer.from('; MaxProcs: 8\n1 0 -1 100 4 -1 -1 4 100 -1 1 1 1 -1 1 -1 -1 -1\n') });
  await waitForResults(page, 2);
  await page.waitForFunction(() => document.body.dataset.leung === 'done', null, { timeout: 60_000 });
  assert.equal(await page.textContent('#lg-span'), '');
  assert.deepEqual(page.errors, []);
  assert.deepEqual(reload.errors, []);
  await reload.close();
  await page.close();
});

test('fairshare at Sandia on Sandia-Ross in the paper\'s period: 72 h segments count as submissions, and per job differs from per submission', async () => {
  const trace = path.join(shared, 'traces', 'Sandia-Ross-2001-1.1-cln.swf.gz');
  const page = await open(browser, `${base}/?policies=easy&view=studies&study=leung`);
  await waitForResults(page, 1);
  await page.setInputFiles('#file', trace);
  await page.waitForFunction(() => document.querySelector('#trace-report')?.textContent.includes('Sandia-Ross'));
  await waitForResults(page, 1);
  await page.click('#lg-paper');
  assert.deepEqual([await page.inputValue('#lg-from'), await page.inputValue('#lg-to')], ['2002-12-01', '2003-07-14']);
  await page.click('#lg-run');
  await page.waitForFunction(() => document.body.dataset.leung === 'done', null, { timeout: 120_000 });
  const cmp = cliLeung(trace, ['from=2002-12-01', 'to=2003-07-14']);
  await checkLeung(page, cmp);
  const seg = cmp.policies.find((r) => r.policy === 'cons.72max').metrics;
  assert.ok(seg.segmented_jobs > 0 && seg.submissions > seg.jobs, 'the 72 h limit splits long jobs');
  assert.notEqual(seg.avg_response_submitted_s, seg.avg_response_s);
  assert.equal(cmp.policies.find((r) => r.policy === 'cons.nomax').metrics.segmented_jobs, 0);
  // Fig. 11 per job, and the view by width per job.
  await page.selectOption('#lg-turn', 'job');
  await page.selectOption('#lg-view', 'turnaround_jobs');
  await checkLeung(page, cmp);
  await page.locator('#leung-section').screenshot({ path: path.join(shots, 'leung-ross.png') });
  assert.deepEqual(page.errors, []);
  await page.close();
});
