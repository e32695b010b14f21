// A pattern of the book as the screens draw it and the phones judge it (an ES module). The station
// sends a pattern's shape (bingo_hall.seventyfive.patterns.PatternShape): its forms as masks, or, where the
// book makes them by a rule, the rule and the forms it picks from ("any 3 lines": 220 forms in
// three words). shapeForms expands the rule in the book's own order (pattern_book: the lines in
// card order, itertools.combinations, a form made twice kept once, the first time), so that a
// phone's figures are the station's, form for form. drawPattern draws the 5x5 picture that the
// caller page, /display and the phone show, going through the forms a few seconds each.

// the 12 lines as squares numbered row by row (0-24), in bingo_hall.seventyfive.cards.LINE_CELLS order
const ROWS = [0, 1, 2, 3, 4].map((r) => [0, 1, 2, 3, 4].map((c) => r * 5 + c));
const COLUMNS = [0, 1, 2, 3, 4].map((c) => [0, 1, 2, 3, 4].map((r) => r * 5 + c));
export const LINES = [
  ...ROWS.map((cells, i) => ({ key: "R" + (i + 1), cells })),
  ..."BINGO".split("").map((key, i) => ({ key, cells: COLUMNS[i] })),
  { key: "D1", cells: [0, 6, 12, 18, 24] },
  { key: "D2", cells: [4, 8, 12, 16, 20] },
];
const CENTRE = 12;

// every k of the n items' indices, in itertools.combinations order
function* combinations(n, k, start = 0, head = []) {
  if (head.length === k) { yield head; return; }
  for (let i = start; i < n; i++) yield* combinations(n, k, i + 1, [...head, i]);
}

function maskCells(mask) {
  return [...mask.replace(/\//g, "")].flatMap((ch, i) => (ch === "1" ? [i] : []));
}

// "a, b and c" in the shape's words, as pattern_book._join
function joined(names, and) {
  if (names.some((n) => !n)) return null;
  if (names.length === 1) return names[0];
  const out = {};
  for (const lang of Object.keys(names[0])) {
    const words = names.map((n) => n[lang]);
    out[lang] = words.slice(0, -1).join(", ") + " " + and[lang] + " " + words[words.length - 1];
  }
  return out;
}

// Each form of the pattern as its squares (ascending) and its words ({en, es} or null), in the
// station's order: what the verdict's `form` index counts.
export function shapeForms(shape) {
  let parts;
  let k = 1;
  if (shape.lines) {
    parts = LINES.filter((l) => !(shape.hardway && l.cells.includes(CENTRE)))
      .map((l) => ({ cells: l.cells, name: shape.words.lines[l.key] }));
    k = shape.lines;
  } else {
    parts = shape.forms.map((mask, i) => ({ cells: maskCells(mask), name: shape.names[i] || null }));
    k = Math.max(shape.pick || 1, 1);
  }
  if (k === 1) return parts;
  const seen = new Set();
  const out = [];
  for (const combo of combinations(parts.length, k)) {
    const cells = [...new Set(combo.flatMap((i) => parts[i].cells))].sort((a, b) => a - b);
    const key = cells.join(",");
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ cells, name: joined(combo.map((i) => parts[i].name), shape.words.and) });
  }
  return out;
}

// The forms the big screen goes through: every one where few, else a handful spread over them
// (a triple bingo is shown by six of its 220).
const SHOWN = 8;
function shownForms(forms) {
  if (forms.length <= SHOWN) return forms;
  const step = forms.length / 6;
  return [0, 1, 2, 3, 4, 5].map((i) => forms[Math.floor(i * step)]);
}

function grid(cells) {
  const box = document.createElement("div");
  box.className = "mini-card";
  box.setAttribute("aria-hidden", "true");
  const on = new Set(cells);
  for (let i = 0; i < 25; i++) {
    const sq = document.createElement("span");
    if (on.has(i)) sq.className = "on";
    box.appendChild(sq);
  }
  return box;
}

function paint(box, cells) {
  const on = new Set(cells);
  [...box.children].forEach((sq, i) => sq.classList.toggle("on", on.has(i)));
}

const EVERY_MS = 2500;
const still = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// The pattern's picture: a 5x5 grid, named by the caller. A pattern of several forms goes
// through them a few seconds each, the form's words under it; with reduced motion, up to four
// of them side by side and, where there are more, "any of N forms" (`words.any_of`, {n}).
// `lang`: the page's, for the forms' words.
export function drawPattern(shape, words, lang) {
  const fig = document.createElement("figure");
  fig.className = "pattern-pic";
  fig.dataset.pattern = shape.name;
  fig.dataset.forms = String(shape.count);
  const forms = shapeForms(shape);
  const shown = shownForms(forms);
  const caption = document.createElement("figcaption");
  caption.className = "pattern-form";
  const wordsOf = (f) => (f.name ? f.name[lang] || f.name.en : "");
  const anyOf = shape.count > 1 ? words.any_of.replace("{n}", String(shape.count)) : "";
  if (shown.length <= 1) {
    fig.appendChild(grid(shown.length ? shown[0].cells : []));
    return fig;
  }
  if (still()) {
    const row = document.createElement("div");
    row.className = "pattern-forms";
    shown.slice(0, 4).forEach((f) => row.appendChild(grid(f.cells)));
    fig.appendChild(row);
    fig.dataset.still = "yes";
    caption.textContent = anyOf;
    fig.appendChild(caption);
    return fig;
  }
  const box = grid(shown[0].cells);
  fig.appendChild(box);
  fig.appendChild(caption);
  let at = 0;
  const show = () => {
    const f = shown[at];
    paint(box, f.cells);
    fig.dataset.showing = String(at);
    const name = wordsOf(f);
    caption.textContent = name ? `${anyOf} · ${name}` : anyOf;
  };
  show();
  const timer = setInterval(() => {
    if (!fig.isConnected) { clearInterval(timer); return; } // redrawn: this picture is gone
    at = (at + 1) % shown.length;
    show();
  }, EVERY_MS);
  return fig;
}
