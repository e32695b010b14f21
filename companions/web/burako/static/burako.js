/* The Burako panel: a scoreboard of hands and a form for the next hand (or a correction).
   Scores are computed by the engine only; this file just collects what was played. */
import { fill } from "/web/static/dom.js";
import { node } from "/web/static/ui.js";
import { RoundForm } from "../roundform.js";
import { Table } from "../shell.js";
import { TilePad } from "../tilepad.js";

const B = JSON.parse(document.getElementById("burako-data").textContent);
const form = document.getElementById("hand-form");
let rounds = null;         // the RoundForm: a new hand, or a correction
const open = {};             // hand ids whose breakdown is shown

function input(name) { return form.querySelector(`[name="${name}"]`); }

function renderBoard(view) {
  const body = document.querySelector("#scoreboard tbody");
  body.textContent = "";
  view.hands.forEach((h) => {
    // tap a hand's number to see where its points came from (settles arguments at the table)
    const tr = node("tr", {"data-entry": h.id});
    const num = node("td", {class: "num"});
    const more = node("button", {type: "button", class: "ghost", "aria-expanded": String(!!open[h.id]),
                             "aria-label": fill(B.text.details, {n: h.number})}, `${h.number} ▾`);
    num.appendChild(more);
    tr.appendChild(num);
    h.scores.forEach((s, i) => { tr.appendChild(node("td", {"data-label": Table.players[i]}, String(s))); });
    const act = node("td", {class: "act"});
    const edit = node("button", {type: "button", class: "ghost edit",
                             "aria-label": fill(B.text.edit, {n: h.number})}, "✎");
    edit.addEventListener("click", () => { rounds.edit(h.id, h.number); });
    act.appendChild(edit);
    tr.appendChild(act);
    body.appendChild(tr);
    const detail = node("tr", {class: "detail"});
    detail.hidden = !open[h.id];
    detail.appendChild(node("td", {}));
    h.parts.forEach((parts, i) => {
      const td = node("td", {"data-label": Table.players[i], class: "parts"});
      Object.keys(parts).forEach((k) => {
        if (parts[k]) td.appendChild(node("div", {}, `${B.text.parts[k]} ${parts[k]}`));
      });
      detail.appendChild(td);
    });
    detail.appendChild(node("td", {}));
    body.appendChild(detail);
    more.addEventListener("click", () => {
      open[h.id] = !open[h.id];
      detail.hidden = !open[h.id];
      more.setAttribute("aria-expanded", String(open[h.id]));
    });
  });
  view.totals.forEach((t, i) => {
    document.querySelector(`[data-total="${i}"]`).textContent = t;
    document.querySelector(`[data-to-go="${i}"]`).textContent = view.to_go[i];
  });
  if (!rounds.correcting()) {
    document.getElementById("hand-title").textContent = fill(B.text.hand, {n: view.hands.length + 1});
    document.getElementById("save-hand").disabled = view.finished;
    form.hidden = view.finished;  // nothing more to enter; ✎ still corrects a past round
  }
}

form.querySelectorAll(".stepper").forEach((st) => {
  const out = st.querySelector("output");
  st.querySelectorAll(".step").forEach((b) => {
    b.addEventListener("click", () => {
      out.value = String(Math.max(0, Number(out.value) + Number(b.dataset.step)));
    });
  });
});

function collect() {
  return {
    teams: Table.players.map((_, i) => {
      const p = `teams.${i}.`;
      const muerto = form.querySelector(`[name="${p}muerto"]:checked`);
      return {
        puras: Number(input(`${p}puras`).value),
        impuras: Number(input(`${p}impuras`).value),
        closed: input(`${p}closed`).checked,
        muerto: muerto ? muerto.value : null,
        down: TilePad.value(`${p}down`),
        left: TilePad.value(`${p}left`),
      };
    }),
  };
}

function fillForm(entry) {
  const teams = entry ? entry.teams : Table.players.map(() => ({}));
  teams.forEach((t, i) => {
    const p = `teams.${i}.`;
    input(`${p}puras`).value = String(t.puras || 0);
    input(`${p}impuras`).value = String(t.impuras || 0);
    input(`${p}closed`).checked = !!t.closed;
    form.querySelectorAll(`[name="${p}muerto"]`).forEach((r) => {
      r.checked = r.value === t.muerto;
    });
    TilePad.set(`${p}down`, t.down);
    TilePad.set(`${p}left`, t.left);
  });
}

rounds = RoundForm({
  form,
  title: document.getElementById("hand-title"),
  save: document.getElementById("save-hand"),
  cancel: document.getElementById("cancel-correction"),
  undoThis: document.getElementById("undo-this"),
  fill: fillForm,
  collect,
  labels: {save: B.text.save, saveCorrection: B.text.save_correction, correct: B.text.correct},
  done() { renderBoard(Table.view); },
});

Table.onView(renderBoard);
