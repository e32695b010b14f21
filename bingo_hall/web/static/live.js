// live.js: following the station's live events (Server-Sent Events), for every page that does:
// the card and ticket pages, the caller page, the big screen and /join (station.js), and the
// companions' tables (shell.js). It is the one place that opens an EventSource (an ES module).
//
//   import { follow } from "/web/static/live.js";
//
//   const live = follow(url, {
//     snapshot(data) { ... },         // one handler per event name, given the parsed JSON data,
//     call(data, name, ev) { ... },   // the event's name and the MessageEvent (ev.lastEventId)
//   }, { onUp() {}, onDown() {} });   // optional: the stream is open / it dropped
//   live.listen("claim", fn);         // one more handler, now and on every later stream
//   live.close();                     // stop following (no reconnect)
//
// The station sends a `snapshot` first on every (re)connect (a table's phones get its `history`
// and `view`), so a page that was away draws itself again from it and misses nothing. When the
// stream drops (a Wi-Fi blip, the station restarting, a stream that ran its length, an error
// answer such as 503 when the station is full) follow() closes it and opens a new one after
// retryDelay(n): a random time ("full jitter") below a bound that doubles with each failure in
// a row, from RETRY_FIRST_MS to RETRY_MAX_MS. So a thousand phones that lose the Wi-Fi together
// come back spread over a second, not all in the same millisecond, and a station that refuses
// them is not hammered. A page that comes back into view (a phone that slept) while waiting to
// retry reconnects at once. benchmarks/phones.py reads these constants from this file, to
// reconnect as the page does.

export const RETRY_FIRST_MS = 1000;
export const RETRY_MAX_MS = 15000;

export function retryDelay(failures) {
  const bound = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** failures);
  return Math.random() * bound;
}

export function follow(url, handlers, { onUp, onDown } = {}) {
  const listeners = Object.entries(handlers);  // [name, handler], in the order they were given
  let source = null;
  let timer = null;
  let failures = 0;
  let closed = false;

  function attach(name, handler) {
    source.addEventListener(name, (ev) => handler(JSON.parse(ev.data), name, ev));
  }

  function connect() {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (source) source.close();
    source = new EventSource(url);
    for (const [name, handler] of listeners) attach(name, handler);
    source.addEventListener("open", () => {
      failures = 0;
      if (onUp) onUp();
    });
    source.addEventListener("error", () => {
      // EventSource would retry by itself after the station's `retry:` (all phones at once),
      // and not at all after an error answer: we retry, with jitter, in both cases
      source.close();
      if (onDown) onDown();
      if (!closed && timer === null) timer = setTimeout(connect, retryDelay(failures++));
    });
  }

  function wake() {
    if (document.visibilityState === "visible" && !closed && timer !== null) connect();
  }

  document.addEventListener("visibilitychange", wake);
  connect();
  return {
    listen(name, handler) {
      listeners.push([name, handler]);
      if (source && !closed) attach(name, handler);
    },
    close() {
      closed = true;
      document.removeEventListener("visibilitychange", wake);
      if (timer !== null) clearTimeout(timer);
      timer = null;
      if (source) source.close();
    },
  };
}
