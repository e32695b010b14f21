// Tonight's settings on the caller page (the pages' default language, traditional calls), kept
// by the station in its database through POST /api/hall/settings.
// (An ES module.)
import { post } from "/web/static/api.js";

const form = document.getElementById("hall-form");
if (form) {
  const saved = document.getElementById("hall-saved");
  const ok = saved.textContent;
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    saved.hidden = true;
    const payload = {
      lang: document.getElementById("hall-lang").value || null,
      traditional_calls: document.getElementById("hall-traditional").checked,
    };
    const resp = await post("/api/hall/settings", payload);
    saved.textContent = resp.ok ? ok : resp.data.error;
    saved.className = resp.ok ? "notice" : "error";
    saved.hidden = false;
  });
}
