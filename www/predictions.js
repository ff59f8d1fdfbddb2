// Runtime predictions (Tsafrir, Etsion & Feitelson 2007) on the page: the predictor panel, whose
// values run as the "custom" configuration; Table 3 and the predictability and heel-and-toe
// tables; the accuracy histogram of Fig. 2; and parameter sweeps ranked by average performance
// degradation as in section 7 (Table 11, Fig. 10). Everything is built with DOM calls.
import { showWholeFigure, emptyFigure, make } from './figures.js';

/** The predictor panel's keys: the backfill family's prediction options (section 7's space and more). */
export const PREDICTOR_KEYS = [
  'predict',
  'factor',
  'correction',
  'window',
  'window_type',
  'fullness',
  'metric',
  'fallback',
  'propagation',
  'reserve',
  'backfill_end',
];

/** The paper's suggested settings for EASY++ (Table 12). */
export const TABLE12 = { window: '2', window_type: 'all', metric: 'avg', correction: 'estimate' };

/** The name the predictor panel's configuration runs under. */
export const CUSTOM = 'custom';
const DEFAULT_BASE = 'easy++';

/** A preset name from the URL: an unencoded '+' arrives as a space (easy++ typed by hand). */
export const presetName = (s) => s.trimStart().replaceAll(' ', '+').toLowerCase().replaceAll('_', '-');

/** The group of the prediction presets: the catalogue's group holding EASY++. */
export function predictionGroup(catalogue) {
  return catalogue.policies.find((p) => p.name === DEFAULT_BASE)?.group ?? '';
}

/** The prediction presets, in catalogue order. */
export function predictionPresets(catalogue) {
  const group = predictionGroup(catalogue);
  return catalogue.policies.filter((p) => p.group === group).map((p) => p.name);
}

/** What a preset runs with for the predictor keys: its own values over its family's defaults. */
function presetValues(catalogue, name) {
  const p = catalogue.policies.find((q) => q.name === name);
  const out = {};
  for (const k of PREDICTOR_KEYS) out[k] = String(p?.defaults[k] ?? p?.family_defaults?.[k] ?? '');
  return out;
}

// ---------------------------------------------------------------- the predictor panel

const predictor = { catalogue: null, onchange: null };

/**
 * Builds the panel into `box`. `given` is the URL's `pred` values (`KEY=VALUE`, `base` among
 * them); `onchange` runs after every edit (the page keeps the URL current with it).
 */
export function buildPredictor(box, catalogue, given, onchange) {
  predictor.catalogue = catalogue;
  predictor.onchange = onchange;
  box.textContent = '';
  box.append(
    make('legend', { textContent: 'Predictor: the custom configuration' }),
    make(
      'p',
      { className: 'note' },
      'Tick ',
      make('b', { textContent: CUSTOM }),
      ' among the policies to run it. It plans like the base preset (its reservation depth and backfill order) with the values below; ★ marks the paper\'s Table 12 suggestions for EASY++ (window 2, type all, metric avg, correction to the estimate). Hover a name for its meaning.',
    ),
  );
  const family = catalogue.policies.find((p) => p.name === DEFAULT_BASE);
  const docs = new Map(family.options.map((o) => [o.key, o]));
  const base = make('select', { title: 'the preset whose reservation depth (k) and backfill order the custom configuration keeps' });
  base.dataset.pred = 'base';
  for (const name of predictionPresets(catalogue)) base.add(new Option(name, name));
  const row = make('div', { className: 'pred-controls' });
  row.append(make('label', { title: base.title }, 'base preset ', base));
  for (const key of PREDICTOR_KEYS) {
    const o = docs.get(key);
    const label = make('label', { title: `${o.doc} (${o.values})` }, `${key} `, control(key, o.values));
    label.dataset.key = key;
    row.append(label);
  }
  const reset = make('button', { type: 'button', className: 'small', textContent: 'Table 12 (EASY++)' });
  reset.title = 'the paper\'s suggested EASY++ configuration';
  reset.onclick = () => {
    setPredictor({ base: DEFAULT_BASE, ...presetValues(catalogue, DEFAULT_BASE) });
    changed();
  };
  row.append(reset);
  box.append(row);
  base.onchange = () => {
    // A new base brings its own values: the panel shows exactly what the preset runs.
    setPredictor({ base: base.value, ...presetValues(catalogue, base.value) });
    changed();
  };
  for (const c of row.querySelectorAll('[data-pred]:not([data-pred="base"])')) c.onchange = changed;
  const fromUrl = Object.fromEntries(given.map((kv) => [kv.slice(0, kv.indexOf('=')).trim(), kv.slice(kv.indexOf('=') + 1).trim()]));
  if (fromUrl.base) fromUrl.base = presetName(given.find((kv) => kv.trim().startsWith('base=')).split('=')[1]);
  const start = fromUrl.base && predictionPresets(catalogue).includes(fromUrl.base) ? fromUrl.base : DEFAULT_BASE;
  setPredictor({ base: start, ...presetValues(catalogue, start), ...fromUrl });
  mark();
}

/** A select for a list of values (Table 12's marked), or a number input for window and factor. */
function control(key, values) {
  let c;
  if (values.includes('|')) {
    c = document.createElement('select');
    for (const v of values.split('|').map((s) => s.trim())) c.add(new Option(TABLE12[key] === v ? `${v} ★` : v, v));
  } else {
    c = make('input', { type: 'number', min: key === 'window' ? '1' : '0.1', step: key === 'window' ? '1' : 'any' });
    if (key === 'window') c.max = '30';
    c.size = 4;
  }
  c.dataset.pred = key;
  return c;
}

function changed() {
  mark();
  predictor.onchange?.();
}

/** Labels whose value differs from the base preset's are marked, and say what the preset has. */
function mark() {
  const { base, values } = predictorConfig();
  const preset = presetValues(predictor.catalogue, base);
  for (const label of document.querySelectorAll('#predictor label[data-key]')) {
    const k = label.dataset.key;
    label.classList.toggle('changed', values[k] !== preset[k]);
    label.dataset.preset = preset[k];
  }
}

function setPredictor(values) {
  for (const c of document.querySelectorAll('[data-pred]')) if (values[c.dataset.pred] !== undefined) c.value = values[c.dataset.pred];
}

/** The panel's base preset and values; an emptied number falls back to the base preset's. */
export function predictorConfig() {
  const base = document.querySelector('[data-pred="base"]')?.value || DEFAULT_BASE;
  const preset = predictor.catalogue ? presetValues(predictor.catalogue, base) : {};
  const values = {};
  for (const c of document.querySelectorAll('[data-pred]:not([data-pred="base"])')) values[c.dataset.pred] = c.value.trim() || preset[c.dataset.pred];
  return { base, values };
}

/** The panel as `KEY=VALUE` settings, every key given so a run never depends on a default. */
export function predictorSettings() {
  const { values } = predictorConfig();
  return PREDICTOR_KEYS.map((k) => `${k}=${values[k]}`);
}

/** The panel as URL `pred` values: the base first, then every key. */
export function predictorUrlValues() {
  return [`base=${predictorConfig().base}`, ...predictorSettings()];
}

/** Whether the panel shows anything but the Table 12 EASY++ configuration. */
export function predictorEdited() {
  const { base, values } = predictorConfig();
  const preset = presetValues(predictor.catalogue, DEFAULT_BASE);
  return base !== DEFAULT_BASE || PREDICTOR_KEYS.some((k) => values[k] !== preset[k]);
}

// ---------------------------------------------------------------- Table 3 and predictability

/** Percent change from EASY, as in the shaded columns of Tables 2-5 and 10. */
export const change = (v, easy) => (100 * v) / easy - 100;

/** A number as the paper prints it: whole above 100, three figures below. */
function num(v) {
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  return a >= 100 ? v.toFixed(0) : a >= 10 ? v.toFixed(1) : v.toFixed(2);
}

function signed(c) {
  if (!Number.isFinite(c)) return '—';
  return `${c < 0 ? '-' : '+'}${Math.abs(Math.round(c))}%`;
}

function header(table, rows) {
  const head = table.createTHead();
  for (const cells of rows) {
    const tr = head.insertRow();
    for (const [text, title, span = 1] of cells) {
      const th = make('th', { textContent: text, title: title ?? '' });
      th.colSpan = span;
      tr.append(th);
    }
  }
}

/** A table row for one policy, its name in the first cell. */
function resultRow(body, name) {
  const tr = body.insertRow();
  tr.dataset.policy = name;
  cell(tr, name, null, null);
  return tr;
}

/** A data cell: shows `text`, keeps the exact value for tests and exports. */
export function cell(tr, text, key, value, title = '') {
  const td = tr.insertCell();
  td.textContent = text;
  if (key) {
    td.dataset.key = key;
    td.dataset.value = String(value);
  }
  if (title) td.title = title;
  return td;
}

const TABLE3 = [
  ['avg_wait_s', 'wait [min]', 1 / 60],
  ['avg_bsld', 'b. slowdown', 1],
  ['accuracy_pct', 'accuracy [%]', 1],
];

/**
 * Table 3 (with Table 2's corrections column): one row per prediction policy that ran, each
 * value followed by its change relative to EASY. `rows` are [name, run] in display order;
 * `define(key)` gives a metric's definition. Returns the sentence to show above the table.
 */
export function renderTable3(table, rows, define) {
  table.textContent = '';
  const easy = rows.find(([name]) => name === 'easy')?.[1].result.metrics;
  const vs = easy ? 'change relative to EASY (negative is better for wait and slowdown, positive for accuracy)' : 'needs easy to have run';
  header(table, [
    [
      ['policy', 'prediction presets that ran, and the custom configuration'],
      ...TABLE3.flatMap(([key, head]) => [
        [head, define(key)],
        ['vs EASY', vs],
      ]),
      ['corrections [±σ]', `${define('corrections_avg')}, ± its standard deviation`],
    ],
  ]);
  const body = table.createTBody();
  for (const [name, run] of rows) {
    const m = run.result.metrics;
    const tr = resultRow(body, name);
    for (const [key, , scale] of TABLE3) {
      cell(tr, num(m[key] * scale), key, m[key]);
      if (easy && name !== 'easy') {
        const c = change(m[key], easy[key]);
        cell(tr, signed(c), `${key}:change`, c, `${c.toFixed(2)}%`).className = c === 0 ? '' : (key === 'accuracy_pct') === c > 0 ? 'better' : 'worse';
      } else cell(tr, '', null, null);
    }
    cell(tr, `${m.corrections_avg.toFixed(2)} ± ${m.corrections_std.toFixed(2)}`, 'corrections_avg', m.corrections_avg);
  }
  if (!rows.length) return 'Run prediction presets (for example easy, easy+ and easy++) to fill this table.';
  return easy ? 'Changes are relative to EASY, as in the paper\'s shaded columns.' : 'Run easy too to see the changes relative to EASY.';
}

const PREDICTABILITY = [
  [
    'reservation vs start (Table 4)',
    [
      ['reserved_pct', 'rate [%]', 1],
      ['reservation_diff_avg_s', 'avg [min]', 1 / 60],
      ['reservation_diff_median_s', 'median [min]', 1 / 60],
      ['reservation_diff_std_s', 'std [min]', 1 / 60],
    ],
  ],
  [
    'delay past reservation (Table 5)',
    [
      ['delayed_pct', 'rate [%]', 1],
      ['delay_avg_s', 'avg [min]', 1 / 60],
      ['delay_median_s', 'median [min]', 1 / 60],
      ['delay_std_s', 'std [min]', 1 / 60],
    ],
  ],
  [
    'heel and toe (Table 10)',
    [
      ['stalled_pct', 'stalled [%]', 1],
      ['stall_avg_s', 'stall [min]', 1 / 60],
      ['thieves_avg', 'thieves', 1],
    ],
  ],
];

/** Tables 4, 5 and 10 side by side; each value's change relative to EASY follows it in grey. */
export function renderPredictability(table, rows, define) {
  table.textContent = '';
  const easy = rows.find(([name]) => name === 'easy')?.[1].result.metrics;
  header(table, [
    [['', ''], ...PREDICTABILITY.map(([title, cols]) => [title, '', cols.length])],
    [['policy', ''], ...PREDICTABILITY.flatMap(([, cols]) => cols.map(([key, head]) => [head, define(key)]))],
  ]);
  const body = table.createTBody();
  for (const [name, run] of rows) {
    const m = run.result.metrics;
    const tr = resultRow(body, name);
    for (const [, cols] of PREDICTABILITY) {
      for (const [key, , scale] of cols) {
        const td = cell(tr, num(m[key] * scale), key, m[key]);
        if (easy && name !== 'easy' && easy[key] > 0) {
          td.append(make('span', { className: 'chg', textContent: ` ${signed(change(m[key], easy[key]))}` }));
          td.title = 'change relative to EASY';
        }
      }
    }
  }
}

// ---------------------------------------------------------------- parameter sweeps

const axisKey = (k) => k.trim().toLowerCase().replaceAll('-', '_');

/**
 * Parses one axis per line, `KEY=V1,V2,...`, an integer range `A-B` standing for every integer
 * from A to B (as the engine's sweep axes). Returns {axes} or {error}.
 */
export function parseAxes(text, knownKeys) {
  const axes = [];
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq < 1) return { error: `line ${i + 1}: expected KEY=VALUES, e.g. window=1-8 or metric=avg,med` };
    const key = axisKey(line.slice(0, eq));
    if (!knownKeys.includes(key)) return { error: `line ${i + 1}: no option is called ${key}` };
    if (axes.some((a) => a.key === key)) return { error: `line ${i + 1}: ${key} is already an axis` };
    const values = [];
    for (const part of line.slice(eq + 1).split(',').map((s) => s.trim()).filter(Boolean)) {
      const range = /^(\d+)\s*-\s*(\d+)$/.exec(part);
      const [a, b] = range ? [Number(range[1]), Number(range[2])] : [];
      if (range && a <= b && b - a < 1000) for (let v = a; v <= b; v++) values.push(String(v));
      else values.push(part);
    }
    if (!values.length) return { error: `line ${i + 1}: ${key} needs one or more values` };
    axes.push({ key, values });
  }
  if (!axes.length) return { error: 'give at least one axis, e.g. window=1-8' };
  return { axes };
}

/** Every combination of the axes' values, first axis slowest, as [[key, value], ...]. */
export function grid(axes) {
  let out = [[]];
  for (const a of axes) out = out.flatMap((c) => a.values.map((v) => [...c, [a.key, v]]));
  return out;
}

/** The largest grid the page runs: beyond it a sweep belongs on the command line. */
export const MAX_CONFIGS = 5000;

const sweep = { ctx: null, generation: 0, running: false, shown: 20, last: null };

/**
 * Wires the sweep panel. `ctx` gives {pool, catalogue, params, run(policy, settings) -> task
 * fields, base() -> {policy, settings} for the chosen base, onurl()}.
 */
export function installSweep(ctx) {
  sweep.ctx = ctx;
  const $ = (id) => document.getElementById(id);
  const base = $('sweep-base');
  for (const name of predictionPresets(ctx.catalogue)) base.add(new Option(name, name));
  base.add(new Option(`${CUSTOM} (the predictor panel)`, CUSTOM));
  const wanted = presetName(ctx.params.get('sweep_base') ?? '');
  base.value = [...base.options].some((o) => o.value === wanted) ? wanted : DEFAULT_BASE;
  const axes = ctx.params.getAll('sweep');
  $('sweep-axes').value = (axes.length ? axes : ctx.catalogue.sweep_axes).join('\n');
  $('sweep-axes').oninput = () => describeGrid();
  $('sweep-run').onclick = () => runSweep();
  $('sweep-cancel').onclick = () => ctx.pool.cancel('sweep');
  $('sweep-by').dataset.wanted = ctx.params.get('sweep_by') ?? 'window';
  $('sweep-by').onchange = () => sweep.last && rankAndShow(sweep.last);
  describeGrid();
  emptySweepChart();
}

function sweepKeys() {
  const c = sweep.ctx.catalogue;
  const family = c.policies.find((p) => p.name === DEFAULT_BASE).options.map((o) => o.key);
  return [...family, ...[...c.trace_options, ...c.engine_options, ...c.metric_options].map((o) => o.key)];
}

/** Says how many configurations the axes make, and offers their keys for the Fig. 10 x axis. */
function describeGrid() {
  const { axes, error } = parseAxes(document.getElementById('sweep-axes').value, sweepKeys());
  const count = document.getElementById('sweep-count');
  count.className = error ? 'error' : '';
  const by = document.getElementById('sweep-by');
  const keep = by.value || by.dataset.wanted;
  by.textContent = '';
  if (error) {
    count.textContent = error;
    return null;
  }
  const n = axes.reduce((p, a) => p * a.values.length, 1);
  count.textContent = `${n} configuration${n === 1 ? '' : 's'}${n > MAX_CONFIGS ? ` — more than ${MAX_CONFIGS}: narrow the axes` : ''}`;
  for (const a of axes) by.add(new Option(a.key, a.key));
  by.value = axes.some((a) => a.key === keep) ? keep : axes.some((a) => a.key === 'window') ? 'window' : axes[0].key;
  return axes;
}

function sweepStatus(text, kind = '') {
  const el = document.getElementById('sweep-status');
  el.textContent = text;
  el.className = kind;
}

/** Runs every configuration of the grid across the worker pool, then ranks them. */
export async function runSweep() {
  const ctx = sweep.ctx;
  const axes = describeGrid();
  if (!axes) return;
  const configs = grid(axes);
  if (configs.length > MAX_CONFIGS) return;
  if (!ctx.ready()) {
    sweepStatus('Load a trace first.', 'error');
    return;
  }
  ctx.pool.cancel('sweep');
  const generation = ++sweep.generation;
  const baseName = document.getElementById('sweep-base').value;
  const { policy, settings } = ctx.base(baseName);
  ctx.onurl();
  document.getElementById('sweep-table').textContent = '';
  document.body.dataset.sweep = 'running';
  const bar = document.getElementById('sweep-progress');
  bar.max = configs.length;
  bar.value = 0;
  const t0 = performance.now();
  let done = 0;
  let failure = null;
  const perf = new Array(configs.length);
  const metrics = new Array(configs.length);
  await Promise.all(
    configs.map(async (config, i) => {
      const res = await ctx.pool.run({
        ...ctx.run(policy, [...settings, ...config.map(([k, v]) => `${k}=${v}`)]),
        kind: 'metrics',
        tag: 'sweep',
      });
      if (generation !== sweep.generation) return;
      if (!res.ok || !res.value.ok) {
        if (!res.cancelled && !failure) {
          failure = `${config.map(([k, v]) => `${k}=${v}`).join(' ')}: ${res.ok ? res.value.message : res.error}`;
          ctx.pool.cancel('sweep');
        }
        return;
      }
      const m = res.value.result.metrics;
      perf[i] = [m.avg_wait_s, m.avg_bsld];
      metrics[i] = m;
      bar.value = ++done;
      const s = (performance.now() - t0) / 1000;
      sweepStatus(`${done} of ${configs.length} configurations (${s.toFixed(1)} s, about ${((s / done) * (configs.length - done)).toFixed(0)} s left)`);
    }),
  );
  if (generation !== sweep.generation) return;
  if (done < configs.length) {
    sweepStatus(failure ? `Sweep stopped: ${failure}` : `Sweep cancelled after ${done} of ${configs.length} configurations.`, failure ? 'error' : '');
    document.body.dataset.sweep = 'stopped';
    return;
  }
  sweep.last = { axes, configs, perf, metrics, base: baseName, seconds: (performance.now() - t0) / 1000 };
  sweep.shown = 20;
  await rankAndShow(sweep.last);
}

/** Ranks a finished sweep with the engine (section 7) and shows the table and Fig. 10. */
async function rankAndShow(last) {
  const ctx = sweep.ctx;
  const by = document.getElementById('sweep-by').value;
  const res = await ctx.pool.run({ kind: 'rank-sweep', input: { configs: last.configs, perf: last.perf, by } });
  if (last !== sweep.last) return;
  if (!res.ok || !res.value.ok) {
    sweepStatus(`Ranking failed: ${res.ok ? res.value.message : res.error}`, 'error');
    return;
  }
  last.rank = res.value;
  last.by = by;
  renderSweepTable(last);
  redrawSweep();
  const best = [0, 1].map((t) => Math.min(...last.perf.map((p) => p[t])));
  sweepStatus(
    `Ranked ${last.configs.length} configurations of ${last.base} (run in ${last.seconds.toFixed(1)} s). Test cases: average wait (best ${num(best[0] / 60)} min) and average bounded slowdown (best ${num(best[1])}).`,
    'done',
  );
  document.body.dataset.sweep = 'done';
}

/** Fig. 10: mean degradation ± std per value of the chosen key (window size by default), drawn by the engine. */
export function redrawSweep() {
  const last = sweep.last;
  if (!last?.rank) return emptySweepChart();
  const groups = last.rank.by;
  const spec = {
    kind: 'error-bars',
    labels: {
      title: `Degradation by ${last.by} (Fig. 10)`,
      subtitle: `${last.base}: average performance degradation, mean ± standard deviation over the configurations with each ${last.by}; lower is better`,
      x: last.by,
      y: 'degradation [%]',
      unit: '%',
      count: 'configurations',
    },
    categories: groups.map((g) => g.value),
    series: [{ name: last.base, means: groups.map((g) => g.mean), spreads: groups.map((g) => g.std), counts: groups.map((g) => g.count) }],
  };
  showWholeFigure(document.getElementById('chart-sweep'), `sweep-${last.by}`, (e, o) => e.generic_figure(spec, o));
}

/** Table 11's layout: rank, average degradation, the configuration, and its two test cases. */
function renderSweepTable(last) {
  const table = document.getElementById('sweep-table');
  table.textContent = '';
  const { degradation, order } = last.rank;
  header(table, [
    [
      ['rank', 'tied configurations share a rank, as 7/8 in Table 11'],
      ['degradation [%]', 'average over the test cases of 100 × P / P_best − 100 (section 7)'],
      ...last.axes.map((a) => [a.key, `the ${a.key} of the configuration`]),
      ['wait [min]', 'average wait of the configuration'],
      ['b. slowdown', 'average bounded slowdown of the configuration'],
    ],
  ]);
  const body = table.createTBody();
  const first = new Map(); // degradation -> [first position, last position] of its tie
  order.forEach((i, pos) => {
    const d = degradation[i];
    first.set(d, [first.get(d)?.[0] ?? pos + 1, pos + 1]);
  });
  for (const [pos, i] of order.slice(0, sweep.shown).entries()) {
    const tr = body.insertRow();
    tr.dataset.index = String(i);
    const [a, b] = first.get(degradation[i]);
    cell(tr, a === b ? String(a) : b === a + 1 ? `${a}/${b}` : `${a}–${b}`, 'rank', pos + 1);
    // The best of every test case scores 0 up to rounding (100 x P / P is not always 100 exactly).
    const d = Math.abs(degradation[i]) < 0.005 ? 0 : degradation[i];
    cell(tr, `${d.toFixed(2)}%`, 'degradation', degradation[i]);
    for (const [k, v] of last.configs[i]) cell(tr, v, k, v);
    cell(tr, num(last.perf[i][0] / 60), 'avg_wait_s', last.perf[i][0]);
    cell(tr, num(last.perf[i][1]), 'avg_bsld', last.perf[i][1]);
  }
  const more = document.getElementById('sweep-more');
  more.textContent = '';
  if (order.length > sweep.shown) {
    const b = make('button', { type: 'button', className: 'small', textContent: `Show all ${order.length}` });
    b.onclick = () => {
      sweep.shown = order.length;
      renderSweepTable(last);
    };
    more.append(`Showing the top ${sweep.shown} of ${order.length}. `, b);
  }
}

/** The sweep's panel as URL values, so a link brings the same grid back. */
export function sweepUrlValues() {
  return {
    axes: document.getElementById('sweep-axes').value.split('\n').map((s) => s.trim()).filter(Boolean),
    base: document.getElementById('sweep-base').value,
    by: document.getElementById('sweep-by').value,
  };
}

function emptySweepChart() {
  emptyFigure(document.getElementById('chart-sweep'), 'Run a sweep to plot its average degradation against window size (Fig. 10).');
}

/** Forgets a finished sweep (a new trace makes it stale). */
export function clearSweep() {
  sweep.generation++;
  sweep.last = null;
  document.getElementById('sweep-table').textContent = '';
  document.getElementById('sweep-more').textContent = '';
  document.getElementById('sweep-progress').value = 0;
  emptySweepChart();
  sweepStatus('');
  delete document.body.dataset.sweep;
}
