"""People on 128x32: one person's numbers, and a finished game's recap, two rows to a page."""

from __future__ import annotations

from functools import partial

from ...views import RecapView, TableView
from .. import people as standard
from ..icons import draw_seat
from ..kit import INK_TOP, Canvas, width_of
from .frame import BODY_TOP, LINE, RULE, bar, flow


def table(c: Canvas, v: TableView) -> None:
    """Label left, value right, two rows to a page under the title; the legend on the last page."""
    blocks = [(LINE, lambda y, label=label, value=value: _row(c, y, label, value)) for label, value in v.rows]
    flow(c, partial(bar, c, v.title, v.status, None, v.alert), blocks, v.keys)


def _row(c: Canvas, y: int, label: str, value: str) -> None:
    value = c.fit(value, c.width * 2 // 3, "medium")
    vw = width_of(value, "medium")
    c.raw((c.width - 1 - vw, y - INK_TOP["medium"]), value, "medium")
    c.text((0, y - INK_TOP["medium"]), label, "medium", width=c.width - vw - 6)


def recap(c: Canvas, v: RecapView) -> None:
    """The title and the column headings on top of each page, then two players to a page."""
    headings = c.words.RECAP_HEADINGS
    columns, name_right = standard.recap_columns(c.width, headings, v.rows)  # the same columns on every page

    def header() -> int:
        if v.alert:
            return bar(c, "", "", None, v.alert)
        c.text((0, 0), v.title, "small", width=name_right)
        for text, right in zip(headings, columns):
            c.raw((right - width_of(text, "small") + 1, 0), text, "small")
        c.draw.line((0, RULE, c.width - 1, RULE), fill=c.lit)
        return BODY_TOP

    blocks = [(LINE, lambda y, i=i, row=row: _player(c, y, row, v.biggest == i, columns, name_right))
              for i, row in enumerate(v.rows)]
    flow(c, header, blocks, v.keys)


def _player(c: Canvas, y: int, row, biggest: bool, columns: list[int], name_right: int) -> None:
    """A seat's symbol and name, its turns, busts and biggest turn (highlighted when the game's biggest)."""
    draw_seat(c.draw, 0, y + 2, row.seat, fill=c.lit)
    c.text((10, y - INK_TOP["medium"]), row.player, "medium", width=name_right - 10)
    for n, (value, right) in enumerate(zip((row.turns, row.busts, row.best), columns)):
        text = str(value)
        x = right - width_of(text, "medium") + 1
        mark = n == 2 and biggest
        if mark:
            c.draw.rectangle((x - 2, y - 1, right + 1, y + LINE - 2), fill=c.mark_fill)
        c.raw((x, y - INK_TOP["medium"]), text, "medium", fill=c.mark_ink if mark else c.lit)
