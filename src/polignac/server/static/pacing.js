// @ts-check
// The pacing of events on the table page. Events are shown in the order they came, one after
// the other: a card flies from its seat to the trick, a finished trick is held (the server's
// trick pause, or the browser's own setting) and then swept to its winner. Events that
// arrive meanwhile wait in the queue; when more than a trick's worth wait (a reconnect, a
// hidden tab) they are shown at once. Without animations (the toggle, or
// prefers-reduced-motion) every event is shown as it comes.
import { S, stored } from "./table-state.js";

/** @typedef {import("./protocol.js").EventFrame} EventFrame */
/** @typedef {import("./protocol.js").DoneTrick} DoneTrick */

export const MOTION_KEY = "polignac-motion";   // "on" or "off" (the toggle)
const HOLD_KEY = "polignac-trick-hold";         // seconds, this browser's own hold
export const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");

/** Animations on: the page's toggle, else the system's reduced-motion wish. */
export function motionOn() {
  const saved = stored(MOTION_KEY);
  if (saved === "on" || saved === "off") return saved === "on";
  return !reducedMotion.matches;
}

/** Seconds a finished trick stays: the browser's setting, else the server's pause. */
function holdSeconds() {
  const saved = Number.parseFloat(stored(HOLD_KEY) ?? "");
  if (Number.isFinite(saved)) return Math.min(Math.max(saved, 0), 60);
  const pause = S.table?.trick_pause;
  return typeof pause === "number" ? Math.min(Math.max(pause, 0), 60) : 1.5;
}

/** The key of a trick and its winner (a trick swept once is not shown again).
 * @param {string[]} cards @param {number} winner */
export function trickKey(cards, winner) { return `${cards.join(" ")}>${winner}`; }

/** The centre of a box. @param {DOMRect} r */
export function centre(r) { return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; }

/** The seat box of `seat` on the felt. @param {number} seat */
export function seatNode(seat) {
  return /** @type {HTMLElement | null} */ (document.querySelector(`#ring .seat[data-seat="${seat}"]`));
}

/** What the pacing holds: the finished trick on the table, and the last one swept away. */
export const P = {
  /** @type {{trick: DoneTrick, release: () => void, sweeping: boolean} | null} */
  holding: null,
  swept: "",
};

/** @type {EventFrame[]} event frames received and not yet shown, oldest first */
const queue = [];
let pumping = false;
let generation = 0;      // a state frame starts a new one: older waits are dropped
/** @type {{show: (f: EventFrame, animate: boolean) => void, redraw: () => void}} */
let hooks = { show: () => {}, redraw: () => {} };

/** Once: how an event is put on the page, and how the trick and status are drawn again.
 * @param {typeof hooks} h */
export function initPacing(h) { hooks = h; }

/** More events wait than a trick has cards and more: show them at once. */
function farBehind(extra = 0) { return queue.length + extra > (S.view?.names?.length ?? 4) + 1; }

/** A state frame: what was waiting to be shown is out of date. */
export function resetPacing() {
  generation += 1;
  queue.length = 0;
  P.holding?.release();
  P.holding = null;
}

/** Let the held trick go now (you act, the animations were turned off). */
export function release() { P.holding?.release(); }

/** @param {EventFrame} f a live event, in order */
export function enqueue(f) {
  queue.push(f);
  if (farBehind()) P.holding?.release();
  pump();
}

async function pump() {
  if (pumping) return;
  pumping = true;
  const gen = generation;
  try {
    while (queue.length && gen === generation) {
      const f = /** @type {EventFrame} */ (queue.shift());
      const animate = motionOn() && !farBehind(1) && !document.hidden;
      try {
        hooks.show(f, animate);
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
      const keep = Boolean(S.table?.guide);
      if (!keep && motionOn() && !farBehind() && !document.hidden) await sweep(done);
      if (gen !== generation) break;
      if (!keep) P.swept = trickKey(done.cards, done.winner);
      P.holding = null;
      if (S.view) hooks.redraw();
    }
  } finally {
    pumping = false;
    if (queue.length && gen !== generation) pump();
  }
}

/**
 * Hold the finished `trick` on the table for `seconds`, or until released.
 * @param {DoneTrick} trick @param {number} seconds
 * @returns {Promise<void>}
 */
function holdTrick(trick, seconds) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, seconds * 1000);
    P.holding = { trick, sweeping: false, release: () => { clearTimeout(timer); resolve(); } };
    hooks.redraw();
  });
}

/** The cards of the finished trick slide to the winner's seat and fade. @param {DoneTrick} trick */
async function sweep(trick) {
  if (P.holding) P.holding.sweeping = true;
  const box = document.getElementById("trick");
  if (box) box.dataset.kind = "sweep";
  const target = seatNode(trick.winner);
  const nodes = /** @type {HTMLElement[]} */ ([...document.querySelectorAll("#trick .played:not(.turnup)")]);
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
