// The tables this phone has opened (shell.js remembers them), listed on the start page.
(function () {
  var list;
  try { list = JSON.parse(localStorage.getItem("companions:recent") || "[]"); } catch (e) { return; }
  var box = document.getElementById("recent");
  if (!box || !list.length) return;
  var ul = box.querySelector("ul");
  list.forEach(function (t) {
    var li = document.createElement("li"), a = document.createElement("a"), s = document.createElement("small");
    a.className = "big";
    a.href = box.dataset.base + encodeURIComponent(t.code);
    a.textContent = t.title + " · " + t.code + " ";
    s.textContent = t.players;
    a.appendChild(s);
    li.appendChild(a);
    ul.appendChild(li);
  });
  box.hidden = false;
})();
