// @ts-check
// Drawing the table page from its state: the seats around the oval felt, the trick in front
// of the seats that played it, your hand, the prompt and the status, the deal's log, the
// score sheet, the chart and the result.
import { cardBack, cardLabel, cardSVG, setDeck, suitIcon } from "./cards.js";
import { totalsChart } from "./chart.js";
import { lang, levelName, presetName, t } from "./i18n.js";
import { renderReasons, renderSheet, resultText, seatMark } from "./scoresheet.js";
import { renderFinal } from "./table-final.js";
import { bindPromptKeys, labelSeat, markHand, turnFeedback } from "./feedback.js";
import { $, make } from "./dom.js";
import { renderSeatsPanel, seatExtras } from "./seats.js";
import {
  S, myLegal, mySeatLeft, name, passLeft, passingNow, playerOfSeat, previousTrick, seatOfPlayer,
  sideOfSeat, spectating, toActSeat,
} from "./table-state.js";
import { C, clockNode, leftNote, leftWord } from "./table-clocks.js";
import { controlLabel } from "./timecontrol.js";
import { ratingChange } from "./table-final.js";
import { P, centre, motionOn, seatNode, trickKey } from "./pacing.js";
import { attachDealAnalysis, hintMark, renderHint } from "./table-hints.js";
import {
  act, claimPlausible, claimTarget, keepPicks, passPick, pendingText, sendPass, sideCount, togglePass,
} from "./table-actions.js";
import { actionLabel, callHelp } from "./table-words.js";
import { tookTrick } from "./labels.js";
import { redrawBubbles } from "./table-chat.js";

// The words for a seat's points taken this deal, by the table's taken_unit (core/families.py: Family.taken_unit).
const TAKEN_KEYS = { penalty: "table.taken.penalty", points: "table.taken.points",
  cardPoints: "table.taken.cardPoints", side: "table.taken.side" };

/** What the render needs from the rest of the page. */
export const R = {
  showLast: false,
  focusIndex: 0,
  /** @type {(preset: string) => number | null} a preset's threshold, for the chart */
  presetThreshold: (preset) => null,
  /** @type {Map<string, DOMRect> | null} where new trick cards fly from (your hand), for one render */
  flyFrom: null,
  /** @type {(seat: number) => void} */
  start: () => {},
  /** @type {(frame: {type: "back"}) => void} sends a frame to the table */
  send: () => {},
};

/** Draw everything. */
export function render() {
  const { view, table } = S;
  if (!view || !table) return;
  setDeck(table.suits);
  document.body.classList.toggle("spectator", spectating());
  $("spectating").hidden = !spectating();
  $("title").textContent = t("table.title", { preset: presetName(table.preset),
    n: view.deal ? view.deal_number : Math.max(view.deals.length, 1) });
  const rec = $("record", HTMLAnchorElement);
  rec.href = `/tables/${S.tableId}/record.json`;
  rec.textContent = t(view.finished ? "table.record" : "table.recordPartial");
  rec.title = view.finished ? "" : t("table.recordPartialTip");
  $("replay", HTMLAnchorElement).href = `/tables/${S.tableId}/replay`;
  $("result-replay", HTMLAnchorElement).href = `/tables/${S.tableId}/replay`;
  $("hint").hidden = spectating();
  renderTableKind();
  renderSeats(); renderTrick();
  renderTurn();
  renderLastTrick(); renderScores(); renderSeatsPanel(seatCtx());
}

/** Draw only what your own action changes: the hand, the prompt, the hint and the status
 * (a click shows its card leaving at once; the rest waits for the server's event). */
export function renderTurn() {
  if (!S.view || !S.table) return;
  renderHand(); renderPrompt(); renderHint(); renderStatus();
  markHand($("hand"), myLegal());  // feedback.js: access and the turn
  bindPromptKeys($("prompt"), $("hint"));
  turnFeedback(myLegal().length > 0, `${$("title").textContent} · Polignac`);
}

/** Beside the game's name: "Rated", and the time control's label ("3+2", "30 s/move"). */
function renderTableKind() {
  const table = /** @type {import("./protocol.js").TableInfo} */ (S.table);
  const rated = $("rated");
  rated.hidden = !table.rated;
  rated.title = t("seek.rated");
  const tc = $("time-control");
  const control = table.time_control ?? C.clocks?.control ?? null;
  document.body.classList.toggle("timed", !!C.clocks);
  tc.hidden = !control;
  if (control) {
    const { label, title } = controlLabel(control);
    tc.replaceChildren(clockIcon(), label);
    tc.title = title;
    tc.setAttribute("aria-label", title);
  }
}

/** A small clock drawn in the text's colour (no font has to know a clock sign). */
function clockIcon() {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("class", "clock-svg");
  svg.setAttribute("aria-hidden", "true");
  const face = document.createElementNS(ns, "circle");
  Object.entries({ cx: 8, cy: 8, r: 6.5, fill: "none", stroke: "currentColor", "stroke-width": 1.6 })
    .forEach(([k, v]) => face.setAttribute(k, String(v)));
  const hands = document.createElementNS(ns, "path");
  Object.entries({ d: "M8 4v4l2.8 1.8", fill: "none", stroke: "currentColor", "stroke-width": 1.6,
    "stroke-linecap": "round" }).forEach(([k, v]) => hands.setAttribute(k, String(v)));
  svg.append(face, hands);
  return svg;
}

/** Your seat, when a bot plays it since your time ran out or you left: what it means, and
 * at a casual table the button that takes it back (drawn again only when it changes). */
let leftDrawn = "";
function renderLeftNote() {
  const box = $("left-note");
  const pr = S.you !== null ? S.presence[S.you] : undefined;
  const key = mySeatLeft() && !S.view?.finished
    ? JSON.stringify([t("clock.back"), pr?.may_come_back, pr?.connected, S.table?.rated]) : "";
  if (key === leftDrawn) return;
  leftDrawn = key;
  const note = key ? leftNote(R.send) : null;
  box.hidden = !note;
  box.replaceChildren(...(note ? [note] : []));
}

/** What seats.js needs to draw its parts. */
export function seatCtx() {
  return { table: S.table, view: S.view, presence: S.presence, you: S.you, spectating: spectating() };
}

// ------------------------------------------------------------------ the seats

/** The time left until `until` (epoch milliseconds), m:ss. @param {number} until */
function countdown(until) {
  const left = Math.max(0, Math.ceil((until - Date.now()) / 1000));
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

/** @param {number} seat */
function seatBox(seat) {
  const view = /** @type {import("./protocol.js").MatchView} */ (S.view);
  const table = /** @type {import("./protocol.js").TableInfo} */ (S.table);
  const d = view.deal;
  const p = playerOfSeat(seat);
  const box = make("div", "seat");
  box.dataset.seat = String(seat);
  const turn = toActSeat() === seat;
  if (turn) box.classList.add("to-act");
  const kind = { ...table.seats[seat], ...(S.presence[seat] ?? {}) };
  const title = make("div", "seat-name");
  const label = make("span", "seat-label", name(seat));
  label.title = name(seat);
  title.append(label);
  // A timed table: the clock beside the name; the running one (gold, ▶) is the seat to act.
  const clock = clockNode(seat);
  if (clock) title.append(clock);
  const badge = (/** @type {string} */ text, extra = "") => title.append(make("span", `badge ${extra}`, text));
  if (kind.kind === "bot") badge(t("table.bot", { level: levelName(kind.level ?? "") }), "bot");
  if (view.dealer === seat) badge(t("table.dealer"), "dealer");
  const clockShowsTurn = C.clocks?.running === seat || !!S.presence[seat]?.left;
  if (turn && !clockShowsTurn) badge(`▶ ${t("table.toPlay")}`, "turn");
  const mark = seatMark(seat, table.sides, spectating() ? null : S.you);  // partners: scoresheet.js
  if (mark) { box.classList.add(...mark.classes); badge(mark.label, "side-mark"); }
  const pr = S.presence[seat];
  if (pr?.left && !C.clocks) badge(leftWord(seat), "left");  // a timed table says it on the clock
  if (pr && pr.kind === "human" && !pr.open) {
    if (!pr.connected) {
      box.classList.add("away");
      badge(t("table.disconnected"), "away");
      if (pr.grace_until && pr.grace_until > Date.now() && !pr.bot_playing) {
        badge(t("table.grace", { time: countdown(pr.grace_until) }), "grace");
      }
    }
    if (pr.bot_playing && !pr.left) badge(t("table.botPlaying", { name: name(seat) }), "botplay");
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
  const side = sideOfSeat(seat);
  let text = side >= 0 && view.parties_tally && view.partie ?  // partnerships: the side's partie and parties
    t("table.sideTotal", { partie: view.partie[side], parties: view.parties_tally[side], tricks }) :
    t("table.total", { total: view.totals[seat], tricks });
  if (kind.open) text += ` · ${t("table.openSeat")}`;
  // Each part on one line; a narrow seat wraps between the parts.
  const info = make("div", "seat-info");
  info.append(...text.split(" · ").map((/** @type {string} */ part) => make("span", "", part)));
  if (taken !== null) {
    const unit = TAKEN_KEYS[table.taken_unit] ?? "table.taken.points";
    const part = make("span", "taken", t(unit, { n: taken }));
    part.dataset.points = String(taken);
    part.title = t("table.taken.title");
    info.append(part);
  }
  if ((seat !== S.you || spectating()) && d && p >= 0) {
    const left = d.hand_sizes[p];
    const backs = make("span", "backs");
    backs.title = t("table.cardsLeft", { n: left });
    for (let i = 0; i < Math.min(left, 3); i++) backs.append(cardBack());
    backs.append(make("span", "backs-count", `×${left}`));
    info.append(backs);
  }
  box.append(info);
  box.append(...seatExtras(seat, seatCtx()));
  labelSeat(box, { name: name(seat), level: kind.kind === "bot" ? levelName(kind.level ?? "") : null,
    dealer: view.dealer === seat, cards: d && p >= 0 ? d.hand_sizes[p] : null, turn,
    away: !!(pr && pr.kind === "human" && !pr.open && !pr.connected) });
  return box;
}

/** The seat shown at the bottom of the table: yours, or the first for a spectator. */
function baseSeat() { return spectating() ? 0 : /** @type {number} */ (S.you); }

/**
 * Where `seat` sits around the oval: you at the bottom, the others clockwise from you
 * (the next one on your left), always in table order.  `inner` (0..1) moves the point
 * towards the centre: where the seat's card lies.  The result is the direction from the
 * centre; the CSS scales it to the oval of the table's box (style.css, `.ring`), so a
 * new screen size moves nobody out of order.
 * @param {number} seat @param {number} [inner]
 */
function spot(seat, inner = 1) {
  const n = S.view?.names.length ?? 4;
  const k = (seat - baseSeat() + n) % n;
  const angle = (2 * Math.PI * k) / n;
  return { x: -inner * Math.sin(angle), y: inner * Math.cos(angle) };
}

/** How far in from its seat a played card lies: nearer the seats with few players. */
function cardRing() {
  const n = S.view?.names.length ?? 4;
  // three players: room for a turned-up trump; seven and more: clear of the seats' boxes
  return n <= 3 ? 0.62 : n === 4 ? 0.5 : n <= 6 ? 0.56 : 0.46;
}

/** @param {HTMLElement} node @param {{x: number, y: number}} at */
function place(node, at) {
  node.style.setProperty("--dx", at.x.toFixed(4));
  node.style.setProperty("--dy", at.y.toFixed(4));
}

export function renderSeats() {
  const opp = $("opponents");
  opp.replaceChildren();
  const n = S.view?.names.length ?? 0;
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
  redrawBubbles();
}

// ------------------------------------------------------------------ the trick

/** @param {string} code @param {number} seat @param {boolean} winner */
function trickCard(code, seat, winner) {
  const wrap = make("figure", "played" + (winner ? " winner" : ""));
  wrap.dataset.seat = String(seat);
  wrap.dataset.card = code;
  wrap.append(cardSVG(code));
  wrap.append(make("figcaption", "", (winner ? "★ " : "") + name(seat)));
  return wrap;
}

/** What the middle of the table shows: the held trick, the trick in play, the last one. */
function trickOnTable() {
  if (P.holding) {
    const tr = P.holding.trick;
    return { kind: P.holding.sweeping ? "sweep" : "done", cards: tr.cards, seats: tr.seats,
      winner: tr.winner };
  }
  const d = S.view?.deal;
  const cards = d ? [...d.trick.cards] : [];
  const seats = d ? cards.map((_, i) => seatOfPlayer((d.trick.leader + i) % d.players)) : [];
  const mine = S.pending?.action;
  if (d && mine && mine.length === 2 && d.phase === "play" && S.you !== null) {  // on its way
    cards.push(mine); seats.push(S.you);
  }
  if (cards.length) return { kind: "current", cards, seats, winner: null };
  const prev = previousTrick();
  if (prev && trickKey(prev.cards, prev.winner) !== P.swept) return { kind: "last", ...prev };
  return { kind: "empty", cards: [], seats: [], winner: null };
}

/**
 * Each card of the trick lies in front of the seat that played it.  Cards already on
 * the table stay (their animation goes on); a new card flies in from its seat, or
 * from your hand.
 */
export function renderTrick() {
  const box = $("trick");
  const d = S.view?.deal;
  const on = trickOnTable();
  const wanted = new Set(on.cards.map((code, i) => `${on.seats[i]}:${code}`));
  const keep = new Map();
  for (const node of /** @type {HTMLElement[]} */ ([...box.children])) {
    const key = `${node.dataset.seat}:${node.dataset.card}`;
    if (!node.classList.contains("turnup") && wanted.has(key)) keep.set(key, node);
    else node.remove();  // cards still on the table stay put, their animation goes on
  }
  /** @type {HTMLElement[]} */
  const fresh = [];
  on.cards.forEach((code, i) => {
    const seat = on.seats[i];
    const winner = on.winner !== null && seat === on.winner;
    let node = keep.get(`${seat}:${code}`);
    if (node) {
      node.classList.toggle("winner", winner);
      node.querySelector("figcaption").textContent = (winner ? "★ " : "") + name(seat);
      const svg = node.querySelector(".card-svg");  // a card kept across a change of language
      const label = cardLabel(code);
      if (svg && svg.getAttribute("aria-label") !== label) svg.setAttribute("aria-label", label);
    } else {
      node = trickCard(code, seat, winner);
      fresh.push(node);
    }
    node.classList.toggle("pending", S.pending?.action === code && seat === S.you);
    node.style.zIndex = String(i + 1);
    place(node, spot(seat, cardRing()));  // style.css may draw it nearer (--card-in)
    if (!node.isConnected) box.append(node);
  });
  box.dataset.kind = on.kind;
  if (motionOn()) for (const node of fresh) flyIn(node);
  if (d?.turn_up) {
    const up = make("figure", "played turnup");
    up.append(cardSVG(d.turn_up));
    const cap = make("figcaption", "", t("table.trump", { suit: "" }));
    if (d.trump) cap.append(suitIcon(d.trump));
    up.append(cap);
    box.append(up);
  }
}

/** Animate a card that was just played from where it came: your hand, or its seat.
 * @param {HTMLElement} node */
function flyIn(node) {
  const seat = Number(node.dataset.seat);
  const mine = seat === S.you && !spectating() ? R.flyFrom?.get(node.dataset.card ?? "") : null;
  if (!R.flyFrom && !mine) return;
  const from = mine ?? seatNode(seat)?.getBoundingClientRect();
  if (!from) return;
  const a = centre(from), b = centre(node.getBoundingClientRect());
  node.animate([
    { transform: `translate(${a.x - b.x}px, ${a.y - b.y}px) scale(${mine ? 1.1 : 0.5})`, opacity: 0.4 },
    { transform: "none", opacity: 1 }], { duration: 320, easing: "cubic-bezier(.2,.7,.3,1)" });
}

/** Where each card of your hand is now (a card you play flies from there). */
export function handRects() {
  const out = new Map();
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#hand .card"))) {
    out.set(node.dataset.card, node.getBoundingClientRect());
  }
  return out;
}

export function renderLastTrick() {
  const box = $("last-trick");
  const btn = $("last-trick-btn", HTMLButtonElement);
  const prev = previousTrick();
  btn.disabled = !prev;
  btn.setAttribute("aria-expanded", String(R.showLast));
  box.hidden = !R.showLast;
  if (!R.showLast) return;
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
  close.addEventListener("click", () => { R.showLast = false; renderLastTrick(); });
  box.append(close);
}

export function toggleLast() { R.showLast = !R.showLast; renderLastTrick(); }

// ------------------------------------------------------------------ your hand

/** @param {string[]} cards */
function sortHand(cards) {
  const suitOrder = "CDSH";
  const ranks = S.table?.rank_order ?? "";
  return [...cards].sort((a, b) => suitOrder.indexOf(a[1]) - suitOrder.indexOf(b[1]) ||
    ranks.indexOf(a[0]) - ranks.indexOf(b[0]));
}

export function renderHand() {
  const hand = $("hand");
  hand.replaceChildren();
  const d = S.view?.deal;
  if (spectating() || !d || !d.hand) return;
  const legal = new Set(myLegal());
  const choosing = passingNow();
  // Picks last until the passing is over: a render of an earlier event's view (a
  // catch-up still playing out after the page's turn came) must not drop them.
  keepPicks(d.phase === "pass" ? d.hand : null);
  const cards = sortHand(d.hand.filter((c) => c !== S.pending?.action));  // yours on its way
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
  R.focusIndex = Math.min(R.focusIndex, Math.max(buttons.length - 1, 0));
  if (buttons.length && !document.activeElement?.closest?.(".prompt")) {
    buttons[R.focusIndex].classList.add("focused");
  }
}

// ------------------------------------------------------------------ the prompt and the status

export function renderPrompt() {
  const box = $("prompt");
  box.replaceChildren();
  const d = S.view?.deal;
  if (spectating() || !d || !myLegal().length) return;
  const choosing = passingNow();
  if (choosing) {  // the Hearts family: the Pass button under the picked cards
    const left = passLeft();
    const b = make("button", "call primary pass-cards",
      t("table.passButton", { n: left, name: name(seatOfPlayer(/** @type {number} */ (choosing.to))) }));
    b.dataset.action = "pass-cards";
    b.disabled = passPick.size !== left;
    b.addEventListener("click", sendPass);
    box.append(b);
    const ul = make("ul", "call-help");
    ul.append(make("li", "", t("table.passHelp", { n: left, picked: passPick.size })));
    box.append(ul);
    return;
  }
  const calls = myLegal().filter((x) => x.length !== 2);
  for (const a of calls) {
    // A claim is prominent only when the side's count reaches the target; otherwise it is
    // a small button, and in either case it asks first (table-actions.js).
    const quiet = a === "pass" || (a === "claim" && !claimPlausible());
    const b = make("button", "call" + (quiet ? "" : " primary") + (a === "claim" ? " claim" : ""),
      actionLabel(a));
    if (a === "claim") {  // what the quiet or prominent claim was decided on (the tests read it)
      if (quiet) b.classList.add("small-button");
      b.dataset.count = String(sideCount() ?? "");
      b.dataset.target = String(claimTarget() ?? "");
    }
    b.dataset.action = a;
    b.dataset.label = actionLabel(a);  // the words, without a hint's badge (feedback.js)
    const help = callHelp(a);
    if (help) { b.title = help; b.setAttribute("aria-description", help); }
    hintMark(b, a, actionLabel(a));
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

export function renderStatus() {
  const view = S.view, table = S.table;
  if (!view || !table) return;
  const s = $("status");
  const d = view.deal;
  const prev = previousTrick();
  let text = "";
  const waiting = !d && !view.deals.length && table.status === "waiting";
  renderLeftNote();
  if (view.finished) text = t("table.over");
  else if (d && mySeatLeft() && toActSeat() === S.you) text = t("clock.botForYou");
  else if (waiting) text = t("table.waitingForPlayers");
  else if (!d) text = t("table.dealOver");
  else if (S.pending) text = pendingText();
  else if (passingNow() && d.passing) {
    text = t("table.passChoose", { n: passLeft(), name: name(seatOfPlayer(/** @type {number} */ (d.passing.to))) });
  } else if (d.legal && !spectating()) {
    text = t(d.phase === "declare" ? "table.yourTurnDeclare" : "table.yourTurnPlay");
  } else {
    const who = toActSeat();
    if (who !== null) text = t("table.waiting", { name: name(who) });
  }
  const got = d?.passing?.received ?? [];
  if (d && d.passing && got.length && d.phase === "play" && !d.tricks.length && !spectating()) {
    text = `${t("table.passReceived", { name: name(seatOfPlayer(/** @type {number} */ (d.passing.from))),
      cards: got.map((c) => cardLabel(c)).join(", ") })} ${text}`;
  }
  if (prev && (!d || !d.trick.cards.length) && !S.pending) {
    text = `${tookTrick(name(prev.winner), prev.winner === S.you && !spectating())} ${text}`;
  }
  if (d?.contract && d.declarer !== null) {
    text += ` ${t("table.declared", { name: name(seatOfPlayer(d.declarer)), contract: d.contract })}`;
  }
  s.textContent = text;
  s.classList.toggle("my-turn", myLegal().length > 0);
  s.classList.toggle("pending", !!S.pending);
  if (waiting && S.you !== null && S.you === table.creator) {  // bots take the open seats
    const start = make("button", "start primary", t("table.startNow"));
    start.type = "button";
    start.addEventListener("click", () => R.start(0));
    s.append(" ", start);
  }
}

// ------------------------------------------------------------------ the deal's log
/** @type {(() => string)[]} the deal's lines, as functions of the language */
let logLines = [];

/** @param {number} seat @param {string} code */
function playLine(seat, code) { return () => t("log.play", { name: name(seat), card: cardLabel(code) }); }
/** @param {number} seat @param {string} action */
function callLine(seat, action) { return () => t("log.call", { name: name(seat), call: actionLabel(action) }); }
/** @param {number} seat */
function trickLine(seat) { return () => tookTrick(name(seat), seat === S.you && !spectating()); }
/** @param {number} n @param {number} dealer */
function dealLine(n, dealer) { return () => t("log.deal", { n, name: name(dealer) }); }

/** The log from the view alone (a page load or a reconnect): the plays of the deal. */
export function rebuildLog() {
  logLines = [];
  const view = S.view;
  const d = view?.deal;
  if (view && d) {
    logLines.push(dealLine(view.deal_number, /** @type {number} a deal on: its dealer */ (view.dealer)));
    if (d.contract && d.declarer !== null && d.declarer !== undefined) {
      const who = seatOfPlayer(d.declarer);
      logLines.push(() => t("table.declared", { name: name(who), contract: d.contract }));
    }
    const plays = (/** @type {{leader: number, cards: string[]}} */ tr) => tr.cards.forEach((c, i) => {
      logLines.push(playLine(seatOfPlayer((tr.leader + i) % d.players), c));
    });
    for (const tr of d.tricks ?? []) { plays(tr); logLines.push(trickLine(seatOfPlayer(tr.winner))); }
    plays(d.trick);
  }
  renderLog();
}

/**
 * One more line for the event just shown.
 * @param {import("./protocol.js").TableEvent} ev
 */
export function logEvent(ev) {
  if (!ev) return;
  if (ev.kind === "deal") {
    logLines = [dealLine(S.view?.deal_number ?? 1, ev.dealer)];
  } else if (ev.kind === "act" && ev.passing) {  // the Hearts family: a card chosen to pass
    const a = String(ev.action);
    logLines.push(a.length === 2
      ? () => t("log.passCard", { card: cardLabel(a) })  // only your own: you passed it
      : () => t("log.passHidden", { name: name(ev.seat) }));
  } else if (ev.kind === "act") {
    const a = String(ev.action);
    logLines.push(a.length === 2 ? playLine(ev.seat, a) : callLine(ev.seat, a));
    const done = ev.trick;
    if (done) logLines.push(trickLine(done.winner));
    if (ev.deal_over) logLines.push(ev.match_over ? () => t("table.over") : () => t("table.dealOver"));
  }
  logLines = logLines.slice(-80);
  renderLog();
}

export function renderLog() {
  const list = $("log");
  list.replaceChildren(...logLines.map((line) => make("li", "", line())));
  list.scrollTop = list.scrollHeight;
}

// ------------------------------------------------------------------ scores and the result

/** What the score sheet, the chart, the reasons and the result are drawn from: they are
 * drawn again only when it changes (not at every card played). */
let scoresDrawn = "";

export function renderScores() {
  const view = S.view, table = S.table;
  if (!view || !table) return;
  const key = JSON.stringify([lang, view.deals.length, view.finished, view.totals, view.names,
    view.parties_tally, view.places, S.summary?.deals?.length ?? 0, S.rematchUrl, spectating(),
    S.you, table.suits, table.preset, S.ratings, S.presence.map((p) => !!p?.left)]);
  if (key === scoresDrawn) return;
  scoresDrawn = key;
  renderSheet($("scores"), view, name);  // the score sheet and the reasons: scoresheet.js
  const deals = S.summary?.deals ?? [];
  const chart = $("chart");
  chart.replaceChildren();
  if (deals.length) {
    chart.append(make("h3", "", t("table.chart")));
    const given = table.overrides?.threshold ?? table.rules?.threshold;
    const threshold = typeof given === "number" ? given : R.presetThreshold(table.preset);
    chart.append(totalsChart(view.names.map((_, s) => name(s)), deals,
      { threshold, title: t("table.chart") }));
  }
  renderReasons($("lastdeal"), deals, name, table.suits);
  attachDealAnalysis($("lastdeal"), deals);
  renderFinal();
  const res = $("result");
  if (view.finished) {
    res.hidden = false;
    $("result-text").textContent = resultText(view, name);
    const mine = S.ratings?.seats.find((r) => r.seat === S.you && !spectating());
    $("result-rating").hidden = !mine;
    $("result-rating").textContent = mine ? t("table.ratingYours", { change: ratingChange(mine) }) : "";
    $("rematch").hidden = spectating();
    $("rematch").textContent = t(S.rematchUrl ? "table.rematchJoin" : "table.rematch");
    const link = $("rematch-watch", HTMLAnchorElement);
    link.hidden = !(S.rematchUrl && spectating());
    if (S.rematchUrl) link.href = S.rematchUrl;
  } else {
    res.hidden = true;
  }
}
