// Installs the service worker that lets a phone open the scorekeepers offline. The worker's URL
// and scope come from this script tag's data- attributes (no inline script: see the CSP).
(function () {
  var me = document.currentScript;
  if (!me || !("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register(me.dataset.worker, { scope: me.dataset.scope }).catch(function () {});
})();
