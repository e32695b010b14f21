"""The few words printed on cards and kit pages, in Spanish and English.

PDFs are made outside any web request (from the CLI, or by the station for `demo`), so these live
in a plain table rather than the Flask-Babel catalogs. Names of the game stay Spanish in both
languages (Tabla Confrontadora, Maestro, Bingo de Puntos), as docs/rules.md asks.

The Spanish word for a card is "cartón", as in Spanish bingo halls, here and in the station's
pages alike. `card_no` labels the serial, the number the Maestro types to check a claim. What the
Maestro draws from the bag is a "ficha" in Spanish and a "calling token" in English (an English
hall's page or print never reads the Spanish word; docs/glossary.md).
"""

from __future__ import annotations

from ..errors import KitError

LANGS = ("es", "en")

WORDS: dict[str, dict[str, str]] = {
    "es": {
        "card": "Cartón",
        "card_no": "Cartón Nº",
        "free": "LIBRE",
        "deck": "Mazo",
        "scan": "Escanee para verificar",
        "tabla_title": "Tabla Confrontadora",
        "tabla_note": "El Maestro coloca cada ficha, con la cara hacia arriba, sobre su número.",
        "tokens_title": "Fichas",
        "tokens_note": "Recorte por las líneas de puntos. Cada ficha tiene el tamaño de su casilla "
        "en la Tabla Confrontadora.",
        "page": "página",
        "ticket": "Cartón",
        "strip": "Tira",
        "tabla_90_note": "El Maestro coloca cada bola cantada, o su ficha, sobre su número.",
        "tokens_90_note": "Recorte por las líneas de puntos: 90 fichas, una por bola.",
    },
    "en": {
        "card": "Card",
        "card_no": "Card No.",
        "free": "FREE",
        "deck": "Deck",
        "scan": "Scan to verify",
        "tabla_title": "Tabla Confrontadora",
        "tabla_note": "The Maestro places each token, face up, on its own number.",
        "tokens_title": "Calling tokens",
        "tokens_note": "Cut along the dotted lines. Each token is the size of its spot on the "
        "Tabla Confrontadora.",
        "page": "page",
        "ticket": "Ticket",
        "strip": "Strip",
        "tabla_90_note": "The Maestro places each called ball, or its token, on its number.",
        "tokens_90_note": "Cut along the dotted lines: 90 tokens, one per ball.",
    },
}


def words(lang: str) -> dict[str, str]:
    if lang not in WORDS:
        raise KitError("unknown language %(lang)r; use es or en", lang=lang)
    return WORDS[lang]
