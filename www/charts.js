// Canvas charts: bars across policies, lines over time, distribution curves, histograms,
// means with error bars.
// Colours are the Okabe-Ito palette, which stays distinguishable with colour-blindness.
import { fmt } from './figures.js';

export const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#000000'];

const FONT = '12px system-ui, sans-serif';
const PAD = { left: 64, right: 16, top: 24, bottom: 40 };

/** Prepares a canvas for crisp drawing at the device's pixel ratio; returns its context and CSS size. */
function setup(canvas) {
  const ratio = window.devicePixelRatio || 1;
  const w = canvas.clientWidth || 600;
  const h = canvas.clientHeight || 260;
  canvas.width = Math.round(w * ratio);
  canvas.height = Math.round(h * ratio);
  const ctx = canvas.getContext('2d');
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, w, h);
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, w, h);
  ctx.font = FONT;
  return { ctx, w, h };
}

/** Round tick values covering [lo, hi]. */
function ticks(lo, hi, n = 5) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / n;
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw);
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(v);
  return out;
}

function axes(ctx, w, h, yTicks, y, title) {
  ctx.strokeStyle = '#ccc';
  ctx.fillStyle = '#333';
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const t of yTicks) {
    const py = y(t);
    ctx.beginPath();
    ctx.moveTo(PAD.left, py);
    ctx.lineTo(w - PAD.right, py);
    ctx.stroke();
    ctx.fillText(fmt(t), PAD.left - 6, py);
  }
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
  ctx.fillText(title, PAD.left, 4);
}

/** Bar chart: one bar per item {label, value}. Returns a hover function (x, y) -> text. */
export function barChart(canvas, items, title) {
  const { ctx, w, h } = setup(canvas);
  const max = Math.max(...items.map((i) => i.value), 0) || 1;
  const yt = ticks(0, max);
  const top = Math.max(max, yt[yt.length - 1]);
  // Many policies leave no room for level labels: they are then written slanted.
  const slot = (w - PAD.left - PAD.right) / Math.max(items.length, 1);
  const slant = items.some((it) => ctx.measureText(it.label).width > slot - 4);
  const bottom = slant ? Math.min(h / 3, 14 + Math.max(...items.map((it) => ctx.measureText(it.label).width)) * 0.72) : PAD.bottom;
  const y = (v) => h - bottom - (v / top) * (h - PAD.top - bottom);
  axes(ctx, w, h, yt, y, title);
  const regions = [];
  items.forEach((it, i) => {
    const x = PAD.left + i * slot + slot * 0.15;
    const bw = slot * 0.7;
    ctx.fillStyle = it.colour ?? PALETTE[i % PALETTE.length];
    ctx.fillRect(x, y(it.value), bw, y(0) - y(it.value));
    ctx.fillStyle = '#333';
    if (slant) {
      ctx.save();
      ctx.translate(x + bw / 2, h - bottom + 6);
      ctx.rotate(-Math.PI / 4);
      ctx.textAlign = 'right';
      ctx.textBaseline = 'middle';
      ctx.fillText(it.label, 0, 0);
      ctx.restore();
    } else {
      ctx.textAlign = 'center';
      ctx.textBaseline = 'top';
      ctx.fillText(it.label, x + bw / 2, h - bottom + 6);
    }
    regions.push({ x, y: PAD.top, w: bw, h: y(0) - PAD.top, text: `${it.label}: ${fmt(it.value)}` });
  });
  return hitTest(regions);
}

/**
 * Histogram of equal-width bins over [lo, hi], several series side by side in each bin
 * (series [{label, colour, values}], one value per bin). Returns a hover function.
 */
export function histogram(canvas, series, title, { lo = 0, hi = 100, xFormat = fmt, unit = '' } = {}) {
  const { ctx, w, h } = setup(canvas);
  const bins = Math.max(...series.map((s) => s.values.length), 1);
  const max = Math.max(...series.flatMap((s) => s.values), 0) || 1;
  const yt = ticks(0, max);
  const top = Math.max(max, yt[yt.length - 1]);
  const layout = legendLayout(ctx, w, series);
  const plotTop = PAD.top + layout.height;
  const y = (v) => h - PAD.bottom - (v / top) * (h - plotTop - PAD.bottom);
  const x = (v) => PAD.left + ((v - lo) / (hi - lo)) * (w - PAD.left - PAD.right);
  axes(ctx, w, h, yt, y, title);
  legend(ctx, series.map((s) => ({ ...s, bar: true })), layout);
  const width = (hi - lo) / bins;
  const regions = [];
  for (let b = 0; b < bins; b++) {
    const x0 = x(lo + b * width);
    const slot = x(lo + (b + 1) * width) - x0;
    const bw = (slot * 0.84) / series.length;
    series.forEach((s, i) => {
      const v = s.values[b] ?? 0;
      ctx.fillStyle = s.colour ?? PALETTE[i % PALETTE.length];
      ctx.fillRect(x0 + slot * 0.08 + i * bw, y(v), bw, y(0) - y(v));
    });
    const range = `${xFormat(lo + b * width)}–${xFormat(lo + (b + 1) * width)}${unit}`;
    const lines = series.map((s) => `${s.label}: ${fmt(s.values[b] ?? 0)}`);
    regions.push({ x: x0, y: plotTop, w: slot, h: y(0) - plotTop, text: [range, ...lines].join('\n') });
  }
  ctx.fillStyle = '#333';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (const t of ticks(lo, hi, 10)) {
    ctx.textAlign = t === hi ? 'right' : 'center'; // the last label stays inside the canvas
    ctx.fillText(`${xFormat(t)}${unit}`, x(t) + (t === hi ? 8 : 0), h - PAD.bottom + 6);
  }
  return hitTest(regions);
}

/**
 * Means with ± standard-deviation whiskers over categories (points [{label, mean, std, count}]),
 * joined by a line: Tsafrir et al. Fig. 10. Returns a hover function.
 */
export function errorBars(canvas, points, title, { xTitle = '', unit = '', colour = PALETTE[0] } = {}) {
  const { ctx, w, h } = setup(canvas);
  if (!points.length) return () => null;
  const lo = Math.min(0, ...points.map((p) => p.mean - p.std));
  const hi = Math.max(...points.map((p) => p.mean + p.std), lo + 1);
  const yt = ticks(lo, hi);
  const top = Math.max(hi, yt[yt.length - 1]);
  const bottomV = Math.min(lo, yt[0]);
  const y = (v) => h - PAD.bottom - ((v - bottomV) / (top - bottomV || 1)) * (h - PAD.top - PAD.bottom);
  axes(ctx, w, h, yt, y, title);
  const slot = (w - PAD.left - PAD.right) / points.length;
  const x = (i) => PAD.left + (i + 0.5) * slot;
  ctx.strokeStyle = colour;
  ctx.fillStyle = colour;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  points.forEach((p, i) => (i ? ctx.lineTo(x(i), y(p.mean)) : ctx.moveTo(x(i), y(p.mean))));
  ctx.stroke();
  const regions = [];
  points.forEach((p, i) => {
    const cap = Math.min(8, slot / 4);
    ctx.beginPath();
    ctx.moveTo(x(i), y(p.mean - p.std));
    ctx.lineTo(x(i), y(p.mean + p.std));
    for (const v of [p.mean - p.std, p.mean + p.std]) {
      ctx.moveTo(x(i) - cap, y(v));
      ctx.lineTo(x(i) + cap, y(v));
    }
    ctx.stroke();
    ctx.beginPath();
    ctx.arc(x(i), y(p.mean), 3.5, 0, 2 * Math.PI);
    ctx.fill();
    regions.push({
      x: x(i) - slot / 2,
      y: PAD.top,
      w: slot,
      h: h - PAD.top - PAD.bottom,
      text: `${xTitle} ${p.label}: ${fmt(p.mean)}${unit} ± ${fmt(p.std)}${unit} (${p.count} configurations)`,
    });
  });
  ctx.fillStyle = '#333';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  points.forEach((p, i) => ctx.fillText(p.label, x(i), h - PAD.bottom + 6));
  if (xTitle) ctx.fillText(xTitle, (PAD.left + w - PAD.right) / 2, h - PAD.bottom + 22);
  return hitTest(regions);
}

/** Where a legend's entries go: a band of columns under the title, above the plot. */
function legendLayout(ctx, w, series) {
  if (series.length < 2) return { height: 0, cols: 1, colW: 0 };
  const colW = 26 + Math.max(...series.map((s) => ctx.measureText(s.label).width));
  const cols = Math.max(1, Math.min(series.length, Math.floor((w - PAD.left - PAD.right) / colW)));
  return { height: Math.ceil(series.length / cols) * 14 + 6, cols, colW };
}

/** Draws the legend band laid out by legendLayout, from y = PAD.top. */
function legend(ctx, series, layout) {
  if (!layout.height) return;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
  series.forEach((s, i) => {
    const lx = PAD.left + (i % layout.cols) * layout.colW;
    const ly = PAD.top + Math.floor(i / layout.cols) * 14;
    ctx.strokeStyle = s.colour ?? PALETTE[i % PALETTE.length];
    ctx.fillStyle = ctx.strokeStyle;
    ctx.lineWidth = 2;
    ctx.setLineDash(s.dash ?? []);
    if (s.bar) ctx.fillRect(lx, ly + 3, 14, 8);
    else {
      ctx.beginPath();
      ctx.moveTo(lx, ly + 7);
      ctx.lineTo(lx + 16, ly + 7);
      ctx.stroke();
    }
    ctx.setLineDash([]);
    ctx.fillStyle = '#333';
    ctx.fillText(s.label, lx + 20, ly);
  });
}

/** An empty chart that says what will appear there. Returns a hover function that shows nothing. */
export function placeholder(canvas, text) {
  const { ctx, w, h } = setup(canvas);
  ctx.fillStyle = '#777';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, w / 2, h / 2);
  return () => null;
}

/** A hover function over rectangular regions {x, y, w, h, text}. */
function hitTest(regions) {
  return (px, py) => regions.find((r) => px >= r.x && px < r.x + r.w && py >= r.y && py < r.y + r.h)?.text ?? null;
}

/**
 * Line chart: series [{label, points: [[x, y], ...]}]; xFormat labels the x axis, at `xTicks` if
 * given; the y axis reaches at least `yMax` (default yMin + 1); `zero` draws a dark line at
 * y = 0 (with yMin below 0). Returns a hover function.
 */
export function lineChart(canvas, series, title, { xFormat = fmt, yMin = 0, yMax: yTop, xLog = false, xTicks, zero = false } = {}) {
  const { ctx, w, h } = setup(canvas);
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = series.flatMap((s) => s.points.map((p) => p[1]));
  if (!xs.length) return () => null;
  const tx = xLog ? (v) => Math.log10(1 + Math.max(0, v)) : (v) => v;
  const x0 = Math.min(...xs.map(tx));
  const x1 = Math.max(...xs.map(tx));
  const yMax = Math.max(...ys, yTop ?? yMin + 1);
  const yt = ticks(yMin, yMax);
  const top = Math.max(yMax, yt[yt.length - 1]);
  const styled = series.map((s, i) => ({ ...s, dash: s.dash ?? (i >= PALETTE.length ? [4, 3] : []) }));
  const layout = legendLayout(ctx, w, styled);
  const x = (v) => PAD.left + ((tx(v) - x0) / (x1 - x0 || 1)) * (w - PAD.left - PAD.right);
  const y = (v) => h - PAD.bottom - ((v - yMin) / (top - yMin || 1)) * (h - PAD.top - layout.height - PAD.bottom);
  axes(ctx, w, h, yt, y, title);
  if (zero) zeroLine(ctx, w, y(0));
  legend(ctx, styled, layout);
  ctx.fillStyle = '#333';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  const xt = xTicks ?? (xLog ? [0, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7].filter((v) => tx(v) <= x1) : ticks(x0, x1));
  for (const t of xt) ctx.fillText(xFormat(t), x(t), h - PAD.bottom + 6);
  styled.forEach((s, i) => {
    ctx.strokeStyle = s.colour ?? PALETTE[i % PALETTE.length];
    ctx.lineWidth = 1.5;
    ctx.setLineDash(s.dash);
    ctx.beginPath();
    s.points.forEach((p, k) => (k ? ctx.lineTo(x(p[0]), y(p[1])) : ctx.moveTo(x(p[0]), y(p[1]))));
    ctx.stroke();
  });
  ctx.setLineDash([]);
  // Hover: the value of every series at the point nearest the pointer's x.
  return (px) => {
    if (px < PAD.left || px > w - PAD.right) return null;
    const lines = series.map((s) => {
      let best = null;
      for (const p of s.points) if (!best || Math.abs(x(p[0]) - px) < Math.abs(x(best[0]) - px)) best = p;
      return best ? `${s.label}: ${fmt(best[1])} at ${xFormat(best[0])}` : '';
    });
    return lines.filter(Boolean).join('\n');
  };
}

/** The line at y = 0 of a chart whose values may be negative. */
function zeroLine(ctx, w, py) {
  ctx.strokeStyle = '#333';
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.moveTo(PAD.left, py);
  ctx.lineTo(w - PAD.right, py);
  ctx.stroke();
}

/**
 * Grouped bars that may be negative (Lawson & Smirni Figs. 3, 5, 6): one group per label of
 * `groups`, one bar per series [{label, colour, values}] (a value per group; null: no bar,
 * e.g. an empty class), bars rising or falling from a zero line. Returns a hover function.
 */
export function groupedBarChart(canvas, groups, series, title, { unit = '' } = {}) {
  const { ctx, w, h } = setup(canvas);
  const values = series.flatMap((s) => s.values).filter((v) => v !== null && Number.isFinite(v));
  let lo = Math.min(0, ...values);
  let hi = Math.max(0, ...values);
  if (!(hi > lo)) hi = lo + 1;
  const yt = ticks(lo, hi);
  const step = yt.length > 1 ? yt[1] - yt[0] : 1;
  lo = Math.min(lo, Math.floor(lo / step + 1e-9) * step);
  hi = Math.max(hi, Math.ceil(hi / step - 1e-9) * step);
  const all = ticks(lo, hi);
  const layout = legendLayout(ctx, w, series);
  const plotTop = PAD.top + layout.height;
  const y = (v) => h - PAD.bottom - ((v - lo) / (hi - lo)) * (h - plotTop - PAD.bottom);
  axes(ctx, w, h, all, y, title);
  legend(ctx, series.map((s) => ({ ...s, bar: true })), layout);
  const slot = (w - PAD.left - PAD.right) / Math.max(groups.length, 1);
  const bw = (slot * 0.8) / Math.max(series.length, 1);
  const regions = [];
  groups.forEach((g, gi) => {
    const x0 = PAD.left + gi * slot + slot * 0.1;
    series.forEach((s, si) => {
      const v = s.values[gi];
      if (v === null || v === undefined || !Number.isFinite(v)) return;
      ctx.fillStyle = s.colour ?? PALETTE[si % PALETTE.length];
      const top = y(Math.max(v, 0));
      ctx.fillRect(x0 + si * bw, top, bw * 0.92, Math.max(1, y(Math.min(v, 0)) - top));
    });
    const lines = series.map((s) => `${s.label}: ${s.values[gi] === null || s.values[gi] === undefined ? '—' : `${fmt(s.values[gi])}${unit}`}`);
    regions.push({ x: PAD.left + gi * slot, y: plotTop, w: slot, h: h - plotTop - PAD.bottom, text: [g, ...lines].join('\n') });
    ctx.fillStyle = '#333';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    ctx.fillText(g, PAD.left + (gi + 0.5) * slot, h - PAD.bottom + 6);
  });
  zeroLine(ctx, w, y(0));
  return hitTest(regions);
}

/** Viridis-like sequential colours (colour-blind safe), dark to light. */
const SEQ = ['#440154', '#414487', '#2a788e', '#22a884', '#7ad151', '#fde725'];

function seqColour(t) {
  const x = Math.max(0, Math.min(1, t)) * (SEQ.length - 1);
  const i = Math.min(Math.floor(x), SEQ.length - 2);
  const mix = (a, b) => Math.round(a + (b - a) * (x - i));
  const [a, b] = [SEQ[i], SEQ[i + 1]].map((h) => [1, 3, 5].map((k) => parseInt(h.slice(k, k + 2), 16)));
  return `rgb(${mix(a[0], b[0])},${mix(a[1], b[1])},${mix(a[2], b[2])})`;
}

/**
 * Heatmap of a grid {rows, cols, count, value}: cells coloured on a log scale of `pick(grid, r, c)`,
 * labelled with that value. Returns a hover function.
 */
export function heatmap(canvas, grid, title, pick = (g, r, c) => g.value[r][c]) {
  const { ctx, w, h } = setup(canvas);
  const left = 104;
  const top = PAD.top + 16;
  const cw = (w - left - PAD.right) / grid.cols.length;
  const ch = (h - top - 8) / grid.rows.length;
  const vals = grid.rows.flatMap((_, r) => grid.cols.map((_, c) => pick(grid, r, c)));
  const max = Math.log10(1 + Math.max(...vals, 0));
  ctx.fillStyle = '#333';
  ctx.textBaseline = 'top';
  ctx.textAlign = 'left';
  ctx.fillText(title, left, 4);
  ctx.textAlign = 'center';
  grid.cols.forEach((c, i) => ctx.fillText(c, left + (i + 0.5) * cw, PAD.top));
  const regions = [];
  grid.rows.forEach((row, r) => {
    ctx.fillStyle = '#333';
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    ctx.fillText(row, left - 6, top + (r + 0.5) * ch);
    grid.cols.forEach((col, c) => {
      const v = pick(grid, r, c);
      const empty = grid.count[r][c] === 0;
      const t = max > 0 ? Math.log10(1 + v) / max : 0;
      ctx.fillStyle = empty ? '#f2f2f2' : seqColour(t);
      ctx.fillRect(left + c * cw + 1, top + r * ch + 1, cw - 2, ch - 2);
      if (!empty) {
        ctx.fillStyle = t > 0.6 ? '#000' : '#fff';
        ctx.textAlign = 'center';
        ctx.fillText(fmt(v), left + (c + 0.5) * cw, top + (r + 0.5) * ch);
      }
      regions.push({
        x: left + c * cw,
        y: top + r * ch,
        w: cw,
        h: ch,
        text: `${row}, ${col} processors: ${grid.count[r][c]} jobs, ${fmt(v)}`,
      });
    });
  });
  return hitTest(regions);
}
