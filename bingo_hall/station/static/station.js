// Shared by the caller and display pages (an ES module): the game state kept from the live
// events (SSE), and the parts of the page both show (Tabla Confrontadora, counts, recent calls,
// commitment). Other areas' partials import Station and listen to the stream with Station.listen.
import { el } from "/web/static/dom.js";
import { follow } from "/web/static/live.js";

const root = document.getElementById("station");
const snapEl = document.getElementById("snapshot");
const strings = JSON.parse(document.getElementById("strings").textContent);

export const Station = {
  state: JSON.parse(snapEl.textContent),
  strings: strings,
  listeners: [],
  onChange(fn) { this.listeners.push(fn); },
  gameId: root && root.dataset.game ? Number(root.dataset.game) : null,
};

function fire(kind, data) {
  for (const fn of Station.listeners) fn(kind, data, Station.state);
}

Station.apply = function (kind, data) {
  const s = Station.state;
  if (!s && kind !== "snapshot") return;
  if (kind === "snapshot") {
    Station.state = data;
    if (root) root.dataset.snapshots = String(Number(root.dataset.snapshots || 0) + 1); // tests wait on it
  } else if (kind === "call") {
    if (data.round !== s.round) return;
    if (s.calls.some((c) => c.seq === data.seq)) return; // already applied (own answer)
    s.calls.push({ seq: data.seq, ball: data.ball, call: data.call });
    s.calls.sort((a, b) => a.seq - b.seq);
    s.last = s.calls[s.calls.length - 1];
    s.spoken = data.spoken;
    s.last_seq = Math.max(s.last_seq, data.seq);
    s.count = s.calls.length;
    s.left = s.balls - s.count;
  } else if (kind === "undo") {
    if (data.round !== s.round) return;
    const before = s.calls.length;
    s.calls = s.calls.filter((c) => c.seq !== data.seq);
    if (s.calls.length === before) return;
    s.last = s.calls.length ? s.calls[s.calls.length - 1] : null;
    s.spoken = null;
    s.count = s.calls.length;
    s.left = s.balls - s.count;
    s.undone.push({ seq: data.seq, ball: data.ball, call: data.call, reason: data.reason });
  } else if (kind === "round") {
    if (data.round !== s.round) {
      s.round = data.round;
      s.calls = []; s.last = null; s.spoken = null; s.last_seq = 0;
      s.count = 0; s.left = s.balls; s.undone = [];
      if (data.previous) s.revealed.push(data.previous);
    }
    s.commitment = data.commitment;
    s.public_input = data.public_input || null;
  } else if (kind === "end") {
    s.status = "ended";
    s.revealed = data.rounds;
  } else {
    fire(kind, data);
    return;
  }
  Station.render();
  fire(kind, data);
};

Station.render = function () {
  const s = Station.state;
  if (!s) return;
  const called = new Set(s.calls.map((c) => c.ball));
  const last = s.last ? s.last.ball : null;
  document.querySelectorAll(".tabla .ball").forEach((el) => {
    const n = Number(el.dataset.ball);
    el.classList.toggle("called", called.has(n));
    el.classList.toggle("last", n === last);
  });
  const fields = {
    count: s.count, left: s.left, round: s.round, commitment: s.commitment,
    public_input: s.public_input || "—", "undone-count": s.undone.length,
  };
  for (const [k, v] of Object.entries(fields)) {
    document.querySelectorAll(`[data-field="${k}"]`).forEach((el) => { el.textContent = v; });
  }
  const recent = document.getElementById("recent");
  if (recent) {
    recent.innerHTML = "";
    s.calls.slice(-6, -1).reverse().forEach((c) => {
      const chip = document.createElement("span");
      chip.className = "chip l-" + c.call[0];
      chip.textContent = c.call;
      recent.appendChild(chip);
    });
    recent.parentElement.hidden = recent.children.length === 0;
  }
  document.querySelectorAll('[data-show="ended"]').forEach((el) => { el.hidden = s.status !== "ended"; });
  document.querySelectorAll('[data-show="no-calls"]').forEach((el) => { el.hidden = s.calls.length > 0 || s.status !== "active"; });
  document.querySelectorAll('[data-show="public-input"]').forEach((el) => { el.hidden = !s.public_input; });
  const log = document.getElementById("undone-log");
  if (log) {
    log.innerHTML = "";
    s.undone.forEach((u) => {
      const li = document.createElement("li");
      li.textContent = `${u.call} — ${u.reason}`;
      log.appendChild(li);
    });
  }
  const rev = document.getElementById("revealed");
  if (rev) {
    rev.innerHTML = "";
    s.revealed.forEach((r) => {
      const p = document.createElement("p");
      p.className = "mono small";
      p.textContent = strings.seed_of_round.replace("{n}", r.round) + ": " + r.seed;
      rev.appendChild(p);
    });
  }
};

// The last call large, as the big screen and a phone's /join show it: its letter ("N 31"; a
// 90-ball call is only its number), then its number, or "Ready" before the first ball; and its
// words in the page's language (#spoken).
export function showLastCall(big, spoken) {
  const s = Station.state;
  if (!s) return;
  big.textContent = "";
  if (s.last) {
    const c = s.last;
    if (c.call !== String(c.ball)) big.append(el("span", "letter l-" + c.call[0], c.call[0]));
    big.append(el("span", "number", String(c.ball)));
  } else {
    big.append(el("span", "waiting", strings.ready));
  }
  if (spoken) spoken.textContent = s.spoken ? s.spoken[strings.lang] : "";
}

// Listeners other areas' partials add with Station.listen(kind, fn): fn gets the event's data.
// live.js keeps them, so that a fresh stream (after the station refused or lost us) gets them too;
// those added before the stream opens are kept here until it does.
const early = [];
let live = null;

Station.listen = function (kind, fn) {
  if (live) live.listen(kind, fn);
  else early.push([kind, fn]);
};

// Follow the game's events (live.js opens the stream, and opens it again, with a growing random
// wait, after it dropped or the station refused it): #offline shows while the stream is down,
// and #station[data-live] says "yes" while it is open.
Station.connect = function () {
  if (Station.gameId === null || live) return live;
  const offline = document.getElementById("offline");
  const handlers = {};
  for (const kind of ["snapshot", "call", "undo", "round", "end"]) {
    handlers[kind] = (data) => Station.apply(kind, data);
  }
  live = follow(`/api/games/${Station.gameId}/events`, handlers, {
    onUp() { if (offline) offline.hidden = true; root.dataset.live = "yes"; },
    onDown() { if (offline) offline.hidden = false; root.dataset.live = "no"; },
  });
  for (const [kind, fn] of early.splice(0)) live.listen(kind, fn);
  return live;
};

// The stream opens once every script of the page has run (modules run before DOMContentLoaded),
// so no partial misses an event, and data-live="yes" tells that the page is ready for a click.
Station.render();
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => Station.connect());
else Station.connect();
