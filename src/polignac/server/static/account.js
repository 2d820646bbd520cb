// @ts-check
// The account page: sign up (recovery codes shown once), sign in, recover with a code;
// signed in: the sessions (end one, or all), export, deletion (docs/server.md, "Accounts").
import { languagePicker, onLang, t, translatePage } from "./i18n.js";
import { $, el } from "./dom.js";
import { getJson, postJson } from "./api.js";
import { showPush } from "./push.js";
import { loadTurns } from "./turns.js";

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

async function showPasskeys() {
  try {
    const { passkeys } = await getJson("/api/account/passkeys");
    $("passkeys").replaceChildren(...passkeys.map((/** @type {any} */ p) =>
      el("li", {}, t("account.passkeyAdded", { date: date(p.created_at) }))));
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

function render() {
  $("signed-out").hidden = me.signed_in;
  $("signed-in").hidden = !me.signed_in;
  if (me.signed_in) {
    $("who").textContent = t("account.signedInAs", { name: me.username ?? "" });
    $("profile-link", HTMLAnchorElement).href = me.profile ?? "/";
    document.title = `Polignac: ${me.username}`;
    showSessions();
    showPasskeys();
    showPush().catch(showError);
    loadTurns($("your-turn"));
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
submit("delete-form", "/api/account/delete", () => { me = { signed_in: false }; render(); });

$("signout").addEventListener("click", async () => {
  try { await postJson("/api/account/signout"); me = { signed_in: false }; render(); } catch (err) { showError(err); }
});
$("end-all").addEventListener("click", async () => {
  try { await postJson("/api/account/sessions/end", { all: true }); me = { signed_in: false }; render(); } catch (err) { showError(err); }
});

$("passkey-add").addEventListener("click", addPasskey);
$("passkey-signin").addEventListener("click", passkeySignIn);
languagePicker($("lang", HTMLSelectElement));
translatePage();
onLang(render);
getJson("/api/account").then((data) => { me = data; render(); }).catch(showError);
