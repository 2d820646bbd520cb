// @ts-check
// Page text in English, French and German: t(key, params), the language picker, card names.
// The texts live in one catalog per language (src/polignac/i18n/catalog/*.json), shared
// with the server and the command line; the server serves them at /i18n/{lang}.json.
const STORE = "polignac-lang";
export const LANGS = { en: "English", fr: "Français", de: "Deutsch" };

// Keys waiting to move into the catalog files: blocks appended here (one per feature,
// opened by `  // --- NAME keys`) are merged over the catalogs until they are moved.
const EN = {
};

const FR = {
};

const DE = {
};

const PENDING = { en: EN, fr: FR, de: DE };
const TEXT = {};

async function load(code) {
  if (TEXT[code]) return TEXT[code];
  let loaded = {};
  try {
    const r = await fetch(`/i18n/${code}.json`);
    if (r.ok) loaded = await r.json();
  } catch { /* offline: the keys show */ }
  TEXT[code] = { ...loaded, ...PENDING[code] };
  return TEXT[code];
}

function initial() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked && LANGS[asked]) return asked;
  try {
    const saved = localStorage.getItem(STORE);
    if (saved && LANGS[saved]) return saved;
  } catch { /* storage blocked */ }
  for (const l of navigator.languages ?? [navigator.language ?? "en"]) {
    const short = String(l).slice(0, 2).toLowerCase();
    if (LANGS[short]) return short;
  }
  return "en";
}

/** Tell the server the page language (for the pages it writes, such as /rules). */
function remember(code) {
  try { localStorage.setItem(STORE, code); } catch { /* storage blocked */ }
  document.cookie = `${STORE}=${code}; path=/; max-age=31536000; SameSite=Lax`;
}

export let lang = initial();
const listeners = [];
await Promise.all([load("en"), load(lang)]);
if (new URLSearchParams(location.search).has("lang")) remember(lang);
for (const code of Object.keys(LANGS)) load(code);  // so that setLang is immediate
// The "Rules" link in a table page's header goes to the rules of that table's game.
const rulesLink = /** @type {HTMLAnchorElement | null} */ (document.getElementById("rules-link"));
if (rulesLink && /^\/tables\/[^/]+$/.test(location.pathname)) {
  rulesLink.href = `${location.pathname}/rules`;
}

/** The text for `key` in the current language, with {name} replaced from `params`.
 * A key with `.one`/`.other` forms is a plural chosen by `params.n` (a number, or digits). */
export function t(key, params = {}) {
  let text = TEXT[lang][key] ?? TEXT.en[key];
  const count = typeof params.n === "number" ? params.n
    : typeof params.n === "string" && /^-?\d+(\.\d+)?$/.test(params.n) ? Number(params.n) : null;
  if (text === undefined && count !== null) {
    // CLDR's plural rules, as Babel's on the server: French 0 and 0,5 are singular
    const form = `${key}.${new Intl.PluralRules(lang).select(Math.abs(count)) === "one" ? "one" : "other"}`;
    text = TEXT[lang][form] ?? TEXT.en[form];
  }
  if (text === undefined) return key;
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

/** Whether `key` has a text (in any language). */
export function has(key) { return key in TEXT.en || `${key}.other` in TEXT.en; }

/** Change the language, remember it, re-translate the page and tell the listeners. */
export function setLang(code) {
  if (!LANGS[code]) return;
  const apply = () => {
    lang = code;
    remember(code);
    translatePage();
    for (const f of listeners) f(code);
  };
  if (TEXT[code]) apply(); else load(code).then(apply);
}

/** Call `f(lang)` after every language change. */
export function onLang(f) { listeners.push(f); }

/** Translate the elements marked data-i18n (text), data-i18n-title, data-i18n-aria,
 * data-i18n-placeholder. */
export function translatePage(root = document) {
  document.documentElement.lang = lang;
  /** @type {(selector: string) => NodeListOf<HTMLInputElement>} */
  const all = (selector) => root.querySelectorAll(selector);
  for (const node of all("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of all("[data-i18n-title]")) node.title = t(node.dataset.i18nTitle);
  for (const node of all("[data-i18n-aria]")) {
    node.setAttribute("aria-label", t(node.dataset.i18nAria));
  }
  for (const node of all("[data-i18n-placeholder]")) {
    node.placeholder = t(node.dataset.i18nPlaceholder);
  }
}

/** Fill a <select> with the languages and wire it up. */
export function languagePicker(select) {
  select.replaceChildren(...Object.entries(LANGS).map(([code, label]) => {
    const o = document.createElement("option");
    o.value = code; o.textContent = label; o.selected = code === lang;
    return o;
  }));
  select.setAttribute("aria-label", t("lang.label"));
  select.addEventListener("change", () => setLang(select.value));
  onLang(() => { select.value = lang; select.setAttribute("aria-label", t("lang.label")); });
}

/** The name of card `code` ("QS") in the current language, for a French or German pack. */
export function cardName(code, deck = "french") {
  const pack = deck === "german" ? "german" : "french";
  return t("card.name", { rank: t(`rank.${pack}.${code[0]}`), suit: t(`suitOf.${pack}.${code[1]}`) });
}

/** A suit's name in the current language. */
export function suitName(suit, deck = "french") {
  return t(`suit.${deck === "german" ? "german" : "french"}.${suit}`);
}

/** The corner index of a rank ("Q" -> "D" in French, "O" on a German pack): the catalog's rankIndex.* keys. */
export function rankIndex(rank, deck = "french") {
  if (rank === "T") return "10";
  const key = `rankIndex.${deck === "german" ? "german" : "french"}.${rank}`;
  return has(key) ? t(key) : rank;
}

/** A preset's name for people ("Polignac (French rules)"); the id when it has none. */
export function presetName(id) { return has(`preset.${id}.name`) ? t(`preset.${id}.name`) : id; }

/** A preset's one-line summary, or "". */
export function presetSummary(id) { return has(`preset.${id}.summary`) ? t(`preset.${id}.summary`) : ""; }

/** A bot level's name ("easy" -> "facile"). */
export function levelName(level) { return has(`level.${level}`) ? t(`level.${level}`) : level; }

/** A seat's name as this viewer reads it: a default name the server made ("Easy bot 2",
 * "Guest 2", sent with `name_key` and `name_params`) in the page language, else the name. */
export function seatName(seat) {
  if (seat && seat.name_key && has(seat.name_key)) return t(seat.name_key, seat.name_params ?? {});
  return seat?.name ?? "";
}

/** An error answer ({error, rule, ...}) or error frame in words: the rule's text in the page
 * language when the catalog has it, else the server's message. */
export function errorText(body) {
  if (body && body.rule && has(`error.${body.rule}`)) return t(`error.${body.rule}`, body);
  return body?.error ?? body?.message ?? String(body ?? "");
}
