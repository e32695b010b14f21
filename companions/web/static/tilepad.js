/* The tile pad: count a rack or a hand by tapping tiles instead of adding them up.
   The tapped tiles are sent to the engine as a list; the engine does the scoring, this only
   shows a running total from the same tile table the engine uses (rendered into the page). */
import { el, fill } from "/web/static/dom.js";

const cfg = JSON.parse(document.getElementById("tile-pad-data").textContent);
const pad = document.getElementById("tile-pad");
const tiles = {};     // input name -> tapped tiles
let current = null;

const face = (t) => (t === "J" ? "★" : t);
const sum = (list) => list.reduce((a, t) => a + cfg.points[t], 0);
const field = (name) => document.querySelector(`[name="${name}"]`);

function show(name) {
  const box = field(name);
  const list = tiles[name] || [];
  if (list.length) {
    box.value = `${sum(list)}  =  ${list.map(face).join(" ")}`;
    box.readOnly = true;
  } else if (box.readOnly) {
    box.value = ""; box.readOnly = false;
  }
}

function render() {
  const list = tiles[current] || [];
  const chips = document.getElementById("pad-chips");
  chips.textContent = "";
  list.forEach((t, idx) => {
    const c = el("button", "chip", `${face(t)} ✕`);
    c.type = "button";
    c.addEventListener("click", () => { list.splice(idx, 1); render(); show(current); });
    chips.appendChild(c);
  });
  document.getElementById("pad-total").textContent = `${fill(cfg.tiles, { n: list.length })} = ${sum(list)}`;
}

function open(name, title) {
  current = name;
  tiles[name] = tiles[name] || [];
  document.getElementById("pad-title").textContent = title;
  render();
  if (!pad.open) pad.showModal();
  // keep the field being counted in view above the pad where there is room (it shows the sum)
  field(name).scrollIntoView({ block: "start" });
}

function hide() {
  if (pad.open) pad.close();
}

pad.querySelectorAll("[data-tile]").forEach((b) => {
  b.addEventListener("click", () => { tiles[current].push(b.dataset.tile); render(); show(current); });
});
document.getElementById("pad-clear").addEventListener("click", () => {
  tiles[current] = []; render(); show(current);
});
document.getElementById("pad-done").addEventListener("click", hide);
document.querySelectorAll(".count-tiles").forEach((b) => {
  b.addEventListener("click", () => open(b.dataset.target, b.dataset.title || ""));
});

export const TilePad = {
  /* the value to send for a field: the tapped tiles, or what was typed */
  value: (name) => (tiles[name] && tiles[name].length ? tiles[name].slice() : field(name).value),
  set(name, value) {
    const box = field(name);
    box.readOnly = false;
    if (Array.isArray(value)) { tiles[name] = value.map(String); show(name); }
    else { tiles[name] = []; box.value = value == null || value === 0 ? "" : String(value); }
  },
  close: hide,
};
