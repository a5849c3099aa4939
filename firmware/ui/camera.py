"""The camera in the UI: when it watches the board, what it found, the menu's Check board, setting it up.

The camera watches while the board should be set and nothing happens on it:
from the end of a turn (a stop or a bust: "set the board as shown") to the
next player's first roll, and before a game's first roll (an empty board).
A wrong board is said at once once the players have touched it, or once
they confirmed it with ROLL (before that they may simply not have set it
yet); it never stops a press: ROLL still rolls, the table decides. A right
board says nothing, but "the board is right now" once after a wrong one.

All of it is decided here, purely; the daemon carries out :class:`WatchBoard`, :class:`StopWatching` and
:class:`SetUpCamera` (:mod:`firmware.daemon.camera`) and feeds back what the camera said.
"""

from __future__ import annotations

from dataclasses import replace

from engine import Phase, Roll, Stop

from ..camera import said
from ..camera.expected import pieces_of
from ..camera.link import CALIBRATION_FACT, SEEN_FACT
from .messages import BoardSeen, CameraSaid, CameraSetUp, KeepFacts, Press, SetUpCamera, StopWatching, WatchBoard
from .model import App, Button, Look, LookScreen, MenuScreen, Screen
from .navigate import Result, open_menu


def colours(app: App) -> tuple[str, ...]:
    """Each seat's colour, in the game's order: the kinds of pieces the camera tells apart."""
    return tuple(s.colour for s in app.seats)


def turn_ended(app: App) -> bool:
    """The last thing that happened ended a turn (a stop, or a roll that bust): the board is being set."""
    if not app.events:
        return False
    last = app.events[-1]
    return isinstance(last, Stop) or (isinstance(last, Roll) and app.game.phase is not Phase.MOVE)


def wanted(app: App) -> tuple | None:
    """What the camera should watch for now: the pieces the game has, while the board is being set."""
    if app.camera != "ready" or not app.in_game or app.screen.kind is Screen.OFF:
        return None
    if app.events and not turn_ended(app):
        return None
    return pieces_of(app.game, colours(app))


def follow(app: App) -> Result:
    """The watch the board needs after an update: started, changed or stopped (the menu's check runs on)."""
    look = app.look
    if look is not None and look.once:
        return app, ()
    expected = wanted(app)
    if expected is None:
        return (replace(app, look=None), (StopWatching(),)) if look is not None else (app, ())
    if look is not None and look.expected == expected:
        return app, ()
    ticket = app.tickets + 1
    return replace(app, look=Look(ticket, expected, "handover"), tickets=ticket), (WatchBoard(ticket, expected),)


def shown_wrong(app: App):
    """The wrong board to say over the game now (a verdict), or None."""
    look = app.look
    if look is None or look.once or look.verdict is None or look.verdict.state != "wrong":
        return None
    if app.screen.kind is not Screen.GAME:
        return None
    return look.verdict if look.moved or app.acked == len(app.events) else None


def on_said(app: App, inp: CameraSaid) -> Result:
    """The camera's state changed: a camera back after a fault watches afresh (its process may be new)."""
    if inp.status == app.camera:
        return replace(app, camera_why=inp.why), ()
    return replace(app, camera=inp.status, camera_why=inp.why, look=None), ()


def _kept(look: Look, verdict) -> KeepFacts:
    return KeepFacts({SEEN_FACT: {"reason": look.reason, "verdict": verdict.to_json(),
                                  "expected": [list(p) for p in look.expected]}})


def on_seen(app: App, inp: BoardSeen) -> Result:
    """What a settled picture showed, for the watch it answers (an older watch's answer is too late)."""
    look = app.look
    if look is None or look.ticket != inp.ticket:
        return app, ()
    if look.once:
        screen = app.screen
        if screen.kind is Screen.LOOK and screen.ticket == inp.ticket:
            app = replace(app, screen=replace(screen, verdict=inp.verdict))
        return replace(app, look=None), (_kept(look, inp.verdict),)
    was = shown_wrong(app)
    app = replace(app, look=replace(look, verdict=inp.verdict, moved=look.moved or inp.moved))
    if was is not None and inp.verdict.state == "right":
        app = replace(app, flash=app.words.board_right_now())
    return app, (_kept(look, inp.verdict),)


def on_set_up(app: App, inp: CameraSetUp) -> Result:
    """The camera learnt the empty board (kept in the store, a restore brings it back), or why it could not."""
    screen = app.screen
    here = screen.kind is Screen.LOOK and screen.ticket == inp.ticket
    if inp.calibration is None:
        return (replace(app, screen=replace(screen, setup="refused", refused=inp.refused)) if here else app), ()
    app = replace(app, camera="ready", look=None)
    if here:
        app = replace(app, screen=replace(screen, setup="set"))
    return app, (KeepFacts({CALIBRATION_FACT: inp.calibration}),)


def open_look(app: App) -> Result:
    """The menu's Check board: one look at the board now (or, unset, the way to set the camera up)."""
    back = app.screen.back if app.screen.kind is Screen.LOOK else MenuScreen()
    if app.camera == "unset":
        return replace(app, screen=LookScreen(setup="unset", back=back)), ()
    if app.camera != "ready":
        return replace(app, screen=LookScreen(back=back)), ()
    ticket = app.tickets + 1
    expected = pieces_of(app.game, colours(app))
    app = replace(app, screen=LookScreen(ticket, back=back), look=Look(ticket, expected, "asked", once=True),
                  tickets=ticket)
    return app, (WatchBoard(ticket, expected, once=True),)


def look_press(app: App, p: Press) -> Result:
    """Check board: ROLL goes back, MENU to the menu, C sets the camera up (asking first to clear the board)."""
    screen = app.screen
    if p.button == Button.MENU:
        return open_menu(app)
    if p.button == Button.ROLL and screen.setup != "setting":
        return replace(app, screen=screen.back), ()
    if p.button != Button.C or screen.setup == "setting" or app.camera in ("", "absent"):
        return app, ()
    if screen.setup in ("ask", "unset", "refused"):
        ticket = app.tickets + 1
        return replace(app, screen=replace(screen, ticket=ticket, setup="setting"), tickets=ticket,
                       look=None), (SetUpCamera(ticket),)
    return replace(app, screen=replace(screen, setup="ask")), ()


def verdict_lines(app: App, verdict) -> tuple[str, ...]:
    """What a verdict says to the table, a line a finding (the web page says the same: firmware.camera.said)."""
    g = app.game
    return said.verdict_lines(app.words, verdict, g.claimed if g is not None else (), [s.colour for s in app.seats])


def look_lines(app: App) -> tuple[str, tuple[str, ...], str]:
    """The Check board screen's title, lines and keys."""
    w, screen = app.words, app.screen
    if screen.setup:
        keys = w.KEYS["camera"] if screen.setup in ("set", "refused") else \
            "" if screen.setup == "setting" else w.KEYS["camera_ask"]
        return w.CAMERA, w.camera_lines(screen.setup, screen.refused), keys
    if app.camera == "absent":
        return w.CHECK_BOARD, (w.camera_absent(app.camera_why),), w.KEYS["message"]
    if screen.verdict is None:
        return w.CHECK_BOARD, (w.looking(),), w.KEYS["message"]
    return w.CHECK_BOARD, verdict_lines(app, screen.verdict), w.KEYS["camera"]
