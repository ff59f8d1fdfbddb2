// The Timeline the first time: a trace dropped after the demo opens on its own whole schedule
// (not the demo's window) with its jobs under the pointer, and two schedules side by side share
// a window that covers both, whichever opened first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useBrowser, open, waitForResults, shared, shots } from './harness.mjs';

let base;
let browser;
useBrowser((s) => ({ base, browser } = s));

/** Waits until every shown Gantt chart is drawn on the shared window, and returns {window, extent, charts}. */
async function drawnWindow(page, charts) {
  await page.waitForFunction(
    (ids) => {
      const extent = document.querySelector('#gantts').dataset.extent;
      return extent && ids.every((id) => document.getElementById(id).dataset.view === extent);
    },
    charts,
    { timeout: 120_000 },
  );
  return page.evaluate((ids) => ({
    extent: document.querySelector('#gantts').dataset.extent.split(',').map(Number),
    charts: ids.map((id) => ({ view: document.getElementById(id).dataset.view.split(',').map(Number), own: document.getElementById(id).dataset.extent.split(',').map(Number) })),
  }), charts);
}

test('a trace dropped after the demo opens on its whole schedule, its jobs under the pointer', async () => {
  const page = await open(browser, `${base}/?policies=easy&view=timeline`);
  await waitForResults(page, 1);
  const demo = await drawnWindow(page, ['gantt']);
  // Zoom in on the demo: the window is no longer the whole schedule.
  const gantt = page.locator('#gantt');
  await gantt.scrollIntoViewIfNeeded();
  const box = await gantt.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -400);
  await page.waitForFunction((v) => document.querySelector('#gantt').dataset.view !== v, demo.extent.join(','));
  await page.setInputFiles('#file', path.join(shared, 'traces', 'KTH-SP2-1996-2.1-cln.swf.gz'));
  await page.waitForFunction(() => document.querySelector('#trace-name').textContent.includes('KTH-SP2-1996'));
  await waitForResults(page, 1, 180_000);
  const kth = await drawnWindow(page, ['gantt']);
  assert.deepEqual(kth.charts[0].view, kth.charts[0].own, 'the whole of the new schedule');
  assert.notDeepEqual(kth.extent, demo.extent);
  assert.ok(kth.extent[1] - kth.extent[0] > 300 * 86400, `the KTH log's schedule spans ${(kth.extent[1] - kth.extent[0]) / 86400} days`);
  assert.match(await page.textContent('#gantt-view'), /^0\.\d\d d to 3\d\d\.\d\d d on 100 processors/);
  // A job is under the pointer somewhere along the middle of the chart.
  let card = false;
  for (const f of [0.5, 0.3, 0.7, 0.4, 0.6]) {
    await page.mouse.click(box.x + box.width * f, box.y + box.height * 0.6);
    card = await page.waitForFunction(() => !document.querySelector('#job-card').hidden, null, { timeout: 3000 }).then(() => true, () => false);
    if (card) break;
  }
  assert.ok(card, 'a click on the schedule finds a job');
  assert.match(await page.textContent('#job-card'), /Job \d+/);
  await page.screenshot({ path: path.join(shots, 'timeline-second-trace.png') });
  assert.deepEqual(page.errors, []);
});

test('two schedules side by side share a window that covers both', async () => {
  // FCFS's schedule ends long after EASY's on the demo: the window reaches the later end.
  const page = await open(browser, `${base}/?policies=easy,fcfs&view=timeline&gantt=easy&beside=fcfs`);
  await waitForResults(page, 2);
  const both = await drawnWindow(page, ['gantt', 'gantt-b']);
  const [easy, fcfs] = both.charts;
  assert.notDeepEqual(easy.own, fcfs.own, 'the two schedules differ');
  for (const c of both.charts) {
    assert.deepEqual(c.view, both.extent);
    assert.ok(c.view[0] <= c.own[0] && c.view[1] >= c.own[1], `${c.view} covers ${c.own}`);
  }
  assert.equal(both.extent[1], Math.max(easy.own[1], fcfs.own[1]));
  assert.deepEqual(page.errors, []);
});
