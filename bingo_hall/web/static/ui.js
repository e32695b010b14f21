// ui.js: one builder on top of dom.js's `el`, for the scripts that build much (the companions'
// panels): an ES module, like dom.js.
//
//   import { node } from "/web/static/ui.js";
//
//   node(tag, attrs?, content?) an element with attributes: "class" and any attribute (false or
//                          null: left out), "text" its text, "style" CSSOM text (the CSP refuses
//                          style=""), "on" a click handler; `content` a text, or a list of child
//                          nodes (null ones skipped).
import { el } from "./dom.js";

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
