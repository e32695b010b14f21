"""The layout check (tests/layout.py) finds what a person would see wrong on a screen: each
problem it exists for, on a page made to have it, and nothing on a page that has none."""

from __future__ import annotations

import pytest
from layout import layout_problems

pytestmark = pytest.mark.browser

CLEAN = """<!doctype html><html><body style="margin:0;font:20px sans-serif">
<header style="height:40px">Bingo Hall</header>
<main><p id="call">B 12</p><button id="draw">Draw</button>
<div style="height:2000px">a long list</div></main></body></html>"""


def problems(page, html: str, size=(390, 844), **kw) -> list[str]:
    page.set_content(html)
    return layout_problems(page, [size], **kw)


def test_a_page_with_nothing_wrong_has_no_problem(page):
    assert problems(page, CLEAN, first_screen=["#call", "#draw"]) == []


def test_a_page_wider_than_the_screen_is_found_as_sideways_scroll(page):
    found = problems(
        page,
        CLEAN.replace("a long list", '<span style="display:inline-block;width:600px">wide</span>'),
    )
    assert any("scrolls sideways" in p for p in found), found
    assert any('"wide"' in p and "off the screen" in p for p in found), found


def test_a_fixed_header_over_the_first_row_is_found_as_covering_it(page):
    html = CLEAN.replace(
        '<header style="height:40px">',
        '<header style="position:fixed;top:0;left:0;right:0;height:80px;background:#000">',
    )
    found = problems(page, html)
    assert any("B 12" in p and "covered by header" in p for p in found), found


def test_text_wider_than_its_cell_is_found_as_spilt(page):
    html = CLEAN.replace(
        "a long list",
        '<div style="width:30px;white-space:nowrap" id="tot">Total 3665</div>',
    )
    found = problems(page, html)
    assert any("Total 3665" in p and "runs out of its box" in p for p in found), found


def test_what_must_be_seen_below_the_fold_is_found(page):
    html = CLEAN.replace('<p id="call">B 12</p><button id="draw">Draw</button>', "").replace(
        "a long list</div>", 'a long list</div><button id="draw">Draw</button>'
    )
    found = problems(page, html, first_screen=["#draw"])
    assert any("#draw" in p and "not on the first screen" in p for p in found), found


def test_a_page_that_must_fit_is_found_scrolling(page):
    found = problems(page, CLEAN, size=(1280, 720), fit=True)
    assert any("the page scrolls" in p for p in found), found


def test_content_scrolled_under_a_sticky_bar_below_the_first_screen_is_no_problem(page):
    html = CLEAN.replace(
        '<header style="height:40px">',
        '<header style="position:sticky;top:0;height:40px;background:#000;color:#fff">',
    ).replace("a long list", "<p>one</p>" * 80)
    assert problems(page, html) == []


def test_an_open_modal_dialog_alone_is_checked(page):
    html = CLEAN.replace(
        "</main>",
        '</main><dialog id="d"><p style="white-space:nowrap;width:20px">Confirm the award</p>'
        "</dialog>",
    ).replace(
        "a long list", '<span style="display:inline-block;width:300px;margin-left:200px">x</span>'
    )
    page.set_content(html)
    page.evaluate("document.getElementById('d').showModal()")
    found = layout_problems(page, [(390, 844)])
    assert any("Confirm the award" in p for p in found), found
    assert not any('"x"' in p for p in found), found


def test_what_a_closed_details_folds_away_is_not_checked(page):
    html = CLEAN.replace(
        "a long list",
        '<details><summary>Players</summary><p style="width:2000px">wide</p></details>',
    )
    found = problems(page, html)
    assert not any('"wide"' in p for p in found), found


def test_an_inline_text_that_wraps_is_not_taken_for_covered_by_its_neighbour(page):
    html = CLEAN.replace(
        "a long list",
        '<p style="width:330px"><b>Tómbola</b> · 90 balls · <span id="s">waiting · then an '
        "interval of 15 min</span></p>",
    )
    assert problems(page, html) == []


def test_what_a_closed_details_holds_is_not_judged_as_covered(page):
    # Chromium leaves the content of a closed <details> laid out (content-visibility: hidden)
    # where the next element is drawn over it: what no one sees cannot be covered
    html = CLEAN.replace(
        "a long list",
        '<details><summary>Players</summary><input id="name" value="Ana"></details>'
        '<p style="margin:0">Game record</p>',
    )
    assert problems(page, html) == []


def test_a_phone_page_wider_than_the_screen_is_found_though_the_phone_zooms_out(browser):
    """A phone (a mobile viewport) widens its layout viewport to a page wider than the screen
    and zooms out to show it: the page's own width (innerWidth) is then no measure."""
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        page = phone.new_page()
        wide = '<span style="display:inline-block;width:425px">wide</span>'
        html = CLEAN.replace(
            "<html>", '<html><head><meta name="viewport" content="width=device-width">'
        ).replace("a long list", wide)
        found = problems(page, html)
        assert any("scrolls sideways: 4" in p and "on 390 px" in p for p in found), found
    finally:
        phone.close()


def test_an_inline_element_wrapped_over_two_lines_is_probed_where_it_is_drawn(page):
    # its rectangle takes in the text before it on the first line, which is not over it
    html = CLEAN.replace(
        "a long list",
        '<p style="width:220px"><span>Cinco primeros</span> '
        '<span id="who">cartón 7, bola 27</span></p>',
    )
    assert problems(page, html) == []
    # and a box drawn over its second line is still found
    covered = html.replace(
        "</main>",
        '</main><div style="position:absolute;left:0;top:0;width:100%;height:100vh;'
        'background:#000;opacity:.9"></div>',
    )
    assert any("cartón 7" in p and "covered" in p for p in problems(page, covered))


# ---- the tap-target and whole-text checks beside it (tap_target_problems, cut_text_problems) ----

TAPS = """<!doctype html><html><body style="margin:0;font:16px sans-serif">
<button id="small" style="width:30px;height:30px">✎</button>
<button id="big" style="width:48px;height:48px">+</button>
<p>Read <a href="#" id="inline">the rules</a> before you play.</p>
<p><a href="#" id="alone">http://hall/t/ABCD</a></p>
<label style="display:flex;min-height:48px;width:200px"><input type="checkbox"> Closed</label>
<button disabled style="width:10px;height:10px">x</button>
</body></html>"""


def test_a_control_smaller_than_a_finger_is_found_and_an_inline_link_is_not(page):
    from layout import tap_target_problems

    page.set_content(TAPS)
    found = tap_target_problems(page)
    assert any("#small" in p and "30x30" in p for p in found), found
    assert any("#alone" in p for p in found), found  # a link alone on its line is a target
    assert not any("#big" in p or "#inline" in p for p in found), found  # WCAG 2.5.5's exception
    assert not any("checkbox" in p or "Closed" in p for p in found), found  # tapped by its label
    assert len(found) == 2, found  # the disabled button is no target


def test_a_total_cut_by_its_cell_and_a_name_broken_mid_word_are_found(page):
    from layout import cut_text_problems

    page.set_content(
        """<!doctype html><html><body style="font:20px sans-serif">
        <div id="tot" style="width:20px;overflow:hidden;text-overflow:ellipsis">3665</div>
        <div id="team" style="width:20px;overflow-wrap:anywhere">Ana</div>
        <div id="ok" style="width:200px">Ana &amp; Luis 3665</div>
        <div style="width:40px">http://hall/t/ABCD</div></body></html>"""
    )
    found = cut_text_problems(page)
    assert any("#tot" in p and "cut" in p for p in found), found
    assert any("#team" in p and '"Ana" is broken' in p for p in found), found
    assert len(found) == 2, found  # whole text, and an address that breaks, are no problem
