// The service worker: shows the site's Web Push notifications (players/push.py: "Your
// move", "Your table has started") and opens the table when one is clicked, or brings its
// open tab forward.
/* eslint-env serviceworker */

self.addEventListener("push", (event) => {
  /** @type {{title?: string, body?: string, url?: string, tag?: string}} */
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch { data = { body: event.data?.text() }; }
  event.waitUntil(self.registration.showNotification(data.title || "Polignac", {
    body: data.body || "",
    tag: data.tag,
    icon: "/static/favicon.svg",
    data: { url: data.url || "/" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || "/", self.location.origin).href;
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const tab = open.find((c) => c.url === url);
    if (tab) return tab.focus();
    return self.clients.openWindow(url);
  })());
});
