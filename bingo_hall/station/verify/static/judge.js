// A card's or a ticket's own marks and verdict, judged on the phone (an ES module, no DOM but the
// card's table it reads). The station sends every card of a game the same facts (#card-state:
// the figures as squares, the hall rules, each prize as a rule of rows, cells or counts; made
// once per change of the game, whatever the deck's size) and draws each card's table once; the
// page reads its numbers from that table and judges them here, as bingo_hall.seventyfive.claims.judge (75
// balls) and bingo_hall.ninety.prize_rules.judge_rule (90 balls) do. The Maestro's check stays
// the station's: this only tells the holder what their card shows.
// tests/claims/test_card_judge_browser.py runs these functions in Chromium against the station's
// judge over random games.

import { shapeForms } from "/static/pattern.js";

// The table's numbers: a 75-ball card's 25 squares row by row (the FREE square is null); a
// 90-ball ticket's rows, each its numbers left to right (blank squares skipped).
export function cardNumbers(table) {
  return [...table.querySelectorAll("td.sq")].map((td) => {
    const n = td.dataset.number;
    return n === undefined || n === "FREE" ? null : Number(n);
  });
}

export function ticketRows(table) {
  return [...table.querySelectorAll("tr[data-row]")].map((tr) => ({
    name: tr.dataset.row,
    numbers: [...tr.querySelectorAll("td.sq[data-number]")].map((td) => Number(td.dataset.number)),
  }));
}

// A figure (a line or a pattern) with the card's total of it, as claims.Figure.
export function figureOf(f, numbers) {
  const total = f.cells.reduce((a, i) => a + (numbers[i] || 0), 0);
  return { name: f.name, cells: f.cells, central: f.central, total };
}

// The card's facts from the game's (`game`, #card-state) and its table's numbers: what the page
// marks and judges with (the figures with their totals, the squares covered without a call).
export function cardFacts(game, numbers) {
  const s = { ...game, numbers };
  s.free = numbers[12] === null || game.free_centre ? [12] : [];
  s.figures = game.shape ? patternFigures(game.shape, game.figures, numbers) : game.figures.map((f) => figureOf(f, numbers));
  s.lines = game.lines.map((f) => figureOf(f, numbers));
  if (game.odd_even) s.figures = [oddEvenFigure(game.odd_even, numbers, s.free)];
  return s;
}

// Special games (bingo_hall.seventyfive.specials). An odd-even game's figure: the card's own odd (even)
// numbers and its FREE centre, as specials.odd_even_form.
export function oddEvenFigure(which, numbers, free) {
  const rest = which === "odd" ? 1 : 0;
  const cells = numbers.flatMap((n, i) => (n !== null && n % 2 === rest) || free.includes(i) ? [i] : []);
  return figureOf({ name: `${which}_numbers`, cells, central: cells.includes(12) }, numbers);
}

// Each number that counts as called and the position of the call from which it counts, as
// specials.call_positions: in a wild-number game every number ending in the first ball's last
// digit counts from the first call (until it is drawn itself).
export function callPositions(card, calls) {
  const at = new Map();
  if (card.wild_number && calls.length) {
    for (let n = calls[0] % 10 || 10; n <= 75; n += 10) at.set(n, 0);
  }
  calls.forEach((b, i) => at.set(b, i));
  return at;
}

// A pattern given as its mask ("10001/01010/...", rows of 5): its figure, squares row by row.
export function patternFigure(name, mask, numbers) {
  const cells = [];
  mask.split("/").forEach((row, i) => [...row].forEach((ch, j) => { if (ch === "1") cells.push(i * 5 + j); }));
  return figureOf({ name, cells, central: cells.includes(12) }, numbers);
}

// The game's pattern's forms as the card's figures, in the station's order, each with its words
// ({en, es}: "turned 90°"; null for a pattern of one form): sent as figures, or as the rule
// static/pattern.js expands (`figures` empty).
export function patternFigures(shape, figures, numbers) {
  const forms = shapeForms(shape);
  const sent = figures && figures.length ? figures : forms.map((f) => ({ name: shape.name, cells: f.cells, central: f.cells.includes(12) }));
  return sent.map((f, i) => ({ ...figureOf(f, numbers), words: forms[i] ? forms[i].name : null }));
}

// The squares covered after `calls` (in draw order), as claims.covered_cells: the FREE square
// unless a penalty cleared it; a square whose number was called, unless a penalty (`cleared`:
// square -> the call count before which a ball no longer covers it) uncovered it.
export function covered(card, calls, cleared) {
  const at = callPositions(card, calls);
  const free = new Set(card.free);
  return card.numbers.map((n, i) => {
    if (free.has(i) && !cleared.has(i)) return true;
    return n !== null && at.has(n) && at.get(n) >= (cleared.get(i) || 0);
  });
}

// The card's verdict after `calls`, as claims.judge: the squares covered, the figures complete
// (each `byLast` when the last call completed it), and the ones that win under the hall rule.
export function judgeCard(card, calls, cleared) {
  const cov = covered(card, calls, cleared);
  const before = covered(card, calls.slice(0, -1), cleared);
  const done = card.figures
    .map((f, order) => ({ ...f, order }))
    .filter((f) => f.cells.every((i) => cov[i]))
    .map((f) => ({ ...f, byLast: !f.cells.every((i) => before[i]) }));
  // a pattern's forms (figures of one name) count as one figure, the form the station names:
  // one the last call completed first, then the highest total, then the book's order
  const named = new Map();
  for (const f of done) {
    const best = named.get(f.name);
    const better = !best || (f.byLast && !best.byLast)
      || (f.byLast === best.byLast && f.total > best.total);
    if (better) named.set(f.name, f);
  }
  const complete = done.filter((f) => named.get(f.name) === f);
  const winning = card.completing_call_only ? complete.filter((f) => f.byLast) : complete;
  return { covered: cov, complete, winning, bingo: winning.length > 0 };
}

// Whether a ticket's `rows` (arrays of numbers) hold a prize's `rule` once `called` (a Set) were
// called, as prize_rules.judge_rule: `any` numbers of the ticket, `row_count` numbers of one
// row, every one of `cells` ([row, position among the row's numbers]), or `needed` of `rows`
// complete.
export function holds(rule, rows, called) {
  if (!rule) return false;
  const hit = (numbers) => numbers.filter((n) => called.has(n)).length;
  if (rule.any !== undefined) return hit(rows.flat()) >= rule.any;
  if (rule.row_count !== undefined) return rows.some((r) => hit(r) >= rule.row_count);
  if (rule.cells !== undefined) return rule.cells.every(([r, p]) => called.has(rows[r][p]));
  return rule.rows.filter((r) => rows[r].every((n) => called.has(n))).length >= rule.needed;
}

// The ticket's facts from the game's and its table's rows: its rows, and the prizes it won in
// the game (the game gives every winner's, by serial).
export function ticketFacts(game, rows) {
  return { ...game, rows, won: [...((game.won_by || {})[String(game.serial)] || [])] };
}

// How many more squares the card needs for its nearest figure ("you need 2 more"), the calls
// so far covering what `covered` says: the figure lacking the fewest squares, the first in the
// station's order on a tie. {need, figure}; need 0: some figure is complete. No figures: null.
export function nearestNeed(card, calls, cleared) {
  const cov = covered(card, calls, cleared);
  let best = null;
  for (const f of card.figures) {
    const need = f.cells.reduce((n, i) => n + (cov[i] ? 0 : 1), 0);
    if (best === null || need < best.need) best = { need, figure: f };
  }
  return best;
}
