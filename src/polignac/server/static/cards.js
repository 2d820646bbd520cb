// Playing cards drawn as SVG by the project: French suits (clubs, diamonds, hearts, spades).
const NS = "http://www.w3.org/2000/svg";

const SUIT_PATHS = {
  H: "M50 92 C22 68 2 50 2 30 A24 24 0 0 1 50 22 A24 24 0 0 1 98 30 C98 50 78 68 50 92 Z",
  D: "M50 2 L92 50 L50 98 L8 50 Z",
  S: "M50 4 C78 32 98 48 98 64 A22 22 0 0 1 56 74 L66 96 L34 96 L44 74 " +
     "A22 22 0 0 1 2 64 C2 48 22 32 50 4 Z",
  C: "M50 6 A21 21 0 0 1 66 42 A21 21 0 1 1 58 76 L66 96 L34 96 L42 76 " +
     "A21 21 0 1 1 34 42 A21 21 0 0 1 50 6 Z",
};
export const SUIT_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };
export const SUIT_NAME = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const RANK_TEXT = { T: "10" };
const RANK_NAME = { A: "Ace", K: "King", Q: "Queen", J: "Jack", T: "Ten", 9: "Nine", 8: "Eight",
  7: "Seven", 6: "Six", 5: "Five", 4: "Four", 3: "Three", 2: "Two" };

function el(name, attrs = {}, text) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function pip(suit, x, y, size) {
  const g = el("g", { transform: `translate(${x - size / 2} ${y - size / 2}) scale(${size / 100})` });
  g.append(el("path", { d: SUIT_PATHS[suit] }));
  return g;
}

export function isRed(code) { return code[1] === "H" || code[1] === "D"; }

export function cardLabel(code) {
  return `${RANK_NAME[code[0]] ?? code[0]} of ${SUIT_NAME[code[1]]}`;
}

/** An SVG picture of the card `code` ("JS", "TH"), 60 by 84 units. */
export function cardSVG(code) {
  const rank = code[0], suit = code[1];
  const svg = el("svg", { viewBox: "0 0 60 84", class: "card-svg", role: "img",
    "aria-label": cardLabel(code) });
  svg.append(el("rect", { x: 1, y: 1, width: 58, height: 82, rx: 5, class: "card-face" }));
  const ink = el("g", { class: isRed(code) ? "ink red" : "ink black" });
  const text = RANK_TEXT[rank] ?? rank;
  ink.append(el("text", { x: 9, y: 14, class: "corner" }, text));
  ink.append(pip(suit, 9, 22, 9));
  const bottom = el("g", { transform: "rotate(180 30 42)" });
  bottom.append(el("text", { x: 9, y: 14, class: "corner" }, text));
  bottom.append(pip(suit, 9, 22, 9));
  ink.append(bottom);
  if ("JQK".includes(rank)) {
    ink.append(el("rect", { x: 16, y: 18, width: 28, height: 48, rx: 3, class: "court" }));
    ink.append(el("text", { x: 30, y: 47, class: "court-letter" }, rank));
    ink.append(pip(suit, 30, 58, 10));
  } else {
    ink.append(pip(suit, 30, 42, rank === "A" ? 30 : 22));
  }
  svg.append(ink);
  return svg;
}

/** The back of a card. */
export function cardBack() {
  const svg = el("svg", { viewBox: "0 0 60 84", class: "card-svg back", "aria-hidden": "true" });
  svg.append(el("rect", { x: 1, y: 1, width: 58, height: 82, rx: 5, class: "card-back" }));
  svg.append(el("rect", { x: 6, y: 6, width: 48, height: 72, rx: 3, class: "card-back-inner" }));
  return svg;
}
