"""What a phone asks of the box, and how it gets there: one JSON line on the box's own unix socket.

The box (``PrivateNetwork=yes``) listens on ``box.sock`` in its state
directory, mode 0600: only its own user (the web view's too) can connect.
The web view sends one request a connection, a JSON object on one line of at
most :data:`MAX_LINE` bytes, and reads one line back:
``{"ok": true, "said": "Ann added from a phone"}`` or ``{"ok": false,
"error": "one line"}``. The shapes are checked here, on both sides
(:func:`check`); what a name or a colour may be is checked by the box, as
the command line and the config are.

Requests::

    {"do": "add", "name": "Ann"}
    {"do": "rename", "old": "Ann", "new": "Anna"}
    {"do": "remove", "name": "Ann"}
    {"do": "setup", "seats": [{"colour": "red", "name": "Ann", "box": false}, ...],
     "first": 0, "win": 3, "speedy": false, "risky": false, "language": "en"}
    {"do": "settings", "language": "ja", "dim_after_min": 10, "sound": true, "lamps": true}
    {"do": "camera", "step": "photo"}       set the camera up: a photo of the empty board, the spaces fitted
    {"do": "camera", "step": "ends", "ends": {"2": [[x, y], [x, y]], ..., "12": [...]}}
                                            ... or placed by the bottom and top space of each column, tapped
                                            on that photo (its pixels: camera/setup.jpg beside the store)
"""

from __future__ import annotations

import json
import socket
from pathlib import Path

SOCKET = "box.sock"
MAX_LINE = 16 * 1024  # bytes of a request or an answer
WAIT = 8.0  # seconds the web view waits for the box's answer (the loop takes it between two presses)
ROSTER = ("add", "rename", "remove")
MAX_SEATS = 4
MAX_DIM_MINUTES = 240
#: The store fact the box keeps the settings a phone set in that the table's memory does not (dimming, lamps).
SETTINGS_FACT = "phone_settings"


class LinkError(ValueError):
    """A request that is not one the box takes (one line)."""


class BoxOff(OSError):
    """Nothing listens on the box's socket: the box is not running."""


class BoxSilent(OSError):
    """The box took the request but did not answer in time (it keeps it: it is not lost)."""


def _text(raw, what: str, limit: int = 200) -> str:
    if not isinstance(raw, str) or len(raw) > limit:
        raise LinkError(f"{what} must be text of at most {limit} characters")
    return raw


def _flag(raw, what: str) -> bool:
    if not isinstance(raw, bool):
        raise LinkError(f"{what} must be true or false")
    return raw


def _number(raw, what: str, low: int, high: int) -> int:
    if type(raw) is not int or not low <= raw <= high:
        raise LinkError(f"{what} must be a whole number from {low} to {high}")
    return raw


def check(raw) -> dict:
    """The request ``raw`` (parsed JSON) in its checked shape, or :class:`LinkError`."""
    if not isinstance(raw, dict):
        raise LinkError("a request is a JSON object")
    kind = raw.get("do")
    if kind == "add" or kind == "remove":
        return {"do": kind, "name": _text(raw.get("name"), "the name")}
    if kind == "rename":
        return {"do": kind, "old": _text(raw.get("old"), "the old name"), "new": _text(raw.get("new"), "the new name")}
    if kind == "setup":
        seats = raw.get("seats")
        if not isinstance(seats, list) or not 1 <= len(seats) <= MAX_SEATS:
            raise LinkError(f"a game has 1 to {MAX_SEATS} seats")
        out = []
        for seat in seats:
            if not isinstance(seat, dict):
                raise LinkError("a seat is a JSON object")
            name = seat.get("name")
            out.append({"colour": _text(seat.get("colour"), "a colour", 20),
                        "name": None if name in (None, "") else _text(name, "a name"),
                        "box": _flag(seat.get("box", False), "box")})
        return {"do": kind, "seats": out, "first": _number(raw.get("first", 0), "first", 0, len(out) - 1),
                "win": _number(raw.get("win", 3), "columns to win", 1, 11),
                "speedy": _flag(raw.get("speedy", False), "speedy"), "risky": _flag(raw.get("risky", False), "risky"),
                "language": _text(raw.get("language", ""), "the language", 8)}
    if kind == "settings":
        out = {"do": kind}
        if "language" in raw:
            out["language"] = _text(raw["language"], "the language", 8)
        if "dim_after_min" in raw:
            out["dim_after_min"] = _number(raw["dim_after_min"], "dimming", 0, MAX_DIM_MINUTES)
        for key in ("sound", "lamps"):
            if key in raw:
                out[key] = _flag(raw[key], key)
        return out
    if kind == "camera":
        return _camera(raw)
    raise LinkError("not a request the box takes")


#: The columns a tapped camera set-up names, and the biggest photo it may point into (pixels).
CAMERA_COLUMNS = tuple(range(2, 13))
MAX_PHOTO_SIDE = 8192


def _camera(raw: dict) -> dict:
    step = raw.get("step")
    if step == "photo":
        return {"do": "camera", "step": step}
    if step != "ends":
        raise LinkError("a camera request is a photo or the columns' ends")
    ends = raw.get("ends")
    if not isinstance(ends, dict) or sorted(ends, key=str) != sorted(map(str, CAMERA_COLUMNS), key=str):
        raise LinkError("the ends of every column, 2 to 12, are needed")
    out = {}
    for key, pair in ends.items():
        if not isinstance(pair, list) or len(pair) != 2:
            raise LinkError(f"column {key}: its bottom and top space, two points")
        points = []
        for point in pair:
            if not (isinstance(point, list) and len(point) == 2 and all(
                    type(v) in (int, float) and 0 <= v <= MAX_PHOTO_SIDE for v in point)):
                raise LinkError(f"column {key}: a point is two numbers in the photo")
            points.append([float(point[0]), float(point[1])])
        out[str(int(key))] = points
    return {"do": "camera", "step": step, "ends": out}


def parse(line: bytes) -> dict:
    """One request line as read off the socket, checked."""
    if len(line) > MAX_LINE:
        raise LinkError(f"a request is at most {MAX_LINE} bytes")
    try:
        return check(json.loads(line.decode("utf-8")))
    except (UnicodeDecodeError, ValueError, RecursionError) as err:  # RecursionError: nested too deep
        if isinstance(err, LinkError):
            raise
        raise LinkError("a request is one line of JSON") from None


def encode(message: dict) -> bytes:
    return json.dumps(message, ensure_ascii=False).encode("utf-8") + b"\n"


def read_line(sock: socket.socket, limit: int = MAX_LINE) -> bytes:
    """Bytes up to the first newline (without it); at most ``limit``, else :class:`LinkError`."""
    data = b""
    while b"\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            break
        data += chunk
        if len(data) > limit + 1:
            raise LinkError(f"a line is at most {limit} bytes")
    return data.partition(b"\n")[0]


def path_of(state_dir) -> Path:
    return Path(state_dir) / SOCKET


def ask(state_dir, request: dict, *, wait: float = WAIT) -> dict:
    """Send ``request`` to the box running on ``state_dir``; its answer (``ok`` and ``said`` or ``error``).

    :class:`BoxOff` when no box listens, :class:`BoxSilent` when it did not answer within ``wait`` seconds.
    """
    line = encode(check(request))
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(wait)
    try:
        try:
            sock.connect(str(path_of(state_dir)))
        except (FileNotFoundError, ConnectionRefusedError) as err:
            raise BoxOff("the box is not running") from err
        sock.sendall(line)
        answer = read_line(sock)
    except socket.timeout as err:
        raise BoxSilent("the box did not answer in time; it will still take the change") from err
    except LinkError as err:
        raise BoxSilent(str(err)) from None
    except (BoxOff, BoxSilent):
        raise
    except OSError as err:
        raise BoxSilent(f"the box's socket: {err.strerror or err}") from None
    finally:
        sock.close()
    try:
        reply = json.loads(answer.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise BoxSilent("the box's answer did not read") from None
    if not isinstance(reply, dict) or not isinstance(reply.get("ok"), bool):
        raise BoxSilent("the box's answer did not read")
    return reply
