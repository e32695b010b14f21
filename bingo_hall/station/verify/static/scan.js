// "Scan card" on the caller page: the laptop's camera reads a card's QR code with jsQR (served
// from the package: static/vendor, no internet needed at the hall). The code's URL goes to the
// serial field as if typed, and claims.js takes deck, serial and signature from its path,
// ignoring the host the card was printed for. (An ES module; jsQR is the vendored library's
// classic script, which defines window.jsQR.)
import { cardRef, checkScanned } from "./panel.js";

function scanner(button, box) {
  const video = box.querySelector("video");
  const note = box.querySelector(".scan-note");
  const T = box.dataset;  // hold, noCamera, notACard: in the page's language
  const canvas = document.createElement("canvas");
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  let stream = null;

  function stop() {
    if (stream) stream.getTracks().forEach((t) => t.stop());
    stream = null;
    video.srcObject = null;
    box.hidden = true;
    button.setAttribute("aria-pressed", "false");
  }

  function look() {
    if (!stream) return;
    if (video.readyState >= 2 && video.videoWidth) {
      canvas.width = video.videoWidth;
      canvas.height = video.videoHeight;
      ctx.drawImage(video, 0, 0);
      const img = ctx.getImageData(0, 0, canvas.width, canvas.height);
      const code = window.jsQR(img.data, img.width, img.height, { inversionAttempts: "dontInvert" });
      if (code && cardRef(code.data)) {
        stop();
        checkScanned(code.data);
        return;
      }
      if (code) note.textContent = T.notACard;
    }
    requestAnimationFrame(look);
  }

  button.addEventListener("click", async () => {
    if (stream) { stop(); return; }
    box.hidden = false;
    note.textContent = T.hold;
    if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
      note.textContent = T.noCamera;
      return;
    }
    try {
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
    } catch (e) {
      note.textContent = T.noCamera;
      return;
    }
    button.setAttribute("aria-pressed", "true");
    video.srcObject = stream;
    await video.play().catch(() => {});
    requestAnimationFrame(look);
  });
  box.querySelector(".scan-stop").addEventListener("click", stop);
}

const button = document.getElementById("scan-card");
const box = document.getElementById("scan-box");
if (button && box) scanner(button, box);
