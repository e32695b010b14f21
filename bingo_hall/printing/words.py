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
        "large_tabla_note": "El Maestro coloca cada ficha cantada sobre su número.",
        "large_tokens_note": "Recorte por las líneas de puntos: cada ficha tiene el tamaño de su "
        "casilla.",
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
        "large_tabla_note": "The Maestro places each called token on its own number.",
        "large_tokens_note": "Cut along the dotted lines: each token is the size of its spot.",
    },
}


#: The lines `print`, `generate` and `kit` write, in the language of their --lang (a host who
#: prints Spanish cards reads Spanish lines). %-style, as the catalogs are.
CLI_LINES: dict[str, dict[str, str]] = {
    "es": {
        "language": "español",
        "cards": "cartones",
        "tickets": "cartones de 90 bolas",
        "wrote_deck": "escrito %(path)s: guárdelo, la estación lo necesita para verificar estos "
        "cartones",
        "wrote_print": "escrito %(path)s: %(count)s %(what)s del mazo %(name)r (%(id)s), "
        "plantilla %(template)s, %(paper)s, impresos en %(language)s (--lang), códigos QR a "
        "%(url)s (--base-url)",
        "wrote_kit": "escrito %(path)s: Tabla Confrontadora, %(game)s fichas y las reglas "
        "(%(language)s, %(paper)s)",
        "long_name": "aviso: el nombre del mazo %(name)r es demasiado largo para los %(what)s "
        "de la plantilla %(template)s, que muestran %(shown)r; un nombre de unos %(fits)s "
        "caracteres se imprime entero (una plantilla de un cartón por página tiene más lugar)",
        "printing": "Imprimiendo %(what)s",
    },
    "en": {
        "language": "English",
        "cards": "cards",
        "tickets": "tickets",
        "wrote_deck": "wrote %(path)s: keep it, the station needs it to verify these cards",
        "wrote_print": "wrote %(path)s: %(count)s %(what)s of deck %(name)r (%(id)s), template "
        "%(template)s, %(paper)s, printed in %(language)s (--lang), QR codes to %(url)s "
        "(--base-url)",
        "wrote_kit": "wrote %(path)s: Tabla Confrontadora, %(game)s tokens and the rules "
        "(%(language)s, %(paper)s)",
        "long_name": "warning: the deck name %(name)r is too long for the %(what)s of template "
        "%(template)s, which show %(shown)r; a name of about %(fits)s characters prints whole "
        "(a one-card template has more room)",
        "printing": "Printing %(what)s",
    },
}


def cli_line(lang: str, key: str, **values: object) -> str:
    """One line of the printing CLI in `lang`."""
    return CLI_LINES[lang][key] % values


def words(lang: str) -> dict[str, str]:
    if lang not in WORDS:
        raise KitError("unknown language %(lang)r; use es or en", lang=lang)
    return WORDS[lang]
