// @ts-check
// The lobby's arenas: the coming and running ones (GET /api/tournaments, read when the
// page opens and every minute), and a button that creates one starting now.
import { onLang, presetName, t } from "./i18n.js";
import { $, el } from "./dom.js";
import { getJson, postJson } from "./api.js";

/** @type {any[]} */
let arenas = [];

function render() {
  $("arenas").replaceChildren(...arenas.map((a) => el("li", {}, el("a", { href: a.url },
    t("lobby.arena_line", { game: presetName(a.preset), state: t(`arena.when.${a.state}`), n: a.players })))));
  if (!arenas.length) $("arenas").replaceChildren(el("li", { class: "small-muted" }, t("lobby.arena_none")));
}

async function load() {
  try {
    arenas = (await getJson("/api/tournaments")).tournaments;
    render();
  } catch { /* the lobby works without its arenas */ }
}

$("arena-create").addEventListener("click", async () => {
  try {
    const made = await postJson("/api/tournaments", {
      preset: "polignac", seats: 4, time_control: { kind: "realtime", base: 180, increment: 2 },
      starts_at: Date.now() / 1000, minutes: 30, rated: false, bot_wait: 30,
    });
    location.assign(made.url);
  } catch (err) {
    $("arena-error").textContent = err instanceof Error ? err.message : String(err);
  }
});
onLang(render);
load();
setInterval(load, 60_000);
