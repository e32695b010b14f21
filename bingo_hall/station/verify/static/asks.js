// The requests for a check that players sent from their card's page (issue 36 item 4): listed on
// the caller page with the card's verdict (GET /api/games/<id>/asks), again on every `ask` event,
// snapshot and new round. A request is not a claim: "Look" shows the card here only (a GET, like
// the claims list's lines); the Maestro then checks it for the room or records the BINGO.
import { el, fill, replaceKeepingFocus } from "/web/static/dom.js";
import { Station } from "/static/station.js";
import { claimsPanel } from "./panel.js";

const box = document.getElementById("asks");
if (box) asksList(box);

function asksList(box) {
  const gid = box.dataset.game;
  const T = JSON.parse(document.getElementById("asks-strings").textContent);
  const list = document.getElementById("ask-list");
  const { showCard, say } = claimsPanel(gid);
  let asked = 0;

  function item(a) {
    const li = el("li", a.valid ? "valid" : "false");
    li.dataset.serial = a.serial;
    li.dataset.key = `${a.at_call}:${a.serial}`;  // one request per card and call
    li.append(`${fill(T.asked, { n: a.serial })} · `);
    li.appendChild(el("b", "", a.valid ? T.bingo : T.no_bingo));
    li.append(` · ${fill(T.at_call, { n: a.at_call })} `);
    const look = el("button", "button", fill(T.look, { n: a.serial }));
    look.type = "button";
    look.addEventListener("click", () => {
      document.getElementById("claim-serial").value = a.serial;
      showCard(a.serial, true).catch((e) => say(e.message, true));
    });
    li.appendChild(look);
    return li;
  }
  async function refresh() {
    const mine = ++asked;
    const resp = await fetch(`/api/games/${gid}/asks`, { headers: { Accept: "application/json" } });
    if (!resp.ok || mine !== asked) return;
    const asks = (await resp.json()).asks;
    box.hidden = !asks.length;
    replaceKeepingFocus(list, asks.map(item));  // a "Look" the keyboard is on keeps the focus
    box.dataset.count = String(asks.length);
  }
  const again = () => { refresh().catch(() => {}); };
  Station.listen("ask", again);
  Station.listen("round", again);
  Station.listen("snapshot", again);
  again();
}
