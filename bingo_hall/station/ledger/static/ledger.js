// The ledger page: every form posts to the ledger's JSON API with the page's CSRF token; a
// refusal is shown beside the form refused and nothing changes; a change reloads the page (which
// the station draws) and says what was done. A card scanned at the door, by a USB scanner that
// types its code into the field or by the camera (scan.js), is sold at once.
import { $ } from "/web/static/dom.js";
import { post as send } from "/web/static/api.js";
import { onScanned } from "/verify/static/panel.js";

function ledgerPage(root) {
  const gid = root.dataset.game;
  const T = JSON.parse(document.getElementById("ledger-strings").textContent);
  const DONE = "ledger-done";
  const lang = document.documentElement.lang || "en";  // the answers' language: the page's

  function say(text, bad) {
    const msg = $("ledger-message");
    msg.hidden = !text;
    msg.textContent = text || "";
    msg.classList.toggle("error", !!bad);
    msg.classList.toggle("notice", !bad);
  }

  const kept = sessionStorage.getItem(DONE);
  if (kept) { sessionStorage.removeItem(DONE); say(kept, false); }

  // A refusal goes beside what was refused (the form, the button), where the host is looking:
  // the message line at the top of the page may be a screen away from the sale form.
  let where = null;  // the form or button being sent
  function refuse(text) {
    const msg = $("ledger-message");
    if (where) where.insertAdjacentElement("afterend", msg);  // the one message line, moved
    say(text, true);
    msg.scrollIntoView({ block: "nearest" });
  }

  async function post(path, payload, done) {
    try {
      // no retry: a sale or a payout is not made twice, and the ledger keeps no Idempotency-Key
      const resp = await send(`${path}?lang=${encodeURIComponent(lang)}`, payload, { retry: false });
      const data = resp.data;
      if (!resp.ok) { refuse(data.error); return; }
      if (done) sessionStorage.setItem(DONE, done(data));
      location.reload();
    } catch (e) { refuse(e.message); }
  }

  function on(id, fn) {
    const form = $(id);
    if (form) form.addEventListener("submit", (ev) => { ev.preventDefault(); where = form; fn(form); });
  }
  const sold = (d) => T.sold.replace("{cards}", d.serials);
  // the price chosen at the door for the next sale (none on the page: the list's only price);
  // it stays chosen across the page's reload after each sale
  const PRICE = `ledger-price-${gid}`;
  const price = () => { const c = document.querySelector('input[name="sale-price"]:checked'); return c ? c.value : ""; };
  const keptPrice = document.querySelector(`input[name="sale-price"][value="${sessionStorage.getItem(PRICE)}"]`);
  if (keptPrice) keptPrice.checked = true;
  document.querySelectorAll('input[name="sale-price"]').forEach((el) => {
    el.addEventListener("change", () => sessionStorage.setItem(PRICE, el.value));
  });

  // "For": a round of this game, the whole game, or a night sale ("games:2-4"): the program's
  // games from this one on, sold once at the price chosen (the night-sales API)
  function sale(payload) {
    const forWhat = $("sale-round").value;
    if (forWhat.startsWith("games:")) {
      post("/api/ledger/night-sales", { ...payload, games: forWhat.slice(6), price: price() }, sold);
    } else {
      post(`/api/games/${gid}/ledger/sales`, { ...payload, round: forWhat, price: price() }, sold);
    }
  }
  on("sell-range", () => sale({ serials: $("sale-serials").value }));
  function sellScanned(text) {
    where = $("sell-scan");  // its answer goes beside the scan, where the host looks
    sale({ scan: text });
  }
  on("sell-scan", () => sellScanned($("scan-text").value));
  onScanned(sellScanned);  // the camera (scan.js)

  on("price-form", (form) => {
    const prices = [];
    form.querySelectorAll(".price-row").forEach((row) => {
      const v = (n) => row.querySelector(`[name="${n}"]`).value.trim();
      if (v("amount") || v("label")) prices.push({ label: v("label"), amount: v("amount"), book: v("book") || "1" });
    });
    post(`/api/games/${gid}/ledger/prices`, { prices: prices });
  });
  const stocked = (d) => T.stock_done.replace("{cards}", d.serials);
  on("stock-issue", () => post(`/api/games/${gid}/ledger/stock/issue`,
    { serials: $("issue-serials").value, seller: $("issue-seller").value }, stocked));
  on("stock-return", () => post(`/api/games/${gid}/ledger/stock/return`,
    { serials: $("return-serials").value }, stocked));
  on("stock-void", () => post(`/api/games/${gid}/ledger/stock/void`,
    { serials: $("void-serials").value, reason: $("void-reason").value }, stocked));
  on("float-form", () => post("/api/ledger/cash/float",
    { amount: $("float-amount").value, reason: $("float-reason").value }));
  on("count-form", (form) => {
    const pieces = {};
    form.querySelectorAll("input[data-value]").forEach((el) => {
      if (el.value.trim()) pieces[el.dataset.value] = el.value.trim();
    });
    const total = $("count-total").value.trim();
    post("/api/ledger/cash/count", { ...(total ? { amount: total } : { pieces: pieces }),
      reason: $("count-reason").value });
  });
  on("currency-form", () => post("/api/ledger/currency", { currency: $("currency").value }));
  on("prizes-form", (form) => {
    const prizes = {};
    form.querySelectorAll(".prize-rule").forEach((set) => {
      const v = (n) => { const el = set.querySelector(`[name="${n}"]`); return el ? el.value.trim() : ""; };
      prizes[set.dataset.prize] = !v("kind") ? null  // no money prize
        : { kind: v("kind"), amount: v("amount"), percent: v("percent"), within: v("within"), jackpot: v("jackpot"),
            ...(v("mode") ? { mode: v("mode") } : {}) };
    });
    post(`/api/games/${gid}/ledger/prizes`, { prizes: prizes });
  });
  // A correction says why: a sale voided, a payout marked paid by mistake.
  const corrections = [[".correct-form", (f) => `/api/ledger/sales/${f.dataset.sale}/correct`],
                       [".stock-correct-form", (f) => `/api/ledger/stock/${f.dataset.stock}/correct`],
                       [".unpay-form", (f) => `/api/ledger/payouts/${f.dataset.payout}/unpaid`],
                       [".night-void-form", (f) => `/api/ledger/night-sales/${f.dataset.nightSale}/void`]];
  for (const [selector, path] of corrections) {
    document.querySelectorAll(selector).forEach((form) => {
      form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        where = form;
        const reason = form.querySelector("input").value.trim();
        if (!reason) { refuse(T.need_reason); return; }
        post(path(form), { reason: reason });
      });
    });
  }
  document.querySelectorAll("button.pay, button.pay-other").forEach((b) => {
    const cash = b.classList.contains("pay");
    b.addEventListener("click", () => { where = b; post(`/api/ledger/payouts/${b.dataset.payout}/paid`, { cash: cash }); });
  });
}

const root = document.getElementById("ledger");
if (root) ledgerPage(root);
