// What the Maestro's claims panels share (claims.js for 75 balls, prizes.js for 90): the message
// line, the claims API with the page's CSRF token, the checked card or ticket shown as the
// station renders it (POST /api/games/<id>/check/<serial>?format=html) and the verdict's look.
// (An ES module.)
import { post, request } from "/web/static/api.js";
import { $, el, replaceKeepingFocus } from "/web/static/dom.js";

// A card from the serial field: a number, or a whole card URL (a keyboard-wedge scanner types
// it; the camera scanner hands it over). From a URL only the path counts, never the host:
// /c/<deck>/<serial>/<sig> (QR codes print it upper case).
export function cardRef(text) {
  const t = String(text || "").trim();
  if (/^\d+$/.test(t)) return { serial: t };
  const m = t.match(/\/c\/([A-Za-z0-9_-]+)\/(\d+)\/([0-9A-Za-z]+)\/?(?:[?#].*)?$/i);
  return m ? { serial: m[2], deck: m[1], sig: m[3] } : null;
}


// What the camera scanner (scan.js) read: into the field, then checked as if typed; a page that
// does something else with a scanned card (the ledger sells it) says so with onScanned(fn).
let scanned = (text) => {
  $("claim-serial").value = text;
  $("claim-form").requestSubmit();
};

export function onScanned(fn) {
  scanned = fn;
}

export function checkScanned(text) {
  scanned(text);
}

// The panel shows one card, the one asked for last, whichever script asked (the claims panel,
// the phones' requests): an answer that comes back after a newer card was asked for is dropped
// (a re-show of the card before, started by an award's events, could land after the next claim's
// card and put the old ticket's rows under the new claim's verdict). `shown()` is that card, for
// the pages' refreshes.
let asked = 0;
let dropped = 0; // answers dropped for a newer card: #claim-result[data-dropped]
let current = null;

export function claimsPanel(gid) {
  const lang = document.documentElement.lang || "en";

  function say(text, bad) {
    const msg = $("claim-message");
    msg.hidden = !text;
    msg.textContent = text || "";
    msg.classList.toggle("error", !!bad);
    msg.classList.toggle("notice", !bad);
  }

  async function api(method, path, payload) {
    // no retry: a claim or an award is not made twice (the claims keep no Idempotency-Key)
    const resp = await post(`/api/games/${gid}/${path}`, payload, { method, retry: false });
    if (!resp.ok) throw new Error(resp.data.error);
    return resp.data;
  }

  // The verdict panel: success (green, the winning squares lit), a penalty (red), or nothing;
  // input errors go to the message line instead, so the three never look alike.
  function verdictLook(kind) {
    const box = $("claim-result");
    box.classList.toggle("verdict-valid", kind === "valid");
    box.classList.toggle("verdict-false", kind === "false");
    box.classList.toggle("verdict-check", kind === "check");
  }

  // `ref` is a serial or {serial, deck, sig} from cardRef. A check shows the card to the room
  // (a POST, with the CSRF token: the verdict goes to /display); `quiet` only reads it (a GET)
  // and leaves the verdict's look to the caller. `prize`: the prize the Maestro chose (Tambola),
  // judged as a claim of it will be.
  async function showCard(ref, quiet, prize) {
    if (typeof ref !== "object") ref = { serial: String(ref) };
    const mine = ++asked;
    current = ref;
    const q = new URLSearchParams({ format: "html", lang: lang });
    if (prize) q.set("prize", prize);
    const player = $("claim-player") && $("claim-player").value.trim();
    if (player && !quiet) q.set("player", player); // the room hears whose card it is
    if (ref.deck) { q.set("deck", ref.deck); q.set("sig", ref.sig); }
    const url = `/api/games/${gid}/check/${encodeURIComponent(ref.serial)}?${q}`;
    const resp = quiet ? await fetch(url) : await request(url, { accept: "text/html" });
    if (!resp.ok) {
      const data = await resp.json().catch(() => ({}));
      if (mine !== asked) { $("claim-result").dataset.dropped = String(++dropped); return; }
      throw new Error(data.error || resp.statusText);
    }
    const html = await resp.text();
    if (mine !== asked) { // a newer card was asked for: this one is not shown
      $("claim-result").dataset.dropped = String(++dropped);
      return;
    }
    $("claim-result").innerHTML = html;
    const wrap = $("claim-result").querySelector(".vcard-wrap");
    if (!quiet) verdictLook(wrap && wrap.dataset.bingo === "yes" ? "valid" : "check");
  }

  // The serial field: a number, or a whole card URL (a keyboard-wedge scanner, the camera);
  // after reading it shows just the serial. Null, with `need` said, when it is neither.
  function readCard(need) {
    const ref = cardRef($("claim-serial").value);
    if (!ref) { say(need, true); return null; }
    $("claim-serial").value = ref.serial;
    return ref;
  }

  // The round's claims, newest last: `describe(c)` writes a claim's line; a click shows its card.
  // The list is redrawn on every change of the scores: a claim the keyboard was on keeps the
  // focus (its key: its place in the round's list, which only grows, and its card).
  function listClaims(claims, none, describe) {
    const items = [];
    if (!claims.length) items.push(el("li", "muted", none));
    claims.forEach((c, i) => {
      const li = el("li", c.undone ? "undone" : c.valid ? "valid" : "false", describe(c));
      li.dataset.key = `${i}:${c.serial}`;
      const open = () => { $("claim-serial").value = c.serial; showCard(c.serial).catch(() => {}); };
      li.tabIndex = 0; // the keyboard reaches it too (Enter or Space)
      li.addEventListener("click", open);
      li.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); open(); } });
      items.push(li);
    });
    replaceKeepingFocus($("claim-list"), items);
  }

  // the card the panel shows, or is about to: the one asked for last (null when the panel shows
  // none: cleared for a new round, or a card that could not be read)
  const shown = () => ($("claim-result").querySelector("[data-serial]") ? current : null);

  return {
    say: say, api: api, showCard: showCard, verdictLook: verdictLook, listClaims: listClaims, readCard: readCard,
    shown: shown,
  };
}
