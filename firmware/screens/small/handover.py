"""Between turns on 128x32: what to do on the board after a stop, a bust or an undo, and the win.

The instructions drop the top bar: their lines name the player ("Red markers
to:"), and the legend (what ROLL does next: "Blue rolls") stays on every page,
so a stop's two lines and its legend are one page. A win says who won with
the legend on the first page; the claims and the last steps follow.
"""

from __future__ import annotations

from functools import partial

from ...views import InstructionsView, WinView
from ..icons import draw_seat
from ..kit import INK_TOP, Canvas
from .frame import BODY_TOP, LINE, alert_band, bar, flow, keys, text_blocks


def instructions(c: Canvas, v: InstructionsView) -> None:
    """The big line as an inverted band, then the lines in the medium font, two lines to a page with the legend."""
    blocks = []
    if v.big:
        def band(y: int, text: str = v.big) -> None:
            c.draw.rectangle((0, y - 1, c.width - 1, y + LINE - 2), fill=c.lit)
            draw_seat(c.draw, 2, y + 1, v.seat, 7, fill=0)
            c.center(y + 1 - INK_TOP["medium"], text, "medium", fill=0, x0=10, x1=c.width - 10)
        blocks.append((LINE, band))
    blocks += text_blocks(c, v.lines)
    flow(c, partial(alert_band, c, v.alert), blocks, v.keys, every_page=True)


def win(c: Canvas, v: WinView) -> None:
    """Page 1: who won, large, and the legend; then the last steps on the board, and what they claimed."""
    title = c.words.SCREEN["game_over_title"] if v.player is None else v.player
    header = partial(bar, c, title, c.words.turns_count(v.turns), v.seat, v.alert)
    header()
    heading = c.words.win_heading(v.player)
    c.headline(BODY_TOP + 1, heading)
    keys(c, v.keys)
    claims = c.words.win_claims(v.player, v.claims, v.turns)
    flow(c, header, text_blocks(c, (*v.note, claims)), fresh=True)
