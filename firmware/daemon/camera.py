"""The box's side of its camera: the camera's process started, spoken to, and heard, never waited on.

The camera reads pictures in a process of its own (:mod:`firmware.camera.eye`): NumPy and OpenCV never
load into the loop, and a camera that hangs, crashes or is unplugged hangs nothing here. Two threads
carry the lines: one writes what the loop asks (so the loop never blocks on a full pipe), one reads what
the camera says and puts it on the loop's queue as a UI input (:class:`firmware.ui.CameraSaid`,
:class:`firmware.ui.BoardSeen`, :class:`firmware.ui.CameraSetUp`), taken like a press. A process that
ends is started again, a little later each time, and the UI hears the camera is absent meanwhile.
"""

from __future__ import annotations

import logging
import queue
import subprocess
import sys
import threading
import time

from firmware import ui
from firmware.camera import link

log = logging.getLogger("cantstop.daemon")

#: A camera process that ended is started again after this long, doubling up to RESTART_MAX.
RESTART_SECONDS, RESTART_MAX = 2.0, 60.0


class CameraLink:
    """The camera's process for a box, as the config's ``[camera]`` names it; what it hears goes to :meth:`attach`'s."""

    def __init__(self, camera_config, state_dir, python: str = sys.executable, stderr=None) -> None:
        self.cfg = camera_config
        self.state_dir = state_dir
        self.stderr = stderr  # where the process's log goes (a file; None: the box's own standard error)
        self.put = lambda item: None  # where what the camera says goes (attach: the loop's queue)
        self.python = python
        self.proc: subprocess.Popen | None = None
        self.outbox: queue.Queue = queue.Queue()
        self.setup: dict | None = None  # the last setup said, said again to a process started anew
        self.closing = False
        self._lock = threading.Lock()
        self._restart_after = RESTART_SECONDS
        self._threads: list[threading.Thread] = []

    def attach(self, put) -> None:
        """Where the UI inputs the camera's lines become go: the loop's queue."""
        self.put = put

    def command(self) -> list[str]:
        cmd = [self.python, "-m", "firmware.camera.eye", "--source", self.cfg.source, "--device", self.cfg.device]
        if self.cfg.folder:
            cmd += ["--folder", self.cfg.folder]
        if self.state_dir is not None:
            cmd += ["--state-dir", str(self.state_dir)]
        return cmd

    def start(self) -> None:
        """Start the camera's process (and the threads that speak to it); a failure is heard as absent."""
        try:
            proc = subprocess.Popen(self.command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr,
                                    bufsize=0)
        except OSError as err:
            log.error("the camera's process does not start: %s", err)
            self.put(ui.CameraSaid("absent", f"the camera's process does not start: {err}"))
            return
        with self._lock:
            self.proc = proc
        writer = threading.Thread(target=self._write, args=(proc,), name="camera-out", daemon=True)
        reader = threading.Thread(target=self._read, args=(proc,), name="camera-in", daemon=True)
        self._threads = [writer, reader]
        writer.start()
        reader.start()
        if self.setup is not None:
            self.send(self.setup)

    def send(self, message: dict) -> None:
        """Ask the camera (queued: the loop never waits on the pipe)."""
        if message.get("do") == "setup":
            self.setup = message
        self.outbox.put(message)

    def _write(self, proc: subprocess.Popen) -> None:
        while True:
            message = self.outbox.get()
            if message is None or proc.poll() is not None:
                return
            try:
                proc.stdin.write(link.encode(message))
                proc.stdin.flush()
            except (BrokenPipeError, OSError, ValueError):
                return

    def _read(self, proc: subprocess.Popen) -> None:
        for line in iter(lambda: proc.stdout.readline(link.MAX_LINE + 1), b""):
            try:
                inp = heard(link.decode(line))
            except link.LinkError as err:
                log.error("the camera said something odd: %s", err)
                continue
            if inp is not None:
                self.put(inp)
        proc.wait()
        if self.closing:
            return
        log.error("the camera's process ended (exit %s): starting it again in %.0f s", proc.returncode,
                  self._restart_after)
        self.put(ui.CameraSaid("absent", "the camera's process stopped: starting it again"))
        time.sleep(self._restart_after)
        self._restart_after = min(self._restart_after * 2, RESTART_MAX)
        if not self.closing:
            self.outbox = queue.Queue()
            self.start()

    def close(self) -> None:
        """Stop the camera's process: asked to quit, then killed if it does not within two seconds."""
        self.closing = True
        with self._lock:
            proc = self.proc
        if proc is None:
            return
        self.outbox.put({"do": "quit"})
        self.outbox.put(None)
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def camera_request(effect, app) -> dict:
    """The camera's line for one of the UI's camera effects (the game's seat colours go with a watch)."""
    if isinstance(effect, ui.WatchBoard):
        return {"do": "watch", "ticket": effect.ticket, "expected": link.pieces_to_json(effect.expected),
                "once": effect.once, "colours": [s.colour for s in app.seats] or list(app.settings.colours[:4])}
    if isinstance(effect, ui.SetUpCamera):
        return {"do": "calibrate", "ticket": effect.ticket} | ({"ends": effect.ends} if effect.ends else {})
    return {"do": "stop"}


def heard(message: dict):
    """What the camera said, as a UI input (None for nothing the UI needs); LinkError when it is not a line
    of the link's."""
    if "camera" in message:
        status = message["camera"]
        if status not in link.STATUSES:
            raise link.LinkError(f"no camera status {status!r}")
        return ui.CameraSaid(status, str(message.get("why", ""))[:300])
    ticket = link.ticket_of(message)
    if "verdict" in message:
        return ui.BoardSeen(ticket, link.verdict_of(message), bool(message.get("moved")))
    if "calibration" in message:
        if not isinstance(message["calibration"], dict):
            raise link.LinkError("a set-up that is not one")
        return ui.CameraSetUp(ticket, message["calibration"], "")
    if "refused" in message:
        kind = message["refused"]
        if kind not in link.REFUSALS:
            raise link.LinkError(f"no refusal {kind!r}")
        log.warning("camera set-up refused: %s", message.get("why", ""))
        return ui.CameraSetUp(ticket, None, kind)
    raise link.LinkError("an answer with nothing in it")
