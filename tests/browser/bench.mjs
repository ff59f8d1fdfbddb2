// Browser benchmark (not a test): times the engine inside headless Chromium.
//   npm run bench   (after ./scripts/build-web.sh)
// Prints, for HPC2N-2002-2.2-cln: parse time, and EASY, EASY++ and conservative simulation time
// (simulate() minus a parse, best of 3); then, for SDSC-SP2 chosen in the page as a user would,
// the time to the first result on screen (its chart drawn) and to all of the default policies'
// results, and the page's own "Run all" time (37 policies); then the same for HPC2N (every policy
// on 202,871 jobs); last, the page's size gzipped.
import fs from 'node:fs';
import path from 'node:path';
import { POLICIES, DEFAULTS, serve, launch, open, waitForResults, dist, shared } from './harness.mjs';

const { server, base } = await serve(dist);
const browser = await launch();
try {
  const page = await open(browser, `${base}/`);
  await waitForResults(page, DEFAULTS);
  const trace = path.join(shared, 'traces', 'HPC2N-2002-2.2-cln.swf.gz');
  const b64 = fs.readFileSync(trace).toString('base64');
  const figures = await page.evaluate(async (b64) => {
    const m = await import('./www/pkg/schedlab.js');
    await m.default({ module_or_path: new URL('./www/pkg/schedlab_bg.wasm', location.href) });
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    // The wasm has no tz database: the trace's zone is registered from its file, as a worker does.
    for (const z of m.zones_wanted(bytes, [])) m.register_zone(z, new Uint8Array(await (await fetch(`./www/tz/${z}`)).arrayBuffer()));
    const best = (f) => {
      let b = Infinity;
      for (let i = 0; i < 3; i++) {
        const t = performance.now();
        f();
        b = Math.min(b, performance.now() - t);
      }
      return b;
    };
    const parse = best(() => m.inspect(bytes, [], 'trace'));
    const jobs = m.inspect(bytes, [], 'trace').report.jobs_kept;
    const easy = best(() => m.simulate(bytes, 'easy', [], 400, () => {})) - parse;
    const easypp = best(() => m.simulate(bytes, 'easy++', [], 400, () => {})) - parse;
    const cons = best(() => m.simulate(bytes, 'conservative', [], 400, () => {})) - parse;
    return { jobs, parse, easy, easypp, cons };
  }, b64);
  const s = (ms) => (ms / 1000).toFixed(3).padStart(8);
  console.log(`HPC2N-2002-2.2-cln in headless Chromium (${figures.jobs} jobs, best of 3)`);
  console.log(`  parse (gzip + SWF)          ${s(figures.parse)} s`);
  console.log(`  easy         (simulate+metrics) ${s(figures.easy)} s`);
  console.log(`  easy++       (simulate+metrics) ${s(figures.easypp)} s`);
  console.log(`  conservative (simulate+metrics) ${s(figures.cons)} s`);

  // A real log chosen in the page: the first result on screen, then all of the default policies'.
  const sdsc = path.join(shared, 'traces', 'SDSC-SP2-1998-4.2-cln.swf.gz');
  const t0 = Date.now();
  await page.setInputFiles('#file', sdsc);
  await page.waitForFunction(() => document.querySelectorAll('#leaderboard tbody tr').length >= 1 && document.querySelector('#chart-avg_bsld')?.dataset.hash, null, { timeout: 600_000, polling: 50 });
  const first = (Date.now() - t0) / 1000;
  const firstPolicy = await page.$eval('#leaderboard tbody tr', (r) => r.dataset.policy);
  await waitForResults(page, DEFAULTS, 600_000);
  const all = (Date.now() - t0) / 1000;
  console.log(`SDSC-SP2 chosen in the page (${await page.textContent('#trace-facts')}), ${DEFAULTS} default policies:`);
  console.log(`  first result on screen    ${first.toFixed(2).padStart(8)} s (${firstPolicy})`);
  console.log(`  all ${DEFAULTS} results             ${all.toFixed(2).padStart(8)} s`);
  const t1 = Date.now();
  await page.click('#run-all');
  await waitForResults(page, POLICIES, 900_000);
  console.log(`  Run all (${POLICIES} policies)     ${((Date.now() - t1) / 1000).toFixed(2).padStart(8)} s: ${await page.textContent('#status')}`);
  // The scale test of the page: every policy on HPC2N's 202,871 jobs, in a fresh page, from
  // choosing the file and pressing "Run all" to the last result on screen.
  const fresh = await open(browser, `${base}/`);
  await waitForResults(fresh, DEFAULTS);
  const t2 = Date.now();
  await fresh.setInputFiles('#file', trace);
  // "Run all" once the new trace is the page's (its facts name its job count), as a user would.
  await fresh.waitForFunction(() => /202,871 jobs/.test(document.querySelector('#trace-facts')?.textContent ?? ''), null, { timeout: 60_000, polling: 20 });
  await fresh.click('#run-all');
  await waitForResults(fresh, POLICIES, 1_800_000);
  const hpc2nAll = (Date.now() - t2) / 1000;
  const cores = await fresh.evaluate(() => navigator.hardwareConcurrency);
  console.log(`HPC2N-2002-2.2-cln chosen in the page (${await fresh.textContent('#trace-facts')}):`);
  console.log(`  Run all (${POLICIES} policies)     ${hpc2nAll.toFixed(2).padStart(8)} s from choosing the file to the last result, on ${cores} cores: ${await fresh.textContent('#status')}`);
} finally {
  await browser.close();
  server.close();
}
