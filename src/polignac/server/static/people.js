// @ts-check
// Follows and presence (docs/people.md), what the player page and the lobby's panel share:
// where a person is in words, with its link (watch a public table, open an arena), or when
// they were last seen; and the button that follows a player or stops.
import { lang, presetName, t } from "./i18n.js";
import { el } from "./dom.js";
import { request, ApiError } from "./api.js";
import { errorText } from "./i18n.js";

/**
 * "5 minutes ago" in the page's language, from a number of seconds.
 * @param {number} seconds
 */
function ago(seconds) {
  const format = new Intl.RelativeTimeFormat(lang, { numeric: "auto" });
  const steps = /** @type {[Intl.RelativeTimeFormatUnit, number][]} */ (
    [["day", 86400], ["hour", 3600], ["minute", 60]]);
  for (const [unit, size] of steps) {
    if (seconds >= size) return format.format(-Math.floor(seconds / size), unit);
  }
  return format.format(-Math.max(1, Math.round(seconds)), "second");
}

/**
 * Where a person is (the server's `online`: null when they do not show it), as nodes:
 * "Online now, at a table of Polignac · Watch", or "Last seen 5 minutes ago".
 * @param {any} online
 * @returns {Node[]}
 */
export function presenceNodes(online) {
  if (!online) return [];
  if (!online.online) return [document.createTextNode(t("people.lastSeen", { when: ago(online.ago) }))];
  const game = online.preset ? presetName(online.preset) : "";
  const words = online.place === "table" ? (game ? t("people.atTable", { game }) : t("people.atSomeTable"))
    : online.place === "arena" ? t("people.inArena", { game })
      : t("people.inLobby");
  /** @type {Node[]} */
  const out = [document.createTextNode(words)];
  if (online.url) {
    out.push(document.createTextNode(" · "),
      el("a", { href: online.url, class: "place-link" },
        t(online.place === "arena" ? "people.openArena" : "people.watch")));
  }
  return out;
}

/**
 * The online dot: green when online, hollow when not (nothing when not shown).
 * @param {any} online
 */
export function presenceDot(online) {
  if (!online) return null;
  const label = t(online.online ? "people.isOnline" : "people.isOffline");
  return el("span", { class: online.online ? "dot on" : "dot", role: "img", "aria-label": label, title: label });
}

/**
 * The follow button for `name`: one press follows, the next stops (POST or DELETE
 * /api/follows/NAME); `changed(answer)` gets the server's {following, followers}.
 * @param {string} name
 * @param {boolean} following
 * @param {(answer: any) => void} changed
 * @param {(message: string) => void} failed
 */
export function followButton(name, following, changed, failed) {
  // The label says what a press does (no aria-pressed: its label would change too).
  const button = el("button", { type: "button", id: "follow", class: following ? "" : "primary",
    dataset: { following: following ? "yes" : "no" } }, t(following ? "people.unfollow" : "people.follow"));
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const answer = await request(`/api/follows/${encodeURIComponent(name)}`,
        { method: following ? "DELETE" : "POST", body: following ? undefined : {} });
      if (!answer.ok) throw new ApiError(errorText(answer.data) || `error ${answer.status}`, answer.status, answer.data);
      changed(answer.data);
    } catch (err) {
      failed(err instanceof Error ? err.message : String(err));
    } finally {
      button.disabled = false;
    }
  });
  return button;
}
