/* The tile pad: count a rack or a hand by tapping tiles instead of adding them up.
   The tapped tiles are sent to the engine as a list; the engine does the scoring, this only
   shows a running total from the same tile table the engine uses (rendered into the page). */
var cfg = JSON.parse(document.getElementById("tile-pad-data").textContent);
var pad = document.getElementById("tile-pad");
var tiles = {};     // input name -> tapped tiles
var current = null;

function sum(list) { return list.reduce(function (a, t) { return a + cfg.points[t]; }, 0); }
function field(name) { return document.querySelector('[name="' + name + '"]'); }

function show(name) {
  var box = field(name), list = tiles[name] || [];
  if (list.length) {
    box.value = sum(list) + "  =  " + list.map(function (t) { return t === "J" ? "★" : t; }).join(" ");
    box.readOnly = true;
  } else if (box.readOnly) {
    box.value = ""; box.readOnly = false;
  }
}

function render() {
  var list = tiles[current] || [];
  var chips = document.getElementById("pad-chips");
  chips.textContent = "";
  list.forEach(function (t, idx) {
    var c = document.createElement("button");
    c.type = "button"; c.className = "chip";
    c.textContent = (t === "J" ? "★" : t) + " ✕";
    c.addEventListener("click", function () { list.splice(idx, 1); render(); show(current); });
    chips.appendChild(c);
  });
  document.getElementById("pad-total").textContent =
    cfg.tiles.replace("{n}", list.length) + " = " + sum(list);
}

function open(name, title) {
  current = name;
  tiles[name] = tiles[name] || [];
  document.getElementById("pad-title").textContent = title;
  pad.hidden = false;
  render();
  // keep the field being counted visible above the pad (it grows as tiles are tapped)
  document.body.style.paddingBottom = pad.offsetHeight + "px";
  field(name).scrollIntoView({block: "start"});
}

function hide() {
  pad.hidden = true;
  document.body.style.paddingBottom = "";
}

pad.querySelectorAll("[data-tile]").forEach(function (b) {
  b.addEventListener("click", function () { tiles[current].push(b.dataset.tile); render(); show(current); });
});
document.getElementById("pad-clear").addEventListener("click", function () {
  tiles[current] = []; render(); show(current);
});
document.getElementById("pad-done").addEventListener("click", hide);
document.querySelectorAll(".count-tiles").forEach(function (b) {
  b.addEventListener("click", function () { open(b.dataset.target, b.dataset.title || ""); });
});

export const TilePad = {
  /* the value to send for a field: the tapped tiles, or what was typed */
  value: function (name) {
    return tiles[name] && tiles[name].length ? tiles[name].slice() : field(name).value;
  },
  set: function (name, value) {
    var box = field(name);
    box.readOnly = false;
    if (Array.isArray(value)) { tiles[name] = value.map(String); show(name); }
    else { tiles[name] = []; box.value = value == null || value === 0 ? "" : String(value); }
  },
  close: hide,
};
