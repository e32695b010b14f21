// Installs the service worker that lets a phone open the scorekeepers offline. The worker's URL
// and scope come from this script tag's data- attributes (no inline script: see the CSP; an ES
// module has no document.currentScript, so the tag is found by its data-worker).
const me = document.querySelector("script[data-worker]");
if (me && "serviceWorker" in navigator) {
  navigator.serviceWorker.register(me.dataset.worker, { scope: me.dataset.scope }).catch(() => {});
}
