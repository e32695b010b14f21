// A 90-ball game's prizes, on the caller page (claims panel: check a typed serial, record a claim,
// award the prize being played) and on /display (the prize being played and its last winners).
// The state is the snapshot's `prizes`, kept live by the `prize` events (prizes.prize_state).
import { fill } from "/web/static/dom.js";
import { Station as S } from "/static/station.js";
import { claimsPanel } from "./panel.js";

const $ = (id) => document.getElementById(id);

function prizesPage(strings) {
  const T = JSON.parse(strings.textContent);
  const gid = S.gameId;
  const name = (p) => T.names[p] || p;
  const panel = $("claims");
  let prizes = S.state && S.state.prizes;

  function who(winners) {
    return winners.map((w) => w.player || fill(T.claim_line, { serial: w.serial })).join(", ");
  }

  function render() {
    if (!prizes) return;
    const done = new Set(prizes.awarded.map((a) => a.prize));
    document.querySelectorAll("#prize-steps li").forEach((li) => {
      li.classList.toggle("done", done.has(li.dataset.prize));
      li.classList.toggle("now", li.dataset.prize === prizes.current);
    });
    const last = prizes.awarded[prizes.awarded.length - 1];
    const winners = $("prize-winners");
    if (winners) winners.textContent = last ? fill(T.awarded, { prize: name(last.prize), who: who(last.winners) }) : "";
    if (panel) renderPanel();
  }

  // ---- caller page only ----
  const { say, api, showCard: showTicket, listClaims, readCard } = panel ? claimsPanel(gid) : {};

  // A call, an undo or an award changes what a shown ticket looks like ("Playing for Bingo"):
  // show it again on the Maestro's panel only (quiet: the room is not shown it again, and a
  // hands-free draw is not paused as for a claim).
  function refreshShown() {
    const shown = $("claim-result").querySelector("[data-serial]");
    if (shown) showTicket(shown.dataset.serial, true).catch(() => {});
  }

  function renderPanel() {
    $("prize-done").hidden = prizes.current !== null;
    const award = $("award");
    award.textContent = prizes.current ? fill(T.award, { prize: name(prizes.current) }) : T.all_done;
    const standing = prizes.claims.filter((c) => c.valid && !c.undone && c.prize === prizes.current);
    award.disabled = !standing.length || prizes.current === null || (S.state && S.state.status !== "active");
    listClaims(prizes.claims, T.none, (c) => {
      let text = fill(T.claim_line, { serial: c.serial }) + (c.player ? " · " + c.player : "");
      text += " · " + name(c.prize) + " · " + fill(T.at_call, { n: c.at_call }) + " · " + (c.valid ? T.valid : T.false_claim);
      if (c.complete_rows.length) text += " · " + fill(T.rows, { rows: c.complete_rows.join(", ") });
      return c.undone ? text + " · " + T.undone : text;
    });
  }

  const ticket = () => readCard(T.need_serial);  // a serial, or a ticket's URL from a scanner

  if (panel) {
    $("claim-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const ref = ticket();
      if (!ref) return;
      try { say(""); await showTicket(ref); } catch (e) { say(e.message, true); }
    });
    $("claim-submit").addEventListener("click", async () => {
      const ref = ticket();
      if (!ref) return;
      const payload = { serial: ref.serial };
      if ($("claim-player").value.trim()) payload.player = $("claim-player").value.trim();
      if (prizes.current) payload.prize = prizes.current;
      try {
        const made = await api("POST", "claims", payload);
        await showTicket(ref);
        say(name(made.prize) + " · " + (made.valid ? T.valid : T.false_claim), !made.valid);
      } catch (e) { say(e.message, true); }
    });
    $("award").addEventListener("click", async () => {
      const current = prizes.current;
      if (!current || !confirm(fill(T.confirm_award, { prize: name(current) }))) return;
      try {
        const done = await api("POST", "award", { prize: current });
        say(fill(T.awarded, { prize: name(done.prize), who: who(done.winners) }));
        prizes = done.prizes;
        render();
        refreshShown();
      } catch (e) { say(e.message, true); }
    });
    // A call or undo changes what a shown ticket looks like: refresh it.
    S.onChange((kind) => {
      if (kind === "call" || kind === "undo" || kind === "snapshot") refreshShown();
    });
  }

  S.onChange((kind, data, state) => {
    if (kind === "snapshot") prizes = (state && state.prizes) || prizes;
    // A new round plays the sequence again from its first prize.
    if (kind === "round" && prizes && data.previous) prizes = { ...prizes, awarded: [], claims: [], current: prizes.sequence[0] };
    render();
  });
  S.listen("prize", (data) => {
    const before = prizes && prizes.current;
    prizes = data;
    render();
    if (panel && prizes.current !== before) refreshShown();
  });
  render();
}

const strings = $("prize-strings");
if (strings) prizesPage(strings);
