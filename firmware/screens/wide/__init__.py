"""The screens of the 3.12-inch 256x64 SSD1322 (grey): the turn beside a compact board.

Most screens are the 128x64 painters drawn to the whole width (lists, notes,
the board overview with its columns twice as wide). The four screens of a
turn in play (the turn, the dice, the pick, the move) have a layout of their own
(``play``): on the left, what the 128x64 screen says, in the same fonts (the
move's text and the bust chance as large as there, its caption medium); on
the right, the eleven columns with the player's markers and runners, and the
legend under them. See docs/display.md.
"""

from __future__ import annotations

from ...layout import Layout
from ...views import DiceView, MoveView, PickView, TurnView
from .. import PAINTERS
from . import play

__all__ = ["LAYOUT", "PAINTERS_WIDE"]

#: The 3.12-inch 256x64 SSD1322: twice the 128x64 width, in grey levels (mode "L").
LAYOUT = Layout(256, 64, "L")

#: View type -> the function that paints it on a 256x64 canvas: the 128x64 painters, but for a turn in play.
PAINTERS_WIDE = PAINTERS | {TurnView: play.turn, DiceView: play.dice, PickView: play.pick,
                                MoveView: play.move}
