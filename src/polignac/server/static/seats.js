// @ts-check
// Seats and friends on the table page: asking for a bot's seat (with a name), the
// creator's Approve / Refuse, "asked for by NAME" for everyone, the invite links again
// for the creator of a waiting table, the paused notice. table.js calls the hooks:
// initSeats once, seatsPresence on every presence, seatExtras per seat box,
// renderSeatsPanel on every render. Also used by the lobby: inviteRow (copy button).
import { t } from "./i18n.js";
import { make } from "./dom.js";
import { getJson, postJson } from "./api.js";

/** @typedef {import("./protocol.js").TableInfo} TableInfo */
/** @typedef {import("./protocol.js").MatchView} MatchView */
/** @typedef {import("./protocol.js").PresenceSeat} PresenceSeat */
/** @typedef {import("./protocol.js").PresenceFrame} PresenceFrame */
/** @typedef {{seat: number, url: string}} Invite a seat's invite link */
/** @typedef {{tableId: string, toast: (text: string) => void, rerender: () => void}} SeatsOptions */
/**
 * What the table page shows (table-render.js:seatCtx).
 * @typedef {{table: TableInfo | null, view: MatchView | null, presence: PresenceSeat[],
 *   you: number | null, spectating: boolean}} SeatContext
 */

/** @type {SeatsOptions | null} */
let ctx = null;
/** @type {number | null} the bot's seat this browser asked for */
let pendingSeat = null;
let paused = false;
/** @type {Invite[] | null} the creator's invite links, once loaded */
let invites = null;
let invitesKey = "";     // which open seats they were loaded for

/** A button that copies `input`'s text (the clipboard, else selecting it). @param {HTMLInputElement} input */
export function copyButton(input) {
  const b = make("button", "copy small-button", t("seats.copy"));
  b.type = "button";
  b.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(input.value);
    } catch {
      input.select();
      document.execCommand?.("copy");
    }
    b.textContent = t("seats.copied");
    setTimeout(() => { b.textContent = t("seats.copy"); }, 2000);
  });
  return b;
}

/** One invite link: "Seat N:", the link in a read-only field, a copy button. @param {Invite} inv */
export function inviteRow(inv) {
  const row = make("p", "invite-row");
  row.append(make("span", "invite-seat", `${t("lobby.seat", { n: inv.seat + 1 })}: `));
  const input = Object.assign(document.createElement("input"),
    { readOnly: true, value: new URL(inv.url, location.href).href, className: "invite" });
  input.dataset.seat = String(inv.seat);
  input.setAttribute("aria-label", t("lobby.seat", { n: inv.seat + 1 }));
  input.addEventListener("focus", () => input.select());
  row.append(input, copyButton(input));
  return row;
}

/** Once, from table.js: also asks whether this browser already waits for a seat here.
 * @param {SeatsOptions} options */
export function initSeats(options) {
  ctx = options;
  getJson(`/tables/${options.tableId}/request`).then((r) => {
    if (r.seat !== null && r.seat !== undefined && pendingSeat === null) {
      pendingSeat = Number(r.seat);
      options.rerender();
    }
  }).catch(() => {});
}

/** Every presence (a presence frame, or a state's list with its table).
 * @param {PresenceSeat[] | PresenceFrame} frame
 * @param {{table: TableInfo | null, view: MatchView | null}} shown */
export function seatsPresence(frame, { table, view }) {
  const seats = Array.isArray(frame) ? frame : frame.seats ?? [];
  if (!Array.isArray(frame) && "paused" in frame) paused = !!frame.paused;
  else if (table) paused = !!table.paused;
  if (pendingSeat === null) return;
  const asked = seats.find((s) => s && s.seat === pendingSeat);
  if (asked && asked.kind === "human") location.reload();  // granted: the cookie is a seat now
  else if (asked && !asked.take_pending) {
    pendingSeat = null;
    ctx?.toast(t(view?.finished ? "table.takeDropped" : "seats.refused"));
  }
}

/** Ask for bot seat `seat` under `name`. @param {number} seat @param {string} name */
async function ask(seat, name) {
  const c = ctx;
  if (!c) return;
  try {
    await postJson(`/tables/${c.tableId}/seats/${seat}/take`, { name });
    pendingSeat = seat;
    c.toast(t("seats.asked"));
  } catch (e) {
    c.toast(t("table.takeFailed", { msg: e.message }));
  }
  c.rerender();
}

/** The creator's answer to a request. @param {number} seat @param {string} verb approve or refuse */
async function answer(seat, verb) {
  const c = ctx;
  if (!c) return;
  try {
    await postJson(`/tables/${c.tableId}/seats/${seat}/${verb}`);
  } catch (e) {
    c.toast(e.message);
  }
}

/** The dialog that asks for a seat: a name, then Ask (a dialog, so that the table's
 * updates do not disturb the typing). @param {number} seat */
function openAsk(seat) {
  let found = /** @type {HTMLDialogElement | null} */ (document.getElementById("ask-dialog"));
  if (!found) {
    found = make("dialog", "ask-dialog");
    found.id = "ask-dialog";
    document.body.append(found);
  }
  const dialog = found;
  const form = make("form", "ask-form");
  form.method = "dialog";
  const title = make("p", "ask-title", t("seats.askFor", { n: seat + 1 }));
  const input = Object.assign(document.createElement("input"),
    { name: "name", maxLength: 24, required: true, autocomplete: "nickname", id: "ask-name" });
  const label = make("label", "", t("seats.yourName"));
  label.htmlFor = "ask-name";
  const go = make("button", "primary", t("seats.ask"));
  go.type = "submit";
  go.id = "ask-go";
  const cancel = make("button", "", t("table.close"));
  cancel.type = "button";
  cancel.addEventListener("click", () => dialog.close());
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    dialog.close();
    ask(seat, input.value);
  });
  const buttons = make("div", "ask-buttons");
  buttons.append(go, cancel);
  form.append(title, label, input, buttons);
  dialog.replaceChildren(form);
  dialog.showModal();
  input.focus();
}

/** What the seat box of `seat` shows besides the table's own: requests and answers.
 * @param {number} seat @param {SeatContext} shown */
export function seatExtras(seat, { table, view, presence, you, spectating }) {
  const pr = presence[seat];
  if (!table || !view || !pr || pr.kind !== "bot") return [];
  if (pr.take_pending) {
    const box = make("div", "seat-request");
    box.dataset.seat = String(seat);
    box.append(make("span", "asked-by", t(pr.take_approved ? "seats.approvedFor" : "seats.askedBy",
      { name: pr.take_name ?? "?" })));
    if (!spectating && you === table.creator && !pr.take_approved) {
      for (const verb of ["approve", "refuse"]) {
        const b = make("button", `small-button ${verb}` + (verb === "approve" ? " primary" : ""),
          t(`seats.${verb}`));
        b.type = "button";
        b.dataset.seat = String(seat);
        b.addEventListener("click", () => answer(seat, verb));
        box.append(b);
      }
    }
    return [box];
  }
  if (!choosing || !mayAsk({ table, view, spectating })) return [];
  const take = make("button", "take small-button", t("table.takeSeat"));
  take.type = "button";
  take.dataset.seat = String(seat);
  take.addEventListener("click", () => openAsk(seat));
  return [take];
}

/** Load the creator's invite links for the open seats `key`. @param {string} key */
async function loadInvites(key) {
  const c = ctx;
  if (!c) return;
  try {
    invites = (await getJson(`/tables/${c.tableId}/invites`)).invites;
  } catch {
    invites = [];
  }
  invitesKey = key;
  c.rerender();
}

/** `panel`'s part `id`, made when missing. @param {HTMLElement} panel @param {string} id @param {string} className */
function part(panel, id, className) {
  let node = document.getElementById(id);
  if (!node) {
    node = make("div", className);
    node.id = id;
    panel.append(node);
  }
  return node;
}

let invitesBuilt = "";  // the open seats the invite rows were built for
let choosing = false;    // a spectator pressed "Ask to play": the bots' seats offer themselves

/** Whether this spectator may ask for a bot's seat: a public table, on, not a guided one,
 * nothing asked yet from this browser.
 * @param {Pick<SeatContext, "table" | "view" | "spectating">} shown */
function mayAsk({ table, view, spectating }) {
  return !!(spectating && table && view && !view.finished && !table.private && !table.guide &&
    pendingSeat === null);
}

/** The spectator's one way in: "Ask to play", then a seat's "Take this seat".
 * @param {Pick<SeatContext, "table" | "view" | "presence" | "spectating">} ctxNow */
function askToPlay(ctxNow) {
  if (!mayAsk(ctxNow) || !ctxNow.presence.some((p) => p && p.kind === "bot" && !p.take_pending)) {
    choosing = false;
    return [];
  }
  const b = make("button", "small-button ask-to-play", t("table.askToPlay"));
  b.type = "button";
  b.id = "ask-to-play";
  b.setAttribute("aria-pressed", String(choosing));
  b.addEventListener("click", () => { choosing = !choosing; ctx?.rerender(); });
  return choosing ? [b, make("p", "small-muted", t("table.askToPlayHelp"))] : [b];
}

/** The panel above the scores: paused and private notes, the creator's invite links.
 * @param {SeatContext} shown */
export function renderSeatsPanel({ table, view, presence, you, spectating }) {
  let panel = document.getElementById("seats-panel");
  if (!panel) {
    panel = make("div", "seats-panel");
    panel.id = "seats-panel";
    document.querySelector(".side")?.prepend(panel);
  }
  if (!table) return;
  const note = part(panel, "seats-note", "seats-note");
  const lines = [];
  if (paused && table.status !== "finished") lines.push(make("p", "paused-note", t("seats.paused")));
  if (table.private) lines.push(make("p", "small-muted private-note", t("seats.privateNote")));
  lines.push(...askToPlay({ table, view, presence, spectating }));
  note.replaceChildren(...lines);

  const inv = part(panel, "invites-again", "invites-again");
  const open = presence.filter((p) => p && p.open).map((p) => p.seat);
  if (spectating || you !== table.creator || !open.length) {
    inv.replaceChildren();
    invitesBuilt = "";
    return;
  }
  const key = open.join(",");
  if (invitesKey !== key) {
    if (invitesKey !== `loading:${key}`) { invitesKey = `loading:${key}`; loadInvites(key); }
    return;
  }
  if (invitesBuilt === key) return;
  invitesBuilt = key;
  const shown = (invites ?? []).filter((x) => open.includes(x.seat));
  inv.replaceChildren();
  if (!shown.length) return;
  inv.append(make("p", "", t("lobby.invites")));
  shown.forEach((x) => inv.append(inviteRow(x)));
}

/** Forget what the panel built (after a change of language). */
export function resetSeatsPanel() { invitesBuilt = ""; }
