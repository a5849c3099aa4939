"""Mixed-script text on the 1-bit frame: Spleen for Latin, Galmuri for Hangul, kana, kanji and the rest.

``draw_text(target, (x, y), text, size)`` draws like ``ImageDraw.text`` with
the Spleen font of ``size`` ("small", "medium", "large", "huge", see
:mod:`hw.fonts`): ``(x, y)`` is the top left of the Spleen cell, and every
other glyph comes from the Galmuri size drawn for that cell (same height, same
baseline; a Hangul syllable is 8, 10, 12 or 15 pixels wide against Spleen's
5, 6, 8 or 12). A character neither font has is drawn as a hollow box one
Spleen cell wide, so a strange name shows as boxes instead of vanishing or
crashing. ``text_width`` measures exactly what ``draw_text`` draws, and
``fit`` / ``wrap`` cut and break text by that measure (Japanese breaks
between characters, Korean and English at spaces), so a renderer written for
fixed Spleen cells swaps its ``len(text) * cell`` for these.

Measuring, cutting and wrapping live in :mod:`hw.textfit`, without Pillow
(the web view measures the box's lines and never loads it), and are
re-exported here. Text is NFC-normalised first (a decomposed "é" or a jamo
sequence draws as its one composed glyph) and invisible format characters
(zero-width joiners, variation selectors) are dropped. Glyph files load on
first use and inflate a block of glyphs when one of them is first drawn.
"""

from __future__ import annotations

import functools

from PIL import Image, ImageDraw

from hw import fonts
from hw.textfit import (CACHED_TEXTS, GALMURI, NO_BREAK_AFTER, NO_BREAK_BEFORE, SIZES, fit, galmuri,  # noqa: F401
                        text_width, undrawable, wrap)
from hw.textfit import check_size as _check
from hw.textfit import plain as _plain
from hw.textfit import runs as _runs


def drawn_spleen_chars(size: str) -> frozenset[str]:
    """The characters Spleen draws in ``size`` with ink, or a space, found by drawing its 256 cells.

    What :data:`hw.fonts.inked.INKED` records (``build_fonts.py --inked`` writes it from this, and a test
    checks the two agree), so that measuring never needs Pillow.
    """
    _check(size)
    width, height = fonts.CELLS[size]
    chars = [ch if ch.isprintable() else " " for ch in map(chr, range(256))]
    strip = Image.new("1", (width * len(chars), height))
    ImageDraw.Draw(strip).text((0, 0), "".join(chars), font=fonts.load(size), fill=1)
    # each cell averaged to one pixel (in floats, so a single inked pixel still counts): one pass, not 256 crops
    cells = strip.convert("F").resize((len(chars), 1), Image.Resampling.BOX)
    return frozenset(ch for i, ch in enumerate(chars) if ch in (" ", "\xa0") or cells.getpixel((i, 0)) > 0)


def _missing_box(draw: ImageDraw.ImageDraw, x: int, y: int, size: str, fill: int) -> None:
    """A hollow box in one Spleen cell: from cap height down to the baseline, a pixel clear each side."""
    width, height = fonts.CELLS[size]
    top = max(0, height // 8)
    bottom = top + height * 3 // 4 - 1
    draw.rectangle((x, y + top, x + width - 2, y + bottom), outline=fill)


def draw_text(target: Image.Image | ImageDraw.ImageDraw, xy: tuple[int, int], text: str, size: str,
              fill: int = 1) -> int:
    """Draw ``text`` with its top-left cell corner at ``xy``; returns the x just after it."""
    _check(size)
    draw = ImageDraw.Draw(target) if isinstance(target, Image.Image) else target
    x, y = xy
    if _plain(text):
        draw.text((x, y), text, font=fonts.load(size), fill=fill)
        return x + len(text) * fonts.CELLS[size][0]
    width, image = _text_image(text, size)
    if image is not None:
        draw.bitmap((x, y), image, fill=fill)
    return x + width


@functools.lru_cache(maxsize=CACHED_TEXTS)
def _text_image(text: str, size: str) -> tuple[int, Image.Image | None]:
    """A mixed-script text drawn once into a 1-bit image of its width and one cell's height, and that width.

    Remembered per text, so a screen drawn again (every press redraws its
    titles and legend) costs one bitmap call per text, as a plain one does.
    """
    width = text_width(text, size)
    if not width:
        return 0, None
    cell_w, cell_h = fonts.CELLS[size]
    cjk = galmuri(size)
    image = Image.new("1", (width, max(cell_h, cjk.height)))
    draw = ImageDraw.Draw(image)
    font = fonts.load(size)
    x = 0
    for kind, chars in _runs(text, size):
        if kind == "spleen":
            draw.text((x, 0), chars, font=font, fill=1)
            x += len(chars) * cell_w
        elif kind == "galmuri":
            for ch in chars:
                advance, glyph = cjk.glyph(ord(ch))
                if glyph is not None:
                    image.paste(glyph, (x, 0))
                x += advance
        else:
            for _ in chars:
                _missing_box(draw, x, 0, size, 1)
                x += cell_w
    return width, image
