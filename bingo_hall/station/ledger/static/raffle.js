// The raffle's two pages (raffle.py). On the Maestro's page (#raffle) every form posts to the
// raffle's API with the page's CSRF token and the page reloads (a refusal is shown on the
// message line and nothing changes). On the big screen (#raffle-screen) the raffle is drawn
// from its state: first the page's, then each change the station sends on /raffle/events.
import { post as send } from "/web/static/api.js";
import { $, el, fill } from "/web/static/dom.js";
import { follow } from "/web/static/live.js";


function maestroPage() {
  const lang = document.documentElement.lang || "en";
  function say(text) {
    const msg = $("ledger-message");
    msg.hidden = !text;
    msg.textContent = text || "";
    msg.classList.add("error");
  }
  async function post(path, payload) {
    try {
      // no retry: a sale or a draw is not made twice
      const resp = await send(`${path}?lang=${encodeURIComponent(lang)}`, payload, { retry: false });
      if (!resp.ok) { say(resp.data.error); return; }
      location.reload();
    } catch (e) { say(e.message); }
  }
  function on(id, fn) {
    const form = $(id);
    if (!form) return;
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const ask = form.querySelector("[data-confirm]");
      if (ask && !window.confirm(ask.dataset.confirm)) return;
      fn();
    });
  }
  on("raffle-start", () => post("/api/raffle", { price: $("raffle-price").value }));
  on("raffle-sell", () => post("/api/raffle/sales", { colour: $("raffle-colour").value, numbers: $("raffle-numbers").value }));
  on("raffle-prize", () => post("/api/raffle/prizes", { name: $("raffle-prize-name").value }));
  on("raffle-commit", () => post("/api/raffle/commit", { public_input: $("raffle-public").value }));
  on("raffle-draw", () => post("/api/raffle/draw", {}));
  on("raffle-redraw", () => post("/api/raffle/unclaimed", { reason: $("raffle-reason").value }));
  on("raffle-reveal", () => post("/api/raffle/reveal", {}));
  $("raffle").dataset.ready = "yes"; // its forms are this script's now (tests wait for it)
}

// The colours a roll of raffle tickets comes in, for the swatch beside the words (the words are
// always written: the swatch only helps the eye).
const SWATCH = {
  red: "#e5484d", rojo: "#e5484d", blue: "#3e8ef7", azul: "#3e8ef7", green: "#3dbb6c",
  verde: "#3dbb6c", yellow: "#f5d90a", amarillo: "#f5d90a", white: "#f4f4f5", blanco: "#f4f4f5",
  pink: "#f47fb4", rosa: "#f47fb4", orange: "#f7902f", naranja: "#f7902f", purple: "#9b6cf0",
  morado: "#9b6cf0", violeta: "#9b6cf0", lilac: "#c4a7f2", lila: "#c4a7f2",
};

function bigScreen(root) {
  const T = JSON.parse($("raffle-strings").textContent);
  const ticket = (t) => `${t.colour} ${t.number}`;

  function draw(s) {
    const list = $("raffle-list");
    list.replaceChildren(...(s.prizes || []).map((p) => {
      const li = el("li", p.winner ? "won" : (p.place === s.next_prize ? "now" : ""));
      li.dataset.place = p.place;
      li.appendChild(el("span", "raffle-prize", p.name));
      li.append(" ");
      li.appendChild(el("b", "raffle-winner", p.winner ? ticket(p.winner) : T.waiting));
      for (const u of p.unclaimed) {
        li.appendChild(el("small", "raffle-redrawn", `${ticket(u)} · ${fill(T.redrawn, { reason: u.reason })}`));
      }
      return li;
    }));
    $("raffle-sold").textContent = s.tickets ?? 0;
    $("raffle-commitment").textContent = s.commitment || "";
    $("raffle-seed").textContent = s.seed || (s.commitment ? T.not_yet : "");
    $("raffle-seed-label").hidden = !s.commitment;
    const last = s.last ? s.draws[s.last - 1] : null;
    const box = $("raffle-ticket");
    box.hidden = !last;
    if (last) {
      box.querySelector(".raffle-colour").textContent = last.colour;
      box.querySelector(".raffle-number").textContent = last.number;
      box.querySelector(".raffle-swatch").style.background = SWATCH[last.colour] || "transparent";
      box.dataset.colour = last.colour;
      box.dataset.number = last.number;
    }
    const prize = last ? s.prizes[last.prize - 1] : null;
    const words = !s.stage ? T.none
      : s.stage === "selling" ? T.selling
      : s.stage === "revealed" ? T.over
      : last ? fill(T.won, { prize: prize.name, ticket: ticket(last) })
      : T.committed;
    $("raffle-now").textContent = words;
    const redrawn = prize && prize.unclaimed.length ? prize.unclaimed[prize.unclaimed.length - 1] : null;
    $("raffle-note").textContent = redrawn && s.stage === "committed"
      ? `${ticket(redrawn)} · ${fill(T.redrawn, { reason: redrawn.reason })}` : "";
    root.dataset.stage = s.stage || "";
    root.dataset.draws = (s.draws || []).length;
  }

  draw(JSON.parse($("raffle-state").textContent));
  follow("/raffle/events", { snapshot: draw }, {
    onUp() { root.dataset.live = "yes"; },
    onDown() { root.dataset.live = "no"; },
  });
}

if ($("raffle")) maestroPage();
const screen = $("raffle-screen");
if (screen) bigScreen(screen);
