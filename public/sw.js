/*
 * The service worker (docs/product.md §7), served from the site root so it controls every page.
 * - push: shows the notification (title, body, the sender's thumbnail, the URL to open) and tells open
 *   pages a push arrived ({ type: "push", url }), so their counts refresh at once;
 * - notificationclick: focuses a tab already showing that URL ({ type: "checkUrl" }), else another tab of
 *   the site and asks it to go there ({ type: "openUrl" }), else opens a new tab;
 * - an offline page (/offline, cached at install) when a navigation finds no network.
 */
const CACHE = "offline-v1";
const OFFLINE_URL = "/offline";

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.add(new Request(OFFLINE_URL, { cache: "reload", credentials: "same-origin" })))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  if (event.request.mode !== "navigate") return;
  event.respondWith(fetch(event.request).catch(() => caches.match(OFFLINE_URL, { ignoreSearch: true })));
});

async function tell(message) {
  const pages = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  for (const page of pages) page.postMessage(message);
}

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { title: event.data ? event.data.text() : "" };
  }
  const url = new URL(data.url || "/", self.location.origin).href;
  event.waitUntil(
    Promise.all([
      self.registration.showNotification(data.title || self.location.hostname, {
        body: data.body || "",
        icon: data.icon || "/icons/icon-192.png",
        badge: "/icons/icon-192.png",
        tag: data.tag,
        renotify: !!data.tag,
        data: { url },
      }),
      tell({ type: "push", url }),
    ]),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || self.location.origin + "/";
  event.waitUntil(
    (async () => {
      const pages = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const same = pages.find((p) => p.url === url);
      if (same) {
        await same.focus();
        same.postMessage({ type: "checkUrl", url });
        return;
      }
      const other = pages.find((p) => new URL(p.url).origin === self.location.origin);
      if (other) {
        await other.focus();
        other.postMessage({ type: "openUrl", url });
        return;
      }
      await self.clients.openWindow(url);
    })(),
  );
});
