"""Traditional calls (issue 15): with the setting on, the big screen says and shows each
number's nickname after it ("B... trece, la mala suerte"); the nicknames are data, and the hall's
own file in the instance folder overrides the kit's, number by number."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from testkit import TEST_PIN, Caller, scripts_ran

from bingo_hall.app import create_app
from bingo_hall.errors import KitError
from bingo_hall.station.phrases import PACKAGED, load, parse


def _app(folder):
    config = {"TESTING": True, "DATABASE": str(folder / "t.sqlite"), "CALLER_PIN": TEST_PIN}
    return create_app({**config, "SECRET_KEY": "t"}, instance_path=str(folder))


def test_calls_are_plain_until_the_setting_is_on_then_carry_the_nickname(caller):
    gid = caller.new_game("normal", "manual")
    caller.call(gid, 13)
    assert caller.get(f"/api/games/{gid}").get_json()["spoken"]["es"] == "B... trece"
    r = caller.post("/api/hall/settings", {"traditional_calls": True})
    assert r.status_code == 200 and r.get_json()["traditional_calls"] is True
    caller.call(gid, 22)
    spoken = caller.get(f"/api/games/{gid}").get_json()["spoken"]
    assert spoken == {
        "es": "I... veintidós, los dos patitos",
        "en": "I... twenty-two, two little ducks",
    }
    assert caller.post("/api/hall/settings", {"traditional_calls": "yes"}).status_code == 400


def test_the_halls_own_file_overrides_the_kits_number_by_number(tmp_path):
    (tmp_path / "traditional_calls.toml").write_text(
        '[es]\n"15" = "la quinceañera"\n"22" = ""\n', "utf-8"
    )
    table = load(tmp_path)
    kit = parse(PACKAGED.read_text("utf-8"), "kit")
    assert table["es"][15] == "la quinceañera" and kit["es"][15] != "la quinceañera"
    assert 22 not in table["es"] and 22 in kit["es"]  # "" silences one
    assert table["es"][33] == kit["es"][33] and table["en"] == kit["en"]
    app = _app(tmp_path)
    hall = Caller(app.test_client())
    hall.post("/api/hall/settings", {"traditional_calls": True})
    gid = hall.new_game("normal", "manual")
    hall.call(gid, 15)
    assert hall.get(f"/api/games/{gid}").get_json()["spoken"]["es"] == "B... quince, la quinceañera"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('[es]\n"91" = "fuera"\n', "not a ball number from 1 to 90"),
        ('[fr]\n"1" = "un"\n', "sections are [es] and [en]"),
        ('[es]\n"1" = "' + "x" * 61 + '"\n', "at most 60 characters"),
        ("[es\n", "not valid TOML"),
    ],
)
def test_a_broken_phrases_file_stops_the_station_with_one_clear_line(tmp_path, text, says):
    (tmp_path / "traditional_calls.toml").write_text(text, "utf-8")
    with pytest.raises(KitError, match="traditional_calls.toml") as err:
        _app(tmp_path)
    assert says in str(err.value)


@pytest.mark.browser
def test_the_caller_turns_traditional_calls_on_and_the_display_shows_them(
    caller, live_server, page
):
    gid = caller.new_game("normal", "manual")
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.context.add_cookies([{"name": "lang", "value": "es", "url": live_server.url}])
    page.goto(f"{live_server.url}/caller/login?next=/caller/games/{gid}")
    page.fill("input[name=pin]", TEST_PIN)
    page.press("input[name=pin]", "Enter")
    page.wait_for_url(f"**/caller/games/{gid}")
    scripts_ran(page)
    page.click("#hall-settings summary")
    page.check("#hall-traditional")
    page.click("#hall-form button[type=submit]")
    expect(page.locator("#hall-saved")).to_have_text("Guardado.")
    display = page.context.new_page()
    display.set_viewport_size({"width": 1280, "height": 800})
    display.goto(f"{live_server.url}/display/{gid}")
    expect(display.locator("#station")).to_have_attribute("data-live", "yes")
    caller.call(gid, 33)
    expect(display.locator("#spoken")).to_have_text("N... treinta y tres, la edad de Cristo")


def test_a_uk_hall_has_a_traditional_call_for_every_ball_from_1_to_90():
    """The UK list is the standard one, whole: a caller never meets a number with no call (10,
    15, 28, 37... were missing), and 2 is its own call, not the 22's ducks in the singular."""
    calls = parse(PACKAGED.read_text("utf-8"), str(PACKAGED))["en"]
    assert sorted(calls) == list(range(1, 91))
    assert len(set(calls.values())) == 90  # no call said for two numbers
    assert "duck" not in calls[2]
