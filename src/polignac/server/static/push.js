// @ts-check
// Notifications on this device (Web Push, docs/server.md "Notifications"): the account
// page's switch. On: the browser asks for permission, subscribes with the site's key
// (`GET /api/push/key`) through the service worker (`/sw.js`) and gives the server its
// subscription in the page's language; off: both forget it.
import { lang, t } from "./i18n.js";
import { $ } from "./dom.js";
import { getJson, postJson } from "./api.js";

/** Whether this browser can take pushes from this page (a secure site: https or localhost). */
function supported() {
  return window.isSecureContext && "serviceWorker" in navigator && "PushManager" in window
    && "Notification" in window;
}

/** @returns {Promise<ServiceWorkerRegistration>} */
async function registration() {
  await navigator.serviceWorker.register("/sw.js");
  return navigator.serviceWorker.ready;
}

/** Draw the switch as things stand (call when the account page shows a signed-in person). */
export async function showPush() {
  const status = $("push-status");
  const button = $("push-toggle", HTMLButtonElement);
  if (!supported()) {
    status.textContent = t("account.pushUnsupported");
    button.hidden = true;
    return;
  }
  const sub = await (await registration()).pushManager.getSubscription();
  const on = sub !== null && Notification.permission === "granted";
  button.dataset.on = on ? "1" : "";
  button.textContent = t(on ? "account.pushOff" : "account.pushOn");
  button.hidden = false;
  status.textContent = Notification.permission === "denied" ? t("account.pushDenied")
    : t(on ? "account.pushIsOn" : "account.pushIsOff");
}

/** The switch: turn notifications on or off for this device. */
async function toggle() {
  const button = $("push-toggle", HTMLButtonElement);
  button.disabled = true;
  $("error").textContent = "";
  try {
    const reg = await registration();
    if (button.dataset.on) {
      const sub = await reg.pushManager.getSubscription();
      if (sub) {
        await postJson("/api/push/unsubscribe", { endpoint: sub.endpoint });
        await sub.unsubscribe();
      }
    } else if (await Notification.requestPermission() === "granted") {
      const { key } = await getJson("/api/push/key");
      const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
      await postJson("/api/push/subscribe", { subscription: sub.toJSON(), lang });
    }
  } catch (err) {
    $("error").textContent = err instanceof Error ? err.message : String(err);
  } finally {
    button.disabled = false;
    await showPush();
  }
}

$("push-toggle").addEventListener("click", toggle);
