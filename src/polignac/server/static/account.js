// @ts-check
// The account page: sign up (recovery codes shown once), sign in, recover with a code;
// signed in: the passkeys (add, rename, remove), the password (changed with the current one),
// the sessions (end one, or all), whether others see when one is online (docs/people.md),
// export, deletion (docs/server.md, "Accounts").
import { languagePicker, onLang, t, translatePage } from "./i18n.js";
import { $, el } from "./dom.js";
import { getJson, postJson } from "./api.js";
import { confirmAction } from "./confirm.js";
import { showPush } from "./push.js";
import { loadTurns } from "./turns.js";
import { loadInvites } from "./invites.js";
import { showBlocked } from "./blocked.js";

/** @type {{signed_in: boolean, username?: string, profile?: string}} */
let me = { signed_in: false };

/** @param {unknown} err */
function showError(err) {
  $("error").textContent = err instanceof Error ? err.message : String(err);
}

/** @param {number} seconds epoch seconds */
function date(seconds) {
  return new Date(seconds * 1000).toLocaleString(document.documentElement.lang || undefined,
    { dateStyle: "medium", timeStyle: "short" });
}

/**
 * The values of a form as text.
 * @param {string} id
 * @returns {Record<string, string>}
 */
function values(id) {
  const form = $(id, HTMLFormElement);
  return Object.fromEntries([...new FormData(form).entries()].map(([k, v]) => [k, String(v)]));
}

/**
 * A session's browser and system in words ("Firefox 128 on Windows 10"); the raw
 * User-Agent where the server recognised no browser.
 * @param {{browser: string, os: string, device: string} | undefined} device
 * @param {string} agent
 */
function deviceName(device, agent) {
  if (!device || !device.browser) return agent || "?";
  if (!device.os) return device.device ? `${device.browser} (${device.device})` : device.browser;
  return t(device.device ? "account.deviceOn" : "account.device", device);
}

async function showSessions() {
  const list = $("sessions");
  try {
    const { sessions } = await getJson("/api/account/sessions");
    list.replaceChildren(...sessions.map((/** @type {any} */ s) => {
      const end = el("button", { type: "button" }, t("account.end"));
      end.addEventListener("click", async () => {
        try {
          await postJson("/api/account/sessions/end", { id: s.id });
          if (s.current) location.reload(); else showSessions();
        } catch (err) { showError(err); }
      });
      return el("li", {},
        el("span", { title: s.agent },
          `${deviceName(s.device, s.agent)} · ${t("account.started", { date: date(s.created_at) })}`
          + (s.current ? ` · ${t("account.current")}` : "")), " ", end);
    }));
  } catch (err) { showError(err); }
}

/** @typedef {{id: string, name: string | null, created_at: number}} Passkey */

/** @param {Passkey} key its name, or "Passkey" in the page language when it has none */
function passkeyName(key) { return key.name ?? t("account.passkeyUnnamed"); }

/** @param {Passkey[]} passkeys the list the server answered */
function listPasskeys(passkeys) {
  const list = $("passkeys");
  if (!passkeys.length) {
    list.replaceChildren(el("li", { class: "empty small-muted" }, t("account.passkeyNone")));
    return;
  }
  list.replaceChildren(...passkeys.map((key) => {
    const rename = el("button", { type: "button", class: "passkey-rename" }, t("account.rename"));
    const remove = el("button", { type: "button", class: "passkey-remove" }, t("account.remove"));
    const item = el("li", { dataset: { id: key.id } },
      el("span", { class: "passkey-text" },
        el("span", { class: "passkey-name" }, passkeyName(key)), " ",
        el("span", { class: "small-muted" }, t("account.passkeyAddedOn", { date: date(key.created_at) }))),
      " ", el("span", { class: "passkey-buttons" }, rename, remove));
    rename.addEventListener("click", () => renameForm(item, key));
    remove.addEventListener("click", () => removePasskey(key));
    return item;
  }));
}

/**
 * Turn a passkey's line into a form that renames it (Escape or Cancel: back as it was).
 * @param {HTMLElement} item
 * @param {Passkey} key
 */
function renameForm(item, key) {
  const input = el("input", { name: "name", value: key.name ?? "", maxlength: "64",
    autocomplete: "off", "aria-label": t("account.passkeyName") });
  const cancel = el("button", { type: "button" }, t("account.cancel"));
  const form = el("form", { class: "passkey-form" }, input,
    el("button", { type: "submit", class: "primary" }, t("account.save")), cancel);
  const back = () => showPasskeys();
  cancel.addEventListener("click", back);
  input.addEventListener("keydown", (event) => { if (event.key === "Escape") back(); });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    $("error").textContent = "";
    try {
      listPasskeys((await postJson("/api/account/passkeys/rename", { id: key.id, name: input.value })).passkeys);
    } catch (err) { showError(err); input.focus(); }
  });
  item.replaceChildren(form);
  input.focus();
  input.select();
}

/**
 * Remove a passkey after a question (the server keeps the account's last way to sign in).
 * @param {Passkey} key
 */
async function removePasskey(key) {
  $("error").textContent = "";
  const sure = await confirmAction({ title: t("account.passkeyRemoveTitle"),
    text: t("account.passkeyRemoveText", { name: passkeyName(key) }),
    yes: t("account.remove"), no: t("account.cancel") });
  if (!sure) return;
  try {
    listPasskeys((await postJson("/api/account/passkeys/remove", { id: key.id })).passkeys);
  } catch (err) { showError(err); }
}

async function showPasskeys() {
  try {
    listPasskeys((await getJson("/api/account/passkeys")).passkeys);
  } catch (err) { showError(err); }
}

/** Register a passkey for the signed-in account (WebAuthn, the server's options). */
async function addPasskey() {
  $("error").textContent = "";
  try {
    const options = await postJson("/api/account/passkeys/register/options");
    const publicKey = PublicKeyCredential.parseCreationOptionsFromJSON(options);
    const credential = /** @type {PublicKeyCredential | null} */ (await navigator.credentials.create({ publicKey }));
    if (!credential) return;
    await postJson("/api/account/passkeys/register", { credential: credential.toJSON() });
    showPasskeys();
  } catch (err) { showError(err); }
}

/** Sign in with any passkey of this site. */
async function passkeySignIn() {
  $("error").textContent = "";
  try {
    const options = await postJson("/api/account/passkeys/signin/options");
    const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON(options);
    const credential = /** @type {PublicKeyCredential | null} */ (await navigator.credentials.get({ publicKey }));
    if (!credential) return;
    me = await postJson("/api/account/passkeys/signin", { credential: credential.toJSON() });
    render();
  } catch (err) { showError(err); }
}

/** The presence choice (GET and POST /api/account/presence, docs/people.md). */
async function showPresence() {
  const box = $("presence-visible", HTMLInputElement);
  box.checked = (await getJson("/api/account/presence")).visible;
}

function render() {
  $("password-done").textContent = "";
  $("signed-out").hidden = me.signed_in;
  $("signed-in").hidden = !me.signed_in;
  if (me.signed_in) {
    $("who").textContent = t("account.signedInAs", { name: me.username ?? "" });
    $("profile-link", HTMLAnchorElement).href = me.profile ?? "/";
    document.title = `Polignac: ${me.username}`;
    showSessions();
    showPasskeys();
    showPush().catch(showError);
    showPresence().catch(showError);
    showBlocked($("blocked-list"), showError).catch(showError);
    loadTurns($("your-turn"));
    loadInvites($("your-invites"));
  } else {
    document.title = `Polignac: ${t("account.signIn")}`;
  }
}

/**
 * Wire a form to a POST; `done` gets the answer.
 * @param {string} id
 * @param {string} url
 * @param {(data: any) => void} done
 */
function submit(id, url, done) {
  $(id, HTMLFormElement).addEventListener("submit", async (event) => {
    event.preventDefault();
    $("error").textContent = "";
    try {
      done(await postJson(url, values(id)));
    } catch (err) { showError(err); }
  });
}

submit("signup-form", "/api/account/signup", (data) => {
  me = data;
  $("codes").replaceChildren(...data.recovery_codes.map((/** @type {string} */ c) => el("li", {}, el("code", {}, c))));
  $("codes-panel").hidden = false;
  render();
});
submit("signin-form", "/api/account/signin", (data) => { me = data; render(); });
submit("recover-form", "/api/account/recover", (data) => { me = data; render(); });
submit("password-form", "/api/account/password", () => {
  $("password-form", HTMLFormElement).reset();
  $("password-done").textContent = t("account.passwordChanged");
  showSessions();
});
submit("delete-form", "/api/account/delete", () => { me = { signed_in: false }; render(); });

$("signout").addEventListener("click", async () => {
  try { await postJson("/api/account/signout"); me = { signed_in: false }; render(); } catch (err) { showError(err); }
});
$("end-all").addEventListener("click", async () => {
  try { await postJson("/api/account/sessions/end", { all: true }); me = { signed_in: false }; render(); } catch (err) { showError(err); }
});

$("presence-visible", HTMLInputElement).addEventListener("change", async (event) => {
  const box = /** @type {HTMLInputElement} */ (event.target);
  $("error").textContent = "";
  try {
    box.checked = (await postJson("/api/account/presence", { visible: box.checked })).visible;
  } catch (err) { box.checked = !box.checked; showError(err); }
});
$("passkey-add").addEventListener("click", addPasskey);
$("passkey-signin").addEventListener("click", passkeySignIn);
languagePicker($("lang", HTMLSelectElement));
translatePage();
onLang(render);
getJson("/api/account").then((data) => { me = data; render(); }).catch(showError);
