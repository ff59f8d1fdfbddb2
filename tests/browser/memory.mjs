// Memory of the page on a real trace and on a 1 GiB file made from it (npm run memory): jobs kept,
// packed trace bytes (and per job), the wasm memory of the loader worker and of a worker that
// simulated `easy`, and the peak resident memory of all Chromium processes during load and run
// (VmRSS summed over the browser's processes, sampled every 100 ms, which counts shared pages once
// per process; and Pss summed, which splits them).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve, launch, open, waitForResults, dist } from './harness.mjs';
import { writeBigTrace, HPC2N } from './bigtrace.mjs';

const MB = 2 ** 20;

/** Every process descended from this one (the browser and its children), by /proc. */
function descendants() {
  const children = new Map();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(d));
    } catch {
      // gone meanwhile
    }
  }
  const out = [];
  const walk = (pid) => {
    for (const c of children.get(pid) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(process.pid);
  return out;
}

/** Memory of the Chromium processes now, in bytes: the sum of VmRSS, and of Pss (shared pages split). */
function chromiumMemory() {
  let rss = 0;
  let pss = 0;
  for (const pid of descendants()) {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      if (!/^Name:\s*(chrom|headless)/m.test(status)) continue;
      rss += Number(status.match(/^VmRSS:\s*(\d+) kB/m)?.[1] ?? 0) * 1024;
      pss += Number(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').match(/^Pss:\s*(\d+) kB/m)?.[1] ?? 0) * 1024;
    } catch {
      // gone meanwhile
    }
  }
  return { rss, pss };
}

/** Samples the Chromium processes every 100 ms until stopped; resolves to the peaks. */
function sampler() {
  const peak = chromiumMemory();
  const sample = () => {
    const now = chromiumMemory();
    peak.rss = Math.max(peak.rss, now.rss);
    peak.pss = Math.max(peak.pss, now.pss);
  };
  const timer = setInterval(sample, 100);
  return () => {
    clearInterval(timer);
    sample();
    return peak;
  };
}

async function measure(page, file) {
  const stop = sampler();
  const t0 = Date.now();
  await page.evaluate(() => delete document.body.dataset.load);
  await page.setInputFiles('#file', file);
  await page.waitForFunction(() => ['done', 'failed'].includes(document.body.dataset.load), null, { timeout: 600_000 });
  const loadS = (Date.now() - t0) / 1000;
  await waitForResults(page, 1, 1_200_000);
  const peak = stop();
  const figures = await page.evaluate(() => {
    const report = document.querySelector('#trace-report');
    const rows = Object.fromEntries([...report.querySelectorAll('table tr')].map((tr) => [tr.cells[0].textContent, tr.cells[1].textContent]));
    const easy = document.querySelector('#results tr[data-policy="easy"]');
    return {
      jobs: Number(rows['jobs kept'].replaceAll(',', '')),
      packed: Number(report.dataset.packedBytes),
      loader: Number(report.dataset.loaderMemory),
      worker: Number(easy.dataset.wasmMemory),
      stoppedAt: rows['reading stopped'] ?? null,
    };
  });
  return { ...figures, peak, loadS, runS: (Date.now() - t0) / 1000 - loadS };
}

function print(name, bytes, f) {
  console.log(`${name} (${(bytes / MB).toFixed(0)} MiB file)`);
  console.log(`  jobs kept            ${f.jobs.toLocaleString('en-US')}${f.stoppedAt ? ` (reading stopped ${f.stoppedAt}: the page's job limit)` : ''}`);
  console.log(`  packed trace         ${(f.packed / MB).toFixed(1)} MiB, ${(f.packed / f.jobs).toFixed(1)} bytes per job`);
  console.log(`  loader wasm memory   ${(f.loader / MB).toFixed(0)} MiB`);
  console.log(`  easy worker wasm     ${(f.worker / MB).toFixed(0)} MiB, ${(f.worker / f.jobs).toFixed(0)} bytes per job`);
  console.log(`  Chromium peak        ${(f.peak.rss / MB).toFixed(0)} MiB VmRSS summed over its processes, ${(f.peak.pss / MB).toFixed(0)} MiB Pss (load and run)`);
  console.log(`  load ${f.loadS.toFixed(1)} s, easy ${f.runS.toFixed(1)} s`);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-memory-'));
const { server, base } = await serve(dist, '/memory');
const browser = await launch();
try {
  const big = path.join(tmp, 'HPC2N-repeated-1GiB.swf');
  const made = await writeBigTrace(big);
  const page = await open(browser, `${base}/?policies=easy`);
  await waitForResults(page, 1);
  const rest = chromiumMemory();
  console.log(`Chromium at rest with the demo: ${(rest.rss / MB).toFixed(0)} MiB VmRSS summed, ${(rest.pss / MB).toFixed(0)} MiB Pss`);
  print('HPC2N-2002-2.2-cln.swf.gz', fs.statSync(HPC2N).size, await measure(page, HPC2N));
  print(`HPC2N repeated ${made.copies} times`, made.bytes, await measure(page, big));
  await page.close();
} finally {
  await browser.close();
  server.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
