"""Spanish as a Spanish-speaking host reads it (issue 40 item 7, docs/glossary.md): no English
word on a Spanish page, PDF or CLI line the kit renders, and the glossary's words the only ones
for its things.

What counts as English is worked out from the kit itself: every word of its English source (the
msgids of every catalog, the English words of the printed kit and the CLI's English lines), less
the few written the same in both languages (SHARED) and the names that stay as they are (NAMES).
A Spanish page that shows any other of those words shows English."""

from __future__ import annotations

import csv
import html
import io
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from babel.messages.pofile import read_po
from testkit import Caller, page_login

from bingo_hall.manifest import new_deck, new_strip_deck
from bingo_hall.ninety.prize_rules import BUILT_IN as BUILT_IN_LISTS
from bingo_hall.printing import words as printing_words
from bingo_hall.printing.deck_pdf import render_deck_pdf
from bingo_hall.printing.kit import render_kit_pdf
from bingo_hall.seventyfive.cards import LINE_CELLS
from bingo_hall.seventyfive.patterns import BUILT_IN as BUILT_IN_PATTERNS
from bingo_hall.signing import card_path

ROOT = Path(__file__).resolve().parents[1]
CATALOGS = sorted(
    p for p in ROOT.glob("*/**/translations/es/LC_MESSAGES/messages.po") if ".venv" not in p.parts
)
#: the hall's catalogs (the station, the claims, the ledger, the web core): the glossary's things
HALL_CATALOGS = [p for p in CATALOGS if p.parts[len(ROOT.parts)] == "bingo_hall"]

#: names that stay as they are in both languages (docs/glossary.md), and codes a program reads
NAMES = {
    *"Tabla Confrontadora Maestro Bingo BINGO Normal Puntos Central Doble Sociedad Burako".split(),
    *"Qwinto Clue Tambola Housie Rummy QR PIN CSV PDF SHA JSON URL USB UTF ISO GET EUR".split(),
    *"GBP MB Berndt JavaScript".split(),
    *"ARS Ctrl C".split(),  # a currency's code; the keys a station is stopped with (Ctrl+C)
    # Italian Tombola's prizes and board keep their Italian names, glossed in each language
    *"Tombola tombola ambo terno quaterna cinquina tabellone".split(),
    "English",  # a language offered by its own name, beside "Español"
}
#: the JSON blocks that are data for the scripts (the snapshot, a card's state), not words shown
DATA_BLOCKS = {
    "snapshot",
    "card-state",
    "game-state",
    "burako-data",
    "rummy-data",
    "table-data",
    "tile-pad-data",
    "raffle-state",
}
#: words spelt the same in English and Spanish (letters, and words of both languages)
SHARED = {
    *"A B I N G O D R X J a e s g n x no No de en es total Total final normal diagonal".split(),
    *"Diagonal manual hexadecimal error bingo dice sale complete".split(),  # es: verbs
    *"base min".split(),  # base de datos; min, minutes in both
    "euro",  # the currency, one word in both
    *"K U".split(),  # letters, as the pattern book's "Letra K" and "Letra U" name them
    # Spanish words the English source quotes: "Full card (cartón lleno)", "(espacio franco)"
    *"lleno franco espacio linea puras impuras muerto canasta canastas Canastas".split(),
}
PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sdr]|\{[a-z_]+\}|<[^>]+>")


def _words(text: str) -> list[str]:
    return re.findall(r"[A-Za-zÀ-ÿ]+", PLACEHOLDER.sub(" ", text))


def _messages(path: Path):
    with path.open("rb") as f:
        for m in read_po(f):
            if m.id:
                ids = m.id if isinstance(m.id, tuple) else (m.id,)
                strs = m.string if isinstance(m.string, tuple) else (m.string,)
                yield ids, strs


def english_words() -> set[str]:
    found: set[str] = set()
    for path in CATALOGS:
        for ids, _ in _messages(path):
            for msgid in ids:
                found.update(_words(msgid))
    for text in [*printing_words.WORDS["en"].values(), *printing_words.CLI_LINES["en"].values()]:
        found.update(_words(text))
    return {w for w in found if w.isascii()} - NAMES - SHARED


ENGLISH = english_words()


#: what is not words: addresses, file names, --options, ids and hex (deck ids, the sealed order)
NOT_WORDS = re.compile(
    r"\S*(?:://|/|\\)\S*|\S+\.(?:pdf|json|csv|sqlite|toml)\b|--[a-z-]+"
    r"|\bbingo-hall\b|\bBingo Hall\b"
    r"|\b(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[\w-]{8,}\b"
)


def english_in(text: str) -> list[str]:
    return sorted({w for w in _words(NOT_WORDS.sub(" ", text)) if w in ENGLISH})


def english_shown(texts: dict[str, str]) -> dict[str, list[str]]:
    """{where: [each English word in its context]}, for what shows any."""
    found = {}
    for where, text in texts.items():
        clean = PLACEHOLDER.sub(" ", NOT_WORDS.sub(" ", text))
        if hits := english_in(clean):
            found[where] = [
                " ".join(m.group(0).split())
                for w in hits
                for m in [re.search(rf".{{0,40}}\b{w}\b.{{0,40}}", clean, re.S)]
                if m
            ]
    return found


class _Text(HTMLParser):
    """What a page shows or says: its text, the titles, labels, placeholders and alt texts, and
    the strings its scripts show (the JSON blocks of type application/json)."""

    SHOWN = ("title", "aria-label", "placeholder", "alt", "data-confirm")

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.skip = 0
        self.json = False

    def handle_starttag(self, tag, attrs) -> None:
        a = dict(attrs)
        if tag in ("script", "style"):
            self.skip += 1
            self.json = (
                tag == "script"
                and a.get("type") == "application/json"
                and a.get("id") not in DATA_BLOCKS
            )
        self.parts += [a[k] or "" for k in self.SHOWN if k in a]
        if tag == "input" and a.get("type") in ("submit", "button"):
            self.parts.append(a.get("value") or "")

    def handle_endtag(self, tag) -> None:
        if tag in ("script", "style"):
            self.skip -= 1
            self.json = False

    def handle_data(self, data) -> None:
        if self.json:
            self.parts += _strings(json.loads(data))
        elif not self.skip:
            self.parts.append(data)


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def page_text(body: str) -> str:
    parser = _Text()
    parser.feed(body)
    return html.unescape(" ".join(parser.parts))


def pdf_text(data: bytes) -> str:
    pdf = pdfium.PdfDocument(data)
    return " ".join(page.get_textpage().get_text_range() for page in pdf)


def _line(deck, serial: int, line: str) -> list[int]:
    card = deck.card(serial)
    return [n for r, c in LINE_CELLS[line] if (n := card.columns[c][r]) is not None]


# ---- the detector itself --------------------------------------------------------------------


def test_the_english_words_are_the_kits_own_english():
    assert {"wrote", "FREE", "player", "removes", "markers", "claim", "cards"} <= ENGLISH
    assert not {"Maestro", "Tabla", "BINGO", "de", "no"} & ENGLISH
    assert english_in("escrito party.pdf: 4 cartones · LIBRE") == []
    assert english_in("wrote party.pdf: 4 cartones · FREE") == ["FREE", "wrote"]


# ---- pages ----------------------------------------------------------------------------------


def _hall_pages(client) -> dict[str, str]:
    """Every page of the hall a Spanish-speaking host and players see, in Spanish: the station
    with a 75-ball Normal game (a false and a valid claim), a Bingo de Puntos game with players,
    a 90-ball game with a claim, the ledger with sales, the phones' pages and the errors."""
    deck = new_deck(12, seed="spanish pages", name="Fiesta", free_centre=True)
    strips = new_strip_deck(1, seed="spanish strips", name="Tiras")
    hall = Caller(client, deck)
    hall.load_deck(strips)
    shown: dict[str, str] = {}

    def get(path: str, status: int = 200) -> None:
        sep = "&" if "?" in path else "?"
        r = client.get(f"{path}{sep}lang=es", follow_redirects=True)
        assert r.status_code == status, (path, r.status_code)
        shown[path] = page_text(r.get_data(as_text=True))

    get("/")
    get("/caller/login")
    page_login(client)
    get("/caller/new")
    normal = hall.new_game(draw="manual")
    ok = hall.post(f"/api/games/{normal}/ledger/price", {"amount": "2"})
    assert ok.status_code == 200, ok.get_json()
    assert hall.post(f"/api/games/{normal}/ledger/sales", {"serials": "1-12"}).status_code == 201
    hall.call(normal, *_line(deck, 3, "B"))
    assert hall.post(f"/api/games/{normal}/claims", {"serial": 5, "line": "R1"}).status_code == 201
    assert hall.post(f"/api/games/{normal}/claims", {"serial": 3}).status_code == 201
    get(f"/caller/games/{normal}")
    get("/display")
    get(f"/display/{normal}")
    get("/join")
    get("/join/card?n=3")
    get("/join/card?n=abc", 400)
    get(card_path(deck.secret, deck.deck_id, 3))
    get(card_path(deck.secret, deck.deck_id, 5))
    get(card_path(deck.secret, deck.deck_id, 5)[:-4] + "AAAA", 404)
    get("/caller/ledger")
    points = hall.new_game(mode="points", draw="manual")
    for name in ("Ana", "Beto"):
        payload = {"name": name, "maestro": name == "Ana"}
        assert hall.post(f"/api/games/{points}/players", payload).status_code == 201
    get(f"/caller/games/{points}")
    get(f"/display/{points}")
    tambola = hall.post(
        "/api/games", {"deck_id": strips.deck_id, "mode": "linea-bingo", "draw": "manual"}
    )
    assert tambola.status_code == 201, tambola.get_json()
    gid = tambola.get_json()["game_id"]
    ticket = strips.cards[0]
    hall.call(gid, *[n for n in ticket.rows[0] if n is not None])
    assert hall.post(f"/api/games/{gid}/claims", {"serial": ticket.serial}).status_code == 201
    get(f"/caller/games/{gid}")
    get(f"/display/{gid}")
    get(card_path(strips.secret, strips.deck_id, ticket.serial))
    tombola = hall.post("/api/games", {"deck_id": strips.deck_id, "mode": "tombola"})
    assert tombola.status_code == 201, tombola.get_json()
    get(f"/display/{tombola.get_json()['game_id']}")
    get(f"/caller/games/{tombola.get_json()['game_id']}")
    get("/caller/raffle")  # no raffle yet: the form to start one
    for path, payload in (
        ("/api/raffle", {"price": "1"}),
        ("/api/raffle/sales", {"colour": "rojo", "numbers": "1-20"}),
        ("/api/raffle/prizes", {"name": "Canasta"}),
    ):
        assert hall.post(path, payload).status_code == 201
    get("/caller/raffle")
    assert hall.post("/api/raffle/commit", {}).status_code == 200
    assert hall.post("/api/raffle/draw").status_code == 200
    get("/caller/raffle")
    get("/raffle")
    get("/no-such-page", 404)
    return shown


def test_no_english_word_on_any_spanish_page_of_the_hall(client):
    pages = _hall_pages(client)
    assert english_shown(pages) == {}
    assert {where: found for where, text in pages.items() if (found := code_words_in(text))} == {}
    # the words the issue found are gone, and their Spanish is there
    new_game = pages["/caller/new"]
    assert "LIBRE" in new_game and "FREE" not in new_game


def test_the_companions_pages_are_spanish_too(client):
    tables = {
        "clue": {"players": ["Ana", "Beto", "Caro"]},
        "qwinto": {"players": ["Ana", "Beto"]},
        "domino": {"players": ["Ana", "Beto"]},
    }
    shown = {"/t/": page_text(client.get("/t/?lang=es").get_data(as_text=True))}
    for game, body in tables.items():
        r = client.post(f"/t/new/{game}", json=body)
        assert r.status_code == 201, r.get_json()
        path = f"/t/{r.get_json()['code']}"
        page = client.get(f"{path}?lang=es")
        assert page.status_code == 200
        shown[path] = page_text(page.get_data(as_text=True))
    assert english_shown(shown) == {}


def test_the_claims_count_says_no_question_mark_before_the_player_is_chosen():
    """Clue's "Tus naipes · 0 de ?": until the player says who they are the count is alone."""
    script = (ROOT / "companions/web/clue/static/clue.js").read_text(encoding="utf-8")
    assert '"?"' not in script and "T.picked" in script
    template = (ROOT / "companions/web/clue/templates/companions/clue.html").read_text("utf-8")
    assert '"picked": _("%(n)s chosen"' in template


# ---- PDFs and the CLI -----------------------------------------------------------------------


@pytest.mark.parametrize("game", [75, 90])
def test_no_english_word_in_the_spanish_pdfs(game):
    if game == 75:
        deck = new_deck(4, seed="spanish pdf", name="Fiesta", free_centre=True)
    else:
        deck = new_strip_deck(1, seed="spanish pdf", name="Fiesta")
    cards = pdf_text(render_deck_pdf(deck, lang="es", base_url="http://192.168.1.9:5000"))
    kit = pdf_text(render_kit_pdf(lang="es", game=game))
    assert english_in(cards) == [] and english_in(kit) == []
    assert ("LIBRE" in cards) == (game == 75)
    for word in ("cantor", "Grita", "número de serie"):
        assert word not in kit


def test_no_english_word_in_the_cli_lines_with_lang_es(tmp_path, kit_cli):
    url = "http://192.168.1.9:5000"
    long = "Fiesta de la Asociación de Vecinos del Barrio de San Blas 2026"
    runs = [
        ["generate", "-n", "4", "--name", long, "--lang", "es", "-o", str(tmp_path / "a.pdf")],
        ["print", str(tmp_path / "a.deck.json"), "--lang", "es", "-o", str(tmp_path / "b.pdf")],
        ["kit", "--lang", "es", "-o", str(tmp_path / "kit.pdf")],
        ["kit", "--lang", "es", "--game", "90", "-o", str(tmp_path / "kit90.pdf")],
    ]
    said = []
    for argv in runs:
        code, out, err = kit_cli([*argv, *(["--base-url", url] if argv[0] != "kit" else [])])
        assert code == 0, err
        said += [out, err]
    text = " ".join(said)
    assert english_in(text) == [], text
    assert "75 fichas y las reglas" in text and "90 fichas y las reglas" in text
    assert "demasiado largo" in text  # the warning about the long name, in Spanish too


def test_the_ledger_csv_and_summary_are_spanish_with_lang_es(client, tmp_path, kit_cli):
    deck = new_deck(10, seed="spanish ledger", name="Fiesta")
    hall = Caller(client, deck)
    gid = hall.new_game(draw="manual")
    assert hall.post(f"/api/games/{gid}/ledger/price", {"amount": "2"}).status_code == 200
    assert hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "1-10"}).status_code == 201
    prizes = {"prizes": {"bingo": {"kind": "percent", "percent": "50"}}}
    assert hall.post(f"/api/games/{gid}/ledger/prizes", prizes).status_code == 200
    hall.call(gid, *_line(deck, 2, "B"))
    assert hall.post(f"/api/games/{gid}/claims", {"serial": 2}).status_code == 201
    assert hall.post(f"/api/games/{gid}/award").status_code == 200
    page_login(client)
    got = client.get("/caller/ledger/summary.csv?lang=es").get_data(as_text=True)
    assert english_in(got) == [], got
    rows = list(csv.DictReader(io.StringIO(got)))
    assert list(rows[0]) == [
        *("partida ronda tipo premio cartón jugador bola cartones centésimos importe".split()),
        *("pozo pagado detalle".split()),
    ]
    payout = next(r for r in rows if r["tipo"] == "pago")
    assert (payout["cartón"], payout["centésimos"], payout["pagado"]) == ("2", "1000", "no")
    pdf = client.get("/caller/ledger/summary.pdf?lang=es").data
    assert english_in(pdf_text(pdf)) == []
    db = client.application.config["DATABASE"]
    for extra in ([], ["--csv"]):
        code, out, err = kit_cli(["ledger", "--db", db, "--lang", "es", *extra])
        assert code == 0, err
        assert english_in(out) == [], out


# ---- the glossary ---------------------------------------------------------------------------

#: words the glossary keeps out of Spanish (docs/glossary.md's last column), as regexes
NOT_SPANISH = {
    r"\breclam": "a claim is a canto (a reclamo is a complaint in the River Plate)",
    r"\bbaraja\b": "a deck is a mazo",
    r"\bm[óo]vil": "a phone is a celular",
    r"\bbotes?\b": "a jackpot is a pozo",
    r"\bcomprom": "the draw's order is sealed (orden sellado)",
    r"\bsemilla": "a seed is the clave del sorteo",
    r"\badjudic": "a win is otorgada",
    r"\bcantor\b": "the one who calls is the Maestro",
    r"\btarjeta": "a card is a cartón",
    r"número de serie": "a card's number is the número del cartón",
    r"\bordenador": "a computer is a computadora",
    r"\btanteo\b": "scores are the puntaje",
    r"\bcuadros?\b": "a square is a casilla",
    # the euro's own word is the céntimo: allowed when it says so ("céntimos de euro")
    r"\bcéntimos?\b(?! de euro)": "small money is the currency's own word, not céntimos for any "
    "currency",
    r"(?-i:\bFREE\b)": "the centre is LIBRE",
}
#: tú on the hall's pages (they say usted, as the seeds do)
TU = re.compile(
    r"\b(tu|tus|ti|contigo|inténtalo|ganaste)\b"
    r"|(^|[.:;¡¿]\s*)(escribe|pulsa|abre|escanea|indica|grita|vuelve|reinicia)\b",
    re.I,
)


def _hall_strings():
    for path in HALL_CATALOGS:
        for ids, strs in _messages(path):
            for s in strs:
                yield path.relative_to(ROOT), ids[0], s


def test_the_hall_catalogs_use_only_the_glossarys_words():
    wrong = [
        (str(path), msgid, why)
        for path, msgid, s in _hall_strings()
        for pattern, why in NOT_SPANISH.items()
        if re.search(pattern, s, re.I)
    ]
    assert wrong == []


def test_the_hall_speaks_usted_on_every_page():
    assert [(str(p), s) for p, _, s in _hall_strings() if TU.search(s)] == []


#: msgids about a field of the API or an option of the CLI by its own name ("seed must be hex")
API_NAMES = (
    r"\b[a-z]+_[a-z_]+ (must|is)\b|^(mode|draw|options|action|prize|seed|secret) "
    r"|--seed|another seed|kind(:| is) "
)


@pytest.mark.parametrize(
    ("english", "spanish"),
    [
        # a line of five on a 75-ball card (the 90-ball prizes keep their names: Línea, Una línea)
        (
            r"^(?!.*\b(one|two|three) lines?\b)(?!.*\(línea)(.*(?-i:\blines?\b)|Line claimed)",
            r"\bhilera",
        ),
        (r"\bpatterns?\b", r"\bfigura"),
        (r"\bclaims?\b", r"\bcant"),  # canto, cantar, cantado
        (r"\baward", r"\botorg"),
        (r"\bphones?\b", r"\bcelular"),
        (r"\bjackpot", r"\bpozo"),
        (r"\bmarkers?\b", r"\bmarcador"),
        (r"\bseed\b", r"clave del sorteo"),
        (r"\bcommit", r"orden sellado|sella el orden"),
    ],
)
def test_one_spanish_word_for_each_glossary_thing(english, spanish):
    """Each msgid that names the thing in English names it with the glossary's Spanish word."""
    named = [(ids[0], s) for _, msgid, s in _hall_strings() for ids in [(msgid,)]]
    missing = [
        (msgid, s)
        for msgid, s in named
        if re.search(english, PLACEHOLDER.sub(" ", msgid), re.I)
        and not re.search(API_NAMES, msgid)
        and not re.search(spanish, s, re.I)
    ]
    assert missing == []


def test_a_false_claim_is_the_maestros_to_undo_in_both_languages():
    """The seed: "el Maestro QUITA TODOS los Marcadores de aquella Hilera"."""
    found = {
        msgid: s
        for _, msgid, s in _hall_strings()
        if "removes the markers" in msgid or "quita los marcadores" in s
    }
    assert len(found) == 2 and all("the Maestro removes" in m for m in found)
    assert all("el Maestro quita los marcadores" in s for s in found.values())


def test_a_msgid_has_one_spanish_text_across_the_catalogs():
    """Flask-Babel merges every area's catalog: a msgid translated two ways shows whichever loads
    first ("Scores" read "Anotador" on the big screen, from the companions, not "Puntaje")."""
    seen: dict[str, set[str]] = {}
    for path in CATALOGS:
        for ids, strs in _messages(path):
            seen.setdefault(ids[0], set()).add(" | ".join(strs))
    assert {msgid: texts for msgid, texts in seen.items() if len(texts) > 1} == {}


def test_the_table_companions_speak_tu_throughout():
    """The companions are notebooks friends share at one table: tú, and never usted."""
    usted = re.compile(
        r"\b(escriba|pulse|vuelva|inténtelo|muestre|elija|abra|escanee|usted|reinicie)\b", re.I
    )
    companions = [p for p in CATALOGS if p.parts[len(ROOT.parts)] == "companions"]
    assert companions
    found = [s for p in companions for _, strs in _messages(p) for s in strs if usted.search(s)]
    assert found == []


# ---- prize and pattern keys (code words) -----------------------------------------------------

#: every prize and pattern key of the kit's plans, which a person must never read for its name
PRIZE_KEYS = sorted(
    (
        {p.key for lst in BUILT_IN_LISTS.values() for p in lst.prizes}
        | set(BUILT_IN_PATTERNS)
        | {"linea-bingo", "lines-house"}
    )
    - {"bingo"}  # "cantar bingo": a word of both languages as well as a key
)


def code_words_in(text: str) -> list[str]:
    """The prize and pattern keys `text` shows as they are written in code: a key with a hyphen
    or an underscore anywhere ("early-five", "four_corners"), and a one-word key in lowercase
    where its name is capitalised ("ambo" for "Ambo (dos en una fila)", "linea" for "Línea")."""
    text = NOT_WORDS_BUT_KEYS.sub(" ", text)
    return sorted(
        {k for k in PRIZE_KEYS if re.search(rf"(?<![\w/-]){re.escape(k)}(?![\w-])", text)}
    )


#: addresses and file names may hold keys (/api/..., night.toml): not words shown
NOT_WORDS_BUT_KEYS = re.compile(r"\S*(?:://|/|\\)\S*|\S+\.(?:pdf|json|csv|sqlite|toml)\b")


def test_the_code_word_detector_finds_keys_and_not_names():
    assert code_words_in("Línea de arriba 10,00 € · Cinco primeros") == []
    assert code_words_in("early-five 10,00 € · top-line") == ["early-five", "top-line"]
    assert code_words_in("Ambo (dos en una fila) · terno") == ["terno"]
    assert code_words_in("Cartón lleno · four_corners") == ["four_corners"]


def _tambola_and_tombola_night(client) -> tuple[dict[str, str], str]:
    """A Tambola game and an Italian Tombola game with a prize in money for each prize, cards
    sold, Early Five and Ambo awarded: the Spanish caller pages, screens, ledger, and the
    summary (its text, CSV and PDF)."""
    strips = new_strip_deck(2, seed="spanish tambola", name="Tiras")
    hall = Caller(client, strips)
    shown: dict[str, str] = {}

    def get(path: str) -> None:
        sep = "&" if "?" in path else "?"
        r = client.get(f"{path}{sep}lang=es", follow_redirects=True)
        assert r.status_code == 200, (path, r.status_code)
        body = r.get_data(as_text=True)
        shown[path] = page_text(body) if "html" in r.mimetype else body

    ticket = strips.cards[0]
    page_login(client)
    for mode, first in (("tambola", "early-five"), ("tombola", "ambo")):
        made = hall.post("/api/games", {"deck_id": strips.deck_id, "mode": mode, "draw": "manual"})
        assert made.status_code == 201, made.get_json()
        gid = made.get_json()["game_id"]
        keys = [p.key for p in BUILT_IN_LISTS[mode].prizes]
        rules = {k: {"kind": "fixed", "amount": str(5 + i)} for i, k in enumerate(keys)}
        assert hall.post(f"/api/games/{gid}/ledger/prizes", {"prizes": rules}).status_code == 200
        assert hall.post(f"/api/games/{gid}/ledger/price", {"amount": "1"}).status_code == 200
        sold = hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "1-12"})
        assert sold.status_code == 201, sold.get_json()
        hall.call(gid, *ticket.rows[0])
        claim = {"serial": ticket.serial, "prize": first}
        assert hall.post(f"/api/games/{gid}/claims", claim).status_code == 201
        assert hall.post(f"/api/games/{gid}/award", {"prize": first}).status_code == 200
        for path in (f"/caller/games/{gid}", f"/display/{gid}", f"/caller/ledger?game={gid}"):
            get(path)
        get(f"/ledger/games/{gid}/prizes")
    for path in ("/caller/ledger/summary.csv",):
        get(path)
    pdf = client.get("/caller/ledger/summary.pdf?lang=es").data
    shown["summary.pdf"] = pdf_text(pdf)
    return shown, client.application.config["DATABASE"]


def test_no_prize_key_on_any_spanish_screen_or_summary_of_a_tambola_night(client, kit_cli):
    shown, db = _tambola_and_tombola_night(client)
    found = {where: code_words_in(text) for where, text in shown.items()}
    assert {where: words for where, words in found.items() if words} == {}
    # the prizes are there, by their Spanish names
    ledger = next(t for w, t in shown.items() if w.startswith("/caller/ledger?"))
    assert "Cinco primeros" in ledger and "Línea de arriba" in ledger
    assert "Cinco primeros" in shown["summary.pdf"]
    # and in the summary the command prints (which read a 90-ball game's plan only in a station)
    code, out, err = kit_cli(["ledger", "--db", db, "--lang", "es"])
    assert code == 0, err
    assert code_words_in(out) == [] and "Ambo (dos en una fila)" in out


# ---- the River Plate's words, and prize names that need no agreement ----------------------

#: Spain's words where a Latin-American hall says another (docs/glossary.md's last column)
SPAIN = {
    r"\bbombo\b": "the ball machine is the bolillero",
    r"\bpuls(e|a|ar|ando)\b": "a button is presionado (or a number tocado)",
    r"\bañad": "to add is agregar",
    r"\bsitio\b": "room is lugar",
    r"\bportátil": "a computer is a computadora",
    r"entrada pública": "what the room mixes into the draw is the aporte del público",
    r"\bclave\b(?! del sorteo| de la estación| de idempotencia)": "the draw's clave del sorteo "
    "or the station's clave de la estación, never clave alone",
}


def _every_spanish_text() -> list[tuple[str, str]]:
    """(where, text) of every Spanish text the kit has: the catalogs, the printed words, the
    program's and the summary's words, the rules sheets."""
    from bingo_hall.money import night_text as night_words
    from bingo_hall.money import program_words

    found = [
        (f"{path.relative_to(ROOT)}: {ids[0]}", s)
        for path in CATALOGS
        for ids, strs in _messages(path)
        for s in strs
    ]
    tables = {
        "printing.words": {**printing_words.WORDS["es"], **printing_words.CLI_LINES["es"]},
        "money.program": program_words.WORDS["es"],
        "money.night": night_words.WORDS["es"],
    }
    found += [(f"{where}: {k}", v) for where, table in tables.items() for k, v in table.items()]
    sheets = sorted((ROOT / "bingo_hall" / "printing").glob("rules*_es.md"))
    return found + [(str(p.relative_to(ROOT)), p.read_text(encoding="utf-8")) for p in sheets]


def test_a_latin_american_kit_says_the_river_plates_words():
    wrong = [
        (where, why)
        for where, text in _every_spanish_text()
        for pattern, why in SPAIN.items()
        if re.search(pattern, text, re.I)
    ]
    assert wrong == []


#: a prize's name next to a word that must agree with it (Línea is feminine, Cartón lleno
#: masculine): "Línea de arriba otorgado", "lo ganó", "el primer Línea"
AGREES = re.compile(
    r"%\((prize|asked)\)s (otorgad|abiert|ganad|cerrad)[oa]s?\b"
    r"|\b(el|la|lo|un|una)( primer[oa]?)? %\((prize|asked)\)s|\blo ganó\b"
)


def test_a_prize_name_is_never_made_to_agree_in_spanish():
    wrong = [(where, s) for where, s in _every_spanish_text() if AGREES.search(s)]
    assert wrong == []
    assert _spanish("open") == "en juego"
    assert _spanish("won by %(who)s on call %(n)s").startswith("ganador")


def _spanish(msgid: str) -> str:
    """The catalogs' Spanish for `msgid` (one text across the catalogs: a test above)."""
    return next(strs[0] for path in CATALOGS for ids, strs in _messages(path) if ids[0] == msgid)


def test_a_copy_is_inserted_with_the_name_given_not_called():
    """ "Insertar después de esta una copia de [Cuatro esquinas] llamada [...]": llamada is a
    phone call; the box is the copy's name."""
    assert _spanish("named") == "con el nombre"


def test_the_odds_say_in_n_calls_or_fewer_with_a_decimal_comma(caller, client):
    """ "Bingo en 33 bolas más o menos 1 noche de cada 2 (53.9 %)": más o menos is roughly."""
    from program.test_program_station import _load, _next

    _load(caller)
    gid = _next(caller)
    page_login(client)
    assert caller.post(f"/api/games/{gid}/ledger/sales", {"serials": "1-12"}).status_code == 201
    odds = caller.get(f"/api/games/{gid}/odds?within=60").get_json()
    page = page_text(
        client.get(f"/caller/ledger?game={gid}&within=60&lang=es").get_data(as_text=True)
    )
    line = re.search(r"Con 12 cartones vendidos[^.]*\.[^.]*\.", page)
    assert line, page
    assert "en 60 bolas o menos" in line.group(0) and "más o menos" not in line.group(0)
    shown = f"{odds['percent']:.1f}".replace(".", ",").removesuffix(",0")
    assert f"({shown} %)" in line.group(0), line.group(0)


def test_a_hosts_own_prize_is_named_on_the_screens_and_in_the_summary(tmp_path, kit_cli):
    """A host's list (prizes/diwali.toml) names its prizes: its "corners" reads "Esquinas" on the
    Spanish screens, the summary the station writes and the one `bingo-hall ledger` prints."""
    from station.test_prize_lists import DIWALI, make_app, with_list
    from tambolakit import corners

    with_list(tmp_path, "diwali.toml", DIWALI)
    app = make_app(tmp_path)
    client = app.test_client()
    strips = new_strip_deck(1, seed="host names es", name="Tiras")
    hall = Caller(client, strips)
    gid = hall.new_game(mode="diwali", draw="manual")
    assert hall.post(f"/api/games/{gid}/ledger/price", {"amount": "1"}).status_code == 200
    assert hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "1-6"}).status_code == 201
    hall.call(gid, *corners(strips, 1))
    claim = {"serial": 1, "prize": "corners"}
    assert hall.post(f"/api/games/{gid}/claims", claim).status_code == 201
    assert hall.post(f"/api/games/{gid}/award", {"prize": "corners"}).status_code == 200
    page_login(client)
    shown = {
        path: page_text(client.get(f"{path}lang=es").get_data(as_text=True))
        for path in (f"/display/{gid}?", f"/caller/ledger?game={gid}&")
    }
    shown["summary.pdf"] = pdf_text(client.get("/caller/ledger/summary.pdf?lang=es").data)
    code, out, err = kit_cli(["ledger", "--db", app.config["DATABASE"], "--lang", "es"])
    assert code == 0, err
    shown["bingo-hall ledger"] = out
    for where, text in shown.items():
        assert "Esquinas" in text and not re.search(r"\bcorners\b", text), (where, text)
