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
from typing import Any

from ...spreadsheet import spreadsheet_safe
from ...web import book
from .. import games, hooks
from ..decks import get_deck
from ..spoken import call_label
from . import awards
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


def record(conn: sqlite3.Connection, game_id: int) -> dict[str, Any]:
    game = games.get_game(conn, game_id)
    gid = game.game_id
    deck = get_deck(conn, game.deck_id)
    kind = claims_kind(game)
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
        rounds.append(
            {
                "round": rnd["number"],
                "started": rnd["started"],
                "commitment": rnd["commitment"],
                "public_input": rnd["public_input"],
                "seed": rnd["seed"] if rnd["revealed"] else None,
                "calls": [
                    {
                        "seq": c["seq"],
                        "ball": c["ball"],
                        "call": call_label(c["ball"], game.balls),
                        "source": c["source"],
                        "at": c["called_at"],
                        "undone_at": c["undone_at"],
                        "undo_reason": c["undo_reason"],
                    }
                    for c in calls
                ],
                "claims": [
                    {
                        "claim_id": c["id"],
                        "serial": c["serial"],
                        "player": c["player"],
                        "line": c["line"],
                        "at_call": c["at_call"],
                        "at": c["made"],
                        "valid": bool(c["valid"]),
                        "verdict": json.loads(c["verdict"]),
                        "penalty": json.loads(c["penalty"]) if c["penalty"] else None,
                    }
                    for c in claims
                ],
            }
        )
        won = kind.round_prizes(conn, rnd["id"])
        if won is not None:  # a 90-ball round's prizes
            rounds[-1]["prizes"] = won
        rounds[-1]["notes"] = hooks.notes(conn, rnd["id"])  # e.g. a claim on a card not sold
    board = awards.scores(conn, gid)
    by_round = {a.round: a.to_json() for a in board.awards}
    scores = board.to_json()
    for rnd in rounds:
        rnd["award"] = by_round.get(rnd["round"])
    return {
        "format": "bingo-hall-record/1",
        "game_id": gid,
        "deck": {"deck_id": deck.deck_id, "name": deck.name, "cards": len(deck.cards)},
        "balls": game.balls,
        "mode": game.to_json()["mode"],
        "status": game.status,
        "created": game.created,
        "ended": game.ended,
        "settings": scores["settings"],
        "players": scores["players"],
        "rounds": rounds,
        "standings": scores["sides"],
        "winner": scores["winner"],
        "book": book.signed_head(conn).to_json()["head"],  # signed now (docs/audit.md)
    }


def record_csv(rec: dict[str, Any]) -> str:
    """One row per event, in order within each round: round, call, undo, claim, award."""
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
