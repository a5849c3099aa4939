"""The screen's geometry and its pages of text: what the UI needs to know of a screen, without drawing.

A :class:`Layout` is a screen size the box has screens for (its pixels, how
a pixel is lit, how many lines of instructions a page shows) and its
paginator (:meth:`Layout.paginate`), which the UI is handed at boot to know
how many pages A/B turn through. Text is measured as the screen draws it
(:mod:`hw.textfit`) but nothing here draws: the renderer
(:mod:`firmware.screens`, which re-exports these) paints, and a reader that
only needs the box's words (the web view) never loads Pillow.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

from hw import fonts, textfit
from hw.panels import size_name

WIDTH, HEIGHT = 128, 64
CELLS = fonts.CELLS


@dataclass(frozen=True)
class Layout:
    """A screen size the box has screens for: its pixels, how a pixel is lit, and its pages of text.

    ``mode`` is the Pillow mode of the frames ("1": lit = 1; "L": grey levels,
    lit = 255), so a painter draws ``fill=c.lit`` and, on grey screens, the
    levels between. ``lines_per_page`` is how many lines of instructions (in
    the medium font) one screen shows with its legend, and ``big_lines`` how
    many of them a ``big`` line (the instructions' headline) takes:
    :meth:`paginate` cuts the instructions into pages this size shows whole.
    """

    width: int
    height: int
    mode: str = "1"
    lines_per_page: int = 4
    big_lines: int = 2

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)

    @property
    def name(self) -> str:
        return size_name(self.size)

    @property
    def lit(self) -> int:
        return 255 if self.mode == "L" else 1

    @property
    def grey(self) -> int:
        """A dimmer ink (other players' pieces, a highlight's fill): a grey level, or lit on a 1-bit screen."""
        return GREY if self.mode == "L" else 1

    @property
    def line_chars(self) -> int:
        """Latin characters of the medium font across the screen."""
        return self.width // CELLS["medium"][0]

    def paginate(self, big: str | None, lines: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
        """The lines word-wrapped to this screen's width and cut into pages it shows whole (at least one);
        a ``big`` line (on the first page) takes :attr:`big_lines` lines of every page.

        Pure: the UI is handed this method at boot (``ui.boot(..., paginate=...)``) to know how many
        pages A/B turn through and which one ROLL finishes on; it never sees a pixel.
        """
        per_page = max(1, self.lines_per_page - self.big_lines) if big else self.lines_per_page
        pages: list[list[str]] = [[]]
        for line in lines:
            parts = self._wrap(line) or [""]
            # A line wrapped in two stays on one page ("Take off 4: Blue, Green," / "Yellow."): its tail alone on
            # the next page would have no heading. Only a line longer than a whole page is cut.
            if pages[-1] and len(pages[-1]) + len(parts) > per_page and len(parts) <= per_page:
                pages.append([])
            for part in parts:
                if len(pages[-1]) == per_page:
                    pages.append([])
                pages[-1].append(part)
        return tuple(tuple(page) for page in pages)

    def _wrap(self, line: str) -> list[str]:
        """A line broken to the width: Latin by characters (a cell each), other scripts by drawn width."""
        if line.isascii():
            return textwrap.wrap(line, self.line_chars)
        return [part for part in textfit.wrap(line, self.width, "medium") if part]


#: The grey level of dimmer ink on a grey screen: level 6 of a 4-bit panel's 15 (6 x 17), exact on the glass.
GREY = 0x66

#: The 0.96-inch 128x64 module: the box's first screen, and the size every other layout starts from.
STANDARD = Layout(WIDTH, HEIGHT)

