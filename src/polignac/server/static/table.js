// The table page: one WebSocket to the server, which sends states, numbered events and presence.
import { cardBack, cardLabel, cardSVG, setDeck, suitIcon } from "./cards.js";
import { totalsChart } from "./chart.js";
import {
  errorText, has, languagePicker, levelName, onLang, presetName, seatName, suitName,
  t, translatePage,
} from "./i18n.js";
import { renderReasons, renderSheet, resultText, seatMark } from "./scoresheet.js";
import { initSeats, renderSeatsPanel, resetSeatsPanel, seatExtras, seatsPresence } from "./seats.js";
import { dealProof } from "./verify.js";

const tableId = location.pathname.split("/")[2];
const $ = (id) => document.getElementById(id);
let ws = null;
let lastSeq = 0;
let you = null;          // our seat; null: spectating
let table = null;
let view = null;
let summary = null;
let presence = [];       // by seat: {seat, name, kind, connected, grace_until, bot_playing}
let showLast = false;
let focusIndex = 0;
let retry = 500;
let connKey = "conn.connecting";
let presetThreshold = null;
let rematchUrl = null;     // set when someone asked for a rematch
let guide = null;          // the guided first deal's bubbles (guide.js) when the table info says guide

const proof = dealProof($("deal-proof"), (obj) => send(obj), tableId);
const spectating = () => table !== null && (you === null || you === undefined);

function name(seat) {
  if (seat === you && !spectating()) return t("table.you");
  if (presence[seat]?.name) return seatName(presence[seat]);
  return view?.names?.[seat] ?? t("table.seatN", { n: seat + 1 });
}

function make(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// ------------------------------------------------------------------ connection

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/tables/${tableId}/ws`);
  const mine = ws;
  ws.onopen = () => { retry = 500; setConn("conn.connected"); send({ type: "hello", last_seq: lastSeq }); };
  ws.onmessage = (msg) => { if (mine === ws) onFrame(JSON.parse(msg.data)); };
  ws.onclose = (ev) => {
    if (mine !== ws) return;
    if (ev.code === 4401) { setConn("conn.notSeated"); return; }
    if (ev.code === 4404) { setConn("conn.noTable"); return; }
    setConn("conn.reconnecting");
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

function send(obj) { if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(obj)); }
function setConn(key) {
  connKey = key;
  $("conn").textContent = t(key);
  $("conn").dataset.state = key.slice(5);
}

function onFrame(f) {
  if (proof.onFrame(f)) return;
  if (f.type === "state") {
    lastSeq = f.seq; you = f.you ?? null; table = f.table; view = f.view; summary = f.summary;
    if (f.presence) setPresence(f.presence);
    render();
  } else if (f.type === "event") {
    if (f.seq <= lastSeq) return;
    if (f.seq !== lastSeq + 1) { send({ type: "hello", last_seq: lastSeq }); return; }
    lastSeq = f.seq;
    if (f.summary) summary = f.summary;
    if (f.presence) setPresence(f.presence);
    if (f.view) { view = f.view; render(); }
  } else if (f.type === "presence") {
    setPresence(f);
    if (view) render();
  } else if (f.type === "rematch") {
    rematchUrl = f.url;
    if (view) render();
  } else if (f.type === "error") {
    toast(errorText(f));
    if (f.rule === "stale-seq") send({ type: "hello", last_seq: lastSeq });
  }
  if (table?.guide && !guide) {
    guide = import("./guide.js").then((m) => m.startGuide({ tableId }), () => null);
  }
  const now = { you, view, table };
  guide?.then((g) => g?.frame(f, now));
}

function setPresence(p) {
  const seats = Array.isArray(p) ? p : p.seats ?? [];
  presence = [];
  for (const s of seats) presence[s.seat] = s;
  seatsPresence(p, { table, view });
}

/** What seats.js needs to draw its parts. */
function seatCtx() { return { table, view, presence, you, spectating: spectating() }; }

/** `key`'s text, or `english` when the translations do not have it yet. */
function tr(key, english) { return has(key) ? t(key) : english; }

function toast(text) {
  const box = $("toast");
  box.textContent = text; box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, 4000);
}

function act(action) { send({ type: "act", action, seq: lastSeq }); }

async function post(url) {
  const r = await fetch(url, { method: "POST", credentials: "same-origin",
    headers: { "content-type": "application/json" }, body: "{}" });
  let data = {};
  try { data = await r.json(); } catch { /* no body */ }
  if (!r.ok) throw new Error(errorText(data) || `error ${r.status}`);
  return data;
}

// ------------------------------------------------------------------ rendering

function sortHand(cards) {
  const suitOrder = "CDSH";
  const ranks = table.rank_order;
  return [...cards].sort((a, b) => suitOrder.indexOf(a[1]) - suitOrder.indexOf(b[1]) ||
    ranks.indexOf(a[0]) - ranks.indexOf(b[0]));
}

function render() {
  if (!view || !table) return;
  setDeck(table.suits);
  document.body.classList.toggle("spectator", spectating());
  $("spectating").hidden = !spectating();
  $("title").textContent = t("table.title", { preset: presetName(table.preset),
    n: view.deal ? view.deal_number : Math.max(view.deals.length, 1) });
  const rec = $("record");
  rec.href = `/tables/${tableId}/record.json`;
  rec.textContent = t(view.finished ? "table.record" : "table.recordPartial");
  rec.title = view.finished ? "" : t("table.recordPartialTip");
  $("replay").href = `/tables/${tableId}/replay`;
  $("result-replay").href = `/tables/${tableId}/replay`;
  $("hint").hidden = spectating();
  renderSeats(); renderTrick(); renderHand(); renderPrompt(); renderStatus();
  renderLastTrick(); renderScores(); renderSeatsPanel(seatCtx());
}

function seatOfPlayer(p) { return view.deal_seats ? view.deal_seats[p] : p; }
function playerOfSeat(s) { return view.deal_seats ? view.deal_seats.indexOf(s) : -1; }
function toActSeat() {
  const d = view.deal;
  return d && d.to_act !== null && d.to_act !== undefined ? seatOfPlayer(d.to_act) : null;
}

function countdown(until) {
  const left = Math.max(0, Math.ceil((until - Date.now()) / 1000));
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

function seatBox(seat) {
  const d = view.deal;
  const p = playerOfSeat(seat);
  const box = make("div", "seat");
  box.dataset.seat = seat;
  const turn = toActSeat() === seat;
  if (turn) box.classList.add("to-act");
  const kind = { ...table.seats[seat], ...(presence[seat] ?? {}) };
  const title = make("div", "seat-name", name(seat));
  const badge = (text, extra = "") => title.append(make("span", `badge ${extra}`, text));
  if (kind.kind === "bot") badge(t("table.bot", { level: levelName(kind.level) }));
  if (view.dealer === seat) badge(t("table.dealer"));
  if (turn) badge(`▶ ${t("table.toPlay")}`, "turn");
  const mark = seatMark(seat, table.sides, spectating() ? null : you);  // partners: scoresheet.js
  if (mark) { box.classList.add(...mark.classes); badge(mark.label, "side-mark"); }
  const pr = presence[seat];
  if (pr && pr.kind === "human" && !pr.open) {
    if (!pr.connected) {
      box.classList.add("away");
      badge(t("table.disconnected"), "away");
      if (pr.grace_until && pr.grace_until > Date.now() && !pr.bot_playing) {
        badge(t("table.grace", { time: countdown(pr.grace_until) }), "grace");
      }
    }
    if (pr.bot_playing) badge(t("table.botPlaying", { name: name(seat) }), "botplay");
  }
  box.append(title);
  let tricks = d && p >= 0 ? d.tricks_won[p] : 0;
  if (!d && view.last_deal && view.last_deal_seats) {  // between deals: the deal just over
    const q = view.last_deal_seats.indexOf(seat);
    tricks = q >= 0 ? view.last_deal.tricks_won[q] : 0;
  }
  let info = t("table.total", { total: view.totals[seat], tricks });
  if (kind.open) info += ` · ${t("table.openSeat")}`;
  box.append(make("div", "seat-info", info));
  if ((seat !== you || spectating()) && d && p >= 0) {
    const backs = make("div", "backs");
    for (let i = 0; i < d.hand_sizes[p]; i++) backs.append(cardBack());
    box.append(backs);
  }
  box.append(...seatExtras(seat, seatCtx()));
  return box;
}

function renderSeats() {
  const opp = $("opponents");
  opp.replaceChildren();
  const n = view.names.length;
  const base = spectating() ? 0 : you;
  for (let k = 1; k < n; k++) opp.append(seatBox((base + k) % n));
  $("me").replaceChildren(seatBox(base));
}

/** The last finished trick of the deal on view (or of the deal just over): match seats. */
function previousTrick() {
  let tricks = view.deal?.tricks, seats = view.deal_seats, players = view.deal?.players;
  if (!view.deal && view.last_deal) {
    tricks = view.last_deal.tricks; seats = view.last_deal_seats; players = view.last_deal.players;
  }
  if (!tricks || !tricks.length) return null;
  const tr = tricks.at(-1);
  const map = (p) => (seats ? seats[p] : p);
  return { cards: tr.cards, seats: tr.cards.map((_, i) => map((tr.leader + i) % players)),
    winner: map(tr.winner), number: tricks.length };
}

function trickCard(code, seat, winner) {
  const wrap = make("figure", "played" + (winner ? " winner" : ""));
  wrap.dataset.seat = seat;
  wrap.append(cardSVG(code));
  wrap.append(make("figcaption", "", (winner ? "★ " : "") + name(seat)));
  return wrap;
}

function renderTrick() {
  const box = $("trick");
  box.replaceChildren();
  const d = view.deal;
  const prev = previousTrick();
  if (d && d.trick.cards.length) {
    d.trick.cards.forEach((c, i) => box.append(
      trickCard(c, seatOfPlayer((d.trick.leader + i) % d.players), false)));
    box.dataset.kind = "current";
  } else if (prev) {
    prev.cards.forEach((c, i) => box.append(trickCard(c, prev.seats[i], prev.seats[i] === prev.winner)));
    box.dataset.kind = "last";
  } else {
    box.dataset.kind = "empty";
  }
  if (d?.turn_up) {
    const up = make("figure", "played turnup");
    up.append(cardSVG(d.turn_up));
    const cap = make("figcaption", "", t("table.trump", { suit: "" }));
    cap.append(suitIcon(d.trump));
    up.append(cap);
    box.append(up);
  }
}

function renderLastTrick() {
  const box = $("last-trick");
  const btn = $("last-trick-btn");
  const prev = previousTrick();
  btn.disabled = !prev;
  btn.setAttribute("aria-expanded", String(showLast));
  box.hidden = !showLast;
  if (!showLast) return;
  box.replaceChildren();
  if (!prev) {
    box.append(make("p", "", t("table.noLastTrick")));
  } else {
    box.append(make("p", "last-trick-title", t("table.lastTrickTook", { name: name(prev.winner) })));
    const row = make("div", "trick");
    prev.cards.forEach((c, i) => row.append(trickCard(c, prev.seats[i], prev.seats[i] === prev.winner)));
    box.append(row);
  }
  const close = make("button", "small-button", t("table.close"));
  close.type = "button";
  close.addEventListener("click", () => { showLast = false; renderLastTrick(); });
  box.append(close);
}

function toggleLast() { showLast = !showLast; renderLastTrick(); }

function renderHand() {
  const hand = $("hand");
  hand.replaceChildren();
  const d = view.deal;
  if (spectating() || !d || !d.hand) return;
  const legal = new Set(d.legal ?? []);
  const cards = sortHand(d.hand);
  const buttons = [];
  for (const code of cards) {
    const b = make("button", "card");
    b.dataset.card = code;
    b.setAttribute("aria-label", cardLabel(code));
    b.append(cardSVG(code));
    if (legal.has(code)) {
      b.classList.add("legal");
      b.addEventListener("click", () => act(code));
      buttons.push(b);
    } else {
      b.classList.add("dimmed");
      b.tabIndex = -1;
    }
    hand.append(b);
  }
  focusIndex = Math.min(focusIndex, Math.max(buttons.length - 1, 0));
  if (buttons.length && !document.activeElement?.closest?.(".prompt")) {
    buttons[focusIndex].classList.add("focused");
  }
}

function legalCards() { return [...document.querySelectorAll("#hand .card.legal")]; }

document.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLSelectElement || e.target instanceof HTMLInputElement) return;
  if (e.key === "l" || e.key === "L") { toggleLast(); e.preventDefault(); return; }
  if (e.key === "Escape" && showLast) { showLast = false; renderLastTrick(); return; }
  const cards = legalCards();
  if (!cards.length) return;
  if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
    focusIndex = (focusIndex + (e.key === "ArrowRight" ? 1 : cards.length - 1)) % cards.length;
    cards.forEach((c, i) => c.classList.toggle("focused", i === focusIndex));
    cards[focusIndex].focus();
    e.preventDefault();
  } else if (e.key === "Enter" && !(document.activeElement instanceof HTMLButtonElement &&
             !document.activeElement.classList.contains("card"))) {
    const c = cards[Math.min(focusIndex, cards.length - 1)];
    act(c.dataset.card);
    e.preventDefault();
  }
});

function callLabel(a) {
  if (a.startsWith("announce:")) {
    let what = a.slice(9);
    if (what.startsWith("pollack-")) what = `Pollack ${suitName(what.slice(8), table.suits)}`;
    else what = t(`announce.${what}`);
    return t("call.announce", { what });
  }
  return has(`call.${a}`) ? t(`call.${a}`) : a;
}

function renderPrompt() {
  const box = $("prompt");
  box.replaceChildren();
  const d = view.deal;
  if (spectating() || !d || !d.legal) return;
  for (const a of d.legal.filter((x) => x.length !== 2)) {
    const b = make("button", "call" + (a === "pass" ? "" : " primary"), callLabel(a));
    b.dataset.action = a;
    b.addEventListener("click", () => act(a));
    box.append(b);
  }
}

function renderStatus() {
  const s = $("status");
  const d = view.deal;
  const prev = previousTrick();
  let text = "";
  const waiting = !d && !view.deals.length && table.status === "waiting";
  if (view.finished) text = t("table.over");
  else if (waiting) text = tr("table.waitingForPlayers", "Waiting for the players to take their seats…");
  else if (!d) text = t("table.dealOver");
  else if (d.legal && !spectating()) {
    text = t(d.phase === "declare" ? "table.yourTurnDeclare" : "table.yourTurnPlay");
  } else if (toActSeat() !== null) text = t("table.waiting", { name: name(toActSeat()) });
  if (prev && (!d || !d.trick.cards.length)) text = `${t("table.tookTrick", { name: name(prev.winner) })} ${text}`;
  if (d?.contract) text += ` ${t("table.declared", { name: name(seatOfPlayer(d.declarer)), contract: d.contract })}`;
  s.textContent = text;
  s.classList.toggle("my-turn", !!(d?.legal && !spectating()));
  if (waiting && you !== null && you === table.creator) {  // bots take the open seats
    const start = make("button", "start primary", tr("table.startNow", "Start now"));
    start.type = "button";
    start.addEventListener("click", async () => {
      try { await post(`/tables/${tableId}/start`); } catch (e) { toast(e.message); }
    });
    s.append(" ", start);
  }
}

function renderScores() {
  renderSheet($("scores"), view, name);  // the score sheet and the reasons: scoresheet.js
  const deals = summary?.deals ?? [];
  const chart = $("chart");
  chart.replaceChildren();
  if (deals.length) {
    chart.append(make("h3", "", t("table.chart")));
    const threshold = table.overrides?.threshold ?? presetThreshold;
    chart.append(totalsChart(view.names.map((_, s) => name(s)), deals,
      { threshold, title: t("table.chart") }));
  }

  renderReasons($("lastdeal"), deals, name, table.suits);
  const res = $("result");
  if (view.finished) {
    res.hidden = false;
    $("result-text").textContent = resultText(view, name);
    $("rematch").hidden = spectating();
    $("rematch").textContent = t(rematchUrl ? "table.rematchJoin" : "table.rematch");
    const link = $("rematch-watch");
    link.hidden = !(rematchUrl && spectating());
    if (rematchUrl) link.href = rematchUrl;
  } else {
    res.hidden = true;
  }
}

$("rematch").addEventListener("click", async () => {
  $("rematch").disabled = true;
  try {
    const data = await post(`/tables/${tableId}/rematch`);
    location.href = data.url;
  } catch (e) {
    toast(t("table.rematchFailed", { msg: e.message }));
    $("rematch").disabled = false;
  }
});
$("last-trick-btn").addEventListener("click", toggleLast);

// Grace countdowns tick once a second.
setInterval(() => {
  if (view && presence.some((p) => p && p.grace_until && !p.connected)) renderSeats();
}, 1000);

languagePicker($("lang"));
translatePage();
onLang(() => { setConn(connKey); resetSeatsPanel(); render(); });
initSeats({ tableId, toast, rerender: () => { if (view) render(); } });
fetch("/api/presets").then((r) => r.json()).then((info) => {
  const wait = () => {
    if (!table) { setTimeout(wait, 200); return; }
    presetThreshold = info.presets.find((p) => p.name === table.preset)?.threshold ?? null;
    render();
  };
  wait();
}).catch(() => {});
connect();
