// @ts-check
// The score sheet and the score reasons, shared by the table, the replay viewer and the score pad.
// Everything it shows comes from the core (Match.view / summary / the pad's state): the deal
// scores, and in a partnership game (Pollack) the sides, partie scores, parties won and game
// points; nothing is added up here.
import { make } from "./dom.js";
import { cardName, has, t } from "./i18n.js";

/** @typedef {import("./protocol.js").ScoreLine} ScoreLine */
/** @typedef {import("./protocol.js").SheetDeal} SheetDeal */
/** @typedef {import("./protocol.js").SummaryDeal} SummaryDeal */
/** @typedef {(seat: number) => string} Namer names a seat */
/**
 * What a score sheet shows: Match.view's (or the score pad's) deals, totals, names and,
 * in a partnership game, sides.
 * @typedef {{deals: SheetDeal[], totals: number[], names: string[], sides?: number[][],
 *   finished?: boolean}} SheetData
 */

const signed = (/** @type {number} */ x) => `${x > 0 ? "+" : ""}${x}`;

/** A side's label ("Side 1"): side 0 is seats 0 and 2, side 1 seats 1 and 3. @param {number} side */
export function sideLabel(side) { return t("table.side", { n: side + 1 }); }

/** The side (index into `sides`) of `seat`, or -1.
 * @param {number[][] | null | undefined} sides @param {number} seat */
export function sideOf(sides, seat) { return (sides ?? []).findIndex((s) => s.includes(seat)); }

/** The names of a side's players ("Ann & Cyd"); `name(seat)` names a seat.
 * @param {number[][]} sides @param {number} side @param {Namer} name */
export function sideNames(sides, side, name) {
  const [a, b] = sides[side].map(name);
  return t("sheet.pair", { a, b });
}

/** The mark of a seat box in a partnership game, or null: `{ classes, label }` (the side,
 * and "partner" on the viewer's partner). `you` is the viewer's seat (null: spectator).
 * @param {number} seat @param {number[][] | null | undefined} sides @param {number | null | undefined} you */
export function seatMark(seat, sides, you) {
  const side = sideOf(sides, seat);
  if (side < 0) return null;
  const partner = you !== null && you !== undefined && seat !== you && sideOf(sides, you) === side;
  const label = partner ? `${t("table.partner")} · ${sideLabel(side)}` : sideLabel(side);
  return { classes: [`side-${side}`, ...(partner ? ["partner"] : [])], label };
}

/** The catalog key of a line's sentence: why.REASON, or why.REASON.KEY for a detail key.
 * @param {ScoreLine} line */
function sentenceKey(line) {
  return `why.${line.reason}` + (line.key ? `.${line.key.replace(/^detail\./, "")}` : "");
}

/** A score line ({player, seat?, side?, points, reason, detail, key?, params?}) as a sentence:
 * "Ann: +2 for the Jack of spades", "Side 1: +11 for 34 card points ÷ 3". A line with a `side`
 * (Pollack) names the side; `name(seat)` names a seat; `deck` picks the card names.
 * @param {ScoreLine} line @param {Namer} name @param {string} [deck] */
export function reasonLine(line, name, deck = "french") {
  const seat = line.seat ?? line.player;
  const who = line.side !== undefined && line.side !== null ? sideLabel(line.side) : name(seat);
  /** @type {Record<string, unknown>} */
  const params = { ...(line.params ?? {}), who, points: signed(line.points) };
  if ("player" in params) params.player = name(/** @type {number} a seat */ (params.player));
  else if (line.side !== undefined && line.seat !== undefined) params.player = name(line.seat);
  const detail = line.detail ?? "";
  if (/^[2-9TJQKA][CDHS]$/.test(detail)) params.card = cardName(detail, deck);
  if (line.reason === "announce") params.what = has(`announce.${detail}`) ? t(`announce.${detail}`) : detail;
  if (line.reason === "tricks") params.n = Number(detail);
  const key = sentenceKey(line);
  if (has(key)) return t(key, params);
  // A reason the catalogs do not know yet: its words, never a bare key.
  const reason = has(`reason.${line.reason}`) ? t(`reason.${line.reason}`) : line.reason;
  const words = line.key && has(line.key) ? t(line.key, params) : params.card ?? params.what ?? detail;
  return t(words ? "reason.lineDetail" : "reason.line", { who, points: params.points, reason, detail: words });
}

/** A score line in a word or two, for a score pad's cell ("J♦", "three Tens", "3 tricks");
 * `card(code)` writes a card.
 * @param {ScoreLine} line @param {(code: string) => string} card */
export function reasonWord(line, card) {
  if (line.reason === "card") return card(line.detail);
  if (line.reason === "announce") return t(`announce.${line.detail}`);
  if (line.reason === "tricks") return t("scorepad.tricks", { n: line.detail });
  if (line.reason === "chips-overload") return "100+";
  return t(`reason.${line.reason}`);
}

/** A deal's reasons (a summary entry's `reasons`) as a list; a partnership deal's lines are
 * grouped by side, and a Pollack claim (the entry's `claim` and `partie_won_by`) is said last.
 * @param {ScoreLine[]} reasons @param {Namer} name @param {string | undefined} deck
 * @param {{claim?: {seat: number, correct: boolean}, partie_won_by?: number | null}} [deal] */
export function reasonList(reasons, name, deck, deal = {}) {
  const ul = make("ul", "reasons");
  const lines = reasons.some((l) => l.side !== undefined)
    ? [...reasons].sort((a, b) => Number(a.side) - Number(b.side)) : reasons;
  for (const line of lines) {
    const li = make("li", "", reasonLine(line, name, deck));
    li.dataset.points = String(line.points);
    if (line.side !== undefined) li.dataset.side = String(line.side);
    else li.dataset.seat = String(line.seat ?? line.player);
    ul.append(li);
  }
  if (!reasons.length) ul.append(make("li", "", t("table.noPoints")));
  if (deal.claim && deal.partie_won_by !== undefined && deal.partie_won_by !== null) {
    ul.append(make("li", "claim", t(deal.claim.correct ? "sheet.claimRight" : "sheet.claimWrong",
      { player: name(deal.claim.seat), side: sideLabel(deal.partie_won_by) })));
  }
  return ul;
}

/** A row of `section`: a label, then a cell per value.
 * @param {HTMLTableSectionElement} section @param {string} cls @param {string} label
 * @param {readonly (number | string | Node)[]} values @param {boolean} [header] */
function row(section, cls, label, values, header = false) {
  const tr = section.insertRow();
  if (cls) tr.className = cls;
  const th = make(header ? "th" : "td", "", label);
  if (header) th.scope = "col";
  tr.append(th);
  for (const v of values) {
    const cell = make(header ? "th" : "td", "");
    if (header) cell.scope = "col";
    if (v instanceof Node) cell.append(v); else cell.textContent = String(v);
    tr.append(cell);
  }
  return tr;
}

/** Fill `table` (a <table>) with the score sheet of `data`: `deals` (entries of Match.view's or
 * summary's deals, up to the deal on view), `totals` (per seat), `names` (one per seat) and, in a
 * partnership game, `sides`. `name(seat)` names a seat.
 * @param {HTMLTableElement} table @param {SheetData} data @param {Namer} name */
export function renderSheet(table, data, name) {
  table.replaceChildren();
  const head = table.createTHead(), body = table.createTBody(), foot = table.createTFoot();
  const sides = data.sides ?? [];
  if (!sides.length) {
    row(head, "", t("table.deal"), data.names.map((_, s) => name(s)), true);
    data.deals.forEach((deal, i) => {
      row(body, deal.tiebreak ? "tiebreak" : "", String(deal.number ?? i + 1) + (deal.tiebreak ? "*" : ""),
        deal.scores);
    });
    row(foot, "totals", t("table.totalRow"), data.totals);
    return;
  }
  table.classList.add("sides");
  row(head, "", t("table.deal"), sides.map((_, i) => {
    const box = make("span", "side-head", sideLabel(i));
    box.append(make("small", "side-names", sideNames(sides, i, name)));
    return box;
  }), true);
  data.deals.forEach((deal, i) => {
    const tr = row(body, "", String(deal.number ?? i + 1), deal.side_scores ?? []);
    tr.dataset.partie = String(deal.partie);
    if (deal.partie_won_by === null || deal.partie_won_by === undefined) return;
    const end = row(body, "partie-end", t("sheet.partieWonBy",
      { n: deal.partie, side: sideLabel(deal.partie_won_by) }), deal.partie_score ?? []);
    end.dataset.partie = String(deal.partie);
    end.cells[1 + deal.partie_won_by].classList.add("won");
  });
  const last = data.deals.at(-1);
  const ended = !last || (last.partie_won_by !== null && last.partie_won_by !== undefined);
  if (!data.finished) {
    const n = last ? Number(last.partie) + (ended ? 1 : 0) : 1;
    row(foot, "partie-now", t("sheet.partieNow", { n }), ended || !last ? [0, 0] : last.partie_score ?? []);
  }
  row(foot, "parties-won totals", t("sheet.partiesWon"), last ? last.parties_tally ?? [] : [0, 0]);
  row(foot, "game-points", t("sheet.gameTotal"), last ? last.game_points ?? [] : [0, 0]);
}

/** The words that end a match: Pollack's winning side and parties, or the winners and losers.
 * @param {{sides?: number[][], parties_tally?: number[], winners: number[], losers: number[]}} data
 * @param {Namer} name */
export function resultText(data, name) {
  const sides = data.sides ?? [];
  if (sides.length && data.parties_tally) {
    const tally = data.parties_tally;
    if (!data.winners.length) return t("sheet.resultDraw", { a: tally[0] });
    const side = sideOf(sides, data.winners[0]);
    return t("sheet.resultSide", { side: sideLabel(side), names: sideNames(sides, side, name),
      a: tally[side], b: tally[1 - side] });
  }
  return t("table.matchOver", { won: data.winners.map(name).join(", ") || "—",
    lost: data.losers.map(name).join(", ") || "—" });
}

/** Fill `box` with one "Deal N: why" block per finished deal of `deals` (summary entries),
 * the newest first and open.
 * @param {HTMLElement} box @param {SummaryDeal[]} deals @param {Namer} name @param {string} [deck] */
export function renderReasons(box, deals, name, deck) {
  box.replaceChildren();
  [...deals].reverse().forEach((sd, i) => {
    const det = make("details", "why");
    det.open = i === 0;
    det.dataset.deal = String(sd.number);
    det.append(make("summary", "", t("table.why", { n: sd.number })));
    det.append(reasonList(sd.reasons, name, deck, sd));
    box.append(det);
  });
}
