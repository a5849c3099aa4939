"""Mixed-script text measured, cut and wrapped exactly as :mod:`hw.glyphs` draws it, without Pillow.

Spleen draws Latin (the characters :data:`hw.fonts.inked.INKED` lists for
each size), Galmuri the rest (Hangul, kana, kanji: their advances come from
the packed glyph files' index, no bitmap inflated), and a character neither
has is one Spleen cell wide (the hollow box :func:`hw.glyphs.draw_text`
draws). :func:`text_width` measures, :func:`fit` and :func:`wrap` cut and
break text by that measure (Japanese breaks between characters, Korean and
English at spaces), :func:`undrawable` finds a character that would be a box.

Only the standard library: a reader of the box's words that never draws (the
web view) measures the box's lines here and never loads Pillow.
"""

from __future__ import annotations

import functools
import unicodedata
from importlib import resources

from hw import fonts
from hw.fonts.inked import INKED
from hw.fonts.packed import GlyphFile

#: Spleen size name -> the packed Galmuri file drawn in that size's cell.
GALMURI = {"small": "galmuri7", "medium": "galmuri9", "large": "galmuri11", "huge": "galmuri14"}
SIZES = tuple(GALMURI)


def check_size(size: str) -> None:
    if size not in GALMURI:
        raise ValueError(f"unknown text size {size!r}: use one of {', '.join(SIZES)}")


@functools.cache
def galmuri(size: str) -> GlyphFile:
    """The packed Galmuri glyphs for a Spleen size (loaded once)."""
    check_size(size)
    return GlyphFile((resources.files("hw.fonts") / f"{GALMURI[size]}.glyphs").read_bytes())


@functools.cache
def spleen_chars(size: str) -> frozenset[str]:
    """The characters Spleen really draws in ``size``: with ink, or a space (its empty cells fall through)."""
    check_size(size)
    return frozenset(chr(cp) for first, last in INKED[size] for cp in range(first, last + 1))


def clean(text: str) -> str:
    """``text`` as it is drawn: NFC-normalised, format characters and variation selectors dropped."""
    if text.isascii():
        return text
    text = unicodedata.normalize("NFC", text)
    return "".join(ch for ch in text if unicodedata.category(ch) != "Cf" and not 0xFE00 <= ord(ch) <= 0xFE0F)


#: Distinct texts whose runs and widths are kept (a game shows a few hundred; a bound keeps memory flat).
CACHED_TEXTS = 1024


@functools.lru_cache(maxsize=CACHED_TEXTS)
def runs(text: str, size: str) -> tuple[tuple[str, str], ...]:
    """``text`` as runs of ("spleen" | "galmuri" | "missing", characters); remembered per text."""
    spleen = spleen_chars(size)
    cjk = galmuri(size)
    found: list[tuple[str, str]] = []
    for ch in clean(text):
        kind = "spleen" if ch in spleen else ("galmuri" if ord(ch) in cjk else "missing")
        if found and found[-1][0] == kind:
            found[-1] = (kind, found[-1][1] + ch)
        else:
            found.append((kind, ch))
    return tuple(found)


def plain(text: str) -> bool:
    """Only characters Spleen draws (the common case, measured without a glyph lookup)."""
    return text.isascii() and text.isprintable()


def text_width(text: str, size: str) -> int:
    """Width in pixels of ``text`` drawn by :func:`hw.glyphs.draw_text` in ``size``."""
    check_size(size)
    if plain(text):
        return len(text) * fonts.CELLS[size][0]
    return _mixed_width(text, size)


@functools.lru_cache(maxsize=CACHED_TEXTS)
def _mixed_width(text: str, size: str) -> int:
    """The width of a text that is not plain ASCII, remembered: screens measure the same texts every frame."""
    cell = fonts.CELLS[size][0]
    total = 0
    cjk = galmuri(size)
    for kind, chars in runs(text, size):
        if kind == "galmuri":
            total += sum(cjk.advance(ord(ch)) for ch in chars)
        else:
            total += len(chars) * cell
    return total


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
    is split, never leaving one letter of it alone. For plain English this is ordinary word wrapping. A line
    of one character, the last ("…赤の" / "駒", "…빨강" / "말") or one between, takes the word before it
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
                while k > 1 and _lone(piece[k:]) and not _lone(piece[:k - 1]):
                    k -= 1  # never one letter alone on the split word's last line ("A-" too): two there
                lines.append([(sep, piece[:k])])
                piece, sep = piece[k:], ""
            line = [(sep, piece)]
    if line or not lines:
        lines.append(line)
    for at in range(1, len(lines)):
        # A line of one character, the last or one between ("…くくく" / "く" / "→AAAA"), takes the last word of
        # the line before (from its last space), or its last piece when that line is one word.
        before = lines[at - 1]
        if not (_lone(_joined(lines[at])) and len(before) > 1):
            continue
        start = max((k for k, (sep, _) in enumerate(before) if sep and k), default=len(before) - 1)
        while start > 1 and _lone(_joined(before[start:] + lines[at])):
            start -= 1  # the piece taken was a mark ("→" before "く"): one more, so the line says something
        moved = before[start:] + lines[at]
        if text_width(_joined(moved), size) <= width:
            lines[at - 1:at + 1] = [before[:start], moved]
    return [_joined(pieces) for pieces in lines]


def _joined(pieces: list[tuple[str, str]]) -> str:
    """A line's pieces as text: each after its space, but the first."""
    return "".join((sep if k else "") + piece for k, (sep, piece) in enumerate(pieces))


def _lone(line: str) -> bool:
    """A line of one letter, digit or character, marks aside: "駒", "말", "駒。"."""
    return sum(ch.isalnum() for ch in line) <= 1


# -- what can be drawn ---------------------------------------------------------


def undrawable(text: str, sizes: tuple[str, ...] = SIZES) -> str | None:
    """The first character of ``text`` that :func:`hw.glyphs.draw_text` would draw as a box in one of
    ``sizes``, or None.

    Characters ``draw_text`` drops (format characters, variation selectors)
    are not drawn at all, so they are never the answer.
    """
    if plain(text):
        return None
    for size in sizes:
        check_size(size)
        for kind, chars in runs(text, size):
            if kind == "missing":
                return chars[0]
    return None
