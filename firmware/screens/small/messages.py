"""Words on 128x32: a message, a hint, the safe-to-unplug frame.

A message or a hint's reason is read in turns, two medium lines to a page
under its top bar, the legend on the last page; the hint's advice itself is
large on the first. The shutdown frame is one page: after it the daemon stops
and no page would follow.
"""

from __future__ import annotations

from functools import partial

from ...views import HintView, MessageView, OffView
from ..kit import INK_TOP, Canvas, wrap
from .frame import BODY_TOP, BOTTOM, bar, flow, text_blocks


def message(c: Canvas, v: MessageView) -> None:
    flow(c, partial(bar, c, v.title, "", None, v.alert), text_blocks(c, v.lines), v.keys)


def hint(c: Canvas, v: HintView) -> None:
    """Page 1: what to do, large; then why, and the legend."""
    header = partial(bar, c, v.player, c.words.bust_status(v.bust), v.seat, v.alert)
    header()
    c.headline(BODY_TOP + 2, v.action)
    flow(c, header, text_blocks(c, v.reason), v.keys, fresh=True)


def off(c: Canvas, v: OffView) -> None:
    """Safe to unplug, large when it fits on one line; the reason under it."""
    safe = c.words.SCREEN["safe_line"]
    c.headline(2, safe)
    lines = wrap(v.reason, c.width, "medium")
    if len(lines) == 1:
        c.center(BOTTOM - 10 - INK_TOP["medium"], lines[0], "medium")
        return
    lines = wrap(v.reason, c.width, "small")
    if len(lines) > 2:
        c.cut(v.reason)
    c.lines(BOTTOM - 15, lines[:2], "small", 8)
