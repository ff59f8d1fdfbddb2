// The Learn view: a small trace stepped through pass by pass under one or two policies, each
// step drawn by the engine (render::learn) with the queue beside it and the pass's decisions in
// sentences (the decision log). The trace is a table anyone can edit; the schedules follow.
// State lives in the URL: example=NAME or jobs=submit,runtime,estimate,procs,user;... with
// machine=N, policies=A,B and step=N, so a link (or an embed) reproduces the lesson.
import { pageEngine, showFigure, emptyFigure, make } from './figures.js';
import { MINE, mineSpec, minePriority } from './mine.js';

const el = (sel) => document.querySelector(sel);

const L = {
  examples: [],
  example: null, // the example shown, or null for a trace of the user's
  rows: [], // {submit, runtime, estimate, procs, user}
  machine: 8,
  settings: [],
  policies: [],
  learn: null, // the engine's Learn (lessons of the current trace)
  data: null, // {lessons, problems}
  times: [], // every pass time of either lesson, in order
  index: 0,
  timer: null,
  catalogue: [],
  shown: () => false,
};

/** The jobs of an SWF text as table rows, and its machine size. */
function learnFromSwf(text) {
  const rows = [];
  let machine = 0;
  for (const line of text.split('\n')) {
    const t = line.trim();
    const m = /^;\s*MaxProcs:\s*(\d+)/i.exec(t);
    if (m) machine = Number(m[1]);
    if (!t || t.startsWith(';')) continue;
    const f = t.split(/\s+/).map(Number);
    rows.push({ submit: f[1], runtime: f[3], estimate: f[8], procs: f[7] > 0 ? f[7] : f[4], user: f[11] });
  }
  return { rows, machine: machine || Math.max(1, ...rows.map((r) => r.procs)) };
}

/** The table rows as SWF text, jobs numbered from 1 in row order. */
function learnToSwf(rows, machine) {
  const lines = [`; MaxProcs: ${machine}`];
  rows.forEach((r, i) => {
    lines.push(`${i + 1} ${r.submit} -1 ${r.runtime} ${r.procs} -1 -1 ${r.procs} ${r.estimate} -1 1 ${r.user} ${r.user} -1 1 -1 -1 -1`);
  });
  return lines.join('\n') + '\n';
}

/** The rows as the `jobs=` URL value. */
const learnRowsParam = (rows) => rows.map((r) => [r.submit, r.runtime, r.estimate, r.procs, r.user].join(',')).join(';');

/** Rows from a `jobs=` URL value (bad numbers become 0, which the engine then reports). */
function learnParseRows(value) {
  return value
    .split(';')
    .filter((s) => s.trim())
    .map((s) => {
      const [submit, runtime, estimate, procs, user] = s.split(',').map((x) => Number(x) || 0);
      return { submit, runtime, estimate: estimate || runtime, procs: procs || 1, user: user || 1 };
    });
}

/** Installs the view: examples, policy choices, controls, the job table; reads the URL. */
export function installLearn({ params, catalogue, shown }) {
  const engine = pageEngine();
  if (!engine) return;
  L.examples = engine.examples();
  L.catalogue = [...catalogue.policies.map((p) => p.name), MINE];
  // Your own policy: its priority is edited here too, and every edit runs the lesson again.
  el('#learn-priority').value = minePriority(params);
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
  el('#learn-last').onclick = () => learnGo(L.times.length - 1);
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
  document.addEventListener('keydown', (e) => {
    if (!L.shown() || e.target.closest?.('input, select, textarea, button')) return;
    if (e.key === 'ArrowRight') learnGo(L.index + 1);
    else if (e.key === 'ArrowLeft') learnGo(L.index - 1);
    else if (e.key === 'Home') learnGo(0);
    else if (e.key === 'End') learnGo(L.times.length - 1);
    else if (e.key === ' ') L.timer ? learnStop() : learnPlay();
    else return;
    e.preventDefault();
  });
  // The URL: a trace of its own, or an example (the first by default).
  const pick = (list) => list.split(',').map((s) => s.trim()).filter((s) => L.catalogue.includes(s));
  if (params.get('jobs')) {
    L.example = null;
    L.rows = learnParseRows(params.get('jobs'));
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
  ({ rows: L.rows, machine: L.machine } = learnFromSwf(ex.swf));
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

/** Writes the job table from the rows, each cell an input that edits its row. */
function learnFillTable() {
  el('#learn-machine').value = L.machine;
  const t = el('#learn-jobs');
  t.textContent = '';
  const head = t.createTHead().insertRow();
  head.append(...['job', 'submit (s)', 'runtime (s)', 'estimate (s)', 'processors', 'user', ''].map((h) => make('th', { textContent: h })));
  const body = t.createTBody();
  L.rows.forEach((r, i) => {
    const tr = body.insertRow();
    tr.insertCell().textContent = String(i + 1);
    for (const key of ['submit', 'runtime', 'estimate', 'procs', 'user']) {
      const input = make('input', { type: 'number', min: key === 'submit' ? '0' : '1', value: r[key], ariaLabel: `job ${i + 1} ${key}` });
      input.dataset.key = key;
      input.oninput = () => {
        const v = Number(input.value);
        if (!Number.isFinite(v) || input.value === '') return;
        r[key] = v;
        learnEdited(false);
      };
      tr.insertCell().append(input);
    }
    const onclick = () => {
      L.rows.splice(i, 1);
      learnEdited();
    };
    tr.insertCell().append(make('button', { type: 'button', className: 'small', textContent: 'Remove', ariaLabel: `remove job ${i + 1}`, onclick }));
  });
}

/** Runs the policies on the trace (a few milliseconds for a table's worth of jobs) and redraws. */
function learnCompute(write) {
  const engine = pageEngine();
  const problems = el('#learn-problems');
  problems.textContent = '';
  L.learn?.free();
  L.learn = null;
  L.data = null;
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
  const specs = L.policies.map((p) => (p === MINE ? mineSpec(el('#learn-priority').value) : p));
  try {
    L.learn = new engine.Learn(learnToSwf(L.rows, L.machine), specs, L.settings);
    L.data = L.learn.data();
  } catch (e) {
    problems.append(make('li', { textContent: String(e.message ?? e) }));
  }
  problems.append(...(L.data?.problems ?? []).map((p) => make('li', { textContent: p })));
  const times = new Set();
  for (const l of L.data?.lessons ?? []) for (const s of l.steps) times.add(s.time);
  L.times = [...times].sort((a, b) => a - b);
  L.index = Math.max(0, Math.min(L.index, L.times.length - 1));
  el('#learn-step').max = String(Math.max(0, L.times.length - 1));
  if (write) learnWriteUrl();
  learnDraw();
}

/** Keeps the lesson in the URL, so a link reproduces it. */
function learnWriteUrl() {
  if (!L.shown()) return;
  const u = new URL(location.href);
  for (const k of ['example', 'jobs', 'machine', 'policies', 'step']) u.searchParams.delete(k);
  if (L.example) u.searchParams.set('example', L.example.name);
  else {
    u.searchParams.set('jobs', learnRowsParam(L.rows));
    u.searchParams.set('machine', String(L.machine));
  }
  u.searchParams.set('policies', L.policies.join(','));
  const priority = el('#learn-priority').value.trim();
  if (L.policies.includes(MINE) && priority && priority !== '-submit') u.searchParams.set('mine', priority);
  else u.searchParams.delete('mine');
  if (L.index > 0) u.searchParams.set('step', String(L.index));
  history.replaceState(null, '', u);
}

function learnGo(i) {
  if (!L.times.length) return;
  L.index = Math.max(0, Math.min(i, L.times.length - 1));
  learnWriteUrl();
  learnDraw();
}

function learnPlay() {
  if (L.index >= L.times.length - 1) L.index = -1;
  L.timer = setInterval(() => {
    if (L.index >= L.times.length - 1) return learnStop();
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

/** Draws both panels at the current time: each policy's last pass at or before it. */
/** What `lesson` decides at time `t`: its pass there (sentences and queue), '' before its first, 'idle' between passes. */
function learnSaid(lesson, t) {
  let step = -1;
  lesson.steps.forEach((s, i) => {
    if (s.time <= t) step = i;
  });
  const s = lesson.steps[step];
  return step < 0 ? '' : s.time !== t ? 'idle' : JSON.stringify([s.sentences, s.waiting]);
}

/** Says when the two panels show the same decisions, and at which pass the policies part. */
function learnSame(t) {
  const note = el('#learn-same');
  const [a, b] = L.data.lessons;
  if (!a || !b || learnSaid(a, t) !== learnSaid(b, t)) {
    note.hidden = true;
    return;
  }
  const differ = (u) => learnSaid(a, u) !== learnSaid(b, u);
  const later = L.times.findIndex((u, i) => i > L.index && differ(u));
  const any = later >= 0 ? later : L.times.findIndex(differ);
  note.textContent =
    `${a.policy} and ${b.policy} decide alike at this pass` +
    (any < 0 ? ' and at every other: on this trace they never part.' : `; they part at pass ${any + 1} (t=${L.times[any]} s).`);
  note.dataset.part = any < 0 ? '' : String(any + 1);
  note.hidden = false;
}

export function redrawLearn() {
  learnDraw();
}

function learnDraw() {
  if (!L.shown() || !L.data) return;
  const t = L.times[L.index];
  el('#learn-step').value = String(L.index);
  el('#learn-time').textContent = L.times.length ? `pass ${L.index + 1} of ${L.times.length}: t=${t} s` : 'no passes';
  el('#learn-back').disabled = L.index <= 0;
  el('#learn-first').disabled = L.index <= 0;
  el('#learn-next').disabled = L.index >= L.times.length - 1;
  el('#learn-last').disabled = L.index >= L.times.length - 1;
  learnSame(t);
  const panels = document.querySelectorAll('.learn-panel');
  panels.forEach((panel, k) => {
    const lesson = L.data.lessons[k];
    panel.hidden = !lesson;
    if (!lesson) return;
    const canvas = panel.querySelector('canvas');
    let step = -1;
    lesson.steps.forEach((s, i) => {
      if (s.time <= t) step = i;
    });
    panel.querySelector('h3').textContent = lesson.policy;
    const queue = panel.querySelector('.learn-queue');
    const said = panel.querySelector('.learn-said');
    said.textContent = '';
    if (step < 0) {
      emptyFigure(canvas, `${lesson.policy} has not run a pass yet at t=${t}.`);
      queue.textContent = '';
      return;
    }
    const s = lesson.steps[step];
    canvas.dataset.step = String(step);
    canvas.dataset.time = String(s.time);
    const lo = Math.min(...L.data.lessons.map((l) => l.span[0]));
    const hi = Math.max(...L.data.lessons.map((l) => l.span[1]));
    showFigure(canvas, `learn-${lesson.policy}-${step}`, (o) => L.learn.figure(k, step, { ...o, x_range: [lo, hi] }));
    const names = s.waiting.map((j) => lesson.jobs[j].id);
    const free = s.free === 1 ? '1 processor is free' : `${s.free} processors are free`;
    queue.textContent = names.length
      ? `Waiting, in ${lesson.policy}'s order: ${names.map((n) => `job ${n}`).join(', ')}; ${free}.`
      : `No job waits; ${free}.`;
    if (s.time !== t) {
      said.append(make('li', { className: 'note', textContent: `No pass at t=${t}: nothing changed for ${lesson.policy} since its pass at t=${s.time}.` }));
      return;
    }
    said.append(...s.sentences.map((line) => make('li', { textContent: line })));
  });
}
