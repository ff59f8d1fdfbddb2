// Browser benchmark (not a test): parsing HPC2N and EASY on it in two or more builds of the page,
// served side by side and alternated in one browser, five rounds, so a change to the wasm is
// measured against the machine's drift.
//   npm run bench-ab -- OLD/dist dist     (each a ./scripts/build-web.sh output)
import fs from 'node:fs';
import path from 'node:path';
import { serve, launch, shared } from './harness.mjs';
const dists = process.argv.slice(2);
const servers = [];
for (const d of dists) servers.push(await serve(d));
const browser = await launch();
const trace = path.join(shared, 'traces', 'HPC2N-2002-2.2-cln.swf.gz');
const b64 = fs.readFileSync(trace).toString('base64');
const pages = [];
for (const { base } of servers) { const p = await browser.newPage(); await p.goto(`${base}/`); pages.push(p); }
const res = dists.map(() => ({ parse: [], easy: [] }));
for (let round = 0; round < 5; round++) {
  for (let i = 0; i < pages.length; i++) {
    const f = await pages[i].evaluate(async (b64) => {
      const m = await import('./www/pkg/schedlab.js');
      await m.default({ module_or_path: new URL('./www/pkg/schedlab_bg.wasm', location.href) });
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      for (const z of m.zones_wanted(bytes, [])) m.register_zone(z, new Uint8Array(await (await fetch(`./www/tz/${z}`)).arrayBuffer()));
      let t = performance.now(); m.inspect(bytes, [], 'trace'); const parse = performance.now() - t;
      t = performance.now(); m.simulate(bytes, 'easy', [], 400, () => {}); const easy = performance.now() - t - parse;
      return { parse, easy };
    }, b64);
    res[i].parse.push(f.parse); res[i].easy.push(f.easy);
  }
}
for (let i = 0; i < dists.length; i++) {
  const b = (a) => (Math.min(...a) / 1000).toFixed(3);
  console.log(`${dists[i]}: parse best ${b(res[i].parse)} s, EASY best ${b(res[i].easy)} s (of 5); all parse ${res[i].parse.map((x) => (x / 1000).toFixed(3)).join(' ')}; easy ${res[i].easy.map((x) => (x / 1000).toFixed(3)).join(' ')}`);
}
await browser.close();
for (const { server } of servers) server.close();
