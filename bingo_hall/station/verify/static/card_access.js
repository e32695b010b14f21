// A card's page for every player, an ES module card.js starts (`access(words)`):
//
// * the last call big at the top (#call-now), with "you have it" when the card has it;
// * A- / A+ (the text size) and high contrast, remembered on the phone (localStorage); high
//   contrast follows the system's `prefers-contrast: more` until the player chooses;
// * two live regions a screen reader follows: #say-calls (polite) gets each call ("B 12, you have
//   it") and the offline notice, #say-shout (assertive) the card's bingo ("Your card has BINGO:
//   press Claim", card.js's words);
// * "read the calls aloud": each call spoken with the browser's own speech in the page's language
//   (speechSynthesis). A phone with no voice for that language (many have no offline Spanish
//   voice) shows each call big and vibrates instead, and the switch says so (#speak-note);
// * the offline notice ("Connection lost, reconnecting…"), shown and announced while the page is
//   not current, cleared when it is again (card.js says when).
//
// The page's words come from #card-words (follow_words); nothing here asks the station.
import { $ } from "/web/static/dom.js";
const TEXT_STEPS = 4; // A+ four times at most: html[data-text="1".."4"] in verify.css
const KEY = { text: "bingo.text", contrast: "bingo.contrast", speak: "bingo.speak" };

function stored(key) {
  try { return localStorage.getItem(key); } catch (e) { return null; } // storage refused
}
function store(key, value) {
  try { localStorage.setItem(key, value); } catch (e) { /* kept for this visit only */ }
}

export function access(w) {
  const html = document.documentElement;
  const lang = html.lang || "en";
  const tools = $("card-tools");
  if (!tools) return null;
  tools.hidden = false;

  // -- text size
  let text = Math.min(TEXT_STEPS, Math.max(0, Number(stored(KEY.text)) || 0));
  function size() {
    if (text) html.dataset.text = String(text); else delete html.dataset.text;
    $("text-smaller").disabled = text === 0;
    $("text-larger").disabled = text === TEXT_STEPS;
  }
  $("text-smaller").addEventListener("click", () => { text = Math.max(0, text - 1); store(KEY.text, String(text)); size(); });
  $("text-larger").addEventListener("click", () => { text = Math.min(TEXT_STEPS, text + 1); store(KEY.text, String(text)); size(); });
  size();

  // -- high contrast: the player's choice, else the system's
  const system = window.matchMedia ? window.matchMedia("(prefers-contrast: more)") : null;
  function contrast() {
    const chosen = stored(KEY.contrast);
    const on = chosen ? chosen === "more" : !!(system && system.matches);
    html.classList.toggle("hc", on);
    $("contrast").setAttribute("aria-pressed", on ? "true" : "false");
  }
  $("contrast").addEventListener("click", () => {
    store(KEY.contrast, html.classList.contains("hc") ? "less" : "more");
    contrast();
  });
  if (system && system.addEventListener) system.addEventListener("change", contrast);
  contrast();

  // -- read the calls aloud
  const speech = window.speechSynthesis || null;
  let speaking = stored(KEY.speak) === "yes";
  function voice() {
    if (!speech) return null;
    return speech.getVoices().find((v) => v.lang.toLowerCase().replace("_", "-").split("-")[0] === lang) || null;
  }
  function switchState() {
    $("speak").setAttribute("aria-checked", speaking ? "true" : "false");
    $("speak-note").hidden = !(speaking && !voice());
  }
  $("speak").addEventListener("click", () => {
    speaking = !speaking;
    store(KEY.speak, speaking ? "yes" : "no");
    if (!speaking && speech) speech.cancel();
    switchState();
  });
  if (speech && speech.addEventListener) speech.addEventListener("voiceschanged", switchState);
  switchState();

  function show(label, mine) {
    $("call-now-ball").textContent = label === null ? "—" : label;
    $("call-now-mine").textContent = mine ? w.have_it : "";
    $("call-now").classList.toggle("mine", !!mine);
  }
  function say(words) {
    const found = voice();
    if (found) {
      const u = new SpeechSynthesisUtterance(words);
      u.lang = found.lang;
      u.voice = found;
      speech.speak(u);
      return;
    }
    // no voice for the page's language: the call big, and a buzz
    const box = $("call-now");
    box.classList.remove("flash");
    void box.offsetWidth; // the flash starts again for this call
    box.classList.add("flash");
    if (navigator.vibrate) navigator.vibrate(mine(words) ? [200, 100, 200] : 200);
  }
  const mine = (words) => words.endsWith(w.have_it);

  const polite = $("say-calls");
  const assertive = $("say-shout");
  const offline = $("offline");
  return {
    /** the last call, as the page opens or after a reconnect: shown, not announced */
    last(label, has) { show(label, has); },
    /** a new call: shown, announced, spoken when the switch is on */
    call(label, has) {
      show(label, has);
      const words = has ? `${label}, ${w.have_it}` : label;
      polite.textContent = words;
      if (speaking) say(words);
    },
    /** the card has just got a bingo, in these words (or lost it, "": a new round, an undo) */
    shout(words) {
      assertive.textContent = words;
      if (words && speaking && voice()) say(words);
    },
    down() {
      if (!offline.hidden) return;
      offline.hidden = false;
      polite.textContent = offline.textContent;
    },
    up() { offline.hidden = true; },
  };
}
