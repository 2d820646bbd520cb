// @ts-check
// The lobby: "Play now", the table list, "Create table", the replay viewer link.
import {
  has, languagePicker, levelName, onLang, presetName, presetSummary, seatName, t, translatePage,
} from "./i18n.js";
import { inviteRow } from "./seats.js";
import { serverReason } from "./labels.js";
import { $, make } from "./dom.js";
import { getJson, postJson, request } from "./api.js";
import { chosenControl, controlLabel, fillControlChoices } from "./timecontrol.js";
import { loadTurns, renderTurns } from "./turns.js";
import { renderInvites, watchInvites } from "./invites.js";

const playNow = $("play-now", HTMLButtonElement);
const learnButton = $("learn", HTMLButtonElement);
const presetPick = $("preset", HTMLSelectElement);
const playersPick = $("players", HTMLSelectElement);
const privateBox = $("private", HTMLInputElement);
const hintsBox = $("hints", HTMLInputElement);
const createForm = $("create", HTMLFormElement);
const timePick = $("time-control", HTMLSelectElement);

/**
 * A house rule's form field (`GET /api/presets` `house_rules`, or a preset's own `params`).
 * @typedef {{name?: string, type?: string, label?: string, min?: number, max?: number,
 *   choices?: string[]}} HouseSpec
 */
/**
 * A game of `GET /api/presets`: its counts of players, its house rules and its rules' values
 * (read by name for the house rules' placeholders).
 * @typedef {{name: string, players: number[], default_players: number,
 *   params?: (string | HouseSpec)[], [rule: string]: unknown}} PresetInfo
 */
/** @typedef {{presets: PresetInfo[], levels: string[], play_now_level: string,
 *   house_rules: Record<string, HouseSpec>}} LobbyInfo */
/** A table of `GET /api/tables`.
 * @typedef {{id: string, preset: string, url?: string, rated?: boolean,
 *   time_control?: import("./protocol.js").TimeControl | null, status: string,
 *   open_seats?: number[], paused?: boolean, deal_number?: number,
 *   seats?: import("./protocol.js").TableSeat[]}} TableRow */
/** @typedef {{invite: string, seat: number}} CreatedInvite */

/** @type {LobbyInfo | null} */
let info = null;
/** @type {{tables?: TableRow[]} | false | null} GET /api/tables answer, or false when the server has none */
let tables = null;
/** @type {{id: string, url: string, private?: boolean, invites: any[]} | null} the last POST /api/tables answer */
let created = null;

playNow.addEventListener("click", async () => {
  playNow.disabled = true;
  try {
    const picked = /** @type {HTMLInputElement | null} */ (
      document.querySelector('#play-level input[name="level"]:checked'));
    const data = await postJson("/api/play-now", picked ? { level: picked.value } : {});
    location.href = data.url;
  } catch (e) {
    $("error").textContent = e.message;
    playNow.disabled = false;
  }
});

// The guided first deal (guide.py, guide.js).
learnButton.addEventListener("click", async () => {
  learnButton.disabled = true;
  try {
    location.href = (await postJson("/api/learn", {})).url;
  } catch (e) {
    $("error").textContent = e.message;
    learnButton.disabled = false;
  }
});

// Play now's level picker: each offered level, what it does, its measured strength
// (catalog `level.about.LEVEL`); the server's default (medium) checked.
function fillLevels() {
  const box = $("play-level");
  const old = /** @type {HTMLInputElement | null} */ (box.querySelector("input:checked"));
  if (!info) return;
  const keep = old ? old.value : info.play_now_level;
  box.replaceChildren(make("legend", "", t("lobby.level")));
  for (const level of info.levels) {
    const input = Object.assign(document.createElement("input"),
      { type: "radio", name: "level", value: level, checked: level === keep, id: `level-${level}` });
    const label = make("label", "level-choice");
    label.append(input, make("span", "level-name", levelName(level)),
      make("span", "level-about", t(`level.about.${level}`)));
    box.append(label);
  }
  box.append(make("p", "level-help", t("lobby.levelHelp")));
}

/**
 * @param {string | number} value
 * @param {string | number} [text] the value when none
 * @param {boolean} [selected]
 * @returns {HTMLOptionElement}
 */
function option(value, text, selected) {
  const o = document.createElement("option");
  o.value = String(value); o.textContent = String(text ?? value); o.selected = !!selected;
  return o;
}

/** @returns {PresetInfo | undefined} the game picked */
function preset() { return info?.presets.find((p) => p.name === presetPick.value); }

// The game picker: each game's name in the page language, its summary, its id and rules link.
function fillPresets() {
  const keep = presetPick.value || "polignac";
  presetPick.replaceChildren(...(info?.presets ?? []).map((p) => option(p.name, presetName(p.name),
    p.name === keep)));
  showPreset();
}

function showPreset() {
  const id = presetPick.value;
  const link = Object.assign(make("a", "", t("lobby.rulesLink")),
    { href: `/rules/${encodeURIComponent(id)}`, id: "preset-rules" });
  $("preset-about").replaceChildren(make("span", "", presetSummary(id) + " "),
    make("span", "pick-id", id), " · ", link);
}

function fillPlayers() {
  const p = preset();
  if (!p) return;
  const keep = Number(playersPick.value);
  playersPick.replaceChildren(...p.players.map((n) => option(n, n,
    p.players.includes(keep) ? n === keep : n === p.default_players)));
  fillSeats(); fillHouse();
}

function fillSeats() {
  const n = Number(playersPick.value);
  const box = $("seats");
  const old = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren(make("legend", "", t("lobby.seats")));
  for (let i = 0; i < n; i++) {
    const label = make("label", "", t("lobby.seat", { n: i + 1 }) + " ");
    const sel = document.createElement("select");
    sel.name = `seat${i}`;
    if (i === 0) sel.append(option("you", t("lobby.you")));
    else {
      (info?.levels ?? []).forEach((l) => sel.append(option(`bot:${l}`, t("lobby.bot", { level: levelName(l) }),
        l === "easy")));
      sel.append(option("open", t("lobby.open")));
      if (old[i]) sel.value = old[i];
    }
    label.append(sel);
    box.append(label);
  }
  privacyDefault();
  hintsDefault();
}

// Private by default for a table of you and bots (like Play now), public when a seat is
// open; once the creator ticks or unticks the box, it stays as they chose.
let privacyChosen = false;
function privacyDefault() {
  if (privacyChosen) return;
  const open = [...$("seats").querySelectorAll("select")].some((s) => s.value === "open");
  privateBox.checked = !open;
}
privateBox.addEventListener("change", () => { privacyChosen = true; });
$("seats").addEventListener("change", privacyDefault);

// Hints the same way: on when every other seat is a bot, off when a seat is open for a person.
let hintsChosen = false;
function hintsDefault() {
  if (hintsChosen) return;
  hintsBox.checked = ![...$("seats").querySelectorAll("select")].some((s) => s.value === "open");
}
hintsBox.addEventListener("change", () => { hintsChosen = true; });
$("seats").addEventListener("change", hintsDefault);

/**
 * The house rules that apply to the chosen game, in the form's order: the preset's `params`
 * (each a name of `info.house_rules`, or a spec with its `name`), else every house rule.
 * @returns {{name: string, type: string, label?: string, min?: number, max?: number,
 *   choices?: string[]}[]}
 */
function houseParams() {
  const p = preset();
  const rules = info?.house_rules ?? {};
  /** @type {(string | HouseSpec)[]} */
  const listed = Array.isArray(p?.params) ? p.params : Object.keys(rules);
  return /** @type {{name: string, type: string, label?: string, min?: number, max?: number, choices?: string[]}[]} */ (
    listed.map((x) => (typeof x === "string" ? { ...rules[x], name: x }
      : { ...(rules[x?.name ?? ""] ?? {}), ...x })).filter((x) => x && x.name && x.type));
}

function fillHouse() {
  const box = $("house");
  const p = preset() ?? /** @type {PresetInfo} */ ({});
  const fields = /** @type {NodeListOf<HTMLInputElement | HTMLSelectElement>} */ (
    box.querySelectorAll("input, select"));
  const old = Object.fromEntries([...fields].map((x) => [x.name, x.value]));
  box.replaceChildren(make("legend", "", t("lobby.house")));
  const params = houseParams();
  box.hidden = !params.length;
  for (const spec of params) {
    const key = spec.name;
    const text = has(`rule.${key}`) ? t(`rule.${key}`) : spec.label ?? key;
    const label = make("label", "", text + " ");
    /** @type {HTMLInputElement | HTMLSelectElement} */
    let input;
    if (spec.type === "choice") {
      const select = input = document.createElement("select");
      const name = (/** @type {unknown} */ c) => (c === null || c === undefined ? "—" : has(`choice.${c}`) ? t(`choice.${c}`) : c);
      select.append(option("", t("lobby.preset", { value: String(name(p[key])) })));
      (spec.choices ?? []).forEach((c) => select.append(option(c, String(name(c)))));
    } else {
      const number = input = document.createElement("input");
      number.type = "number";
      if (spec.min !== undefined) number.min = String(spec.min);
      if (spec.max !== undefined) number.max = String(spec.max);
      number.placeholder = p[key] === null || p[key] === undefined ? "—" : String(p[key]);
    }
    input.name = `rule:${key}`;
    input.dataset.type = spec.type;
    if (old[input.name]) input.value = old[input.name];
    label.append(input);
    box.append(label);
  }
}

// ------------------------------------------------------------------ the time control
// Untimed by default; real time (minutes each + seconds a move, or other), a fixed time a
// move, correspondence (days a move): docs/server.md, POST /api/tables `time_control`.
/** The time control's choices, in the page language (the one chosen kept). */
function fillTimeControls() {
  fillControlChoices(timePick, true);
  showTimeControl();
}

function showTimeControl() {
  $("tc-custom").hidden = timePick.value !== "custom";
  $("tc-help").hidden = timePick.value === "none";
}
timePick.addEventListener("change", showTimeControl);

/** The time control the form asks for (`{kind: "none"}`: untimed). */
function chosenTimeControl() {
  const v = timePick.value;
  if (v === "custom") {
    return { kind: "realtime", base: Math.round(Number($("tc-base", HTMLInputElement).value) * 60),
      increment: Number($("tc-inc", HTMLInputElement).value) };
  }
  return chosenControl(timePick);
}

/** The server's reason for refusing the form, in the page's language when it says its words
 * (`key`, `params`), beside the Create button.
 * @param {any} err an ApiError (its `data`: the server's answer), or what else was thrown */
function showCreateError(err) {
  const data = err?.data ?? {};
  const reason = serverReason(data);
  const head = err?.message ?? "";
  $("create-error").textContent = reason && reason !== head ? t("lobby.refused", { what: head, why: reason })
    : head;
}

function showCreated() {
  const box = $("created");
  if (!created) return;
  box.hidden = false;
  box.replaceChildren(make("p", "", t("lobby.invites")));
  for (const inv of created.invites) box.append(inviteRow(inv));
  if (created.private) box.append(make("p", "small-muted", t("seats.privateNote")));
  box.append(Object.assign(make("a", "button primary", t("lobby.goTable")), { href: created.url, id: "go-table" }));
}

createForm.addEventListener("submit", async (e) => {
  e.preventDefault();
  const form = new FormData(createForm);
  const n = Number(form.get("players"));
  const seats = [];
  for (let i = 0; i < n; i++) {
    const v = String(form.get(`seat${i}`));
    seats.push(v.startsWith("bot:") ? { kind: "bot", level: v.slice(4) } : { kind: v });
  }
  /** @type {Record<string, string | number>} */
  const overrides = {};
  for (const input of /** @type {NodeListOf<HTMLInputElement | HTMLSelectElement>} */ (
    $("house").querySelectorAll("[name^='rule:']"))) {
    if (input.value === "") continue;
    overrides[input.name.slice(5)] = input.dataset.type === "choice" ? input.value : Number(input.value);
  }
  $("create-error").textContent = "";
  try {
    const data = await postJson("/api/tables", { preset: form.get("preset"), players: n, seats,
      overrides, name: form.get("name"), private: form.get("private") === "on",
      hints: form.get("hints") === "on" && form.get("rated") !== "on", rated: form.get("rated") === "on",
      time_control: chosenTimeControl() });
    if (!data.invites.length) { location.href = data.url; return; }
    created = data;
    showCreated();
    loadTables();
  } catch (err) {
    showCreateError(err);
  }
});

// ------------------------------------------------------------------ the table list

async function loadTables() {
  try {
    const r = await request("/api/tables");
    tables = r.ok ? r.data : false;
  } catch {
    tables = false;
  }
  renderTables();
}

function renderTables() {
  const box = $("tables");
  box.replaceChildren();
  if (tables === null) return;
  if (tables === false) { box.append(make("p", "small-muted", t("lobby.tablesSoon"))); return; }
  const list = tables.tables ?? [];
  if (!list.length) { box.append(make("p", "small-muted", t("lobby.noTables"))); return; }
  const tab = make("table", "tables-list");
  for (const tb of list.slice(0, 30)) {
    const r = tab.insertRow();
    r.dataset.table = tb.id;
    const game = r.insertCell();
    game.append(make("strong", "", presetName(tb.preset)));
    if (tb.rated) game.append(" ", make("span", "badge rated", t("table.rated")));
    if (tb.time_control) {
      const { label, title } = controlLabel(tb.time_control);
      game.append(" ", Object.assign(make("span", "badge time-control", label), { title }));
    }
    const status = tb.status === "finished" ? "finished" :
      (tb.open_seats?.length ? "waiting" : "playing");
    const label = tb.paused && status !== "finished" ? t("seats.statusPaused") : t(`lobby.status.${status}`);
    game.append(make("div", "who", label +
      (tb.deal_number ? ` · ${t("table.deal")} ${tb.deal_number}` : "")));
    const who = r.insertCell();
    who.className = "who";
    who.textContent = (tb.seats ?? []).map((s) => (s.open ? `(${t("lobby.openSeat")})` :
      s.guest && !s.name_key ? t("name.guestMark", { name: s.name }) : seatName(s))).join(", ");
    const go = r.insertCell();
    const open = tb.status !== "finished" ? (tb.open_seats ?? []) : [];
    if (open.length) {
      const sit = make("button", "primary sit", t("lobby.sit"));
      sit.type = "button";
      sit.title = t("lobby.sitTitle", { seat: open[0] + 1 });
      sit.addEventListener("click", () => sitDown(tb.id, open[0], sit));
      go.append(sit, " ");
    }
    go.append(Object.assign(make("a", "button", t(tb.status === "finished" ? "table.replay" : "lobby.watch")),
      { href: tb.status === "finished" ? `/tables/${tb.id}/replay` : tb.url ?? `/tables/${tb.id}` }));
  }
  box.append(tab);
}

/** The name this person goes by here: the account's, else one typed in the lobby. */
function myName() {
  for (const input of document.querySelectorAll('input[name="name"]')) {
    if (input instanceof HTMLInputElement && input.value.trim()) return input.value.trim();
  }
  return undefined;
}

/**
 * Take the open `seat` of the public table `id` at once (`POST .../sit`), then go there.
 * @param {string} id
 * @param {number} seat
 * @param {HTMLButtonElement} button
 */
async function sitDown(id, seat, button) {
  button.disabled = true;
  try {
    location.href = (await postJson(`/tables/${id}/seats/${seat}/sit`, { name: myName() })).url;
  } catch (e) {
    $("error").textContent = e.message;
    button.disabled = false;
    loadTables();
  }
}

languagePicker($("lang"));
translatePage();
onLang(() => {
  if (info) { fillLevels(); fillPresets(); fillSeats(); fillHouse(); }
  fillTimeControls(); showCreated(); renderTables(); renderTurns($("your-turn")); renderInvites($("your-invites"));
});
fillTimeControls();

(async () => {
  info = await getJson("/api/presets");
  fillLevels();
  fillPresets();
  presetPick.addEventListener("change", () => { showPreset(); fillPlayers(); });
  playersPick.addEventListener("change", fillSeats);
  fillPlayers();
  loadTables();
  setInterval(loadTables, 10000);
  loadTurns($("your-turn"));
  setInterval(() => loadTurns($("your-turn")), 30000);
  watchInvites($("your-invites"));
})();

// ------------------------------------------------------------------ the account link
// Signed in: the header names the account and the name field starts with it.
request("/api/account").then(({ data }) => {
  if (!data?.signed_in) return;
  const link = $("account-link");
  link.removeAttribute("data-i18n");
  link.textContent = data.username;
  const name = document.querySelector('input[name="name"]');
  if (name instanceof HTMLInputElement && !name.value) name.value = data.username;
}).catch(() => { /* offline: the link stays */ });
