// @ts-check
// The table page's state (what the server last said, and what this page is doing) and the
// questions every part of the page asks of it: whose seat, whose turn, which trick.
import { seatName, t } from "./i18n.js";

/** @typedef {import("./protocol.js").TableInfo} TableInfo */
/** @typedef {import("./protocol.js").MatchView} MatchView */
/** @typedef {import("./protocol.js").PresenceSeat} PresenceSeat */
/** @typedef {import("./protocol.js").Summary} Summary */

export const S = {
  tableId: location.pathname.split("/")[2],
  /** @type {number | null} our seat; null: spectating */
  you: null,
  /** @type {TableInfo | null} */
  table: null,
  /** @type {MatchView | null} the view on the page (events may wait to be shown) */
  view: null,
  /** @type {Summary | null} */
  summary: null,
  /** @type {PresenceSeat[]} by seat */
  presence: [],
  lastSeq: 0,        // the last event received
  shownSeq: 0,       // the last event on the page
  /** @type {string | null} the rematch table's URL, once someone asked for it */
  rematchUrl: null,
  /** @type {{action: string, seq: number, at: number} | null} an action sent, not yet answered */
  pending: null,
  /** @type {import("./protocol.js").RatingsFrame | null} a rated match's end: the rating changes */
  ratings: null,
};

/** Whether this page watches (no seat here). */
export function spectating() { return S.table !== null && (S.you === null || S.you === undefined); }

/** Whether a bot plays our seat because our time ran out or we left (`presence.left`). */
export function mySeatLeft() {
  return !spectating() && S.you !== null && !!S.presence[S.you]?.left;
}

/** A seat's name in the page's language ("You" for ours). @param {number} seat */
export function name(seat) {
  if (seat === S.you && !spectating()) return t("table.you");
  if (S.presence[seat]?.name) return seatName(S.presence[seat]);
  return S.view?.names?.[seat] ?? t("table.seatN", { n: seat + 1 });
}

/** The match seat of deal player `p`. @param {number} p @returns {number} */
export function seatOfPlayer(p) { return S.view?.deal_seats ? S.view.deal_seats[p] : p; }

/** The deal player of match seat `s` (-1: none). @param {number} s */
export function playerOfSeat(s) { return S.view?.deal_seats ? S.view.deal_seats.indexOf(s) : -1; }

/** The seat to act in the deal on view, or null. */
export function toActSeat() {
  const d = S.view?.deal;
  return d && d.to_act !== null && d.to_act !== undefined ? seatOfPlayer(d.to_act) : null;
}

/** The legal actions this page may take now (none while an action waits for its answer). */
export function myLegal() {
  const d = S.view?.deal;
  if (!d || !d.legal || spectating() || S.pending || mySeatLeft()) return [];
  return d.legal;
}

/** view.deal.passing while it is this page's turn to choose cards to pass, else null. */
export function passingNow() {
  const d = S.view?.deal;
  return d && d.phase === "pass" && d.legal && !spectating() && !mySeatLeft() ? d.passing ?? null : null;
}

/** How many cards this page still has to pass. */
export function passLeft() {
  const p = passingNow();
  return p ? p.count - (p.given?.length ?? 0) : 0;
}

/** The side (index into the table's sides) of `seat`, or -1. @param {number} seat */
export function sideOfSeat(seat) { return (S.table?.sides ?? []).findIndex((s) => s.includes(seat)); }

/**
 * The last finished trick of the deal on view (or of the deal just over), in match seats.
 * @returns {{cards: string[], seats: number[], winner: number, number: number} | null}
 */
export function previousTrick() {
  const view = S.view;
  if (!view) return null;
  let tricks = view.deal?.tricks, seats = view.deal_seats, players = view.deal?.players ?? 0;
  if (!view.deal && view.last_deal) {
    tricks = view.last_deal.tricks; seats = view.last_deal_seats; players = view.last_deal.players;
  }
  if (!tricks || !tricks.length) return null;
  const tr = tricks[tricks.length - 1];
  const map = (/** @type {number} */ p) => (seats ? seats[p] : p);
  return { cards: tr.cards, seats: tr.cards.map((_, i) => map((tr.leader + i) % players)),
    winner: map(tr.winner), number: tricks.length };
}

/** A remembered setting, or null (none, or storage blocked). @param {string} key */
export function stored(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

/** Remember a setting (nothing when storage is blocked). @param {string} key @param {string} value */
export function store(key, value) {
  try { localStorage.setItem(key, value); } catch { /* blocked */ }
}
