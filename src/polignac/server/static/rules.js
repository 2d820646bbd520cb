// The rules pages (/rules, /rules/{preset}): the server writes the text in the page
// language; this draws the scoring cards and reloads the page in another language.
import { cardName, lang, languagePicker, onLang } from "./i18n.js";
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

for (const box of document.querySelectorAll(".rule-cards")) {
  const deck = box.dataset.deck;
  for (const code of box.dataset.cards.split(" ").filter(Boolean)) {
    const figure = document.createElement("figure");
    const caption = document.createElement("figcaption");
    caption.textContent = cardName(code, deck);
    figure.append(cardSVG(code, deck), caption);
    box.append(figure);
  }
}
document.body.dataset.ready = "1";
