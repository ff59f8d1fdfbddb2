// Runtime predictions (Tsafrir, Etsion & Feitelson 2007) on the page: the predictor panel, whose
// values run as the "custom" configuration. (Its tables and the sweep of section 7 are the
// engine's study `sweep`, shown by study.js.)
import { make } from './figures.js';

/** The paper's suggested settings for EASY++ (Table 12). */
export const TABLE12 = { window: '2', window_type: 'all', metric: 'avg', correction: 'estimate' };

/** The name the predictor panel's configuration runs under. */
export const CUSTOM = 'custom';

/** A preset name from the URL: an unencoded '+' arrives as a space (easy++ typed by hand). */
export const presetName = (s) => s.trimStart().replaceAll(' ', '+').toLowerCase().replaceAll('_', '-');

/** The group of the prediction presets: the catalogue's group holding the predictor's base. */
export function predictionGroup(catalogue) {
  return catalogue.policies.find((p) => p.name === catalogue.predictor.base)?.group ?? '';
}

/** What a prediction preset runs with for the predictor's keys (the engine's catalogue says). */
const presetValues = (catalogue, name) => catalogue.predictor.presets.find((p) => p.name === name)?.values ?? {};

// ---------------------------------------------------------------- the predictor panel

const predictor = { catalogue: null, onchange: null };

/**
 * Builds the panel into `box`. `given` is the URL's `pred` values (`KEY=VALUE`, `base` among
 * them); `onchange` runs after every edit (the page keeps the URL current with it).
 */
export function buildPredictor(box, catalogue, given, onchange) {
  predictor.catalogue = catalogue;
  predictor.onchange = onchange;
  const { base: paperBase, keys, presets } = catalogue.predictor;
  const family = catalogue.policies.find((p) => p.name === paperBase);
  const docs = new Map(family.options.map((o) => [o.key, o]));
  const base = box.querySelector('[data-pred="base"]');
  for (const { name } of presets) base.add(new Option(name, name));
  const reset = box.querySelector('#pred-table12');
  for (const key of keys) {
    const o = docs.get(key);
    const c = control(key, o.values);
    c.onchange = changed;
    const label = make('label', { title: `${o.doc} (${o.values})` }, `${key} `, c);
    label.dataset.key = key;
    reset.before(label);
  }
  reset.onclick = () => {
    setPredictor({ base: paperBase, ...presetValues(catalogue, paperBase) });
    changed();
  };
  base.onchange = () => {
    // A new base brings its own values: the panel shows exactly what the preset runs.
    setPredictor({ base: base.value, ...presetValues(catalogue, base.value) });
    changed();
  };
  const fromUrl = Object.fromEntries(given.map((kv) => [kv.slice(0, kv.indexOf('=')).trim(), kv.slice(kv.indexOf('=') + 1).trim()]));
  if (fromUrl.base) fromUrl.base = presetName(given.find((kv) => kv.trim().startsWith('base=')).split('=')[1]);
  const start = presets.some((p) => p.name === fromUrl.base) ? fromUrl.base : paperBase;
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
  const base = document.querySelector('[data-pred="base"]')?.value || predictor.catalogue?.predictor.base;
  const preset = predictor.catalogue ? presetValues(predictor.catalogue, base) : {};
  const values = {};
  for (const c of document.querySelectorAll('[data-pred]:not([data-pred="base"])')) values[c.dataset.pred] = c.value.trim() || preset[c.dataset.pred];
  return { base, values };
}

/** The panel as `KEY=VALUE` settings, every key given so a run never depends on a default. */
export function predictorSettings() {
  const { values } = predictorConfig();
  return predictor.catalogue.predictor.keys.map((k) => `${k}=${values[k]}`);
}

/** The panel as URL `pred` values: the base first, then every key. */
export function predictorUrlValues() {
  return [`base=${predictorConfig().base}`, ...predictorSettings()];
}

/** Whether the panel shows anything but the Table 12 EASY++ configuration. */
export function predictorEdited() {
  const { base, values } = predictorConfig();
  const { base: first, keys } = predictor.catalogue.predictor;
  const preset = presetValues(predictor.catalogue, first);
  return base !== first || keys.some((k) => values[k] !== preset[k]);
}
