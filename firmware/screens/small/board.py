"""The board on 128x32: the overview two players to a page, and one column in words.

The overview drops the top bar: the column numbers head each page, then a row
per player (8 rows, as four players have on 128x64), then the legend. The
column page keeps its title and puts the pieces two to a row.
"""

from __future__ import annotations

from ...views import BoardView
from .. import board as standard
from ..icons import draw_seat, runner_mark
from ..kit import INK_TOP, Canvas, width_of
from .frame import BODY_TOP, LEGEND_Y, LINE, alert_band, bar, flow, keys

ROW = 8  # a player's row of the grid


def board(c: Canvas, v: BoardView) -> None:
    """The grid of the 128x64 overview, as many players to a page as fit above the legend."""
    if v.focus is not None:
        column_page(c, v)
        return
    n = len(v.players)
    first = 0
    while True:
        labels = alert_band(c, v.alert)
        rows_top = labels + ROW
        per_page = max(1, (LEGEND_Y - rows_top) // ROW)
        height = min(ROW, LEGEND_Y - rows_top)
        seats = range(first, min(n, first + per_page))
        for i, col in enumerate(v.columns[:11]):
            standard._label(c, i, col, labels)
        for k, seat in enumerate(seats):
            span = (rows_top + k * height, rows_top + (k + 1) * height - 1)
            draw_seat(c.draw, 0, span[0] + (height - 6) // 2 + 1, seat, 6)
            for i, col in enumerate(v.columns[:11]):
                standard._cell(c, i, col, seat, span, seat == v.current)
        keys(c, v.keys)
        first += per_page
        if first >= n:
            return
        c.new_page()


def column_page(c: Canvas, v: BoardView) -> None:
    """The column's title in the top bar; who has a piece where, two to a row, the legend on every page."""
    col = next((col for col in v.columns if col.column == v.focus), None)
    header = lambda: bar(c, c.words.column_title(v.focus, col.height if col else None),  # noqa: E731
                         c.words.SCREEN["board"], None, v.alert)
    if col is None:
        header()
        c.center(BODY_TOP, c.words.no_column(v.focus), "medium")
        keys(c, v.keys)
        return
    entries = standard._column_rows(c, v, col)
    half = c.width // 2
    pairs = all(width_of(text, "medium") + 9 <= half for _, text in entries)
    per_row = 2 if pairs else 1
    blocks = [(LINE, lambda y, row=entries[k:k + per_row]: _entries(c, y, row, c.width // per_row))
              for k in range(0, len(entries), per_row)]
    flow(c, header, blocks, v.keys, every_page=True)


def _entries(c: Canvas, y: int, row, width: int) -> None:
    """Pieces side by side, each its seat symbol (the runner's bar) and its words."""
    for k, (seat, text) in enumerate(row):
        x = k * width
        if seat == -1:
            runner_mark(c, x, y + 3, 7)
        else:
            draw_seat(c.draw, x, y + 1, seat, 7)
        c.text((x + 9, y - INK_TOP["medium"]), text, "medium", width=width - 9)
