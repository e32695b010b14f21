// The public card page follows the game: on every change the station announces, it fetches the
// card and verdict again (rendered by the station, one template for everything). When the card
// gets a bingo the page says "shout!" and vibrates where the phone allows; it never claims.
(function () {
  "use strict";
  const root = document.getElementById("verify");
  const target = document.getElementById("verdict");
  if (!root || !root.dataset.game || !window.EventSource) return;
  let pending = null;
  let shouting = false;
  function buzz() {
    const now = !!target.querySelector("[data-shout]");
    if (now && !shouting && navigator.vibrate) navigator.vibrate([300, 120, 300]);
    shouting = now;
  }
  function refresh() {
    clearTimeout(pending);
    pending = setTimeout(async () => {
      try {
        const resp = await fetch(root.dataset.src, { headers: { Accept: "text/html" } });
        if (resp.ok) { target.innerHTML = await resp.text(); buzz(); }
      } catch (e) { /* offline: EventSource reconnects and we refresh then */ }
    }, 150);
  }
  const es = new EventSource(`/api/games/${root.dataset.game}/events?view=card`);
  for (const kind of ["snapshot", "call", "undo", "round", "end", "claim", "scores", "prize"]) {
    es.addEventListener(kind, refresh);
  }
  buzz();
  root.dataset.live = "yes";
})();
