// Selective preemption (Kettimuthu et al. 2003) on the page: NS, SS at three suspension factors,
// TSS and IS on the loaded trace (the engine's `kettimuthu_compare`, worker task `kettimuthu`),
// and the load study, NS, SS 2 and IS at each load factor (`kettimuthu_load`, one worker task
// `kettimuthu-load` per point), across the worker pool. Shown as the thesis's figures: the 16
// categories of Table 2.1 as heatmaps of the average and worst case per scheme (Figs. 3.1-3.6),
// the job distribution (Table 2.2), the load curves (Figs. 4.9-4.11, Table 4.1's categories) and
// the claims checked on the trace. Top-level names start with `km` (the single-file build joins
// the modules into one scope).
import { showWholeFigure, emptyFigure, findingList } from './figures.js';
import { cell } from './predictions.js';
import { runTasks } from './tasks.js';

/** Keys the panel sets itself (or the schemes do), so the shared settings and the policy's own options do not. */
const KM_OWN = ['overhead', 'mode', 'sf'];
/** The load factors ticked when the link gives none: two, to keep the demo quick. */
const KM_DEFAULT_LOADS = ['1', '1.3'];
/** Which jobs the category tables cover. */
const KM_SPLITS = [
  ['all', 'all jobs'],
  ['well', 'well estimated (estimate ≤ 2 × runtime)'],
  ['poor', 'poorly estimated (estimate > 2 × runtime)'],
];
/** What the tables and curves show: the category table's keys, the overall metrics, and how values are written. */
const KM_METRICS = {
  bsld: { name: 'bounded slowdown', short: 'bsld', avg: 'avg_bsld', max: 'max_bsld', overall: ['avg_bsld', 'max_bsld'], scale: 1, unit: '' },
  turnaround: { name: 'turnaround', short: 'turnaround [h]', avg: 'avg_turnaround_s', max: 'max_turnaround_s', overall: ['avg_response_s', 'max_response_s'], scale: 1 / 3600, unit: ' h' },
};
/** Table 4.1's categories: a cell of the load study's 2 x 2 table, described in full and briefly. */
const KM_FOUR = [
  ['SN', 0, 0, 'short (≤ 1 h), narrow (≤ 8 processors)', '≤ 1 h, ≤ 8 procs'],
  ['SW', 0, 1, 'short (≤ 1 h), wide (> 8 processors)', '≤ 1 h, > 8 procs'],
  ['LN', 1, 0, 'long (> 1 h), narrow (≤ 8 processors)', '> 1 h, ≤ 8 procs'],
  ['LW', 1, 1, 'long (> 1 h), wide (> 8 processors)', '> 1 h, > 8 procs'],
];

const km = { ctx: null, schemes: [], loadSchemes: [], factors: [], generation: 0, last: null };
const kmEl = (id) => document.getElementById(id);
const kmKey = (kv) => kv.slice(0, kv.indexOf('=')).trim().toLowerCase().replaceAll('-', '_');
const kmNumber = (s) => (/^\d+(\.\d+)?$|^\.\d+$/.test(s.trim()) ? Number(s) : NaN);
/** A number as the inputs and the URL write it (1.30 -> 1.3). */
const kmCanon = (s) => String(Number(s));
/** A load factor as the thesis writes it (1 -> 1.0). */
const kmLoadLabel = (v) => (Number.isInteger(Number(v)) ? Number(v).toFixed(1) : kmCanon(v));
/** A scheme's colour (the engine's palette index), the same in every chart: its place in the scheme list picks it. */
const kmColour = (label) => Math.max(0, km.schemes.findIndex((s) => s.label === label));
/** The first word of a category label ("VS <=10 min" -> "VS"). */
const kmShort = (label) => label.split(' ')[0];

/**
 * Wires the panel. `ctx` gives {pool, params, schemes (kettimuthu_schemes), ready(), bytes(),
 * settings() -> the shared settings and the preemption family's options as `KEY=VALUE`, onurl()}.
 */
export function installKettimuthu(ctx) {
  km.ctx = ctx;
  km.schemes = ctx.schemes.schemes;
  km.loadSchemes = ctx.schemes.load_schemes;
  km.factors = ctx.schemes.load_factors.map(kmCanon);
  const p = ctx.params;
  const list = kmEl('km-schemes');
  list.textContent = 'schemes ';
  km.schemes.forEach((s, i) => {
    const b = Object.assign(document.createElement('b'), { textContent: s.label });
    b.title = `policy ${s.policy}${s.sf === null ? '' : `, suspension factor SF = ${s.sf}`}`;
    list.append(...(i ? [', ', b] : [b]));
  });
  kmChoices(kmEl('km-split'), KM_SPLITS, p.get('km_split'));
  kmChoices(kmEl('km-metric'), Object.entries(KM_METRICS).map(([k, m]) => [k, m.name]), p.get('km_metric'));
  kmChoices(kmEl('km-overhead'), [['off', 'off'], ['on', 'on (section 4.1)']], p.get('km_overhead'));
  const given = p.get('km_loads');
  const loads = given === null ? null : given === 'none' ? [] : given.split(',').map((s) => s.trim()).filter((s) => kmNumber(s) > 0 && kmNumber(s) <= 100).map(kmCanon);
  const box = kmEl('km-loads');
  box.textContent = 'load factors ';
  for (const load of [...km.factors, ...(loads ?? []).filter((l) => !km.factors.includes(l))]) {
    const label = document.createElement('label');
    const cb = Object.assign(document.createElement('input'), { type: 'checkbox', value: load, checked: (loads ?? KM_DEFAULT_LOADS).includes(load) });
    cb.onchange = kmDescribe;
    label.append(cb, ` ${kmLoadLabel(load)}`);
    box.append(label);
  }
  kmEl('km-overhead').onchange = kmDescribe;
  // The view follows these at once, from the last runs.
  for (const id of ['km-split', 'km-metric']) {
    kmEl(id).onchange = () => {
      ctx.onurl();
      if (km.last) kmRenderView(km.last);
    };
  }
  kmEl('km-run').onclick = () => runKettimuthu();
  kmEl('km-cancel').onclick = () => ctx.pool.cancel('kettimuthu');
  kmDescribe();
  kmEmptyCharts();
}

/** Fills a select with [value, text] choices and picks the one the link gives, else the first. */
function kmChoices(select, choices, given) {
  select.textContent = '';
  for (const [v, text] of choices) select.add(new Option(text, v));
  select.value = choices.some(([v]) => v === given) ? given : choices[0][0];
}

/** The panel's inputs: {loads, overhead, split, metric}. */
export function kmForm() {
  return {
    loads: [...kmEl('km-loads').querySelectorAll('input:checked')].map((i) => i.value),
    overhead: kmEl('km-overhead').value,
    split: kmEl('km-split').value,
    metric: kmEl('km-metric').value,
  };
}

/** Says what Run will do; returns the form. */
function kmDescribe() {
  const form = kmForm();
  const n = form.loads.length * km.loadSchemes.length;
  kmEl('km-count').textContent =
    `the comparison of ${km.schemes.length} schemes` +
    (n ? ` and ${n} load-study runs (${km.loadSchemes.map((s) => s.label).join(', ')} at load ${form.loads.map(kmLoadLabel).join(', ')})` : ', no load study (tick a load factor for one)') +
    (form.overhead === 'on' ? ', with suspension overhead' : '');
  return form;
}

/** The panel in the URL: `km_loads`, and `km_split`, `km_metric`, `km_overhead` when not the defaults. */
export function kmUrlValues() {
  const form = kmForm();
  return {
    km_loads: form.loads.length ? form.loads.join(',') : 'none',
    km_split: form.split === 'all' ? null : form.split,
    km_metric: form.metric === 'bsld' ? null : form.metric,
    km_overhead: form.overhead === 'off' ? null : form.overhead,
  };
}

function kmStatus(text, kind = '') {
  const el = kmEl('km-status');
  el.textContent = text;
  el.className = kind;
}

/** The settings of every run: the page's (less the panel's own keys), then the panel's. */
function kmSettings(form) {
  return [...km.ctx.settings().filter((kv) => !KM_OWN.includes(kmKey(kv))), `overhead=${form.overhead}`];
}

/** Runs the comparison and every load point across the worker pool, then the load findings, then shows it all. */
export async function runKettimuthu() {
  const ctx = km.ctx;
  const form = kmDescribe();
  if (!ctx.ready()) {
    kmStatus('Load a trace first.', 'error');
    return;
  }
  ctx.pool.cancel('kettimuthu');
  clearKettimuthu(); // the figures of the last runs would not match the new ones
  const generation = ++km.generation;
  ctx.onurl();
  const settings = kmSettings(form);
  const bytes = ctx.bytes();
  // The comparison first: it is the longest task (six schemes and TSS's NS run).
  const tasks = [
    { what: 'the comparison', task: { kind: 'kettimuthu', tag: 'kettimuthu', bytes, settings } },
    ...form.loads.flatMap((load) =>
      km.loadSchemes.map((s) => ({
        what: `${s.label} at load ${kmLoadLabel(load)}`,
        task: { kind: 'kettimuthu-load', tag: 'kettimuthu', bytes, settings, input: { label: s.label, factor: Number(load) } },
      })),
    ),
  ];
  const batch = await runTasks(ctx.pool, tasks, {
    group: 'kettimuthu',
    bar: kmEl('km-progress'),
    status: kmStatus,
    current: () => generation === km.generation,
  });
  if (!batch) return;
  const { values, done, t0, stopped } = batch;
  if (done < tasks.length) return stopped();
  const comparison = values[0].comparison;
  const points = values.slice(1).map((v) => v.point);
  let loadFindings = [];
  if (points.length) {
    const res = await ctx.pool.run({
      kind: 'kettimuthu-load-findings',
      tag: 'kettimuthu',
      input: {
        labels: points.map((p) => p.scheme.label),
        loads: points.map((p) => p.load),
        utilization: points.map((p) => p.utilization),
        avg_bsld: points.map((p) => p.avg_bsld),
      },
    });
    if (generation !== km.generation) return;
    if (!res.ok) {
      return stopped(res.cancelled ? null : `the load findings: ${res.error}`);
    }
    loadFindings = res.value;
  }
  km.last = { form, comparison, points, loadFindings, seconds: (performance.now() - t0) / 1000 };
  kmRender(km.last);
  kmStatus(
    `Ran ${comparison.schemes.map((r) => r.scheme.label).join(', ')}` +
      (points.length ? ` and the load study at ${form.loads.map(kmLoadLabel).join(', ')}` : '') +
      ` in ${km.last.seconds.toFixed(1)} s${form.overhead === 'on' ? ', with suspension overhead' : ''}.`,
    'done',
  );
  document.body.dataset.kettimuthu = 'done';
}

/** Everything from the last runs: the views that follow the selects, and the fixed tables. */
function kmRender(last) {
  findingList(kmEl('km-findings'), last.comparison.findings);
  findingList(kmEl('km-load-findings'), last.loadFindings);
  kmSummary(last);
  kmDistribution(last);
  kmRenderView(last);
}

/** The parts that follow the estimate split and the metric. */
function kmRenderView(last) {
  kmHeatTable(last);
  kmLoadTable(last);
  redrawKettimuthu();
}

/** A value of the metric as the tables and cells write it. */
function kmValue(metric, v) {
  const m = KM_METRICS[metric];
  return (v * m.scale).toFixed(2);
}

/** The 16 categories as a table: the jobs, then the average and the worst case per scheme. */
function kmHeatTable(last) {
  const { split, metric } = kmForm();
  const m = KM_METRICS[metric];
  const runs = last.comparison.schemes;
  const table = kmEl('km-heat-table');
  table.textContent = '';
  table.dataset.split = split;
  table.dataset.metric = metric;
  const head = table.createTHead();
  const top = head.insertRow();
  const th = (tr, text, title, span = 1) => {
    const el = Object.assign(document.createElement('th'), { textContent: text, title, colSpan: span });
    tr.append(el);
  };
  th(top, '', '', 2);
  th(top, `average ${m.short}`, `mean ${m.name} of the category's jobs`, runs.length);
  th(top, `worst-case ${m.short}`, `largest ${m.name} of the category's jobs`, runs.length);
  const names = head.insertRow();
  th(names, 'category', 'length by actual runtime, width by processors (Table 2.1)');
  th(names, 'jobs', `finished jobs in the category (${KM_SPLITS.find((s) => s[0] === split)[1]})`);
  for (const kind of ['average', 'worst case']) for (const r of runs) th(names, r.scheme.label, `${kind}, ${r.scheme.label}`);
  const body = table.createTBody();
  const t0 = runs[0][split];
  t0.rows.forEach((row, r) => {
    t0.cols.forEach((col, c) => {
      const tr = body.insertRow();
      tr.dataset.row = kmShort(row);
      tr.dataset.col = kmShort(col);
      cell(tr, `${kmShort(row)} ${kmShort(col)}`, '', '', `${row}, ${col} processors`).className = 'rt';
      cell(tr, String(t0.count[r][c]), 'count', t0.count[r][c]);
      for (const [prefix, key] of [['avg', m.avg], ['max', m.max]]) {
        for (const run of runs) {
          const t = run[split];
          const v = t[key][r][c];
          cell(tr, t.count[r][c] ? kmValue(metric, v) : '-', `${prefix}:${run.scheme.label}`, v);
        }
      }
    });
  });
  const jobs = t0.count.flat().reduce((a, b) => a + b, 0);
  kmEl('km-heat-note').textContent =
    `${KM_SPLITS.find((s) => s[0] === split)[1]}: ${jobs} jobs. ${m.name[0].toUpperCase()}${m.name.slice(1)}${m.unit ? ` in hours` : ''}; ` +
    'colours on a log scale shared by the panels of a chart (the key below it); grey cells with “–” have no jobs.';
}

/** Per scheme: the overall figures, the suspensions and their overhead. */
function kmSummary(last) {
  const table = kmEl('km-summary');
  table.textContent = '';
  const cols = [
    ['avg_bsld', 'avg bsld', 'mean bounded slowdown over all jobs', (v) => v.toFixed(2)],
    ['max_bsld', 'worst bsld', 'largest bounded slowdown', (v) => v.toFixed(2)],
    ['avg_response_s', 'avg turnaround [h]', 'mean turnaround (end − submit)', (v) => (v / 3600).toFixed(2)],
    ['max_response_s', 'worst turnaround [h]', 'longest turnaround', (v) => (v / 3600).toFixed(2)],
    ['utilization', 'utilization', 'used processor-seconds / (makespan × machine size)', (v) => v.toFixed(3)],
    ['suspensions', 'suspensions', 'times a running job was suspended', String],
    ['suspended_jobs', 'suspended jobs', 'jobs suspended at least once', String],
    ['overhead_proc_h', 'overhead [proc-h]', 'processor-hours spent suspending and resuming (overhead on)', (v) => v.toFixed(2)],
  ];
  const head = table.createTHead().insertRow();
  for (const [text, title] of [['scheme', 'the scheme and its policy'], ['SF', 'suspension factor'], ...cols.map((c) => [c[1], c[2]])]) {
    head.append(Object.assign(document.createElement('th'), { textContent: text, title }));
  }
  const body = table.createTBody();
  for (const run of last.comparison.schemes) {
    const tr = body.insertRow();
    tr.dataset.scheme = run.scheme.label;
    cell(tr, run.scheme.label, '', '', `policy ${run.scheme.policy}`);
    cell(tr, run.scheme.sf === null ? '—' : String(run.scheme.sf), 'sf', run.scheme.sf);
    for (const [key, , , show] of cols) cell(tr, show(run.metrics[key]), key, run.metrics[key]);
  }
}

/** Table 2.2: the share of the jobs in each category (NS's table of all jobs). */
function kmDistribution(last) {
  const t = last.comparison.schemes[0].all;
  const table = kmEl('km-distribution');
  table.textContent = '';
  const head = table.createTHead().insertRow();
  head.append(Object.assign(document.createElement('th'), { textContent: '', title: 'length by actual runtime' }));
  for (const col of t.cols) head.append(Object.assign(document.createElement('th'), { textContent: kmShort(col), title: `${col} processors` }));
  head.append(Object.assign(document.createElement('th'), { textContent: 'all', title: 'every width' }));
  const body = table.createTBody();
  const total = t.count.flat().reduce((a, b) => a + b, 0);
  const pct = (n) => (total ? (100 * n) / total : 0);
  t.rows.forEach((row, r) => {
    const tr = body.insertRow();
    tr.dataset.row = kmShort(row);
    cell(tr, kmShort(row), '', '', row).className = 'rt';
    t.cols.forEach((col, c) => cell(tr, `${t.share_pct[r][c].toFixed(1)}%`, kmShort(col), t.share_pct[r][c], `${t.count[r][c]} jobs`));
    const n = t.count[r].reduce((a, b) => a + b, 0);
    cell(tr, `${pct(n).toFixed(1)}%`, 'all', pct(n), `${n} jobs`);
  });
  const tr = body.insertRow();
  tr.dataset.row = 'all';
  cell(tr, 'all', '', '', 'every length').className = 'rt';
  t.cols.forEach((col, c) => {
    const n = t.rows.reduce((a, _, r) => a + t.count[r][c], 0);
    cell(tr, `${pct(n).toFixed(1)}%`, kmShort(col), pct(n), `${n} jobs`);
  });
  cell(tr, '100%', 'all', total ? 100 : 0, `${total} jobs`);
}

/** The load study's points: overall figures and Table 4.1's four categories of the metric. */
function kmLoadTable(last) {
  const { metric } = kmForm();
  const m = KM_METRICS[metric];
  const table = kmEl('km-load-table');
  table.textContent = '';
  table.dataset.metric = metric;
  if (!last.points.length) return;
  const head = table.createTHead().insertRow();
  for (const [text, title] of [
    ['load', 'load factor: interarrival times divided by it'],
    ['scheme', 'the scheme'],
    ['utilization', 'used processor-seconds / (makespan × machine size) (Fig. 4.9)'],
    ['avg bsld', 'mean bounded slowdown over all jobs (Fig. 4.10)'],
    ['avg turnaround [h]', 'mean turnaround over all jobs'],
    ['suspensions', 'times a running job was suspended'],
    ...KM_FOUR.map(([name, , , what]) => [`${name} ${m.short}`, `average ${m.name}, ${what} (Table 4.1; Figs. 4.10-4.11)`]),
  ]) {
    head.append(Object.assign(document.createElement('th'), { textContent: text, title }));
  }
  const body = table.createTBody();
  for (const p of last.points) {
    const tr = body.insertRow();
    tr.dataset.load = kmCanon(p.load);
    tr.dataset.scheme = p.scheme.label;
    cell(tr, kmLoadLabel(p.load), 'load', p.load);
    cell(tr, p.scheme.label, '', '').className = 'rt';
    cell(tr, p.utilization.toFixed(3), 'utilization', p.utilization);
    cell(tr, p.avg_bsld.toFixed(2), 'avg_bsld', p.avg_bsld);
    cell(tr, (p.avg_turnaround_s / 3600).toFixed(2), 'avg_turnaround_s', p.avg_turnaround_s);
    cell(tr, String(p.suspensions), 'suspensions', p.suspensions);
    for (const [name, r, c] of KM_FOUR) {
      const v = p.four[m.avg][r][c];
      cell(tr, p.four.count[r][c] ? kmValue(metric, v) : '-', name, v, `${p.four.count[r][c]} jobs`);
    }
  }
}

/** Draws a chart by the engine from its spec. */
function kmDraw(id, name, spec) {
  showWholeFigure(kmEl(id), name, (e, o) => e.generic_figure(spec, o));
}

/** Draws the heatmaps and the load curves from the last runs (or says what will appear there). */
export function redrawKettimuthu() {
  const last = km.last;
  if (!last) return kmEmptyCharts();
  const { split, metric } = kmForm();
  const m = KM_METRICS[metric];
  const runs = last.comparison.schemes;
  const t0 = runs[0][split];
  const splitName = KM_SPLITS.find((s) => s[0] === split)[1].replace(/ \(.*/, '');
  for (const [id, key, kind, figs] of [
    ['chart-km-avg', m.avg, 'average', 'Figs. 3.1, 3.3'],
    ['chart-km-worst', m.max, 'worst-case', 'Figs. 3.2, 3.4-3.6'],
  ]) {
    const canvas = kmEl(id);
    // As many 4 x 4 panels across as leave cells room (the engine arranges them): the canvas grows to hold the rows.
    const across = Math.max(1, Math.min(runs.length, Math.floor((canvas.clientWidth || 900) / 180)));
    canvas.style.height = `${130 + Math.ceil(runs.length / across) * 170}px`;
    kmDraw(id, `kettimuthu-${kind}-${metric}-${split}`, {
      kind: 'heatmaps',
      labels: {
        title: `${kind[0].toUpperCase()}${kind.slice(1)} ${m.short}, ${splitName}`,
        subtitle: `by category (${figs}): runtime ${t0.rows.join(', ')}; processors ${t0.cols.join(', ')}; lower is better`,
        x: 'processors',
        y: 'runtime',
        log: true,
        value: `${kind} ${m.name}`,
        unit: m.unit,
      },
      rows: t0.rows.map(kmShort),
      cols: t0.cols.map(kmShort),
      panels: runs.map((r) => ({
        name: r.scheme.label,
        values: r[split][key].map((row, i) => row.map((v, j) => (r[split].count[i][j] ? v * m.scale : null))),
        counts: r[split].count,
      })),
    });
  }
  kmLoadCharts(last, metric);
}

/** The load curves: utilization and the overall average per scheme, and one small chart per Table 4.1 category. */
function kmLoadCharts(last, metric) {
  const m = KM_METRICS[metric];
  const charts = ['chart-km-util', 'chart-km-overall', ...KM_FOUR.map(([name]) => `chart-km-${name.toLowerCase()}`)];
  if (!last.points.length) {
    for (const id of charts) emptyFigure(kmEl(id), 'No load factor was ticked: tick one or more for the load study.');
    return;
  }
  const loads = [...new Set(last.points.map((p) => p.load))].sort((a, b) => a - b);
  const series = (value, keep = () => true) =>
    km.loadSchemes.map((s) => ({
      name: s.label,
      colour: kmColour(s.label),
      values: loads.map((load) => {
        const p = last.points.find((q) => q.scheme.label === s.label && q.load === load);
        return p && keep(p) ? value(p) : null;
      }),
    }));
  const draw = (id, title, y, unit, list, subtitle = 'lower is better') => {
    // Values spread over more than a factor of 30 (NS's slowdown beside IS's) read on a log scale.
    const values = list.flatMap((s) => s.values).filter((v) => v !== null);
    const log = values.length > 0 && values.every((v) => v > 0) && Math.max(...values) > 30 * Math.min(...values);
    kmDraw(id, id.replace('chart-', ''), {
      kind: 'lines',
      labels: { title, subtitle: log ? `${subtitle}; log scale` : subtitle, x: 'load factor', y, unit, log },
      xs: loads,
      x_labels: loads.map(kmLoadLabel),
      series: list,
    });
  };
  draw('chart-km-util', 'Utilization against load (Fig. 4.9)', 'utilization', '', series((p) => p.utilization), 'used processor-seconds / (makespan × machine size); higher is better');
  const overall = metric === 'bsld' ? (p) => p.avg_bsld : (p) => p.avg_turnaround_s * m.scale;
  draw('chart-km-overall', `Average ${m.short} against load (Fig. 4.10)`, `average ${m.short}`, m.unit, series(overall));
  for (const [name, r, c, , brief] of KM_FOUR) {
    const jobs = series((p) => p.four[m.avg][r][c] * m.scale, (p) => p.four.count[r][c] > 0);
    draw(`chart-km-${name.toLowerCase()}`, `${name}: average ${m.short}`, `average ${m.short}`, m.unit, jobs, `jobs ${brief}; lower is better`);
  }
}

function kmEmptyCharts() {
  const waiting = [
    ['chart-km-avg', 'Run the comparison for the average per category and scheme (Figs. 3.1, 3.3).'],
    ['chart-km-worst', 'Run the comparison for the worst case per category and scheme (Figs. 3.2, 3.4-3.6).'],
    ['chart-km-util', 'Run with load factors ticked: utilization against load (Fig. 4.9).'],
    ['chart-km-overall', 'Run with load factors ticked: average slowdown against load (Fig. 4.10).'],
    ...KM_FOUR.map(([name, , , what]) => [`chart-km-${name.toLowerCase()}`, `${name} (${what}) against load (Figs. 4.10-4.11).`]),
  ];
  for (const [id, text] of waiting) {
    const canvas = kmEl(id);
    if (id === 'chart-km-avg' || id === 'chart-km-worst') canvas.style.height = '';
    emptyFigure(canvas, text);
  }
}

/** Forgets the runs (a new trace makes them stale). */
export function clearKettimuthu() {
  km.generation++;
  km.last = null;
  for (const id of ['km-heat-table', 'km-summary', 'km-distribution', 'km-load-table', 'km-findings', 'km-load-findings']) kmEl(id).textContent = '';
  kmEl('km-heat-note').textContent = '';
  kmEl('km-progress').value = 0;
  kmEmptyCharts();
  kmStatus('');
  delete document.body.dataset.kettimuthu;
}
