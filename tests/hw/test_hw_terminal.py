"""The laptop emulator's screen: half-block frames drawn in place (its keys: test_hw_keys.py)."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image, ImageDraw

from hw.display import Display
from hw.terminal import CURSOR_HOME, TerminalDisplay, frame_to_text


def blank() -> Image.Image:
    return Image.new("1", (128, 64))


def test_terminal_blank_frame_is_32_rows_of_128_spaces():
    rows = frame_to_text(blank())
    assert rows == [" " * 128] * 32


def test_terminal_half_blocks_pair_vertical_pixels():
    image = blank()
    image.putpixel((0, 0), 1)                          # top only
    image.putpixel((1, 1), 1)                          # bottom only
    image.putpixel((2, 0), 1)
    image.putpixel((2, 1), 1)                          # both
    image.putpixel((127, 63), 1)                       # last cell, bottom
    rows = frame_to_text(image)
    assert rows[0][:4] == "▀▄█ "
    assert rows[31][127] == "▄"
    assert sum(row.count(" ") for row in rows) == 128 * 32 - 4


def test_terminal_full_frame_is_all_full_blocks():
    rows = frame_to_text(Image.new("1", (128, 64), 1))
    assert rows == ["█" * 128] * 32


def test_terminal_rectangle_outline():
    image = blank()
    ImageDraw.Draw(image).rectangle((0, 0, 127, 63), outline=1)
    rows = frame_to_text(image)
    assert rows[0] == "█" + "▀" * 126 + "█"
    assert rows[15] == "█" + " " * 126 + "█"
    assert rows[31] == "█" + "▄" * 126 + "█"


def test_terminal_non_mono_image_is_thresholded():
    image = Image.new("L", (128, 64), 0)
    image.putpixel((4, 2), 255)
    assert frame_to_text(image)[1][4] == "▀"


def test_terminal_display_draws_in_place_with_border_and_footer():
    out = io.StringIO()
    display = TerminalDisplay(out, footer="r roll  s stop  q quit")
    assert isinstance(display, Display)
    assert display.size == (128, 64)
    assert display.needed_size == (130, 35)
    display.show(blank())
    first = out.getvalue()
    out.seek(0)
    out.truncate()
    display.show(blank())
    second = out.getvalue()
    assert "\x1b[2J" in first and "\x1b[2J" not in second  # the screen is cleared once only
    assert second.startswith(CURSOR_HOME)
    lines = second[len(CURSOR_HOME):].split("\n")
    assert lines[0] == "┌" + "─" * 128 + "┐"
    assert lines[1] == "│" + " " * 128 + "│"
    assert lines[33].startswith("└" + "─" * 128 + "┘")
    assert lines[34].startswith("r roll  s stop  q quit")
    display.close()
    assert out.getvalue().endswith("\x1b[?25h")


def test_terminal_display_flushes_once_per_frame():
    class CountingStream(io.StringIO):
        flushes = 0
        writes = 0

        def write(self, text):
            self.writes += 1
            return super().write(text)

        def flush(self):
            self.flushes += 1

    out = CountingStream()
    display = TerminalDisplay(out)
    display.show(blank())
    display.clear()
    assert (out.writes, out.flushes) == (2, 2)


def test_terminal_display_rejects_wrong_size():
    with pytest.raises(ValueError):
        TerminalDisplay(io.StringIO()).show(Image.new("1", (64, 64)))


def test_terminal_grey_frame_keeps_its_grey_exactly():
    """Each pair of dark, grey and lit pixels has one picture: grey with lit puts the lit half on a grey ground."""
    from hw import shades

    image = Image.new("L", (6, 2), 0)
    for x, (top, bottom) in enumerate([(255, 0), (0x66, 0), (0x66, 0x66), (0x66, 255), (255, 0x66), (0, 255)]):
        image.putpixel((x, 0), top)
        image.putpixel((x, 1), bottom)
    (row,) = frame_to_text(image)
    fg, bg, plain = shades.GREY_FG, shades.GREY_BG, shades.PLAIN
    assert row == f"▀{fg}▀█{plain}{bg}▄▀{plain}▄"


def test_terminal_wide_grey_screen_is_256_cells_a_row_with_its_highlight():
    from firmware.devtools.samples import SAMPLES
    from firmware.screens import render
    from hw import shades

    rows = frame_to_text(render(SAMPLES["setup_top"], (256, 64)))  # the cursor row: a grey bar under lit words
    plain = [re.sub(r"\x1b\[[0-9;]*m", "", row) for row in rows]
    assert len(rows) == 32 and {len(row) for row in plain} == {256}
    assert shades.GREY_BG in rows[6] and shades.GREY_FG in rows[6]
    assert all("\x1b" not in row for row in rows[:5])  # the top bar has no grey
    display = TerminalDisplay(io.StringIO(), size=(256, 64))
    assert display.needed_size[0] == 258


def test_terminal_too_small_note_is_whole_at_60_columns():
    """Issue 22, bug 1: the note was cut at 60 columns; it is broken at words over the lines instead."""
    import io

    from hw.terminal import TerminalDisplay
    from PIL import Image as _Image

    out = io.StringIO()
    term = TerminalDisplay(out, terminal_size=lambda: (60, 20))
    term.show(_Image.new("1", (128, 64)))
    shown = out.getvalue().split("\x1b[H", 1)[1]
    assert all(len(line) < 60 for line in shown.splitlines())
    assert " ".join(shown.split()) == " ".join(term.too_small_note(60, 20).split())


def test_terminal_half_width_is_two_pixels_a_cell_exact_in_one_bit():
    from hw.shades import QUADRANTS, quadrant_rows

    image = Image.new("1", (4, 2))
    for xy in ((0, 0), (3, 0), (2, 1), (3, 1)):
        image.putpixel(xy, 1)
    assert quadrant_rows(image) == [QUADRANTS[1] + QUADRANTS[2 | 4 | 8]]  # "▘▟"


def test_terminal_256x64_at_half_width_in_a_200_column_terminal():
    """The 3.12-inch screen in a 200-column terminal: 128 cells a row, grey kept, the footer whole."""
    import io

    from firmware.devtools.samples import SAMPLES
    from firmware.screens import render
    from hw import shades

    out = io.StringIO()
    display = TerminalDisplay(out, footer="keys: r roll  q quit", size=(256, 64), terminal_size=lambda: (200, 50))
    assert display.needed_size == (258, 35) and display.half_size == (130, 35) and display.fit(200, 50) == "half"
    display.show(render(SAMPLES["setup_top"], (256, 64)))
    lines = re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", out.getvalue()).splitlines()
    assert lines[0] == "┌" + "─" * 128 + "┐" and len(lines) == 35 and lines[-1] == "keys: r roll  q quit"
    assert {len(line) for line in lines[:34]} == {130}
    assert shades.GREY_BG in out.getvalue()  # the cursor row's grey bar
    assert display.fit(120, 50) is None and display.fit(258, 35) == "whole"
