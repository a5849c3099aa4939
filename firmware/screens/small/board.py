"""The board on 128x32: the overview two players to a page, and one column in words.

The overview drops the top bar: the column numbers head each page, then a row
per player (8 rows, as four players have on 128x64), then the legend (or,
while there is one, the alert); its last pages are the key (each player's
symbol and name), the 128x64 top bar's job. The
column page keeps its title and puts the pieces two to a row.
"""

from __future__ import annotations

from functools import partial

from ...views import BoardView
from .. import board as standard
from ..board import _column_rows
from ..icons import draw_seat, runner_mark
from ..kit import INK_TOP, Canvas, width_of
from .frame import BODY_TOP, BOTTOM, LEGEND_Y, LINE, alert_band, bar, flow, keys

ROW = 8  # a player's row of the grid
ROWS_TOP = 7  # the first row's top (a cell never draws on its top row: it may share the labels' last)


def board(c: Canvas, v: BoardView) -> None:
    """The grid of the 128x64 overview, two players to a page above the legend (an alert takes its place),
    then the key: each player's symbol and name."""
    if v.focus is not None:
        column_page(c, v)
        return
    n = len(v.players)
    current = v.current if v.current is not None and v.current < n else None
    per_page = (LEGEND_Y - 1 - ROWS_TOP) // ROW
    for first in range(0, max(1, n), per_page):
        if first:
            c.new_page()
        for i, col in enumerate(v.columns[:11]):
            standard._label(c, standard.cell_x(i), standard.CELL, col, 0)
        for k, seat in enumerate(range(first, min(n, first + per_page))):
            span = (ROWS_TOP + k * ROW, ROWS_TOP + (k + 1) * ROW - 1)
            draw_seat(c.draw, 0, span[0] + 1, v.mark(seat), 6, fill=c.lit)
            for i, col in enumerate(v.columns[:11]):
                standard._cell(c, standard.cell_x(i), standard.CELL, col, seat, span, current)
        if v.alert:
            c.draw.rectangle((0, LEGEND_Y - 1, c.width - 1, BOTTOM), fill=c.lit)
            c.text((2, LEGEND_Y), "! " + v.alert, "small", fill=0, width=c.width - 4)
        else:
            keys(c, v.keys)
    if n:  # the key: whose symbol is whose, two to a row where both fit
        entries = [(seat, name) for seat, name in enumerate(v.players)]
        blocks = [(LINE, lambda y, row=row: _entries(c, y, row, c.width // len(row), v.mark))
                  for row in _rows(entries, c.width // 2)]
        flow(c, partial(alert_band, c, v.alert), blocks, v.keys, fresh=True, every_page=True)


def column_page(c: Canvas, v: BoardView) -> None:
    """The column's title in the top bar; who has a piece where, two to a row, the legend on every page."""
    col = next((col for col in v.columns if col.column == v.focus), None)
    header = partial(bar, c, c.words.column_title(v.focus, col.height if col else None), c.words.SCREEN["board"],
                     None, v.alert)
    if col is None:
        header()
        c.center(BODY_TOP, c.words.no_column(v.focus), "medium")
        keys(c, v.keys)
        return
    blocks = [(LINE, lambda y, row=row: _entries(c, y, row, c.width // len(row), v.mark))
              for row in _rows(_column_rows(c, v, col), c.width // 2)]
    flow(c, header, blocks, v.keys, every_page=True)


def _rows(entries: list, half: int) -> list[list]:
    """Entries two to a row where both fit half the width, else one."""
    fits = [width_of(text, "medium") + 9 <= half for _, text in entries]
    rows, k = [], 0
    while k < len(entries):
        take = 2 if k + 1 < len(entries) and fits[k] and fits[k + 1] else 1
        rows.append(entries[k:k + take])
        k += take
    return rows


def _entries(c: Canvas, y: int, row, width: int, mark) -> None:
    """Pieces side by side, each its seat's symbol (``mark(seat)``; the runner's bar) and its words."""
    for k, (seat, text) in enumerate(row):
        x = k * width
        if seat == -1:
            runner_mark(c, x, y + 3, 7)
        else:
            draw_seat(c.draw, x, y + 1, mark(seat), 7, fill=c.lit)
        c.text((x + 9, y - INK_TOP["medium"]), text, "medium", width=width - 9)
