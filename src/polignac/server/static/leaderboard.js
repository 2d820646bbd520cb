// @ts-check
// The leaderboards: one per rating pool (game family), from GET /api/leaderboard?pool=P.
import { languagePicker, onLang, t, translatePage } from "./i18n.js";
import { $, el } from "./dom.js";
import { getJson } from "./api.js";

/** The pool on view: the address's ?pool=, else the server's default (its answer says). */
let pool = new URLSearchParams(location.search).get("pool");
/** @type {any} */
let data = null;

function render() {
  if (!data) return;
  $("pools").setAttribute("aria-label", t("board.pools"));
  $("pools").replaceChildren(...data.pools.map((/** @type {string} */ p) => {
    const b = el("button", { type: "button", "aria-pressed": String(p === pool) }, t(`pool.${p}`));
    b.addEventListener("click", () => { pool = p; history.replaceState(null, "", `?pool=${p}`); load(); });
    return b;
  }));
  $("pool-name").textContent = t(`pool.${pool}`);
  const head = el("tr", {}, el("th", { scope: "col" }, t("board.rank")), el("th", { scope: "col" }, t("board.player")),
    el("th", { scope: "col" }, t("board.rating")), el("th", { scope: "col" }, t("board.matches")));
  const rows = data.players.map((/** @type {any} */ p) => el("tr", {},
    el("td", {}, String(p.rank)),
    el("td", {}, el("a", { href: p.profile }, p.username),
      p.provisional ? el("span", { class: "provisional" }, t("profile.provisional")) : null),
    el("td", {}, `${p.rating} ± ${p.deviation}`), el("td", {}, String(p.matches))));
  $("board").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
  if (!rows.length) $("board").replaceChildren(el("caption", { class: "small-muted empty" }, t("board.empty")));
}

async function load() {
  try {
    data = await getJson(pool ? `/api/leaderboard?pool=${encodeURIComponent(pool)}`
      : "/api/leaderboard");
    pool = data.pool;
    $("error").textContent = "";
    render();
  } catch (err) {
    $("error").textContent = err instanceof Error ? err.message : String(err);
  }
}

languagePicker($("lang", HTMLSelectElement));
translatePage();
onLang(render);
load();
