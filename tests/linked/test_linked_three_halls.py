"""The linked game end to end on loopback (docs/linked.md): one organiser (`bingo-hall linked
serve`) and three real `bingo-hall serve` stations, each a process of its own.

- The Regal follows the organiser's calls live, and sends its result by HTTP.
- Gala Leeds types the code and calls the order itself; its result goes as a file.
- Mecca Bristol follows live through a line of its own (a second organiser's station serving
  the same game, as a relay would), loses it halfway (that process is killed), goes on from the
  code, and sends its result by HTTP to the organiser's station.

Each hall claims one card the test planted: the card of its deck that completes four corners
first, on a call late enough to be reached live. The tally must award the national prize and
the regional prizes to the lowest of those counts, worked out here from the order of the
fairness document (not from the kit's draw).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import requests
from station.helpers import order_from_document
from testkit import TEST_PIN, eventually, station_process

from bingo_hall.audit import StationKey
from bingo_hall.manifest import Deck, new_deck
from bingo_hall.web.book_store import KEY_FILE
from linked.hall import station_seed_of

pytestmark = [pytest.mark.slow, pytest.mark.process]

CORNERS = ((0, 0), (0, 4), (4, 0), (4, 4))
#: seconds between the organiser's calls: the live hall's claim must reach its station before
#: the next call, on a machine whose two cores are shared by every test process
EVERY = 1.0


@dataclass(frozen=True)
class Urls:
    """Where a station listens: the hall's address (phones, screens) and the Maestro's."""

    hall: str
    maestro: str


def station_urls(banner: list[str]) -> Urls:
    """The addresses a `serve` station prints at start-up: "Bingo Hall station: URL/", and the
    Maestro's, either "Maestro: URL/caller" or a caller line of its own on 127.0.0.1 (a
    station that listens on a second port for the Maestro). API calls with the PIN go to the
    Maestro's address."""
    found = [(line, m.group(0)) for line in banner for m in re.finditer(r"http://\S+", line)]
    hall = next(url for line, url in found if "station" in line.lower()).rstrip("/")
    callers = [url for _, url in found if url.rstrip("/").endswith("/caller")]
    local = [u for u in callers if u.startswith("http://127.0.0.1")]
    maestro = (local or callers)[0].rstrip("/").removesuffix("/caller")
    return Urls(hall, maestro)


def organiser_url(banner: list[str]) -> str:
    """The address `linked serve` prints for the organiser's page: the halls' address too."""
    return next(
        m.group(1) for line in banner if (m := re.search(r"Organiser: (http://\S+)/", line))
    )


def corners_at(order: list[int], card) -> int:
    """The call on which the card's four corners are all called (brute force over the order)."""
    return max(order.index(card.number_at(r, c)) for r, c in CORNERS) + 1


def planted(deck: Deck, order: list[int], at_least: int) -> tuple[int, int]:
    """The card of the deck that completes four corners first on a call >= at_least."""
    at = {c.serial: corners_at(order, c) for c in deck.cards}
    serial = min((s for s in at if at[s] >= at_least), key=lambda s: (at[s], s))
    return serial, at[serial]


class Hall:
    def __init__(self, name: str, region: str, folder: Path, deck: Deck) -> None:
        self.name, self.region, self.deck = name, region, deck
        folder.mkdir(parents=True)
        key = StationKey.new()
        (folder / KEY_FILE).write_text(key.to_pem().decode())  # the station's key, made ahead
        self.fingerprint = key.fingerprint
        deck_file = folder / "night.deck.json"
        deck_file.write_text(deck.to_json())
        argv = [sys.executable, "-m", "bingo_hall", "serve", "--host", "127.0.0.1", "--port", "0"]
        argv += ["--instance", str(folder), "--pin", TEST_PIN, "--one-process"]
        argv += ["--deck", str(deck_file)]
        self.proc, banner = station_process(argv)
        self.urls = station_urls(banner)
        self.http = requests.Session()
        r = self.http.post(f"{self.urls.maestro}/api/login", json={"pin": TEST_PIN}, timeout=30)
        assert r.status_code == 200, r.text
        self.http.headers["Authorization"] = "Bearer " + r.json()["token"]

    def api(self, method: str, path: str, payload=None) -> requests.Response:
        return self.http.request(method, f"{self.urls.maestro}{path}", json=payload, timeout=60)

    def count(self, gid: int) -> int:
        return len(self.api("GET", f"/api/games/{gid}").json()["calls"])

    def calls(self, gid: int) -> list[int]:
        return [c["ball"] for c in self.api("GET", f"/api/games/{gid}").json()["calls"]]

    def start(self, game: dict, **how) -> int:
        r = self.api(
            "POST",
            "/api/linked/games",
            {
                "linked": game,
                "game": {
                    "deck_id": self.deck.deck_id,
                    "mode": "normal",
                    "draw": "auto",
                    "options": {"pattern": "four_corners"},
                },
                **how,
            },
        )
        assert r.status_code == 201, r.text
        return r.json()["game_id"]

    def claim(self, gid: int, serial: int) -> None:
        r = self.api("POST", f"/api/games/{gid}/claims", {"serial": serial})
        assert r.status_code == 201 and r.json()["valid"], r.text

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=30)


def test_three_halls_one_following_one_typing_one_losing_its_line_are_all_tallied(tmp_path):
    decks = [new_deck(40, seed=f"linked hall {i}", name=f"Hall {i}") for i in range(3)]
    halls: list[Hall] = []
    organiser = relay = None
    try:
        for (name, region), deck, i in zip(
            [("The Regal", "North"), ("Gala Leeds", "North"), ("Mecca Bristol", "South")],
            decks,
            range(3),
            strict=True,
        ):
            halls.append(Hall(name, region, tmp_path / f"hall{i}", deck))
        regal, leeds, bristol = halls

        now = datetime.now(ZoneInfo("Europe/London"))
        fmt = "%Y-%m-%dT%H:%M"
        game_dir = tmp_path / "organiser"
        made = subprocess.run(
            [sys.executable, "-m", "bingo_hall", "linked", "new", "Linked on loopback"]
            + ["--start", (now - timedelta(minutes=5)).strftime(fmt)]
            + ["--end", (now + timedelta(hours=2)).strftime(fmt), "--zone", "Europe/London"]
            + ["--balls", "75", "--pattern", "four_corners", "--currency", "GBP"]
            + ["--national", "1000", "--regional", "250", "-o", str(game_dir)]
            + [a for h in halls for a in ("--hall", f"{h.name},{h.region},{h.fingerprint}")],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert made.returncode == 0, made.stderr
        game = json.loads((game_dir / "game.linked.json").read_text())
        code = (game_dir / "seed.txt").read_text().strip()
        order = order_from_document(station_seed_of(_code_bytes(code)), "", 75)

        organiser, banner = station_process(
            [sys.executable, "-m", "bingo_hall", "linked", "serve", str(game_dir)]
            + ["--port", "0", "--every", str(EVERY)]
        )
        org_url = organiser_url(banner)
        relay, relay_banner = station_process(
            [sys.executable, "-m", "bingo_hall", "linked", "serve", str(game_dir)]
            + ["--port", "0", "--every", str(EVERY)]
        )
        relay_url = organiser_url(relay_banner)

        # the live hall and the hall that will lose its line both start following at once
        live = regal.start(game, organiser=org_url, follow=True)
        dropping = bristol.start(game, organiser=relay_url, follow=True)
        typed = leeds.start(game, code=code.lower().replace("-", " "))

        regal_card, regal_at = planted(regal.deck, order, at_least=regal.count(live) + 6)
        leeds_card, leeds_at = planted(leeds.deck, order, at_least=1)
        bristol_card, bristol_at = planted(bristol.deck, order, at_least=12)

        # Gala Leeds: the order from the code, drawn by its own station
        for _ in range(leeds_at):
            assert leeds.api("POST", f"/api/games/{typed}/draw").status_code == 200
        leeds.claim(typed, leeds_card)

        # Mecca Bristol: follows for a few calls, then its line is cut
        eventually(lambda: bristol.count(dropping) >= 4, timeout=60)
        relay.kill()
        relay.wait(timeout=30)

        def on_the_code() -> bool:
            """Mecca Bristol's station saw its line drop and goes on from the code"""
            view = bristol.api("GET", f"/api/linked/games/{dropping}").json()
            return view["live"]["mode"] == "code" and "dropped" in view["live"]["reason"]

        eventually(on_the_code, timeout=60)
        went_on_from = bristol.count(dropping)
        assert went_on_from < bristol_at
        while bristol.count(dropping) < bristol_at:
            assert bristol.api("POST", f"/api/linked/games/{dropping}/next").status_code == 200
        bristol.claim(dropping, bristol_card)

        # The Regal: the claim is made on the call that completes the card, as it arrives
        def reached() -> bool:
            """The Regal's station has called the planted card's completing call"""
            return regal.count(live) >= regal_at

        eventually(reached, timeout=regal_at * EVERY + 120)
        regal.claim(live, regal_card)

        # every hall called the committed order, however its calls came
        assert regal.calls(live)[:regal_at] == order[:regal_at]
        assert leeds.calls(typed) == order[:leeds_at]
        assert bristol.calls(dropping) == order[:bristol_at]

        results = game_dir / "results"
        for hall, gid in ((regal, live), (bristol, dropping)):
            assert hall.api("POST", f"/api/linked/games/{gid}/result", {}).status_code == 200
            sent = hall.api("POST", f"/api/linked/games/{gid}/send", {"organiser": org_url})
            assert sent.status_code == 200 and sent.json()["state"] == "sent", sent.text
        assert leeds.api("POST", f"/api/linked/games/{typed}/result", {}).status_code == 200
        carried = leeds.api("GET", f"/api/linked/games/{typed}/result")
        (results / "carried-by-hand.json").write_text(carried.text)

        page = requests.get(f"{org_url}/?lang=en", timeout=30).text
        for hall, at in ((regal, regal_at), (bristol, bristol_at)):
            row = page.split(f'id="hall-{hall.fingerprint}"')[1].split("</tr>")[0]
            assert f"verified: won at call {at}" in row, row

        tallied = subprocess.run(
            [sys.executable, "-m", "bingo_hall", "linked", "tally"]
            + [str(game_dir / "game.linked.json"), str(results)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert tallied.returncode == 0, tallied.stderr
        tally = json.loads((game_dir / "tally.json").read_text())
        counts = {
            h.name: at for h, at in ((regal, regal_at), (leeds, leeds_at), (bristol, bristol_at))
        }
        states = {s["name"]: (s["state"], s["count"]) for s in tally["halls"]}
        assert states == {name: ("won", at) for name, at in counts.items()}, tallied.stdout
        low = min(counts.values())
        north = min(counts["The Regal"], counts["Gala Leeds"])
        awards = {
            (a["tier"], a["region"]): (a["count"], sorted(a["winners"])) for a in tally["awards"]
        }
        assert awards[("national", None)] == (
            low,
            sorted(n for n, at in counts.items() if at == low),
        )
        assert awards[("regional", "North")] == (
            north,
            sorted(n for n in ("The Regal", "Gala Leeds") if counts[n] == north),
        )
        assert awards[("regional", "South")] == (bristol_at, ["Mecca Bristol"])
        assert tally["refused"] == []
    finally:
        for hall in halls:
            hall.stop()
        for proc in (organiser, relay):
            if proc is not None and proc.poll() is None:
                proc.terminate()
                proc.wait(timeout=30)


def _code_bytes(code: str) -> bytes:
    """docs/linked.md: the code's 16 characters are 80 bits of Crockford's base32."""
    alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
    value = 0
    for c in code.replace("-", ""):
        value = value * 32 + alphabet.index(c)
    return value.to_bytes(10, "big")
