// @ts-check
// "Your turn": the timed tables where this person is to move (`GET /api/my-turn`: the
// signed-in account's from any browser, a guest's in this browser), soonest deadline first,
// each with its game, its time control and the time left; for the lobby and the account
// page. The box stays hidden while the list is empty.
import { presetName, t } from "./i18n.js";
import { make } from "./dom.js";
import { request } from "./api.js";
import { controlLabel, formatClock } from "./timecontrol.js";

/** @typedef {{table: string, url: string, preset: string, seat: number,
 *   deadline: number | null, time_control: import("./protocol.js").TimeControl | null}} Turn */

/** @type {{turns: Turn[], offset: number}} the last answer, and the server's time minus ours */
const last = { turns: [], offset: 0 };

/**
 * Draw the last list into `box` (a section with an `h2` and a `.turns` list).
 * @param {HTMLElement} box
 */
export function renderTurns(box) {
  const list = /** @type {HTMLElement} */ (box.querySelector(".turns"));
  list.replaceChildren();
  box.hidden = last.turns.length === 0;
  const now = Date.now() / 1000 + last.offset;
  for (const turn of last.turns.slice(0, 20)) {
    const row = make("li", "turn");
    row.dataset.table = turn.table;
    const what = make("span", "turn-game");
    what.append(make("strong", "", presetName(turn.preset)));
    if (turn.time_control) {
      const { label, title } = controlLabel(turn.time_control);
      what.append(" ", Object.assign(make("span", "badge time-control", label), { title }));
    }
    row.append(what);
    if (turn.deadline !== null && turn.time_control) {
      const left = formatClock(turn.deadline - now, turn.time_control.kind);
      row.append(make("span", "turn-left", t("lobby.timeLeft", { time: left })));
    }
    row.append(Object.assign(make("a", "button primary", t("lobby.play")), { href: turn.url }));
    list.append(row);
  }
}

/**
 * Fetch the list and draw it into `box` (a failed fetch keeps the last one).
 * @param {HTMLElement} box
 */
export async function loadTurns(box) {
  try {
    const r = await request("/api/my-turn");
    if (r.ok && r.data) {
      last.turns = r.data.turns ?? [];
      last.offset = (r.data.now ?? Date.now() / 1000) - Date.now() / 1000;
    }
  } catch { /* offline: the last list stays */ }
  renderTurns(box);
}
