// Relaxed backfill (Ward, Mahood & West 2002) on the page: the policy `relaxed` for every omega
// under Est and Act runtimes across the worker pool, shown as the paper's Tables 1-3 (by month)
// and a line chart of total wait against omega. Top-level names start with `ward` (the
// single-file build joins the modules into one scope).
import { showWholeFigure, emptyFigure } from './figures.js';
import { cell } from './predictions.js';
import { runTasks } from './tasks.js';

/** The paper's omegas (section 4). */
export const WARD_OMEGAS = '0, 1, 2, 4, inf';
/** The queue classes by default: from the trace's queue names, as `schedlab omega`. */
export const WARD_CLASSES = 'header';
const WARD_POLICY = 'relaxed';
/** The two scenarios: the runtime the scheduler plans with (trace option `runtime`). */
const WARD_RUNS = [
  ['est', 'Est', 'user-estimated runtimes for both the priority calculation and backfilling'],
  ['act', 'Act', 'actual runtimes for both the priority calculation and backfilling'],
];
/** Keys the section sets itself, so the policy's own options and the shared settings do not. */
const WARD_OWN = ['omega', 'runtime', 'queue_classes'];

const ward = { ctx: null, generation: 0, last: null };
const wardKey = (kv) => kv.slice(0, kv.indexOf('=')).trim().toLowerCase().replaceAll('-', '_');
const wardEl = (id) => document.getElementById(id);
const wardIsInf = (w) => w === 'inf';

/** Parses omegas (commas or spaces; numbers >= 0 or inf), in ascending order, inf last. */
export function parseOmegas(text) {
  const out = [];
  for (const part of text.split(/[\s,]+/).filter(Boolean)) {
    const p = part.toLowerCase();
    let w;
    if (p === 'inf' || p === '∞' || p === 'infinity') w = 'inf';
    else if (/^\d+(\.\d+)?$|^\.\d+$/.test(p)) w = String(Number(p));
    else return { error: `${part} is not an omega: give numbers >= 0 or inf` };
    if (!out.includes(w)) out.push(w);
  }
  if (!out.length) return { error: 'give one or more omegas, e.g. 0, 1, 2, 4, inf' };
  out.sort((a, b) => (wardIsInf(a) ? Infinity : Number(a)) - (wardIsInf(b) ? Infinity : Number(b)));
  return { omegas: out };
}

/**
 * Wires the section. `ctx` gives {pool, params, ready(), bytes(), settings() -> the shared
 * settings and the relaxed policy's own options as `KEY=VALUE`, onurl()}.
 */
export function installWard(ctx) {
  ward.ctx = ctx;
  wardEl('ward-omegas').value = ctx.params.get('omegas')?.split(',').map((s) => s.trim()).join(', ') || WARD_OMEGAS;
  wardEl('ward-classes').value = ctx.params.get('ward_classes') || WARD_CLASSES;
  wardEl('ward-omegas').oninput = wardDescribe;
  wardEl('ward-run').onclick = () => runWard();
  wardEl('ward-cancel').onclick = () => ctx.pool.cancel('ward');
  wardDescribe();
  wardEmptyChart();
}

/** Says how many runs the omegas make; returns the omegas, or null on an error. */
function wardDescribe() {
  const { omegas, error } = parseOmegas(wardEl('ward-omegas').value);
  const count = wardEl('ward-count');
  count.className = error ? 'error' : '';
  count.textContent = error ?? `${omegas.length * 2} runs: ω = ${omegas.join(', ')}, each with Est and Act`;
  return omegas ?? null;
}

/** The section in the URL: `omegas` and, when not the default, `ward_classes`. */
export function wardUrlValues() {
  const omegas = parseOmegas(wardEl('ward-omegas').value).omegas;
  const classes = wardEl('ward-classes').value.trim() || WARD_CLASSES;
  return { omegas: omegas?.join(',') ?? null, classes: classes === WARD_CLASSES ? null : classes };
}

function wardStatus(text, kind = '') {
  const el = wardEl('ward-status');
  el.textContent = text;
  el.className = kind;
}

/** The settings of one run: the page's (less the section's own keys), then omega, runtime and classes. */
function wardSettings(omega, runtime, classes) {
  const base = ward.ctx.settings().filter((kv) => !WARD_OWN.includes(wardKey(kv)));
  return [...base, `queue_classes=${classes}`, `omega=${omega}`, `runtime=${runtime}`];
}

/** Runs relaxed for every omega under Est and Act across the worker pool, then shows the tables. */
export async function runWard() {
  const ctx = ward.ctx;
  const omegas = wardDescribe();
  if (!omegas) return;
  if (!ctx.ready()) {
    wardStatus('Load a trace first.', 'error');
    return;
  }
  ctx.pool.cancel('ward');
  clearWard(); // the tables and chart of the last grid would not match the new one
  const generation = ++ward.generation;
  const classes = wardEl('ward-classes').value.trim() || WARD_CLASSES;
  ctx.onurl();
  const runs = omegas.flatMap((omega) => WARD_RUNS.map(([runtime]) => ({ omega, runtime, settings: wardSettings(omega, runtime, classes) })));
  const batch = await runTasks(
    ctx.pool,
    runs.map((run) => ({
      what: `ω=${run.omega} ${run.runtime}`,
      task: { kind: 'metrics', tag: 'ward', bytes: ctx.bytes(), policy: WARD_POLICY, settings: run.settings },
    })),
    { group: 'ward', bar: wardEl('ward-progress'), status: wardStatus, current: () => generation === ward.generation, noun: ['run', 'runs'] },
  );
  if (!batch) return;
  const { values, done, t0, stopped } = batch;
  if (done < runs.length) return stopped();
  runs.forEach((run, i) => (run.result = values[i].result));
  ward.last = { omegas, classes, runs, seconds: (performance.now() - t0) / 1000 };
  wardRender(ward.last);
  const m = ward.last.runs[0].result.monthly;
  wardStatus(
    `Ran relaxed for ${omegas.length} omegas × Est and Act (${runs.length} runs) in ${ward.last.seconds.toFixed(1)} s; queue classes ${classes}; months in ${m.zone}.`,
    'done',
  );
  document.body.dataset.ward = 'done';
}

/** The run of one omega and runtime. */
const wardRun = (last, omega, runtime) => last.runs.find((r) => r.omega === omega && r.runtime === runtime).result;

/** Every month any run has, in order. */
function wardMonths(last) {
  return [...new Set(last.runs.flatMap((r) => r.result.monthly.months.map((m) => m.month)))].sort();
}

const wardMonth = (result, month) => result.monthly.months.find((m) => m.month === month);
const wardSum = (result, key) => result.monthly.months.reduce((s, m) => s + m[key], 0);
const wardHours = (v) => (v === undefined ? '—' : Math.round(v).toLocaleString('en-US'));
const wardOmegaHead = (w) => `ω=${wardIsInf(w) ? '∞' : w}`;

/** The paper's two-row head: fixed columns span both rows; the group spans one column per omega. */
function wardHead(table, fixed, [group, groupTitle], omegas, runtime = '') {
  const head = table.createTHead();
  const top = head.insertRow();
  const below = head.insertRow();
  for (const [text, title] of fixed) {
    const th = Object.assign(document.createElement('th'), { textContent: text, title, rowSpan: 2 });
    top.append(th);
  }
  top.append(Object.assign(document.createElement('th'), { textContent: group, title: groupTitle, colSpan: omegas.length }));
  for (const w of omegas) below.append(Object.assign(document.createElement('th'), { textContent: wardOmegaHead(w), title: `relaxed, omega=${w}${runtime}` }));
}

/** The run whose utilization Table 1 shows: omega = inf under Est, else the largest omega's Est. */
function wardUtilRun(last) {
  const omega = last.omegas.includes('inf') ? 'inf' : last.omegas[last.omegas.length - 1];
  return { omega, result: wardRun(last, omega, 'est') };
}

function wardRender(last) {
  wardTable1(last);
  wardTable2(last);
  wardTable3(last);
  redrawWard();
}

/** Table 1: total wait hours by month, Est and Act sub-rows, one column per omega, and a Total row. */
function wardTable1(last) {
  const table = wardEl('ward-wait');
  table.textContent = '';
  const util = wardUtilRun(last);
  const utilTitle = `percent utilization in the month of the ω=${util.omega} Est run`;
  wardEl('ward-wait-note').textContent = `Percent utilization is that of the ω=${util.omega} Est run (in the Total row: over the whole run). Wait times are totals in hours over the jobs of each month; two rows per month as in the paper.`;
  wardHead(
    table,
    [
      ['month', 'calendar month in the trace\'s time zone'],
      ['jobs', 'jobs of the month'],
      ['util. %', utilTitle],
      ['actual wait [h]', 'the wait the log recorded for the month\'s jobs (SWF field 3): what the site\'s own scheduler did'],
      ['time used', 'Est: user-estimated runtimes; Act: actual runtimes (priority and backfill)'],
    ],
    ['simulated wait time [h]', 'total wait hours of the month\'s jobs'],
    last.omegas,
  );
  const body = table.createTBody();
  const rows = wardMonths(last).map((month) => [month, (r) => wardMonth(r, month), wardMonth(util.result, month)]);
  for (const [month, pick, u] of rows) {
    WARD_RUNS.forEach(([runtime, label, title], i) => {
      const tr = body.insertRow();
      tr.dataset.month = month;
      tr.dataset.runtime = runtime;
      if (i === 0) {
        for (const [text, key, value] of [
          [month, 'month', month],
          [u ? String(u.jobs) : '—', 'jobs', u?.jobs],
          [u ? u.utilization_pct.toFixed(1) : '—', 'utilization_pct', u?.utilization_pct],
          [u?.actual_wait_jobs ? wardHours(u.actual_wait_hours) : '—', 'actual_wait_hours', u?.actual_wait_hours],
        ]) {
          cell(tr, text, key, value, key === 'utilization_pct' ? utilTitle : '').rowSpan = 2;
        }
      }
      cell(tr, label, null, null, title).className = 'rt';
      for (const w of last.omegas) {
        const v = pick(wardRun(last, w, runtime))?.wait_hours;
        cell(tr, wardHours(v), `omega=${w}`, v, `ω=${w}, ${label}: ${v?.toFixed(2)} h`);
      }
    });
  }
  WARD_RUNS.forEach(([runtime, label, title], i) => {
    const tr = body.insertRow();
    tr.dataset.month = 'total';
    tr.dataset.runtime = runtime;
    tr.className = 'total';
    if (i === 0) {
      const jobs = wardSum(util.result, 'jobs');
      const u = util.result.metrics.utilization * 100;
      cell(tr, 'Total', 'month', 'total').rowSpan = 2;
      cell(tr, String(jobs), 'jobs', jobs).rowSpan = 2;
      cell(tr, u.toFixed(1), 'utilization_pct', u, 'utilization of the whole run (metric utilization)').rowSpan = 2;
      const actual = wardSum(util.result, 'actual_wait_hours');
      cell(tr, wardSum(util.result, 'actual_wait_jobs') ? wardHours(actual) : '—', 'actual_wait_hours', actual).rowSpan = 2;
    }
    cell(tr, label, null, null, title).className = 'rt';
    for (const w of last.omegas) {
      const v = wardSum(wardRun(last, w, runtime), 'wait_hours');
      cell(tr, wardHours(v), `omega=${w}`, v, `ω=${w}, ${label}: ${v.toFixed(2)} h`);
    }
  });
}

/** Table 2: jobs backfilled by month, Est and Act sub-rows, one column per omega. */
function wardTable2(last) {
  const table = wardEl('ward-backfilled');
  table.textContent = '';
  const util = wardUtilRun(last);
  wardHead(
    table,
    [
      ['month', 'calendar month in the trace\'s time zone'],
      ['jobs', 'jobs of the month'],
      ['time used', 'Est: user-estimated runtimes; Act: actual runtimes'],
    ],
    ['jobs backfilled', 'jobs started while a job submitted before them was waiting'],
    last.omegas,
  );
  const body = table.createTBody();
  for (const month of wardMonths(last)) {
    WARD_RUNS.forEach(([runtime, label, title], i) => {
      const tr = body.insertRow();
      tr.dataset.month = month;
      tr.dataset.runtime = runtime;
      if (i === 0) {
        const jobs = wardMonth(util.result, month)?.jobs;
        cell(tr, month, 'month', month).rowSpan = 2;
        cell(tr, jobs === undefined ? '—' : String(jobs), 'jobs', jobs).rowSpan = 2;
      }
      cell(tr, label, null, null, title).className = 'rt';
      for (const w of last.omegas) {
        const v = wardMonth(wardRun(last, w, runtime), month)?.jobs_backfilled;
        cell(tr, v === undefined ? '—' : String(v), `omega=${w}`, v);
      }
    });
  }
}

/** Table 3: total wait hours of the high classes (>= 1) by month, Est runs; a note when there are none. */
function wardTable3(last) {
  const table = wardEl('ward-high');
  table.textContent = '';
  const note = wardEl('ward-high-note');
  const any = last.runs.some((r) => r.runtime === 'est' && r.result.monthly.months.some((m) => m.high_jobs > 0));
  if (!any) {
    note.textContent = `The queue classes (${last.classes}) give no job of this trace a class of 1 or more (challenge or urgent), so there is no Table 3.`;
    note.className = 'note';
    table.hidden = true;
    return;
  }
  table.hidden = false;
  const util = wardUtilRun(last);
  note.textContent = `Jobs of class 1 or more (queue classes ${last.classes}), Est runs; wait totals in hours.`;
  wardHead(
    table,
    [
      ['month', 'calendar month in the trace\'s time zone'],
      ['high jobs', 'jobs of class >= 1 in the month'],
    ],
    ['simulated wait time [h], Est', 'total wait hours of the month\'s high-class jobs'],
    last.omegas,
    ', Est',
  );
  const body = table.createTBody();
  const row = (month, jobs, values) => {
    const tr = body.insertRow();
    tr.dataset.month = month;
    tr.dataset.runtime = 'est';
    cell(tr, month === 'total' ? 'Total' : month, 'month', month);
    cell(tr, jobs === undefined ? '—' : String(jobs), 'high_jobs', jobs);
    last.omegas.forEach((w, i) => cell(tr, wardHours(values[i]), `omega=${w}`, values[i]));
    return tr;
  };
  for (const month of wardMonths(last)) {
    row(
      month,
      wardMonth(util.result, month)?.high_jobs,
      last.omegas.map((w) => wardMonth(wardRun(last, w, 'est'), month)?.high_wait_hours),
    );
  }
  row('total', wardSum(util.result, 'high_jobs'), last.omegas.map((w) => wardSum(wardRun(last, w, 'est'), 'high_wait_hours'))).className = 'total';
}

/** Total wait against omega, Est and Act, drawn by the engine; the omegas evenly spaced in order, ∞ at the right. */
export function redrawWard() {
  const last = ward.last;
  if (!last) return wardEmptyChart();
  const spec = {
    kind: 'lines',
    labels: {
      title: 'Total wait against ω',
      subtitle: 'the wait of every job, in hours, with estimated (Est) and actual (Act) runtimes; ω evenly spaced, ∞ at the right; lower is better',
      x: 'ω',
      y: 'total wait [hours]',
      unit: ' h',
    },
    xs: last.omegas.map((_, i) => i),
    x_labels: last.omegas.map((w) => (wardIsInf(w) ? '∞' : w)),
    series: WARD_RUNS.map(([runtime, label]) => ({ name: label, values: last.omegas.map((w) => wardSum(wardRun(last, w, runtime), 'wait_hours')) })),
  };
  showWholeFigure(wardEl('chart-ward'), 'ward-total-wait', (e, o) => e.generic_figure(spec, o));
}

function wardEmptyChart() {
  emptyFigure(wardEl('chart-ward'), 'Run the omegas to plot total wait against ω for Est and Act.');
}

/** Forgets the runs (a new trace makes them stale). */
export function clearWard() {
  ward.generation++;
  ward.last = null;
  for (const id of ['ward-wait', 'ward-backfilled', 'ward-high']) wardEl(id).textContent = '';
  wardEl('ward-wait-note').textContent = '';
  wardEl('ward-high-note').textContent = '';
  wardEl('ward-progress').value = 0;
  wardEmptyChart();
  wardStatus('');
  delete document.body.dataset.ward;
}
