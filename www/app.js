// SchedLab page: load a trace, run policies in a pool of workers, show the results in views.
// Data flows one way: bytes -> workers (engine) -> results -> the views' tables and the charts,
// which the engine draws on the page (figures.js).
import { startFigures, pageEngine, showFigure, showWholeFigure, wholeReady, emptyFigure, saveBlob, show, make, putTable, putHtml } from './figures.js';
const $ = (sel) => document.querySelector(sel);

// How workers and the demo are obtained. The single-file build (scripts/build-single.py) drops
// this block and defines SCHEDLAB_PLATFORM itself, with Blob workers and an inlined demo.
// @module-only-begin
/** An engine: its glue `js` on the wasm `wasm`. */
const glue = (js, wasm) => async () => {
  const m = await import(js);
  await m.default({ module_or_path: new URL(wasm, import.meta.url) });
  return m;
};
globalThis.SCHEDLAB_PLATFORM ??= {
  worker: () => new Worker(new URL('./worker.js', import.meta.url), { type: 'module' }),
  engine: glue('./pkg/schedlab.js', './pkg/schedlab_bg.wasm'),
  // Every export, the studies' and Learn's too: a second instance of the glue on the whole wasm.
  wholeEngine: glue('./pkg/schedlab_all.js', './pkg/schedlab_all_bg.wasm'),
  // The views the page opens without: the study panels, the Load view and Learn, their exports in
  // one object, and their markup (www/panels.html) as `markup`.
  panels: async () =>
    Object.assign(
      { markup: await (await fetch(new URL('./panels.html', import.meta.url))).text() },
      ...(await Promise.all(['./study.js', './learn.js'].map((m) => import(m)))),
    ),
  demo: async () =>
    new Uint8Array(await (await fetch(new URL('./demo/KTH-SP2-1996-2.1-cln.excerpt.swf', import.meta.url))).arrayBuffer()),
};
// @module-only-end
const PLATFORM = globalThis.SCHEDLAB_PLATFORM;

/** The exports of the study panels, the Load view and Learn once loaded (null before). */
let P = null;
let panelsLoading = null;

/** Loads the study panels, the Load view and Learn with the whole engine, and installs them, the first time a view shows one of them. */
const panelsReady = () =>
  (panelsLoading ??= Promise.all([PLATFORM.panels(), wholeReady()]).then(
    ([m]) => ((P = m), installPanels(), m),
    (e) => {
      panelsLoading = null; // shown again, the view tries again
      setStatus(`This view failed to load: ${e.message ?? e}`, 'error');
      throw e;
    },
  ));

/** Calls `draw` now if the panels are in, else once they are (a failure is on the status line). */
const withPanels = (draw) => (P ? draw() : panelsReady().then(draw, () => {}));

/** Each trace's bytes get an id, so a worker that already holds them is sent the id alone. */
const traceIds = new WeakMap();
let lastTraceId = 0;
const traceId = (bytes) => traceIds.get(bytes) ?? traceIds.set(bytes, ++lastTraceId).get(bytes);

/** Web Lock names tie each worker's life to the page; they are unique to this page. */
const LOCK_PREFIX = `schedlab-${performance.timeOrigin}-${Math.random().toString(36).slice(2)}`;
let lastLock = 0;

/** The backstop for a run with a time budget (`budget_s=N`): N + 10 s, else none. */
function deadline(task) {
  const s = Number((task.settings ?? []).findLast((s) => s.startsWith('budget_s='))?.slice(9));
  return s > 0 ? (s + 10) * 1000 : 0;
}

/** A fixed pool of workers, each running one task at a time; one that fails, crashes, closes or overruns its time budget by 10 s is replaced, its task resolving with the error. */
class Pool {
  constructor(size) {
    Object.assign(this, { workers: [], queue: [], next: 1 });
    for (let i = 0; i < size; i++) this.spawn();
  }
  spawn() {
    const w = { worker: PLATFORM.worker(), task: null, trace: 0, gone: false, timer: 0 };
    w.worker.onmessage = (e) => {
      if (w.gone) return;
      // The lock is granted to the page only once the worker no longer holds it: it is gone.
      if (e.data.held) navigator.locks.request(w.lock, () => this.end(w, { error: 'the worker closed without answering', crashed: true })).catch(() => {});
      else if (w.task && e.data.id === w.task.id) 'progress' in e.data ? w.task.onprogress?.(e.data.progress) : this.end(w, e.data, !e.data.ok);
    };
    w.worker.onerror = (e) => (e.preventDefault?.(), this.end(w, { error: e.message || 'the worker crashed', crashed: true }));
    w.worker.onmessageerror = () => this.end(w, { error: 'a message from the worker could not be read', crashed: true });
    if (globalThis.navigator?.locks) w.worker.postMessage({ kind: 'hold', lock: (w.lock = `${LOCK_PREFIX}-${++lastLock}`) });
    this.workers.push(w);
  }
  run(task) {
    return new Promise((resolve) => {
      this.queue.push({ ...task, id: this.next++, resolve });
      this.pump();
    });
  }
  pump() {
    for (const w of this.workers) {
      if (w.task || !this.queue.length) continue;
      w.task = this.queue.shift();
      const { resolve, onprogress, tag, ...msg } = w.task;
      if (msg.bytes) {
        // Each worker keeps the last trace it was sent: send it once.
        msg.trace = traceId(msg.bytes);
        if (w.trace === msg.trace) delete msg.bytes;
        else w.trace = msg.trace;
      }
      const limit = deadline(msg);
      if (limit) w.timer = setTimeout(() => this.end(w, { error: 'did not stop within its budget; no statistics', crashed: true, overdue: true }), limit);
      w.worker.postMessage(msg);
    }
    this.onchange?.();
  }
  /** Sends `msg` (with the task's id) to the worker running the task with `tag`, if any. */
  signal(tag, msg) {
    for (const w of this.workers) if (w.task?.tag === tag) w.worker.postMessage({ ...msg, id: w.task.id });
  }
  /** Ends worker `w`'s task with `data` (a failure unless `data.ok`); one that crashed, closed, overran or failed (its engine may be unusable) is replaced (`replace`). */
  end(w, data, replace = !data.ok, pump = true) {
    if (w.gone) return;
    const task = w.task;
    w.task = null;
    clearTimeout(w.timer);
    if (replace) {
      w.gone = true;
      w.worker.terminate();
      this.workers.splice(this.workers.indexOf(w), 1);
      this.spawn();
    }
    task?.resolve(data.ok ? data : { ok: false, ...data });
    if (pump) this.pump();
  }
  /** Replaces the idle workers (their engine memory is returned when they end). */
  recycle() {
    for (const w of [...this.workers]) if (!w.task) this.end(w, { ok: true }, true);
  }
  /** Stops the running and queued tasks with `tag` (every task without one); their promises resolve as cancelled. */
  cancel(tag) {
    const hit = (t) => tag === undefined || t.tag === tag;
    const cancelled = { ok: false, cancelled: true, error: 'cancelled' };
    for (const t of this.queue.filter(hit)) t.resolve(cancelled);
    this.queue = this.queue.filter((t) => !hit(t));
    for (const w of [...this.workers]) if (w.task && hit(w.task)) this.end(w, cancelled, true, false);
    this.pump();
  }
  busy() {
    return this.workers.filter((w) => w.task).length + this.queue.length;
  }
}

const params = new URLSearchParams(location.search);

const state = {
  pool: new Pool(Math.max(1, Math.min(navigator.hardwareConcurrency || 2, 8))),
  loader: new Pool(1), // reads files: its own worker, so a load never waits for simulations, and Cancel can reach it
  loading: false,
  demo: null, // the demo trace's bytes, read once
  packed: null, // {bytes, read, size, jobs, memory} of the last load
  catalogue: null,
  bytes: null,
  name: '',
  report: null,
  header: null, // the trace's SWF header (dates of the transient plots)
  offered: 0, // the trace's offered load: work / (span of submissions x machine)
  generated: null, // the generator's options ({machine, jobs, load, seed}) when the trace was generated
  results: new Map(), // policy -> {result, view, ms, memory, task}
  order: [], // the policies of the last run, in the order asked: each one's colour
  sort: { key: 'avg_bsld', dir: 1 },
  generation: 0, // bumped by every new trace and run, so stale runs stay silent
  studiesRun: new Set(), // the studies that have run by themselves on this trace
  loadSwept: false, // whether a link to the Load view has swept (it does once)
};
if (params.has('embed')) {
  // An embed shows its view sized to the frame, names the trace and links to the full page; the
  // controls show only when the embedding page asks for them.
  document.body.classList.add('embed');
  if (params.get('controls') === '1') document.body.classList.add('controls');
  const full = new URL(location.href);
  for (const key of ['embed', 'controls']) full.searchParams.delete(key);
  Object.assign($('#open-full'), { href: full.href, hidden: false });
}

/** The views, each kept in the URL as `view=` (Compare, the default, is left out). */
const VIEWS = ['compare', 'timeline', 'jobs', 'trace', 'load', 'studies', 'learn'];
/** The studies of the Studies view, one at a time (`study=`). */
const STUDIES = ['tsafrir', 'ward', 'lawson', 'kettimuthu', 'leung'];
state.view = VIEWS.includes(params.get('view')) ? params.get('view') : 'compare';
state.study = STUDIES.includes(params.get('study')) ? params.get('study') : 'tsafrir';

/** The status line says `text` (`kind`: its class: error, done). */
const setStatus = (text, kind = '') => Object.assign($('#status'), { textContent: text, className: kind });

/** The URL's parameters as flat (name, value) pairs, as the engine takes them. */
const linkPairs = () => [...new URLSearchParams(location.search)].flat();

/** The policy panel's inputs as flat (name, value) pairs, boxes only when ticked. */
const formPairs = () => [...document.querySelectorAll('#policies [name]')].filter((i) => i.type !== 'checkbox' || i.checked).flatMap((i) => [i.name, i.value]);

/** What the policy panel asks for, as the engine reads it: {ticked, shared, budget, runs, link}, the runs of `names` (null: the ticked ones) and their link. */
const panel = (names = null) => pageEngine().panel_state(linkPairs(), formPairs(), names);

/** Settings shared by every policy, as `KEY=VALUE`. */
const settings = () => panel().shared;

/** What a shown result ran with ({policy, settings}), so its schedule and Gantt chart match it after later edits. */
const ranWith = (name) => state.results.get(name)?.task ?? panel([name]).runs[0];

/** Puts flat (name, value) pairs in the URL in place of its parameters. */
const writeLink = (flat) => {
  const u = new URLSearchParams();
  for (let i = 0; i < flat.length; i += 2) u.append(flat[i], flat[i + 1]);
  history.replaceState(null, '', `${location.pathname}?${u}`);
};

/** Keeps the panel (the predictor's values, your own policy, the budget) in the URL as it is edited. */
const syncForm = () => writeLink(panel().link);

/** Writes URL parameters (null: the default, left out; a list: the parameter once per item), as a new history entry when `push`. */
function syncPanelUrl(values, push = false) {
  const u = new URL(location.href);
  for (const [key, value] of Object.entries(values ?? {})) {
    u.searchParams.delete(key);
    for (const v of value === null ? [] : [value].flat()) u.searchParams.append(key, v);
  }
  history[push ? 'pushState' : 'replaceState'](null, '', u);
}

/** The policy panel as the engine writes it from the link: the policies by group, your own, the predictor, the options. */
function renderPolicies() {
  const p = pageEngine().policy_panel(linkPairs());
  [$('#policy-list').innerHTML, $('#pred-controls').innerHTML, $('#options').innerHTML] = [p.list, p.predictor, p.options];
  checkMine();
}

/** The panel's buttons and edits: a group ticked or cleared, an example for your own policy, the predictor's base or values. */
function installPolicies() {
  const box = $('#policies');
  const edited = () => {
    if (document.body.dataset.state !== 'running') state.order = selected();
    renderChosen();
    syncForm();
  };
  // The predictor's controls are written again: a new base brings its preset's values, Table 12 the paper's.
  const predictor = (pairs) => ($('#pred-controls').innerHTML = pageEngine().predictor_panel(pairs));
  box.addEventListener('click', (e) => {
    const b = e.target.closest('button');
    if (b?.dataset.tick) for (const cb of b.closest('fieldset').querySelectorAll('input[type=checkbox]')) cb.checked = b.dataset.tick === 'all';
    else if (b?.id === 'pred-table12') predictor([]);
    else return;
    edited();
  });
  box.addEventListener('change', (e) => {
    const t = e.target;
    if (t.id === 'mine-examples' && t.value) {
      [$('#mine-priority').value, t.value, $('#policy-list input[value="mine"]').checked] = [t.value, '', true];
      checkMine();
    } else if (t.dataset.pred) predictor(t.name === 'pred:base' ? [t.name, t.value] : formPairs());
    edited();
  });
  box.addEventListener('input', (e) => e.target.closest('#mine') && (checkMine(), syncForm()));
}

/** Checks your own policy's priority as it is typed and says what is wrong under it, with its column. */
function checkMine() {
  const said = pageEngine().check_priority($('#mine-priority').value.trim() || '-submit');
  $('#mine-priority').setAttribute('aria-invalid', String(!said.ok));
  Object.assign($('#mine-error'), { textContent: said.ok ? '' : said.message, hidden: said.ok });
}

/** The Trace view's report, the header's line and the warning of a stopped reading, as the engine writes them. */
function renderReport(value) {
  state.shape = value.shape ?? null;
  renderShape();
  $('#trace-name').textContent = state.name || 'No trace yet';
  $('#trace-facts').textContent = value.chip;
  putHtml($('#trace-report'), value.html);
  const box = Object.assign($('#load-warning'), { hidden: !value.warning, innerHTML: value.warning?.html ?? '' });
  if (value.warning?.line) box.dataset.line = String(value.warning.line);
  else delete box.dataset.line;
}

/** A loader worker whose engine grew past this is replaced after the load, returning the memory. */
const LOADER_MEMORY_KEPT = 256 << 20;

/** Streams a File or Blob into the engine in the loader worker and keeps the packed trace (every later task sends it); Cancel keeps what was read. True when it can run. */
async function loadFile(file, name) {
  const generation = ++state.generation;
  state.pool.cancel();
  state.loader.signal('load', { kind: 'stop-load', why: 'a newer file was chosen' });
  Object.assign(state, { bytes: null, report: null, packed: null, name });
  state.results.clear();
  renderResults();
  if (P) for (const name of [...PANELS, 'loadsweep']) P.clearStudy(name);
  state.studiesRun.clear();
  clearTimeline();
  $('#load-warning').hidden = true;
  for (const id of ['#chart-shape-jobs', '#chart-shape-hours']) emptyFigure($(id), `Reading ${name}…`);
  for (const [id, text] of [['#trace-report', ''], ['#trace-name', name], ['#trace-facts', '· reading…'], ['#progress', ''], ['#run-problems', ''], ['#load-status', `Reading ${name}…`]]) $(id).textContent = text;
  const [bar, line] = [$('#load-progress'), $('#load-status')];
  Object.assign(bar, { hidden: false, max: Math.max(1, file.size), value: 0 });
  setStatus(`Reading ${name}…`);
  document.body.dataset.load = 'reading';
  state.loading = true;
  const onprogress = (p) => {
    if (generation !== state.generation) return;
    bar.value = p.read;
    line.textContent = `Reading ${name}: ${show('bytes', p.read)} of ${show('bytes', p.size)}, ${show('number', p.jobs)} jobs`;
  };
  const res = await state.loader.run({ kind: 'load', tag: 'load', file, max: 0, onprogress });
  if (generation !== state.generation) return false;
  state.loading = false;
  bar.hidden = true;
  if (res.ok && res.memory > LOADER_MEMORY_KEPT) state.loader.recycle();
  if (!res.ok) {
    line.textContent = '';
    document.body.dataset.load = 'failed';
    setStatus(res.cancelled ? 'Cancelled.' : `${name} could not be read: ${res.error}`, 'error');
    return false;
  }
  state.packed = { bytes: res.value.byteLength, read: res.read, size: res.size, jobs: res.jobs, memory: res.memory, stopped: res.stopped, full: res.full };
  Object.assign($('#trace-report').dataset, { packedBytes: String(res.value.byteLength), loaderMemory: String(res.memory) });
  line.textContent = `Read ${name}: ${show('bytes', res.read)} of ${show('bytes', res.size)}, ${show('number', res.jobs)} job lines.`;
  return inspectTrace(res.value, name, generation);
}

/** Asks the engine for the loaded trace's report, and shows it. */
async function inspectTrace(bytes, name, generation) {
  const res = await state.pool.run({ kind: 'inspect', bytes, settings: settings(), input: { name, ...state.packed } });
  if (generation !== state.generation) return false;
  document.body.dataset.load = 'done';
  if (!res.ok) return setStatus(res.cancelled ? 'Cancelled.' : `Error: ${res.error}`, 'error'), false;
  const ok = res.value.ok;
  Object.assign(state, { bytes: ok ? bytes : null, report: ok ? res.value.report : null, header: ok ? res.value.header : null, offered: ok ? res.value.offered_load : 0 });
  renderReport(res.value);
  P?.studyTraceRead();
  if (state.view === 'studies') withPanels(showStudy);
  if (!res.value.ok) return setStatus(`${name}: ${res.value.message}`, 'error'), false;
  const r = res.value.report;
  if (state.packed) {
    $('#load-status').textContent = `Read ${name}: ${show('bytes', state.packed.read)} of ${show('bytes', state.packed.size)}, ${show('number', r.job_lines)} job lines, ${show('number', r.jobs_kept)} jobs kept.`;
  }
  if (state.packed?.stopped) {
    setStatus(`${name}: reading stopped${r.stopped_at_line ? ` at line ${r.stopped_at_line}` : ''} (${state.packed.stopped}); the ${r.jobs_kept} jobs before it are kept. Choose policies and run.`);
    return false;
  }
  setStatus(`${name}: ${r.jobs_kept} jobs. Choose policies and run.`);
  return true;
}

async function runPolicies(names) {
  if (!state.bytes || !state.report) return;
  const generation = ++state.generation;
  state.pool.cancel('run'); // a run still going is replaced by this one
  const asked = panel(names); // every run's policy and settings, and the link that reproduces them
  writeLink(asked.link);
  state.results.clear();
  renderResults();
  setStatus(`Running ${names.length} ${names.length === 1 ? 'policy' : 'policies'}…`);
  document.body.dataset.state = 'running';
  const [t0, failures] = [performance.now(), []]; // failures: the policies that failed
  const [problems, bars] = [$('#run-problems'), $('#progress')];
  problems.textContent = bars.textContent = '';
  const budget = asked.budget ? [`budget_s=${asked.budget}`] : []; // the engine's time budget per policy
  state.order = [...names];
  renderChosen();
  // Cheap policies first, so the first results are on screen within seconds.
  const cost = (name) => state.catalogue.policies.find((p) => p.name === name)?.cost ?? 1;
  const byCost = [...names].sort((a, b) => cost(a) - cost(b));
  const jobs = byCost.map(async (policy) => {
    const bar = make('progress', { max: 1, value: 0, title: policy });
    const label = bars.appendChild(make('label', {}, `${policy} `, bar));
    label.dataset.policy = policy;
    const { policy: runs, settings } = asked.runs[names.indexOf(policy)];
    const ran = { policy: runs, settings };
    const res = await state.pool.run({ kind: 'simulate', tag: 'run', bytes: state.bytes, ...ran, settings: [...settings, ...budget], points: 400, onprogress: (share) => (bar.value = share) });
    const ok = res.ok && res.value.ok;
    bar.value = ok ? 1 : bar.value;
    label.classList.add(ok && !res.value.result.stopped ? 'finished' : 'stopped');
    if (generation !== state.generation) return;
    if (ok) {
      // The custom configuration is shown under its own name; `base` says what it ran on.
      const result = policy === 'custom' ? { ...res.value.result, policy, base: runs } : res.value.result;
      state.results.set(policy, { ...res.value, result, ms: res.ms, memory: res.memory, task: ran });
      renderResults();
    } else if (!res.cancelled) {
      // Named by policy; the other policies' results stay.
      const message = `${policy}: ${res.ok ? res.value.message : res.error}`;
      failures.push(policy);
      problems.append(make('li', { textContent: message }));
      problems.lastChild.dataset.policy = policy;
      setStatus(message, 'error');
    }
  });
  await Promise.all(jobs);
  if (generation !== state.generation) return;
  fillGanttPicks(names);
  const partial = [...state.results.values()].filter((r) => r.result.stopped).length;
  const said = pageEngine().run_status(names, failures, state.results.size, partial, state.report.jobs_kept, (performance.now() - t0) / 1000);
  setStatus(said, failures.length ? 'done error' : 'done');
  document.body.dataset.state = 'done';
}

/** The ticked policies, in catalogue order whatever their group (your own and the custom configuration last). */
const selected = () => panel().ticked;

/** The leaderboard and the full table (every metric of every run, sorted by a click on a column), as the engine makes them. */
function renderResults() {
  const list = runs();
  const [hashes, memory] = [list.map((r) => r.result.schedule_hash), list.map((r) => r.memory ?? 0)];
  const t = pageEngine()?.compare_tables(views(), hashes, memory, state.sort.key, state.sort.dir);
  if (t) {
    putTable($('#results'), t.table);
    putTable($('#leaderboard'), list.length ? t.board : '<table></table>');
    for (const th of document.querySelectorAll('#results th[data-key]')) th.tabIndex = 0;
  }
  renderView();
}

/** A policy's place in the catalogue (the custom configuration comes last). */
function place(policy) {
  const i = state.catalogue.policies.findIndex((p) => p.name === policy);
  return i < 0 ? state.catalogue.policies.length : i;
}

/** The runs shown, in the order the policies were chosen. */
const runs = () => (state.order.length ? state.order : [...state.results.keys()]).filter((n) => state.results.has(n)).map((n) => state.results.get(n));

/** What the engine draws of the runs shown. */
const views = () => runs().map((r) => ({ ...r.view, policy: r.result.policy }));

/** Compare: the answer in words, the leaderboard, the small multiples. */
function renderCompare() {
  const list = runs();
  const empty = state.bytes ? 'Simulating the policies on the trace…' : 'Open a trace, or try the demo, to compare scheduling policies on it.';
  $('#answer').innerHTML = list.length ? pageEngine().answer(views(), state.report?.loss ?? []) : `<p class="lead">${empty}</p>`;
  renderChosen();
  for (const c of document.querySelectorAll('#multiples canvas')) {
    if (!list.length) emptyFigure(c, 'Results appear here as each policy finishes.');
    else showFigure(c, `compare-${c.dataset.metric}`, (o) => pageEngine().compare_figure(views(), { kind: 'metric-bars', metric: c.dataset.metric }, o));
  }
}

/** The chosen policies as chips in their colours. */
function renderChosen() {
  const names = state.order.length ? state.order : selected();
  putHtml($('#chosen'), pageEngine().chips(names, [...state.results.keys()], document.body.dataset.state === 'running'));
}

/** Jobs: the wait-time distribution, the 16 categories, the accuracy histogram. */
function renderJobs() {
  const list = runs();
  if (!list.length) return ['#chart-cdf', '#chart-categories', '#chart-accuracy'].forEach((id) => emptyFigure($(id), 'Run a policy to see its jobs.'));
  showFigure($('#chart-cdf'), 'wait-cdf', (o) => pageEngine().compare_figure(views(), { kind: 'wait-cdf' }, o));
  const [pick, acc, names] = [$('#policy-pick'), $('#accuracy-policy'), list.map((r) => r.result.policy)];
  fillPick(pick, names, ['easy']);
  fillPick(acc, names, ['easy++', 'easy']);
  const at = (select) => names.indexOf(select.value);
  showFigure($('#chart-categories'), `categories-${pick.value}`, (o) => pageEngine().compare_figure(views(), { kind: 'categories', run: at(pick) }, o));
  const canvas = $('#chart-accuracy');
  const fig = showFigure(canvas, `accuracy-${acc.value}`, (o) => pageEngine().compare_figure(views(), { kind: 'accuracy', run: at(acc) }, o));
  // The histogram's counts, for checks against the command line's accuracy_histogram.
  if (fig) Object.assign(canvas.dataset, { data: JSON.stringify(state.results.get(acc.value)?.result.accuracy_histogram ?? null), policy: acc.value });
}

/** Table 3 and the predictability tables of the runs in catalogue order, as the engine makes them. */
function renderPredictions() {
  const runs = [...state.results.values()].sort((a, b) => place(a.result.policy) - place(b.result.policy));
  const res = pageEngine().prediction_tables(runs.map((r) => ({ policy: r.result.policy, metrics: r.result.metrics })));
  if (!res.ok) return setStatus(res.message, 'error');
  $('#table3-note').textContent = res.note;
  putHtml($('#table3-box'), res.tables[0]);
  putHtml($('#predictability-box'), res.tables[1]);
}

/** Draws what the current view shows (charts in hidden views are drawn when shown). */
function renderView() {
  if (!state.catalogue) return;
  if (state.view === 'compare') renderCompare();
  else if (state.view === 'jobs') renderJobs();
  else if (state.view === 'timeline') drawTimeline();
  else if (state.view === 'trace') renderShape();
  // The chosen policies may have changed since the Load view's form said what it runs.
  else if (state.view === 'load') withPanels(() => (P.studyTraceRead(), P.redrawStudy('loadsweep')));
  else if (state.view === 'studies') withPanels(showStudy);
  else if (state.view === 'learn') withPanels(() => P.redrawLearn());
}

/** Offers the runs `names` in a policy select (`none`: the text of '' among them): keeps the user's own pick (remembered on change), else the first of `preferred` that ran, else the first. */
function fillPick(select, names, preferred, none = '') {
  const keep = [select.dataset.chosen, ...preferred].find((n) => n !== undefined && n !== null && names.includes(n)) ?? names[0] ?? '';
  if ([...select.options].map((o) => o.value).join() !== names.join()) select.replaceChildren(...names.map((n) => new Option(n || none, n)));
  select.value = keep;
}

/** One tooltip for every canvas: shows what the chart under the pointer says is there. */
function installTooltip() {
  const tip = $('#tip');
  document.addEventListener('mousemove', (e) => {
    const c = e.target;
    const text = c instanceof HTMLCanvasElement && c.hover ? c.hover(e.offsetX, e.offsetY) : null;
    Object.assign(tip, { hidden: !text, textContent: text ?? '' });
    if (!text) return;
    const right = e.pageX + 12 + tip.offsetWidth > document.documentElement.clientWidth;
    Object.assign(tip.style, { left: `${right ? e.pageX - 12 - tip.offsetWidth : e.pageX + 12}px`, top: `${e.pageY + 12}px` });
  });
}

// The Timeline: one or two Gantt charts on one time window, and the busy processors and queue
// length of every run on the same window below. A worker per chart keeps its policy's schedule
// and rasterises the visible window; the engine on the page draws the frames and keeps the
// shared window (render::gantt::TimeWindow), which the pointer and keys move.
const timeline = { window: null, charts: [] };

/** The shared window `[t0, t1]`, or null before a schedule opens. */
const windowShown = () => {
  const v = timeline.window?.view();
  return v ? [v[0], v[1]] : null;
};

/** Moves the window with `move(window)` (none before a schedule opens) and redraws. */
const moveWindow = (move) => timeline.window?.view() && (move(timeline.window), drawTimeline());

/** One Gantt chart: its canvas, its worker, its policy and its drawing state. */
function ganttChart(canvas) {
  return { canvas, pool: new Pool(1), policy: null, extent: null, busy: false, pending: false, generation: 0, tip: '', selected: null };
}

async function openGantt(g, policy) {
  const i = timeline.charts.indexOf(g);
  g.canvas.closest('.figure').hidden = !policy;
  $('#gantts').classList.toggle('two', !!timeline.charts[1].policy || (i === 1 && !!policy));
  if (!policy || !state.bytes) return (g.policy = null), timeline.window.close(i);
  const generation = ++g.generation;
  const res = await g.pool.run({ kind: 'gantt-open', bytes: state.bytes, ...ranWith(policy) });
  if (generation !== g.generation || !res.ok) return;
  g.policy = policy;
  g.extent = res.value; // [first start, last end, machine size]
  g.canvas.dataset.extent = `${g.extent[0]},${g.extent[1]}`;
  // Side by side, the window spans both schedules, so neither is cut off.
  timeline.window.open(i, g.extent[0], g.extent[1]);
  $('#gantts').dataset.extent = [...timeline.window.extent()].join();
  drawTimeline();
}

/** Redraws the Timeline for the current window. */
function drawTimeline() {
  if (state.view !== 'timeline') return;
  for (const g of timeline.charts) if (g.policy) requestGantt(g);
  const unix = state.header?.unix_start_time ?? null;
  const list = runs();
  for (const [id, kind] of [['#chart-busy', 'busy'], ['#chart-queue', 'queue'], ['#chart-gpus', 'gpus'], ['#chart-memory', 'memory']]) {
    if (!list.length) emptyFigure($(id), 'Run a policy to see its machine over time.');
    else showFigure($(id), kind, (o) => pageEngine().compare_figure(views(), { kind }, { ...o, x_range: windowShown(), unix_start: unix }));
  }
}

function requestGantt(g) {
  if (!windowShown() || !g.policy) return;
  if (g.busy) return (g.pending = true);
  g.busy = true;
  requestAnimationFrame(async () => {
    const c = g.canvas;
    // A new trace may have come between the request and this frame.
    const [t0, t1] = windowShown() ?? [];
    if (t0 === undefined || !g.policy) return (g.busy = g.pending = false);
    const frame = showFigure(c, `gantt-${g.policy}`, (o) =>
      pageEngine().gantt_figure(g.extent[2], t0, t1, `${g.policy}: processors over time`, { ...o, unix_start: state.header?.unix_start_time ?? null }),
    );
    if (frame) {
      // The pointer asks the worker which job is there; the frame has no jobs of its own.
      c.hover = () => g.tip || null;
      const ratio = c.width / Math.max(1, c.clientWidth);
      const [x0, y0, x1, y1] = frame.plot();
      const width = Math.max(1, Math.round((x1 - x0) * ratio));
      const height = Math.max(1, Math.round((y1 - y0) * ratio));
      const res = await g.pool.run({ kind: 'gantt-render', view: { t0, t1, width, height, highlight: g.selected ?? -1 } });
      if (res.ok && c.figure === frame) {
        pageEngine().put_raster(c, res.value, width, Math.round(x0 * ratio), Math.round(y0 * ratio));
        $('#gantt-view').textContent = `${timeline.window.label(state.report?.first_submit || 0)} on ${g.extent[2]} processors (drawn in ${res.ms.toFixed(0)} ms)`;
        Object.assign(c.dataset, { view: `${t0},${t1}`, renderMs: String(res.ms), policy: g.policy });
        g.plot = [x0, y0, x1, y1];
      }
    }
    g.busy = false;
    if (g.pending) (g.pending = false), requestGantt(g);
  });
}

/** A new trace: the Timeline forgets the last one's schedules and window, and opens on the whole of the next. */
function clearTimeline() {
  timeline.window?.free();
  timeline.window = new (pageEngine().Timeline)();
  for (const g of timeline.charts) {
    Object.assign(g, { policy: null, extent: null, selected: null, tip: '', generation: g.generation + 1 });
    for (const key of ['extent', 'view']) delete g.canvas.dataset[key];
  }
  delete $('#gantts').dataset.extent;
  $('#gantt-view').textContent = '';
  $('#job-card').hidden = $('#tip').hidden = true;
}

/** The time and processor under (x, y) on a Gantt chart, or null outside its plot. */
function ganttPoint(g, x, y) {
  const v = windowShown();
  if (!g.plot || !v) return null;
  const [x0, y0, x1, y1] = g.plot;
  if (x < x0 || x >= x1 || y < y0 || y >= y1) return null;
  return { t: v[0] + ((x - x0) / (x1 - x0)) * (v[1] - v[0]), proc: Math.floor(((y - y0) / (y1 - y0)) * g.extent[2]) };
}

/** A Gantt chart's pointer and keys: the wheel zooms, a drag pans, a double click shows the whole; hover and click ask the worker for the job. */
function installGantt(g) {
  const c = g.canvas;
  const share = (x) => (g.plot ? (x - g.plot[0]) / Math.max(1, g.plot[2] - g.plot[0]) : x / c.clientWidth);
  const wheel = (e) => moveWindow((w) => (e.preventDefault(), w.zoom(e.deltaY > 0 ? 1.25 : 0.8, share(e.offsetX))));
  c.addEventListener('wheel', wheel, { passive: false });
  c.addEventListener('keydown', (e) => timeline.window?.key(e.key) && (e.preventDefault(), drawTimeline()));
  let drag = null;
  c.addEventListener('mousedown', (e) => (drag = windowShown() && { x: e.clientX, moved: false, view: windowShown() }));
  window.addEventListener('mouseup', () => setTimeout(() => (drag = null)));
  window.addEventListener('mousemove', (e) => {
    if (!drag || !g.plot) return;
    if (Math.abs(drag.x - e.clientX) > 3) drag.moved = true;
    const [t0, t1] = drag.view;
    const dt = ((drag.x - e.clientX) / Math.max(1, g.plot[2] - g.plot[0])) * (t1 - t0);
    moveWindow((w) => w.set(t0 + dt, t1 + dt));
  });
  c.addEventListener('dblclick', resetWindow);
  let asking = false;
  c.addEventListener('mousemove', async (e) => {
    const at = ganttPoint(g, e.offsetX, e.offsetY);
    if (!at) g.tip = '';
    if (drag || !at || asking) return;
    asking = true;
    const res = await g.pool.run({ kind: 'gantt-hover', view: at });
    g.tip = res.ok ? res.value : '';
    asking = false;
    // The answer names the job under the pointer now, not the one the tooltip showed before it.
    const tip = $('#tip');
    if (c.matches(':hover') && !tip.hidden) {
      tip.textContent = g.tip;
      tip.hidden = !g.tip;
    }
  });
  c.addEventListener('click', async (e) => {
    const at = ganttPoint(g, e.offsetX, e.offsetY);
    if (drag?.moved || !at) return;
    const res = await g.pool.run({ kind: 'gantt-job', view: at });
    showJob(res.ok ? res.value : null);
  });
}

/** The whole schedules again. */
const resetWindow = () => moveWindow((w) => w.reset());

/** A clicked job's record in the card under the charts, outlined in every Gantt chart, and why it started when it did (the policy's decision log, in a worker). */
async function showJob(job) {
  const card = $('#job-card');
  card.hidden = !job;
  for (const g of timeline.charts) g.selected = job ? job.index : null;
  drawTimeline();
  if (!job) return;
  card.replaceChildren(make('b', { textContent: `Job ${job.job_id}` }), ` under ${job.policy}: ${job.card}.`);
  card.dataset.job = String(job.job_id);
  const why = card.appendChild(make('div', { className: 'why', textContent: 'Working out why it started when it did…' }));
  const res = await state.pool.run({ kind: 'explain-job', bytes: state.bytes, ...ranWith(job.policy), input: { job: job.job_id } });
  if (card.dataset.job !== String(job.job_id) || !why.isConnected) return;
  if (!res.ok || !res.value.ok) return (why.textContent = `No explanation: ${res.ok ? res.value.message : res.error}`);
  why.replaceChildren(make('b', { textContent: 'Why it started then' }), make('ul', {}, ...res.value.explanation.sentences.map((line) => make('li', { textContent: line }))));
  card.dataset.explained = String(job.job_id);
}

/** The Gantt selects follow the runs: the first chart shows `gantt=` or easy or the first run, the one beside it `beside=` or none. */
function fillGanttPicks(names) {
  const [a, b, ran] = [$('#gantt-policy'), $('#gantt-policy-b'), names.filter((n) => state.results.has(n))];
  fillPick(a, ran, [a.value || params.get('gantt'), 'easy']);
  // Embedded with two policies, the Timeline shows them side by side.
  const pair = document.body.classList.contains('embed') && names.length === 2 ? names.find((n) => n !== a.value) : null;
  fillPick(b, ['', ...ran], [b.value || params.get('beside'), pair, ''], '(none)');
  timeline.charts.forEach((g, i) => openGantt(g, [a, b][i].value));
}

function exportCsv() {
  const keys = state.catalogue.metrics.map((m) => m.key);
  const lines = [['policy', ...keys].join(',')];
  for (const r of state.results.values()) lines.push([r.result.policy, ...keys.map((k) => r.result.metrics[k])].join(','));
  saveBlob('schedlab-results.csv', new Blob([lines.join('\n') + '\n'], { type: 'text/csv' }));
}

async function exportSchedule(policy) {
  setStatus(`Preparing the schedule of ${policy}…`);
  const res = await state.pool.run({ kind: 'schedule', bytes: state.bytes, ...ranWith(policy) });
  if (!res.ok || res.value.startsWith('error:')) return setStatus(`${policy}: ${res.ok ? res.value : res.error}`, 'error');
  saveBlob(`schedule-${policy}.csv`, new Blob([res.value], { type: 'text/csv' }));
  setStatus(`Saved the schedule of ${policy}.`, 'done');
}

function exportJson() {
  const doc = { trace: state.report, results: [...state.results.values()].map((r) => r.result) };
  saveBlob('schedlab-results.json', new Blob([JSON.stringify(doc, null, 1)], { type: 'application/json' }));
}

/** Reads a file (the user's, or the demo), not a generated workload, and runs the chosen policies on it. */
async function readFile(file, name = file.name, alone = true) {
  // A slurm.conf (its NodeName lines) is the cluster every run reads; alone, the trace shown is run again on it.
  if (file.size < 1 << 20 && /^\s*NodeName=/im.test(await file.text())) return ($('#cluster').value = await file.text()), alone && state.bytes && (state.results.clear(), renderResults(), (await inspectTrace(state.bytes, state.name, state.generation)) && traceReady());
  syncPanelUrl({ gen: null }), (state.generated = null);
  if (await loadFile(file, name)) await traceReady();
}

/** Files chosen or dropped together, a slurm.conf (its NodeName lines give the cluster every run reads) first. */
const readFiles = async (files) => { for (const f of [...files].sort((a, b) => a.size - b.size)) await readFile(f, f.name, files.length === 1); };

/** A trace is read: the chosen policies run on it. A link to the Load view sweeps first (an embedded load figure only sweeps: nothing else of the page shows). */
async function traceReady() {
  if (state.view === 'load') await panelsReady().catch(() => {});
  const sweep = state.view === 'load' && P && !state.loadSwept;
  if (sweep) {
    state.loadSwept = true; // once a page
    P.runStudy('loadsweep');
  }
  if (!(sweep && params.has('embed'))) await runPolicies(selected());
}

async function main() {
  const figures = startFigures(PLATFORM.engine, () => PLATFORM.wholeEngine()).catch((e) => setStatus(`The engine failed to load: ${e.message}`, 'error'));
  state.pool.onchange = () => ($('#busy').textContent = state.pool.busy() ? `${state.pool.busy()} task(s) running` : '');
  const cat = await state.pool.run({ kind: 'catalogue' });
  if (!cat.ok) return setStatus(`The engine failed to load: ${cat.error}`, 'error');
  state.catalogue = cat.value;
  await figures;
  state.limit = pageEngine()?.job_limit() ?? 0; // the most jobs a page load keeps
  document.body.dataset.jobLimit = String(state.limit);
  renderPolicies();
  installPolicies();
  // A policy chosen in a select stays chosen through later runs.
  $('#accuracy-policy').onchange = $('#policy-pick').onchange = (e) => ((e.target.dataset.chosen = e.target.value), renderView());
  installTooltip();
  timeline.charts = [ganttChart($('#gantt')), ganttChart($('#gantt-b'))];
  clearTimeline();
  for (const g of timeline.charts) installGantt(g);
  // The first chart's policy is `gantt=` in the URL, the one beside it `beside=`.
  ['gantt', 'beside'].forEach((key, i) => ($(`#gantt-policy${i ? '-b' : ''}`).onchange = (e) => (syncPanelUrl({ [key]: e.target.value || null }), openGantt(timeline.charts[i], e.target.value))));
  $('#gantt-reset').onclick = resetWindow;
  $('#file').onchange = (e) => readFiles(e.target.files);
  installDrop();
  $('#run-all').onclick = () => runPolicies(state.catalogue.policies.map((p) => p.name));
  $('#run-selected').onclick = () => runPolicies(selected());
  $('#choose').onclick = () => $('#choose').setAttribute('aria-expanded', String(!($('#policies').hidden = !$('#policies').hidden)));
  // While reading: stop and keep what was read. While running: stop the runs, keep the finished ones.
  $('#cancel').onclick = () => (state.loading && state.loader.signal('load', { kind: 'stop-load', why: 'stopped by the user' }), state.pool.cancel('run'));
  $('#budget').value = params.get('budget') ?? '';
  $('#demo').onclick = loadDemo;
  installGenerator();
  $('#export-csv').onclick = exportCsv;
  // An accounting log (or any trace) as the SWF file the command line's `convert` writes.
  $('#trace-report').onclick = async (e) => {
    if (e.target.id !== 'export-swf') return;
    const res = await state.pool.run({ kind: 'to-swf', bytes: state.bytes, settings: settings() });
    if (!res.ok || res.value.startsWith('error:')) return setStatus(`Export failed: ${res.ok ? res.value : res.error}`, 'error');
    saveBlob(state.name.replace(/\.(swf|gz|txt|csv|log)(\.gz)?$/i, '') + '.swf', new Blob([res.value], { type: 'text/plain' }));
  };
  // The table of every metric: a column title sorts it (again: the other way), a policy's button saves its schedule.
  $('#results').onclick = $('#results').onkeydown = (e) => {
    const [th, b] = [e.target.closest('th[data-key]'), e.target.closest('button[data-button]')];
    if (e.type === 'keydown' && (e.key !== 'Enter' && e.key !== ' ')) return;
    if (b && e.type === 'click') exportSchedule(b.dataset.button);
    else if (th) (state.sort = { key: th.dataset.key, dir: state.sort.key === th.dataset.key ? -state.sort.dir : 1 }), renderResults();
  };
  $('#export-json').onclick = exportJson;
  installViews();
  let resizing = 0;
  window.addEventListener('resize', () => (cancelAnimationFrame(resizing), (resizing = requestAnimationFrame(renderView))));
  // An embedded lesson needs no trace of the page's own: it runs its small trace itself.
  if (params.has('embed') && state.view === 'learn') return ($('#answer').hidden = $('#runs').hidden = true);
  if (params.has('gen')) await loadGenerated(params.get('gen'));
  else await loadDemo();
}

/** The whole window takes a dropped file; an overlay says so while a file is dragged over. */
function installDrop() {
  let depth = 0;
  const over = (on) => (($('#drop-overlay').hidden = !on), $('#drop').classList.toggle('over', on));
  window.addEventListener('dragenter', (e) => [...(e.dataTransfer?.types ?? [])].includes('Files') && (depth++, over(true)));
  window.addEventListener('dragleave', () => --depth <= 0 && ((depth = 0), over(false)));
  window.addEventListener('dragover', (e) => e.preventDefault());
  window.addEventListener('drop', (e) => {
    e.preventDefault();
    depth = 0;
    over(false);
    readFiles(e.dataTransfer.files);
  });
}

/** The views and the studies: links that switch in place and keep the choice in the URL. */
function installViews() {
  for (const a of document.querySelectorAll('#views a, #study-nav a')) a.onclick = (e) => (e.preventDefault(), showView(a.dataset.view ?? 'studies', a.dataset.study));
  window.addEventListener('popstate', () => {
    const p = new URLSearchParams(location.search);
    showView(VIEWS.includes(p.get('view')) ? p.get('view') : 'compare', STUDIES.includes(p.get('study')) ? p.get('study') : state.study, false);
  });
  showView(state.view, state.study, false);
}

/** Shows one view (and, in Studies, one study), writes it into the URL and draws it. */
function showView(view, study = state.study, write = true) {
  Object.assign(state, { view, study });
  document.body.dataset.view = view;
  for (const el of document.querySelectorAll('main > .view')) el.hidden = el.dataset.view !== view;
  for (const el of document.querySelectorAll('section.study')) el.hidden = el.dataset.study !== study;
  // The links to the view and to the study shown are marked as the current page.
  for (const a of document.querySelectorAll('#views a, #study-nav a')) {
    if (a.dataset.view ? a.dataset.view === view : a.dataset.study === study) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  if (write) syncPanelUrl({ view: view === 'compare' ? null : view, study: view === 'studies' ? study : null }, true);
  renderView();
}

/** The study panel of each study in the Studies view (the engine's studies): Tsafrir et al.'s is its sweep. */
const PANELS = ['sweep', 'ward', 'lawson', 'kettimuthu', 'leung'];
const panelOf = (study) => (study === 'tsafrir' ? 'sweep' : study);

/** Wires the panels loaded on demand to the page's state (see panelsReady). */
function installPanels() {
  // Their markup goes into the empty sections of the same ids, which keep their own attributes.
  const t = make('template', { innerHTML: P.markup ?? '' });
  for (const section of t.content.children) document.getElementById(section.id).innerHTML = section.innerHTML;
  P.installLearn({ catalogue: state.catalogue, shown: () => state.view === 'learn', writeLink });
  const ctx = {
    pool: state.pool,
    params,
    ready: () => !!(state.bytes && state.report),
    bytes: () => state.bytes,
    // The trace's facts, and what the Load view sweeps: the chosen policies, the trace held, the generator's form.
    about: () => ({
      ...(state.report ? { report: state.report, header: state.header } : {}),
      page: {
        policies: panel().runs.map(({ name, policy, settings }) => ({ name, policy, settings })),
        trace: state.bytes && state.report ? { name: state.name, offered: state.offered, generated: state.generated } : null,
        generator: Object.fromEntries(['machine', 'jobs', 'seed'].map((k) => [k, $(`#gen-${k}`).value.trim()])),
        limit: state.limit,
      },
    }),
  };
  // Each panel runs with the shared settings, then its own (the engine's study_settings).
  for (const name of [...PANELS, 'loadsweep']) {
    const settings = () => pageEngine().study_settings(linkPairs(), formPairs(), name);
    P.installStudy(name, { ...ctx, settings, onurl: () => syncPanelUrl(P.studyUrlValues(name)) });
  }
  document.body.dataset.panels = 'ready';
}

/** Up to this many jobs, a study runs by itself the first time it is shown on a trace. */
const AUTO_STUDY_JOBS = 20_000;

/** Redraws the study shown (its charts were not drawn while hidden); on a trace of modest size, runs it the first time. */
function showStudy() {
  const name = panelOf(state.study);
  P.redrawStudy(name);
  if (state.bytes && state.report?.jobs_kept <= AUTO_STUDY_JOBS && !state.studiesRun.has(name)) {
    state.studiesRun.add(name);
    P.runStudy(name);
  }
  renderPredictions();
}

/** The trace's shape: jobs and processor-hours by length and width (Leung et al. Tables I-II), as the engine lays them out. */
function renderShape() {
  if (!state.shape) return;
  ['jobs', 'hours'].forEach((k, i) => showWholeFigure($(`#chart-shape-${k}`), `shape-${k}`, (e, o) => e.shape_figure(state.shape, i, o)));
}

/** "No trace? Generate one": the generator's form, filled from the link (`gen=`). */
function installGenerator() {
  const [form, button] = [$('#generator'), $('#generate')];
  const show = (open) => ((form.hidden = !open), button.setAttribute('aria-expanded', String(open)));
  button.onclick = () => show(form.hidden);
  const given = new URLSearchParams((params.get('gen') ?? '').replaceAll(',', '&'));
  for (const key of ['machine', 'jobs', 'load', 'seed']) if (given.has(key)) $(`#gen-${key}`).value = given.get(key) === 'model' ? '' : given.get(key);
  form.onsubmit = (e) => (e.preventDefault(), show(false), loadGenerated(generatorSpec()));
}

/** The generator's options as the engine reads them: `machine=128,jobs=10000,load=0.8,seed=1`. */
function generatorSpec() {
  const v = (key) => $(`#gen-${key}`).value.trim();
  return `machine=${v('machine')},jobs=${v('jobs')},load=${v('load') || 'model'},seed=${v('seed')}`;
}

/** Generates a workload in a worker and runs the chosen policies on it, as on an opened file. */
async function loadGenerated(spec) {
  setStatus('Generating the workload…');
  const res = await state.pool.run({ kind: 'generate', input: { spec } });
  const made = res.ok ? res.value : { message: `Cannot generate the workload: ${res.error}` };
  if (!made.ok) return setStatus(made.message, 'error');
  syncPanelUrl({ gen: spec });
  state.generated = made.made; // what the workload was made of, so a load sweep makes its kin
  if (await loadFile(new Blob([made.swf]), made.name)) await traceReady();
}

async function loadDemo() {
  setStatus('Loading the demo trace…');
  state.demo ??= await PLATFORM.demo(); // read once: a second click makes no request
  await readFile(new Blob([state.demo]), 'KTH-SP2 excerpt (demo)');
}

main().catch((e) => setStatus(`Error: ${e.message}`, 'error'));
