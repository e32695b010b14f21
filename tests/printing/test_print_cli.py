"""`bingo-hall print`, `generate` and `kit` from the host's side: files written where the command
says, and every bad input (issue 3's list) a single line on stderr with exit code 2."""

from __future__ import annotations

import json

import pytest

from bingo_hall.cli import main
from bingo_hall.errors import KitError
from bingo_hall.manifest import load_deck, new_deck, save_deck
from bingo_hall.printing import base_url as base_url_module
from bingo_hall.printing import default_base_url, render_deck_pdf

from .pdfread import PAYLOAD, open_pdf, scan_qr_codes


@pytest.fixture
def deck_file(tmp_path):
    return save_deck(new_deck(10, seed="cli", name="Club"), tmp_path / "club.deck.json")


def run_error(capsys, argv: list[str]) -> str:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_print_writes_one_page_per_four_cards(tmp_path, deck_file, capsys):
    out = tmp_path / "cards.pdf"
    main(["print", str(deck_file), "-o", str(out), "--base-url", "http://10.1.1.1:5000"])
    assert len(open_pdf(out.read_bytes())) == 3  # 10 cards, 4 per page
    assert str(out) in capsys.readouterr().out


def test_print_serials_subset_and_letter_paper(tmp_path, deck_file):
    out = tmp_path / "some.pdf"
    argv = ["print", str(deck_file), "-o", str(out), "--serials", "2-3,9", "--paper", "letter"]
    main(argv + ["--base-url", "http://10.1.1.1:5000", "--template", "classic-6"])
    pdf = open_pdf(out.read_bytes())
    assert len(pdf) == 1
    assert [round(v) for v in pdf[0].get_size()] == [612, 792]  # US Letter, 8.5 x 11 in
    serials = sorted(int(PAYLOAD.match(s.text)["serial"]) for s in scan_qr_codes(pdf[0]))
    assert serials == [2, 3, 9]


def test_generate_writes_the_deck_beside_the_pdf_and_says_where(tmp_path, capsys):
    out = tmp_path / "party.pdf"
    main(["generate", "-n", "6", "-o", str(out), "--seed", "g", "--name", "Fiesta"])
    said = capsys.readouterr().out
    deck_path = tmp_path / "party.deck.json"
    assert str(deck_path) in said and str(out) in said
    deck = load_deck(deck_path)
    assert deck.name == "Fiesta" and len(deck.cards) == 6
    scans = scan_qr_codes(open_pdf(out.read_bytes())[0])
    assert {PAYLOAD.match(s.text)["deck"] for s in scans} == {deck.deck_id}


def test_generate_refuses_to_replace_a_deck_whose_cards_may_be_printed(tmp_path, capsys):
    out = tmp_path / "party.pdf"
    main(["generate", "-n", "2", "-o", str(out), "--base-url", "http://10.1.1.1"])
    before = (tmp_path / "party.deck.json").read_text()
    err = run_error(capsys, ["generate", "-n", "2", "-o", str(out)])
    assert "--force" in err
    assert (tmp_path / "party.deck.json").read_text() == before


def test_corrupt_manifest_is_one_line_exit_2(tmp_path, deck_file, capsys):
    data = json.loads(deck_file.read_text())
    data["cards"][3]["columns"][0][0] = 99
    deck_file.write_text(json.dumps(data))
    err = run_error(capsys, ["print", str(deck_file), "-o", str(tmp_path / "x.pdf")])
    assert "card 4" in err
    assert not (tmp_path / "x.pdf").exists()


def test_truncated_manifest_is_one_line_exit_2(tmp_path, deck_file, capsys):
    deck_file.write_text(deck_file.read_text()[:200])
    run_error(capsys, ["print", str(deck_file), "-o", str(tmp_path / "x.pdf")])


def test_unknown_template_names_the_available_ones(tmp_path, deck_file, capsys):
    err = run_error(
        capsys, ["print", str(deck_file), "-o", str(tmp_path / "x.pdf"), "--template", "fancy"]
    )
    assert "fancy" in err and "classic-4" in err


@pytest.mark.parametrize("serials", ["0-3", "5-11", "11", "3-1", "a-b", "1,,2"])
def test_serials_out_of_range_or_malformed_are_refused(tmp_path, deck_file, capsys, serials):
    argv = ["print", str(deck_file), "-o", str(tmp_path / "x.pdf"), "--serials", serials]
    run_error(capsys, argv + ["--base-url", "http://10.1.1.1"])


@pytest.mark.parametrize(
    "url",
    [
        "ftp://10.1.1.1",
        "10.1.1.1:5000",
        "javascript:alert(1)",
        "http://",
        "http://h:99999",
        "http://u:p@h/",
    ],
)
def test_base_url_must_be_http_or_https(tmp_path, deck_file, capsys, url):
    err = run_error(
        capsys, ["print", str(deck_file), "-o", str(tmp_path / "x.pdf"), "--base-url", url]
    )
    assert "URL" in err


def test_unwritable_output_is_one_line_exit_2(tmp_path, deck_file, capsys):
    argv = ["print", str(deck_file), "-o", str(tmp_path / "no" / "x.pdf")]
    run_error(capsys, argv + ["--base-url", "http://10.1.1.1"])


def test_print_never_overwrites_the_deck_file_with_the_pdf(deck_file, capsys):
    before = deck_file.read_bytes()
    run_error(capsys, ["print", str(deck_file), "-o", str(deck_file), "--base-url", "http://h"])
    assert deck_file.read_bytes() == before


def test_generate_free_centre_limit_error_names_the_free_centre(tmp_path, capsys):
    err = run_error(
        capsys, ["generate", "-n", "1366", "--free-centre", "-o", str(tmp_path / "p.pdf")]
    )
    assert "1365" in err and "comes from --free-centre" in err
    assert list(tmp_path.iterdir()) == []
    err = run_error(capsys, ["generate", "-n", "3004", "-o", str(tmp_path / "p.pdf")])
    assert "3003" in err and "free" not in err.lower()


def test_printing_a_free_centre_deck_over_1365_cards_names_the_free_centre(tmp_path, capsys):
    # A hand-edited deck file: 1400 numbered cards, then marked as a FREE-centre deck.
    path = save_deck(new_deck(1400, seed="edited", name="Editada"), tmp_path / "e.deck.json")
    data = json.loads(path.read_text())
    data["free_centre"] = True
    path.write_text(json.dumps(data))
    err = run_error(
        capsys, ["print", str(path), "-o", str(tmp_path / "e.pdf"), "--base-url", "http://h"]
    )
    assert "1400" in err and "1365" in err and "FREE centre" in err


@pytest.mark.parametrize(
    ("lang", "ours", "theirs"),
    [("es", ["Reglas", "Cartón Nº", "cartón"], "Card No."), ("en", ["rules", "Card No."], "Nº")],
)
def test_kit_writes_board_tokens_and_rules_in_its_language(tmp_path, capsys, lang, ours, theirs):
    out = tmp_path / "kit.pdf"
    main(["kit", "-o", str(out), "--lang", lang, "--paper", "letter"])
    pdf = open_pdf(out.read_bytes())
    assert len(pdf) in (3, 4)  # board, tokens, and one or two pages of rules
    rules = " ".join(pdf[i].get_textpage().get_text_range() for i in range(2, len(pdf)))
    rules = " ".join(rules.split())
    assert all(word in rules for word in ours) and theirs not in rules
    # cartón throughout; the Spanish sheet names the seed's word once ("la Tarjeta de las reglas
    # de 1933", RULES-NOTES §6), the English one never
    assert rules.lower().count("tarjeta") == (1 if lang == "es" else 0)


def test_default_base_url_uses_the_lan_address_on_port_5000(monkeypatch):
    monkeypatch.setattr(base_url_module, "lan_address", lambda: "192.168.0.17")
    assert default_base_url() == ("http://192.168.0.17:5000", None)
    assert default_base_url(8080)[0] == "http://192.168.0.17:8080"


def test_default_base_url_warns_when_only_loopback_is_found(monkeypatch):
    monkeypatch.setattr(base_url_module, "lan_address", lambda: None)
    url, warning = default_base_url()
    assert url == "http://127.0.0.1:5000"
    assert warning and "127.0.0.1" in warning


def test_print_without_base_url_shows_the_loopback_warning(
    tmp_path, deck_file, capsys, monkeypatch
):
    monkeypatch.setattr(base_url_module, "lan_address", lambda: None)
    main(["print", str(deck_file), "-o", str(tmp_path / "x.pdf"), "--serials", "1"])
    assert "warning" in capsys.readouterr().err
    (scan,) = scan_qr_codes(open_pdf((tmp_path / "x.pdf").read_bytes())[0])
    assert scan.text.startswith("HTTP://127.0.0.1:5000/C/")


@pytest.mark.parametrize(
    "bad",
    [
        {"template": "nope"},
        {"paper": "a3"},
        {"lang": "fr"},
        {"base_url": "ftp://h"},
        {"serials": [0]},
        {"serials": [11]},
        {"serials": []},
    ],
)
def test_render_deck_pdf_raises_kit_errors_for_bad_arguments(bad):
    kwargs = {"base_url": "http://h", **bad}
    with pytest.raises(KitError):
        render_deck_pdf(new_deck(10, seed="api", name="Api"), **kwargs)


@pytest.mark.parametrize(
    ("lang", "said", "not_said"), [("en", "tokens", "fichas"), ("es", "fichas", "tokens")]
)
def test_kit_says_what_it_wrote_in_the_language_of_the_print(
    tmp_path, capsys, lang, said, not_said
):
    main(["kit", "-o", str(tmp_path / "kit.pdf"), "--lang", lang, "--game", "90"])
    out = capsys.readouterr().out
    assert f"90 {said}" in out and not_said not in out


@pytest.mark.parametrize("game", ["75", "90"])
def test_a_deck_name_too_long_for_the_cards_is_warned_of_at_print_time(tmp_path, capsys, game):
    long = "Fiesta de la Asociación de Vecinos del Barrio de San Blas 2026"
    size = ["--strips", "1"] if game == "90" else ["-n", "4"]
    out = tmp_path / "long.pdf"
    # the English lines (a Spanish print says it in Spanish: tests/test_spanish.py)
    argv = ["generate", "--game", game, *size, "--name", long, "-o", str(out), "--lang", "en"]
    main([*argv, "--base-url", "http://192.168.1.9:5000"])
    err = capsys.readouterr().err
    warned = [line for line in err.splitlines() if "too long" in line]
    assert len(warned) == 1 and long in warned[0], err
    shown = warned[0].split("which show '", 1)[1].split("'", 1)[0]
    assert shown.endswith("…") and long.startswith(shown[:-1])
    text = " ".join(open_pdf(out.read_bytes())[0].get_textpage().get_text_range().split())
    assert shown in text and long not in text  # what the warning says is what is printed
    main(
        [
            "generate",
            "--game",
            game,
            *size,
            "--name",
            "Fiesta",
            "-o",
            str(tmp_path / "s.pdf"),
            "--lang",
            "en",
        ]
    )
    assert "too long" not in capsys.readouterr().err


@pytest.mark.parametrize("lang, language", [("es", "español"), ("en", "English")])
def test_generate_says_the_cards_language_on_the_line_with_their_address(
    tmp_path, capsys, lang, language
):
    out = tmp_path / "party.pdf"
    address = "http://192.168.7.20:5000"
    main(["generate", "-n", "4", "--lang", lang, "--base-url", address, "-o", str(out)])
    wrote = [line for line in capsys.readouterr().out.splitlines() if str(out) in line]
    assert len(wrote) == 1 and address in wrote[0] and language in wrote[0], wrote
    assert "--lang" in wrote[0] and "--base-url" in wrote[0]  # how to change either
    card_word = {"es": "Cartón", "en": "Card"}[lang]  # what the printed card itself says
    assert card_word in open_pdf(out.read_bytes())[0].get_textpage().get_text_range()


def test_a_hall_name_cut_on_small_cards_prints_whole_on_the_one_card_template(tmp_path, capsys):
    hall = "St Mary's Church Hall Charity Night 2026"
    texts = {}
    for template in ("classic-4", "classic-1"):
        out = tmp_path / f"{template}.pdf"
        argv = ["generate", "-n", "2", "--name", hall, "--template", template, "-o", str(out)]
        main([*argv, "--base-url", "http://192.168.7.20:5000", "--lang", "en"])  # English lines
        err = capsys.readouterr().err
        page = open_pdf(out.read_bytes())[0]
        texts[template] = (" ".join(page.get_textpage().get_text_range().split()), err)
    small, small_err = texts["classic-4"]
    assert hall not in small and "too long" in small_err  # four to a page: no room, and said so
    big, big_err = texts["classic-1"]
    assert hall in big and "too long" not in big_err  # the poster card has the room: used


def test_an_english_kit_names_its_tokens_in_english_and_a_spanish_one_in_spanish(tmp_path):
    titles = {}
    for lang in ("en", "es"):
        out = tmp_path / f"kit-{lang}.pdf"
        main(["kit", "-o", str(out), "--lang", lang])
        titles[lang] = open_pdf(out.read_bytes())[1].get_textpage().get_text_range()
    assert "Calling tokens" in titles["en"] and "ficha" not in titles["en"].lower()
    assert "Fichas" in titles["es"] and "token" not in titles["es"].lower()
