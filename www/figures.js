// Charts drawn by the engine (the crate's render module, on plotters) on the page's canvases.
// The page keeps each chart's Figure for the pointer, its numbers as a table, and its exports.

let engine = null;
let loadWhole = null; // how the engine with every export is loaded
let whole = null; // its loading, once asked for
let wholeLoaded = false;

/**
 * Loads the engine on the page itself: charts are painted here, simulations run in workers.
 * `load` gives the engine the page opens with, `wholeLoad` the one with every export.
 */
export async function startFigures(load, wholeLoad) {
  loadWhole = wholeLoad;
  engine = await load();
  return engine;
}

/** The page's engine instance (null until it has loaded). */
export const pageEngine = () => engine;

/**
 * Loads the engine with every export (the studies', Learn's, the load sweep's) the first time a
 * view asks; from then on it is the page's engine. Resolves to it.
 */
export const wholeReady = () =>
  (whole ??= loadWhole().then(
    (e) => {
      engine = e;
      wholeLoaded = true;
      return e;
    },
    (e) => {
      whole = null; // asked again, it is fetched again
      throw e;
    },
  ));

/**
 * Calls `then(engine)` with the whole engine: now if it is loaded, else once it is; `failed(error)`
 * if it cannot be loaded.
 */
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
  canvas.figure = null;
  canvas.hover = null;
  delete canvas.dataset.hash;
  canvas.getContext('2d').clearRect(0, 0, canvas.width, canvas.height);
  // The message takes the chart's place, not a blank box beside it.
  canvas.hidden = true;
  let p = box.querySelector('p.empty');
  if (!p) box.prepend((p = make('p', { className: 'empty note' })));
  p.textContent = text;
  box.querySelector('.tools')?.remove();
  box.querySelector('.numbers-box')?.remove();
}

/**
 * Draws the Figure that `make(options)` returns on `canvas`, at the canvas's CSS size (and the
 * screen's pixel density), and wires the pointer, the table and the exports to it. `name` names
 * the exported files. Returns the Figure, or null when there is nothing to draw.
 */
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
    emptyFigure(canvas, String(e.message ?? e));
    return null;
  }
  // Many runs need more room than the page gave (e.g. bars that stay thick): the canvas grows.
  canvas.dataset.grown = fig.height?.() > height ? 'yes' : '';
  if (canvas.dataset.grown) {
    height = fig.height();
    canvas.style.setProperty('height', `${height}px`, 'important');
  }
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
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
  if (open) fillTable(open, fig.table());
  return fig;
}

/** The buttons over a chart: its numbers as a table, SVG and PNG. */
function tools(box, canvas, name) {
  if (box.querySelector('.tools')) return;
  const bar = make('div', { className: 'tools' });
  const button = (text, title, onclick) => bar.appendChild(make('button', { type: 'button', className: 'small', textContent: text, title, onclick }));
  const table = button('Table', 'the numbers drawn, as a table', () => {
    const open = box.querySelector('.numbers-box');
    if (open) {
      open.remove();
      table.setAttribute('aria-expanded', 'false');
      return;
    }
    fillTable(box.appendChild(make('div', { className: 'numbers-box' })), canvas.figure.table());
    table.setAttribute('aria-expanded', 'true');
  });
  table.setAttribute('aria-expanded', 'false');
  const svg = button('SVG', 'save this chart as SVG', () =>
    withWhole(
      () => saveBlob(`${name}.svg`, new Blob([canvas.svg()], { type: 'image/svg+xml' })),
      (e) => {
        svg.disabled = true;
        svg.title = `the SVG writer failed to load: ${e.message ?? e}`;
      },
    ),
  );
  button('PNG', 'save this chart as PNG', () => canvas.toBlob((blob) => saveBlob(`${name}.png`, blob)));
  box.prepend(bar);
}

/** Writes a Figure's table ({title, columns, rows}) into `box`. */
function fillTable(box, t) {
  box.textContent = '';
  const table = make('table', { className: 'numbers' }, make('caption', { textContent: t.title }));
  table.createTHead().insertRow().append(...t.columns.map((c) => make('th', { textContent: c })));
  const body = table.createTBody();
  for (const row of t.rows) {
    const tr = body.insertRow();
    for (const v of row) tr.insertCell().textContent = v;
  }
  box.append(table);
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

/** A paper's claims checked on the trace, into `list`: each claim with its verdict in the command line's words. */
export function findingList(list, findings) {
  list.textContent = '';
  for (const f of findings) {
    const [className, textContent] = f.holds === true ? ['done', 'holds'] : f.holds === false ? ['error', 'CONTRADICTED'] : ['na', 'n/a'];
    const claim = make('span', { className: 'claim', textContent: ` ${f.claim}` });
    const li = list.appendChild(make('li', {}, make('b', { className, textContent }), claim, make('div', { className: 'note detail', textContent: f.detail })));
    li.dataset.holds = String(f.holds);
  }
}

/**
 * A table the engine made (render::table): head rows of spanning cells over body rows, with what
 * cells and rows stand for as data; `act(cell.button)` runs when a cell's button is pressed. It
 * fills `table` (a page's own element keeps its attributes), else a new one.
 */
export function makeTable(t, act = () => {}, table = make('table', { id: t.id })) {
  table.replaceChildren();
  if (t.class) table.className = t.class;
  for (const [k, v] of t.data) table.dataset[k] = v;
  const put = (tr, c, tag) => {
    const td = tr.appendChild(make(tag, { rowSpan: c.rows, colSpan: c.cols }));
    if (c.title) td.title = c.title;
    if (c.class) td.className = c.class;
    if (c.key) td.dataset.key = c.key;
    if (c.value !== undefined) td.dataset.value = c.value;
    if (c.colour != null) td.append(make('span', { className: 'swatch', title: 'its colour in the charts', style: `background: ${engine.run_colour(c.colour)}` }), ' ');
    td.append(c.button ? make('button', { type: 'button', className: 'small', textContent: c.text, onclick: () => act(c.button) }) : c.text);
    if (c.aside) td.append(make('span', { className: 'chg', textContent: ` ${c.aside}` }));
    for (const g of c.tags ?? []) td.append(' ', make('span', { className: g.class, textContent: g.text, title: g.title }));
  };
  const head = table.createTHead();
  for (const cells of t.head) {
    const tr = head.insertRow();
    for (const c of cells) put(tr, c, 'th');
  }
  const body = table.createTBody();
  for (const r of t.rows) {
    const tr = body.insertRow();
    if (r.class) tr.className = r.class;
    for (const [k, v] of r.data) tr.dataset[k] = v;
    for (const c of r.cells) put(tr, c, 'td');
  }
  return table;
}
