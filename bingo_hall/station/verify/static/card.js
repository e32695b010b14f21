// The public card and ticket pages follow the game from its events (an ES module). The station
// draws the page once (its HTML) and gives, in #card-state, the game's facts, the same for every
// card (card_view.py: the figures' squares, whether the centre is FREE, the squares a penalty
// uncovered, the hall rule on the completing call; or, for a 90-ball ticket, each prize's rule
// of rows, cells or counts). The page reads its card's numbers from the card's table and judges
// them with judge.js, as the station's check does. Then a call, an undo, a new round, a claim, the scores or the prize
// reach the page as data and it marks its own card: it asks the station for nothing, except
// the snapshot that every (re)connect brings (live.js) and, in Bingo de Puntos, the verdict's
// points once its card has a bingo (the points are the rules', bingo_hall.seventyfive.claims.judge).
// When the card gets a bingo the page says so at the top, beside the Claim button (press it: no
// need to shout), and vibrates where the phone allows; it never claims by itself. The card's table is drawn once, by the station (templates/verify/_vcard.html,
// the one drawer every view of a card shares); this module only marks its squares, on load from
// the game's state the page carries (#game-state) and then from the events.
import { request } from "/web/static/api.js";
import { el, fill } from "/web/static/dom.js";
import { follow } from "/web/static/live.js";
import { access } from "./card_access.js";
import { cardFacts, cardNumbers, holds, judgeCard, nearestNeed, patternFigure, patternFigures, ticketFacts, ticketRows } from "./judge.js";
import { drawPattern } from "/static/pattern.js";

// The page's view of each variant, by the layout the station names (`Variant.layout`).
const VIEWS = { card: cardView, ticket: ticketView };
// Each variant's facts: the game's, with the card's numbers read from its table (judge.js).
const FACTS = {
  card: (game, table) => cardFacts(game, cardNumbers(table)),
  ticket: (game, table) => ticketFacts(game, ticketRows(table)),
};

const root = document.getElementById("verify");
const stateEl = document.getElementById("card-state");
if (root && root.dataset.game && stateEl) {
  start(JSON.parse(stateEl.textContent), JSON.parse(document.getElementById("card-words").textContent));
}

function plural(forms, n) { return fill(forms[n === 1 ? 0 : 1], { n }); }

function start(game, w) {
  const target = document.getElementById("verdict");
  const s = FACTS[game.layout](game, target.querySelector("table.vcard"));
  const view = VIEWS[s.layout](s, w, target);
  const a11y = access(w); // the last call big, text size, contrast, speech, live regions
  const ask = askButton(s, w);
  let shouting = true; // no vibration for a bingo the page opens with

  function show() {
    const claimable = view.render();
    const words = claimable ? view.notice() : "";
    if (claimable && !shouting && navigator.vibrate) navigator.vibrate([300, 120, 300]);
    if (a11y && claimable !== shouting) a11y.shout(words);
    shouting = claimable;
    ask.offer(words);
    const last = s.calls.length ? s.calls[s.calls.length - 1] : null;
    if (a11y) a11y.last(last === null ? null : view.label(last), last !== null && view.has(last));
  }
  function newRound(round) {
    s.round = round;
    s.calls = [];
    view.newRound();
  }
  function apply(d) {
    if (d.round !== s.round) newRound(d.round);
    s.calls = d.calls.map((c) => c.ball);
    view.snapshot(d);
    show();
  }
  const handlers = {
    snapshot(d) {
      apply(d);
      if (a11y) a11y.up(); // current again
      root.dataset.live = "yes";
      // the game ended while this page was away (its stream dropped at Next game): it asks
      // which game the hall plays now, as the `next` event would have told it
      if (d.status === "ended") hallNow().catch(() => {});
    },
    call(d) {
      if (d.round !== s.round || s.calls.includes(d.ball)) return;
      s.calls.push(d.ball);
      show();
      if (a11y) a11y.call(view.label(d.ball), view.has(d.ball));
    },
    undo(d) {
      if (d.round !== s.round || !s.calls.includes(d.ball)) return;
      s.calls = s.calls.filter((b) => b !== d.ball);
      show();
    },
    round(d) {
      if (d.round === s.round) return; // the public input, set before the first ball
      newRound(d.round);
      show();
    },
    claim(d) { if (view.claim(d)) show(); },
    scores(d) { if (view.scores(d)) show(); },
    prize(d) { if (view.prize(d)) show(); },
    money_ball(d) { if (view.money && view.money(d)) show(); },
    next: nextGame,
  };
  // The page comes with the game's state (#game-state: the snapshot its stream would give, the
  // same for every card): the card is marked and its verdict written from it on load.
  const kept = document.getElementById("game-state");
  if (kept) apply(JSON.parse(kept.textContent));
  else shouting = false;
  root.dataset.marked = "yes";
  if (!window.EventSource) return;
  let live = follow(`/api/games/${s.game}/events?view=card`, handlers, {
    onDown() {
      root.dataset.live = "no";
      if (a11y) a11y.down();
    },
  });

  async function hallNow() {
    const resp = await fetch("/api/games", { headers: { Accept: "application/json" } });
    if (!resp.ok) return;
    const playing = (await resp.json()).games.find((g) => g.status === "active" && g.game_id > s.game);
    if (playing) nextGame({ game_id: playing.game_id, deck_id: playing.deck_id });
  }

  // The hall started its next game (Next game): the page follows it on its own. Where this
  // card's deck plays it, the page comes back for it (at a random moment within two seconds, so
  // that a hall's phones do not all ask at once); else it says so and follows the new game, to
  // hear of the one after it.
  function nextGame(d) {
    const deck = location.pathname.split("/")[2];
    const here = d.deck_id === deck;
    let told = document.getElementById("next-game");
    if (!told) {
      told = el("p", "next-game");
      told.id = "next-game";
      told.setAttribute("role", "status");
      root.prepend(told);
    }
    told.textContent = fill(here ? w.next_here : w.next_elsewhere, { n: d.game_id });
    live.close();
    if (here) {
      setTimeout(() => location.reload(), Math.random() * 2000);
    } else {
      root.dataset.next = String(d.game_id); // the game it follows, its card not in it
      live = follow(`/api/games/${d.game_id}/events?view=card`, { next: nextGame });
    }
  }
}

// "Claim": a player who cannot shout asks the Maestro for a check from the
// card's own signed page (POST <this page>/ask, JSON, same origin). The station judges the card
// and shows the request on the caller page; it answers in words, a refusal too. The box sits
// under the last call, on the phone's first screen: what the card has ("Your card has BINGO:
// press Claim"), the button, and the answer under it, where the player is looking. Once the
// station has answered, the button says so ("Asked · the Maestro is checking") and waits for the
// next call (the station takes one request per card per call); a request that did not reach the
// station may be sent again at once.
function askButton(s, w) {
  const box = document.getElementById("ask-box");
  const button = document.getElementById("ask-check");
  const answer = document.getElementById("ask-answer");
  if (!box) return { offer() {} };
  const now = () => `${s.round}:${s.calls.length}:${s.calls[s.calls.length - 1]}`;
  let answeredOn = null; // the call the station answered a request on
  function ready() {
    answeredOn = null;
    button.disabled = false;
    button.textContent = w.claim;
    answer.textContent = "";
    delete answer.dataset.answer;
  }
  function told(text, how) {
    answer.textContent = text;
    answer.dataset.answer = how;
    box.scrollIntoView({ block: "nearest" });
  }
  button.addEventListener("click", async () => {
    button.disabled = true;
    const on = now();
    try {
      const url = `${location.pathname}/ask?lang=${encodeURIComponent(document.documentElement.lang || "en")}`;
      // no second try: an ask is a claim, which the station does not take twice by its key
      const resp = await request(url, { body: { round: s.round, calls: s.calls.length }, retry: false });
      const data = await resp.json().catch(() => ({}));
      if (resp.ok || resp.status < 500) {
        answeredOn = on;
        if (resp.ok) button.textContent = w.asked;
        told(resp.ok ? w.ask_sent : (data.error || w.ask_failed), resp.ok ? "sent" : "refused");
        if (now() !== on) ready(); // a call came while the station answered: ask again
        return;
      }
      told(data.error || w.ask_failed, "refused");
    } catch (e) {
      told(w.ask_failed, "refused");
    }
    button.disabled = false;
  });
  return {
    /** the words of the card's bingo ("" without one): the box shown with them, or hidden */
    offer(words) {
      if (answeredOn !== null && answeredOn !== now()) ready();
      let notice = document.getElementById("bingo-now");
      if (!words) {
        if (notice) notice.remove();
        if (!box.hidden) { box.hidden = true; ready(); }
        return;
      }
      if (!notice) {
        notice = el("p", "shout", words); // made anew, so it pops in (verify.css)
        notice.id = "bingo-now";
        box.prepend(notice);
      }
      notice.textContent = words;
      box.hidden = false;
    },
  };
}

// A 75-ball card: squares 0-24 row by row, as card_view.follow_card numbers them.
function cardView(s, w, target) {
  const cleared = new Map(s.cleared);
  const lang = document.documentElement.lang || "en";
  let winningBefore = null;

  // a figure's name in the page's language: the kit's, else a program's own pattern's names as
  // its file gives them (the game's settings carry them), else its key
  function named(key) {
    const own = key === s.pattern && s.ownNames;
    return w.labels[key] || (own && (own[lang] || own.en)) || key;
  }
  function render() {
    const { covered: cov, complete, winning, bingo } = judgeCard(s, s.calls, cleared);
    const last = s.calls.length ? s.calls[s.calls.length - 1] : null;
    const wins = new Set(winning.flatMap((f) => f.cells));
    // the pattern's squares: the form won, else every square some form needs
    const need = new Set(s.pattern ? (winning.length ? winning[0].cells : s.figures.flatMap((f) => f.cells)) : []);
    target.querySelectorAll("table.vcard td.sq").forEach((td, i) => {
      td.classList.toggle("covered", cov[i]);
      td.classList.toggle("last", last !== null && s.numbers[i] === last);
      td.classList.toggle("wins", wins.has(i));
      td.classList.toggle("need", need.has(i));
    });
    const wrap = target.querySelector(".vcard-wrap");
    wrap.classList.toggle("valid", bingo);
    wrap.dataset.bingo = bingo ? "yes" : "no";
    const shout = bingo && !s.awarded;
    if (shout) wrap.dataset.shout = "yes"; else delete wrap.dataset.shout;
    wrap.querySelectorAll(":scope > .won, :scope > .shout").forEach((e) => e.remove());
    const table = wrap.querySelector("table.vcard");
    for (const a of s.won) {
      const text = fill(w.won, { r: a.round }) + (s.puntos ? " · " + fill(w.points, { n: a.points }) : "");
      const p = el("p", "won", text);
      p.dataset.won = a.round;
      wrap.insertBefore(p, table);
    }
    const section = wrap.querySelector("section.verdict");
    section.replaceChildren(head(bingo, cov, winning), facts(last, cov));
    picture(section);
    if (s.pattern) section.appendChild(patternLine(bingo));
    const rules = specialRules();
    if (rules) section.appendChild(rules);
    if (complete.length) section.appendChild(lines(complete, new Set(winning)));
    const names = winning.map((f) => f.name).join(" ");
    if (s.puntos && bingo && names !== winningBefore) points();
    winningBefore = names;
    return shout;
  }
  // how a call is written (and said): its letter and number
  function label(ball) { return `${"BINGO"[Math.floor((ball - 1) / 15)]} ${ball}`; }
  function head(bingo, cov, winning) {
    if (bingo) {
      const p = el("p", "verdict-head yes", w.bingo);
      if (s.pattern) { p.append(" "); p.appendChild(el("span", "kind", w.kind_pattern)); }
      // the form completed, as the station's verdict names it ("turned 90°", "row 1 and column B")
      const named = winning.length && winning[0].words;
      if (named) { p.append(" "); p.appendChild(el("span", "form-name", "· " + (named[lang] || named.en))); }
      return p;
    }
    const p = el("p", "verdict-head no", w.no_bingo);
    // the figure nearest to complete (first in order on a tie), as the verdict's `missing`
    let best = null;
    for (const f of s.figures) {
      const lacking = f.cells.filter((i) => !cov[i]);
      if (best === null || lacking.length < best.lacking.length) best = { f, lacking };
    }
    const numbers = best ? best.lacking.map((i) => s.numbers[i]).filter((n) => n !== null) : [];
    if (numbers.length && numbers.length <= 2) {
      const line = named(best.f.name);
      const text = numbers.length === 1
        ? fill(w.lacks_one, { line, number: numbers[0] })
        : fill(w.lacks_many, { line, numbers: numbers.join(", ") });
      p.append(" ");
      p.appendChild(el("span", "missing", "· " + text));
    }
    return p;
  }
  function facts(last, cov) {
    const marked = s.numbers.filter((n) => n !== null && s.calls.includes(n)).length;
    const p = el("p", "vfacts", `${fill(w.round, { r: s.round })} · ${plural(w.calls, s.calls.length)}`);
    if (last !== null) {
      p.append(` · ${w.last_call} `);
      p.appendChild(el("b", "", label(last)));
    }
    p.append(` · ${plural(w.card_marked, marked)}`);
    return p;
  }
  // the pattern's picture, drawn once per pattern above the verdict's words (it goes through
  // the pattern's forms on its own; redrawn on every call it would start again each time)
  let drawn = null;
  function picture(section) {
    const want = s.pattern && s.shape ? s.pattern : null;
    if (drawn && drawn.dataset.pattern !== want) { drawn.remove(); drawn = null; }
    if (!want || drawn) return;
    drawn = drawPattern(s.shape, w, lang);
    section.after(drawn);
  }
  function patternLine(bingo) {
    const p = el("p", "vfacts", `${w.pattern}: `);
    p.dataset.part = "pattern";
    p.appendChild(el("b", "", named(s.pattern)));
    // how many more squares its nearest form needs: "you need 2 more" (judge.js nearestNeed)
    const near = bingo ? null : nearestNeed(s, s.calls, cleared);
    if (near && near.need > 0) {
      const need = el("b", "need-more", plural(w.need, near.need));
      need.dataset.need = String(near.need);
      p.append(" · ");
      p.appendChild(need);
    }
    p.append(` · ${w.dashed}`);
    return p;
  }
  // The game's special rules under the pattern line, one line each in the page's language,
  // as the caller page and /display show them (the snapshot's `specials`): the wild digit
  // filled in from the first ball, the money ball once the station names it.
  function specialRules() {
    const sp = s.specials;
    if (!sp || !sp.lines.length) return null;
    const ul = el("ul", "special-rules");
    ul.dataset.part = "specials";
    for (const line of sp.lines) {
      const li = el("li", "", specialText(sp, line));
      li.dataset.special = line.key;
      ul.appendChild(li);
    }
    return ul;
  }
  function specialText(sp, line) {
    const inLang = (words) => words[lang] || words.en;
    if (line.key === "wild_number" && sp.wild_words) {
      if (!s.calls.length) return inLang(sp.wild_words.before);
      return inLang(sp.wild_words.digit).replaceAll("{d}", String(s.calls[0] % 10));
    }
    if (line.key === "money_ball" && sp.money_words && sp.money_ball !== null) {
      return inLang(sp.money_words).replaceAll("{b}", String(sp.money_ball));
    }
    return inLang(line.text);
  }
  function settings(r) {
    // the Maestro changed the pattern or the hall rules (between rounds): the figures change
    s.completing_call_only = r.completing_call_only;
    s.pattern = r.pattern;
    s.ownNames = r.names || null;
    s.shape = r.shape || null;
    // each form of the pattern is a figure under the pattern's name: from its shape (its rule
    // expanded), else its forms' masks joined by ";"
    if (r.pattern && r.shape) s.figures = patternFigures(r.shape, [], s.numbers);
    else s.figures = r.pattern ? r.mask.split(";").map((form) => patternFigure(r.pattern, form, s.numbers)) : s.lines;
  }
  function lines(complete, winning) {
    const ul = el("ul", "lines");
    for (const f of complete) {
      const li = el("li", winning.has(f) ? "wins" : "old");
      const nums = f.cells.map((i) => s.numbers[i]).filter((n) => n !== null);
      li.appendChild(el("b", "", named(f.name)));
      li.append(`: ${nums.join(" · ")} = `);
      li.appendChild(el("b", "", f.total));
      const tags = [];
      if (f.central) tags.push(["tag", w.centre]);
      if (f.byLast) tags.push(["tag", w.by_last]);
      if (!winning.has(f)) tags.push(["tag warn", w.not_last]);
      for (const [cls, text] of tags) { li.append(" · "); li.appendChild(el("span", cls, text)); }
      ul.appendChild(li);
    }
    return ul;
  }
  async function points() {
    // Bingo de Puntos: how many points (Bingo Central, Doble...) is the rules' word
    try {
      const resp = await fetch(root.dataset.src, { headers: { Accept: "text/html" } });
      if (!resp.ok) return;
      const html = await resp.text();
      const parsed = new DOMParser().parseFromString(html, "text/html");
      const fresh = parsed.querySelector(".verdict-head");
      const mine = target.querySelector(".verdict-head");
      if (fresh && mine && fresh.classList.contains("yes") && mine.classList.contains("yes")) {
        mine.replaceWith(document.importNode(fresh, true));
      }
    } catch (e) { /* offline: the next snapshot brings the card back */ }
  }
  function claimsOf(scores) {
    cleared.clear();
    for (const c of scores.claims || []) {
      if (c.serial === s.serial && c.penalty) addPenalty(c.penalty);
    }
  }
  function addPenalty(p) {
    for (const [r, c] of p.cells) {
      const i = r * 5 + c;
      cleared.set(i, Math.max(cleared.get(i) || 0, p.after_call));
    }
  }
  function scores(d) {
    if (d.settings) settings(d.settings);
    s.awarded = !!d.awarded;
    s.won = (d.awards || []).filter((a) => a.serial === s.serial)
      .map((a) => ({ round: a.round, points: a.points }));
    return true;
  }
  return {
    render,
    label,
    notice() { return w.press_claim; },
    has(ball) { return s.numbers.includes(ball); },
    newRound() { cleared.clear(); s.awarded = false; winningBefore = null; },
    snapshot(d) {
      if (d.specials) s.specials = d.specials;
      if (d.scores) { scores(d.scores); claimsOf(d.scores); }
    },
    money(d) {
      if (!s.specials || !Number.isInteger(d.money_ball)) return false;
      s.specials = { ...s.specials, money_ball: d.money_ball };
      return true;
    },
    claim(d) {
      if (d.serial !== s.serial || !d.penalty || d.round !== s.round) return false;
      addPenalty(d.penalty);
      return true;
    },
    scores(d) { return d.round === s.round ? scores(d) : false; },
    prize() { return false; },
  };
}

// A 90-ball ticket: its rows' numbers, and the prize being played with the rows it needs.
function ticketView(s, w, target) {
  function render() {
    const called = new Set(s.calls);
    const last = s.calls.length ? s.calls[s.calls.length - 1] : null;
    const rows = s.rows.map((r) => {
      const missing = r.numbers.filter((n) => !called.has(n));
      return { ...r, missing, complete: !missing.length, byLast: !missing.length && r.numbers.includes(last) };
    });
    const done = rows.filter((r) => r.complete).map((r) => r.name);
    const valid = holdsPrize(s.prize, called);
    target.querySelectorAll("table.vcard td.sq[data-number]").forEach((td) => {
      const n = Number(td.dataset.number);
      td.classList.toggle("covered", called.has(n));
      td.classList.toggle("last", n === last);
    });
    target.querySelectorAll("table.vcard tr[data-row]").forEach((tr, i) => {
      const row = rows[i];
      tr.classList.toggle("complete", row.complete);
      tr.querySelectorAll("td.sq[data-number]").forEach((td) => td.classList.toggle("wins", row.complete));
      // the row's name in the margin gets its tick; the table itself is the station's (_vcard.html)
      tr.querySelector("td.rowname").firstChild.textContent = row.name + (row.complete ? " ✓" : "");
    });
    const wrap = target.querySelector(".vcard-wrap");
    wrap.dataset.valid = valid ? "yes" : "no";
    const prize = w.prizes[s.prize] || s.prize;
    const head = el("p", valid ? "verdict-head yes" : "verdict-head no", fill(valid ? w.prize_won : w.no_prize, { prize }));
    if (done.length) { head.append(" "); head.appendChild(el("span", "rows", fill(w.rows_complete, { rows: done.join(", ") }))); }
    // the prizes this ticket won ("You won the Line"), and nothing played for after the last
    const won = (s.won || []).map((x) => {
      const name = w.prizes[x.prize] || x.prize;
      const p = el("p", "won", x.round === s.round ? fill(w.won_prize, { prize: name }) : fill(w.won_prize_in, { prize: name, r: x.round }));
      p.dataset.won = x.prize;
      return p;
    });
    const facts = el("p", "vfacts", `${fill(w.round, { r: s.round })} · `);
    if (s.round_over) {
      const over = el("span", "", w.all_awarded);
      over.dataset.playing = "none";
      facts.appendChild(over);
    } else {
      facts.append(`${w.playing_for} `);
      const b = el("b", "", prize);
      b.dataset.playing = s.prize;
      facts.appendChild(b);
    }
    facts.append(` · ${plural(w.calls, s.calls.length)}`);
    if (last !== null) { facts.append(` · ${w.last_call} `); facts.appendChild(el("b", "", last)); }
    const marked = s.rows.flatMap((r) => r.numbers).filter((n) => called.has(n)).length;
    facts.append(` · ${plural(w.ticket_marked, marked)}`);
    const ul = el("ul", "lines");
    for (const r of rows) {
      const li = el("li", r.complete ? "wins" : "old");
      li.dataset.line = r.name;
      li.appendChild(el("b", "", fill(w.row, { name: r.name })));
      li.append(`: ${r.numbers.join(" · ")} = `);
      li.appendChild(el("b", "", r.numbers.reduce((a, b) => a + b, 0)));
      li.append(" · ");
      if (r.complete) li.appendChild(el("span", "tag", w.complete));
      else li.append(fill(w.missing, { numbers: r.missing.join(" · ") }));
      if (r.byLast) { li.append(" · "); li.appendChild(el("span", "tag", w.by_last)); }
      ul.appendChild(li);
    }
    wrap.querySelector("section.verdict").replaceChildren(...won, head, facts, ul);
    return valid && !s.round_over && !(s.won || []).some((x) => x.prize === s.prize && x.round === s.round);
  }
  // A prize's rule as data (card_view.page_rule), judged on the ticket's rows (judge.js).
  const numbers = s.rows.map((r) => r.numbers);
  function holdsPrize(prize, called) { return holds(s.rules[prize], numbers, called); }
  // The round's prizes: who won each and which are open (the prizes list under the verdict).
  function board(state) {
    const won = new Map((state.awarded || []).map((a) => [a.prize, a]));
    const open = new Set(state.open || []);
    target.querySelectorAll("#ticket-prizes li[data-prize]").forEach((li) => {
      const p = li.dataset.prize;
      const a = won.get(p);
      li.classList.toggle("done", !!a);
      li.classList.toggle("now", !a && open.has(p));
      const who = a ? a.winners.map((x) => x.player || fill(w.ticket_word, { serial: x.serial })).join(", ") : "";
      li.querySelector(".prize-who").textContent = a ? fill(w.won_by, { who, n: a.at_call }) : (s.open_at_once && open.has(p) ? w.open : "");
    });
  }
  // The prize the page judges: the one being played; in Tambola the first open prize the ticket
  // holds, else the first open one (as the station's check); the last once all are won.
  function prizeOf(state) {
    const open = state.open || (state.current ? [state.current] : []);
    const called = new Set(s.calls);
    s.prize = open.find((p) => holdsPrize(p, called)) || open[0] || s.sequence[s.sequence.length - 1];
    if (!s.open_at_once) s.prize = state.current || s.sequence[s.sequence.length - 1];
    board(state);
    s.round_over = state.finished !== undefined ? state.finished : state.current === null;
    s.won = s.won || [];
    for (const a of state.awarded || []) {
      const mine = a.winners.some((x) => x.serial === s.serial);
      if (mine && !s.won.some((x) => x.prize === a.prize && x.round === s.round)) s.won.push({ prize: a.prize, round: s.round });
    }
    return true;
  }
  return {
    render,
    label(ball) { return String(ball); },
    notice() { return fill(w.press_claim_ticket, { prize: w.prizes[s.prize] || s.prize }); },
    has(ball) { return s.rows.some((r) => r.numbers.includes(ball)); },
    newRound() {
      s.prize = s.sequence[0];
      s.round_over = false;
      board({ awarded: [], open: s.open_at_once ? s.sequence : [s.sequence[0]] });
    },
    snapshot(d) { if (d.prizes) prizeOf(d.prizes); },
    claim() { return false; },
    scores() { return false; },
    prize: prizeOf,
  };
}
