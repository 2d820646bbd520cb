// The table page: one WebSocket to the server, which sends states, numbered events and presence.
import { cardBack, cardLabel, cardSVG, setDeck, suitIcon } from "./cards.js";
import { totalsChart } from "./chart.js";
import {
  errorText, has, languagePicker, levelName, onLang, presetName, seatName, suitName,
  t, translatePage,
} from "./i18n.js";
import { renderReasons, renderSheet, resultText, seatMark, sideOf } from "./scoresheet.js";
import { bindPromptKeys, labelSeat, markHand, soundToggle, turnFeedback } from "./feedback.js";
import { showTableDealAnalysis } from "./analysis.js";
import { $, make } from "./dom.js";
import { getJson, postJson } from "./api.js";
import { initSeats, renderSeatsPanel, resetSeatsPanel, seatExtras, seatsPresence } from "./seats.js";
import { dealProof } from "./verify.js";

const tableId = location.pathname.split("/")[2];
let ws = null;
let lastSeq = 0;
let you = null;          // our seat; null: spectating
let table = null;
let view = null;
let summary = null;
let presence = [];       // by seat: {seat, name, kind, connected, grace_until, bot_playing}
let showLast = false;
let focusIndex = 0;
let retry = 500;
let connKey = "conn.connecting";
let presetThreshold = null;
let rematchUrl = null;     // set when someone asked for a rematch
let guide = null;          // the guided first deal's bubbles (guide.js) when the table info says guide
let hint = null;           // the last hint (POST /tables/{id}/hint), shown while its seq is on the page
let hintBusy = false;

const proof = dealProof($("deal-proof"), (obj) => send(obj), tableId);
const spectating = () => table !== null && (you === null || you === undefined);
// The words for a seat's points taken this deal, by the table's taken_unit (core/families.py: Family.taken_unit).
const TAKEN_KEYS = { penalty: "table.taken.penalty", points: "table.taken.points",
  cardPoints: "table.taken.cardPoints", side: "table.taken.side" };

function name(seat) {
  if (seat === you && !spectating()) return t("table.you");
  if (presence[seat]?.name) return seatName(presence[seat]);
  return view?.names?.[seat] ?? t("table.seatN", { n: seat + 1 });
}

// ------------------------------------------------------------------ connection

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/tables/${tableId}/ws`);
  const mine = ws;
  ws.onopen = () => { retry = 500; setConn("conn.connected"); send({ type: "hello", last_seq: lastSeq }); };
  ws.onmessage = (msg) => { if (mine === ws) onFrame(JSON.parse(msg.data)); };
  ws.onclose = (ev) => {
    if (mine !== ws) return;
    if (ev.code === 4401) { setConn("conn.notSeated"); return; }
    if (ev.code === 4404) { setConn("conn.noTable"); return; }
    setConn("conn.reconnecting");
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

function send(obj) { if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(obj)); }
function setConn(key) {
  connKey = key;
  $("conn").textContent = t(key);
  $("conn").dataset.state = key.slice(5);
}

function onFrame(f) {
  if (proof.onFrame(f)) return;
  if (f.type === "state") {
    generation += 1;           // what was waiting to be shown is out of date
    queue.length = 0;
    holding?.release();
    holding = null;
    lastSeq = f.seq; shownSeq = f.seq; you = f.you ?? null; table = f.table; view = f.view;
    summary = f.summary;
    if (f.presence) setPresence(f.presence);
    rebuildLog();
    render();
    markSeq();
  } else if (f.type === "event") {
    if (f.seq <= lastSeq) return;
    if (f.seq !== lastSeq + 1) { send({ type: "hello", last_seq: lastSeq }); return; }
    lastSeq = f.seq;
    markSeq();
    enqueue(f);
    return;  // the guide sees the event when it is shown
  } else if (f.type === "presence") {
    setPresence(f);
    if (view) render();
  } else if (f.type === "rematch") {
    rematchUrl = f.url;
    if (view) render();
  } else if (f.type === "error") {
    toast(errorText(f));
    if (f.rule === "stale-seq") send({ type: "hello", last_seq: lastSeq });
  }
  tellGuide(f);
}

/** The guided first deal's bubbles see each frame once it is on the page. */
function tellGuide(f) {
  if (table?.guide && !guide) {
    guide = import("./guide.js").then((m) => m.startGuide({ tableId }), () => null);
  }
  const now = { you, view, table };
  guide?.then((g) => g?.frame(f, now));
}

// ------------------------------------------------------------------ pacing
// Events are shown in the order they came, one after the other: a card flies from its
// seat to the trick, a finished trick is held (the server's trick pause, or the
// browser's own setting) and then swept to its winner.  Events that arrive meanwhile
// wait in the queue; when more than a trick's worth wait (a reconnect, a hidden tab)
// they are shown at once.  Without animations (the toggle, or prefers-reduced-motion) every
// event is shown as it comes.

const MOTION_KEY = "polignac-motion";   // "on" or "off" (the toggle)
const HOLD_KEY = "polignac-trick-hold";  // seconds, this browser's own hold
const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");
/** @type {object[]} event frames received and not yet shown, oldest first */
const queue = [];
let pumping = false;
let generation = 0;      // a state frame starts a new one: older waits are dropped
let shownSeq = 0;        // the last event on the page (lastSeq: the last received)
/** @type {{trick: {leader: number, winner: number, cards: string[], seats: number[]}, release: () => void, sweeping: boolean} | null} */
let holding = null;      // the finished trick held on the table (then swept away)
let swept = "";          // the key of the last trick swept to its winner
/** @type {Map<string, DOMRect> | null} */
let flyFrom = null;      // where new trick cards fly from (your hand's cards), for one render

/** Animations on: the page's toggle, else the system's reduced-motion wish. */
function motionOn() {
  const saved = stored(MOTION_KEY);
  if (saved === "on" || saved === "off") return saved === "on";
  return !reducedMotion.matches;
}

/** Seconds a finished trick stays: the browser's setting, else the server's pause. */
function holdSeconds() {
  const saved = Number.parseFloat(stored(HOLD_KEY) ?? "");
  if (Number.isFinite(saved)) return Math.min(Math.max(saved, 0), 60);
  const pause = table?.trick_pause;
  return typeof pause === "number" ? Math.min(Math.max(pause, 0), 60) : 1.5;
}

/** A remembered setting, or null (none, or storage blocked). */
function stored(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

function markSeq() {
  document.body.dataset.seq = String(lastSeq);
  document.body.dataset.shown = String(shownSeq);
}

/** More events wait than a trick has cards and more: show them at once. */
function farBehind(extra = 0) { return queue.length + extra > (view?.names?.length ?? 4) + 1; }

function enqueue(f) {
  queue.push(f);
  if (farBehind()) holding?.release();
  pump();
}

async function pump() {
  if (pumping) return;
  pumping = true;
  const gen = generation;
  try {
    while (queue.length && gen === generation) {
      const f = queue.shift();
      const animate = motionOn() && !farBehind(1) && !document.hidden;
      try {
        showEvent(f, animate);
      } catch (e) {  // one bad render must not stop the events after it
        console.error(e);
        continue;
      }
      const done = f.event?.kind === "act" ? f.event.trick : null;
      if (!done || !animate || !f.view) continue;
      const hold = holdSeconds();
      if (hold > 0) await holdTrick(done, hold);
      if (gen !== generation) break;
      // The guided deal's bubbles point at the trick: it stays until the next lead.
      const keep = Boolean(table?.guide);
      if (!keep && motionOn() && !farBehind() && !document.hidden) await sweep(done);
      if (gen !== generation) break;
      if (!keep) swept = trickKey(done.cards, done.winner);
      holding = null;
      if (view) { renderTrick(); renderStatus(); }
    }
  } finally {
    pumping = false;
    if (queue.length && gen !== generation) pump();
  }
}

/** Put event frame `f` on the page; `animate`: its card flies in. */
function showEvent(f, animate) {
  flyFrom = animate ? handRects() : null;
  if (f.summary) summary = f.summary;
  if (f.presence) setPresence(f.presence);
  if (f.view) view = f.view;
  shownSeq = f.seq;
  logEvent(f.event);
  if (f.view) render();
  flyFrom = null;
  markSeq();
  tellGuide(f);
}

/**
 * Hold the finished `trick` on the table for `seconds`, or until released.
 * @returns {Promise<void>}
 */
function holdTrick(trick, seconds) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, seconds * 1000);
    holding = { trick, sweeping: false, release: () => { clearTimeout(timer); resolve(); } };
    renderTrick();
    renderStatus();
  });
}

/** The cards of the finished trick slide to the winner's seat and fade. */
async function sweep(trick) {
  if (holding) holding.sweeping = true;
  $("trick").dataset.kind = "sweep";
  const target = seatNode(trick.winner);
  const nodes = [...document.querySelectorAll("#trick .played:not(.turnup)")];
  if (!target || !nodes.length) return;
  const to = centre(target.getBoundingClientRect());
  const moves = nodes.map((node) => {
    const from = centre(node.getBoundingClientRect());
    return node.animate([{ transform: "none", opacity: 1 },
      { transform: `translate(${to.x - from.x}px, ${to.y - from.y}px) scale(.4)`, opacity: 0 }],
    { duration: 420, easing: "ease-in", fill: "forwards" }).finished.catch(() => null);
  });
  await Promise.all(moves);
}

function centre(r) { return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; }
function seatNode(seat) { return document.querySelector(`#ring .seat[data-seat="${seat}"]`); }
function trickKey(cards, winner) { return `${cards.join(" ")}>${winner}`; }

/** Where each card of your hand is now (a card you play flies from there). */
function handRects() {
  const out = new Map();
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#hand .card"))) {
    out.set(node.dataset.card, node.getBoundingClientRect());
  }
  return out;
}

// ------------------------------------------------------------------ the deal's log
/** @type {(() => string)[]} the deal's lines, as functions of the language */
let logLines = [];

function playLine(seat, code) { return () => t("log.play", { name: name(seat), card: cardLabel(code) }); }
function callLine(seat, action) { return () => t("log.call", { name: name(seat), call: callLabel(action) }); }
function trickLine(seat) { return () => t("table.tookTrick", { name: name(seat) }); }
function dealLine(n, dealer) { return () => t("log.deal", { n, name: name(dealer) }); }

/** The log from the view alone (a page load or a reconnect): the plays of the deal. */
function rebuildLog() {
  logLines = [];
  const d = view?.deal;
  if (d) {
    logLines.push(dealLine(view.deal_number, view.dealer));
    if (d.contract && d.declarer !== null && d.declarer !== undefined) {
      const who = seatOfPlayer(d.declarer);
      logLines.push(() => t("table.declared", { name: name(who), contract: d.contract }));
    }
    const plays = (tr) => tr.cards.forEach((c, i) => {
      logLines.push(playLine(seatOfPlayer((tr.leader + i) % d.players), c));
    });
    for (const tr of d.tricks ?? []) { plays(tr); logLines.push(trickLine(seatOfPlayer(tr.winner))); }
    plays(d.trick);
  }
  renderLog();
}

/** One more line for the event just shown. */
function logEvent(ev) {
  if (!ev) return;
  if (ev.kind === "deal") {
    logLines = [dealLine(view?.deal_number ?? 1, ev.dealer)];
  } else if (ev.kind === "act" && ev.passing) {  // the Hearts family: a card chosen to pass
    const a = String(ev.action);
    logLines.push(a.length === 2
      ? () => t("log.passCard", { card: cardLabel(a) })  // only your own: you passed it
      : () => t("log.passHidden", { name: name(ev.seat) }));
  } else if (ev.kind === "act") {
    const a = String(ev.action);
    logLines.push(a.length === 2 ? playLine(ev.seat, a) : callLine(ev.seat, a));
    if (ev.trick) logLines.push(trickLine(ev.trick.winner));
    if (ev.deal_over) logLines.push(() => t("table.dealOver"));
  }
  logLines = logLines.slice(-80);
  renderLog();
}

function renderLog() {
  const list = $("log");
  list.replaceChildren(...logLines.map((line) => make("li", "", line())));
  list.scrollTop = list.scrollHeight;
}

function setPresence(p) {
  const seats = Array.isArray(p) ? p : p.seats ?? [];
  presence = [];
  for (const s of seats) presence[s.seat] = s;
  seatsPresence(p, { table, view });
}

/** What seats.js needs to draw its parts. */
function seatCtx() { return { table, view, presence, you, spectating: spectating() }; }

/** `key`'s text, or `english` when the translations do not have it yet. */
function tr(key, english) { return has(key) ? t(key) : english; }

function toast(text) {
  const box = $("toast");
  box.textContent = text; box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, 4000);
}

function act(action) {
  holding?.release();  // you act: the trick you were looking at can go
  send({ type: "act", action, seq: lastSeq });
}

// ------------------------------------------------------- passing (the Hearts family)

// The cards picked to pass, before the Pass button sends them (one act each: the
// first carries the sequence number, the others follow it in order on this socket,
// and nobody else can act in between: it stays this seat's turn).
let passPick = new Set();

/** view.deal.passing while it is this page's turn to choose cards to pass, else null. */
function passingNow() {
  const d = view?.deal;
  return d && d.phase === "pass" && d.legal && !spectating() ? d.passing : null;
}

/** How many cards this page still has to pass. */
function passLeft() {
  const p = passingNow();
  return p ? p.count - (p.given?.length ?? 0) : 0;
}

function togglePass(code) {
  if (passPick.has(code)) passPick.delete(code);
  else if (passPick.size < passLeft()) passPick.add(code);
  renderHand(); renderPrompt();
}

function sendPass() {
  const cards = [...passPick];
  if (cards.length !== passLeft()) return;
  passPick = new Set();
  holding?.release();
  cards.forEach((code, i) => send(i ? { type: "act", action: code }
    : { type: "act", action: code, seq: lastSeq }));
}

/** POST {} to `url` (the table's buttons): the answer, or an ApiError in the page language. */
function post(url) { return postJson(url); }

// ------------------------------------------------------------------ rendering

function sortHand(cards) {
  const suitOrder = "CDSH";
  const ranks = table.rank_order;
  return [...cards].sort((a, b) => suitOrder.indexOf(a[1]) - suitOrder.indexOf(b[1]) ||
    ranks.indexOf(a[0]) - ranks.indexOf(b[0]));
}

function render() {
  if (!view || !table) return;
  setDeck(table.suits);
  document.body.classList.toggle("spectator", spectating());
  $("spectating").hidden = !spectating();
  $("title").textContent = t("table.title", { preset: presetName(table.preset),
    n: view.deal ? view.deal_number : Math.max(view.deals.length, 1) });
  const rec = $("record");
  rec.href = `/tables/${tableId}/record.json`;
  rec.textContent = t(view.finished ? "table.record" : "table.recordPartial");
  rec.title = view.finished ? "" : t("table.recordPartialTip");
  $("replay").href = `/tables/${tableId}/replay`;
  $("result-replay").href = `/tables/${tableId}/replay`;
  $("hint").hidden = spectating();
  renderSeats(); renderTrick(); renderHand(); renderPrompt(); renderHint(); renderStatus();
  renderLastTrick(); renderScores(); renderSeatsPanel(seatCtx());
  markHand($("hand"), view.deal?.legal ?? []);  // feedback.js: access and the turn
  bindPromptKeys($("prompt"), $("hint"));
  turnFeedback(!!(view.deal?.legal && !spectating()), `${$("title").textContent} · Polignac`);
}

function seatOfPlayer(p) { return view.deal_seats ? view.deal_seats[p] : p; }
function playerOfSeat(s) { return view.deal_seats ? view.deal_seats.indexOf(s) : -1; }
function toActSeat() {
  const d = view.deal;
  return d && d.to_act !== null && d.to_act !== undefined ? seatOfPlayer(d.to_act) : null;
}

function countdown(until) {
  const left = Math.max(0, Math.ceil((until - Date.now()) / 1000));
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

function seatBox(seat) {
  const d = view.deal;
  const p = playerOfSeat(seat);
  const box = make("div", "seat");
  box.dataset.seat = seat;
  const turn = toActSeat() === seat;
  if (turn) box.classList.add("to-act");
  const kind = { ...table.seats[seat], ...(presence[seat] ?? {}) };
  const title = make("div", "seat-name");
  const label = make("span", "seat-label", name(seat));
  label.title = name(seat);
  title.append(label);
  const badge = (text, extra = "") => title.append(make("span", `badge ${extra}`, text));
  if (kind.kind === "bot") badge(t("table.bot", { level: levelName(kind.level) }), "bot");
  if (view.dealer === seat) badge(t("table.dealer"), "dealer");
  if (turn) badge(`▶ ${t("table.toPlay")}`, "turn");
  const mark = seatMark(seat, table.sides, spectating() ? null : you);  // partners: scoresheet.js
  if (mark) { box.classList.add(...mark.classes); badge(mark.label, "side-mark"); }
  const pr = presence[seat];
  if (pr && pr.kind === "human" && !pr.open) {
    if (!pr.connected) {
      box.classList.add("away");
      badge(t("table.disconnected"), "away");
      if (pr.grace_until && pr.grace_until > Date.now() && !pr.bot_playing) {
        badge(t("table.grace", { time: countdown(pr.grace_until) }), "grace");
      }
    }
    if (pr.bot_playing) badge(t("table.botPlaying", { name: name(seat) }), "botplay");
  }
  box.append(title);
  let tricks = d && p >= 0 ? d.tricks_won[p] : 0;
  // The points taken this deal, counted by the core (deal view's points_taken).
  let taken = d && p >= 0 && d.points_taken ? d.points_taken[p] : null;
  if (!d && view.last_deal && view.last_deal_seats) {  // between deals: the deal just over
    const q = view.last_deal_seats.indexOf(seat);
    tricks = q >= 0 ? view.last_deal.tricks_won[q] : 0;
    taken = q >= 0 && view.last_deal.points_taken ? view.last_deal.points_taken[q] : null;
  }
  const side = sideOf(table.sides, seat);
  let text = side >= 0 && view.parties_tally ?  // partnerships: the side's partie and parties
    t("table.sideTotal", { partie: view.partie[side], parties: view.parties_tally[side], tricks }) :
    t("table.total", { total: view.totals[seat], tricks });
  if (kind.open) text += ` · ${t("table.openSeat")}`;
  // Each part on one line; a narrow seat wraps between the parts.
  const info = make("div", "seat-info");
  info.append(...text.split(" · ").map((part) => make("span", "", part)));
  if (taken !== null) {
    const unit = TAKEN_KEYS[table.taken_unit] ?? "table.taken.points";
    const part = make("span", "taken", t(unit, { n: taken }));
    part.dataset.points = String(taken);
    part.title = t("table.taken.title");
    info.append(part);
  }
  if ((seat !== you || spectating()) && d && p >= 0) {
    const left = d.hand_sizes[p];
    const backs = make("span", "backs");
    backs.title = t("table.cardsLeft", { n: left });
    for (let i = 0; i < Math.min(left, 3); i++) backs.append(cardBack());
    backs.append(make("span", "backs-count", `×${left}`));
    info.append(backs);
  }
  box.append(info);
  box.append(...seatExtras(seat, seatCtx()));
  labelSeat(box, { name: name(seat), level: kind.kind === "bot" ? levelName(kind.level) : null,
    dealer: view.dealer === seat, cards: d && p >= 0 ? d.hand_sizes[p] : null, turn,
    away: !!(pr && pr.kind === "human" && !pr.open && !pr.connected) });
  return box;
}

/** The seat shown at the bottom of the table: yours, or the first for a spectator. */
function baseSeat() { return spectating() ? 0 : you; }

/**
 * Where `seat` sits around the oval: you at the bottom, the others clockwise from you
 * (the next one on your left), always in table order.  `inner` (0..1) moves the point
 * towards the centre: where the seat's card lies.  The result is the direction from the
 * centre; the CSS scales it to the oval of the table's box (style.css, `.ring`), so a
 * new screen size moves nobody out of order.
 */
function spot(seat, inner = 1) {
  const n = view.names.length;
  const k = (seat - baseSeat() + n) % n;
  const angle = (2 * Math.PI * k) / n;
  return { x: -inner * Math.sin(angle), y: inner * Math.cos(angle) };
}

/** How far in from its seat a played card lies: nearer the seats with few players. */
function cardRing() {
  const n = view.names.length;
  return n <= 3 ? 0.62 : n === 4 ? 0.5 : 0.56;  // three players: room for a turned-up trump
}

function place(node, at) {
  node.style.setProperty("--dx", at.x.toFixed(4));
  node.style.setProperty("--dy", at.y.toFixed(4));
}

function renderSeats() {
  const opp = $("opponents");
  opp.replaceChildren();
  const n = view.names.length;
  const base = baseSeat();
  $("ring").dataset.players = String(n);
  $("ring").style.setProperty("--players", String(n));
  for (let k = 1; k < n; k++) {
    const box = seatBox((base + k) % n);
    const at = spot((base + k) % n);
    place(box, at);
    box.dataset.side = at.y < -0.6 ? "top" : at.x < 0 ? "left" : "right";
    opp.append(box);
  }
  const mine = seatBox(base);
  place(mine, spot(base));
  mine.dataset.side = "bottom";
  $("me").replaceChildren(mine);
}

/** The last finished trick of the deal on view (or of the deal just over): match seats. */
function previousTrick() {
  let tricks = view.deal?.tricks, seats = view.deal_seats, players = view.deal?.players;
  if (!view.deal && view.last_deal) {
    tricks = view.last_deal.tricks; seats = view.last_deal_seats; players = view.last_deal.players;
  }
  if (!tricks || !tricks.length) return null;
  const tr = tricks.at(-1);
  const map = (p) => (seats ? seats[p] : p);
  return { cards: tr.cards, seats: tr.cards.map((_, i) => map((tr.leader + i) % players)),
    winner: map(tr.winner), number: tricks.length };
}

function trickCard(code, seat, winner) {
  const wrap = make("figure", "played" + (winner ? " winner" : ""));
  wrap.dataset.seat = seat;
  wrap.dataset.card = code;
  wrap.append(cardSVG(code));
  wrap.append(make("figcaption", "", (winner ? "★ " : "") + name(seat)));
  return wrap;
}

/** What the middle of the table shows: the held trick, the trick in play, the last one. */
function trickOnTable() {
  if (holding) {
    const tr = holding.trick;
    return { kind: holding.sweeping ? "sweep" : "done", cards: tr.cards, seats: tr.seats,
      winner: tr.winner };
  }
  const d = view.deal;
  if (d && d.trick.cards.length) {
    return { kind: "current", cards: d.trick.cards, winner: null,
      seats: d.trick.cards.map((_, i) => seatOfPlayer((d.trick.leader + i) % d.players)) };
  }
  const prev = previousTrick();
  if (prev && trickKey(prev.cards, prev.winner) !== swept) return { kind: "last", ...prev };
  return { kind: "empty", cards: [], seats: [], winner: null };
}

/**
 * Each card of the trick lies in front of the seat that played it.  Cards already on
 * the table stay (their animation goes on); a new card flies in from its seat, or
 * from your hand.
 */
function renderTrick() {
  const box = $("trick");
  const d = view.deal;
  const on = trickOnTable();
  const wanted = new Set(on.cards.map((code, i) => `${on.seats[i]}:${code}`));
  const keep = new Map();
  for (const node of /** @type {HTMLElement[]} */ ([...box.children])) {
    const key = `${node.dataset.seat}:${node.dataset.card}`;
    if (!node.classList.contains("turnup") && wanted.has(key)) keep.set(key, node);
    else node.remove();  // cards still on the table stay put, their animation goes on
  }
  const fresh = [];
  on.cards.forEach((code, i) => {
    const seat = on.seats[i];
    const winner = on.winner !== null && seat === on.winner;
    let node = keep.get(`${seat}:${code}`);
    if (node) {
      node.classList.toggle("winner", winner);
      node.querySelector("figcaption").textContent = (winner ? "★ " : "") + name(seat);
    } else {
      node = trickCard(code, seat, winner);
      fresh.push(node);
    }
    node.style.zIndex = String(i + 1);
    place(node, spot(seat, cardRing()));
    if (!node.isConnected) box.append(node);
  });
  box.dataset.kind = on.kind;
  if (flyFrom && motionOn()) for (const node of fresh) flyIn(node);
  if (d?.turn_up) {
    const up = make("figure", "played turnup");
    up.append(cardSVG(d.turn_up));
    const cap = make("figcaption", "", t("table.trump", { suit: "" }));
    cap.append(suitIcon(d.trump));
    up.append(cap);
    box.append(up);
  }
}

/** Animate a card that was just played from where it came: your hand, or its seat. */
function flyIn(node) {
  const seat = Number(node.dataset.seat);
  const mine = seat === you && !spectating() ? flyFrom?.get(node.dataset.card) : null;
  const from = mine ?? seatNode(seat)?.getBoundingClientRect();
  if (!from) return;
  const a = centre(from), b = centre(node.getBoundingClientRect());
  node.animate([
    { transform: `translate(${a.x - b.x}px, ${a.y - b.y}px) scale(${mine ? 1.1 : 0.5})`, opacity: 0.4 },
    { transform: "none", opacity: 1 }], { duration: 320, easing: "cubic-bezier(.2,.7,.3,1)" });
}

function renderLastTrick() {
  const box = $("last-trick");
  const btn = $("last-trick-btn");
  const prev = previousTrick();
  btn.disabled = !prev;
  btn.setAttribute("aria-expanded", String(showLast));
  box.hidden = !showLast;
  if (!showLast) return;
  box.replaceChildren();
  if (!prev) {
    box.append(make("p", "", t("table.noLastTrick")));
  } else {
    box.append(make("p", "last-trick-title", t("table.lastTrickTook", { name: name(prev.winner) })));
    const row = make("div", "trick");
    prev.cards.forEach((c, i) => row.append(trickCard(c, prev.seats[i], prev.seats[i] === prev.winner)));
    box.append(row);
  }
  const close = make("button", "small-button", t("table.close"));
  close.type = "button";
  close.addEventListener("click", () => { showLast = false; renderLastTrick(); });
  box.append(close);
}

function toggleLast() { showLast = !showLast; renderLastTrick(); }

function renderHand() {
  const hand = $("hand");
  hand.replaceChildren();
  const d = view.deal;
  if (spectating() || !d || !d.hand) return;
  const legal = new Set(d.legal ?? []);
  const choosing = passingNow();
  // Picks last until the passing is over: a render of an earlier event's view (a
  // catch-up still playing out after the page's turn came) must not drop them.
  if (d.phase !== "pass") passPick = new Set();
  else for (const code of passPick) if (!d.hand.includes(code)) passPick.delete(code);
  const cards = sortHand(d.hand);
  const buttons = [];
  hand.style.setProperty("--n", String(cards.length));
  for (const [i, code] of cards.entries()) {
    const b = make("button", "card");
    b.dataset.card = code;
    // The fan: each card tilted and lowered by its distance from the middle, less so
    // in a big hand, so that the whole hand stays a gentle arc.
    const off = i - (cards.length - 1) / 2;
    const tilt = Math.min(1.6, 14 / cards.length);
    b.style.setProperty("--rot", `${(off * tilt).toFixed(2)}deg`);
    b.style.setProperty("--drop", `${((off * tilt) ** 2 * 0.14).toFixed(1)}px`);
    b.setAttribute("aria-label", cardLabel(code));
    b.append(cardSVG(code));
    hintMark(b, code, cardLabel(code));
    if (legal.has(code) && choosing) {  // passing: a click picks the card, Pass sends them
      b.classList.add("legal");
      b.classList.toggle("picked", passPick.has(code));
      b.setAttribute("aria-pressed", String(passPick.has(code)));
      b.addEventListener("click", () => togglePass(code));
      buttons.push(b);
    } else if (legal.has(code)) {
      b.classList.add("legal");
      b.addEventListener("click", () => act(code));
      buttons.push(b);
    } else {
      b.classList.add("dimmed");
      b.tabIndex = -1;
    }
    hand.append(b);
  }
  focusIndex = Math.min(focusIndex, Math.max(buttons.length - 1, 0));
  if (buttons.length && !document.activeElement?.closest?.(".prompt")) {
    buttons[focusIndex].classList.add("focused");
  }
}

function legalCards() { return [...document.querySelectorAll("#hand .card.legal")]; }

document.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLSelectElement || e.target instanceof HTMLInputElement) return;
  if (e.key === "l" || e.key === "L") { toggleLast(); e.preventDefault(); return; }
  if ((e.key === "h" || e.key === "H") && !e.ctrlKey && !e.metaKey && !e.altKey) {
    if (hintAllowed()) { askHint(); e.preventDefault(); }
    return;
  }
  if (e.key === "Escape" && showLast) { showLast = false; renderLastTrick(); return; }
  const cards = legalCards();
  if (!cards.length) return;
  if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
    focusIndex = (focusIndex + (e.key === "ArrowRight" ? 1 : cards.length - 1)) % cards.length;
    cards.forEach((c, i) => c.classList.toggle("focused", i === focusIndex));
    cards[focusIndex].focus();
    e.preventDefault();
  } else if (e.key === "Enter" && !(document.activeElement instanceof HTMLButtonElement &&
             !document.activeElement.classList.contains("card"))) {
    const c = cards[Math.min(focusIndex, cards.length - 1)];
    if (passingNow()) togglePass(c.dataset.card);
    else act(c.dataset.card);
    e.preventDefault();
  }
});

// ------------------------------------------------------------------ hints

/** The Hint button is there on your turn, with a choice, at a table that allows hints. */
function hintAllowed() {
  return !!(table?.hints && !spectating() && (view?.deal?.legal?.length ?? 0) >= 2);
}

/** The hint for the position on the page (null: none, or it was for an earlier one). */
function shownHint() { return hint && hint.seq === shownSeq && view?.deal?.legal ? hint : null; }

function hintNumber(x) {
  return new Intl.NumberFormat(document.documentElement.lang || "en",
    { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(x);
}

/** Put the hint's badge on `node` (a card or a call button) for `action`: a star on the best,
 * "+cost" on the others; the label says it in words. */
function hintMark(node, action, label) {
  const h = shownHint();
  const entry = h?.actions.find((x) => x.action === action);
  if (!entry) return;
  const unit = t(`hint.unit.${h.unit}`);
  const words = entry.best ? t("hint.bestTip", { unit })
    : t("hint.costTip", { cost: hintNumber(entry.cost), unit });
  node.classList.add("hinted");
  node.classList.toggle("hint-best", entry.best);
  const badge = make("span", "hint-badge" + (entry.best ? " best" : ""),
    entry.best ? "★" : t("hint.cost", { cost: hintNumber(entry.cost) }));
  badge.setAttribute("aria-hidden", "true");
  node.append(badge);
  node.title = node.title ? `${words} · ${node.title}` : words;
  node.setAttribute("aria-label", `${label}, ${words}`);
}

function renderHint() {
  const btn = $("hint-btn");
  btn.hidden = !hintAllowed();
  btn.disabled = hintBusy;
  btn.textContent = t(hintBusy ? "hint.busy" : "hint.button");
  btn.title = t("hint.help");
  const note = $("hint-note");
  const h = shownHint();
  note.hidden = !h || btn.hidden;
  note.textContent = h ? t("hint.note", { n: h.samples, unit: t(`hint.unit.${h.unit}`) }) : "";
}

async function askHint() {
  if (!hintAllowed() || hintBusy) return;
  hintBusy = true;
  renderHint();
  try {
    hint = await post(`/tables/${tableId}/hint`);
  } catch (e) {
    toast(e.message);
  } finally {
    hintBusy = false;
  }
  render();
}
$("hint-btn").addEventListener("click", askHint);

function callLabel(a) {
  if (a.startsWith("announce:")) {
    let what = a.slice(9);
    if (what.startsWith("pollack-")) what = `Pollack ${suitName(what.slice(8), table.suits)}`;
    else what = t(`announce.${what}`);
    return t("call.announce", { what });
  }
  return has(`call.${a}`) ? t(`call.${a}`) : a;
}

function renderPrompt() {
  const box = $("prompt");
  box.replaceChildren();
  const d = view.deal;
  if (spectating() || !d || !d.legal) return;
  const choosing = passingNow();
  if (choosing) {  // the Hearts family: the Pass button under the picked cards
    const left = passLeft();
    const b = make("button", "call primary pass-cards",
      t("table.passButton", { n: left, name: name(seatOfPlayer(choosing.to)) }));
    b.dataset.action = "pass-cards";
    b.disabled = passPick.size !== left;
    b.addEventListener("click", sendPass);
    box.append(b);
    const ul = make("ul", "call-help");
    ul.append(make("li", "", t("table.passHelp", { n: left, picked: passPick.size })));
    box.append(ul);
    return;
  }
  const calls = d.legal.filter((x) => x.length !== 2);
  for (const a of calls) {
    const b = make("button", "call" + (a === "pass" ? "" : " primary"), callLabel(a));
    b.dataset.action = a;
    b.dataset.label = callLabel(a);  // the words, without a hint's badge (feedback.js)
    const help = callHelp(a);
    if (help) { b.title = help; b.setAttribute("aria-description", help); }
    hintMark(b, a, callLabel(a));
    b.addEventListener("click", () => act(a));
    box.append(b);
  }
  // What the calls mean, in words, under the buttons (the contract's points from the rules).
  const lines = [...new Set(calls.map(callHelp).filter(Boolean))];
  if (lines.length) {
    const ul = make("ul", "call-help");
    for (const line of lines) ul.append(make("li", "", line));
    box.append(ul);
  }
}

/** A sentence on what a call (declaration, pass, claim, announcement) does at this table. */
function callHelp(a) {
  const points = table.contract_points ?? 5;
  if (a === "pass") return t("callHelp.pass");
  if (a === "claim") return t("callHelp.claim");
  if (a.startsWith("announce:")) return t("callHelp.announce");
  const kind = table.declaration === "general-bonus" ? "general-bonus" : a;
  return has(`callHelp.${kind}`) ? t(`callHelp.${kind}`, { points }) : "";
}

function renderStatus() {
  const s = $("status");
  const d = view.deal;
  const prev = previousTrick();
  let text = "";
  const waiting = !d && !view.deals.length && table.status === "waiting";
  if (view.finished) text = t("table.over");
  else if (waiting) text = tr("table.waitingForPlayers", "Waiting for the players to take their seats…");
  else if (!d) text = t("table.dealOver");
  else if (passingNow()) {
    text = t("table.passChoose", { n: passLeft(), name: name(seatOfPlayer(d.passing.to)) });
  } else if (d.legal && !spectating()) {
    text = t(d.phase === "declare" ? "table.yourTurnDeclare" : "table.yourTurnPlay");
  } else if (toActSeat() !== null) text = t("table.waiting", { name: name(toActSeat()) });
  const got = d?.passing?.received ?? [];
  if (got.length && d.phase === "play" && !d.tricks.length && !spectating()) {
    text = `${t("table.passReceived", { name: name(seatOfPlayer(d.passing.from)),
      cards: got.map(cardLabel).join(", ") })} ${text}`;
  }
  if (prev && (!d || !d.trick.cards.length)) text = `${t("table.tookTrick", { name: name(prev.winner) })} ${text}`;
  if (d?.contract) text += ` ${t("table.declared", { name: name(seatOfPlayer(d.declarer)), contract: d.contract })}`;
  s.textContent = text;
  s.classList.toggle("my-turn", !!(d?.legal && !spectating()));
  if (waiting && you !== null && you === table.creator) {  // bots take the open seats
    const start = make("button", "start primary", tr("table.startNow", "Start now"));
    start.type = "button";
    start.addEventListener("click", async () => {
      try { await post(`/tables/${tableId}/start`); } catch (e) { toast(e.message); }
    });
    s.append(" ", start);
  }
}

// The analysis of a finished deal (analysis.js), asked for with a button under the deal's
// reasons; kept by deal number so that a redraw of the sheet does not lose it.
const dealAnalyses = new Map();

function attachDealAnalysis(deals) {
  const newest = deals.length ? deals[deals.length - 1].number : null;
  for (const det of $("lastdeal").querySelectorAll("details[data-deal]")) {
    const n = Number(det.dataset.deal);
    let box = dealAnalyses.get(n);
    if (!box && n === newest) {
      box = make("div", "deal-analysis");
      const run = make("button", "small-button", t("analysis.run"));
      run.type = "button";
      run.addEventListener("click", () => {
        showTableDealAnalysis(box, tableId, n, name, table.suits);
      });
      box.append(run);
      dealAnalyses.set(n, box);
    }
    if (box) det.append(box);
  }
}

function renderScores() {
  renderSheet($("scores"), view, name);  // the score sheet and the reasons: scoresheet.js
  const deals = summary?.deals ?? [];
  const chart = $("chart");
  chart.replaceChildren();
  if (deals.length) {
    chart.append(make("h3", "", t("table.chart")));
    const threshold = table.overrides?.threshold ?? presetThreshold;
    chart.append(totalsChart(view.names.map((_, s) => name(s)), deals,
      { threshold, title: t("table.chart") }));
  }

  renderReasons($("lastdeal"), deals, name, table.suits);
  attachDealAnalysis(deals);
  const res = $("result");
  if (view.finished) {
    res.hidden = false;
    $("result-text").textContent = resultText(view, name);
    $("rematch").hidden = spectating();
    $("rematch").textContent = t(rematchUrl ? "table.rematchJoin" : "table.rematch");
    const link = $("rematch-watch");
    link.hidden = !(rematchUrl && spectating());
    if (rematchUrl) link.href = rematchUrl;
  } else {
    res.hidden = true;
  }
}

$("rematch").addEventListener("click", async () => {
  $("rematch").disabled = true;
  try {
    const data = await post(`/tables/${tableId}/rematch`);
    location.href = data.url;
  } catch (e) {
    toast(t("table.rematchFailed", { msg: e.message }));
    $("rematch").disabled = false;
  }
});
$("last-trick-btn").addEventListener("click", toggleLast);

// Grace countdowns tick once a second.
setInterval(() => {
  if (view && presence.some((p) => p && p.grace_until && !p.connected)) renderSeats();
}, 1000);

languagePicker($("lang"));
translatePage();
onLang(() => { setConn(connKey); resetSeatsPanel(); render(); renderLog(); motionTip(); });
const motionBox = /** @type {HTMLInputElement} */ ($("motion"));
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
  try { localStorage.setItem(MOTION_KEY, motionBox.checked ? "on" : "off"); } catch { /* blocked */ }
  if (!motionBox.checked) holding?.release();
  showMotion();
});
reducedMotion.addEventListener("change", showMotion);
initSeats({ tableId, toast, rerender: () => { if (view) render(); } });
soundToggle(document.querySelector(".bar"));
getJson("/api/presets").then((info) => {
  const wait = () => {
    if (!table) { setTimeout(wait, 200); return; }
    presetThreshold = info.presets.find((p) => p.name === table.preset)?.threshold ?? null;
    render();
  };
  wait();
}).catch(() => {});
connect();
