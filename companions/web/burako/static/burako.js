/* The Burako panel: a scoreboard of hands and a form for the next hand (or a correction).
   Scores are computed by the engine only; this file just collects what was played. */
(function () {
  "use strict";
  var B = JSON.parse(document.getElementById("burako-data").textContent);
  var form = document.getElementById("hand-form");
  var correcting = null;     // entry id being corrected, or null for a new hand

  function fmt(s, vals) { return s.replace(/\{(\w+)\}/g, function (_, k) { return vals[k]; }); }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text != null) e.textContent = text;
    return e;
  }
  function input(name) { return form.querySelector('[name="' + name + '"]'); }

  function renderBoard(view) {
    var body = document.querySelector("#scoreboard tbody");
    body.textContent = "";
    view.hands.forEach(function (h) {
      var tr = el("tr", {"data-entry": h.id});
      tr.appendChild(el("td", {}, String(h.number)));
      h.scores.forEach(function (s, i) {
        var parts = h.parts[i];
        tr.appendChild(el("td", {title: Object.keys(parts).map(function (k) {
          return B.text.parts[k] + " " + parts[k];
        }).join(" · ")}, String(s)));
      });
      var act = el("td", {class: "act"});
      var edit = el("button", {type: "button", class: "ghost edit",
                               "aria-label": fmt(B.text.edit, {n: h.number})}, "✎");
      edit.addEventListener("click", function () { startCorrection(h); });
      act.appendChild(edit);
      tr.appendChild(act);
      body.appendChild(tr);
    });
    view.totals.forEach(function (t, i) {
      document.querySelector('[data-total="' + i + '"]').textContent = t;
      document.querySelector('[data-to-go="' + i + '"]').textContent = view.to_go[i];
    });
    if (!correcting) {
      document.getElementById("hand-title").textContent = fmt(B.text.hand, {n: view.hands.length + 1});
      document.getElementById("save-hand").disabled = view.finished;
      form.hidden = view.finished;  // nothing more to enter; ✎ still corrects a past round
    }
  }

  form.querySelectorAll(".stepper").forEach(function (st) {
    var out = st.querySelector("output");
    st.querySelectorAll(".step").forEach(function (b) {
      b.addEventListener("click", function () {
        out.value = String(Math.max(0, Number(out.value) + Number(b.dataset.step)));
      });
    });
  });

  function collect() {
    return {
      teams: Table.players.map(function (_, i) {
        var p = "teams." + i + ".";
        var muerto = form.querySelector('[name="' + p + 'muerto"]:checked');
        return {
          puras: Number(input(p + "puras").value),
          impuras: Number(input(p + "impuras").value),
          closed: input(p + "closed").checked,
          muerto: muerto ? muerto.value : null,
          down: TilePad.value(p + "down"),
          left: TilePad.value(p + "left"),
        };
      }),
    };
  }

  function fill(entry) {
    var teams = entry ? entry.teams : Table.players.map(function () { return {}; });
    teams.forEach(function (t, i) {
      var p = "teams." + i + ".";
      input(p + "puras").value = String(t.puras || 0);
      input(p + "impuras").value = String(t.impuras || 0);
      input(p + "closed").checked = !!t.closed;
      form.querySelectorAll('[name="' + p + 'muerto"]').forEach(function (r) {
        r.checked = r.value === t.muerto;
      });
      TilePad.set(p + "down", t.down);
      TilePad.set(p + "left", t.left);
    });
  }

  function startCorrection(hand) {
    var item = Table.history.filter(function (h) { return h.id === hand.id; })[0];
    if (!item) return;
    form.hidden = false;
    correcting = hand.id;
    fill(item.entry);
    document.getElementById("hand-title").textContent = fmt(B.text.correct, {n: hand.number});
    document.getElementById("save-hand").textContent = B.text.save_correction;
    document.getElementById("save-hand").disabled = false;
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
    document.getElementById("save-hand").textContent = B.text.save;
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
