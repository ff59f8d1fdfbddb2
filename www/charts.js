// What is left of the hand-drawn canvas charts: the Trace view's shape heatmaps and the
// placeholder beside them (app.js). Every other chart is drawn by the engine (figures.js).
import { fmt } from './figures.js';

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

/** An empty chart that says what will appear there. Returns a hover function that shows nothing. */
export function placeholder(canvas, text) {
  const { ctx, w, h } = setup(canvas);
  ctx.fillStyle = '#777';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, w / 2, h / 2);
  return () => null;
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
  return (px, py) => regions.find((r) => px >= r.x && px < r.x + r.w && py >= r.y && py < r.y + r.h)?.text ?? null;
}
