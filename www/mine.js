// "Your policy": a priority expression typed on the page, run as the engine's `custom` policy
// beside the others under the name `mine`. The engine checks the expression as it is typed.
import { pageEngine, make } from './figures.js';

/** The name the user's policy runs and shows under. */
export const MINE = 'mine';

/** The expression and reservation depth as typed (empty fields give the defaults). */
function mineValues() {
  return { priority: document.getElementById('mine-priority')?.value.trim() || '-submit', k: document.getElementById('mine-k')?.value.trim() || '1' };
}

/** The engine's policy for `mine`: its priority (as typed in Policies, or `priority`) and k. */
export function mineSpec(priority = null) {
  const typed = mineValues();
  return `custom:priority=${priority?.trim() || typed.priority};k=${typed.k};name=${MINE}`;
}

/** What the engine runs for `mine`. */
export function mineTask(settings) {
  return { policy: mineSpec(), settings };
}

/** The priority typed in Policies (its field may not be built yet: then the URL's). */
export function minePriority(params) {
  return document.getElementById('mine-priority')?.value.trim() || params.get('mine') || '-submit';
}

/** The URL parameters of the user's policy (`mine`, `mine_k`), null where they are the defaults. */
export function mineUrlValues() {
  const { priority, k } = mineValues();
  return { mine: priority === '-submit' ? null : priority, mine_k: k === '1' ? null : k };
}

/** Checks the expression and says what is wrong under it, with a caret at the column. */
function checkMine() {
  const input = document.getElementById('mine-priority');
  const out = document.getElementById('mine-error');
  if (!input || !out) return true;
  const said = pageEngine()?.check_priority(input.value.trim() || '-submit');
  const ok = !said || said.ok;
  input.setAttribute('aria-invalid', String(!ok));
  out.textContent = ok ? '' : said.message;
  out.hidden = ok;
  return ok;
}

/**
 * The "Your own policy" group of the policy list (index.html's #mine-template): a tick box
 * `mine`, the expression with its variables listed, the reservation depth and examples. `row`
 * builds the tick box's row as the other policies'; `changed` runs when a value changes (to keep
 * the URL).
 */
export function buildMine(catalogue, params, chosen, row, changed) {
  const fs = document.getElementById('mine-template').content.firstElementChild.cloneNode(true);
  const r = row({ name: MINE, summary: 'backfilling in the order of your priority, highest first', options: [], defaults: {} }, chosen);
  fs.querySelector('legend').after(r);
  const [input, k, examples] = ['#mine-priority', '#mine-k', '#mine-examples'].map((sel) => fs.querySelector(sel));
  input.value = params.get('mine') ?? '';
  k.value = params.get('mine_k') ?? '';
  examples.onchange = () => {
    if (!examples.value) return;
    input.value = examples.value;
    examples.value = '';
    r.querySelector('input').checked = true;
    input.dispatchEvent(new Event('input'));
  };
  const [vars, functions] = fs.querySelectorAll('#mine-help span');
  vars.append(...(catalogue.priority?.variables ?? []).flatMap((v, i) => [...(i ? [', '] : []), make('code', { textContent: v.name, title: v.doc })]));
  functions.textContent = (catalogue.priority?.functions ?? []).join(', ');
  input.oninput = k.oninput = () => {
    checkMine();
    changed();
  };
  // The page's engine may still be loading: check once it is there.
  const first = () => (pageEngine() ? checkMine() : setTimeout(first, 100));
  setTimeout(first, 0);
  return fs;
}
