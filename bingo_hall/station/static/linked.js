// The linked game's panel on the caller page: whether the station follows the organiser or
// calls from the code changes without the Maestro (a line that drops), so the panel asks the
// station every few seconds and shows the parts of that mode (data-when) and the reason.
// While it follows, the cage's box is put away (a ball typed then would be off the code's
// order) and a line says why; it comes back when the station goes on from the code.
const panel = document.getElementById("linked");
const reason = panel && panel.querySelector("[data-field=linked-reason]");

function cageFor(mode) {
  const cage = document.getElementById("manual");
  const why = document.getElementById("manual-following");
  if (cage) cage.hidden = mode === "following";
  if (why) why.hidden = mode !== "following";
}

async function look() {
  try {
    const answer = await fetch(panel.dataset.view, { credentials: "same-origin" });
    if (!answer.ok) return;
    const view = await answer.json();
    if (view.live.mode !== panel.dataset.mode) {
      panel.dataset.mode = view.live.mode;
      for (const part of panel.querySelectorAll("[data-when]")) {
        part.hidden = part.dataset.when !== view.live.mode;
      }
      cageFor(view.live.mode);
    }
    reason.textContent = view.live.reason || "";
  } catch {
    // the station itself is out of reach: the page's own banner says so
  }
}

if (panel) setInterval(look, 3000);
