// Line charts drawn as SVG: axes with round ticks, one line per series, a
// legend whose entries hide and show their series, and a cursor that
// shows every series' value at the nearest x.

import { NS } from './pieces.js';

const W = 640, H = 250;
const M = { left: 58, right: 14, top: 12, bottom: 30 };

export const PALETTE = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#be185d', '#65a30d', '#475569'];

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// niceTicks returns about n round numbers covering [lo, hi].
export function niceTicks(lo, hi, n = 5) {
  if (!(hi > lo)) {
    const d = Math.abs(lo) > 0 ? Math.abs(lo) * 0.1 : 1;
    lo -= d;
    hi += d;
  }
  const raw = (hi - lo) / n;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((s) => s * mag).find((s) => s >= raw) || 10 * mag;
  const start = Math.floor(lo / step) * step;
  const ticks = [];
  for (let v = start; v <= hi + step * 1e-9; v += step) ticks.push(Number(v.toPrecision(12)));
  if (ticks[ticks.length - 1] < hi) ticks.push(Number((ticks[ticks.length - 1] + step).toPrecision(12)));
  return ticks;
}

export function formatNumber(v) {
  if (v === null || v === undefined || Number.isNaN(v)) return '–';
  if (v === 0) return '0'; // and -0, which would read "-0"
  const a = Math.abs(v);
  if (Number.isInteger(v) && a < 1e7) return v.toLocaleString();
  if (a !== 0 && (a >= 1e5 || a < 1e-3)) return v.toExponential(2);
  if (a >= 1000) return Math.round(v).toLocaleString();
  if (a >= 10) return v.toFixed(1);
  return v.toFixed(3).replace(/\.?0+$/, '') || '0';
}

// lineChart draws into container. spec: {title, xLabel, series: [{key,
// label, color, points: [[x, y]…]}], yRange: [lo, hi] (optional), area
// (fill under the first series), markerX, onPick(x), hidden (a Set of
// series keys to hide, kept by the caller across redraws)}.
export function lineChart(container, spec) {
  container.replaceChildren();
  container.classList.add('chart');
  const hidden = spec.hidden || new Set();
  if (spec.title) {
    const t = document.createElement('div');
    t.className = 'chart-title';
    t.textContent = spec.title;
    container.appendChild(t);
  }
  if (spec.series.length > 1 || spec.legend) {
    const legend = document.createElement('div');
    legend.className = 'legend';
    for (const s of spec.series) {
      const item = document.createElement('button');
      item.className = `legend-item${hidden.has(s.key) ? ' off' : ''}`;
      const sw = document.createElement('span');
      sw.className = 'swatch';
      sw.style.background = s.color;
      item.append(sw, document.createTextNode(s.label));
      item.title = 'Show or hide this line';
      item.addEventListener('click', () => {
        if (hidden.has(s.key)) hidden.delete(s.key); else hidden.add(s.key);
        lineChart(container, { ...spec, hidden });
      });
      legend.appendChild(item);
    }
    container.appendChild(legend);
  }
  const shown = spec.series.filter((s) => !hidden.has(s.key) && s.points.length);
  const all = spec.series.flatMap((s) => s.points);
  const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart-svg' });
  container.appendChild(svg);
  if (!all.length) {
    el('text', { x: W / 2, y: H / 2, class: 'chart-empty' }, svg).textContent = 'no data yet';
    return;
  }
  const xs = all.map((p) => p[0]);
  let xlo = Math.min(...xs), xhi = Math.max(...xs);
  if (xlo === xhi) { xlo -= 1; xhi += 1; }
  let ylo, yhi;
  if (spec.yRange) {
    [ylo, yhi] = spec.yRange;
  } else {
    const ys = (shown.length ? shown : spec.series).flatMap((s) => s.points.map((p) => p[1]));
    ylo = Math.min(...ys);
    yhi = Math.max(...ys);
  }
  const yt = spec.yRange ? niceTicks(ylo, yhi, 4).filter((v) => v >= ylo - 1e-9 && v <= yhi + 1e-9) : niceTicks(ylo, yhi, 4);
  if (!spec.yRange) { ylo = yt[0]; yhi = yt[yt.length - 1]; }
  const xt = niceTicks(xlo, xhi, 6).filter((v) => v >= xlo && v <= xhi && (Number.isInteger(v) || !spec.integerX));
  const px = (x) => M.left + ((x - xlo) / (xhi - xlo)) * (W - M.left - M.right);
  const py = (y) => H - M.bottom - ((y - ylo) / (yhi - ylo || 1)) * (H - M.top - M.bottom);
  const axes = el('g', { class: 'axes' }, svg);
  for (const v of yt) {
    el('line', { x1: M.left, x2: W - M.right, y1: py(v), y2: py(v), class: v === 0 ? 'grid zero' : 'grid' }, axes);
    el('text', { x: M.left - 6, y: py(v) + 4, class: 'tick y' }, axes).textContent = formatNumber(v);
  }
  for (const v of xt) {
    el('line', { x1: px(v), x2: px(v), y1: H - M.bottom, y2: H - M.bottom + 4, class: 'axis' }, axes);
    el('text', { x: px(v), y: H - M.bottom + 16, class: 'tick x' }, axes).textContent = formatNumber(v);
  }
  el('line', { x1: M.left, x2: W - M.right, y1: H - M.bottom, y2: H - M.bottom, class: 'axis' }, axes);
  if (spec.xLabel) el('text', { x: W - M.right, y: H - 2, class: 'axis-label' }, axes).textContent = spec.xLabel;
  if (spec.area && shown.length) {
    const pts = shown[0].points;
    const base = py(Math.max(ylo, Math.min(yhi, 0)));
    const d = `M${px(pts[0][0])} ${base} ` + pts.map((p) => `L${px(p[0]).toFixed(1)} ${py(p[1]).toFixed(1)}`).join(' ') + ` L${px(pts[pts.length - 1][0])} ${base} Z`;
    el('path', { d, class: 'area' }, svg);
  }
  for (const s of shown) {
    const d = s.points.map((p, i) => `${i ? 'L' : 'M'}${px(p[0]).toFixed(1)} ${py(p[1]).toFixed(1)}`).join(' ');
    el('path', { d, class: 'line', stroke: s.color }, svg);
    if (s.points.length <= 60) {
      for (const p of s.points) el('circle', { cx: px(p[0]), cy: py(p[1]), r: 2.2, fill: s.color, class: 'pt' }, svg);
    }
  }
  if (spec.markerX !== undefined && spec.markerX !== null) {
    el('line', { x1: px(spec.markerX), x2: px(spec.markerX), y1: M.top, y2: H - M.bottom, class: 'marker' }, svg);
  }
  // The cursor: a vertical line and a box with the values at the nearest x.
  const cursor = el('line', { y1: M.top, y2: H - M.bottom, class: 'cursor hidden' }, svg);
  const tip = document.createElement('div');
  tip.className = 'chart-tip hidden';
  container.appendChild(tip);
  const uniqX = [...new Set(xs)].sort((a, b) => a - b);
  const nearest = (clientX) => {
    const r = svg.getBoundingClientRect();
    const x = xlo + ((clientX - r.left) / r.width * W - M.left) / (W - M.left - M.right) * (xhi - xlo);
    let best = uniqX[0];
    for (const v of uniqX) if (Math.abs(v - x) < Math.abs(best - x)) best = v;
    return best;
  };
  svg.addEventListener('pointermove', (ev) => {
    const x = nearest(ev.clientX);
    cursor.setAttribute('x1', px(x));
    cursor.setAttribute('x2', px(x));
    cursor.classList.remove('hidden');
    tip.replaceChildren();
    const head = document.createElement('div');
    head.className = 'tip-head';
    head.textContent = `${spec.xLabel || 'x'} ${formatNumber(x)}`;
    tip.appendChild(head);
    for (const s of shown) {
      const p = s.points.find((q) => q[0] === x);
      if (!p) continue;
      const row = document.createElement('div');
      const sw = document.createElement('span');
      sw.className = 'swatch';
      sw.style.background = s.color;
      row.append(sw, document.createTextNode(`${s.label}: ${(spec.format || formatNumber)(p[1])}`));
      tip.appendChild(row);
    }
    const r = svg.getBoundingClientRect();
    const cr = container.getBoundingClientRect();
    const left = (px(x) / W) * r.width + (r.left - cr.left);
    tip.style.left = `${Math.min(left + 12, cr.width - 180)}px`;
    tip.style.top = `${r.top - cr.top + 8}px`;
    tip.classList.remove('hidden');
  });
  svg.addEventListener('pointerleave', () => {
    cursor.classList.add('hidden');
    tip.classList.add('hidden');
  });
  if (spec.onPick) {
    svg.classList.add('pickable');
    svg.addEventListener('click', (ev) => spec.onPick(nearest(ev.clientX)));
  }
}
