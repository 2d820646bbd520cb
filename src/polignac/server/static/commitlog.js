// @ts-check
// The commitment log kept by this browser (docs/server.md, "Keeping the chain's head"), as
// Certificate Transparency's clients keep a log's head: the table page keeps, in localStorage,
// the last entries of the server's hash chain that it was sent (each deal's `shuffle.log`), and
// checks through GET /api/commitments?after=A&until=B that each new entry extends the kept ones
// (every hash recomputed, every `prev` the hash before it). A server that rewrote a deal and
// every later entry is caught by any browser that kept an entry from before; the warning is
// shown at the table and kept.
import { getJson } from "./api.js";
import { onLang, t } from "./i18n.js";
import { bytesToHex, concat, cryptoAvailable, lp } from "./verify.js";

/** @typedef {import("./protocol.js").Frame} Frame */

export const LOG_VERSION = "polignac-commitments/1";
const TAG = "polignac-commitments/1 entry";
export const GENESIS = "0".repeat(64);
/** Entries kept (the newest by number). */
export const KEEP = 8;
/** Entries read a request, and requests a check at most (a longer gap is walked over the next
 * entries: the last entry read, which extends the kept ones, is kept meanwhile). */
export const PAGE = 1000;
export const MAX_PAGES = 4;
export const STORE = "polignac-commitlog/1";

/**
 * @typedef {{seq: number, table: string, deal: number, commitment: string, at: number,
 *   prev: string, hash: string}} LogEntry
 * @typedef {{key: string, seq: number, at: number}} LogWarning what failed, kept
 * @typedef {{entries: LogEntry[], warning: LogWarning | null}} Kept
 */

/** The hash of a log entry, 64 hex digits: core/commitlog.py's entry_hash, the same bytes.
 * @param {LogEntry} e
 * @returns {Promise<string>}
 */
export async function entryHash(e) {
  const msg = concat([lp(TAG), lp(String(e.seq)), lp(e.table), lp(String(e.deal)),
    lp(e.commitment), lp(String(e.at)), lp(e.prev)]);
  return bytesToHex(new Uint8Array(await crypto.subtle.digest("SHA-256", msg)));
}

const HEX64 = /^[0-9a-f]{64}$/;
const whole = (/** @type {unknown} */ n) => typeof n === "number" && Number.isSafeInteger(n) && n > 0;

/** `data` as a log entry when it has the shape of one (core/commitlog.py:Entry.from_json's
 * checks), else null.
 * @param {any} data
 * @returns {LogEntry | null}
 */
export function asEntry(data) {
  if (!data || typeof data !== "object") return null;
  const { seq, table, deal, commitment, at, prev, hash } = data;
  if (!whole(seq) || !whole(deal) || !whole(at) || typeof table !== "string" || !table
      || table.length > 64 || ![commitment, prev, hash].every((h) => typeof h === "string" && HEX64.test(h))) {
    return null;
  }
  return { seq, table, deal, commitment, at, prev, hash };
}

/** What is wrong with `stretch` as the entries right after `from`, in order (null: nothing).
 * @param {LogEntry} from
 * @param {LogEntry[]} stretch
 * @returns {Promise<{key: string, seq: number} | null>}
 */
export async function checkStretch(from, stretch) {
  let last = from;
  for (const e of stretch) {
    if (e.seq !== last.seq + 1) return { key: "verify.logWhy.missing", seq: last.seq + 1 };
    if (e.prev !== last.hash) return { key: "verify.logWhy.link", seq: e.seq };
    if (await entryHash(e) !== e.hash) return { key: "verify.logWhy.hash", seq: e.seq };
    last = e;
  }
  return null;
}

/** The kept entries and warning of this server (its origin's localStorage).
 * @returns {Kept} */
export function loadKept() {
  try {
    const data = JSON.parse(localStorage.getItem(STORE) ?? "null");
    const entries = (Array.isArray(data?.entries) ? data.entries : []).map(asEntry).filter(Boolean);
    const w = data?.warning;
    const warning = w && typeof w.key === "string" && w.key.startsWith("verify.logWhy.")
      && whole(w.seq) ? { key: w.key, seq: w.seq, at: Number(w.at) || 0 } : null;
    return { entries: /** @type {LogEntry[]} */ (entries).slice(-KEEP), warning };
  } catch {
    return { entries: [], warning: null };
  }
}

/** @param {Kept} kept */
function saveKept(kept) {
  const entries = [...kept.entries].sort((a, b) => a.seq - b.seq).slice(-KEEP);
  try { localStorage.setItem(STORE, JSON.stringify({ entries, warning: kept.warning })); } catch { /* storage off */ }
}

/**
 * Whether the server's chain from kept entry `lo` reaches entry `hi` (the entries between read
 * from the server, at most PAGE * MAX_PAGES): "ok", a problem, "far" with the last entry read
 * (it extends `lo`), or null when the server could not be asked (nothing is concluded).
 * @param {LogEntry} lo
 * @param {LogEntry} hi
 * @returns {Promise<{result: "ok"} | {result: "bad", key: string, seq: number}
 *   | {result: "far", reached: LogEntry} | null>}
 */
async function reaches(lo, hi) {
  let last = lo;
  for (let page = 0; page < MAX_PAGES; page++) {
    let answer;
    try {
      answer = await getJson(`/api/commitments?after=${last.seq}&until=${hi.seq}&limit=${PAGE}`);
    } catch {
      return null;
    }
    /** @type {unknown[]} */
    const raw = Array.isArray(answer?.entries) ? answer.entries : [];
    const stretch = raw.map(asEntry);
    if (stretch.some((e) => e === null)) return { result: "bad", key: "verify.logWhy.hash", seq: last.seq + 1 };
    const entries = /** @type {LogEntry[]} */ (stretch);
    const wrong = await checkStretch(last, entries);
    if (wrong) return { result: "bad", ...wrong };
    if (entries.length) last = entries[entries.length - 1];
    if (last.seq >= hi.seq) {
      return last.hash === hi.hash ? { result: "ok" } : { result: "bad", key: "verify.logWhy.fork", seq: hi.seq };
    }
    if (answer?.next == null) return { result: "bad", key: "verify.logWhy.missing", seq: last.seq + 1 };
  }
  return { result: "far", reached: last };
}

/**
 * The table page's watcher of the commitment log: feed it every frame (`onFrame`); it shows a
 * warning in `box` when the server's chain does not extend what this browser kept (kept, and
 * shown again on every table page of this server). `box.dataset.log`: "ok" once the last entry
 * is checked, "far" while a long gap is walked, "bad" on a warning.
 * @param {HTMLElement} box
 */
export function logWatch(box) {
  let queue = Promise.resolve();
  const show = (/** @type {LogWarning | null} */ warning) => {
    if (!warning) return;
    box.hidden = false;
    box.dataset.log = "bad";
    box.textContent = t("verify.logBad", { seq: warning.seq, why: t(warning.key, { seq: warning.seq }) });
  };
  show(loadKept().warning);
  onLang(() => show(loadKept().warning));

  /** Check `entry` against the kept entries, then keep it.
   * @param {LogEntry} entry */
  async function consider(entry) {
    const kept = loadKept();
    if (kept.warning) { show(kept.warning); return; }
    /** @param {string} key @param {number} seq */
    const warn = (key, seq) => {
      kept.warning = { key, seq, at: Date.now() };
      saveKept(kept);
      show(kept.warning);
    };
    if (await entryHash(entry) !== entry.hash) { warn("verify.logWhy.hash", entry.seq); return; }
    const same = kept.entries.find((e) => e.seq === entry.seq);
    if (same) {
      if (same.hash !== entry.hash) warn("verify.logWhy.fork", entry.seq);
      else box.dataset.log = "ok";
      return;
    }
    // the kept entries extend one another: checking the new one against its neighbours is enough
    const below = kept.entries.filter((e) => e.seq < entry.seq).pop();
    const above = kept.entries.find((e) => e.seq > entry.seq);
    /** @type {LogEntry | null} */
    let keep = entry;
    for (const [lo, hi] of [[below, entry], [entry, above]]) {
      if (!lo || !hi || keep !== entry) continue;
      const found = await reaches(lo, hi);
      if (found === null) return;  // the server did not answer: nothing concluded, nothing kept
      if (found.result === "bad") { warn(found.key, found.seq); return; }
      // a long gap: keep the last entry read that extends the kept ones (walked on next time)
      if (found.result === "far") keep = hi === entry ? found.reached : null;
    }
    if (keep) kept.entries.push(keep);
    saveKept(kept);
    box.dataset.log = keep === entry ? "ok" : "far";
  }

  return {
    /** Look at a frame: a deal's log entry (a state's `shuffle.log`, a deal event's).
     * @param {Frame} f */
    onFrame(f) {
      const log = f.type === "state" ? f.shuffle?.log
        : f.type === "event" && f.event.kind === "deal" ? f.event.shuffle?.log : null;
      const entry = asEntry(log);
      if (!entry || !cryptoAvailable()) return;
      queue = queue.then(() => consider(entry)).catch(() => { /* a check that failed to run */ });
    },
    /** Resolves once every entry seen so far is checked (for tests). */
    settled() { return queue; },
  };
}
