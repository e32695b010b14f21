// A card's or a ticket's own marks and verdict, judged on the phone (an ES module, no DOM but the
// card's table it reads). The station sends every card of a game the same facts (#card-state:
// the figures as squares, the hall rules, each prize as a rule of rows, cells or counts; made
// once per change of the game, whatever the deck's size) and draws each card's table once; the
// page reads its numbers from that table and judges them here, as bingo_hall.seventyfive.claims.judge (75
// balls) and bingo_hall.ninety.prize_rules.judge_rule (90 balls) do. The Maestro's check stays
// the station's: this only tells the holder what their card shows.
// tests/claims/test_card_judge_browser.py runs these functions in Chromium against the station's
// judge over random games.

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
  s.figures = game.figures.map((f) => figureOf(f, numbers));
  s.lines = game.lines.map((f) => figureOf(f, numbers));
  return s;
}

// A pattern given as its mask ("10001/01010/...", rows of 5): its figure, squares row by row.
export function patternFigure(name, mask, numbers) {
  const cells = [];
  mask.split("/").forEach((row, i) => [...row].forEach((ch, j) => { if (ch === "1") cells.push(i * 5 + j); }));
  return figureOf({ name, cells, central: cells.includes(12) }, numbers);
}

// The squares covered after `calls` (in draw order), as claims.covered_cells: the FREE square
// unless a penalty cleared it; a square whose number was called, unless a penalty (`cleared`:
// square -> the call count before which a ball no longer covers it) uncovered it.
export function covered(card, calls, cleared) {
  const at = new Map(calls.map((b, i) => [b, i]));
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
