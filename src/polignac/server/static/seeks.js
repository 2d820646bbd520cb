// @ts-check
// The lobby's "Find players" (seek_routes.py): ask for a game, watch the open requests and
// how many people are online, count down when players are found, then go to the seat.
// The page asks GET /api/seeks every 2 s (every 0.5 s during a countdown): that keeps the
// request alive; when the page closes, the request is cancelled (a keepalive fetch).
import { onLang, presetName, t } from "./i18n.js";
import { $, make } from "./dom.js";
import { getJson, postJson, request } from "./api.js";
import { chosenControl, controlLabel, fillControlChoices } from "./timecontrol.js";

const form = $("seek-form", HTMLFormElement);
const presetPick = $("seek-preset", HTMLSelectElement);
const playersPick = $("seek-players", HTMLSelectElement);
const dealsPick = $("seek-deals", HTMLSelectElement);
const botsPick = $("seek-bots", HTMLSelectElement);
const ratedBox = $("seek-rated", HTMLInputElement);
const nameInput = $("seek-name", HTMLInputElement);
const timePick = $("seek-time", HTMLSelectElement);

/** A request for a game, as the server lists it.
 * @typedef {{preset: string, players: number, rated: boolean, deals?: number | null,
 *   time_control?: import("./protocol.js").TimeControl | null}} Seek */
/** A game of GET /api/presets, as Find players reads it.
 * @typedef {{name: string, players: number[], default_players: number}} SeekPreset */

/** @type {any} */ let info = null;     // GET /api/presets
/** @type {any} */ let state = null;    // the last GET /api/seeks answer
let timer = 0;
let leaving = false;                    // redirecting to the table: no cancel on pagehide

/**
 * @param {string} value
 * @param {string} text
 * @param {boolean} [selected]
 * @returns {HTMLOptionElement}
 */
function option(value, text, selected) {
  return Object.assign(document.createElement("option"), { value, textContent: text, selected: !!selected });
}

/** Seconds as m:ss.
 * @param {number} seconds */
function clock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** "Polignac · 4 players · rated · one deal"
 * @param {Seek} s */
function describe(s) {
  return [presetName(s.preset), t("seek.players", { n: s.players }),
    t(s.rated ? "seek.ratedShort" : "seek.casualShort"),
    ...(s.deals === 1 ? [t("seek.oneDealShort")] : []),
    ...(s.time_control ? [controlLabel(s.time_control).label] : [])].join(" · ");
}

function fillForm() {
  fillControlChoices(timePick, false);
  const keep = presetPick.value || "polignac";
  presetPick.replaceChildren(...info.presets.map((/** @type {SeekPreset} */ p) => option(p.name, presetName(p.name), p.name === keep)));
  fillPlayers();
  const bots = botsPick.value;
  /** @type {(number | null)[]} */
  const waits = info.seek.bots_after;  // null (never), then the server's waits in seconds
  const middle = String(waits.filter((w) => w !== null)[Math.floor((waits.length - 1) / 2)] ?? "never");
  botsPick.replaceChildren(...waits.map((w) => {
    const v = w === null ? "never" : String(w);
    return option(v, waitLabel(w), bots ? bots === v : v === middle);
  }));
}

/** "Never: only people", "After 45 seconds", "After 2 minutes"
 * @param {number | null} w seconds, null: never */
function waitLabel(w) {
  if (w === null) return t("seek.wait.never");
  return w % 60 === 0 ? t("seek.wait.minutes", { n: w / 60 }) : t("seek.wait.seconds", { n: w });
}

function fillPlayers() {
  /** @type {SeekPreset} */
  const p = info.presets.find((/** @type {SeekPreset} */ x) => x.name === presetPick.value);
  const keep = Number(playersPick.value);
  playersPick.replaceChildren(...p.players.map((n) => option(String(n), String(n),
    p.players.includes(keep) ? n === keep : n === p.default_players)));
  const deals = dealsPick.value;
  const short = info.seek.one_deal.includes(p.name);
  dealsPick.replaceChildren(option("match", t("seek.deals.match"), deals !== "1"),
    ...(short ? [option("1", t("seek.deals.single"), deals === "1")] : []));
}

function level() {
  const picked = /** @type {HTMLInputElement | null} */ (
    document.querySelector('#play-level input[name="level"]:checked'));
  return picked ? picked.value : info.play_now_level;
}

/** Ask for `body`'s game (a second request replaces the first).
 * @param {Record<string, unknown>} body */
async function ask(body) {
  $("seek-error").textContent = "";
  try {
    await postJson("/api/seeks", { ...body, level: level(), name: nameInput.value || undefined });
    poll();
  } catch (err) {
    $("seek-error").textContent = err.message;
  }
}

form.addEventListener("submit", (e) => {
  e.preventDefault();
  ask({ preset: presetPick.value, players: Number(playersPick.value), rated: ratedBox.checked,
    deals: dealsPick.value === "1" ? 1 : null, time_control: chosenControl(timePick),
    bots_after: botsPick.value === "never" ? null : Number(botsPick.value) });
});

async function cancel() {
  $("seek-error").textContent = "";
  try {
    await postJson("/api/seeks/cancel", {});
  } catch (err) {
    $("seek-error").textContent = err.message;
  }
  poll();
}

/** Put a listed request's game in the form (Join asks for it with one's own bot wait).
 * @param {Seek} s */
function showInForm(s) {
  presetPick.value = s.preset;
  fillPlayers();
  playersPick.value = String(s.players);
  dealsPick.value = s.deals === 1 ? "1" : "match";
  ratedBox.checked = s.rated;
  timePick.value = s.time_control ? JSON.stringify(s.time_control) : "none";
}

// ------------------------------------------------------------------ what the poll shows

function renderOnline() {
  $("online").textContent = state ? t("seek.online", { n: state.online }) : "";
}

function renderMine() {
  const box = $("seek-mine");
  const mine = state?.mine;
  box.hidden = !mine;
  if (!mine) { box.replaceChildren(); delete box.dataset.state; return; }
  box.dataset.state = mine.state;
  const what = make("div", "what");
  if (mine.state === "countdown") {
    const others = mine.with.map((/** @type {string} */ n) => (n === mine.name ? t("seek.you") : n));
    if (mine.bots) others.push(t("seek.bots", { n: mine.bots }));
    what.append(make("strong", "", t("seek.found")),
      make("span", "line", t("seek.startsIn", { n: Math.ceil(mine.seconds_left) })),
      make("span", "line", t("seek.with", { names: others.join(", ") })));
    box.replaceChildren(make("span", "big-count", String(Math.ceil(mine.seconds_left))), what,
      Object.assign(make("button", "", t("seek.leave")), { type: "button", id: "seek-cancel", onclick: cancel }));
    return;
  }
  if (mine.state === "seated" || mine.state === "creating") {
    what.append(make("strong", "", t("seek.going")));
    box.replaceChildren(what);
    return;
  }
  what.append(make("strong", "", t("seek.looking", { what: describe(mine) })),
    make("span", "line", t("seek.waited", { time: clock(mine.waited) })),
    make("span", "line", mine.bots_after === null ? t("seek.noBots")
      : mine.bots_in > 0 ? t("seek.botsIn", { time: clock(mine.bots_in) }) : t("seek.botsDue")));
  box.replaceChildren(what,
    Object.assign(make("button", "", t("seek.cancel")), { type: "button", id: "seek-cancel", onclick: cancel }));
}

/**
 * @param {Seek} s
 * @param {Seek | null | undefined} mine
 */
function sameAs(s, mine) {
  return mine && s.preset === mine.preset && s.players === mine.players && s.rated === mine.rated
    && (s.deals ?? null) === (mine.deals ?? null)
    && JSON.stringify(s.time_control ?? null) === JSON.stringify(mine.time_control ?? null);
}

/**
 * Who waits in a request: an account's name links to its profile, a guest's says so.
 * @param {{names: string[], people?: {name: string, guest?: boolean, profile?: string}[]}} s
 */
function people(s) {
  const box = make("div", "who");
  /** @type {{name: string, guest?: boolean, profile?: string}[]} */
  const list = s.people ?? s.names.map((name) => ({ name }));
  list.forEach((p, i) => {
    if (i) box.append(", ");
    if (p.profile) box.append(Object.assign(make("a", "", p.name), { href: p.profile }));
    else box.append(p.guest ? t("name.guestMark", { name: p.name }) : p.name);
  });
  return box;
}

function renderList() {
  const box = $("seek-list");
  const list = state?.seeks ?? [];
  if (!list.length) { box.replaceChildren(make("p", "small-muted", t("seek.none"))); return; }
  const tab = make("table", "seek-list");
  for (const s of list) {
    const row = tab.insertRow();
    const mine = sameAs(s, state.mine);
    if (mine) row.className = "mine";
    row.dataset.preset = s.preset;
    const game = row.insertCell();
    game.append(make("strong", "", presetName(s.preset)),
      make("div", "who", describe(s).split(" · ").slice(1).join(" · ")));
    const who = row.insertCell();
    who.append(make("span", "count", t("seek.waiting", { n: s.waiting })), people(s));
    const go = row.insertCell();
    if (!mine) {
      go.append(Object.assign(make("button", "join", t("seek.join")), {
        type: "button",
        onclick: () => { showInForm(s); form.requestSubmit(); },
      }));
    }
  }
  box.replaceChildren(tab);
}

function render() { renderOnline(); renderMine(); renderList(); }

async function poll() {
  clearTimeout(timer);
  try {
    const answer = await request("/api/seeks");
    if (answer.ok) state = answer.data;
  } catch { /* offline: try again */ }
  if (state?.mine?.state === "seated" && state.mine.url) {
    leaving = true;
    render();
    location.href = state.mine.url;
    return;
  }
  render();
  const quick = state?.mine && state.mine.state !== "waiting";
  timer = window.setTimeout(poll, quick ? 500 : 2000);
}

// Leaving the page leaves the request (the server also drops it when the polls stop).
window.addEventListener("pagehide", () => {
  const mine = state?.mine;
  if (!leaving && mine && (mine.state === "waiting" || mine.state === "countdown")) {
    // a fetch that outlives the page, not sendBeacon: a beacon without a body is a
    // no-cors request, whose Origin is null under the site's no-referrer policy
    fetch("/api/seeks/cancel", { method: "POST", credentials: "same-origin", keepalive: true })
      .catch(() => { /* the server drops it when the polls stop */ });
  }
});

presetPick.addEventListener("change", fillPlayers);
onLang(() => { if (info) { fillForm(); render(); } });

(async () => {
  info = await getJson("/api/presets");
  fillForm();
  poll();
})();

// Signed in: the request carries the account's name (the field is not needed).
request("/api/account").then(({ data }) => {
  if (data?.signed_in) $("seek-name-label").hidden = true;
}).catch(() => { /* offline */ });
