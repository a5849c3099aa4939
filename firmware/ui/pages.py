"""Instructions too long for one screen, cut into pages the renderer can show whole."""

from __future__ import annotations

import textwrap

from hw import glyphs

LINE_WIDTH = 21  # Latin characters of the medium font across the screen
LINE_PIXELS = 128  # the screen's width, for lines in other scripts (measured as drawn)
LINES_PER_PAGE = 4


def paginate(big: str | None, lines: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The lines word-wrapped and cut into pages; a ``big`` line takes two lines of the first page."""
    wrapped = [part for line in lines for part in (_wrap(line) or [""])]
    per_page = LINES_PER_PAGE - 2 if big else LINES_PER_PAGE
    return [tuple(wrapped[i:i + per_page]) for i in range(0, max(1, len(wrapped)), per_page)]


def _wrap(line: str) -> list[str]:
    """A line broken to the screen's width: Latin by characters, other scripts by drawn width."""
    if line.isascii():
        return textwrap.wrap(line, LINE_WIDTH)
    return [part for part in glyphs.wrap(line, LINE_PIXELS, "medium") if part]
