// Browser benchmark (not a test) of generated workloads and load sweeps in headless Chromium.
//   npm run bench-load   (after ./scripts/build-web.sh)
// Prints the time to generate 100,000 Lublin-Feitelson jobs as SWF in the page's engine (best of
// 3), then the Load view's sweep of the 8 default policies at its 7 default loads on 10,000
// generated jobs (one seed, then three), as the page reports it, on this machine's cores.
import { DEFAULTS, serve, launch, open, dist } from './harness.mjs';

const { server, base } = await serve(dist);
const browser = await launch();
try {
  const page = await open(browser, `${base}/?embed&view=learn`);
  const ms = await page.evaluate(async () => {
    const m = await import('./www/pkg/schedlab_all.js');
    await m.default({ module_or_path: new URL('./www/pkg/schedlab_all_bg.wasm', location.href) });
    let best = Infinity;
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      m.generate_swf('machine=128,jobs=100000,load=0.8,seed=1');
      best = Math.min(best, performance.now() - t);
    }
    return best;
  });
  console.log(`generate 100,000 jobs (SWF text), best of 3: ${ms.toFixed(0)} ms`);
  for (const seeds of [1, 3]) {
    const sweep = await open(browser, `${base}/?embed&view=load&gen=machine=128,jobs=10000,load=0.8,seed=1&ls_seeds=${seeds}`);
    await sweep.waitForFunction(() => ['done', 'stopped'].includes(document.body.dataset.loadsweep), null, { timeout: 600_000 });
    const status = await sweep.textContent('#ls-status');
    const cores = await sweep.evaluate(() => navigator.hardwareConcurrency);
    console.log(`load sweep, ${DEFAULTS} policies x 7 loads x ${seeds} seed(s) on 10,000 generated jobs (${cores} workers): ${status}`);
    await sweep.close();
  }
} finally {
  await browser.close();
  server.close();
}
