// The hall screen shows the claim the Maestro is checking, as the room should see it: the card
// as printed (margin totals), the called numbers marked, the winning line lit and the verdict in
// big words; a false claim shows its penalty. After the award the winning card stays up as the
// round's final board until the Maestro starts the next round.
// The scoreboard comes in scores.js's "bingo:scores" events (a 75-ball game's /display has it; it
// runs after this module, which comes first in the page, so its first board reaches us too).
import { el, fill } from "/web/static/dom.js";
import { Station as S } from "/static/station.js";

function claimShow(box) {
  const T = JSON.parse(document.getElementById("claim-show-strings").textContent);
  const hero = document.querySelector(".hero");
  const label = (name) => T.lines[name] || name;
  let shown = null; // "verdict" | "final" | null
  let finalRound = null;

  function card(v) {
    const covered = new Set(v.covered.map(([r, c]) => r + "," + c));
    const wins = new Set(v.winning_cells.map(([r, c]) => r + "," + c));
    const lit = new Set(v.winning);
    const table = el("table", "vcard");
    const head = el("tr");
    head.appendChild(el("th"));
    for (const l of "BINGO") head.appendChild(el("th", "letter l-" + l, l));
    head.appendChild(el("th"));
    table.appendChild(head);
    const tot = (name) => el("td", "tot" + (lit.has(name) ? " lit" : "") + (name[0] === "D" ? " diag" : ""), String(v.totals[name]));
    v.rows.forEach((row, r) => {
      const tr = el("tr");
      tr.appendChild(el("td", "tot"));
      row.forEach((n, c) => {
        const key = r + "," + c;
        let cls = "sq";
        if (covered.has(key)) cls += " covered";
        if (wins.has(key)) cls += " wins";
        if (n === null) cls += " free";
        if (n !== null && n === v.last_call) cls += " last";
        const td = el("td", cls, n === null ? T.free : String(n));
        td.dataset.number = n === null ? "FREE" : String(n);
        tr.appendChild(td);
      });
      tr.appendChild(tot("R" + (r + 1)));
      table.appendChild(tr);
    });
    const foot = el("tr", "tots");
    foot.appendChild(tot("D2"));
    for (const l of "BINGO") foot.appendChild(tot(l));
    foot.appendChild(tot("D1"));
    table.appendChild(foot);
    return table;
  }

  function lines(v) {
    const out = [];
    for (const l of v.lines.filter((x) => x.wins)) {
      let text = label(l.name) + ": " + l.numbers.join(" · ") + " = " + l.total;
      if (l.central && v.mode === "points") text += " · " + T.central;
      out.push(el("p", "show-line", text));
    }
    if (v.kind === "doble" || v.kind === "doble_central") out.push(el("p", "show-line", T.kinds[v.kind] + " · " + fill(T.doble_bonus, { n: 100 })));
    return out;
  }

  function draw(v, opts) {
    box.innerHTML = "";
    box.className = "claim-show " + (v.bingo ? "valid" : opts.penalty ? "false" : "checked");
    box.dataset.serial = v.serial;
    const words = el("div", "show-words");
    let head;
    if (v.bingo) {
      head = fill(T.bingo, { serial: v.serial });
      if (v.winning.length === 1) head += " · " + label(v.winning[0]);
      else if (v.kind !== "bingo") head += " · " + (T.kinds[v.kind] || v.kind);
      if (v.points !== null) head += " · " + fill(T.points, { n: v.points });
    } else {
      // the room hears whose claim failed: the card, and the player where the Maestro named one
      head = fill(T.card, { n: v.serial }) + " · " + (opts.penalty ? T.no_bingo : T.no_bingo_yet);
      if (v.missing && v.missing.numbers.length) {
        const tpl = v.missing.numbers.length === 1 ? T.lacks_one : T.lacks_many;
        head += ": " + fill(tpl, { line: label(v.missing.line), numbers: v.missing.numbers.join(", ") });
      }
    }
    const who = opts.player ? opts.player + " · " : "";
    words.appendChild(el("p", "show-head", who + head));
    lines(v).forEach((p) => words.appendChild(p));
    if (opts.penalty) {
      words.appendChild(el("p", "show-penalty", fill(T.penalty, { line: label(opts.penalty.line), numbers: opts.penalty.numbers.join(", ") })));
    }
    if (opts.final) {
      words.appendChild(el("p", "show-final", fill(T.won_round, { r: opts.final })));
      words.appendChild(el("p", "muted", T.next_soon));
    }
    box.append(words, card(v));
    box.hidden = false;
    if (hero) hero.hidden = true;
  }

  // A 90-ball ticket as printed: 3 rows of 9 with blanks, row totals in the margin, the called
  // numbers marked and complete rows lit; the verdict names the prize being played.
  function ticket(v) {
    const marked = new Set(v.marked);
    const complete = new Set(v.complete_rows);
    const table = el("table", "vcard ticket90");
    v.rows.forEach((row, r) => {
      const name = v.lines[r].name;
      const tr = el("tr", complete.has(name) ? "complete" : "");
      row.forEach((n) => {
        let cls = n === null ? "sq blank" : "sq";
        if (n !== null && marked.has(n)) cls += complete.has(name) ? " covered wins" : " covered";
        if (n !== null && n === v.last_call) cls += " last";
        tr.appendChild(el("td", cls, n === null ? "" : String(n)));
      });
      tr.appendChild(el("td", "tot" + (complete.has(name) ? " lit" : ""), String(v.lines[r].total)));
      table.appendChild(tr);
    });
    return table;
  }

  function drawTicket(v, opts) {
    box.innerHTML = "";
    box.className = "claim-show " + (v.valid ? "valid" : "checked");
    box.dataset.serial = v.serial;
    const words = el("div", "show-words");
    // The prize's name is the plan's data (the kit's lists or a host's), in the page's language.
    const lang = document.documentElement.lang || "en";
    const names = v.prize_names || {};
    const prize = names[lang] || names.en || T.prizes[v.prize] || v.prize;
    const row = (name) => fill(T.row90, { name: name });
    let head = v.valid
      ? fill(T.prize_won, { prize: prize }) + " " + fill(T.ticket, { n: v.serial }) + (v.rows_needed ? " · " + v.complete_rows.map(row).join(", ") : "")
      : fill(T.ticket, { n: v.serial }) + " · " + fill(T.prize_not_yet, { prize: prize });
    if (!v.valid && v.rows_needed === null) {
      // Early Five needs any numbers; Four Corners (or a host's cells) names the ones missing.
      head += " · " + (v.prize_missing && v.prize_missing.length ? fill(T.missing, { numbers: v.prize_missing.join(", ") }) : fill(T.more_needed, { n: v.still_needed }));
    } else if (!v.valid) {
      // The row the prize lacks (Top Line: the top row), else the nearest row.
      const want = new Set(v.prize_missing || []);
      const lacking = v.lines.filter((l) => !l.complete && l.missing.some((n) => want.has(n)));
      const nearest = lacking.length === 1 ? lacking[0] : v.lines.filter((l) => !l.complete).sort((a, b) => a.missing.length - b.missing.length)[0];
      if (nearest) head += " · " + fill(T.missing, { numbers: nearest.missing.join(", ") }) + " (" + row(nearest.name) + ")";
    }
    words.appendChild(el("p", "show-head", (opts.player ? opts.player + " · " : "") + head));
    box.append(words, ticket(v));
    box.hidden = false;
    if (hero) hero.hidden = true;
  }

  function hide() {
    box.hidden = true;
    box.innerHTML = "";
    shown = null;
    finalRound = null;
    if (hero) hero.hidden = false;
  }

  function showFinal(scores) {
    const a = scores && scores.awarded;
    if (!a || !a.verdict) {
      if (shown === "final") hide();
      return;
    }
    if (shown === "final" && finalRound === a.round) return;
    shown = "final";
    finalRound = a.round;
    draw(a.verdict, { player: a.player, final: a.round });
    box.dataset.final = "yes";
  }

  S.listen("verdict", (d) => {
    if (!S.state || d.round !== S.state.round || shown === "final") return;
    shown = "verdict";
    (d.layout === "ticket" ? drawTicket : draw)(d.verdict, { player: d.player, penalty: d.penalty });
    delete box.dataset.final;
  });
  S.onChange((kind, data, state) => {
    // The game goes on (a call, an undo, a new round): the checked card leaves the screen.
    if ((kind === "call" || kind === "undo") && shown === "verdict") hide();
    if (kind === "round" && state && finalRound !== null && state.round !== finalRound) hide();
  });
  document.addEventListener("bingo:scores", (ev) => showFinal(ev.detail));
}

const box = document.getElementById("claim-show");
if (box) claimShow(box);
