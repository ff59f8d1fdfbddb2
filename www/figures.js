// Charts drawn by the engine (the crate's render module, on plotters) on the page's canvases.
// The page keeps each chart's Figure for the pointer, its numbers as a table, and its exports.

let engine = null;
let loadWhole = null; // how the engine with every export is loaded
let whole = null; // its loading, once asked for
let wholeLoaded = false;

/** Loads the engine on the page itself (charts are painted here, simulations run in workers); `wholeLoad` gives the one with every export. */
export async function startFigures(load, wholeLoad) {
  loadWhole = wholeLoad;
  return (engine = await load());
}

/** The page's engine instance (null until it has loaded). */
export const pageEngine = () => engine;

/** Loads the engine with every export (the studies', Learn's, the load sweep's) the first time a view asks; from then on it is the page's engine. */
export const wholeReady = () =>
  (whole ??= loadWhole().then(
    (e) => ((wholeLoaded = true), (engine = e)),
    (e) => {
      whole = null; // asked again, it is fetched again
      throw e;
    },
  ));

/** Calls `then(engine)` with the whole engine: now if it is loaded, else once it is; `failed(error)` if it cannot be loaded. */
export function withWhole(then, failed = () => {}) {
  if (wholeLoaded) then(engine);
  else wholeReady().then(then, failed);
}

/** A chart only the whole engine draws: `make(engine, options)` gives its Figure. */
export function showWholeFigure(canvas, name, make, extra = {}) {
  // A hidden chart is drawn when its view is shown: the engine is not loaded for it before.
  if (!canvas.isConnected || canvas.parentElement.closest('[hidden]')) return;
  withWhole(
    (e) => showFigure(canvas, name, (o) => make(e, o), extra),
    (e) => emptyFigure(canvas, `This chart's part of the engine failed to load: ${e.message ?? e}`),
  );
}

/** An element with properties and children. */
export function make(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

/** A message in place of a chart that cannot be drawn yet. */
export function emptyFigure(canvas, text) {
  const box = canvas.parentElement;
  canvas.figure?.free();
  delete canvas.dataset.hash;
  canvas.getContext('2d').clearRect(0, 0, canvas.width, canvas.height);
  // The message takes the chart's place, not a blank box beside it.
  Object.assign(canvas, { figure: null, hover: null, hidden: true });
  let p = box.querySelector('p.empty');
  if (!p) box.prepend((p = make('p', { className: 'empty note' })));
  p.textContent = text;
  for (const el of box.querySelectorAll('.tools, .numbers-box')) el.remove();
}

/** Draws the Figure `make(options)` returns on `canvas` at its CSS size and the screen's density, with the pointer, the table and the exports (files named `name`); returns it, or null. */
export function showFigure(canvas, name, make, extra = {}) {
  if (!engine || !canvas.isConnected || canvas.parentElement.closest('[hidden]')) return null;
  canvas.hidden = false;
  // A canvas grown for an earlier figure asks again at the page's own height.
  if (canvas.dataset.grown) canvas.style.height = '';
  const width = Math.max(160, Math.round(canvas.clientWidth || 640));
  let height = Math.max(120, Math.round(canvas.clientHeight || 300));
  let fig;
  const options = { width, height, compact: width < 480, ...extra };
  try {
    fig = make(options);
  } catch (e) {
    return emptyFigure(canvas, String(e.message ?? e)), null;
  }
  // Many runs need more room than the page gave (e.g. bars that stay thick): the canvas grows.
  canvas.dataset.grown = fig.height?.() > height ? 'yes' : '';
  if (canvas.dataset.grown) {
    height = fig.height();
    canvas.style.setProperty('height', `${height}px`, 'important');
  }
  const ratio = window.devicePixelRatio || 1;
  Object.assign(canvas, { width: Math.round(width * ratio), height: Math.round(height * ratio) });
  fig.paint(canvas);
  canvas.figure?.free();
  canvas.figure = fig;
  canvas.dataset.hash = fig.hash();
  // The SVG writer is in the whole engine: a chart the start engine drew is made again there
  // (not drawn: the canvas, and what the page painted over it, stay as they are).
  const madeWhole = wholeLoaded;
  canvas.svg = () => {
    if (madeWhole) return fig.svg();
    const again = make(options);
    try {
      return again.svg();
    } finally {
      again.free();
    }
  };
  // The series under the pointer is drawn again on top, thicker and named; leaving the chart
  // draws it plain. Redrawing waits for the next frame, so a fast pointer costs one drawing.
  const highlight = extra.highlight ?? null;
  const redraw = (series) => {
    if (series === highlight) return;
    cancelAnimationFrame(canvas.highlighting);
    canvas.highlighting = requestAnimationFrame(() => {
      if (canvas.figure === fig) showFigure(canvas, name, make, { ...extra, highlight: series ?? undefined });
    });
  };
  canvas.hover = (x, y) => {
    const hit = fig.hit(x, y);
    redraw(hit ? hit.series : null);
    return hit?.text ?? null;
  };
  canvas.onmouseleave = () => redraw(null);
  const box = canvas.parentElement;
  box.querySelector('p.empty')?.remove();
  tools(box, canvas, name);
  const open = box.querySelector('.numbers-box');
  if (open) open.innerHTML = fig.table_html();
  return fig;
}

/** The buttons over a chart: its numbers as a table, SVG and PNG. */
function tools(box, canvas, name) {
  if (box.querySelector('.tools')) return;
  const tool = (t, title) => `<button type="button" class="small" data-tool="${t}" title="${title}">${t}</button>`;
  box.insertAdjacentHTML('afterbegin', `<div class="tools">${tool('Table', 'the numbers drawn, as a table')}${tool('SVG', 'save this chart as SVG')}${tool('PNG', 'save this chart as PNG')}</div>`);
  box.firstChild.firstChild.ariaExpanded = 'false';
  box.firstChild.onclick = ({ target: b }) => {
    const open = box.querySelector('.numbers-box');
    if (b.dataset.tool === 'Table') {
      if (open) open.remove();
      else box.appendChild(make('div', { className: 'numbers-box', innerHTML: canvas.figure.table_html() }));
      b.ariaExpanded = String(!open);
    } else if (b.dataset.tool === 'PNG') canvas.toBlob((blob) => saveBlob(`${name}.png`, blob));
    else if (b.dataset.tool === 'SVG') {
      const failed = (e) => Object.assign(b, { disabled: true, title: `the SVG writer failed to load: ${e.message ?? e}` });
      withWhole(() => saveBlob(`${name}.svg`, new Blob([canvas.svg()], { type: 'image/svg+xml' })), failed);
    }
  };
}

/** A value of a metric (or a unit: seconds, fraction, count, number) as every chart writes it. */
export function show(what, v) {
  if (v === null || v === undefined) return '–';
  // Before the engine has loaded only counts are shown, grouped as the engine groups them.
  return engine?.format_value(what, v) ?? (Math.abs(v) >= 1e4 ? v.toLocaleString('en-US') : String(v));
}

/** Offers `blob` as a download named `name`. */
export function saveBlob(name, blob) {
  const a = make('a', { href: URL.createObjectURL(blob), download: name });
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/** Puts HTML the engine wrote (render::html) into `box`, painting its swatches (the page allows no style attributes in HTML). */
export function putHtml(box, html) {
  box.innerHTML = html;
  return paint(box);
}

/** Paints the swatches in `box` from their `data-colour`. */
function paint(box) {
  for (const s of box.querySelectorAll('[data-colour]')) s.style.background = s.dataset.colour;
  return box;
}

/** Puts a table the engine wrote into the page's element `table`, which keeps its own attributes and takes the written one's class and data. */
export function putTable(table, html) {
  const t = make('template', { innerHTML: html }).content.firstElementChild;
  for (const a of t.attributes) if (a.name !== 'id') table.setAttribute(a.name, a.value);
  table.replaceChildren(...t.childNodes);
  return paint(table);
}
