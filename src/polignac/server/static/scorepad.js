// @ts-check
// The score pad page: setup, one form per deal (shaped by the game), totals, match end.
// The pad (setup + every deal's entry) lives in localStorage; the server scores it
// (POST /api/scorepad/score) and keeps nothing.

import {
  cardName as cardWords, errorText, lang, languagePicker, onLang, presetName, presetSummary, rankIndex,
  t, translatePage,
} from "./i18n.js";
import { $, el } from "./dom.js";
import { getJson, request } from "./api.js";
import { reasonWord, sideNames, sideOf } from "./scoresheet.js";

/** @typedef {import("./protocol.js").ScoreLine} ScoreLine */
/**
 * A preset as the setup form offers it (GET /api/scorepad/presets).
 * @typedef {{name: string, game: string, players: number[], default_players: number,
 *   scoring: string, match_end: string, threshold: number, deals: number | null,
 *   declaration: string | null, revoke_penalty?: number | null, suits: string,
 *   partnerships: boolean, sides: number[][]}} PadPreset
 */
/**
 * The next deal's form (core/scorepad.py:ScorePad.form).
 * @typedef {{kind: string, dealer: number, seats: number[], tiebreak: boolean,
 *   point_cards: string[], card_values: Record<string, number>, tricks_per_player: number,
 *   pack_points: number, needs_tricks: boolean, needs_first_trick: boolean,
 *   needs_last_trick: boolean, contract: string | null, chelem: boolean, turn_up: boolean,
 *   revoke_penalty: number | null, announcements: string[], pool_in: boolean}} PadForm
 */
/**
 * A scored deal of the pad (core/scorepad.py:PadDeal.to_dict).
 * @typedef {{number: number, dealer: number, seats: number[], scores: number[],
 *   tiebreak: boolean, misdeal: boolean, redeal: boolean, lines: ScoreLine[],
 *   partie_winner?: number | null}} PadDeal
 */
/**
 * One deal's entry as the form reads it (core/scorepad.py checks it).
 * @typedef {{taken?: Record<string, number | null>, first_trick?: number | null,
 *   last_trick?: number | null, tricks?: number[], contract?: {declarer: number, made: boolean},
 *   slam?: number, card_points?: number[], claim?: number,
 *   announcements?: {player: number, announcement: string | undefined}[], revokes?: number[],
 *   exposed?: {player: number, cards: string}[], note?: string, misdeal?: boolean}} PadEntry
 */
/**
 * What rebuilds a pad on the server: the setup and every deal's entry.
 * @typedef {{preset: string, overrides: Record<string, number>, names: string[],
 *   first_dealer: number, revoke_penalty: number | null, entries: PadEntry[]}} PadSetup
 */
/**
 * The server's pad (core/scorepad.py:ScorePad.to_dict): the setup, the scored deals, the
 * totals, the match's end and the next deal's form.
 * @typedef {PadSetup & {deals: PadDeal[], totals: number[], finished: boolean,
 *   winners: number[], losers: number[], tied: number[], parties_tally: number[],
 *   sides: number[][], notes: string[],
 *   words: {total: string, side_reasons: string[], higher_better: boolean},
 *   match_end: string, threshold: number, num_deals: number | null, counted_deals: number,
 *   next: PadForm | null}} Pad
 */

const STORE = "polignac-scorepad";
/** @type {Record<string, string>} */
const SUIT_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };

/** @type {PadPreset[]} */
let presets = [];
/** @type {Pad | null} the server's answer: setup, entries and derived state */
let pad = null;

/** The pad on view: the sheet and the form are drawn only while there is one.
 * @returns {Pad} @throws {Error} when there is none */
function thePad() {
  if (!pad) throw new Error("no score pad");
  return pad;
}

/** @param {string} code @param {boolean} german */
function cardName(code, german) {
  const rank = code[0], suit = code[1];
  if (german) return cardWords(code, "german");
  return `${rankIndex(rank)}${SUIT_SYMBOL[suit]}`;
}

/** @param {string} a */
function announceName(a) { return t(`announce.${a}`); }

/** @param {string} name @returns {PadPreset | undefined} */
function preset(name) {
  return presets.find((p) => p.name === name);
}

// ------------------------------------------------------------------ setup

/** What the setup's limit field means for preset `p`, and its default.
 * @param {PadPreset} p @returns {{key: string, text: string, value: number | null}} */
function limitKind(p) {
  if (p.match_end === "parties") return { key: "parties", text: t("scorepad.limit.parties"), value: 6 };
  if (p.match_end === "fixed-deals" || p.match_end === "chips") {
    return { key: "deals", text: t("scorepad.limit.deals"), value: null };
  }
  const word = t(p.match_end === "first-to-target" ? "scorepad.limit.target"
    : "scorepad.limit.threshold");
  return { key: "threshold", text: word, value: p.threshold };
}

function fillSetupAbout() {
  const id = $("sp-preset", HTMLSelectElement).value;
  $("sp-about").replaceChildren(`${presetSummary(id)} `, el("span", { class: "pick-id", text: id }),
    " · ", el("a", { href: `/rules/${encodeURIComponent(id)}`, text: t("lobby.rulesLink") }));
}

function fillSetup() {
  const p = preset($("sp-preset", HTMLSelectElement).value);
  if (!p) return;
  fillSetupAbout();
  const players = $("sp-players", HTMLSelectElement);
  const keep = Number(players.value);
  players.replaceChildren(...p.players.map((n) => el("option", { value: n, text: n })));
  players.value = String(p.players.includes(keep) ? keep : p.default_players);
  fillNames();
  const kind = limitKind(p);
  $("sp-limit-text").textContent = kind.text;
  $("sp-limit", HTMLInputElement).value = String(kind.value ?? (p.deals || 2 * Number(players.value)));
  $("sp-revoke", HTMLInputElement).value = String(p.revoke_penalty ?? "");
}

function fillNames() {
  const n = Number($("sp-players", HTMLSelectElement).value);
  const box = $("sp-names");
  const old = [...box.querySelectorAll("input")].map((i) => i.value);
  box.replaceChildren(el("legend", { text: t("scorepad.names") }));
  for (let i = 0; i < n; i++) {
    const player = t("name.player", { n: i + 1 });
    box.append(el("label", {}, `${player} `,
      el("input", { name: `name${i}`, maxlength: 40, value: old[i] || player, required: true })));
  }
  const dealer = $("sp-first-dealer", HTMLSelectElement);
  dealer.replaceChildren(...Array.from({ length: n }, (_, i) =>
    el("option", { value: i, text: old[i] || t("name.player", { n: i + 1 }) })));
  const p = preset($("sp-preset", HTMLSelectElement).value);
  if (p && limitKind(p).key === "deals" && !p.deals) $("sp-limit", HTMLInputElement).value = String(2 * n);
}

/** @param {Event} event */
async function startPad(event) {
  event.preventDefault();
  const p = preset($("sp-preset", HTMLSelectElement).value);
  if (!p) return;
  const n = Number($("sp-players", HTMLSelectElement).value);
  const names = Array.from({ length: n }, (_, i) =>
    /** @type {HTMLInputElement} */ ($("sp-names").querySelector(`[name=name${i}]`)).value.trim());
  /** @type {Record<string, number>} */
  const overrides = {};
  const kind = limitKind(p);
  const limit = $("sp-limit", HTMLInputElement).value.trim();
  const defaultLimit = kind.value ?? (p.deals || 2 * n);
  if (limit !== "" && Number(limit) !== defaultLimit) overrides[kind.key] = Number(limit);
  const revoke = $("sp-revoke", HTMLInputElement).value.trim();
  /** @type {PadSetup} */
  const setup = {
    preset: p.name, overrides, names, first_dealer: Number($("sp-first-dealer", HTMLSelectElement).value),
    revoke_penalty: revoke === "" ? null : Number(revoke), entries: [],
  };
  await send(setup, null, false, $("sp-start", HTMLButtonElement));
}

// ------------------------------------------------------------- the server

/** @param {Pad} state @returns {PadSetup} */
function setupOf(state) {
  return {
    preset: state.preset, overrides: state.overrides, names: state.names,
    first_dealer: state.first_dealer, revoke_penalty: state.revoke_penalty,
    entries: state.entries,
  };
}

/** Score the pad (with `entry` added, or the last deal taken back with `undo`) and show it;
 * whether the server took it. @param {PadSetup} setup @param {PadEntry | null} entry
 * @param {boolean} undo @param {HTMLButtonElement | null} button disabled meanwhile */
async function send(setup, entry, undo, button) {
  showError(null);
  if (button) button.disabled = true;
  try {
    const response = await request("/api/scorepad/score", { body: { pad: setup, entry, undo } });
    const body = response.data;
    if (!response.ok) {
      showError(body.error ? body : { error: `error ${response.status}` });
      return false;
    }
    /** @type {Pad} */
    const answer = body.pad;
    pad = answer;
    localStorage.setItem(STORE, JSON.stringify(setupOf(answer)));
    render();
    return true;
  } catch (err) {
    showError({ error: `${t("error.network")} (${err})`, rule: "network" });
    return false;
  } finally {
    if (button) button.disabled = false;
  }
}

/** @typedef {{error?: string, rule?: string, field?: string}} PadError an error answer, or the page's own */

/** @param {PadError | null} body */
function showError(body) {
  const box = pad ? $("sp-error") : $("sp-setup-error");
  document.querySelectorAll(".invalid").forEach((n) => {
    n.classList.remove("invalid");
    n.removeAttribute("aria-invalid");
  });
  if (!body) {
    $("sp-error").textContent = "";
    $("sp-setup-error").textContent = "";
    return;
  }
  $("sp-error").textContent = "";
  $("sp-setup-error").textContent = "";
  box.textContent = explain(body);
  const field = body.field || "";
  const hits = [.../** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-field]"))].filter((n) => {
    const f = n.dataset.field ?? "";
    return f === field || f.startsWith(field + "[") || f.startsWith(field + ".")
      || field.startsWith(f + "[") || field.startsWith(f + ".");
  });
  // Say the field as the form says it ("J♦" rather than "taken.JD").
  const label = hits.length && hits[0].id ? document.querySelector(`label[for="${hits[0].id}"]`)
    : null;
  if (label && body.error && body.error.startsWith(`${field}: `)) {
    box.textContent = lang === "en" ? `${label.textContent}: ${body.error.slice(field.length + 2)}`
      : t("error.bad-entry", { field: fieldLabel(field) });
  }
  hits.forEach((n) => {
    n.classList.add("invalid");
    n.setAttribute("aria-invalid", "true");
  });
  if (hits.length) hits[0].focus();
}

// The words the form shows for a field ("taken.JD" -> "J♦ (+1)", "card_points[0]" -> its
// group and the side's names), for errors in the page language.
/** @param {string} field */
function fieldLabel(field) {
  const node = document.querySelector(`[data-field="${field}"]`)
    || document.querySelector(`[data-field^="${field.split("[")[0]}"]`);
  if (!node) return field;
  const own = node.id ? document.querySelector(`label[for="${node.id}"]`)?.textContent : null;
  const group = node.closest("fieldset")?.querySelector("legend")?.textContent;
  const item = node.closest("label")?.querySelector("span")?.textContent;
  return [own ?? group, own ? null : item].filter(Boolean).join(", ") || field;
}

/** @param {PadError} body */
function explain(body) {
  // Replace seat numbers in field names by the players' names.
  if (lang !== "en" && body.rule === "bad-entry") return t("error.bad-entry", { field: fieldLabel(body.field || "") });
  if (lang !== "en" || body.rule === "network") return errorText(body);
  let text = body.error || "error";
  const field = body.field || "";
  // Say the field as the form says it ("card_points[0]" -> its group and the side's names).
  if (field && text.startsWith(`${field}: `)) return `${fieldLabel(field)}: ${text.slice(field.length + 2)}`;
  if (pad) {
    const names = pad.names;
    text = text.replace(/\[(\d+)\]/g, (m, i) => (names[i] ? ` (${names[i]})` : m));
  }
  return text;
}

// ------------------------------------------------------------------ render

function render() {
  $("setup").hidden = pad !== null;
  $("pad").hidden = pad === null;
  if (!pad) {
    $("entry-panel").hidden = true;
    $("undo-panel").hidden = true;
    return;
  }
  const p = preset(pad.preset);
  $("sp-title").textContent = t("scorepad.titleOf", { name: presetName(pad.preset) });
  $("sp-rules").textContent = rulesLine(pad);
  renderTable();
  renderResult();
  const form = pad.finished ? null : pad.next;
  $("entry-panel").hidden = !form;
  $("undo-panel").hidden = !!form || pad.deals.length === 0;
  $("sp-undo", HTMLButtonElement).disabled = pad.deals.length === 0;
  if (form) renderForm(form, p);
}

/** @param {Pad} state */
function rulesLine(state) {
  const params = { t: state.threshold, n: state.num_deals };
  const key = state.match_end === "fixed-deals"
    ? `scorepad.end.fixed-deals.${state.words.higher_better ? "highest" : "lowest"}`
    : `scorepad.end.${state.match_end}`;
  let text = t("scorepad.match", { end: t(key, params) });
  if (state.num_deals) {
    text += ` ${t("scorepad.dealsPlayed", { n: state.counted_deals, of: state.num_deals })}`;
  }
  if (state.revoke_penalty !== null) text += ` ${t("scorepad.revokeLine", { n: state.revoke_penalty })}`;
  return text;
}


function renderTable() {
  const pad = thePad();
  const table = $("sp-table");
  const names = pad.names;
  const sideReasons = pad.words.side_reasons;  // lines under no player (a side's own)
  const head = el("tr", {}, el("th", { scope: "col", text: "#" }),
    el("th", { scope: "col", text: t("scorepad.dealer") }),
    ...names.map((n) => el("th", { scope: "col", class: "num", text: n })));
  const rows = [];
  for (const deal of pad.deals) {
    const tr = el("tr", { class: deal.tiebreak ? "tiebreak" : deal.misdeal ? "misdeal" : null });
    tr.append(el("td", { text: String(deal.number) }), el("td", { text: names[deal.dealer] }));
    if (deal.misdeal) {
      tr.append(el("td", { colspan: names.length, class: "sp-muted",
        text: t("scorepad.misdealRow") }));
      rows.push(tr);
      continue;
    }
    names.forEach((_, seat) => {
      const playing = deal.seats.includes(seat);
      const why = deal.lines
        .filter((l) => !sideReasons.includes(l.reason) && l.player === seat && l.points !== 0)
        .map((l) => reasonWord(l, (code) => cardName(code, preset(pad.preset)?.suits === "german")))
        .filter(Boolean);
      const cell = el("td", { class: playing ? "num" : "num sp-muted" },
        playing ? String(deal.scores[seat]) : "–");
      if (deal.tiebreak && seat === deal.seats[0]) cell.dataset.tiebreak = "1";
      if (why.length) cell.append(el("small", { text: why.join(", ") }));
      tr.append(cell);
    });
    const head = /** @type {HTMLElement} */ (tr.firstChild);
    if (deal.tiebreak) head.textContent = t("scorepad.tiebreak", { n: deal.number });
    if (deal.redeal) head.textContent = t("scorepad.redeal", { n: deal.number });
    if (deal.partie_winner !== undefined && deal.partie_winner !== null) {
      tr.classList.add("partie-end");
      head.textContent = t("scorepad.partie", { n: deal.number });
    }
    rows.push(tr);
  }
  const totalLabel = t(`scorepad.total.${pad.words.total}`);
  const foot = el("tr", { class: "sp-total" }, el("th", { scope: "row", colspan: 2, text: totalLabel }),
    ...pad.totals.map((t, seat) => el("td", {
      class: "num" + (pad.winners.includes(seat) ? " winner" : "")
        + (pad.losers.includes(seat) ? " loser" : ""),
      id: `sp-total-${seat}`, text: t,
    })));
  const parts = [el("thead", {}, head), el("tbody", {}, ...rows), el("tfoot", {}, foot)];
  if (pad.sides.length && pad.parties_tally.length) {  // parties played by sides
    const won = names.map((_, s) => pad.parties_tally[sideOf(pad.sides, s)]);
    parts[2].append(el("tr", {}, el("th", { scope: "row", colspan: 2, text: t("scorepad.partiesWon") }),
      ...won.map((w) => el("td", { class: "num", text: String(w) }))));
  }
  table.replaceChildren(...parts);
}

/** @param {number[]} seats */
function listNames(seats) {
  const pad = thePad();
  return seats.map((s) => pad.names[s]).join(", ") || t("scorepad.nobody");
}

function renderResult() {
  const pad = thePad();
  const box = $("sp-result");
  box.replaceChildren();
  box.className = "";
  if (pad.finished) {
    box.className = "sp-over";
    box.append(el("strong", { text: t("scorepad.over") }));
    if (!pad.winners.length && !pad.losers.length) {
      box.append(t("scorepad.draw"));
    } else {
      box.append(t("scorepad.winners", { names: listNames(pad.winners), n: pad.winners.length }),
        t("scorepad.losers", { names: listNames(pad.losers), n: pad.losers.length }));
    }
  } else if (pad.tied.length) {
    box.className = "sp-tie";
    box.append(t("scorepad.tie", { names: listNames(pad.tied) }));
  }
  const note = pad.notes[pad.notes.length - 1];
  // The core's match-end notes are English only (no catalog keys yet): shown to English readers.
  if (note && pad.finished && lang === "en") box.append(el("div", { class: "sp-muted", text: `(${note})` }));
}

// -------------------------------------------------------------- the form

/**
 * A select of the seats for `field`, with a blank choice and `extra` [value, text] choices.
 * @param {string} field
 * @param {number[]} seats
 * @param {{blank?: string | null, extra?: string[][]}} [options]
 */
function seatSelect(field, seats, { blank = t("scorepad.choose"), extra = [] } = {}) {
  const select = el("select", { dataset: { field } });
  if (blank !== null) select.append(el("option", { value: "", text: blank }));
  for (const [value, text] of extra) select.append(el("option", { value, text }));
  const names = thePad().names;
  for (const s of seats) select.append(el("option", { value: s, text: names[s] }));
  return select;
}

/** A labelled form row. @param {string} label @param {HTMLElement} control @param {string} [hint] */
function row(label, control, hint) {
  const id = `f-${(control.dataset.field ?? "").replace(/[^a-z0-9]/gi, "-")}`;
  control.id = id;
  return el("div", { class: "sp-row" }, el("label", { for: id, text: label }), control,
    hint ? el("span", { class: "sp-muted", text: hint }) : null);
}

/** A number per seat. @param {string} field @param {number[]} seats @param {string} label @param {string} [hint] */
function numberGrid(field, seats, label, hint) {
  const pad = thePad();
  const box = el("fieldset", { class: "sp-grid" }, el("legend", { text: label }));
  for (const s of seats) {
    const input = el("input", { type: "number", min: 0, inputmode: "numeric",
      dataset: { field: `${field}[${s}]`, seat: s } });
    box.append(el("label", {}, el("span", { text: pad.names[s] }), input));
  }
  box.dataset.field = field;
  if (hint) box.append(el("p", { class: "sp-muted", text: hint }));
  return box;
}

/** @param {PadForm} form @param {PadPreset | undefined} p */
function renderForm(form, p) {
  const pad = thePad();
  const german = !!p && p.suits === "german";
  const fields = $("sp-fields");
  fields.replaceChildren();
  const seats = form.seats;
  const number = pad.deals.length + 1;
  $("sp-entry-title").textContent = t(form.tiebreak ? "scorepad.entryTitleTie"
    : "scorepad.entryTitle", { n: number, dealer: pad.names[form.dealer] });
  if (form.kind === "tricks") {
    const cards = el("fieldset", { class: "sp-cards" },
      el("legend", { text: t("scorepad.whoTook") }));
    for (const code of form.point_cards) {
      const extra = form.turn_up ? [["none", t("scorepad.nobodyTurnUp")]] : [];
      const select = seatSelect(`taken.${code}`, seats, { extra });
      const value = form.card_values[code];
      cards.append(row(`${cardName(code, german)} (${value > 0 ? "+" : ""}${value})`, select));
    }
    fields.append(cards);
    if (form.needs_first_trick) {
      fields.append(row(t("scorepad.firstTrick"), seatSelect("first_trick", seats)));
    }
    if (form.needs_last_trick) {
      fields.append(row(t("scorepad.lastTrick"), seatSelect("last_trick", seats)));
    }
    if (form.needs_tricks) {
      fields.append(numberGrid("tricks", seats, t("scorepad.tricksTaken"),
        t("scorepad.tricksInAll", { n: form.tricks_per_player })));
    }
    if (form.contract) {
      const name = t(`contract.${form.contract === "general-bonus" ? "general" : form.contract}`);
      const box = el("fieldset", {}, el("legend", { text: t("scorepad.contract", { name }) }));
      box.append(row(t("scorepad.declaredBy"), seatSelect("contract.declarer", seats,
        { blank: t("scorepad.nobody") })));
      box.append(row(t("scorepad.made"),
        el("input", { type: "checkbox", dataset: { field: "contract.made" } })));
      fields.append(box);
    }
    if (form.chelem) {
      fields.append(row(t("scorepad.chelem"), seatSelect("slam", seats,
        { blank: t("scorepad.nobody") })));
    }
  } else if (form.kind === "chips") {
    fields.append(numberGrid("card_points", seats, t("scorepad.cardPoints"),
      t("scorepad.cardPointsHint", { n: form.pack_points })));
    fields.append(numberGrid("tricks", seats, t("scorepad.tricksTaken"),
      t("scorepad.tricksInAll", { n: form.tricks_per_player })));
    if (!form.pool_in) fields.append(el("p", { class: "sp-muted", text: t("scorepad.redealNote") }));
  } else {
    const sides = pad.sides.map((_, i) => sideNames(pad.sides, i, (seat) => pad.names[seat]));
    const box = el("fieldset", { class: "sp-grid" }, el("legend", { text: t("scorepad.sidePoints") }));
    box.dataset.field = "card_points";
    sides.forEach((name, i) => box.append(el("label", {}, el("span", { text: name }),
      el("input", { type: "number", min: 0, dataset: { field: `card_points[${i}]` } }))));
    box.append(el("p", { class: "sp-muted", text: t("scorepad.sidePointsHint", { n: form.pack_points }) }));
    fields.append(box);
    const last = el("select", { dataset: { field: "last_trick" } },
      el("option", { value: "", text: t("scorepad.claimEnded") }),
      ...sides.map((name, i) => el("option", { value: i, text: name })));
    fields.append(row(t("scorepad.lastTrick"), last));
    fields.append(row(t("scorepad.claimed"), seatSelect("claim", [0, 1, 2, 3],
      { blank: t("scorepad.nobody") })));
    const anns = el("details", { class: "sp-anns" }, el("summary", { text: t("scorepad.announcements") }));
    for (const s of [0, 1, 2, 3]) {
      const line = el("fieldset", {}, el("legend", { text: pad.names[s] }));
      for (const a of form.announcements) {
        line.append(el("label", { class: "sp-check" }, el("input", { type: "checkbox",
          dataset: { field: "announcements", seat: s, ann: a } }), announceName(a)));
      }
      anns.append(line);
    }
    fields.append(anns);
  }
  if (form.revoke_penalty !== null) {
    fields.append(numberGrid("revokes", seats, t("scorepad.revokes", { n: form.revoke_penalty })));
  }
  const extra = el("details", { class: "sp-extra" }, el("summary", { text: t("scorepad.extra") }));
  for (const s of seats) {
    extra.append(row(t("scorepad.exposed", { name: pad.names[s] }), el("input", { type: "text",
      maxlength: 60, placeholder: t("scorepad.exposedHint"), dataset: { field: `exposed.${s}`, seat: s } })));
  }
  extra.append(row(t("scorepad.note"), el("input", { type: "text", maxlength: 200, dataset: { field: "note" } })));
  fields.append(extra);
  const first = /** @type {HTMLElement | null} */ (fields.querySelector("select, input"));
  if (first && document.activeElement?.closest("#entry") === null) first.focus();
}

/** The number grid `field` (n numbers), or undefined when the form has none.
 * @param {string} field @param {number} n @returns {number[] | undefined} */
function readNumbers(field, n) {
  const inputs = [.../** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll(`[data-field^="${field}["]`))];
  if (!inputs.length) return undefined;
  const out = Array(n).fill(0);
  for (const input of inputs) {
    const m = (input.dataset.field ?? "").match(/\[(\d+)\]$/);
    const v = input.value.trim();
    if (m) out[Number(m[1])] = v === "" ? 0 : Number(v);
  }
  return out;
}

/** @param {Pad} pad @param {PadForm} form @returns {PadEntry} */
function readEntry(pad, form) {
  const n = pad.names.length;
  /** @type {PadEntry} */
  const entry = {};
  /** @type {(field: string) => string | undefined} */
  const value = (field) => {
    const node = /** @type {HTMLInputElement | null} */ (document.querySelector(`[data-field="${field}"]`));
    return node ? node.value : undefined;
  };
  const seatOrNull = (/** @type {string | undefined} */ v) => (v === undefined || v === "" ? null : Number(v));
  if (form.kind === "tricks") {
    /** @type {Record<string, number | null>} */
    const taken = {};
    entry.taken = taken;
    for (const code of form.point_cards) {
      const v = value(`taken.${code}`);
      if (v === "none") taken[code] = null;
      else if (v !== "") taken[code] = Number(v);
    }
    if (form.needs_first_trick) entry.first_trick = seatOrNull(value("first_trick"));
    if (form.needs_last_trick) entry.last_trick = seatOrNull(value("last_trick"));
    if (form.needs_tricks) entry.tricks = readNumbers("tricks", n);
    const declarer = seatOrNull(value("contract.declarer"));
    if (declarer !== null) {
      entry.contract = { declarer,
        made: /** @type {HTMLInputElement} */ (document.querySelector('[data-field="contract.made"]')).checked };
    }
    const slam = seatOrNull(value("slam"));
    if (slam !== null) entry.slam = slam;
  } else if (form.kind === "chips") {
    entry.card_points = readNumbers("card_points", n);
    entry.tricks = readNumbers("tricks", n);
  } else {
    entry.card_points = readNumbers("card_points", 2);
    const last = seatOrNull(value("last_trick"));
    if (last !== null) entry.last_trick = last;
    const claim = seatOrNull(value("claim"));
    if (claim !== null) entry.claim = claim;
    entry.announcements = [.../** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll('[data-field="announcements"]'))]
      .filter((c) => c.checked)
      .map((c) => ({ player: Number(c.dataset.seat), announcement: c.dataset.ann }));
  }
  const revokes = readNumbers("revokes", n);
  if (revokes) {
    entry.revokes = revokes.flatMap((count, seat) => Array(Math.max(0, count)).fill(seat));
  }
  entry.exposed = [.../** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll('[data-field^="exposed."]'))]
    .filter((i) => i.value.trim())
    .map((i) => ({ player: Number(i.dataset.seat), cards: i.value.trim() }));
  const note = value("note");
  if (note && note.trim()) entry.note = note.trim();
  return entry;
}

// -------------------------------------------------------------------- wiring

async function boot() {
  presets = (await getJson("/api/scorepad/presets")).presets;
  $("sp-preset", HTMLSelectElement).replaceChildren(...presets.map((p) => el("option", { value: p.name,
    text: presetName(p.name) })));
  languagePicker($("lang"));
  translatePage();
  document.title = `${t("scorepad.title")} · Polignac`;
  onLang(() => {
    document.title = `${t("scorepad.title")} · Polignac`;
    const keep = $("sp-preset", HTMLSelectElement).value;
    [...$("sp-preset", HTMLSelectElement).options].forEach((o) => { o.textContent = presetName(o.value); });
    $("sp-preset", HTMLSelectElement).value = keep;
    const names = [...$("sp-names").querySelectorAll("input")].map((i) => i.value);
    fillNames();
    const kept = preset(keep);
    if (kept) $("sp-limit-text").textContent = limitKind(kept).text;
    fillSetupAbout();
    [...$("sp-names").querySelectorAll("input")].forEach((i, k) => { i.value = names[k] ?? i.value; });
    render();
  });
  fillSetup();
  $("sp-preset", HTMLSelectElement).addEventListener("change", fillSetup);
  $("sp-players", HTMLSelectElement).addEventListener("change", fillNames);
  $("sp-names").addEventListener("input", () => {
    const dealer = $("sp-first-dealer", HTMLSelectElement);
    [...dealer.options].forEach((o, i) => {
      const input = /** @type {HTMLInputElement | null} */ ($("sp-names").querySelector(`[name=name${i}]`));
      o.textContent = input && input.value.trim() ? input.value.trim() : t("name.player", { n: i + 1 });
    });
  });
  $("setup-form").addEventListener("submit", startPad);
  $("entry").addEventListener("submit", async (event) => {
    event.preventDefault();
    const pad = thePad(), form = pad.next;
    if (!form) return;
    const ok = await send(setupOf(pad), readEntry(pad, form), false, $("sp-score", HTMLButtonElement));
    if (ok) $("sp-table").scrollIntoView({ block: "nearest" });
  });
  $("sp-misdeal").addEventListener("click", () => send(setupOf(thePad()), { misdeal: true }, false,
    $("sp-misdeal", HTMLButtonElement)));
  /** @param {Event} event */
  const undo = (event) => send(setupOf(thePad()), null, true,
    /** @type {HTMLButtonElement} both undo buttons */ (event.currentTarget));
  $("sp-undo", HTMLButtonElement).addEventListener("click", undo);
  $("sp-undo-end").addEventListener("click", undo);
  $("sp-new").addEventListener("click", () => {
    if (pad && pad.deals.length && !pad.finished && !confirm(t("scorepad.confirmNew"))) return;
    localStorage.removeItem(STORE);
    pad = null;
    render();
  });
  const saved = localStorage.getItem(STORE);
  if (saved) {
    try {
      const ok = await send(JSON.parse(saved), null, false, null);
      if (!ok) localStorage.removeItem(STORE);
    } catch {
      localStorage.removeItem(STORE);
    }
  }
  render();
  document.body.dataset.ready = "1";
}

boot();
