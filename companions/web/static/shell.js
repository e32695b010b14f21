/* The shell's half of the companion contract (docs/dev/companion-games.md): Table, which the
   game's panel module imports from this ES module. Every change goes to the server; the server's
   answer (and the SSE stream, for the other phones) brings the new view, so all phones show the
   same thing. */
var data = JSON.parse(document.getElementById("table-data").textContent);
var viewCallbacks = [], historyCallbacks = [];
var version = data.version;
var source = null;

function each(list, value) {
  list.forEach(function (cb) {
    try { cb(value, Table); } catch (e) { console.error(e); }
  });
}

function deliver(snap) {
  if (snap.version != null && snap.version < version) return;  // an older message
  version = snap.version != null ? snap.version : version;
  if (snap.next) showNext(snap.next);
  if (snap.history) { Table.history = snap.history; each(historyCallbacks, snap.history); }
  if (snap.view) { Table.view = snap.view; each(viewCallbacks, snap.view); }
}

function fieldElement(field) {
  if (!field) return null;
  var panel = document.getElementById("panel");
  var esc = window.CSS && CSS.escape ? CSS.escape(field) : field;
  return panel.querySelector('[data-field="' + esc + '"]') ||
         panel.querySelector('[name="' + esc + '"]');
}

function clearErrors() {
  document.querySelectorAll("#panel .field-error[data-shell]").forEach(function (el) { el.remove(); });
  document.querySelectorAll('#panel [aria-invalid="true"]').forEach(function (el) {
    el.removeAttribute("aria-invalid");
  });
  var banner = document.getElementById("table-error");
  banner.hidden = true;
  banner.textContent = "";
}

function showError(field, message) {
  var el = fieldElement(field);
  if (!el) {
    var banner = document.getElementById("table-error");
    banner.textContent = message;
    banner.hidden = false;
    banner.scrollIntoView({block: "nearest"});
    return;
  }
  el.setAttribute("aria-invalid", "true");
  var note = document.createElement("p");
  note.className = "field-error";
  note.setAttribute("data-shell", "");
  note.setAttribute("role", "alert");
  note.textContent = message;
  var anchor = el.closest("[data-error-after]") || el;
  anchor.insertAdjacentElement("afterend", note);
  if (el.focus) el.focus({preventScroll: true});
  note.scrollIntoView({block: "nearest"});
}

function send(method, path, body) {
  clearErrors();
  var init = {method: method, headers: {"Accept": "application/json"}};
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  return fetch(data.base + path, init).then(function (resp) {
    return resp.json().catch(function () { return {error: resp.statusText}; }).then(function (json) {
      if (!resp.ok) {
        showError(json.field, json.error || resp.statusText);
        var err = new Error(json.error);
        err.field = json.field; err.entryId = json.entry_id; err.status = resp.status;
        throw err;
      }
      deliver(json);
      return json;
    });
  }, function (netErr) {
    showError(null, data.text.network);
    throw netErr;
  });
}

function setLive(state) {
  var el = document.getElementById("live");
  el.dataset.state = state;
  el.querySelector(".text").textContent = state === "live" ? data.text.live : data.text.offline;
}

function connect() {
  if (source) source.close();
  source = new EventSource(data.base + "/events");
  source.addEventListener("open", function () { setLive("live"); });
  source.addEventListener("error", function () { setLive("offline"); });
  source.addEventListener("history", function (e) {
    deliver({history: JSON.parse(e.data), version: Number(e.lastEventId)});
  });
  source.addEventListener("view", function (e) {
    deliver({view: JSON.parse(e.data), version: Number(e.lastEventId)});
  });
  source.addEventListener("next", function (e) { showNext(JSON.parse(e.data).code); });
}

// "play again": the players moved on to a new table; every phone offers to follow
function showNext(code) {
  Table.next = code;
  document.getElementById("next-link").href = data.base.replace(/[^/]+$/, code);
  document.getElementById("next-table").hidden = false;
  document.getElementById("rematch").hidden = true;
}

var Table = {
  code: data.code,
  game: data.game,
  players: data.players,
  members: data.members,
  settings: data.settings,
  lang: data.lang,
  view: data.view,
  history: data.history,
  /* who is holding this phone (optional; remembered per table) */
  get me() { return localStorage.getItem("companions:me:" + data.code); },
  set me(name) {
    if (name) localStorage.setItem("companions:me:" + data.code, name);
    else localStorage.removeItem("companions:me:" + data.code);
  },
  post: function (entry) {
    var body = Object.assign({}, entry);
    if (body.player === undefined && Table.me) body.player = Table.me;
    return send("POST", "/entries", body);
  },
  undo: function (id) { return send("POST", "/entries/" + id + "/undo"); },
  restore: function (id) { return send("POST", "/entries/" + id + "/restore"); },
  correct: function (id, entry) { return send("PUT", "/entries/" + id, entry); },
  onView: function (cb) { viewCallbacks.push(cb); cb(Table.view, Table); },
  onHistory: function (cb) { historyCallbacks.push(cb); cb(Table.history, Table); },
  showError: showError,
  clearErrors: clearErrors,
  next: data.next || null,
  lastActive: function () {
    for (var i = Table.history.length - 1; i >= 0; i--) {
      if (!Table.history[i].undone) return Table.history[i];
    }
    return null;
  },
};
export { Table };

var rematch = document.getElementById("rematch");
rematch.addEventListener("click", function () {
  rematch.disabled = true;
  fetch(data.base + "/rematch", {method: "POST", headers: {"Accept": "application/json"}})
    .then(function (r) { return r.json(); })
    .then(function (json) { window.location.href = json.url; })
    .catch(function () { rematch.disabled = false; showError(null, data.text.network); });
});

// the shell's own widgets: winner banner, "play again" and "undo last"
Table.onView(function (view) {
  rematch.hidden = !view.finished || !!Table.next;
  var el = document.getElementById("winner");
  if (view.finished && view.winner) {
    el.textContent = data.text.wins.replace("{name}", view.winner);
    el.hidden = false;
  } else {
    el.hidden = true;
  }
});
var undoLast = document.getElementById("undo-last");
if (undoLast) {
  Table.onHistory(function () { undoLast.disabled = !Table.lastActive(); });
  undoLast.addEventListener("click", function () {
    var last = Table.lastActive();
    if (last && window.confirm(data.text.confirm_undo)) Table.undo(last.id).catch(function () {});
  });
}
// undone entries stay in the history: offer to put each one back
Table.onHistory(function (history) {
  var box = document.getElementById("undone-list");
  if (!box) return;
  box.textContent = "";
  history.forEach(function (item, idx) {
    if (!item.undone) return;
    var row = document.createElement("div");
    row.className = "undone-row";
    var label = document.createElement("span");
    label.className = "undone";
    label.textContent = data.text.undone.replace("{n}", idx + 1);
    var button = document.createElement("button");
    button.type = "button";
    button.className = "ghost";
    button.textContent = data.text.restore;
    button.addEventListener("click", function () { Table.restore(item.id).catch(function () {}); });
    row.appendChild(label);
    row.appendChild(button);
    box.appendChild(row);
  });
});

// remember this table on the phone, for the "your tables" list on the start page
try {
  var recent = JSON.parse(localStorage.getItem("companions:recent") || "[]")
    .filter(function (t) { return t.code !== data.code; });
  recent.unshift({code: data.code, title: data.title, players: data.players.join(", ")});
  localStorage.setItem("companions:recent", JSON.stringify(recent.slice(0, 6)));
} catch (e) { /* private mode: nothing to remember */ }

connect();
document.addEventListener("visibilitychange", function () {
  // a phone that slept may have a dead stream: reconnect and catch up
  if (document.visibilityState === "visible" && (!source || source.readyState === 2)) connect();
});
