// The organiser's page kept live: each `halls` event carries every hall's state, already
// worded in the page's language by the server; this only puts the words in their rows.
const main = document.getElementById("organiser");
const stream = new EventSource(main.dataset.stream);
stream.addEventListener("halls", (e) => {
  for (const hall of JSON.parse(e.data).halls) {
    const row = document.getElementById(`hall-${hall.fingerprint}`);
    if (!row) continue;
    row.dataset.state = hall.state;
    row.querySelector(".state").textContent = hall.words;
  }
  main.dataset.live = "yes";
});
stream.addEventListener("open", () => { main.dataset.live = "yes"; });
