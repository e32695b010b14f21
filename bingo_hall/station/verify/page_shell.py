"""A card's or a ticket's QR page, cheap enough for a join storm (issue 24): the page around the
card (the station's layout, the title, the heading, the page's words for card.js) is the same for
every card of a game in a language, so it is rendered once with placeholders and kept; each page
then renders only its card (the fragment) and fills in its serial, its path and its data.

The placeholders are plain letters, which neither HTML escaping nor URL quoting changes, and the
values put in their place are escaped here as the template would have escaped them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import current_app, render_template, request
from flask_babel import get_locale
from jinja2.nodes import EvalContext
from markupsafe import Markup, escape

from ..state import station_state
from . import card_view

SERIAL = "QxSERIALxQ"
STRIP = "QxSTRIPxQ"
PATH = "QxPATHxQ"
NEXT = "QxNEXTxQ"
FRAGMENT = "QxFRAGMENTxQ"
FOLLOW = "QxFOLLOWxQ"


@dataclass(frozen=True)
class _Placeholder:
    """What the page's template reads of the card (card.html, ticket.html), as placeholders."""

    serial: str = SERIAL
    strip: str = STRIP


def page(template: str, fragment: str, context: dict[str, Any]) -> str:
    """The page `template` around `fragment` (the card as drawn), for `context`'s card, deck,
    game and `follow` data: the shell from the station's keep, rendered on first use."""
    card, game, follow = context["card"], context["game"], context.get("follow")
    key = (
        "shell",
        template,
        str(get_locale() or "en"),
        context["deck"].deck_id,
        context["deck"].name,
        game.game_id if game else None,
        None if follow is None else card_view.words_key(follow),  # the page's words
    )
    kept = station_state().page_words
    shell = kept.get(key)
    if shell is None:
        shell = render_template(
            template,
            **{**context, "card": _Placeholder()},
            fragment=Markup(FRAGMENT),
            follow_json=Markup(FOLLOW),
            page_path=PATH,
            lang_next=NEXT,
        )
        kept[key] = shell
    env = current_app.jinja_env
    values = {
        SERIAL: str(card.serial),
        STRIP: str(getattr(card, "strip", "")),
        PATH: str(escape(request.path)),
        NEXT: str(env.filters["urlencode"](request.full_path.rstrip("?"))),
        FOLLOW: "" if follow is None else str(env.filters["tojson"](EvalContext(env), follow)),
        FRAGMENT: fragment,
    }
    for token, value in values.items():
        shell = shell.replace(token, value)
    return shell
