"""The game's record for the hall's files and for auditors: calls (with undos and their reasons),
claims with their verdicts and penalties, awards, and each round's commitment and, once the round
is over, its revealed seed (docs/fairness.md explains how to check one against the other).

The record is read from the tables as they are: it never shows an unrevealed seed.
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...audit import SignedHead
from ...money.spreadsheet import spreadsheet_safe
from ...values import JsonValue
from ...web import book_store as book
from .. import games, hooks
from ..decks import get_deck
from ..hooks import RecordNote
from ..model import Game
from ..specials_view import game_specials
from ..spoken import call_label
from . import awards
from .awards import AwardRow, Scores
from .board import AwardedPrize
from .variants import claims_kind

CSV_FIELDS = (
    "round",
    "at",
    "event",
    "seq",
    "ball",
    "call",
    "serial",
    "player",
    "result",
    "points",
    "detail",
)


@dataclass(frozen=True)
class CallRecord(JsonValue):
    """A call of the round as recorded: taken back (`undone_at`) with its reason, or not."""

    seq: int
    ball: int
    call: str
    source: str
    at: str
    undone_at: str | None
    undo_reason: str | None


@dataclass(frozen=True)
class ClaimRecord(JsonValue):
    """A claim as stored, with the verdict and penalty it was given (their stored JSON)."""

    claim_id: int
    serial: int
    player: str | None
    line: str | None
    at_call: int
    at: str
    valid: bool
    verdict: Mapping[str, Any]
    penalty: Mapping[str, Any] | None


@dataclass(frozen=True)
class RoundRecord(JsonValue):
    """A round: its commitment and, once over, its seed; its calls, claims and award; the
    prizes won in it (a 90-ball round; None: the variant has none) and the station's notes
    (`hooks.on_record`: the ledger's, the program's)."""

    round: int
    started: str
    commitment: str
    public_input: str | None
    seed: str | None
    calls: tuple[CallRecord, ...]
    claims: tuple[ClaimRecord, ...]
    prizes: tuple[AwardedPrize, ...] | None
    notes: tuple[RecordNote, ...]
    award: AwardRow | None

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        if self.prizes is None:
            del data["prizes"]
        return data


@dataclass(frozen=True)
class RecordDeck(JsonValue):
    deck_id: str
    name: str
    cards: int


@dataclass(frozen=True)
class GameRecord:
    """The game's record (format bingo-hall-record/1): the game, its deck, its rounds, the
    scoreboard at the end and the book's head, signed when the record was read."""

    game: Game
    deck: RecordDeck
    rounds: tuple[RoundRecord, ...]
    scores: Scores
    book: SignedHead  # signed when the record was read (docs/audit.md)

    def to_json(self) -> dict[str, Any]:
        game, scores = self.game, self.scores.to_json()
        return {
            "format": "bingo-hall-record/1",
            "game_id": game.game_id,
            "deck": self.deck.to_json(),
            "balls": game.balls,
            "mode": game.to_json()["mode"],
            "status": game.status,
            "created": game.created,
            "ended": game.ended,
            "settings": scores["settings"],
            # the special rules the game was played with (seventyfive.specials): the wild number,
            # the odd-even choice, the money ball and what it pays, the cards of one book
            "specials": game_specials(game).to_settings(),
            "players": scores["players"],
            "rounds": [r.to_json() for r in self.rounds],
            "standings": scores["sides"],
            "winner": scores["winner"],
            "book": self.book.to_json()["head"],
        }


def record(conn: sqlite3.Connection, game_id: int) -> GameRecord:
    game = games.get_game(conn, game_id)
    gid = game.game_id
    deck = get_deck(conn, game.deck_id)
    kind = claims_kind(game)
    board = awards.scores(conn, gid)
    by_round = {a.round: a for a in board.awards}
    rounds = []
    for rnd in conn.execute("SELECT * FROM rounds WHERE game_id = ? ORDER BY number", (gid,)):
        calls = conn.execute(
            "SELECT seq, ball, source, called_at, undone_at, undo_reason FROM calls "
            "WHERE round_id = ? ORDER BY seq",
            (rnd["id"],),
        ).fetchall()
        claims = conn.execute(
            "SELECT * FROM claims WHERE round_id = ? ORDER BY id", (rnd["id"],)
        ).fetchall()
        won = kind.round_prizes(conn, rnd["id"])  # a 90-ball round's prizes
        rounds.append(
            RoundRecord(
                round=rnd["number"],
                started=rnd["started"],
                commitment=rnd["commitment"],
                public_input=rnd["public_input"],
                seed=rnd["seed"] if rnd["revealed"] else None,
                calls=tuple(
                    CallRecord(
                        c["seq"],
                        c["ball"],
                        call_label(c["ball"], game.balls),
                        c["source"],
                        c["called_at"],
                        c["undone_at"],
                        c["undo_reason"],
                    )
                    for c in calls
                ),
                claims=tuple(
                    ClaimRecord(
                        c["id"],
                        c["serial"],
                        c["player"],
                        c["line"],
                        c["at_call"],
                        c["made"],
                        bool(c["valid"]),
                        json.loads(c["verdict"]),
                        json.loads(c["penalty"]) if c["penalty"] else None,
                    )
                    for c in claims
                ),
                prizes=None if won is None else tuple(won),
                notes=tuple(hooks.notes(conn, rnd["id"])),  # e.g. a claim on a card not sold
                award=by_round.get(rnd["number"]),
            )
        )
    return GameRecord(
        game,
        RecordDeck(deck.deck_id, deck.name, len(deck.cards)),
        tuple(rounds),
        board,
        book.signed_head(conn),
    )


def record_csv(record: GameRecord) -> str:
    """One row per event, in order within each round: round, call, undo, claim, award."""
    rec = record.to_json()
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_FIELDS, lineterminator="\r\n")
    writer.writeheader()
    for rnd in rec["rounds"]:
        detail = f"commitment {rnd['commitment']}"
        if rnd["public_input"]:
            detail += f"; public input {rnd['public_input']}"
        if rnd["seed"]:
            detail += f"; seed {rnd['seed']}"
        rows = [{"round": rnd["round"], "at": rnd["started"], "event": "round", "detail": detail}]
        for c in rnd["calls"]:
            base = {"round": rnd["round"], "seq": c["seq"], "ball": c["ball"], "call": c["call"]}
            rows.append({**base, "at": c["at"], "event": "call", "detail": c["source"]})
            if c["undone_at"]:
                rows.append(
                    {**base, "at": c["undone_at"], "event": "undo", "detail": c["undo_reason"]}
                )
        for cl in rnd["claims"]:
            v = cl["verdict"]
            p = cl["penalty"]
            rows.append(
                {
                    "round": rnd["round"],
                    "at": cl["at"],
                    "event": "claim",
                    "serial": cl["serial"],
                    "player": cl["player"] or "",
                    "result": v["kind"] if cl["valid"] else "false",
                    "points": "" if v["points"] is None else v["points"],
                    "detail": " ".join(v["winning"])
                    if cl["valid"]
                    else f"penalty: {p['line']} cleared ({' '.join(map(str, p['numbers']))})"
                    if p
                    else "",
                }
            )
        a = rnd["award"]
        if a:
            rows.append(
                {
                    "round": rnd["round"],
                    "at": a["at"],
                    "event": "award",
                    "serial": a["serial"],
                    "player": a["player"] or "",
                    "result": a["kind"],
                    "points": a["points"],
                    "detail": f"next Maestro {a['next_maestro']}" if a["next_maestro"] else "",
                }
            )
        for note in rnd.get("notes", ()):
            rows.append({"round": rnd["round"], **note})
        for prize in rnd.get("prizes", ()):
            for w in prize["winners"]:
                rows.append(
                    {
                        "round": rnd["round"],
                        "at": prize["at"],
                        "event": "prize",
                        "serial": w["serial"],
                        "player": w["player"] or "",
                        "result": prize["prize"],
                        "detail": f"claim {w['claim_id']}, on call {prize['at_call']}",
                    }
                )
        events = sorted(rows[1:], key=lambda row: row["at"] or "")  # the round row stays first
        writer.writerows(
            {k: spreadsheet_safe(v) for k, v in row.items()} for row in rows[:1] + events
        )
    return out.getvalue()
