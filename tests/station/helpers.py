"""Test helpers: an independent re-implementation of the draw order from docs/fairness.md (so
the station's output is checked against the document, not against its own code), and API
shortcuts."""

from __future__ import annotations

import hashlib
import hmac

from bingo_hall.manifest import new_deck


def order_from_document(seed: bytes, public_input: str = "") -> list[int]:
    """docs/fairness.md step by step: HMAC-SHA256 blocks, rejection sampling, Fisher-Yates."""
    label = b"draw" + public_input.encode("utf-8")
    stream = bytearray()
    block = 0

    def byte() -> int:
        nonlocal block
        if not stream:
            stream.extend(hmac.new(seed, label + block.to_bytes(8, "big"), "sha256").digest())
            block += 1
        return stream.pop(0)

    def below(n: int) -> int:
        bits = (n - 1).bit_length()  # every n <= 75 fits in one byte
        while True:
            v = byte() & ((1 << bits) - 1)
            if v < n:
                return v

    balls = list(range(1, 76))
    for i in range(74, 0, -1):
        j = below(i + 1)
        balls[i], balls[j] = balls[j], balls[i]
    return balls


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def bearer(client) -> dict[str, str]:
    r = client.post("/api/login", json={"pin": client.application.config["CALLER_PIN"]})
    assert r.status_code == 200, r.get_json()
    return {"Authorization": "Bearer " + r.get_json()["token"]}


def loaded_deck(client, headers, n: int = 12, free: bool = False):
    deck = new_deck(n, seed="tests", free_centre=free, name="Test deck")
    r = client.post(
        "/api/decks", data=deck.to_json(), headers=headers, content_type="application/json"
    )
    assert r.status_code == 201, r.get_json()
    return deck


def new_game(client, headers, draw: str = "auto", **extra) -> int:
    deck = loaded_deck(client, headers)
    r = client.post(
        "/api/games", json={"deck_id": deck.deck_id, "draw": draw, **extra}, headers=headers
    )
    assert r.status_code == 201, r.get_json()
    return r.get_json()["game_id"]
