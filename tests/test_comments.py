"""Comments that speak of the code, not of its history: no comment or docstring of the kit names
an "issue N" of a tracker that is not in the repository (a reader cannot follow it: the reason
is said in the comment itself, or a doc of the repository is linked), and none is written
relative to an earlier version of the code ("as before": before what, the reader asks).

The code's text is read whole (Python, JavaScript, templates, CSS, TOML): its comments and
docstrings are where such words stand, and a string a user reads never names a tracker either.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
AREAS = ("bingo_hall", "companions", "firmware_bridge", "card_templates")
SUFFIXES = {".py", ".js", ".html", ".css", ".toml"}

#: the serving stack and the card pages, whose comments the "Raspberry Pi" branch rewrites: the
#: lead empties this list after merging it, and from then on they are read like the rest
EXCLUDED_UNTIL_MERGE: list[str] = []

#: "issue 36", "Issue 36 item 4", "issues 17 and 28", "issue #5"
TRACKER = re.compile(r"\bissues? #?\d+", re.IGNORECASE)
#: "as before", "as it was before": the code as it was is not in front of the reader
HISTORY = re.compile(r"\bas (?:it was |they were )?before\b", re.IGNORECASE)

#: third-party code kept as it was published, not written here
VENDORED = ("/vendor/",)


def code_files() -> list[Path]:
    found = []
    for area in AREAS:
        for path in sorted((ROOT / area).rglob("*")):
            name = path.relative_to(ROOT).as_posix()
            if path.suffix not in SUFFIXES or any(v in f"/{name}" for v in VENDORED):
                continue
            if name.startswith(tuple(EXCLUDED_UNTIL_MERGE)):
                continue
            found.append(path)
    return found


def history_words(text: str) -> list[str]:
    """Each line of `text` that names a tracker's issue or speaks relative to the code's past."""
    return [
        f"line {number}: {line.strip()}"
        for number, line in enumerate(text.splitlines(), 1)
        if TRACKER.search(line) or HISTORY.search(line)
    ]


def test_no_comment_names_an_issue_or_speaks_of_the_codes_past():
    found = {
        str(path.relative_to(ROOT)): lines
        for path in code_files()
        if (lines := history_words(path.read_text(encoding="utf-8")))
    }
    listing = "\n".join(f"{path}: {line}" for path, lines in found.items() for line in lines)
    assert found == {}, f"say the reason itself, or link a doc of the repository:\n{listing}"


def test_the_check_reads_every_kind_of_code_file():
    names = {p.suffix for p in code_files()}
    assert names == SUFFIXES


def test_the_check_sees_each_form_of_a_tracker_reference_and_of_a_past():
    text = "\n".join(
        [
            '"""The ledger (issue 27): cards sold."""',  # 1
            "# the keyboard alone (Issue 36 item 4)",  # 2
            "/* prizes (issues 17 and 28) */",  # 3
            "{# the raffle, issue #37 #}",  # 4
            "// ONE port, as before.",  # 5
            "ONE port, as it was before the split",  # 6
            "# the tissue 3 layers thick",  # not a tracker: a word that ends in "issue"
            "# see docs/audit.md for the chain",  # a doc of the repository
            "# as before the first call, nothing is marked",  # 9: read as history, reworded
        ]
    )
    assert [line.split(":")[0] for line in history_words(text)] == [
        "line 1",
        "line 2",
        "line 3",
        "line 4",
        "line 5",
        "line 6",
        "line 9",
    ]
