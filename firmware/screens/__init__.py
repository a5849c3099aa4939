"""The renderer: one view (:mod:`firmware.views`) in, one 128x64 1-bit frame out.

``render(view)`` is pure: the same view always gives a pixel-identical image
(mode "1", lit pixel = 1), drawn only with the pinned bitmap fonts of
:mod:`hw.fonts` (Spleen, and Galmuri through :mod:`hw.glyphs`) and plain shapes, so frames can be checked against golden PNGs.
Text never runs off the screen: it is word-wrapped or cut with ``..`` to fit.
``render_checked(view)`` gives the frame together with every text that had to
be cut, so tests can check that sample views fit; nothing is kept between calls.

The package, file by file:

- ``kit``: the frame's geometry, font metrics, text fitting, the per-frame canvas;
- ``icons``: seat symbols, a die, number tags, the runner, scroll marks;
- ``frame``: the top bar and the legend every screen shares;
- ``formats``: short texts made from numbers (a chance, a runner's step, a pairing);
- ``game``: the turn, dice, pick and move screens;
- ``handover``: what to do on the board after a stop, bust or undo, and the win;
- ``board``: the board overview and one column in words;
- ``lists``: setup, menu and statistics;
- ``messages``: a message, a hint, the safe-to-unplug frame;
- ``people``: one person's statistics, a finished game's recap.
"""

from __future__ import annotations

from typing import NamedTuple

from PIL import Image

from ..views import (
    BoardView,
    DiceView,
    HintView,
    InstructionsView,
    MenuView,
    MessageView,
    MoveView,
    OffView,
    PickView,
    SetupView,
    RecapView,
    StatsView,
    TableView,
    TurnView,
    View,
    WinView,
)
from . import board, game, handover, lists, messages, people
from .icons import SEAT_SYMBOLS, draw_seat, seat_symbol
from .kit import HEIGHT, WIDTH, Canvas, fit, width_of, wrap

__all__ = [
    "HEIGHT", "PAINTERS", "SEAT_SYMBOLS", "WIDTH", "Frame", "draw_seat", "fit",
    "render", "render_checked", "seat_symbol", "width_of", "wrap",
]

#: View type -> the function that paints it on a canvas.
PAINTERS = {
    TurnView: game.turn,
    DiceView: game.dice,
    PickView: game.pick,
    MoveView: game.move,
    InstructionsView: handover.instructions,
    WinView: handover.win,
    BoardView: board.board,
    MenuView: lists.menu,
    SetupView: lists.setup,
    StatsView: lists.stats,
    TableView: people.table,
    RecapView: people.recap,
    MessageView: messages.message,
    HintView: messages.hint,
    OffView: messages.off,
}


class Frame(NamedTuple):
    """A rendered frame and the texts of its view that were cut (or dropped) to fit."""

    image: Image.Image
    cuts: tuple[str, ...]


def render_checked(view: View, size: tuple[int, int] = (WIDTH, HEIGHT)) -> Frame:
    """The frame for ``view`` (a mode "1" image of ``size``, drawn for 128x64) and what was cut."""
    try:
        painter = PAINTERS[type(view)]
    except KeyError:
        raise TypeError(f"no screen for {type(view).__name__}") from None
    canvas = Canvas((WIDTH, HEIGHT), view.lang)
    painter(canvas, view)
    image = canvas.image
    if size != (WIDTH, HEIGHT):
        image = Image.new("1", size, 0)
        image.paste(canvas.image, (0, 0))
    return Frame(image, tuple(canvas.cuts))


def render(view: View, size: tuple[int, int] = (WIDTH, HEIGHT)) -> Image.Image:
    """The frame for ``view``: a mode "1" image of ``size`` (lit pixel = 1, drawn for 128x64)."""
    return render_checked(view, size).image
