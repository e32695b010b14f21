"""Rubbers in Domino Bingo: worked hands for every rubber rule of seed domino-bingo.en.txt
("Scoring", rules 1-5) and docs/rules.md §2. Tile values in the comments are worked out by hand:
trump double 28, trump = its pips with blank as 7, plain doubles their pips, [0-3] and [6-4] 10.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companions import domino_bingo
from companions.domino_bingo import TILES, Match, Settings
from companions.errors import EntryError


def replay(settings, players, entries):
    """The engine's replay of a table stored as JSON, read as the shell reads it: the settings
    and each entry into the engine's values."""
    return domino_bingo.replay(
        Settings.from_json(settings), players, [domino_bingo.Entry.from_json(e) for e in entries]
    )


A, B = "Ana", "Beto"

# Trump 6. Ana: [6-6] 28 + [6-5] 11 + [6-0] 13 + [0-0] 14 + [5-5] 10 = 76.
ANA_76 = [[6, 6], [6, 5], [6, 0], [0, 0], [5, 5]]
# Beto: [3-0] 10 + [4-4] 8 + [6-3] 9 + [2-2] 4 = 31.
BETO_31 = [[3, 0], [4, 4], [6, 3], [2, 2]]
# Beto: [3-0] 10 + [4-4] 8 + [6-3] 9 = 27.
BETO_27 = [[3, 0], [4, 4], [6, 3]]
# Beto: [3-0] 10 + [6-2] 8 + [1-1] 2 = 20.
BETO_20 = [[3, 0], [6, 2], [1, 1]]


def hand(trump, ana, beto, **events):
    """The entries of one hand: trump, then optional events, then both players' tricks."""
    out = [{"type": "hand", "trump": trump}]
    if "close" in events:
        out.append({"type": "close", "player": events["close"]})
    for who, doubles, bingo in events.get("declare", []):
        out.append({"type": "declare", "player": who, "doubles": doubles, "bingo": bingo})
    for player, got in ((A, ana), (B, beto)):
        key = "points" if isinstance(got, int) else "tiles"
        out.append({"type": "tricks", "player": player, key: got})
    return out


def play(*hands, **settings):
    entries = [e for h in hands for e in h]
    for i, e in enumerate(entries, 1):
        e["id"] = i
    return replay(settings, [A, B], entries).to_json()


def test_reaching_70_with_the_opponent_at_30_or_more_is_one_rubber():
    view = play(hand(6, ANA_76, BETO_31))
    assert view["rubbers"] == {A: 1, B: 0}


def test_reaching_70_with_the_opponent_under_30_is_two_rubbers():
    view = play(hand(6, ANA_76, BETO_27))
    assert view["rubbers"] == {A: 2, B: 0}


def test_reaching_70_with_the_opponent_at_nothing_is_three_rubbers():
    view = play(hand(6, ANA_76, []))
    assert view["rubbers"] == {A: 3, B: 0}


def test_the_low_score_can_be_20_instead_of_30():
    assert play(hand(6, ANA_76, BETO_27), low_score=20)["rubbers"][A] == 1
    assert play(hand(6, ANA_76, BETO_20), low_score=20)["rubbers"][A] == 1  # 20 is "20 or more"
    assert play(hand(6, ANA_76, BETO_20), low_score=30)["rubbers"][A] == 2


def test_running_scores_reset_after_a_rubber():
    view = play(hand(6, ANA_76, BETO_31))
    assert view["points"] == {A: 0, B: 0}


def test_points_build_up_over_hands_until_70():
    # hand 1: 40 / 30, no rubber; hand 2: 75 / 40, Ana's rubber with Beto at 40.
    one = play(hand(1, 40, 30))
    assert one["points"] == {A: 40, B: 30} and one["rubbers"] == {A: 0, B: 0}
    two = play(hand(1, 40, 30), hand(5, 35, 10))
    assert two["rubbers"] == {A: 1, B: 0} and two["points"] == {A: 0, B: 0}
    assert two["log"][0]["opponent_points"] == 40


def test_declarations_are_scored_at_once_before_the_tricks():
    # Hand 1: Ana 50, Beto 25. Hand 2: Ana shows 3 doubles with the Bingo: 40 + 10 = 50, so 100
    # at once while Beto still has 25 (< 30): 2 rubbers, reset; then hand 2's tricks 30 / 45.
    view = play(hand(1, 50, 25), hand(3, 30, 45, declare=[(A, 3, True)]))
    assert view["rubbers"] == {A: 2, B: 0}
    assert view["points"] == {A: 30, B: 45}


def test_the_score_sheet_keeps_each_hand_with_its_doubles_shown():
    view = play(hand(1, 50, 25), hand(3, 30, 45, declare=[(A, 3, True)], close=B))
    assert view["sheet"] == [
        {"hand": 1, "trump": 1, "tricks": {A: 50, B: 25}, "shown": {}, "closed_by": None},
        {"hand": 2, "trump": 3, "tricks": {A: 30, B: 45}, "shown": {A: 50}, "closed_by": B},
    ]


def test_a_declaration_mid_hand_shows_in_the_running_score():
    view = play(hand(1, 10, 10)[:1] + [{"type": "declare", "player": B, "doubles": 2}])
    assert view["points"] == {A: 0, B: 20}
    assert view["hand"]["trump"] == 1


def test_bingo_taking_the_trump_double_is_one_rubber_and_keeps_the_points():
    # Trump 5; Beto wins [5-5] with [0-0]: 1 rubber. His tricks [5-5] 28 + [0-0] 14 = 42.
    entries = [
        {"type": "hand", "trump": 5},
        {"type": "bingo_double", "player": B},
        {"type": "tricks", "player": A, "points": 20},
        {"type": "tricks", "player": B, "tiles": [[5, 5], [0, 0]]},
    ]
    view = replay({}, [A, B], entries).to_json()
    assert view["rubbers"] == {A: 0, B: 1}
    assert view["points"] == {A: 20, B: 42}


def test_the_trump_double_the_bingo_took_cannot_be_in_the_other_pile():
    entries = [
        {"type": "hand", "trump": 5},
        {"type": "bingo_double", "player": B},
        {"type": "tricks", "player": A, "tiles": [[5, 5]]},
    ]
    with pytest.raises(EntryError, match="captured by Beto"):
        replay({}, [A, B], entries)


def test_with_blank_trump_the_bingo_is_the_trump_double_so_no_bingo_rubber():
    with pytest.raises(EntryError, match="Bingo is the trump double"):
        replay({}, [A, B], [{"type": "hand", "trump": 0}, {"type": "bingo_double", "player": A}])


def test_a_failed_close_gives_the_opponent_two_rubbers_and_both_keep_their_points():
    # Trump 2. Ana closes and takes [2-2] 28 + [2-0] 9 = 37 < 70; Beto 40.
    view = play(hand(2, [[2, 2], [2, 0]], 40, close=A))
    assert view["rubbers"] == {A: 0, B: 2}
    assert view["points"] == {A: 37, B: 40}
    # Next hand Ana adds 35: 72 with Beto at 40, her rubber.
    view = play(hand(2, [[2, 2], [2, 0]], 40, close=A), hand(5, 35, 0))
    assert view["rubbers"] == {A: 1, B: 2}


def test_a_close_that_makes_70_is_an_ordinary_rubber():
    view = play(hand(6, ANA_76, BETO_31, close=A))
    assert view["rubbers"] == {A: 1, B: 0}


def test_the_match_is_won_at_seven_rubbers_and_then_closed():
    # 3 + 3 (Beto at 0 each time) + 1 (Beto at 40) = 7.
    view = play(hand(6, 70, 0), hand(6, 70, 0), hand(6, 70, 40))
    assert view["rubbers"] == {A: 7, B: 0}
    assert view["finished"] is True and view["winner"] == A
    with pytest.raises(EntryError, match="match is over"):
        play(hand(6, 70, 0), hand(6, 70, 0), hand(6, 70, 40), hand(1, 0, 0))


def test_an_emperor_as_points_can_be_worth_more_than_a_rubber():
    # 6 doubles = 70 points from 0 while Beto has 0: rule 3 makes that 3 rubbers.
    view = play(hand(4, 0, 0)[:1] + [{"type": "declare", "player": A, "doubles": 6}])
    assert view["rubbers"] == {A: 3, B: 0}


def test_an_emperor_as_a_rubber_when_the_table_says_so():
    entries = hand(4, 0, 0)[:1] + [
        {"type": "declare", "player": B, "doubles": 2},
        {"type": "declare", "player": A, "doubles": 6, "bingo": True},
    ]
    view = replay({"big_declarations": "rubbers"}, [A, B], entries).to_json()
    assert view["rubbers"] == {A: 1, B: 0}
    assert view["points"] == {A: 10, B: 20}  # the Bingo's +10 still counts


def test_when_both_pass_70_on_the_same_hand_the_higher_score_makes_the_rubber():
    # 60 / 60, then 20 / 15: 80 against 75.
    view = play(hand(5, 60, 60), hand(5, 20, 15))
    assert view["rubbers"] == {A: 1, B: 0}
    tie = play(hand(5, 60, 60), hand(5, 15, 15))
    assert tie["rubbers"] == {A: 1, B: 1}


def test_berndt_rubber_is_66_and_always_one():
    # Trump 6 in Berndt is worth 45 in all. 40 then 26: 66 with Beto at 0, still one rubber.
    view = play(hand(6, 40, 0), hand(6, 26, 0), variant="berndt")
    assert view["rubbers"] == {A: 1, B: 0}
    assert play(hand(6, 40, 0), hand(6, 25, 0), variant="berndt")["rubbers"][A] == 0


def test_berndt_has_no_bingo_rubber():
    with pytest.raises(EntryError, match="no rubber for the Bingo"):
        replay(
            {"variant": "berndt"},
            [A, B],
            [{"type": "hand", "trump": 3}, {"type": "bingo_double", "player": A}],
        )


def test_the_lead_alternates_between_hands():
    view = play(hand(1, 10, 10))
    assert view["next_leader"] == B
    assert play(hand(1, 10, 10), hand(2, 0, 0))["next_leader"] == A


# -- what the table cannot enter ---------------------------------------------------------------
def test_a_tile_tapped_by_both_players_is_refused():
    with pytest.raises(EntryError, match="captured by Ana") as err:
        play(hand(6, [[6, 6], [5, 5]], [[5, 5]]))
    assert err.value.entry_id == 3  # the shell flags Beto's entry


def test_a_tile_counts_only_once_in_one_pile():
    with pytest.raises(EntryError, match="only once"):
        play(hand(6, [[6, 4], [4, 6]], 0))


def test_tricks_cannot_add_up_to_more_than_the_trump_table():
    # Trump 3 is worth 131 in all (seed table).
    with pytest.raises(EntryError, match="more than 131"):
        play(hand(3, 100, 32))
    with pytest.raises(EntryError, match="between 0 and 131"):
        play(hand(3, 132, 0))


def test_tricks_before_the_trump_is_picked_are_refused():
    with pytest.raises(EntryError, match="Pick the trump"):
        replay({}, [A, B], [{"type": "tricks", "player": A, "points": 10}])


def test_a_new_hand_waits_for_both_players_tricks():
    with pytest.raises(EntryError, match="Finish the hand"):
        replay({}, [A, B], hand(2, 10, 10)[:2] + [{"type": "hand", "trump": 3}])


def test_a_player_counts_their_tricks_once_per_hand():
    entries = hand(2, 10, 10)[:2] + [{"type": "tricks", "player": A, "points": 5}]
    with pytest.raises(EntryError, match="already counted"):
        replay({}, [A, B], entries)


@pytest.mark.parametrize(
    "entry",
    [
        {"type": "declare", "player": "Zoe", "doubles": 2},
        {"type": "declare", "player": A, "doubles": 9},
        {"type": "tricks", "player": A, "tiles": "6-6"},
        {"type": "tricks", "player": A, "points": "ten"},
        {"type": "shuffle"},
        {"type": "close"},
    ],
)
def test_bad_entries_are_refused_with_a_message(entry):
    with pytest.raises(EntryError):
        replay({}, [A, B], [{"type": "hand", "trump": 1}, entry])


def test_domino_bingo_is_for_two_players():
    with pytest.raises(EntryError, match="two players"):
        replay({}, [A, B, "Carla"], [])


def test_settings_are_checked():
    for bad in ({"variant": "x"}, {"low_score": 25}, {"big_declarations": "both"}):
        with pytest.raises(EntryError):
            Match([A, B], Settings.from_json(bad))
    assert Match([A, B], Settings.from_json({"low_score": "20"})).settings.low_score == 20
    given = {"variant": " Tradicional", "big_declarations": "partidas"}
    typed = Match([A, B], Settings.from_json(given)).settings
    assert (typed.variant, typed.big_declarations) == ("traditional", "rubbers")


# -- properties over many random hands ----------------------------------------------------------
SEED_TOTALS = {0: 143, 1: 135, 2: 138, 3: 131, 4: 134, 5: 147, 6: 140}  # 134: see test_values


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 6), st.lists(st.booleans(), min_size=28, max_size=28))
def test_any_split_of_the_whole_set_adds_up_to_the_table_total(trump, owners):
    ana = [t for t, mine in zip(TILES, owners, strict=True) if mine]
    beto = [t for t, mine in zip(TILES, owners, strict=True) if not mine]
    match = Match([A, B])
    match.start_hand(trump)
    assert match.tricks(A, ana) + match.tricks(B, beto) == SEED_TOTALS[trump]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 70), st.integers(0, 60)), max_size=30))
def test_running_scores_stay_under_70_between_hands_and_rubbers_match_the_log(hands):
    entries = [e for trump, a, b in hands for e in hand(trump, a, b)]
    view = replay({"rubbers_to_win": 99}, [A, B], entries).to_json()
    assert all(p < 70 for p in view["points"].values())
    for player in (A, B):
        assert view["rubbers"][player] == sum(
            r["rubbers"] for r in view["log"] if r["player"] == player
        )
