"""Between turns on 128x32: what to do on the board after a stop, a bust or an undo, and the win.

The instructions drop the top bar: their lines name the player ("Red markers
to:"), and the legend (what ROLL does next: "Blue rolls") stays on every page,
so a stop's two lines and its legend are one page. A win says who won with
the legend on the first page; the claims and the last steps follow.
"""

from __future__ import annotations

from ...views import InstructionsView, WinView
from ..kit import INK_TOP, PITCH, Canvas, width_of
from .frame import BODY_TOP, alert_band, bar, flow, keys, text_blocks


def instructions(c: Canvas, v: InstructionsView) -> None:
    """The big line as an inverted band, then the lines in the medium font, two lines to a page with the legend."""
    blocks = []
    if v.big:
        def band(y: int, text: str = v.big) -> None:
            c.draw.rectangle((0, y, c.width - 1, y + PITCH["medium"]), fill=1)
            c.center(y + 1 - INK_TOP["medium"], text, "medium", fill=0)
        blocks.append((PITCH["medium"] + 1, band))
    blocks += text_blocks(c, v.lines)
    flow(c, lambda: alert_band(c, v.alert), blocks, v.keys, every_page=True)


def win(c: Canvas, v: WinView) -> None:
    """Page 1: who won, large, and the legend; then the last steps on the board, and what they claimed."""
    if v.player is None:
        header = lambda: bar(c, c.words.SCREEN["game_over_title"], c.words.turns_count(v.turns), None, v.alert)  # noqa: E731
    else:
        header = lambda: bar(c, v.player, c.words.turns_count(v.turns), v.seat, v.alert)  # noqa: E731
    header()
    heading = c.words.win_heading(v.player)
    font_name = "large" if width_of(heading, "large") <= c.width else "medium"
    c.center(BODY_TOP - INK_TOP[font_name], heading, font_name)
    keys(c, v.keys)
    claims = c.words.win_claims(v.player, v.claims, v.turns)
    flow(c, header, text_blocks(c, (*v.note, claims)), fresh=True)
