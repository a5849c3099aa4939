"""Screens about people: one person's statistics as a table, and a finished game's recap."""

from __future__ import annotations

from ..views import RecapView, TableView
from .frame import legend, top_bar
from .icons import draw_seat
from .kit import BODY_TOP, INK_TOP, PITCH, ROW_PITCH, Canvas, width_of

ROWS_SHOWN = 4
#: Right edges of the recap's number columns (turns, busts, best), counted from the right edge of a
#: 128-pixel screen; a wider screen spreads them out in proportion. A column whose numbers are wider
#: than its room moves left (:func:`recap_columns`): the name gives way, never a number.
RECAP_COLUMNS = (46, 23, 0)
#: Pixels kept clear between a column's ink and the next column's (or the name's).
RECAP_GAP = 4


def recap_columns(width: int, headings=(), rows=(), font_name: str = "medium") -> tuple[list[int], int]:
    """The right edges of the recap's number columns on a screen ``width`` wide, and the right edge of the names.

    Each column is as wide as its heading (small font) or its widest number (``font_name``), whichever is
    wider; a column keeps its usual place unless the column right of it needs the room.
    """
    widths = []
    for n in range(len(RECAP_COLUMNS)):
        values = [str((r.turns, r.busts, r.best)[n]) for r in rows]
        widths.append(max([width_of(headings[n], "small") if n < len(headings) else 0,
                           *(width_of(t, font_name) for t in values)]))
    rights = [width - 1 - left * width // 128 for left in RECAP_COLUMNS]
    for n in range(len(rights) - 2, -1, -1):
        rights[n] = min(rights[n], rights[n + 1] - widths[n + 1] - RECAP_GAP + 1)
    return rights, rights[0] - widths[0] - 3


def table(c: Canvas, v: TableView) -> None:
    """Up to four rows: the label on the left (cut to fit), the value on the right."""
    top_bar(c, v.title, v.status, None, v.alert)
    shown = v.rows[:ROWS_SHOWN]
    if len(v.rows) > ROWS_SHOWN:
        c.cut(repr(v.rows[ROWS_SHOWN:]))
    for i, (label, value) in enumerate(shown):
        y = BODY_TOP + i * ROW_PITCH - 1
        value = c.fit(value, c.width * 2 // 3, "medium")
        vw = width_of(value, "medium")
        c.raw((c.width - 1 - vw, y), value, "medium")
        c.text((2, y), label, "medium", width=c.width - 2 - vw - 6)
    legend(c, v.keys)


def recap(c: Canvas, v: RecapView) -> None:
    """A row per seat: its symbol and name, then turns, busts and the biggest turn (the game's highlighted)."""
    top_bar(c, v.title, v.status, None, v.alert)
    font_name = "medium" if len(v.rows) <= 3 else "small"
    columns, name_right = recap_columns(c.width, c.words.RECAP_HEADINGS, v.rows[:4], font_name)
    for text, right in zip(c.words.RECAP_HEADINGS, columns):
        c.raw((right - width_of(text, "small") + 1, BODY_TOP - 1), text, "small")
    pitch = PITCH[font_name]
    for i, row in enumerate(v.rows[:4]):
        y = BODY_TOP + 9 + i * pitch
        draw_seat(c.draw, 0, y + 1, row.seat, fill=c.lit)
        c.text((10, y - INK_TOP[font_name]), row.player, font_name, width=name_right - 10)
        for n, (value, right) in enumerate(zip((row.turns, row.busts, row.best), columns)):
            text = str(value)
            x = right - width_of(text, font_name) + 1
            mark = n == 2 and v.biggest == i
            if mark:
                c.draw.rectangle((x - 2, y - 1, right + 1, y + pitch - 3), fill=c.mark_fill)
            c.raw((x, y - INK_TOP[font_name]), text, font_name, fill=c.mark_ink if mark else c.lit)
    legend(c, v.keys)
