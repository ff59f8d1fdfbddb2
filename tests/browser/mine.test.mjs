// "Your own policy" in headless Chromium: a priority expression typed on the page runs beside the
// other policies, a mistake shows in place with its column, and the URL reproduces the policy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { useBrowser, open, waitForResults, tableValues, choosePolicies, dist, root, shots } from './harness.mjs';

let base;
let browser;
useBrowser((s) => ({ base, browser } = s));

const DEMO = path.join(dist, 'www', 'demo', 'KTH-SP2-1996-2.1-cln.excerpt.swf');
const CLI = path.join(root, 'target', 'release', 'schedlab');

/** The command line's schedule hash of `policy` on the demo. */
function cliHash(policy) {
  const out = JSON.parse(execFileSync(CLI, ['run', DEMO, '--policy', policy, '--format', 'json'], { stdio: ['ignore', 'pipe', 'ignore'] }));
  return out.results[0].schedule_hash;
}

const WFP3 = '(wait / estimate)^3 * procs';

test('your own policy: typed, checked in place, run beside the others, and kept in the URL', async () => {
  // Arrival order with one reservation is EASY: the two schedules are the same job for job.
  const page = await open(browser, `${base}/?policies=easy,mine&mine=-submit`);
  await waitForResults(page, 2);
  let web = await tableValues(page);
  assert.equal(web.mine.hash, web.easy.hash);
  assert.equal(web.mine.hash, cliHash('easy'));

  // A mistake is said under the field, with its column, as it is typed.
  await choosePolicies(page);
  await page.fill('#mine-priority', '(wait / estimate');
  await page.waitForFunction(() => !document.querySelector('#mine-error').hidden);
  assert.equal(await page.textContent('#mine-error'), 'column 17: expected ")" at the end');
  assert.equal(await page.getAttribute('#mine-priority', 'aria-invalid'), 'true');
  await page.fill('#mine-priority', 'wait / estmate');
  assert.match(await page.textContent('#mine-error'), /^column 8: unknown name "estmate"; the variables are wait, estimate, /);

  // An example fills the field; the run gives the command line's schedule.
  await page.selectOption('#mine-examples', WFP3);
  assert.equal(await page.inputValue('#mine-priority'), WFP3);
  assert.equal(await page.isHidden('#mine-error'), true);
  await (await page.$('#mine')).screenshot({ path: path.join(shots, 'mine-policy.png') });
  await page.click('#run-selected');
  await waitForResults(page, 2);
  web = await tableValues(page);
  const want = cliHash(`custom:priority=${WFP3};k=1;name=mine`);
  assert.equal(web.mine.hash, want);
  assert.notEqual(web.mine.hash, web.easy.hash);

  // The URL holds the expression: a copied link runs it again.
  const url = page.url();
  assert.equal(new URL(url).searchParams.get('mine'), WFP3);
  const again = await open(browser, url);
  await waitForResults(again, 2);
  assert.equal(await again.inputValue('#mine-priority'), WFP3);
  assert.equal((await tableValues(again)).mine.hash, want);

  // A priority that gives no number stops the run and says where.
  await choosePolicies(again);
  await again.fill('#mine-priority', '1 / (wait - wait)');
  await again.click('#run-selected');
  await again.waitForFunction(() => document.querySelector('#status.done'), null, { timeout: 60_000 });
  assert.match(await again.textContent('body'), /division by zero/);
  assert.deepEqual(page.errors, []);
  await again.close();
  await page.close();
});

/** The CLI's sentences of pass `n` of `policy` on example `name`. */
function cliPass(name, policy, n) {
  const log = JSON.parse(execFileSync(CLI, ['explain', `example:${name}`, '--policy', policy, '--log', '--format', 'json'], { encoding: 'utf8' }));
  return log.decisions.filter((d) => d.pass === n).map((d) => d.sentence);
}

test('the Learn view follows an edited priority, pass by pass, as the command line explains it', async () => {
  const page = await open(browser, `${base}/?view=learn&example=tsafrir-fig1&policies=mine`);
  const step1 = async () => {
    await page.waitForFunction(() => document.querySelector('.learn-panel canvas')?.dataset.time === '1' && document.querySelector('.learn-panel canvas').dataset.hash, null, { timeout: 60_000 });
    return page.$$eval('.learn-panel .learn-said li', (l) => l.map((li) => li.textContent));
  };
  await page.waitForFunction(() => document.querySelector('.learn-panel canvas')?.dataset.hash, null, { timeout: 60_000 });
  assert.equal(await page.isHidden('#learn-mine'), false);
  assert.equal(await page.textContent('.learn-panel h3'), 'mine');
  await page.click('#learn-next');
  // Arrival order: job 3 reserves and job 4 is backfilled, as under EASY.
  assert.deepEqual(await step1(), cliPass('tsafrir-fig1', 'custom:priority=-submit;name=mine', 1));
  // Narrowest first: job 4 goes ahead of job 3 and starts; job 3 reserves.
  await page.fill('#learn-priority', '-procs');
  const narrow = cliPass('tsafrir-fig1', 'custom:priority=-procs;name=mine', 1);
  await page.waitForFunction((s) => [...document.querySelectorAll('.learn-panel .learn-said li')].some((li) => li.textContent === s), narrow[0]);
  assert.deepEqual(await step1(), narrow);
  assert.equal(new URL(page.url()).searchParams.get('mine'), '-procs');
  // A mistake is said where the lesson's problems are.
  await page.fill('#learn-priority', '-procs +');
  await page.waitForFunction(() => /priority=-procs \+: column 9: expected a number/.test(document.querySelector("#learn-problems").textContent));
  assert.deepEqual(page.errors, []);
  await page.close();
});
