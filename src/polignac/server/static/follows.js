// @ts-check
// The lobby's People panel (docs/people.md): the people you follow (signed in), each with
// an online dot and where they are, and who is online now among those who show it, at
// most 50 names. Reads GET /api/follows and GET /api/online when the page opens and every
// 10 s while it is visible. While I sit at a table with an open seat, each followed person
// who is online has an Invite button (invites.js: my newest such table).
import { onLang, t } from "./i18n.js";
import { $, el } from "./dom.js";
import { getJson, ApiError } from "./api.js";
import { presenceDot, presenceNodes } from "./people.js";
import { invitableTables, inviteTo } from "./invites.js";

const SHOWN = 30;  // followed people listed at most (those online first)
/** @type {any[] | null} */ let followed = null;  // null: signed out
/** @type {any} */ let online = null;
/** @type {import("./invites.js").InviteTable[]} */ let tables = [];  // mine with an open seat

/**
 * The Invite button for `name` (my newest table with an open seat); its answer beside it.
 * @param {string} name
 * @returns {HTMLElement}
 */
function inviteControl(name) {
  const status = el("span", { class: "small-muted invite-status", role: "status" });
  const button = /** @type {HTMLButtonElement} */ (el("button", {
    type: "button", class: "invite-person", "aria-label": t("people.inviteLabel", { name }),
  }, t("people.invite")));
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const r = await inviteTo(name, tables[0]?.table);
      status.textContent = t("invite.sent", { name: r.invited });
      status.className = "small-muted invite-status";
    } catch (err) {
      status.textContent = err instanceof Error ? err.message : String(err);
      status.className = "error invite-status";
      button.disabled = false;
    }
  });
  return el("span", { class: "invite-row" }, button, status);
}

function renderFollows() {
  $("follows-box").hidden = followed === null;
  if (followed === null) return;
  const list = followed.slice(0, SHOWN).map((f) => el("li", {},
    presenceDot(f.online), el("a", { href: f.profile, class: "person" }, f.name),
    el("span", { class: "small-muted where" }, ...presenceNodes(f.online)),
    tables.length && f.online?.online ? inviteControl(f.name) : null));
  if (!followed.length) list.push(el("li", { class: "small-muted" }, t("people.noFollows")));
  if (followed.length > SHOWN) list.push(el("li", { class: "small-muted" }, t("people.more", { n: followed.length - SHOWN })));
  $("follows").replaceChildren(...list);
}

function renderOnline() {
  if (!online) return;
  const list = online.people.map((/** @type {any} */ p) => el("li", {},
    el("a", { href: p.profile, class: "person" }, p.name)));
  if (!list.length) list.push(el("li", { class: "small-muted" }, t("people.nobodyOnline")));
  $("online-people").replaceChildren(...list);
  $("online-more").textContent = online.more ? t("people.more", { n: online.more }) : "";
}

function render() { renderFollows(); renderOnline(); }

async function load() {
  if (document.hidden) return;
  try {
    followed = (await getJson("/api/follows")).follows;
    // my tables with an open seat: asked only when someone to invite is online
    tables = followed?.some((f) => f.online?.online) ? await invitableTables().catch(() => []) : [];
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) followed = null;
  }
  try { online = await getJson("/api/online"); } catch { /* the lobby works without it */ }
  render();
}

onLang(render);
load();
setInterval(load, 10_000);
document.addEventListener("visibilitychange", () => { if (!document.hidden) load(); });
