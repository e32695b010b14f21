// /join on a phone: the last ball large and the balls called so far, grouped as a player looks
// for them (by letter, or by tens in a 90-ball game, the columns of a ticket), kept live by
// station.js. Follows the newest game, as the big screen does.
import { el } from "/web/static/dom.js";
import { Station as S, showLastCall } from "./station.js";

// A call with a letter ("N 31") is grouped under its letter, a call that is only its number
// (90 balls) under its ten, as a ticket's columns hold them: 1-9, 10-19 ... 80-90.
const lettered = (c) => c.call !== String(c.ball);

function groups(s) {
  if (lettered(s.calls[0])) {
    const size = s.balls / 5;
    return "BINGO".split("").map((l, i) => ({ label: l, cls: "l-" + l, lo: size * i + 1, hi: size * (i + 1) }));
  }
  const out = [], tens = Math.floor(s.balls / 10);
  for (let t = 0; t < tens; t++) {
    const lo = t === 0 ? 1 : 10 * t, hi = t === tens - 1 ? s.balls : 10 * t + 9;
    out.push({ label: lo + "–" + hi, cls: "", lo: lo, hi: hi });
  }
  return out;
}

function render() {
  const s = S.state;
  if (!s) return;
  showLastCall(document.getElementById("last-call"), document.getElementById("spoken"));
  const box = document.getElementById("called");
  box.textContent = "";
  if (!s.calls.length) { box.append(el("p", "hint", S.strings.none_yet)); return; }
  const called = s.calls.map((c) => c.ball).sort((a, b) => a - b);
  const last = s.last ? s.last.ball : null;
  for (const g of groups(s)) {
    const row = el("div", "phone-row " + g.cls);
    row.append(el("span", "phone-row-label", g.label));
    const balls = el("span", "phone-row-balls");
    for (const n of called.filter((b) => b >= g.lo && b <= g.hi)) {
      balls.append(el("span", "phone-ball" + (n === last ? " last" : ""), String(n)));
    }
    row.append(balls);
    box.append(row);
  }
}

S.onChange(render);
render();

// A new game started on the caller page: open it (or the first one, on the waiting page).
async function follow() {
  try {
    const res = await fetch("/api/games");
    if (!res.ok) return;
    const active = (await res.json()).games.find((g) => g.status === "active");
    if (active && active.game_id !== S.gameId) location.reload();
  } catch (e) { /* the station is restarting; try again later */ }
}
setInterval(follow, 5000);
