"""Instructions are paged by the screen's layout: each size knows its line width and lines to a page.

The UI is handed its screen's paginator at boot and keeps only the page
index; a page it shows is one the renderer shows whole.
"""

from __future__ import annotations

import pytest

from firmware import ui, views
from firmware.config import GameConfig
from firmware.ui.messages import Press
from firmware.screens import LAYOUTS, STANDARD, layout_for, render_pages
from firmware.screens.kit import width_of
from firmware.screens.small import LAYOUT as SMALL
from firmware.views import InstructionsView

WIDE = LAYOUTS[(256, 64)]
CLAIM = ("Red markers to:", "4:7  6:4  7:10", "Red claims 4!", "Take off 4: Blue, Green, Yellow.")


def test_pagination_each_size_wraps_at_its_own_width():
    long = ("Take off 4: Blue, Green, Yellow and everyone else's markers too.",)
    assert [len(line) <= 21 for page in STANDARD.paginate(None, long) for line in page] == [True] * 4
    wide = [line for page in WIDE.paginate(None, long) for line in page]
    assert max(len(line) for line in wide) > 21 and all(width_of(line, "medium") <= 256 for line in wide)
    assert len(wide) == 2


def test_pagination_the_small_screen_gets_two_lines_to_a_page():
    short = CLAIM[:3]
    assert SMALL.paginate(None, short) == (short[:2], short[2:])
    assert [len(p) for p in SMALL.paginate("Blue", short)] == [1, 1, 1]  # the band takes a line
    assert STANDARD.paginate(None, short) == (short,)
    # wrapped at 21 characters, and kept together: the tail alone ("Green, Yellow.") had no heading (issue 47, 5)
    assert SMALL.paginate(None, CLAIM)[-1] == ("Take off 4: Blue,", "Green, Yellow.")
    assert STANDARD.paginate(None, ()) == ((),)  # always one page


@pytest.mark.parametrize("size", list(LAYOUTS), ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("big", [None, "Blue busts"])
def test_pagination_a_page_of_the_layout_is_one_screen(size, big):
    layout = layout_for(size)
    pages = layout.paginate(big, CLAIM * 2)
    for k, page in enumerate(pages):
        view = InstructionsView("Red", 0, "Red stops", page, big if k == 0 else None, k + 1, len(pages), "ROLL:next")
        assert len(render_pages(view, size)) == 1, (k, page)


def _claim_on_screen(paginate):
    """A game where Red just stopped with a claim to take off: four lines of instructions."""
    app = ui.boot(GameConfig(columns_to_win=2), paginate=paginate)
    steps = ["ROLL", "ROLL", (3, 3, 3, 3), "A", "STOP", ui.Timer(), "ROLL", (1, 1, 3, 4), "A", "STOP", ui.Timer(),
             "ROLL", (1, 1, 1, 1), "A", "ROLL", (1, 1, 6, 6), "A", "STOP", ui.Timer()]
    for step in steps:
        inp = ui.DiceRolled(step) if isinstance(step, tuple) else Press(step) if isinstance(step, str) else step
        app, _ = ui.update(app, inp)
    return app


@pytest.mark.parametrize("layout, presses", [(STANDARD, 1), (SMALL, 2)], ids=["128x64", "128x32"])
def test_pagination_roll_turns_the_screens_own_pages_then_is_done(layout, presses):
    app = _claim_on_screen(layout.paginate)
    v = ui.view(app)
    assert isinstance(v, views.InstructionsView) and v.pages == presses
    for k in range(presses):
        assert ui.view(app).page == k + 1
        app, _ = ui.update(app, Press("ROLL"))
    assert not isinstance(ui.view(app), views.InstructionsView)  # the last ROLL was done


@pytest.mark.parametrize("size", list(LAYOUTS), ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("big", [None, "Blue busts"])
def test_pagination_never_starts_a_page_with_the_tail_of_a_line_that_fits_a_page(size, big):
    """Issue 47, item 5: the stop screen's second page showed only "Yellow.", the end of "Take off 4: ...", with
    no heading. A line that a page can hold whole is on one page; the lines keep their order."""
    layout = layout_for(size)
    lines = ("Red markers to:", "4:10  6:4", "Red claims 4!", "Take off 4: Blue, Green, Yellow.", "Red claims 6!",
             "Take off 6: Blue, Green.")
    pages = layout.paginate(big, lines)
    per_page = max(1, layout.lines_per_page - layout.big_lines) if big else layout.lines_per_page
    flat = [part for page in pages for part in page]
    assert flat == [part for line in lines for part in layout._wrap(line)]
    for line in lines:
        parts = layout._wrap(line)
        if len(parts) <= per_page:
            assert any(tuple(parts) == page[k:k + len(parts)] for page in pages for k in range(len(page))), (line, pages)
