// The app's views in headless Chromium: each renders its charts (drawn by the engine on the
// page), keeps its place in the URL, embeds alone, fits a phone, and answers to the keyboard.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { DEFAULTS, serve, launch, open, waitForResults, dist, shots, root, showView } from './harness.mjs';

let server;
let base;
let browser;

before(async () => {
  ({ server, base } = await serve(dist, '/docs/schedlab'));
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.close();
});

const DEMO = path.join(dist, 'www', 'demo', 'KTH-SP2-1996-2.1-cln.excerpt.swf');
const CLI = path.join(root, 'target', 'release', 'schedlab');

/** Which canvases each view draws. */
const CANVASES = {
  compare: ['chart-avg_wait_s', 'chart-avg_bsld', 'chart-p95_wait_s', 'chart-utilization'],
  timeline: ['gantt', 'chart-busy', 'chart-queue'],
  jobs: ['chart-cdf', 'chart-categories', 'chart-accuracy'],
  trace: ['chart-shape-jobs', 'chart-shape-hours'],
};

/** Share of a canvas's pixels that are not near-white. */
async function ink(page, id) {
  return page.evaluate((id) => {
    const c = document.getElementById(id);
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] < 200 || d[i + 1] < 200 || d[i + 2] < 200) n++;
    return n / (d.length / 4);
  }, id);
}

/** Waits until every canvas of `view` has been drawn by the engine (it carries its display list's hash). */
async function drawn(page, view) {
  await page.waitForFunction(
    (ids) => ids.every((id) => document.getElementById(id)?.dataset.hash),
    CANVASES[view],
    { timeout: 60_000 },
  );
  if (view === 'timeline') await page.waitForFunction(() => document.querySelector('#gantt').dataset.view, null, { timeout: 60_000 });
}

/** Whether the page scrolls sideways. */
const overflows = (page) => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1);

test('each view renders, its canvases are not blank, and the URL keeps it', async () => {
  for (const [w, h, tag] of [[1400, 900, 'wide'], [390, 844, 'phone']]) {
    const page = await browser.newPage({ viewport: { width: w, height: h } });
    page.errors = [];
    page.on('pageerror', (e) => page.errors.push(String(e)));
    await page.goto(`${base}/`);
    await waitForResults(page, DEFAULTS);
    for (const view of ['compare', 'timeline', 'jobs', 'trace', 'studies']) {
      if (view !== 'compare') await showView(page, view);
      assert.equal(new URL(page.url()).searchParams.get('view'), view === 'compare' ? null : view);
      assert.equal(await page.getAttribute(`#views a[data-view="${view}"]`, 'aria-current'), 'page');
      if (CANVASES[view]) {
        await drawn(page, view);
        for (const id of CANVASES[view]) assert.ok((await ink(page, id)) > 0.01, `${view}: ${id} is blank at ${w} px`);
      }
      assert.equal(await overflows(page), false, `${view} scrolls sideways at ${w} px`);
      await page.screenshot({ path: path.join(shots, `view-${view}-${tag}.png`), fullPage: view !== 'compare' || tag === 'phone' });
    }
    // Back goes to the view before.
    await page.goBack();
    await page.waitForFunction(() => document.body.dataset.view === 'trace');
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

test('a link to each view opens that view, and the page fits a 360 px phone', async () => {
  for (const view of ['compare', 'timeline', 'jobs', 'trace', 'studies']) {
    const page = await browser.newPage({ viewport: { width: 360, height: 740 } });
    await page.goto(`${base}/?view=${view}&policies=easy,conservative${view === 'studies' ? '&study=kettimuthu' : ''}`);
    await waitForResults(page, 2);
    assert.equal(await page.evaluate(() => document.body.dataset.view), view);
    assert.equal(await page.getAttribute(`#views a[data-view="${view}"]`, 'aria-current'), 'page');
    for (const v of ['compare', 'timeline', 'jobs', 'trace', 'studies']) assert.equal(await page.isVisible(`#view-${v}`), v === view);
    if (view === 'studies') assert.ok(await page.isVisible('#kettimuthu-section') && (await page.isHidden('#lawson-section')));
    if (CANVASES[view]) await drawn(page, view);
    assert.equal(await overflows(page), false, `${view} scrolls sideways at 360 px`);
    // The link the page keeps reproduces it.
    const again = await browser.newPage({ viewport: { width: 360, height: 740 } });
    await again.goto(page.url());
    await waitForResults(again, 2);
    assert.equal(await again.evaluate(() => document.body.dataset.view), view);
    await again.close();
    await page.close();
  }
});

test('the answer comes first, then the leaderboard; the chosen policies keep one colour each', async () => {
  const page = await open(browser, `${base}/`);
  await waitForResults(page, DEFAULTS);
  const lead = await page.textContent('#answer .lead');
  assert.match(lead, /^On this trace, .+ (cuts mean bounded slowdown by [\d.]+% against EASY|gives the lowest mean bounded slowdown)/);
  assert.equal(await page.locator('#leaderboard tbody tr').count(), DEFAULTS);
  // The leaderboard is ordered by mean bounded slowdown, lowest first, as the table's figures say.
  const board = await page.$$eval('#leaderboard tbody tr', (rows) => rows.map((r) => r.dataset.policy));
  const bsld = await page.$$eval('#results tbody tr', (rows) =>
    Object.fromEntries(rows.map((r) => [r.dataset.policy, Number(r.querySelector('td[data-key="avg_bsld"]').dataset.value)])),
  );
  assert.deepEqual(board, [...board].sort((a, b) => bsld[a] - bsld[b]));
  // The lead names the best policy that is neither a bound nor starving jobs.
  const flagged = await page.$$eval('#leaderboard tbody tr', (rows) => rows.filter((r) => r.querySelector('.tag')).map((r) => r.dataset.policy));
  const best = board.find((p) => !flagged.includes(p));
  assert.ok(lead.toLowerCase().includes(best), `the lead names the best policy ${best}: ${lead}`);
  // Chips, leaderboard swatches: one colour per policy, all different.
  const colours = await page.$$eval('#chosen .chip i', (l) => l.map((i) => i.style.background));
  assert.equal(new Set(colours).size, DEFAULTS);
  // Hovering a bar names its policy and value.
  const c = page.locator('#chart-avg_bsld');
  const box = await c.boundingBox();
  let said = '';
  for (let y = 30; y < box.height - 20 && !said; y += 6) {
    await c.hover({ position: { x: box.width * 0.45, y } });
    said = await page.evaluate(() => (document.querySelector('#tip').hidden ? '' : document.querySelector('#tip').textContent));
  }
  assert.match(said, /^(fcfs|easy|conservative|easy\+\+|relaxed|mq-backfill|ss|cplant24\.nomax\.all)\b.*\d/);
  // Each chart's numbers are one click away.
  await page.locator('.figure:has(#chart-avg_bsld) .tools button:text("Table")').click();
  assert.equal(await page.locator('.figure:has(#chart-avg_bsld) table.numbers tbody tr').count(), DEFAULTS);
  await page.close();
});

test('a chart painted in the page and the same chart written by the command line are the same picture', async () => {
  const page = await open(browser, `${base}/?policies=fcfs,easy,conservative`);
  await waitForResults(page, 3);
  const size = await page.$eval('#chart-avg_bsld', (c) => [c.clientWidth, c.clientHeight]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-plot-'));
  execFileSync(CLI, ['run', DEMO, '--policy', 'fcfs,easy,conservative', '--plot', dir, '--plot-size', `${size[0]}x${size[1]}`], { stdio: 'pipe' });
  const save = async (click) => {
    const [dl] = await Promise.all([page.waitForEvent('download'), click()]);
    return fs.readFileSync(await dl.path(), 'utf8');
  };
  for (const m of ['avg_bsld', 'avg_wait_s']) {
    const svg = await save(() => page.locator(`.figure:has(#chart-${m}) .tools button:text("SVG")`).click());
    assert.equal(svg, fs.readFileSync(path.join(dir, `compare-${m}.svg`), 'utf8'), `${m}: the page's SVG differs from the CLI's`);
  }
  const hashes = JSON.parse(fs.readFileSync(path.join(dir, 'hashes.json'), 'utf8'));
  assert.equal(await page.getAttribute('#chart-avg_bsld', 'data-hash'), hashes['compare-avg_bsld']);
  await page.close();
});

test('each view embeds alone at 400 px, and an embedded Timeline shows two policies side by side', async () => {
  for (const view of ['compare', 'timeline', 'jobs', 'trace', 'studies']) {
    const page = await browser.newPage({ viewport: { width: 400, height: 700 } });
    await page.goto(`${base}/?embed&view=${view}&policies=easy,fcfs`);
    await waitForResults(page, 2);
    assert.ok(await page.isHidden('#views'), 'the view tabs are hidden when embedded');
    assert.ok(await page.isHidden('#top h1'), 'the page\'s own header is hidden when embedded');
    assert.match(await page.textContent('#trace-name'), /KTH-SP2/, 'the trace is named');
    for (const v of ['compare', 'timeline', 'jobs', 'trace', 'studies']) assert.equal(await page.isVisible(`#view-${v}`), v === view, `${view}: ${v}`);
    if (CANVASES[view]) await drawn(page, view);
    if (view === 'timeline') {
      await page.waitForFunction(() => document.querySelector('#gantt-b').dataset.view, null, { timeout: 30_000 });
      assert.deepEqual(await page.$$eval('#gantts canvas', (l) => l.map((c) => c.dataset.policy)), ['easy', 'fcfs']);
    }
    assert.equal(await overflows(page), false, `embedded ${view} scrolls sideways`);
    await page.screenshot({ path: path.join(shots, `embed-${view}.png`), fullPage: true });
    await page.close();
  }
});

test('the main controls are reachable by keyboard and labelled', async () => {
  const page = await open(browser, `${base}/?policies=easy,fcfs`);
  await waitForResults(page, 2);
  const reached = new Set();
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    const id = await page.evaluate(() => {
      const el = document.activeElement;
      return el.id || el.dataset.view || el.getAttribute('for') || el.textContent.trim().slice(0, 20);
    });
    reached.add(id);
  }
  for (const want of ['home', 'file', 'demo', 'compare', 'timeline', 'jobs', 'trace', 'studies', 'choose', 'run-selected', 'run-all', 'cancel']) {
    assert.ok(reached.has(want), `${want} is not reachable by Tab (reached: ${[...reached].join(', ')})`);
  }
  // Enter on a tab switches the view.
  await page.focus('#views a[data-view="timeline"]');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.body.dataset.view === 'timeline');
  // The Gantt chart zooms from the keyboard.
  await drawn(page, 'timeline');
  const before = await page.getAttribute('#gantt', 'data-view');
  await page.focus('#gantt');
  await page.keyboard.press('+');
  await page.waitForFunction((v) => document.querySelector('#gantt').dataset.view !== v, before);
  // Every button, select and input has an accessible name.
  const unnamed = await page.evaluate(() =>
    [...document.querySelectorAll('button, select, input, canvas')]
      .filter((el) => el.offsetParent !== null)
      .filter((el) => !(el.getAttribute('aria-label') || el.labels?.length || el.textContent.trim() || el.title))
      .map((el) => el.id || el.outerHTML.slice(0, 60)),
  );
  assert.deepEqual(unnamed, []);
  await page.close();
});

/**
 * A machine of 10 processors fed a stream of 5-processor jobs of 100 s every 60 s for two days,
 * and one 10-processor job submitted at 30 s: first fit (fffs, no reservation) never finds 10
 * free processors until the stream ends, so that job waits about two days; EASY reserves them
 * and starts it within 100 s. Job 2 and every 20th job have no estimate.
 */
function starvingTrace() {
  let text = '; MaxProcs: 10\n';
  const job = (id, submit, run, procs, est) => `${id} ${submit} -1 ${run} ${procs} -1 -1 ${procs} ${est} -1 1 ${1 + (id % 7)} 1 -1 1 -1 -1 -1\n`;
  text += job(1, 0, 100, 5, 100);
  text += job(2, 30, 600, 10, -1);
  for (let i = 1; i < 2880; i++) text += job(i + 2, 60 * i, 100, 5, i % 20 === 0 ? -1 : 100);
  return text;
}

test('a policy that starves a job is named in the answer, a clairvoyant one never headlines, the leaderboard shows the longest wait', async () => {
  const page = await open(browser, `${base}/?policies=easy,fffs,conservative,sjf-perf`);
  await waitForResults(page, 4);
  await page.setInputFiles('#file', { name: 'stream.swf', mimeType: 'text/plain', buffer: Buffer.from(starvingTrace()) });
  await page.waitForFunction(() => document.querySelector('#trace-name').textContent === 'stream.swf');
  await waitForResults(page, 4);
  const warnings = await page.$$eval('#answer .warning', (l) => l.map((p) => p.textContent));
  // 144 of the 2,881 jobs (5.0%) have no estimate: kept, and said first.
  assert.ok(warnings.some((w) => /^5\.0% of this trace's job lines \(144\) were altered: 144 without an estimate/.test(w)), warnings.join('\n'));
  const starving = warnings.find((w) => /^First fit \(fffs\)/.test(w));
  assert.ok(starving, warnings.join('\n'));
  assert.match(starving, /starves jobs: its longest wait is [\d.]+ d, where the policies compared typically keep it to/);
  const lead = await page.textContent('#answer .lead');
  assert.match(lead, /^On this trace, EASY gives the lowest mean bounded slowdown of the 2 policies that neither starve jobs nor know the true runtimes/);
  assert.doesNotMatch(lead, /sjf-perf|fffs/);
  const more = await page.$$eval('#answer .more', (l) => l.map((p) => p.textContent).join('\n'));
  assert.match(more, /SJF by true runtimes \(sjf-perf\) knows every job's true runtime/);
  // The leaderboard: the longest wait beside the mean, the starving row and the bound marked.
  const head = await page.$$eval('#leaderboard thead th', (l) => l.map((th) => th.textContent));
  assert.deepEqual(head.slice(2, 5), ['mean bounded slowdown', 'mean wait', 'longest wait']);
  const rows = await page.$$eval('#leaderboard tbody tr', (l) =>
    Object.fromEntries(l.map((r) => [r.dataset.policy, { tags: [...r.querySelectorAll('.tag')].map((t) => t.textContent), longest: r.cells[4].textContent, flagged: r.cells[4].className }])),
  );
  assert.deepEqual(rows.fffs.tags, ['starves jobs']);
  assert.equal(rows.fffs.flagged, 'flagged');
  assert.match(rows.fffs.longest, /^\d+(\.\d)? d$/);
  // SJF reserves for the shortest job first, so the wide job waits under it too: a bound that starves.
  assert.deepEqual(rows['sjf-perf'].tags, ['bound', 'starves jobs']);
  assert.deepEqual(rows.easy.tags, []);
  // The Trace view shows the same warning, marked.
  await showView(page, 'trace');
  const marked = await page.$$eval('#trace-report tr.warn.loss', (l) => l.map((r) => r.cells[1].textContent));
  assert.ok(marked.some((w) => /144 without an estimate/.test(w)), marked.join('\n'));
  await showView(page, 'compare');
  await page.screenshot({ path: path.join(shots, 'starving.png'), fullPage: false });
  await page.setViewportSize({ width: 360, height: 900 });
  await page.screenshot({ path: path.join(shots, 'starving-phone.png'), fullPage: false });
  await page.close();
});
