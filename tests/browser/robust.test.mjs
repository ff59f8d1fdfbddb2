// The page under whatever file users drop on it: a gigabyte, broken gzip, markup in the text,
// Cancel at any moment, crashing workers, time budgets; and no network after load under a strict CSP.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { serve, launch, open, waitForResults, tableValues, dist, shared, shots, root, showView, choosePolicies, allMetrics } from './harness.mjs';
import { writeBigTrace, writePrefix, HPC2N } from './bigtrace.mjs';

let server;
let base;
let browser;
let tmp;
let big; // the generated 1 GiB trace
let made; // what it holds

const DEMO = path.join(dist, 'www', 'demo', 'KTH-SP2-1996-2.1-cln.excerpt.swf');
const cli = (args) => JSON.parse(execFileSync(path.join(root, 'target', 'release', 'schedlab'), args, { maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'ignore'] }));

before(async () => {
  ({ server, base } = await serve(dist, '/robust'));
  browser = await launch();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-robust-'));
  big = path.join(tmp, 'HPC2N-repeated-1GiB.swf');
  made = await writeBigTrace(big);
  console.log(`generated ${big}: ${made.bytes} bytes, ${made.copies} copies of HPC2N, ${made.jobLines} job lines`);
});

after(async () => {
  await browser?.close();
  server?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** Chooses a file (a path or {name, mimeType, buffer}) and waits until it is read and inspected. */
async function load(page, file) {
  await page.evaluate(() => delete document.body.dataset.load);
  await page.setInputFiles('#file', file);
  await page.waitForFunction(() => ['done', 'failed'].includes(document.body.dataset.load), null, { timeout: 300_000 });
}

/** The trace report's rows as [label, text]. */
const reportRows = (page) =>
  page.$$eval('#trace-report table tr', (trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent)));

/** A page with only `policies` ticked, the demo's results in. */
async function openWith(policies) {
  const page = await open(browser, `${base}/?policies=${policies.join(',')}`);
  await waitForResults(page, policies.length);
  return page;
}

test('a 1 GiB file streams in a worker with progress, the page stays responsive, and the job limit keeps the lines before it', async () => {
  assert.ok(fs.statSync(big).size >= 2 ** 30);
  const page = await openWith(['easy']);
  // One policy under a small time budget: it runs by itself after the load, and is stopped.
  await choosePolicies(page);
  await page.fill('#budget', '0.5');
  await page.evaluate(() => delete document.body.dataset.load);
  // The path goes to the local browser; the test process never holds the file.
  const rss = process.memoryUsage().rss;
  await page.setInputFiles('#file', big);
  assert.ok(process.memoryUsage().rss - rss < 256 << 20, 'the test process read the whole file');
  await page.waitForFunction(() => /^Reading HPC2N-repeated-1GiB\.swf: \d+ MB of 1\.08 GB, [\d,]+ jobs$/.test(document.querySelector('#load-status').textContent));
  const shown = await page.evaluate(() => ({ line: document.querySelector('#load-status').textContent, bar: document.querySelector('#load-progress').value, hidden: document.querySelector('#load-progress').hidden }));
  assert.ok(shown.bar > 0 && !shown.hidden, JSON.stringify(shown));
  // The main thread answers and paints while the worker reads.
  const during = await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(document.body.dataset.load))));
  assert.equal(during, 'reading');
  await page.locator('#top').screenshot({ path: path.join(shots, 'big-loading.png') });
  await page.waitForFunction(() => ['done', 'failed'].includes(document.body.dataset.load), null, { timeout: 300_000 });
  const report = await page.evaluate(() => ({
    warning: document.querySelector('#load-warning').hidden ? null : document.querySelector('#load-warning').textContent,
    line: Number(document.querySelector('#load-warning').dataset.line),
  }));
  const rows = Object.fromEntries((await reportRows(page)).filter(([k]) => k !== 'note' && k !== 'warning'));
  const kept = Number(rows['jobs kept'].replaceAll(',', ''));
  // 13.8 million job lines: the page stops at its limit and says where.
  const limit = await page.evaluate(() => Number(document.body.dataset.jobLimit));
  assert.ok(limit > 0 && limit < made.jobLines, `limit ${limit}`);
  assert.match(report.warning, new RegExp(`^The page keeps at most ${limit.toLocaleString('en-US')} jobs: reading stopped at line ${report.line.toLocaleString('en-US')} of HPC2N-repeated-1GiB\\.swf; the jobs before it are kept\\. Use the schedlab command-line tool for the whole trace\\.`));
  assert.equal(rows['reading stopped'], `at line ${report.line}`);
  assert.equal(report.line, made.headerLines + limit + 1, 'the line after the header and the job lines kept');
  // The engine's own count of those lines, natively.
  const prefix = path.join(tmp, 'prefix.swf');
  await writePrefix(big, prefix, report.line - 1);
  const info = cli(['info', prefix, '--format', 'json']);
  fs.rmSync(prefix);
  assert.equal(kept, info.report.jobs_kept);
  assert.match(await page.textContent('#load-status'), new RegExp(`, ${kept.toLocaleString('en-US')} jobs kept\\.$`));

  // The run under the time budget: stopped, with statistics of the jobs finished.
  await waitForResults(page, 1, 300_000);
  const row = await page.evaluate(() => {
    const tr = document.querySelector('#results tr[data-policy="easy"]');
    return { stopped: tr.dataset.stopped, partial: tr.classList.contains('partial'), badge: tr.querySelector('.badge.stopped')?.textContent, status: document.querySelector('#status').textContent };
  });
  assert.ok(row.partial && row.badge === 'stopped', JSON.stringify(row));
  assert.match(row.stopped, /^stopped at the time budget of 0\.5 s/);
  assert.match(row.status, /1 policy stopped at the time budget; their statistics cover the jobs finished/);
  const m = (await tableValues(page)).easy.metrics;
  assert.equal(m.jobs, kept);
  assert.ok(m.jobs_unfinished > 0 && m.jobs_unfinished < kept, JSON.stringify(m));
  assert.ok(new URL(page.url()).searchParams.get('budget') === '0.5');
  await page.locator('#top').screenshot({ path: path.join(shots, 'big-limit.png') });
  await allMetrics(page);
  await page.locator('#results').screenshot({ path: path.join(shots, 'big-budget.png') });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('Cancel while reading keeps the lines read and says where reading stopped', async () => {
  const page = await openWith(['easy']);
  await page.evaluate(() => delete document.body.dataset.load);
  await page.setInputFiles('#file', big);
  await page.waitForFunction(() => /[1-9][\d,]* jobs$/.test(document.querySelector('#load-status').textContent));
  await page.click('#cancel');
  await page.waitForFunction(() => ['done', 'failed'].includes(document.body.dataset.load), null, { timeout: 300_000 });
  const line = Number(await page.getAttribute('#load-warning', 'data-line'));
  assert.ok(line > 31, `stopped at ${line}`);
  assert.match(await page.textContent('#load-warning'), new RegExp(`^Reading stopped at line ${line.toLocaleString('en-US')} \\(stopped by the user\\); the jobs before it are kept\\.`));
  const status = await page.textContent('#status');
  assert.match(status, new RegExp(`reading stopped at line ${line} \\(stopped by the user\\); the \\d+ jobs before it are kept`));
  const rows = Object.fromEntries((await reportRows(page)).filter(([k]) => k !== 'note' && k !== 'warning'));
  assert.equal(rows['reading stopped'], `at line ${line}`);
  assert.ok(Number(rows['jobs kept'].replaceAll(',', '')) > 0 && Number(rows['jobs kept'].replaceAll(',', '')) < line);
  // Not run by itself after a Cancel; the kept jobs run when asked.
  assert.equal(await page.locator('#results tbody tr').count(), 0);
  await page.click('#run-selected');
  await waitForResults(page, 1, 300_000);
  assert.equal((await tableValues(page)).easy.metrics.jobs, Number(rows['jobs kept'].replaceAll(',', '')));
  await page.close();
});

test('Cancel during a run keeps the finished policies, marks the others, and a new run works; so does a panel\'s Cancel', async () => {
  const page = await open(browser, `${base}/?policies=easy,fcfs`);
  await waitForResults(page, 2);
  await load(page, HPC2N);
  await waitForResults(page, 2, 300_000);
  await page.click('#run-all');
  await page.waitForFunction(() => document.querySelectorAll('#results tbody tr').length >= 1, null, { timeout: 300_000 });
  await page.click('#cancel');
  await page.waitForFunction(() => /^Stopped: \d+ of 39 policies finished\./.test(document.querySelector('#status').textContent));
  const kept = await page.locator('#results tbody tr').count();
  const finished = await page.locator('#progress label.finished').count();
  const stopped = await page.locator('#progress label.stopped').count();
  assert.equal(kept, finished);
  assert.ok(kept >= 1 && stopped >= 1 && kept + stopped === 39, `${kept} kept, ${stopped} stopped`);
  assert.match(await page.textContent('#status'), new RegExp(`^Stopped: ${kept} of 39`));
  // The page works after it.
  await page.click('#run-selected');
  await waitForResults(page, 2, 300_000);
  const again = await tableValues(page);
  assert.ok(again.easy && again.fcfs);
  // A study panel's Cancel: the multiple-queue comparison on HPC2N, then a run.
  await showView(page, 'studies', 'lawson');
  await page.click('#lawson-run');
  await page.waitForFunction(() => document.body.dataset.lawson === 'running');
  await page.click('#lawson-cancel');
  await page.waitForFunction(() => document.body.dataset.lawson === 'stopped');
  assert.match(await page.textContent('#lawson-status'), /[Cc]ancel/);
  await page.click('#run-selected');
  await waitForResults(page, 2, 300_000);
  assert.deepEqual(await tableValues(page), again);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a truncated gzip and one corrupt in the middle keep the lines before the fault; one corrupt from the start is refused', async () => {
  const page = await openWith(['easy']);
  const text = fs.readFileSync(DEMO);
  const gz = zlib.gzipSync(text, { level: 9 });
  const cases = {
    'truncated.swf.gz': gz.subarray(0, Math.floor(gz.length / 2)),
    'corrupt.swf.gz': Buffer.concat([gz.subarray(0, gz.length >> 1), Buffer.alloc(64, 0xa5), gz.subarray((gz.length >> 1) + 64)]),
  };
  for (const [name, buffer] of Object.entries(cases)) {
    const file = path.join(tmp, name);
    fs.writeFileSync(file, buffer);
    await load(page, file);
    await waitForResults(page, 1);
    assert.ok(await page.isVisible('#load-warning'), name);
    const warning = await page.textContent('#load-warning');
    const m = warning.match(/kept the (\d+) complete lines decoded before the fault/);
    assert.ok(m, `${name}: ${warning}`);
    assert.match(warning, new RegExp(`^${name.replaceAll('.', '\\.')} ends early: its compressed data is damaged\\.`));
    // The page simulates the jobs of the lines kept, as the engine does natively with the same file.
    const info = cli(['info', file, '--format', 'json']).report;
    assert.ok(info.jobs_kept > 0 && info.jobs_kept < 2999, `${name}: ${info.jobs_kept}`);
    assert.equal(Number(m[1]), info.lines_read, name);
    const web = await tableValues(page);
    assert.equal(web.easy.metrics.jobs, info.jobs_kept, name);
    assert.equal(web.easy.hash, cli(['run', file, '--policy', 'easy', '--format', 'json']).results[0].schedule_hash, name);
    if (name === 'truncated.swf.gz') {
      // Cut in the middle, the lines kept are the text's first lines.
      const prefix = path.join(tmp, 'gz-prefix.swf');
      fs.writeFileSync(prefix, text.toString('latin1').split('\n').slice(0, info.lines_read).join('\n') + '\n', 'latin1');
      assert.equal(cli(['info', prefix, '--format', 'json']).report.jobs_kept, info.jobs_kept);
    } else {
      // Corrupt bytes decode to garbage until the checksum fails: its lines are listed as malformed.
      assert.ok(info.errors_total > 0);
      assert.match(await page.textContent('#trace-report'), new RegExp(`${info.errors_total} malformed line\\(s\\) skipped`));
    }
  }
  const broken = Buffer.concat([gz.subarray(0, 10), Buffer.alloc(200, 0xff), gz.subarray(210)]);
  await load(page, { name: 'broken.swf.gz', mimeType: 'application/gzip', buffer: broken });
  await page.waitForFunction(() => document.querySelector('#status.error'));
  assert.match(await page.textContent('#status'), /gzip data is corrupt or truncated/);
  assert.match(await page.textContent('#trace-report'), /This trace cannot be used: .*gzip/);
  assert.equal(await page.locator('#results tbody tr').count(), 0);
  await page.close();
});

test('markup in notes, names, job lines and the file name stays text', async () => {
  const page = await openWith(['easy']);
  const script = '<script>window.__pwned=1</script>';
  const img = '<img src=x onerror="window.__pwned=2">';
  const job = (n, submit) => `${n} ${submit} -1 100 4 -1 -1 4 100 -1 1 1 1 -1 1 -1 -1 -1`;
  const text = [
    '; MaxProcs: 8',
    `; Computer: ${script}`,
    `; Installation: ${img}`,
    `; Note: ${script}`,
    `; Note: ${img}`,
    job(1, 0),
    `2 10 -1 ${img} 4 -1 -1 4 100 -1 1 1 1 -1 1 -1 -1 -1`,
    `${script} ${img}`,
    job(3, 20),
    '',
  ].join('\n');
  const name = `<img src=x onerror="window.__pwned=3">${script}.swf`;
  const before = await page.evaluate(() => ({ scripts: document.querySelectorAll('script').length, imgs: document.querySelectorAll('img').length }));
  await load(page, { name, mimeType: 'text/plain', buffer: Buffer.from(text) });
  await waitForResults(page, 1);
  await page.waitForTimeout(200); // an onerror handler would have run by now
  const after = await page.evaluate(() => ({
    pwned: window.__pwned,
    scripts: document.querySelectorAll('script').length,
    imgs: document.querySelectorAll('img').length,
    report: document.querySelector('#trace-report').textContent,
    status: document.querySelector('#status').textContent,
    load: document.querySelector('#load-status').textContent,
  }));
  assert.equal(after.pwned, undefined);
  assert.equal(after.scripts, before.scripts);
  assert.equal(after.imgs, before.imgs);
  const rows = Object.fromEntries((await reportRows(page)).filter(([k]) => ['trace', 'computer', 'installation'].includes(k)));
  assert.equal(rows.trace, name);
  assert.equal(rows.computer, script);
  assert.equal(rows.installation, img);
  const notes = (await reportRows(page)).filter(([k]) => k === 'note').map(([, v]) => v);
  assert.deepEqual(notes, [script, img]);
  assert.match(after.report, /2 malformed line\(s\) skipped:line 7: expected 18 fields, found 20line 8: expected 18 fields, found 4$/);
  assert.ok(after.load.startsWith(`Read ${name}: `), after.load);
  assert.equal((await tableValues(page)).easy.metrics.jobs, 2);
  assert.deepEqual(page.errors, []);
  await page.close();
});

/** dist/ with its worker changed to fail for four policies, each in its own way, and to hang for x2. */
function crashingDist() {
  const dir = path.join(tmp, 'crashing');
  fs.cpSync(dist, dir, { recursive: true });
  const file = path.join(dir, 'www', 'worker.js');
  // The source, not dist's minified copy: the hooks below are found by its text.
  let src = fs.readFileSync(path.join(root, 'www', 'worker.js'), 'utf8');
  const hook = `  running = id;\n`;
  const inside = `    const t0 = performance.now();\n`;
  assert.ok(src.includes(hook) && src.includes(inside));
  src = src.replace(
    hook,
    `${hook}  if (kind === 'simulate' && policy === 'fffs') { self.close(); return; }
  if (kind === 'simulate' && policy === 'bffs') { setTimeout(() => { throw new Error('injected uncaught error'); }); return; }
  if (kind === 'simulate' && policy === 'wffs') throw new Error('injected rejection');
  if (kind === 'simulate' && policy === 'x2') { const end = Date.now() + 120000; while (Date.now() < end); }
`,
  );
  // Out of memory inside the task.
  src = src.replace(inside, `${inside}    if (kind === 'simulate' && policy === 'conservative') new Uint8Array(2 ** 42);\n`);
  fs.writeFileSync(file, src);
  return dir;
}

test('a worker that crashes, closes or overruns its budget is reported by policy, replaced, and every other policy\'s result is kept', async () => {
  const policies = ['fcfs', 'fffs', 'bffs', 'wffs', 'conservative', 'easy', 'sjf', 'easy++'];
  const normal = await open(browser, `${base}/?policies=${policies.join(',')}`);
  await waitForResults(normal, policies.length);
  const expected = await tableValues(normal);
  await normal.close();

  const crashing = await serve(crashingDist(), '/crash');
  try {
    const page = await open(browser, `${crashing.base}/?policies=${policies.join(',')}`);
    await page.waitForFunction(() => document.body.dataset.state === 'done' && document.querySelector('#status.done'), null, { timeout: 120_000 });
    const problems = Object.fromEntries(await page.$$eval('#run-problems li', (l) => l.map((li) => [li.dataset.policy, li.textContent])));
    assert.deepEqual(Object.keys(problems).sort(), ['bffs', 'conservative', 'fffs', 'wffs']);
    assert.match(problems.fffs, /^fffs: the worker closed without answering$/);
    assert.match(problems.bffs, /^bffs: .*injected uncaught error/);
    assert.match(problems.wffs, /^wffs: injected rejection$/);
    assert.match(problems.conservative, /^conservative: RangeError/);
    assert.match(await page.textContent('#status'), /^4 of 8 policies ran; 4 failed: fffs, bffs, wffs, conservative/);
    const got = await tableValues(page);
    assert.deepEqual(Object.keys(got).sort(), ['easy', 'easy++', 'fcfs', 'sjf']);
    for (const p of Object.keys(got)) assert.deepEqual(got[p], expected[p], p);
    // The replaced workers run the next policies as before.
    await choosePolicies(page);
    await page.uncheck('#policy-list input[value="fffs"]');
    await page.uncheck('#policy-list input[value="bffs"]');
    await page.uncheck('#policy-list input[value="wffs"]');
    await page.uncheck('#policy-list input[value="conservative"]');
    await page.click('#run-selected');
    await waitForResults(page, 4);
    assert.deepEqual(await tableValues(page), Object.fromEntries(Object.keys(got).map((p) => [p, expected[p]])));
    await page.screenshot({ path: path.join(shots, 'crashed-workers.png'), fullPage: true });
    await page.close();

    // A worker that does not stop at its time budget is ended 10 s past it; the others are kept.
    const hung = await open(browser, `${crashing.base}/?policies=easy,x2&budget=0.5`);
    await hung.waitForFunction(() => document.body.dataset.state === 'done' && document.querySelector('#status.done'), null, { timeout: 120_000 });
    assert.deepEqual(await hung.$$eval('#run-problems li', (l) => l.map((li) => li.textContent)), ['x2: did not stop within its budget; no statistics']);
    assert.deepEqual(Object.keys(await tableValues(hung)), ['easy']);
    assert.deepEqual((await tableValues(hung)).easy, expected.easy);
    await hung.close();
  } finally {
    crashing.server.close();
  }
});

test('after load the page makes no requests, reading, running and panels included; the CSP holds in the page and its workers', async () => {
  const page = await open(browser, `${base}/?policies=easy,fcfs,sjf`);
  await waitForResults(page, 3);
  // The workers' own files were requested, so worker requests are seen.
  assert.ok(page.requests.some((u) => u.endsWith('/www/worker.js')));
  assert.ok(page.requests.some((u) => u.endsWith('/www/pkg/schedlab_bg.wasm')));
  await page.evaluate(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const mark = page.requests.length;
  await load(page, path.join(shared, 'traces', 'KTH-SP2-1996-2.1-cln.swf.gz'));
  await waitForResults(page, 3);
  await page.click('#run-all');
  await page.waitForFunction(() => document.querySelectorAll('#results tbody tr').length === 39 && document.querySelector('#status.done'), null, { timeout: 300_000 });
  await showView(page, 'studies', 'tsafrir');
  await page.fill('#sweep-axes', 'window=1-2');
  await page.click('#sweep-run');
  await page.waitForFunction(() => document.body.dataset.sweep === 'done', null, { timeout: 120_000 });
  await page.click('#demo');
  await page.waitForFunction(() => document.querySelector('#trace-report').textContent.includes('(demo)') && document.querySelector('#status.done'), null, { timeout: 120_000 });
  // Views the page opens without bring their code when first shown (the page's own files, once);
  // nothing else is asked for.
  const later = /\/www\/(study|learn|tasks)\.js$|\/www\/panels\.html$|\/www\/pkg\/(schedlab_all\.js|schedlab_all_bg\.wasm)$/;
  assert.deepEqual(page.requests.slice(mark).filter((u) => !(u.startsWith(`${base}/`) && later.test(u))), []);
  assert.deepEqual(await page.evaluate(() => window.__violations), []);

  // An injected inline script is refused.
  const inline = await page.evaluate(async () => {
    const s = document.createElement('script');
    s.textContent = 'window.__inline = 1';
    document.body.append(s);
    await new Promise((r) => setTimeout(r, 100));
    return { ran: window.__inline, violations: window.__violations };
  });
  assert.equal(inline.ran, undefined);
  assert.deepEqual(inline.violations.map((v) => v.split(' ')[0]), ['script-src-elem']);
  // A worker has the policy too (from its response header): it cannot reach another host.
  const worker = page.workers()[0];
  const fromWorker = await worker.evaluate(async () => {
    const seen = [];
    self.addEventListener('securitypolicyviolation', (e) => seen.push(e.violatedDirective));
    const r = await fetch('http://127.0.0.2:9/').then(() => 'fetched', () => 'refused');
    await new Promise((res) => setTimeout(res, 100));
    return { r, seen };
  });
  assert.deepEqual(fromWorker, { r: 'refused', seen: ['connect-src'] });
  await page.close();
});

test('a time budget stops a run with partial statistics, marked; without it the same policy finishes', async () => {
  const page = await open(browser, `${base}/?policies=easy,conservative&budget=0.05`);
  await waitForResults(page, 2);
  assert.equal(await page.inputValue('#budget'), '0.05');
  await load(page, HPC2N);
  await waitForResults(page, 2, 300_000);
  const partial = await page.evaluate(() => [...document.querySelectorAll('#results tbody tr')].map((tr) => [tr.dataset.policy, tr.dataset.stopped ?? null, !!tr.querySelector('.badge.stopped')]));
  for (const [policy, stopped, badge] of partial) {
    assert.match(stopped, /^stopped at the time budget of 0\.05 s: \d+ of 202871 jobs finished/, policy);
    assert.ok(badge, policy);
  }
  assert.match(await page.textContent('#status'), /2 policies stopped at the time budget; their statistics cover the jobs finished\./);
  const cut = await tableValues(page);
  for (const p of ['easy', 'conservative']) {
    const m = cut[p].metrics;
    assert.ok(m.jobs_unfinished > 0 && m.jobs_unfinished < 202871 && m.jobs === 202871, `${p}: ${JSON.stringify(m)}`);
  }
  await choosePolicies(page);
  await page.fill('#budget', '');
  await page.click('#run-selected');
  await waitForResults(page, 2, 300_000);
  const full = await tableValues(page);
  assert.equal(full.conservative.metrics.jobs_unfinished, 0);
  assert.equal(full.conservative.metrics.jobs, 202871);
  assert.equal(await page.locator('#results .badge.stopped').count(), 0);
  assert.doesNotMatch(await page.textContent('#status'), /time budget/);
  assert.equal(new URL(page.url()).searchParams.get('budget'), null);
  await page.close();
});
