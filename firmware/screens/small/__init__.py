"""The screens of the 0.91-inch 128x32 SSD1306: a painter for every view, in 32 rows.

Fonts and words are the 128x64 screens' (and so are the top bar, the legend,
the icons and the board's cells, placed higher); what changes is what each
screen keeps. A decision (turn, dice, pick, move, what to do after a stop or
bust, the win) is one page with what the player chooses between; a long view
(a message, a hint's reason, lists of numbers, the board's players) becomes
pages, shown in turns by the daemon. See docs/display.md.

- ``frame``: the rows, the top bar and legend placed for 32 rows, pages (``flow``);
- ``game``: turn, dice, pick, move;
- ``handover``: instructions after a stop, bust or undo, the win;
- ``board``: the overview and one column;
- ``lists``: menu, setup, wins;
- ``messages``: a message, a hint, the shutdown frame;
- ``people``: a person's numbers, a game's recap;
- ``phone``: pairing a phone, the QR code one pixel a module.
"""

from __future__ import annotations

from ..families import painters
from . import board, game, handover, lists, messages, people, phone
from .frame import LAYOUT

__all__ = ["LAYOUT", "PAINTERS"]

#: View type -> the function that paints it on a 128x32 canvas (the same families as the 128x64 ``PAINTERS``).
PAINTERS = painters({"game": game, "handover": handover, "board": board, "lists": lists, "people": people,
                     "messages": messages, "phone": phone})
