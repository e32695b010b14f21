"""What the display says aloud for a call: "N... treinta y uno" / "N... thirty-one", and, with
traditional calls on, the number's nickname after it: "B... trece, la mala suerte".

The words are written here, in Python, so the page shows exactly what the voice says and tests
can read it; the browser's speech synthesis only pronounces the text. Pure: no Flask. The
nicknames are data (traditional_calls.toml, read by phrases.py).
"""

from __future__ import annotations

from ..cards import letter_of

#: {lang: {ball: nickname}}
Phrases = dict[str, dict[int, str]]

_ES_UNITS = (
    "cero uno dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce quince "
    "dieciséis diecisiete dieciocho diecinueve veinte veintiuno veintidós veintitrés veinticuatro "
    "veinticinco veintiséis veintisiete veintiocho veintinueve"
).split()
_ES_TENS = {3: "treinta", 4: "cuarenta", 5: "cincuenta", 6: "sesenta", 7: "setenta"}

_EN_UNITS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
).split()
_EN_TENS = {2: "twenty", 3: "thirty", 4: "forty", 5: "fifty", 6: "sixty", 7: "seventy"}


def spanish_number(n: int) -> str:
    """Spanish words for 0-79 (RAE spelling: veintidós, treinta y uno)."""
    if not 0 <= n < 80:
        raise ValueError(f"{n} is outside 0-79")
    if n < 30:
        return _ES_UNITS[n]
    tens, units = divmod(n, 10)
    return _ES_TENS[tens] if units == 0 else f"{_ES_TENS[tens]} y {_ES_UNITS[units]}"


def english_number(n: int) -> str:
    """English words for 0-79 (thirty-one)."""
    if not 0 <= n < 80:
        raise ValueError(f"{n} is outside 0-79")
    if n < 20:
        return _EN_UNITS[n]
    tens, units = divmod(n, 10)
    return _EN_TENS[tens] if units == 0 else f"{_EN_TENS[tens]}-{_EN_UNITS[units]}"


def spoken_call(ball: int, lang: str, phrases: Phrases | None = None) -> str:
    """The letter, a pause, then the number in words, as the Maestro calls it ("N31"), then its
    nickname when traditional calls are on and it has one."""
    words = spanish_number(ball) if lang == "es" else english_number(ball)
    nickname = (phrases or {}).get(lang, {}).get(ball)
    return f"{letter_of(ball)}... {words}" + (f", {nickname}" if nickname else "")


def spoken_both(ball: int, phrases: Phrases | None = None) -> dict[str, str]:
    return {"es": spoken_call(ball, "es", phrases), "en": spoken_call(ball, "en", phrases)}
