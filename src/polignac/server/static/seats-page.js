// @ts-check
// The invitation page and the error pages: the language picker, the page's words, and
// an error's message in the reader's language when the catalog has its rule.  The
// invitation's form is sent as JSON, as every POST of the site (the server takes no
// form encoding): a seat, then the table; a refusal: its reason next to the form. An
// account's invitation (/tables/ID/invited/INVITE, invites.js) is the same page.
import { errorText, has, languagePicker, onLang, presetName, t, translatePage } from "./i18n.js";

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

const joinError = document.getElementById("join-error");
const joinForm = /** @type {HTMLFormElement | null} */ (document.getElementById("join-form"));
joinForm?.addEventListener("submit", async (event) => {
  event.preventDefault();
  const go = /** @type {HTMLButtonElement | null} */ (document.getElementById("join-go"));
  if (go) go.disabled = true;
  const name = /** @type {HTMLInputElement} */ (document.getElementById("join-name")).value;
  try {
    const r = await fetch(location.pathname + location.search, {
      method: "POST", credentials: "same-origin", redirect: "manual",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ name }) });
    if (r.type === "opaqueredirect" || r.redirected) {
      location.assign(location.pathname.replace(/\/(join|invited\/[^/]+)$/, ""));
      return;
    }
    /** @type {any} */
    let data = {};
    try { data = await r.json(); } catch { /* not JSON: the page again */ }
    const why = data?.rule || data?.error ? errorText(data) : "";
    if (why && joinError) {  // e.g. a name that is taken or reserved: say so, keep the form
      joinError.textContent = why;
      joinError.hidden = false;
      if (go) go.disabled = false;
      document.getElementById("join-name")?.focus();
      return;
    }
  } catch { /* the network failed: the page again */ }
  location.reload();
});

languagePicker(document.getElementById("lang"));
translatePage();
translateMessage();
translateGame();
onLang(translateMessage);
onLang(translateGame);
