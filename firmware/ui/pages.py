"""Instructions too long for one screen, cut into pages the renderer can show whole."""

from __future__ import annotations

import textwrap

LINE_WIDTH = 21  # characters of the medium font across the screen
LINES_PER_PAGE = 4


def paginate(big: str | None, lines: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The lines word-wrapped and cut into pages; a ``big`` line takes two lines of the first page."""
    wrapped = [part for line in lines for part in (textwrap.wrap(line, LINE_WIDTH) or [""])]
    per_page = LINES_PER_PAGE - 2 if big else LINES_PER_PAGE
    return [tuple(wrapped[i:i + per_page]) for i in range(0, max(1, len(wrapped)), per_page)]
