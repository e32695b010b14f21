// The hall screen shows the claim the Maestro is checking, as the room should see it: the card
// as printed (margin totals), the called numbers marked, the winning line lit and the verdict in
// big words; a false claim shows its penalty. After the award the winning card stays up as the
// round's final board until the Maestro starts the next round. The words are this module's; the
// card's table is the station's (the one drawer, templates/verify/_vcard.html), asked for once
// per card shown.
// The scoreboard comes in scores.js's "bingo:scores" events (a 75-ball game's /display has it; it
// runs after this module, which comes first in the page, so its first board reaches us too).
import { el, fill } from "/web/static/dom.js";
import { Station as S } from "/static/station.js";

function claimShow(box) {
  const T = JSON.parse(document.getElementById("claim-show-strings").textContent);
  const hero = document.querySelector(".hero");
  const label = (name) => T.lines[name] || name;
  const lang = document.documentElement.lang || "en";
  let shown = null; // "verdict" | "final" | null
  let finalRound = null;

  function lines(v) {
    const out = [];
    for (const l of v.lines.filter((x) => x.wins)) {
      // a pattern of several forms names the form won: its lines by the screen's labels ("Two
      // lines (Row 1 + Column B)"), else as the verdict words it ("Crazy kite (turned 90°)")
      let form = "";
      if (l.form_lines && l.form_lines.length) form = " (" + l.form_lines.map(label).join(" + ") + ")";
      else if (l.form_name) form = " (" + (l.form_name[lang] || l.form_name.en) + ")";
      let text = label(l.name) + form + ": " + l.numbers.join(" · ") + " = " + l.total;
      if (l.central && v.mode === "points") text += " · " + T.central;
      out.push(el("p", "show-line", text));
    }
    if (v.kind === "doble" || v.kind === "doble_central") out.push(el("p", "show-line", T.kinds[v.kind] + " · " + fill(T.doble_bonus, { n: 100 })));
    return out;
  }

  function draw(v, opts) {
    const look = "claim-show " + (v.bingo ? "valid" : opts.penalty ? "false" : "checked");
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
    put(look, v.serial, words, opts.drawn);
  }

  const FEW = 4; // numbers a ticket still lacks that the room is told one by one

  function drawTicket(v, opts) {
    const look = "claim-show " + (v.valid ? "valid" : "checked");
    const words = el("div", "show-words");
    // The prize's name is the plan's data (the kit's lists or a host's), in the page's language.
    const names = v.prize_names || {};
    const prize = names[lang] || names.en || T.prizes[v.prize] || v.prize;
    const row = (name) => fill(T.row90, { name: name });
    let head = v.valid
      ? fill(T.prize_won, { prize: prize }) + " " + fill(T.ticket, { n: v.serial }) + (v.rows_needed ? " · " + v.complete_rows.map(row).join(", ") : "")
      : fill(T.ticket, { n: v.serial }) + " · " + fill(T.prize_not_yet, { prize: prize });
    if (!v.valid && v.barred && T[v.barred]) {
      // it holds the prize but cannot win it (a second Full House: prize_rules.barred_from)
      head = fill(T.ticket, { n: v.serial }) + " · " + fill(T[v.barred], { prize: prize });
    } else if (!v.valid && v.rows_needed === null) {
      // Early Five needs any numbers; Four Corners (or a host's cells) names the ones missing.
      head += " · " + (v.prize_missing && v.prize_missing.length ? fill(T.missing, { numbers: v.prize_missing.join(", ") }) : fill(T.more_needed, { n: v.still_needed }));
    } else if (!v.valid && v.rows_needed > 1) {
      // Two lines or a full house: how many numbers the nearest rows still lack (a full house
      // at call 21 lacks 11, not the two of its nearest row), and which they are where few.
      const missing = v.prize_missing || [];
      head += " · " + fill(T.more_needed, { n: missing.length });
      if (missing.length <= FEW) head += " (" + missing.join(", ") + ")";
    } else if (!v.valid) {
      // The row the prize lacks (Top Line: the top row), else the nearest row.
      const want = new Set(v.prize_missing || []);
      const lacking = v.lines.filter((l) => !l.complete && l.missing.some((n) => want.has(n)));
      const nearest = lacking.length === 1 ? lacking[0] : v.lines.filter((l) => !l.complete).sort((a, b) => a.missing.length - b.missing.length)[0];
      if (nearest) head += " · " + fill(T.missing, { numbers: nearest.missing.join(", ") }) + " (" + row(nearest.name) + ")";
    }
    words.appendChild(el("p", "show-head", (opts.player ? opts.player + " · " : "") + head));
    put(look, v.serial, words, opts.drawn);
  }

  // The card itself comes drawn by the station (templates/verify/_vcard.html, the one drawer
  // that the card pages and the Maestro's check use too), in this screen's language: one
  // request per card shown, named by its verdict's `drawn` key ("r<n>": round n's winner). The
  // words and the card go up together; an answer for a card no longer wanted is dropped.
  let wanted = 0;
  async function put(look, serial, words, key) {
    const mine = ++wanted;
    const table = key ? await drawn(key) : null;
    if (mine !== wanted) return; // another card came, or the game went on
    box.replaceChildren(words);
    if (table) box.append(cardBox(table));
    box.className = look;
    box.dataset.serial = serial;
    box.dataset.drawn = key || "";
    box.hidden = false;
    if (hero) hero.hidden = true;
    ended();
  }

  // The game over while a card is up (the final board stays): the room is told so on it, since
  // the hero that says it is hidden.
  function ended() {
    const over = S.state && S.state.status === "ended";
    const line = box.querySelector(".show-ended");
    if (over && !line && !box.hidden) {
      const words = box.querySelector(".show-words");
      if (words) words.prepend(el("p", "show-ended status-ended big", T.game_over));
      // no next round is coming: its promise goes, leaving the card its room
      if (words) words.querySelectorAll("p.muted").forEach((p) => p.remove());
    } else if (!over && line) line.remove();
  }

  // the card in a box of its own, which takes the height the words leave (verify.css): the
  // card is sized to it, so it never runs over the footer however many lines the words take
  function cardBox(table) {
    const wrap = el("div", "show-card");
    wrap.append(table);
    return wrap;
  }

  async function drawn(key) {
    const url = `/api/games/${S.gameId}/shown/${encodeURIComponent(key)}?lang=${encodeURIComponent(lang)}`;
    try {
      const resp = await fetch(url, { headers: { Accept: "text/html" } });
      if (!resp.ok) return null;
      const t = document.createElement("template");
      t.innerHTML = (await resp.text()).trim();
      return t.content;
    } catch (e) {
      return null; // offline: the words go up alone; the next snapshot asks again
    }
  }

  async function drawAgain(key) {
    const table = await drawn(key);
    if (table && !box.hidden && box.dataset.drawn === key && !box.querySelector("table.vcard")) box.append(cardBox(table));
  }

  function hide() {
    wanted++;
    box.hidden = true;
    box.innerHTML = "";
    delete box.dataset.drawn;
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
    draw(a.verdict, { player: a.player, final: a.round, drawn: "r" + a.round });
    box.dataset.final = "yes";
  }

  // how each variant's verdict is drawn, by the layout the station names (`Variant.layout`)
  const VIEWS = { card: draw, ticket: drawTicket };

  function verdict(d) {
    if (!S.state || d.round !== S.state.round || shown === "final") return;
    shown = "verdict";
    VIEWS[d.layout](d.verdict, { player: d.player, penalty: d.penalty, drawn: d.drawn });
    delete box.dataset.final;
  }

  // A screen that (re)connects while a card is up shows it too: the newest card shown, if no
  // call, undo or round came since it was judged (the stream does not replay `verdict`).
  async function replay() {
    try {
      const resp = await fetch(`/api/games/${S.gameId}/shown`, { headers: { Accept: "application/json" } });
      const d = resp.ok ? await resp.json() : null;
      const now = S.state;
      if (d && shown === null && now && d.round === now.round && d.calls === now.calls.length) verdict(d);
    } catch (e) { /* offline: nothing to show again */ }
  }

  S.listen("verdict", verdict);
  S.onChange((kind, data, state) => {
    if (kind === "snapshot" && shown === null && S.gameId !== null) replay();
    // a card whose table did not come (the Wi-Fi dropped): asked again on reconnecting
    else if (kind === "snapshot" && box.dataset.drawn && !box.querySelector("table.vcard")) drawAgain(box.dataset.drawn);
    // The game goes on (a call, an undo, a new round): the checked card leaves the screen.
    if ((kind === "call" || kind === "undo") && shown === "verdict") hide();
    if (kind === "round" && state && finalRound !== null && state.round !== finalRound) hide();
    if (kind === "end" || kind === "snapshot") ended();
  });
  document.addEventListener("bingo:scores", (ev) => showFinal(ev.detail));
}

const box = document.getElementById("claim-show");
if (box) claimShow(box);
