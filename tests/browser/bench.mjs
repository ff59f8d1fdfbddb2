// Browser benchmark (not a test): times the engine inside headless Chromium.
//   npm run bench   (after ./scripts/build-web.sh)
// Prints, for HPC2N-2002-2.2-cln: parse time, and EASY, EASY++ and conservative simulation time
// (simulate() minus a parse, best of 3); then the page's own "run all" time on SDSC-SP2.
import fs from 'node:fs';
import path from 'node:path';
import { POLICIES, serve, launch, open, waitForResults, dist, shared } from './harness.mjs';

const { server, base } = await serve(dist);
const browser = await launch();
try {
  const page = await open(browser, `${base}/`);
  await waitForResults(page, POLICIES);
  const trace = path.join(shared, 'traces', 'HPC2N-2002-2.2-cln.swf.gz');
  const b64 = fs.readFileSync(trace).toString('base64');
  const figures = await page.evaluate(async (b64) => {
    const m = await import('./www/pkg/schedlab.js');
    await m.default({ module_or_path: new URL('./www/pkg/schedlab_bg.wasm', location.href) });
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const best = (f) => {
      let b = Infinity;
      for (let i = 0; i < 3; i++) {
        const t = performance.now();
        f();
        b = Math.min(b, performance.now() - t);
      }
      return b;
    };
    const parse = best(() => m.inspect(bytes, []));
    const jobs = JSON.parse(m.inspect(bytes, [])).report.jobs_kept;
    const easy = best(() => m.simulate(bytes, 'easy', [], 400)) - parse;
    const easypp = best(() => m.simulate(bytes, 'easy++', [], 400)) - parse;
    const cons = best(() => m.simulate(bytes, 'conservative', [], 400)) - parse;
    return { jobs, parse, easy, easypp, cons };
  }, b64);
  const s = (ms) => (ms / 1000).toFixed(3).padStart(8);
  console.log(`HPC2N-2002-2.2-cln in headless Chromium (${figures.jobs} jobs, best of 3)`);
  console.log(`  parse (gzip + SWF)          ${s(figures.parse)} s`);
  console.log(`  easy         (simulate+metrics) ${s(figures.easy)} s`);
  console.log(`  easy++       (simulate+metrics) ${s(figures.easypp)} s`);
  console.log(`  conservative (simulate+metrics) ${s(figures.cons)} s`);

  await page.setInputFiles('#file', path.join(shared, 'traces', 'SDSC-SP2-1998-4.2-cln.swf.gz'));
  await page.waitForFunction(() => document.querySelector('#trace-report')?.textContent.includes('SDSC-SP2'));
  await waitForResults(page, POLICIES);
  console.log(`SDSC-SP2 "run all" in the page: ${await page.textContent('#status')}`);
  const wasm = fs.statSync(path.join(dist, 'www', 'pkg', 'schedlab_bg.wasm')).size;
  console.log(`wasm size: ${wasm} bytes`);
} finally {
  await browser.close();
  server.close();
}
