"""A turn in play on 256x64: what to do on the left, the board on the right.

The left column (``LEFT`` pixels) is the 128x64 screen without its legend,
painted on a canvas of its own: the top bar, then the turn's heading and note,
the dice and pairings, the pick's question and its two columns, or the runners and the bust chance, with the rows
under them the legend would take (the chance and its caption end on the last
row, so two runners leave the caption room for the medium font; a Japanese
caption wider than a five-character chance leaves is its one word, large:
see :func:`firmware.screens.game.move_body`). The right
panel (``PANEL`` pixels from ``PANEL_X``) is the board of the player to act:

- the column numbers on the top bar's rows, a claimed column's number
  inverted when it is the player's, grey when another player's;
- under the rule, each column's squares (3 rows a square, the bottom one on
  row 53): grey where empty, lit up to the player's marker, a lit stem from
  there to this turn's runner, drawn wider; a claimed column a solid bar, lit
  (the player's) or grey (another's);
- the legend on the last 8 rows.

A view without its board (none was given) is painted as on 128x64, widened.
"""

from __future__ import annotations

from collections.abc import Callable

from ...layout import Layout
from ...views import DiceView, MoveView, PickView, Track, TurnView
from .. import game
from ..frame import legend
from ..kit import BODY_TOP, Canvas, width_of

LEFT = 132  # where the grey rule stands: the 128x64 screen's width, and a little room
GAP = 2  # dark columns between the left column's last ink and the rule: "round 1" never reads on into "2 3 4"
PANEL_X = LEFT + 2  # where the board's panel starts, right of the rule
PANEL = 256 - PANEL_X
PITCH = 11  # a column's width on the panel: "12" in the small font is 10 pixels, then one dark
BOTTOM = 53  # the bottom square's last row
SQUARE = 3  # rows a square takes: 2 lit, 1 apart


def turn(c: Canvas, v: TurnView) -> None:
    if not v.board:
        return game.turn(c, v)
    _beside(c, v, lambda left: game.turn_body(left, v, space=c.height - BODY_TOP))


def dice(c: Canvas, v: DiceView) -> None:
    if not v.board:
        return game.dice(c, v)
    _beside(c, v, lambda left: game.dice_body(left, v))


def pick(c: Canvas, v: PickView) -> None:
    if not v.board:
        return game.pick(c, v)
    _beside(c, v, lambda left: game.pick_body(left, v, bottom=c.height - 1))


def move(c: Canvas, v: MoveView) -> None:
    if not v.board:
        return game.move(c, v)
    _beside(c, v, lambda left: game.move_body(left, v, bottom=c.height - 1))


def _beside(c: Canvas, v: TurnView | DiceView | PickView | MoveView, paint_left: Callable[[Canvas], None]) -> None:
    """The left column painted by ``paint_left``, the board and legend right of it, and a grey rule between."""
    left = Canvas(Layout(LEFT - GAP, c.height, c.layout.mode), v.lang)
    paint_left(left)
    panel = Canvas(Layout(PANEL, c.height, c.layout.mode), v.lang)
    board(panel, v.board)
    legend(panel, v.keys)
    c.image.paste(left.image, (0, 0))
    c.image.paste(panel.image, (PANEL_X, 0))
    c.draw.line((LEFT, 10, LEFT, c.height - 1), fill=c.grey)
    c.draw.line((LEFT, 0, LEFT, 9), fill=c.lit)  # lit in the top bar: the status and the column numbers apart
    c.draw.line((LEFT - GAP, 9, PANEL_X - 1, 9), fill=c.lit)  # the top bar's rule, unbroken
    c.cuts += left.cuts + panel.cuts
    c.texts += left.texts + [t._replace(x=t.x + PANEL_X) for t in panel.texts]


def board(c: Canvas, tracks: tuple[Track, ...]) -> None:
    """The columns across the panel: numbers on top, a rule, the squares of each up to row ``BOTTOM``."""
    x = (c.width - PITCH * len(tracks)) // 2
    for track in tracks:
        _column(c, x, track)
        x += PITCH
    c.draw.line((0, 9, c.width - 1, 9), fill=c.lit)


def _column(c: Canvas, x0: int, t: Track) -> None:
    number = str(t.column)
    nx = x0 + (PITCH - width_of(number, "small") + 1) // 2
    if t.claimed == "mine":
        c.draw.rectangle((x0, 0, x0 + PITCH - 2, 8), fill=c.lit)
        c.raw((nx, 0), number, "small", fill=0)
    else:
        c.raw((nx, 0), number, "small", fill=c.grey if t.claimed else c.lit)
    top = BOTTOM - SQUARE * t.height + 2  # the top square's first row
    if t.claimed:
        c.draw.rectangle((x0 + 2, top, x0 + 8, BOTTOM), fill=c.lit if t.claimed == "mine" else c.grey)
        return
    for step in range(1, t.height + 1):
        y = BOTTOM - SQUARE * (step - 1)
        if step == t.runner:  # wider than a square, to the cell's edges but one
            c.draw.rectangle((x0, y - 1, x0 + PITCH - 2, y), fill=c.lit)
        elif step <= t.marker:
            c.draw.rectangle((x0 + 2, y - 1, x0 + 8, y), fill=c.lit)
        elif step < t.runner:  # the stem climbed this turn
            c.draw.rectangle((x0 + 4, y - 1, x0 + 6, y), fill=c.lit)
        else:
            c.draw.rectangle((x0 + 2, y - 1, x0 + 8, y), fill=c.grey)
