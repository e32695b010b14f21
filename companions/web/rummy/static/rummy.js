/* The Israeli Rummy panel: one row per game, the racks of those who did not close. */
(function () {
  "use strict";
  var R = JSON.parse(document.getElementById("rummy-data").textContent);
  var form = document.getElementById("game-form");
  var correcting = null;

  function fmt(s, vals) { return s.replace(/\{(\w+)\}/g, function (_, k) { return vals[k]; }); }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text != null) e.textContent = text;
    return e;
  }

  function renderBoard(view) {
    var body = document.querySelector("#scoreboard tbody");
    body.textContent = "";
    view.games.forEach(function (g) {
      var tr = el("tr", {"data-entry": g.id});
      var num = el("td", {class: "num"});
      var edit = el("button", {type: "button", class: "ghost", "aria-label": fmt(R.text.edit, {n: g.number})},
                    g.number + " ✎");
      edit.addEventListener("click", function () { startCorrection(g); });
      num.appendChild(edit);
      tr.appendChild(num);
      g.points.forEach(function (pts, i) {
        tr.appendChild(el("td", {class: view.players[i] === g.closed_by ? "closer" : ""}, String(pts)));
      });
      body.appendChild(tr);
    });
    view.totals.forEach(function (t, i) {
      var td = document.querySelector('[data-total="' + i + '"]');
      td.textContent = t;
      td.className = view.leaders.indexOf(view.players[i]) >= 0 ? "leader" : "";
    });
    document.getElementById("match-note").textContent = view.finished ? R.text.over :
      fmt(R.text.left, {n: view.length - view.games.length});
    if (!correcting) {
      document.getElementById("game-title").textContent =
        fmt(R.text.game, {n: Math.min(view.games.length + 1, view.length), of: view.length});
      document.getElementById("save-game").disabled = view.finished;
      form.hidden = view.finished;  // nothing more to enter; ✎ still corrects a past round
    }
  }

  function markCloser() {
    var chosen = form.querySelector('[name="closed_by"]:checked');
    form.querySelectorAll(".rack").forEach(function (r) {
      var isCloser = chosen && chosen.value === r.dataset.player;
      r.classList.toggle("closer", !!isCloser);
      r.querySelectorAll("input, button").forEach(function (x) { x.disabled = !!isCloser; });
    });
  }
  form.querySelectorAll('[name="closed_by"]').forEach(function (r) { r.addEventListener("change", markCloser); });

  function collect() {
    var chosen = form.querySelector('[name="closed_by"]:checked');
    var closer = chosen ? (chosen.value || null) : undefined;
    var racks = {};
    Table.players.forEach(function (p) { if (p !== closer) racks[p] = TilePad.value("racks." + p); });
    return {closed_by: closer === undefined ? "?" : closer, racks: racks};
  }

  function fill(entry) {
    form.querySelectorAll('[name="closed_by"]').forEach(function (r) {
      r.checked = !!entry && r.value === (entry.closed_by || "");
    });
    Table.players.forEach(function (p) {
      TilePad.set("racks." + p, entry && entry.racks ? entry.racks[p] : null);
    });
    markCloser();
  }

  function startCorrection(g) {
    var item = Table.history.filter(function (h) { return h.id === g.id; })[0];
    if (!item) return;
    form.hidden = false;
    correcting = g.id;
    fill(item.entry);
    document.getElementById("game-title").textContent = fmt(R.text.correct, {n: g.number});
    document.getElementById("save-game").textContent = R.text.save_correction;
    document.getElementById("save-game").disabled = false;
    document.getElementById("cancel-correction").hidden = false;
    document.getElementById("undo-this").hidden = false;
    form.classList.add("correcting");
    form.scrollIntoView({behavior: "smooth", block: "start"});
  }

  function endCorrection() {
    correcting = null;
    fill(null);
    TilePad.close();
    Table.clearErrors();
    document.getElementById("save-game").textContent = R.text.save;
    document.getElementById("cancel-correction").hidden = true;
    document.getElementById("undo-this").hidden = true;
    form.classList.remove("correcting");
    renderBoard(Table.view);
  }

  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var entry = collect();
    var done = correcting ? Table.correct(correcting, entry) : Table.post(entry);
    done.then(function () { endCorrection(); window.scrollTo({top: 0, behavior: "smooth"}); })
        .catch(function () {});
  });
  document.getElementById("cancel-correction").addEventListener("click", endCorrection);
  document.getElementById("undo-this").addEventListener("click", function () {
    Table.undo(correcting).then(endCorrection).catch(function () {});
  });

  Table.onView(renderBoard);
})();
