// A paper's study on the page, as the engine describes it (the crate's studies::panel): the form
// from its fields, its runs across the worker pool, and its report's headings, notes, tables,
// charts and findings in order. Nothing here knows any one study. Top-level names start with
// `study` (the single-file build joins the modules into one scope).
import { showWholeFigure, emptyFigure, findingList, pageEngine, make, makeTable } from './figures.js';
import { runTasks } from './tasks.js';

/**
 * Each installed study by name: {name, prefix, fields (its inputs), notes (its note fields), ctx,
 * generation, last, figures}. The name tags its tasks and the body's `data-NAME` (running,
 * stopped, done); `prefix` starts its ids.
 */
const studyPanels = new Map();

/** A number as the engine writes it (1.50 -> 1.5); anything else trimmed. */
const studyCanon = (v) => (/^\s*(\d+\.?\d*|\.\d+)\s*$/.test(v) ? String(Number(v)) : v.trim());

/** A text field's value for the URL and the engine: a list's items without the spaces after commas, a box's lines trimmed. */
const studyListValue = (f, v) =>
  f.list ? v.split(',').map((x) => x.trim()).filter(Boolean).join(',') : f.lines ? v.split('\n').map((x) => x.trim()).filter(Boolean).join('\n') : v.trim();

/**
 * Builds the form of study `name` into its `[data-panel]` box and wires it. `ctx` gives {pool, params,
 * ready(), bytes(), settings() -> the page's settings as `KEY=VALUE`, about() -> {report, header}
 * of the trace (none before one is read) and `page`, what the Load view sweeps, onurl()}; the page's engine
 * is the whole one by then.
 */
export function installStudy(name, ctx) {
  const { prefix, fields, presets, fixed } = pageEngine().study_form(name);
  const isNote = (f) => f.input === 'note';
  const s = { name, prefix, fields: fields.filter((f) => !isNote(f)), notes: fields.filter(isNote), ctx, generation: 0, last: null, figures: [], defaults: {}, set: new Set() };
  studyPanels.set(name, s);
  const form = studyEl('div', { id: `${prefix}-form`, className: 'controls' });
  if (fixed) {
    const items = fixed.items.flatMap(([text, title], i) => [...(i ? [', '] : []), studyEl('b', { textContent: text, title })]);
    form.append(studyEl('span', { id: `${prefix}-${fixed.key}` }, [`${fixed.label} `, ...items]));
  }
  for (const f of fields) {
    const id = `${prefix}-${f.key}`;
    if (isNote(f)) {
      // Written from the trace by the engine (studyPlan).
      form.append(studyEl('span', { id, className: 'note', title: f.title }));
      continue;
    }
    // A box of lines takes a parameter per line.
    const given = f.lines ? ctx.params.getAll(f.url).join('\n') || null : ctx.params.get(f.url);
    const value = given === null ? f.default : f.list ? given.split(',').map((x) => x.trim()).join(', ') : given;
    // Set by the link or the user, a field no longer follows the trace (studyPlan's defaults).
    if (given !== null) s.set.add(f.key);
    // A view's choice shows at once and lives in the URL; another field's waits for Run.
    const changed = () => (s.set.add(f.key), f.view ? (studyShow(s), ctx.onurl()) : studyPlan(s));
    if (f.multiple) {
      // A box per choice, and one per other value the link gives; the field's value lists those ticked.
      const on = value.split(',').map(studyCanon).filter(Boolean);
      const choices = [...f.choices, ...on.filter((v) => !f.choices.some(([c]) => c === v)).map((v) => [v, v])];
      const boxes = choices.map(([v, label]) =>
        studyEl('label', {}, [studyEl('input', { type: 'checkbox', value: v, checked: on.includes(v), onchange: changed }), ` ${label}`]),
      );
      form.append(studyEl('span', { id, title: f.title }, [`${f.label} `, ...boxes]));
      continue;
    }
    let input;
    if (f.choices.length) {
      input = studyEl('select', { id, title: f.title, onchange: changed });
      for (const [v, label] of f.choices) input.append(new Option(label, v));
      input.value = f.choices.some(([v]) => v === value) ? value : f.default;
    } else if (f.lines) {
      input = studyEl('textarea', { id, title: f.title, value, rows: f.lines, cols: 28, spellcheck: false, oninput: changed });
    } else {
      input = studyEl('input', { id, type: f.input, title: f.title, value, size: f.size, spellcheck: false, autocomplete: 'off', oninput: changed });
    }
    form.append(studyEl('label', { id: `${id}-label` }, [`${f.label} `, input]));
  }
  for (const p of presets) {
    const set = () => {
      for (const [k, v] of p.values) document.getElementById(`${prefix}-${k}`).value = v;
      studyPlan(s);
    };
    form.append(studyEl('button', { id: `${prefix}-${p.key}`, type: 'button', className: 'small', title: p.title, textContent: p.label, onclick: set }), ' ');
  }
  const run = studyEl('button', { id: `${prefix}-run`, type: 'button', textContent: 'Run', onclick: () => runStudy(name) });
  const cancel = studyEl('button', { id: `${prefix}-cancel`, type: 'button', textContent: 'Cancel', onclick: () => ctx.pool.cancel(name) });
  form.append(run, ' ', cancel, ' ', studyEl('span', { id: `${prefix}-count` }));
  const line = studyEl('p', {}, [studyEl('progress', { id: `${prefix}-progress`, value: 0, max: 1 }), ' ', studyEl('span', { id: `${prefix}-status`, role: 'status' })]);
  document.querySelector(`[data-panel="${name}"]`).append(form, line, studyEl('div', { id: `${prefix}-report` }));
  clearStudy(name);
}

/** An element with properties and a list of children. */
const studyEl = (tag, props = {}, kids = []) => make(tag, props, ...kids);

/** A field's value as the form shows it (boxes: those ticked, separated by commas). */
function studyValue(s, f) {
  const el = document.getElementById(`${s.prefix}-${f.key}`);
  return studyListValue(f, f.multiple ? [...el.querySelectorAll('input:checked')].map((i) => i.value).join(',') : el.value);
}

/** The form's values as `KEY=VALUE`. */
const studyOptions = (s) => s.fields.map((f) => `${f.key}=${studyValue(s, f)}`);

function studyStatus(s, text, kind = '') {
  const el = document.getElementById(`${s.prefix}-status`);
  el.textContent = text;
  el.className = kind;
}

/** The study in the URL: each field not at its default, by its URL name (a box of lines as a list of them). */
export function studyUrlValues(name) {
  const s = studyPanels.get(name);
  return Object.fromEntries(
    s.fields.map((f) => {
      const v = studyValue(s, f);
      return [f.url, v === studyListValue(f, s.defaults[f.key] ?? f.default) ? null : f.lines ? v.split('\n') : v];
    }),
  );
}

/** Runs the study's plan across the worker pool, then shows its report. */
export async function runStudy(name) {
  const s = studyPanels.get(name);
  const { ctx, prefix } = s;
  const plan = studyPlan(s);
  if (!plan) return studyStatus(s, `Not run: ${document.getElementById(`${prefix}-count`).textContent}.`, 'error');
  if (!ctx.ready()) return studyStatus(s, 'Load a trace first.', 'error');
  ctx.pool.cancel(name);
  clearStudy(name); // the last report would not match the new runs
  const generation = s.generation;
  const options = studyOptions(s);
  ctx.onurl();
  const about = ctx.about();
  // A progressive report shows the runs finished so far, drawn at most once a frame.
  const values = plan.tasks.map(() => null);
  const t0 = performance.now();
  const soon = () => {
    s.last = { options, about, values, seconds: (performance.now() - t0) / 1000 };
    cancelAnimationFrame(s.drawing);
    s.drawing = requestAnimationFrame(() => generation === s.generation && studyShow(s, true));
  };
  const onvalue = plan.progressive ? (v, i) => ((values[i] = v.value), soon()) : undefined;
  const batch = await runTasks(
    ctx.pool,
    plan.tasks.map((t) => ({ what: t.what, task: { kind: 'study', tag: name, bytes: ctx.bytes(), settings: t.settings, input: { study: name, input: t.input } } })),
    {
      group: name,
      bar: document.getElementById(`${prefix}-progress`),
      status: (text, kind) => studyStatus(s, text, kind),
      current: () => generation === s.generation,
      noun: plan.noun,
      onvalue,
    },
  );
  if (!batch) return;
  cancelAnimationFrame(s.drawing);
  if (batch.done < plan.tasks.length) {
    if (batch.done && plan.progressive) studyShow(s, true);
    return batch.stopped();
  }
  s.last = { options, about, values: batch.values.map((v) => v.value), seconds: (performance.now() - t0) / 1000 };
  studyShow(s);
  document.body.dataset[name] = 'done';
}

/** The plan of the form's values, its line under the form saying what will run (or what is wrong), and the note fields' texts. */
function studyPlan(s, again = true) {
  const res = pageEngine().study_plan(s.name, studyOptions(s), s.ctx.settings(), s.ctx.about());
  for (const f of s.notes) document.getElementById(`${s.prefix}-${f.key}`).textContent = res.notes?.[f.key] ?? '';
  // A field not set follows the trace: the plan is made again with its value on this trace.
  s.defaults = res.defaults ?? {};
  const follow = Object.entries(s.defaults).filter(([k, v]) => !s.set.has(k) && document.getElementById(`${s.prefix}-${k}`).value !== v);
  for (const [k, v] of follow) document.getElementById(`${s.prefix}-${k}`).value = v;
  if (follow.length && again) return studyPlan(s, false);
  for (const f of s.fields.filter((f) => f.when)) {
    const [key, value] = f.when;
    document.getElementById(`${s.prefix}-${f.key}-label`).hidden = studyValue(s, s.fields.find((g) => g.key === key)) !== value;
  }
  const count = document.getElementById(`${s.prefix}-count`);
  count.className = res.ok ? '' : 'error';
  count.textContent = res.ok ? res.plan.what : res.message;
  return res.ok ? res.plan : null;
}

/** Shows the report of the last runs: the fields they ran with, the view fields as they are now. */
function studyShow(s, partial = false) {
  if (!s.last) return;
  const now = studyOptions(s);
  const options = s.fields.map((f, i) => (f.view ? now[i] : s.last.options[i]));
  const res = pageEngine().study_report(s.name, options, s.last.values, s.last.about);
  if (!res.ok) return studyStatus(s, res.message, 'error');
  const box = document.getElementById(`${s.prefix}-report`);
  // The charts keep their canvases (a progressive report is made again as each run finishes).
  const canvases = new Map([...box.querySelectorAll('canvas[id]')].map((c) => [c.id, c]));
  const canvasFor = (id) => canvases.get(id) ?? studyEl('canvas', { id });
  box.textContent = '';
  s.figures = [];
  let charts = null; // consecutive charts share a row
  const place = (b, kid) => {
    // A chart (or why there is none) joins the row of the charts before it of its group.
    if (!charts || charts.group !== (b.group ?? '')) box.append((charts = studyEl('div', { className: `charts ${b.group ?? ''}`.trim(), group: b.group ?? '' })));
    charts.append(studyEl('div', { className: 'figure' }, [kid]));
  };
  for (const b of res.report.blocks) {
    if (b.kind !== 'figure' && b.kind !== 'empty') charts = null;
    if (b.kind === 'heading') box.append(studyEl('h3', { textContent: b.text }));
    else if (b.kind === 'note') box.append(studyEl('p', { id: b.id, className: 'note', textContent: b.text }));
    else if (b.kind === 'findings') findingList(box.appendChild(studyEl('ul', { id: b.id, className: 'findings' })), b.findings);
    else if (b.kind === 'table') box.append(studyEl('div', { className: 'scroll' }, [makeTable(b)]));
    else if (b.kind === 'lines') box.append(studyEl('ul', { id: b.id }, b.lines.map(studyLine)));
    else if (b.kind === 'empty') {
      const canvas = canvasFor(b.id);
      place(b, canvas);
      emptyFigure(canvas, b.text);
    }
    else if (b.kind === 'figure') {
      const canvas = canvasFor(b.id);
      place(b, canvas);
      if (b.panels) {
        // As many panels across as leave each 180 px (the engine arranges them): the canvas grows to hold the rows.
        const across = Math.max(1, Math.min(b.panels, Math.floor((canvas.clientWidth || 900) / 180)));
        canvas.style.height = `${130 + Math.ceil(b.panels / across) * 170}px`;
      }
      s.figures.push({ canvas, name: b.name, spec: b.spec, options: b.options ?? {} });
    }
  }
  redrawStudy(s.name);
  if (partial) return; // the progress line says how far the runs are
  const t = s.last.seconds;
  studyStatus(s, res.report.status.replace('{time}', t < 1 ? `${Math.max(1, Math.round(t * 1000))} ms` : `${t.toFixed(1)} s`), 'done');
}

/** A line of text, then names in bold, each with its name as data-policy. */
function studyLine(l) {
  const li = studyEl('li', {}, [l.text, ...l.names.flatMap((n, i) => [...(i ? [', '] : []), studyEl('b', { textContent: n })])]);
  for (const [k, v] of l.data) li.dataset[k] = v;
  for (const b of li.querySelectorAll('b')) b.dataset.policy = b.textContent;
  return li;
}

/** Draws the study's charts (those of a hidden view are drawn when it is shown). */
export function redrawStudy(name) {
  for (const f of studyPanels.get(name)?.figures ?? []) showWholeFigure(f.canvas, f.name, (e, o) => e.generic_figure(f.spec, o), f.options);
}

/** A trace was read: each study's form says again what it will run, and its notes, on it. */
export function studyTraceRead() {
  for (const s of studyPanels.values()) studyPlan(s);
}

/** Forgets the runs (a new trace makes them stale). */
export function clearStudy(name) {
  const s = studyPanels.get(name);
  if (!s) return;
  s.generation++;
  s.last = null;
  s.figures = [];
  const box = document.getElementById(`${s.prefix}-report`);
  box.textContent = '';
  box.append(studyEl('p', { className: 'empty note', textContent: 'Run the study to see its tables and charts here.' }));
  document.getElementById(`${s.prefix}-progress`).value = 0;
  studyStatus(s, '');
  delete document.body.dataset[s.name];
  studyPlan(s); // what the form asks for may depend on the trace
}
