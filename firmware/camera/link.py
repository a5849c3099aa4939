"""The words between the box and its camera's process: one JSON object a line, each way, checked on arrival.

The box asks (on the process's standard input)::

    {"do": "setup", "colours": ["Red", "Blue"], "runner": "white", "tall": 16, "calibration": {...} | null}
    {"do": "watch", "ticket": 7, "expected": [[7, 4, "Red"], [9, 2, "runner"]], "once": false}
    {"do": "stop"}                      stop watching (the camera rests)
    {"do": "calibrate", "ticket": 8}   set the camera up from the empty board (its spaces fitted)
    {"do": "calibrate", "ticket": 9, "ends": {"2": [[x, y], [x, y]], ...}}
                                        ... or placed by each column's ends, tapped on the last set-up's photo
    {"do": "nudge"}                     (a drawn board only) a mistake on it, to try the check
    {"do": "quit"}

and the camera answers (on its standard output)::

    {"camera": "ready" | "unset" | "absent", "why": "one line"}
    {"ticket": 7, "verdict": {...}, "moved": true}     what a settled picture showed (sight.verdict)
    {"ticket": 8, "calibration": {...}}                 the set-up, for the box to keep in its store
    {"ticket": 8, "refused": "markers" | "light" | "spaces" | "phone" | "camera", "why": "one line"}

A line is at most :data:`MAX_LINE` bytes (a set-up carries the empty board's picture). Pictures are
files the camera writes in the state directory (:data:`PICTURES`), for the web page and the emulator.
"""

from __future__ import annotations

import json

from sight.layout import Piece
from sight.verdict import Verdict

MAX_LINE = 4 * 1024 * 1024
#: The camera's pictures, in the state directory: the last photo it read, and the board as it read it.
PICTURES = "camera"
VIEW = "view.jpg"
READ = "read.png"
#: The empty board's photo of the last set-up (a phone's taps point into its pixels) and its spaces in it.
SETUP = "setup.jpg"
GRID = "grid.json"
#: The rings on the board as read (BGR, as OpenCV draws them): a piece where the game has it, one wrong (and
#: where it should be), a space the camera could not tell (firmware.camera.pictures draws them; the emulator keeps them).
GREEN, RED, YELLOW = (60, 200, 60), (40, 40, 230), (0, 210, 240)
STATUSES = ("ready", "unset", "absent")
REFUSALS = ("markers", "light", "spaces", "phone", "camera")


class LinkError(ValueError):
    """A line that is not one of the link's (one line)."""


def encode(message: dict) -> bytes:
    return (json.dumps(message, separators=(",", ":"), ensure_ascii=True) + "\n").encode("ascii")


def decode(line: bytes) -> dict:
    if len(line) > MAX_LINE:
        raise LinkError("a line longer than the link takes")
    try:
        message = json.loads(line)
    except (ValueError, RecursionError) as err:
        raise LinkError(f"not one line of JSON: {err}") from None
    if not isinstance(message, dict):
        raise LinkError("not a JSON object")
    return message


def pieces_to_json(pieces) -> list:
    return [[p.column, p.step, p.kind] for p in pieces]


def pieces_from_json(raw) -> tuple[Piece, ...]:
    try:
        pieces = tuple(Piece(int(c), int(s), str(k)) for c, s, k in raw)
    except (TypeError, ValueError) as err:
        raise LinkError(f"not pieces: {err}") from None
    if len(pieces) > 60 or any(not (2 <= p.column <= 12 and 1 <= p.step <= 13) for p in pieces):
        raise LinkError("not pieces on a Can't Stop board")
    return pieces


def ticket_of(message: dict) -> int:
    ticket = message.get("ticket")
    if type(ticket) is not int or ticket < 0:
        raise LinkError("no ticket")
    return ticket


def verdict_of(message: dict) -> Verdict:
    """The verdict in an answer (LinkError when it is not one)."""
    try:
        return Verdict.from_json(message["verdict"])
    except (KeyError, ValueError) as err:
        raise LinkError(str(err)) from None

#: The store facts the camera's set-up and its last finding are kept in (the web view reads them too).
CALIBRATION_FACT = "camera_calibration"
SEEN_FACT = "camera_seen"
