"""A card's or a ticket's table on its page is the one drawer's (verify/_vcard.html), drawn once per
variant and language with placeholders and filled in for each card: the same bytes as the drawer
draws for the card itself, in both languages, with a FREE centre or a number there, and for
tickets whose blanks fall anywhere."""

from __future__ import annotations

from flask import render_template

from bingo_hall.manifest import new_deck, new_strip_deck
from bingo_hall.station.verify.card_pages import CardPages, draw_table
from bingo_hall.station.verify.variants import claims_of


def _drawer_and_filled_agree(app, deck) -> None:
    kind = claims_of(deck.variant)
    for lang in ("en", "es"):
        with app.test_request_context(f"/?lang={lang}"):
            for card in deck.cards:
                drawn = render_template(
                    kind.table_template, card=card, grid=kind.grid(card, None), **kind.drawn(card)
                )
                assert draw_table(kind, card) == drawn, (lang, card.serial)


def test_a_cards_table_filled_in_is_the_table_the_drawer_draws_for_it(app):
    decks = [new_deck(40, seed="cut tables"), new_deck(40, seed="free", free_centre=True)]
    for deck in decks:
        _drawer_and_filled_agree(app, deck)
    centres = {c.number_at(2, 2) is None for d in decks for c in d.cards}
    assert centres == {True, False}  # both kinds of centre were drawn
    pages = CardPages.of(app)
    assert pages.drawn == 0 and pages.filled == 2 * 80  # every one filled in, none drawn


def test_a_tickets_table_filled_in_is_the_table_the_drawer_draws_for_it(app):
    deck = new_strip_deck(8, seed="cut tickets")  # 48 tickets: blanks in every column
    _drawer_and_filled_agree(app, deck)
    blanks = {
        (r, c)
        for t in deck.cards
        for r, row in enumerate(t.grid)
        for c, n in enumerate(row)
        if n is None
    }
    assert len(blanks) == 27  # a blank was filled in at every place of the table
    pages = CardPages.of(app)
    assert pages.drawn == 0 and pages.filled == 2 * 48
