"""The menu and the screens it opens: confirm a new game, the board view, hint, statistics, notices.

One rule for MENU on every screen: it opens the menu, and on the menu it
goes back to the game (or the new-game screen when there is no game). ROLL
goes back from a screen the menu opened. On every list A moves up, B moves
down, ROLL (or C) chooses.
"""

from __future__ import annotations

from dataclasses import replace

from .messages import ForgetPhones, LoadStats, LoadUnfinished, PairPhone, PhoneCode, Press
from .model import (App, Button, ConfirmScreen, ContinueScreen, MenuScreen, MessageScreen, PhoneScreen, Screen, SetupScreen,
                    StatsScreen, hint_possible, undo_blocker)
from .network import network_lines
from .navigate import Result, flash, leave_menu, open_board, open_hint, open_menu, open_setup, to_game
from .turns import undo
from .camera import open_look


#: The menu's entries, as keys of :data:`words.MENU_ITEMS`, always in these places: fingers learn them
#: (``m b r`` is Statistics whatever the game is doing); one that cannot be used now is shown as such.
MENU_ITEMS = ("back", "stats", "undo", "hint", "board", "new", "continue")
#: The last entry, whatever comes before it: A from the top wraps to it, so a guest's phone is paired with
#: MENU, A, ROLL (three presses; it was nine, MENU, B seven times, ROLL: issue 47, item 8).
LAST_ITEM = "phone"


def menu_items(app: App) -> tuple[str, ...]:
    """The menu's entries (every one, always in the same places; the sound's next, where a buzzer is wired,
    the box's address once the network status is known: :mod:`.network`; the Phone screen last)."""
    items = MENU_ITEMS
    if app.settings.sound is not None:  # one press mutes it (or turns it on again)
        items += ("sound_on" if app.muted else "mute",)
    if app.network is not None:
        items += ("network",)
    if app.camera:  # a camera in the config: the menu's Check board (and setting it up)
        items += ("look",)
    return items + (LAST_ITEM,)


def menu_unusable(app: App) -> dict[str, str]:
    """The entries that cannot be used now, each with why (a key of :data:`words.FLASH`)."""
    off = {}
    if not app.in_game:
        off["back"] = "game_over" if app.game is not None else "no_game"
    why = undo_blocker(app)
    if why is not None:
        off["undo"] = why
    if not hint_possible(app):
        off["hint"] = "no_hint" if app.in_game else off.get("back", "no_game")
    if app.game is None:
        off["board"] = "no_game"
    return off


def menu_press(app: App, p: Press) -> Result:
    items = menu_items(app)
    cursor = min(app.screen.cursor, len(items) - 1)
    if p.button == Button.MENU:
        return leave_menu(app)
    if p.button in (Button.A, Button.B):
        step = -1 if p.button == Button.A else 1
        return replace(app, screen=MenuScreen((cursor + step) % len(items))), ()
    if p.button not in (Button.ROLL, Button.C):
        return app, ()
    why = menu_unusable(app).get(items[cursor])
    if why is not None:
        return flash(app, why)
    return _choose(app, items[cursor])


def _choose(app: App, item: str) -> Result:
    if item == "back":
        return to_game(app)
    if item == "undo":
        return undo(app)
    if item == "hint":
        return open_hint(app)
    if item == "board":
        return open_board(app)
    if item == "look":
        return open_look(app)
    if item == "new":
        if app.in_game and app.events:
            return replace(app, screen=ConfirmScreen(back=app.screen)), ()
        return open_setup(app, fresh=False)
    if item in ("mute", "sound_on"):
        return replace(app, muted=item == "mute"), ()
    if item == "phone":
        return replace(app, screen=PhoneScreen(back=leave_menu(app)[0].screen)), (PairPhone(),)
    if item == "continue":
        return replace(app, screen=ContinueScreen()), (LoadUnfinished(),)
    if item == "network":  # the name and every address, and the Wi-Fi; ROLL goes back to the menu
        return replace(app, screen=MessageScreen(app.words.NETWORK, network_lines(app), back=app.screen)), ()
    # ROLL on the statistics goes back where leaving the menu goes, not to the menu (whose ROLL opens them again)
    return replace(app, screen=StatsScreen(back=leave_menu(app)[0].screen)), (LoadStats(),)


def confirm_press(app: App, p: Press) -> Result:
    """A game would end: C says yes, MENU no; never ROLL, the button pressed most and mashed."""
    if p.button == Button.C:
        return open_setup(app, fresh=False)
    if p.button == Button.MENU:
        return replace(app, screen=app.screen.back), ()
    return flash(app, "confirm_keys")


_FOCUS_ORDER = (None,) + tuple(range(2, 13))
#: How far each button moves round the board's pages (the overview, then columns 2..12):
#: with a jump of four, every column is at most three presses from the overview.
_FOCUS_STEP = {Button.A: -1, Button.B: 1, Button.C: 4}


def board_press(app: App, p: Press) -> Result:
    """A/B step through the columns (the overview first), C jumps four; ROLL back to the game, MENU the menu."""
    if p.button in _FOCUS_STEP:
        i = _FOCUS_ORDER.index(app.screen.focus) + _FOCUS_STEP[p.button]
        return replace(app, screen=replace(app.screen, focus=_FOCUS_ORDER[i % len(_FOCUS_ORDER)])), ()
    if p.button == Button.MENU:
        return open_menu(app)
    if p.button == Button.ROLL:
        return to_game(app)
    return app, ()


def hint_press(app: App, p: Press) -> Result:
    if p.button == Button.MENU:
        return open_menu(app)
    if p.button == Button.ROLL:
        return to_game(app)
    return app, ()


def back_press(app: App, p: Press) -> Result:
    """Notices and statistics: ROLL goes back to where they were opened, MENU to the menu."""
    if p.button == Button.MENU:
        return open_menu(app)
    if p.button != Button.ROLL:
        return app, ()
    back = app.screen.back
    if back.kind is Screen.GAME and app.game is None:
        back = SetupScreen()
    return replace(app, screen=back), ()


def phone_press(app: App, p: Press) -> Result:
    """The Phone screen: C forgets every phone paired (they pair again by this screen), ROLL goes back, MENU the menu."""
    if p.button == Button.C:
        return app, (ForgetPhones(),)
    if p.button == Button.MENU:
        return open_menu(app)
    if p.button == Button.ROLL:
        return replace(app, screen=app.screen.back), ()
    return app, ()


def on_phone_code(app: App, inp: PhoneCode) -> Result:
    """The code the daemon made (or the phones it forgot), on the Phone screen if it is still up."""
    if app.screen.kind is not Screen.PHONE:
        return app, ()
    screen = replace(app.screen, code=inp.code or app.screen.code, address=inp.address or app.screen.address,
                     paired=inp.paired)
    return replace(app, screen=screen, flash=app.words.PHONES_FORGOTTEN if inp.forgot else app.flash), ()
