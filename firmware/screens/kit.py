"""The drawing kit: the frame's geometry, the fonts, text fitting, and the canvas.

Text may mix Latin with Hangul, kana and kanji: it is drawn, measured, cut and
wrapped by :mod:`hw.glyphs` (Spleen cells for Latin, Galmuri glyphs for the
rest), so widths are exact without drawing and plain Latin text draws exactly
as with Spleen alone. :func:`fit` and :func:`wrap` are pure: they only
compute strings. A :class:`Canvas` is the one surface a screen is painted on;
it draws text cut to fit and keeps, for that one frame, the list of texts it
had to cut (:attr:`Canvas.cuts`), so a caller can check that a view fits
without any state shared between frames, and every text it drew, where and in
which font (:attr:`Canvas.texts`), so a test can find texts that run off the
page or into each other from the renderer's own record. It also carries the words of the
view's language (:func:`firmware.words.language`) for the few words a screen
adds around the view's own texts.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from PIL import Image, ImageDraw

from hw import fonts, glyphs

from .. import words
from ..layout import GREY, HEIGHT, STANDARD, WIDTH, Layout  # noqa: F401  (the renderer's names for them)

BODY_TOP = 11  # first body row, below the top bar and its rule
BODY_BOTTOM = 54  # last body row, above the legend
LEGEND_Y = 56
ROW_PITCH = 11  # a row of a list in the medium font

CELLS = fonts.CELLS


#: Vertical space a line of each font needs (ink rows, without the empty cell margins).
PITCH = {"small": 8, "medium": 11, "large": 14, "huge": 20}
#: Offset from a cell's top to its first inked row.
INK_TOP = {"small": 0, "medium": 1, "large": 2, "huge": 4}


@functools.cache
def font(name: str):
    """The loaded bitmap font called ``name`` ("small", "medium", "large", "huge")."""
    return fonts.load(name)


def width_of(text: str, font_name: str) -> int:
    """Width in pixels of ``text`` as drawn: a Spleen cell per Latin character, other scripts (Hangul,
    kana, kanji...) as their Galmuri glyphs are wide (:mod:`hw.glyphs`)."""
    return glyphs.text_width(text, font_name)


def fit(text: str, width: int, font_name: str) -> str:
    """``text`` cut (ending in ``..``) so it fits ``width`` pixels; unchanged when it fits."""
    return glyphs.fit(text, width, font_name)


def cut_names(lines: tuple[str, ...], names, width: int, font_name: str,
              enough=lambda lines: False) -> tuple[tuple[str, ...], list[str]]:
    """``lines`` with each of ``names`` in them, the longest first, cut to half of ``width`` where it is longer,
    until ``enough(lines)``; and the names that were cut (for :meth:`Canvas.cut`).

    How a sentence about players keeps its words when a name is too long for it: "Maximili.. stopped.".
    """
    cut = []
    for name in sorted(dict.fromkeys(n for n in names if n), key=len, reverse=True):  # ties: in the order given
        if enough(lines):
            break
        short = fit(name, width // 2, font_name)
        if short != name and any(name in line for line in lines):
            lines = tuple(line.replace(name, short) for line in lines)
            cut.append(name)
    return lines, cut


def wrap(text: str, width: int, font_name: str) -> list[str]:
    """Word-wrap ``text`` into lines that fit ``width`` (Japanese between characters); a too-long word is split."""
    return glyphs.wrap(text, width, font_name)


def wrap_all(lines: tuple[str, ...] | list[str], width: int, font_name: str) -> list[str]:
    """Each line word-wrapped, in order."""
    out: list[str] = []
    for line in lines:
        out.extend(wrap(line, width, font_name))
    return out


class Drawn(NamedTuple):
    """One text as the canvas drew it: on which page, its top-left cell corner, the text, its font, its ink."""

    page: int
    x: int
    y: int
    text: str
    font: str
    fill: int


class Canvas:
    """One frame being painted: Pillow's ``draw`` plus the texts cut to fit on this frame.

    A frame may be more than one page (a small screen showing a long view in
    turns): :meth:`new_page` starts the next one, and :attr:`pages` holds them
    all; ``image`` and ``draw`` are always the page being painted.
    """

    def __init__(self, layout: Layout = STANDARD, lang: str = "en") -> None:
        self.layout = layout
        self.width, self.height, self.lit, self.grey = layout.width, layout.height, layout.lit, layout.grey
        # a highlighted choice: inverted on a 1-bit screen, lit ink on a grey fill on a grey one
        self.mark_fill, self.mark_ink = (layout.grey, layout.lit) if layout.mode == "L" else (1, 0)
        self.pages: list[Image.Image] = []
        self.new_page()
        self.cuts: list[str] = []
        self.texts: list[Drawn] = []
        self.words = words.language(lang)

    def new_page(self) -> None:
        """Start painting a fresh, dark page after the ones painted so far."""
        self.image = Image.new(self.layout.mode, self.layout.size, 0)
        self.draw = ImageDraw.Draw(self.image)
        self.pages.append(self.image)

    def cut(self, text: str) -> None:
        """Note that ``text`` (or a part of the view) did not fit and was cut or dropped."""
        self.cuts.append(text)

    def fit(self, text: str, width: int, font_name: str) -> str:
        """:func:`fit`, noting a cut."""
        fitted = fit(text, width, font_name)
        if fitted != text:
            self.cut(text)
        return fitted

    def text(self, xy: tuple[int, int], text: str, font_name: str, fill: int | None = None,
             width: int | None = None) -> None:
        """Draw ``text`` at ``xy``, cut to ``width`` (default: to the right edge)."""
        x, y = xy
        if width is None:
            width = self.width - x
        self.raw((x, y), self.fit(text, width, font_name), font_name, fill)

    def raw(self, xy: tuple[int, int], text: str, font_name: str, fill: int | None = None) -> None:
        """Draw ``text`` at ``xy`` as it is (the caller made sure it fits), and note it in :attr:`texts`."""
        self.texts.append(Drawn(len(self.pages) - 1, xy[0], xy[1], text, font_name, self._ink(fill)))
        glyphs.draw_text(self.draw, xy, text, font_name, self._ink(fill))

    def center(self, y: int, text: str, font_name: str, fill: int | None = None, x0: int = 0,
               x1: int | None = None) -> None:
        """Draw ``text`` centred between ``x0`` and ``x1`` (default: the right edge), cut to that width."""
        if x1 is None:
            x1 = self.width
        text = self.fit(text, x1 - x0, font_name)
        x = x0 + (x1 - x0 - width_of(text, font_name)) // 2
        self.raw((x, y), text, font_name, fill)

    def headline(self, top: int, text: str) -> str:
        """``text`` centred with its ink from row ``top``: in the large font when it fits the width, else
        the medium one; returns the font used."""
        font_name = "large" if width_of(text, "large") <= self.width else "medium"
        self.center(top - INK_TOP[font_name], text, font_name)
        return font_name

    def _ink(self, fill: int | None) -> int:
        """``fill``, or lit when none is given."""
        return self.lit if fill is None else fill

    def lines(self, y: int, lines: list[str], font_name: str, pitch: int, x: int = 0, fill: int | None = None) -> int:
        """Draw ``lines`` from row ``y`` down, ``pitch`` apart; returns the row after the last."""
        for line in lines:
            self.text((x, y), line, font_name, fill)
            y += pitch
        return y
