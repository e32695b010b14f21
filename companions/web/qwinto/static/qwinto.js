/* Qwinto's panel. Draws each player's sheet from view.layout (the engine's LAYOUT) and posts
   roll / place / fail entries through Table (the shell's module); every rule is checked by the
   engine. */
import { $, el, fill } from "/web/static/dom.js";
import { Table } from "../shell.js";

const T = JSON.parse(document.getElementById("qw-text").textContent);
const SVG = "http://www.w3.org/2000/svg";
const PENTAGON = "50,4 96,38 79,96 21,96 4,38";
let view = Table.view;
let shown = null;          // whose sheet is on screen
let pad = null;            // {colour, box} being written
let dice = [];             // colours chosen in the roll dialog
let roller = null;         // who throws, in the roll dialog

function names(list) {
  if (list.length < 2) return list.join("");
  return `${list.slice(0, -1).join(", ")} ${T.and} ${list[list.length - 1]}`;
}
function sheetOf(player) {
  return view.sheets.filter((s) => s.player === player)[0];
}
function isPentagon(colour, box) {
  return view.layout.pentagons.some((p) => p[0] === colour && p[1] === box);
}
function canWrite(player) {
  const roll = view.roll;
  if (!view.rolls) return !view.finished;
  return roll && !roll.written.includes(player);
}

/* --- whose sheet ---------------------------------------------------------------------- */
function drawWho() {
  const box = $("qw-who");
  box.textContent = "";
  view.sheets.forEach((s) => {
    const b = el("button", `qw-chip${s.player === shown ? " on" : ""}`);
    b.type = "button";
    b.setAttribute("role", "tab");
    b.setAttribute("aria-selected", s.player === shown ? "true" : "false");
    b.dataset.player = s.player;
    if (view.roll && view.roll.player === s.player && !view.finished) {
      const die = el("i", "qw-die-icon");
      die.setAttribute("aria-hidden", "true");
      b.appendChild(die);
    }
    b.appendChild(el("span", "qw-chip-name", s.player));
    b.appendChild(el("b", "qw-chip-score", String(s.score.total)));
    b.addEventListener("click", () => {
      shown = s.player;
      Table.me = s.player;
      draw();
    });
    box.appendChild(b);
  });
}

/* --- the roll ------------------------------------------------------------------------- */
function diceText(colours) {
  return colours.map((c) => T.colour[c]).join(" + ");
}
function drawRoll() {
  const roll = view.roll, text = $("qw-roll-text"), newRoll = $("qw-new-roll");
  const me = sheetOf(shown);
  text.textContent = "";
  newRoll.hidden = !view.rolls || view.finished;
  // the active player writes the sum or crosses a failed throw before the dice move on
  newRoll.disabled = !!(roll && !roll.written.includes(roll.player));
  if (view.next_active) newRoll.querySelector("span").textContent = fill(T.new_roll, {name: view.next_active});
  if (!view.rolls) {
    text.textContent = T.free;
  } else if (!roll) {
    text.textContent = fill(T.first_roll, {name: view.next_active});
  } else {
    const line = el("span", "qw-roll-main");
    roll.colours.forEach((c) => { line.appendChild(el("i", `qw-die qw-${c}`)); });
    line.appendChild(el("span", null, fill(roll.sum == null ? T.rolled_no_sum : T.rolled,
      {name: roll.player, dice: diceText(roll.colours), sum: roll.sum})));
    text.appendChild(line);
    if (!roll.written.includes(roll.player)) text.appendChild(el("span", "qw-roll-note", fill(T.must_write, {name: roll.player})));
    if (roll.written.length) text.appendChild(el("span", "qw-roll-note", fill(T.written, {names: names(roll.written)})));
  }
  // the seating order, clockwise, always in view while the dice must pass in it
  const order = $("qw-order");
  order.hidden = !view.rolls || view.finished || Table.settings.clockwise === false;
  order.textContent = fill(T.order, {names: view.sheets.map((s) => s.player).join(" → ")});
  $("qw-fail").hidden = !(view.rolls ? roll && roll.player === shown && canWrite(shown) : !view.finished);
  $("qw-erase").hidden = !(me && me.undo != null);
}

/* --- the sheet: a 12-column grid, a coloured strip per row, boxes on it -------------- */
function drawSheet() {
  const grid = $("qw-sheet"), s = sheetOf(shown), roll = view.roll;
  grid.textContent = "";
  grid.style.setProperty("--cols", view.layout.columns);
  grid.style.setProperty("--rows", view.layout.rows.length);
  const legal = {};
  s.legal.forEach((p) => { legal[p[0] + p[1]] = true; });
  const complete = s.complete_columns;
  view.layout.rows.forEach((row, r) => {
    const rolled = !view.rolls || !roll || roll.colours.includes(row.colour);
    // greyed: a colour the throw in progress cannot go in (nothing once the game is over)
    const off = view.rolls && roll && !view.finished && canWrite(shown) && !rolled;
    const strip = el("div", `qw-strip qw-${row.colour}${off ? " qw-off" : ""}`);
    strip.style.gridColumn = String(r + 1);
    strip.style.gridRow = `${row.columns[0] + 1} / ${row.columns[row.columns.length - 1] + 2}`;
    if (s.complete_rows.includes(row.colour)) strip.classList.add("qw-done");
    grid.appendChild(strip);
    row.columns.forEach((col, box) => {
      const value = s.boxes[row.colour][box];
      const pent = isPentagon(row.colour, box);
      const b = el("button", `qw-box${pent ? " qw-pent" : ""}${off ? " qw-off" : ""}`);
      b.type = "button";
      b.style.gridColumn = String(r + 1);
      b.style.gridRow = String(col + 1);
      b.dataset.colour = row.colour;
      b.dataset.box = String(box);
      b.setAttribute("aria-label", fill(T.box, {row: T.row[row.colour], n: box + 1}) + (value == null ? "" : `: ${value}`));
      if (pent) {
        const svg = document.createElementNS(SVG, "svg");
        svg.setAttribute("viewBox", "0 0 100 100");
        svg.setAttribute("aria-hidden", "true");
        const poly = document.createElementNS(SVG, "polygon");
        poly.setAttribute("points", PENTAGON);
        svg.appendChild(poly);
        b.appendChild(svg);
        if (complete.includes(col)) b.classList.add("qw-paid");
      }
      if (value != null) {
        b.classList.add("qw-full");
      } else if (legal[row.colour + box]) {
        b.classList.add("qw-fits");
      }
      b.appendChild(el("span", "qw-num", value == null ? "" : String(value)));
      b.addEventListener("click", () => { openPad(row.colour, box); });
      grid.appendChild(b);
    });
  });
}

function drawScore() {
  const s = sheetOf(shown), f = $("qw-fails"), sc = $("qw-score");
  f.textContent = "";
  for (let i = 0; i < view.layout.max_fails; i++) {
    f.appendChild(el("span", `qw-x${i < s.fails ? " on" : ""}`, i < s.fails ? "✗" : ""));
  }
  sc.textContent = "";
  let bonus = 0;
  Object.keys(s.score.columns).forEach((k) => { bonus += s.score.columns[k]; });
  const parts = [["qw-orange", s.score.rows.orange, T.row.orange],
    ["qw-yellow", s.score.rows.yellow, T.row.yellow],
    ["qw-purple", s.score.rows.purple, T.row.purple],
    ["qw-bonus", bonus, T.bonus], ["qw-minus", s.score.fails, T.failed]];
  parts.forEach((p, i) => {
    if (i) sc.appendChild(el("span", "qw-op", "+"));
    const cell = el("span", `qw-sc ${p[0]}`, String(p[1]));
    cell.title = p[2];
    cell.setAttribute("aria-label", `${p[2]}: ${p[1]}`);
    sc.appendChild(cell);
  });
  sc.appendChild(el("span", "qw-op", "="));
  const total = el("span", "qw-sc qw-total", String(s.score.total));
  total.setAttribute("aria-label", `${T.total}: ${s.score.total}`);
  total.dataset.testid = "total";
  sc.appendChild(total);
}

function drawEnd() {
  const over = $("qw-over"), list = $("qw-ranking");
  over.hidden = !view.finished;
  over.textContent = "";
  if (view.finished) {
    over.appendChild(el("b", null, fill(view.ended.reason === "rows" ? T.over_rows : T.over_fails, {name: view.ended.player})));
    if (view.winners.length > 1) over.appendChild(el("span", null, ` ${fill(T.shared, {names: names(view.winners)})}`));
    if (view.rolls && view.roll && view.roll.written.length < view.sheets.length) over.appendChild(el("span", "qw-roll-note", T.over_finish));
  }
  list.textContent = "";
  view.ranking.forEach((r) => {
    const li = el("li", r.place === 1 && view.finished ? "qw-first" : "");
    li.appendChild(el("span", "qw-place", String(r.place)));
    li.appendChild(el("span", "qw-rname", r.player));
    li.appendChild(el("b", "qw-rscore", String(r.score)));
    list.appendChild(li);
  });
}

function draw() {
  if (!shown || !sheetOf(shown)) shown = (Table.me && sheetOf(Table.me)) ? Table.me : view.sheets[0].player;
  drawWho(); drawRoll(); drawSheet(); drawScore(); drawEnd();
}

/* --- dialogs ------------------------------------------------------------------------- */
// native modal dialogs: the page under them is inert, and Escape closes them
function openDialog(id) { if (!$(id).open) $(id).showModal(); }
function closeDialogs() {
  ["qw-pad", "qw-dice"].forEach((id) => { if ($(id).open) $(id).close(); });
  pad = null;
}
function fail(errorBox) {
  return (err) => {
    if (err && err.status) Table.clearErrors();
    const box = $(errorBox);
    box.textContent = err && err.status ? err.message : T.network;
    box.hidden = false;
  };
}
function numbers(container, lowest, highest, mark, onPick) {
  container.textContent = "";
  for (let n = view.layout.lowest; n <= view.layout.highest; n++) {
    const b = el("button", `qw-n${n === mark ? " qw-mark" : ""}`, String(n));
    b.type = "button";
    b.dataset.value = String(n);
    b.disabled = n < lowest || n > highest;
    b.addEventListener("click", onPick.bind(null, n));
    container.appendChild(b);
  }
}

function openPad(colour, box) {
  pad = {colour, box};
  $("qw-pad-title").textContent = `${shown} · ${fill(T.box, {row: T.row[colour], n: box + 1})}`;
  $("qw-pad-error").hidden = true;
  const mark = view.roll && canWrite(shown) ? view.roll.sum : null;
  // What can be accepted: the announced (or already written) sum alone; else a sum the dice
  // thrown can make: one die 1-6, two 2-12, three 3-18.
  const count = view.rolls && view.roll ? view.roll.colours.length : 0;
  let lowest = count ? count : view.layout.lowest, highest = count ? 6 * count : view.layout.highest;
  if (count && view.roll.sum !== null && view.roll.sum !== undefined) lowest = highest = view.roll.sum;
  numbers($("qw-pad-numbers"), lowest, highest, mark, (n) => {
    Table.post({op: "place", player: shown, colour: pad.colour, box: pad.box, value: n})
      .then(closeDialogs, fail("qw-pad-error"));
  });
  openDialog("qw-pad");
}

function drawDice() {
  const row = $("qw-dice-colours");
  row.textContent = "";
  view.layout.rows.forEach((r) => {
    const b = el("button", `qw-die-btn qw-${r.colour}${dice.includes(r.colour) ? " on" : ""}`, T.colour[r.colour]);
    b.type = "button";
    b.dataset.colour = r.colour;
    b.setAttribute("aria-pressed", dice.includes(r.colour) ? "true" : "false");
    b.addEventListener("click", () => {
      const i = dice.indexOf(r.colour);
      if (i >= 0) dice.splice(i, 1); else dice.push(r.colour);
      drawDice();
    });
    row.appendChild(b);
  });
  const who = $("qw-dice-player");
  who.textContent = "";
  view.sheets.forEach((s) => {
    const b = el("button", `qw-chip small${s.player === roller ? " on" : ""}`, s.player);
    b.type = "button";
    b.addEventListener("click", () => { roller = s.player; drawDice(); });
    who.appendChild(b);
  });
  // one die shows 1-6, two 2-12, three 3-18
  numbers($("qw-dice-numbers"), Math.max(dice.length, 1), dice.length ? 6 * dice.length : 0, null, (n) => {
    Table.post({op: "roll", player: roller, colours: dice.slice(), sum: n})
      .then(closeDialogs, fail("qw-dice-error"));
  });
}

$("qw-new-roll").addEventListener("click", () => {
  dice = [];
  roller = view.next_active;
  $("qw-dice-title").textContent = T.who_rolls;
  $("qw-dice-error").hidden = true;
  drawDice();
  openDialog("qw-dice");
});
$("qw-fail").addEventListener("click", () => {
  Table.post({op: "fail", player: shown}).catch(() => {});
});
$("qw-erase").addEventListener("click", () => {
  const s = sheetOf(shown);
  if (s && s.undo != null) Table.undo(s.undo).catch(() => {});
});
document.querySelectorAll(".qw-dialog").forEach((d) => {
  // a tap on the dimmed page around the card (the dialog's own box is the card's) closes it
  d.addEventListener("click", (e) => {
    if (e.target === d || e.target.hasAttribute("data-close")) closeDialogs();
  });
  d.addEventListener("close", () => { pad = null; });
});

Table.onView((v) => { view = v; draw(); });
