// The lobby: "Play now" and "Create table".
const $ = (id) => document.getElementById(id);
let info = null;

async function post(url, body) {
  const r = await fetch(url, { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify(body), credentials: "same-origin" });
  const data = await r.json();
  if (!r.ok) throw new Error(data.error || `error ${r.status}`);
  return data;
}

$("play-now").addEventListener("click", async () => {
  $("play-now").disabled = true;
  try {
    const data = await post("/api/play-now", {});
    location.href = data.url;
  } catch (e) {
    $("error").textContent = e.message;
    $("play-now").disabled = false;
  }
});

function option(value, text, selected) {
  const o = document.createElement("option");
  o.value = value; o.textContent = text ?? value; o.selected = !!selected;
  return o;
}

function preset() { return info.presets.find((p) => p.name === $("preset").value); }

function fillPlayers() {
  const p = preset();
  $("players").replaceChildren(...p.players.map((n) => option(n, n, n === p.default_players)));
  fillSeats(); fillHouse();
}

function fillSeats() {
  const n = Number($("players").value);
  const box = $("seats");
  box.replaceChildren(Object.assign(document.createElement("legend"), { textContent: "Seats" }));
  for (let i = 0; i < n; i++) {
    const label = document.createElement("label");
    label.textContent = `Seat ${i + 1} `;
    const sel = document.createElement("select");
    sel.name = `seat${i}`;
    if (i === 0) sel.append(option("you", "you"));
    else {
      info.levels.forEach((l) => sel.append(option(`bot:${l}`, `${l} bot`, l === "easy")));
      sel.append(option("open", "open (invite a friend)"));
    }
    label.append(sel);
    box.append(label);
  }
}

function fillHouse() {
  const box = $("house");
  const p = preset();
  box.replaceChildren(Object.assign(document.createElement("legend"),
    { textContent: "House rules (blank: the preset's)" }));
  for (const [key, spec] of Object.entries(info.house_rules)) {
    const label = document.createElement("label");
    label.textContent = spec.label + " ";
    let input;
    if (spec.type === "choice") {
      input = document.createElement("select");
      input.append(option("", `preset (${p[key]})`));
      spec.choices.forEach((c) => input.append(option(c)));
    } else {
      input = document.createElement("input");
      input.type = "number"; input.min = spec.min; input.max = spec.max;
      input.placeholder = p[key] === null ? "—" : String(p[key]);
    }
    input.name = `rule:${key}`;
    label.append(input);
    box.append(label);
  }
}

$("create").addEventListener("submit", async (e) => {
  e.preventDefault();
  const form = new FormData($("create"));
  const n = Number(form.get("players"));
  const seats = [];
  for (let i = 0; i < n; i++) {
    const v = form.get(`seat${i}`);
    seats.push(v.startsWith("bot:") ? { kind: "bot", level: v.slice(4) } : { kind: v });
  }
  const overrides = {};
  for (const key of Object.keys(info.house_rules)) {
    const v = form.get(`rule:${key}`);
    if (v !== null && v !== "") overrides[key] = info.house_rules[key].type === "int" ? Number(v) : v;
  }
  try {
    const data = await post("/api/tables", { preset: form.get("preset"), players: n, seats,
      overrides, name: form.get("name") });
    const box = $("created");
    box.hidden = false;
    box.replaceChildren();
    if (!data.invites.length) { location.href = data.url; return; }
    const p = document.createElement("p");
    p.textContent = "Send each friend their own link (it works once):";
    box.append(p);
    for (const inv of data.invites) {
      const row = document.createElement("p");
      const input = Object.assign(document.createElement("input"),
        { readOnly: true, value: new URL(inv.url, location.href).href, className: "invite" });
      row.append(`Seat ${inv.seat + 1}: `, input);
      box.append(row);
    }
    const go = Object.assign(document.createElement("a"),
      { href: data.url, textContent: "Go to your table", className: "button primary" });
    box.append(go);
  } catch (err) {
    $("error").textContent = err.message;
  }
});

(async () => {
  info = await (await fetch("/api/presets")).json();
  info.presets.forEach((p) => $("preset").append(option(p.name, p.name, p.name === "polignac")));
  $("preset").addEventListener("change", fillPlayers);
  $("players").addEventListener("change", fillSeats);
  fillPlayers();
})();
