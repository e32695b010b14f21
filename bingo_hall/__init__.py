"""Bingo Hall Kit: line-unique bingo decks, a fair caller station, claims and table scorekeepers.

The root holds the pure rules shared by every game (`errors`, `rng`, `values`, `signing`) and
the variant seam (`variants`, `manifest`, `draw`, `round_state`, `odds`) that joins the
75-ball rules of `seventyfive/` to the 90-ball rules of `ninety/`. Above them:
the night's money (`money/`) and its book (`audit/`), still pure; then the adapters (`machine/`,
`printing/`), the web core (`web/`), the station's area (`station/`), the app factory (`app`)
and the command lines (`cli/`). See docs/dev/architecture.md.
"""

__version__ = "0.1.0"
