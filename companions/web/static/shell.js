/* The shell's half of the companion contract (docs/dev/companion-games.md): Table, which the
   game's panel module imports from this ES module. Every change goes to the server; the server's
   answer (and the live stream, which live.js follows, for the other phones) brings the new view,
   so all phones show the same thing. */
import { request } from "/web/static/api.js";
import { el, fill } from "/web/static/dom.js";
import { follow } from "/web/static/live.js";

const data = JSON.parse(document.getElementById("table-data").textContent);
const viewCallbacks = [];
const historyCallbacks = [];
let version = data.version;

function each(list, value) {
  for (const cb of list) {
    try { cb(value, Table); } catch (e) { console.error(e); }
  }
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
  const panel = document.getElementById("panel");
  const esc = window.CSS && CSS.escape ? CSS.escape(field) : field;
  return panel.querySelector(`[data-field="${esc}"]`) || panel.querySelector(`[name="${esc}"]`);
}

function clearErrors() {
  document.querySelectorAll("#panel .field-error[data-shell]").forEach((e) => e.remove());
  document.querySelectorAll('#panel [aria-invalid="true"]').forEach((e) => {
    e.removeAttribute("aria-invalid");
  });
  const banner = document.getElementById("table-error");
  banner.hidden = true;
  banner.textContent = "";
}

function showError(field, message) {
  const target = fieldElement(field);
  if (!target) {
    const banner = document.getElementById("table-error");
    banner.textContent = message;
    banner.hidden = false;
    banner.scrollIntoView({ block: "nearest" });
    return;
  }
  target.setAttribute("aria-invalid", "true");
  const note = el("p", "field-error", message);
  note.setAttribute("data-shell", "");
  note.setAttribute("role", "alert");
  const anchor = target.closest("[data-error-after]") || target;
  anchor.insertAdjacentElement("afterend", note);
  if (target.focus) target.focus({ preventScroll: true });
  note.scrollIntoView({ block: "nearest" });
}

async function send(method, path, body) {
  clearErrors();
  let resp;
  try {
    // no second try: the companions keep no Idempotency-Key, so a repeat could add it twice
    resp = await request(data.base + path, { method, body, retry: false });
  } catch (netErr) {
    showError(null, data.text.network);
    throw netErr;
  }
  const json = await resp.json().catch(() => ({ error: resp.statusText }));
  if (!resp.ok) {
    showError(json.field, json.error || resp.statusText);
    const err = new Error(json.error);
    err.field = json.field; err.entryId = json.entry_id; err.status = resp.status;
    throw err;
  }
  deliver(json);
  return json;
}

// A stream that ends (each runs a set time) is back within a second: only a phone still
// offline after AWAY_MS pins "Reconnecting…" over the page (class "away"), not every blink.
const AWAY_MS = 3000;
let awayTimer = null;
function setLive(state, away = false) {
  const box = document.getElementById("live");
  box.dataset.state = state;
  box.querySelector(".text").textContent = state === "live" ? data.text.live : data.text.offline;
  if (state === "live") {
    clearTimeout(awayTimer);
    awayTimer = null;
    box.classList.remove("away");
  } else if (away) {
    box.classList.add("away");
  } else if (awayTimer === null && !box.classList.contains("away")) {
    awayTimer = setTimeout(() => { awayTimer = null; box.classList.add("away"); }, AWAY_MS);
  }
}

// "play again": the players moved on to a new table; every phone offers to follow
function showNext(code) {
  Table.next = code;
  document.getElementById("next-link").href = data.base.replace(/[^/]+$/, code);
  document.getElementById("next-table").hidden = false;
  document.getElementById("rematch").hidden = true;
}

export const Table = {
  code: data.code,
  game: data.game,
  players: data.players,
  members: data.members,
  settings: data.settings,
  lang: data.lang,
  view: data.view,
  history: data.history,
  /* who is holding this phone (optional; remembered per table) */
  get me() { return localStorage.getItem(`companions:me:${data.code}`); },
  set me(name) {
    if (name) localStorage.setItem(`companions:me:${data.code}`, name);
    else localStorage.removeItem(`companions:me:${data.code}`);
  },
  post(entry) {
    const body = { ...entry };
    if (body.player === undefined && Table.me) body.player = Table.me;
    return send("POST", "/entries", body);
  },
  undo: (id) => send("POST", `/entries/${id}/undo`),
  restore: (id) => send("POST", `/entries/${id}/restore`),
  correct: (id, entry) => send("PUT", `/entries/${id}`, entry),
  onView(cb) { viewCallbacks.push(cb); cb(Table.view, Table); },
  onHistory(cb) { historyCallbacks.push(cb); cb(Table.history, Table); },
  showError,
  clearErrors,
  next: data.next || null,
  lastActive() {
    for (let i = Table.history.length - 1; i >= 0; i--) {
      if (!Table.history[i].undone) return Table.history[i];
    }
    return null;
  },
};

const rematch = document.getElementById("rematch");
rematch.addEventListener("click", async () => {
  rematch.disabled = true;
  try {
    const r = await request(`${data.base}/rematch`, { retry: false });
    window.location.href = (await r.json()).url;
  } catch (e) {
    rematch.disabled = false;
    showError(null, data.text.network);
  }
});

// the shell's own widgets: winner banner, "play again" and "undo last"
Table.onView((view) => {
  rematch.hidden = !view.finished || !!Table.next;
  const winner = document.getElementById("winner");
  if (view.finished && view.winner) {
    winner.textContent = fill(data.text.wins, { name: view.winner });
    winner.hidden = false;
  } else {
    winner.hidden = true;
  }
});
const undoLast = document.getElementById("undo-last");
if (undoLast) {
  Table.onHistory(() => { undoLast.disabled = !Table.lastActive(); });
  undoLast.addEventListener("click", () => {
    const last = Table.lastActive();
    if (last && window.confirm(data.text.confirm_undo)) Table.undo(last.id).catch(() => {});
  });
}
// undone entries stay in the history: offer to put back each one undone since the last entry
// that stands (one made again after it, e.g. game 3 entered anew, is no longer offered)
Table.onHistory((history) => {
  const box = document.getElementById("undone-list");
  if (!box) return;
  box.textContent = "";
  let since = 0;
  history.forEach((item, idx) => { if (!item.undone) since = idx + 1; });
  history.forEach((item, idx) => {
    if (!item.undone || idx < since) return;
    const row = el("div", "undone-row");
    const button = el("button", "ghost", data.text.restore);
    button.type = "button";
    button.addEventListener("click", () => { Table.restore(item.id).catch(() => {}); });
    row.append(el("span", "undone", fill(data.text.undone, { n: idx + 1 })), button);
    box.appendChild(row);
  });
});

// remember this table on the phone, for the "your tables" list on the start page
try {
  const recent = JSON.parse(localStorage.getItem("companions:recent") || "[]")
    .filter((t) => t.code !== data.code);
  recent.unshift({ code: data.code, shown: data.shown_code, title: data.title,
                   players: data.players.join(", ") });
  localStorage.setItem("companions:recent", JSON.stringify(recent.slice(0, 6)));
} catch (e) { /* private mode: nothing to remember */ }

// the table's live stream: every (re)connect starts with the table's history and view
follow(`${data.base}/events`, {
  history: (history, name, ev) => deliver({ history, version: Number(ev.lastEventId) }),
  view: (view, name, ev) => deliver({ view, version: Number(ev.lastEventId) }),
  next: (next) => showNext(next.code),
}, {
  onUp: () => setLive("live"),
  onDown: () => setLive("offline"),
});
// the phone knows it lost the network before the stream does: say so at once (the page keeps
// the last scores; the stream catches up when it is back)
window.addEventListener("offline", () => setLive("offline", true));
