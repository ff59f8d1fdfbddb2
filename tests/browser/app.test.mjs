// The page in headless Chromium: demo, real traces, charts, errors, network isolation.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, launch, open, waitForResults, tableValues, foreignRequests, dist, shared, shots, root } from './harness.mjs';

let server;
let base;
let browser;
const POLICIES = 7;

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
  await waitForResults(page, POLICIES);
  const values = await tableValues(page);
  assert.equal(Object.keys(values).length, POLICIES);
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

test('the canvas charts are drawn', async () => {
  const page = await open(browser, `${base}/`);
  await waitForResults(page, POLICIES);
  await page.waitForFunction(() => document.querySelector('#gantt').dataset.view);
  const inked = await page.evaluate(() =>
    [...document.querySelectorAll('canvas')].map((c) => {
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i] < 200 || d[i + 1] < 200 || d[i + 2] < 200) n++;
      return [c.id, n / (d.length / 4)];
    }),
  );
  assert.equal(inked.length, 8);
  for (const [id, share] of inked) assert.ok(share > 0.01, `${id} is blank (${share})`);
  // Hover shows the value under the pointer.
  const box = await page.locator('#chart-bars').boundingBox();
  await page.locator('#chart-bars').hover({ position: { x: 64 + (box.width - 80) / 14, y: box.height - 60 } });
  await page.waitForFunction(() => !document.querySelector('#tip').hidden);
  assert.match(await page.textContent('#tip'), /^\w[\w-]*: [\d.]+/);
  await page.locator('#chart-categories').hover({ position: { x: 120, y: 70 } });
  await page.waitForFunction(() => /processors: \d+ jobs/.test(document.querySelector('#tip').textContent));
  await page.screenshot({ path: path.join(shots, 'charts.png'), fullPage: true });
  await page.close();
});

test('a real gzip trace loaded by the file input gives the CLI figures and schedules', async () => {
  const trace = path.join(shared, 'traces', 'SDSC-SP2-1998-4.2-cln.swf.gz');
  const page = await open(browser, `${base}/`);
  await waitForResults(page, POLICIES);
  await page.setInputFiles('#file', trace);
  await page.waitForFunction(() => document.querySelector('#trace-report')?.textContent.includes('SDSC-SP2'));
  await waitForResults(page, POLICIES);
  const web = await tableValues(page);
  const cli = JSON.parse(
    execFileSync(path.join(root, 'target', 'release', 'schedlab'), ['run', trace, '--policy', 'all', '--format', 'json'], {
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
  const page = await open(browser, `${base}/`);
  await waitForResults(page, POLICIES);
  const good = '1 0 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1\n';
  const text = `; MaxProcs: 4\n${good}1 0 -1 ten 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1\n<img src=x onerror=alert(1)>\n${good}`;
  await page.setInputFiles('#file', { name: 'bad.swf', mimeType: 'text/plain', buffer: Buffer.from(text) });
  await page.waitForFunction(() => document.querySelector('ul.errors'));
  const report = await page.textContent('#trace-report');
  assert.match(report, /line 3, field run_time: not a number/);
  assert.match(report, /line 4: expected 18 fields, found 3/);
  assert.equal(await page.locator('#trace-report img').count(), 0, 'trace text became markup');
  await waitForResults(page, POLICIES);
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
  const page = await open(browser, `file://${path.join(dist, 'schedlab.html')}`);
  await waitForResults(page, POLICIES);
  const web = await tableValues(page);
  const demo = path.join(dist, 'www', 'demo', 'KTH-SP2-1996-2.1-cln.excerpt.swf');
  const cli = JSON.parse(
    execFileSync(path.join(root, 'target', 'release', 'schedlab'), ['run', demo, '--policy', 'all', '--format', 'json']),
  );
  for (const r of cli.results) assert.equal(web[r.policy].hash, r.schedule_hash, r.policy);
  const trace = path.join(shared, 'traces', 'KTH-SP2-1996-2.1-cln.swf.gz');
  await page.setInputFiles('#file', trace);
  await page.waitForFunction(() => document.querySelector('#trace-report')?.textContent.includes('28467'));
  await waitForResults(page, POLICIES);
  assert.deepEqual(
    page.requests.filter((u) => !u.startsWith('file://') && !/^(data|blob):/.test(u)),
    [],
  );
  assert.deepEqual(page.errors, []);
  await page.screenshot({ path: path.join(shots, 'single-file.png'), fullPage: true });
  await page.close();
});

test('exports: a policy schedule as CSV equals the CLI, charts as PNG, results as CSV and JSON', async () => {
  const page = await open(browser, `${base}/`);
  await waitForResults(page, POLICIES);
  const save = async (click) => {
    const [dl] = await Promise.all([page.waitForEvent('download'), click()]);
    return fs.readFileSync(await dl.path());
  };
  const csv = await save(() => page.click('#results tr[data-policy="easy"] button'));
  const demo = path.join(dist, 'www', 'demo', 'KTH-SP2-1996-2.1-cln.excerpt.swf');
  const out = path.join(shots, 'easy-schedule.csv');
  execFileSync(path.join(root, 'target', 'release', 'schedlab'), ['run', demo, '--policy', 'easy', '--schedule-out', out]);
  assert.equal(csv.toString(), fs.readFileSync(out, 'utf8'));
  const png = await save(() => page.click('#png-buttons button'));
  assert.deepEqual([...png.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
  const results = (await save(() => page.click('#export-csv'))).toString().trim().split('\n');
  assert.equal(results.length, 1 + POLICIES);
  const json = JSON.parse(await save(() => page.click('#export-json')));
  assert.equal(json.results.length, POLICIES);
  await page.close();
});

test('a long run shows progress, keeps the page responsive, and Cancel stops it', async () => {
  const page = await open(browser, `${base}/`);
  await waitForResults(page, POLICIES);
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
  await waitForResults(page, POLICIES, 180_000);
  await page.close();
});

test('the Gantt chart of a 200,000-job schedule zooms, pans and names the job under the pointer', async () => {
  const page = await open(browser, `${base}/?policies=easy`);
  await waitForResults(page, 1);
  await page.setInputFiles('#file', path.join(shared, 'traces', 'HPC2N-2002-2.2-cln.swf.gz'));
  await page.waitForFunction(() => document.querySelector('#trace-report')?.textContent.includes('202871'));
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
