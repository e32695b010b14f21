/* The Israeli Rummy panel: one row per game, the racks of those who did not close. */
import { fill } from "/web/static/dom.js";
import { node } from "/web/static/ui.js";
import { RoundForm } from "../roundform.js";
import { Table } from "../shell.js";
import { TilePad } from "../tilepad.js";

const R = JSON.parse(document.getElementById("rummy-data").textContent);
const form = document.getElementById("game-form");
let rounds = null;         // the RoundForm: a new game, or a correction


function renderBoard(view) {
  const body = document.querySelector("#scoreboard tbody");
  body.textContent = "";
  view.games.forEach((g) => {
    const tr = node("tr", {"data-entry": g.id});
    const num = node("td", {class: "num"});
    const edit = node("button", {type: "button", class: "ghost", "aria-label": fill(R.text.edit, {n: g.number})},
                  `${g.number} ✎`);
    edit.addEventListener("click", () => { rounds.edit(g.id, g.number); });
    num.appendChild(edit);
    tr.appendChild(num);
    g.points.forEach((pts, i) => {
      tr.appendChild(node("td", {class: view.players[i] === g.closed_by ? "closer" : "",
                                 "data-label": view.players[i]}, String(pts)));
    });
    body.appendChild(tr);
  });
  view.totals.forEach((t, i) => {
    const td = document.querySelector(`[data-total="${i}"]`);
    td.textContent = t;
    td.className = view.leaders.includes(view.players[i]) ? "leader" : "";
  });
  document.getElementById("match-note").textContent = view.finished ? R.text.over :
    fill(R.text.left, {n: view.length - view.games.length});
  if (!rounds.correcting()) {
    document.getElementById("game-title").textContent =
      fill(R.text.game, {n: Math.min(view.games.length + 1, view.length), of: view.length});
    document.getElementById("save-game").disabled = view.finished;
    form.hidden = view.finished;  // nothing more to enter; ✎ still corrects a past round
  }
}

function markCloser() {
  const chosen = form.querySelector('[name="closed_by"]:checked');
  form.querySelectorAll(".rack").forEach((r) => {
    const isCloser = chosen && chosen.value === r.dataset.player;
    r.classList.toggle("closer", !!isCloser);
    r.querySelectorAll("input, button").forEach((x) => { x.disabled = !!isCloser; });
  });
}
form.querySelectorAll('[name="closed_by"]').forEach((r) => { r.addEventListener("change", markCloser); });

function collect() {
  const chosen = form.querySelector('[name="closed_by"]:checked');
  const closer = chosen ? (chosen.value || null) : undefined;
  const racks = {};
  Table.players.forEach((p) => { if (p !== closer) racks[p] = TilePad.value(`racks.${p}`); });
  return {closed_by: closer === undefined ? "?" : closer, racks};
}

function fillForm(entry) {
  form.querySelectorAll('[name="closed_by"]').forEach((r) => {
    r.checked = !!entry && r.value === (entry.closed_by || "");
  });
  Table.players.forEach((p) => {
    TilePad.set(`racks.${p}`, entry && entry.racks ? entry.racks[p] : null);
  });
  markCloser();
}

rounds = RoundForm({
  form,
  title: document.getElementById("game-title"),
  save: document.getElementById("save-game"),
  cancel: document.getElementById("cancel-correction"),
  undoThis: document.getElementById("undo-this"),
  fill: fillForm,
  collect,
  labels: {save: R.text.save, saveCorrection: R.text.save_correction, correct: R.text.correct},
  done() { renderBoard(Table.view); },
});

Table.onView(renderBoard);
