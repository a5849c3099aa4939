"""The camera's own process: looks at the board when the box asks, and says what it saw.

Started by the box (:mod:`firmware.daemon.camera`) as ``python -m firmware.camera.eye``, it speaks the
link's lines (:mod:`firmware.camera.link`) on its standard input and output and nothing else there; its
log goes to standard error (the journal). NumPy and OpenCV load here, never in the box's loop, and a
camera that hangs hangs only this process: the box plays on and starts it again.

While the box watches (after a hand-over, or once for the menu's Check board) the camera takes a few
frames a second, waits for the picture to settle (no hand over the board), reads it against the game, and
says the verdict when it differs from the last one said, with whether anything moved since the watch
began (the box says a wrong board at once only then: the players may not have touched it yet).
"""

from __future__ import annotations

import argparse
import logging
import os
import queue
import sys
import threading
import time

import numpy as np

from engine import HEIGHTS
from hw.camera import CameraError, FolderCamera, PiCamera, UsbCamera
from sight import calibrate as calibration
from sight import markers
from sight.layout import STANDARD_MARKERS, centred, from_ends
from sight.palette import Palette, PaletteError
from sight.read import Tuning, look
from sight.settle import Stillness
from sight.verdict import verdict as judge

from . import link, pictures

log = logging.getLogger("cantstop.camera")

#: Frames a second while watching: enough to see a hand leave within a second, little work for a Pi Zero.
RATE = 4.0
#: A check from the menu reads the picture after this long even if it never settles (a hand resting on it).
ONCE_PATIENCE = 5.0
#: Setting up waits this long at most for the empty board to settle.
SETUP_PATIENCE = 8.0
#: A camera that cannot be opened is tried again after this long.
RETRY = 10.0


def refusal_kind(err: ValueError) -> str:
    """A refused set-up (:class:`sight.calibrate.CalibrationError` or :class:`sight.markers.MarkersError`) as the
    screen's kind of refusal (:data:`sight.calibrate.KINDS`): the light, the corner tags, the spaces, or a board
    whose spaces only a person can place, on the phone. Carried by the error, never read from its English."""
    kind = getattr(err, "kind", "spaces")
    return kind if kind in calibration.KINDS else "spaces"


def open_camera(source: str, device: str = "/dev/video0", folder: str | None = None, state_dir=None):
    """The camera the config names (CameraError in one line when it cannot be had)."""
    try:
        return _opened(source, device, folder, state_dir)
    except ImportError as err:  # a library the camera needs is not installed here
        raise CameraError(f"the {source} camera needs {err.name or 'a library'}, which is not installed") from err


def _opened(source: str, device: str, folder: str | None, state_dir):
    if source == "usb":
        return UsbCamera(device)
    if source == "pi":
        return PiCamera()
    if source == "folder":
        return FolderCamera(folder or "")
    if source == "scene":
        from .drawn import DrawnCamera

        return DrawnCamera(state_dir)
    raise CameraError(f"no camera called {source!r}")


def tapped(photo: np.ndarray, ends: dict, like):
    """The layout a phone's taps give: each column's bottom and top space, in the set-up photo's pixels, mapped
    onto the board's plane through the corner tags in that photo."""
    found = markers.find(photo, markers.nominal(like.markers, like.marker_mm))
    anchors = markers.anchors(found, like.markers)
    to_plane = markers.plane_map(found, anchors)
    plane = {int(c): tuple(map(tuple, markers.apply(to_plane, np.asarray(pair, dtype=np.float64))))
             for c, pair in ends.items()}
    return from_ends(HEIGHTS, plane, like.markers, like.marker_mm)


class Eye:
    """The process's state: its camera, the set-up, what it is watching for, and what it said last."""

    def __init__(self, opener, state_dir, say) -> None:
        self.opener, self.state_dir, self.say = opener, state_dir, say
        self.camera = None
        self.retry_at = 0.0
        self.cal: calibration.Calibration | None = None
        self.runner = "white"
        self.learnt: dict = {}  # colour -> what this table's pieces of it looked like (BGR on the markers' white)
        self.palette: Palette | None = None
        self.tuning = Tuning()
        self.watch: dict | None = None  # {"ticket", "expected", "once", "since"}
        self.setup_photo: np.ndarray | None = None  # the empty board's last photo (a phone's taps point into it)
        self.still = Stillness()
        self.read_in_calm = False  # the picture was read since it last settled
        self.last: tuple | None = None  # the last verdict said (and whether anything had moved)

    # -- the camera itself ---------------------------------------------------------------

    def ensure_camera(self) -> bool:
        if self.camera is not None:
            return True
        if time.monotonic() < self.retry_at:
            return False
        try:
            self.camera = self.opener()
        except CameraError as err:
            self.retry_at = time.monotonic() + RETRY
            self.say({"camera": "absent", "why": str(err)})
            return False
        self.say({"camera": "ready" if self.cal is not None else "unset", "why": ""})
        return True

    def grab(self) -> np.ndarray | None:
        if not self.ensure_camera():
            return None
        try:
            return self.camera.grab()
        except CameraError as err:
            self.camera.close()
            self.camera = None
            self.retry_at = time.monotonic() + RETRY
            self.say({"camera": "absent", "why": str(err)})
            return None

    # -- requests ----------------------------------------------------------------------

    def take(self, message: dict) -> bool:
        """One request; False when the box said quit."""
        do = message.get("do")
        if do == "quit":
            return False
        if do == "setup":
            self.setup(message)
        elif do == "watch":
            self.watch = {"ticket": link.ticket_of(message), "expected": link.pieces_from_json(message["expected"]),
                          "once": bool(message.get("once")), "since": time.monotonic()}
            self.colours(message.get("colours") or ())
            self.still.reset()
            self.read_in_calm = False
            self.last = None
            if hasattr(self.camera, "follow"):  # a drawn board: the table sets it as the game says
                self.camera.follow(self.watch["expected"])
        elif do == "stop":
            self.watch = None
        elif do == "calibrate":
            self.calibrate(link.ticket_of(message), message.get("ends"))
        elif do == "nudge" and hasattr(self.camera, "nudge"):
            self.camera.nudge()  # no hand is drawn doing it: the picture is taken as touched, to settle and be read
            self.still.touched()
            self.read_in_calm = False
        return True

    def setup(self, message: dict) -> None:
        raw = message.get("calibration")
        self.cal = None
        if raw is not None:
            try:
                self.cal = calibration.Calibration.from_json(raw)
            except ValueError as err:
                log.error("the kept camera set-up: %s", err)
        self.runner = message.get("runner", "white")
        self.learnt: dict = {}
        self.palette = None
        self.tuning = Tuning(tall=float(message.get("tall", 16)))
        if self.camera is not None:
            self.say({"camera": "ready" if self.cal is not None else "unset", "why": ""})
        else:
            self.ensure_camera()
        if self.cal is None and hasattr(self.camera, "clear"):  # a drawn board comes set up
            self.calibrate(0)

    def colours(self, names) -> None:
        """The palette for a game's seat colours (what this table's pieces of each looked like, when learnt)."""
        names = [str(n) for n in names]
        if self.palette is not None and sorted(self.palette.names()) == sorted(names + ["runner"]):
            return
        try:
            self.palette = Palette.of(names, runner=self.runner, learnt=self.learnt)
        except PaletteError as err:
            log.error("%s", err)
            self.palette = None

    def calibrate(self, ticket: int, ends: dict | None = None) -> None:
        """Set the camera up: the empty board photographed (its spaces fitted), or, with ``ends`` (tapped on that
        photo), the spaces placed there; said to the box, which keeps it."""
        if ends is None:
            photo = self.empty_board()
            if photo is None:
                self.say({"ticket": ticket, "refused": "camera", "why": "the camera gives no picture"})
                return
            self.setup_photo = photo
        elif self.setup_photo is None:
            self.say({"ticket": ticket, "refused": "camera", "why": "take the photo of the empty board first"})
            return
        photo = self.setup_photo
        like = centred(HEIGHTS, markers=STANDARD_MARKERS)
        try:
            if ends is None:
                cal = calibration.calibrate(photo, HEIGHTS, like)
            else:
                cal = calibration.calibrate(photo, HEIGHTS, tapped(photo, ends, like), fitted=False)
        except (calibration.CalibrationError, markers.MarkersError) as err:
            self.say({"ticket": ticket, "refused": refusal_kind(err), "why": str(err)})
            self._setup_pictures(photo, None)
            return
        self.cal = cal
        self.say({"ticket": ticket, "calibration": cal.to_json()})
        self.say({"camera": "ready", "why": ""})
        self._setup_pictures(photo, cal)

    def empty_board(self) -> np.ndarray | None:
        """A settled photo of the empty board, three frames averaged (less noise to learn)."""
        if hasattr(self.camera, "clear"):  # a drawn board: its players clear it, as the box asks
            self.camera.clear()
        frames: list[np.ndarray] = []
        still = Stillness()
        until = time.monotonic() + SETUP_PATIENCE
        while time.monotonic() < until:
            frame = self.grab()
            if frame is None:
                return None
            frames = (frames + [frame])[-3:]
            if still.add(frame):
                break
            time.sleep(1 / RATE)
        return np.mean(np.stack(frames), axis=0).astype(np.uint8) if len(frames) > 1 else frames[0]

    def _setup_pictures(self, photo: np.ndarray, cal) -> None:
        if self.state_dir is None:
            return
        try:
            pictures.write_setup(self.state_dir, photo, cal)
            self._pictures(photo, pictures.board(photo, cal) if cal is not None else None)
        except OSError as err:
            log.error("cannot keep the camera's set-up pictures: %s", err)

    # -- watching ----------------------------------------------------------------------

    def step(self) -> None:
        """One frame of a watch: read the picture once it has settled, say what changed."""
        watch = self.watch
        if watch is None:
            return
        frame = self.grab()
        if frame is None:
            return
        still = self.still.add(frame)
        if not still:
            self.read_in_calm = False
            if not (watch["once"] and time.monotonic() - watch["since"] > ONCE_PATIENCE):
                return
        if self.read_in_calm and not watch["once"]:
            return
        self.read_in_calm = True
        self.check(frame, watch)

    def check(self, frame: np.ndarray, watch: dict) -> None:
        if self.cal is None or self.palette is None:
            self.say({"ticket": watch["ticket"], "verdict": {"state": "blind", "wrong": [], "unsure": [],
                                                             "why": "markers"}, "moved": self.still.moved})
            self.watch = None if watch["once"] else watch
            return
        started = time.perf_counter()
        reading = look(frame, self.cal, watch["expected"], self.palette, self.tuning)
        result = judge(reading, watch["expected"])
        log.debug("read in %.0f ms: %s", (time.perf_counter() - started) * 1000, result.state)
        if reading.colours and result.state == "right":
            self.palette = self.palette.learnt(reading.colours)
            self.learnt.update(self.palette.kinds)
        said = (result.state, result.wrong, result.why, self.still.moved)
        if watch["once"] or said != self.last:
            self.last = said
            self.say({"ticket": watch["ticket"], "verdict": result.to_json(), "moved": self.still.moved})
        self._pictures(frame, pictures.board(frame, self.cal, watch["expected"], result, reading))
        if watch["once"]:
            self.watch = None

    def _pictures(self, photo, board) -> None:
        if self.state_dir is None:
            return
        try:
            pictures.write(self.state_dir, photo, board)
        except OSError as err:
            log.error("cannot keep the camera's pictures: %s", err)

    def close(self) -> None:
        if self.camera is not None:
            self.camera.close()


def _lines(fd: int, limit: int):
    """The pipe's lines, read straight from its descriptor: a thread blocked here holds no lock of Python's
    buffered files, so the process can end while it waits (a buffered ``readline`` left a lock held at exit).
    A line longer than ``limit`` is given as None, and dropped whole."""
    held, dropping = b"", False
    while True:
        chunk = os.read(fd, 65536)
        if not chunk:
            return
        held += chunk
        while b"\n" in held:
            line, held = held.split(b"\n", 1)
            if not dropping:
                yield line + b"\n" if len(line) < limit else None
            dropping = False
        if len(held) >= limit:
            if not dropping:
                yield None
            held, dropping = b"", True


def _reader(fd: int, inbox: queue.Queue, limit: int = link.MAX_LINE) -> None:
    """The box's lines, onto ``inbox``; None once it closed the pipe (the box is gone: so is the camera)."""
    for line in _lines(fd, limit):
        try:
            if line is None:
                raise link.LinkError("a line longer than the link takes")
            inbox.put(link.decode(line))
        except link.LinkError as err:
            log.error("from the box: %s", err)
    inbox.put(None)


def serve(eye: Eye, fd: int) -> None:
    """Answer the box (its lines on the descriptor ``fd``) until it says quit or goes away."""
    inbox: queue.Queue = queue.Queue()
    threading.Thread(target=_reader, args=(fd, inbox), name="camera-link", daemon=True).start()
    while True:
        try:
            message = inbox.get(timeout=1 / RATE if eye.watch is not None else None)
        except queue.Empty:
            message = {}
        if message is None:
            return
        try:
            if message and not eye.take(message):
                return
            eye.step()
        except link.LinkError as err:
            log.error("from the box: %s", err)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m firmware.camera.eye", description=__doc__.splitlines()[0])
    ap.add_argument("--source", required=True)
    ap.add_argument("--device", default="/dev/video0")
    ap.add_argument("--folder")
    ap.add_argument("--state-dir")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="camera: %(message)s", stream=sys.stderr)
    out = sys.stdout.buffer
    lock = threading.Lock()

    def say(message: dict) -> None:
        with lock:
            out.write(link.encode(message))
            out.flush()

    eye = Eye(lambda: open_camera(args.source, args.device, args.folder, args.state_dir), args.state_dir, say)
    try:
        serve(eye, sys.stdin.fileno())
    except BrokenPipeError:
        pass
    finally:
        eye.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
