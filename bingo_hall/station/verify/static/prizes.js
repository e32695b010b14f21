// A 90-ball game's prizes, on the caller page (claims panel: check a typed serial, record a claim,
// award a prize) and on /display (every prize, who won it, and what can still be won). The
// state is the snapshot's `prizes`, kept live by the `prize` events (prizes.prize_state): in a
// sequence one prize is played at a time (`current`); in Tambola every prize of `open` is.
import { $, fill } from "/web/static/dom.js";
import { Station as S } from "/static/station.js";
import { claimsPanel } from "./panel.js";


function prizesPage(strings) {
  const T = JSON.parse(strings.textContent);
  const gid = S.gameId;
  const lang = document.documentElement.lang || "en";
  const panel = $("claims");
  let prizes = S.state && S.state.prizes;

  // A prize's name; on the projector (no claims panel) without its gloss, to fit beside the
  // board: "Ambo", not "Ambo (dos en una fila)"
  function name(p) {
    const names = prizes && prizes.names && prizes.names[p];
    const full = (names && (names[lang] || names.en)) || T.names[p] || p;
    return panel ? full : full.split(" (")[0];
  }
  const openSet = () => prizes.order === "open";
  const openNow = () => prizes.open || (prizes.current ? [prizes.current] : []);
  const finished = () => (prizes.finished !== undefined ? prizes.finished : prizes.current === null);

  function who(winners) {
    return winners.map((w) => w.player || fill(T.claim_line, { serial: w.serial })).join(", ");
  }

  function render() {
    if (!prizes) return;
    const won = new Map(prizes.awarded.map((a) => [a.prize, a]));
    const open = new Set(openNow());
    document.querySelectorAll("#prize-steps li").forEach((li) => {
      const p = li.dataset.prize;
      li.classList.toggle("done", won.has(p));
      li.classList.toggle("now", open.has(p));
      const whoEl = li.querySelector(".prize-who");
      if (!whoEl) return;
      const a = won.get(p);
      whoEl.textContent = a ? fill(T.won_by, { who: who(a.winners), n: a.at_call }) : (openSet() && open.has(p) ? T.open : "");
    });
    const last = prizes.awarded[prizes.awarded.length - 1];
    const winners = $("prize-winners");
    if (winners) winners.textContent = last ? fill(T.awarded, { prize: name(last.prize), who: who(last.winners) }) : "";
    if (panel) renderPanel();
  }

  // ---- caller page only ----
  const { say, api, showCard: showTicket, listClaims, readCard, shown } = panel ? claimsPanel(gid) : {};
  const choice = $("claim-prize");  // Tambola: the prize a claim names
  let wasOpen = null;  // the open prizes at the last render (none yet: the page just loaded)

  // The prize a claim or the award is for: the one chosen (Tambola) or the one being played.
  function chosen() {
    if (choice) return choice.value;
    return prizes.current || prizes.sequence[prizes.sequence.length - 1];
  }
  // The prize a check judges: the one chosen under "Prize claimed" (Tambola), as the claim will.
  const asked = () => (choice ? choice.value : null);

  // A call, an undo or an award changes what a shown ticket looks like ("Playing for Bingo"):
  // show it again on the Maestro's panel only (quiet: the room is not shown it again, and a
  // hands-free draw is not paused as for a claim).
  function refreshShown() {
    const ref = shown();  // the ticket asked for last, not the one an answer on its way replaces
    if (ref) showTicket(ref, true, asked()).catch(() => {});
  }

  function renderPanel() {
    $("prize-done").hidden = !finished();
    if (choice) {
      const open = new Set(openNow());
      for (const opt of choice.options) {
        opt.textContent = name(opt.value) + (open.has(opt.value) ? "" : " · " + T.won);
        opt.dataset.open = open.has(opt.value) ? "yes" : "no";
      }
      // The prize chosen was just won: move on to the first open one (a closed prize chosen on
      // purpose stays chosen, and its claim is told when it was won).
      if ((wasOpen === null || wasOpen.has(choice.value)) && !open.has(choice.value) && open.size) choice.value = openNow()[0];
      wasOpen = open;
    }
    const prize = chosen();
    const award = $("award");
    award.textContent = finished() ? T.all_done : fill(T.award, { prize: name(prize) });
    const standing = prizes.claims.filter((c) => c.valid && !c.undone && c.prize === prize);
    award.disabled = !standing.length || !openNow().includes(prize) || (S.state && S.state.status !== "active");
    // the valid claims of prizes still open, waiting for the award: the notice at the top of
    // the page (asks.js)
    const open = openNow();
    const waiting = (S.state && S.state.status !== "active") ? [] : prizes.claims
      .filter((c) => c.valid && !c.undone && open.includes(c.prize))
      .map((c) => ({ serial: c.serial, text: fill(T.waiting, { what: fill(T.claim_line, { serial: c.serial }) + " · " + name(c.prize) }) }));
    document.dispatchEvent(new CustomEvent("bingo:waiting", { detail: waiting }));
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
      try { say(""); await showTicket(ref, false, asked()); } catch (e) { say(e.message, true); }
    });
    if (choice) choice.addEventListener("change", () => render());
    $("claim-submit").addEventListener("click", async () => {
      const ref = ticket();
      if (!ref) return;
      const payload = { serial: ref.serial };
      if ($("claim-player").value.trim()) payload.player = $("claim-player").value.trim();
      if (choice || prizes.current) payload.prize = chosen();
      try {
        const made = await api("POST", "claims", payload);
        await showTicket(ref, true, asked());  // the room already sees the claim's own verdict
        say(name(made.prize) + " · " + (made.valid ? T.valid : T.false_claim), !made.valid);
      } catch (e) { say(e.message, true); }
    });
    $("award").addEventListener("click", async () => {
      const prize = chosen();
      if (!openNow().includes(prize)) return;
      // the last prize ends the round's draw: the question says so, not "the next prize"
      const last = prizes.sequence.filter((p) => !prizes.awarded.some((a) => a.prize === p));
      const ask = last.length === 1 ? T.confirm_award_last : openSet() ? T.confirm_award_open : T.confirm_award;
      if (!confirm(fill(ask, { prize: name(prize) }))) return;
      try {
        const done = await api("POST", "award", { prize: prize });
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
    // A new round plays the prizes again: the sequence from its first, Tambola all open.
    if (kind === "round" && prizes && data.previous) {
      const first = prizes.first_open || [prizes.sequence[0]];
      prizes = { ...prizes, awarded: [], claims: [], current: first[0], open: first, finished: false };
    }
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
