// dom.js: the two DOM helpers every page of the kit shares (an ES module: <script type="module">,
// which the CSP's 'self' allows; no framework, no bundler).
//
//   import { el, fill } from "/web/static/dom.js";
//
//   el(tag, cls?, text?)  a new element: `cls` its class names (a string, may be empty),
//                         `text` its text (set as textContent, never parsed as HTML).
//   fill(template, values) the template with each "{name}" replaced by values[name]. A name
//                         that `values` does not have becomes "" (the one behaviour for a
//                         missing key, everywhere); a value is written with String(value).
//
// Translated templates come from the page (JSON in a <script type="application/json"> block,
// written by the station with "{name}" placeholders), so the scripts hold no user-facing text.

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
