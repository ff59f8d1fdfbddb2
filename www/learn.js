// The Learn view: a small trace stepped through pass by pass under one or two policies, each
// step drawn by the engine (render::learn) with the queue beside it and the pass's decisions in
// sentences (the decision log). The trace is a table anyone can edit; the schedules follow.
// The lesson's state is the engine's (explain::learn::View), read from the URL and kept in it
// (example=NAME or jobs=...&machine=N, policies=A,B, step=N), so a link or an embed reproduces it.
import { pageEngine, showFigure, emptyFigure, make } from './figures.js';

const el = (sel) => document.querySelector(sel);

/** The engine's lesson, its pass shown, the Play timer and whether the view is shown. */
const L = { learn: null, pass: null, timer: null, shown: () => false, writeLink: () => {} };

/** Installs the view: the lesson the URL asks for, and its controls wired to it; `writeLink(flat pairs)` puts the lesson in the URL. */
export function installLearn({ catalogue, shown, writeLink }) {
  Object.assign(L, { shown, writeLink });
  L.learn = new (pageEngine().Learn)([...new URLSearchParams(location.search)].flat(), catalogue.policies.map((p) => p.name));
  // Each control changes the lesson (`f` false: it did not), which runs again; `table`: the job table is written again.
  const change = (f, table = true) => (e) => f(e) !== false && (learnStop(), learnShow(table));
  el('#learn-examples').onclick = change((e) => !!e.target.dataset.example && L.learn.example(e.target.dataset.example));
  el('#learn-a').onchange = el('#learn-b').onchange = change(() => L.learn.choose(el('#learn-a').value, el('#learn-b').value), false);
  el('#learn-priority').oninput = change((e) => L.learn.priority(e.target.value), false);
  el('#learn-add').onclick = change(() => L.learn.add());
  el('#learn-reset').onclick = change(() => L.learn.example(L.example ?? ''));
  el('#learn-machine').oninput = change((e) => L.learn.machine(Number(e.target.value)), false);
  el('#learn-jobs').oninput = change((e) => !!e.target.dataset.key && e.target.value !== '' && L.learn.edit(Number(e.target.dataset.row), e.target.dataset.key, Number(e.target.value)), false);
  el('#learn-jobs').onclick = change((e) => e.target.dataset.remove !== undefined && L.learn.remove(Number(e.target.dataset.remove)));
  el('#learn-first').onclick = () => learnGo(0);
  el('#learn-back').onclick = () => learnGo(L.learn.index() - 1);
  el('#learn-next').onclick = () => learnGo(L.learn.index() + 1);
  el('#learn-last').onclick = () => learnGo(Infinity);
  el('#learn-play').onclick = () => (L.timer ? learnStop() : learnPlay());
  el('#learn-step').oninput = (e) => learnGo(Number(e.target.value));
  document.addEventListener('keydown', (e) => {
    if (!L.shown() || e.target.closest?.('input, select, textarea, button')) return;
    const to = { ArrowRight: L.learn.index() + 1, ArrowLeft: L.learn.index() - 1, Home: 0, End: Infinity }[e.key];
    if (to !== undefined) learnGo(to);
    else if (e.key === ' ') L.timer ? learnStop() : learnPlay();
    else return;
    e.preventDefault();
  });
  learnShow(true, false);
}

/** Shows the lesson's controls as the engine says (the job table too when `table`), then its pass. */
function learnShow(table, write = true) {
  const s = L.learn.shown();
  L.example = s.example ?? L.example; // "Back to the example" goes back to the last one shown
  el('#learn-examples').innerHTML = s.examples;
  el('#learn-a').innerHTML = s.a;
  el('#learn-b').innerHTML = s.b;
  el('#learn-example-title').textContent = s.title;
  // The title keeps the whole lesson where an embed shows one line of it.
  el('#learn-example-text').textContent = el('#learn-example-text').title = s.text;
  el('#learn-mine').hidden = !s.mine;
  if (document.activeElement !== el('#learn-priority')) el('#learn-priority').value = s.priority;
  if (table) {
    el('#learn-machine').value = s.machine;
    el('#learn-jobs').innerHTML = s.table;
  }
  el('#learn-problems').replaceChildren(...s.problems.map((p) => make('li', { textContent: p })));
  learnGo(L.learn.index(), write);
}

/** Goes to pass `i` (within the passes there are), keeps it in the URL and draws it. */
function learnGo(i, write = true) {
  L.pass = L.learn.go(i);
  el('#learn-step').max = String(Math.max(0, (L.pass?.count ?? 1) - 1));
  if (write && L.shown()) L.writeLink(L.learn.link([...new URLSearchParams(location.search)].flat()));
  redrawLearn();
}

function learnPlay() {
  const last = () => !L.pass || L.pass.index >= L.pass.count - 1;
  const first = last();
  L.timer = setInterval(() => (last() ? learnStop() : learnGo(L.pass.index + 1)), 1400);
  el('#learn-play').textContent = '❚❚ Pause';
  learnGo(first ? 0 : L.pass.index + 1);
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
  Object.assign(el('#learn-same'), { hidden: !p.same, textContent: p.same ?? '' }).dataset.part = p.part ?? '';
  document.querySelectorAll('.learn-panel').forEach((panel, k) => {
    const shown = p.panels[k];
    panel.hidden = !shown;
    if (!shown) return;
    const [canvas, said] = [panel.querySelector('canvas'), panel.querySelector('.learn-said')];
    panel.querySelector('h3').textContent = shown.policy;
    panel.querySelector('.learn-queue').textContent = shown.queue;
    said.textContent = '';
    if (shown.step === null) return emptyFigure(canvas, shown.note);
    Object.assign(canvas.dataset, { step: String(shown.step), time: String(shown.step_time) });
    showFigure(canvas, `learn-${shown.policy}-${shown.step}`, (o) => L.learn.figure(k, shown.step, o));
    said.append(...shown.said.map((line) => make('li', { textContent: line })));
    if (shown.note) said.append(make('li', { className: 'note', textContent: shown.note }));
  });
}
