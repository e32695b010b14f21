"""Errors a party host can read. The CLI prints them as one line; the web turns them into a 4xx."""


class KitError(Exception):
    """A problem with the user's input or files, worded for the person running the kit."""


class DeckError(KitError):
    """A deck cannot be built, or a deck file is not a valid Bingo Hall deck."""
