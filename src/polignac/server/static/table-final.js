// @ts-check
// The felt at a match's end: the final standings where the hand was; at a rated table each
// rated person's rating change (the `ratings` frame), a person who left placed last.

import { t } from "./i18n.js";
import { $, make } from "./dom.js";
import { sideLabel, sideNames } from "./scoresheet.js";
import { S, name } from "./table-state.js";

/** @typedef {import("./protocol.js").ShownRating} ShownRating */

/**
 * A rating change in words: "1500 → 1476 (−24)" ("1500?" while provisional).
 * @param {{before: ShownRating, after: ShownRating}} r
 */
export function ratingChange(r) {
  const d = r.after.rating - r.before.rating;
  const delta = d > 0 ? `+${d}` : d < 0 ? `−${-d}` : "±0";
  const shown = (/** @type {ShownRating} */ x) => `${x.rating}${x.provisional ? "?" : ""}`;
  return `${shown(r.before)} → ${shown(r.after)} (${delta})`;
}

/** The seats that left a rated match (a bot played them to its end): placed last. */
function abandoned() {
  return new Set(S.table?.rated ? S.presence.filter((p) => p && p.left).map((p) => p.seat) : []);
}

/**
 * Each seat's place, the people who left a rated match behind everyone, in their own order
 * (the server's rule: `players/results.py:places`, that the ratings read).
 * @param {number[]} where the view's places
 */
function placesOf(where) {
  const gone = abandoned();
  if (!gone.size) return where;
  const order = where.map((_, s) => s)
    .sort((a, b) => Number(gone.has(a)) - Number(gone.has(b)) || where[a] - where[b]);
  const out = where.map(() => 0);
  let place = 0;
  order.forEach((s, i) => {
    const prev = i ? order[i - 1] : null;
    if (prev === null || gone.has(prev) !== gone.has(s) || where[prev] !== where[s]) place = i + 1;
    out[s] = place;
  });
  return out;
}

/** At the match's end, the felt shows the final standings where the hand was: each place
 * (ties share one; Pollack's partners their side's) with its total or, by sides, the
 * parties won. */
export function renderFinal() {
  const view = S.view, box = $("final");
  const given = view?.finished ? view.places : undefined;
  box.hidden = !given;
  $("hint").classList.toggle("over", !!given);
  if (!view || !given) return;
  const sides = view.sides ?? [];
  const places = sides.length ? given : placesOf(given);
  const gone = abandoned();
  const rated = new Map((S.ratings?.seats ?? []).map((r) => [r.seat, r]));
  box.classList.toggle("rated", rated.size > 0);
  const provisional = [...rated.values()].some((r) => r.before.provisional || r.after.provisional);
  $("final-note").hidden = !provisional;
  $("final-note").textContent = provisional ? t("table.ratingProvisional") : "";
  const grid = $("final-table", HTMLTableElement);
  grid.replaceChildren();
  const head = grid.createTHead().insertRow();
  for (const [cls, key] of [["place", "table.finalPlace"],
    ["who", sides.length ? "table.finalSide" : "table.finalPlayer"],
    ["score", sides.length ? "sheet.partiesWon" : "table.totalRow"],
    ...(rated.size ? [["rating", "board.rating"]] : [])]) {
    const th = make("th", cls, t(key));
    th.scope = "col";
    head.append(th);
  }
  const rows = sides.length
    ? sides.map((side, i) => ({  // the seats' places count seats (1, 1, 3, 3): a side's counts sides
      place: 1 + sides.filter((o) => places[o[0]] < places[side[0]]).length,
      score: view.parties_tally?.[i] ?? 0,
      who: `${sideLabel(i)} (${sideNames(sides, i, name)})`, mine: side.includes(S.you ?? -1),
      seats: side }))
    : view.names.map((_, s) => ({ place: places[s], score: view.totals[s], who: name(s),
      mine: s === S.you, seats: [s] }));
  rows.sort((a, b) => a.place - b.place);
  const body = grid.createTBody();
  for (const r of rows) {
    const tr = body.insertRow();
    tr.classList.toggle("mine", r.mine);
    tr.classList.toggle("first", r.place === 1 && rows.some((o) => o.place > 1));
    const who = make("td", "who", r.who);
    if (r.seats.some((s) => gone.has(s))) who.append(" ", make("span", "left-mark", t("table.finalLeft")));
    tr.append(make("td", "place", r.place === 1 ? t("table.finalPlaceFirst")
      : t("table.finalPlaceN", { n: r.place })), who, make("td", "score", String(r.score)));
    if (rated.size) {
      const changes = r.seats.flatMap((s) => rated.get(s) ?? []);
      const words = changes.map((c) =>
        (r.seats.length > 1 ? `${name(c.seat)}: ` : "") + ratingChange(c)).join(", ");
      const d = changes.reduce((sum, c) => sum + c.after.rating - c.before.rating, 0);
      const way = !changes.length ? "" : d > 0 ? " up" : d < 0 ? " down" : " same";
      const cell = make("td", `rating${way}`, words);
      // a phone's narrow table shows it under the name instead (clocks.css)
      if (words) who.append(make("span", `rating-line${way}`, words));
      tr.append(cell);
    }
  }
}
