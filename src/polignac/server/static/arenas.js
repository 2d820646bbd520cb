// @ts-check
// The lobby's arenas: the coming and running ones (GET /api/tournaments, read when the
// page opens and every minute), with their start and, for a club's, its schedule; and
// the form that creates one (POST /api/tournaments): the game, the table size among the
// counts the game is played by, the time control, the start (now, in N minutes, or at a
// date and time of this browser), the length, rated, and bots after a wait or never.
import { onLang, presetName, t } from "./i18n.js";
import { $, el } from "./dom.js";
import { getJson, postJson } from "./api.js";
import { TIME_CHOICES, controlLabel } from "./timecontrol.js";
import { everyText, startText } from "./arena-words.js";

const SEATS = [3, 10];                               // tournament.py: SEATS_RANGE
const LENGTHS = [10, 20, 30, 45, 60, 90, 120, 180, 240, 360, 720];  // 10 to 720 minutes
const BOT_WAITS = [null, 10, 30, 60, 120, 300, 600];  // null: never; 10 to 600 seconds

const form = $("arena-form", HTMLFormElement);
const presetPick = $("arena-preset", HTMLSelectElement);
const seatsPick = $("arena-seats", HTMLSelectElement);
const timePick = $("arena-time", HTMLSelectElement);
const startPick = $("arena-start", HTMLSelectElement);
const inMinutes = $("arena-in", HTMLInputElement);
const atTime = $("arena-at", HTMLInputElement);
const lengthPick = $("arena-length", HTMLSelectElement);
const botsPick = $("arena-bots", HTMLSelectElement);

/** @type {any[]} */
let arenas = [];
/** @type {any} */
let info = null;  // GET /api/presets

/** @param {string} value @param {string} text @param {boolean} [selected] */
function option(value, text, selected) {
  return Object.assign(document.createElement("option"), { value, textContent: text, selected: !!selected });
}

function render() {
  $("arenas").replaceChildren(...arenas.map((a) => el("li", {}, el("a", { href: a.url },
    t("lobby.arena_line", { game: presetName(a.preset), state: t(`arena.when.${a.state}`), n: a.players })),
    el("span", { class: "small-muted arena-when" }, ` · ${startText(a.starts_at)}`
      + (a.schedule ? ` · ${a.schedule.name}, ${everyText(a.schedule)}` : "")))));
  if (!arenas.length) $("arenas").replaceChildren(el("li", { class: "small-muted" }, t("lobby.arena_none")));
}

async function load() {
  try {
    arenas = (await getJson("/api/tournaments")).tournaments;
    render();
  } catch { /* the lobby works without its arenas */ }
}

/** (Re)fill the form's choices in the page language, keeping what is chosen. */
function fillForm() {
  if (!info) return;
  const keep = presetPick.value || "polignac";
  const games = info.presets.filter((/** @type {any} */ p) =>
    p.players.some((/** @type {number} */ n) => n >= SEATS[0] && n <= SEATS[1]));
  presetPick.replaceChildren(...games.map((/** @type {any} */ p) => option(p.name, presetName(p.name), p.name === keep)));
  fillSeats();
  const time = timePick.value || JSON.stringify({ kind: "realtime", base: 180, increment: 2 });
  timePick.replaceChildren(...["realtime", "move"].map((kind) => {
    const g = Object.assign(document.createElement("optgroup"), { label: t(`lobby.tc.${kind}`) });
    g.append(...TIME_CHOICES[kind].map((c) => option(JSON.stringify(c), controlLabel(c).label)));
    return g;
  }));
  timePick.value = time;
  const start = startPick.value || "now";
  startPick.replaceChildren(...["now", "in", "at"].map((v) => option(v, t(`arena.start.${v}`), v === start)));
  const length = lengthPick.value || "30";
  lengthPick.replaceChildren(...LENGTHS.map((n) => option(String(n), t("arena.minutes", { n }), String(n) === length)));
  const bots = botsPick.value || "30";
  botsPick.replaceChildren(...BOT_WAITS.map((w) => {
    const v = w === null ? "never" : String(w);
    const text = w === null ? t("arena.bots.never") : w % 60 === 0
      ? t("seek.wait.minutes", { n: w / 60 }) : t("seek.wait.seconds", { n: w });
    return option(v, text, v === bots);
  }));
  showStart();
}

/** The table sizes of the chosen game that an arena allows. */
function fillSeats() {
  const p = info.presets.find((/** @type {any} */ x) => x.name === presetPick.value);
  const counts = p.players.filter((/** @type {number} */ n) => n >= SEATS[0] && n <= SEATS[1]);
  const keep = Number(seatsPick.value);
  const chosen = counts.includes(keep) ? keep : counts.includes(p.default_players) ? p.default_players : counts[0];
  seatsPick.replaceChildren(...counts.map((/** @type {number} */ n) => option(String(n), String(n), n === chosen)));
}

function showStart() {
  $("arena-in-label").hidden = startPick.value !== "in";
  $("arena-at-label").hidden = startPick.value !== "at";
}

/** The start the form asks for (epoch seconds), or NaN when the date is not filled. */
function startsAt() {
  const now = Date.now() / 1000;
  if (startPick.value === "in") return now + Number(inMinutes.value) * 60;
  if (startPick.value === "at") return atTime.value ? new Date(atTime.value).getTime() / 1000 : NaN;
  return now;
}

form.addEventListener("submit", async (e) => {
  e.preventDefault();
  const error = $("arena-error");
  error.textContent = "";
  const at = startsAt();
  if (!Number.isFinite(at)) {
    error.textContent = t("arena.start.missing");
    return;
  }
  try {
    const made = await postJson("/api/tournaments", {
      preset: presetPick.value, seats: Number(seatsPick.value), time_control: JSON.parse(timePick.value),
      starts_at: Math.round(at), minutes: Number(lengthPick.value),
      rated: $("arena-rated", HTMLInputElement).checked,
      bot_wait: botsPick.value === "never" ? null : Number(botsPick.value),
    });
    location.assign(made.url);
  } catch (err) {
    error.textContent = err instanceof Error ? err.message : String(err);
  }
});
presetPick.addEventListener("change", fillSeats);
startPick.addEventListener("change", showStart);
onLang(() => { render(); fillForm(); });
getJson("/api/presets").then((got) => { info = got; fillForm(); }).catch(() => { /* no form */ });
load();
setInterval(load, 60_000);
