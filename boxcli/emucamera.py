"""The emulator's camera (``emulate --camera``): a drawn board that follows the game, beside the screen.

``--camera`` runs the box with ``[camera] source = "scene"``: the camera's own
process draws the board as the game says it should be (:mod:`firmware.camera.drawn`)
and reads it like a photo. The terminal shows what it last read (the board
straightened, with its rings: green right, red wrong, yellow unsure; or the
photo itself when it could not place the board) and one line of what it said.
The ``x`` key makes one mistake on the drawn board or puts it right: a
developer's key, sent to the camera's process, never a seventh button of the box.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

#: The key that nudges the drawn board, and its line under the key help.
NUDGE_KEY = "x"
KEY_HELP = "camera: x makes one mistake on the drawn board or puts it right (it looks once a turn has ended)"


def with_camera(cfg):
    """``cfg`` with the drawn board as its camera (``[camera] source = "scene"``)."""
    return cfg.replace(camera=dataclasses.replace(cfg.camera, source="scene"))


def verdict_words(app, verdict) -> str:
    """A verdict in a few words (a wrong board's findings as the box says them)."""
    from firmware.ui.camera import verdict_lines

    if verdict.state == "right":
        return "right"
    if verdict.state == "wrong":
        return "wrong: " + "; ".join(verdict_lines(app, verdict))
    if verdict.state == "unsure":
        return f"unsure of {len(verdict.unsure)} spaces"
    return f"cannot see the board ({verdict.why or 'no picture'})"


def camera_line(app, last: str = "") -> str:
    """What the camera is doing and last said, from the UI's state (``last``: the last verdict's words)."""
    if app.camera in ("", "starting"):
        return "camera: starting"
    if app.camera == "absent":
        return f"camera: absent ({app.camera_why})" if app.camera_why else "camera: absent"
    if app.camera == "unset":
        return "camera: not set up (MENU, Check board, C)"
    look = app.look
    if look is not None and look.verdict is not None:
        return "camera: " + verdict_words(app, look.verdict)
    if look is not None:
        return "camera: watching"
    return f"camera: resting (last: {last})" if last else "camera: resting"


class CameraPanel:
    """The camera's side of the emulator for one box: the line it shows and the nudge key.

    :meth:`said` runs in the view's thread: it only reads the box's app, a frozen value the loop replaces
    whole, and never changes anything of the box's.
    """

    def __init__(self, box) -> None:
        self.box = box
        self.last = ""  # the words of the last verdict seen (a check from the menu is over at once)

    def said(self) -> str:
        app = self.box.app
        look = app.look
        if look is not None and look.verdict is not None:
            self.last = verdict_words(app, look.verdict)
        return camera_line(app, self.last)

    def nudge(self) -> None:
        """One mistake on the drawn board, or the board put right (the camera's process does it)."""
        self.box.camera.send({"do": "nudge"})

    def keys(self) -> dict[str, Callable[[], None]]:
        """The emulator's own keys for the camera: key -> what it does."""
        return {NUDGE_KEY: self.nudge}


def ring_colours() -> tuple:
    """The camera's rings (RGB), green, yellow then red: kept when the picture is shrunk, red over the others."""
    from firmware.camera.link import GREEN, RED, YELLOW

    return tuple(tuple(reversed(bgr)) for bgr in (GREEN, YELLOW, RED))


def picture_paths(state_dir) -> list[Path]:
    """The camera's pictures in ``state_dir``: the board as read first, then the photo (the newer is shown)."""
    from firmware.camera.link import PICTURES, READ, VIEW

    return [Path(state_dir) / PICTURES / READ, Path(state_dir) / PICTURES / VIEW]


def open_view(box, display):
    """The camera's view beside ``display`` (a :class:`hw.terminal.TerminalDisplay`), looked at from its own
    thread; with its panel (the line, the keys). (None, None) for a box without a camera."""
    if box.camera is None:
        return None, None
    from hw.camview import CameraView

    panel = CameraPanel(box)
    paths = picture_paths(box.camera.state_dir) if box.camera.state_dir is not None else []
    view = CameraView(paths, said=panel.said, marks=ring_colours())
    display.set_side(view.lines)
    view.watch(display.redraw)
    return view, panel
