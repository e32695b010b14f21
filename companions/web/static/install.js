// Installs the service worker that lets a phone open the scorekeepers offline. The worker's URL
// and scope come from this script tag's data- attributes (no inline script: see the CSP; an ES
// module has no document.currentScript, so the tag is found by its data-worker).
const me = document.querySelector("script[data-worker]");
// Browsers run service workers only on https or localhost: on the hall's plain http the page
// says so, as a reload without the network would then show the browser's own error page.
const offlineCopy = "serviceWorker" in navigator && window.isSecureContext;
if (me && offlineCopy) {
  navigator.serviceWorker.register(me.dataset.worker, { scope: me.dataset.scope }).catch(() => {});
}
const note = document.getElementById("offline-note");
if (note) note.hidden = offlineCopy;
