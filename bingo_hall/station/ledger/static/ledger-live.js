// The round's prizes in money on the caller page and /display: the line is drawn by the station
// (GET /ledger/games/<id>/prizes, in the page's language) and fetched again whenever something
// that changes it happens: a sale, a prize rule, an award, a new round. On the caller page, a
// claim on a card not sold for the round shows its warning (the claim event says `unsold`).
(function () {
  "use strict";
  const box = document.getElementById("ledger-prizes");
  if (!box || !window.Station) return;
  const gid = window.Station.gameId;
  const lang = document.documentElement.lang || "en";
  let asked = 0;

  async function refresh() {
    const mine = ++asked;
    const resp = await fetch(`/ledger/games/${gid}/prizes?lang=${encodeURIComponent(lang)}`);
    if (!resp.ok || mine !== asked) return;
    box.innerHTML = await resp.text();
    box.dataset.loaded = String(mine);
  }

  const events = window.stationEvents;
  if (!events) return;
  for (const kind of ["ledger", "round", "prize", "scores", "end", "snapshot"]) {
    events.addEventListener(kind, () => { refresh().catch(() => {}); });
  }
  const warning = document.getElementById("ledger-warning");
  if (warning) {
    events.addEventListener("claim", (ev) => {
      const made = JSON.parse(ev.data);  // the claim's answer: `unsold` when not sold
      warning.hidden = !made.unsold;
      warning.textContent = made.unsold ? window.Station.fill(warning.dataset.unsold, made.unsold) : "";
    });
    events.addEventListener("round", () => { warning.hidden = true; });
  }
})();
