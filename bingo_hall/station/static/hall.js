// Tonight's settings on the caller page (the pages' default language, traditional calls), kept
// by the station in its database through POST /api/hall/settings.
// (An ES module.)
const form = document.getElementById("hall-form");
if (form) {
  const csrf = (document.querySelector('meta[name="csrf-token"]') || {}).content || "";
  const saved = document.getElementById("hall-saved");
  const ok = saved.textContent;
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    saved.hidden = true;
    const payload = {
      lang: document.getElementById("hall-lang").value || null,
      traditional_calls: document.getElementById("hall-traditional").checked,
    };
    const resp = await fetch("/api/hall/settings", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf, Accept: "application/json" },
      body: JSON.stringify(payload),
    });
    const data = await resp.json().catch(() => ({}));
    saved.textContent = resp.ok ? ok : data.error || resp.statusText;
    saved.className = resp.ok ? "notice" : "error";
    saved.hidden = false;
  });
}
