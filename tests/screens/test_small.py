"""The 128x32 layout: its own painter for every view, decisions on one page, long views paged with their legend."""

from __future__ import annotations

import typing

import pytest

from firmware import views
from firmware.words import language as view_words
from firmware.devtools.samples import LANGUAGES, SAMPLES_AT
from firmware.screens import LAYOUTS, PAINTERS_FOR, render_checked, render_pages, render_traced
from firmware.screens.frame import legend_tokens
from firmware.screens.kit import Canvas
from firmware.screens.small import LAYOUT
from firmware.screens.small.frame import BOTTOM, LEGEND_Y, _plan, flow

SMALL = (128, 32)

#: Samples where a player chooses: everything they choose between is on the one page.
DECISIONS = [
    "dice_all_legal", "dice_pick_and_illegal", "dice_one_sum", "dice_alert", "pick", "handover_stop",
    "menu_game", "setup_top", "setup_names", "continue_list",
]
#: The move: the decision on its first page (what to move, "bust 23.9%" in the top bar, ROLL and STOP), then
#: a page of the chance, large, and its caption in the medium font, to be read at arm's length (issue 32).
PLAIN_MOVES = ["move_two_steps", "move_top", "move_double", "move_speedy"]


def test_small_layout_is_registered_with_a_painter_of_its_own_for_every_view():
    assert LAYOUTS[SMALL] is LAYOUT and LAYOUT.size == SMALL and LAYOUT.mode == "1"
    every_view = set(typing.get_args(views.View))
    painters = PAINTERS_FOR[SMALL]
    assert set(painters) == every_view
    assert all(paint.__module__.startswith("firmware.screens.small.") for paint in painters.values())


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", DECISIONS)
def test_small_decisions_are_one_page(lang, name):
    assert len(render_pages(SAMPLES_AT[SMALL][lang][name], SMALL)) == 1


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", PLAIN_MOVES)
def test_small_move_is_its_decision_then_the_chance_with_its_caption(lang, name):
    view = SAMPLES_AT[SMALL][lang][name]
    w = view_words(lang)
    traced = render_traced(view, SMALL)
    on = [{(d.text, d.font) for d in traced.texts if d.page == k} for k in range(len(traced.pages))]
    assert len(on) == 2 and traced.cuts == ()
    assert (w.bust_status(view.bust), "small") in on[0]
    assert {(w.percent(view.bust), "large"), *((line, "medium") for line in w.SCREEN["bust_if"])} <= on[1]


TURNS = ["turn_first", "turn_after_stop", "turn_after_claim", "turn_after_bust", "turn_alert", "turn_name_hangul",
         "turn_bot", "turn_solo"]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", TURNS)
def test_small_a_turn_is_its_heading_and_legend_then_the_note_with_the_legend_on_every_page(lang, name):
    """Issue 22 (friction 4, as for the move screen): ROLL and MENU are on the screen, not learnt by a wrong press."""
    view = SAMPLES_AT[SMALL][lang][name]
    traced = render_traced(view, SMALL)
    on = [{d.text for d in traced.texts if d.page == k} for k in range(len(traced.pages))]
    heading = view_words(lang).turn_heading(view.player, view.bot)
    assert heading in on[0]
    for k, texts in enumerate(on):
        assert {part for pair in legend_tokens(view.keys) for part in pair if part} <= texts, (k, texts)
    if not view.note:
        assert len(traced.pages) == 1
    else:  # the note on the pages after the first, none of it cut
        later = "".join(d.text for d in traced.texts if d.page > 0).replace(" ", "")
        assert len(traced.pages) > 1 and all(line.replace(" ", "") in later for line in view.note), view.note
        assert traced.cuts == ()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_small_a_choice_between_pairings_shows_all_three_and_the_dice_as_paired(lang):
    """Each pairing's cell (42 wide, under A, B, C) has its tab, its sums and its dice: ink in all three bands."""
    page, = render_pages(SAMPLES_AT[SMALL][lang]["dice_all_legal"], SMALL)
    for x0 in (0, 43, 86):
        for rows in ((12, 20), (10, 22), (24, 31)):
            assert page.crop((x0, rows[0], x0 + 42, rows[1] + 1)).getbbox() is not None, (x0, rows)


def test_small_flow_fills_pages_and_keeps_room_for_the_legend_on_the_last():
    line = (11, lambda y: None)
    assert [len(p) for p in _plan([line] * 5, 10, None, False)] == [2, 2, 1]
    # the legend's rows: a last page of two lines gives one to a page of its own, with the legend
    assert [len(p) for p in _plan([line] * 4, 10, "ROLL:ok", False)] == [2, 1, 1]
    # the legend on every page: one line each under a top bar, two without one
    assert [len(p) for p in _plan([line] * 3, 10, "ROLL:ok", True)] == [1, 1, 1]
    assert [len(p) for p in _plan([line] * 3, 1, "ROLL:ok", True)] == [2, 1]
    # a block taller than a page still gets one
    assert [len(p) for p in _plan([(30, lambda y: None)], 10, None, False)] == [1]


def test_small_flow_paints_each_block_below_the_header_and_the_legend_last():
    c = Canvas(LAYOUT)
    painted = []
    blocks = [(11, lambda y, k=k: painted.append((len(c.pages), k, y))) for k in range(3)]
    flow(c, lambda: 10, blocks, "ROLL:ok")
    assert painted == [(1, 0, 10), (1, 1, 21), (2, 2, 10)]
    assert len(c.pages) == 2
    assert c.pages[-1].crop((0, LEGEND_Y, 128, BOTTOM + 1)).getbbox() is not None  # the legend
    assert c.pages[0].crop((0, LEGEND_Y, 128, BOTTOM + 1)).getbbox() is None  # not on the first


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", ["message_long", "hint", "stats", "recap_four", "board_mid_game", "win"])
def test_small_a_long_view_pages_and_no_page_repeats(lang, name):
    pages = render_pages(SAMPLES_AT[SMALL][lang][name], SMALL)
    assert len(pages) > 1
    assert len({p.tobytes() for p in pages}) == len(pages)


MOVES = ["move_two_steps", "move_top", "move_double", "move_speedy", "move_bot"]


def _legend_alone(view):
    canvas = Canvas(LAYOUT, view.lang)
    from firmware.screens.small.frame import keys
    keys(canvas, view.keys)
    return canvas.pages[0].crop((0, LEGEND_Y, LAYOUT.width, LAYOUT.height))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", MOVES)
def test_small_move_screen_shows_its_legend_on_its_one_decision_page(lang, name):
    """Issue 22, friction 4: ROLL and STOP are named on the move screen's first page, and the runners stay whole."""
    view = SAMPLES_AT[SMALL][lang][name]
    assert view.keys
    first = render_pages(view, SMALL)[0]
    bottom = first.crop((0, LEGEND_Y, LAYOUT.width, LAYOUT.height))
    assert bottom.tobytes() == _legend_alone(view).tobytes()
    assert bottom.getbbox() is not None
    assert render_checked(view, SMALL).cuts == ()
    # the runners' rows (above the legend) are not blank
    assert first.crop((17, 8, LAYOUT.width, LEGEND_Y)).getbbox() is not None
