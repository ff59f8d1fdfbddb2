// Multiple-queue backfilling (Lawson & Smirni 2002) on the page: `mq-backfill` against its
// single-queue baseline `sq-backfill` on the loaded trace, one comparison per offered-load factor
// across the worker pool (the engine's `lawson_compare`, worker task `lawson`). Shown as the
// paper's figures: the slowdown ratio R per job class (Figs. 3 and 5; per priority, Figs. 6 and
// 8), R per 1,000 submissions over time (Figs. 4, 7 and 9), the missed reservations (Table 2) and
// the tail of the reservation delays (Fig. 11). Top-level names start with `lawson` (the
// single-file build joins the modules into one scope).
import { fmt, show, showWholeFigure, emptyFigure } from './figures.js';
import { cell } from './predictions.js';
import { runTasks } from './tasks.js';

/** The paper's fractions of high-priority (local) jobs: all, 95% (Figs. 8-9) and 75% (Figs. 6-7). */
export const LAWSON_HIGH = ['1', '0.95', '0.75'];
/** The paper's fractions of jobs asking for a reservation (Table 2, Figs. 10-11), and none. */
export const LAWSON_RESERVATIONS = ['0', '0.01', '0.05', '0.25'];
/** The paper's offered-load factors (Fig. 5): interarrival times divided by the factor. */
export const LAWSON_LOADS = ['1', '1.25', '1.5'];
/** Keys the panel sets itself, so the policy's own options and the shared settings do not. */
const LAWSON_OWN = ['high_priority', 'reservations', 'load', 'queues', 'thresholds', 'seed'];
/** The policy whose options (typed under Policies) both runs take. */
export const LAWSON_POLICY = 'mq-backfill';

const lawson = { ctx: null, generation: 0, last: null, defaults: { queues: '3', thresholds: '1000,10000', seed: '1' } };
const lawsonEl = (id) => document.getElementById(id);
const lawsonKey = (kv) => kv.slice(0, kv.indexOf('=')).trim().toLowerCase().replaceAll('-', '_');
const lawsonNumber = (s) => (/^\d+(\.\d+)?$|^\.\d+$/.test(s.trim()) ? Number(s) : NaN);

/** A number as the inputs and the URL write it (1.50 -> 1.5). */
const lawsonCanon = (s) => String(Number(s));

/**
 * Wires the panel. `ctx` gives {pool, catalogue, params, ready(), bytes(), settings() -> the
 * shared settings and mq-backfill's own options as `KEY=VALUE`, header() -> the trace's SWF
 * header (or null), onurl()}.
 */
export function installLawson(ctx) {
  lawson.ctx = ctx;
  const family = ctx.catalogue.policies.find((p) => p.name === LAWSON_POLICY)?.family_defaults ?? {};
  for (const k of Object.keys(lawson.defaults)) if (family[k] !== undefined) lawson.defaults[k] = String(family[k]);
  lawsonEl('lawson-explain').dataset.text = lawsonEl('lawson-explain').textContent;
  const p = ctx.params;
  lawsonChoices(lawsonEl('lawson-high'), LAWSON_HIGH, p.get('mq_high'), (v) => `${Math.round(v * 100)}% high priority`);
  lawsonChoices(lawsonEl('lawson-reservations'), LAWSON_RESERVATIONS, p.get('mq_res'), (v) => (v > 0 ? `${v} of the jobs` : 'none'));
  const loads = p.get('mq_loads')?.split(',').map((s) => s.trim()).filter((s) => lawsonNumber(s) > 0).map(lawsonCanon);
  const box = lawsonEl('lawson-loads');
  box.textContent = 'load factors ';
  for (const load of [...LAWSON_LOADS, ...(loads ?? []).filter((l) => !LAWSON_LOADS.includes(l))]) {
    const label = document.createElement('label');
    const cb = Object.assign(document.createElement('input'), { type: 'checkbox', value: load, checked: loads ? loads.includes(load) : true });
    cb.onchange = lawsonDescribe;
    label.append(cb, ` ${load}`);
    box.append(label);
  }
  lawsonEl('lawson-queues').value = p.get('mq_queues') ?? lawson.defaults.queues;
  lawsonEl('lawson-thresholds').value = p.get('mq_thresholds') ?? lawson.defaults.thresholds;
  lawsonEl('lawson-seed').value = p.get('mq_seed') ?? lawson.defaults.seed;
  for (const id of ['lawson-queues', 'lawson-thresholds', 'lawson-seed']) lawsonEl(id).oninput = lawsonDescribe;
  lawsonEl('lawson-high').onchange = lawsonDescribe;
  lawsonEl('lawson-reservations').onchange = lawsonDescribe;
  lawsonEl('lawson-run').onclick = () => runLawson();
  lawsonEl('lawson-cancel').onclick = () => ctx.pool.cancel('lawson');
  lawsonDescribe();
  lawsonEmptyCharts();
}

/** Fills a select with the paper's values, and a value from the link if it is another fraction. */
function lawsonChoices(select, values, given, describe) {
  select.textContent = '';
  const extra = given !== null && lawsonNumber(given) <= 1 && !values.includes(lawsonCanon(given)) ? [lawsonCanon(given)] : [];
  for (const v of [...values, ...extra]) select.add(new Option(`${v} (${describe(Number(v))})`, v));
  select.value = given !== null && [...values, ...extra].includes(lawsonCanon(given)) ? lawsonCanon(given) : values[0];
}

/** The panel's inputs, checked: {high, reservations, loads, queues, thresholds, seed} or {error}. */
export function lawsonForm() {
  const loads = [...lawsonEl('lawson-loads').querySelectorAll('input:checked')].map((i) => i.value);
  if (!loads.length) return { error: 'tick one or more load factors' };
  const queues = lawsonEl('lawson-queues').value.trim();
  if (!/^\d+$/.test(queues) || Number(queues) < 1 || Number(queues) > 16) return { error: `queues must be a whole number from 1 to 16, not "${queues}"` };
  const thresholds = lawsonEl('lawson-thresholds').value.trim().replace(/\s+/g, '');
  const bounds = thresholds.split(',').filter(Boolean);
  if (bounds.some((b) => !/^\d+$/.test(b)) || bounds.some((b, i) => i && Number(b) <= Number(bounds[i - 1]))) {
    return { error: 'thresholds: ascending whole seconds separated by commas, e.g. 1000,10000' };
  }
  if (bounds.length < Number(queues) - 1) return { error: `${queues} queues need ${Number(queues) - 1} thresholds, ${bounds.length} given` };
  const seed = lawsonEl('lawson-seed').value.trim();
  if (!/^\d+$/.test(seed)) return { error: `the seed must be a whole number >= 0, not "${seed}"` };
  return {
    high: lawsonEl('lawson-high').value,
    reservations: lawsonEl('lawson-reservations').value,
    loads,
    queues,
    thresholds: bounds.join(','),
    seed,
  };
}

/** Says what Run will do; returns the form, or null on an error. */
function lawsonDescribe() {
  const form = lawsonForm();
  const count = lawsonEl('lawson-count');
  count.className = form.error ? 'error' : '';
  count.textContent = form.error
    ? form.error
    : `${form.loads.length} comparison${form.loads.length === 1 ? '' : 's'} (load ${form.loads.join(', ')}), each mq-backfill and sq-backfill: ${2 * form.loads.length} runs`;
  return form.error ? null : form;
}

/** The panel in the URL: `mq_loads`, `mq_high` and `mq_res`, and the others when not the defaults. */
export function lawsonUrlValues() {
  const form = lawsonForm();
  if (form.error) return null;
  const out = { mq_loads: form.loads.join(','), mq_high: form.high, mq_res: form.reservations };
  for (const [key, value] of [['queues', form.queues], ['thresholds', form.thresholds], ['seed', form.seed]]) {
    out[`mq_${key}`] = value === lawson.defaults[key] ? null : value;
  }
  return out;
}

function lawsonStatus(text, kind = '') {
  const el = lawsonEl('lawson-status');
  el.textContent = text;
  el.className = kind;
}

/**
 * The settings of one comparison: the page's (less the panel's own keys), then the panel's. A
 * load set among the shared trace options scales every factor, as `schedlab lawson` does.
 */
function lawsonSettings(form, load) {
  const all = lawson.ctx.settings();
  const shared = all.filter((kv) => lawsonKey(kv) === 'load').map((kv) => lawsonNumber(kv.slice(kv.indexOf('=') + 1))).pop();
  const base = all.filter((kv) => !LAWSON_OWN.includes(lawsonKey(kv)));
  const factor = Number.isFinite(shared) && shared > 0 ? shared * Number(load) : Number(load);
  return [
    ...base,
    `high_priority=${form.high}`,
    `reservations=${form.reservations}`,
    `load=${factor}`,
    `queues=${form.queues}`,
    `thresholds=${form.thresholds}`,
    `seed=${form.seed}`,
  ];
}

/** Runs one comparison per load factor across the worker pool, then shows the figures. */
export async function runLawson() {
  const ctx = lawson.ctx;
  const form = lawsonDescribe();
  if (!form) return;
  if (!ctx.ready()) {
    lawsonStatus('Load a trace first.', 'error');
    return;
  }
  ctx.pool.cancel('lawson');
  clearLawson(); // the figures of the last runs would not match the new ones
  const generation = ++lawson.generation;
  ctx.onurl();
  const runs = form.loads.map((load) => ({ load, settings: lawsonSettings(form, load) }));
  const batch = await runTasks(
    ctx.pool,
    runs.map((run) => ({ what: `load ${run.load}`, task: { kind: 'lawson', tag: 'lawson', bytes: ctx.bytes(), settings: run.settings } })),
    { group: 'lawson', bar: lawsonEl('lawson-progress'), status: lawsonStatus, current: () => generation === lawson.generation, noun: ['comparison', 'comparisons'] },
  );
  if (!batch) return;
  const { values, done, t0, stopped } = batch;
  if (done < runs.length) return stopped();
  runs.forEach((run, i) => {
    run.comparison = values[i].comparison;
    run.tailPoints = values[i].tail_points;
  });
  lawson.last = { form, runs, header: ctx.header(), seconds: (performance.now() - t0) / 1000 };
  lawsonRender(lawson.last);
  lawsonStatus(
    `Compared mq-backfill with sq-backfill at load ${form.loads.join(', ')} in ${lawson.last.seconds.toFixed(1)} s: ` +
      `${lawsonPct(form.high)} high priority, ${form.reservations > 0 ? `${form.reservations} of the jobs asking for a reservation` : 'no reservations'}, seed ${form.seed}.`,
    'done',
  );
  document.body.dataset.lawson = 'done';
}

const lawsonPct = (v) => `${Math.round(Number(v) * 100)}%`;
const lawsonPriorities = (last) => Number(last.form.high) < 1;
/** A load's colour in every chart (the engine's palette index): the paper's loads keep theirs whichever are ticked. */
const lawsonColour = (load, i) => (LAWSON_LOADS.includes(load) ? LAWSON_LOADS.indexOf(load) : LAWSON_LOADS.length + i);

/** The job classes of the thresholds: short, medium and long for the paper's two, else by range. */
export function lawsonClasses(thresholds) {
  const span = (i) =>
    i === 0 ? `estimate < ${thresholds[0]} s` : i === thresholds.length ? `estimate >= ${thresholds[i - 1]} s` : `${thresholds[i - 1]} s <= estimate < ${thresholds[i]} s`;
  const names =
    thresholds.length === 2 ? ['short', 'medium', 'long'] : thresholds.length === 1 ? ['short', 'long'] : thresholds.map((_, i) => `class ${i + 1}`).concat(`class ${thresholds.length + 1}`);
  return names.map((name, i) => ({ name, title: span(i) }));
}

/** R as the tables show it: signed, three decimals. */
const lawsonR = (v) => (v === null || v === undefined ? '—' : `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(3)}`);

function lawsonRender(last) {
  const classes = lawsonClasses(last.runs[0].comparison.thresholds);
  lawsonEl('lawson-explain').textContent =
    `Slowdown s = 1 + d/v, d the job's wait and v its actual runtime (Eq. 2), averaged over the jobs. ` +
    `R = (s1 − sm) / min(s1, sm) (Eq. 3), s1 with one queue (sq-backfill), sm with ${last.form.queues} (mq-backfill): ` +
    `R > 0 means multiple queues do better, R = 1 that the single queue's slowdown is twice as high. ` +
    `Classes by the user's runtime estimate: ${classes.map((c) => `${c.name} (${c.title})`).join(', ')}.` +
    (lawsonPriorities(last) ? ` ${lawsonPct(last.form.high)} of the jobs are drawn as high priority (local), the rest low (external).` : '');
  lawsonSummary(last, classes);
  lawsonReservations(last);
  redrawLawson();
}

/** R per load (and per priority): s1, sm, R overall and per class (Figs. 3, 5, 6, 8 as numbers). */
function lawsonSummary(last, classes) {
  const table = lawsonEl('lawson-summary');
  table.textContent = '';
  const jobs = last.runs[0].comparison.single.class_jobs;
  const head = table.createTHead().insertRow();
  const th = (text, title) => head.append(Object.assign(document.createElement('th'), { textContent: text, title }));
  th('load', 'offered-load factor: interarrival times divided by it');
  th('jobs', 'jobs the slowdowns average over');
  th('s1', 'average slowdown 1 + d/v with one queue (sq-backfill)');
  th('sm', `average slowdown 1 + d/v with ${last.form.queues} queues (mq-backfill)`);
  th('R', 'R = (s1 − sm) / min(s1, sm) over the jobs of the row');
  classes.forEach((c, i) => th(`R ${c.name}`, `R over the ${c.name} jobs: ${c.title} (${jobs[i]} jobs)`));
  const body = table.createTBody();
  const kinds = lawsonPriorities(last)
    ? [['all', 'all jobs', '', 'overall', 'r_classes'], ['high', 'high priority', 'high', 'high', 'r_classes_high'], ['low', 'low priority', 'low', 'low', 'r_classes_low']]
    : [['all', 'all jobs', '', 'overall', 'r_classes']];
  for (const run of last.runs) {
    const c = run.comparison;
    kinds.forEach(([priority, label, rKey, sKey, classKey], k) => {
      const tr = body.insertRow();
      tr.dataset.load = run.load;
      tr.dataset.priority = priority;
      if (k === 0) cell(tr, run.load, 'load', run.load).rowSpan = kinds.length;
      const r = rKey ? c[`r_${rKey}`] : c.r;
      const n = priority === 'all' ? c.single.class_jobs.reduce((a, b) => a + b, 0) : null;
      cell(tr, n === null ? label : `${n} (${label})`, 'jobs', n ?? '', label).className = 'rt';
      cell(tr, c.single[sKey] === null ? '—' : c.single[sKey].toFixed(2), 's1', c.single[sKey]);
      cell(tr, c.multi[sKey] === null ? '—' : c.multi[sKey].toFixed(2), 'sm', c.multi[sKey]);
      lawsonRCell(tr, r, 'r', `load ${run.load}, ${label}: R = ${r}`);
      classes.forEach((cl, i) => lawsonRCell(tr, c[classKey][i], `r_${cl.name}`, `load ${run.load}, ${label}, ${cl.name}: R = ${c[classKey][i]}`));
    });
  }
}

function lawsonRCell(tr, r, key, title) {
  const td = cell(tr, lawsonR(r), key, r, title);
  if (r !== null && r !== undefined && r !== 0) td.className = r > 0 ? 'better' : 'worse';
}

/** Table 2 per load: reservation requests and missed reservations, with the mean delays. */
function lawsonReservations(last) {
  const table = lawsonEl('lawson-reservations-table');
  table.textContent = '';
  const head = table.createTHead().insertRow();
  for (const [text, title] of [
    ['load', 'offered-load factor'],
    ['reservations requested', 'jobs drawn to ask for an advance reservation (the same jobs in both runs)'],
    ['single-queue missed', 'reservations sq-backfill granted later than asked'],
    ['multiple-queue missed', 'reservations mq-backfill granted later than asked'],
    ['single-queue mean delay [min]', 'mean granted minus requested start over the requests, sq-backfill'],
    ['multiple-queue mean delay [min]', 'mean granted minus requested start over the requests, mq-backfill'],
  ]) {
    head.append(Object.assign(document.createElement('th'), { textContent: text, title }));
  }
  const body = table.createTBody();
  for (const run of last.runs) {
    const { reservations: r, single_metrics: sm, multi_metrics: mm } = run.comparison;
    const tr = body.insertRow();
    tr.dataset.load = run.load;
    cell(tr, run.load, 'load', run.load);
    cell(tr, String(r.requested), 'requested', r.requested);
    cell(tr, String(r.missed_single), 'missed_single', r.missed_single);
    cell(tr, String(r.missed_multi), 'missed_multi', r.missed_multi);
    cell(tr, r.requested ? fmt(sm.reservation_delay_avg_s / 60) : '—', 'delay_single_s', sm.reservation_delay_avg_s);
    cell(tr, r.requested ? fmt(mm.reservation_delay_avg_s / 60) : '—', 'delay_multi_s', mm.reservation_delay_avg_s);
  }
  lawsonEl('lawson-reservations-note').textContent =
    Number(last.form.reservations) > 0
      ? `${last.form.reservations} of the jobs (the same in both runs) ask for a reservation: a start the option lead draws after their submission (by default uniformly within a day). A reservation is missed when it is granted a later start.`
      : 'No job asks for a reservation (fraction 0): choose 0.01, 0.05 or 0.25 for Table 2 and Fig. 11.';
}

/** Draws a chart by the engine from its spec; `extra` adds to the chart options. */
function lawsonDraw(id, name, spec, extra = {}) {
  showWholeFigure(lawsonEl(id), name, (e, o) => e.generic_figure(spec, o), extra);
}

/** Draws the four charts from the last runs (or says what will appear there). */
export function redrawLawson() {
  const last = lawson.last;
  if (!last) return lawsonEmptyCharts();
  const classes = lawsonClasses(last.runs[0].comparison.thresholds);
  const categories = ['all', ...classes.map((c) => c.name)];
  const byClass = (c, r, classKey) => [c[r], ...c[classKey]];
  const rLabels = { x: 'jobs (classes by estimated runtime)', y: 'R', value: 'R' };
  const rWhat = 'R = (s1 − sm) / min(s1, sm): above 0, multiple queues do better';

  // Figs. 3 and 5: R per class, one bar per load.
  lawsonDraw('chart-lawson-r', 'lawson-r', {
    kind: 'grouped-bars',
    labels: { ...rLabels, title: 'R per class (Figs. 3, 5)', subtitle: rWhat },
    categories,
    series: last.runs.map((run, i) => ({ name: `load ${run.load}`, colour: lawsonColour(run.load, i), values: byClass(run.comparison, 'r', 'r_classes') })),
  });

  // Figs. 6 and 8: R of the high- and low-priority jobs per class; low priority paler.
  if (lawsonPriorities(last)) {
    lawsonDraw('chart-lawson-priority', 'lawson-priority', {
      kind: 'grouped-bars',
      labels: { ...rLabels, title: 'R by priority (Figs. 6, 8)', subtitle: `per class, ${lawsonPct(last.form.high)} of the jobs high priority; paler bars: low priority` },
      categories,
      series: last.runs.flatMap((run, i) => [
        { name: `load ${run.load} high`, colour: lawsonColour(run.load, i), values: byClass(run.comparison, 'r_high', 'r_classes_high') },
        { name: `load ${run.load} low`, colour: lawsonColour(run.load, i), pale: true, values: byClass(run.comparison, 'r_low', 'r_classes_low') },
      ]),
    });
  } else {
    emptyFigure(lawsonEl('chart-lawson-priority'), 'Every job is high priority: choose 0.95 or 0.75 for R by priority (Figs. 6, 8).');
  }

  // Figs. 4, 7 and 9: R per 1,000 submissions against time. Each load's batches start at their
  // own times: the xs are all of them, each line through its own.
  const keys = lawsonPriorities(last) ? [['r_high', 'high', false], ['r_low', 'low', true]] : [['r', '', false]];
  const xs = [...new Set(last.runs.flatMap((run) => run.comparison.transient.map((b) => b.time)))].sort((a, b) => a - b);
  const series = last.runs.flatMap((run, i) =>
    keys.map(([key, label, pale]) => {
      const at = new Map(run.comparison.transient.map((b) => [b.time, b[key]]));
      return { name: `load ${run.load}${label ? ` ${label}` : ''}`, colour: lawsonColour(run.load, i), pale, values: xs.map((t) => at.get(t) ?? null) };
    }),
  );
  lawsonDraw(
    'chart-lawson-transient',
    'lawson-transient',
    {
      kind: 'lines',
      labels: {
        title: 'R over time (Figs. 4, 7, 9)',
        subtitle: `R of each batch of 1,000 submissions, at its first job's submit time; ${rWhat}${keys.length > 1 ? '; dashed: low priority' : ''}`,
        y: 'R',
      },
      xs,
      x_scale: 'time',
      series,
    },
    { unix_start: last.header?.unix_start_time ?? null },
  );

  // Fig. 11: the tail of the reservation delays, the delays evenly spaced.
  if (last.runs.some((run) => run.comparison.reservations.requested > 0)) {
    const points = last.runs[0].tailPoints;
    lawsonDraw('chart-lawson-tail', 'lawson-tail', {
      kind: 'lines',
      labels: {
        title: 'Reservations delayed (Fig. 11)',
        subtitle: 'share of the reservation requests granted a start more than x later than asked; dashed: one queue (sq-backfill)',
        x: 'delay',
        y: 'requests [%]',
        unit: '%',
      },
      xs: points.map((_, k) => k),
      x_labels: points.map((v) => show('seconds', v)),
      series: last.runs.flatMap((run, i) => [
        { name: `load ${run.load} multiple`, colour: lawsonColour(run.load, i), values: run.comparison.reservations.tail_multi.map((v) => 100 * v) },
        { name: `load ${run.load} single`, colour: lawsonColour(run.load, i), pale: true, values: run.comparison.reservations.tail_single.map((v) => 100 * v) },
      ]),
    });
  } else {
    emptyFigure(lawsonEl('chart-lawson-tail'), 'No reservations were requested: choose a reservation fraction for Fig. 11.');
  }
}

function lawsonEmptyCharts() {
  for (const [id, text] of [
    ['chart-lawson-r', 'Run the comparison to plot R per class (Figs. 3, 5).'],
    ['chart-lawson-priority', 'With a high-priority fraction below 1: R by priority (Figs. 6, 8).'],
    ['chart-lawson-transient', 'Run the comparison to plot R per 1,000 submissions over time (Figs. 4, 7, 9).'],
    ['chart-lawson-tail', 'With reservations: the tail of the reservation delays (Fig. 11).'],
  ]) {
    emptyFigure(lawsonEl(id), text);
  }
}

/** Forgets the runs (a new trace makes them stale). */
export function clearLawson() {
  lawson.generation++;
  lawson.last = null;
  for (const id of ['lawson-summary', 'lawson-reservations-table']) lawsonEl(id).textContent = '';
  lawsonEl('lawson-reservations-note').textContent = '';
  lawsonEl('lawson-explain').textContent = lawsonEl('lawson-explain').dataset.text ?? '';
  lawsonEl('lawson-progress').value = 0;
  lawsonEmptyCharts();
  lawsonStatus('');
  delete document.body.dataset.lawson;
}
