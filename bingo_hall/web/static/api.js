// How the station's pages send a change to the station, in one place (like the companions'
// Table.post in companions/web/static/shell.js): the page's CSRF token (read here only), JSON
// in and out, and an Idempotency-Key on every request. When the answer is lost (the Wi-Fi, the
// station restarting) the request is sent once more with the same key, so a station that saw
// the first one answers it again instead of doing the change twice (the calls keep the key). A
// route that neither keeps the key nor can be repeated (a sale, a claim) asks for no retry.
// (An ES module.)

export const csrfToken = (document.querySelector('meta[name="csrf-token"]') || {}).content || "";

export function idempotencyKey() {
  const part = () => Math.random().toString(36).slice(2);
  return Date.now().toString(36) + "-" + part() + part();
}

// The station's Response to `method url` with `body` (JSON) or none. Retries once after a
// network error unless `retry` is false; throws when the station cannot be reached.
export async function request(url, { method = "POST", body, accept = "application/json", retry = true } = {}) {
  const headers = { "X-CSRF-Token": csrfToken, Accept: accept, "Idempotency-Key": idempotencyKey() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const init = {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
  };
  try {
    return await fetch(url, init);
  } catch (e) {
    if (!retry) throw e;
    return fetch(url, init); // the same key: the station does not do it twice
  }
}

// POST `body` to `url`: {ok, status, data}, `data` being the JSON answer ({error} when the
// answer is not JSON). Throws only when the station cannot be reached.
export async function post(url, body, options = {}) {
  const resp = await request(url, { ...options, body });
  const data = await resp.json().catch(() => ({}));
  if (!resp.ok && !data.error) data.error = resp.statusText;
  return { ok: resp.ok, status: resp.status, data };
}
