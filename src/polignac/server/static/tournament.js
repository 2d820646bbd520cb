// @ts-check
// An arena's page: its settings, the time to its start or end, Join/Pause/Leave, the
// standings pushed by /tournaments/{id}/ws whenever they change, the podium at the end.
// Once seated at a table, GET /api/tournaments/{id} answers `me.your_table` (and sets
// the seat's cookie): the page goes there, as Find players does.
import { languagePicker, onLang, presetName, t, translatePage } from "./i18n.js";
import { $, el } from "./dom.js";
import { getJson, postJson } from "./api.js";
import { everyText, startText } from "./arena-words.js";

const tid = location.pathname.split("/")[2] || "";
/** @type {any} */
let data = null;
/** @type {any} */
let me = null;
/** The server's clock minus this browser's, from the last answer (seconds). */
let skew = 0;

/** @param {number} s */
function duration(s) {
  s = Math.max(0, Math.round(s));
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, "0")}`;
}

/** @param {any} tc */
function control(tc) {
  if (tc.kind === "move") return t("arena.tc.move", { s: tc.seconds });
  return `${Math.round(tc.base / 60)}+${tc.increment}`;
}

function tickClock() {
  if (!data) return;
  const now = Date.now() / 1000 + skew;
  const text = data.state === "scheduled" ? t("arena.starts_in", { time: duration(data.starts_at - now) })
    : now < data.ends_at ? t("arena.ends_in", { time: duration(data.ends_at - now) })
    : data.playing ? t("arena.last_matches", { n: data.playing }) : t("arena.finished");
  $("clock").textContent = text;
}

/** @param {any} line */
function row(line) {
  const matches = line.matches.map((/** @type {any} */ m) => el("span", {
    class: m.win ? "arena-match win" : "arena-match", title: t("arena.place", { n: m.place }),
  }, String(m.points)));
  return el("tr", {},
    el("td", {}, String(line.rank)),
    el("td", {}, el("a", { href: `/players/${encodeURIComponent(line.name)}` }, line.name),
      line.fire ? el("span", { class: "fire", title: t("arena.fire") }, " 🔥") : null,
      line.state !== "joined" ? el("span", { class: "small-muted" }, ` (${t(`arena.state.${line.state}`)})`) : null),
    el("td", {}, String(line.points)),
    el("td", { class: "arena-matches" }, ...matches));
}

function render() {
  if (!data) return;
  $("title").textContent = t("arena.named", { game: presetName(data.preset) });
  $("settings").textContent = t("arena.settings", {
    seats: data.seats, tc: control(data.time_control), minutes: data.minutes,
    rated: data.rated ? t("arena.rated") : t("arena.casual"),
    bots: data.bot_wait === null ? t("arena.no_bots") : t("arena.bots_after", { s: data.bot_wait }),
  });
  $("when").textContent = [t("arena.starts_at", { when: startText(data.starts_at) }),
    data.schedule ? t("arena.by_schedule", { name: data.schedule.name, every: everyText(data.schedule) }) : ""]
    .filter(Boolean).join(" · ");
  const state = me && me.state;
  const over = data.state === "finished";
  $("join", HTMLButtonElement).hidden = over || !me || state === "joined";
  $("pause", HTMLButtonElement).hidden = over || state !== "joined";
  $("leave", HTMLButtonElement).hidden = over || !state || state === "left";
  $("mine").replaceChildren(over ? "" : !me  // a guest joins no arena: accounts only
    ? el("a", { href: "/account", id: "sign-in-to-join" }, t("arena.sign_in"))
    : state ? t(`arena.you.${state}`) : "");
  const head = el("tr", {}, el("th", { scope: "col" }, t("board.rank")), el("th", { scope: "col" }, t("board.player")),
    el("th", { scope: "col" }, t("arena.points")), el("th", { scope: "col", class: "arena-matches" }, t("arena.matches")));
  $("standings").replaceChildren(el("thead", {}, head), el("tbody", {}, ...data.standings.map(row)));
  if (!data.standings.length) $("standings").replaceChildren(el("caption", { class: "small-muted empty" }, t("arena.empty")));
  $("podium-panel").hidden = !data.podium;
  if (data.podium) {
    $("podium").replaceChildren(...data.podium.map((/** @type {any} */ p) =>
      el("li", {}, `${p.name}: ${t("arena.points_n", { n: p.points })}`)));
  }
  tickClock();
}

/** Read the tournament and this person's line; go to one's table once seated. */
async function load() {
  try {
    const got = await getJson(`/api/tournaments/${encodeURIComponent(tid)}`);
    me = got.me;
    if (!data || got.now >= (data.now || 0)) { data = got; skew = got.now - Date.now() / 1000; }
    $("error").textContent = "";
    render();
    // once per table: coming back here from it does not send you there again
    if (me && me.your_table && me.state === "joined"
        && sessionStorage.getItem(`arena-${tid}`) !== me.your_table) {
      sessionStorage.setItem(`arena-${tid}`, me.your_table);
      location.assign(me.your_table);
    }
  } catch (err) {
    $("error").textContent = err instanceof Error ? err.message : String(err);
  }
}

/** @param {string} what */
async function change(what) {
  try {
    await postJson(`/api/tournaments/${encodeURIComponent(tid)}/${what}`);
    await load();
  } catch (err) {
    $("error").textContent = err instanceof Error ? err.message : String(err);
  }
}

function listen() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/tournaments/${encodeURIComponent(tid)}/ws`);
  ws.addEventListener("message", (e) => {
    const frame = JSON.parse(String(e.data));
    if (frame.type !== "standings") return;
    data = frame;
    skew = frame.now - Date.now() / 1000;
    render();
    if (me && me.state === "joined") load();  // maybe seated now
  });
  ws.addEventListener("close", () => setTimeout(listen, 3000));
}

for (const what of ["join", "pause", "leave"]) $(what).addEventListener("click", () => change(what));
languagePicker($("lang", HTMLSelectElement));
translatePage();
onLang(render);
setInterval(tickClock, 1000);
load();
listen();
