// @ts-check
// Page text in English, French and German: t(key, params), the language picker, card names.
// The texts live in one catalog per language (src/polignac/i18n/catalog/*.json), shared
// with the server and the command line; the server serves them at /i18n/{lang}.json.
const STORE = "polignac-lang";
/** @typedef {"en" | "fr" | "de"} Lang */
/** @type {Record<Lang, string>} */
export const LANGS = { en: "English", fr: "Français", de: "Deutsch" };

/** @param {string} code @returns {code is Lang} */
function isLang(code) { return Object.hasOwn(LANGS, code); }

// Keys waiting to move into the catalog files: blocks appended here (one per feature,
// opened by `  // --- NAME keys`) are merged over the catalogs until they are moved.
/** @type {Record<string, string>} */
const EN = {
};

/** @type {Record<string, string>} */
const FR = {
};

/** @type {Record<string, string>} */
const DE = {
};

const PENDING = { en: EN, fr: FR, de: DE };
/** @type {Partial<Record<Lang, Record<string, string>>>} */
const TEXT = {};

/** @param {Lang} code @returns {Promise<Record<string, string>>} */
async function load(code) {
  const known = TEXT[code];
  if (known) return known;
  /** @type {Record<string, string>} */
  let loaded = {};
  try {
    const r = await fetch(`/i18n/${code}.json`);
    if (r.ok) loaded = await r.json();
  } catch { /* offline: the keys show */ }
  const text = { ...loaded, ...PENDING[code] };
  TEXT[code] = text;
  return text;
}

/** @returns {Lang} */
function initial() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked && isLang(asked)) return asked;
  try {
    const saved = localStorage.getItem(STORE);
    if (saved && isLang(saved)) return saved;
  } catch { /* storage blocked */ }
  for (const l of navigator.languages ?? [navigator.language ?? "en"]) {
    const short = String(l).slice(0, 2).toLowerCase();
    if (isLang(short)) return short;
  }
  return "en";
}

/** Tell the server the page language (for the pages it writes, such as /rules). */
/** @param {Lang} code */
function remember(code) {
  try { localStorage.setItem(STORE, code); } catch { /* storage blocked */ }
  document.cookie = `${STORE}=${code}; path=/; max-age=31536000; SameSite=Lax`;
}

export let lang = initial();
/** @type {((code: Lang) => void)[]} */
const listeners = [];
await Promise.all([load("en"), load(lang)]);
if (new URLSearchParams(location.search).has("lang")) remember(lang);
for (const code of /** @type {Lang[]} */ (Object.keys(LANGS))) load(code);  // so that setLang is immediate
// The "Rules" link in a table page's header goes to the rules of that table's game.
const rulesLink = /** @type {HTMLAnchorElement | null} */ (document.getElementById("rules-link"));
if (rulesLink && /^\/tables\/[^/]+$/.test(location.pathname)) {
  rulesLink.href = `${location.pathname}/rules`;
}

/** The text for `key` in the current language, with {name} replaced from `params`.
 * A key with `.one`/`.other` forms is a plural chosen by `params.n` (a number, or digits).
 * @param {string} key @param {Record<string, unknown>} [params] @returns {string} */
export function t(key, params = {}) {
  const here = TEXT[lang] ?? {}, en = TEXT.en ?? {};
  let text = here[key] ?? en[key];
  const count = typeof params.n === "number" ? params.n
    : typeof params.n === "string" && /^-?\d+(\.\d+)?$/.test(params.n) ? Number(params.n) : null;
  if (text === undefined && count !== null) {
    // CLDR's plural rules, as Babel's on the server: French 0 and 0,5 are singular
    const form = `${key}.${new Intl.PluralRules(lang).select(Math.abs(count)) === "one" ? "one" : "other"}`;
    text = here[form] ?? en[form];
  }
  if (text === undefined) return key;
  return text.replace(/\{(\w+)\}/g, (/** @type {string} */ m, /** @type {string} */ k) => (k in params ? String(params[k]) : m));
}

/** Whether `key` has a text (in any language). */
/** @param {string} key */
export function has(key) { const en = TEXT.en ?? {}; return key in en || `${key}.other` in en; }

/** Change the language, remember it, re-translate the page and tell the listeners. */
/** @param {string} code */
export function setLang(code) {
  if (!isLang(code)) return;
  const apply = () => {
    lang = code;
    remember(code);
    translatePage();
    for (const f of listeners) f(code);
  };
  if (TEXT[code]) apply(); else load(code).then(apply);
}

/** Call `f(lang)` after every language change. */
/** @param {(code: Lang) => void} f */
export function onLang(f) { listeners.push(f); }

/** Translate the elements marked data-i18n (text), data-i18n-title, data-i18n-aria,
 * data-i18n-placeholder. */
export function translatePage(root = document) {
  document.documentElement.lang = lang;
  /** @type {(selector: string) => NodeListOf<HTMLInputElement>} */
  const all = (selector) => root.querySelectorAll(selector);
  for (const node of all("[data-i18n]")) node.textContent = t(node.dataset.i18n ?? "");
  for (const node of all("[data-i18n-title]")) node.title = t(node.dataset.i18nTitle ?? "");
  for (const node of all("[data-i18n-aria]")) {
    node.setAttribute("aria-label", t(node.dataset.i18nAria ?? ""));
  }
  for (const node of all("[data-i18n-placeholder]")) {
    node.placeholder = t(node.dataset.i18nPlaceholder ?? "");
  }
}

/** Fill a <select> with the languages and wire it up. */
/** @param {HTMLElement | null} select the page's <select> (an element from `$` or getElementById)
 * @throws {Error} when it is not a <select> */
export function languagePicker(select) {
  if (!(select instanceof HTMLSelectElement)) throw new Error("the language picker is not a <select>");
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
/** @param {string} code @param {string} [deck] */
export function cardName(code, deck = "french") {
  const pack = deck === "german" ? "german" : "french";
  return t("card.name", { rank: t(`rank.${pack}.${code[0]}`), suit: t(`suitOf.${pack}.${code[1]}`) });
}

/** A suit's name in the current language. */
/** @param {string} suit @param {string} [deck] */
export function suitName(suit, deck = "french") {
  return t(`suit.${deck === "german" ? "german" : "french"}.${suit}`);
}

/** The corner index of a rank ("Q" -> "D" in French, "O" on a German pack): the catalog's rankIndex.* keys. */
/** @param {string} rank @param {string} [deck] */
export function rankIndex(rank, deck = "french") {
  if (rank === "T") return "10";
  const key = `rankIndex.${deck === "german" ? "german" : "french"}.${rank}`;
  return has(key) ? t(key) : rank;
}

/** A preset's name for people ("Polignac (French rules)"); the id when it has none. */
/** @param {string} id */
export function presetName(id) { return has(`preset.${id}.name`) ? t(`preset.${id}.name`) : id; }

/** A preset's one-line summary, or "". */
/** @param {string} id */
export function presetSummary(id) { return has(`preset.${id}.summary`) ? t(`preset.${id}.summary`) : ""; }

/** A bot level's name ("easy" -> "facile"). */
/** @param {string} level */
export function levelName(level) { return has(`level.${level}`) ? t(`level.${level}`) : level; }

/** A seat's name as this viewer reads it: a default name the server made ("Easy bot 2",
 * "Guest 2", sent with `name_key` and `name_params`) in the page language, else the name. */
/** @param {{name?: string, name_key?: string, name_params?: Record<string, unknown>} | null | undefined} seat */
export function seatName(seat) {
  if (seat && seat.name_key && has(seat.name_key)) return t(seat.name_key, seat.name_params ?? {});
  return seat?.name ?? "";
}

/** An error answer ({error, rule, ...}) or error frame in words: the rule's text in the page
 * language when the catalog has it, else the server's message. */
/** @param {unknown} body an answer's JSON, an error frame, or anything else (shown as a string) */
export function errorText(body) {
  if (body && typeof body === "object") {
    const fields = /** @type {Record<string, unknown>} */ (body);
    if (typeof fields.rule === "string" && has(`error.${fields.rule}`)) return t(`error.${fields.rule}`, fields);
    const words = fields.error ?? fields.message;
    if (words !== undefined && words !== null) return String(words);
  }
  return String(body ?? "");
}
