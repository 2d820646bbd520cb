// @ts-check
// The rules pages (/rules, /rules/{preset}): the server writes the text in the page
// language; this draws the scoring cards and the example trick (data-card, data-play) with
// the table's card pictures, and reloads the page in another language.
import { lang, languagePicker, onLang } from "./i18n.js";
import { cardSVG } from "./cards.js";

const page = document.documentElement.lang;
const url = new URL(location.href);
if (lang !== page && !url.searchParams.has("lang")) {
  // The visitor chose another language on this browser than the server guessed.
  url.searchParams.set("lang", lang);
  location.replace(url);
}

languagePicker(document.getElementById("lang"));
onLang((code) => {
  url.searchParams.set("lang", code);
  location.assign(url);
});

for (const box of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".rule-cards, .example-trick"))) {
  for (const figure of box.querySelectorAll("figure")) {
    const code = figure.dataset.card ?? figure.dataset.play;
    if (code) figure.prepend(cardSVG(code, box.dataset.deck));
  }
}
document.body.dataset.ready = "1";
