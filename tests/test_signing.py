"""QR signatures: HMAC-SHA256 of deck id and serial under the deck's secret, >= 80 bits."""

import hashlib
import hmac
from base64 import b32decode

from bingo_hall.signing import card_signature, card_url, signature_is_valid

SECRET = "ab" * 32


def test_signature_is_a_truncated_hmac_sha256_of_deck_and_serial():
    sig = card_signature(SECRET, "DECK1234", 17)
    raw = b32decode(sig)
    full = hmac.new(bytes.fromhex(SECRET), b"DECK1234/17", hashlib.sha256).digest()
    assert len(raw) * 8 >= 80 and full.startswith(raw)


def test_altered_serial_deck_or_signature_is_rejected():
    sig = card_signature(SECRET, "DECK1234", 17)
    assert signature_is_valid(SECRET, "DECK1234", 17, sig)
    assert signature_is_valid(SECRET, "DECK1234", 17, sig.lower())
    assert not signature_is_valid(SECRET, "DECK1234", 18, sig)
    assert not signature_is_valid(SECRET, "DECK1235", 17, sig)
    assert not signature_is_valid("cd" * 32, "DECK1234", 17, sig)
    assert not signature_is_valid(SECRET, "DECK1234", 17, ("A" if sig[0] != "A" else "B") + sig[1:])


def test_card_url_is_upper_case_for_qr_alphanumeric_mode():
    url = card_url("http://192.168.1.20:5000/", SECRET, "DECK1234", 3)
    assert url == url.upper() and url.startswith("HTTP://192.168.1.20:5000/C/DECK1234/3/")


def test_the_signature_is_the_standard_librarys_hmac_for_any_secret_deck_and_serial():
    """The kit keys HMAC-SHA256 once per secret (RFC 2104's pads) and writes base32 itself: the
    same letters as `hmac` and `base64` give, for secrets of every length (longer than the hash's
    block too) and serials up to a deck's largest."""
    import random
    from base64 import b32encode

    rng = random.Random(51)
    for _ in range(300):
        secret = bytes(rng.randrange(256) for _ in range(rng.choice([1, 16, 32, 64, 65, 100])))
        deck_id = "".join(rng.choice("ABCDEFGHJKMNPQRSTUVWXYZ23456789") for _ in range(8))
        serial = rng.randrange(1, 1_000_000)
        mac = hmac.new(secret, f"{deck_id}/{serial}".encode(), hashlib.sha256).digest()
        assert card_signature(secret.hex(), deck_id, serial) == b32encode(mac[:10]).decode()
