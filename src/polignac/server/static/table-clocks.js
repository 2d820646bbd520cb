// @ts-check
// A timed table's clocks (docs/server.md: the `clocks` of the state and presence frames):
// each seat's time on its box, the running one counted down here from its deadline (on the
// server's time: the frame's `now` gives the offset), marked when low; "Out of time" or
// "Left" for a seat a bot plays since; the time control's label beside the game's name; and
// one polite announcement when your time runs low or a seat runs out, never every second.
import { t } from "./i18n.js";
import { DAY, formatClock, lowAt } from "./timecontrol.js";
import { make } from "./dom.js";
import { S, name, spectating } from "./table-state.js";

/** @typedef {import("./protocol.js").Clocks} Clocks */

export const C = {
  /** @type {Clocks | null} the last clocks the server sent (null: an untimed table) */
  clocks: null,
  /** the server's time minus this browser's, in seconds, when they came */
  offset: 0,
  /** @type {number | null} the running seat whose low time was announced */
  warned: null,
  /** @type {Set<number> | null} the seats left when last seen (null: none seen yet) */
  leftSeen: null,
};

let ticker = 0;

/**
 * The clocks of a state or presence frame (`undefined`: the frame does not say).
 * @param {Clocks | null | undefined} clocks
 */
export function setClocks(clocks) {
  if (clocks === undefined) return;
  C.clocks = clocks;
  if (clocks) C.offset = clocks.now - Date.now() / 1000;
  if (!clocks || clocks.running !== C.warned) C.warned = null;
  clearInterval(ticker);
  ticker = 0;
  // A tenth of a second: a clock under ten seconds shows its tenths.
  if (clocks && clocks.running !== null && clocks.deadline !== null) ticker = setInterval(tick, 100);
}

/** The server's time now, as this browser reckons it (epoch seconds). */
function serverNow() { return Date.now() / 1000 + C.offset; }

/** Seconds `seat` has left now (null: an untimed table); with a time a move, a seat
 * waiting for its turn shows the time it will get.
 * @param {number} seat @returns {number | null} */
export function secondsLeft(seat) {
  const c = C.clocks;
  if (!c) return null;
  if (c.running === seat && c.deadline !== null) return Math.max(0, c.deadline - serverNow());
  if (c.control.kind === "move") return c.control.seconds;
  if (c.control.kind === "days") return c.control.days * DAY;
  return c.remaining[seat] ?? 0;
}

/** Whether `seat`'s person ran out of time (rather than left): still here, clock at zero.
 * @param {number} seat */
function ranOut(seat) {
  const pr = S.presence[seat];
  return !!(C.clocks && pr?.connected && (C.clocks.flagged ?? []).includes(seat));
}

/** "Out of time" or "Left", for a seat a bot plays since its person ran out or left.
 * @param {number} seat */
export function leftWord(seat) { return t(ranOut(seat) ? "clock.outOfTime" : "clock.left"); }

/**
 * The clock of `seat` for its box (null at an untimed table, and for a seat without a
 * person's clock: bots move on nobody's time, but their clocks show as they stand).
 * Its text is the time, or "Out of time" / "Left"; `role="timer"` is no live region:
 * it is read when visited, and the page's one note says what is urgent.
 * @param {number} seat
 */
export function clockNode(seat) {
  if (!C.clocks) return null;
  const node = make("div", "seat-clock");
  node.dataset.seat = String(seat);
  node.setAttribute("role", "timer");
  node.append(make("span", "clock-icon"), make("span", "clock-time"), make("span", "sr-only"));
  node.children[0].setAttribute("aria-hidden", "true");
  fill(node, seat);
  return node;
}

/** Draw `node`, the clock of `seat`, as it stands now. @param {HTMLElement} node @param {number} seat */
function fill(node, seat) {
  const c = C.clocks;
  if (!c) return;
  const left = !!S.presence[seat]?.left;
  const running = c.running === seat && !left;
  const secs = /** @type {number} */ (secondsLeft(seat));
  const low = !left && (running || secs > 0) && secs < lowAt(c.control);
  const text = left ? leftWord(seat) : formatClock(secs, c.control.kind, running);
  const icon = left ? "" : low ? "⚠" : running ? "▶" : "";
  const parts = [];
  if (running) parts.push(t("clock.srRunning"));
  if (low) parts.push(t("clock.srLow"));
  const sr = parts.length ? ` (${parts.join(", ")})` : "";
  const [iconNode, timeNode, srNode] = node.children;
  if (timeNode.textContent !== text) timeNode.textContent = text;
  if (iconNode.textContent !== icon) iconNode.textContent = icon;
  if (srNode.textContent !== sr) srNode.textContent = sr;
  node.classList.toggle("running", running);
  node.classList.toggle("low", low);
  node.classList.toggle("out", left);
  const title = t("clock.title", { name: name(seat) });
  if (node.title !== title) node.title = title;
  if (running && low && seat === S.you && !spectating() && C.warned !== seat) {
    C.warned = seat;
    announce(t("clock.lowYou", { time: formatClock(secs, c.control.kind) }));
  }
}

/** Every tenth of a second while a clock runs: the running seat's clock only. */
function tick() {
  const c = C.clocks;
  if (!c || c.running === null) return;
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (
    document.querySelectorAll(`.seat-clock[data-seat="${c.running}"]`))) fill(node, c.running);
}

/** Say `text` once in the page's polite note (`#clock-note`). @param {string} text */
export function announce(text) {
  const note = document.getElementById("clock-note");
  if (note) note.textContent = text;
}

/** After each presence: a seat newly left is announced once ("Anna ran out of time: a
 * bot plays for them"); the first presence seen only records them. */
export function noteLeft() {
  const now = new Set(S.presence.filter((p) => p && p.left).map((p) => p.seat));
  const before = C.leftSeen;
  C.leftSeen = now;
  if (!before) return;
  for (const seat of now) {
    if (before.has(seat)) continue;
    const mine = seat === S.you && !spectating();
    const out = ranOut(seat);
    announce(mine ? t(out ? "clock.ranOutYou" : "clock.leftYou")
      : t(out ? "clock.ranOut" : "clock.leftOther", { name: name(seat) }));
  }
}

/**
 * What the page says to you at your left seat (null: your seat is not left): a bot plays
 * for you; at a casual table a button takes the seat back (`send({type: "back"})`), at a
 * rated one the match counts as a loss.
 * @param {(frame: {type: "back"}) => void} send
 */
export function leftNote(send) {
  const you = S.you;
  if (spectating() || you === null) return null;
  const pr = S.presence[you];
  if (!pr?.left || S.view?.finished) return null;
  const box = make("div", "left-note");
  box.append(make("p", "", t(ranOut(you) ? "clock.ranOutYou" : "clock.leftYou")));
  if (pr.may_come_back) {
    box.append(make("p", "small", t("clock.backHelp")));
    const b = make("button", "primary back-button", t("clock.back"));
    b.type = "button";
    b.id = "take-back";
    b.addEventListener("click", () => {  // the presence that gives the seat back removes the note
      b.disabled = true;
      send({ type: "back" });
      setTimeout(() => { b.disabled = false; }, 4000);  // refused (a toast says why): try again
    });
    box.append(b);
  } else if (S.table?.rated) {
    box.append(make("p", "small rated-loss", t("clock.ratedLoss")));
  }
  return box;
}
