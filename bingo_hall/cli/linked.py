"""`bingo-hall linked new|order|tally|verify`: the linked game across halls (docs/linked.md).

new: the organiser writes the game file (sent to every hall), the organiser's key and the seed
code (both kept secret: the code until the window opens, the key for good).
order: the order a seed code gives, once it matches the game's commitment (a hall with no
station, or the organiser checking the code before reading it out).
tally: every result in a folder checked, the tiers awarded, the tally signed; a refused result is
one line with its reason, and the command still succeeds (exit 0): refusals are the tally's
findings, not the command's errors.
serve: the organiser's station: the seed code at the window's opening, the calls live, the
results POSTed by the halls checked at once, and the page of every hall's state.
verify: any hall checks a tally against the game (and the results, when it has them) and reads
its own place. Exit 0 when all holds, 1 when something does not, 2 when the input cannot be used.
"""

from __future__ import annotations

import csv
import io
import sys
from datetime import UTC, datetime
from pathlib import Path

import click

from ..errors import KitError
from ..linked.game import Hall, LinkedGame, Tiers, Window, new_game, read_game
from ..linked.keys import Signer
from ..linked.seed import check_code, code_text, linked_order, new_code, parse_code
from ..linked.tally import (
    State,
    Submission,
    Tally,
    TallyError,
    Tier,
    place,
    read_tally,
    tally,
    verify_tally,
)
from ..machine.paths import read_text_file
from ..money import money, parse_cents
from ..variants import ball_counts, variant_for

GAME_FILE = "game.linked.json"
KEY_FILE = "organiser.pem"
SEED_FILE = "seed.txt"
TALLY_FILE = "tally.json"


@click.group()
def linked() -> None:
    """The linked game: many halls, one committed order, the lowest call count wins."""


@linked.command("new")
@click.argument("name")
@click.option("--start", required=True, help="the window's start: YYYY-MM-DDTHH:MM, local time")
@click.option("--end", required=True, help="the window's latest end: YYYY-MM-DDTHH:MM")
@click.option("--zone", required=True, help="the time zone of the window, e.g. Europe/London")
@click.option("--balls", type=click.Choice(ball_counts()), default="90", show_default=True)
@click.option(
    "--pattern",
    default=None,
    help="75 balls: full_card (default) or any pattern of the book (docs/patterns.md), or a "
    "25-cell mask; 90 balls: full-house (default), one-line, two-lines",
)
@click.option("--currency", default="GBP", show_default=True)
@click.option("--national", required=True, help="the national prize, e.g. 1000 or 1000.00")
@click.option("--regional", default="0", help="each region's prize")
@click.option("--hall-prize", "hall_prize", default="0", help="each hall's own prize")
@click.option(
    "--hall",
    "halls",
    multiple=True,
    metavar="NAME,REGION,FINGERPRINT",
    help="a hall, its region and its station key's fingerprint (once per hall)",
)
@click.option(
    "--halls",
    "halls_file",
    default=None,
    type=click.Path(dir_okay=False),
    help="a file of halls, one NAME,REGION,FINGERPRINT a line (# starts a comment)",
)
@click.option(
    "-o",
    "output",
    required=True,
    type=click.Path(file_okay=False),
    help="the folder to write the game, the organiser's key and the seed code in",
)
def new(
    name: str,
    start: str,
    end: str,
    zone: str,
    balls: str,
    pattern: str | None,
    currency: str,
    national: str,
    regional: str,
    hall_prize: str,
    halls: tuple[str, ...],
    halls_file: str | None,
    output: str,
) -> None:
    """Write a linked game: the file every hall receives, with the organiser's secrets beside it."""
    window = Window.parse(start, end, zone)
    tiers = Tiers(
        currency,
        parse_cents(national, "prize"),
        parse_cents(regional, "prize"),
        parse_cents(hall_prize, "prize"),
    )
    rows = []
    if halls_file is not None:
        text = read_text_file(halls_file)
        rows = [
            (f"{halls_file}:{n}", line)
            for n, line in enumerate(text.splitlines(), start=1)
            if line.strip() and not line.lstrip().startswith("#")
        ]
    rows += [(f"--hall {h}", h) for h in halls]
    if not rows:
        raise KitError("a linked game needs its halls: give --hall or --halls")
    folder = Path(output)
    paths = [folder / GAME_FILE, folder / KEY_FILE, folder / SEED_FILE]
    taken = [p for p in paths if p.exists()]
    if taken:
        raise KitError(
            "%(path)s already exists: a new game goes in a folder of its own (its seed and key "
            "are not written over)",
            path=str(taken[0]),
        )
    organiser, code = Signer.new(), new_code()
    game = new_game(
        name,
        window,
        int(balls),
        pattern,
        tiers,
        [_hall(where, row) for where, row in rows],
        code,
        organiser,
    )
    folder.mkdir(parents=True, exist_ok=True)
    _write_secret(paths[1], organiser.to_pem().decode())
    _write_secret(paths[2], code_text(code) + "\n")
    paths[0].write_text(game.text(), encoding="utf-8")
    click.echo(f"{paths[0]}: {game.name}, {len(game.halls)} halls, {window.line()}")
    click.echo(f"game {game.game_id[:12]}, commitment {game.commitment}")
    click.echo(f"organiser's key {organiser.fingerprint} in {paths[1]}: keep it")
    click.echo(f"seed code in {paths[2]}: keep it secret until the window opens")


def _hall(where: str, row: str) -> Hall:
    fields = [f.strip() for f in next(csv.reader(io.StringIO(row)), [])]
    if len(fields) != 3:
        raise KitError(
            "%(where)s: a hall is NAME,REGION,FINGERPRINT, not %(row)r", where=where, row=row
        )
    return Hall(fields[0], fields[1], fields[2].lower())


def _write_secret(path: Path, text: str) -> None:
    path.touch(mode=0o600)
    path.chmod(0o600)
    path.write_text(text, encoding="utf-8")


def _read_game(path: str) -> LinkedGame:
    return read_game(read_text_file(path))


def _beside(game_path: str, given: str | None, name: str) -> str:
    return given if given is not None else str(Path(game_path).parent / name)


@linked.command("order")
@click.argument("game_file", type=click.Path(dir_okay=False))
@click.argument("code")
def order(game_file: str, code: str) -> None:
    """Check a seed code against the game's commitment and print the order every hall calls."""
    game = _read_game(game_file)
    seed = check_code(code, game.commitment)
    variant = variant_for(game.balls)
    click.echo(f"{game.name}: the code {code_text(parse_code(code))} matches the commitment")
    click.echo(" ".join(variant.call_label(b) for b in linked_order(seed, game.balls)))


@linked.command("tally")
@click.argument("game_file", type=click.Path(dir_okay=False))
@click.argument("results", type=click.Path(file_okay=False))
@click.option("--seed", "code", default=None, help="the seed code (default: seed.txt beside GAME)")
@click.option(
    "--key",
    "key_file",
    default=None,
    type=click.Path(dir_okay=False),
    help="the organiser's key (default: organiser.pem beside GAME)",
)
@click.option(
    "-o",
    "output",
    default=None,
    type=click.Path(dir_okay=False),
    help="where to write the signed tally (default: tally.json beside GAME)",
)
def tally_cmd(
    game_file: str, results: str, code: str | None, key_file: str | None, output: str | None
) -> None:
    """Check every result in RESULTS, award the tiers and write the signed tally."""
    game = _read_game(game_file)
    if code is None:
        code = read_text_file(_beside(game_file, None, SEED_FILE)).strip()
    key = Signer.from_pem(read_text_file(_beside(game_file, key_file, KEY_FILE)).encode())
    folder = Path(results)
    if not folder.is_dir():
        raise KitError("no folder of results at %(path)s", path=results)
    submissions = [
        Submission(p.name, _result_text(p)) for p in sorted(folder.iterdir()) if p.is_file()
    ]
    made = tally(game, code, submissions, datetime.now(UTC), key)
    target = Path(_beside(game_file, output, TALLY_FILE))
    target.write_text(made.text(), encoding="utf-8")
    _print_tally(game, made)
    click.echo(f"{target}: the tally, signed by the organiser's key {key.fingerprint}")


def _result_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""  # refused as "not JSON", under its file's name, like any other bad result


def _print_tally(game: LinkedGame, made: Tally) -> None:
    currency = game.tiers.currency
    states = {s: sum(1 for h in made.standings if h.state == s) for s in State}
    click.echo(
        f"{game.name}: {len(made.standings)} halls: {states[State.WON]} won, "
        f"{states[State.NO_WINNER]} no winner, {states[State.LATE]} late, "
        f"{states[State.MISSING]} missing, {states[State.REFUSED]} refused"
    )
    awarded = {(a.tier, a.region): a for a in made.awards}
    if not any(a.tier == Tier.NATIONAL for a in made.awards):
        click.echo("national: no hall won")
    for award in made.awards:
        what = "national" if award.region is None else f"regional, {award.region}"
        each = ", ".join(
            f"{w} {money(c, currency)}" for w, c in zip(award.winners, award.shares, strict=True)
        )
        shared = f" (shared by {len(award.winners)})" if len(award.winners) > 1 else ""
        click.echo(f"{what}: call {award.count}{shared}: {each}")
    for region in game.regions():
        if (Tier.REGIONAL, region) not in awarded:
            click.echo(f"regional, {region}: no hall won")
    for s in made.standings:
        if s.state in (State.LATE, State.MISSING, State.REFUSED):
            why = f": {s.reason}" if s.reason else ""
            click.echo(f"{s.hall.name}: {s.state}{why}")
    for r in made.refused:
        click.echo(r.line())


@linked.command("verify")
@click.argument("tally_file", type=click.Path(dir_okay=False))
@click.option("--game", "game_file", required=True, type=click.Path(dir_okay=False))
@click.option(
    "--results",
    default=None,
    type=click.Path(file_okay=False),
    help="the results, to check each hall's state against them",
)
@click.option(
    "--hall",
    "fingerprint",
    default=None,
    metavar="FINGERPRINT",
    help="your station key's fingerprint: print your hall's place",
)
def verify(tally_file: str, game_file: str, results: str | None, fingerprint: str | None) -> None:
    """Check a tally: the organiser's signature, the seed, the halls and the awards."""
    game = _read_game(game_file)
    try:
        found = read_tally(read_text_file(tally_file))
    except TallyError as exc:
        raise KitError("%(path)s: %(why)s", path=tally_file, why=exc) from None
    submissions = None
    if results is not None:
        folder = Path(results)
        if not folder.is_dir():
            raise KitError("no folder of results at %(path)s", path=results)
        submissions = [
            Submission(p.name, _result_text(p)) for p in sorted(folder.iterdir()) if p.is_file()
        ]
    if fingerprint is not None:
        fingerprint = fingerprint.strip().lower()
        if game.hall_by_key(fingerprint) is None:
            raise KitError("no hall of this game has the key %(fp)s", fp=fingerprint)
    findings = verify_tally(game, found, submissions)
    for line in findings:
        click.echo(line)
    if fingerprint is not None:
        mine = place(found, fingerprint)
        if mine is not None:
            s = mine.standing
            if mine.national is None:
                why = f": {s.reason}" if s.reason else ""
                click.echo(f"{s.hall.name}: {s.state}{why}")
            else:
                click.echo(
                    f"{s.hall.name}: won at call {s.count}; place {mine.national} of the "
                    f"halls, {mine.regional} in {s.hall.region}"
                )
    if findings:
        click.echo(f"FAILED: {len(findings)} finding(s)")
        sys.exit(1)
    click.echo(
        f"OK: the tally of {game.name} holds, signed by the organiser's key "
        f"{game.organiser_fingerprint}; seed {found.seed}"
    )


@linked.command("serve")
@click.argument("folder", type=click.Path(file_okay=False))
@click.option("--host", default="127.0.0.1", show_default=True, help="the address to listen on")
@click.option("--port", default=8400, show_default=True, help="the port (0: any free port)")
@click.option(
    "--every",
    default=8.0,
    show_default=True,
    type=click.FloatRange(0.05, 600),
    help="seconds between the calls the halls following live receive",
)
def serve(folder: str, host: str, port: int, every: float) -> None:
    """Serve the organiser's station for the game in FOLDER (its game, seed and results)."""
    from ..station.linked.organiser import organiser_app
    from ..station.linked.organiser import serve as make_server

    game_file = str(Path(folder) / GAME_FILE)
    game = _read_game(game_file)
    code = read_text_file(_beside(game_file, None, SEED_FILE)).strip()
    app = organiser_app(game, code, Path(folder) / "results", every)
    try:
        server = make_server(app, host, port)
    except OSError as exc:
        raise KitError(
            "cannot listen on %(host)s:%(port)s: %(why)s", host=host, port=port, why=exc.strerror
        ) from None
    url = f"http://{host}:{server.server_address[1]}"
    click.echo(f"{game.name}: {len(game.halls)} halls, {game.window.line()}")
    click.echo(f"Organiser: {url}/")
    click.echo(f"Halls follow: {url}  (the seed at {url}/seed from the window's start)")
    click.echo(f"Results in {Path(folder) / 'results'}")
    click.echo("Press Ctrl+C to stop.", nl=True)
    sys.stdout.flush()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
