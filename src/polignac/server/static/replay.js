// @ts-check
// The replay viewer: the server replays a record (POST /api/replay) and sends every state,
// a page of deals at a time (?from=N&count=K: the viewer asks for the next deals as it shows
// them); this page steps through them (next/previous card, next/previous deal, keyboard).
import { cardSVG, setDeck, suitIcon } from "./cards.js";
import { totalsChart } from "./chart.js";
import {
  errorText, lang, languagePicker, onLang, presetName, seatName, t,
  translatePage,
} from "./i18n.js";
import { actionLabel, tookTrick } from "./labels.js";
import { reasonList, renderSheet, resultText, seatMark } from "./scoresheet.js";
import { cryptoAvailable, verifyRecord } from "./verify.js";
import { $, make } from "./dom.js";
import { getJson, request } from "./api.js";
import { showAnalysis } from "./analysis.js"; // the analysis of every card (analysis.js)

/** @typedef {import("./protocol.js").Summary} Summary */
/**
 * One step of a replayed deal (server/jobs/jobs.py:_state): every hand, in match seats.
 * @typedef {{action: string | null, seat: number | null, phase: string, to_act: number | null,
 *   hands: string[][], trick: {cards: string[], seats: number[]}, tricks_won: number[],
 *   contract: string | null, declarer: number | null,
 *   last_trick?: {cards: string[], seats: number[], winner: number}}} ReplayStep
 */
/**
 * A replayed deal (jobs.py:replay_steps): its hands as dealt and its steps.
 * @typedef {{number: number, dealer: number, seats: number[], hands: string[][],
 *   turn_up: string | null, trump: string | null, complete: boolean, scores: number[] | null,
 *   steps: ReplayStep[]}} ReplayDeal
 */
/**
 * The POST /api/replay answer (jobs.py:replay_steps): the match, its summary, a page of deals.
 * @typedef {{preset: string, players: string[],
 *   player_keys?: {name_key?: string, name_params?: Record<string, unknown>}[],
 *   suits: string, rank_order: string, partnerships: boolean, sides: number[][],
 *   rules: {threshold?: number | null}, finished: boolean, winners: number[],
 *   losers: number[], totals: number[], summary: Summary, deal_count: number, from: number,
 *   deals: ReplayDeal[]}} Replay
 */

const parts = location.pathname.split("/");
const tableId = parts[1] === "tables" ? parts[2] : null;
/** @type {Replay | null} the first /api/replay answer: the match, its summary, deal_count */
let data = null;
/** @type {Map<number, ReplayDeal>} */
let loaded = new Map(); // deal index -> the deal's states, as the pages came
/** @type {Map<number, Promise<boolean>>} */
let asked = new Map(); // first deal index of a page -> its request, while it runs
let di = 0;           // deal index
let si = 0;           // step index in that deal
let partial = false;
/** @type {string | null} */
let recordText = null; // the record on view, as loaded (the deals are verified from it)
let bodyText = "";     // the record as sent to the server, once per page
const PAGE = 8;        // deals a page (the server's default; at most 32)

/** The record on view's replay, once loaded (a function: a closure sees it as it is now). */
function replayed() { return data; }

/** The number of deals of the record on view. */
function dealCount() { return data ? data.deal_count : 0; }

/** Deal `i`'s states, or undefined while its page has not come. @param {number} i */
function dealAt(i) { return loaded.get(i); }

/**
 * Ask for the page of deals that holds deal index `i` (once); true when it is here.
 * @param {number} i
 * @returns {Promise<boolean>}
 */
function fetchPage(i) {
  const first = Math.floor(i / PAGE) * PAGE;
  if (loaded.has(i)) return Promise.resolve(true);
  let pending = asked.get(first);
  if (!pending) {
    const mine = loaded;
    pending = (async () => {
      try {
        const r = await request(`/api/replay?from=${first + 1}&count=${PAGE}`, { body: bodyText });
        if (!r.ok) {
          $("error").textContent = t("replay.bad", { msg: lang === "en" ? (r.data.error ?? `error ${r.status}`) : errorText(r.data) });
          return false;
        }
        if (mine !== loaded) return false; // another record was loaded meanwhile
        for (const d of r.data.deals) loaded.set(d.number - 1, d);
        return loaded.has(i);
      } finally { asked.delete(first); }
    })();
    asked.set(first, pending);
  }
  return pending;
}

/** Show deal `i` at step `step` (a number, or "last"), once its page is here.
 * @param {number} i @param {number | "last"} step */
async function go(i, step) {
  if (!(await fetchPage(i))) return;
  di = i;
  si = step === "last" ? /** @type {ReplayDeal} here now */ (dealAt(i)).steps.length - 1 : step;
  render();
}

/** @param {number} seat */
function name(seat) {
  if (data?.players[seat] === undefined) return t("table.seatN", { n: seat + 1 });
  return seatName({ name: data.players[seat], ...(data.player_keys?.[seat] ?? {}) });
}

/** Replay the record `text` and show its first deal. @param {string} text */
async function load(text) {
  $("error").textContent = "";
  $("notice").textContent = t("replay.loading");
  $("notice").hidden = false;
  // The deals can be verified even when the record does not replay (a tampered hand).
  try { JSON.parse(text); recordText = text; } catch { recordText = null; }
  resetVerify();
  bodyText = text;
  const r = await request(`/api/replay?from=1&count=${PAGE}`, { body: text });
  const answer = r.ok || r.data.error ? r.data : { error: `error ${r.status}` };
  $("notice").hidden = true;
  if (!r.ok) {
    $("error").textContent = t("replay.bad", { msg: lang === "en" ? answer.error : errorText(answer) });
    return;
  }
  data = answer; di = 0; si = 0;
  loaded = new Map(); asked = new Map();
  for (const d of answer.deals) loaded.set(d.number - 1, d);
  if (partial) { $("notice").textContent = t("replay.partial"); $("notice").hidden = false; }
  render();
}

/** @param {string[]} cards */
function sortCards(cards) {
  const ranks = data?.rank_order ?? "";
  return [...cards].sort((a, b) => "CDSH".indexOf(a[1]) - "CDSH".indexOf(b[1]) ||
    ranks.indexOf(a[0]) - ranks.indexOf(b[0]));
}

/** @param {string} code @param {number} seat @param {boolean} winner */
function played(code, seat, winner) {
  const fig = make("figure", "played" + (winner ? " winner" : ""));
  fig.append(cardSVG(code));
  fig.append(make("figcaption", "", (winner ? "★ " : "") + name(seat)));
  return fig;
}

/** An action in words (labels.js, the table's words too). @param {string} action */
function actionText(action) { return actionLabel(action, data?.suits); }

function render() {
  const data = replayed();
  if (!data) return;
  setDeck(data.suits);
  $("title").textContent = `${presetName(data.preset)} · ${data.players.map((_, s) => name(s)).join(", ")}`;
  $("viewer").hidden = false;
  $("scorebox").hidden = false;
  const deal = dealAt(di);
  if (!deal) {
    $("pos").textContent = t("replay.empty");
    $("hands").replaceChildren(); $("trick").replaceChildren(); $("what").textContent = "";
    renderScores(null);
    return;
  }
  const step = deal.steps[si];
  $("pos").textContent = t("replay.position", { deal: di + 1, deals: dealCount(),
    step: si, steps: deal.steps.length - 1 });
  $("prev", HTMLButtonElement).disabled = di === 0 && si === 0;
  $("prev-deal", HTMLButtonElement).disabled = di === 0 && si === 0;
  const atEnd = di === dealCount() - 1 && si === deal.steps.length - 1;
  $("next", HTMLButtonElement).disabled = atEnd;
  $("next-deal", HTMLButtonElement).disabled = atEnd;

  const trick = $("trick");
  trick.replaceChildren();
  if (step.trick.cards.length) {
    step.trick.cards.forEach((c, i) => trick.append(played(c, step.trick.seats[i], false)));
    trick.dataset.kind = "current";
  } else if (step.last_trick) {
    const lt = step.last_trick;
    lt.cards.forEach((c, i) => trick.append(played(c, lt.seats[i], lt.seats[i] === lt.winner)));
    trick.dataset.kind = "last";
  } else {
    trick.dataset.kind = "empty";
  }
  if (deal.turn_up) {
    const up = make("figure", "played turnup");
    up.append(cardSVG(deal.turn_up));
    const cap = make("figcaption", "", t("table.trump", { suit: "" }));
    cap.append(suitIcon(/** @type {string} a turn-up makes a trump */ (deal.trump)));
    up.append(cap);
    trick.append(up);
  }

  let what = si === 0 || step.action === null || step.seat === null ? t("replay.start") :
    (/^[2-9TJQKA][CDHS]$/.test(step.action) ?
      t("replay.played", { name: name(step.seat), card: actionText(step.action) }) :
      t("replay.called", { name: name(step.seat), action: actionText(step.action) }));
  if (!step.trick.cards.length && step.last_trick && si > 0) {
    const winner = step.last_trick.winner;
    what += " " + tookTrick(name(winner), data.player_keys?.[winner]?.name_key === "name.you");
  }
  $("what").textContent = what;

  const hands = $("hands");
  hands.replaceChildren();
  deal.seats.forEach((seat, p) => {
    const box = make("div", "replay-hand" + (step.to_act === seat ? " to-act" : ""));
    box.dataset.seat = String(seat);
    const title = make("div", "seat-name", name(seat));
    if (seat === deal.dealer) title.append(make("span", "badge", t("table.dealer")));
    if (step.to_act === seat) title.append(make("span", "badge turn", `▶ ${t("table.toPlay")}`));
    const mark = seatMark(seat, data.sides, null);
    if (mark) { box.classList.add(...mark.classes); title.append(make("span", "badge side-mark", mark.label)); }
    box.append(title);
    box.append(make("div", "seat-info", t("table.total", { total: totalBefore(seat),
      tricks: step.tricks_won[p] })));
    const row = make("div", "cards");
    const left = new Set(step.hands[p]);
    for (const c of sortCards(deal.hands[p])) {
      const svg = cardSVG(c);
      if (!left.has(c)) svg.classList.add("gone");
      row.append(svg);
    }
    box.append(row);
    hands.append(box);
  });
  renderScores(deal);
  if (di + 1 < dealCount() && !dealAt(di + 1)) fetchPage(di + 1); // the next page, ahead
  showAnalysis({ recordText, deal: di, step: si, name, suits: data.suits, tableId, go: (s) => { si = s; render(); }, annotate: (text) => { recordText = text; render(); } }); // analysis.js
}

/** A seat's total before the deal on view (Pollack: its side's partie score, from the summary).
 * @param {number} seat */
function totalBefore(seat) {
  const data = replayed();
  if (!data) return 0;
  const prev = data.summary.deals[di - 1];
  if (data.sides?.length) {
    const side = data.sides.findIndex((s) => s.includes(seat));
    return prev && prev.partie_won_by === null ? /** @type {number[]} */ (prev.partie_score)[side] : 0;
  }
  let total = 0;
  for (const d of data.summary.deals.slice(0, di)) if (!d.tiebreak) total += d.scores[seat];
  return total;
}

/** The scores up to the step on view. @param {ReplayDeal | null} deal */
function renderScores(deal) {
  const data = replayed();
  if (!data) return;
  const done = deal && deal.complete && si === deal.steps.length - 1;
  const upto = di + (done ? 1 : 0);
  const deals = data.summary.deals.slice(0, upto);
  const box = $("dealscore");
  box.replaceChildren();
  if (done) {
    const sd = data.summary.deals[di];
    box.append(make("h3", "", t("replay.dealScore")));
    box.append(reasonList(sd.reasons, name, data.suits, sd));
  }
  const totals = new Array(data.players.length).fill(0);
  for (const d of deals) d.scores.forEach((x, s) => { if (!d.tiebreak) totals[s] += x; });
  renderSheet($("scores", HTMLTableElement), { names: data.players, deals, totals, sides: data.sides,
    finished: data.finished && upto === data.summary.deals.length }, name);
  const chart = $("chart");
  chart.replaceChildren();
  if (deals.length) {
    chart.append(make("h3", "", t("table.chart")));
    chart.append(totalsChart(data.players.map((_, s) => name(s)), deals, { threshold: data.rules.threshold ?? null,
      title: t("table.chart") }));
  }
  const res = $("result");
  const last = dealCount() - 1;
  res.hidden = !(data.finished && di === last && si === (dealAt(last)?.steps.length ?? 0) - 1);
  if (!res.hidden) {
    res.textContent = resultText({ ...data.summary, sides: data.sides }, name);
  }
}

/** A card forwards (1) or backwards (-1). @param {number} delta */
function move(delta) {
  const deal = data && dealAt(di);
  if (!deal) return;
  if (delta > 0) {
    if (si < deal.steps.length - 1) { si++; render(); }
    else if (di < dealCount() - 1) go(di + 1, 0);
  } else if (si > 0) { si--; render(); }
  else if (di > 0) go(di - 1, "last");
}

/** A deal forwards (1) or backwards (-1). @param {number} delta */
function moveDeal(delta) {
  const deal = data && dealAt(di);
  if (!deal) return;
  if (delta > 0) {
    if (di < dealCount() - 1) go(di + 1, 0); else { si = deal.steps.length - 1; render(); }
  } else if (si > 0) { si = 0; render(); }
  else if (di > 0) go(di - 1, 0);
}

// ------------------------------------------------------------ verify the deals

function resetVerify() {
  $("verify").hidden = !recordText;
  $("verify-results").replaceChildren();
  $("verify-summary").textContent = "";
  $("verify-btn", HTMLButtonElement).disabled = false;
}

/** Check every deal of the record on view in this browser (verify.js, WebCrypto). */
async function verifyDeals() {
  const box = $("verify-results");
  box.replaceChildren();
  if (!cryptoAvailable()) {
    $("verify-summary").textContent = t("verify.noCrypto");
    $("verify-summary").dataset.state = "bad";
    return;
  }
  $("verify-btn", HTMLButtonElement).disabled = true;
  $("verify-summary").textContent = t("verify.running");
  $("verify-summary").dataset.state = "open";
  const text = recordText ?? "null";  // the button shows with a record only
  let checks;
  try {
    checks = await verifyRecord(JSON.parse(text));
  } finally {
    $("verify-btn", HTMLButtonElement).disabled = false;
  }
  const record = JSON.parse(text);
  for (const c of checks) {  // the cut this browser sent at the table, if it kept it
    const mine = tableId ? myCut(c.deal) : null;
    const proof = record.deals?.[c.deal - 1]?.shuffle;
    const cuts = proof?.cuts;
    if (!mine || proof.table !== tableId || !Array.isArray(cuts) || c.status === "not-verifiable") continue;
    if (cuts.includes(mine.cut)) c.mine = true;
    else { c.status = "failed"; c.problems.push(t("verify.cutMissing")); }
  }
  const count = (/** @type {string} */ status) => checks.filter((c) => c.status === status).length;
  for (const c of checks) {
    /** @type {Record<string, string>} */
    const keys = { ok: "verify.dealOk", failed: "verify.dealFailed", "not-verifiable": "verify.dealNot" };
    const key = keys[c.status];
    const li = make("li", "", t(key, { deal: c.deal, cuts: c.cuts, why: c.problems.join("; ") }) +
      (c.mine && c.status === "ok" ? ` · ${t("verify.cutFound")}` : ""));
    li.dataset.state = c.status;
    box.append(li);
  }
  $("verify-summary").textContent = t("verify.summary", { ok: count("ok"), n: checks.length,
    failed: count("failed"), not: count("not-verifiable") });
  $("verify-summary").dataset.state = count("failed") ? "bad" : count("ok") ? "ok" : "open";
}

/** The cut this browser sent for deal `deal` of this table (kept by verify.js), or null.
 * @param {number} deal @returns {{commitment: string, cut: string} | null} */
function myCut(deal) {
  try { return JSON.parse(sessionStorage.getItem(`polignac-cut:${tableId}:${deal}`) ?? "null"); } catch { return null; }
}

$("verify-btn", HTMLButtonElement).addEventListener("click", () => { verifyDeals(); });
$("next", HTMLButtonElement).addEventListener("click", () => move(1));
$("prev", HTMLButtonElement).addEventListener("click", () => move(-1));
$("next-deal", HTMLButtonElement).addEventListener("click", () => moveDeal(1));
$("prev-deal", HTMLButtonElement).addEventListener("click", () => moveDeal(-1));
document.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
  /** @type {Record<string, () => void>} */
  const keys = { ArrowRight: () => move(1), ArrowLeft: () => move(-1), ArrowDown: () => moveDeal(1),
    PageDown: () => moveDeal(1), ArrowUp: () => moveDeal(-1), PageUp: () => moveDeal(-1),
    Home: () => { go(0, 0); },
    End: () => { if (dealCount()) go(dealCount() - 1, "last"); } };
  if (keys[e.key] && data) { keys[e.key](); e.preventDefault(); }
});

$("file", HTMLInputElement).addEventListener("change", async () => {
  const file = $("file", HTMLInputElement).files?.[0];
  if (!file) return;
  partial = false;
  $("download", HTMLAnchorElement).hidden = true;
  await load(await file.text());
});

languagePicker($("lang"));
translatePage();
document.title = `${t("replay.title")} · Polignac`;
onLang(() => { document.title = `${t("replay.title")} · Polignac`; render(); if (partial && data) $("notice").textContent = t("replay.partial"); });

if (tableId) {
  const url = `/tables/${tableId}/record.json`;
  $("download", HTMLAnchorElement).href = url;
  $("download", HTMLAnchorElement).hidden = false;
  (async () => {
    const r = await fetch(url, { credentials: "same-origin" });
    if (!r.ok) { $("error").textContent = t("replay.bad", { msg: `error ${r.status}` }); return; }
    const text = await r.text();
    const tables = await getJson("/api/tables").catch(() => null);
    const info = tables?.tables?.find((/** @type {{id: string, status: string}} */ x) => x.id === tableId);
    partial = info ? info.status !== "finished" : false;
    await load(text);
    const now = replayed();
    if (!info && now && !now.finished) {
      partial = true;
      $("notice").textContent = t("replay.partial"); $("notice").hidden = false;
    }
  })();
} else {
  $("notice").textContent = t("replay.pick");
  $("notice").hidden = false;
}
