// The tables this phone has opened (shell.js remembers them), listed on the start page.
// (An ES module.)
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
    const li = document.createElement("li"), a = document.createElement("a"), s = document.createElement("small");
    a.className = "big";
    a.href = box.dataset.base + encodeURIComponent(t.code);
    a.textContent = t.title + " · " + t.code + " ";
    s.textContent = t.players;
    a.appendChild(s);
    li.appendChild(a);
    ul.appendChild(li);
  }
  box.hidden = false;
}
