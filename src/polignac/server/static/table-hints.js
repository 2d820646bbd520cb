// @ts-check
// Hints and the coach on the table page: the Hint button (POST /tables/{id}/hint), each legal
// card's expected cost on its corner, and a finished deal's analysis under its reasons.
import { $, make } from "./dom.js";
import { t } from "./i18n.js";
import { postJson } from "./api.js";
import { showTableDealAnalysis } from "./analysis.js";
import { S, myLegal, name, spectating } from "./table-state.js";

/**
 * The last hint: each action's cost over the best, for the position of event `seq`.
 * @type {{seq: number, unit: string, samples: number,
 *   actions: {action: string, cost: number, best: boolean}[]} | null}
 */
let hint = null;
let busy = false;
/** @type {{rerender: () => void, toast: (text: string) => void}} */
/** @type {{rerender: () => void, toast: (text: string) => void}} */
let hooks = { rerender: () => {}, toast: () => {} };

/** Once: how the page is drawn again and how an error is said. @param {typeof hooks} h */
export function initHints(h) {
  hooks = h;
  $("hint-btn").addEventListener("click", askHint);
}

/** The Hint button is there on your turn, with a choice, at a table that allows hints. */
export function hintAllowed() {
  return !!(S.table?.hints && !spectating() && myLegal().length >= 2);
}

/** The hint for the position on the page (null: none, it was for an earlier one, or you
 * have just acted: the card has left your hand and the position is no longer the hint's). */
function shownHint() {
  return hint && !S.pending && hint.seq === S.shownSeq && S.view?.deal?.legal ? hint : null;
}

/** @param {number} x */
function hintNumber(x) {
  return new Intl.NumberFormat(document.documentElement.lang || "en",
    { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(x);
}

/**
 * Put the hint's badge on `node` (a card or a call button) for `action`: a star on the best,
 * "+cost" on the others; the label says it in words.
 * @param {HTMLElement} node
 * @param {string} action
 * @param {string} label the node's words without the hint
 */
export function hintMark(node, action, label) {
  const h = shownHint();
  const entry = h?.actions.find((x) => x.action === action);
  if (!h || !entry) return;
  const unit = t(`hint.unit.${h.unit}`);
  const words = entry.best ? t("hint.bestTip", { unit })
    : t("hint.costTip", { cost: hintNumber(entry.cost), unit });
  node.classList.add("hinted");
  node.classList.toggle("hint-best", entry.best);
  const badge = make("span", "hint-badge" + (entry.best ? " best" : ""),
    entry.best ? "★" : t("hint.cost", { cost: hintNumber(entry.cost) }));
  badge.setAttribute("aria-hidden", "true");
  node.append(badge);
  node.title = node.title ? `${words} · ${node.title}` : words;
  node.setAttribute("aria-label", `${label}, ${words}`);
}

/** The Hint button and the line that says what the numbers are. */
export function renderHint() {
  const btn = $("hint-btn", HTMLButtonElement);
  btn.hidden = !hintAllowed();
  btn.disabled = busy;
  btn.textContent = t(busy ? "hint.busy" : "hint.button");
  btn.title = t("hint.help");
  const note = $("hint-note");
  const h = shownHint();
  note.hidden = !h || btn.hidden;
  note.textContent = h ? t("hint.note", { n: h.samples, unit: t(`hint.unit.${h.unit}`) }) : "";
}

/** Ask the server for a hint on the position on the page. */
export async function askHint() {
  if (!hintAllowed() || busy) return;
  busy = true;
  renderHint();
  try {
    hint = await postJson(`/tables/${S.tableId}/hint`);
  } catch (e) {
    hooks.toast(e.message);
  } finally {
    busy = false;
  }
  hooks.rerender();
}

// The analysis of a finished deal (analysis.js), asked for with a button under the deal's
// reasons; kept by deal number so that a redraw of the sheet does not lose it.
/** @type {Map<number, HTMLElement>} */
const dealAnalyses = new Map();

/**
 * The newest finished deal's reasons get a button that analyses it.
 * @param {HTMLElement} reasons the reasons' box (one details[data-deal] per deal)
 * @param {{number: number}[]} deals the summary's deals
 */
export function attachDealAnalysis(reasons, deals) {
  const newest = deals.length ? deals[deals.length - 1].number : null;
  for (const det of /** @type {NodeListOf<HTMLElement>} */ (reasons.querySelectorAll("details[data-deal]"))) {
    const n = Number(det.dataset.deal);
    let box = dealAnalyses.get(n);
    if (!box && n === newest) {
      const mine = make("div", "deal-analysis");
      const run = make("button", "small-button", t("analysis.run"));
      run.type = "button";
      run.dataset.i18n = "analysis.run";  // kept across redraws: a new language renames it
      run.addEventListener("click", () => {
        showTableDealAnalysis(mine, S.tableId, n, name, S.table?.suits ?? "french");
      });
      mine.append(run);
      dealAnalyses.set(n, mine);
      box = mine;
    }
    if (box) det.append(box);
  }
}
