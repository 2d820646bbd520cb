// @ts-check
// The felt at a match's end: the final standings where the hand was.

import { t } from "./i18n.js";
import { $, make } from "./dom.js";
import { sideLabel, sideNames } from "./scoresheet.js";
import { S, name } from "./table-state.js";

/** At the match's end, the felt shows the final standings where the hand was: each place
 * (ties share one; Pollack's partners their side's) with its total or, by sides, the
 * parties won. */
export function renderFinal() {
  const view = S.view, box = $("final");
  const places = view?.finished ? view.places : undefined;
  box.hidden = !places;
  $("hint").classList.toggle("over", !!places);
  if (!view || !places) return;
  const sides = view.sides ?? [];
  const grid = $("final-table", HTMLTableElement);
  grid.replaceChildren();
  const head = grid.createTHead().insertRow();
  for (const [cls, key] of [["place", "table.finalPlace"],
    ["who", sides.length ? "table.finalSide" : "table.finalPlayer"],
    ["score", sides.length ? "sheet.partiesWon" : "table.totalRow"]]) {
    const th = make("th", cls, t(key));
    th.scope = "col";
    head.append(th);
  }
  const rows = sides.length
    ? sides.map((side, i) => ({  // the seats' places count seats (1, 1, 3, 3): a side's counts sides
      place: 1 + sides.filter((o) => places[o[0]] < places[side[0]]).length,
      score: view.parties_tally?.[i] ?? 0,
      who: `${sideLabel(i)} (${sideNames(sides, i, name)})`, mine: side.includes(S.you ?? -1) }))
    : view.names.map((_, s) => ({ place: places[s], score: view.totals[s], who: name(s),
      mine: s === S.you }));
  rows.sort((a, b) => a.place - b.place);
  const body = grid.createTBody();
  for (const r of rows) {
    const tr = body.insertRow();
    tr.classList.toggle("mine", r.mine);
    tr.classList.toggle("first", r.place === 1 && rows.some((o) => o.place > 1));
    tr.append(make("td", "place", r.place === 1 ? t("table.finalPlaceFirst")
      : t("table.finalPlaceN", { n: r.place })),
      make("td", "who", r.who), make("td", "score", String(r.score)));
  }
}
