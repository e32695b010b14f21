/* Clue notebook panel: draws the view (grid, why-chains, odds, advice, events) and posts entries
   through Table (the companions shell's module). All reasoning happens on the server. */
import { $, fill } from "/web/static/dom.js";
import { node } from "/web/static/ui.js";
import { Table } from "../shell.js";

const T = JSON.parse(document.getElementById("cl-text").textContent);
const form = $("cl-add"), setupForm = $("cl-setup");
let view = null, tab = "suggestion", editing = null, picked = null, chosenCards = [], seating = [];
let shower = "", shownCard = "", drawnSetup = null;
const ENV = "envelope";

function label(id) {
  const c = view.cards.find((x) => x.id === id);
  return c ? (Table.lang === "es" ? c.es : c.en) : id;
}
function place(p) { return p === ENV ? T.envelope : p; }
function me() { return view.setup && view.setup.me; }
function pct(p) {
  const v = p * 100;
  if (v > 0 && v < 1) return "<1";
  if (v < 100 && v > 99) return ">99";
  return String(Math.round(v));
}

/* ---- setup ---------------------------------------------------------------------------- */
function choice(box, value, text, on, handler) {
  const b = node("button", {type: "button", "aria-pressed": on ? "true" : "false", "data-value": value}, text);
  b.addEventListener("click", handler);
  box.appendChild(b);
  return b;
}
function drawSeating() {
  const box = $("cl-seating");
  box.textContent = "";
  seating.forEach((p, i) => {
    const li = node("li");
    li.appendChild(node("span", {}, `${i + 1}. ${p}`));
    if (i > 0) {
      const up = node("button", {type: "button", class: "ghost", "aria-label": fill(T.move_up, {name: p})}, "↑");
      up.addEventListener("click", () => {
        seating.splice(i - 1, 0, seating.splice(i, 1)[0]);
        drawSeating();
        drawSizes(null);
      });
      li.appendChild(up);
    }
    box.appendChild(li);
  });
}
function drawSizes(sizes) {
  const sizeBox = $("cl-sizes");
  if (!sizes) sizes = view.default_sizes;  // a new order: deal again from the first seat
  sizeBox.textContent = "";
  seating.forEach((p, i) => {
    const wrap = node("label", {class: "cl-size"});
    wrap.appendChild(node("span", {}, p));
    const input = node("input", {type: "number", inputmode: "numeric", min: "0", max: "15", name: "size", value: sizes[i]});
    input.addEventListener("input", countCards);
    wrap.appendChild(input);
    sizeBox.appendChild(wrap);
  });
  countCards();
}
function drawSetup(values) {
  const who = values.me;
  seating = (values.seating || view.players).slice();
  drawSeating();
  const meBox = $("cl-me");
  meBox.textContent = "";
  view.players.forEach((p) => {
    choice(meBox, p, p, p === who, () => {
      meBox.querySelectorAll("button").forEach((b) => { b.setAttribute("aria-pressed", b.dataset.value === p); });
      setupForm.dataset.me = p;
      countCards();
    });
  });
  setupForm.dataset.me = who || "";
  chosenCards = (values.cards || []).slice();
  const cardsBox = $("cl-mycards");
  cardsBox.textContent = "";
  ["suspect", "weapon", "room"].forEach((cat) => {
    const group = node("div", {class: "cl-choices cl-cardset"});
    cardsBox.appendChild(node("p", {class: "small"}, T[`${cat}s`]));
    view.cards.filter((c) => c.category === cat).forEach((c) => {
      const b = choice(group, c.id, label(c.id), chosenCards.includes(c.id), () => {
        const i = chosenCards.indexOf(c.id);
        if (i >= 0) chosenCards.splice(i, 1); else chosenCards.push(c.id);
        b.setAttribute("aria-pressed", i < 0);
        countCards();
      });
    });
    cardsBox.appendChild(group);
  });
  drawSizes(values.hand_sizes);
}
function setupSizes() {
  return Array.from(setupForm.querySelectorAll("input[name=size]"), (i) => Number(i.value));
}
function countCards() {
  const who = setupForm.dataset.me, sizes = setupSizes();
  // until the player says who they are, their hand size is unknown: count the cards alone
  const text = who ? fill(T.chosen, {n: chosenCards.length, m: sizes[seating.indexOf(who)]})
                   : fill(T.picked, {n: chosenCards.length});
  $("cl-count").textContent = `· ${text}`;
}
setupForm.addEventListener("submit", (ev) => {
  ev.preventDefault();
  const entry = {type: "setup", seating: seating.slice(), me: setupForm.dataset.me, cards: chosenCards.slice(),
               hand_sizes: setupSizes()};
  const done = view.setup ? Table.correct(view.setup.id, entry) : Table.post(entry);
  done.then(() => {
    setupForm.dataset.editing = "";
    draw(Table.view);
    // the long setup form is gone: start at the top of the notes, not where the button was
    window.scrollTo(0, 0);
  }).catch(() => {});
});
$("cl-edit-setup").addEventListener("click", () => {
  setupForm.dataset.editing = "1";
  draw(view);
  setupForm.scrollIntoView({block: "start"});
});
$("cl-setup-cancel").addEventListener("click", () => { setupForm.dataset.editing = ""; draw(view); });

/* ---- envelope, grid, why ------------------------------------------------------------- */
function drawEnvelope() {
  const box = $("cl-env");
  box.textContent = "";
  ["suspect", "weapon", "room"].forEach((cat) => {
    const known = view.envelope[cat], cell = node("div", {class: `cl-env-box${known ? " solved" : ""}`});
    cell.appendChild(node("small", {}, T[cat]));
    if (known) cell.appendChild(node("b", {}, `✓ ${label(known)}`));
    else {
      const best = view.likely[cat];
      if (best.card) {
        cell.appendChild(node("b", {}, label(best.card)));
        cell.appendChild(node("small", {}, fill(T.likely, {p: pct(best.p)})));
      } else {
        cell.appendChild(node("b", {class: "cl-tied"}, fill(T.tied, {n: best.tied.length, p: pct(best.p)})));
        cell.appendChild(node("small", {}, best.tied.map(label).join(" · ")));
      }
    }
    box.appendChild(cell);
  });
  if (view.solved) box.appendChild(node("p", {class: "cl-solved"}, T.solved));
  $("cl-deals").textContent = view.deals === "1" ? T.deal_one
    : fill(T.deals, {n: Number(view.deals).toLocaleString(Table.lang)});
}
function drawGrid() {
  const grid = $("cl-grid"), places = view.players.concat([ENV]);
  grid.textContent = "";
  const head = node("tr");
  head.appendChild(node("th", {scope: "col"}));
  places.forEach((p) => {
    const th = node("th", {scope: "col", title: place(p), class: p === me() ? "me" : ""}, p === ENV ? "✉" : p);  // whole names: the grid scrolls in its box where they do not fit
    head.appendChild(th);
  });
  const thead = grid.appendChild(node("thead"));
  thead.appendChild(head);
  // how much of each hand is known: the hand-size argument at a glance
  const counts = node("tr", {class: "cl-counts", title: T.known_of_hand});
  counts.appendChild(node("th", {scope: "row", class: "small"}, T.known_of_hand));
  places.forEach((p, i) => {
    const has = view.cards.filter((c) => view.grid[c.id][p] === "has").length;
    const size = p === ENV ? 3 : view.setup.hand_sizes[i];
    counts.appendChild(node("th", {class: has === size ? "full" : ""}, `${has}/${size}`));
  });
  thead.appendChild(counts);
  const body = grid.appendChild(node("tbody"));
  ["suspect", "weapon", "room"].forEach((cat) => {
    const sep = node("tr", {class: "cl-cat"});
    sep.appendChild(node("th", {colspan: places.length + 1, scope: "rowgroup"}, T[`${cat}s`]));
    body.appendChild(sep);
    view.cards.filter((c) => c.category === cat).forEach((c) => {
      const row = node("tr", {class: view.grid[c.id][ENV] === "has" ? "cl-answer" : ""});
      row.appendChild(node("th", {scope: "row"}, label(c.id)));
      places.forEach((p) => {
        const state = view.grid[c.id][p];
        const text = state === "has" ? "✓" : state === "lacks" ? "✗" : pct(view.odds[c.id][p]);
        const td = node("td", {class: `cl-${state}${p === me() ? " me" : ""}`, "data-card": c.id,
                           "data-place": p, tabindex: "0", role: "button"}, text);
        if (picked && picked.card === c.id && picked.place === p) td.classList.add("picked");
        row.appendChild(td);
      });
      body.appendChild(row);
    });
  });
}
function pick(td) {
  picked = {card: td.dataset.card, place: td.dataset.place};
  drawGrid();
  drawWhy();
  const again = $("cl-grid").querySelector(`td[data-card="${picked.card}"][data-place="${CSS.escape(picked.place)}"]`);
  if (again && document.activeElement === document.body) again.focus({preventScroll: true});
}
$("cl-grid").addEventListener("click", (ev) => {
  const td = ev.target.closest("td[data-card]");
  if (td) pick(td);
});
$("cl-grid").addEventListener("keydown", (ev) => {
  const td = ev.target.closest("td[data-card]");
  if (td && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); pick(td); }
});
function eventText(e) {
  const cards = [e.suspect, e.weapon, e.room].map(label).join(", ");
  if (e.type === "suggestion") {
    const parts = [fill(T.ev_suggestion, {who: e.suggester, cards})];
    if (e.passed.length && e.shown_by) parts.push(fill(T.passed, {names: e.passed.join(", ")}));
    if (!e.shown_by) parts.push(T.ev_nobody);
    else if (e.card) parts.push(fill(T.ev_showed_card, {who: e.shown_by, card: label(e.card)}));
    else parts.push(fill(T.ev_showed, {who: e.shown_by}));
    return parts.join(" · ");
  }
  if (e.type === "accusation") return fill(T.ev_accusation, {who: e.player, cards});
  if (e.holder === ENV) return fill(T.ev_seen_env, {card: label(e.card)});
  return fill(T.ev_seen, {card: label(e.card), place: e.holder});
}
function drawWhy() {
  const box = $("cl-why");
  if (!picked || !view.grid) { box.hidden = true; return; }
  const state = view.grid[picked.card][picked.place], card = label(picked.card);
  box.textContent = "";
  const env = picked.place === ENV;
  if (state === "unknown") {
    box.appendChild(node("p", {}, fill(T.chance, {p: pct(view.odds[picked.card][picked.place]), card})));
  } else {
    const key = (env ? "env_" : "") + (state === "has" ? "has" : "lacks");
    box.appendChild(node("p", {class: "cl-why-fact"}, fill(T[key], {place: place(picked.place), card})));
    const chain = view.why[picked.card][picked.place] || [];
    if (!chain.length) box.appendChild(node("p", {class: "small"}, T.from_setup));
    else {
      box.appendChild(node("p", {class: "small"}, T.because));
      const list = node("ol", {class: "cl-chain"});
      chain.forEach((n) => {
        const li = node("li", {value: n}, eventText(view.events[n - 1]));
        list.appendChild(li);
      });
      box.appendChild(list);
    }
  }
  box.hidden = false;
}

/* ---- the event form ------------------------------------------------------------------ */
function fillSelect(sel, items, value) {
  const keep = value != null ? value : sel.value;
  sel.textContent = "";
  items.forEach((it) => { sel.appendChild(node("option", {value: it[0]}, it[1])); });
  if (items.some((it) => it[0] === keep)) sel.value = keep;
}
function cardItems(cat) {
  return view.cards.filter((c) => c.category === cat).map((c) => [c.id, label(c.id)]);
}
function playerItems(extra) {
  return view.players.map((p) => [p, p === me() ? `${p} (${T.you})` : p]).concat(extra || []);
}
function leftOf(p) {
  const i = view.players.indexOf(p);
  return view.players.slice(i + 1).concat(view.players.slice(0, i));
}
function drawForm() {
  form.querySelectorAll("[role=tab]").forEach((b) => { b.setAttribute("aria-selected", b.dataset.tab === tab); });
  form.querySelectorAll("[data-pane]").forEach((p) => { p.hidden = p.dataset.pane !== tab; });
  const sel = form.elements;
  fillSelect(sel.suggester, playerItems());
  ["suspect", "weapon", "room"].forEach((cat) => {
    fillSelect(sel[cat], cardItems(cat));
    fillSelect(sel[`acc_${cat}`], cardItems(cat));
  });
  fillSelect(sel.player, playerItems());
  fillSelect(sel.holder, playerItems([[ENV, T.envelope]]));
  fillSelect(sel.seen_card, view.cards.map((c) => [c.id, label(c.id)]));
  drawRefutation();
  $("cl-editing").hidden = !editing;
  if (editing) $("cl-editing").textContent = fill(T.editing, {n: editing.n});
  $("cl-cancel").hidden = !editing;
  $("cl-save").textContent = editing ? T.save_edit : T.add;
}
function drawRefutation() {
  const sel = form.elements, who = sel.suggester.value, order = leftOf(who);
  if (shower && !order.includes(shower)) shower = "";
  const box = $("cl-shower");
  box.textContent = "";
  [""].concat(order).forEach((p) => {
    choice(box, p, p ? p : T.nobody, p === shower, () => { shower = p; shownCard = ""; drawRefutation(); });
  });
  const passed = shower ? order.slice(0, order.indexOf(shower)) : order;
  $("cl-passed").textContent = !shower ? fill(T.all_passed, {name: who})
    : passed.length ? fill(T.passed, {names: passed.join(", ")}) : T.none_passed;
  const seesCard = shower && (who === me() || shower === me());
  $("cl-card-box").hidden = !seesCard;
  const cards = $("cl-card");
  cards.textContent = "";
  if (seesCard) {
    [sel.suspect.value, sel.weapon.value, sel.room.value].forEach((c) => {
      choice(cards, c, label(c), c === shownCard, () => { shownCard = c; drawRefutation(); });
    });
  }
}
form.addEventListener("change", (ev) => {
  if (["suggester", "suspect", "weapon", "room"].includes(ev.target.name)) {
    if (ev.target.name !== "suggester" && shownCard && shownCard !== form.elements[ev.target.name].value) {
      const three = [form.elements.suspect.value, form.elements.weapon.value, form.elements.room.value];
      if (!three.includes(shownCard)) shownCard = "";
    }
    drawRefutation();
  }
});
form.querySelectorAll("[role=tab]").forEach((b) => {
  b.addEventListener("click", () => { tab = b.dataset.tab; drawForm(); });
});
function entryFromForm() {
  const s = form.elements;
  if (tab === "suggestion") {
    return {type: "suggestion", suggester: s.suggester.value, suspect: s.suspect.value, weapon: s.weapon.value,
            room: s.room.value, shown_by: shower || null, card: shownCard || null};
  }
  if (tab === "accusation") {
    return {type: "accusation", player: s.player.value, suspect: s.acc_suspect.value,
            weapon: s.acc_weapon.value, room: s.acc_room.value};
  }
  return {type: "seen", holder: s.holder.value, card: s.seen_card.value};
}
form.addEventListener("submit", (ev) => {
  ev.preventDefault();
  const entry = entryFromForm();
  if (entry.type === "suggestion" && entry.shown_by && entry.suggester === me() && !entry.card) {
    Table.clearErrors();
    Table.showError("card", T.pick_card);
    $("cl-card-box").hidden = false;
    return;
  }
  const done = editing ? Table.correct(editing.id, entry) : Table.post(entry);
  done.then(() => { editing = null; shower = ""; shownCard = ""; draw(Table.view); }).catch(() => {});
});
$("cl-cancel").addEventListener("click", () => { editing = null; shower = ""; shownCard = ""; drawForm(); });
function startEdit(e) {
  editing = e;
  tab = e.type;
  drawForm();
  const s = form.elements;
  if (e.type === "suggestion") {
    s.suggester.value = e.suggester; s.suspect.value = e.suspect; s.weapon.value = e.weapon; s.room.value = e.room;
    shower = e.shown_by || ""; shownCard = e.card || "";
  } else if (e.type === "accusation") {
    s.player.value = e.player; s.acc_suspect.value = e.suspect; s.acc_weapon.value = e.weapon; s.acc_room.value = e.room;
  } else {
    s.holder.value = e.holder; s.seen_card.value = e.card;
  }
  drawRefutation();
  form.scrollIntoView({block: "start"});
}

/* ---- advice and the event list ------------------------------------------------------- */
const roomSel = $("cl-in-room");
roomSel.addEventListener("change", drawAdvice);
function drawAdvice() {
  fillSelect(roomSel, [["", T.any_room]].concat(cardItems("room")));
  const list = $("cl-advice"), items = roomSel.value ? (view.advice_by_room[roomSel.value] || []) : view.advice;
  list.textContent = "";
  items.slice(0, 3).forEach((a) => {
    const li = node("li");
    li.appendChild(node("span", {}, [a.suspect, a.weapon, a.room].map(label).join(", ")));
    // Expected bits b, in players' words: the answer should leave about 1 in 2^b of the deals.
    const ruledOut = Math.round(100 * (1 - Math.pow(2, -a.bits)));
    li.appendChild(node("small", {class: "cl-rules-out"},
      ruledOut > 0 ? fill(T.rules_out, {p: ruledOut}) : T.rules_out_nothing));
    const use = node("button", {type: "button", class: "ghost"}, T.use);
    use.addEventListener("click", () => {
      editing = null; tab = "suggestion"; drawForm();
      const s = form.elements;
      s.suggester.value = me(); s.suspect.value = a.suspect; s.weapon.value = a.weapon; s.room.value = a.room;
      shower = ""; shownCard = ""; drawRefutation();
      form.scrollIntoView({block: "start"});
    });
    li.appendChild(use);
    list.appendChild(li);
  });
}
function drawEvents() {
  const list = $("cl-events");
  list.textContent = "";
  if (!view.events.length) list.appendChild(node("li", {class: "small cl-empty"}, T.no_events));
  view.events.forEach((e) => {
    const li = node("li", {value: e.n, "data-id": e.id});
    li.appendChild(node("span", {}, eventText(e)));
    const tools = node("span", {class: "cl-tools"});
    const edit = node("button", {type: "button", class: "ghost"}, T.edit);
    edit.addEventListener("click", () => { startEdit(e); });
    const undo = node("button", {type: "button", class: "ghost", "aria-label": `${T.undo} #${e.n}`}, "↶");
    undo.addEventListener("click", () => {
      if (window.confirm(fill(T.confirm_undo, {n: e.n}))) Table.undo(e.id).catch(() => {});
    });
    tools.appendChild(edit);
    tools.appendChild(undo);
    li.appendChild(tools);
    list.appendChild(li);
  });
}

function nextSuggester() {
  const last = view.events.filter((e) => e.type === "suggestion").pop();
  return last ? leftOf(last.suggester)[0] : me();
}

function draw(v) {
  const first = !view || !view.setup;
  view = v;
  const settingUp = !v.setup || setupForm.dataset.editing === "1";
  setupForm.hidden = !settingUp;
  $("cl-setup-cancel").hidden = !v.setup;
  $("cl-setup-save").textContent = v.setup ? T.save_setup : T.start_setup;
  $("cl-main").hidden = !v.setup;
  // redraw the setup form only when the stored setup changed, never under the user's fingers
  const setupKey = JSON.stringify([v.setup, v.players, settingUp]);
  if (settingUp && setupKey !== drawnSetup) {
    drawSetup(v.setup || {me: Table.me || "", cards: [], hand_sizes: v.default_sizes});
  }
  drawnSetup = setupKey;
  if (!v.setup) return;
  if (picked && !v.grid[picked.card]) picked = null;
  drawEnvelope();
  drawGrid();
  drawWhy();
  if (!editing) {
    drawForm();
    if (first) { form.elements.suggester.value = nextSuggester(); drawRefutation(); }
  }
  drawAdvice();
  drawEvents();
}
let lastVersion = null;
Table.onView((v) => {
  if (lastVersion === v) return;
  lastVersion = v;
  const wasSetup = view && view.setup, count = view ? view.events.length : 0;
  draw(v);
  if (!editing && wasSetup && v.events.length !== count) {
    form.elements.suggester.value = nextSuggester();
    drawRefutation();
  }
});
