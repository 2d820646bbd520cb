// @ts-check
// The account page's "Blocked players" (docs/events.md, "Blocks and invitations"): the
// accounts I blocked (GET /api/blocks, newest first), each with a link to their page and
// Unblock (POST /api/blocks {name, block: false}); "Nobody" while the list is empty.
import { t } from "./i18n.js";
import { el } from "./dom.js";
import { getJson, postJson } from "./api.js";

/**
 * Fill `list` with the players I blocked; a refusal goes to `showError`.
 * @param {HTMLElement} list the `<ul>`
 * @param {(err: unknown) => void} showError
 * @returns {Promise<void>}
 * @throws {import("./api.js").ApiError} when the list cannot be read (signed out)
 */
export async function showBlocked(list, showError) {
  /** @type {string[]} */
  const names = (await getJson("/api/blocks")).blocks ?? [];
  if (!names.length) {
    list.replaceChildren(el("li", { class: "small-muted" }, t("account.blockedNone")));
    return;
  }
  list.replaceChildren(...names.map((name) => {
    const button = /** @type {HTMLButtonElement} */ (el("button", {
      type: "button", class: "unblock", "aria-label": t("account.unblockLabel", { name }),
    }, t("profile.unblock")));
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        await postJson("/api/blocks", { name, block: false });
        await showBlocked(list, showError);
      } catch (err) {
        button.disabled = false;
        showError(err);
      }
    });
    return el("li", {}, el("a", { href: `/players/${encodeURIComponent(name)}`, class: "person" }, name),
      " ", button);
  }));
}
