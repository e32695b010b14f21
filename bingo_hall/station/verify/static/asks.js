// The requests for a check that players sent from their card's page: listed on
// the caller page with the card's verdict (GET /api/games/<id>/asks), again on every `ask` event,
// snapshot and new round. A request is not a claim: "Look" shows the card here only (a GET, like
// the claims list's lines); the Maestro then checks it for the room or records the BINGO.
//
// What needs the Maestro goes at the top of the page too (#attention, in caller/game.html), and
// into the tab's title ("(1) ⚑ …"), however far down the list is: each request still open (not
// yet looked at: opened, dismissed, or its card checked or claimed) and each valid claim waiting
// for its award (claims.js and prizes.js send them in `bingo:waiting`). It stays until then.
import { post } from "/web/static/api.js";
import { el, fill, replaceKeepingFocus } from "/web/static/dom.js";
import { Station } from "/static/station.js";
import { claimsPanel } from "./panel.js";

const box = document.getElementById("asks");
if (box) asksList(box);

function asksList(box) {
  const gid = box.dataset.game;
  const T = JSON.parse(document.getElementById("asks-strings").textContent);
  const list = document.getElementById("ask-list");
  const notice = document.getElementById("attention");
  const title = document.title;
  const { showCard, say } = claimsPanel(gid);
  let asked = 0;
  let open = [];     // the requests not yet looked at
  let waiting = [];  // the valid claims waiting for their award: {serial, text}

  function words(a) {
    let text = `${fill(T.asked, { n: a.serial })} · `;
    const tail = ` · ${fill(T.at_call, { n: a.at_call })}` + (a.times > 1 ? ` · ${fill(T.times, { n: a.times })}` : "");
    return [text, a.valid ? T.bingo : T.no_bingo, tail];
  }

  async function seen(serial) {
    const resp = await post(`/api/games/${gid}/asks/${encodeURIComponent(serial)}/seen`, {});
    if (resp.ok) show(resp.data.asks);
  }

  // the card opened in the claims panel, scrolled to where the Maestro can read it
  function look(serial) {
    document.getElementById("claim-serial").value = serial;
    showCard(serial, true)
      .then(() => document.getElementById("claim-result").scrollIntoView({ block: "nearest" }))
      .catch((e) => say(e.message, true));
    seen(serial).catch(() => {});
  }

  function button(text, cls, action) {
    const b = el("button", cls, text);
    b.type = "button";
    b.addEventListener("click", action);
    return b;
  }

  function item(a) {
    const li = el("li", (a.valid ? "valid" : "false") + (a.seen ? " seen" : ""));
    li.dataset.serial = a.serial;
    li.dataset.key = String(a.serial) + (a.seen ? `:${a.at_call}` : "");  // one open per card
    const [head, verdict, tail] = words(a);
    li.append(head);
    li.appendChild(el("b", "", verdict));
    li.append(`${tail} `);
    li.appendChild(button(fill(T.look, { n: a.serial }), "button", () => look(a.serial)));
    return li;
  }

  function noticeItem(a) {
    const li = el("li", a.valid ? "valid" : "false");
    li.dataset.key = `ask:${a.serial}`;
    const [head, verdict, tail] = words(a);
    li.append(`⚑ ${head}`);
    li.appendChild(el("b", "", verdict));
    li.append(`${tail} `);
    const tools = el("span", "attention-tools");
    tools.appendChild(button(fill(T.open, { n: a.serial }), "button primary", () => look(a.serial)));
    tools.appendChild(button(T.dismiss, "button", () => seen(a.serial).catch(() => {})));
    li.appendChild(tools);
    return li;
  }

  function claimItem(c) {
    const li = el("li", "valid");
    li.dataset.key = `claim:${c.serial}`;
    li.append(`⚑ ${c.text.charAt(0).toUpperCase()}${c.text.slice(1)} `);  // "ticket 7 …" opens the line
    li.appendChild(button(T.to_award, "button primary", () => {
      const award = document.getElementById("award");
      award.scrollIntoView({ block: "center" });
      award.focus();
    }));
    return li;
  }

  function renderNotice() {
    const n = open.length + waiting.length;
    document.title = n ? `${fill(T.title, { n: n })} · ${title}` : title;
    if (!notice) return;
    notice.hidden = !n;
    replaceKeepingFocus(document.getElementById("attention-list"), [...open.map(noticeItem), ...waiting.map(claimItem)]);
    notice.dataset.count = String(n);
  }

  // A prize awarded on call N answers the requests made up to it: they leave the list (a
  // phone's request stayed listed after the round's prize was won).
  let decidedAt = 0;
  let last = [];
  function decided(awards) {
    decidedAt = Math.max(0, ...(awards || []).map((a) => a.at_call || 0));
    show(last);
  }

  function show(all) {
    last = all;
    const asks = all.filter((a) => a.at_call > decidedAt);
    box.hidden = !asks.length;
    replaceKeepingFocus(list, asks.map(item));  // a "Look" the keyboard is on keeps the focus
    box.dataset.count = String(asks.length);
    open = asks.filter((a) => !a.seen);
    renderNotice();
  }

  async function refresh() {
    const mine = ++asked;
    const resp = await fetch(`/api/games/${gid}/asks`, { headers: { Accept: "application/json" } });
    if (!resp.ok || mine !== asked) return;
    show((await resp.json()).asks);
  }
  const again = () => { refresh().catch(() => {}); };
  Station.listen("ask", again);
  const state = Station.state || {};
  let round = state.round;
  Station.listen("round", (data) => {
    if (data.round !== round) { round = data.round; decidedAt = 0; }
    again();
  });
  // 90 balls: each prize awarded, on its call; 75 balls: the round's award decides it all
  Station.listen("prize", (data) => decided(data.awarded));
  Station.listen("scores", (data) => {
    if ((data.awards || []).some((a) => a.round === round)) { decidedAt = Infinity; show(last); }
  });
  if (state.prizes) decidedAt = Math.max(0, ...state.prizes.awarded.map((a) => a.at_call || 0));
  if (state.scores && (state.scores.awards || []).some((a) => a.round === round)) decidedAt = Infinity;
  Station.listen("snapshot", again);
  document.addEventListener("bingo:waiting", (ev) => { waiting = ev.detail; renderNotice(); });
  again();
}
