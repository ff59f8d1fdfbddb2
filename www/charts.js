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

/** Bar chart: one bar per item {label, value}. Returns hit regions for hover. */
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
    ctx.fillStyle = PALETTE[i % PALETTE.length];
    ctx.fillRect(x, y(it.value), bw, y(0) - y(it.value));
    ctx.fillStyle = '#333';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    ctx.fillText(it.label, x + bw / 2, h - PAD.bottom + 6);
    regions.push({ x, y: y(it.value), w: bw, h: y(0) - y(it.value), text: `${it.label}: ${fmt(it.value)}` });
  });
  return regions;
}

/** Line chart: series [{label, points: [[x, y], ...]}]; xFormat labels the x axis. */
export function lineChart(canvas, series, title, { xFormat = fmt, yMin = 0, xLog = false } = {}) {
  const { ctx, w, h } = setup(canvas);
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = series.flatMap((s) => s.points.map((p) => p[1]));
  if (!xs.length) return [];
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
    ctx.strokeStyle = PALETTE[i % PALETTE.length];
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
    ctx.fillStyle = PALETTE[i % PALETTE.length];
    ctx.fillRect(w - PAD.right - 10, ly + 3, 10, 8);
    ctx.fillStyle = '#333';
    ctx.fillText(s.label, w - PAD.right - 14, ly);
  });
  return { x, y, x0, x1 };
}
