"""The 128x32 frame: its rows, the top bar and legend of the 128x64 screens moved to fit, and pages.

Thirty-two rows hold a top bar (small font, rows 0..7, its rule on row 8) and
a body of 22 rows (10..31): two lines in the medium font, or one in the
large font with a small line under it. The legend, where a screen keeps one,
takes rows 24..31. What does not fit one page goes on the next: :func:`flow`
paints blocks of text page after page under the same header, and the daemon
shows the pages in turns (:mod:`firmware.daemon.pager`).
"""

from __future__ import annotations

from collections.abc import Callable

from ..frame import legend, top_bar
from ..kit import INK_TOP, PITCH, Canvas, Layout, width_of, wrap_all

LAYOUT = Layout(128, 32, lines_per_page=2, big_lines=1)  # two lines and the legend to a page
RULE = 8  # the top bar's rule (and an alert's last row)
BODY_TOP = 10  # the first body row under the top bar
BOTTOM = LAYOUT.height - 1
LEGEND_Y = BOTTOM - 7  # the legend's 8 rows at the bottom
LINE = PITCH["medium"]  # a body line in the medium font

#: A block of a page: its height in rows, and what paints it from a given row.
Block = tuple[int, Callable[[int], None]]


def bar(c: Canvas, left: str, right: str = "", seat: int | None = None, alert: str | None = None) -> int:
    """The 128x64 top bar on rows 0..8; returns the first body row."""
    top_bar(c, left, right, seat, alert, rule=RULE)
    return BODY_TOP


def alert_band(c: Canvas, alert: str | None) -> int:
    """For a screen without a top bar: the alert over rows 0..8 when there is one; returns the first body row.

    Without an alert that is row 1: kana, kanji and Hangul stand a row higher
    than Latin capitals in the medium font, and would lose their top row at 0.
    """
    if not alert:
        return 1
    top_bar(c, "", "", None, alert, rule=RULE)
    return BODY_TOP


def keys(c: Canvas, text: str) -> None:
    """The legend on the bottom rows."""
    legend(c, text, y=LEGEND_Y)


def text_block(c: Canvas, line: str, font_name: str = "medium", x: int = 0) -> Block:
    """One line of text as a block of its font's height."""
    return PITCH[font_name], lambda y: c.text((x, y - INK_TOP[font_name]), line, font_name)


def text_blocks(c: Canvas, lines: tuple[str, ...] | list[str], font_name: str = "medium") -> list[Block]:
    """Lines a block each: as they are when they fit the width (spacing kept), else word-wrapped."""
    fitted: list[str] = []
    for line in lines:
        fitted += [line] if width_of(line, font_name) <= c.width else wrap_all((line,), c.width, font_name)
    return [text_block(c, line, font_name) for line in fitted]


def flow(c: Canvas, header: Callable[[], int], blocks: list[Block], legend_keys: str | None = None,
         fresh: bool = False, every_page: bool = False) -> None:
    """Paint ``blocks`` top to bottom under ``header()`` (which returns its first free row), page after page.

    ``fresh`` starts on a new page (the current one is already painted). The
    legend goes on the bottom rows of the last page (of every page when
    ``every_page``); when the last page is too full for it, its last block
    moves to a page of its own with the legend, so no page is only a legend
    unless one block fills a page.
    """
    if fresh:
        c.new_page()
    top = header()
    pages = _plan(blocks, top, legend_keys, every_page)
    for k, page in enumerate(pages):
        if k:
            c.new_page()
            header()
        y = top
        for height, paint in page:
            paint(y)
            y += height
        if legend_keys and (every_page or k == len(pages) - 1):
            keys(c, legend_keys)


def _plan(blocks: list[Block], top: int, legend_keys: str | None, every_page: bool) -> list[list[Block]]:
    """The blocks of each page: as many as fit from row ``top``, room kept for the legend where it goes."""
    room, last_room = BOTTOM + 1 - top, LEGEND_Y - 1 - top
    if every_page and legend_keys:
        room = last_room
    pages: list[list[Block]] = [[]]
    for block in blocks:
        if pages[-1] and sum(h for h, _ in pages[-1]) + block[0] > room:
            pages.append([])
        pages[-1].append(block)
    if legend_keys and sum(h for h, _ in pages[-1]) > last_room:
        pages.append([pages[-1].pop()] if len(pages[-1]) > 1 else [])
    return pages
