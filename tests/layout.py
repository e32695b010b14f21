"""The layout check: does a page, as Chromium lays it out at a given screen size, show everything
whole, on the screen, and unhidden? Any page test calls it (`layout_problems`, or
`assert_layout`, which fails with every problem found).

What it finds, on the page as it stands (its state is the test's to set up):
- **sideways scroll**: the page is wider than the screen;
- **off the screen**: an element reaches past the screen's left or right edge, or, on a page
  that must fit (`fit=True`: the projector's /display), past its top or bottom;
- **covered**: a piece of text, a control or a picture is hidden, wholly or in part, under
  another element (a header over the board's first row, chips over the footer). Points of each
  such element are probed with `elementFromPoint`: the element, or one of its own descendants,
  must be what the screen shows there. On a page that scrolls, the page is checked one screen at
  a time; below the first screen, a pinned header (fixed or sticky) may cover what scrolls under
  it, as it does in every browser;
- **spilt**: text that runs out of its own box (a total wider than its cell, a name wider than
  its chip) where the box does not scroll or clip it;
- **below the fold**: what must be seen at once (`first_screen`: the last call, Draw, a claim
  or a request, a bingo on the phone) is not wholly within the first screen, the page scrolled to
  its top.

While a modal dialog is open, only the dialog is checked: the page under it is inert. What no
one sees is not judged: the content of a closed <details> (laid out but not drawn). An inline
element wrapped over several lines is probed in each of its line boxes, not in the rectangle
around them.

A problem is one line that names the element (its tag, id and classes, and the start of its
text) and what is wrong, so a failing test says what a person would see.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

#: the screens a hall has: the projector's (/display) and the laptop's (the caller page)
PROJECTORS = ((1280, 720), (1366, 768), (1920, 1080))
LAPTOP = (1366, 768)
PHONE = (390, 844)
#: the same phone at its browser's largest text (200 %): the page is laid out on half as many CSS
#: px, 195 by 422, each drawn 2 screen px wide (a browser's 200 % zoom does exactly this); a
#: context at device_scale_factor=2 with this viewport shows it as the phone would
LARGEST_TEXT = (195, 422)

#: the page laid out again at its new size, and its passing animations over (the last call's
#: flash grows the number for a moment): the layout is judged as it stays, not mid-flash
_SETTLED = """() => Promise.all(document.getAnimations()
    .filter(a => Number.isFinite(a.effect?.getComputedTiming().endTime))
    .map(a => a.finished.catch(() => null)))
  .then(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))))"""
#: the check itself, run in the page (layout.js beside this file)
_CHECK = (Path(__file__).parent / "layout.js").read_text(encoding="utf-8")
#: the tap-target check (tap_targets.js beside this file)
_TAPS = (Path(__file__).parent / "tap_targets.js").read_text(encoding="utf-8")
#: the whole-text check (whole_text.js beside this file)
_WHOLE = (Path(__file__).parent / "whole_text.js").read_text(encoding="utf-8")


def layout_problems(
    page,
    sizes: Iterable[tuple[int, int]] = (LAPTOP,),
    *,
    fit: bool = False,
    first_screen: Sequence[str] = (),
) -> list[str]:
    """Every layout problem of the page as it stands, at each screen size (the page is resized
    to each in turn and left at the last). `fit`: the page must fit the screen without
    scrolling (a projector's page). `first_screen`: selectors of what must be wholly within the
    first screen."""
    found: list[str] = []
    for w, h in sizes:
        page.set_viewport_size({"width": w, "height": h})
        page.evaluate(_SETTLED)
        found += [
            f"{w}x{h}: {p}"
            for p in page.evaluate(
                _CHECK, {"fit": fit, "firstScreen": list(first_screen), "screen": [w, h]}
            )
        ]
    return found


def assert_layout(page, sizes=(LAPTOP,), *, fit=False, first_screen=()) -> None:
    """Fail with every problem `layout_problems` finds."""
    problems = layout_problems(page, sizes, fit=fit, first_screen=first_screen)
    assert not problems, "layout problems:\n" + "\n".join(problems)


def tap_target_problems(page, min_px: int = 44) -> list[str]:
    """Every control too small for a finger on the page as it stands: each visible button, link,
    input, select, textarea, summary, [role=button|tab|link], focusable element and element with a
    pointer cursor of its own must measure at least `min_px` by `min_px` CSS px (WCAG 2.5.5's 44).
    A checkbox or radio is measured by its label, which is what is tapped. Disabled controls are not
    targets. A link laid out inline among the words of its sentence is exempt, as WCAG 2.5.5 exempts
    it; a link alone on its line (the address under a QR) is not."""
    return list(page.evaluate(_TAPS, {"minPx": min_px}))


def cut_text_problems(page) -> list[str]:
    """Text a reader does not see whole, on the page as it stands (`layout_problems` lets a box
    that clips or ends in an ellipsis cut its text; a score or a name must not be): a box whose
    text is wider than it and is clipped or ellipsed ("Total 3 1" for 3665), and a word broken
    across lines (a team's name stacked one letter per line). Addresses (words with a / or an @)
    may break, as they must on a narrow screen."""
    return list(page.evaluate(_WHOLE))
