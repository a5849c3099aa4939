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

Text is NFC-normalised first (a decomposed "é" or a jamo sequence draws as
its one composed glyph) and invisible format characters (zero-width joiners,
variation selectors) are dropped. Glyph files load on first use and inflate a
block of glyphs when one of them is first drawn.
"""

from __future__ import annotations

import functools
import unicodedata
from importlib import resources

from PIL import Image, ImageDraw

from hw import fonts
from hw.fonts.packed import GlyphFile

#: Spleen size name -> the packed Galmuri file drawn in that size's cell.
GALMURI = {"small": "galmuri7", "medium": "galmuri9", "large": "galmuri11", "huge": "galmuri14"}
SIZES = tuple(GALMURI)


def _check(size: str) -> None:
    if size not in GALMURI:
        raise ValueError(f"unknown text size {size!r}: use one of {', '.join(SIZES)}")


@functools.cache
def galmuri(size: str) -> GlyphFile:
    """The packed Galmuri glyphs for a Spleen size (loaded once)."""
    _check(size)
    return GlyphFile((resources.files("hw.fonts") / f"{GALMURI[size]}.glyphs").read_bytes())


@functools.cache
def _spleen_chars(size: str) -> frozenset[str]:
    """The characters Spleen really draws in ``size``: with ink, or a space (its empty cells fall through)."""
    width, height = fonts.CELLS[size]
    chars = [ch if ch.isprintable() else " " for ch in map(chr, range(256))]
    strip = Image.new("1", (width * len(chars), height))
    ImageDraw.Draw(strip).text((0, 0), "".join(chars), font=fonts.load(size), fill=1)
    # each cell averaged to one pixel (in floats, so a single inked pixel still counts): one pass, not 256 crops
    cells = strip.convert("F").resize((len(chars), 1), Image.Resampling.BOX)
    return frozenset(ch for i, ch in enumerate(chars) if ch in (" ", "\xa0") or cells.getpixel((i, 0)) > 0)


def _clean(text: str) -> str:
    if text.isascii():
        return text
    text = unicodedata.normalize("NFC", text)
    return "".join(ch for ch in text if unicodedata.category(ch) != "Cf" and not 0xFE00 <= ord(ch) <= 0xFE0F)


#: Distinct texts whose runs and widths are kept (a game shows a few hundred; a bound keeps memory flat).
CACHED_TEXTS = 1024


@functools.lru_cache(maxsize=CACHED_TEXTS)
def _runs(text: str, size: str) -> tuple[tuple[str, str], ...]:
    """``text`` as runs of ("spleen" | "galmuri" | "missing", characters); remembered per text."""
    spleen = _spleen_chars(size)
    cjk = galmuri(size)
    runs: list[tuple[str, str]] = []
    for ch in _clean(text):
        kind = "spleen" if ch in spleen else ("galmuri" if ord(ch) in cjk else "missing")
        if runs and runs[-1][0] == kind:
            runs[-1] = (kind, runs[-1][1] + ch)
        else:
            runs.append((kind, ch))
    return tuple(runs)


def _plain(text: str) -> bool:
    """Only characters Spleen draws (the common case, measured without a glyph lookup)."""
    return text.isascii() and text.isprintable()


def text_width(text: str, size: str) -> int:
    """Width in pixels of ``text`` drawn by :func:`draw_text` in ``size``."""
    _check(size)
    if _plain(text):
        return len(text) * fonts.CELLS[size][0]
    return _mixed_width(text, size)


@functools.lru_cache(maxsize=CACHED_TEXTS)
def _mixed_width(text: str, size: str) -> int:
    """The width of a text that is not plain ASCII, remembered: screens measure the same texts every frame."""
    cell = fonts.CELLS[size][0]
    total = 0
    cjk = galmuri(size)
    for kind, chars in _runs(text, size):
        if kind == "galmuri":
            total += sum(cjk.advance(ord(ch)) for ch in chars)
        else:
            total += len(chars) * cell
    return total


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


# -- fitting and wrapping by measured width ------------------------------------

#: Characters a line must not start with (Japanese line-breaking rules, and closing ASCII punctuation).
NO_BREAK_BEFORE = frozenset("、。，．・ー：；！？」』）〕】〉》ゝゞヽヾ々ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ!),.:;?%")
#: Characters a line must not end with (opening brackets).
NO_BREAK_AFTER = frozenset("「『（〔【〈《(")


def _breaks_anywhere(ch: str) -> bool:
    """Kana, kanji, CJK punctuation, full-width forms: a line may break beside them without a space.

    Hangul is not among them: Korean, like English, breaks between words.
    """
    cp = ord(ch)
    return 0x3000 <= cp <= 0x30FF or 0x3400 <= cp <= 0x9FFF or 0xF900 <= cp <= 0xFAFF or 0xFF00 <= cp <= 0xFFEF


def _pieces(word: str) -> list[str]:
    """A space-free word cut where a line may break inside it (between Japanese characters)."""
    pieces = [word[:1]]
    for a, b in zip(word, word[1:]):
        if (_breaks_anywhere(a) or _breaks_anywhere(b)) and b not in NO_BREAK_BEFORE and a not in NO_BREAK_AFTER:
            pieces.append(b)
        else:
            pieces[-1] += b
    return pieces


def _longest_prefix(text: str, width: int, size: str) -> int:
    """How many leading characters of ``text`` fit in ``width`` (at least 1)."""
    k = 1
    while k < len(text) and text_width(text[:k + 1], size) <= width:
        k += 1
    return k


def fit(text: str, width: int, size: str) -> str:
    """``text`` cut so it fits ``width`` pixels, ending in ``..``; unchanged when it fits."""
    if text_width(text, size) <= width:
        return text
    dots = text_width("..", size)
    if width < dots + text_width(text[:1], size):
        k = 0
        while k < len(text) and text_width(text[:k + 1], size) <= width:
            k += 1
        return text[:k]
    return text[:_longest_prefix(text, width - dots, size)].rstrip() + ".."


def wrap(text: str, width: int, size: str) -> list[str]:
    """``text`` broken into lines that fit ``width``: at spaces, and between Japanese characters.

    Japanese breaks between any two characters except before closing marks
    (。、」ー small kana ...) and after opening ones; a word longer than a line
    is split. For plain English this is ordinary word wrapping. A last line
    of one character ("…赤の" / "駒", "…빨강" / "말") takes the word before it
    along when both fit a line ("…6の列に" / "赤の駒").
    """
    lines: list[list[tuple[str, str]]] = []  # each line's pieces, with the space before each (" " or "")
    line: list[tuple[str, str]] = []
    for word in text.split():
        for i, piece in enumerate(_pieces(word)):
            sep = " " if i == 0 else ""
            if line and text_width(_joined(line + [(sep, piece)]), size) <= width:
                line.append((sep, piece))
                continue
            if line:
                lines.append(line)
            while len(piece) > 1 and text_width(piece, size) > width:
                k = _longest_prefix(piece, width, size)
                lines.append([(sep, piece[:k])])
                piece, sep = piece[k:], ""
            line = [(sep, piece)]
    if line or not lines:
        lines.append(line)
    if len(lines) > 1 and _lone(_joined(lines[-1])) and len(lines[-2]) > 1:
        # the last word of the line before (from its last space), or its last piece when the line is one word
        start = max((k for k, (sep, _) in enumerate(lines[-2]) if sep and k), default=len(lines[-2]) - 1)
        moved = lines[-2][start:] + lines[-1]
        if text_width(_joined(moved), size) <= width:
            lines[-2:] = [lines[-2][:start], moved]
    return [_joined(pieces) for pieces in lines]


def _joined(pieces: list[tuple[str, str]]) -> str:
    """A line's pieces as text: each after its space, but the first."""
    return "".join((sep if k else "") + piece for k, (sep, piece) in enumerate(pieces))


def _lone(line: str) -> bool:
    """A line of one letter, digit or character, marks aside: "駒", "말", "駒。"."""
    return sum(ch.isalnum() for ch in line) <= 1


# -- what can be drawn ---------------------------------------------------------


def undrawable(text: str, sizes: tuple[str, ...] = SIZES) -> str | None:
    """The first character of ``text`` that :func:`draw_text` would draw as a box in one of ``sizes``, or None.

    Characters ``draw_text`` drops (format characters, variation selectors)
    are not drawn at all, so they are never the answer.
    """
    if _plain(text):
        return None
    for size in sizes:
        _check(size)
        for kind, chars in _runs(text, size):
            if kind == "missing":
                return chars[0]
    return None
