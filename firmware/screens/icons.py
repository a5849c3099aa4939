"""Small drawn marks shared by several screens: seat symbols, a die, tags, the runner, scroll arrows.

Players are told apart on the mono screen by a drawn symbol (filled
square, hollow square, filled circle, cross), shown next to every colour name
and on the board. The number a view gives is the symbol of the seat's colour
(:func:`firmware.table.seat.symbols`), not the seat's place in turn order.
"""

from __future__ import annotations

from PIL import ImageDraw

from .kit import BODY_BOTTOM, BODY_TOP, CELLS, Canvas, width_of

#: Symbol number (a colour's, see firmware.table.seat.symbols) -> the symbol drawn.
SEAT_SYMBOLS = ("filled square", "hollow square", "filled circle", "cross")


def seat_symbol(seat: int | None) -> str:
    """The name of the symbol drawn for ``seat`` (0..3): "filled square", "hollow square", ..."""
    if seat is None:
        return ""
    return SEAT_SYMBOLS[seat % len(SEAT_SYMBOLS)]


def draw_seat(draw: ImageDraw.ImageDraw, x: int, y: int, seat: int | None, size: int = 7, fill: int = 1) -> None:
    """Draw ``seat``'s symbol in the ``size`` x ``size`` square whose top left is (x, y)."""
    if seat is None:
        return
    kind = seat % len(SEAT_SYMBOLS)
    x1, y1 = x + size - 1, y + size - 1
    if kind == 0:
        draw.rectangle((x, y, x1, y1), fill=fill)
    elif kind == 1:
        draw.rectangle((x, y, x1, y1), outline=fill)
    elif kind == 2:
        if size <= 3:
            draw.point([(x + 1, y), (x, y + 1), (x + 1, y + 1), (x + 2, y + 1), (x + 1, y + 2)], fill=fill)
        else:
            draw.ellipse((x, y, x1, y1), fill=fill)
    else:
        _cross(draw, x, y, x1, y1, size, fill)


def _cross(draw: ImageDraw.ImageDraw, x: int, y: int, x1: int, y1: int, size: int, fill: int) -> None:
    draw.line((x, y, x1, y1), fill=fill)
    draw.line((x, y1, x1, y), fill=fill)
    if size >= 7:  # a bolder cross reads better at arm's length
        draw.line((x + 1, y, x1, y1 - 1), fill=fill)
        draw.line((x, y + 1, x1 - 1, y1), fill=fill)
        draw.line((x + 1, y1, x1, y + 1), fill=fill)
        draw.line((x, y1 - 1, x1 - 1, y), fill=fill)


def die(c: Canvas, cx: int, y: int, value: int) -> None:
    """One die: a medium digit in a rounded box 16 wide, 12 tall, centred on ``cx``."""
    c.draw.rounded_rectangle((cx - 8, y, cx + 7, y + 11), radius=3, outline=c.lit)
    c.raw((cx - 3, y + 1), str(value), "medium")


def column_tag(c: Canvas, x: int, y: int, column: int) -> None:
    """A column number in the large font, inverted in a 20 x 12 box."""
    c.draw.rounded_rectangle((x, y, x + 19, y + 11), radius=2, fill=c.lit)
    text = str(column)
    c.raw((x + (20 - width_of(text, "large")) // 2, y - 1), text, "large", fill=0)


def claim_tags(c: Canvas, columns: tuple[int, ...], x_right: int, y: int, font_name: str = "small") -> int:
    """Claimed columns as inverted number tags ending at ``x_right``; returns the left edge."""
    ch = CELLS[font_name][1]
    x = x_right
    for column in reversed(columns):
        text = str(column)
        w = width_of(text, font_name) + 1
        x -= w
        c.draw.rectangle((x, y, x + w - 1, y + ch - 1), fill=c.lit)
        c.raw((x + 1, y), text, font_name, fill=0)
        x -= 2
    return x


def runner_mark(c: Canvas, x: int, y: int, width: int) -> None:
    """The runner: a hollow bar (as it looks on the board overview)."""
    c.draw.rectangle((x, y, x + width - 1, y + 2), outline=c.lit)


def scroll_marks(c: Canvas, first: int, shown: int, total: int, top: int = BODY_TOP, bottom: int = BODY_BOTTOM) -> None:
    """Small triangles at the right edge (between rows ``top`` and ``bottom``) when rows are hidden above or below."""
    r = c.width - 1
    if first > 0:
        c.draw.polygon([(r - 3, top), (r, top + 3), (r - 6, top + 3)], fill=c.lit)
    if first + shown < total:
        c.draw.polygon([(r - 6, bottom - 3), (r, bottom - 3), (r - 3, bottom)], fill=c.lit)
