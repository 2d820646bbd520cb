// @ts-check
// What this page does at the table: play a card or a call (shown at once, confirmed or put
// back by the server's answer), pick the cards to pass, and ask first before what cannot be
// undone (a claim, a contract, a rematch, leaving a match that is on).
import { t } from "./i18n.js";
import { cardLabel } from "./cards.js";
import { postJson } from "./api.js";
import { confirmAction } from "./confirm.js";
import { release } from "./pacing.js";
import { S, passLeft, sideOfSeat, spectating } from "./table-state.js";
import { actionLabel } from "./table-words.js";

/** @typedef {import("./protocol.js").ClientFrame} ClientFrame */

/** @type {{send: (f: ClientFrame) => boolean, rerender: () => void, quick: () => void,
 *   toast: (text: string) => void}} */
let hooks = { send: () => false, rerender: () => {}, quick: () => {}, toast: () => {} };

/** Once: how a frame is sent, how the page is drawn again (all of it, or only what your own
 * action changes) and how a problem is said.
 * @param {typeof hooks} h */
export function initActions(h) { hooks = h; }

/** The partie's target of a claim, when the table's rules say it (null: unknown). */
export function claimTarget() {
  const target = S.table?.rules?.partie_target;
  return typeof target === "number" ? target : null;
}

/** Your side's partie score counted now (Pollack's deal view), or null. */
export function sideCount() {
  const side = S.you === null ? -1 : sideOfSeat(S.you);
  const totals = S.view?.deal?.side_totals;
  return side >= 0 && totals ? totals[side] : null;
}

/** A claim would be right now: the side's count reaches the target. */
export function claimPlausible() {
  const target = claimTarget(), count = sideCount();
  return target !== null && count !== null && count >= target;
}

/** The question before an action that cannot be undone, or null for one that needs none.
 * @param {string} action */
function question(action) {
  const yes = t("confirm.yes", { action: actionLabel(action) });
  const no = t("confirm.no");
  if (action === "claim") {
    const count = sideCount(), target = claimTarget();
    let text = t("confirm.claim");
    if (count !== null && target !== null) {
      text = t(count >= target ? "confirm.claimRight" : "confirm.claimWrong", { count, target });
    } else if (count !== null) {
      text = t("confirm.claimCount", { count });
    }
    return { title: t("confirm.claimTitle"), text, yes, no };
  }
  if (["capot", "general", "generale"].includes(action)) {
    return { title: t("confirm.contractTitle", { action: actionLabel(action) }),
      text: t("confirm.contract", { points: S.table?.contract_points ?? 5,
        n: S.table?.contract_points ?? 5 }), yes, no };  // n: the plural (1 penalty point)
  }
  return null;
}

/** Send `action` on the position on the page; a claim or a contract is asked about first.
 * @param {string} action */
export async function act(action) {
  if (S.pending || spectating()) return;
  const q = question(action);
  if (q && !(await confirmAction(q))) return;
  release();  // you act: the trick you were looking at can go
  S.pending = { action, seq: S.lastSeq, at: performance.now() };
  if (!hooks.send({ type: "act", action, seq: S.lastSeq })) {
    S.pending = null;
    hooks.toast(t("table.notSent"));
  }
  // the card leaves the hand and the status says so before any answer: only the parts
  // your action changes are drawn now (the score sheet and the seats wait for the event)
  hooks.quick();
}

/** The server answered: the action on the page is done (its event) or refused (an error). */
export function settle(refused = "") {
  if (!S.pending) return;
  const { action } = S.pending;
  S.pending = null;
  if (refused) hooks.toast(t("table.actRefused", { action: actionLabel(action), why: refused }));
}

/** The words of the status while an action waits for its answer. */
export function pendingText() {
  if (!S.pending) return "";
  const a = S.pending.action;
  return a.length === 2 ? t("table.playing", { card: cardLabel(a) })
    : t("table.sending", { action: actionLabel(a) });
}

// ------------------------------------------------------- passing (the Hearts family)
// The cards picked to pass, before the Pass button sends them (one act each: the first
// carries the sequence number, the others follow it in order on this socket, and nobody
// else can act in between: it stays this seat's turn).

/** @type {Set<string>} */
export let passPick = new Set();

/** Keep only the picks still in `hand` (null: the passing is over, forget them all).
 * @param {string[] | null | undefined} hand */
export function keepPicks(hand) {
  if (!hand) { passPick = new Set(); return; }
  for (const code of passPick) if (!hand.includes(code)) passPick.delete(code);
}

/** Pick card `code` to pass, or put it back. @param {string} code */
export function togglePass(code) {
  if (passPick.has(code)) passPick.delete(code);
  else if (passPick.size < passLeft()) passPick.add(code);
  hooks.rerender();
}

export function sendPass() {
  const cards = [...passPick];
  if (cards.length !== passLeft()) return;
  passPick = new Set();
  release();
  cards.forEach((code, i) => hooks.send(i ? { type: "act", action: code }
    : { type: "act", action: code, seq: S.lastSeq }));
}

// ------------------------------------------------------- the match's end, leaving

/** Ask for a rematch (after a question), then go there. @param {HTMLButtonElement} button */
export async function rematch(button) {
  if (!S.rematchUrl && !(await confirmAction({ title: t("confirm.rematchTitle"),
    text: t("confirm.rematch"), yes: t("table.rematch"), no: t("confirm.no"), danger: false }))) return;
  button.disabled = true;
  try {
    const data = await postJson(`/tables/${S.tableId}/rematch`);
    location.href = data.url;
  } catch (e) {
    hooks.toast(t("table.rematchFailed", { msg: e.message }));
    button.disabled = false;
  }
}

/** A seated person leaving a match that is on (the site's links): asked first.
 * @param {HTMLAnchorElement} link */
export function guardLeaving(link) {
  link.addEventListener("click", async (e) => {
    if (spectating() || !S.view || S.view.finished || S.table?.status === "waiting") return;
    e.preventDefault();
    if (await confirmAction({ title: t("confirm.leaveTitle"), text: t("confirm.leave"),
      yes: t("confirm.leaveYes"), no: t("confirm.stay") })) location.href = link.href;
  });
}
