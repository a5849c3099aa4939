"""Terminal resizes (SIGWINCH) delivered as calls from a thread, safely."""

from __future__ import annotations

import logging
import os
import signal
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)


class ResizeWatch:
    """SIGWINCH -> ``on_resize()`` in a thread of its own.

    The signal handler only writes a byte to a pipe (no lock, so it cannot
    deadlock against a frame being drawn); the thread reads it and redraws.
    """

    def __init__(self, on_resize: Callable[[], None]) -> None:
        self._on_resize = on_resize
        self._read_fd, self._write_fd = os.pipe()
        os.set_blocking(self._write_fd, False)
        self._closed = False
        self._previous = signal.signal(signal.SIGWINCH, self._signalled)
        self._thread = threading.Thread(target=self._run, name="ResizeWatch", daemon=True)
        self._thread.start()

    def _signalled(self, signum, frame) -> None:
        try:
            os.write(self._write_fd, b"w")
        except OSError:  # the pipe is full: a redraw is already coming
            pass

    def _run(self) -> None:
        while True:
            try:
                data = os.read(self._read_fd, 64)
            except OSError:
                return
            if not data or self._closed:
                return
            try:
                self._on_resize()
            except Exception:  # a failed redraw must not end the watching
                log.exception("redraw after a resize failed")

    def close(self) -> None:
        self._closed = True
        try:
            signal.signal(signal.SIGWINCH, self._previous if self._previous is not None else signal.SIG_DFL)
        except ValueError:  # not the main thread: leave the handler, it only writes to a closed pipe
            pass
        os.close(self._write_fd)  # ends the thread's read
        self._thread.join(1.0)
        os.close(self._read_fd)
