// @ts-check
// Invitations between accounts (web/invite_routes.py): invite a player to one of my tables
// with an open seat (`inviteTo`, `inviteButton`: the profile page, and the lead's follows
// panel), and "Your invitations" (`loadInvites`, `watchInvites`: the lobby), each with its
// game, who invites, the time left, Join (the invitation's page takes the seat) and Decline.
import { presetName, t } from "./i18n.js";
import { el, make } from "./dom.js";
import { getJson, postJson, request } from "./api.js";
import { formatClock } from "./timecontrol.js";

/** @typedef {{table: string, preset: string, url: string, open: number}} InviteTable */
/** @typedef {{id: string, table: string, preset: string | null, from: string,
 *   profile: string, expires_at: number, url: string}} Invite */

/**
 * The tables I sit at with an open seat (none when signed out).
 * @returns {Promise<InviteTable[]>}
 */
export async function invitableTables() {
  return (await getJson("/api/invites/tables")).tables ?? [];
}

/**
 * Invite the account `name` to `table` (by default my newest table with an open seat).
 * @param {string} name
 * @param {string} [table] a table's id
 * @returns {Promise<{invited: string, expires_at: number}>}
 * @throws {import("./api.js").ApiError} the server's refusal; Error when I sit at no such table
 */
export async function inviteTo(name, table) {
  if (!table) {
    const tables = await invitableTables();
    if (!tables.length) throw new Error(t("error.no-open-seat"));
    table = tables[0].table;
  }
  return postJson(`/tables/${encodeURIComponent(table)}/invite`, { name });
}

/**
 * An "Invite to my table" control for `name` (a table picker when I sit at several), or
 * null when I sit at no table with an open seat; `status` shows the answer.
 * @param {string} name
 * @param {HTMLElement} status
 * @returns {Promise<HTMLElement | null>}
 */
export async function inviteButton(name, status) {
  let tables;
  try { tables = await invitableTables(); } catch { return null; }
  if (!tables.length) return null;
  const box = make("span", "invite-control");
  /** @type {HTMLSelectElement | null} */
  let pick = null;
  if (tables.length > 1) {
    pick = /** @type {HTMLSelectElement} */ (el("select", { id: "invite-table", "aria-label": t("invite.pick") },
      ...tables.map((x) => el("option", { value: x.table }, `${presetName(x.preset)} · ${x.table}`))));
    box.append(pick);
  }
  const button = el("button", { type: "button", id: "invite", class: "primary" }, t("invite.button"));
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const r = await inviteTo(name, pick ? pick.value : tables[0].table);
      status.textContent = t("invite.sent", { name: r.invited });
      status.className = "small-muted";
    } catch (err) {
      status.textContent = err instanceof Error ? err.message : String(err);
      status.className = "error";
    } finally { button.disabled = false; }
  });
  box.append(button);
  return box;
}

/** @type {{invites: Invite[], offset: number}} the last answer, and the server's time minus ours */
const last = { invites: [], offset: 0 };

/**
 * Draw the last list into `box` (a section with a `.invites` list); hidden while empty.
 * @param {HTMLElement} box
 */
export function renderInvites(box) {
  const list = /** @type {HTMLElement} */ (box.querySelector(".invites"));
  const now = Date.now() / 1000 + last.offset;
  const live = last.invites.filter((i) => i.expires_at > now);
  box.hidden = live.length === 0;
  list.replaceChildren(...live.map((i) => {
    const row = make("li", "turn invitation");
    row.dataset.invite = i.id;
    const what = make("span", "turn-game");
    what.append(el("a", { href: i.profile }, t("invite.from", { name: i.from })), " · ",
      make("strong", "", i.preset ? presetName(i.preset) : ""));
    const decline = el("button", { type: "button", class: "decline" }, t("invite.decline"));
    decline.addEventListener("click", async () => {
      decline.disabled = true;
      try { await postJson("/api/invites/decline", { id: i.id }); } catch { /* gone already */ }
      last.invites = last.invites.filter((x) => x.id !== i.id);
      renderInvites(box);
    });
    row.append(what,
      make("span", "turn-left", t("invite.left", { time: formatClock(i.expires_at - now, "real") })),
      Object.assign(make("a", "button primary", t("invite.join")), { href: i.url }), decline);
    return row;
  }));
}

/**
 * Fetch my invitations and draw them into `box` (a failed fetch keeps the last list).
 * @param {HTMLElement} box
 */
export async function loadInvites(box) {
  try {
    const r = await request("/api/invites");
    if (r.ok && r.data) {
      last.invites = r.data.invites ?? [];
      last.offset = (r.data.now ?? Date.now() / 1000) - Date.now() / 1000;
    }
  } catch { /* offline: the last list stays */ }
  renderInvites(box);
}

/**
 * Keep `box` up to date: now, every 10 s while the page is shown, and when it is shown again.
 * @param {HTMLElement} box
 */
export function watchInvites(box) {
  loadInvites(box);
  setInterval(() => { if (!document.hidden) loadInvites(box); }, 10000);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) loadInvites(box); });
}
