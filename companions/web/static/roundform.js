/* A form that enters the next round, or corrects a past one (Burako hands, Rummy games):
   the shared half of the panels' "✎ correct / undo this / cancel" flow.
   RoundForm({form, title, save, cancel, undoThis, fill, collect, labels, done}) where
   labels = {save, saveCorrection, correct: "... {n} ..."}; fill(entry or null) puts an entry
   in the fields, collect() reads them; done() runs after a save, undo or cancel. (An ES module:
   the Burako and Rummy panels import RoundForm; both pages have the tile pad.) */
import { fill } from "/web/static/dom.js";
import { Table } from "./shell.js";
import { TilePad } from "./tilepad.js";

export function RoundForm(o) {
  let correcting = null;

  function end() {
    correcting = null;
    o.fill(null);
    TilePad.close();
    Table.clearErrors();
    o.save.textContent = o.labels.save;
    o.cancel.hidden = true;
    o.undoThis.hidden = true;
    o.form.classList.remove("correcting");
    o.done();
  }

  function edit(id, number) {
    const item = Table.history.find((h) => h.id === id);
    if (!item) return;
    correcting = id;
    o.form.hidden = false;
    o.fill(item.entry);
    o.title.textContent = fill(o.labels.correct, { n: number });
    o.save.textContent = o.labels.saveCorrection;
    o.save.disabled = false;
    o.cancel.hidden = false;
    o.undoThis.hidden = false;
    o.form.classList.add("correcting");
    o.form.scrollIntoView({ behavior: "smooth", block: "start" });
  }

  o.form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const entry = o.collect();
    const sent = correcting ? Table.correct(correcting, entry) : Table.post(entry);
    sent.then(() => { end(); window.scrollTo({ top: 0, behavior: "smooth" }); })
      .catch(() => {});
  });
  o.cancel.addEventListener("click", end);
  o.undoThis.addEventListener("click", () => {
    Table.undo(correcting).then(end).catch(() => {});
  });

  return { edit, correcting: () => correcting };
}
