// "No trace? Generate one" in headless Chromium: a workload given in the URL is generated in the
// page and simulated as a file would be, with the command line's schedule; the wasm generator
// writes the command line's SWF byte for byte; the form generates what it is given and the link
// keeps it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { useBrowser, open, waitForResults, tableValues, root, shots } from './harness.mjs';

let base;
let browser;
useBrowser((s) => ({ base, browser } = s));

const CLI = path.join(root, 'target', 'release', 'schedlab');

/** The command line's schedule hash of `policy` on the workload `spec` generates. */
function cliHash(spec, policy) {
  const out = JSON.parse(execFileSync(CLI, ['run', `generate:${spec}`, '--policy', policy, '--format', 'json'], { stdio: ['ignore', 'pipe', 'ignore'] }));
  return out.results[0].schedule_hash;
}

/** The command line's SWF for `spec` (`machine=64,jobs=3000,...`). */
function cliSwf(spec) {
  const args = ['generate'];
  for (const kv of spec.split(',')) {
    const [k, v] = kv.split('=');
    args.push(`--${k}`, v);
  }
  return execFileSync(CLI, args, { stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 28 }).toString();
}

test('a workload in the URL is generated in the page and simulated with the command line schedule', async () => {
  const spec = 'machine=64,jobs=3000,load=0.85,seed=4';
  const page = await open(browser, `${base}/?gen=${spec}&policies=fcfs,easy`);
  await waitForResults(page, 2);
  assert.equal(await page.textContent('#trace-name'), 'Lublin-Feitelson: 3,000 jobs, 64 processors, load 0.85, seed 4');
  const web = await tableValues(page);
  assert.equal(web.easy.hash, cliHash(spec, 'easy'));
  assert.equal(web.fcfs.hash, cliHash(spec, 'fcfs'));
  assert.deepEqual(page.errors, []);
});

test('the wasm generator writes the command line SWF byte for byte', async () => {
  const page = await open(browser, `${base}/?gen=machine=16,jobs=10,seed=1`);
  await waitForResults(page, 8);
  for (const spec of ['machine=128,jobs=10000,load=0.8,seed=1', 'machine=100,jobs=5000,load=0.95,seed=7,types=batch,estimate=2', 'machine=64,days=20,load=0.7,seed=3,estimate=tef']) {
    const web = await page.evaluate(async (spec) => {
      // The generator is in the whole engine, which the page loads when a view first needs it.
      const m = await import('./www/pkg/schedlab_all.js');
      await m.default({ module_or_path: new URL('./www/pkg/schedlab_all_bg.wasm', location.href) });
      return m.generate_swf(spec);
    }, spec);
    assert.ok(web.length > 100_000, spec);
    assert.equal(web, cliSwf(spec), spec);
  }
  // How long the page takes for 100,000 jobs (printed; not a test of speed).
  const ms = await page.evaluate(async () => {
    const m = await import('./www/pkg/schedlab_all.js');
    await m.default({ module_or_path: new URL('./www/pkg/schedlab_all_bg.wasm', location.href) });
    const t0 = performance.now();
    m.generate_swf('machine=128,jobs=100000,load=0.8,seed=1');
    return performance.now() - t0;
  });
  console.log(`wasm: 100,000 jobs generated and written as SWF in ${ms.toFixed(0)} ms`);
});

test('the form generates what it is given, says a mistake, and the link keeps it', async () => {
  const page = await open(browser, `${base}/?policies=easy`);
  await waitForResults(page, 1);
  assert.equal(await page.isHidden('#generator'), true);
  await page.click('#generate');
  assert.equal(await page.getAttribute('#generate', 'aria-expanded'), 'true');
  await page.fill('#gen-machine', '256');
  await page.fill('#gen-jobs', '2000');
  await page.fill('#gen-load', '0.7');
  await page.fill('#gen-seed', '5');
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.screenshot({ path: path.join(shots, 'generator-1400.png') });
  await page.click('#generator button[type=submit]');
  await page.waitForFunction(() => document.querySelector('#trace-name').textContent.startsWith('Lublin-Feitelson: 2,000 jobs, 256'));
  await waitForResults(page, 1);
  assert.equal(new URL(page.url()).searchParams.get('gen'), 'machine=256,jobs=2000,load=0.7,seed=5');
  assert.equal(await page.isHidden('#generator'), true);
  const web = await tableValues(page);
  assert.equal(web.easy.hash, cliHash('machine=256,jobs=2000,load=0.7,seed=5', 'easy'));

  // The link reproduces it, with the form filled as it was.
  const again = await open(browser, page.url());
  await waitForResults(again, 1);
  assert.equal((await tableValues(again)).easy.hash, web.easy.hash);
  assert.equal(await again.inputValue('#gen-machine'), '256');
  assert.equal(await again.inputValue('#gen-load'), '0.7');

  // A phone: the form wraps its fields and fits the width.
  await again.setViewportSize({ width: 390, height: 844 });
  await again.click('#generate');
  await again.screenshot({ path: path.join(shots, 'generator-390.png') });
  const wide = await again.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 390, `the page is ${wide} px wide on a 390 px phone`);

  // A mistake the engine refuses is said, and the trace shown stays.
  await again.fill('#gen-jobs', '0');
  await again.evaluate(() => document.querySelector('#gen-jobs').removeAttribute('min'));
  await again.click('#generator button[type=submit]');
  await again.waitForFunction(() => document.querySelector('#status').textContent.startsWith('Cannot generate'));
  assert.match(await again.textContent('#status'), /jobs=0: must be a whole number of jobs/);
  // More jobs than a page keeps: said before any work, pointing to the command line.
  await again.click('#generate');
  await again.fill('#gen-jobs', '3000000');
  await again.click('#generator button[type=submit]');
  await again.waitForFunction(() => document.querySelector('#status').textContent.startsWith('The page generates at most'));
  assert.deepEqual([...page.errors, ...again.errors], []);
});
