// The public card page follows the game: on every change the station announces, it fetches the
// card and verdict again (rendered by the station, one template for everything).
(function () {
  "use strict";
  const root = document.getElementById("verify");
  const target = document.getElementById("verdict");
  if (!root || !root.dataset.game || !window.EventSource) return;
  let pending = null;
  function refresh() {
    clearTimeout(pending);
    pending = setTimeout(async () => {
      try {
        const resp = await fetch(root.dataset.src, { headers: { Accept: "text/html" } });
        if (resp.ok) target.innerHTML = await resp.text();
      } catch (e) { /* offline: EventSource reconnects and we refresh then */ }
    }, 150);
  }
  const es = new EventSource(`/api/games/${root.dataset.game}/events`);
  for (const kind of ["snapshot", "call", "undo", "round", "end", "claim", "scores", "prize"]) {
    es.addEventListener(kind, refresh);
  }
  root.dataset.live = "yes";
})();
