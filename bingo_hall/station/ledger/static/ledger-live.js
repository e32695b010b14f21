// The round's prizes in money on the caller page and /display: the line is drawn by the station
// (GET /ledger/games/<id>/prizes, in the page's language) and fetched again whenever something
// that changes it happens: a sale, a prize rule (the ledger's own event), an award, a new round. On the caller page, a
// claim on a card not sold for the round shows its warning (the claim event says `unsold`).
import { fill } from "/web/static/dom.js";
import { Station } from "/static/station.js";

function ledgerLine(box) {
  const gid = Station.gameId;
  const lang = document.documentElement.lang || "en";
  let asked = 0;

  async function refresh() {
    const mine = ++asked;
    const short = box.classList.contains("big") ? "&short=1" : ""; // the projector's: names alone
    const resp = await fetch(`/ledger/games/${gid}/prizes?lang=${encodeURIComponent(lang)}${short}`);
    if (!resp.ok || mine !== asked) return;
    box.innerHTML = await resp.text();
    box.dataset.loaded = String(mine);
    pastCalls();
  }

  // A jackpot is won within its calls: once the round has called more, the line says it is
  // gone for this game and rolls over (the station's line says so after the award too).
  let count = (Station.state || {}).count || 0;
  function pastCalls() {
    for (const j of box.querySelectorAll(".ledger-jackpot[data-within]")) {
      const gone = count > Number(j.dataset.within);
      j.querySelector('[data-jackpot="on"]').hidden = gone;
      j.querySelector('[data-jackpot="gone"]').hidden = !gone;
      j.dataset.gone = gone ? "yes" : "no";
    }
  }
  for (const kind of ["call", "undo", "snapshot", "round"]) {
    Station.listen(kind, (data, name) => {
      if (typeof data.count === "number") count = data.count;
      else if (name === "round") count = 0; // a new round starts with no call
      pastCalls();
    });
  }

  if (gid === null) return;
  const again = () => { refresh().catch(() => {}); };
  for (const kind of ["ledger", "round", "end", "snapshot"]) Station.listen(kind, again);
  // a prize awarded may change the line (a jackpot won); claims, which also send these events,
  // do not, so a room of phones on /display asks only when the number of awards changes
  const snap = Station.state || {};
  let awards = snap.prizes ? snap.prizes.awarded.length : snap.scores ? snap.scores.awards.length : null;
  const awarded = (n) => { if (awards !== null && n !== awards) again(); awards = n; };
  Station.listen("prize", (data) => awarded(data.awarded.length));
  Station.listen("scores", (data) => awarded(data.awards.length));
  const warning = document.getElementById("ledger-warning");
  if (warning) {
    Station.listen("claim", (made) => {  // the claim's answer: `unsold` when not sold
      warning.hidden = !made.unsold;
      warning.textContent = made.unsold ? fill(warning.dataset.unsold, made.unsold) : "";
    });
    Station.listen("round", () => { warning.hidden = true; });
  }
}

const box = document.getElementById("ledger-prizes");
if (box) ledgerLine(box);
