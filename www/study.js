// A paper's study on the page, as the engine describes it (the crate's studies::panel): the form
// from its fields, its runs across the worker pool, and its report's headings, notes, tables,
// charts and findings in order. Nothing here knows any one study. Top-level names start with
// `study` (the single-file build joins the modules into one scope).
import { showWholeFigure, pageEngine, putHtml } from './figures.js';

/** Each installed study by name: {name, prefix (of its ids), views (its view fields' keys), ctx, generation, last, figures, set, options, url}; the name tags its tasks and the body's `data-NAME`. */
const studyPanels = new Map();

/** Sets the text (or, with `key` 'value', the value; 'hidden', whether hidden) of each element by id in `pairs`. */
const studyPut = (pairs, key = 'textContent') => pairs.forEach(([id, v]) => (document.getElementById(id)[key] = v));

/**
 * Builds the form of study `name` into its `[data-panel]` box and wires it. `ctx` gives {pool, params, ready(), bytes(),
 * settings() (`KEY=VALUE`), about() ({report, header} of the trace, and `page`, what the Load view sweeps), onurl()}.
 */
export function installStudy(name, ctx) {
  const { prefix, fields, html, set } = pageEngine().study_form(name, [...ctx.params].flat());
  const s = { name, prefix, views: fields.filter((f) => f.view).map((f) => f.key), ctx, generation: 0, last: null, figures: [], set: new Set(set) };
  studyPanels.set(name, s);
  const box = document.querySelector(`[data-panel="${name}"]`);
  box.innerHTML = html;
  // The form's controls as the engine reads them: a box of choices gives those ticked.
  s.form = () => [...box.querySelectorAll(`#${prefix}-form [data-key]`)].flatMap((el) => [el.dataset.key, el.matches('span') ? [...el.querySelectorAll('input:checked')].map((i) => i.value).join(',') : el.value]);
  // Set by the link or the user, a field no longer follows the trace. A view's choice shows at
  // once and lives in the URL; another field's waits for Run.
  box.addEventListener('input', (e) => {
    const key = e.target.closest('[data-key]')?.dataset.key;
    if (!key) return;
    s.set.add(key);
    studyPlan(s);
    if (s.views.includes(key)) studyShow(s), ctx.onurl();
  });
  box.addEventListener('click', (e) => {
    const b = e.target.closest('button');
    if (b?.dataset.values !== undefined) {
      studyPut(JSON.parse(b.dataset.values).map(([k, v]) => [`${prefix}-${k}`, v]), 'value');
      studyPlan(s);
    } else if (b?.id === `${prefix}-run`) runStudy(name);
    else if (b?.id === `${prefix}-cancel`) ctx.pool.cancel(name);
  });
  clearStudy(name);
}

/** The study's status line says `text` (`kind`: its class). */
const studyStatus = (s, text, kind = '') => Object.assign(document.getElementById(`${s.prefix}-status`), { textContent: text, className: kind });

/** The study in the URL: each field not at its default, by its URL name (a box of lines as a list of them). */
export function studyUrlValues(name) {
  return Object.fromEntries(studyPanels.get(name).url);
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
  const { generation, options } = s;
  ctx.onurl();
  const about = ctx.about();
  const current = () => generation === s.generation; // a newer run or a new trace makes the runs stale
  const [n, [one, many]] = [plan.tasks.length, plan.noun];
  const bar = Object.assign(document.getElementById(`${prefix}-progress`), { max: n, value: 0 });
  document.body.dataset[name] = 'running';
  studyStatus(s, `Running ${n} ${n === 1 ? one : many}…`);
  const values = plan.tasks.map(() => null);
  const t0 = performance.now();
  const seconds = () => (performance.now() - t0) / 1000;
  let [done, failure] = [0, null];
  await Promise.all(
    plan.tasks.map(async (t, i) => {
      const res = await ctx.pool.run({ kind: 'study', tag: name, bytes: ctx.bytes(), settings: t.settings, input: { study: name, input: t.input } });
      if (!current()) return;
      if (!res.ok || !res.value.ok) {
        // The first failure stops the rest of the study's runs.
        if (!res.cancelled && !failure) (failure = `${t.what}: ${res.ok ? res.value.message : res.error}`), ctx.pool.cancel(name);
        return;
      }
      values[i] = res.value.value;
      bar.value = ++done;
      studyStatus(s, `${done} of ${n} ${many} (${seconds().toFixed(1)} s)`);
      if (!plan.progressive) return;
      // A progressive report shows the runs finished so far, drawn at most once a frame.
      s.last = { options, about, values, seconds: seconds() };
      cancelAnimationFrame(s.drawing);
      s.drawing = requestAnimationFrame(() => current() && studyShow(s, true));
    }),
  );
  if (!current()) return;
  cancelAnimationFrame(s.drawing);
  if (done < n) {
    if (done && plan.progressive) studyShow(s, true);
    studyStatus(s, failure ? `Stopped: ${failure}` : `Cancelled after ${done} of ${n} ${many}.`, failure ? 'error' : '');
    document.body.dataset[name] = 'stopped';
    return;
  }
  s.last = { options, about, values, seconds: seconds() };
  studyShow(s);
  document.body.dataset[name] = 'done';
}

/** The plan of the form's values, its line under the form saying what will run (or what is wrong), and the note fields' texts. */
function studyPlan(s) {
  const res = pageEngine().study_plan(s.name, s.form(), [...s.set], s.ctx.settings(), s.ctx.about());
  // A field not set follows the trace: the engine gives the value it takes there.
  studyPut(Object.entries(res.notes ?? {}));
  studyPut(res.fill ?? [], 'value');
  studyPut(res.hidden ?? [], 'hidden');
  Object.assign(s, { options: res.options ?? [], url: res.url ?? [] });
  const count = document.getElementById(`${s.prefix}-count`);
  count.className = res.ok ? '' : 'error';
  count.textContent = res.ok ? res.plan.what : res.message;
  return res.ok ? res.plan : null;
}

/** Shows the report of the last runs: the fields they ran with, the view fields as they are now. */
function studyShow(s, partial = false) {
  if (!s.last) return;
  const res = pageEngine().study_report(s.name, s.last.options, s.options, s.last.values, s.last.about);
  if (!res.ok) return studyStatus(s, res.message, 'error');
  putHtml(document.getElementById(`${s.prefix}-report`), res.report.html);
  s.figures = res.report.figures.map((f) => ({ ...f, canvas: document.getElementById(f.id) }));
  for (const { panels, canvas } of s.figures.filter((f) => f.panels)) {
    // As many panels across as leave each 180 px (the engine arranges them): the canvas grows to hold the rows.
    const across = Math.max(1, Math.min(panels, Math.floor((canvas.clientWidth || 900) / 180)));
    canvas.style.height = `${130 + Math.ceil(panels / across) * 170}px`;
  }
  redrawStudy(s.name);
  if (partial) return; // the progress line says how far the runs are
  const t = s.last.seconds;
  studyStatus(s, res.report.status.replace('{time}', t < 1 ? `${Math.max(1, Math.round(t * 1000))} ms` : `${t.toFixed(1)} s`), 'done');
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
  Object.assign(s, { generation: s.generation + 1, last: null, figures: [] });
  document.getElementById(`${s.prefix}-report`).innerHTML = '<p class="empty note">Run the study to see its tables and charts here.</p>';
  document.getElementById(`${s.prefix}-progress`).value = 0;
  studyStatus(s, '');
  delete document.body.dataset[s.name];
  studyPlan(s); // what the form asks for may depend on the trace
}
