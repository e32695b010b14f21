"""One throw, one number; the dice bound the number; the turn passes clockwise (issue 18).

Seed: "Desarrollo del juego" of `dice-sheet-qwinto.es.txt`: everyone may write "la suma dicha
por el jugador activo", and the next active player is "el siguiente ... en el sentido de las agujas
del reloj". Each rule is checked on the engine and then through the shell's HTTP API, the way a
buggy or hostile phone would post it (the panel's side is in test_qwinto_panel.py). Dice bounds
are worked out by hand: one die shows 1 to 6.
"""

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


def roll(player, colours, total=None):
    entry = {"op": "roll", "player": player, "colours": colours}
    if total is not None:
        entry["sum"] = total
    return entry


def place(player, colour, box, value):
    return {"op": "place", "player": player, "colour": colour, "box": box, "value": value}


def play(entries, settings=None):
    numbered = [{**e, "id": i + 1} for i, e in enumerate(entries)]
    return replay(settings or {}, PLAYERS, numbered).to_json()


def boxes(view, player, colour):
    return next(s for s in view["sheets"] if s["player"] == player)["boxes"][colour]


# --- one throw, one number -----------------------------------------------------------------


def test_the_first_number_written_fixes_an_unannounced_sum_for_everyone():
    start = [roll("Ana", ["orange", "yellow"]), place("Ana", "orange", 0, 5)]
    with pytest.raises(EntryError, match="Ana already wrote 5 on this throw") as err:
        play([*start, place("Beto", "yellow", 8, 12)])
    assert err.value.entry_id == 3 and err.value.field == "value"
    view = play([*start, place("Beto", "yellow", 0, 5)])
    assert boxes(view, "Beto", "yellow")[0] == 5
    assert view["roll"]["sum"] == 5 and view["roll"]["sum_by"] == "Ana"


def test_the_fixed_sum_is_offered_as_the_boxes_where_it_fits():
    view = play([roll("Ana", ["purple"]), place("Beto", "purple", 4, 3)])
    ana = next(s for s in view["sheets"] if s["player"] == "Ana")
    # Ana's purple row is empty, so Beto's 3 fits in each of its 9 boxes
    assert ana["legal"] == [["purple", b] for b in range(9)]


def test_a_failed_throw_does_not_fix_the_sum():
    fail = {"op": "fail", "player": "Ana"}
    view = play([roll("Ana", ["orange", "purple"]), fail, place("Beto", "purple", 0, 7)])
    assert boxes(view, "Beto", "purple")[0] == 7
    with pytest.raises(EntryError, match="Beto already wrote 7"):
        play(
            [
                roll("Ana", ["orange", "purple"]),
                fail,
                place("Beto", "purple", 0, 7),
                place("Caro", "orange", 0, 8),
            ]
        )


def test_an_announced_sum_is_the_only_number_anyone_may_write():
    with pytest.raises(EntryError, match="announced sum is 9: on one throw everyone writes"):
        play([roll("Ana", ["orange", "yellow"], 9), place("Beto", "orange", 0, 10)])


# --- the dice bound the number ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("colours", "value"),
    [
        (["orange"], 7),
        (["orange"], 9),
        (["yellow", "purple"], 1),
        (["yellow", "purple"], 13),
        (["orange", "yellow", "purple"], 2),
    ],
)
def test_a_number_the_thrown_dice_cannot_make_is_refused_without_a_sum(colours, value):
    with pytest.raises(EntryError, match=f"{value} is not a sum of the dice thrown") as err:
        play([roll("Ana", colours), place("Ana", colours[-1], 4, value)])
    assert err.value.field == "value"


@pytest.mark.parametrize(
    ("colours", "value"),
    [
        (["orange"], 1),
        (["orange"], 6),
        (["yellow", "purple"], 2),
        (["yellow", "purple"], 12),
        (["orange", "yellow", "purple"], 3),
        (["orange", "yellow", "purple"], 18),
    ],
)
def test_the_smallest_and_largest_sums_of_the_dice_are_accepted(colours, value):
    view = play([roll("Ana", colours), place("Ana", colours[-1], 4, value)])
    assert boxes(view, "Ana", colours[-1])[4] == value


def test_an_announced_sum_the_dice_cannot_make_is_refused_in_the_same_words():
    with pytest.raises(EntryError, match=r"13 is not a sum of the dice thrown \(from 2 to 12\)"):
        play([roll("Ana", ["orange", "yellow"], 13)])


# --- the turn passes clockwise -----------------------------------------------------------------


def test_the_dice_pass_clockwise_to_the_next_seat():
    start = [roll("Ana", ["orange"], 4), place("Ana", "orange", 0, 4)]
    with pytest.raises(EntryError, match="It is Beto's turn to throw") as err:
        play([*start, roll("Caro", ["yellow"], 4)])
    assert err.value.field == "player"
    with pytest.raises(EntryError, match="It is Beto's turn to throw"):
        play([*start, roll("Ana", ["yellow"], 4)])  # nor may Ana throw twice
    view = play([*start, roll("Beto", ["yellow"], 4)])
    assert view["roll"]["player"] == "Beto" and view["next_active"] == "Caro"


def test_after_the_last_seat_the_dice_go_back_to_the_first():
    entries = []
    for player, value in (("Beto", 2), ("Caro", 3)):
        entries += [roll(player, ["purple"], value), place(player, "purple", 0, value)]
    with pytest.raises(EntryError, match="It is Ana's turn to throw"):
        play([*entries, roll("Beto", ["purple"], 4)])
    assert play([*entries, roll("Ana", ["purple"], 4)])["roll"]["player"] == "Ana"


def test_anyone_may_throw_first_as_the_draw_decides():
    view = play([roll("Caro", ["orange"], 2)])
    assert view["roll"]["player"] == "Caro" and view["next_active"] == "Ana"


def test_a_table_set_to_any_order_lets_anyone_throw_next():
    entries = [roll("Ana", ["orange"], 4), place("Ana", "orange", 0, 4), roll("Caro", ["yellow"])]
    view = play(entries, settings={"clockwise": False})
    assert view["roll"]["player"] == "Caro"


def test_the_clockwise_setting_is_yes_or_no():
    with pytest.raises(EntryError, match="Clockwise turns are either on or off"):
        replay({"clockwise": "sometimes"}, PLAYERS, [])


# --- the same rules through the shell's HTTP API ---------------------------------------------


def post(client, code, entry, lang="en"):
    return client.post(f"/t/{code}/entries?lang={lang}", json=entry)


def table_view(client, code):
    return client.get(f"/t/{code}/view").get_json()["view"]


def test_a_phone_posting_a_second_number_on_one_throw_is_refused(tclient, new_table):
    code = new_table(tclient, "qwinto", players=PLAYERS)
    assert post(tclient, code, roll("Ana", ["orange", "yellow"])).status_code == 201
    first = post(tclient, code, place("Ana", "orange", 0, 5))
    assert first.status_code == 201
    resp = post(tclient, code, place("Beto", "yellow", 8, 12), lang="es")
    assert resp.status_code == 400
    assert resp.get_json()["error"] == (
        "Ana ya anotó 5 en esta tirada: todos anotan la única suma que dijo el jugador activo"
    )
    assert resp.get_json()["field"] == "value"
    assert boxes(table_view(tclient, code), "Beto", "yellow") == [None] * 9
    # Ana takes her 5 back: nobody has written on the throw, so Beto's 12 is now the sum
    assert tclient.post(f"/t/{code}/entries/{first.get_json()['id']}/undo").status_code == 200
    assert post(tclient, code, place("Beto", "yellow", 8, 12)).status_code == 201
    assert table_view(tclient, code)["roll"]["sum"] == 12


def test_a_phone_posting_nine_on_one_die_is_refused(tclient, new_table):
    code = new_table(tclient, "qwinto", players=PLAYERS)
    assert post(tclient, code, roll("Ana", ["purple"])).status_code == 201
    resp = post(tclient, code, place("Beto", "purple", 3, 9))
    assert resp.status_code == 400
    assert resp.get_json()["error"] == "9 is not a sum of the dice thrown (from 1 to 6)"
    resp = post(tclient, code, place("Beto", "purple", 3, 9), lang="es")
    assert resp.get_json()["error"] == "9 no es una suma de los dados tirados (de 1 a 6)"
    assert boxes(table_view(tclient, code), "Beto", "purple")[3] is None


def test_a_phone_throwing_out_of_turn_is_refused(tclient, new_table):
    code = new_table(tclient, "qwinto", players=PLAYERS)
    assert post(tclient, code, roll("Ana", ["orange"], 4)).status_code == 201
    assert post(tclient, code, place("Ana", "orange", 0, 4)).status_code == 201
    resp = post(tclient, code, roll("Caro", ["yellow"], 6), lang="es")
    assert resp.status_code == 400
    assert resp.get_json()["error"] == (
        "Le toca tirar a Beto: los dados pasan en el sentido de las agujas del reloj"
    )
    view = table_view(tclient, code)
    assert view["roll"]["player"] == "Ana" and view["next_active"] == "Beto"


def test_the_setup_form_turns_clockwise_off_when_unticked(tclient):
    page = tclient.get("/t/new/qwinto?lang=es").get_data(as_text=True)
    assert "solo tira el siguiente jugador" in page
    # a browser sends a ticked box as "1" and leaves an unticked one out
    resp = tclient.post("/t/new/qwinto", data={"player": PLAYERS, "setting.rolls": "1"})
    assert resp.status_code == 302
    code = resp.headers["Location"].split("/t/")[1].split("?")[0].strip("/")
    assert post(tclient, code, roll("Ana", ["orange"], 4)).status_code == 201
    assert post(tclient, code, place("Ana", "orange", 0, 4)).status_code == 201
    assert post(tclient, code, roll("Caro", ["yellow"], 6)).status_code == 201
