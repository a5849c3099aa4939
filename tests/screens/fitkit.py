"""What the property-based fit tests check on a rendered view, from the renderer's own record (issue 22).

:func:`problems` renders a view with :func:`firmware.screens.render_traced`,
which hands back every page, every text the painter had to cut or leave out
(``cuts``) and every text it drew (where, in which font). It returns one line
per problem a player would meet at the table:

- a cut of anything but a name (a cut name is fine: the symbol and colour
  still say who; a cut instruction, number or key legend is not); an alert
  may lose the end of its reason ("NOT SAVED: disk f..") but never its head;
- a text whose ink runs off its page (Pillow would clip it silently);
- two texts whose ink overlaps (the one under is hidden; glyphs that only touch are fine);
- two texts side by side in the same ink with no more room between them than between two letters of a
  word ("9999" beside "9999" reads as "99999999");
- a legend button or its word that is drawn on no page;
- a needed text (an instruction, the bust chance) drawn on no page, or wrapped with a line of one
  character ("…赤の" / "駒"; a line with a whole name on it, "-- 말", is a name and its word).

The ink of each text is found by drawing it alone, as the renderer drew it
(:func:`hw.glyphs.draw_text`), not by guessing from the font's metrics.
"""

from __future__ import annotations

import functools
import re

from PIL import Image, ImageChops

from firmware import words
from firmware.screens import render_traced
from firmware.screens.frame import legend_tokens
from hw import fonts, glyphs

LANGS = ("en", "ja", "ko")


@functools.lru_cache(maxsize=4096)
def _mask(text: str, font: str) -> Image.Image:
    """``text`` drawn alone in ``font`` at (0, 0) with a margin: its lit pixels."""
    width = glyphs.text_width(text, font) + 4
    image = Image.new("1", (width, fonts.CELLS[font][1] + 4), 0)
    glyphs.draw_text(image, (0, 0), text, font, 1)
    return image


def _covers(shared: Image.Image) -> bool:
    """Whether two texts' shared ink hides something: an area of at least 2 x 2 pixels.

    Glyphs that only touch (a "g" descender on the top row of a Hangul line under it) share one row or column.
    """
    box = shared.getbbox()
    return box is not None and box[2] - box[0] >= 2 and box[3] - box[1] >= 2


def _squashed(text: str) -> str:
    return "".join(text.split())


def _drawn(need: str, texts: list[str]) -> bool:
    """Whether ``need`` is drawn: within one text, or as consecutive lines (wrapped), spaces aside."""
    return _lines_of(need, texts) is not None


def _lines_of(need: str, texts: list[str]) -> list[str] | None:
    """The drawn texts that make up ``need``: one text holding it, or its lines in order (wrapped); None: not drawn.

    The lines of a wrapped text may be pages apart, with the header of each page between them.
    """
    need = _squashed(need)
    squashed = [_squashed(t) for t in texts]
    whole = next((t for t, sq in zip(texts, squashed) if need in sq), None)
    if whole is not None:
        return [whole]
    for start in range(len(squashed)):
        rest, used = need, []
        for t, sq in zip(texts[start:], squashed[start:]):
            if sq and rest.startswith(sq):
                rest = rest[len(sq):]
                used.append(t)
            elif sq and sq.startswith(rest):
                rest = ""
                used.append(t)
            if not rest:
                return used
    if need in "".join(squashed):
        return []
    return None


def _only_names(line: str, names) -> bool:
    """Whether every word of ``line`` with a letter in it is a name (a one-character name, "赤", is a whole word)."""
    return all(word in names for word in line.split() if any(ch.isalnum() for ch in word))


def _holds_a_name(line: str, names) -> bool:
    """Whether a word of ``line`` is a whole name: "-- 말" is a name of marks only and its marker, as "Red 말" is,
    not a character left alone by the wrap."""
    return any(word in names for word in line.split())


def lone(line: str) -> bool:
    """A line of one letter, digit or character, marks aside ("駒", "말"): the wrap friction of issue 22."""
    return sum(ch.isalnum() for ch in line) <= 1


def _only_names_hidden(cut: str, names, texts: list[str]) -> bool:
    """Whether all of ``cut`` but its names is drawn somewhere (``texts``: the drawn texts).

    The parts of ``cut`` between the names (beyond bare punctuation) must each be on a page: "Wwww.. stopped."
    hides only a name; "Wwww.." alone, for "{name} stopped.", hides "stopped".
    """
    # a name, or a name the painter already cut ("Maximil..") before putting it in a sentence; spaces aside,
    # as a cut is told with its wrapped lines joined by a space: a name without spaces (kana, Hangul) may
    # have been wrapped inside, "김さ 김김", and its last line dropped
    squashed = sorted({_squashed(n) for n in names if _squashed(n)}, key=len, reverse=True)
    pattern = "|".join([*(re.escape(n) for n in squashed), r"\S*\.\."] if names else [])
    parts = re.split(pattern, _squashed(cut)) if pattern else [cut]
    return all(_drawn(part, texts) for part in parts if _squashed(part).strip(_PUNCTUATION))


_PUNCTUATION = ".,:;!?'\"()-/。、：！？・"


def _alert_head(lang: str) -> str:
    """What an alert must keep whole: "! NOT SAVED:" (its reason may be cut)."""
    return "! " + words.language(lang).not_saved("\0").split("\0")[0].rstrip()


#: Pixels of ink gap at most between two letters of a word (Spleen's and Galmuri's glyphs keep one or two).
LETTER_GAP = 2


def _ink_box(d) -> tuple[int, int, int, int] | None:
    box = _mask(d.text, d.font).getbbox()
    return None if box is None else (d.x + box[0], d.y + box[1], d.x + box[2], d.y + box[3])


def _run_together(drawn, index: int) -> list[str]:
    """Texts on one page, in the same ink and on the same rows, that nearly touch: they read as one word."""
    out = []
    boxes = [(d, _ink_box(d)) for d in drawn]
    boxes = [(d, b) for d, b in boxes if b is not None]
    for i, (d, a) in enumerate(boxes):
        for e, b in boxes[i + 1:]:
            if d.fill != e.fill or min(a[3], b[3]) - max(a[1], b[1]) < 3:
                continue
            left, right = (a, b) if a[0] <= b[0] else (b, a)
            if 0 <= right[0] - left[2] < LETTER_GAP:
                out.append(f"run together on page {index + 1}: {d.text!r} and {e.text!r}")
    return out


def problems(view, size, names=(), needs=(), legend: bool = True, one_of=()) -> list[str]:
    """Every cut, overflow, overlap or missing word of ``view`` at ``size`` that hides a word a player needs.

    ``names``: texts that may be cut (the players' names as the view shows them);
    ``needs``: texts that must be drawn on some page (spaces aside: a line may be wrapped), but for a cut name;
    ``one_of``: ways of saying a thing (each a tuple of texts, such as the bust caption's two lines, or its one
    word): every text of at least one of them drawn as it is, on some page;
    ``legend``: whether the view's legend (``view.keys``) must be drawn.
    """
    traced = render_traced(view, size)
    out = []
    alert = getattr(view, "alert", None)
    drawn_alert = [d.text for d in traced.texts if alert and d.text.startswith("! ")]
    texts = [d.text for d in traced.texts]
    for cut in traced.cuts:
        if _only_names_hidden(cut, names, texts):
            continue
        if alert and cut == "! " + alert and alert.startswith(_alert_head(view.lang)[2:]) \
                and any(t.startswith(_alert_head(view.lang)) for t in drawn_alert):
            continue
        out.append(f"cut: {cut!r}")
    width, height = traced.pages[0].size
    for index, page in enumerate(traced.pages):
        seen = Image.new("1", page.size, 0)
        placed: list[tuple[str, Image.Image]] = []
        for d in (d for d in traced.texts if d.page == index):
            mask = _mask(d.text, d.font)
            box = mask.getbbox()
            if box is None:
                continue
            x0, y0, x1, y1 = d.x + box[0], d.y + box[1], d.x + box[2], d.y + box[3]
            if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
                out.append(f"off page {index + 1}: {d.text!r} ink {(x0, y0, x1, y1)} on {width}x{height}")
            here = Image.new("1", page.size, 0)
            here.paste(mask, (d.x, d.y))
            if _covers(ImageChops.logical_and(seen, here)):
                under = [t for t, other in placed if _covers(ImageChops.logical_and(other, here))]
                out.append(f"overlap on page {index + 1}: {d.text!r} over {under}")
            seen = ImageChops.logical_or(seen, here)
            placed.append((d.text, here))
        out += _run_together([d for d in traced.texts if d.page == index], index)
    shown = {d.text for d in traced.texts}
    keys = getattr(view, "keys", "")
    if legend and keys:
        for key, label in legend_tokens(keys):
            for part in (key, label):
                if part and part not in shown:
                    out.append(f"legend {part!r} of {keys!r} is on no page")
    if one_of and not any(all(text in texts for text in way) for way in one_of):
        out.append(f"none of {list(one_of)!r} is on a page")
    for need in needs:
        lines = _lines_of(need, texts)
        if lines is None and not _only_names_hidden(need, names, texts):
            out.append(f"{need!r} is on no page")
        elif lines and len(lines) > 1 and any(lone(line) and not _only_names(line, names)
                                                   and not _holds_a_name(line, names) for line in lines):
            out.append(f"{need!r} is wrapped with a line of one character: {lines}")
    return out


def who(lang: str, name: str, bot: bool) -> set[str]:
    """A name as it may be cut: as given, and as the top bar marks a box seat's."""
    return {name, words.language(lang).who(name, bot)}
