// @ts-check
// Verifiable deals (polignac-shuffle/1) in the browser, on WebCrypto: the same
// algorithm as polignac.core.shuffle (docs/server.md, "Verifiable deals"), so a
// player can check the deals without trusting the server.  Also the table page's
// commitment indicator, which sends this seat's cut when a commitment arrives.
import { onLang, t } from "./i18n.js";
import { getJson } from "./api.js";
import { make } from "./dom.js";

/** @typedef {import("./protocol.js").Frame} Frame */
/** @typedef {import("./protocol.js").ClientFrame} ClientFrame */
/** @typedef {import("./protocol.js").Shuffle} Shuffle */
/** @typedef {import("./protocol.js").TableEvent} TableEvent */
/** @typedef {{commitment: string, cut: string}} SentCut what this browser sent for a deal */

export const VERSION = "polignac-shuffle/1";
const TAG_COMMIT = "polignac-shuffle/1 commitment";
const TAG_KEY = "polignac-shuffle/1 key";
const SUITS = "CDHS";
const RANKS = "23456789TJQKA";
const utf8 = new TextEncoder();

/** True when this page may use WebCrypto's digest and HMAC (secure pages only). */
export function cryptoAvailable() {
  return Boolean(globalThis.isSecureContext !== false && globalThis.crypto && globalThis.crypto.subtle);
}

/** Bytes of a hex string (an even number of hex digits); throws on anything else.
 * @param {unknown} hex */
export function hexToBytes(hex) {
  if (typeof hex !== "string" || hex.length % 2 || !/^[0-9a-fA-F]*$/.test(hex)) {
    throw new Error("not hex");
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Lower-case hex of bytes. @param {Uint8Array} bytes */
export function bytesToHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** @param {number} n */
function u32(n) {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n);
  return out;
}

/** `bytes` preceded by its length, 4 bytes big-endian. @param {string | Uint8Array<ArrayBuffer>} bytes */
export function lp(bytes) {
  const data = typeof bytes === "string" ? utf8.encode(bytes) : bytes;
  const out = new Uint8Array(4 + data.length);
  out.set(u32(data.length), 0);
  out.set(data, 4);
  return out;
}

/** The bytes of `parts` (Uint8Arrays), one after the other. @param {Uint8Array[]} parts */
export function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

/** The commitment (hex) to `seed` (bytes) for deal number `deal` of `table`.
 * @param {Uint8Array<ArrayBuffer>} seed @param {string} table @param {number} deal */
export async function commitment(seed, table, deal) {
  const msg = concat([lp(TAG_COMMIT), lp(table), lp(String(deal)), lp(seed)]);
  return bytesToHex(new Uint8Array(await crypto.subtle.digest("SHA-256", msg)));
}

/** @param {Uint8Array<ArrayBuffer>} key @param {Uint8Array<ArrayBuffer>} msg */
async function hmac(key, msg) {
  const k = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false,
    ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", k, msg));
}

/** The pack order (card numbers, top first): `cards` (ascending) shuffled by the seed and
 * the cuts (bytes or null, one per seat), Fisher-Yates with rejection sampling.
 * @param {Uint8Array<ArrayBuffer>} seed @param {string} table @param {number} deal
 * @param {(Uint8Array<ArrayBuffer> | null)[]} cuts @param {number[]} cards @returns {Promise<number[]>} */
export async function packOrder(seed, table, deal, cuts, cards) {
  const keyMsg = concat([lp(TAG_KEY), lp(table), lp(String(deal)), u32(cuts.length),
    ...cuts.map((c) => lp(c ?? new Uint8Array(0)))]);
  const key = await crypto.subtle.importKey("raw", await hmac(seed, keyMsg),
    { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  let counter = 0;
  /** @type {number[]} */
  let words = [];
  let k = 0;
  const next = async () => {
    if (k >= words.length) {
      const block = new DataView(await crypto.subtle.sign("HMAC", key, u32(counter++)));
      words = Array.from({ length: 8 }, (_, i) => block.getUint32(4 * i));
      k = 0;
    }
    return words[k++];
  };
  const order = [...cards];
  for (let i = order.length - 1; i > 0; i--) {
    const bound = i + 1;
    const limit = 2 ** 32 - (2 ** 32 % bound);
    let w = await next();
    while (w >= limit) w = await next();
    const j = w % bound;
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/** A card code (`JS`) as its number, suit * 13 + rank; -1 for anything else. @param {unknown} code */
export function cardNumber(code) {
  if (typeof code !== "string" || code.length !== 2) return -1;
  const r = RANKS.indexOf(code[0].toUpperCase());
  const s = SUITS.indexOf(code[1].toUpperCase());
  return r < 0 || s < 0 ? -1 : s * 13 + r;
}

const codeOf = (/** @type {number} */ c) => RANKS[c % 13] + SUITS[Math.floor(c / 13)];

/** Split a pack order into hands as the dealer deals: packets of `packets` sizes in turn,
 * to each player from the dealer's left (deal player numbers).
 * @param {number[]} order @param {number} n @param {number} handSize @param {number} dealer
 * @param {number[]} packets */
export function dealHands(order, n, handSize, dealer, packets) {
  /** @type {number[][]} */
  const hands = Array.from({ length: n }, () => []);
  let pos = 0;
  let given = 0;
  for (let k = 0; given < handSize; k++) {
    const packet = Math.min(packets[k % packets.length], handSize - given);
    for (let j = 0; j < n; j++) {
      hands[(dealer + 1 + j) % n].push(...order.slice(pos, pos + packet));
      pos += packet;
    }
    given += packet;
  }
  return hands;
}

/** Check one deal of a record (`number` from 1): {deal, status: ok|failed|not-verifiable,
 * cuts, problems}; `names` name the seats in messages. The pack is the cards of the record's hands and turn-up; `polignac
 * verify` also checks it (and the packets) against the rules. */
/** @typedef {{deal: number, status: string, cuts: number, problems: string[], mine?: boolean}} DealCheck */

/**
 * @param {any} entry
 * @param {number} number
 * @param {number} players
 * @param {string[]} [names]
 * @returns {Promise<DealCheck>}
 */
export async function verifyDeal(entry, number, players, names = []) {
  /** @type {DealCheck} */
  const out = { deal: number, status: "failed", cuts: 0, problems: [] };
  const proof = entry?.shuffle;
  if (!proof) return { ...out, status: "not-verifiable", problems: [t("verify.noData")] };
  try {
    if (proof.version !== VERSION) throw new Error(`version ${proof.version}`);
    const cuts = proof.cuts.map((/** @type {unknown} */ c) => (c === null ? null : hexToBytes(c)));
    out.cuts = cuts.filter((/** @type {Uint8Array | null} */ c) => c !== null).length;
    if (proof.seed === null || proof.seed === undefined) {
      return { ...out, status: "not-verifiable", problems: [t("verify.noSeed")] };
    }
    const seed = hexToBytes(proof.seed);
    if (await commitment(seed, proof.table, number) !== String(proof.commitment).toLowerCase()) {
      out.problems.push(t("verify.badCommit"));
    }
    if (cuts.length !== players) out.problems.push(`${cuts.length} cuts for ${players} seats`);
    /** @type {number[][]} */
    const hands = entry.hands.map((/** @type {unknown[]} */ h) => h.map(cardNumber));
    const up = entry.turn_up ? cardNumber(entry.turn_up) : null;
    const pack = [...new Set([...hands.flat(), ...(up === null ? [] : [up])])].sort((a, b) => a - b);
    const order = await packOrder(seed, proof.table, number, cuts, pack);
    /** @type {number[]} */
    const seats = entry.seats ?? hands.map((_, i) => i);
    const dealt = dealHands(order, hands.length, hands[0].length, seats.indexOf(entry.dealer),
      proof.packets ?? [1]);
    dealt.forEach((want, p) => {
      const have = [...hands[p]].sort((a, b) => a - b);
      want.sort((a, b) => a - b);
      if (have.join() !== want.join()) {
        const extra = have.filter((c) => !want.includes(c)).map(codeOf).join(" ") || "-";
        const missing = want.filter((c) => !have.includes(c)).map(codeOf).join(" ") || "-";
        const who = names[seats[p]] ?? `#${seats[p] + 1}`;
        out.problems.push(t("verify.badHand", { who, extra, missing }));
      }
    });
    if (up !== null && order[order.length - 1] !== up) {
      out.problems.push(t("verify.badTurnUp"));
    }
  } catch (err) {
    out.problems.push(t("verify.malformed", { msg: err.message }));
  }
  if (!out.problems.length) out.status = "ok";
  return out;
}

/** Check every deal of a parsed record; a list of verifyDeal's answers. In a record that
 * carries proofs (made by the web app), a deal before the last one (so a finished deal)
 * whose proof or seed is missing fails, as with `polignac verify`: a record cannot pass by
 * leaving a proof out. A record without any proof (made by `polignac play-random`) is not
 * verifiable, as `polignac verify --lenient` says.
 * @param {any} record a parsed record.json (checked as it is read)
 * @returns {Promise<DealCheck[]>} */
export async function verifyRecord(record) {
  const deals = Array.isArray(record?.deals) ? record.deals : [];
  const names = Array.isArray(record?.players) ? record.players.map(String) : [];
  const proved = deals.some((/** @type {any} */ d) => d?.shuffle);
  const out = [];
  for (let i = 0; i < deals.length; i++) {
    const check = await verifyDeal(deals[i], i + 1, names.length, names);
    if (proved && i < deals.length - 1 && check.status === "not-verifiable") {
      check.status = "failed";
      check.problems = [t("verify.proofMissing")];
    }
    out.push(check);
  }
  return out;
}

// ------------------------------------------------------------- the table page

const short = (/** @type {string} */ hex) => `${hex.slice(0, 6)}…${hex.slice(-6)}`;

/** The table page's commitment indicator in `box`. Feed it every frame (`onFrame`);
 * it sends this seat's cut through `send` when a commitment arrives.
 * @param {HTMLElement} box @param {(frame: ClientFrame) => void} send @param {string} tableId */
export function dealProof(box, send, tableId) {
  /** @type {number | null} */
  let you = null;
  /** @type {string[]} */
  let names = [];  // the seats' names, from the last state
  // deal number -> {commitment, cut}: what this browser sent, kept over a reload
  /** @type {Record<number, SentCut>} */
  const memory = {};
  const storeKey = (/** @type {number} */ deal) => `polignac-cut:${tableId}:${deal}`;
  /** @type {(deal: number) => SentCut | null} */
  const recall = (deal) => {
    try { return memory[deal] ?? JSON.parse(sessionStorage.getItem(storeKey(deal)) ?? "null"); } catch { return memory[deal] ?? null; }
  };
  /** @type {(deal: number, value: SentCut) => void} */
  const remember = (deal, value) => {
    memory[deal] = value;
    try { sessionStorage.setItem(storeKey(deal), JSON.stringify(value)); } catch { /* storage off */ }
  };
  // Two lines: the last deal revealed, and the deal on its way (committed, dealt);
  // each keeps its text's key and parameters, so that a language change redraws it.
  const lines = { done: make("span"), now: make("span") };
  /** @typedef {"done" | "now"} Line */
  /** @type {Partial<Record<Line, {key: string, params: Record<string, unknown>, state: string}>>} */
  const shown = {};
  box.replaceChildren(lines.done, lines.now);
  /** @param {Line} line */
  const draw = (line) => {
    const entry = shown[line];
    if (!entry) return;
    const { key, params, state } = entry;
    lines[line].textContent = t(key, params);
    lines[line].dataset.state = state;
  };
  /** @type {(line: Line, key: string, params: Record<string, unknown>, state: string) => void} */
  const show = (line, key, params, state) => {
    box.hidden = false;
    shown[line] = { key, params, state };
    draw(line);
  };
  onLang(() => { for (const line of /** @type {Line[]} */ (Object.keys(shown))) draw(line); });

  /** @param {number} deal @param {string} commit */
  function cut(deal, commit) {
    if (you === null || recall(deal)) return;
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    const mine = { commitment: commit, cut: bytesToHex(bytes) };
    remember(deal, mine);
    send({ type: "cut", deal, value: mine.cut, commitment: commit });
  }

  /** @type {Record<number, Extract<TableEvent, {kind: "deal"}>>} */
  const dealtInfo = {};  // deal number -> the deal event as this browser saw it

  /** Whether the finished deal's hands (from record.json) follow from the seed and cuts,
   * this seat's being the hand this browser was dealt; null when that cannot be told.
   * @param {number} deal @returns {Promise<boolean | null>} */
  async function handsFollow(deal) {
    try {
      const record = await getJson(`/tables/${tableId}/record.json`);
      const entry = record?.deals?.[deal - 1];
      if (!entry) return null;
      const check = await verifyDeal(entry, deal, record.players.length, record.players);
      const ev = dealtInfo[deal];
      /** @type {number[]} */
      const seats = entry.seats ?? entry.hands.map((/** @type {unknown} */ _, /** @type {number} */ i) => i);
      const hand = ev?.hand;
      /** @type {string[] | null} */
      const mine = hand && you !== null && seats.includes(you) ? entry.hands[seats.indexOf(you)] : null;
      const same = !mine || !hand || [...mine].sort().join() === [...hand].sort().join();
      return check.status === "ok" && same;
    } catch {
      return null;
    }
  }

  /** @param {number} deal @param {string} seed @param {string | undefined} commit */
  async function revealed(deal, seed, commit) {
    if (!cryptoAvailable()) {
      show("done", "verify.revealedNoCrypto", { deal }, "open");
      return;
    }
    const bytes = hexToBytes(seed);
    if (await commitment(bytes, tableId, deal) !== commit) {
      show("done", "verify.revealedBad", { deal }, "bad");
      return;
    }
    const hand = await handsFollow(deal);
    if (hand === false) show("done", "verify.revealedBadHand", { deal }, "bad");
    else show("done", hand ? "verify.revealedHand" : "verify.revealedOk", { deal }, "ok");
  }

  /** @param {number} deal @param {Shuffle} shuffle */
  function dealt(deal, shuffle) {
    const mine = recall(deal);
    const c = short(shuffle.commitment ?? "");
    if (you !== null && mine) {
      const ok = shuffle.commitment === mine.commitment && shuffle.cuts?.[you] === mine.cut;
      show("now", ok ? "verify.dealtCut" : "verify.dealtBad", { deal, c }, ok ? "ok" : "bad");
    } else {
      show("now", "verify.dealt", { deal, c }, "open");
    }
  }

  return {
    /** Handle a frame; true when it was this module's alone (a refused cut: no toast).
     * @param {Frame} f @returns {boolean} */
    onFrame(f) {
      if (f.type === "error" && ["cut-closed", "cut-taken", "stale-commitment"].includes(f.rule)) {
        show("now", "verify.cutRefused", { msg: f.message }, "open");
        return true;
      }
      if (f.type === "cut") return true;
      if (f.type === "cut-refused") {  // anyone's refused cut is public (docs/server.md)
        if (f.seat !== you || f.again) {  // again: sent on a (re)connect, no error follows
          show("now", "verify.cutRefusedSeat",
            { deal: f.deal, name: names[f.seat] ?? String(f.seat + 1), rule: f.rule }, "bad");
        }
        return true;  // the sender's own: its error frame follows
      }
      if (f.type === "state") {
        you = f.you ?? null;
        names = (f.table?.seats ?? []).map((s) => s.name);
        const s = f.shuffle;
        if (s && s.seed) revealed(s.deal, s.seed, s.commitment);
        else if (s) dealt(s.deal, s);
      } else if (f.type === "commitment") {
        cut(f.deal, f.commitment);
        show("now", you === null ? "verify.committed" : "verify.committedCut",
          { deal: f.deal, c: short(f.commitment) }, "open");
      } else if (f.type === "event") {
        const ev = f.event;
        if (ev.kind === "deal" && ev.shuffle) {
          dealtInfo[ev.shuffle.deal] = ev;
          dealt(ev.shuffle.deal, ev.shuffle);
        }
        if (ev.kind === "act" && ev.reveal) revealed(ev.reveal.deal, ev.reveal.seed, ev.reveal.commitment);
      }
      return false;
    },
  };
}
