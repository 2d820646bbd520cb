// @ts-check
// The service worker: shows the site's Web Push notifications (players/push.py: "Your
// move", "Your table has started") and opens the table when one is clicked, or brings its
// open tab forward. The page's types are the DOM's, so the worker's scope is typed here.

/** @type {any} the ServiceWorkerGlobalScope */
const worker = self;

worker.addEventListener("push", (/** @type {any} */ event) => {
  /** @type {{title?: string, body?: string, url?: string, tag?: string}} */
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch { data = { body: event.data?.text() }; }
  event.waitUntil(worker.registration.showNotification(data.title || "Polignac", {
    body: data.body || "",
    tag: data.tag,
    icon: "/static/favicon.svg",
    data: { url: data.url || "/" },
  }));
});

worker.addEventListener("notificationclick", (/** @type {any} */ event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || "/", worker.location.origin).href;
  event.waitUntil((async () => {
    const open = await worker.clients.matchAll({ type: "window", includeUncontrolled: true });
    const tab = open.find((/** @type {{url: string}} */ c) => c.url === url);
    if (tab) return tab.focus();
    return worker.clients.openWindow(url);
  })());
});
