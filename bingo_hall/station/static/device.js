// The flashboard / ball machine box on the caller page (caller/_device.html): refreshed from
// GET /api/device every 2 s; the "Release a ball" button asks the board to drop one.
import { request } from "/web/static/api.js";

const box = document.getElementById("bhp-device");
const drop = document.getElementById("bhp-drop");
function show(s) {
  box.className = "bhp-device state-" + s.state;
  box.querySelector(".bhp-state").textContent = box.dataset["label" + s.state[0].toUpperCase() + s.state.slice(1)] || s.state;
  box.querySelector(".bhp-detail").textContent = s.detail;
  const said = s.reason ? box.dataset["reason" + s.reason[0].toUpperCase() + s.reason.slice(1)] : "";
  const reason = box.querySelector(".bhp-reason");
  reason.textContent = said || "";
  reason.hidden = !said;
  drop.hidden = !(s.drops_balls && drop.dataset.manual === "1" && (s.state === "connected" || s.state === "error"));
}
async function refresh() {
  try {
    const res = await fetch("/api/device", { cache: "no-store" });
    if (res.ok) show(await res.json());
  } catch (e) {
    show({ state: "retrying", detail: box.dataset.labelUnreachable, reason: "", drops_balls: false });
  }
}
drop.addEventListener("click", async function () {
  drop.disabled = true;
  try {
    await request("/api/device/drop", { retry: false });
  } finally {
    setTimeout(function () { drop.disabled = false; }, 700);
  }
});
setInterval(refresh, 2000);
