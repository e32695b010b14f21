// What the Maestro's claims panels share (claims.js for 75 balls, prizes.js for 90): the message
// line, the claims API with the page's CSRF token, and the checked card or ticket shown as the
// station renders it (GET /api/games/<id>/check/<serial>?format=html).
window.ClaimsPanel = function (gid) {
  "use strict";
  const csrf = (document.querySelector('meta[name="csrf-token"]') || {}).content || "";
  const lang = document.documentElement.lang || "en";
  const $ = (id) => document.getElementById(id);

  function say(text, bad) {
    const msg = $("claim-message");
    msg.hidden = !text;
    msg.textContent = text || "";
    msg.classList.toggle("error", !!bad);
    msg.classList.toggle("notice", !bad);
  }

  async function api(method, path, payload) {
    const resp = await fetch(`/api/games/${gid}/${path}`, {
      method: method,
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf, Accept: "application/json" },
      body: payload === undefined ? undefined : JSON.stringify(payload),
    });
    const data = await resp.json().catch(() => ({ error: resp.statusText }));
    if (!resp.ok) throw new Error(data.error || resp.statusText);
    return data;
  }

  async function showCard(serial) {
    const resp = await fetch(`/api/games/${gid}/check/${encodeURIComponent(serial)}?format=html&lang=${lang}`);
    if (!resp.ok) {
      const data = await resp.json().catch(() => ({}));
      throw new Error(data.error || resp.statusText);
    }
    $("claim-result").innerHTML = await resp.text();
  }

  return { say: say, api: api, showCard: showCard };
};
