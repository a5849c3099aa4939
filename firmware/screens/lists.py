"""Screens that are lists: the new-game setup, the menu, and the wins per colour."""

from __future__ import annotations

from ..views import MenuView, SetupView, StatsView
from .frame import legend, top_bar
from .icons import scroll_marks
from .kit import BODY_BOTTOM, BODY_TOP, CELLS, INK_TOP, ROW_PITCH, Canvas, width_of

ROWS_SHOWN = 4


def window(cursor: int, total: int, shown: int) -> int:
    """The first row shown so that the cursor row is visible."""
    if total <= shown:
        return 0
    first = min(max(0, cursor - shown + 2), total - shown) if cursor >= shown - 1 else 0
    # one row shown (128x32 under an alert): that row is the cursor's, whatever the row after it
    return min(max(first, cursor - shown + 1), cursor)


def rows(c: Canvas, items: list[tuple[str, str]], cursor: int, top: int = BODY_TOP, room: int = ROWS_SHOWN,
         off: tuple[int, ...] = ()) -> None:
    """Up to ``room`` rows of label and value from row ``top``, the cursor row highlighted, scroll marks when some are hidden.

    The highlight is ``Canvas.mark_fill``: the row inverted on a 1-bit screen, a grey bar under lit text on a grey one.
    A row in ``off`` cannot be chosen now: its label is struck through (every other pixel, so it stays readable).
    """
    first = window(cursor, len(items), room)
    shown = items[first:first + room]
    scroll = len(items) > room
    right_edge = c.width - (8 if scroll else 0)
    for i, (label, value) in enumerate(shown):
        y = top + i * ROW_PITCH
        on = first + i == cursor
        if on:
            c.draw.rectangle((0, y - 1, right_edge - 2, y + ROW_PITCH - 2), fill=c.mark_fill)
        fg = c.mark_ink if on else c.lit
        vw = width_of(value, "medium")
        avail = right_edge - 4
        if value:
            value = c.fit(value, avail // 2, "medium")
            vw = width_of(value, "medium")
            c.raw((right_edge - 3 - vw, y - 1), value, "medium", fill=fg)
        c.text((2, y - 1), label, "medium", fill=fg, width=avail - vw - (6 if value else 0))
        if first + i in off:
            struck = min(width_of(label, "medium"), avail - vw)
            for x in range(1, 2 + struck, 2):
                c.draw.point((x, y + ROW_PITCH // 2 - 1), fill=fg)
    if scroll:
        scroll_marks(c, first, len(shown), len(items), top, top + room * ROW_PITCH - 1)


def menu(c: Canvas, v: MenuView) -> None:
    total = len(v.items)
    top_bar(c, v.title, f"{v.cursor + 1}/{total}" if total else "", None, v.alert)
    rows(c, [(item, "") for item in v.items], v.cursor, off=v.off)
    legend(c, v.keys)


def setup(c: Canvas, v: SetupView) -> None:
    total = len(v.rows)
    top_bar(c, v.title, f"{v.cursor + 1}/{total}" if total else "", None, v.alert)
    rows(c, [(label, value) for label, value in v.rows], v.cursor)
    legend(c, v.keys)


def stats_title(c: Canvas, v: StatsView) -> str:
    """The top bar's left: the title, and which page when there are more ("Wins 1/3"); the games on the right."""
    return f"{c.words.SCREEN['wins']} {v.page}" if v.page else c.words.SCREEN["wins"]


def stats(c: Canvas, v: StatsView) -> None:
    top_bar(c, stats_title(c, v), c.words.games_count(v.games), None, v.alert)
    if not v.rows:
        c.center(BODY_TOP + 8, c.words.SCREEN["no_games"], "medium")
        legend(c, v.keys)
        return
    shown = list(v.rows)
    font_name = "medium" if len(shown) <= 4 else "small"
    pitch = ROW_PITCH if font_name == "medium" else 8
    keep = (BODY_BOTTOM + 1 - BODY_TOP) // pitch
    if len(shown) > keep:
        c.cut(repr(shown))
        shown = shown[:keep]
    most = max([v.most or 0, *(wins for _, wins in shown)]) or 1
    name_w = min(9 * CELLS[font_name][0], max(width_of(name, font_name) for name, _ in shown))
    for i, (name, wins) in enumerate(shown):
        wins_row(c, BODY_TOP + i * pitch, name, wins, most, name_w, font_name, pitch)
    legend(c, v.keys)


def wins_row(c: Canvas, y: int, name: str, wins: int, most: int, name_w: int, font_name: str = "medium",
             pitch: int = ROW_PITCH) -> None:
    """One player's wins from row ``y``: the name (``name_w`` wide), a bar in proportion to ``most``, the count."""
    count = str(wins)
    cw = width_of(count, font_name)
    c.text((0, y - INK_TOP[font_name]), name, font_name, width=name_w)
    c.raw((c.width - cw, y - INK_TOP[font_name]), count, font_name)
    bar_x0 = name_w + 4
    bar_len = (c.width - cw - 4 - bar_x0) * wins // most
    if bar_len > 0:
        c.draw.rectangle((bar_x0, y + 1, bar_x0 + bar_len - 1, y + pitch - 4), fill=c.lit)
