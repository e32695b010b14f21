// dom.js: the DOM helpers every page of the kit shares (an ES module: <script type="module">,
// which the CSP's 'self' allows; no framework, no bundler).
//
//   import { $, el, fill } from "/web/static/dom.js";
//
//   $(id)                 the page's element with that id (null when there is none).
//   el(tag, cls?, text?)  a new element: `cls` its class names (a string, may be empty),
//                         `text` its text (set as textContent, never parsed as HTML).
//   fill(template, values) the template with each "{name}" replaced by values[name]. A name
//                         that `values` does not have becomes "" (the one behaviour for a
//                         missing key, everywhere); a value is written with String(value).
//   replaceKeepingFocus(list, items) a live list redrawn without losing the keyboard's place
//                         (below).
//
// Translated templates come from the page (JSON in a <script type="application/json"> block,
// written by the station with "{name}" placeholders), so the scripts hold no user-facing text.

export const $ = (id) => document.getElementById(id);

export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

export function fill(template, values) {
  return String(template).replace(/\{(\w+)\}/g, (_, k) =>
    values && Object.prototype.hasOwnProperty.call(values, k) && values[k] !== undefined && values[k] !== null
      ? String(values[k])
      : "");
}

// replaceKeepingFocus(list, items): `list`'s children become `items` (elements with a
// `data-key`) without taking a keyboard user's place away. A live update redraws lists (the
// claims, the players' asks) while the Maestro may be tabbing through them: the element that had
// the focus is gone, and the focus would fall back to the page. When the focus was inside an
// item whose key the new items have too, the same place in the new item gets it back.
export function replaceKeepingFocus(list, items) {
  const active = document.activeElement;
  const was = active && active !== list && list.contains(active)
    ? [...list.children].find((item) => item.contains(active))
    : null;
  const inner = was ? [was, ...was.querySelectorAll("*")].indexOf(active) : -1;
  list.replaceChildren(...items);
  if (!was || was.dataset.key === undefined) return;
  const now = items.find((item) => item.dataset.key === was.dataset.key);
  const target = now && [now, ...now.querySelectorAll("*")][inner];
  if (target) target.focus({ preventScroll: true });
}
