"""The frame every screen shares: the top bar and the legend.

- the *top bar* (rows 0..8): the player's seat symbol and colour name on the
  left, a short status on the right (``T5``, ``1 free``); an ``alert``
  replaces it, drawn inverted;
- the *body* (rows 11..54) belongs to each screen;
- the *legend* (rows 56..63): ``view.keys`` in the small font, each button
  name in an inverted box (``ROLL:roll`` shows a boxed ROLL, then "roll").
"""

from __future__ import annotations

from ..views import BUTTONS, legend as legend_tokens  # noqa: F401  (the view's own pairs, read by the lamps too)
from .icons import draw_seat
from .kit import LEGEND_Y, Canvas, width_of


def who(c: Canvas, player: str | None, bot: bool = False) -> str:
    """The name in the top bar: the colour, marked when the box plays it."""
    if player is None:
        return ""
    return c.words.who(player, bot)


def top_bar(c: Canvas, left: str, right: str = "", seat: int | None = None, alert: str | None = None,
            reserve: int = 0, rule: int = 9) -> None:
    """Symbol + name (or a title) on the left, a short status on the right, a rule below.

    ``reserve`` keeps that many pixels free left of the status for the caller to draw in;
    ``rule`` is the row of the rule (and the alert's last row): 8 on a 32-row screen.
    """
    if alert:
        c.draw.rectangle((0, 0, c.width - 1, rule), fill=c.lit)
        c.text((2, 1), "! " + alert, "small", fill=0, width=c.width - 4)
        return
    x = 0
    if seat is not None:
        draw_seat(c.draw, 0, 1, seat, 7, fill=c.lit)
        x = 10
    right = c.fit(right, c.width // 2, "small")
    rw = width_of(right, "small")
    if right:
        c.raw((c.width - rw + 1, 0), right, "small")
    c.text((x, 0), left, "small", width=c.width - x - rw - reserve - 4)
    c.draw.line((0, rule, c.width - 1, rule), fill=c.lit)


def _token_width(key: str, label: str) -> int:
    w = 0
    if key:
        w += width_of(key, "small") + 1
    if label:
        w += (2 if key else 0) + width_of(label, "small") - 1
    return w


def _gap(widths: list[int], width: int) -> int:
    """The widest gap between tokens (5 down to 2 pixels) that lets the legend fit ``width``."""
    for gap in (5, 4, 3, 2):
        if sum(widths) + gap * max(0, len(widths) - 1) <= width:
            break
    return gap


def legend(c: Canvas, keys: str, y: int = LEGEND_Y) -> None:
    """The bottom line (from row ``y``): each button name boxed and inverted, followed by what it does now."""
    tokens = legend_tokens(keys)
    gap = _gap([_token_width(k, lab) for k, lab in tokens], c.width)
    x = 0
    for key, label in tokens:
        if x >= c.width:
            c.cut(keys)
            break
        if key:
            key = c.fit(key, c.width - x - 1, "small")
            kw = width_of(key, "small")
            c.draw.rectangle((x, y, x + kw, y + 7), fill=c.lit)
            c.raw((x + 1, y), key, "small", fill=0)
            x += kw + 1
        if label:
            x += 2 if key else 0
            text = c.fit(label, c.width - x + 1, "small")
            c.raw((x, y), text, "small")
            x += width_of(text, "small") - 1
        x += gap
