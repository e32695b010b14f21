// live.js: following the station's live events (Server-Sent Events), for every page that does:
// the card and ticket pages, the caller page, the big screen, the companions (an ES module).
//
//   import { follow } from "/web/static/live.js";
//
//   const live = follow(url, {
//     snapshot(data) { ... },         // one handler per event name, given the parsed JSON data
//     call(data) { ... },             // and the event's name: handler(data, name)
//   }, { onUp() {}, onDown() {} });   // optional: the stream is open / it dropped
//   live.close();                     // stop following (no reconnect)
//
// The station sends a `snapshot` first on every (re)connect, so a page that was away draws
// itself again from it and misses nothing. When the stream drops (a Wi-Fi blip, the station
// restarting, a refusal) follow() closes it and opens a new one after retryDelay(n): a random
// time ("full jitter") below a bound that doubles with each failure in a row, from RETRY_FIRST_MS
// to RETRY_MAX_MS. So a thousand phones that lose the Wi-Fi together come back spread over a
// second, not all in the same millisecond, and a station that refuses them is not hammered.
// benchmarks/phones.py reads these constants from this file, to reconnect as the page does.

export const RETRY_FIRST_MS = 1000;
export const RETRY_MAX_MS = 15000;

export function retryDelay(failures) {
  const bound = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** failures);
  return Math.random() * bound;
}

export function follow(url, handlers, { onUp, onDown } = {}) {
  let source = null;
  let timer = null;
  let failures = 0;
  let closed = false;

  function connect() {
    timer = null;
    source = new EventSource(url);
    for (const [name, handler] of Object.entries(handlers)) {
      source.addEventListener(name, (ev) => handler(JSON.parse(ev.data), name));
    }
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

  connect();
  return {
    close() {
      closed = true;
      if (timer !== null) clearTimeout(timer);
      if (source) source.close();
    },
  };
}
