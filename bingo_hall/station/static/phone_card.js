// /join/card?n=...: the card typed on /join (phone.py), drawn by verify/_vcard.html, kept marked
// as the balls come: a square is covered when its number has been called in this round, and the
// last call's square is marked "last". Only the squares' classes change, as card.js does; the
// calls come from station.js, which follows the game for the whole page.
import { Station as S } from "./station.js";

function mark() {
  const box = document.getElementById("followed-card");
  const s = S.state;
  if (!box || !s) return;
  const called = new Set(s.calls.map((c) => String(c.ball)));
  const last = s.last ? String(s.last.ball) : null;
  for (const square of box.querySelectorAll("td[data-number]")) {
    const n = square.dataset.number;
    if (n === "FREE") continue;
    square.classList.toggle("covered", called.has(n));
    square.classList.toggle("last", n === last);
  }
  box.dataset.live = "yes";
}

S.onChange(mark);
mark();
