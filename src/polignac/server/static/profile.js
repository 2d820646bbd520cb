// @ts-check
// A player's page: ratings per game family with their history (chart.js), statistics per
// game, the finished games (20 a page, newest first) and, on one's own page, the tables
// still being played; the follows' counts, where the player is when they show it, and the
// follow button (people.js). Reads GET /api/players/{name}.
import { languagePicker, levelName, onLang, presetName, t, translatePage } from "./i18n.js";
import { $, el, make } from "./dom.js";
import { getJson } from "./api.js";
import { showBlockInvite } from "./profile-blocks.js";
import { followButton, presenceDot, presenceNodes } from "./people.js";
// @ts-ignore chart.js is not type-checked
import { totalsChart } from "./chart.js";

const username = decodeURIComponent(location.pathname.split("/").pop() ?? "");
let page = Number(new URLSearchParams(location.search).get("page") ?? 0) || 0;
/** @type {any} */
let data = null;

/** @param {number} seconds */
function day(seconds) {
  return new Date(seconds * 1000).toLocaleDateString(document.documentElement.lang || undefined,
    { dateStyle: "medium" });
}

/** @param {string} pool */
function poolName(pool) { return t(`pool.${pool}`); }

function renderRatings() {
  const box = $("ratings");
  const pools = Object.entries(data.ratings);
  if (!pools.length) { box.replaceChildren(make("p", "small-muted", t("profile.noRatings"))); return; }
  box.replaceChildren(...pools.map(([pool, r]) => {
    const card = el("div", { class: "rating-card" },
      el("h3", {}, poolName(pool)),
      el("p", {}, el("span", { class: "big-number" }, String(r.rating)), ` ± ${r.deviation}`,
        r.provisional ? el("span", { class: "provisional" }, t("profile.provisional")) : null),
      el("p", { class: "small-muted" }, t("profile.matches", { n: r.matches })));
    let before = 1500;
    const deals = r.history.map((/** @type {any} */ h) => {
      const step = { scores: [h.rating - before] };
      before = h.rating;
      return step;
    });
    if (deals.length) {
      card.append(totalsChart([poolName(pool)], deals,
        { title: t("profile.chart"), origin: 1500, legend: false }));
    }
    return card;
  }));
}

function renderStats() {
  // The columns every game has, then those some game here counts (no Moons for Polignac).
  const rowsOf = Object.values(data.stats);
  const counted = (/** @type {string} */ c) => rowsOf.some((/** @type {any} */ s) => c === "capots" ? s.capots_declared : s[c]);
  const cols = ["matches", "won", "deals", "mean_points",
    ...["capots", "jacks", "polignacs", "parties_won", "moons"].filter(counted)];
  const head = el("tr", {}, el("th", {}, t("profile.game")),
    ...cols.map((c) => el("th", { scope: "col" }, t(`profile.col.${c}`))));
  const rows = Object.entries(data.stats).map(([preset, s]) => el("tr", {},
    el("th", { scope: "row" }, presetName(preset)),
    ...cols.map((c) => el("td", {}, c === "capots" ? `${s.capots_declared} / ${s.capots_made}`
      : c === "mean_points" ? (s.mean_points ?? 0).toFixed(2) : String(s[c] ?? 0)))));
  $("stats").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
  if (!rows.length) $("stats").replaceChildren(el("caption", { class: "small-muted empty" }, t("profile.noGames")));
}

/**
 * A seat of a game as the page lists it: the profile's own seat by the player's account
 * name (whatever name they gave at the table), a bot with its level.
 * @param {any} game @param {any} seat
 */
function seatLabel(game, seat) {
  if (seat.seat === game.seat) return data.username;
  return seat.kind === "bot" ? `${seat.name} (${levelName(seat.level)})` : seat.name;
}

function renderGames() {
  const games = data.games;
  $("games").replaceChildren(...games.map((/** @type {any} */ g) => el("li", {},
    el("span", { class: "place" }, t("profile.place", { place: g.place, n: g.seats.length })),
    el("span", {}, presetName(g.preset)),
    el("span", { class: "small-muted" }, `${day(g.finished_at)} · ${t(g.rated ? "profile.rated" : "profile.casual")}`),
    el("span", { class: "small-muted" }, g.seats.map((/** @type {any} */ s) => seatLabel(g, s)).join(", ")),
    el("a", { href: g.replay }, t("profile.replay")))));
  if (!games.length) $("games").replaceChildren(el("li", { class: "small-muted empty" }, t("profile.noGames")));
  // One page of games: no pager at all.
  $("pager").hidden = page === 0 && data.games_total <= data.page_size;
  $("newer", HTMLButtonElement).disabled = page === 0;
  $("older", HTMLButtonElement).disabled = (page + 1) * data.page_size >= data.games_total;
}

function renderUnfinished() {
  const list = data.unfinished ?? [];
  $("unfinished-panel").hidden = !list.length;
  $("unfinished").replaceChildren(...list.map((/** @type {any} */ u) => el("li", {},
    el("span", {}, presetName(u.preset)), el("span", { class: "small-muted" }, day(u.created_at)),
    el("a", { href: u.url }, t("profile.open")))));
}

function renderFollow() {
  const dot = presenceDot(data.online);
  $("presence").replaceChildren(...(dot ? [dot] : []), ...presenceNodes(data.online));
  $("follow-counts").textContent = `${t("people.followers", { n: data.followers })} · ${t("people.following", { n: data.following })}`;
  const box = $("follow-box");
  if (data.own) box.replaceChildren();
  else if (data.you_follow === null) {
    box.replaceChildren(el("a", { href: "/account", class: "small" }, t("people.signInToFollow", { name: data.username })));
  } else {
    box.replaceChildren(followButton(data.username, data.you_follow, (answer) => {
      data.you_follow = answer.following;
      data.followers = answer.followers;
      $("error").textContent = "";
      renderFollow();
      $("follow").focus();
    }, (message) => { $("error").textContent = message; }));
  }
}

function render() {
  if (!data) return;
  $("name").textContent = data.username;
  $("since").textContent = t("profile.since", { date: day(data.created_at) });
  document.title = `Polignac: ${data.username}`;
  renderRatings();
  renderStats();
  renderGames();
  renderUnfinished();
  showBlockInvite($("block-invite"), data.username);
  renderFollow();
}

async function load() {
  try {
    data = await getJson(`/api/players/${encodeURIComponent(username)}?page=${page}`);
    $("error").textContent = "";
    render();
  } catch (err) {
    $("error").textContent = err instanceof Error ? err.message : String(err);
  }
}

$("newer").addEventListener("click", () => { page = Math.max(0, page - 1); load(); });
$("older").addEventListener("click", () => { page += 1; load(); });
languagePicker($("lang", HTMLSelectElement));
translatePage();
onLang(render);
load();
