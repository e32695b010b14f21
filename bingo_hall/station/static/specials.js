// The game's special rules on the caller page and /display (station/_specials.html): one line
// per special game in the page's language, the wild digit filled in once the first ball is out,
// and the wild numbers marked on the Tabla Confrontadora (they count as called: bingo_hall/
// specials.py). The snapshot's `specials` (station/specials_view.py) says what the game plays.
import { post } from "/web/static/api.js";
import { Station } from "./station.js";

const list = document.getElementById("special-rules");
const lang = document.documentElement.lang === "es" ? "es" : "en";

// The numbers the wild digit makes count as called: every 1..balls ending in the first
// ball's last digit (none before the first ball).
export function wildNumbers(specials, calls) {
  if (!specials || !specials.wild_number || !calls.length) return new Set();
  const digit = calls[0].ball % 10;
  const out = new Set();
  for (let n = 1; n <= specials.balls; n++) if (n % 10 === digit) out.add(n);
  return out;
}

function lineText(sp, line, calls) {
  if (line.key !== "wild_number" || !sp.wild_words) return line.text[lang] || line.text.en;
  if (!calls.length) return sp.wild_words.before[lang] || sp.wild_words.before.en;
  const words = sp.wild_words.digit[lang] || sp.wild_words.digit.en;
  return words.replaceAll("{d}", String(calls[0].ball % 10));
}

function render() {
  const s = Station.state;
  const sp = s && s.specials;
  if (!sp || !list) return;
  const wild = wildNumbers(sp, s.calls);
  document.querySelectorAll(".tabla .ball").forEach((b) => {
    b.classList.toggle("wild", wild.has(Number(b.dataset.ball)));
  });
  list.hidden = sp.lines.length === 0;
  list.textContent = "";
  for (const line of sp.lines) {
    const li = document.createElement("li");
    li.dataset.special = line.key;
    li.textContent = lineText(sp, line, s.calls);
    list.appendChild(li);
  }
}

Station.onChange(() => render());
// the money ball's line names the ball: read the game's snapshot again, which has it
function refreshSpecials() {
  if (Station.gameId === null) return;
  fetch(`/api/games/${Station.gameId}`)
    .then((r) => (r.ok ? r.json() : null))
    .then((snap) => {
      if (snap && snap.specials) { Station.state.specials = snap.specials; render(); }
    });
}
Station.listen("money_ball", refreshSpecials);
render();

// The caller page's money ball (before the first ball): typed, or drawn by the station from
// the round's committed seed. Once set the form goes: the money ball stays for the game.
const moneyForm = document.getElementById("money-ball");
async function chooseMoneyBall(body) {
  const msg = document.getElementById("message");
  const res = await post(`/api/games/${Station.gameId}/money-ball`, body).catch(() => null);
  if (!res) return;
  if (!res.ok) {
    if (msg) { msg.textContent = res.data.error; msg.hidden = false; }
    return;
  }
  if (msg) { msg.textContent = ""; msg.hidden = true; }
  moneyForm.remove();
  refreshSpecials();
}
if (moneyForm) {
  moneyForm.addEventListener("submit", (ev) => {
    ev.preventDefault();
    chooseMoneyBall({ ball: document.getElementById("money-ball-number").value });
  });
  document.getElementById("money-ball-draw").addEventListener("click", () => chooseMoneyBall({ draw: true }));
}
