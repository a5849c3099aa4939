"""Which painter paints each view: one key list for every layout that has a module of each family.

The 128x64 screens (``firmware.screens``) and the 128x32 ones (``firmware.screens.small``) each have
the same families of modules (``game``, ``handover``, ``board``, ...) with a function per view; a table
built from :data:`FAMILIES` cannot leave a view out of one layout that the other paints.
"""

from __future__ import annotations

from types import ModuleType

from ..views import (BoardView, DiceView, HintView, InstructionsView, MenuView, MessageView, MoveView, OffView,
                     PhoneView, PickView, RecapView, SetupView, StatsView, TableView, TurnView, WinView)

#: View type -> (its family's module, the function there that paints it).
FAMILIES: dict[type, tuple[str, str]] = {
    TurnView: ("game", "turn"),
    DiceView: ("game", "dice"),
    PickView: ("game", "pick"),
    MoveView: ("game", "move"),
    InstructionsView: ("handover", "instructions"),
    WinView: ("handover", "win"),
    BoardView: ("board", "board"),
    MenuView: ("lists", "menu"),
    SetupView: ("lists", "setup"),
    StatsView: ("lists", "stats"),
    TableView: ("people", "table"),
    RecapView: ("people", "recap"),
    MessageView: ("messages", "message"),
    HintView: ("messages", "hint"),
    PhoneView: ("phone", "phone"),
    OffView: ("messages", "off"),
}


def painters(modules: dict[str, ModuleType]) -> dict:
    """View type -> painting function, each looked up in its family's module among ``modules``."""
    return {view: getattr(modules[family], name) for view, (family, name) in FAMILIES.items()}
