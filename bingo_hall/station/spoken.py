"""What the display says aloud for a call: "N... treinta y uno" / "N... thirty-one" in the 75-ball
game, the number alone in the 90-ball game, whose balls have no letter ("ochenta y siete"), and,
with traditional calls on, the number's nickname after it: "B... trece, la mala suerte". A
game played for a pattern is announced by the pattern's name, and its award by the form the card
completed ("¡Bingo! Cometa loca, con giro de 90°"), in the hall's language.

The words are written here, in Python, so the page shows exactly what the voice says and tests
can read it; the browser's speech synthesis only pronounces the text. Pure: no Flask. The
nicknames are data (traditional_calls.toml, read by phrases.py).
"""

from __future__ import annotations

from collections.abc import Mapping

from ..prize_names import prize_name
from ..variants import DEFAULT_BALLS, variant_for

#: {lang: {ball: nickname}}
Phrases = dict[str, dict[int, str]]

_ES_UNITS = (
    "cero uno dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce quince "
    "dieciséis diecisiete dieciocho diecinueve veinte veintiuno veintidós veintitrés veinticuatro "
    "veinticinco veintiséis veintisiete veintiocho veintinueve"
).split()
_ES_TENS = {
    3: "treinta",
    4: "cuarenta",
    5: "cincuenta",
    6: "sesenta",
    7: "setenta",
    8: "ochenta",
    9: "noventa",
}

_EN_UNITS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
).split()
_EN_TENS = {
    2: "twenty",
    3: "thirty",
    4: "forty",
    5: "fifty",
    6: "sixty",
    7: "seventy",
    8: "eighty",
    9: "ninety",
}
LARGEST = 90  # the 90-ball game's last ball


def spanish_number(n: int) -> str:
    """Spanish words for 0-90 (RAE spelling: veintidós, treinta y uno, ochenta y siete)."""
    if not 0 <= n <= LARGEST:
        raise ValueError(f"{n} is outside 0-90")
    if n < 30:
        return _ES_UNITS[n]
    tens, units = divmod(n, 10)
    return _ES_TENS[tens] if units == 0 else f"{_ES_TENS[tens]} y {_ES_UNITS[units]}"


def english_number(n: int) -> str:
    """English words for 0-90 (thirty-one, eighty-seven)."""
    if not 0 <= n <= LARGEST:
        raise ValueError(f"{n} is outside 0-90")
    if n < 20:
        return _EN_UNITS[n]
    tens, units = divmod(n, 10)
    return _EN_TENS[tens] if units == 0 else f"{_EN_TENS[tens]}-{_EN_UNITS[units]}"


def call_label(ball: int, balls: int = DEFAULT_BALLS) -> str:
    """The call as screens write it: "N 31" in the 75-ball game, "87" in the 90-ball game."""
    return variant_for(balls).call_label(ball)


def spoken_call(
    ball: int, lang: str, balls: int = DEFAULT_BALLS, phrases: Phrases | None = None
) -> str:
    """The letter, a pause, then the number in words, as the Maestro calls it ("N31"); in the
    90-ball game the number alone. Then its nickname when traditional calls are on and it has
    one."""
    words = spanish_number(ball) if lang == "es" else english_number(ball)
    said = variant_for(balls).said(ball, words)
    nickname = (phrases or {}).get(lang, {}).get(ball)
    return said + (f", {nickname}" if nickname else "")


def spoken_both(
    ball: int, balls: int = DEFAULT_BALLS, phrases: Phrases | None = None
) -> dict[str, str]:
    return {lang: spoken_call(ball, lang, balls, phrases) for lang in ("es", "en")}


def spoken_pattern(
    key: str, lang: str, names: Mapping[str, Mapping[str, str]] | None = None
) -> str:
    """What the room is told when a game or a round is played for a pattern, in the hall's
    language: "Se juega por la figura: Cometa loca" / "Playing for the pattern: Crazy kite".
    `names`: a program's own patterns' names, beside the kit's."""
    name = prize_name(key, lang, names)
    return f"Se juega por la figura: {name}" if lang == "es" else f"Playing for the pattern: {name}"


def spoken_pattern_won(
    key: str,
    form: Mapping[str, str] | None,
    lang: str,
    names: Mapping[str, Mapping[str, str]] | None = None,
) -> str:
    """What the room is told when the round is awarded for a pattern: its name and the form the
    card completed ("¡Bingo! Cometa loca, con giro de 90°" / "Bingo! Crazy kite, turned 90°");
    `form`: the verdict's words for the form ({"en", "es"}), None for a pattern of one form."""
    name = prize_name(key, lang, names)
    said = f"¡Bingo! {name}" if lang == "es" else f"Bingo! {name}"
    words = (form or {}).get(lang)
    return f"{said}, {words}" if words else said


def spoken_pattern_both(
    key: str, names: Mapping[str, Mapping[str, str]] | None = None
) -> dict[str, str]:
    return {lang: spoken_pattern(key, lang, names) for lang in ("es", "en")}


def spoken_pattern_won_both(
    key: str, form: Mapping[str, str] | None, names: Mapping[str, Mapping[str, str]] | None = None
) -> dict[str, str]:
    return {lang: spoken_pattern_won(key, form, lang, names) for lang in ("es", "en")}
