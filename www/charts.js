// Canvas charts: bars across policies, lines over time, distribution curves.
// Colours are the Okabe-Ito palette, which stays distinguishable with colour-blindness.

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

export function fmt(v) {
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  if (a >= 1e6) return (v / 1e6).toFixed(a >= 1e7 ? 0 : 1) + 'M';
  if (a >= 1e4) return (v / 1e3).toFixed(0) + 'k';
  if (a >= 100 || Number.isInteger(v)) return v.toFixed(0);
  return v.toPrecision(3);
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
  const y = (v) => h - PAD.bottom - (v / top) * (h - PAD.top - PAD.bottom);
  axes(ctx, w, h, yt, y, title);
  const slot = (w - PAD.left - PAD.right) / Math.max(items.length, 1);
  const regions = [];
  items.forEach((it, i) => {
    const x = PAD.left + i * slot + slot * 0.15;
    const bw = slot * 0.7;
    ctx.fillStyle = it.colour ?? PALETTE[i % PALETTE.length];
    ctx.fillRect(x, y(it.value), bw, y(0) - y(it.value));
    ctx.fillStyle = '#333';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    ctx.fillText(it.label, x + bw / 2, h - PAD.bottom + 6);
    regions.push({ x, y: PAD.top, w: bw, h: y(0) - PAD.top, text: `${it.label}: ${fmt(it.value)}` });
  });
  return hitTest(regions);
}

/** A hover function over rectangular regions {x, y, w, h, text}. */
function hitTest(regions) {
  return (px, py) => regions.find((r) => px >= r.x && px < r.x + r.w && py >= r.y && py < r.y + r.h)?.text ?? null;
}

/** Line chart: series [{label, points: [[x, y], ...]}]; xFormat labels the x axis. Returns a hover function. */
export function lineChart(canvas, series, title, { xFormat = fmt, yMin = 0, xLog = false } = {}) {
  const { ctx, w, h } = setup(canvas);
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = series.flatMap((s) => s.points.map((p) => p[1]));
  if (!xs.length) return () => null;
  const tx = xLog ? (v) => Math.log10(1 + Math.max(0, v)) : (v) => v;
  const x0 = Math.min(...xs.map(tx));
  const x1 = Math.max(...xs.map(tx));
  const yMax = Math.max(...ys, yMin + 1);
  const yt = ticks(yMin, yMax);
  const top = Math.max(yMax, yt[yt.length - 1]);
  const x = (v) => PAD.left + ((tx(v) - x0) / (x1 - x0 || 1)) * (w - PAD.left - PAD.right);
  const y = (v) => h - PAD.bottom - ((v - yMin) / (top - yMin || 1)) * (h - PAD.top - PAD.bottom);
  axes(ctx, w, h, yt, y, title);
  ctx.fillStyle = '#333';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  const xt = xLog ? [0, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7].filter((v) => tx(v) <= x1) : ticks(x0, x1);
  for (const t of xt) ctx.fillText(xFormat(t), x(t), h - PAD.bottom + 6);
  series.forEach((s, i) => {
    ctx.strokeStyle = s.colour ?? PALETTE[i % PALETTE.length];
    ctx.lineWidth = 1.5;
    ctx.setLineDash(i >= PALETTE.length ? [4, 3] : []);
    ctx.beginPath();
    s.points.forEach((p, k) => (k ? ctx.lineTo(x(p[0]), y(p[1])) : ctx.moveTo(x(p[0]), y(p[1]))));
    ctx.stroke();
  });
  ctx.setLineDash([]);
  // Legend, top right.
  ctx.textAlign = 'right';
  ctx.textBaseline = 'top';
  series.forEach((s, i) => {
    const ly = PAD.top + i * 15;
    ctx.fillStyle = s.colour ?? PALETTE[i % PALETTE.length];
    ctx.fillRect(w - PAD.right - 10, ly + 3, 10, 8);
    ctx.fillStyle = '#333';
    ctx.fillText(s.label, w - PAD.right - 14, ly);
  });
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
