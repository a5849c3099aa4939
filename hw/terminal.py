"""The box on a laptop: the OLED drawn in a terminal (the keys that drive it: :mod:`hw.keys`).

``TerminalDisplay`` draws the exact frame at any panel size (128x64, 128x32,
256x64), W columns x H/2 rows of half blocks (each cell is two pixels stacked; grey frames in grey,
:mod:`hw.shades`), redrawn in place with the cursor-home escape. A terminal too narrow
for that gets the frame at half width (W/2 columns of quadrant blocks, two by two pixels a
cell), and one too small even for that a one-line note until it grows. A panel of the
emulator's (its camera's view, :mod:`hw.camview`) is drawn beside the frame where the terminal
has the columns, else under it where it has the lines, else not at all.
"""

from __future__ import annotations

import sys
import textwrap
import threading
from collections.abc import Callable
from typing import TextIO

from PIL import Image

from hw.display import HEIGHT, WIDTH
from hw.shades import quadrant_rows, shaded_rows

CURSOR_HOME = "\x1b[H"
CLEAR_SCREEN = "\x1b[2J"
CLEAR_TO_EOL = "\x1b[K"
HIDE_CURSOR = "\x1b[?25l"
SHOW_CURSOR = "\x1b[?25h"
CLEAR_BELOW = "\x1b[J"
FAINT = "\x1b[2m"
NORMAL = "\x1b[22m"

#: A side panel is at most this many columns wide, two columns from the frame; narrower than
#: SIDE_MIN it goes under the frame instead, at most SIDE_UNDER lines.
SIDE_COLS, SIDE_GAP, SIDE_MIN, SIDE_UNDER = 64, 2, 24, 18

#: A side panel: (columns, lines) it may fill -> its lines, none wider than the columns once drawn.
Side = Callable[[int, int], list[str]]


def frame_to_text(image: Image.Image) -> list[str]:
    """One string per pair of pixel rows, a half block per column (32 strings of 128 for a 128x64 frame; drawn by hw.shades)."""
    return shaded_rows(image)


class TerminalDisplay:
    """The ``Display`` port drawn in a terminal, redrawn in place each frame."""

    def __init__(self, stream: TextIO | None = None, *, footer: str = "",
                 size: tuple[int, int] = (WIDTH, HEIGHT),
                 terminal_size: Callable[[], tuple[int, int]] | None = None, status: str | None = None,
                 side: Side | None = None) -> None:
        self._stream = stream if stream is not None else sys.stdout
        # A line above the footer (the emulator's lamps), None: no such line. Drawn when the terminal
        # has a line to spare: it is not part of the size the box needs.
        self.status = status
        self._size = (int(size[0]), int(size[1]))
        self.footer = footer
        self._started = False
        self._lock = threading.Lock()
        self._dim = False
        self._last: Image.Image | None = None
        # (columns, lines) of the terminal now, or None to draw without checking (a pipe, a test).
        self._terminal_size = terminal_size
        self._drawn_for: tuple[int, int] | None = None
        self._watch = None  # a hw.winch.ResizeWatch once follow_resize() runs
        self.side = side  # a panel drawn beside the frame, or under it (None: none); not part of the size needed

    @property
    def size(self) -> tuple[int, int]:
        return self._size

    @property
    def needed_size(self) -> tuple[int, int]:
        """Terminal (columns, lines) needed: the frame, its border and the footer."""
        footer_lines = len(self.footer.splitlines()) if self.footer else 0
        return self._size[0] + 2, self._size[1] // 2 + 2 + footer_lines

    @property
    def half_size(self) -> tuple[int, int]:
        """Terminal (columns, lines) needed for the frame at half width, the footer broken to that width."""
        return self._size[0] // 2 + 2, self._size[1] // 2 + 2 + len(self._footer_lines(self._size[0] // 2 + 2))

    def _footer_lines(self, width: int | None) -> list[str]:
        """The footer's lines: cut to ``width`` (the whole frame's), or broken at words to it (half width)."""
        lines = self.footer.splitlines() if self.footer else []
        if width is None:
            return [line[: self._size[0] + 2] for line in lines]
        return [part for line in lines for part in textwrap.wrap(line, width) or [""]]

    def show(self, image: Image.Image) -> None:
        """Draw the frame over the previous one; one write, one flush."""
        if image.size != self._size:
            raise ValueError(f"frame is {image.size[0]}x{image.size[1]}, the display is {self._size[0]}x{self._size[1]}")
        with self._lock:
            self._last = image
            self._draw()

    def redraw(self) -> None:
        """Draw the last frame again for the terminal's size now (after a resize)."""
        with self._lock:
            if self._last is not None:
                self._draw()

    def too_small_note(self, cols: int, lines: int) -> str:
        """The one line shown instead of the frame in a terminal too small for it."""
        need_cols, need_lines = self.needed_size
        half_cols, half_lines = self.half_size
        return (f"terminal {cols}x{lines} is too small: the box needs {need_cols}x{need_lines}, "
                f"or {half_cols}x{half_lines} at half width (make it bigger)")

    def fit(self, cols: int, lines: int) -> str | None:
        """How the frame is drawn in a terminal of ``cols`` x ``lines``: "whole", "half" (width), or None."""
        for name, (need_cols, need_lines) in (("whole", self.needed_size), ("half", self.half_size)):
            if cols >= need_cols and lines >= need_lines:
                return name
        return None

    def _draw(self) -> None:
        """Write the last frame (the lock is held): whole, or the one-line note when it cannot fit."""
        now = self._terminal_size() if self._terminal_size is not None else None
        fit = "whole" if now is None else self.fit(*now)
        first = "" if self._started else HIDE_CURSOR
        if fit is None:
            # Wrapped rows would be garbage: the note alone, broken at words to the width, on a clean screen.
            lines = textwrap.wrap(self.too_small_note(*now), max(now[0] - 1, 1))[: max(now[1], 1)]
            text = first + CLEAR_SCREEN + CURSOR_HOME + "\n".join(lines)
        else:
            # A new size may leave fragments of the old frame or the note: start clean.
            clear = not self._started or now != self._drawn_for
            text = first + (CLEAR_SCREEN if clear else "") + self._frame_text(self._last, half=fit == "half")
        self._drawn_for = now
        self._started = True
        self._stream.write(text)
        self._stream.flush()

    def _frame_text(self, image: Image.Image, half: bool = False) -> str:
        width = self._size[0] // 2 if half else self._size[0]
        faint, normal = (FAINT, NORMAL) if self._dim else ("", "")
        rows = quadrant_rows(image) if half else frame_to_text(image)
        block = ["┌" + "─" * width + "┐", *(f"│{faint}{row}{normal}│" for row in rows), "└" + "─" * width + "┘"]
        now = self._terminal_size() if self._terminal_size is not None else None
        below = []
        need_lines = (self.half_size if half else self.needed_size)[1]
        if self.status is not None and (now is None or now[1] > need_lines):
            below.append(self.status)
        below.extend(self._footer_lines(width + 2 if half else None))
        beside, under = self._side_lines(width + 2, len(block), len(block) + len(below), now)
        for i, line in enumerate(beside):
            block[i] += " " * SIDE_GAP + line
        if self.side is not None:  # a panel's old lines, beside or under, are cleared
            block = [line + CLEAR_TO_EOL for line in block]
        else:
            block[-1] += CLEAR_TO_EOL
        lines = block + [line + CLEAR_TO_EOL for line in below + under]
        return CURSOR_HOME + "".join(line + "\n" for line in lines) + (CLEAR_BELOW if self.side is not None else "")

    def _side_lines(self, block_cols: int, block_lines: int, used_lines: int,
                    now: tuple[int, int] | None) -> tuple[list[str], list[str]]:
        """The side panel's lines (beside the frame, under everything), for the terminal's size ``now``."""
        if self.side is None:
            return [], []
        free_cols = SIDE_COLS if now is None else now[0] - block_cols - SIDE_GAP - 1  # the last column left free
        if free_cols >= SIDE_MIN:
            return self.side(min(free_cols, SIDE_COLS), block_lines)[:block_lines], []
        free_lines = min(now[1] - used_lines - 1, SIDE_UNDER)
        if free_lines < 1:
            return [], []
        return [], self.side(min(now[0] - 1, SIDE_COLS), free_lines)[:free_lines]

    def set_side(self, side: Side | None) -> None:
        """Draw ``side`` beside the frame from now on (None: no panel)."""
        with self._lock:
            self.side = side
            if self._last is not None:
                self._draw()

    def set_status(self, text: str) -> None:
        """Change the status line (the lamps) and draw it with the last frame."""
        with self._lock:
            self.status = text
            if self._last is not None:
                self._draw()

    def follow_resize(self) -> None:
        """Redraw whenever the terminal is resized (SIGWINCH); call from the main thread. ``close`` stops it."""
        if self._watch is None:
            from hw.winch import ResizeWatch

            self._watch = ResizeWatch(self.redraw)

    def clear(self) -> None:
        """Draw a blank frame."""
        self.show(Image.new("1", self._size))

    def dim(self, on: bool) -> None:
        """Draw the frame faint (the OLED's low brightness), or normal again."""
        if self._dim != bool(on):
            self._dim = bool(on)
            if self._last is not None:
                self.show(self._last)

    def keep_last_frame(self) -> None:
        """Nothing to do: the last frame stays in the terminal."""

    def close(self) -> None:
        """Give the cursor back; the last frame stays on screen."""
        watch, self._watch = self._watch, None
        if watch is not None:
            watch.close()
        with self._lock:
            if self._started:
                self._stream.write(SHOW_CURSOR)
                self._stream.flush()
                self._started = False

    def __enter__(self) -> TerminalDisplay:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()
