"""A host's own 90-ball prize lists: every `*.toml` file in the `prizes/` folder of the
instance folder, read once when the station starts (docs/claims.md, "Tambola"). Each becomes a
prize plan offered for 90-ball decks next to the kit's own (línea-bingo, lines-house, tambola),
named by its key. A file that cannot be played stops the station with one line naming the file
and the problem (`PrizeListError`, a KitError the CLI prints), so a party never starts on a
list the host did not mean.
"""

from __future__ import annotations

from pathlib import Path

from flask import Flask

from ..ninety.prize_list_file import PrizeListError, parse_prize_list
from ..ninety.prize_rules import BUILT_IN, PrizeList
from ..prize_names import known_names, prize_name
from ..prize_plan import PrizePlan
from ..web.i18n import current_lang
from ..web.instance import area_state
from .state import StationState, station_state

FOLDER = "prizes"
#: the words a 75-ball game's mode already uses, and what the API's "normal" means for 90 balls
RESERVED = frozenset({"normal", "points"})


def load_prize_lists(folder: Path) -> tuple[PrizeList, ...]:
    """The lists in `folder` (none if it does not exist), by file name; PrizeListError names the
    file and the problem of the first one that cannot be played."""
    if not folder.is_dir():
        return ()
    lists: dict[str, PrizeList] = {}
    for path in sorted(folder.glob("*.toml")):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise PrizeListError(
                "cannot be read (%(kind)s)",
                source=str(path),
                kind=exc.__class__.__name__,
            ) from None
        prize_list = parse_prize_list(text, str(path))
        key = prize_list.key
        if not all(c.isalnum() or c in "-_" for c in key):
            raise PrizeListError(
                "key %(key)r may hold only letters, digits, '-' and '_' (set key = "
                '"..." in the file)',
                source=str(path),
                key=key,
            )
        if key in BUILT_IN or key in RESERVED:
            raise PrizeListError(
                "key %(key)r is one the kit already uses; choose another",
                source=str(path),
                key=key,
            )
        if key in lists:
            raise PrizeListError(
                "key %(key)r is also the key of %(other)s",
                source=str(path),
                key=key,
                other=lists[key].source,
            )
        lists[key] = prize_list
    return tuple(lists.values())


def host_plans() -> tuple[PrizePlan, ...]:
    """The host's own lists this station offers for a new game (a game, once started, records
    its list: `variants.prize_plan` reads it from there)."""
    return tuple(PrizePlan.of(p) for p in station_state().prize_lists)


def init_app(app: Flask) -> None:
    """Read the instance folder's prize lists once (a broken one stops the app from starting)."""
    state: StationState = area_state("station", StationState, app)
    state.prize_lists = load_prize_lists(Path(app.instance_path) / FOLDER)
    hosts = {p.key: dict(p.names) for lst in state.prize_lists for p in lst.prizes}

    def known_prize(key: str) -> str:
        """The kit's name of `key`, else a host's list's (a ledger row of its game)."""
        return prize_name(key, current_lang(), None if key in known_names() else hosts)

    app.jinja_env.globals["known_prize"] = known_prize
