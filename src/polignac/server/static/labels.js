// @ts-check
// The words for what a player does, in one place: a card, a call (pass, capot, general,
// claim, announcements such as `announce:three-tens`; an announcement of a suit, name-S, is
// said by the catalog's announce.suited.<name>), and who took a trick.
// The table, the replay viewer and the analysis all write actions through these.
import { cardName, has, presetName, suitName, t } from "./i18n.js";

/**
 * A call in words: "announce:three-tens" -> "Announce three Tens", "pass" -> "Pass";
 * an unknown call stays as it is.
 * @param {string} action
 * @param {string} [suits] the table's pack: "french" or "german"
 * @returns {string}
 */
export function callLabel(action, suits = "french") {
  if (action.startsWith("announce:")) {
    const what = action.slice("announce:".length);
    const suited = /^([a-z-]+)-([CDHS])$/.exec(what);  // an announcement of a suit: its name
    const words = suited && has(`announce.suited.${suited[1]}`)
      ? t(`announce.suited.${suited[1]}`, { suit: suitName(suited[2], suits) })
      : has(`announce.${what}`) ? t(`announce.${what}`) : what;
    return t("call.announce", { what: words });
  }
  return has(`call.${action}`) ? t(`call.${action}`) : action;
}

/**
 * Any action in words: a card's name ("QS" -> "Queen of spades") or a call.
 * @param {string} action
 * @param {string} [suits]
 * @returns {string}
 */
export function actionLabel(action, suits = "french") {
  if (/^[2-9TJQKA][CDHS]$/.test(action)) return cardName(action, suits);
  return callLabel(action, suits);
}

/**
 * "Anna took the trick." — or, for the viewer's own seat, the sentence in the second
 * person ("Vous prenez le pli.", "Du nimmst den Stich.") instead of "Vous prend le pli".
 * @param {string} name the seat's name as shown
 * @param {boolean} self whether the seat is the viewer's
 * @returns {string}
 */
export function tookTrick(name, self) {
  return self ? t("table.tookTrick.you") : t("table.tookTrick", { name });
}

/**
 * A house rule's value as the form shows it: a choice's words ("french" -> "French suits"),
 * else the value; the server quotes text values ("'x'"), the quotes go.
 * @param {unknown} value
 * @returns {string}
 */
function ruleValue(value) {
  const text = String(value ?? "");
  const bare = /^'(.*)'$/.test(text) ? text.slice(1, -1) : text;
  return has(`choice.${bare}`) ? t(`choice.${bare}`) : text;
}

/**
 * The server's reason for refusing a request, in the page language: an error answer
 * `{error, rule, key?, params?}` (a refused house-rule set: `key` "rulesError.<code>" and its
 * `params`, server/base/errors.py:rules_refused) from the catalog, the house rule named as the
 * Create form names it and its values in words; without a known key, the server's English.
 * @param {{error?: string, message?: string, key?: string, params?: Record<string, unknown>}} data
 * @returns {string}
 */
export function serverReason(data) {
  if (!data?.key || !has(data.key)) return data?.error ?? data?.message ?? "";
  const params = { ...(data.params ?? {}) };
  if (typeof params.param === "string") {
    const name = params.param.replace(/^'(.*)'$/, "$1");
    params.param = t("rulesError.quote", { name: has(`rule.${name}`) ? t(`rule.${name}`) : name });
  }
  if ("value" in params) params.value = ruleValue(params.value);
  if (typeof params.allowed === "string") params.allowed = params.allowed.split(", ").map(ruleValue).join(", ");
  if (typeof params.preset === "string") params.preset = presetName(params.preset.replace(/^'(.*)'$/, "$1"));
  return t(data.key, params);
}
