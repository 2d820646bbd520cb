// @ts-check
// The table's words for actions and calls: a call's button label and what it does at this
// table (its contract points from the table's rules).
import { has, t } from "./i18n.js";
import { S } from "./table-state.js";

/** An action's label in words: "Declare capot", "Announce three Tens", "Pass". */
export function actionLabel(a) {
  if (a.startsWith("announce:")) {
    const what = a.slice("announce:".length);
    return t("call.announce", { what: has(`announce.${what}`) ? t(`announce.${what}`) : what });
  }
  return has(`call.${a}`) ? t(`call.${a}`) : a;
}

/** A sentence on what a call (declaration, pass, claim, announcement) does at this table. */
export function callHelp(a) {
  const points = S.table?.contract_points ?? 5;
  if (a === "pass") return t("callHelp.pass");
  if (a === "claim") return t("callHelp.claim");
  if (a.startsWith("announce:")) return t("callHelp.announce");
  const kind = S.table?.declaration === "general-bonus" ? "general-bonus" : a;
  return has(`callHelp.${kind}`) ? t(`callHelp.${kind}`, { points }) : "";
}
