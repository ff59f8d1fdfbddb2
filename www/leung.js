// Fairshare at Sandia (Leung, Sabin & Sadayappan 2010) on the page: the nine CPlant policies of
// section V.E on the loaded trace, each its own worker task (`leung-policy`, the engine's
// `leung_policy`) across the worker pool, then section VI's claims (`leung-findings`). Shown as
// the paper's figures: the share of submissions that missed their hybrid fair start (Fig. 8),
// the mean miss (Fig. 9), the mean turnaround (Fig. 11), the loss of capacity (Fig. 13), the
// same by width class (Figs. 6, 7, 10, 12), and the trace's length x width Tables I and II for
// the period studied. Top-level names start with `lg` (the single-file build joins the modules
// into one scope).
import { showWholeFigure, emptyFigure, pageEngine, findingList } from './figures.js';
import { cell } from './predictions.js';
import { runTasks } from './tasks.js';

/** Keys the panel sets itself, so the shared settings do not. */
const LG_OWN = ['decay', 'heavy_share', 'from', 'to'];
/** The fairshare family's defaults of the panel's options. */
const LG_DEFAULTS = { decay: '0.5', heavy: '0.1' };
/** The paper's period on CPlant/Ross (section III). */
const LG_PAPER_PERIOD = ['2002-12-01', '2003-07-14'];
/** The policies of the by-width chart when the link names none: the original and the three the paper's text compares it with. */
const LG_DEFAULT_SERIES = ['cplant24.nomax.all', 'cplant24.72max.all', 'cons.72max', 'consdyn.72max'];
/**
 * What the by-width chart can show: the width row's key, how it is written, and whether it
 * counts segments as jobs (per submission) or follows the original job.
 */
const LG_VIEWS = {
  turnaround: { name: 'average turnaround per submission', title: 'Turnaround per submission by width', short: 'turnaround [h]', key: 'avg_response_submitted_s', scale: 1 / 3600, unit: ' h', count: 'submission', figs: 'Figs. 7, 12' },
  turnaround_jobs: { name: 'average turnaround per job', title: 'Turnaround per job by width', short: 'turnaround per job [h]', key: 'avg_response_s', scale: 1 / 3600, unit: ' h', count: 'job', figs: 'Figs. 7, 12, per job' },
  miss: { name: 'average fair-start miss', title: 'Fair-start miss by width', short: 'FST miss [h]', key: 'avg_fst_miss_s', scale: 1 / 3600, unit: ' h', count: 'submission', figs: 'Figs. 6, 10' },
  missed: { name: 'submissions that missed their fair start', title: 'Missed fair starts by width', short: 'missed FST [%]', key: 'fst_miss_share', scale: 100, unit: '%', count: 'submission', figs: 'Fig. 8 by width' },
};
/** Fig. 11's two counts. */
const LG_TURN = [
  ['submission', 'per submission (segments as jobs, the paper’s)'],
  ['job', 'per job (first submission to last end)'],
];
/**
 * The numbers table: metric key, heading, definition, how it is written, and its group: the
 * counts, per submission (each segment a job), per job (the original job) or the machine's.
 */
const LG_COLUMNS = [
  ['jobs', 'jobs', 'jobs in the period', String, 'count'],
  ['submissions', 'submissions', 'jobs with each segment of a job run under the 72 h limit counted as one', String, 'count'],
  ['segmented_jobs', 'segmented jobs', 'jobs that ran as more than one 72 h segment', String, 'count'],
  ['fst_miss_share', '% missed FST', 'share of submissions that started after their hybrid fair start time (Fig. 8)', (v) => (100 * v).toFixed(2), 'submission'],
  ['avg_fst_miss_s', 'mean miss [h]', 'mean over all submissions of max(0, start − fair start time) (Fig. 9)', (v) => (v / 3600).toFixed(2), 'submission'],
  ['avg_response_submitted_s', 'turnaround [h]', 'mean of end − submit, each segment from its own submission (Fig. 11)', (v) => (v / 3600).toFixed(2), 'submission'],
  ['fst_miss_share_jobs', '% missed FST', 'share of jobs whose first start came after their first submission’s fair start time', (v) => (100 * v).toFixed(2), 'job'],
  ['avg_fst_miss_jobs_s', 'mean miss [h]', 'mean over jobs of max(0, first start − first submission’s fair start time)', (v) => (v / 3600).toFixed(2), 'job'],
  ['avg_response_s', 'turnaround [h]', 'mean of last end − first submission over the jobs', (v) => (v / 3600).toFixed(2), 'job'],
  ['loss_of_capacity', 'loss of capacity', 'idle processor-seconds while jobs wait / (machine size × span) (Eq. 1, Fig. 13)', (v) => v.toFixed(4), 'machine'],
  ['utilization', 'utilization', 'used processor-seconds / ((last end − first start) × machine size)', (v) => v.toFixed(3), 'machine'],
];

const lg = { ctx: null, policies: [], widths: [], generation: 0, last: null };
const lgEl = (id) => document.getElementById(id);
const lgKey = (kv) => kv.slice(0, kv.indexOf('=')).trim().toLowerCase().replaceAll('-', '_');
const lgDate = (s) => (/^\d{4}-\d{2}-\d{2}$/.test(s ?? '') ? s : '');
/** A share in (0, 1] as the engine takes it. */
const lgShare = (s) => /^\d*\.?\d+$/.test(s) && Number(s) > 0 && Number(s) <= 1;
/** A policy's colour (the engine's palette index), the same in every chart: its place among the nine picks it. */
const lgColour = (policy) => Math.max(0, lg.policies.indexOf(policy));
/** A value of a figure, or "–" when it was not measured. */
const lgShow = (v, show) => (v === null || v === undefined || !Number.isFinite(v) ? '–' : show(v));

/**
 * Wires the panel. `ctx` gives {pool, params, info (leung_policies: {policies, widths}),
 * ready(), bytes(), settings() -> the shared settings as `KEY=VALUE`, header() and report() of
 * the loaded trace (or null), onurl()}.
 */
export function installLeung(ctx) {
  lg.ctx = ctx;
  lg.policies = ctx.info.policies;
  lg.widths = ctx.info.widths;
  const p = ctx.params;
  lgEl('lg-from').value = lgDate(p.get('lg_from'));
  lgEl('lg-to').value = lgDate(p.get('lg_to'));
  lgEl('lg-decay').value = p.get('lg_decay') ?? LG_DEFAULTS.decay;
  lgEl('lg-heavy').value = p.get('lg_heavy') ?? LG_DEFAULTS.heavy;
  lgChoices(lgEl('lg-view'), Object.entries(LG_VIEWS).map(([k, v]) => [k, v.name]), p.get('lg_view'));
  lgChoices(lgEl('lg-turn'), LG_TURN, p.get('lg_turn'));
  const given = p.get('lg_series');
  const series = given === null ? LG_DEFAULT_SERIES : given === 'none' ? [] : given.split(',').map((s) => s.trim());
  const box = lgEl('lg-series');
  box.textContent = 'policies ';
  for (const policy of lg.policies) {
    const label = document.createElement('label');
    const cb = Object.assign(document.createElement('input'), { type: 'checkbox', value: policy, checked: series.includes(policy) });
    cb.onchange = lgViewChanged;
    label.append(cb, ` ${policy}`);
    box.append(label);
  }
  for (const id of ['lg-from', 'lg-to', 'lg-decay', 'lg-heavy']) lgEl(id).oninput = lgDescribe;
  for (const id of ['lg-view', 'lg-turn']) lgEl(id).onchange = lgViewChanged;
  lgEl('lg-paper').onclick = () => {
    [lgEl('lg-from').value, lgEl('lg-to').value] = LG_PAPER_PERIOD;
    lgDescribe();
  };
  lgEl('lg-whole').onclick = () => {
    lgEl('lg-from').value = '';
    lgEl('lg-to').value = '';
    lgDescribe();
  };
  lgEl('lg-run').onclick = () => runLeung();
  lgEl('lg-cancel').onclick = () => ctx.pool.cancel('leung');
  lgDescribe();
  lgEmpty();
}

/** The view follows the selects and ticks at once, from the last runs. */
function lgViewChanged() {
  lg.ctx.onurl();
  if (lg.last) lgRenderView(lg.last);
}

/** Fills a select with [value, text] choices and picks the one the link gives, else the first. */
function lgChoices(select, choices, given) {
  select.textContent = '';
  for (const [v, text] of choices) select.add(new Option(text, v));
  select.value = choices.some(([v]) => v === given) ? given : choices[0][0];
}

/** The panel's inputs, checked: {from, to, decay, heavy, view, turn, series}, with `error` when one is wrong. */
export function lgForm() {
  const from = lgEl('lg-from').value;
  const to = lgEl('lg-to').value;
  const decay = lgEl('lg-decay').value.trim();
  const heavy = lgEl('lg-heavy').value.trim();
  const form = {
    from,
    to,
    decay,
    heavy,
    view: lgEl('lg-view').value,
    turn: lgEl('lg-turn').value,
    series: [...lgEl('lg-series').querySelectorAll('input:checked')].map((i) => i.value),
  };
  if (from && to && from > to) return { ...form, error: `the period ends (${to}) before it begins (${from})` };
  if (!lgShare(decay)) return { ...form, error: `decay must be a number above 0 and at most 1, not "${decay}"` };
  if (!lgShare(heavy)) return { ...form, error: `heavy_share must be a number above 0 and at most 1, not "${heavy}"` };
  return form;
}

/** Says what Run will do; returns the form, or null on an error. */
function lgDescribe() {
  const form = lgForm();
  const count = lgEl('lg-count');
  count.className = form.error ? 'error' : '';
  const period = form.from || form.to ? `the jobs submitted${form.from ? ` from ${form.from}` : ''}${form.to ? ` to ${form.to}` : ''}` : 'the whole trace';
  count.textContent = form.error
    ? form.error
    : `${lg.policies.length} policies on ${period}, decay ${form.decay}, heavy_share ${form.heavy}`;
  return form.error ? null : form;
}

/** The panel in the URL: `lg_from`, `lg_to`, and the others when not the defaults. */
export function lgUrlValues() {
  const form = lgForm();
  const series = form.series.join(',');
  return {
    lg_from: form.from || null,
    lg_to: form.to || null,
    lg_decay: form.decay === LG_DEFAULTS.decay ? null : form.decay,
    lg_heavy: form.heavy === LG_DEFAULTS.heavy ? null : form.heavy,
    lg_view: form.view === 'turnaround' ? null : form.view,
    lg_turn: form.turn === 'submission' ? null : form.turn,
    lg_series: series === LG_DEFAULT_SERIES.join(',') ? null : series || 'none',
  };
}

function lgStatus(text, kind = '') {
  const el = lgEl('lg-status');
  el.textContent = text;
  el.className = kind;
}

/** The settings of every run: the page's (less the panel's own keys), then the panel's. */
function lgSettings(form) {
  const own = [`decay=${form.decay}`, `heavy_share=${form.heavy}`];
  if (form.from) own.push(`from=${form.from}`);
  if (form.to) own.push(`to=${form.to}`);
  return [...lg.ctx.settings().filter((kv) => !LG_OWN.includes(lgKey(kv))), ...own];
}

/** Runs the nine policies and the period's tables across the worker pool, then the findings, then shows it all. */
export async function runLeung() {
  const ctx = lg.ctx;
  const form = lgDescribe();
  if (!form) {
    lgStatus(`Not run: ${lgForm().error}.`, 'error');
    return;
  }
  if (!ctx.ready()) {
    lgStatus('Load a trace first.', 'error');
    return;
  }
  ctx.pool.cancel('leung');
  clearLeung(); // the figures of the last runs would not match the new ones
  const generation = ++lg.generation;
  ctx.onurl();
  const settings = lgSettings(form);
  const bytes = ctx.bytes();
  // Tables I and II of the period: the trace read with the same trace options as the runs.
  const tasks = [
    { what: 'the period’s tables', task: { kind: 'inspect', tag: 'leung', bytes, settings } },
    ...lg.policies.map((policy) => ({ what: policy, task: { kind: 'leung-policy', tag: 'leung', bytes, settings, input: { policy } } })),
  ];
  const batch = await runTasks(ctx.pool, tasks, {
    group: 'leung',
    bar: lgEl('lg-progress'),
    status: lgStatus,
    current: () => generation === lg.generation,
  });
  if (!batch) return;
  const { values, done, t0, stopped } = batch;
  if (done < tasks.length) return stopped();
  const shape = values[0].shape;
  const jobs = values[0].report.jobs_kept;
  const runs = values.slice(1).map((v) => v.run);
  const figure = (key) => runs.map((r) => r.metrics[key]);
  const res = await ctx.pool.run({
    kind: 'leung-findings',
    tag: 'leung',
    input: {
      policies: runs.map((r) => r.policy),
      fst_miss_share: figure('fst_miss_share'),
      avg_fst_miss_s: figure('avg_fst_miss_s'),
      avg_response_submitted_s: figure('avg_response_submitted_s'),
      loss_of_capacity: figure('loss_of_capacity'),
    },
  });
  if (generation !== lg.generation) return;
  if (!res.ok) {
    return stopped(res.cancelled ? null : `the findings: ${res.error}`);
  }
  lg.last = { form, shape, jobs, runs, findings: res.value, seconds: (performance.now() - t0) / 1000 };
  lgRender(lg.last);
  const period = form.from || form.to ? ` submitted ${form.from || 'from the start'} to ${form.to || 'the end'}` : '';
  lgStatus(`Ran ${runs.length} policies on ${jobs} jobs${period} in ${lg.last.seconds.toFixed(1)} s.`, 'done');
  document.body.dataset.leung = 'done';
}

/** Everything from the last runs: the fixed tables, then the views that follow the selects. */
function lgRender(last) {
  findingList(lgEl('lg-findings'), last.findings);
  lgNumbers(last);
  lgShape(lgEl('lg-shape-jobs'), last.shape, (r, c) => last.shape.count[r][c], String);
  lgShape(lgEl('lg-shape-hours'), last.shape, (r, c) => last.shape.value[r][c], (v) => v.toFixed(0));
  lgRenderView(last);
}

/** The parts that follow the by-width metric, the ticked policies and Fig. 11's count. */
function lgRenderView(last) {
  lgWidthTable(last);
  redrawLeung();
}

/** A heading cell with its definition. */
function lgTh(tr, text, title = '', span = 1) {
  tr.append(Object.assign(document.createElement('th'), { textContent: text, title, colSpan: span }));
}

/** Per policy: the figures of the paper, per submission and per job. */
function lgNumbers(last) {
  const table = lgEl('lg-table');
  table.textContent = '';
  const head = table.createTHead();
  const groups = head.insertRow();
  lgTh(groups, '', '');
  const spans = [];
  for (const [, , , , group] of LG_COLUMNS) {
    if (spans.length && spans[spans.length - 1][0] === group) spans[spans.length - 1][1]++;
    else spans.push([group, 1]);
  }
  const groupNames = {
    count: ['counts', 'jobs, and submissions with each 72 h segment counted as one'],
    submission: ['per submission (the paper’s)', 'each 72 h segment counts as a job, as the paper counts'],
    job: ['per job', 'the original job, from its first submission to its last end; its fair start is its first segment’s'],
    machine: ['machine', 'the whole machine over the schedule'],
  };
  for (const [group, n] of spans) lgTh(groups, groupNames[group][0], groupNames[group][1], n);
  const names = head.insertRow();
  lgTh(names, 'policy', 'the policy (section V.E)');
  for (const [, text, title] of LG_COLUMNS) lgTh(names, text, title);
  const body = table.createTBody();
  for (const run of last.runs) {
    const tr = body.insertRow();
    tr.dataset.policy = run.policy;
    const name = cell(tr, run.policy, '', '');
    name.className = 'rt';
    name.append(Object.assign(document.createElement('span'), { className: 'swatch', title: 'its colour in the charts' }));
    name.lastChild.style.background = pageEngine()?.run_colour(lgColour(run.policy)) ?? '';
    for (const [key, , , show] of LG_COLUMNS) cell(tr, lgShow(run.metrics[key], show), key, run.metrics[key]);
  }
}

/**
 * Table I or II as the paper prints it: a row per width class, a column per length class, with
 * the totals. `value(r, c)` reads the grid (rows: lengths, cols: widths).
 */
function lgShape(table, shape, value, show) {
  table.textContent = '';
  const head = table.createTHead().insertRow();
  lgTh(head, 'processors', 'width class (Table I)');
  for (const row of shape.rows) lgTh(head, row, `runtime ${row}`);
  lgTh(head, 'all', 'every length');
  const body = table.createTBody();
  const sum = (list) => list.reduce((a, b) => a + b, 0);
  shape.cols.forEach((col, c) => {
    const tr = body.insertRow();
    tr.dataset.width = col;
    cell(tr, col, '', '').className = 'rt';
    shape.rows.forEach((row, r) => cell(tr, show(value(r, c)), row, value(r, c)));
    const total = sum(shape.rows.map((_, r) => value(r, c)));
    cell(tr, show(total), 'all', total);
  });
  const tr = body.insertRow();
  tr.dataset.width = 'all';
  tr.className = 'total';
  cell(tr, 'all', '', '').className = 'rt';
  shape.rows.forEach((row, r) => {
    const total = sum(shape.cols.map((_, c) => value(r, c)));
    cell(tr, show(total), row, total);
  });
  const total = sum(shape.rows.flatMap((_, r) => shape.cols.map((_, c) => value(r, c))));
  cell(tr, show(total), 'all', total);
}

/** The by-width figures of the chosen metric for every policy, as a table. */
function lgWidthTable(last) {
  const view = LG_VIEWS[lgForm().view];
  const table = lgEl('lg-width-table');
  table.textContent = '';
  table.dataset.view = lgForm().view;
  const head = table.createTHead().insertRow();
  lgTh(head, 'policy', `${view.name} by width class (${view.figs})`);
  for (const w of lg.widths) lgTh(head, w, `${w} processors`);
  const body = table.createTBody();
  for (const run of last.runs) {
    const tr = body.insertRow();
    tr.dataset.policy = run.policy;
    cell(tr, run.policy, '', '').className = 'rt';
    for (const row of run.by_width) {
      const v = row[view.key];
      const n = view.count === 'job' ? row.jobs : row.submissions;
      const title = `${row.jobs} jobs, ${row.submissions} submissions`;
      cell(tr, n ? lgShow(v, (x) => (x * view.scale).toFixed(2)) : '–', row.width, v, title);
    }
  }
  lgEl('lg-width-note').textContent =
    `${view.name[0].toUpperCase()}${view.name.slice(1)}${view.unit === '%' ? ' in percent' : ' in hours'} by the processors a job asks for; ` +
    (view.count === 'job' ? 'each job followed from its first submission to its last end. ' : 'each 72 h segment counted as a job, as the paper counts. ') +
    '“–”: no jobs of that width, or not measured. The chart shows the ticked policies.';
}

/** Draws a chart by the engine from its spec. */
function lgDraw(id, name, spec) {
  showWholeFigure(lgEl(id), name, (e, o) => e.generic_figure(spec, o));
}

/** Draws the charts from the last runs (or says what will appear there). */
export function redrawLeung() {
  const last = lg.last;
  if (!last) return lgEmptyCharts();
  const { view: viewKey, turn, series } = lgForm();
  const measured = (v) => v !== null && v !== undefined && Number.isFinite(v);
  // One bar per policy in its colour; a policy without the figure says n/a.
  const bars = (id, labels, value, empty) => {
    const items = last.runs.map((r) => ({ name: r.policy, value: measured(value(r.metrics)) ? value(r.metrics) : null, colour: lgColour(r.policy) }));
    if (items.every((it) => it.value === null)) return emptyFigure(lgEl(id), empty);
    lgDraw(id, id.replace('chart-', ''), { kind: 'bars', labels: { y: 'policy', ...labels }, bars: items });
  };
  const unmeasured = 'Fair starts were not measured (the engine option fst is off).';
  const hours = (v) => (measured(v) ? v / 3600 : null);
  const lower = 'lower is better';
  bars(
    'chart-lg-missed',
    { title: 'Missed fair starts (Fig. 8)', subtitle: `submissions started after their hybrid fair start time; ${lower}`, x: 'missed [%]', value: 'missed', unit: '%' },
    (m) => (measured(m.fst_miss_share) ? 100 * m.fst_miss_share : null),
    unmeasured,
  );
  bars(
    'chart-lg-miss',
    { title: 'Fair-start miss (Fig. 9)', subtitle: `max(0, start − fair start time), averaged over the submissions; ${lower}`, x: 'miss [h]', value: 'average miss', unit: ' h' },
    (m) => hours(m.avg_fst_miss_s),
    unmeasured,
  );
  const perJob = turn === 'job';
  bars(
    'chart-lg-turnaround',
    {
      title: perJob ? 'Turnaround per job (Fig. 11)' : 'Turnaround per submission (Fig. 11)',
      subtitle: `${perJob ? 'last end − first submission, averaged over the jobs' : 'end − submit, averaged over the submissions'}; ${lower}`,
      x: 'turnaround [h]',
      value: 'average turnaround',
      unit: ' h',
    },
    (m) => hours(perJob ? m.avg_response_s : m.avg_response_submitted_s),
    'No turnaround was measured.',
  );
  bars(
    'chart-lg-loc',
    { title: 'Loss of capacity (Fig. 13)', subtitle: `processors idle while jobs wait, over machine size × makespan; ${lower}`, x: 'loss of capacity', value: 'loss of capacity' },
    (m) => m.loss_of_capacity,
    'No loss of capacity was measured.',
  );
  const view = LG_VIEWS[viewKey];
  const chosen = last.runs.filter((r) => series.includes(r.policy));
  if (!chosen.length) return emptyFigure(lgEl('chart-lg-width'), 'Tick one or more policies for the chart by width.');
  const widthSeries = chosen.map((r) => ({
    name: r.policy,
    colour: lgColour(r.policy),
    values: r.by_width.map((row) => {
      const n = view.count === 'job' ? row.jobs : row.submissions;
      const v = row[view.key];
      return n && v !== null ? v * view.scale : null;
    }),
  }));
  // Values spread over more than a factor of 30 (the widest jobs' turnaround beside the narrowest) read on a log scale.
  const values = widthSeries.flatMap((s) => s.values).filter((v) => v !== null);
  const log = values.length > 0 && values.every((v) => v > 0) && Math.max(...values) > 30 * Math.min(...values);
  const what = view.count === 'job' ? 'each job from its first submission to its last end' : 'each 72 h segment counted as a job, as the paper counts';
  lgDraw('chart-lg-width', `leung-by-width-${viewKey}`, {
    kind: 'grouped-bars',
    labels: { title: `${view.title} (${view.figs})`, subtitle: log ? `${what}; log scale` : what, x: 'processors', y: view.short, unit: view.unit, log },
    categories: lg.widths,
    series: widthSeries,
  });
}

function lgEmptyCharts() {
  const waiting = [
    ['chart-lg-missed', 'Run the nine policies: submissions that missed their fair start (Fig. 8).'],
    ['chart-lg-miss', 'Run the nine policies: average fair-start miss (Fig. 9).'],
    ['chart-lg-turnaround', 'Run the nine policies: average turnaround (Fig. 11).'],
    ['chart-lg-loc', 'Run the nine policies: loss of capacity (Fig. 13).'],
    ['chart-lg-width', 'Run the nine policies: the figures by width class (Figs. 6, 7, 10, 12).'],
  ];
  for (const [id, text] of waiting) emptyFigure(lgEl(id), text);
}

/** The panel with no runs: empty tables and charts that say what will appear. */
function lgEmpty() {
  for (const id of ['lg-table', 'lg-shape-jobs', 'lg-shape-hours', 'lg-width-table', 'lg-findings']) lgEl(id).textContent = '';
  lgEl('lg-width-note').textContent = '';
  lgEmptyCharts();
}

/** Forgets the runs (a new trace makes them stale), and says which dates the loaded trace spans. */
export function clearLeung() {
  lg.generation++;
  lg.last = null;
  lgEmpty();
  lgEl('lg-progress').value = 0;
  lgStatus('');
  delete document.body.dataset.leung;
}

/** Shows the loaded trace's first and last submission dates, in its time zone, beside the period inputs. */
export function lgTraceLoaded() {
  const report = lg.ctx?.report();
  const header = lg.ctx?.header();
  const el = lgEl('lg-span');
  el.textContent = '';
  const start = header?.unix_start_time;
  if (!report || start === null || start === undefined) return;
  const options = { year: 'numeric', month: '2-digit', day: '2-digit' };
  let format;
  try {
    format = new Intl.DateTimeFormat('en-CA', { timeZone: header.time_zone_string || 'UTC', ...options });
  } catch {
    format = new Intl.DateTimeFormat('en-CA', { timeZone: 'UTC', ...options });
  }
  const date = (t) => format.format(new Date((start + t) * 1000));
  el.textContent = `(this trace: ${date(report.first_submit)} to ${date(report.last_submit)})`;
}
