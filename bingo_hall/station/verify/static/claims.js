// The Maestro's claims panel: typed-serial check, recording claims, awarding the round, seating
// players and setting the rules, all through /api/games/<id>/... with the page's CSRF token.
import { $, el, fill, replaceKeepingFocus } from "/web/static/dom.js";
import { Station } from "/static/station.js";
import { claimsPanel } from "./panel.js";
import { lastScores, render as renderScores } from "./scores.js";

function claimsPage(root) {
  const gid = root.dataset.game;
  const T = JSON.parse(document.getElementById("claims-strings").textContent);
  const { say, api, showCard, verdictLook, listClaims, readCard, shown } = claimsPanel(gid);
  const card = () => readCard(T.need_serial);

  // Enter in the serial box only checks; recording a claim (and its penalty) takes the button.
  $("claim-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const ref = card();
    if (!ref) return;
    try { say(""); await showCard(ref); } catch (e) { verdictLook(null); $("claim-result").innerHTML = ""; say(e.message, true); }
  });

  $("claim-submit").addEventListener("click", async () => {
    const ref = card();
    if (!ref) return;
    const payload = { serial: Number(ref.serial) };
    const typed = $("claim-new-box").hidden ? "" : $("claim-new-player").value.trim();
    if (typed) { payload.player = typed; payload.add_player = true; } // seated with the claim
    else if ($("claim-player").value) payload.player = $("claim-player").value;
    if ($("claim-line").value) payload.line = $("claim-line").value;
    try {
      say("");
      const made = await api("POST", "claims", payload);
      if (typed) newPlayerBox(false, made.player);
      await showCard(ref, true);
      verdictLook(made.valid ? "valid" : "false");
      const head = document.createElement("p");
      head.className = "claim-verdict " + (made.valid ? "valid" : "false");
      if (made.valid) head.textContent = "✓ " + T.valid + (made.verdict.points !== null ? " · " + fill(T.points, { n: made.verdict.points }) : "");
      else head.textContent = "✗ " + fill(T.false_claim, { line: T.figures[made.penalty.line] || T.lines[made.penalty.line] || made.penalty.line, numbers: made.penalty.numbers.join(", ") });
      $("claim-result").prepend(head);
    } catch (e) { say(e.message, true); }
  });

  // A player not at the table yet is typed on the spot: the claim seats them (the station
  // checks the name as the players' form does), then they are chosen in the list.
  function newPlayerBox(open, seated) {
    $("claim-new-box").hidden = !open;
    $("claim-new").setAttribute("aria-expanded", open ? "true" : "false");
    $("claim-player").disabled = open;
    if (open) { $("claim-new-player").focus(); return; }
    $("claim-new-player").value = "";
    if (seated) { chosen = seated; $("claim-player").value = seated; say(fill(T.seated, { name: seated })); }
  }
  let chosen = "";
  $("claim-new").addEventListener("click", () => newPlayerBox($("claim-new-box").hidden));

  $("award").addEventListener("click", async () => {
    if (!confirm(T.confirm_award)) return;
    try {
      const done = await api("POST", "award");
      const a = done.award;
      say(fill(T.awarded, { who: a.player || fill(T.claim_line, { serial: a.serial }) }));
      $("claim-result").innerHTML = "";
      verdictLook(null);
      renderScores(done.scores);
    } catch (e) { say(e.message, true); }
  });

  $("player-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const added = await api("POST", "players", {
        name: $("player-name").value, team: $("player-team").value || null, maestro: $("player-maestro").checked,
      });
      $("player-name").value = ""; $("player-maestro").checked = false;
      renderScores(added.scores);
      $("player-name").focus();
    } catch (e) { say(e.message, true); }
  });

  // Rules: the pattern grid is 25 toggles; the mask is sent row by row.
  const grid = $("pattern-grid");
  const patternSel = $("rule-pattern");
  if (grid) {
    for (let i = 0; i < 25; i++) {
      const b = document.createElement("button");
      b.type = "button";
      b.setAttribute("aria-pressed", "false");
      b.setAttribute("aria-label", `${"BINGO"[i % 5]} ${Math.floor(i / 5) + 1}`);
      b.addEventListener("click", () => b.setAttribute("aria-pressed", b.getAttribute("aria-pressed") === "true" ? "false" : "true"));
      grid.appendChild(b);
    }
    patternSel.addEventListener("change", () => { grid.hidden = patternSel.value !== "custom"; });
  }
  function mask() {
    return Array.from(grid.children).map((b) => (b.getAttribute("aria-pressed") === "true" ? "1" : "0")).join("");
  }
  $("rules-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const payload = { completing_call_only: $("rule-completing").checked };
    if ($("rule-target")) payload.target = Number($("rule-target").value);
    if (patternSel) {
      payload.pattern = patternSel.value;
      if (patternSel.value === "custom") payload.mask = mask();
      payload.winner_becomes_maestro = $("rule-winner-maestro").checked;
    }
    try {
      const saved = await api("POST", "settings", payload);
      renderScores(saved.scores);
      say(T.saved);
    } catch (e) { say(e.message, true); }
  });

  let shownRules = "";
  function syncRules(s) {
    const r = s.settings;
    if (JSON.stringify(r) === shownRules) return; // keep what the Maestro is editing
    shownRules = JSON.stringify(r);
    $("rule-completing").checked = r.completing_call_only;
    if ($("rule-target") && document.activeElement !== $("rule-target")) $("rule-target").value = r.target;
    if (patternSel) {
      const want = r.pattern || "lines";
      // a program's own pattern is no option of the page's: it is offered as it is played
      if (![...patternSel.options].some((o) => o.value === want)) patternSel.add(new Option(T.figures[want] || want, want));
      patternSel.value = want;
      $("rule-winner-maestro").checked = r.winner_becomes_maestro;
      grid.hidden = patternSel.value !== "custom";
      // a pattern of several forms travels as their masks joined by ";": the grid shows the first
      if (r.mask) r.mask.split(";")[0].replace(/\//g, "").split("").forEach((ch, i) => grid.children[i].setAttribute("aria-pressed", ch === "1" ? "true" : "false"));
    }
  }

  function syncPlayers(s) {
    const sel = $("claim-player");
    const keep = chosen || sel.value;
    chosen = "";
    $("no-maestro").hidden = !(s.mode === "points" && !s.maestro);
    sel.innerHTML = '<option value="">—</option>';
    for (const p of s.players) {
      const o = document.createElement("option");
      o.value = p.name;
      o.textContent = p.name + (p.name === s.maestro ? ` (${T.maestro_tag})` : "") + (p.team ? ` · ${p.team}` : "");
      o.disabled = p.name === s.maestro;
      sel.appendChild(o);
    }
    sel.value = keep;
  }

  // The players at the table: fix a name or a team, or take a player off the table (one who
  // has won is asked about first; the wins stay). Not redrawn while the Maestro is typing in it.
  function syncPlayerList(s) {
    const list = $("player-list");
    if (list.contains(document.activeElement) && document.activeElement.tagName === "INPUT") return;
    const items = [];
    for (const p of s.players) {
      const li = document.createElement("li");
      li.dataset.player = li.dataset.key = p.name;  // a button the keyboard is on keeps the focus
      const name = Object.assign(document.createElement("input"), { className: "pl-name", value: p.name, maxLength: 40 });
      name.setAttribute("aria-label", T.player_name);
      const team = Object.assign(document.createElement("input"), { className: "pl-team", value: p.team || "", maxLength: 40, placeholder: T.player_team });
      team.setAttribute("aria-label", T.player_team);
      const save = el("button", "button pl-rename", T.rename);
      const drop = el("button", "button pl-remove", T.remove);
      save.type = drop.type = "button";
      save.addEventListener("click", async () => {
        try {
          const done = await api("POST", "players/rename", { name: p.name, new_name: name.value, team: team.value || null });
          say(fill(T.renamed, { old: done.was, new: done.name }));
          name.blur(); team.blur();
          renderScores(done.scores);
        } catch (e) { say(e.message, true); }
      });
      drop.addEventListener("click", async () => {
        const won = s.awards.filter((a) => a.player === p.name);
        let rounds = won.map((a) => a.round).join(", ");
        if (s.mode === "points") rounds += " · " + fill(T.points, { n: won.reduce((t, a) => t + a.points, 0) });
        if (won.length && !confirm(fill(T.confirm_remove, { name: p.name, rounds: rounds }))) return;
        try {
          const done = await api("POST", "players/remove", { name: p.name, confirm: won.length > 0 });
          say(fill(T.removed, { name: done.name }));
          renderScores(done.scores);
        } catch (e) { say(e.message, true); }
      });
      li.append(name, team, save, drop);
      items.push(li);
    }
    replaceKeepingFocus(list, items);
  }

  function syncClaims(s) {
    listClaims(s.claims, T.none, (c) => {
      let text = fill(T.claim_line, { serial: c.serial }) + (c.player ? " · " + c.player : "") + " · " + fill(T.at_call, { n: c.at_call }) + " · ";
      text += c.valid ? T.valid + (c.points !== null ? " · " + fill(T.points, { n: c.points }) : "") : fill(T.false_claim, { line: T.figures[c.penalty.line] || T.lines[c.penalty.line] || c.penalty.line, numbers: c.penalty.numbers.join(", ") });
      return c.undone ? text + " · " + T.undone : text;
    });
    $("award").disabled = !s.claims.some((c) => c.valid && !c.undone) || s.winner !== null || !!s.awarded;
    // the valid claims waiting for the award, for the notice at the top of the page (asks.js)
    const waiting = $("award").disabled ? [] : s.claims.filter((c) => c.valid && !c.undone).map((c) => ({
      serial: c.serial,
      text: fill(T.waiting, { what: fill(T.claim_line, { serial: c.serial }) + (c.player ? " · " + c.player : "") }),
    }));
    document.dispatchEvent(new CustomEvent("bingo:waiting", { detail: waiting }));
    document.getElementById("next-round")?.classList.toggle("primary", !!s.awarded && s.winner === null);
  }

  document.addEventListener("bingo:scores", (ev) => {
    syncRules(ev.detail); syncPlayers(ev.detail); syncPlayerList(ev.detail); syncClaims(ev.detail);
  });
  const s = lastScores();
  if (s) {
    syncRules(s); syncPlayers(s); syncPlayerList(s); syncClaims(s);
  }
  // "Next round" starts a round with no claims: the list and the shown card empty at once (the
  // new round's scores come with its first claim or award). A public input, set before the
  // first ball, is a "round" event of the same round and changes nothing here.
  let round = Station.state ? Station.state.round : null;
  Station.listen("round", (data) => {
    if (data.round === round) return;
    round = data.round;
    $("claim-result").innerHTML = "";
    verdictLook(null);
    const now = lastScores();
    if (now) syncClaims({ ...now, claims: [], awarded: null });
  });
  // A call or undo changes what a shown card looks like: refresh it.
  for (const kind of ["call", "undo"]) {
    Station.listen(kind, () => {
      const ref = shown();  // the card asked for last, not one an answer on its way replaces
      if (ref) showCard(ref, true).catch(() => {});
    });
  }
}

const root = document.getElementById("claims");
if (root) claimsPage(root);
