/* The companions' service worker: makes the pages installable and keeps the shell's files for
   offline start. Pages and data always come from the network first (scores must be current);
   the cache is only a fallback (the panels' modules too, and the kit's /web/static/ui.js they
   import). Live streams and entries are never cached. */
const CACHE = "companions-v2";
const SHELL = ["/t/", "/t/static/shell.css", "/t/static/shell.js", "/t/static/install.js",
  "/t/static/recent.js", "/t/static/icon-192.png"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys().then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== location.origin || url.pathname.endsWith("/events")) return;
  event.respondWith(
    fetch(req).then((resp) => {
      const kept = url.pathname.startsWith("/t/static/") || url.pathname.startsWith("/web/static/");
      if (resp.ok && (kept || req.mode === "navigate")) {
        const copy = resp.clone();
        caches.open(CACHE).then((c) => c.put(req, copy));
      }
      return resp;
    }).catch(() => caches.match(req).then((hit) => hit || caches.match("/t/")))
  );
});
