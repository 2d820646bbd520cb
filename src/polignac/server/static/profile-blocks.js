// @ts-check
// A player's page, for a signed-in visitor who is not that player: Block / Unblock (with a
// confirm; web/block_routes.py) and "Invite to my table" (invites.js) when the visitor sits
// at a table with an open seat. Its own module so that other profile controls (follows)
// live beside it.
import { t } from "./i18n.js";
import { el, make } from "./dom.js";
import { getJson, postJson } from "./api.js";
import { confirmAction } from "./confirm.js";
import { inviteButton } from "./invites.js";

/** @type {{name: string, blocked: boolean, invite: HTMLElement | null} | null} */
let state = null;

/**
 * Draw the controls for the player `name` into `box` (again on each call: a language change
 * redraws them); nothing when signed out or on one's own page.
 * @param {HTMLElement} box
 * @param {string} name the player's username
 */
export async function showBlockInvite(box, name) {
  if (!state || state.name !== name) {
    const me = await getJson("/api/account").catch(() => ({ signed_in: false }));
    if (!me.signed_in || String(me.username).toLowerCase() === name.toLowerCase()) {
      box.replaceChildren();
      return;
    }
    const blocks = await getJson("/api/blocks").catch(() => ({ blocks: [] }));
    state = { name, blocked: blocks.blocks.some((/** @type {string} */ b) => b.toLowerCase() === name.toLowerCase()),
      invite: null };
  }
  const status = make("p", "small-muted");
  status.id = "people-status";
  status.setAttribute("role", "status");
  const current = state;
  const block = el("button", { type: "button", id: "block", class: current.blocked ? "" : "danger" },
    t(current.blocked ? "profile.unblock" : "profile.block"));
  block.addEventListener("click", async () => {
    if (!current.blocked && !await confirmAction({ title: t("profile.blockTitle", { name }),
      text: t("profile.blockText", { name }), yes: t("profile.block"), no: t("profile.cancel") })) return;
    try {
      const r = await postJson("/api/blocks", { name, block: !current.blocked });
      current.blocked = r.blocked;
      await showBlockInvite(box, name);
    } catch (err) {
      status.textContent = err instanceof Error ? err.message : String(err);
      status.className = "error";
    }
  });
  const row = el("div", { class: "profile-actions" });
  if (!current.blocked) {
    const invite = await inviteButton(name, status);
    if (invite) row.append(invite);
  }
  row.append(block);
  box.replaceChildren(row, current.blocked ? make("p", "small-muted", t("profile.blocked")) : "", status);
}
