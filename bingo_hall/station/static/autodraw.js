// Hands-free calling on the caller page: start the station's automatic draw (a ball every N
// seconds), pause and resume it (the button or Space, through caller.js), stop it. The ticker
// runs in the station; this page shows its state from the snapshot and the `autodraw` events.
import { post } from "/web/static/api.js";
import { $, el, fill } from "/web/static/dom.js";
import { Station as S } from "./station.js";

function autodraw(root) {
  const T = JSON.parse(document.getElementById("autodraw-strings").textContent);
  const msg = $("message");
  let nextAt = null; // this page's clock: when the next ball is due
  let timer = null;

  async function send(body) {
    const res = await post(`/api/games/${S.gameId}/autodraw`, body);
    const data = res.data;
    if (!res.ok) { msg.textContent = data.error; msg.hidden = false; return; }
    msg.hidden = true;
    update(data);
  }

  function update(a) {
    S.state.autodraw = a;
    nextAt = a.state === "running" && a.next_in !== null ? Date.now() + a.next_in * 1000 : null;
    render();
  }

  function render() {
    const a = S.state.autodraw || { state: "off" };
    root.dataset.state = a.state;
    const on = a.state !== "off" && S.state.status === "active";
    $("autodraw-start").hidden = on;
    root.querySelector(".autodraw-buttons").hidden = !on;
    const status = $("autodraw-status");
    status.hidden = !on;
    if (a.state === "running") {
      let text = fill(T.running, { n: a.every });
      if (nextAt !== null) text += " · " + fill(T.next_in, { s: Math.max(0, Math.ceil((nextAt - Date.now()) / 1000)) });
      status.textContent = text;
      $("autodraw-toggle").textContent = T.pause;
    } else if (a.state === "paused") {
      status.textContent = T.reasons[a.reason] || a.reason;
      $("autodraw-toggle").textContent = T.resume;
    }
    $("autodraw-toggle").append(" ", el("kbd", null, T.space));
    clearTimeout(timer);
    if (a.state === "running" && nextAt !== null) timer = setTimeout(render, 250);
  }

  S.autoDrawToggle = function () {
    const a = S.state.autodraw || { state: "off" };
    if (a.state === "running") send({ action: "pause" });
    else if (a.state === "paused") send({ action: "resume" });
  };

  $("autodraw-start").addEventListener("submit", (ev) => {
    ev.preventDefault();
    send({ action: "start", every: Number($("autodraw-every").value) });
  });
  $("autodraw-toggle").addEventListener("click", (ev) => {
    S.autoDrawToggle();
    if (ev.detail > 0) setTimeout(() => $("autodraw-toggle").blur(), 0); // a mouse's click only
  });
  $("autodraw-stop").addEventListener("click", () => send({ action: "stop" }));

  S.onChange((kind, data, state) => {
    if (kind === "snapshot" && state) update(state.autodraw || { state: "off" });
    else if (kind === "call" && state.autodraw && state.autodraw.state === "running") {
      nextAt = Date.now() + state.autodraw.every * 1000; // a ball came: a full interval again
      render();
    } else if (kind === "end") render();
  });
  S.listen("autodraw", update);
  update(S.state.autodraw || { state: "off" });
}

const root = document.getElementById("autodraw");
if (root) autodraw(root);
