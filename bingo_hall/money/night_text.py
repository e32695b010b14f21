"""The night's summary in words (`summary_text`, the command line's and the PDF's lines), in
Spanish and English, made from the summary's values (`night.Night`)."""

from __future__ import annotations

from collections.abc import Callable

from ..errors import KitError
from ..prize_names import prize_name
from ..variants import DEFAULT_BALLS, variant_for
from .currency import coin, money
from .night import GameLine, Night, Payout, RaffleLine
from .serials import format_serials

WORDS: dict[str, dict[str, str]] = {
    "es": {
        "title": "Resumen de la noche",
        "book head": "Libro de la noche (cabeza firmada · asiento · clave de la estación)",
        "game": "Partida",
        "program": "Programa",
        "skipped": "saltada",
        "round": "Ronda",
        "cards": "Cartones vendidos",
        "taken": "Recaudado",
        "prizes": "Premios",
        "no_prizes": "sin premios pagados",
        "card": "cartón",
        "at_call": "tras %(n)s bolas",
        "jackpot": "pozo",
        "unpaid": "sin pagar",
        "totals": "Totales",
        "awarded": "Premios otorgados",
        "paid": "Pagados",
        "carried": "Pozo que pasa a la próxima noche",
        "brought": "Pozo traído de noches anteriores",
        "left": "Queda para la causa",
        "corrections": "Ventas corregidas (ver el registro de correcciones)",
        "audit": "Auditoría de los sorteos: orden sellado y clave del sorteo de cada ronda",
        "commitment": "orden sellado",
        "seed": "clave del sorteo",
        "not_revealed": "sin revelar (la ronda sigue)",
        "balls": "bolas",
        "raffle": "Rifa",
        "raffle_tickets": "Papeletas vendidas",
        "raffle_taken": "Recaudado en la rifa",
        "redrawn": "sorteado de nuevo",
        "not_drawn": "sin sortear",
        "stock": "Cartones en papel",
        "stock_line": "entregados %(issued)s = vendidos %(sold)s + devueltos %(returned)s + "
        "anulados %(void)s",
        "stock_out": " + %(n)s sin justificar",
        "stock_gap": "cartones %(cards)s entregados a %(seller)s, ni vendidos ni devueltos",
        "cash": "Caja",
        "float": "Cambio inicial",
        "counted": "Contado al final",
        "not_counted": "sin contar",
        "paid_cash": "Premios pagados en efectivo",
        "expected": "Esperado en caja (cambio + recaudado - premios en efectivo)",
        "over": "Sobra",
        "short": "Falta",
        "even": "Cuadra",
        "unplayed": "Ventas de la noche para partidas no jugadas",
    },
    "en": {
        "title": "The night's summary",
        "book head": "The night's book (signed head · entry · key)",
        "game": "Game",
        "program": "Program",
        "skipped": "skipped",
        "round": "Round",
        "cards": "Cards sold",
        "taken": "Money taken",
        "prizes": "Prizes",
        "no_prizes": "no prizes paid",
        "card": "card",
        "at_call": "after %(n)s calls",
        "jackpot": "jackpot",
        "unpaid": "unpaid",
        "totals": "Totals",
        "awarded": "Prizes awarded",
        "paid": "Paid",
        "carried": "Jackpot carried to the next night",
        "brought": "Jackpot brought from earlier nights",
        "left": "Left for the cause",
        "corrections": "Sales corrected (see the corrections log)",
        "audit": "Auditing the draws: each round's commitment and seed",
        "commitment": "commitment",
        "seed": "seed",
        "not_revealed": "not revealed (the round goes on)",
        "balls": "balls",
        "raffle": "Raffle",
        "raffle_tickets": "Raffle tickets sold",
        "raffle_taken": "Money taken by the raffle",
        "redrawn": "redrawn",
        "not_drawn": "not drawn",
        "stock": "Paper stock",
        "stock_line": "issued %(issued)s = sold %(sold)s + returned %(returned)s + void %(void)s",
        "stock_out": " + %(n)s not accounted for",
        "stock_gap": "cards %(cards)s issued to %(seller)s, neither sold nor returned",
        "cash": "Cash",
        "float": "Float",
        "counted": "Counted at the end",
        "not_counted": "not counted",
        "paid_cash": "Payouts paid in cash",
        "expected": "Expected in the box (float + takings - cash payouts)",
        "over": "Over",
        "short": "Short",
        "even": "Balances",
        "unplayed": "Night sales for games not played",
    },
}


def amounts(night: Night, lang: str) -> Callable[[int], str]:
    """Amounts of the night's currency as `lang` writes them."""

    def fmt(cents: int) -> str:
        return money(cents, night.currency, lang)

    return fmt


def words(lang: str) -> dict[str, str]:
    if lang not in WORDS:
        raise KitError("unknown language %(lang)r; use es or en", lang=lang)
    return WORDS[lang]


#: a 90-ball game deals in tickets, not cards: the words of each layout (`Variant.layout`)
UNITS: dict[str, dict[str, dict[str, str]]] = {
    "ticket": {
        "en": {"cards": "Tickets sold", "card": "ticket"},
        "es": {"cards": "Cartones vendidos", "card": "cartón"},
    },
    "mixed": {
        "en": {"cards": "Cards and tickets sold", "card": "card"},
        "es": {"cards": "Cartones vendidos", "card": "cartón"},
    },
}


def unit_words(lang: str, balls: int | None) -> dict[str, str]:
    """The summary's words with the paper of a game of `balls` (None: a night of both): "Tickets
    sold", "ticket 4" for 90 balls; the words as they are for 75-ball cards."""
    w = words(lang)
    layout = "mixed" if balls is None else variant_for(balls).layout
    return {**w, **UNITS.get(layout, {}).get(lang, {})}


def _night_balls(night: Night) -> int | None:
    """The balls every game of the night was played with (None: both kinds, or no game)."""
    kinds = {g.balls for g in night.games}
    return kinds.pop() if len(kinds) == 1 else None


def payout_text(p: Payout, night: Night, lang: str, balls: int = DEFAULT_BALLS) -> str:
    w = unit_words(lang, balls)
    who = f"{w['card']} {p.serial}" + (f" ({p.player})" if p.player else "")
    name = prize_name(p.prize, lang, night.prize_names)
    text = f"{name}: {money(p.cents, night.currency, lang)} · {who} · "
    text += w["at_call"] % {"n": p.at_call}
    if p.jackpot:
        text += f" · {w['jackpot']}"
    if not p.paid:
        text += f" · {w['unpaid']}"
    return text


def totals(night: Night, lang: str) -> list[tuple[str, str]]:
    """(label, amount) of the totals, in the order printed."""
    w, m = words(lang), amounts(night, lang)
    rows = [
        (unit_words(lang, _night_balls(night))["cards"], str(night.cards)),
        *([(w["raffle_taken"], m(night.raffle_taken))] if night.raffles else []),
        *([(w["unplayed"], m(night.unplayed))] if night.unplayed else []),
        (w["taken"], m(night.taken)),
        (w["awarded"], m(night.awarded)),
        (w["paid"], m(night.paid)),
        *([(w["brought"], m(night.brought))] if night.brought else []),
        *pot_lines(night, lang),
        (w["carried"], m(night.carried)),
        (w["left"], m(night.left)),
        ("", left_sum(night, lang)),
    ]
    if night.corrections:
        rows.append((w["corrections"], str(night.corrections)))
    return rows


def pot_lines(night: Night, lang: str) -> list[tuple[str, str]]:
    """Where the pot carried to the next night comes from: each game's jackpot set aside from
    its takings, and each jackpot won from the pot."""
    w, m = POT_WORDS[lang], amounts(night, lang)
    rows = []
    for move in night.pot_moves:
        if move.set_aside:
            rows.append((w["set aside"] % {"game": move.game_id}, m(move.set_aside)))
        if move.won:
            rows.append((w["won"] % {"game": move.game_id}, "- " + m(move.won)))
    return rows


def left_sum(night: Night, lang: str) -> str:
    """How "left for the cause" is worked out, in the night's figures."""
    w, m = POT_WORDS[lang], amounts(night, lang)
    return w["left is"] % {
        "taken": m(night.taken),
        "awarded": m(night.awarded),
        "brought": m(night.brought),
        "carried": m(night.carried),
    }


#: the lines that explain the pot and what is left for the cause (summary text and PDF)
POT_WORDS: dict[str, dict[str, str]] = {
    "es": {
        "set aside": "Pozo apartado en la partida %(game)s (de lo recaudado)",
        "won": "Pozo ganado en la partida %(game)s",
        "left is": "(lo recaudado %(taken)s − premios %(awarded)s + pozo traído %(brought)s "
        "− pozo que pasa %(carried)s)",
    },
    "en": {
        "set aside": "Jackpot set aside in game %(game)s (from its takings)",
        "won": "Jackpot won in game %(game)s",
        "left is": "(taken %(taken)s − prizes %(awarded)s + jackpot brought %(brought)s "
        "− jackpot carried %(carried)s)",
    },
}


def stock_lines(game: GameLine, lang: str) -> list[str]:
    """A game's paper stock: the reconciliation, then each gap by its serials ("cards 88-90
    issued to Ana, neither sold nor returned"); nothing when the hall did not count it."""
    st = game.stock
    if st is None:
        return []
    w = words(lang)
    gaps_n = st.missing
    line = w["stock_line"] % {
        "issued": st.issued,
        "sold": st.sold,
        "returned": st.returned,
        "void": st.void,
    }
    if gaps_n:
        line += w["stock_out"] % {"n": gaps_n}
    out = [f"{w['stock']}: {line}"]
    out += [
        w["stock_gap"] % {"cards": format_serials(g.serials), "seller": g.seller} for g in st.gaps
    ]
    return out


def cash_lines(night: Night, lang: str) -> list[tuple[str, str]]:
    """(label, amount) of the night's cash, in the order printed; nothing when the treasurer
    gave no float and no count."""
    if night.cash is None:
        return []
    w, m = words(lang), amounts(night, lang)
    counted = night.cash.counted
    rows = [
        (w["float"], m(night.cash.float)),
        (w["taken"], m(night.taken)),
        (w["paid_cash"], m(night.paid_cash)),
        (w["expected"], m(night.expected_cash)),
        (w["counted"], w["not_counted"] if counted is None else m(counted)),
    ]
    if night.cash.pieces:
        pieces = (f"{n} × {coin(v, night.currency, lang)}" for v, n in night.cash.pieces)
        rows.append(("", " · ".join(pieces)))
    diff = night.over_short
    if diff is not None:
        label = w["over"] if diff > 0 else w["short"] if diff < 0 else w["even"]
        rows.append((label, m(abs(diff))))
    return rows


def game_heading(g: GameLine, lang: str) -> str:
    """A game's line in the summary: "Game 4 · Fiesta · 75 balls", and its place in the
    program when it was one of the program's: "· Program 2/3: The X (skipped)"."""
    w = words(lang)
    text = f"{w['game']} {g.game_id} · {g.deck} · {g.balls} {w['balls']}"
    if g.program is not None:
        place = g.program
        name = place.names.get(lang) or place.names.get("en", "")
        text += f" · {w['program']} {place.number}/{place.total}: {name}"
        if place.skipped:
            text += f" ({w['skipped']})"
    return text


def summary_text(night: Night, lang: str = "en") -> str:
    """The summary as plain text (`bingo-hall ledger`)."""
    w, m = words(lang), amounts(night, lang)
    out = [f"{w['title']} {night.date}".rstrip(), ""]
    for g in night.games:
        out.append(game_heading(g, lang))
        u = unit_words(lang, g.balls)
        for r in g.rounds:
            out.append(
                f"  {w['round']} {r.round}: {u['cards']} {r.cards} · {w['taken']} {m(r.taken)}"
            )
            for p in r.payouts:
                out.append("    " + payout_text(p, night, lang, g.balls))
        out += ["  " + line for line in stock_lines(g, lang)]
    for raf in night.raffles:
        out.append(raffle_heading(raf, night, lang))
        out += ["  " + line for line in raffle_lines(raf, lang)]
    out += ["", w["totals"]]
    out += [
        f"  {label}: {value}" if label else f"    {value}" for label, value in totals(night, lang)
    ]
    cash = cash_lines(night, lang)
    if cash:
        out += ["", w["cash"]]
        out += [f"  {label}: {value}" if label else f"    {value}" for label, value in cash]
    out += ["", w["audit"]]
    for g in night.games:
        for r in g.rounds:
            seed = r.seed or w["not_revealed"]
            out.append(
                f"  {w['game']} {g.game_id} {w['round']} {r.round}: {w['commitment']} "
                f"{r.commitment} · {w['seed']} {seed}"
            )
    for raf in night.raffles:
        seed = raf.seed or w["not_revealed"]
        sealed = f"{w['commitment']} {raf.commitment}"
        out.append(f"  {w['raffle']} {raf.raffle_id}: {sealed} · {w['seed']} {seed}")
    return "\n".join(out) + "\n"


def raffle_heading(r: RaffleLine, night: Night, lang: str) -> str:
    """The raffle's line: "Raffle 1 · Raffle tickets sold 25 · Money taken 62.50"."""
    w, m = words(lang), amounts(night, lang)
    sold = f"{w['raffle_tickets']} {r.tickets}"
    return f"{w['raffle']} {r.raffle_id} · {sold} · {w['taken']} {m(r.taken)}"


def raffle_lines(r: RaffleLine, lang: str) -> list[str]:
    """One line per prize: "1. Hamper: blue 3 (redrawn: red 7, nobody claimed it)"."""
    w = words(lang)
    out = []
    for win in r.wins:
        line = f"{win.place}. {win.prize}: {win.ticket or w['not_drawn']}"
        if win.redrawn:
            gone = "; ".join(f"{t}, {reason}" for t, reason in win.redrawn)
            line += f" ({w['redrawn']}: {gone})"
        out.append(line)
    return out
