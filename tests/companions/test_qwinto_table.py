"""The Qwinto table (`replay`): rolls, who may write, failed throws, the end and the ranking.
Seed: "Desarrollo del juego" and "Final del juego" of `dice-sheet-qwinto.es.txt`."""

from __future__ import annotations

import pytest

from companions import qwinto
from companions.errors import EntryError


def replay(settings, players, entries):
    """The engine's replay of a table stored as JSON, read as the shell reads it: the settings
    and each entry into the engine's values."""
    return qwinto.replay(
        qwinto.Settings.from_json(settings), players, [qwinto.Entry.from_json(e) for e in entries]
    )


PLAYERS = ["Ana", "Beto", "Caro"]
ALL = ["orange", "yellow", "purple"]


def roll(player, colours, total=None, **extra):
    entry = {"op": "roll", "player": player, "colours": colours, **extra}
    if total is not None:
        entry["sum"] = total
    return entry


def place(player, colour, box, value):
    return {"op": "place", "player": player, "colour": colour, "box": box, "value": value}


def fail(player):
    return {"op": "fail", "player": player}


def play(entries, players=PLAYERS, settings=None):
    numbered = [{**e, "id": i + 1} for i, e in enumerate(entries)]
    return replay(settings or {}, players, numbered).to_json()


def sheet(view, player):
    return next(s for s in view["sheets"] if s["player"] == player)


def test_everyone_may_write_the_announced_sum_in_a_rolled_colour():
    # Guille's example: purple and yellow dice, sum 9; anyone may write it in one of those rows
    view = play(
        [
            roll("Ana", ["purple", "yellow"], 9),
            place("Ana", "yellow", 4, 9),
            place("Beto", "purple", 5, 9),
        ]
    )
    assert sheet(view, "Ana")["boxes"]["yellow"][4] == 9
    assert sheet(view, "Beto")["boxes"]["purple"][5] == 9
    assert view["roll"]["written"] == ["Ana", "Beto"]


def test_a_row_whose_die_was_not_rolled_is_refused():
    with pytest.raises(EntryError, match="rows of the rolled dice") as err:
        play([roll("Ana", ["purple", "yellow"], 9), place("Beto", "orange", 4, 9)])
    assert err.value.entry_id == 2


def test_a_number_other_than_the_announced_sum_is_refused():
    with pytest.raises(EntryError, match="announced sum is"):
        play([roll("Ana", ["orange"], 5), place("Beto", "orange", 0, 6)])


def test_each_player_writes_the_sum_in_one_box_only():
    # "en una única casilla de su papel"
    with pytest.raises(EntryError, match="already written"):
        play(
            [
                roll("Ana", ["orange"], 5),
                place("Beto", "orange", 0, 5),
                place("Beto", "orange", 8, 5),
            ]
        )


def test_writing_before_any_roll_is_refused():
    with pytest.raises(EntryError, match="Roll first"):
        play([place("Ana", "orange", 0, 5)])


def test_only_the_active_player_can_cross_a_failed_throw():
    with pytest.raises(EntryError, match="Only the active player"):
        play([roll("Ana", ["orange"], 5), fail("Beto")])
    view = play([roll("Ana", ["orange"], 5), fail("Ana")])
    assert sheet(view, "Ana")["fails"] == 1
    assert sheet(view, "Ana")["score"]["total"] == -5


def test_the_active_player_must_write_or_fail_before_the_next_roll():
    with pytest.raises(EntryError, match="Ana must write the sum or cross a failed throw"):
        play([roll("Ana", ["orange"], 5), place("Beto", "orange", 0, 5), roll("Beto", ["yellow"])])
    view = play(
        [roll("Ana", ["orange"], 5), place("Ana", "orange", 0, 5), roll("Beto", ["yellow"])]
    )
    assert view["roll"]["player"] == "Beto"
    assert view["next_active"] == "Caro"


@pytest.mark.parametrize(
    ("colours", "total"),
    [([], 5), (["orange", "orange"], 5), (["red"], 5), (["orange"], 7), (["orange", "yellow"], 1)],
)
def test_impossible_rolls_are_refused(colours, total):
    # one die shows 1-6, two 2-12, three 3-18, each die of a different colour
    with pytest.raises(EntryError):
        play([roll("Ana", colours, total)])


@pytest.mark.parametrize(
    "junk",
    [
        {"op": "roll", "player": "Ana", "colours": [["orange"]]},
        {"op": "roll", "player": "Ana", "colours": [{"c": 1}, "orange"]},
        {"op": "place", "player": ["Ana"], "colour": "orange", "box": 0, "value": 3},
        {"op": "place", "player": "Ana", "colour": ["orange"], "box": 0, "value": 3},
        {"op": ["place"], "player": "Ana"},
        ["op", "place"],
    ],
)
def test_malformed_entries_are_refused_as_entry_errors(junk):
    with pytest.raises(EntryError):
        if isinstance(junk, dict):
            play([roll("Ana", ["orange"], 3), junk])
        else:
            replay({}, PLAYERS, [junk])


def test_unknown_players_and_entries_are_refused():
    with pytest.raises(EntryError, match="player"):
        play([roll("Zoe", ["orange"], 3)])
    with pytest.raises(EntryError, match="Unknown entry"):
        play([{"op": "erase", "player": "Ana"}])


def test_the_fourth_failed_throw_ends_the_game_and_ranks_the_table():
    entries = [
        roll("Ana", ["orange"], 6),
        place("Beto", "orange", 8, 6),
        fail("Ana"),
        roll("Beto", ["yellow"], 2),
        place("Beto", "yellow", 0, 2),
        roll("Caro", ["yellow"], 3),
        fail("Caro"),
        roll("Ana", ["purple"], 4),
        fail("Ana"),
        roll("Beto", ["purple"], 4),
        place("Beto", "purple", 0, 4),
        roll("Caro", ["purple"], 5),
        place("Caro", "purple", 0, 5),
        roll("Ana", ["purple"], 5),
        fail("Ana"),
        roll("Beto", ["orange"], 5),
        place("Beto", "orange", 0, 5),
        roll("Caro", ["yellow"], 6),
        place("Caro", "yellow", 0, 6),
        roll("Ana", ["yellow"], 6),
        fail("Ana"),
    ]
    view = play(entries)
    assert view["finished"]
    assert view["ended"] == {"player": "Ana", "reason": "fails"}
    # Beto: orange 2 numbers, yellow 1, purple 1 = 4; Caro: 2 numbers - 5 = -3; Ana: -20
    assert [(r["player"], r["score"], r["place"]) for r in view["ranking"]] == [
        ("Beto", 4, 1),
        ("Caro", -3, 2),
        ("Ana", -20, 3),
    ]
    assert view["winner"] == "Beto"
    with pytest.raises(EntryError, match="game is over"):
        play([*entries, roll("Beto", ["orange"], 3)])


def test_the_others_may_still_write_the_throw_that_ended_the_game():
    # Ana completes her second row with the 9; Beto wrote the same 9 at the same moment.
    # Ana throws every time, so the table lets anyone throw (clockwise off).
    any_order = {"clockwise": False}
    ana = [place("Ana", "orange", b, v) for b, v in enumerate([1, 2, 3, 4, 5, 6, 7, 8])]
    ana += [place("Ana", "purple", b, v) for b, v in enumerate([10, 11, 12, 13, 14, 15, 16, 17])]
    view = play(ana, settings={"rolls": False})
    assert not view["finished"]
    entries = []
    for b, v in enumerate([1, 2, 3, 4, 5, 6, 7, 8]):
        entries += [roll("Ana", ["orange"] if v < 3 else ALL, v), place("Ana", "orange", b, v)]
    for b, v in enumerate([10, 11, 12, 13, 14, 15, 16, 17]):
        entries += [roll("Ana", ALL, v), place("Ana", "purple", b, v)]
    entries += [roll("Ana", ALL, 18), place("Ana", "purple", 8, 18)]
    view = play(entries, settings=any_order)
    assert not view["finished"]
    entries += [roll("Ana", ALL, 9), place("Ana", "orange", 8, 9)]
    view = play(entries, settings=any_order)
    assert view["finished"] and view["ended"] == {"player": "Ana", "reason": "rows"}
    view = play([*entries, place("Beto", "orange", 0, 9)], settings=any_order)
    assert sheet(view, "Beto")["boxes"]["orange"][0] == 9
    with pytest.raises(EntryError, match="game is over"):
        play([*entries, roll("Beto", ["yellow"], 4)], settings=any_order)


def test_equal_top_scores_share_the_win():
    entries = [
        roll("Ana", ["orange"], 5),
        place("Ana", "orange", 0, 5),
        place("Beto", "orange", 0, 5),
    ]
    for _ in range(4):
        entries += [roll("Caro", ["yellow"], 3), fail("Caro")]
    view = play(entries, settings={"clockwise": False})  # Caro throws again and again
    assert view["finished"]
    assert view["winners"] == ["Ana", "Beto"] and view["winner"] is None


def test_free_sheets_need_no_roll_and_end_at_once():
    settings = {"rolls": False}
    view = play([place("Beto", "yellow", 3, 12), fail("Caro")], settings=settings)
    assert sheet(view, "Beto")["score"]["total"] == 1
    assert sheet(view, "Caro")["fails"] == 1
    with pytest.raises(EntryError, match="does not record rolls"):
        play([roll("Ana", ["orange"], 3)], settings=settings)


def test_bad_settings_are_refused():
    with pytest.raises(EntryError, match="Unknown setting"):
        replay({"speed": 3}, PLAYERS, [])
    with pytest.raises(EntryError, match="on or off"):
        replay({"rolls": "yes"}, PLAYERS, [])


def test_the_view_offers_the_boxes_where_the_sum_fits():
    view = play(
        [roll("Ana", ["orange"], 3), place("Ana", "orange", 0, 3), roll("Beto", ["orange"], 6)]
    )
    ana = sheet(view, "Ana")
    # orange holds 3 in box 0; 6 fits in any later box, not in box 0
    assert ana["legal"] == [["orange", b] for b in range(1, 9)]
    assert view["layout"]["rows"][0] == {
        "colour": "orange",
        "columns": [2, 3, 4, 6, 7, 8, 9, 10, 11],
        "gap": 5,
    }
