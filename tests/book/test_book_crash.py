"""A real `bingo-hall serve`, killed with SIGKILL 20 times while draws, sales and awards are in
flight (issue 35): after each restart the book's chain is unbroken, and every change the station
acknowledged has its entry (the entry is written in the change's own transaction). Each time, a
Maestro looks for a card with a bingo among the calls (the check route), claims it, awards it and
starts the next round, while the draws go on."""

from __future__ import annotations

import os
import signal
import sqlite3
import threading

import pytest
import requests
from station.test_crash import PIN, start

from bingo_hall.audit import ORIGIN, Book, Head, check_chain
from bingo_hall.manifest import new_deck, save_deck
from bingo_hall.web.book_store import entry_of

KILLS = 20


def book_of(db) -> Book:
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    entries = tuple(entry_of(r) for r in conn.execute("SELECT * FROM book ORDER BY seq"))
    conn.close()
    return Book(ORIGIN, entries, _unsigned(entries))


class _unsigned:
    """The chain's own head (the signature is checked by the export tests)."""

    def __init__(self, entries) -> None:
        self.head = Head(entries[-1].seq, entries[-1].hash)

    def valid(self) -> bool:
        return True


@pytest.mark.slow
def test_a_station_killed_twenty_times_keeps_its_chain_and_every_acknowledged_entry(tmp_path):
    deck = new_deck(40, seed="book-crash", name="Crash")
    deck_path = save_deck(deck, tmp_path / "crash.deck.json")
    db = tmp_path / "station.sqlite"
    acked_calls: list[tuple[int, int]] = []
    acked_sales: list[int] = []
    acked_claims: list[int] = []
    acked_awards: list[int] = []
    round_won: list[bool] = []  # an award answered, its next round not yet started
    gid = None
    for kill in range(KILLS):
        proc, url = start(db, deck_path if kill == 0 else None)
        try:
            token = requests.post(url + "/api/login", json={"pin": PIN}, timeout=10).json()
            h = {"Authorization": "Bearer " + token["token"]}
            if gid is None:
                r = requests.post(url + "/api/games", json={"deck_id": deck.deck_id}, headers=h)
                gid = r.json()["game_id"]
                requests.post(f"{url}/api/games/{gid}/ledger/price", json={"cents": 100}, headers=h)
            stop = threading.Event()

            def drawer(url=url, h=h, stop=stop, gid=gid) -> None:
                while not stop.is_set():
                    try:
                        r = requests.post(f"{url}/api/games/{gid}/draw", headers=h, timeout=10)
                    except requests.RequestException:
                        return
                    if r.status_code != 200:
                        return
                    acked_calls.append((r.json()["seq"], r.json()["ball"]))

            def seller(url=url, h=h, kill=kill, gid=gid) -> None:
                card = 1 + 2 * kill
                for serial in (card, card + 1):
                    try:
                        r = requests.post(
                            f"{url}/api/games/{gid}/ledger/sales",
                            json={"serials": str(serial), "round": "all"},
                            headers=h,
                            timeout=10,
                        )
                    except requests.RequestException:
                        return
                    if r.status_code == 201:
                        acked_sales.append(r.json()["sale_id"])

            def awarder(url=url, h=h, stop=stop, gid=gid) -> None:
                """Find a card with a bingo, claim it, award it, start the next round."""
                api = f"{url}/api/games/{gid}"
                try:
                    if round_won:  # a kill came between an award and the next round
                        if requests.post(f"{api}/rounds", json={}, headers=h).status_code != 201:
                            return
                        round_won.clear()
                    while not stop.is_set():
                        for serial in range(1, len(deck.cards) + 1):
                            v = requests.get(f"{api}/check/{serial}", headers=h, timeout=10)
                            if v.status_code == 200 and v.json()["bingo"]:
                                break
                        else:
                            continue  # no bingo yet: look again after more calls
                        r = requests.post(f"{api}/claims", json={"serial": serial}, headers=h)
                        if r.status_code != 201 or not r.json()["valid"]:
                            return
                        acked_claims.append(r.json()["claim_id"])
                        r = requests.post(f"{api}/award", json={}, headers=h, timeout=10)
                        if r.status_code != 200:
                            return
                        acked_awards.append(r.json()["award"]["claim_id"])
                        round_won.append(True)
                        if requests.post(f"{api}/rounds", json={}, headers=h).status_code == 201:
                            round_won.clear()
                        return
                except requests.RequestException:
                    return

            calls_before = len(acked_calls)
            awards_before = len(acked_awards)
            threads = [
                threading.Thread(target=drawer),
                threading.Thread(target=seller),
                threading.Thread(target=awarder),
            ]
            for t in threads:
                t.start()
            threads[1].join(20)  # both sales asked (and answered or not)
            while len(acked_calls) < calls_before + 2 and threads[0].is_alive():
                threads[0].join(0.01)
            if kill % 2:  # every other time, the kill comes once this round's award is answered
                threads[2].join(120)
                assert len(acked_awards) > awards_before, f"no award before kill {kill + 1}"
            os.kill(proc.pid, signal.SIGKILL)  # the drawer is still sending
            proc.wait(10)
            stop.set()
            for t in threads:
                t.join(10)
        finally:
            if proc.poll() is None:
                proc.kill()
        book = book_of(db)
        assert check_chain(book) == [], f"after kill {kill + 1}"
        calls = {(e.data["seq"], e.data["ball"]) for e in book.entries if e.kind == "call"}
        sales = {e.data["sale_id"] for e in book.entries if e.kind == "ledger.sale"}
        assert set(acked_calls) <= calls, f"an acknowledged call is missing after kill {kill + 1}"
        assert set(acked_sales) <= sales, f"an acknowledged sale is missing after kill {kill + 1}"
        claims = {e.data["claim_id"] for e in book.entries if e.kind == "claim"}
        awards = {e.data["claim_id"] for e in book.entries if e.kind == "award"}
        assert set(acked_claims) <= claims, f"a claim is missing after kill {kill + 1}"
        assert set(acked_awards) <= awards, f"an award is missing after kill {kill + 1}"
    assert len(acked_calls) >= 2 * KILLS and len(acked_sales) >= KILLS
    assert len(acked_awards) >= KILLS // 2  # at least every other kill came after an award
