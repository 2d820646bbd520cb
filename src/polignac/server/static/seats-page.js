// @ts-check
// The invitation page and the error pages: the language picker, the page's words, and
// an error's message in the reader's language when the catalog has its rule.
import { has, languagePicker, onLang, presetName, t, translatePage } from "./i18n.js";

const notice = document.getElementById("notice");
const message = document.getElementById("message");
const english = message?.textContent ?? "";

function translateMessage() {
  if (!notice || !message) return;
  const key = `seats.error.${notice.dataset.rule}`;
  message.textContent = has(key) ? t(key) : english;
  document.title = `Polignac: ${t("seats.errorTitle")} (${notice.dataset.code})`;
}

/** The invitation's game by its name in the reader's language (the page carries its id). */
function translateGame() {
  const game = document.getElementById("join-preset");
  if (game?.dataset.preset) game.textContent = presetName(game.dataset.preset);
}

languagePicker(document.getElementById("lang"));
translatePage();
translateMessage();
translateGame();
onLang(translateMessage);
onLang(translateGame);
