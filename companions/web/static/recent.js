// The tables this phone has opened (shell.js remembers them), listed on the start page.
// (An ES module.)
import { el } from "/web/static/dom.js";

function recentTables() {
  try {
    return JSON.parse(localStorage.getItem("companions:recent") || "[]");
  } catch (e) {
    return [];  // private mode: nothing remembered
  }
}

const list = recentTables();
const box = document.getElementById("recent");
if (box && list.length) {
  const ul = box.querySelector("ul");
  for (const t of list) {
    // the code as the table's page shows it, in two groups (older entries kept it undashed),
    // never broken at its dash; the players under it, whole
    const a = el("a", "big");
    a.append(el("span", "", `${t.title} · `), el("span", "code-word", t.shown || t.code),
             el("small", "", t.players));
    a.href = box.dataset.base + encodeURIComponent(t.code);
    const li = el("li");
    li.appendChild(a);
    ul.appendChild(li);
  }
  box.hidden = false;
}
