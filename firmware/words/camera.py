"""Words about the camera: what it found on the board, what it cannot see, and setting it up.

A finding names a piece by its colour (what the players see on the board), a
runner as a runner, and a space by its column and its square (1 = bottom), as
the instructions after a stop do.
"""

from __future__ import annotations

from ..i18n import N_
from .marks import _
from .menus import colour

# TRANSLATORS: title of a screen where the camera says the real board differs from the game.
CHECK_BOARD = N_("Check the board")
# TRANSLATORS: title of the screen setting the camera up (it learns the empty board).
CAMERA = N_("Camera")

def finding_line(what: str, kind: str, column: int, should: int, seen: int, owner: str = "") -> str:
    """One thing wrong on the board, in one sentence: ``kind`` a seat's colour (the config's) or "runner";
    ``owner`` the colour that claimed ``column``, when a piece is on a claimed column."""
    if kind == "runner":  # sight.layout.RUNNER (a literal here: the bound words translate module-level text)
        if what == "extra":
            # TRANSLATORS: a runner (the shared piece of a turn) was left on column {column} after the turn.
            return _("A runner is still on {column}").format(column=column)
        if what == "moved":
            # TRANSLATORS: {column} a column, {should} and {seen} squares (1 = bottom).
            return _("The runner on {column} should be at {should} (it is at {seen})").format(
                column=column, should=should, seen=seen)
        # TRANSLATORS: the runner the game has on column {column} square {should} is not on the board.
        return _("The runner on {column} should be at {should} (it is not there)").format(column=column, should=should)
    name = colour(kind)
    if what == "moved":
        # TRANSLATORS: {name} a colour ("Red"), {column} a column, {should} and {seen} squares (1 = bottom).
        return _("{name} on {column} should be at {should} (it is at {seen})").format(
            name=name, column=column, should=should, seen=seen)
    if what == "missing":
        # TRANSLATORS: {name}'s marker should be on column {column}, square {should}, and is not on the board.
        return _("{name} on {column} should be at {should} (it is not there)").format(
            name=name, column=column, should=should)
    if owner:
        # TRANSLATORS: {owner} claimed column {column}, so {name}'s marker must come off it.
        return _("Take {name} off {column}: {owner} claimed it").format(name=name, column=column, owner=colour(owner))
    # TRANSLATORS: a marker of {name} is on column {column}, square {seen}, where the game has none.
    return _("{name} on {column} should not be there (it is at {seen})").format(name=name, column=column, seen=seen)


def blind_line(why: str) -> str:
    """Why the camera could not read the board."""
    if why == "markers":
        # TRANSLATORS: the camera finds the board by four printed tags (squares of black and white) on its corners;
        # not the players' markers.
        return _("Cannot see the corner tags: is something over the board's corners?")
    if why == "hand":
        return _("Something is over the board: looking again when it is gone")
    return _("Cannot see the board well: check the light")


def board_right() -> str:
    # TRANSLATORS: the camera compared the real board with the game and found nothing wrong.
    return _("The board is right")


def board_right_now() -> str:
    # TRANSLATORS: said once when the players fixed the board after the camera said it was wrong.
    return _("The board is right now")


def board_unsure(spaces: int) -> str:
    # TRANSLATORS: nothing wrong was seen, but {n} squares could not be read (glare, a shadow).
    return _("Nothing wrong seen; {n} squares hard to see").format(n=spaces)


def looking() -> str:
    # TRANSLATORS: the camera waits for the picture to settle, then reads the board.
    return _("Looking at the board...")


def camera_absent(why: str) -> str:
    # TRANSLATORS: {why} is the camera's own one-line reason (in English, from the system).
    return _("The camera does not answer: {why}").format(why=why)


def camera_lines(state: str, refused: str = "") -> tuple[str, ...]:
    """The camera screen's words while setting it up (``state``: "unset", "ask", "setting", "set", "refused")."""
    if state == "setting":
        return (_("Setting the camera up: do not touch the board..."),)
    if state == "set":
        return (_("Camera set up: it found the board's spaces"),)
    if state == "refused":
        return (_("Not set up:"), {
            "markers": _("all four corner tags must be in the picture"),
            "light": _("light the board evenly, without glare"),
            "spaces": _("take every piece off the board, the tags on its corners"),
            # TRANSLATORS: the box cannot place this board's spaces itself: on a paired phone's camera page, tap
            # each column's bottom and top space on the board's photo.
            "phone": _("mark each column's ends on a paired phone"),
        }.get(refused, _("the camera gives no picture")))
    if state == "unset":
        return (_("The camera is not set up yet."), _("Take every piece off the board, then press C."))
    return (_("Take every piece off the board, then press C."),)
