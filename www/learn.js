// The Learn view: a small trace stepped through pass by pass under one or two policies, each
// step drawn by the engine (render::learn) with the queue beside it and the pass's decisions in
// sentences (the decision log). The trace is a table anyone can edit; the schedules follow.
// State lives in the URL: example=NAME or jobs=submit,runtime,estimate,procs,user;... with
// machine=N, policies=A,B and step=N, so a link (or an embed) reproduces the lesson.
import { pageEngine, showFigure, emptyFigure, make } from './figures.js';

const el = (sel) => document.querySelector(sel);

/** The name your own policy runs and shows under (the policy panel's). */
const MINE = 'mine';

/** The engine's policy for your own: the priority typed here, the reservation depth typed in the policy panel. */
const mineSpec = () => `custom:priority=${el('#learn-priority').value.trim() || '-submit'};k=${el('#mine-k')?.value.trim() || '1'};name=${MINE}`;

const L = {
  examples: [],
  example: null, // the example shown, or null for a trace of the user's
  rows: [], // {submit, runtime, estimate, procs, user}
  machine: 8,
  settings: [],
  policies: [],
  learn: null, // the engine's Learn (lessons of the current trace)
  pass: null, // what it shows at the current pass (the crate's explain::learn::Pass)
  index: 0,
  timer: null,
  catalogue: [],
  shown: () => false,
};

/** Installs the view: examples, policy choices, controls, the job table; reads the URL. */
export function installLearn({ params, catalogue, shown }) {
  const engine = pageEngine();
  if (!engine) return;
  L.examples = engine.examples();
  L.catalogue = [...catalogue.policies.map((p) => p.name), MINE];
  // Your own policy: its priority is edited here too, and every edit runs the lesson again.
  el('#learn-priority').value = el('#mine-priority')?.value.trim() || params.get('mine') || '-submit';
  el('#learn-priority').oninput = () => learnCompute(true);
  L.shown = shown;
  const nav = el('#learn-examples');
  for (const ex of L.examples) {
    const b = nav.appendChild(make('button', { type: 'button', textContent: ex.title, title: ex.source, onclick: () => learnLoadExample(ex.name) }));
    b.dataset.example = ex.name;
  }
  for (const id of ['#learn-a', '#learn-b']) {
    const sel = el(id);
    if (id === '#learn-b') sel.append(new Option('(none)', ''));
    for (const name of L.catalogue) sel.append(new Option(name === MINE ? 'mine (your priority)' : name, name));
    sel.onchange = () => {
      L.policies = [el('#learn-a').value, el('#learn-b').value].filter(Boolean);
      learnCompute(true);
    };
  }
  el('#learn-first').onclick = () => learnGo(0);
  el('#learn-back').onclick = () => learnGo(L.index - 1);
  el('#learn-next').onclick = () => learnGo(L.index + 1);
  el('#learn-last').onclick = () => learnGo(Infinity);
  el('#learn-play').onclick = () => (L.timer ? learnStop() : learnPlay());
  el('#learn-step').oninput = (e) => learnGo(Number(e.target.value));
  el('#learn-add').onclick = () => {
    const last = L.rows[L.rows.length - 1] ?? { submit: 0, runtime: 10, estimate: 10, procs: 1, user: 1 };
    L.rows.push({ ...last, submit: last.submit + 1 });
    learnEdited();
  };
  el('#learn-reset').onclick = () => learnLoadExample(L.example?.name ?? L.examples[0].name);
  el('#learn-machine').oninput = (e) => {
    const n = Math.round(Number(e.target.value));
    if (n >= 1) {
      L.machine = n;
      learnEdited(false);
    }
  };
  el('#learn-jobs').oninput = (e) => {
    const { row, key } = e.target.dataset;
    const v = Number(e.target.value);
    if (!key || !Number.isFinite(v) || e.target.value === '') return;
    L.rows[row][key] = v;
    learnEdited(false);
  };
  el('#learn-jobs').onclick = (e) => {
    if (e.target.dataset.remove === undefined) return;
    L.rows.splice(Number(e.target.dataset.remove), 1);
    learnEdited();
  };
  document.addEventListener('keydown', (e) => {
    if (!L.shown() || e.target.closest?.('input, select, textarea, button')) return;
    if (e.key === 'ArrowRight') learnGo(L.index + 1);
    else if (e.key === 'ArrowLeft') learnGo(L.index - 1);
    else if (e.key === 'Home') learnGo(0);
    else if (e.key === 'End') learnGo(Infinity);
    else if (e.key === ' ') L.timer ? learnStop() : learnPlay();
    else return;
    e.preventDefault();
  });
  // The URL: a trace of its own, or an example (the first by default).
  const pick = (list) => list.split(',').map((s) => s.trim()).filter((s) => L.catalogue.includes(s));
  if (params.get('jobs')) {
    L.example = null;
    L.rows = engine.learn_rows(params.get('jobs'));
    L.machine = Math.max(1, Number(params.get('machine')) || Math.max(1, ...L.rows.map((r) => r.procs)));
    L.settings = params.getAll('set');
    L.policies = pick(params.get('policies') ?? 'fcfs,easy');
    L.index = Number(params.get('step')) || 0;
    learnFillTable();
    learnCompute(false);
  } else {
    learnLoadExample(params.get('example') ?? L.examples[0].name, params.get('policies'), Number(params.get('step')) || 0, false);
  }
}

/** Shows the worked example `name` with its policies (or `policies`), at step `step`. */
function learnLoadExample(name, policies = null, step = 0, write = true) {
  learnStop();
  const ex = L.examples.find((e) => e.name === name) ?? L.examples[0];
  L.example = ex;
  L.rows = ex.rows.map((r) => ({ ...r }));
  L.machine = ex.machine;
  L.settings = [...ex.settings];
  const chosen = policies ? policies.split(',').map((s) => s.trim()).filter((s) => L.catalogue.includes(s)) : [];
  L.policies = chosen.length ? chosen.slice(0, 2) : [...ex.policies];
  L.index = step;
  learnFillTable();
  learnCompute(write);
}

/** The table was edited: the trace is now the user's own. */
function learnEdited(table = true) {
  L.example = null;
  if (table) learnFillTable();
  learnCompute(true);
}

/** Writes the job table from the rows, each cell an input that edits its row (installLearn wires them). */
function learnFillTable() {
  el('#learn-machine').value = L.machine;
  el('#learn-jobs').innerHTML = pageEngine().learn_table(L.rows);
}

/** Runs the policies on the trace (a few milliseconds for a table's worth of jobs) and redraws. */
function learnCompute(write) {
  const engine = pageEngine();
  const problems = el('#learn-problems');
  problems.textContent = '';
  L.learn?.free();
  L.learn = null;
  el('#learn-a').value = L.policies[0] ?? '';
  el('#learn-b').value = L.policies[1] ?? '';
  const ex = L.example;
  el('#learn-example-title').textContent = ex ? `${ex.title} (${ex.source})` : 'Your trace';
  // The title keeps the whole lesson where an embed shows one line of it.
  el('#learn-example-text').textContent = el('#learn-example-text').title = ex
    ? ex.lesson
    : 'Edited from the example: every change runs the policies again. "Back to the example" restores it.';
  for (const b of document.querySelectorAll('#learn-examples button')) {
    if (ex && b.dataset.example === ex.name) b.setAttribute('aria-current', 'true');
    else b.removeAttribute('aria-current');
  }
  const mine = L.policies.includes(MINE);
  el('#learn-mine').hidden = !mine;
  const specs = L.policies.map((p) => (p === MINE ? mineSpec() : p));
  try {
    L.learn = new engine.Learn(L.rows, L.machine, specs, L.settings);
  } catch (e) {
    problems.append(make('li', { textContent: String(e.message ?? e) }));
  }
  problems.append(...(L.learn?.problems() ?? []).map((p) => make('li', { textContent: p })));
  learnGo(L.index, write);
}

/** Keeps the lesson in the URL, so a link reproduces it. */
function learnWriteUrl() {
  if (!L.shown()) return;
  const u = new URL(location.href);
  for (const k of ['example', 'jobs', 'machine', 'policies', 'step']) u.searchParams.delete(k);
  if (L.example) u.searchParams.set('example', L.example.name);
  else {
    u.searchParams.set('jobs', pageEngine().learn_link(L.rows));
    u.searchParams.set('machine', String(L.machine));
  }
  u.searchParams.set('policies', L.policies.join(','));
  const priority = el('#learn-priority').value.trim();
  if (L.policies.includes(MINE) && priority && priority !== '-submit') u.searchParams.set('mine', priority);
  else u.searchParams.delete('mine');
  if (L.index > 0) u.searchParams.set('step', String(L.index));
  history.replaceState(null, '', u);
}

/** Goes to pass `i` (within the passes there are) and draws it. */
function learnGo(i, write = true) {
  L.pass = L.learn?.pass(Math.max(0, Math.min(i, 1e9))) ?? null;
  L.index = L.pass?.index ?? 0;
  el('#learn-step').max = String(Math.max(0, (L.pass?.count ?? 1) - 1));
  if (write) learnWriteUrl();
  redrawLearn();
}

function learnPlay() {
  const last = () => !L.pass || L.index >= L.pass.count - 1;
  if (last()) L.index = -1;
  L.timer = setInterval(() => {
    if (last()) return learnStop();
    learnGo(L.index + 1);
  }, 1400);
  el('#learn-play').textContent = '❚❚ Pause';
  learnGo(L.index + 1);
}

function learnStop() {
  clearInterval(L.timer);
  L.timer = null;
  el('#learn-play').textContent = '▶ Play';
}

/** Draws both panels at the current pass: each policy's last pass at or before it. */
export function redrawLearn() {
  const p = L.pass;
  if (!L.shown() || !p) return;
  el('#learn-step').value = String(p.index);
  el('#learn-time').textContent = p.label;
  el('#learn-back').disabled = el('#learn-first').disabled = p.index <= 0;
  el('#learn-next').disabled = el('#learn-last').disabled = p.index >= p.count - 1;
  const note = el('#learn-same');
  note.hidden = !p.same;
  note.textContent = p.same ?? '';
  note.dataset.part = p.part ?? '';
  document.querySelectorAll('.learn-panel').forEach((panel, k) => {
    const shown = p.panels[k];
    panel.hidden = !shown;
    if (!shown) return;
    const canvas = panel.querySelector('canvas');
    panel.querySelector('h3').textContent = shown.policy;
    panel.querySelector('.learn-queue').textContent = shown.queue;
    const said = panel.querySelector('.learn-said');
    said.textContent = '';
    if (shown.step === null) return emptyFigure(canvas, shown.note);
    canvas.dataset.step = String(shown.step);
    canvas.dataset.time = String(shown.step_time);
    showFigure(canvas, `learn-${shown.policy}-${shown.step}`, (o) => L.learn.figure(k, shown.step, o));
    said.append(...shown.said.map((line) => make('li', { textContent: line })));
    if (shown.note) said.append(make('li', { className: 'note', textContent: shown.note }));
  });
}
