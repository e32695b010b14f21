// The big screen: the last call huge, spoken aloud when the voice is on (the words come from the
// station, in the page's language, and stay visible in #spoken). Follows the newest game.
import { Station as S, showLastCall } from "./station.js";

const root = document.getElementById("station");
const lang = S.strings.lang;
const voiceBtn = document.getElementById("voice");
let voice = localStorage.getItem("bingo-voice") === "on";

function showVoice() {
  voiceBtn.setAttribute("aria-pressed", voice ? "true" : "false");
  voiceBtn.querySelector(".state").textContent = voice ? S.strings.voice_on : S.strings.voice_off;
}
voiceBtn.addEventListener("click", () => {
  voice = !voice;
  localStorage.setItem("bingo-voice", voice ? "on" : "off");
  showVoice();
  if (voice && window.speechSynthesis) speak(document.getElementById("spoken")?.textContent || "");
});
showVoice();

function speak(text) {
  if (!voice || !text || !window.speechSynthesis) return;
  const u = new SpeechSynthesisUtterance(text);
  u.lang = lang === "es" ? "es-ES" : "en-US";
  u.rate = 0.85;
  window.speechSynthesis.cancel();
  window.speechSynthesis.speak(u);
}

function renderHero() {
  showLastCall(document.getElementById("last-call"), document.getElementById("spoken"));
}

S.onChange((kind, data) => {
  renderHero();
  if (kind === "call") {
    const big = document.getElementById("last-call");
    big.classList.remove("flash"); void big.offsetWidth; big.classList.add("flash");
    speak(data.spoken && data.spoken[lang]);
  }
  if (kind === "end" && root.dataset.follow === "yes") setTimeout(follow, 3000);
});

// The room is told the pattern played when it changes, and the pattern and form a round was
// won with when it is awarded, in the words the screen shows (the station's: spoken.py).
let patternSaid = null;
let awardSaid = null;
document.addEventListener("bingo:scores", (ev) => {
  const sc = ev.detail;
  const said = sc.settings && sc.settings.spoken ? sc.settings.spoken[lang] : null;
  const won = sc.awarded && sc.awarded.spoken ? sc.awarded.round + ":" + sc.awarded.spoken[lang] : null;
  if (patternSaid !== null && said && said !== patternSaid) speak(said);
  if (awardSaid !== null && won && won !== awardSaid) speak(sc.awarded.spoken[lang]);
  patternSaid = said || "";
  awardSaid = won || "";
});

// Follow the newest active game: a new game started on the caller page shows up here by itself.
async function follow() {
  try {
    const res = await fetch("/api/games");
    if (!res.ok) return;
    const active = (await res.json()).games.find((g) => g.status === "active");
    const current = S.gameId;
    if (active && active.game_id !== current) location.reload();
  } catch (e) { /* the station is restarting; try again later */ }
}
if (root.dataset.follow === "yes") setInterval(follow, 5000);

document.getElementById("fullscreen").addEventListener("click", () => {
  if (document.fullscreenElement) document.exitFullscreen(); else document.documentElement.requestFullscreen();
});
renderHero();
