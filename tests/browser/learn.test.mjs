// The Learn view in headless Chromium: each worked example steps forward and back through the
// same passes, with the same sentences, as the command line's decision log; editing a job
// changes the schedule; a lesson embeds alone and travels in a link.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, launch, open, dist, shots, root } from './harness.mjs';

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

const CLI = path.join(root, 'target', 'release', 'schedlab');

/** The CLI's decision log of `policy` on example `name`: each pass's sentences, in order. */
function cliPasses(name, policy, settings) {
  const args = ['explain', `example:${name}`, '--policy', policy, '--log', '--format', 'json'];
  for (const s of settings) args.push('--set', s);
  const log = JSON.parse(execFileSync(CLI, args, { encoding: 'utf8' }));
  const passes = new Map();
  for (const d of log.decisions) {
    if (!passes.has(d.pass)) passes.set(d.pass, { time: d.time, sentences: [] });
    passes.get(d.pass).sentences.push(d.sentence);
  }
  return [...passes.values()];
}

/** What the first panel shows now: the time, the step's sentences and whether its chart is drawn. */
const panel = (page) =>
  page.evaluate(() => {
    const p = document.querySelector('.learn-panel');
    const c = p.querySelector('canvas');
    return {
      time: Number(c.dataset.time),
      sentences: [...p.querySelectorAll('.learn-said li')].map((li) => li.textContent),
      drawn: !!c.dataset.hash,
      status: document.querySelector('#learn-time').textContent,
    };
  });

/** Waits until the first panel shows the pass at `time`. */
const at = (page, time) =>
  page.waitForFunction((t) => document.querySelector('.learn-panel canvas').dataset.time === String(t) && document.querySelector('.learn-panel canvas').dataset.hash, time);

test('every worked example steps forward and back through the CLI log, pass by pass', async () => {
  const page = await open(browser, `${base}/?view=learn`);
  await page.waitForFunction(() => document.querySelectorAll('#learn-examples button').length > 0, null, { timeout: 60_000 });
  const examples = await page.evaluate(() => [...document.querySelectorAll('#learn-examples button')].map((b) => b.dataset.example));
  assert.ok(examples.length >= 6, `examples: ${examples}`);
  for (const name of examples) {
    const ex = await page.evaluate((n) => {
      document.querySelector(`#learn-examples button[data-example="${n}"]`).click();
      return { policies: [document.querySelector('#learn-a').value, document.querySelector('#learn-b').value] };
    }, name);
    for (const policy of ex.policies.filter(Boolean)) {
      // One panel: the policy alone, so every step is one of its passes.
      await page.selectOption('#learn-a', policy);
      await page.selectOption('#learn-b', '');
      // The CLI takes the example's own settings (omega, starve_h) as the page does.
      const want = cliPasses(name, policy, []);
      if (!(await page.isDisabled('#learn-first'))) await page.click('#learn-first');
      const forward = [];
      for (let i = 0; i < want.length; i++) {
        await at(page, want[i].time);
        forward.push(await panel(page));
        if (i + 1 < want.length) await page.click('#learn-next');
      }
      assert.ok(await page.isDisabled('#learn-next'), `${name} ${policy}: more passes than the CLI's`);
      const back = [];
      for (let i = want.length - 1; i >= 0; i--) {
        await at(page, want[i].time);
        back.unshift(await panel(page));
        if (i > 0) await page.click('#learn-back');
      }
      for (let i = 0; i < want.length; i++) {
        assert.equal(forward[i].time, want[i].time, `${name} ${policy} pass ${i}`);
        assert.deepEqual(forward[i].sentences, want[i].sentences, `${name} ${policy} pass ${i} forward`);
        assert.deepEqual(back[i], forward[i], `${name} ${policy} pass ${i}: back differs from forward`);
        assert.ok(forward[i].drawn);
      }
    }
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('when both panels show the same decisions the page says so, and where the policies part', async () => {
  const page = await open(browser, `${base}/?view=learn&example=tsafrir-fig1&policies=fcfs,easy`);
  // The view's markup and script load when it is first shown.
  await page.waitForFunction(() => document.querySelector('#learn-time')?.textContent.startsWith('pass 1 of'), null, { timeout: 60_000 });
  // The first pass starts jobs 1 and 2 under either policy.
  assert.equal(await page.isVisible('#learn-same'), true);
  const note = await page.textContent('#learn-same');
  const part = Number(await page.getAttribute('#learn-same', 'data-part'));
  assert.match(note, new RegExp(`^fcfs and easy decide alike at this pass; they part at pass ${part} \\(t=\\d+ s\\)\\.$`));
  for (let i = 1; i < part; i++) await page.click('#learn-next');
  await page.waitForFunction((p) => document.querySelector('#learn-time').textContent.startsWith(`pass ${p} of`), part);
  assert.equal(await page.isVisible('#learn-same'), false, 'the passes differ there');
  const said = await page.$$eval('.learn-said', (l) => l.map((o) => o.textContent));
  assert.notEqual(said[0], said[1]);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('editing a job runs the policies again and keeps the trace in the link', async () => {
  const page = await open(browser, `${base}/?view=learn&example=tsafrir-fig1&policies=easy`);
  await page.waitForFunction(() => document.querySelector('.learn-panel canvas')?.dataset.hash, null, { timeout: 60_000 });
  await page.click('#learn-next');
  await at(page, 1);
  let p = await panel(page);
  assert.ok(p.sentences.some((s) => s.startsWith('Job 4 starts: backfilled')), p.sentences.join('\n'));
  // Job 4 one second longer (runtime and estimate 3): it would delay job 3, so it waits.
  await page.click('#learn-edit summary');
  await page.fill('input[aria-label="job 4 runtime"]', '3');
  await page.fill('input[aria-label="job 4 estimate"]', '3');
  await at(page, 1);
  p = await panel(page);
  assert.ok(p.sentences.includes("Job 4 waits: started now, it would delay job 3's reservation by 1 s."), p.sentences.join('\n'));
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('jobs'), '0,3,3,4,1;0,6,6,2,2;1,4,4,6,3;1,3,3,2,4');
  assert.equal(url.searchParams.get('example'), null);
  // The link alone gives the same lesson.
  const again = await open(browser, url.href);
  await again.waitForFunction(() => document.querySelector('.learn-panel canvas')?.dataset.time === '1', null, { timeout: 60_000 });
  assert.deepEqual((await panel(again)).sentences, p.sentences);
  // A job added is simulated too; a job removed is gone.
  await page.click('#learn-add');
  await page.waitForFunction(() => document.querySelectorAll('#learn-jobs tbody tr').length === 5);
  await page.click('button[aria-label="remove job 5"]');
  await page.waitForFunction(() => document.querySelectorAll('#learn-jobs tbody tr').length === 4);
  assert.deepEqual([...page.errors, ...again.errors], []);
  await page.close();
  await again.close();
});

test('the Learn view embeds alone, takes a trace in its link, and fits a phone', async () => {
  const page = await open(browser, `${base}/?embed&view=learn&example=tsafrir-fig1&policies=easy,conservative`);
  const drawn = () => document.querySelectorAll('.learn-panel canvas').length > 0 && [...document.querySelectorAll('.learn-panel canvas')].every((c) => c.dataset.hash);
  await page.waitForFunction(drawn, null, { timeout: 60_000 });
  const shown = await page.evaluate(() => ({
    bar: getComputedStyle(document.querySelector('#top h1')).display,
    nav: getComputedStyle(document.querySelector('#views')).display,
    panels: [...document.querySelectorAll('.learn-panel h3')].map((h) => h.textContent),
  }));
  assert.deepEqual(shown, { bar: 'none', nav: 'none', panels: ['easy', 'conservative'] });
  // An embedded lesson loads no trace of the page's own.
  assert.ok(!page.requests.some((u) => u.includes('/demo/')), 'the demo trace was fetched');
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.click('#learn-next');
  await page.waitForFunction(() => document.querySelector('.learn-panel canvas').dataset.time === '1');
  await page.screenshot({ path: path.join(shots, 'learn-1400x900.png') });

  // A teacher's own trace in the link: two jobs of 2 processors on a machine of 2; at 1 the
  // second finds none free.
  const own = await open(browser, `${base}/?view=learn&jobs=0,10,10,2,1;1,5,5,2,2&machine=2&policies=fcfs`);
  await own.waitForFunction(() => document.querySelector('.learn-panel canvas')?.dataset.hash, null, { timeout: 60_000 });
  await own.click('#learn-next');
  await own.waitForFunction(() => document.querySelector('.learn-panel canvas').dataset.time === '1');
  assert.ok((await panel(own)).sentences.includes('No processor is free: the other waiting job is not looked at.'));

  // A phone: nothing scrolls sideways, and the controls stay usable.
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await phone.goto(`${base}/?view=learn&example=kettimuthu-fig2&step=1`);
  await phone.waitForFunction(() => document.querySelector('.learn-panel canvas')?.dataset.hash, null, { timeout: 60_000 });
  const wide = await phone.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1);
  assert.equal(wide, false, 'the Learn view scrolls sideways on a phone');
  await phone.screenshot({ path: path.join(shots, 'learn-390x844.png'), fullPage: true });
  assert.deepEqual([...page.errors, ...own.errors], []);
  await page.close();
  await own.close();
  await phone.close();
});

test('clicking a job in the Timeline explains why it started then, as the CLI does', async () => {
  const page = await open(browser, `${base}/?view=timeline&policies=easy`);
  await page.waitForFunction(() => document.querySelector('#gantt')?.dataset.view, null, { timeout: 120_000 });
  const gantt = page.locator('#gantt');
  await gantt.scrollIntoViewIfNeeded();
  const box = await gantt.boundingBox();
  // Click across the middle of the chart until a job is hit.
  let id = null;
  for (let k = 1; k < 20 && !id; k++) {
    await page.mouse.click(box.x + (box.width * k) / 20, box.y + box.height * 0.5);
    id = await page
      .waitForFunction(() => document.querySelector('#job-card:not([hidden])')?.dataset.job, null, { timeout: 2_000 })
      .then((h) => h.jsonValue())
      .catch(() => null);
  }
  assert.ok(id, 'no job was hit');
  await page.waitForFunction((j) => document.querySelector('#job-card').dataset.explained === j, id, { timeout: 60_000 });
  const sentences = await page.$$eval('#job-card .why li', (l) => l.map((li) => li.textContent));
  const demo = path.join(dist, 'www', 'demo', 'KTH-SP2-1996-2.1-cln.excerpt.swf');
  const cli = JSON.parse(execFileSync(CLI, ['explain', demo, '--policy', 'easy', '--job', id, '--format', 'json'], { encoding: 'utf8' }));
  assert.deepEqual(sentences, cli.sentences);
  await page.locator('#job-card').screenshot({ path: path.join(shots, 'timeline-job-explained.png') });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the Learn view works in the single-file build opened from disk', async () => {
  const page = await open(browser, `file://${path.join(dist, 'schedlab.html')}?view=learn&example=kettimuthu-fig2&step=1`);
  await page.waitForFunction(() => document.querySelectorAll('.learn-panel canvas').length > 0 && [...document.querySelectorAll('.learn-panel canvas')].every((c) => c.dataset.time === '1' && c.dataset.hash), null, {
    timeout: 60_000,
  });
  const p = await panel(page);
  assert.ok(p.sentences.includes("Job 5 waits: started now, it would delay job 4's reservation by 21 s."), p.sentences.join('\n'));
  assert.deepEqual(page.errors, []);
  await page.close();
});
