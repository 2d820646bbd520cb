// @ts-check
// The analysis of every card in the replay viewer (docs/record-format.md, "analysis").
// A record analysed by `polignac analyze --out` (or by POST /api/analyze from here)
// carries, per deal, each action's expected value from what that player knew, the best
// action's, the open-hand value, and mistake/blunder marks; this module shows them for
// the action on view, with the alternatives, and the deal's per-player summary.
// replay.js calls showAnalysis(...) at the end of each render.
// The server analyses one deal per job: a posted record's answer is streamed, one line a
// deal (POST /api/analyze), a table's deals are analysed in the background and stored
// (POST/GET /tables/{id}/analysis); the page shows a progress bar (deals done / to do),
// and a table's stored analyses are shown again after a reload without a new job.
import { errorText, lang, t } from "./i18n.js";
import { actionLabel } from "./labels.js";
import { $, el, make } from "./dom.js";
import { request } from "./api.js";

/**
 * One action's annotation.
 * @typedef {object} ActionNote
 * @property {number} seat
 * @property {string} action
 * @property {string} [note] "forced", "not-analysed", "too-deep" or "time" (no values)
 * @property {number} [value] its expected value (higher is better)
 * @property {string} [best] the best action
 * @property {number} [best_value]
 * @property {number} [loss] best_value - value
 * @property {number} [open] its open-hand value
 * @property {number} [open_best]
 * @property {number} [open_loss]
 * @property {number} [samples]
 * @property {boolean} [exact]
 * @property {Record<string, number>} [values] every alternative's expected value
 * @property {Record<string, number>} [open_values] every alternative's open-hand value
 * @property {"mistake" | "blunder"} [mark]
 */

/**
 * One player's summary of a deal.
 * @typedef {{seat: number, decisions: number, mistakes: number, blunders: number,
 *   loss: number, open_loss: number, skipped: number}} PlayerSummary
 */

/**
 * A deal's `analysis` field.
 * @typedef {object} DealAnalysis
 * @property {string} unit "penalty", "points", "chips" or "card-points"
 * @property {string} model
 * @property {number} samples
 * @property {ActionNote[]} actions one per action of the deal
 * @property {PlayerSummary[]} players
 */

/**
 * What replay.js hands over at each render.
 * @typedef {object} Context
 * @property {string | null} recordText the record on view, as loaded
 * @property {number} deal the deal index on view
 * @property {number} step the step on view (0: as dealt; step s follows action s)
 * @property {(seat: number) => string} name a seat's name
 * @property {string} suits "french" or "german"
 * @property {(step: number) => void} go show step `step` of this deal
 * @property {(text: string) => void} annotate the same record with annotations: show it
 * @property {string | null} tableId the table whose record is on view (null: an upload)
 */

/** @type {{text: string | null, deals: (DealAnalysis | null)[]}} */
let cache = { text: null, deals: [] };
let busy = false;
let failure = "";
let failedFor = /** @type {string | null} */ (null);
/** @type {{done: number, total: number} | null} deals analysed so far while busy */
let progress = null;
/** @type {Context | null} the last context shown (progress redraws it) */
let shownCtx = null;
/** @type {string | null} the table whose stored analyses were asked for */
let storedFor = null;

/**
 * The annotations of each deal of `text`, or null for a deal without usable ones.
 * @param {string | null} text
 * @returns {(DealAnalysis | null)[]}
 */
export function annotationsOf(text) {
  if (cache.text === text) return cache.deals;
  /** @type {(DealAnalysis | null)[]} */
  let deals = [];
  try {
    const record = JSON.parse(text ?? "null");
    deals = (Array.isArray(record?.deals) ? record.deals : []).map((/** @type {any} */ d) => usable(d?.analysis));
  } catch { deals = []; }
  cache = { text, deals };
  return deals;
}

/**
 * `a` when it has the shape this page reads, else null.
 * @param {any} a
 * @returns {DealAnalysis | null}
 */
function usable(a) {
  if (!a || typeof a !== "object" || !Array.isArray(a.actions) || !Array.isArray(a.players)) return null;
  if (!a.actions.every((/** @type {any} */ e) => e && typeof e === "object" && typeof e.action === "string")) return null;
  return a;
}

/**
 * A value as the page shows it: penalties as positive points, two decimals at most.
 * @param {number} v
 * @param {string} unit
 */
function shown(v, unit) {
  const x = unit === "penalty" ? -v : v;
  return new Intl.NumberFormat(lang, { maximumFractionDigits: 2 }).format(x === 0 ? 0 : x);
}

/**
 * An action in words (a card's name, or the call: labels.js, the table's words too).
 * @param {string} action
 * @param {string} suits
 */
function actionText(action, suits) { return actionLabel(action, suits); }

/** The panel, made once, after the viewer. */
function panel() {
  let box = document.getElementById("analysis");
  if (!box) {
    box = el("section", { id: "analysis", class: "panel analysis", "aria-live": "polite" });
    $("viewer").after(box);
  }
  return box;
}

/**
 * Show the analysis of the action on view and the deal's summary (or offer to analyse).
 * @param {Context} ctx
 */
export function showAnalysis(ctx) {
  shownCtx = ctx;
  const box = panel();
  box.replaceChildren();
  if (!ctx.recordText) { box.hidden = true; return; }
  box.hidden = false;
  box.append(make("h3", "", t("analysis.title")));
  if (ctx.tableId && storedFor !== ctx.tableId) { storedFor = ctx.tableId; stored(ctx.tableId); }
  if (failure && failedFor === ctx.recordText) box.append(make("p", "error analysis-failed", failure));
  if (busy) box.append(progressBar());
  const deals = annotationsOf(ctx.recordText);
  const a = deals[ctx.deal];
  if (!a) { offer(box, ctx); return; }
  box.append(make("p", "analysis-explain", t("analysis.explain", { samples: a.samples }) + " " +
    t(a.unit === "penalty" ? "analysis.lowerBetter" : "analysis.higherBetter",
      { unit: t(`analysis.unit.${a.unit}`) })));
  if (ctx.step > 0 && a.actions[ctx.step - 1]) box.append(actionBox(a.actions[ctx.step - 1], a, ctx));
  else if (ctx.step === 0) box.append(make("p", "analysis-hint", t("analysis.stepHint")));
  box.append(dealSummary(a, ctx));
}

/** The progress bar of the analysis running: deals done / to do (from the server's jobs). */
function progressBar() {
  const wrap = make("div", "analysis-progress");
  const bar = el("progress", { id: "analysis-progress" });
  bar.setAttribute("aria-label", t("analysis.running"));
  if (progress && progress.total > 0) {
    bar.max = progress.total;
    bar.value = progress.done;
  }
  wrap.append(bar);
  wrap.append(make("p", "analysis-state", progress && progress.total > 0
    ? t("analysis.progress", { done: progress.done, total: progress.total }) : t("analysis.running")));
  return wrap;
}

/** Redraw the panel of the record on view (after a line of progress). */
function redraw() { if (shownCtx) showAnalysis(shownCtx); }

/**
 * The record text with `deals` (deal number -> its analysis) as their `analysis` fields.
 * @param {string} text
 * @param {Record<string, DealAnalysis>} deals
 * @returns {string}
 */
function merged(text, deals) {
  const record = JSON.parse(text);
  if (!Array.isArray(record?.deals)) return text;
  for (const [n, a] of Object.entries(deals)) {
    const deal = record.deals[Number(n) - 1];
    if (deal && usable(a)) deal.analysis = a;
  }
  return JSON.stringify(record);
}

/**
 * Show what the server stored of table `tableId`'s analysis (no new job); follow an
 * analysis that runs.
 * @param {string} tableId
 */
async function stored(tableId) {
  let r;
  try {
    r = await request(`/tables/${encodeURIComponent(tableId)}/analysis`);
  } catch { return; }
  if (!r.ok) return;
  if (r.data.running) { follow(tableId); return; }
  const deals = r.data.deals ?? {};
  const ctx = shownCtx;
  if (ctx?.recordText && Object.keys(deals).length) ctx.annotate(merged(ctx.recordText, deals));
}

/**
 * Follow table `tableId`'s analysis (GET every half second) until it ends, with its
 * progress; then show the stored analyses.
 * @param {string} tableId
 */
async function follow(tableId) {
  busy = true; failure = "";
  redraw();
  /** @type {any} */
  let data = null;
  try {
    for (;;) {
      const r = await request(`/tables/${encodeURIComponent(tableId)}/analysis`);
      if (!r.ok) { failure = t("analysis.failed", { msg: message(r) }); break; }
      data = r.data;
      progress = { done: data.done, total: data.total };
      if (!data.running) break;
      redraw();
      await new Promise((resolve) => { setTimeout(resolve, 500); });
    }
  } catch (err) {
    failure = t("analysis.failed", { msg: String(err?.message ?? err) });
  } finally {
    busy = false; progress = null;
  }
  if (data?.error) failure = t("analysis.failed", { msg: lang === "en" ? data.error.error : errorText(data.error) });
  const ctx = shownCtx;
  failedFor = ctx?.recordText ?? null;
  if (ctx?.recordText && data?.deals && Object.keys(data.deals).length) ctx.annotate(merged(ctx.recordText, data.deals));
  else redraw();
}

/**
 * A refusal in words (the page language when the catalog has its rule).
 * @param {{status: number, data: any}} r
 */
function message(r) {
  return lang === "en" || !r.data?.rule ? (r.data?.error ?? `error ${r.status}`) : errorText(r.data);
}

/**
 * The "Analyse" button for a record (or deal) without annotations.
 * @param {HTMLElement} box
 * @param {Context} ctx
 */
function offer(box, ctx) {
  box.append(make("p", "analysis-explain", t("analysis.offer")));
  const button = el("button", { type: "button", id: "analyze-btn", text: t("analysis.run"), disabled: busy });
  button.addEventListener("click", () => { run(ctx); });
  box.append(button);
}

/**
 * Ask the server to analyse the record on view: a table's in the background (then
 * follow its progress), an uploaded one streamed deal by deal; then show it annotated.
 * @param {Context} ctx
 */
async function run(ctx) {
  if (busy || !ctx.recordText) return;
  if (ctx.tableId) {
    busy = true;
    let r;
    try {
      r = await request(`/tables/${encodeURIComponent(ctx.tableId)}/analysis`, { method: "POST", body: {} });
    } catch (err) {
      busy = false;
      failure = t("analysis.failed", { msg: String(err?.message ?? err) }); failedFor = ctx.recordText;
      redraw();
      return;
    }
    busy = false;
    if (!r.ok) { failure = t("analysis.failed", { msg: message(r) }); failedFor = ctx.recordText; redraw(); return; }
    await follow(ctx.tableId);
    return;
  }
  busy = true; failure = ""; progress = null;
  redraw();
  const text = ctx.recordText;
  /** @type {Record<string, DealAnalysis>} */
  const deals = {};
  let complete = false;
  try {
    const r = await fetch("/api/analyze", { method: "POST", credentials: "same-origin",
      headers: { "content-type": "application/json" }, body: text });
    if (!r.ok || !r.body) {
      let data = {};
      try { data = await r.json(); } catch { /* no JSON */ }
      failure = t("analysis.failed", { msg: message({ status: r.status, data }) });
    } else {
      const reader = r.body.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        buffer += decoder.decode(value ?? new Uint8Array(), { stream: !done });
        let cut;
        while ((cut = buffer.indexOf("\n")) >= 0) {
          const line = JSON.parse(buffer.slice(0, cut));
          buffer = buffer.slice(cut + 1);
          if (line.error) { failure = t("analysis.failed", { msg: message({ status: 503, data: line }) }); continue; }
          if (line.analysis) deals[line.deal] = line.analysis;
          if (line.complete !== undefined) complete = line.complete;
          progress = { done: line.done, total: line.total };
          redraw();
        }
        if (done) break;
      }
      if (!failure && !complete) failure = t("analysis.incomplete");
    }
  } catch (err) {
    failure = t("analysis.failed", { msg: String(err?.message ?? err) });
  } finally {
    busy = false; progress = null;
  }
  const annotated = Object.keys(deals).length ? merged(text, deals) : null;
  failedFor = annotated ?? text;
  if (annotated) ctx.annotate(annotated); else redraw();
}

/**
 * The action on view: its value, the best alternative, the mark, every alternative.
 * @param {ActionNote} e
 * @param {DealAnalysis} a
 * @param {Context} ctx
 */
function actionBox(e, a, ctx) {
  const box = make("div", "analysis-action");
  box.dataset.mark = e.mark ?? (e.note ? "note" : "ok");
  const who = t("analysis.who", { name: ctx.name(e.seat), action: actionText(e.action, ctx.suits) });
  if (e.note || e.value === undefined || e.best === undefined || e.best_value === undefined) {
    box.append(make("p", "", `${who} ${t(`analysis.note.${e.note ?? "not-analysed"}`)}`));
    return box;
  }
  const head = make("p", "analysis-line", who + " ");
  head.append(make("span", "analysis-mark", e.mark ? t(`analysis.mark.${e.mark}`) :
    e.best === e.action ? t("analysis.mark.best") : t("analysis.mark.fine")));
  box.append(head);
  const unit = t(`analysis.unit.${a.unit}`);
  const cost = make("p", "analysis-cost");
  cost.append(e.best === e.action || !e.loss ? t("analysis.noCost")
    : t("analysis.cost", { cost: shown(e.loss, "points"), unit }));
  box.append(cost);
  if (e.best !== e.action) {
    box.append(make("p", "analysis-better", t("analysis.better", { action: actionText(e.best, ctx.suits) })));
  }
  const name = ctx.name(e.seat);
  box.append(make("p", "analysis-expected", t("analysis.expectedModel", { name, v: shown(e.value, a.unit),
    action: actionText(e.action, ctx.suits), best: shown(e.best_value, a.unit),
    better: actionText(e.best, ctx.suits) })));
  if (e.open !== undefined && e.open_best !== undefined) {
    box.append(make("p", "", t("analysis.open", { v: shown(e.open, a.unit), best: shown(e.open_best, a.unit) })));
  }
  box.append(make("p", "analysis-model", t("analysis.model", { name })));
  const values = e.values ?? {};
  const opens = e.open_values ?? {};
  const order = Object.keys(values).sort((x, y) => values[y] - values[x]);
  const table = make("table", "scores analysis-alternatives");
  table.append(el("caption", { text: t("analysis.alternatives") }));
  const head2 = table.insertRow();
  for (const key of ["analysis.col.action", "analysis.col.cost", "analysis.col.expected", "analysis.col.open"]) {
    head2.insertCell().textContent = t(key);
  }
  const top = Math.max(...order.map((x) => values[x]));
  for (const act of order) {
    const row = table.insertRow();
    if (act === e.action) row.className = "played";
    if (act === e.best) row.classList.add("best");
    row.insertCell().textContent = actionText(act, ctx.suits) + (act === e.action ? ` · ${t("analysis.played")}` : "");
    row.insertCell().textContent = shown(top - values[act], "points");
    row.insertCell().textContent = shown(values[act], a.unit);
    row.insertCell().textContent = opens[act] === undefined ? "" : shown(opens[act], a.unit);
  }
  box.append(table);
  return box;
}

/**
 * The deal's per-player summary and its marked actions (each a button that calls
 * `ctx.go(step)`). Exported for other pages (the table's score sheet can show a
 * deal's analysis with it: `dealSummary(analysis, {name, suits, go})`).
 * @param {DealAnalysis} a
 * @param {{name: (seat: number) => string, suits: string, go?: (step: number) => void}} ctx
 *   without `go` the marked actions are plain text
 * @returns {HTMLElement}
 */
export function dealSummary(a, ctx) {
  const box = make("div", "analysis-summary");
  box.append(make("h4", "", t("analysis.summary")));
  const table = make("table", "scores");
  const head = table.insertRow();
  for (const key of ["analysis.col.player", "analysis.col.decisions", "analysis.col.mistakes",
    "analysis.col.blunders", "analysis.col.loss", "analysis.col.openLoss"]) {
    head.insertCell().textContent = t(key);
  }
  for (const p of a.players) {
    const row = table.insertRow();
    row.dataset.seat = String(p.seat);
    row.insertCell().textContent = ctx.name(p.seat);
    for (const v of [p.decisions, p.mistakes, p.blunders]) row.insertCell().textContent = String(v);
    row.insertCell().textContent = shown(p.loss, "points");
    row.insertCell().textContent = shown(p.open_loss, "points");
  }
  box.append(table);
  const marked = a.actions.map((e, i) => ({ e, step: i + 1 })).filter(({ e }) => e.mark);
  const list = make("ul", "analysis-marked");
  for (const { e, step } of marked) {
    const text = t("analysis.markedLine", { n: step, name: ctx.name(e.seat), action: actionText(e.action, ctx.suits),
      better: actionText(e.best ?? e.action, ctx.suits), mark: t(`analysis.mark.${e.mark}`),
      cost: shown(e.loss ?? 0, "points") });
    const go = ctx.go;
    if (!go) { list.append(el("li", { dataset: { step: String(step), mark: e.mark }, text })); continue; }
    const link = el("button", { type: "button", class: "linkish", dataset: { step: String(step), mark: e.mark }, text });
    link.addEventListener("click", () => go(step));
    list.append(el("li", {}, link));
  }
  if (!marked.length) list.append(make("li", "", t("analysis.noMistakes")));
  box.append(list);
  return box;
}

/**
 * The table's score sheet: fetch the analysis of finished deal `deal` (from 1) of table
 * `tableId` (GET /tables/{id}/deals/{n}/analysis, computed by the server once) and show
 * its per-player summary in `box`. A failure (busy, too long) leaves a short line.
 * @param {HTMLElement} box
 * @param {string} tableId
 * @param {number} deal
 * @param {(seat: number) => string} name
 * @param {string} suits
 * @returns {Promise<void>}
 */
export async function showTableDealAnalysis(box, tableId, deal, name, suits) {
  box.replaceChildren(make("p", "analysis-state", t("analysis.running")));
  let r;
  try {
    r = await request(`/tables/${encodeURIComponent(tableId)}/deals/${deal}/analysis`);
  } catch (err) {
    box.replaceChildren(make("p", "error", t("analysis.failed", { msg: String(err?.message ?? err) })));
    return;
  }
  const a = r.ok ? usable(r.data.analysis) : null;
  if (!a) {
    const msg = r.ok ? "" : (lang === "en" || !r.data.rule ? (r.data.error ?? `error ${r.status}`) : errorText(r.data));
    box.replaceChildren(make("p", "error", t("analysis.failed", { msg })));
    return;
  }
  box.replaceChildren(dealSummary(a, { name, suits }));
}
