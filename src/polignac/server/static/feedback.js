// @ts-check
// Feedback and access on the table page: "your turn" in the tab title and an optional
// tone, unplayable cards marked disabled for assistive technology, a spoken name for
// each seat box, and keys for the declaration and announcement buttons.
//
// table.js calls these after it draws (see docs/server.md, "Feedback and access"):
// turnFeedback on every render, markHand after renderHand, bindPromptKeys after
// renderPrompt, labelSeat on each seat box, soundToggle once.
import { onLang, t } from "./i18n.js";
import { make } from "./dom.js";

const SOUND_STORE = "polignac-sound";
const TURN_MARK = "▶";

// ------------------------------------------------------------------ the tab title

/**
 * The tab title: "▶ Your turn · `baseTitle`" while it is this player's turn, else
 * `baseTitle` as it is.
 * @param {boolean} isYourTurn
 * @param {string} baseTitle
 * @returns {string} the title set
 */
export function setTurnTitle(isYourTurn, baseTitle) {
  const title = isYourTurn ? `${TURN_MARK} ${t("a11y.yourTurn")} · ${baseTitle}` : baseTitle;
  document.title = title;
  return title;
}

let wasYourTurn = false;

/**
 * Everything a turn change says: the tab title on every call, and the tone (when the
 * player turned it on) once when the turn becomes this player's.
 * @param {boolean} isYourTurn
 * @param {string} baseTitle the page's title without the turn mark
 * @returns {boolean} whether this call started the player's turn
 */
export function turnFeedback(isYourTurn, baseTitle) {
  setTurnTitle(isYourTurn, baseTitle);
  const started = isYourTurn && !wasYourTurn;
  wasYourTurn = isYourTurn;
  if (started) turnSound();
  return started;
}

// ------------------------------------------------------------------ the tone

/** Whether the player turned the tone on (off unless they did). */
export function soundOn() {
  try { return localStorage.getItem(SOUND_STORE) === "on"; } catch { return false; }
}

/** @param {boolean} on */
function rememberSound(on) {
  try { localStorage.setItem(SOUND_STORE, on ? "on" : "off"); } catch { /* storage blocked */ }
}

/** @type {AudioContext | null} */
let audio = null;

/** The page's AudioContext, made on first use; null where the browser has none. */
function audioContext() {
  if (!audio && typeof AudioContext === "function") {
    try { audio = new AudioContext(); } catch { audio = null; }
  }
  return audio;
}

/**
 * A short two-note tone (Web Audio, no file), when the player turned the sound on.
 * @param {{force?: boolean}} [options] force: play even when the sound is off (the
 *   toggle's own sample)
 * @returns {boolean} whether a tone was started
 */
export function turnSound({ force = false } = {}) {
  if (!force && !soundOn()) return false;
  const ctx = audioContext();
  if (!ctx) return false;
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  const now = ctx.currentTime;
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(0.0001, now);
  gain.gain.exponentialRampToValueAtTime(0.15, now + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.3);
  gain.connect(ctx.destination);
  const osc = ctx.createOscillator();
  osc.type = "sine";
  osc.frequency.setValueAtTime(660, now);
  osc.frequency.setValueAtTime(880, now + 0.12);
  osc.connect(gain);
  osc.start(now);
  osc.stop(now + 0.32);
  return true;
}

/**
 * The "Sound" toggle (a button with aria-pressed, remembered in localStorage), put
 * into `container` before its language picker (or at its end). Turning it on plays the
 * tone once, so the player hears what it will be (and the browser lets the page play).
 * @param {Element | null} container the page's header bar
 * @returns {HTMLButtonElement} the button
 */
export function soundToggle(container) {
  let button = /** @type {HTMLButtonElement | null} */ (document.getElementById("sound-toggle"));
  if (!button) {
    button = make("button", "small-button sound-toggle");
    button.type = "button";
    button.id = "sound-toggle";
    const b = button;
    b.addEventListener("click", () => {
      const on = !soundOn();
      rememberSound(on);
      drawToggle(b);
      if (on) turnSound({ force: true });
    });
    const lang = container?.querySelector("#lang") ?? null;
    container?.insertBefore(button, lang);
    onLang(() => drawToggle(b));
  }
  drawToggle(button);
  return button;
}

/** @param {HTMLButtonElement} button */
function drawToggle(button) {
  const on = soundOn();
  button.textContent = `♪ ${t("a11y.sound")}`;
  button.setAttribute("aria-pressed", String(on));
  button.title = t("a11y.soundTip");
}

// ------------------------------------------------------------------ the hand

/**
 * Mark the hand's card buttons for assistive technology: a card that cannot be played
 * now gets aria-disabled="true" (it stays readable and focusable by the list), a legal
 * one loses it.
 * @param {Element} handEl the hand (#hand), whose buttons carry data-card
 * @param {Iterable<string>} legalCodes the legal actions (cards like "QS"; calls are ignored)
 * @returns {number} how many cards were marked unplayable
 */
export function markHand(handEl, legalCodes) {
  const legal = new Set(legalCodes);
  let off = 0;
  for (const card of handEl.querySelectorAll("[data-card]")) {
    const code = /** @type {HTMLElement} */ (card).dataset.card ?? "";
    if (legal.has(code)) {
      card.removeAttribute("aria-disabled");
    } else {
      card.setAttribute("aria-disabled", "true");
      off++;
    }
  }
  return off;
}

// ------------------------------------------------------------------ seat boxes

/**
 * A seat's spoken name: "Alice, bot (hard), dealer, 7 cards left, to play".
 * @param {{name: string, level?: string | null, dealer?: boolean, cards?: number | null,
 *   turn?: boolean, away?: boolean}} seat level: the bot's level in words (null for a
 *   person); cards: cards left in hand (null between deals)
 * @returns {string}
 */
export function seatLabel({ name, level = null, dealer = false, cards = null, turn = false,
  away = false }) {
  const parts = [name];
  if (level) parts.push(t("table.bot", { level }));
  if (dealer) parts.push(t("table.dealer"));
  if (away) parts.push(t("table.disconnected"));
  if (cards !== null && cards !== undefined) parts.push(t("a11y.cardsLeft", { n: cards }));
  if (turn) parts.push(t("table.toPlay"));
  return parts.join(", ");
}

/**
 * Give a seat box a group role and its spoken name (seatLabel's).
 * @param {Element} box the seat's box
 * @param {Parameters<typeof seatLabel>[0]} seat
 * @returns {string} the label
 */
export function labelSeat(box, seat) {
  const label = seatLabel(seat);
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", label);
  return label;
}

// ------------------------------------------------------------------ prompt keys

/** The letter of each call, when the prompt has it; announcements take 1, 2, 3... */
const CALL_KEYS = /** @type {Record<string, string>} */ ({
  capot: "D", general: "D", generale: "D", pass: "P", claim: "C",
});

/** @type {Map<string, HTMLButtonElement>} the key of each prompt button now shown */
let promptKeys = new Map();
let keysBound = false;

/**
 * Give the prompt's buttons (data-action) their keys: D declares, P passes, C claims,
 * 1-9 announce, in order. Sets aria-keyshortcuts on each button, writes the keys into
 * `hintEl` (after its own text) while the prompt has buttons, and listens for the keys
 * (once per page; a key does nothing while typing in a field or with a modifier).
 * @param {Element} promptEl the prompt (#prompt)
 * @param {HTMLElement | null} [hintEl] the hint line (#hint)
 * @returns {Map<string, HTMLButtonElement>} key -> button
 */
export function bindPromptKeys(promptEl, hintEl = null) {
  /** @type {Map<string, HTMLButtonElement>} */
  const keys = new Map();
  let digit = 1;
  for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (promptEl.querySelectorAll("button[data-action]"))) {
    const action = b.dataset.action ?? "";
    let key = CALL_KEYS[action];
    if (!key || keys.has(key)) key = digit <= 9 ? String(digit++) : "";
    if (!key) { b.removeAttribute("aria-keyshortcuts"); continue; }
    keys.set(key, b);
    b.setAttribute("aria-keyshortcuts", key);
    b.dataset.key = key;
  }
  promptKeys = keys;
  if (hintEl) {
    hintEl.querySelector(".prompt-keys")?.remove();
    if (keys.size) {
      const list = [...keys].map(([key, b]) => t("a11y.keyFor", { key, action: b.dataset.label ?? b.textContent ?? "" }));
      hintEl.append(make("span", "prompt-keys", ` ${list.join(" · ")}`));
    }
  }
  if (!keysBound) {
    keysBound = true;
    document.addEventListener("keydown", onPromptKey);
  }
  return keys;
}

/** @param {KeyboardEvent} e */
function onPromptKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
  const target = /** @type {Element | null} */ (e.target instanceof Element ? e.target : null);
  if (target?.closest("input, select, textarea, dialog, [contenteditable]")) return;
  const button = promptKeys.get(e.key.toUpperCase());
  if (!button || !button.isConnected || button.disabled) return;
  e.preventDefault();
  button.click();
}
