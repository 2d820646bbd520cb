// @ts-check
// A line chart of the running totals over the deals, drawn as SVG (no library).
import { svgEl } from "./dom.js";

export const COLOURS = ["#2d5fa8", "#c0262d", "#2e8b3a", "#b5780c", "#7a3fa0", "#1a8c8c",
  "#d0569a", "#5a5a5a", "#8a6d3b", "#00a0c8"];

/**
 * The running totals after each deal: `series[seat][k]` is seat's total after deal k
 * (0 before the first). `deals` are summary deals ({scores, tiebreak, partie_winner}):
 * tie-break deals do not count; a Pollack partie's end starts the totals again.
 */
/**
 * @param {number} players
 * @param {{scores: number[], tiebreak?: boolean, partie_winner?: unknown}[]} deals
 * @returns {number[][]}
 */
export function runningTotals(players, deals) {
  const series = Array.from({ length: players }, () => [0]);
  const now = new Array(players).fill(0);
  for (const d of deals) {
    if (!d.tiebreak) d.scores.forEach((x, s) => { now[s] += x; });
    now.forEach((x, s) => series[s].push(x));
    if (d.partie_winner) now.fill(0);
  }
  return series;
}

/**
 * An SVG chart: one line per seat, `names` for the legend, `threshold` (or null)
 * drawn as a dashed line. `title` is the accessible name. `origin`: where every line
 * starts (0: running totals; a rating's first value); `legend: false` leaves the
 * legend out (one line, named by the title).
 */
/**
 * @param {string[]} names
 * @param {{scores: number[], tiebreak?: boolean, partie_winner?: unknown}[]} deals
 * @param {{threshold?: number | null, title?: string, origin?: number, legend?: boolean}} [options]
 * @returns {SVGElement}
 */
export function totalsChart(names, deals,
  { threshold = null, title = "", origin = 0, legend = true } = {}) {
  const series = runningTotals(names.length, deals).map((pts) => pts.map((v) => v + origin));
  // The legend under the plot has a row for every two players: the chart grows with them.
  const per = 2, rows = legend ? Math.ceil(names.length / per) : 0;
  const L = Math.max(26, 7 * String(Math.round(Math.max(...series.flat()))).length + 5);
  const W = 260, R = 8, T = 10, B = 22 + rows * 13, H = T + 116 + B;
  const all = series.flat().concat(threshold ?? []);
  let lo = Math.min(origin, ...all), hi = Math.max(origin + 1, ...all);
  if (hi === lo) hi = lo + 1;
  const span = hi - lo;
  lo -= span * 0.05; hi += span * 0.05;
  const n = Math.max(series[0].length - 1, 1);
  const x = (/** @type {number} */ k) => L + (k * (W - L - R)) / n;
  const y = (/** @type {number} */ v) => T + ((hi - v) * (H - T - B)) / (hi - lo);
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img",
    "aria-label": title });
  svg.append(svgEl("title", {}, title));
  svg.append(svgEl("rect", { x: L, y: T, width: W - L - R, height: H - T - B, class: "chart-bg" }));
  // Axis labels: a few round values.
  const step = niceStep((hi - lo) / 4);
  for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) {
    svg.append(svgEl("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: v === 0 ? "chart-zero" : "chart-grid" }));
    svg.append(svgEl("text", { x: L - 3, y: y(v) + 3, class: "chart-label y" }, String(Math.round(v))));
  }
  const every = Math.ceil(n / 10);
  for (let k = 0; k <= n; k += every) {
    svg.append(svgEl("text", { x: x(k), y: H - B + 12, class: "chart-label x" }, String(k)));
  }
  if (threshold !== null && threshold !== undefined) {
    svg.append(svgEl("line", { x1: L, x2: W - R, y1: y(threshold), y2: y(threshold),
      class: "chart-threshold" }));
  }
  series.forEach((pts, s) => {
    const colour = COLOURS[s % COLOURS.length];
    // Equal totals would hide each other: each seat's line is nudged a little.
    const nudge = (s - (series.length - 1) / 2) * 1.6;
    const yy = (/** @type {number} */ v) => y(v) + nudge;
    const d = pts.map((v, k) => `${k ? "L" : "M"}${x(k).toFixed(1)} ${yy(v).toFixed(1)}`).join(" ");
    svg.append(svgEl("path", { d, class: "chart-line", stroke: colour, "data-seat": s }));
    pts.forEach((v, k) => svg.append(svgEl("circle", { cx: x(k), cy: yy(v), r: 2.4, fill: colour })));
  });
  // Legend under the plot: every player, two a row; a long name is cut (its title is whole).
  if (legend) names.forEach((name, s) => {
    const lx = 6 + (s % per) * ((W - 12) / per), ly = H - B + 28 + Math.floor(s / per) * 13;
    svg.append(svgEl("rect", { x: lx, y: ly - 7, width: 10, height: 4, fill: COLOURS[s % COLOURS.length] }));
    const short = name.length > 17 ? `${name.slice(0, 16)}…` : name;
    const label = svgEl("text", { x: lx + 13, y: ly - 2, class: "chart-legend", "data-seat": s },
      `${short} ${series[s].at(-1)}`);
    label.append(svgEl("title", {}, name));
    svg.append(label);
  });
  return svg;
}

/** @param {number} raw */
function niceStep(raw) {
  const p = 10 ** Math.floor(Math.log10(Math.max(raw, 1e-9)));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}
