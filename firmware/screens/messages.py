"""Screens of plain words: a message, a hint with its reason, and the safe-to-unplug frame."""

from __future__ import annotations

from ..views import HintView, MessageView, OffView
from .frame import legend, top_bar
from .kit import BODY_BOTTOM, BODY_TOP, INK_TOP, PITCH, Canvas, width_of, wrap, wrap_all


def body_fits(c: Canvas, lines: tuple[str, ...], top: int) -> bool:
    """Whether ``lines``, word-wrapped in the small font, fit the body from row ``top``."""
    return len(wrap_all(lines, c.width, "small")) * PITCH["small"] <= BODY_BOTTOM + 1 - top


def body_lines(c: Canvas, lines: tuple[str, ...], top: int = BODY_TOP) -> None:
    """Lines word-wrapped to the width, in the medium font when they fit, else the small one."""
    space = BODY_BOTTOM + 1 - top
    for font_name in ("medium", "small"):
        wrapped = wrap_all(lines, c.width, font_name)
        if len(wrapped) * PITCH[font_name] <= space:
            break
    keep = space // PITCH[font_name]
    if len(wrapped) > keep:
        c.cut(" / ".join(lines))
        wrapped = wrapped[:keep]
    c.lines(top - INK_TOP[font_name], wrapped, font_name, PITCH[font_name])


def message(c: Canvas, v: MessageView) -> None:
    top_bar(c, v.title, "", None, v.alert)
    body_lines(c, v.lines)
    legend(c, v.keys)


def hint(c: Canvas, v: HintView) -> None:
    status = c.words.bust_status(v.bust)
    top_bar(c, v.player, status, v.seat, v.alert)
    # the advice large, unless its reason then loses a line (two sentences of risky's "must roll"): medium then
    large = width_of(v.action, "large") <= c.width and body_fits(c, v.reason, BODY_TOP + PITCH["large"] + 3)
    font_name = "large" if large else "medium"
    c.center(BODY_TOP - INK_TOP[font_name], v.action, font_name)
    body_lines(c, v.reason, BODY_TOP + PITCH[font_name] + (3 if large else 1))
    legend(c, v.keys)


def off(c: Canvas, v: OffView) -> None:
    c.draw.rectangle((0, 0, c.width - 1, c.height - 1), outline=c.lit)
    first, second = c.words.SCREEN["safe"]
    c.center(10 - INK_TOP["large"], first, "large")
    c.center(25 - INK_TOP["large"], second, "large")
    lines = wrap(v.reason, c.width - 4, "medium")
    if len(lines) > 2:
        c.cut(v.reason)
        lines = lines[:2]
    y = 42 if len(lines) == 1 else 39
    for line in lines:
        c.center(y - INK_TOP["medium"], line, "medium")
        y += PITCH["medium"]
