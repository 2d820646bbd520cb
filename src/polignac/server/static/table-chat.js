// @ts-check
// Quick messages at the table (server: quick_messages.py): a seated player sends one of a fixed
// set of ids (`say`), every connection gets `chat {seat, message}`; the page shows it as a short
// bubble by the sender's seat and in the "Quick messages" box (a live region), each in the page
// language. A viewer may mute a seat (kept in this browser's local storage, per table).
import { $, make } from "./dom.js";
import { lang, t } from "./i18n.js";
import { S, name, stored, store } from "./table-state.js";

/** The ids the server knows (quick_messages.py:MESSAGES), in the order offered. */
export const MESSAGES = ["hello", "good-luck", "well-played", "nice-trick", "thanks", "oops", "sorry",
  "hurry-up", "bye"];
const BUBBLE_MS = 4000;
const LOG_LINES = 6;

/** @type {(frame: {type: "say", message: string}) => boolean} */
let send = () => false;
/** @type {Map<number, {message: string, until: number}>} the bubble shown by each seat */
const bubbles = new Map();
/** @type {{seat: number, message: string}[]} the latest messages heard, oldest first */
const heard = [];

function muteKey() { return `polignac-mute:${S.tableId}`; }

/** @returns {number[]} the seats this viewer muted at this table */
function muted() {
  try {
    const seats = JSON.parse(stored(muteKey()) ?? "[]");
    return Array.isArray(seats) ? seats.filter((x) => Number.isInteger(x)) : [];
  } catch { return []; }
}

/** @param {number} seat @param {boolean} on */
function setMuted(seat, on) {
  const seats = new Set(muted());
  if (on) seats.add(seat); else seats.delete(seat);
  store(muteKey(), JSON.stringify([...seats].sort((a, b) => a - b)));
  if (on) { bubbles.delete(seat); placeBubbles(); }
  renderChat();
}

/**
 * The bubble to draw in `seat`'s box, or null (none, over, or muted).
 * @param {number} seat
 * @returns {HTMLElement | null}
 */
export function chatBubble(seat) {
  const b = bubbles.get(seat);
  if (!b || b.until <= Date.now() || muted().includes(seat)) return null;
  const node = make("div", "chat-bubble", t(`chat.${b.message}`));
  node.dataset.message = b.message;
  node.setAttribute("aria-hidden", "true");  // the live region says it
  return node;
}

/** Put the bubbles into the seats' boxes on the page (after a message or its end). */
function placeBubbles() {
  for (const box of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".ring .seat"))) {
    box.querySelector(".chat-bubble")?.remove();
    const node = chatBubble(Number(box.dataset.seat));
    if (node) box.append(node);
  }
}

/**
 * A `chat` frame: a bubble by the seat and a line in the live region, unless muted.
 * @param {{seat: number, message: string}} f
 */
export function onChat(f) {
  if (!Number.isInteger(f.seat) || typeof f.message !== "string" || muted().includes(f.seat)) return;
  bubbles.set(f.seat, { message: f.message, until: Date.now() + BUBBLE_MS });
  heard.push({ seat: f.seat, message: f.message });
  if (heard.length > LOG_LINES) heard.shift();
  placeBubbles();
  const log = $("chat-log");
  log.append(make("p", "chat-line", line(f)));
  while (log.children.length > LOG_LINES) log.firstElementChild?.remove();
  $("chat-none").hidden = true;
  setTimeout(placeBubbles, BUBBLE_MS + 50);
}

/** @param {{seat: number, message: string}} f */
function line(f) { return t("chat.said", { name: name(f.seat), message: t(`chat.${f.message}`) }); }

/** Draw the box: the buttons (seated people only), what was heard, a mute switch per seat. */
export function renderChat() {
  const box = $("chat-box");
  if (!S.view || !S.table) { box.hidden = true; return; }
  box.hidden = false;
  const seated = S.you !== null && S.you !== undefined;
  const buttons = $("chat-buttons");
  buttons.hidden = !seated;
  if (buttons.dataset.lang !== lang) redrawButtons(buttons);  // else the focus stays put
  const off = muted();
  const mutes = $("chat-mutes");
  // Only people send: a mute for each other person's seat; open when someone may hear you.
  const seats = S.table.seats.filter((s) => s.seat !== S.you && s.kind === "human");
  const people = seats.length > 0;
  if (box.dataset.people !== String(people)) {
    box.dataset.people = String(people);
    /** @type {HTMLDetailsElement} */ (box).open = people;
  }
  const names = JSON.stringify([lang, off, seats.map((s) => name(s.seat))]);
  if (mutes.dataset.names === names) return;  // nothing new: the live region says nothing again
  mutes.dataset.names = names;
  const log = $("chat-log");
  log.replaceChildren(...heard.filter((h) => !off.includes(h.seat)).map((h) => make("p", "chat-line", line(h))));
  $("chat-none").hidden = log.children.length > 0;
  mutes.replaceChildren(...seats.map((s) => {
    const label = make("label", "chat-mute");
    const input = make("input");
    input.type = "checkbox";
    input.checked = off.includes(s.seat);
    input.dataset.seat = String(s.seat);
    input.addEventListener("change", () => setMuted(s.seat, input.checked));
    label.append(input, ` ${t("chat.mute", { name: name(s.seat) })}`);
    return label;
  }));
}

/** @param {HTMLElement} buttons */
function redrawButtons(buttons) {
  buttons.dataset.lang = lang;
  buttons.replaceChildren(...MESSAGES.map((m) => {
    const b = make("button", "small-button chat-send", t(`chat.${m}`));
    b.type = "button";
    b.dataset.message = m;
    b.addEventListener("click", () => send({ type: "say", message: m }));
    return b;
  }));
}

/**
 * Wire the box up.
 * @param {{send: (frame: {type: "say", message: string}) => boolean}} hooks
 */
export function initChat(hooks) {
  send = hooks.send;
}

/** Redraw the bubbles into freshly drawn seats (table-render.js calls it after the seats). */
export function redrawBubbles() { placeBubbles(); }
