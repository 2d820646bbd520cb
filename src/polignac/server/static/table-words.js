// @ts-check
// The table's words for actions and calls: a call's button label and what it does at this
// table (its contract points from the table's rules).
import { has, t } from "./i18n.js";
import { callLabel } from "./labels.js";
import { S } from "./table-state.js";

/** An action's label in words: "Declare capot", "Announce three Tens", "Pass" (labels.js,
 * the one home of these words, shared with the replay and the analysis). @param {string} a */
export function actionLabel(a) { return callLabel(a, S.table?.suits); }

/** A sentence on what a call (declaration, pass, claim, announcement) does at this table.
 * @param {string} a */
export function callHelp(a) {
  const points = S.table?.contract_points ?? 5;
  if (a === "pass") return t("callHelp.pass");
  if (a === "claim") return t("callHelp.claim");
  if (a.startsWith("announce:")) return t("callHelp.announce");
  const kind = S.table?.declaration === "general-bonus" ? "general-bonus" : a;
  return has(`callHelp.${kind}`) ? t(`callHelp.${kind}`, { points, n: points }) : "";  // n: the plural
}
