// @ts-check
// The invitation page and the error pages: the language picker, the page's words, and
// an error's message in the reader's language when the catalog has its rule.
import { has, languagePicker, onLang, t, translatePage } from "./i18n.js";

const notice = document.getElementById("notice");
const message = document.getElementById("message");
const english = message?.textContent ?? "";

function translateMessage() {
  if (!notice || !message) return;
  const key = `seats.error.${notice.dataset.rule}`;
  message.textContent = has(key) ? t(key) : english;
  document.title = `Polignac: ${t("seats.errorTitle")} (${notice.dataset.code})`;
}

languagePicker(document.getElementById("lang"));
translatePage();
translateMessage();
onLang(translateMessage);
