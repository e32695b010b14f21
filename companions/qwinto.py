"""Qwinto, the dice sheet: one paper sheet per player, with the placement rules enforced.

Rules: `dice-sheet-qwinto.es.txt` ("Anotar números", "Desarrollo del juego", "Final del
juego y recuento de puntos"), read through `docs/rules.md` §4, which restores the sheet
diagram the scan lost. The sheet's shape is `LAYOUT` below, and nothing else: the engine, the phone
panel (through the view) and the tests all read it.

Decisions where the seed is silent (see also the module's `replay`):
- A "roll" entry names the active player, the colours of the dice they threw and, optionally, the
  announced sum. Every player may then write that sum once, in a row of a rolled colour; the active
  player must write it or cross a failed throw before the next roll.
- One throw, one number ("anotar la suma dicha por el jugador activo"): when the roll carries no
  sum, the first number written on it fixes the sum for everyone, and a different number is
  refused. Every number written, with or without an announced sum, must be one the thrown dice can
  make (1 die 1-6, 2 dice 2-12, 3 dice 3-18).
- The turn passes clockwise ("el siguiente ... en el sentido de las agujas del reloj"), in the
  order the players were typed at set-up. The first throw may be anyone's (the seed draws lots for
  who starts); after it, only the next seat may throw. Setting `clockwise: false` lets anyone throw
  next, for tables that forget whose turn it is.
- The end is checked after each entry, but the throw in progress is finished: at the table everyone
  writes the announced sum at the same moment, so players who had not yet written it still may.
  No new roll is accepted. (Setting `rolls: false` turns the panel into free sheets: no colours,
  any player may cross a failed throw, and the game ends at once.)
- Ties share the first place.

One idea in one module, though it is long: one game's engine for the companion contract
(docs/dev/companion-games.md). The sheet, the table of sheets, the view the panel draws and the
replay of the entries all read `LAYOUT` and the same placement rules, and change together.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bingo_hall.values import JsonValue
from companions.entries import EntryFields
from companions.errors import EntryError

COLOURS = ("orange", "yellow", "purple")
BOXES_PER_ROW = 9
COLUMNS = 12
LOWEST, HIGHEST = 1, 18  # the sums of one to three dice
MAX_FAILS = 4  # the 4th failed throw ends the game
FAIL_PENALTY = 5
ROWS_TO_END = 2


@dataclass(frozen=True)
class Row(JsonValue):
    """One coloured row: the sheet column (0-11) of each of its 9 boxes, and its blank gap."""

    colour: str
    columns: tuple[int, ...]
    gap: int


#: The paper sheet (docs/rules.md §4): three staggered rows of 9 boxes, each with one gap.
LAYOUT: tuple[Row, ...] = (
    Row("orange", (2, 3, 4, 6, 7, 8, 9, 10, 11), gap=5),
    Row("yellow", (1, 2, 3, 4, 5, 7, 8, 9, 10), gap=6),
    Row("purple", (0, 1, 2, 3, 5, 6, 7, 8, 9), gap=4),
)
#: The pentagon (bonus) box of each 3-box column, as (colour, box).
PENTAGONS: tuple[tuple[str, int], ...] = (
    ("purple", 2),
    ("orange", 1),
    ("orange", 4),
    ("yellow", 6),
    ("purple", 8),
)
ROWS = {row.colour: row for row in LAYOUT}


def column_boxes(column: int) -> tuple[tuple[str, int], ...]:
    """The (colour, box) pairs that share a sheet column, top to bottom."""
    return tuple((row.colour, row.columns.index(column)) for row in LAYOUT if column in row.columns)


#: The five columns with a box in every row: their pentagon pays out when all three are filled.
BONUS_COLUMNS: tuple[int, ...] = tuple(c for c in range(COLUMNS) if len(column_boxes(c)) == 3)


def pentagon_of(column: int) -> tuple[str, int]:
    return next(p for p in PENTAGONS if ROWS[p[0]].columns[p[1]] == column)


@dataclass(frozen=True)
class Score(JsonValue):
    """The final-score arithmetic of the seed: rows, then the 3-box columns, then failed throws."""

    rows: dict[str, int]
    columns: dict[int, int]  # complete 3-box column -> its pentagon's number
    fails: int  # the penalty, a negative number
    total: int

    def to_json(self) -> dict[str, Any]:
        return {
            "rows": dict(self.rows),
            "columns": {str(c): v for c, v in self.columns.items()},
            "fails": self.fails,
            "total": self.total,
        }


def _colour(colour: Any) -> Row:
    if not isinstance(colour, str) or colour not in ROWS:
        raise EntryError("There is no such row: use orange, yellow or purple", field="colour")
    return ROWS[colour]


def _box(box: Any) -> int:
    if isinstance(box, bool) or not isinstance(box, int) or not 0 <= box < BOXES_PER_ROW:
        raise EntryError("There is no such box: boxes are 0 to 8 within a row", field="box")
    return int(box)


def check_sum(value: Any) -> int:
    """The announced sum is the total of one, two or three six-sided dice."""
    if isinstance(value, bool) or not isinstance(value, int) or not LOWEST <= value <= HIGHEST:
        raise EntryError("The sum must be a whole number from 1 to 18", field="value")
    return int(value)


class Sheet:
    """One player's paper sheet: the numbers in the boxes and the crossed failed throws."""

    def __init__(self) -> None:
        self.boxes: dict[str, list[int | None]] = {c: [None] * BOXES_PER_ROW for c in COLOURS}
        self.fails = 0

    def check(self, colour: str, box: int, value: int) -> None:
        """The two rules of "Anotar números" (plus a full box, and the seed's 1-18 range):

        1) within a row numbers increase left to right (so none repeats), with empty boxes
           allowed in between; 2) no number repeats within a column, of 2 or of 3 boxes.
        """
        row = _colour(colour)
        box = _box(box)
        value = check_sum(value)
        if self.game_over:
            raise EntryError("The game is over")
        numbers = self.boxes[row.colour]
        if numbers[box] is not None:
            raise EntryError("This box is already full", field="box")
        left = [n for n in numbers[:box] if n is not None]
        if left and max(left) >= value:
            raise EntryError(
                # "before"/"after", not left/right: the phone shows the sheet turned a quarter
                "%(value)s is not larger than every number before it in the row "
                "(%(left)s is there)",
                field="value",
                value=value,
                left=max(left),
            )
        right = [n for n in numbers[box + 1 :] if n is not None]
        if right and min(right) <= value:
            raise EntryError(
                "%(value)s is not smaller than every number after it in the row "
                "(%(right)s is there)",
                field="value",
                value=value,
                right=min(right),
            )
        if value in self.column_numbers(row.columns[box]):
            raise EntryError(
                "%(value)s is already in this column (the boxes lined up across the colours)",
                field="value",
                value=value,
            )

    def place(self, colour: str, box: int, value: int) -> None:
        """Write `value` in box `box` (0-8) of the `colour` row, or raise the rule it breaks."""
        self.check(colour, box, value)
        self.boxes[colour][box] = value

    def fail(self) -> None:
        """Cross one failed-throw box ("tiro fallido"); the sheet has four."""
        if self.fails >= MAX_FAILS:
            raise EntryError("All four failed-throw boxes are already crossed")
        if self.game_over:
            raise EntryError("The game is over")
        self.fails += 1

    def column_numbers(self, column: int) -> list[int]:
        return [
            n for colour, box in column_boxes(column) if (n := self.boxes[colour][box]) is not None
        ]

    def fits(self, colour: str, box: int, value: int) -> bool:
        try:
            self.check(colour, box, value)
        except EntryError:
            return False
        return True

    @property
    def complete_rows(self) -> tuple[str, ...]:
        return tuple(c for c in COLOURS if None not in self.boxes[c])

    @property
    def complete_columns(self) -> tuple[int, ...]:
        return tuple(c for c in BONUS_COLUMNS if len(self.column_numbers(c)) == 3)

    @property
    def game_over(self) -> bool:
        """ "El juego finaliza cuando un jugador haya completado dos líneas ... o ... su cuarto
        tiro fallido"."""
        return len(self.complete_rows) >= ROWS_TO_END or self.fails >= MAX_FAILS

    def breakdown(self) -> Score:
        """ "Recuento de puntos": an incomplete row scores 1 a number, a complete one its rightmost
        number; a complete 3-box column scores its pentagon; each failed throw costs 5."""
        rows: dict[str, int] = {}
        for colour in COLOURS:
            filled = [n for n in self.boxes[colour] if n is not None]
            rows[colour] = filled[-1] if len(filled) == BOXES_PER_ROW else len(filled)
        columns: dict[int, int] = {}
        for column in self.complete_columns:
            colour, box = pentagon_of(column)
            number = self.boxes[colour][box]
            if number is not None:  # always: a complete column has all its boxes filled
                columns[column] = number
        fails = -FAIL_PENALTY * self.fails
        return Score(rows, columns, fails, sum(rows.values()) + sum(columns.values()) + fails)

    def score(self) -> int:
        return self.breakdown().total


# --- the table: one sheet per player, the active player's roll, the end of the game ------------

DEFAULT_SETTINGS: dict[str, Any] = {"rolls": True, "clockwise": True}


@dataclass(frozen=True)
class Settings(JsonValue):
    """The table's house rules: whether the rolls are recorded and checked, and whether the dice
    must pass clockwise (see the module's text)."""

    rolls: bool = True
    clockwise: bool = True

    @classmethod
    def from_json(cls, settings: Mapping[str, Any]) -> Settings:
        """The stored settings, checked: an unknown one, or a yes/no that is not, is refused."""
        unknown = sorted(set(settings) - set(DEFAULT_SETTINGS))
        if unknown:
            raise EntryError("Unknown setting: %(name)s", field=unknown[0], name=unknown[0])
        rolls = settings.get("rolls", DEFAULT_SETTINGS["rolls"])
        if not isinstance(rolls, bool):
            raise EntryError("Recording the rolls is either on or off", field="rolls")
        clockwise = settings.get("clockwise", DEFAULT_SETTINGS["clockwise"])
        if not isinstance(clockwise, bool):
            raise EntryError("Clockwise turns are either on or off", field="clockwise")
        return cls(rolls=rolls, clockwise=clockwise)


@dataclass(frozen=True)
class Entry(EntryFields):
    """One stored entry: its `id`, its `op` ("roll", "place" or "fail"), the `player` who sent
    it, and the fields of its op as sent (a roll's `colours` and `sum`, a number's `colour`,
    `box` and `value`), each checked by the rule that reads it."""

    id: int | None
    op: object
    player: object
    colours: object = None
    sum: object = None
    colour: object = None
    box: object = None
    value: object = None

    @classmethod
    def from_json(cls, entry: Mapping[str, Any]) -> Entry:
        if not isinstance(entry, Mapping):
            raise EntryError("Unknown entry: use roll, place or fail", field="op")
        return super().from_json(entry)


@dataclass
class _Roll:
    """The throw in progress ("Desarrollo del juego"): who threw, which dice, the sum if given."""

    id: int | None
    player: str
    colours: tuple[str, ...]
    sum: int | None
    written: dict[str, int | None]  # player -> the entry id of their number or failed throw
    failed: set[str]
    #: who wrote the number that fixed the sum, when the roll did not announce one
    sum_by: str | None = None


class Table:
    """The sheets of everyone at the table, rebuilt entry by entry (see `replay`)."""

    def __init__(
        self, players: Iterable[str], *, rolls: bool = True, clockwise: bool = True
    ) -> None:
        self.players = list(players)
        self.sheets = {p: Sheet() for p in self.players}
        self.rolls = rolls
        self.clockwise = clockwise
        self.roll: _Roll | None = None
        self.ended: dict[str, str] | None = None
        self.last_entry: dict[str, int | None] = {}

    def apply(self, entry: Entry) -> None:
        ops = {"roll": self._roll, "place": self._place, "fail": self._fail}
        if not isinstance(entry.op, str) or entry.op not in ops:
            raise EntryError("Unknown entry: use roll, place or fail", field="op")
        player = entry.player
        if not isinstance(player, str) or player not in self.sheets:
            raise EntryError("Choose a player of this table", field="player")
        ops[entry.op](player, entry)
        if entry.op != "roll":
            self.last_entry[player] = entry.id
        if self.ended is None:
            for name in self.players:
                sheet = self.sheets[name]
                if sheet.game_over:
                    rows = len(sheet.complete_rows) >= ROWS_TO_END
                    self.ended = {"player": name, "reason": "rows" if rows else "fails"}
                    break

    def _roll(self, player: str, entry: Entry) -> None:
        if not self.rolls:
            raise EntryError("This table does not record rolls")
        if self.ended is not None:
            raise EntryError("The game is over")
        if self.roll is not None and self.roll.player not in self.roll.written:
            raise EntryError(
                "%(player)s must write the sum or cross a failed throw before the next roll",
                field="player",
                player=self.roll.player,
            )
        if self.clockwise and self.roll is not None and player != self.next_active():
            raise EntryError(
                "It is %(player)s's turn to throw: the dice pass clockwise",
                field="player",
                player=self.next_active(),
            )
        colours = entry.colours
        if (
            not isinstance(colours, list)
            or not 1 <= len(colours) <= 3
            or not all(isinstance(c, str) and c in ROWS for c in colours)
            or len(set(colours)) != len(colours)
        ):
            raise EntryError("Choose one, two or three dice of different colours", field="colours")
        total = None if entry.sum is None else _dice_can_make(len(colours), check_sum(entry.sum))
        ordered = tuple(c for c in COLOURS if c in colours)
        self.roll = _Roll(entry.id, player, ordered, total, {}, set())

    def _turn(self, player: str) -> _Roll | None:
        """The rules of a throw that apply to every entry on a sheet."""
        if not self.rolls:
            if self.ended is not None:
                raise EntryError("The game is over")
            return None
        if self.roll is None:
            raise EntryError("Roll first: the active player chooses the dice")
        if player in self.roll.failed:
            raise EntryError("%(player)s crossed a failed throw on this roll", player=player)
        if player in self.roll.written:
            raise EntryError("%(player)s has already written a number on this roll", player=player)
        return self.roll

    def _place(self, player: str, entry: Entry) -> None:
        roll = self._turn(player)
        row = _colour(entry.colour)
        value = check_sum(entry.value)
        if roll is not None:
            if row.colour not in roll.colours:
                raise EntryError(
                    "Only the rows of the rolled dice can take this sum", field="colour"
                )
            _dice_can_make(len(roll.colours), value)
            if roll.sum is not None and value != roll.sum and roll.sum_by is None:
                raise EntryError(
                    "The announced sum is %(sum)s: on one throw everyone writes the same number",
                    field="value",
                    sum=roll.sum,
                )
            if roll.sum is not None and value != roll.sum:
                raise EntryError(
                    "%(player)s already wrote %(sum)s on this throw: everyone writes the one sum "
                    "the active player announced",
                    field="value",
                    player=roll.sum_by,
                    sum=roll.sum,
                )
        self.sheets[player].place(row.colour, _box(entry.box), value)
        if roll is not None:
            roll.written[player] = entry.id
            if roll.sum is None:  # the first number written fixes the sum nobody typed
                roll.sum, roll.sum_by = value, player

    def _fail(self, player: str, entry: Entry) -> None:
        roll = self._turn(player)
        if roll is not None and player != roll.player:
            raise EntryError(
                "Only the active player (%(player)s) can cross a failed throw",
                field="player",
                player=roll.player,
            )
        self.sheets[player].fail()
        if roll is not None:
            roll.written[player] = entry.id
            roll.failed.add(player)

    def next_active(self) -> str | None:
        """Play passes clockwise: the player after the last active one, in the table's order.
        Before the first throw it is the first player typed (a suggestion: anyone may start)."""
        if not self.players:
            return None
        if self.roll is None:
            return self.players[0]
        return self.players[(self.players.index(self.roll.player) + 1) % len(self.players)]

    def ranking(self) -> tuple[Ranked, ...]:
        scores = {p: self.sheets[p].score() for p in self.players}
        ordered = sorted(self.players, key=lambda p: -scores[p])
        return tuple(
            Ranked(p, scores[p], 1 + sum(s > scores[p] for s in scores.values())) for p in ordered
        )

    def view(self) -> QwintoView:
        ranking = self.ranking()
        winners = tuple(r.player for r in ranking if r.place == 1) if self.ended else ()
        roll = self.roll
        return QwintoView(
            finished=self.ended is not None,
            winner=winners[0] if len(winners) == 1 else None,
            winners=winners,
            ended=self.ended,
            layout=SHEET_LAYOUT,
            rolls=self.rolls,
            roll=None
            if roll is None
            else RollView(
                id=roll.id,
                player=roll.player,
                colours=roll.colours,
                sum=roll.sum,
                sum_by=roll.sum_by,
                written=tuple(sorted(roll.written)),
                failed=tuple(sorted(roll.failed)),
                undo=roll.id if not roll.written else None,
            ),
            next_active=self.next_active() if self.rolls and not self.ended else None,
            sheets=tuple(self._sheet_view(p) for p in self.players),
            ranking=ranking,
        )

    def _sheet_view(self, player: str) -> SheetView:
        sheet, roll = self.sheets[player], self.roll
        legal: tuple[tuple[str, int], ...] = ()
        if roll is not None and roll.sum is not None and player not in roll.written:
            legal = tuple(
                (c, b)
                for c in roll.colours
                for b in range(BOXES_PER_ROW)
                if sheet.fits(c, b, roll.sum)
            )
        if self.rolls:
            undo = roll.written.get(player) if roll is not None else None
        else:
            undo = self.last_entry.get(player)
        return SheetView(
            player=player,
            boxes={c: tuple(sheet.boxes[c]) for c in COLOURS},
            fails=sheet.fails,
            score=sheet.breakdown(),
            complete_rows=tuple(sheet.complete_rows),
            complete_columns=tuple(sheet.complete_columns),
            legal=legal,
            undo=undo,
        )


@dataclass(frozen=True)
class Ranked(JsonValue):
    """A player's place: ties share it."""

    player: str
    score: int
    place: int


@dataclass(frozen=True)
class RollView(JsonValue):
    """The throw in progress as the panel shows it (`undo`: the roll's entry, while no one has
    written on it)."""

    id: int | None
    player: str
    colours: tuple[str, ...]
    sum: int | None
    sum_by: str | None
    written: tuple[str, ...]
    failed: tuple[str, ...]
    undo: int | None


@dataclass(frozen=True)
class SheetView(JsonValue):
    """One player's sheet: its boxes, score, the boxes the current sum may go in (`legal`, as
    (colour, box)), and the entry their Undo takes back."""

    player: str
    boxes: Mapping[str, tuple[int | None, ...]]
    fails: int
    score: Score
    complete_rows: tuple[str, ...]
    complete_columns: tuple[int, ...]
    legal: tuple[tuple[str, int], ...]
    undo: int | None


@dataclass(frozen=True)
class SheetLayout(JsonValue):
    """`LAYOUT` and the sheet's numbers, for the panel that draws the sheet."""

    columns: int
    rows: tuple[Row, ...]
    pentagons: tuple[tuple[str, int], ...]
    bonus_columns: tuple[int, ...]
    max_fails: int
    fail_penalty: int
    lowest: int
    highest: int


@dataclass(frozen=True)
class QwintoView(JsonValue):
    """The table as every phone shows it."""

    finished: bool
    winner: str | None
    winners: tuple[str, ...]
    ended: Mapping[str, str] | None
    layout: SheetLayout
    rolls: bool
    roll: RollView | None
    next_active: str | None
    sheets: tuple[SheetView, ...]
    ranking: tuple[Ranked, ...]


def _dice_can_make(count: int, value: int) -> int:
    """One die shows 1-6, so `count` dice add up to `count` ... 6 * `count`."""
    if not count <= value <= 6 * count:
        raise EntryError(
            "%(value)s is not a sum of the dice thrown (from %(low)s to %(high)s)",
            field="value",
            value=value,
            low=count,
            high=6 * count,
        )
    return value


#: `LAYOUT` as the panel that draws the sheet reads it
SHEET_LAYOUT = SheetLayout(
    columns=COLUMNS,
    rows=LAYOUT,
    pentagons=PENTAGONS,
    bonus_columns=BONUS_COLUMNS,
    max_fails=MAX_FAILS,
    fail_penalty=FAIL_PENALTY,
    lowest=LOWEST,
    highest=HIGHEST,
)


def replay(settings: Settings, players: Sequence[str], entries: Sequence[Entry]) -> QwintoView:
    """Rebuild the table from its ordered entries (docs/dev/companion-games.md).

    Entries: `{"op": "roll", "player", "colours": [...], "sum"?}` by the active player,
    `{"op": "place", "player", "colour", "box", "value"}` and `{"op": "fail", "player"}`.
    """
    table = Table(players, rolls=settings.rolls, clockwise=settings.clockwise)
    for entry in entries:
        try:
            table.apply(entry)
        except EntryError as exc:
            if exc.entry_id is None:
                exc.entry_id = entry.id
            raise
    return table.view()
