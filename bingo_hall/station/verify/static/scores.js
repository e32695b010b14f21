// The scoreboard on the caller page and /display: drawn from the snapshot's `scores` (added by
// the claims area to every station snapshot) and redrawn on each `scores` event. (An ES module:
// claims.js and claimshow.js import render and lastScores.)
import { el, fill } from "/web/static/dom.js";
import { Station } from "/static/station.js";
import { drawPattern } from "/static/pattern.js";

const S = JSON.parse(document.getElementById("score-strings").textContent);
let last = null;

// The scoreboard last drawn (the snapshot's, or the newest event's).
export function lastScores() {
  return last;
}

let seenAwards = null;
let announceUntil = 0;

// The pattern being played, drawn as a small 5x5 card, so the whole hall knows what to cover: a
// pattern of several forms goes through them (static/pattern.js). Drawn again only when the
// pattern changes, so that a scoreboard redrawn on each award does not restart it.
const lang = document.documentElement.lang || "en";
const pictures = new WeakMap(); // scoreboard -> its pattern box
function patternFigure(root, settings) {
  const name = settings.pattern;
  const key = name + "|" + (settings.mask || "");
  let box = pictures.get(root);
  if (!box || box.dataset.key !== key) {
    box = el("div", "pattern-now");
    box.dataset.key = key;
    // the room's announcement of the pattern, as the voice says it (spoken.spoken_pattern)
    const said = settings.spoken && settings.spoken[lang];
    box.appendChild(el("span", "label", said || S.playing_for + " " + (S.figures[name] || name)));
    if (settings.shape) box.appendChild(drawPattern(settings.shape, S, lang));
    else {
      const grid = el("div", "mini-card");
      (settings.mask || "").split(";")[0].replace(/\//g, "").split("").forEach((ch) => grid.appendChild(el("span", ch === "1" ? "on" : "")));
      box.appendChild(grid);
    }
    pictures.set(root, box);
  }
  return box;
}

export function render(scores) {
  if (!scores) return;
  // A new award since the last render: announce it on the hall screen for a while.
  if (seenAwards !== null && scores.awards.length > seenAwards) announceUntil = Date.now() + 15000;
  seenAwards = scores.awards.length;
  last = scores;
  document.querySelectorAll("[data-scoreboard]").forEach((root) => {
    root.innerHTML = "";
    const puntos = scores.mode === "points";
    // A Normal game with nobody seated and nothing won yet has no scoreboard to show.
    const pattern = scores.settings.pattern;
    root.hidden = !puntos && !pattern && !scores.sides.length && !scores.awards.length && !scores.maestro;
    if (root.hidden) return;
    if (pattern) root.appendChild(patternFigure(root, scores.settings));
    if (!puntos && !scores.sides.length && !scores.awards.length) return;
    const h = el("h2", null, S.scores + (puntos ? " · Bingo de Puntos " + fill(S.to_target, { n: scores.settings.target }) : ""));
    root.appendChild(h);
    if (scores.winner) root.appendChild(el("p", "winner", "🏆 " + fill(S.winner, { who: scores.winner })));
    if (scores.sides.length) {
      const table = el("table");
      const head = el("tr");
      head.appendChild(el("th", null, S.side));
      head.appendChild(el("th", null, puntos ? S.points : S.wins));
      table.appendChild(head);
      for (const side of scores.sides) {
        const tr = el("tr");
        const name = el("td", null, side.name);
        if (side.members.length > 1 || side.members[0] !== side.name) {
          name.appendChild(el("div", "members", side.members.join(" · ")));
        }
        tr.appendChild(name);
        tr.appendChild(el("td", "pts", String(side.points)));
        table.appendChild(tr);
      }
      root.appendChild(table);
    } else if (!scores.awards.length) {
      root.appendChild(el("p", "muted", S.no_players));
    }
    if (scores.maestro) {
      const m = el("p", "maestro");
      m.appendChild(el("b", null, fill(S.maestro, { who: scores.maestro })));
      if (scores.next_maestro && !scores.winner) m.appendChild(el("span", null, " · " + fill(S.next_maestro, { who: scores.next_maestro })));
      root.appendChild(m);
    }
    const a = scores.awards[scores.awards.length - 1];
    if (a && root.hasAttribute("data-announce") && Date.now() < announceUntil) {
      const who = a.player || fill(S.card, { serial: a.serial });
      // a round won with a pattern is told by the pattern and the form completed, as the voice
      // says it (spoken.spoken_pattern_won: "¡Bingo! Cometa loca, con giro de 90°")
      const won = scores.awarded && scores.awarded.round === a.round && scores.awarded.spoken;
      const banner = won
        ? el("p", "announce", won[lang] + " · " + who)
        : el("p", "announce", S.bingo + " " + who + " · " + (S.kinds[a.kind] || a.kind));
      // a bingo on the money ball: the room hears what it pays (specials.money_ball_won_words)
      const money = scores.awarded && scores.awarded.round === a.round && scores.awarded.money_ball;
      if (money) banner.appendChild(el("span", "money-ball-won", " · " + (money[lang] || money.en)));
      if (puntos) banner.appendChild(el("span", "pts", " · " + fill(S.n_points, { n: a.points })));
      root.insertBefore(banner, root.firstChild);
      setTimeout(() => render(last), announceUntil - Date.now() + 50);
    }
    if (a) {
      const who = a.player || fill(S.card, { serial: a.serial });
      let text = fill(S.last_award, { r: a.round, who: who, kind: S.kinds[a.kind] || a.kind });
      if (puntos) text += " · " + a.points;
      root.appendChild(el("p", "last-award", text));
    }
  });
  document.dispatchEvent(new CustomEvent("bingo:scores", { detail: scores }));
}

if (Station.state && Station.state.scores) render(Station.state.scores);
Station.onChange((kind, data, state) => { if (kind === "snapshot" && state) render(state.scores); });
Station.listen("scores", render);
