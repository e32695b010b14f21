/* Domino Bingo panel. Draws the engine's view (companions/domino_bingo.py `view`):
   values, kinds and totals all come from the server; this file only draws and posts entries. */
import { fill } from "/web/static/dom.js";
import { node } from "/web/static/ui.js";
import { Table } from "../shell.js";

const T = JSON.parse(document.getElementById("domino-text").textContent);
const SVG = "http://www.w3.org/2000/svg";
const PIPS = {  // pip centres on a 3×3 grid of one half (x, y in 0..2)
  0: [], 1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [2, 0], [0, 2], [2, 2]], 5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
  6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]],
};
const state = {hand: null, counter: null, selected: {}, chooser: null, withBingo: false};

function svg(tag, attrs) {
  const shape = document.createElementNS(SVG, tag);
  Object.keys(attrs).forEach((k) => { shape.setAttribute(k, attrs[k]); });
  return shape;
}
function half(root, pips, top) {
  PIPS[pips].forEach((p) => {
    root.appendChild(svg("circle", {cx: 9 + p[0] * 11, cy: top + 9 + p[1] * 11, r: 4, class: "pip"}));
  });
}
/* A tile face, high end on top; `single` draws only one half (the trump picker). */
function face(hi, lo, single) {
  const root = svg("svg", {viewBox: single ? "0 0 40 40" : "0 0 40 80", class: "face", "aria-hidden": "true"});
  root.appendChild(svg("rect", {x: 1, y: 1, width: 38, height: single ? 38 : 78, rx: 6, class: "body"}));
  half(root, hi, 2);
  if (!single) {
    root.appendChild(svg("line", {x1: 6, y1: 40, x2: 34, y2: 40, class: "bar"}));
    half(root, lo, 40);
  }
  return root;
}
function key(tile) { return `${tile[0]}-${tile[1]}`; }
function post(entry) { return Table.post(entry).catch(() => {}); }
function show(id, on) { document.getElementById(id).hidden = !on; }
function clear(id) { const n = document.getElementById(id); n.textContent = ""; return n; }

function renderScore(view) {
  const box = clear("dm-score");
  const target = view.settings.rubbers_to_win;
  view.players.forEach((name) => {
    const pts = view.points[name], rub = view.rubbers[name];
    const dots = node("span", {class: "dm-dots", "aria-hidden": "true"});
    for (let i = 0; i < Math.min(target, 15); i++) {
      dots.appendChild(node("span", {class: i < rub ? "on" : ""}));
    }
    const pct = Math.min(100, 100 * pts / view.rubber_points);
    const low = 100 * view.settings.low_score / view.rubber_points;
    box.appendChild(node("div", {class: `dm-player${view.winner === name ? " won" : ""}`,
                               "data-player": name}, [
      node("div", {class: "dm-name", text: name}),
      node("div", {class: "dm-rubbers"}, [
        node("b", {class: "dm-rubber-count", text: String(rub)}),
        node("span", {class: "small", text: ` ${fill(rub === 1 ? T.rubber_of : T.rubbers_of, {n: target})}`}),
      ]),
      dots,
      node("div", {class: "dm-points"}, [
        node("b", {class: "dm-point-count", text: String(pts)}),
        node("span", {class: "small", text: ` ${T.points} · ${fill(T.to_rubber, {n: Math.max(0, view.rubber_points - pts)})}`}),
      ]),
      node("div", {class: "dm-meter"}, [
        node("span", {class: "fill", style: `width:${pct}%`}),
        view.settings.variant === "traditional" ? node("span", {class: "mark", style: `left:${low}%`}) : null,
      ]),
    ]));
  });
}

function renderTrumpPicker(view) {
  document.getElementById("dm-trump-title").textContent = fill(T.pick_trump, {n: view.hands_played + 1});
  const box = clear("dm-suits");
  for (let suit = 0; suit <= 6; suit++) {
    box.appendChild(node("button", {type: "button", class: "dm-suit", "data-suit": suit,
      "aria-label": `${T.trump} ${suit} (${T.suit[suit]})`,
      on() { post({type: "hand", trump: suit}); }},
      [face(suit, 0, true), node("span", {text: String(suit)})]));
  }
  box.appendChild(node("p", {class: "hint dm-leader", text: fill(T.leads, {name: view.next_leader})}));
}

function declarationChooser(view, name) {
  const box = node("div", {class: "dm-chooser"});
  const counts = Object.keys(view.declarations);
  const bonus = view.bingo_bonus;
  const grid = node("div", {class: "dm-decls"});
  counts.forEach((n) => {
    const d = view.declarations[n];
    const pts = d.points + (state.withBingo ? bonus : 0);
    let extra = "";
    if (d.rubbers && view.settings.big_declarations === "rubbers") {
      extra = (d.rubbers === 1 ? T.one_rubber : fill(T.n_rubbers, {n: d.rubbers})) +
              (state.withBingo ? ` +${bonus}` : "");
    }
    grid.appendChild(node("button", {type: "button", class: "dm-decl", "data-doubles": n,
      on() {
        state.chooser = null;
        post({type: "declare", player: name, doubles: Number(n), bingo: state.withBingo});
      }}, [node("b", {text: fill(T.n_doubles, {n})}), node("span", {text: T.decl_names[n] || ""}),
           node("span", {class: "pts", text: extra || `+${pts}`})]));
  });
  box.appendChild(grid);
  if (bonus) {
    const check = node("input", {type: "checkbox", id: "dm-with-bingo"});
    check.checked = state.withBingo;
    check.addEventListener("change", () => { state.withBingo = check.checked; render(Table.view); });
    box.appendChild(node("label", {class: "check", for: "dm-with-bingo"}, [check, node("span", {text: T.with_bingo})]));
  }
  box.appendChild(node("button", {type: "button", class: "ghost", text: T.cancel,
    on() { state.chooser = null; render(Table.view); }}));
  return box;
}

function renderHand(view) {
  const hand = view.hand;
  document.getElementById("dm-hand-title").textContent = fill(T.hand, {n: hand.number});
  const now = clear("dm-trump-now");
  now.appendChild(node("span", {class: "dm-trump-label", text: `${T.trump}: ${hand.trump} · ${T.suit[hand.trump]}`}));
  now.appendChild(face(hand.trump, 0, true));
  const info = [fill(T.leads, {name: hand.leader}), fill(T.in_play, {total: hand.table.total})];
  if (hand.closed_by) info.push(fill(T.closed, {name: hand.closed_by}));
  if (hand.bingo_double_by) info.push(fill(T.bingo_double_done, {name: hand.bingo_double_by}));
  Object.keys(hand.tricks).forEach((p) => {
    info.push(fill(T.counted, {name: p, points: hand.tricks[p]}));
  });
  document.getElementById("dm-hand-info").textContent = info.join(" ");
  const events = clear("dm-events");
  const berndt = view.settings.variant === "berndt";
  view.players.forEach((name) => {
    const row = node("div", {class: "dm-event-row", "data-player": name}, [node("div", {class: "dm-name", text: name})]);
    const buttons = node("div", {class: "dm-event-buttons"});
    if (berndt) {
      buttons.appendChild(node("button", {type: "button", class: "dm-show", text: T.show_double,
        on() { post({type: "declare", player: name, doubles: 1}); }}));
    } else {
      buttons.appendChild(node("button", {type: "button", class: "dm-show", text: T.show_doubles,
        "aria-expanded": String(state.chooser === name),
        on() { state.chooser = state.chooser === name ? null : name; render(Table.view); }}));
    }
    if (!hand.closed_by) {
      buttons.appendChild(node("button", {type: "button", class: "dm-close", text: T.close,
        on() { post({type: "close", player: name}); }}));
    }
    if (!berndt && hand.trump !== 0 && !hand.bingo_double_by) {
      buttons.appendChild(node("button", {type: "button", class: "dm-bingo", text: T.bingo_double,
        on() { post({type: "bingo_double", player: name}); }}));
    }
    row.appendChild(buttons);
    if (state.chooser === name) row.appendChild(declarationChooser(view, name));
    events.appendChild(row);
  });
}

function renderTricks(view) {
  const hand = view.hand;
  const waiting = view.players.filter((p) => !(p in hand.tricks));
  if (!waiting.includes(state.counter)) {
    state.counter = waiting.includes(Table.me) ? Table.me : waiting[0];
    state.selected = {};
  }
  const who = clear("dm-who");
  waiting.forEach((name) => {
    who.appendChild(node("button", {type: "button", role: "tab", class: "dm-tab",
      "aria-selected": String(name === state.counter), text: name,
      on() { state.counter = name; state.selected = {}; render(Table.view); }}));
  });
  const taken = {};
  Object.keys(hand.captured).forEach((p) => {
    hand.captured[p].forEach((t) => { taken[key(t)] = p; });
  });
  if (hand.bingo_double_by) {  // that trick (the Bingo and the trump double) is in one pile
    ["0-0", `${hand.trump}-${hand.trump}`].forEach((k) => {
      if (state.counter === hand.bingo_double_by) state.selected[k] = true;
      else taken[k] = hand.bingo_double_by;
    });
  }
  const groups = {trumps: [], doubles: [], specials: [], none: []};
  hand.tiles.forEach((t) => { groups[t.kind || "none"].push(t); });
  const box = clear("dm-tiles");
  let sum = 0;
  ["trumps", "doubles", "specials", "none"].forEach((kind) => {
    if (!groups[kind].length) return;
    box.appendChild(node("h3", {class: "dm-kind", text: T.kinds[kind]}));
    const grid = node("div", {class: `dm-grid dm-${kind}`});
    groups[kind].forEach((t) => {
      const k = key(t.tile), owner = taken[k];
      if (owner) delete state.selected[k];  // the other phone saved it first
      const on = !!state.selected[k];
      if (on) sum += t.points;
      const label = `[${k}] ${t.points}${owner ? ` · ${fill(T.taken_by, {name: owner})}` : ""}`;
      grid.appendChild(node("button", {type: "button", class: `dm-tile${on ? " on" : ""}${owner ? " taken" : ""}`,
        "data-tile": k, "aria-pressed": String(on), "aria-label": label, disabled: owner ? "" : false,
        on() {
          if (state.selected[k]) delete state.selected[k]; else state.selected[k] = true;
          render(Table.view);
        }}, [face(t.tile[0], t.tile[1]),
             node("span", {class: "val", text: owner ? owner.slice(0, 3) : String(t.points)})]));
    });
    box.appendChild(grid);
  });
  const save = document.getElementById("dm-save-tiles");
  save.textContent = fill(T.save_tiles, {name: state.counter, points: sum});
}

function renderLog(view) {
  show("dm-log-card", view.log.length > 0);
  const list = clear("dm-log");
  view.log.slice().reverse().forEach((r) => {
    list.appendChild(node("li", {}, [
      node("b", {class: "dm-plus", text: fill(T.plus_rubbers, {n: r.rubbers})}),
      node("span", {text: ` ${fill(T.log[r.reason], {name: r.player, opp: r.opponent_points})} · ${fill(T.hand, {n: r.hand})}`}),
    ]));
  });
}

function renderSheet(view) {
  show("dm-sheet-card", view.sheet.length > 0);
  const table = clear("dm-sheet");
  const head = node("tr", {}, [node("th", {text: T.sheet_hand}), node("th", {text: T.trump})]);
  view.players.forEach((p) => { head.appendChild(node("th", {text: p})); });
  table.appendChild(node("thead", {}, [head]));
  const body = node("tbody");
  view.sheet.slice().reverse().forEach((line) => {
    // each cell names its column: a narrow screen shows the sheet one hand per block (.stack)
    const row = node("tr", {}, [node("td", {text: String(line.hand), "data-label": T.sheet_hand}),
                                node("td", {text: String(line.trump), "data-label": T.trump})]);
    view.players.forEach((p) => {
      const text = String(line.tricks[p]) + (line.shown[p] ? ` + ${line.shown[p]}` : "");
      row.appendChild(node("td", {"data-label": p}, [
        node("span", {text}),
        line.closed_by === p ? node("small", {class: "dm-closed", text: ` ${T.closed_mark}`}) : null,
      ]));
    });
    body.appendChild(row);
  });
  table.appendChild(body);
}

function renderRules(view) {
  const box = clear("dm-rules");
  const lines = view.settings.variant === "berndt" ? T.rules_berndt : T.rules;
  const list = node("ul");
  lines.forEach((line) => { list.appendChild(node("li", {text: fill(line, {low: view.settings.low_score})})); });
  box.appendChild(list);
}

function render(view) {
  const handNo = view.hand ? view.hand.number : null;
  if (handNo !== state.hand) { state.hand = handNo; state.selected = {}; state.counter = null; state.chooser = null; }
  renderScore(view);
  const playing = !view.finished;
  show("dm-trump", playing && !view.hand);
  show("dm-hand", playing && !!view.hand);
  show("dm-tricks", playing && !!view.hand);
  if (playing && !view.hand) renderTrumpPicker(view);
  if (playing && view.hand) { renderHand(view); renderTricks(view); }
  renderLog(view);
  renderSheet(view);
  renderRules(view);
}

document.getElementById("dm-save-tiles").addEventListener("click", () => {
  const tiles = Object.keys(state.selected).map((k) => k.split("-").map(Number));
  post({type: "tricks", player: state.counter, tiles});
});
document.getElementById("dm-save-points").addEventListener("click", () => {
  const input = document.getElementById("dm-points");
  const raw = input.value.trim();
  const value = /^\d+$/.test(raw) ? Number(raw) : raw;
  Table.post({type: "tricks", player: state.counter, points: value}).then(() => {
    input.value = "";
  }, () => {});
});
Table.onView(render);
