"""The laptop emulator: half-block frames, keys from a pipe, keys as mock pins."""

from __future__ import annotations

import io
import os
import re
import threading

import pytest
from PIL import Image, ImageDraw

from hw.buttons import GpioButtons
from hw.display import Display
from hw.terminal import CURSOR_HOME, QUIT, KeyPins, KeyReader, TerminalDisplay, frame_to_text

PINS = {"ROLL": 17, "STOP": 27, "A": 5, "MENU": 26}


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


def collect_keys(stream, **kw) -> list[str]:
    keys: list[str] = []
    reader = KeyReader(keys.append, stream, **kw).start()
    reader.join(5)
    reader.close()
    return keys


def test_terminal_keyreader_reads_pipe_line_by_line():
    read_fd, write_fd = os.pipe()
    with os.fdopen(write_fd, "w") as writer:
        writer.write("rs\na\n\x03\n")
    with os.fdopen(read_fd) as stream:
        reader_keys = collect_keys(stream)
    assert reader_keys == ["r", "s", "a", QUIT, QUIT]  # Ctrl-C, then end of input


def test_terminal_keyreader_end_of_input_without_quit():
    assert collect_keys(io.StringIO("xy\n"), quit_on_eof=False) == ["x", "y"]


def test_terminal_keyreader_is_not_tty_for_pipe():
    reader = KeyReader(lambda key: None, io.StringIO(""))
    assert not reader.is_tty


def test_terminal_keyreader_keys_arrive_while_pipe_stays_open():
    read_fd, write_fd = os.pipe()
    got = threading.Event()
    keys: list[str] = []

    def on_key(key):
        keys.append(key)
        got.set()

    with os.fdopen(read_fd) as stream, os.fdopen(write_fd, "w") as writer:
        reader = KeyReader(on_key, stream).start()
        writer.write("m\n")
        writer.flush()
        assert got.wait(5)
        assert keys == ["m"]
        reader.close(timeout=0.1)


def test_terminal_keyreader_tty_cbreak_keys_and_restore():
    import pty
    import termios

    master, slave = pty.openpty()
    keys: list[str] = []
    done = threading.Event()

    def on_key(key):
        keys.append(key)
        if len(keys) == 3:
            done.set()

    try:
        with os.fdopen(slave, "r", closefd=False) as stream:
            before = termios.tcgetattr(slave)
            reader = KeyReader(on_key, stream)
            assert reader.is_tty
            with reader:
                during = termios.tcgetattr(slave)
                assert not during[3] & (termios.ICANON | termios.ECHO | termios.ISIG)
                os.write(master, b"r\x03\x1b[A")  # no Enter needed; Ctrl-C is a key
                assert done.wait(5)
            assert keys == ["r", QUIT, "up"]
            assert termios.tcgetattr(slave) == before
    finally:
        os.close(master)
        os.close(slave)


def test_terminal_keypins_tap_reaches_button_sink(mock_factory, edges):
    with GpioButtons(PINS, edges, pin_factory=mock_factory), \
            KeyPins(mock_factory, PINS, {"r": ("ROLL", 0), "s": ("STOP", 0)}, tap=0.01) as keys:
        assert keys.press("r")
        assert keys.press("s")
        assert not keys.press("z")  # unmapped
        assert keys.wait_idle(5)
    assert edges.edges == [("ROLL", True), ("ROLL", False), ("STOP", True), ("STOP", False)]


def test_terminal_keypins_long_press_holds_for_given_seconds(mock_factory):
    """The button stays down for the key's hold (a long press), a tap for the tap time; one after the other."""
    timeline: list[tuple] = []
    with GpioButtons(PINS, lambda name, pressed: timeline.append((name, pressed)), pin_factory=mock_factory), \
            KeyPins(mock_factory, PINS, {"M": ("MENU", 0.3), "m": ("MENU", 0)},
                    sleep=lambda seconds: timeline.append(("held", seconds))) as keys:
        keys.press("M")
        keys.press("m")
        assert keys.wait_idle(5)
    assert timeline == [("MENU", True), ("held", 0.3), ("MENU", False),  # serialised: the tap waits
                        ("MENU", True), ("held", 0.05), ("MENU", False)]


def test_terminal_keypins_presses_never_overlap(mock_factory, edges):
    hold_log: list[float] = []
    with GpioButtons(PINS, edges, pin_factory=mock_factory), \
            KeyPins(mock_factory, PINS, {"r": ("ROLL", 0), "a": ("A", 0)},
                    sleep=hold_log.append, max_pending=16) as keys:
        for key in "rara":
            keys.press(key)
        assert keys.wait_idle(5)
    assert edges.edges == [("ROLL", True), ("ROLL", False), ("A", True), ("A", False)] * 2
    assert hold_log == [0.05] * 4


def test_terminal_keypins_chord_holds_buttons_together(mock_factory, edges):
    with GpioButtons(PINS, edges, pin_factory=mock_factory), \
            KeyPins(mock_factory, PINS, {}, sleep=lambda s: None) as keys:
        keys.chord(["ROLL", "STOP"], hold=2.0)
        assert keys.wait_idle(5)
    assert edges.edges == [("ROLL", True), ("STOP", True), ("ROLL", False), ("STOP", False)]


def test_terminal_keypins_unknown_button_rejected(mock_factory):
    with pytest.raises(ValueError, match="FOLD"):
        KeyPins(mock_factory, PINS, {"f": ("FOLD", 0)})


def test_terminal_keypins_survives_failing_sink(mock_factory):
    calls: list[str] = []

    def sink(name, pressed):
        calls.append(name)
        if len(calls) == 1:
            raise RuntimeError("boom")

    with GpioButtons(PINS, sink, pin_factory=mock_factory), \
            KeyPins(mock_factory, PINS, {"r": ("ROLL", 0)}, sleep=lambda s: None) as keys:
        keys.press("r")
        assert keys.wait_idle(5)
        keys.press("r")
        assert keys.wait_idle(5)
    assert calls == ["ROLL", "ROLL", "ROLL", "ROLL"]
    assert mock_factory.pin(17).state  # released (high) even after the failure


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
