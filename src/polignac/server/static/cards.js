// @ts-check
// Playing cards drawn as SVG by the project: French suits (clubs, diamonds, hearts, spades)
// and German suits (Acorns = C, Bells = D, Hearts = H, Leaves = S; Daus, König, Ober, Unter).
import { cardName, rankIndex } from "./i18n.js";
import { svgEl } from "./dom.js";


/** @typedef {"C" | "D" | "H" | "S"} Suit */

/** @type {Record<Suit, string>} */
const SUIT_PATHS = {
  H: "M50 92 C22 68 2 50 2 30 A24 24 0 0 1 50 22 A24 24 0 0 1 98 30 C98 50 78 68 50 92 Z",
  D: "M50 2 L92 50 L50 98 L8 50 Z",
  S: "M50 4 C78 32 98 48 98 64 A22 22 0 0 1 56 74 L66 96 L34 96 L44 74 " +
     "A22 22 0 0 1 2 64 C2 48 22 32 50 4 Z",
  C: "M50 6 A21 21 0 0 1 66 42 A21 21 0 1 1 58 76 L66 96 L34 96 L42 76 " +
     "A21 21 0 1 1 34 42 A21 21 0 0 1 50 6 Z",
};

// German suit symbols in a 100 by 100 box: [element, attributes] lists, coloured by CSS classes.
/** @type {Record<Suit, [string, Record<string, string | number>][]>} */
const GERMAN_SHAPES = {
  C: [ // an acorn: stem, nut, cap
    ["rect", { x: 45, y: 4, width: 10, height: 24, rx: 4, class: "g-stem" }],
    ["ellipse", { cx: 50, cy: 66, rx: 22, ry: 29, class: "g-nut" }],
    ["path", { d: "M20 54 C20 30 34 22 50 22 C66 22 80 30 80 54 Z", class: "g-cap" }],
    ["path", { d: "M30 34 L70 50 M30 50 L70 34 M40 26 L40 54 M60 26 L60 54", class: "g-hatch" }],
  ],
  S: [ // a leaf with its stalk and vein
    ["rect", { x: 46, y: 78, width: 8, height: 20, rx: 3, class: "g-stem leafstem" }],
    ["path", { d: "M50 2 C82 22 94 52 50 86 C6 52 18 22 50 2 Z", class: "g-leaf" }],
    ["path", { d: "M50 12 L50 80 M50 36 L34 26 M50 36 L66 26 M50 56 L30 44 M50 56 L70 44",
      class: "g-vein" }],
  ],
  H: [["path", { d: SUIT_PATHS.H, class: "g-heart" }]],
  D: [ // a bell: loop, body, band, slot
    ["circle", { cx: 50, cy: 15, r: 9, class: "g-loop" }],
    ["circle", { cx: 50, cy: 58, r: 36, class: "g-bell" }],
    ["path", { d: "M16 46 L84 46 L86 58 L14 58 Z", class: "g-band" }],
    ["rect", { x: 30, y: 76, width: 40, height: 7, rx: 3.5, class: "g-slot" }],
    ["circle", { cx: 50, cy: 79.5, r: 6, class: "g-slot" }],
  ],
};
export const SUIT_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };

let currentDeck = "french";
/** Draw French ("french") or German ("german") suits from now on. */
/** @param {string} deck */
export function setDeck(deck) { currentDeck = deck === "german" ? "german" : "french"; }
export function deck() { return currentDeck; }

/** A suit symbol of `size` units centred on (x, y).
 * @param {string} suit a suit letter (C, D, H, S) @param {number} x @param {number} y
 * @param {number} size @param {string} [pack] */
export function pip(suit, x, y, size, pack = currentDeck) {
  const g = svgEl("g", { transform: `translate(${x - size / 2} ${y - size / 2}) scale(${size / 100})` });
  if (pack === "german") {
    g.setAttribute("class", "gpip");
    for (const [name, attrs] of GERMAN_SHAPES[/** @type {Suit} */ (suit)] ?? []) g.append(svgEl(name, attrs));
  } else {
    g.append(svgEl("path", { d: SUIT_PATHS[/** @type {Suit} */ (suit)] ?? "" }));
  }
  return g;
}

/** A small SVG of one suit symbol (for captions: "trump ♠").
 * @param {string} suit @param {string} [pack] */
export function suitIcon(suit, pack = currentDeck) {
  const svg = svgEl("svg", { viewBox: "0 0 20 20", class: `suit-icon ${inkClass(suit, pack)}`,
    "aria-hidden": "true" });
  svg.append(pip(suit, 10, 10, 18, pack));
  return svg;
}

/** @param {string} code */
export function isRed(code) { return code[1] === "H" || code[1] === "D"; }

/** @param {string} suit @param {string} pack */
function inkClass(suit, pack) {
  if (pack === "german") return `ink g-${suit}`;
  return suit === "H" || suit === "D" ? "ink red" : "ink black";
}

/** @param {string} code @param {string} [pack] */
export function cardLabel(code, pack = currentDeck) { return cardName(code, pack); }

/** An SVG picture of the card `code` ("JS", "TH"), 60 by 84 units.
 * @param {string} code @param {string} [pack] */
export function cardSVG(code, pack = currentDeck) {
  const rank = code[0], suit = code[1];
  const svg = svgEl("svg", { viewBox: "0 0 60 84", class: `card-svg ${pack}`, role: "img",
    "aria-label": cardLabel(code, pack) });
  svg.dataset.card = code;
  svg.append(svgEl("rect", { x: 1, y: 1, width: 58, height: 82, rx: 5, class: "card-face" }));
  const ink = svgEl("g", { class: inkClass(suit, pack) });
  const text = rankIndex(rank, pack);
  /** @param {SVGElement} g */
  const corner = (g) => {
    g.append(svgEl("text", { x: 9, y: 14, class: "corner" }, text));
    g.append(pip(suit, 9, 22, pack === "german" ? 11 : 9, pack));
  };
  corner(ink);
  const bottom = svgEl("g", { transform: "rotate(180 30 42)" });
  corner(bottom);
  ink.append(bottom);
  if ("JQK".includes(rank)) {
    ink.append(svgEl("rect", { x: 16, y: 14, width: 28, height: 56, rx: 3, class: "court" }));
    ink.append(svgEl("text", { x: 30, y: 51, class: "court-letter" }, text));
    if (pack === "german") {
      // The Ober holds his suit high, the Unter low, the König in front of him.
      const y = rank === "Q" ? 25 : rank === "J" ? 61 : 60;
      ink.append(pip(suit, 30, y, 14, pack));
    } else {
      ink.append(pip(suit, 30, 60, 10, pack));
    }
  } else if (rank === "A") {
    ink.append(pip(suit, 30, 42, 30, pack));
  } else if (pack === "german") {
    // Number cards: pips in two columns, like the German pack.
    const n = rank === "T" ? 10 : Number(rank);
    const rows = Math.ceil(n / 2);
    for (let i = 0; i < n; i++) {
      const col = n % 2 && i === n - 1 ? 30 : (i % 2 ? 38 : 22);
      const row = Math.floor(i / 2);
      const y = 21 + (rows === 1 ? 21 : (row * 42) / (rows - 1));
      ink.append(pip(suit, col, y, 10, pack));
    }
  } else {
    ink.append(pip(suit, 30, 42, 22, pack));
  }
  svg.append(ink);
  return svg;
}

/** The back of a card. */
export function cardBack() {
  const svg = svgEl("svg", { viewBox: "0 0 60 84", class: "card-svg back", "aria-hidden": "true" });
  svg.append(svgEl("rect", { x: 1, y: 1, width: 58, height: 82, rx: 5, class: "card-back" }));
  svg.append(svgEl("rect", { x: 6, y: 6, width: 48, height: 72, rx: 3, class: "card-back-inner" }));
  return svg;
}
