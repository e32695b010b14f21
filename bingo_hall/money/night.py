"""The night's summary as values (issue 27): for each game and round the cards sold, the money
taken, the prizes and their winners; the totals; what is left for the cause; and each round's
commitment and revealed seed, so anyone can audit the draws. Pure: the station reads it from
SQLite (`bingo_hall.station.ledger.summary`), the PDF (`bingo_hall.printing.ledger_pdf`), the
CSV and the command line's text are made from these values.

What is left for the cause = money taken - prizes awarded - the jackpot still in the pot (set
aside from tonight's takings and carried over to the next night).

At the door and the treasurer's table (issue 39): each game's paper stock reconciled (issued =
sold + returned + void, every gap named by its serials) and the night's cash: the float, the
count, the payouts paid in cash and the over/short = counted - (float + takings - cash payouts).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta, tzinfo

from ..errors import KitError
from ..prize_names import prize_name
from ..variants import DEFAULT_BALLS, variant_for
from .cash_count import over_short
from .currency import coin, money
from .paper_stock import Reconciled
from .serials import format_serials
from .spreadsheet import spreadsheet_safe

NIGHT_ENDS = timedelta(hours=6)  # a game started at 01:30 is still the evening before's


def night_of(created: str, tz: tzinfo | None = None) -> str:
    """The night (a date, "2026-11-24") of a game started at `created` (ISO 8601 UTC, as the
    station stores it), in the time zone `tz` (default: the machine's)."""
    at = datetime.fromisoformat(created.replace("Z", "+00:00")).astimezone(tz)
    return (at - NIGHT_ENDS).date().isoformat()


@dataclass(frozen=True)
class Payout:
    prize: str
    serial: int
    player: str | None
    at_call: int
    cents: int
    jackpot: bool
    paid: bool
    cash: bool = True  # paid in cash (when paid)


@dataclass(frozen=True)
class RoundLine:
    round: int
    cards: int
    taken: int
    commitment: str
    seed: str | None  # None until the round is over
    payouts: tuple[Payout, ...]

    @property
    def awarded(self) -> int:
        return sum(p.cents for p in self.payouts)


@dataclass(frozen=True)
class ProgramPlace:
    """A game's place in the night's program (issue 37): its number of the program's `total`,
    its names by language, and whether the Maestro skipped it."""

    number: int
    total: int
    names: Mapping[str, str]
    skipped: bool = False


@dataclass(frozen=True)
class GameLine:
    game_id: int
    deck: str
    balls: int
    rounds: tuple[RoundLine, ...]
    stock: Reconciled | None = None  # None: the hall did not count this game's paper
    program: ProgramPlace | None = None  # None: a game started by hand, not from a program

    @property
    def cards(self) -> int:
        return sum(r.cards for r in self.rounds)

    @property
    def taken(self) -> int:
        return sum(r.taken for r in self.rounds)

    @property
    def awarded(self) -> int:
        return sum(r.awarded for r in self.rounds)


@dataclass(frozen=True)
class RaffleWin:
    """A raffle prize (`place` 1 drawn first), its winning ticket ("red 7", None if not drawn)
    and the tickets drawn for it before, nobody having claimed them, with the reason."""

    place: int
    prize: str
    ticket: str | None
    redrawn: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class RaffleLine:
    """A raffle of the night (issue 37): tickets sold, money taken, prizes, its commitment and
    (once revealed) its seed."""

    raffle_id: int
    tickets: int
    taken: int
    commitment: str | None
    seed: str | None
    wins: tuple[RaffleWin, ...]


@dataclass(frozen=True)
class Cash:
    """The night's cash box: the float at the start, the count at the end (None: not counted
    yet) and, for a count by denomination, its notes and coins (value in cents, how many)."""

    float: int
    counted: int | None = None
    pieces: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class PotMove:
    """What one game did to the jackpot pot: the jackpot it set aside from its takings, and
    what its jackpot won took out."""

    game_id: int
    set_aside: int
    won: int


@dataclass(frozen=True)
class Night:
    currency: str
    games: tuple[GameLine, ...]
    carried: int  # the jackpot pot not won tonight, carried to the next night
    corrections: int  # sales voided, with their reasons, in the corrections log
    brought: int = 0  # the jackpot pot brought from earlier nights
    date: str = ""  # the night's date (see `night_of`)
    cash: Cash | None = None  # None: the treasurer gave no float and no count
    #: the night's book: its signed head as people read it (docs/audit.md), "" when unknown
    book_head: str = ""
    raffles: tuple[RaffleLine, ...] = ()
    #: the games that set a jackpot aside or paid one from the pot: where `carried` comes from
    pot_moves: tuple[PotMove, ...] = ()
    #: the names of the prizes of the host's own lists ({key: {"en": ..., "es": ...}}): the
    #: kit's own prizes are named by `prize_names`
    prize_names: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    #: the money of night sales (sold once for several games of the program) shared to games
    #: not played: not started yet, or skipped. It is in the night's takings, in no game's.
    unplayed: int = 0
    #: how many more cards the games count than were sold: a night sale's cards play (and are
    #: counted) in every game it covers, but were sold once (negative when none of its games
    #: has started yet)
    repeated_cards: int = 0

    @property
    def cards(self) -> int:
        """The cards sold tonight, each night sale's once."""
        return sum(g.cards for g in self.games) - self.repeated_cards

    @property
    def taken(self) -> int:
        """The night's takings: the cards of every game, the raffle's tickets, and the night
        sales' shares of games not played (each night sale counted once)."""
        return sum(g.taken for g in self.games) + self.raffle_taken + self.unplayed

    @property
    def raffle_taken(self) -> int:
        return sum(r.taken for r in self.raffles)

    @property
    def awarded(self) -> int:
        return sum(g.awarded for g in self.games)

    @property
    def paid(self) -> int:
        return sum(p.cents for g in self.games for r in g.rounds for p in r.payouts if p.paid)

    @property
    def unpaid(self) -> int:
        return self.awarded - self.paid

    @property
    def paid_cash(self) -> int:
        """The payouts paid in cash: what left the box."""
        return sum(
            p.cents for g in self.games for r in g.rounds for p in r.payouts if p.paid and p.cash
        )

    @property
    def expected_cash(self) -> int:
        """What the box should hold: the float, plus the takings, less the cash payouts."""
        return (self.cash.float if self.cash else 0) + self.taken - self.paid_cash

    @property
    def over_short(self) -> int | None:
        """Counted - expected: over (+) or short (-); None until the cash is counted."""
        if self.cash is None or self.cash.counted is None:
            return None
        return over_short(self.cash.counted, self.cash.float, self.taken, self.paid_cash)

    @property
    def left(self) -> int:
        """What is left for the cause: tonight's takings less the prizes, counting the jackpot
        brought from earlier nights in and the one carried to the next night out."""
        return self.taken - self.awarded + self.brought - self.carried


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
