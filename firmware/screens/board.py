"""The board: all eleven columns at a glance, or one column in words (``BoardView.focus``)."""

from __future__ import annotations

from ..views import BoardView, Column
from .frame import legend, top_bar
from .icons import draw_seat, runner_mark
from .kit import BODY_BOTTOM, BODY_TOP, INK_TOP, ROW_PITCH, Canvas, width_of

TRACK_W = 30  # a column page's drawn column: its left edge this far from a 128-pixel screen's right edge
GUTTER = 7  # left of the grid: each player's seat symbol
CELL = 11  # pixels per column of the grid on 128 pixels: "10" in the small font is 10 wide; wider screens, wider cells
LABELS_TOP = BODY_TOP  # the column numbers
ROWS_TOP = BODY_TOP + 9  # the first player's row
MAX_ROW = 12  # a row's height with one or two players


def cell_width(width: int) -> int:
    """Pixels per column of the grid on a screen ``width`` wide: the eleven columns share what the gutter leaves."""
    return max(CELL, (width - GUTTER) // 11)


def cell_x(index: int, cell: int = CELL) -> int:
    """Left edge of the ``index``-th column's cell (column 2 is index 0), cells ``cell`` wide."""
    return GUTTER + index * cell


def ink(c: Canvas, seat: int, current: int | None) -> int:
    """The ink of ``seat``'s pieces: lit for the player whose turn it is (or everyone, with nobody to play),
    the others' grey on a grey screen (the same lit ink on a 1-bit one)."""
    return c.lit if current is None or seat == current else c.grey


def row_span(seat: int, players: int) -> tuple[int, int]:
    """Top and bottom rows of ``seat``'s row in the overview: one row of the grid per player."""
    height = min(MAX_ROW, (BODY_BOTTOM + 1 - ROWS_TOP) // max(1, players))
    top = ROWS_TOP + seat * height
    return top, top + height - 1


def bar_height(step: int, column_height: int, room: int) -> int:
    """Pixels of a bar for a piece on square ``step``: in proportion to the column, at least two (a one-row
    sliver on its baseline was not seen at arm's length)."""
    return 0 if step <= 0 else min(room, max(2, -(-step * room // column_height)))


def board(c: Canvas, v: BoardView) -> None:
    """The overview: a grid with a row per player (their seat symbol at the left) and a cell per column.

    Each player's pieces stand in their own row, so they are told apart by
    where they are, not by a 3-pixel mark: a filled bar as high as the marker
    has climbed its column, the current player's runners as an outline above
    it, a claimed column's number inverted and its owner's cell filled. On a
    grey screen the other players' rows are grey and the current player's bright.
    """
    if v.focus is not None:
        column_page(c, v)
        return
    n = len(v.players)
    current = v.current if v.current is not None and v.current < n else None
    if v.alert or not n:
        top_bar(c, c.words.SCREEN["board_title"], c.words.SCREEN["game_over"], None, v.alert)
    else:
        key_bar(c, v, current)
    for seat in range(n):
        top, bottom = row_span(seat, n)
        size = min(6, bottom - top)
        draw_seat(c.draw, 0, top + (bottom - top + 1 - size) // 2, v.mark(seat), size, fill=ink(c, seat, current))
    cell = cell_width(c.width)
    for i, col in enumerate(v.columns[:11]):
        _label(c, cell_x(i, cell), cell, col)
        for seat in range(n):
            _cell(c, cell_x(i, cell), cell, col, seat, row_span(seat, n), current)
    legend(c, v.keys)


def key_bar_entry(name_width: int, gap: int) -> int:
    """An entry of the key: the symbol (6), a free column, the name, ``gap`` columns before the next."""
    return 7 + name_width + gap


def key_widths(names: list[int], width: int) -> list[int]:
    """Each key entry's width for names ``names`` pixels wide: whole names with the widest gap (2, 1, 0) that fits;
    else the short names whole and the long ones sharing what is left equally."""
    for gap in (2, 1, 0):
        natural = [key_bar_entry(w, gap) for w in names]
        if sum(natural) <= width:
            return natural
    out = [0] * len(names)
    left, rest = width, sorted(range(len(names)), key=lambda i: natural[i])
    while rest:
        share = left // len(rest)
        i = rest[0]
        if natural[i] > share:  # every name left is longer than its share: they split what is left
            for k, j in enumerate(rest):
                out[j] = share + (1 if k < left - share * len(rest) else 0)
            break
        out[i] = natural[i]
        left -= natural[i]
        rest.pop(0)
    return out


def key_bar(c: Canvas, v: BoardView, current: int | None, rule: int = 9) -> None:
    """The overview's top bar as its key: each player's symbol and name, the one to play inverted.

    Each entry is as wide as its name where all fit (see :func:`key_widths`);
    else a long name is cut: the symbol still says whose is whose.
    """
    widths = key_widths([width_of(name, "small") for name in v.players], c.width)
    n = len(v.players)
    x0 = 0
    for seat, (name, share) in enumerate(zip(v.players, widths)):
        on = seat == current and n > 1
        if on:
            c.draw.rectangle((x0, 0, x0 + share - 2, rule - 1), fill=c.lit)
        ink_ = 0 if on else c.lit
        draw_seat(c.draw, x0, 1, v.mark(seat), 6, fill=ink_)
        c.text((x0 + 7, 0), name, "small", fill=ink_, width=share - 7)
        x0 += share
    c.draw.line((0, rule, c.width - 1, rule), fill=c.lit)


def _label(c: Canvas, x0: int, cell: int, col: Column, top: int = LABELS_TOP) -> None:
    """The column's number (its cell's rows from ``top``) above its cells; inverted once the column is claimed."""
    label = str(col.column)
    x = x0 + (cell - width_of(label, "small")) // 2
    if col.owner is not None:
        c.draw.rectangle((x0, top, x0 + cell - 1, top + 7), fill=c.lit)
        c.raw((x, top + 1 - INK_TOP["small"]), label, "small", fill=0)
    else:
        c.raw((x, top + 1 - INK_TOP["small"]), label, "small")


def _cell(c: Canvas, left: int, cell: int, col: Column, seat: int, span: tuple[int, int],
          current: int | None) -> None:
    """One player's piece in one column: a bar on a baseline; the runner an outline around it."""
    draw = c.draw
    x0 = left + 2
    x1 = x0 + cell - 5
    top, bottom = span
    base = bottom
    room = base - top - 1
    fill = ink(c, seat, current)
    if col.owner is not None:
        if col.owner == seat:
            draw.rectangle((x0, top + 1, x1, base), fill=fill)
        return
    draw.line((x0, base, x1, base), fill=fill)
    step = col.markers[seat] if seat < len(col.markers) else 0
    filled = bar_height(step, col.height, room)
    if filled:  # as wide as the cell's baseline: the bars are read at arm's length (issue 47, item 8)
        draw.rectangle((x0, base - filled, x1, base), fill=fill)
    if seat == current and col.runner:
        high = bar_height(col.runner, col.height, room)
        draw.rectangle((x0 - 1, base - high, x1 + 1, base), outline=c.lit)


# ---- one column in words ---------------------------------------------------


def _column_rows(c: Canvas, v: BoardView, col: Column) -> list[tuple[int | None, str]]:
    """(seat or -1 for the runner or None, text) for each line of a column page."""
    rows: list[tuple[int | None, str]] = []
    if col.owner is not None:
        owner = v.players[col.owner] if col.owner < len(v.players) else c.words.seat_name(col.owner)
        return [(col.owner, c.words.claimed_by(c.fit(owner, c.width // 2, "medium")))]  # the name cut, not "claimed"
    for seat, step in enumerate(col.markers):
        if step and seat < len(v.players):
            # a long name is cut, never the square after it
            rows.append((seat, c.words.piece_at(c.fit(v.players[seat], c.width // 2, "medium"), step)))
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
    track_x = c.width - TRACK_W * c.width // 128  # twice as wide on a screen twice as wide
    text_w = track_x - 3
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
            draw_seat(c.draw, 0, top, v.mark(seat), size, fill=c.lit)
        c.text((size + 3, y - INK_TOP[font_name]), text, font_name, width=text_w - size - 3)
        y += pitch
    column_track(c, col, track_x, v.current, v.mark)
    legend(c, v.keys)


def column_track(c: Canvas, col: Column, x0: int, current: int | None = None, mark=lambda seat: seat) -> None:
    """The focused column drawn tall on the right: squares as ticks, pieces by seat symbol.

    On a grey screen the ticks and the other players' pieces are grey, the current player's and the runner bright.
    ``mark`` gives a seat's symbol (its colour's); each symbol has its own place across the track.
    """
    draw = c.draw
    n = col.height
    pitch = min(5, (BODY_BOTTOM - BODY_TOP) // max(1, n))
    bottom = BODY_BOTTOM
    x1 = c.width - 4
    top = bottom - n * pitch
    if col.owner is not None:
        draw.rectangle((x0, top, x1, bottom), fill=c.lit)
        draw_seat(draw, (x0 + x1) // 2 - 3, top + 2, mark(col.owner), 7, fill=0)
        return
    draw.rectangle((x0, top, x1, bottom), outline=c.lit)
    for s in range(1, n):
        y = bottom - s * pitch
        draw.point([(x0 + 1, y), (x1 - 1, y)], fill=c.grey)
    for seat, step in enumerate(col.markers):
        if step:
            y = bottom - step * pitch + (pitch - 3) // 2 + 1
            draw_seat(draw, x0 + 3 + 6 * (mark(seat) % 4), y, mark(seat), 3, fill=ink(c, seat, current))
    if col.runner:
        y = bottom - col.runner * pitch
        draw.rectangle((x0 - 3, y, x1 + 3, y + pitch), outline=c.lit)
        draw.line((x0, y, x1, y), fill=c.lit)
        draw.line((x0, y + pitch, x1, y + pitch), fill=c.lit)
