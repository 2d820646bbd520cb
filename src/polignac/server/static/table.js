// The table page: one WebSocket to the server, which sends states and numbered events.
import { cardBack, cardLabel, cardSVG, SUIT_SYMBOL } from "./cards.js";

const tableId = location.pathname.split("/")[2];
const $ = (id) => document.getElementById(id);
let ws = null;
let lastSeq = 0;
let you = null;
let table = null;
let view = null;
let summary = null;
let lastTrick = null;
let focusIndex = 0;
let retry = 500;

const CALL_LABELS = {
  pass: "Pass", capot: "Declare capot", general: "Declare general", generale: "Declare la générale",
  claim: "Claim out (21)",
};
const REASONS = {
  card: "card", tricks: "tricks", "first-trick": "first trick", "last-trick": "last trick",
  "all-three": "all three", "capot-made": "capot made", "capot-failed": "capot failed",
  "opponent-capot": "opponent's capot", chelem: "chelem", "opponent-chelem": "opponent's chelem",
  "card-points": "card points", announce: "announcement", "chips-stake": "stake",
  "chips-pool": "pool", "chips-sweep": "sweep", "chips-overload": "overload",
};

function name(seat) { return seat === you ? "You" : (view?.names?.[seat] ?? `Seat ${seat + 1}`); }

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/tables/${tableId}/ws`);
  ws.onopen = () => { retry = 500; setConn("connected"); send({ type: "hello", last_seq: lastSeq }); };
  ws.onmessage = (msg) => onFrame(JSON.parse(msg.data));
  ws.onclose = (ev) => {
    if (ev.code === 4401) { setConn("not seated at this table"); return; }
    if (ev.code === 4404) { setConn("no such table"); return; }
    setConn("reconnecting…");
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

function send(obj) { if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(obj)); }
function setConn(text) { $("conn").textContent = text; $("conn").dataset.state = text; }

function onFrame(f) {
  if (f.type === "state") {
    lastSeq = f.seq; you = f.you; table = f.table; view = f.view; summary = f.summary;
    render();
  } else if (f.type === "event") {
    if (f.seq <= lastSeq) return;
    if (f.seq !== lastSeq + 1) { send({ type: "hello", last_seq: lastSeq }); return; }
    lastSeq = f.seq;
    const ev = f.event;
    if (ev.trick) lastTrick = ev.trick;
    if (ev.kind === "deal") lastTrick = null;
    if (f.summary) summary = f.summary;
    if (f.view) { view = f.view; render(); }
  } else if (f.type === "error") {
    toast(f.message);
    if (f.rule === "stale-seq") send({ type: "hello", last_seq: lastSeq });
  }
}

function toast(text) {
  const t = $("toast");
  t.textContent = text; t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.hidden = true; }, 4000);
}

function act(action) { send({ type: "act", action, seq: lastSeq }); }

function sortHand(cards) {
  const suitOrder = "CDSH";
  const ranks = table.rank_order;
  return [...cards].sort((a, b) => suitOrder.indexOf(a[1]) - suitOrder.indexOf(b[1]) ||
    ranks.indexOf(a[0]) - ranks.indexOf(b[0]));
}

function render() {
  if (!view || !table) return;
  $("title").textContent = `${table.preset} · deal ${view.deal_number}`;
  $("record").href = `/tables/${tableId}/record.json`;
  renderSeats(); renderTrick(); renderHand(); renderPrompt(); renderStatus(); renderScores();
}

function seatOfPlayer(p) { return view.deal_seats ? view.deal_seats[p] : p; }
function playerOfSeat(s) { return view.deal_seats ? view.deal_seats.indexOf(s) : -1; }

function seatBox(seat) {
  const d = view.deal;
  const p = playerOfSeat(seat);
  const box = document.createElement("div");
  box.className = "seat";
  if (d && d.to_act !== null && seatOfPlayer(d.to_act) === seat) box.classList.add("to-act");
  const kind = table.seats[seat];
  const title = document.createElement("div");
  title.className = "seat-name";
  title.textContent = name(seat);
  for (const [on, text] of [[kind.kind === "bot", `bot ${kind.level}`],
    [view.dealer === seat, "dealer"]]) {
    if (on) title.append(Object.assign(document.createElement("span"),
      { className: "badge", textContent: text }));
  }
  box.append(title);
  const info = document.createElement("div");
  info.className = "seat-info";
  const tricks = d && p >= 0 ? d.tricks_won[p] : 0;
  info.textContent = `total ${view.totals[seat]} · tricks ${tricks}` +
    (kind.open ? " · open seat" : "");
  box.append(info);
  if (seat !== you && d && p >= 0) {
    const backs = document.createElement("div");
    backs.className = "backs";
    for (let i = 0; i < d.hand_sizes[p]; i++) backs.append(cardBack());
    box.append(backs);
  }
  return box;
}

function renderSeats() {
  const opp = $("opponents");
  opp.replaceChildren();
  const n = view.names.length;
  for (let k = 1; k < n; k++) opp.append(seatBox((you + k) % n));
  $("me").replaceChildren(seatBox(you));
}

function trickCard(code, seat, winner) {
  const wrap = document.createElement("figure");
  wrap.className = "played" + (winner ? " winner" : "");
  wrap.append(cardSVG(code));
  const cap = document.createElement("figcaption");
  cap.textContent = name(seat);
  wrap.append(cap);
  return wrap;
}

function renderTrick() {
  const box = $("trick");
  box.replaceChildren();
  const d = view.deal;
  if (d && d.trick.cards.length) {
    d.trick.cards.forEach((c, i) => box.append(
      trickCard(c, seatOfPlayer((d.trick.leader + i) % d.players), false)));
    box.dataset.kind = "current";
  } else if (lastTrick) {
    lastTrick.cards.forEach((c, i) => {
      const s = lastTrick.seats[i];
      box.append(trickCard(c, s, s === lastTrick.winner));
    });
    box.dataset.kind = "last";
  } else {
    box.dataset.kind = "empty";
  }
  if (d?.turn_up) {
    const up = document.createElement("figure");
    up.className = "played turnup";
    up.append(cardSVG(d.turn_up));
    const cap = document.createElement("figcaption");
    cap.textContent = `trump ${SUIT_SYMBOL[d.trump]}`;
    up.append(cap);
    box.append(up);
  }
}

function renderHand() {
  const hand = $("hand");
  hand.replaceChildren();
  const d = view.deal;
  if (!d || !d.hand) return;
  const legal = new Set(d.legal ?? []);
  const cards = sortHand(d.hand);
  const buttons = [];
  for (const code of cards) {
    const b = document.createElement("button");
    b.className = "card";
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

function renderPrompt() {
  const box = $("prompt");
  box.replaceChildren();
  const d = view.deal;
  if (!d || !d.legal) return;
  const calls = d.legal.filter((a) => a.length !== 2);
  for (const a of calls) {
    const b = document.createElement("button");
    b.className = "call" + (a === "pass" ? "" : " primary");
    b.dataset.action = a;
    b.textContent = CALL_LABELS[a] ?? (a.startsWith("announce:") ?
      "Announce " + a.slice(9).replace("pollack-", "pollack ") : a);
    b.addEventListener("click", () => act(a));
    box.append(b);
  }
}

function renderStatus() {
  const s = $("status");
  const d = view.deal;
  if (view.finished) {
    s.textContent = "The match is over.";
  } else if (!d) {
    s.textContent = "The deal is over; the next deal is coming…";
  } else if (d.legal) {
    s.textContent = d.phase === "declare" ?
      "Your turn: declare a contract, or pass." : "Your turn: play a highlighted card.";
  } else if (d.to_act !== null) {
    s.textContent = `Waiting for ${name(seatOfPlayer(d.to_act))}…`;
  }
  if (lastTrick && (!d || !d.trick.cards.length)) {
    s.textContent = `${name(lastTrick.winner)} took the trick. ` + s.textContent;
  }
  if (d?.contract) s.textContent += ` ${name(seatOfPlayer(d.declarer))} declared ${d.contract}.`;
}

function renderScores() {
  const t = $("scores");
  t.replaceChildren();
  const head = t.insertRow();
  head.insertCell().textContent = "Deal";
  view.names.forEach((_, s) => { head.insertCell().textContent = name(s); });
  view.deals.forEach((deal, i) => {
    const r = t.insertRow();
    r.insertCell().textContent = String(i + 1) + (deal.tiebreak ? "*" : "");
    deal.scores.forEach((x) => { r.insertCell().textContent = String(x); });
  });
  const tot = t.insertRow();
  tot.className = "totals";
  tot.insertCell().textContent = "Total";
  view.totals.forEach((x) => { tot.insertCell().textContent = String(x); });

  const last = $("lastdeal");
  last.replaceChildren();
  const sd = summary?.deals?.at(-1);
  if (sd) {
    const h = document.createElement("h3");
    h.textContent = `Deal ${sd.number}: why`;
    const ul = document.createElement("ul");
    for (const line of sd.reasons) {
      const li = document.createElement("li");
      const who = line.seat ?? line.player;
      const whoName = table.preset.startsWith("pollack") && line.seat === undefined ?
        `Side ${who + 1}` : name(who);
      li.textContent = `${whoName}: ${line.points > 0 ? "+" : ""}${line.points} ` +
        `${REASONS[line.reason] ?? line.reason}${line.detail ? " (" + line.detail + ")" : ""}`;
      ul.append(li);
    }
    if (!sd.reasons.length) ul.append(Object.assign(document.createElement("li"),
      { textContent: "no points" }));
    last.append(h, ul);
  }
  const res = $("result");
  if (view.finished) {
    res.hidden = false;
    const won = view.winners.map(name).join(", ");
    const lost = view.losers.map(name).join(", ");
    res.textContent = `Match over. Winners: ${won || "—"}. Losers: ${lost || "—"}.`;
  } else {
    res.hidden = true;
  }
}

connect();
