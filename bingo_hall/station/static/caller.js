// The Maestro's page: Draw (space bar), manual entry, undo, rounds and end, all through the JSON
// API (api.js: the session's CSRF token, an Idempotency-Key, one retry). Every change request
// carries expect_seq too, so a double click or a second tab never draws two balls.
import { post as send } from "/web/static/api.js";
import { Station as S } from "./station.js";

const msg = document.getElementById("message");
const drawBtn = document.getElementById("draw");
let busy = false;

function say(text) { msg.textContent = text || ""; msg.hidden = !text; }

async function post(path, body) {
  let res;
  try {
    res = await send(`/api/games/${S.gameId}/${path}`, body || {});
  } catch (e) {
    say(S.strings.offline); // no answer, twice (api.js retried with the same key)
    return null;
  }
  const data = res.data;
  if (!res.ok) {
    say(data.error);
    if (res.status === 409) refresh();
    return null;
  }
  say("");
  return data;
}

// The game's snapshot, asked for again after an award, a prize or a round (what the snapshot
// says of them, such as whether a ball may be drawn, comes in no event). Events keep coming while
// it is on its way, and a change published after the snapshot was read (the automatic draw
// pausing once the round is won, a call) would be undone by it: those events are applied again
// over it. Only the newest of several snapshots asked for at once is applied.
let asked = 0;
let meanwhile = null; // the events received while a snapshot is on its way
for (const kind of ["call", "undo", "round", "end", "autodraw"]) {
  S.listen(kind, (data) => { if (meanwhile) meanwhile.push([kind, data]); });
}

async function refresh() {
  const mine = ++asked;
  if (!meanwhile) meanwhile = [];
  let snap = null;
  try {
    const res = await fetch(`/api/games/${S.gameId}`);
    if (res.ok) snap = await res.json();
  } catch (e) { /* no answer: the next event or snapshot brings the page up to date */ }
  if (mine !== asked) return; // a newer one is on its way
  const came = meanwhile;
  meanwhile = null;
  if (!snap) return;
  for (const [kind, data] of came) if (kind === "autodraw") snap.autodraw = data;
  S.apply("snapshot", snap);
  for (const [kind, data] of came) if (kind !== "autodraw") S.apply(kind, data);
}

async function once(fn) {
  if (busy) return;
  busy = true;
  if (drawBtn) drawBtn.disabled = true;
  try { await fn(); } finally { busy = false; updateButtons(); }
}

function draw() {
  return once(async () => {
    const data = await post("draw", { expect_seq: S.state.last_seq });
    if (data) S.apply("call", data);
  });
}

function enter(ball) {
  return once(async () => {
    const data = await post("calls", { ball: ball, expect_seq: S.state.last_seq });
    if (data) S.apply("call", data);
  });
}

function updateButtons() {
  const s = S.state;
  const open = s.status === "active";
  if (drawBtn) drawBtn.disabled = busy || !open || s.left === 0;
  // dim when the station would refuse a ball (the round won, until Next round); still pressable,
  // so a press says why
  if (drawBtn) drawBtn.dataset.refused = s.draw_open === false ? "yes" : "no";
  document.querySelectorAll("#undo button, #next-round, #end-game, #manual button").forEach((b) => { b.disabled = !open; });
  const title = document.querySelector("#last-call");
  title.textContent = s.last ? s.last.call : "–";
}
S.onChange(updateButtons);
// an award (the board's event) or a new round changes whether a ball may be drawn: the
// snapshot says so again
for (const kind of ["scores", "prize", "round"]) S.listen(kind, () => refresh());

if (drawBtn) drawBtn.addEventListener("click", draw);
document.addEventListener("keydown", (ev) => {
  if (ev.code !== "Space" || ev.repeat || !drawBtn) return;
  const t = ev.target;
  if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.tagName === "BUTTON")) return;
  ev.preventDefault();
  // with the automatic draw on, Space pauses and resumes it (autodraw.js) instead of drawing
  if (S.autoDrawToggle && S.state.autodraw && S.state.autodraw.state !== "off") S.autoDrawToggle();
  else draw();
});

const manual = document.getElementById("manual");
if (manual) {
  manual.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = document.getElementById("manual-ball");
    const ball = Number(input.value);
    enter(ball).then(() => { input.value = ""; input.focus(); });
  });
  document.querySelectorAll(".tabla button.ball").forEach((b) => {
    b.addEventListener("click", () => {
      // the cage's box put away (a linked game following the organiser): no ball by hand
      if (b.classList.contains("called") || manual.hidden) return;
      enter(Number(b.dataset.ball));
    });
  });
}

document.getElementById("undo").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const reason = document.getElementById("undo-reason");
  if (!reason.value.trim()) { say(S.strings.need_reason); return; }
  const last = S.state.last;
  if (!last) return;
  const data = await post("undo", { reason: reason.value, seq: last.seq });
  if (data) {
    S.apply("undo", data);
    reason.value = "";
    say(S.strings.undone.replace("{call}", data.call));
  }
});

const pi = document.getElementById("public-input");
if (pi) pi.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const data = await post("public-input", { public_input: document.getElementById("public-input-text").value });
  if (data) S.apply("round", data);
});

document.getElementById("next-round").addEventListener("click", async () => {
  if (!confirm(S.strings.confirm_round)) return;
  const data = await post("rounds", {});
  if (data) S.apply("round", data);
});

document.getElementById("end-game").addEventListener("click", async () => {
  if (!confirm(S.strings.confirm_end)) return;
  const data = await post("end", {});
  if (data) S.apply("end", data);
});

// After a click with the mouse or a finger, give the keyboard back to the page so the space bar
// draws again instead of pressing the last button a second time. A button pressed from the
// keyboard (a click whose `detail` is 0) keeps the focus: the caller page works with the
// keyboard alone.
document.querySelectorAll("#station button").forEach((b) => {
  if (b.id !== "draw") b.addEventListener("click", (ev) => { if (ev.detail > 0) setTimeout(() => b.blur(), 0); });
});

updateButtons();
S.render();
