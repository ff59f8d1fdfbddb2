// A policy's colour is its own for ever: the same in the default run, after Run all and in an
// embed, on its chip and its leaderboard swatch; no two policies on screen share one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, open, waitForResults, POLICIES, DEFAULTS } from './harness.mjs';

let base;
let browser;
useBrowser((s) => ({ base, browser } = s));

/** Each chosen policy's chip colour, by name. */
const chips = (page) =>
  page.$$eval('#chosen .chip', (l) => Object.fromEntries(l.map((c) => [c.textContent.trim(), c.querySelector('i').style.background])));

/** Each leaderboard row's swatch colour, by policy. */
const swatches = (page) =>
  page.$$eval('#leaderboard tbody tr', (l) => Object.fromEntries(l.map((tr) => [tr.dataset.policy, tr.querySelector('.swatch')?.style.background])));

test('a policy keeps its colour in the default run, after Run all and in an embed; none share one', async () => {
  const page = await open(browser, `${base}/`);
  await waitForResults(page, DEFAULTS);
  const first = await chips(page);
  assert.equal(Object.keys(first).length, DEFAULTS);
  assert.equal(new Set(Object.values(first)).size, DEFAULTS);
  const board = await swatches(page);
  for (const [p, c] of Object.entries(board)) assert.equal(c, first[p], `${p}: swatch and chip`);
  await page.click('#run-all');
  await waitForResults(page, POLICIES, 300_000);
  const all = await chips(page);
  assert.equal(Object.keys(all).length, POLICIES);
  assert.equal(new Set(Object.values(all)).size, POLICIES, 'no two of the 39 share a colour');
  for (const [p, c] of Object.entries(first)) assert.equal(all[p], c, `${p} after Run all`);
  const embed = await open(browser, `${base}/?embed&view=compare&policies=mq-backfill,sjf,easy`);
  await waitForResults(embed, 3);
  const few = await chips(embed);
  for (const p of ['mq-backfill', 'easy']) assert.equal(few[p], first[p], `${p} in an embed`);
  assert.equal(few.sjf, all.sjf, 'sjf in an embed');
  assert.deepEqual(page.errors, []);
  assert.deepEqual(embed.errors, []);
});
