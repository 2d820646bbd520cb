// @ts-check
// The guided first deal: short bubbles that explain the game when it matters.
//
// table.js loads this module when the table info says `guide: true` and hands it
// every frame after it has drawn it.  The guide reacts to what happens: the
// capot prompt, following suit, a Jack in the trick, being void in the suit led,
// a trick with a Jack (or the Polignac) taken, and the end of the deal.  The
// moments are the ones of polignac.server.tables.guide (turn_moments, trick_moments).
// One bubble at a time, anchored to the element it talks about, with "Got it";
// the cards it talks about glow.  The guide repeats no rule: which cards are
// legal, who took a trick and the scores come from the server.  What it needs of
// the page: the elements #hand, #trick, #prompt and #scores, cards that carry
// data-card (hand buttons, trick SVGs) and prompt buttons that carry data-action.
import { cardSVG } from "./cards.js";
import { cardName, onLang, rankIndex, seatName, suitName, t } from "./i18n.js";
import { make } from "./dom.js";
import { postJson } from "./api.js";

/** @typedef {import("./protocol.js").Frame} Frame */
/** @typedef {import("./protocol.js").MatchView} MatchView */
/** @typedef {import("./protocol.js").TableInfo} TableInfo */
/** @typedef {import("./protocol.js").DealView} DealView */
/** @typedef {import("./protocol.js").DoneTrick} DoneTrick */
/** @typedef {"right" | "above" | "below"} Side where a bubble goes next to its anchor */
/**
 * A bubble: its anchor's id, its text (in the page language when drawn), the elements that
 * glow (selectors), the sides it may go, whether it is still worth saying (a turn's), the
 * trick it speaks of (winner: an index into `cards`), and whether it is the last one.
 * @typedef {{anchor: string, text: () => string, spots?: string[], sides?: Side[],
 *   valid?: () => boolean | undefined, trick?: {cards: string[], winner: number},
 *   final?: boolean}} Bubble
 * @typedef {Bubble & {moment: string, node?: HTMLDivElement, row?: HTMLDivElement}} Shown
 *   a queued bubble, and once drawn its element and its cards' row
 * @typedef {{you: number | null, view: MatchView | null, table: TableInfo | null}} GuideContext
 *   what the table page shows when it hands the guide a frame
 */

const SPOT = "guide-spot";
/** @type {Side[]} */
const HAND = ["below", "above"];  // where a bubble about the hand (or the scores) goes

/**
 * Start the guide on this page.
 * @param {{tableId: string}} options
 * @returns {{frame: (f: Frame, now: GuideContext) => void}}
 */
export function startGuide({ tableId }) {
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = "/static/guide.css";
  document.head.append(link);

  const store = `polignac-guide-${tableId}`;
  /** @type {Set<string>} */
  let done = new Set();
  try { done = new Set(JSON.parse(sessionStorage.getItem(store) ?? "[]")); } catch { /* none */ }
  /** @type {Shown[]} */
  const queue = [];
  /** @type {Shown | null} */
  let current = null;
  /** @type {{you: number, view: MatchView, table: TableInfo}} the last frame's, set before any bubble */
  let ctx;

  const remember = (/** @type {string} */ moment) => {
    done.add(moment);
    try { sessionStorage.setItem(store, JSON.stringify([...done])); } catch { /* blocked */ }
  };

  /** @param {number} seat */
  function name(seat) {
    if (seat === ctx.you) return t("table.you");
    const info = ctx.table?.seats?.[seat];  // a default name ("Easy bot 2") in the page language
    if (info?.name) return seatName(info);
    return ctx.view.names?.[seat] ?? t("table.seatN", { n: seat + 1 });
  }
  const card = (/** @type {string} */ code) => cardName(code, ctx.table.suits);
  const suit = (/** @type {string} */ code) => suitName(code[1], ctx.table.suits);
  const isJack = (/** @type {string} */ code) => code[0] === "J";

  /** Queue the bubble for `moment` unless it was shown or queued already.
   * @param {string} moment @param {Bubble} bubble */
  function offer(moment, bubble) {
    if (done.has(moment) || current?.moment === moment) return;
    if (queue.some((b) => b.moment === moment)) return;
    // A bubble about the newcomer's turn (it has `valid`) is urgent: it goes before
    // the bubbles about finished tricks.
    const at = bubble.valid ? queue.findIndex((b) => !b.valid) : -1;
    queue.splice(at < 0 ? queue.length : at, 0, { moment, ...bubble });
  }

  // -------------------------------------------------------------- the moments

  /** @param {DealView} deal */
  function onTurn(deal) {
    const legal = deal.legal ?? [];
    const hand = deal.hand ?? [];
    const trick = deal.trick.cards;
    const turnOf = () => {  // still this turn
      const now = ctx.view.deal;
      return (now?.legal?.length ?? 0) > 0 && now?.trick.cards.join() === trick.join();
    };
    if (legal.includes("capot")) {
      offer("capot", { anchor: "prompt",
        text: () => t("guide.capot", { pass: t("call.pass") }),
        spots: ["#prompt [data-action='pass']"], valid: () => ctx.view.deal?.legal?.includes("capot") });
    }
    if (deal.phase !== "play" || !trick.length) return;
    const led = trick[0][1];
    const suits = new Set(hand.map((c) => c[1]));
    const seats = ctx.view.deal_seats;
    const leader = seats ? seats[deal.trick.leader] : deal.trick.leader;
    const inTrick = trick.filter(isJack);
    if (inTrick.length) {
      const key = suits.has(led) ? "guide.jackInTrick" : "guide.jackInTrickVoid";
      offer("jack-in-trick", { anchor: "trick",
        text: () => t(key, { card: inTrick.map(card).join(", "), suit: suit(trick[0]) }),
        spots: inTrick.map((c) => `#trick [data-card='${c}']`), valid: turnOf });
    }
    if (suits.has(led) && suits.size > 1) {
      offer("follow", { anchor: "hand", sides: HAND,
        text: () => t("guide.follow", { name: name(leader), suit: suit(trick[0]) }),
        spots: legal.map((c) => `#hand [data-card='${c}']`), valid: turnOf });
    }
    const jacks = hand.filter(isJack);
    if (!suits.has(led) && jacks.length) {
      offer("void-jack", { anchor: "hand", sides: HAND,
        text: () => t("guide.voidJack", { suit: suit(trick[0]), card: jacks.map(card).join(", ") }),
        spots: jacks.map((c) => `#hand [data-card='${c}']`), valid: turnOf });
    }
  }

  /** @param {DoneTrick} trick */
  function onTrick(trick) {
    const jacks = trick.cards.filter(isJack);
    const spots = jacks.map((c) => `#trick [data-card='${c}']`);
    const you = trick.winner === ctx.you;
    const shown = { cards: trick.cards, winner: trick.seats.indexOf(trick.winner) };
    if (trick.cards.includes("JS")) {
      offer("polignac", { anchor: "trick", spots, trick: shown,
        text: () => t(you ? "guide.polignacYou" : "guide.polignac", { name: name(trick.winner) }) });
    }
    const others = jacks.filter((c) => c !== "JS");
    if (others.length) {
      offer("jack-taken", { anchor: "trick", spots, trick: shown,
        text: () => t(you ? "guide.jackTakenYou" : "guide.jackTaken",
          { name: name(trick.winner), card: others.map(card).join(", ") }) });
    }
  }

  function onEnd() {
    const v = ctx.view;
    const points = v.totals[ctx.you];
    const lost = v.losers.includes(ctx.you);
    offer("end", { anchor: "scores", sides: ["below"], final: true, spots: ["#scores"],
      text: () => `${t("guide.end", { points })} ${t(lost ? "guide.endLost" : "guide.endWon",
        { names: v.losers.map(name).join(", ") })} ${t("guide.endRealGame")}` });
  }

  // -------------------------------------------------------------- the bubble

  function show() {
    while (!current && queue.length) {
      const next = /** @type {Shown} */ (queue.shift());
      if (next.valid && !next.valid()) continue;  // that turn is over: not worth saying now
      current = next;
      remember(next.moment);
      draw();
    }
  }

  function dismiss() {
    if (!current) return;
    current.node?.remove();
    current = null;
    spotlight();
    show();
  }

  function draw() {
    if (!current) return;
    const box = make("div", "guide-bubble");
    box.setAttribute("role", "dialog");
    box.setAttribute("aria-label", t("guide.title"));
    box.dataset.moment = current.moment;
    const title = make("p", "guide-title", t("guide.title"));
    const text = make("p", "guide-text", current.text());
    text.id = "guide-text";
    box.setAttribute("aria-describedby", text.id);
    if (current.trick) {  // the trick it speaks of, which may be off the table by now
      const row = make("div", "guide-cards");
      const winner = current.trick.winner;
      current.trick.cards.forEach((code, i) => {
        const svg = cardSVG(code, ctx.table.suits);
        if (i === winner) svg.classList.add("guide-taker");
        if (isJack(code)) svg.classList.add("guide-jack");
        row.append(svg);
      });
      current.row = row;
    }
    const actions = make("div", "guide-actions");
    if (current.final) {
      const play = make("button", "primary guide-play", t("guide.playReal"));
      play.type = "button";
      play.addEventListener("click", playNow);
      const rules = make("a", "button guide-rules", t("guide.readRules"));
      rules.href = "/rules/polignac";
      actions.append(play, rules);
    }
    const ok = make("button", current.final ? "guide-ok" : "primary guide-ok",
      t(current.final ? "guide.close" : "guide.gotIt"));
    ok.type = "button";
    ok.addEventListener("click", dismiss);
    actions.append(ok);
    box.append(title, ...(current.row ? [current.row] : []), text, actions);
    document.body.append(box);
    current.node = box;
    const anchor = document.getElementById(current.anchor);
    if (anchor) {
      const r = anchor.getBoundingClientRect();
      if (r.bottom < 0 || r.top > innerHeight) anchor.scrollIntoView({ block: "center" });
    }
    spotlight();
    place(true);
    ok.focus({ preventScroll: true });
  }

  /** Where the anchor's content is: the box around its children (the trick's cards,
   * the prompt's buttons), or the anchor itself when it has none.
   * @param {HTMLElement} anchor
   * @returns {{top: number, bottom: number, left: number, right: number, width: number, height: number}} */
  function anchorRect(anchor) {
    const kids = [...anchor.children].map((c) => c.getBoundingClientRect())
      .filter((k) => k.width && k.height);
    if (!kids.length || anchor.id === "scores") return anchor.getBoundingClientRect();
    const top = Math.min(...kids.map((k) => k.top)), bottom = Math.max(...kids.map((k) => k.bottom));
    const left = Math.min(...kids.map((k) => k.left)), right = Math.max(...kids.map((k) => k.right));
    return { top, bottom, left, right, width: right - left, height: bottom - top };
  }

  /** Put the bubble next to its anchor, on the first of its sides that fits in the
   * window (trick and prompt: right, above, below; hand and scores: below, above).
   * The last bubble, when first drawn (`scroll`), scrolls the page to fit below. */
  function place(scroll = false) {
    const box = current?.node;
    if (!current || !box) return;
    const anchor = document.getElementById(current.anchor);
    let r = anchor ? anchorRect(anchor)
      : { top: innerHeight / 2, bottom: innerHeight / 2, left: 0, right: innerWidth, width: innerWidth, height: 0 };
    const w = box.offsetWidth, h = box.offsetHeight, gap = 18;
    const fits = {
      right: r.right + gap + w <= innerWidth - 8 && h <= innerHeight - 16,
      above: r.top - h - gap >= 8,
      below: r.bottom + gap + h <= innerHeight - 8,
    };
    /** @type {Side[]} */
    const sides = current.sides ?? ["right", "above", "below"];
    let side = sides.find((x) => fits[x]);
    if (!side) {
      side = sides.includes("below") ? "below" : /** @type {Side} */ (sides.at(-1));
      if (current.final && scroll && side === "below") {
        scrollBy(0, r.bottom + gap + h + 8 - innerHeight);
        if (anchor) r = anchorRect(anchor);
      }
    }
    let left, top;
    if (side === "right") {
      left = r.right + gap;
      top = Math.max(8, Math.min(innerHeight - h - 8, r.top - 10));  // grows downwards
      const arrow = Math.max(16, Math.min(h - 16, r.top + r.height / 2 - top));
      box.style.setProperty("--arrow", `${arrow}px`);
    } else {
      left = Math.max(8, Math.min(innerWidth - w - 8, r.left + r.width / 2 - w / 2));
      top = side === "above" ? r.top - h - gap : r.bottom + gap;
      const arrow = Math.max(16, Math.min(w - 16, r.left + r.width / 2 - left));
      box.style.setProperty("--arrow", `${arrow}px`);
    }
    box.style.left = `${left + scrollX}px`;
    box.style.top = `${Math.max(8, top + scrollY)}px`;
    box.dataset.side = side;
  }

  /** Make the cards (or buttons) the bubble talks about glow, and only those. */
  function spotlight() {
    for (const node of document.querySelectorAll(`.${SPOT}`)) node.classList.remove(SPOT);
    if (!current) return;
    for (const sel of current.spots ?? []) {
      for (const node of document.querySelectorAll(sel)) {
        (node.closest(".card, .played, button") ?? node).classList.add(SPOT);
      }
    }
  }

  /** Play now (a real game); on failure the bubble says why. */
  async function playNow() {
    let message = "";
    try {
      location.href = (await postJson("/api/play-now")).url;
      return;
    } catch (e) {
      message = String(e.message ?? e);
    }
    const box = current?.node;
    const text = box?.querySelector(".guide-text");
    if (!box || !text) return;
    const line = make("p", "error guide-error", message);
    line.setAttribute("role", "alert");
    box.querySelector(".guide-error")?.remove();
    text.after(line);
  }

  // The table redraws its hand and trick from scratch: put the glow back each time.
  const watch = new MutationObserver(() => { spotlight(); place(); });
  for (const id of ["hand", "trick", "prompt", "scores"]) {
    const node = document.getElementById(id);
    if (node) watch.observe(node, { childList: true });
  }
  addEventListener("resize", () => place());
  addEventListener("keydown", (e) => { if (e.key === "Escape" && current) dismiss(); });
  onLang(() => {  // the same bubble, in the new language
    if (!current) return;
    current.node?.remove();
    draw();
  });

  return {
    frame(f, now) {
      const { you, view, table } = now;
      if (!view || !table || you === null || you === undefined) return;
      ctx = { you, view, table };
      const deal = ctx.view.deal;
      if (deal && !done.has("welcome")) {
        const deck = ctx.table.suits;
        const ranks = [...ctx.table.rank_order].map((r) => rankIndex(r, deck)).join(" ");
        offer("welcome", { anchor: "hand", sides: HAND, valid: () => true,  // first of all
          text: () => t("guide.welcome", { ranks }),
          spots: (deal.hand ?? []).filter(isJack).map((c) => `#hand [data-card='${c}']`) });
      }
      if (f.type === "event" && f.event?.kind === "act" && f.event.trick) onTrick(f.event.trick);
      if (deal?.legal?.length) onTurn(deal);
      if (ctx.view.finished) onEnd();
      if (current?.valid && !current.valid()) dismiss();  // the turn it spoke of is over
      show();
      spotlight();
      place();
    },
  };
}
