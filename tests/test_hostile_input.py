"""Hostile input never reaches a 500 (issues 19 and 38): every route that takes a body, found in
the app's URL map (so a new route is fuzzed without anyone listing it), gets bodies of the wrong
type, deep nesting, lone surrogates, Unicode digits, huge and negative numbers (1e26, -1e300),
line separators inside strings (U+2028, U+0085), many elements, nulls, empty bodies and bytes
that are not UTF-8, as JSON and as forms; every public route gets the shapes of issue 38 from a
guest. The answer is never a 5xx, a refusal
says what was wrong, and a refused request leaves every table of the database as it was."""

from __future__ import annotations

import json
import sqlite3
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from testkit import TEST_PIN, Caller

from bingo_hall.app import create_app
from bingo_hall.web import inputs
from bingo_hall.web.inputs import nesting_depth
from companions.web.games import load_kinds

KINDS = load_kinds()
WRITE = {"POST", "PUT", "PATCH", "DELETE"}
DEEP = 50_000

#: the fields the endpoints read, so hostile values land where they are used
FIELDS = sorted(
    {"pin", "deck_id", "mode", "draw", "free_centre", "options", "public_input", "expect_seq"}
    | {"idempotency_key", "ball", "seq", "reason", "name", "team", "maestro", "serial", "line"}
    | {"target", "pattern", "mask", "completing_call_only", "winner_becomes_maestro", "player"}
    | {"players", "teams", "settings", "type", "me", "cards", "hand_sizes", "seating", "card"}
    | {"suggester", "suspect", "weapon", "room", "passed", "shown_by", "holder", "entries"}
    | {key for kind in KINDS.values() for key in kind.default_settings}
)
FORM_FIELDS = sorted(
    {"pin", "deck_id", "mode", "draw", "free_centre", "public_input", "csrf_token", "player"}
    | {f"team{i}" for i in range(2)}
    | {f"setting.{key}" for kind in KINDS.values() for key in kind.default_settings}
)
SEPARATORS = ["a\u2028b", "\u2029", "x\u0085y", "c\rd", "e\nf", "\x1c"]
HOSTILE_TEXT = [
    *("\ud800", "a\udfffb", "²", "①", "١٢", "-1", "", " ", "9" * 5000, "1e3", "0"),
    *SEPARATORS,
]
HUGE = [1e26, -1e300, 1e25, -1e25, 1e308, 5e-324]
HOSTILE_NUMBERS = [10**20, -(10**20), 2**63, -(2**63) - 1, 999_999_999_999, -1, 0, *HUGE]
#: many elements: 990 KB of empty lists (issue 38's JSON bomb), and 100,000 numbers
MANY = [b"[" + b"[]," * 330_000 + b"[]]", b'{"players": [' + b"1," * 100_000 + b"1]}"]
scalars = (
    st.sampled_from([*HOSTILE_TEXT, *HOSTILE_NUMBERS, None, True, False])
    | st.text(max_size=12)
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
)
keys = st.sampled_from([*FIELDS, "\ud800", "k\udfff"]) | st.text(max_size=6)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=3),
    max_leaves=8,
)
RAW_BODIES = [
    b"",
    b"   ",
    b"null",
    b"[]",
    b'"text"',
    b"12",
    b"true",
    b"[" * DEEP + b"]" * DEEP,
    b'{"a":' * DEEP + b"1" + b"}" * DEEP,
    b"\xff\xfe{}",
    b'{"name": "\xff"}',
    b'{"name": "\\ud800", "player": "\\udc00"}',
    b"{",
    b'{"ball": NaN}',
    b'{"ball": 1e999}',
    b'{"ball": ' + b"9" * 5000 + b"}",
    b'{"ball": 1e26, "seq": -1e300, "down": [1e26]}',
    *MANY,
]
json_bodies = (
    st.dictionaries(keys, values, max_size=4).map(lambda d: json.dumps(d).encode())
    | st.lists(values, max_size=3).map(lambda v: json.dumps(v).encode())
    | st.sampled_from(RAW_BODIES)
    | st.binary(max_size=40)
)
form_values = st.sampled_from(HOSTILE_TEXT) | st.text(max_size=12) | st.integers().map(str)
form_bodies = st.dictionaries(st.sampled_from(FORM_FIELDS), form_values, max_size=4).map(
    lambda d: urlencode(d, errors="surrogatepass").encode()
) | st.sampled_from(
    [b"", b"player=%ff%fe&team0=%ED%A0%80", b"setting.target=%C2%B2", b"pin=\xff", b"%%%"]
)


def dump(path: str) -> str:
    """Every table of the database, rows included: the state a refused request must keep."""
    conn = sqlite3.connect(path)
    try:
        return "\n".join(conn.iterdump())
    finally:
        conn.close()


class Hall:
    """A station with a deck, a game drawn by hand with a call and a player, a companion table
    of every game (the Burako one with an entry) and a Clue notebook locked with a PIN: real
    ids for every route's arguments."""

    def __init__(self, folder) -> None:
        self.app = create_app(
            {
                "TESTING": True,
                "DATABASE": str(folder / "hall.sqlite"),
                "SECRET_KEY": "test-secret",
                "CALLER_PIN": TEST_PIN,
            },
            instance_path=str(folder),
        )
        self.client = self.app.test_client()
        self.maestro = Caller(self.client)
        self.game_id = self.maestro.new_game(draw="manual")
        self.maestro.call(self.game_id, 12)
        assert (
            self.maestro.post(f"/api/games/{self.game_id}/players", {"name": "Ana"}).status_code
            == 201
        )
        self.codes = {name: self.table(name) for name in KINDS}
        # a private notebook whose PIN this client never typed: every change must be refused
        r = self.app.test_client().post(
            "/t/new/clue", json={"players": ["A", "B", "C"], "pin": "1357"}
        )
        assert r.status_code == 201, r.get_json()
        self.codes["clue with a PIN"] = r.get_json()["code"]
        burako = self.codes["burako"]
        hand = {"puras": 0, "impuras": 0, "closed": False, "muerto": "taken", "down": 10}
        r = self.client.post(f"/t/{burako}/entries", json={"teams": [hand, hand]})
        assert r.status_code == 201, r.get_json()
        self.entry_id = r.get_json()["id"]
        price = self.maestro.post(f"/api/games/{self.game_id}/ledger/price", {"amount": "1"})
        assert price.status_code == 200, price.get_json()
        sale = self.maestro.post(f"/api/games/{self.game_id}/ledger/sales", {"serials": "1-3"})
        assert sale.status_code == 201, sale.get_json()
        self.sale_id = sale.get_json()["sale_id"]

    def table(self, game: str) -> str:
        kind = KINDS[game]
        names = ["Ana", "Beto", "Caro"][: max(kind.min_players, 2)]
        body = {"teams": [[n] for n in names[:2]]} if kind.teams else {"players": names}
        r = self.client.post(f"/t/new/{game}", json=body)
        assert r.status_code == 201, r.get_json()
        return r.get_json()["code"]

    def arguments(self, rule) -> dict[str, list[str]]:
        """Real values for each of a route's arguments (a new argument name must be added here,
        so no route escapes the fuzz)."""
        known = {
            "game_id": [str(self.game_id)],
            "entry_id": [str(self.entry_id)],
            "code": list(self.codes.values()),
            "game": list(KINDS),
            "deck_id": [self.maestro.deck.deck_id],
            "serial": ["1"],
            "sig": ["0" * 20],
            "fmt": ["json"],
            "filename": ["shell.css"],
            "sale_id": [str(self.sale_id)],
            "payout_id": ["1"],  # none yet: the route must still answer a readable 404
            "key": ["k1", "c1", "r1"],  # a card on the hall screens (none shown yet: a 404)
            "kind": ["issue", "return", "void", "x"],  # the paper stock's entries (issue 39)
            "stock_id": ["1"],  # none yet: the route must still answer a readable 404
            "night_sale_id": ["1"],  # none yet: the route must still answer a readable 404
        }
        missing = set(rule.arguments) - set(known)
        assert not missing, f"{rule.rule}: give the fuzz a real value for {sorted(missing)}"
        return {name: known[name] for name in rule.arguments}

    def rules(self, methods: set[str]):
        return sorted(
            (r for r in self.app.url_map.iter_rules() if r.methods & methods),
            key=lambda r: r.rule,
        )


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory) -> Hall:
    """One hall for the fuzz tests (state moves on as fuzzed requests are accepted)."""
    return Hall(tmp_path_factory.mktemp("hostile"))


@pytest.fixture
def hall(tmp_path) -> Hall:
    return Hall(tmp_path)


def url_for_rule(rule: str, args: dict[str, str]) -> str:
    for name, value in args.items():
        rule = rule.replace(f"<int:{name}>", value).replace(f"<path:{name}>", value)
        rule = rule.replace(f"<{name}>", value)
    return rule


def routes_with_bodies(hall: Hall) -> list[tuple[str, str]]:
    out = []
    for rule in hall.rules(WRITE):
        combos: list[dict[str, str]] = [{}]
        for name, options in hall.arguments(rule).items():
            combos = [{**c, name: v} for c in combos for v in options]
        for method in sorted(rule.methods & WRITE):
            out += [(method, url_for_rule(rule.rule, c)) for c in combos]
    return out


def assert_refusal_is_readable(r) -> None:
    assert r.status_code < 500, (r.status_code, r.get_data(as_text=True)[:300])
    if r.status_code < 400:
        return
    if r.is_json:
        error = r.get_json().get("error")
        assert isinstance(error, str) and error.strip(), r.get_json()
    else:
        page = r.get_data(as_text=True)
        assert "<html" in page.lower() and len(page) > 200, page[:300]


@settings(
    max_examples=250,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
@pytest.mark.slow
@pytest.mark.cpu
def test_no_body_reaches_a_500_and_a_refused_one_changes_nothing(fuzzed, data):
    hall = fuzzed
    method, url = data.draw(st.sampled_from(routes_with_bodies(hall)), label="route")
    as_form = data.draw(st.booleans(), label="as form")
    if as_form:
        body = data.draw(form_bodies, label="form body")
        ctype = "application/x-www-form-urlencoded"
    else:
        body = data.draw(json_bodies, label="json body")
        ctype = "application/json"
    before = dump(hall.app.config["DATABASE"])
    r = hall.client.open(
        url, method=method, data=body, content_type=ctype, headers=hall.maestro.auth
    )
    assert_refusal_is_readable(r)
    if r.status_code >= 400:
        assert dump(hall.app.config["DATABASE"]) == before, (method, url, body[:200])


#: the shapes of issue 38: JSON bodies of each (the fields the routes read), also sent as a
#: query string and, where they are flat, as form fields
HAND = {"puras": 0, "impuras": 0, "closed": False, "muerto": "taken", "down": 10}
SHAPES: dict[str, list[Any]] = {
    "huge numbers": [
        dict(zip(FIELDS, HUGE * 20, strict=False)),
        {k: [v] for k, v in zip(FIELDS, HUGE * 20, strict=False)},
        *({"teams": [{**HAND, "down": [n]}, HAND]} for n in HUGE),
        *({"teams": [{**HAND, "left": [n]}, HAND]} for n in HUGE),
    ],
    "line separators": [
        dict(zip(FIELDS, SEPARATORS * 20, strict=False)),
        {"players": SEPARATORS[:4], "teams": [[SEPARATORS[0]], [SEPARATORS[2]]]},
    ],
    "deep nesting": [b"[" * DEEP + b"]" * DEEP, b'{"players": ' + b"[" * DEEP + b"]" * DEEP + b"}"],
    "many elements": MANY,
}


def _bodies(shape: str) -> list[bytes]:
    return [b if isinstance(b, bytes) else json.dumps(b).encode() for b in SHAPES[shape]]


@pytest.mark.slow
@pytest.mark.cpu
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_every_public_route_takes_issue_38s_shapes_from_a_guest(fuzzed, shape):
    """Every route, as a guest would ask (no login, another address): the shape in the body
    (JSON and, for the separators and numbers, form fields) and in the query. A 4xx or a page,
    never a 5xx; huge numbers and separators also as every route argument's query."""
    hall, seen = fuzzed, 0
    guest = hall.app.test_client()
    base = {"REMOTE_ADDR": "10.38.0.2"}
    flat = [b for b in SHAPES[shape] if isinstance(b, dict) and len(b) > 2]
    query = urlencode({k: str(v) for k, v in flat[0].items()}) if flat else "n=1"
    for rule in hall.rules({"GET", "POST", "PUT"}):
        real = {name: options[0] for name, options in hall.arguments(rule).items()}
        url = url_for_rule(rule.rule, real)
        for method in sorted(rule.methods & {"GET", "POST", "PUT"}):
            sent: list[tuple[str, bytes, str | None]] = [(f"{url}?{query}", b"", None)]
            if method != "GET":
                sent += [(url, body, "application/json") for body in _bodies(shape)]
                if flat:
                    form = urlencode({k: str(v) for k, v in flat[0].items()}).encode()
                    sent.append((url, form, "application/x-www-form-urlencoded"))
            for target, data, ctype in sent:
                r = guest.open(
                    target, method=method, data=data, content_type=ctype, environ_base=base
                )
                assert_refusal_is_readable(r)
                r.close()
                seen += 1
    assert seen > 100


HOSTILE_SEGMENTS = [
    "11111111111111111111",
    str(2**63),
    "9" * 40,
    "²",
    "①",
    "١",
    "-1",
    "%FF",
    "%ED%A0%80",  # a surrogate, UTF-8 encoded
    quote("\u00b2\u00b3"),
]


@pytest.mark.slow
@pytest.mark.cpu
def test_no_hostile_url_segment_reaches_a_500(fuzzed):
    """Every route, each argument in turn replaced by a hostile segment (huge ids, Unicode
    digits, bytes that are not UTF-8): a 4xx or a page, never a 5xx."""
    hall, seen = fuzzed, 0
    for rule in hall.rules({"GET", "POST", "PUT"}):
        real = {name: options[0] for name, options in hall.arguments(rule).items()}
        method = "GET" if "GET" in rule.methods else sorted(rule.methods & WRITE)[0]
        for name in real:
            for segment in HOSTILE_SEGMENTS:
                url = url_for_rule(rule.rule, {**real, name: segment})
                r = hall.client.open(url, method=method, headers=hall.maestro.auth, json={})
                assert_refusal_is_readable(r)
                r.close()
                seen += 1
    assert seen > 100  # every argument of every route was tried


@pytest.mark.parametrize(
    "path",
    [
        "/api/games/11111111111111111111",
        f"/api/games/{2**63}",
        f"/api/games/{2**63}/events",
        f"/api/games/{2**63 - 1}",  # in range, but no such game
        f"/display/{2**63}",
        f"/caller/games/{2**63}",
    ],
)
def test_a_game_id_beyond_sqlite_is_an_unknown_game(hall, path):
    r = hall.client.get(path, headers=hall.maestro.auth)
    assert r.status_code == 404


def test_an_entry_id_beyond_sqlite_is_an_unknown_entry(hall):
    code = hall.codes["burako"]
    for entry in ("99999999999999999999", str(2**63), "²"):
        assert hall.client.post(f"/t/{code}/entries/{entry}/undo").status_code == 404
    # in range, unknown: the shell's own message
    r = hall.client.post(f"/t/{code}/entries/{2**63 - 1}/undo")
    assert r.status_code == 404 and str(2**63 - 1) in r.get_json()["error"]


def test_json_nested_fifty_thousand_deep_is_a_400_even_at_login(hall):
    for path in ("/api/login", f"/api/games/{hall.game_id}/claims", "/t/new/burako"):
        r = hall.client.post(
            path,
            data=b"[" * DEEP + b"]" * DEEP,
            content_type="application/json",
            headers=hall.maestro.auth,
        )
        assert r.status_code == 400
        assert "nests deeper than 32 levels" in r.get_json()["error"]


def test_a_lone_surrogate_is_refused_naming_its_field(hall):
    r = hall.maestro.post(f"/api/games/{hall.game_id}/players", {"name": "Eva\ud800"})
    assert r.status_code == 400
    assert r.get_json()["field"] == "name"
    assert r.get_json()["error"].startswith("name is not valid text")
    code = hall.codes["clue"]
    r = hall.client.post(f"/t/{code}/entries?lang=es", json={"type": "seen", "card": ["\udc00"]})
    assert r.status_code == 400 and r.get_json()["field"] == "card[0]"
    assert "no es un texto válido" in r.get_json()["error"]
    # a hostile key is named printably (U+FFFD where the surrogate was)
    r = hall.maestro.post(f"/api/games/{hall.game_id}/settings", {"target": {"a\udc00": 1}})
    assert r.status_code == 400 and r.get_json()["field"] == "target.a\ufffd"


def test_unicode_digits_are_not_numbers(hall):
    gid = hall.game_id
    r = hall.maestro.post(f"/api/games/{gid}/calls", {"ball": "²"})
    assert r.status_code == 400 and "1 to 75" in r.get_json()["error"]
    r = hall.maestro.get(f"/api/games/{gid}/check/①")
    assert r.status_code == 400 and "serial" in r.get_json()["error"]
    deck = hall.maestro.deck.deck_id
    assert hall.client.get(f"/c/{deck}/²/{'0' * 20}").status_code == 404
    r = hall.client.post(
        "/t/new/burako", json={"teams": [["Ana"], ["Beto"]], "settings": {"target": "①"}}
    )
    assert r.status_code == 400 and r.get_json()["field"] == "setting.target"


def test_numbers_too_large_for_sqlite_are_refused_naming_their_field(hall):
    gid = hall.game_id
    r = hall.maestro.post(f"/api/games/{gid}/undo", {"reason": "x", "seq": 10**20})
    assert r.status_code == 400 and r.get_json()["field"] == "seq"
    r = hall.maestro.get(f"/api/games/{gid}/check/{'1' * 25}")
    assert r.status_code == 400
    for target in ("999999999999", 999_999_999_999, "9" * 5000):
        r = hall.client.post(
            "/t/new/burako", json={"teams": [["Ana"], ["Beto"]], "settings": {"target": target}}
        )
        assert r.status_code == 400 and r.get_json()["field"] == "setting.target"
    r = hall.client.post(
        "/t/new/burako", data={"team0": "Ana", "team1": "Beto", "setting.target": "9" * 30}
    )
    assert r.status_code == 400 and "between 1 and 1000000" in r.get_data(as_text=True)


def test_unterminated_strings_in_two_megabytes_are_refused_at_once(hall):
    """The depth scan skips strings with a pattern that cannot backtrack: a naive one takes
    minutes on this body (benchmarks/inputs.py has the timings)."""
    r = hall.client.post("/api/login", data=b'"\\' * 1_000_000, content_type="application/json")
    assert r.status_code == 400 and r.get_json()["error"] == "malformed JSON in the request body"


def test_bytes_that_are_not_utf8_are_refused(hall):
    r = hall.client.post("/api/login", data=b'{"pin": "\xff"}', content_type="application/json")
    assert r.status_code == 400 and r.get_json()["error"] == "the request body is not UTF-8 text"


def test_a_body_over_the_limit_is_413_before_it_is_read(hall):
    code = hall.codes["burako"]
    big = json.dumps({"note": "x" * 40_000}).encode()
    r = hall.client.post(f"/t/{code}/entries", data=big, content_type="application/json")
    assert r.status_code == 413 and "32000 bytes" in r.get_json()["error"]


def test_text_longer_than_the_limit_is_refused_naming_its_field(hall):
    r = hall.maestro.post(f"/api/games/{hall.game_id}/claims", {"player": "x" * 10_001})
    assert r.status_code == 400 and r.get_json()["field"] == "player"


def test_a_refused_new_game_form_leaves_the_game_in_play(hall):
    """The caller's "new game" form ends the game being played only once the new one is
    accepted: a form with an unknown deck changes nothing."""
    before = dump(hall.app.config["DATABASE"])
    r = hall.client.post(
        "/caller/new", data={"deck_id": "NOPE", "mode": "normal"}, headers=hall.maestro.auth
    )
    assert r.status_code == 404
    assert dump(hall.app.config["DATABASE"]) == before
    assert hall.client.get(f"/api/games/{hall.game_id}").get_json()["status"] == "active"


def test_the_last_net_logs_the_route_and_the_input_class(tmp_path, caplog):
    app = create_app(
        {"TESTING": False, "DATABASE": str(tmp_path / "x.sqlite"), "SECRET_KEY": "k"},
        instance_path=str(tmp_path),
    )

    def broken():
        raise RuntimeError("a bug")

    app.add_url_rule("/api/broken", "broken", broken, methods=["POST"])
    r = app.test_client().post("/api/broken", json={"a": 1})
    assert r.status_code == 500 and "nothing was lost" in r.get_json()["error"]
    logged = "\n".join(rec.getMessage() for rec in caplog.records)
    assert "POST /api/broken (endpoint broken" in logged and "application/json" in logged


def _depth(value) -> int:
    """Nesting depth worked out on the parsed value, independently of the byte scan."""
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


@settings(max_examples=200, deadline=None)
@given(
    st.recursive(
        st.none() | st.integers() | st.text(alphabet='[]{}"\\ab', max_size=6),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
        max_leaves=20,
    )
)
@pytest.mark.slow
@pytest.mark.cpu
def test_the_byte_scan_counts_nesting_as_the_parser_would(value):
    """Brackets inside strings (escaped quotes included) do not count."""
    assert nesting_depth(json.dumps(value).encode()) == _depth(value)


def test_every_input_refusal_has_a_spanish_translation():
    from pathlib import Path

    from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
    from babel.messages.pofile import read_po

    web = Path(inputs.__file__).parent
    keywords = {**DEFAULT_KEYWORDS, "RequestError": None, "PayloadTooLarge": None}
    found = {msg for _l, msg, _c, _x in extract_from_file("python", web / "inputs.py", keywords)}
    with open(web / "translations/es/LC_MESSAGES/messages.po", "rb") as f:
        translated = {m.id for m in read_po(f) if m.id and m.string}
    assert len(found) >= 8 and not found - translated, sorted(found - translated)
