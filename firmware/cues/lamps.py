"""Which button lamps are lit, pulsing or off for a view: read off the view's own legend.

One source of truth: a button's lamp is lit when the bottom line of the
screen names it (``view.keys`` as the view's own (button, label) pairs,
:func:`firmware.views.legend`, which the renderer draws), so a lamp can
never say something the legend does not. Two facts the view states beside its legend
refine that:

- ``view.expect``: the buttons the box waits for (ROLL at a handover and at
  a player's turn, the legal pairings on the dice, the two columns of a
  pick) pulse instead of glowing;
- ``view.refused``: a legend button that does nothing now (a pairing that
  cannot move) is off;
- ``view.menu_works``: the game's screens, whose legends have no room for
  MENU though it opens the menu there (held: undo), light its lamp.

A view without a legend (the box is off) puts every lamp out.
"""

from __future__ import annotations

from firmware.views import BUTTONS, legend

OFF, LIT, PULSE = "off", "lit", "pulse"

#: The buttons in the order the box has them (and the config names them).
ORDER = ("ROLL", "STOP", "A", "B", "C", "MENU")
assert set(ORDER) == BUTTONS


def legend_buttons(keys: str) -> frozenset[str]:
    """Every button the legend gives a job: ``"A/B:move ROLL:ok"`` -> {A, B, ROLL}."""
    named = set()
    for key, _label in legend(keys):
        if key:
            named.update(key.split("/"))
    return frozenset(named)


def lamp_states(view) -> dict[str, str]:
    """Button name -> OFF, LIT or PULSE, for every one of the six buttons."""
    named = set(legend_buttons(getattr(view, "keys", "") or ""))
    if getattr(view, "menu_works", False) and named:
        named.add("MENU")
    named -= set(getattr(view, "refused", ()))
    expect = set(getattr(view, "expect", ()))
    return {b: (PULSE if b in expect else LIT) if b in named else OFF for b in ORDER}
