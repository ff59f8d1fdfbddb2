// The page at first sight: every view embeds compact (its first chart, or Compare's answer, fully
// visible in a 400x300 and a 700x450 frame, the trace named with a link to the full page, the
// controls only with controls=1); a phone's first screen of Compare holds the answer and the top
// of the leaderboard; each study draws a chart without Run; one quantity reads the same in the
// leaderboard, the table of every metric, the bar chart, the answer and a job's card; the page
// opens without the study panels, the Load view, Learn and the whole wasm, which load when shown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { useBrowser, open, waitForResults, shots, dist, DEFAULTS, showView } from './harness.mjs';

let base;
let browser;
useBrowser((s) => ({ base, browser } = s));

/** What each view shows first: Compare its answer, the others a chart drawn by the engine. */
const FIRST = {
  compare: '#answer .lead',
  timeline: '#gantt',
  jobs: '#chart-cdf',
  trace: '#chart-shape-jobs',
  load: '#chart-load-bsld',
  studies: '#chart-sweep',
  learn: '#learn-chart-0',
};

/** Whether `selector`'s box lies wholly inside the viewport (and has a size). */
const inside = (page, selector) =>
  page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el || !el.offsetParent) return { ok: false, why: `${sel} is not shown` };
    const r = el.getBoundingClientRect();
    const ok = r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5;
    return { ok, why: `${sel} at ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)} in ${innerWidth}x${innerHeight}` };
  }, selector);

for (const [view, first] of Object.entries(FIRST)) {
  test(`${view} embeds compact at 400x300 and 700x450, naming the trace`, async () => {
    for (const [width, height] of [[400, 300], [700, 450]]) {
      const page = await browser.newPage({ viewport: { width, height } });
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(`${base}/?embed&view=${view}&policies=easy,fcfs,conservative`);
      if (view === 'compare') await waitForResults(page, 3);
      else await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.hash, first, { timeout: 120_000 });
      const where = await inside(page, first);
      assert.ok(where.ok, `${view} ${width}x${height}: ${where.why}`);
      if (first !== '#answer .lead') {
        const h = await page.evaluate((sel) => document.querySelector(sel).getBoundingClientRect().height, first);
        assert.ok(h >= 140, `${view} ${width}x${height}: the chart is ${h} px tall`);
      }
      // The trace (or, in Learn, the lesson) is named, with a link to the whole page.
      const name = view === 'learn' ? '#learn-example-title' : '#trace-name';
      assert.ok((await inside(page, name)).ok, `${view} ${width}x${height}: ${name} in view`);
      assert.match(await page.textContent(name), view === 'learn' ? /backfilling/i : /KTH-SP2/);
      assert.ok((await inside(page, '#open-full')).ok, `${view}: the link to the full page is in view`);
      const href = new URL(await page.getAttribute('#open-full', 'href'));
      assert.equal(href.searchParams.has('embed'), false);
      assert.equal(href.searchParams.get('view'), view);
      assert.ok(await page.isHidden('#run-selected'), 'no controls unless asked for');
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth > innerWidth + 1), false, 'no sideways scroll');
      await page.screenshot({ path: path.join(shots, `embed-${view}-${width}x${height}.png`) });
      assert.deepEqual(errors, []);
      await page.close();
    }
  });
}

test('an embedded study panel shows its first chart alone, its form and tables left out', async () => {
  for (const [study, prefix, first] of [['ward', 'ward', '#chart-ward'], ['lawson', 'lawson', '#chart-lawson-r'], ['kettimuthu', 'km', '#chart-km-avg'], ['leung', 'lg', '#chart-lg-missed']]) {
    const page = await browser.newPage({ viewport: { width: 700, height: 450 } });
    await page.goto(`${base}/?embed&view=studies&study=${study}&policies=easy`);
    await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.hash, first, { timeout: 120_000 });
    const where = await inside(page, first);
    assert.ok(where.ok, `${study}: ${where.why}`);
    for (const hidden of [`#${prefix}-form`, `#${prefix}-status`, `#${prefix}-report table`]) assert.ok(await page.isHidden(hidden), `${study}: ${hidden} hidden`);
    await page.screenshot({ path: path.join(shots, `embed-study-${study}-700x450.png`) });
    await page.close();
  }
});

test('an embed shows its controls when asked (controls=1)', async () => {
  const page = await browser.newPage({ viewport: { width: 700, height: 450 } });
  await page.goto(`${base}/?embed&controls=1&view=timeline&policies=easy,fcfs`);
  await waitForResults(page, 2);
  assert.ok(await page.isVisible('#run-selected'));
  assert.ok(await page.isVisible('#gantt-policy'));
  assert.ok(await page.isHidden('#run-all'), 'the catalogue stays on the full page');
  await page.close();
});

test('on a phone the first screen of Compare shows the answer and the top of the leaderboard', async () => {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await page.goto(`${base}/`);
  await waitForResults(page, 8);
  // The leaderboard scrolls sideways: its names and main metric are in view, the other columns beyond.
  for (const sel of ['#answer .lead', '#leaderboard tbody tr:first-child td.name', '#leaderboard tbody tr:first-child td[data-key="avg_bsld"]']) {
    const where = await inside(page, sel);
    assert.ok(where.ok, where.why);
  }
  await page.screenshot({ path: path.join(shots, 'compare-390.png') });
  await page.close();
});

test('each study draws a chart without Run', async () => {
  for (const study of ['tsafrir', 'ward', 'lawson', 'kettimuthu', 'leung']) {
    const page = await open(browser, `${base}/?view=studies&study=${study}`);
    await page.waitForFunction(
      (s) => [...document.querySelectorAll(`section.study[data-study="${s}"] canvas`)].some((c) => c.dataset.hash),
      study,
      { timeout: 120_000 },
    );
    assert.deepEqual(page.errors, [], study);
    await page.close();
  }
});

test('one quantity reads the same in the leaderboard, the table, the bars, the answer and a card', async () => {
  const page = await open(browser, `${base}/`);
  await waitForResults(page, 8);
  await page.waitForFunction(() => document.querySelector('#chart-avg_wait_s')?.dataset.hash);
  for (const key of ['avg_wait_s', 'avg_bsld', 'p95_wait_s', 'utilization']) {
    // The chart as its SVG download writes it (the writer comes with the whole engine).
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator(`.figure:has(#chart-${key}) .tools button:text("SVG")`).click()]);
    const svg = fs.readFileSync(await download.path(), 'utf8');
    const seen = await page.evaluate(([key, svg]) => {
      const out = {};
      const texts = [...new DOMParser().parseFromString(svg, 'image/svg+xml').querySelectorAll('text')].map((t) => t.textContent.trim());
      for (const tr of document.querySelectorAll('#leaderboard tbody tr')) {
        const policy = tr.dataset.policy;
        const board = tr.querySelector(`td[data-key="${key}"]`).textContent;
        const table = document.querySelector(`#results tbody tr[data-policy="${policy}"] td[data-key="${key}"]`).textContent;
        out[policy] = { board, table, bar: texts.includes(board) };
      }
      return out;
    }, [key, svg]);
    for (const [policy, s] of Object.entries(seen)) {
      assert.equal(s.table, s.board, `${key} of ${policy}: table and leaderboard`);
      assert.ok(s.bar, `${key} of ${policy}: the bar is labelled ${s.board}`);
    }
    if (key === 'avg_wait_s') {
      // "Mean wait is shortest under X, <wait>": the answer writes the leaderboard's text.
      const more = await page.textContent('#answer');
      const shortest = Object.values(seen).map((s) => s.board);
      assert.ok(shortest.some((t) => more.includes(`, ${t},`)), `the answer names a wait as the leaderboard does: ${more}`);
    }
  }
  // A job's card and its explanation write its wait the same way.
  await page.click('#views a[data-view="timeline"]');
  await page.waitForFunction(() => document.querySelector('#gantt').dataset.view);
  const box = await page.locator('#gantt').boundingBox();
  let explained = null;
  for (const f of [0.5, 0.3, 0.7, 0.4, 0.6, 0.2, 0.8]) {
    await page.mouse.click(box.x + box.width * f, box.y + box.height * 0.5);
    explained = await page
      .waitForFunction(() => document.querySelector('#job-card').dataset.explained, null, { timeout: 5000 })
      .then(() => page.textContent('#job-card'), () => null);
    if (explained && /after waiting/.test(explained)) break;
  }
  assert.ok(explained, 'a click finds a job and explains it');
  const waited = explained.match(/waited (\d[\d,.]* (?:s|min|h|d)),/)?.[1];
  const said = explained.match(/after waiting (\d[\d,.]* (?:s|min|h|d))/)?.[1];
  assert.ok(waited, `card: ${explained}`);
  if (said) assert.equal(said, waited, `card: ${explained}`);
  assert.deepEqual(page.errors, []);
});

/** The files of dist/ a page fetched (each once, the query left off), the demo trace aside. */
function fetched(page) {
  const files = new Set();
  for (const u of page.requests) {
    const url = new URL(u);
    if (url.hostname !== '127.0.0.1' || url.pathname.includes('/demo/')) continue;
    files.add(url.pathname === '/' ? 'index.html' : url.pathname.slice(1));
  }
  return [...files].sort();
}

test('the page opens on its demo without the views it does not show, and loads them when shown', async () => {
  const page = await open(browser, `${base}/`);
  await waitForResults(page, DEFAULTS);
  await page.waitForTimeout(500);
  const start = fetched(page);
  const lazy = ['www/panels.html', 'www/study.js', 'www/learn.js', 'www/pkg/schedlab_all.js', 'www/pkg/schedlab_all_bg.wasm'];
  assert.deepEqual(start.filter((f) => lazy.includes(f)), [], start.join(' '));
  assert.ok(start.includes('www/pkg/schedlab_bg.wasm'), start.join(' '));
  const gz = start.reduce((n, f) => n + zlib.gzipSync(fs.readFileSync(path.join(dist, f)), { level: 9 }).length, 0);
  console.log(`the page as it opens: ${start.length} files, ${gz} bytes gzipped (the demo trace aside): ${start.join(' ')}`);
  // Studies brings the panels and the whole engine, and its first chart draws.
  await showView(page, 'studies');
  await page.waitForFunction(() => document.querySelector('#chart-sweep')?.dataset.hash, null, { timeout: 120_000 });
  const later = fetched(page);
  for (const f of lazy) assert.ok(later.includes(f), `${f} not fetched: ${later.join(' ')}`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a view whose part of the engine cannot be fetched says so, and the rest of the page works', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.route('**/schedlab_all_bg.wasm', (route) => route.fulfill({ status: 404, body: 'missing' }));
  await page.goto(`${base}/`);
  await waitForResults(page, DEFAULTS);
  await showView(page, 'studies');
  await page.waitForFunction(() => /^This view failed to load: /.test(document.querySelector('#status').textContent), null, { timeout: 30_000 });
  await showView(page, 'compare');
  assert.equal(await page.locator('#leaderboard tbody tr').count(), DEFAULTS);
  assert.deepEqual(errors, []);
  await page.close();
});
