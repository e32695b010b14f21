// The new-game form fits the chosen deck: a 75-ball deck offers Bingo Normal or Bingo de Puntos
// and the free centre; a deck of 90-ball strips offers its prize sequences only. What does not
// fit is hidden and disabled, so it is not sent either.
function fitTheDeck(form) {
  const deck = form.querySelector('select[name="deck_id"]');
  function fit() {
    const chosen = deck.selectedOptions[0];
    if (!chosen) return;
    // the fieldsets are the form's parts by the deck's layout (`Variant.layout`): show its own
    form.querySelectorAll("fieldset[data-for]").forEach((box) => {
      const fits = box.dataset.for === chosen.dataset.layout;
      box.hidden = !fits;
      box.disabled = !fits;
    });
    const printed = chosen.dataset.free === "yes";
    const free = form.querySelector('input[name="free_centre"]');
    // a deck printed with FREE always plays it: shown ticked, and not sent (the deck says so)
    if (printed) free.checked = true;
    else if (free.dataset.printed === "yes") free.checked = false;
    free.dataset.printed = printed ? "yes" : "no";
    free.disabled = printed;
    form.querySelector("[data-free-printed]").hidden = !printed;
  }
  deck.addEventListener("change", fit);
  fit();
}

const form = document.getElementById("new-game");
if (form) fitTheDeck(form);
