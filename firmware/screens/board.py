"""The board: all eleven columns at a glance, or one column in words (``BoardView.focus``)."""

from __future__ import annotations

from ..views import BoardView, Column
from .frame import legend, top_bar
from .icons import draw_seat, runner_mark
from .kit import BODY_BOTTOM, BODY_TOP, INK_TOP, ROW_PITCH, WIDTH, Canvas, width_of

BOARD_TOP = 11  # top row of the tallest column
BOARD_BOTTOM = 46  # bottom row of every column
BOARD_PITCH = 11  # pixels per column slot
BOARD_LEFT = 4
TALLEST = 13  # squares in the tallest column (7); every square is 1/13 of the board's height
TRACK_X = 98  # left edge of the drawn column on a column page


def square_rows(step: int) -> tuple[int, int]:
    """Top and bottom rows of square ``step`` (1 = bottom) in any column.

    As on the real board, squares have the same size in every column and all
    columns stand on one line, so a square's rows depend only on its step: a
    shorter column simply ends lower. The tallest column spans the whole board.
    """
    span = BOARD_BOTTOM - BOARD_TOP + 1
    bottom = BOARD_BOTTOM - ((step - 1) * span) // TALLEST
    top = BOARD_BOTTOM - (step * span) // TALLEST + 1
    return top, bottom


def board(c: Canvas, v: BoardView) -> None:
    if v.focus is not None:
        column_page(c, v)
        return
    if v.current is not None and v.current < len(v.players):
        top_bar(c, v.players[v.current], c.words.SCREEN["board"], v.current, v.alert)
    else:
        top_bar(c, c.words.SCREEN["board_title"], c.words.SCREEN["game_over"], None, v.alert)
    for i, col in enumerate(v.columns[:11]):
        x0 = BOARD_LEFT + i * BOARD_PITCH
        _column(c, x0, col)
        label = str(col.column)
        c.raw((x0 + (9 - width_of(label, "small")) // 2 + 1, BOARD_BOTTOM + 2), label, "small")
    legend(c, v.keys)


def _column(c: Canvas, x0: int, col: Column) -> None:
    """One column of the overview: filled with its owner's symbol when claimed, else its pieces."""
    draw = c.draw
    x1 = x0 + 8
    top, _ = square_rows(col.height)
    if col.owner is not None:
        draw.rectangle((x0, top - 1, x1, BOARD_BOTTOM + 1), fill=1)
        draw_seat(draw, x0 + 1, top + 1, col.owner, 7, fill=0)
        return
    draw.rectangle((x0, top - 1, x1, BOARD_BOTTOM + 1), outline=1)
    # a tick on each square boundary, on both edges
    for s in range(1, col.height):
        t, _ = square_rows(s)
        draw.point([(x0 + 1, t - 1), (x1 - 1, t - 1)], fill=1)
    pieces = [(seat, step) for seat, step in enumerate(col.markers) if step]
    lanes = (x0 + 1, x0 + 5, x0 + 3)
    for n, (seat, step) in enumerate(pieces):
        _, b = square_rows(step)
        draw_seat(draw, lanes[n % 3], b - 2, seat, 3)
    if col.runner:
        _, b = square_rows(col.runner)
        draw.rectangle((x0 - 1, b - 2, x1 + 1, b), outline=1)
        draw.line((x0, b - 1, x1, b - 1), fill=0)


# ---- one column in words ---------------------------------------------------


def _column_rows(c: Canvas, v: BoardView, col: Column) -> list[tuple[int | None, str]]:
    """(seat or -1 for the runner or None, text) for each line of a column page."""
    rows: list[tuple[int | None, str]] = []
    if col.owner is not None:
        owner = v.players[col.owner] if col.owner < len(v.players) else c.words.seat_name(col.owner)
        return [(col.owner, c.words.claimed_by(owner))]
    for seat, step in enumerate(col.markers):
        if step and seat < len(v.players):
            rows.append((seat, c.words.piece_at(v.players[seat], step)))
    if col.runner:
        rows.append((-1, c.words.runner_at(col.runner)))
    return rows or [(None, c.words.SCREEN["no_pieces"])]


def _rows_font(rows: list[tuple[int | None, str]], text_w: int) -> tuple[str, int]:
    """The medium font when every row fits, else the small one; and the row pitch."""
    space = BODY_BOTTOM + 1 - BODY_TOP
    if len(rows) * ROW_PITCH > space or any(width_of(t, "medium") > text_w - 10 for _, t in rows):
        pitch = 9 if len(rows) * 9 <= space else 8
        return "small", pitch
    return "medium", ROW_PITCH


def column_page(c: Canvas, v: BoardView) -> None:
    """One column in words: who has a marker where, the runner, or who claimed it."""
    col = next((col for col in v.columns if col.column == v.focus), None)
    top_bar(c, c.words.column_title(v.focus, col.height if col else None), c.words.SCREEN["board"], None, v.alert)
    if col is None:
        c.center(24, c.words.no_column(v.focus), "medium")
        legend(c, v.keys)
        return
    rows = _column_rows(c, v, col)
    text_w = TRACK_X - 3
    font_name, pitch = _rows_font(rows, text_w)
    keep = (BODY_BOTTOM + 1 - BODY_TOP) // pitch
    if len(rows) > keep:
        c.cut(repr(rows))
        rows = rows[:keep]
    y = BODY_TOP
    size = 7 if font_name == "medium" else 6
    for seat, text in rows:
        top = y + (1 if font_name == "medium" else 0)
        if seat == -1:
            runner_mark(c, 0, top + size // 2 - 1, size)
        else:
            draw_seat(c.draw, 0, top, seat, size)
        c.text((size + 3, y - INK_TOP[font_name]), text, font_name, width=text_w - size - 3)
        y += pitch
    column_track(c, col, TRACK_X)
    legend(c, v.keys)


def column_track(c: Canvas, col: Column, x0: int) -> None:
    """The focused column drawn tall on the right: squares as ticks, pieces by seat symbol."""
    draw = c.draw
    n = col.height
    pitch = min(5, (BODY_BOTTOM - BODY_TOP) // max(1, n))
    bottom = BODY_BOTTOM
    x1 = WIDTH - 4
    top = bottom - n * pitch
    if col.owner is not None:
        draw.rectangle((x0, top, x1, bottom), fill=1)
        draw_seat(draw, (x0 + x1) // 2 - 3, top + 2, col.owner, 7, fill=0)
        return
    draw.rectangle((x0, top, x1, bottom), outline=1)
    for s in range(1, n):
        y = bottom - s * pitch
        draw.point([(x0 + 1, y), (x1 - 1, y)], fill=1)
    for seat, step in enumerate(col.markers):
        if step:
            y = bottom - step * pitch + (pitch - 3) // 2 + 1
            draw_seat(draw, x0 + 3 + 6 * (seat % 4), y, seat, 3)
    if col.runner:
        y = bottom - col.runner * pitch
        draw.rectangle((x0 - 3, y, x1 + 3, y + pitch), outline=1)
        draw.line((x0, y, x1, y), fill=1)
        draw.line((x0, y + pitch, x1, y + pitch), fill=1)
