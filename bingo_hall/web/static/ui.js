// ui.js: the DOM helpers every page script of the kit shares, station and companions alike (an
// ES module: <script type="module">, which the CSP's 'self' allows; no framework, no bundler).
//
//   import { el, fill, node } from "/web/static/ui.js";
//
//   el(tag, cls?, text?)   a new element: `cls` its class names (may be empty), `text` its text
//                          (textContent, never parsed as HTML; null or undefined: none).
//   fill(template, values) the template with each "{name}" replaced by String(values[name]); a
//                          name that `values` lacks (or holds null) becomes "": one behaviour for
//                          a missing key everywhere.
//   node(tag, attrs?, content?) an element with attributes, for the scripts that build much:
//                          attrs "class" and any attribute (false or null: left out), "text" its
//                          text, "style" CSSOM text (the CSP refuses style=""), "on" a click
//                          handler; `content` a text, or a list of child nodes (null ones skipped).
//
// Translated templates come from the page (JSON in a <script type="application/json"> block, with
// "{name}" placeholders), so the scripts hold no user-facing text.

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

export function node(tag, attrs, content) {
  const e = el(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "text") e.textContent = String(v);
    else if (k === "on") e.addEventListener("click", v);
    else if (k === "style") e.style.cssText = v;
    else if (v !== false && v !== null && v !== undefined) e.setAttribute(k, v);
  }
  if (Array.isArray(content)) {
    for (const c of content) if (c) e.appendChild(c);
  } else if (content !== undefined && content !== null) {
    e.textContent = String(content);
  }
  return e;
}
