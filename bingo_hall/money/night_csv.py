"""The night's summary as a CSV for a spreadsheet (`summary_csv`): one row per round, one per
payout, then the totals, its headers and words in the reader's language; every text cell a
spreadsheet would run as a formula neutralised."""

from __future__ import annotations

import csv
import io

from ..prize_names import prize_name
from .night import Night
from .night_text import POT_WORDS, amounts, stock_lines, words
from .serials import format_serials
from .spreadsheet import spreadsheet_safe

CSV_FIELDS = (
    "game",
    "round",
    "row",
    "prize",
    "serial",
    "player",
    "at_call",
    "cards",
    "cents",
    "amount",
    "jackpot",
    "paid",
    "detail",
)

#: The CSV's headers and its words in Spanish (`--lang es`); English keeps the field names.
CSV_ES = {
    "game": "partida",
    "round": "ronda",
    "row": "tipo",
    "prize": "premio",
    "serial": "cartón",
    "player": "jugador",
    "at_call": "bola",
    "cards": "cartones",
    "cents": "centésimos",
    "amount": "importe",
    "jackpot": "pozo",
    "paid": "pagado",
    "detail": "detalle",
    "payout": "pago",
    "yes": "sí",
    "no": "no",
    "commitment": "orden sellado",
    "seed": "clave del sorteo",
    "total taken": "total recaudado",
    "total awarded": "total otorgado",
    "total paid": "total pagado",
    "total brought": "total traído de noches anteriores",
    "total carried": "total que pasa a la próxima noche",
    "total left": "total para la causa",
    "book head": "cabeza del libro (cabeza · asiento · clave de la estación)",
    "raffle": "rifa",
    "raffle prize": "premio de la rifa",
    "redrawn": "sorteado de nuevo",
    "stock": "existencias",
    "gap": "faltan",
    "total float": "total cambio inicial",
    "total cash payouts": "total premios en efectivo",
    "total expected": "total esperado en caja",
    "total counted": "total contado",
    "total over/short": "total sobra/falta",
    "pieces": "billetes y monedas",
}


def summary_csv(night: Night, lang: str = "en") -> str:
    """One row per round, one per payout, then the totals; amounts in cents and formatted.
    Every text cell a spreadsheet would run as a formula is neutralised (`spreadsheet_safe`).
    In Spanish the headers and the words are Spanish too (CSV_ES), and prizes have their names."""
    m = amounts(night, lang)
    es = lang == "es"

    def t(word: str) -> str:
        return CSV_ES[word] if es else word

    def prize(key: str) -> str:
        return prize_name(key, lang, night.prize_names) if es else key

    rows: list[dict[str, object]] = []
    for g in night.games:
        for r in g.rounds:
            seed = f"; {t('seed')} {r.seed}" if r.seed else ""
            rows.append(
                {
                    "game": g.game_id,
                    "round": r.round,
                    "row": t("round"),
                    "cards": r.cards,
                    "cents": r.taken,
                    "amount": m(r.taken),
                    "detail": f"{g.deck}; {t('commitment')} {r.commitment}{seed}",
                }
            )
            for p in r.payouts:
                rows.append(
                    {
                        "game": g.game_id,
                        "round": r.round,
                        "row": t("payout"),
                        "prize": prize(p.prize),
                        "serial": p.serial,
                        "player": p.player or "",
                        "at_call": p.at_call,
                        "cents": p.cents,
                        "amount": m(p.cents),
                        "jackpot": t("yes") if p.jackpot else "",
                        "paid": t("yes") if p.paid else t("no"),
                    }
                )
        if g.stock is not None:
            st = g.stock
            rows.append(
                {
                    "game": g.game_id,
                    "row": t("stock"),
                    "cards": st.issued,
                    "detail": stock_lines(g, lang)[0],
                }
            )
            for gap in st.gaps:
                rows.append(
                    {
                        "game": g.game_id,
                        "row": t("gap"),
                        "player": gap.seller,
                        "cards": sum(len(r) for r in gap.serials),
                        "detail": format_serials(gap.serials),
                    }
                )
    for raf in night.raffles:
        seed = f"; {t('seed')} {raf.seed}" if raf.seed else ""
        rows.append(
            {
                "game": "",
                "row": t("raffle"),
                "cards": raf.tickets,
                "cents": raf.taken,
                "amount": m(raf.taken),
                "detail": f"{t('raffle')} {raf.raffle_id}; {t('commitment')} {raf.commitment}"
                + seed,
            }
        )
        for win in raf.wins:
            gone = "; ".join(f"{t('redrawn')}: {tk}, {why}" for tk, why in win.redrawn)
            rows.append(
                {
                    "round": win.place,
                    "row": t("raffle prize"),
                    "prize": win.prize,
                    "serial": win.ticket or "",
                    "detail": gone,
                }
            )
    if night.unplayed:
        unplayed = words(lang)["unplayed"]
        rows.append({"row": unplayed, "cents": night.unplayed, "amount": m(night.unplayed)})
    cash: list[tuple[str, int]] = []
    if night.cash is not None:
        cash = [
            ("float", night.cash.float),
            ("cash payouts", night.paid_cash),
            ("expected", night.expected_cash),
        ]
        if night.over_short is not None and night.cash.counted is not None:
            cash += [("counted", night.cash.counted), ("over/short", night.over_short)]
    for move in night.pot_moves:  # where the pot carried comes from
        pot = POT_WORDS[lang]
        for label, cents in ((pot["set aside"], move.set_aside), (pot["won"], -move.won)):
            if cents:
                label %= {"game": move.game_id}
                rows.append({"row": label, "cents": cents, "amount": m(cents)})
    for key, cents in (
        ("taken", night.taken),
        ("awarded", night.awarded),
        ("paid", night.paid),
        ("brought", night.brought),
        ("carried", night.carried),
        ("left", night.left),
        *cash,
    ):
        row = {"row": t(f"total {key}"), "cents": cents, "amount": m(cents)}
        if key == "counted" and night.cash and night.cash.pieces:
            row["detail"] = f"{t('pieces')}: " + "; ".join(
                f"{n} x {v}" for v, n in night.cash.pieces
            )
        rows.append(row)
    if night.book_head:
        rows.append({"row": t("book head"), "detail": night.book_head})
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([t(field) for field in CSV_FIELDS])
    writer.writerows([spreadsheet_safe(row.get(field, "")) for field in CSV_FIELDS] for row in rows)
    return out.getvalue()
