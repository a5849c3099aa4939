"""The 256x64 grey layout (SSD1322): the same painters on twice the width, grey where the issue asks.

Grey is for the board (the other players' pieces dimmer than those of the
player whose turn it is) and the highlighted choice (lit words on a grey
fill instead of an inverted block); everything else is lit or dark, as on
the 1-bit screens.
"""

from __future__ import annotations

from firmware.devtools.samples import SAMPLES
from firmware.screens import LAYOUTS, board, render
from firmware.screens.kit import GREY

WIDE = (256, 64)


def _levels(image, box=None) -> set[int]:
    part = image.crop(box) if box else image
    return {level for count, level in part.getcolors(256)}


def test_wide_layout_is_grey_and_128x64_stays_one_bit():
    assert LAYOUTS[WIDE].mode == "L" and LAYOUTS[(128, 64)].mode == "1"
    assert render(SAMPLES["board_mid_game"]).mode == "1"
    assert render(SAMPLES["board_mid_game"], WIDE).mode == "L"


def test_wide_frames_use_only_dark_lit_and_the_one_grey():
    for name, view in SAMPLES.items():
        assert _levels(render(view, WIDE)) <= {0, GREY, 255}, name


def test_wide_board_other_players_are_grey_the_current_one_bright():
    v = SAMPLES["board_mid_game"]  # four players, Green (seat 2) to play
    frame = render(v, WIDE)
    cell = board.cell_width(256)
    assert cell == 22  # twice the 128x64 grid's cells
    for seat in range(len(v.players)):
        top, bottom = board.row_span(seat, len(v.players))
        row = _levels(frame, (board.GUTTER, top, board.GUTTER + 11 * cell, bottom + 1)) - {0}
        assert row == ({255} if seat == v.current else {GREY}), seat


def test_wide_board_with_nobody_to_play_is_all_bright():
    frame = render(SAMPLES["board_game_over"], WIDE)
    assert _levels(frame) == {0, 255}


def test_wide_highlight_is_a_grey_fill_under_lit_words():
    chosen = render(SAMPLES["dice_bot_chose"], WIDE)  # pairing A highlighted
    cell = (256 - 2) // 3
    assert {GREY, 255} <= _levels(chosen, (0, 27, cell, 55))
    assert chosen.getpixel((1, 40)) == GREY  # the fill, where 128x64 would light the whole block
    assert _levels(chosen, (cell + 1, 27, 2 * cell + 1, 55)) == {0, 255}  # B is not highlighted
    menu = render(SAMPLES["setup_top"], WIDE)  # the cursor row
    assert menu.getpixel((1, 11)) == GREY and 255 in _levels(menu, (0, 10, 200, 20))
    assert render(SAMPLES["setup_top"]).getpixel((1, 11)) == 1  # inverted on the 1-bit screen


def test_wide_uses_the_width():
    """Cells and columns spread over 256 pixels: the dice screen's third pairing starts past the middle."""
    frame = render(SAMPLES["dice_all_legal"], WIDE)
    assert frame.crop((200, 11, 256, 54)).getbbox() is not None
    note = render(SAMPLES["hint"], WIDE)
    assert note.crop((128, 11, 256, 54)).getbbox() is not None
