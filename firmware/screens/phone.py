"""The Phone screen: a QR code of the pairing page's address (its one-time code in it) and the code beside it.

The QR code is made by ``segno`` (pure Python) from the view's address and
drawn module by module as the phone's camera wants it: dark modules on a lit
square with a lit quiet zone around, so the OLED's black glass is never
mistaken for a module. Each module is as many pixels as the screen's height
allows (two on 64 rows, one on 32). Beside it: the six digits, large when
they fit, then the view's lines and what the buttons do.
"""

from __future__ import annotations

import functools

from ..views import PhoneView
from .kit import INK_TOP, PITCH, Canvas, width_of, wrap_all


@functools.lru_cache(maxsize=4)
def modules(address: str) -> tuple[tuple[bool, ...], ...]:
    """The QR code of ``address`` as rows of modules (True: dark), without its quiet zone."""
    import segno

    code = segno.make(address, error="l", micro=False, boost_error=False)
    return tuple(tuple(bool(m) for m in row) for row in code.matrix)


def draw_qr(c: Canvas, address: str, x: int, y: int, room: int) -> int:
    """The QR code of ``address`` in a lit square of at most ``room`` pixels from (x, y); returns its width."""
    rows = modules(address)
    n = len(rows)
    # the biggest modules that fit, then the wider quiet zone of the two at that size
    scale, border = max((room // (n + 2 * b), b) for b in (2, 1))
    if scale < 1:
        c.cut(address)
        return 0
    side = (n + 2 * border) * scale
    c.draw.rectangle((x, y, x + side - 1, y + side - 1), fill=c.lit)
    for r, row in enumerate(rows):
        for k, dark in enumerate(row):
            if dark:
                left, top = x + (k + border) * scale, y + (r + border) * scale
                c.draw.rectangle((left, top, left + scale - 1, top + scale - 1), fill=0)
    return side


def _head(c: Canvas, v: PhoneView) -> tuple[int, int]:
    """The QR code and the code (or the title, before there is one); the column's left edge and next row."""
    side = draw_qr(c, v.address, 0, 0, c.height) if v.address else 0
    x = side + 3 if side else 0
    text, fonts = (v.code, ("large", "medium", "small")) if v.code else (v.title, ("medium", "small"))
    font_name = next((f for f in fonts if width_of(text, f) <= c.width - x), "small")
    c.text((x, 1 - INK_TOP[font_name]), text, font_name)
    return x, PITCH[font_name] + 3


def phone(c: Canvas, v: PhoneView) -> None:
    """The QR code on the left, as tall as the screen; the code and the words in the column on its right.

    What the buttons do is at the column's foot; on a screen too short for the words as well (32 rows) they
    come on the pages after it, the QR code and the code staying where they are.
    """
    x, y = _head(c, v)
    width = c.width - x
    rest = wrap_all(v.lines, width, "small")
    room = max(0, (c.height - y) // PITCH["small"])
    keys = [k.replace(":", " ") for k in v.keys.split()]
    if v.alert:
        # A notice ("Settings from a phone") stands where the legend stands, until the next press: wrapped to
        # the column, never cut (issue 47, item 6: "휴대폰에서 유.."); where the column's foot cannot hold it
        # (32 rows), it comes first in the column's lines, over as many pages as they take.
        notice = wrap_all([v.alert], width, "small")
        keys, rest = (notice, rest) if len(notice) <= room else ([], notice + rest)
    above = max(0, room - len(keys))
    c.lines(y, rest[:above], "small", PITCH["small"], x=x)
    c.lines(c.height - len(keys) * PITCH["small"], keys, "small", PITCH["small"], x=x)
    left = rest[above:]
    while left and room:
        c.new_page()
        _head(c, v)
        c.lines(y, left[:room], "small", PITCH["small"], x=x)
        left = left[room:]
