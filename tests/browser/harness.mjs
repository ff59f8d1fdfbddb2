// Shared set-up for the browser tests: a static server for dist/ on 127.0.0.1 and Debian's
// Chromium driven headless through playwright-core.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

export const root = path.resolve(import.meta.dirname, '../..');
export const dist = path.join(root, 'dist');
export const shared = path.resolve(root, '..', 'shared');
export const shots = path.join(root, 'target', 'browser-screenshots');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.swf': 'text/plain',
  '.gz': 'application/gzip',
};

/** The Content-Security-Policy of the page's meta tag in `dir`/index.html, if there is one. */
export function pagePolicy(dir) {
  const index = path.join(dir, 'index.html');
  if (!fs.existsSync(index)) return null;
  return fs.readFileSync(index, 'utf8').match(/http-equiv="Content-Security-Policy" content="([^"]*)"/)?.[1] ?? null;
}

/**
 * Serves `dir` on 127.0.0.1 at a free port; resolves to {server, base}. The responses but the
 * page's carry its Content-Security-Policy as a header, as scripts/serve.sh sends it: a module
 * worker takes its policy from its own response, not from the page's meta tag.
 */
export function serve(dir, prefix = '') {
  const csp = pagePolicy(dir);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    let rel = decodeURIComponent(url.pathname);
    if (!rel.startsWith(prefix + '/')) {
      res.writeHead(404).end();
      return;
    }
    rel = rel.slice(prefix.length);
    if (rel.endsWith('/')) rel += 'index.html';
    const file = path.join(dir, path.normalize(rel));
    if (!file.startsWith(dir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      'content-type': TYPES[path.extname(file)] || 'application/octet-stream',
      // The page has it in its meta tag already (twice, a violation would be reported twice).
      ...(csp && path.extname(file) !== '.html' ? { 'content-security-policy': csp } : {}),
    });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ server, base: `http://127.0.0.1:${server.address().port}${prefix}` }));
  });
}

/** Launches headless Chromium with the flags that work on this machine. */
export async function launch() {
  fs.mkdirSync(shots, { recursive: true });
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * Serves `dir` and launches Chromium before a test file's tests, and closes both after them;
 * `ready` receives {base, browser} once they are up.
 */
export function useBrowser(ready, dir = dist) {
  let server;
  let browser;
  before(async () => {
    let base;
    ({ server, base } = await serve(dir));
    browser = await launch();
    ready({ base, browser });
  });
  after(async () => {
    await browser?.close();
    server?.close();
  });
}

/** Opens a page that records every request it makes and every console error. */
export async function open(browser, url) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
  page.requests = [];
  page.errors = [];
  page.on('request', (r) => page.requests.push(r.url()));
  page.on('pageerror', (e) => page.errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && page.errors.push(m.text()));
  await page.goto(url);
  if (LAZY_VIEW.test(url)) await panelsIn(page);
  return page;
}

/** The views whose markup and scripts load when first shown. */
const LAZY_VIEW = /[?&]view=(studies|load|learn)\b/;

/** Waits until the views that load on demand are in, or the page said they could not load. */
export async function panelsIn(page) {
  await page.waitForFunction(
    () => document.body.dataset.panels === 'ready' || /^This view failed to load: /.test(document.querySelector('#status')?.textContent ?? ''),
    null,
    { timeout: 60_000 },
  );
}

/** The catalogue's presets: `Run all` and the demo run every one. */
export const POLICIES = 39;

/** Waits until the results table has `n` rows and the status says the run is done. */
export async function waitForResults(page, n, timeout = 120_000) {
  await page.waitForFunction(
    (n) => document.querySelectorAll('#results tbody tr').length === n && document.querySelector('#status.done'),
    n,
    { timeout },
  );
}

/** Every metric of every row of the results table, as numbers (null: not measured), by policy. */
export async function tableValues(page) {
  return page.evaluate(() => {
    const out = {};
    for (const tr of document.querySelectorAll('#results tbody tr')) {
      const m = {};
      for (const td of tr.querySelectorAll('td[data-key]')) m[td.dataset.key] = td.dataset.value === 'null' ? null : Number(td.dataset.value);
      out[tr.dataset.policy] = { metrics: m, hash: tr.dataset.hash };
    }
    return out;
  });
}

/** Requests that went anywhere but 127.0.0.1 (data: and blob: URLs are local). */
export function foreignRequests(page) {
  return page.requests.filter((u) => !/^(data|blob):/.test(u) && new URL(u).hostname !== '127.0.0.1');
}

/** The policies a first run compares when the URL names none (one per family). */
export const DEFAULTS = 8;

/** Shows a view, and in Studies one study, as a click on its tab does. */
export async function showView(page, view, study) {
  await page.click(`#views a[data-view="${view}"]`);
  if (LAZY_VIEW.test(`?view=${view}`)) await panelsIn(page);
  if (study) await page.click(`#study-nav a[data-study="${study}"]`);
  await page.waitForFunction(([v, s]) => document.body.dataset.view === v && (!s || !document.querySelector(`section.study[data-study="${s}"]`).hidden), [view, study]);
}

/** Opens the policy chooser (policies, their options and the shared options) if it is closed. */
export async function choosePolicies(page) {
  if (await page.isHidden('#policies')) await page.click('#choose');
}

/** Opens the full results table (every metric) if it is folded. */
export async function allMetrics(page) {
  if (!(await page.evaluate(() => document.querySelector('#all-metrics').open))) await page.click('#all-metrics summary');
}

/** Types `value` into a policy's option under Policies, opening what hides it. */
export async function policyOption(page, policy, opt, value) {
  await choosePolicies(page);
  const details = `#policy-list .policy:has(input[value="${policy}"]) details`;
  if (!(await page.evaluate((d) => document.querySelector(d).open, details))) await page.click(`${details} > summary`);
  await page.fill(`[data-policy="${policy}"][data-opt="${opt}"]`, value);
}
