// The organiser's page kept live: every two seconds it asks the organiser's station for every
// hall's state (already worded in the page's language) and the calls so far, and puts them in
// their places. A page or two of the organiser's: asking costs nothing, and a lost answer is
// simply asked again.
const main = document.getElementById("organiser");
const count = main.querySelector("[data-field=count]");
const last = main.querySelector("[data-field=last]");

async function look() {
  try {
    const answer = await fetch(main.dataset.halls);
    if (!answer.ok) return;
    const now = await answer.json();
    for (const hall of now.halls) {
      const row = document.getElementById(`hall-${hall.fingerprint}`);
      if (!row) continue;
      row.dataset.state = hall.state;
      row.querySelector(".state").textContent = hall.words;
    }
    count.textContent = now.count;
    last.textContent = now.last ?? "–";
    main.dataset.live = "yes";
  } catch {
    // the organiser's station is out of reach for a moment: the next look asks again
  }
}

look();
setInterval(look, 2000);
