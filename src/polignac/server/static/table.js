// @ts-check
// The table page: one WebSocket to the server (connection.js), which sends states, numbered
// events and presence; the events are shown one after the other (pacing.js), drawn by
// table-render.js; what the page does is table-actions.js's, the hints table-hints.js's.
import { errorText, languagePicker, onLang, t, translatePage } from "./i18n.js";
import { soundToggle } from "./feedback.js";
import { $ } from "./dom.js";
import { getJson, postJson } from "./api.js";
import { initSeats, resetSeatsPanel, seatsPresence } from "./seats.js";
import { dealProof } from "./verify.js";
import { logWatch } from "./commitlog.js";
import { tableConnection } from "./connection.js";
import { S, passingNow, store } from "./table-state.js";
import {
  MOTION_KEY, enqueue, initPacing, motionOn, reducedMotion, release, resetPacing,
} from "./pacing.js";
import {
  R, handRects, logEvent, rebuildLog, render, renderLog, renderSeats, renderStatus, renderTrick,
  renderTurn,
  toggleLast,
} from "./table-render.js";
import { askHint, hintAllowed, initHints } from "./table-hints.js";
import { initChat, onChat, renderChat } from "./table-chat.js";
import { act, guardLeaving, initActions, rematch, settle, togglePass } from "./table-actions.js";
import { announce, noteLeft, setClocks } from "./table-clocks.js";

/** @typedef {import("./protocol.js").Frame} Frame */
/** @typedef {import("./protocol.js").EventFrame} EventFrame */
/** @typedef {import("./protocol.js").PresenceFrame} PresenceFrame */
/** @typedef {import("./protocol.js").PresenceSeat} PresenceSeat */

const conn = tableConnection(S.tableId, { lastSeq: () => S.lastSeq, onFrame });
const proof = dealProof($("deal-proof"), (obj) => conn.send(obj), S.tableId);
const chain = logWatch($("log-warning"));  // the commitment log kept by this browser
/** @type {Promise<ReturnType<typeof import("./guide.js").startGuide> | null> | null} the guided first deal's bubbles (guide.js) when the table info says guide */
let guide = null;

function markSeq() {
  document.body.dataset.seq = String(S.lastSeq);
  document.body.dataset.shown = String(S.shownSeq);
}

/** @param {Frame} f */
function onFrame(f) {
  chain.onFrame(f);
  if (proof.onFrame(f)) return;
  if (f.type === "state") {
    resetPacing();
    settle();
    S.lastSeq = f.seq; S.shownSeq = f.seq; S.you = f.you ?? null; S.table = f.table; S.view = f.view;
    S.summary = f.summary;
    S.ratings = f.ratings ?? null;
    setClocks(f.clocks ?? null);
    if (f.presence) setPresence(f.presence);
    rebuildLog();
    render();
    renderChat();
    markSeq();
  } else if (f.type === "event") {
    if (f.seq <= S.lastSeq) return;
    if (f.seq !== S.lastSeq + 1) { conn.hello(); return; }
    S.lastSeq = f.seq;
    markSeq();
    enqueue(f);
    return;  // the guide sees the event when it is shown
  } else if (f.type === "presence") {
    setClocks(f.clocks);
    setPresence(f);
    if (S.view) { render(); renderChat(); }
  } else if (f.type === "chat") {
    onChat(f);
  } else if (f.type === "ratings") {  // a rated match's end: each rated seat's rating change
    S.ratings = f;
    if (S.view) render();
  } else if (f.type === "rematch") {
    S.rematchUrl = f.url;
    if (S.view) render();
  } else if (f.type === "error") {
    const why = errorText(f);
    if (S.pending) {  // the action on the page was refused: it goes back
      settle(why);
      if (S.view) render();
    } else {
      toast(why);
    }
    if (f.rule === "stale-seq") conn.hello();
  }
  tellGuide(f);
}

/** The guided first deal's bubbles see each frame once it is on the page. @param {Frame} f */
function tellGuide(f) {
  if (S.table?.guide && !guide) {
    guide = import("./guide.js").then((m) => m.startGuide({ tableId: S.tableId }), () => null);
  }
  const now = { you: S.you, view: S.view, table: S.table };
  guide?.then((g) => g?.frame(f, now));
}

/**
 * Put event frame `f` on the page; `animate`: its card flies in.
 * @param {EventFrame} f
 * @param {boolean} animate
 */
function showEvent(f, animate) {
  R.flyFrom = animate ? handRects() : null;
  if (f.summary) S.summary = f.summary;
  if (f.presence) setPresence(f.presence);
  if (f.view) S.view = f.view;
  S.shownSeq = f.seq;
  const ev = f.event;
  if (ev.kind === "act" && S.pending && ev.seat === S.you) settle();  // our action is done
  logEvent(ev);
  if (f.view) render();
  R.flyFrom = null;
  markSeq();
  tellGuide(f);
}

/** @param {PresenceSeat[] | PresenceFrame} p a state's or an event's presence, or a presence frame */
function setPresence(p) {
  const seats = Array.isArray(p) ? p : p.seats ?? [];
  S.presence = [];
  for (const s of seats) S.presence[s.seat] = s;
  noteLeft();
  seatsPresence(p, { table: S.table, view: S.view });
}

let toastTimer = 0;
/** @param {string} text */
function toast(text) {
  const box = $("toast");
  box.textContent = text; box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, 4000);
}

function rerender() { if (S.view) render(); }

// ------------------------------------------------------------------ the keyboard

function legalCards() {
  return /** @type {HTMLElement[]} */ ([...document.querySelectorAll("#hand .card.legal")]);
}

document.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLSelectElement || e.target instanceof HTMLInputElement) return;
  if (document.querySelector("dialog[open]")) return;
  if (e.key === "l" || e.key === "L") { toggleLast(); e.preventDefault(); return; }
  if ((e.key === "h" || e.key === "H") && !e.ctrlKey && !e.metaKey && !e.altKey) {
    if (hintAllowed()) { askHint(); e.preventDefault(); }
    return;
  }
  if (e.key === "Escape" && R.showLast) { toggleLast(); return; }
  const cards = legalCards();
  if (!cards.length) return;
  if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
    R.focusIndex = (R.focusIndex + (e.key === "ArrowRight" ? 1 : cards.length - 1)) % cards.length;
    cards.forEach((c, i) => c.classList.toggle("focused", i === R.focusIndex));
    cards[R.focusIndex].focus();
    e.preventDefault();
  } else if (e.key === "Enter" && !(document.activeElement instanceof HTMLButtonElement &&
             !document.activeElement.classList.contains("card"))) {
    const code = cards[Math.min(R.focusIndex, cards.length - 1)].dataset.card ?? "";
    if (passingNow()) togglePass(code);
    else act(code);
    e.preventDefault();
  }
});

// ------------------------------------------------------------------ the page's controls

initPacing({ show: showEvent, redraw: () => { renderTrick(); renderStatus(); } });
initActions({ send: conn.send, rerender, quick: () => { if (S.view) renderTurn(); }, toast });
R.send = conn.send;
initHints({ rerender, toast });
initChat({ send: conn.send });
R.start = async () => {
  try { await postJson(`/tables/${S.tableId}/start`); } catch (e) { toast(e.message); }
};
$("rematch").addEventListener("click", () => rematch($("rematch", HTMLButtonElement)));
$("last-trick-btn").addEventListener("click", toggleLast);
for (const link of /** @type {NodeListOf<HTMLAnchorElement>} */ (document.querySelectorAll("header a.brand"))) {
  guardLeaving(link);
}

// Grace countdowns tick once a second.
setInterval(() => {
  if (S.view && S.presence.some((p) => p && p.grace_until && !p.connected)) renderSeats();
}, 1000);

languagePicker($("lang", HTMLSelectElement));
translatePage();
onLang(() => {
  conn.retranslate(); resetSeatsPanel(); rerender(); renderLog(); motionTip(); if (S.view) renderChat();
  announce("");  // the clocks' last announcement was in the other language
});
const motionBox = $("motion", HTMLInputElement);
function motionTip() {
  const label = motionBox.closest("label");
  if (label) label.title = t("table.animationsTip");
}
function showMotion() {
  motionBox.checked = motionOn();
  document.body.classList.toggle("still", !motionOn());  // no CSS transitions either
}
showMotion();
motionTip();
motionBox.addEventListener("change", () => {
  store(MOTION_KEY, motionBox.checked ? "on" : "off");
  if (!motionBox.checked) release();
  showMotion();
});
reducedMotion.addEventListener("change", showMotion);
initSeats({ tableId: S.tableId, toast, rerender });
soundToggle(document.querySelector(".bar"));
// The chart's threshold line, until the table's info says its resolved rules.
getJson("/api/presets").then((info) => {
  R.presetThreshold = (name) => info.presets.find((/** @type {{name: string, threshold?: number | null}} */ p) => p.name === name)?.threshold ?? null;
  rerender();
}).catch(() => {});
conn.connect();
