"""Symbols belong to colours, not seats (issue 22, friction 5): Blue keeps its symbol whoever starts."""

import pytest

from firmware import views
from firmware.config import GameConfig
from firmware.screens import render, render_checked, render_pages
from firmware.screens.board import row_span
from firmware.table.seat import symbols
import dataclasses

from firmware.ui import view
from firmware.ui.model import BoardScreen
from tests.kit.rig import Rig, goto

PALETTE = ("Red", "Blue", "Green", "Yellow")


def test_a_colour_has_its_palette_place_as_its_symbol_in_any_turn_order():
    assert symbols(PALETTE, ("Red", "Blue")) == (0, 1)
    assert symbols(PALETTE, ("Blue", "Red")) == (1, 0)
    assert symbols(PALETTE, ("Yellow", "Green", "Blue")) == (3, 2, 1)


def test_more_colours_than_symbols_never_give_two_seats_of_a_game_one_symbol():
    palette = PALETTE + ("Purple", "Orange", "White", "Black")
    # Purple wants Red's symbol: Red (earlier in the palette) keeps it, in either order
    assert symbols(palette, ("Purple", "Red")) == (1, 0)
    assert symbols(palette, ("Red", "Purple")) == (0, 1)
    assert symbols(palette, ("Purple", "Blue")) == (0, 1)  # no clash: Purple has its own
    for colours in (("Black", "White", "Orange", "Purple"), ("Red", "Purple", "Blue", "Orange")):
        assert sorted(symbols(palette, colours)) == [0, 1, 2, 3]
    # a colour the config no longer lists takes a free symbol
    assert symbols(PALETTE, ("Teal", "Red")) == (1, 0)


def _first_turn(tmp_path, blue_starts: bool):
    rig = Rig(tmp_path, settings=GameConfig())
    if blue_starts:
        goto(rig, "Starts")
        rig.tap("C")
    rig.tap("ROLL")
    return rig


@pytest.mark.parametrize("blue_starts", [False, True])
def test_blue_is_drawn_with_its_own_symbol_whoever_starts(tmp_path, blue_starts):
    rig = _first_turn(tmp_path, blue_starts)
    try:
        app = rig.box.app
        blue = next(i for i, s in enumerate(app.seats) if s.colour == "Blue")
        assert (blue == 0) is blue_starts
        assert app.mark(blue) == 1
        v = rig.view
        if blue_starts:
            assert isinstance(v, views.TurnView) and v.player == "Blue" and v.seat == 1
        board = view(dataclasses.replace(app, screen=BoardScreen()))
        assert isinstance(board, views.BoardView)
        assert board.marks[blue] == 1 and board.mark(1 - blue) == 0
    finally:
        rig.close()


def test_the_board_draws_each_row_with_its_colour_s_symbol():
    """Blue first in turn order: the top row of the grid carries the hollow square, Red's row the filled one."""
    cols = tuple(views.Column(c, 3, (0, 0)) for c in range(2, 13))
    by_colour = render(views.BoardView(("Blue", "Red"), cols, 0, marks=(1, 0)))
    by_seat = render(views.BoardView(("Blue", "Red"), cols, 0))

    def gutter(image, seat):
        top, bottom = row_span(seat, 2)
        return image.crop((0, top, 7, bottom + 1)).tobytes()

    assert gutter(by_colour, 0) != gutter(by_seat, 0)
    # seat 0's row carries what the seat-indexed board drew on seat 1's row, and the other way round
    assert gutter(by_colour, 0) == gutter(by_seat, 1)
    assert gutter(by_colour, 1) == gutter(by_seat, 0)


def _blue_first_board(current=None, players=("Blue", "Red")):
    cols = tuple(views.Column(c, 3, (0,) * len(players)) for c in range(2, 13))
    return views.BoardView(players, cols, current, marks=(1, 0, 2, 3)[:len(players)])


def test_the_board_s_top_bar_is_its_key_each_name_beside_the_symbol_its_row_carries():
    board = _blue_first_board()
    image = render(board)
    # the first entry of the key is Blue's hollow square, as in Blue's row of the grid
    top, bottom = row_span(0, 2)
    y = top + (bottom - top + 1 - 6) // 2
    assert image.crop((0, 1, 6, 7)).tobytes() == image.crop((0, y, 6, y + 6)).tobytes()
    # the names are in the bar: another name, another bar; the grid below is the same
    other = render(views.BoardView(("Ann", "Red"), board.columns, None, marks=(1, 0)))
    assert other.crop((0, 0, 128, 9)).tobytes() != image.crop((0, 0, 128, 9)).tobytes()
    assert other.crop((0, 10, 128, 64)).tobytes() == image.crop((0, 10, 128, 64)).tobytes()


@pytest.mark.parametrize("lang", ["en", "ja", "ko"])
def test_four_colour_names_fit_the_key_uncut(lang):
    from firmware.devtools.samples import SAMPLES_AT
    for size in ((128, 64), (256, 64), (128, 32)):
        assert render_checked(SAMPLES_AT[size][lang]["board_mid_game"], size).cuts == ()


def test_the_128x32_overview_ends_on_its_key_pages():
    four = _blue_first_board(0, ("Blue", "Red", "Green", "Yellow"))
    pages = render_pages(four, (128, 32))
    assert len(pages) == 2 + 1  # the grid two players a page, then the key two names a row
    named = render_pages(views.BoardView(("Ann", "Red", "Green", "Yellow"), four.columns, 0, marks=four.marks), (128, 32))
    assert [p.tobytes() for p in named[:2]] == [p.tobytes() for p in pages[:2]]  # the grid has no names
    assert named[2].tobytes() != pages[2].tobytes()  # the key names the players


def test_key_entries_keep_whole_names_while_they_fit_and_share_the_rest():
    from firmware.screens.board import key_widths
    assert key_widths([15, 20, 25, 30], 128) == [24, 29, 34, 39]  # a 2-pixel gap after each
    assert key_widths([15, 20, 25, 40], 128) == [22, 27, 32, 47]  # Burgundy: no gap, but whole
    assert key_widths([40, 40, 40, 40], 128) == [32, 32, 32, 32]  # four 8-letter names: cut alike
    widths = key_widths([15, 60, 70], 128)
    assert widths[0] == 22 and sum(widths) == 128  # the short name whole, the long two share the rest and abs(widths[1] - widths[2]) <= 1
