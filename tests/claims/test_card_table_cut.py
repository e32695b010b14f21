"""A 75-ball card's table on its page is the one drawer's (verify/_vcard.html), drawn once per
language with placeholders and filled in for each card: the same bytes as the drawer draws for
the card itself, in both languages, with a FREE centre or a number there."""

from __future__ import annotations

from flask import render_template

from bingo_hall.manifest import new_deck
from bingo_hall.station.verify.card_pages import draw_table
from bingo_hall.station.verify.variants import claims_of


def test_a_cards_table_filled_in_is_the_table_the_drawer_draws_for_it(app):
    decks = [new_deck(40, seed="cut tables"), new_deck(40, seed="free", free_centre=True)]
    for deck in decks:
        kind = claims_of(deck.variant)
        for lang in ("en", "es"):
            with app.test_request_context(f"/?lang={lang}"):
                for card in deck.cards:
                    drawn = render_template(
                        kind.table_template,
                        card=card,
                        grid=kind.grid(card, None),
                        **kind.drawn(card),
                    )
                    assert draw_table(kind, card) == drawn, (lang, card.serial)
    centres = {c.number_at(2, 2) is None for d in decks for c in d.cards}
    assert centres == {True, False}  # both kinds of centre were drawn
