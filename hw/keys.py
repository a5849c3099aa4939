"""The box on a laptop: keys read from the terminal, and keys pressed as gpiozero mock pins.

``KeyReader`` turns keypresses into ``on_key`` calls from its own thread. ``KeyPins`` turns a key into a press of a gpiozero mock pin,
so the emulator runs the very same ``GpioButtons`` as a real box. (The frame it drives: :mod:`hw.terminal`.)
"""

from __future__ import annotations

import atexit
import logging
import os
import queue
import select
import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import TextIO

log = logging.getLogger(__name__)

QUIT = "quit"  # what KeyReader reports for Ctrl-C (and end of input)
ARROWS = {"\x1b[A": "up", "\x1b[B": "down", "\x1b[C": "right", "\x1b[D": "left"}


class KeyReader:
    """Single keypresses from a terminal (or lines from a pipe) sent to ``on_key``.

    On a TTY the terminal goes to cbreak mode without echo or signals, so
    Ctrl-C arrives as a key and is reported as ``QUIT``; arrow keys come as
    "up", "down", "left", "right". A non-TTY stream is read line by line and
    each character of a line is one key. End of input reports ``QUIT`` when
    ``quit_on_eof``. ``on_key`` runs in the reader's daemon thread.
    """

    def __init__(self, on_key: Callable[[str], None], stream: TextIO | None = None, *,
                 quit_on_eof: bool = True) -> None:
        self._on_key = on_key
        self._stream = stream if stream is not None else sys.stdin
        self._quit_on_eof = quit_on_eof
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._saved_attrs = None
        self._restore_lock = threading.Lock()
        try:
            self._fd = self._stream.fileno()
        except (AttributeError, OSError, ValueError):
            self._fd = None
        self.is_tty = self._fd is not None and os.isatty(self._fd)

    def start(self) -> KeyReader:
        """Enter cbreak mode (on a TTY) and start reading."""
        if self._thread is not None:
            return self
        if self.is_tty:
            self._enter_cbreak()
        self._thread = threading.Thread(target=self._run, name="KeyReader", daemon=True)
        self._thread.start()
        return self

    def close(self, timeout: float = 1.0) -> None:
        """Stop reading and restore the terminal."""
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)  # a blocked pipe read may outlive this: it is a daemon
        self._restore()

    def join(self, timeout: float | None = None) -> None:
        """Wait for the reader to reach end of input (pipes) or be closed."""
        if self._thread is not None:
            self._thread.join(timeout)

    def __enter__(self) -> KeyReader:
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.close()

    def _enter_cbreak(self) -> None:
        import termios

        attrs = termios.tcgetattr(self._fd)
        raw = [list(item) if isinstance(item, list) else item for item in attrs]
        raw[3] &= ~(termios.ICANON | termios.ECHO | termios.ISIG)  # lflag
        raw[6][termios.VMIN] = 1
        raw[6][termios.VTIME] = 0
        self._saved_attrs = attrs
        atexit.register(self._restore)
        termios.tcsetattr(self._fd, termios.TCSADRAIN, raw)

    def _restore(self) -> None:
        with self._restore_lock:
            attrs, self._saved_attrs = self._saved_attrs, None
        if attrs is None:
            return
        import termios

        try:
            termios.tcsetattr(self._fd, termios.TCSADRAIN, attrs)
        except (termios.error, OSError):
            pass  # the terminal went away: nothing left to restore
        atexit.unregister(self._restore)

    def _run(self) -> None:
        try:
            if self.is_tty:
                self._read_tty()
            else:
                self._read_lines()
        finally:
            self._restore()

    def _emit(self, key: str) -> None:
        self._on_key(QUIT if key == "\x03" else key)

    def _read_tty(self) -> None:
        while not self._stop.is_set():
            ready, _, _ = select.select([self._fd], [], [], 0.1)
            if not ready:
                continue
            data = os.read(self._fd, 64)
            if not data:  # the terminal hung up
                if self._quit_on_eof:
                    self._on_key(QUIT)
                return
            for key in _split_keys(data.decode("utf-8", errors="replace")):
                self._emit(key)

    def _read_lines(self) -> None:
        while not self._stop.is_set():
            line = self._stream.readline()
            if not line:
                if self._quit_on_eof and not self._stop.is_set():
                    self._on_key(QUIT)
                return
            for key in line.rstrip("\r\n"):
                if self._stop.is_set():
                    return
                self._emit(key)


#: The arrows as a terminal in application mode sends them (ESC O A ...).
ARROWS.update({"\x1bOA": "up", "\x1bOB": "down", "\x1bOC": "right", "\x1bOD": "left"})


def _escape_length(text: str, i: int) -> int:
    """The length of the escape sequence at ``text[i]`` (an ESC): a CSI (ESC [ ... a final byte: Home is
    ESC [ 1 ~, F5 ESC [ 1 5 ~), an SS3 (ESC O and one: F1 is ESC O P), or ESC and one character (Alt+key);
    a lone ESC at the end of the read is 1."""
    if i + 1 >= len(text):
        return 1
    if text[i + 1] == "[":
        k = i + 2
        while k < len(text) and not "\x40" <= text[k] <= "\x7e":
            k += 1
        return min(k + 1, len(text)) - i
    return min(3 if text[i + 1] == "O" else 2, len(text) - i)


def _split_keys(text: str) -> Iterable[str]:
    """Split a read into keys. An escape sequence is read whole and is one key when it is mapped (the
    arrows), else none: Home (ESC [ 1 ~) or F5 (ESC [ 1 5 ~) holds a "1", which must not press A."""
    i = 0
    while i < len(text):
        if text[i] == "\x1b":
            n = _escape_length(text, i)
            seq = text[i:i + n]
            if seq in ARROWS:
                yield ARROWS[seq]
            elif n == 1:
                yield seq  # ESC by itself: a key like any other (unmapped in the emulator)
            i += n
        else:
            yield text[i]
            i += 1


class KeyPins:
    """Keys pressed as gpiozero mock pins: the emulator's buttons.

    ``keymap`` maps a key to (button name, hold seconds); a hold of 0 is a
    tap of ``tap`` seconds. ``press`` returns at once: a single worker thread
    drives the pin low, holds it, drives it high, one key after the other,
    so presses never overlap (use ``chord`` to hold several buttons at once).
    The button callbacks, and so the sink, run in that worker thread.
    """

    def __init__(self, factory, pins: Mapping[str, int], keymap: Mapping[str, tuple[str, float]], *,
                 tap: float = 0.05, max_pending: int = 4,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        unknown = sorted({name for name, _ in keymap.values()} - set(pins))
        if unknown:
            raise ValueError(f"keymap names buttons with no pin: {', '.join(unknown)}")
        self._factory = factory
        self._pins = dict(pins)
        self._keymap = {key: (name, float(hold)) for key, (name, hold) in keymap.items()}
        self._tap = tap
        self._sleep = sleep
        self._pending: queue.Queue = queue.Queue(maxsize=max_pending)
        self._closed = False
        self._worker = threading.Thread(target=self._run, name="KeyPins", daemon=True)
        self._worker.start()

    @property
    def keys(self) -> tuple[str, ...]:
        """The mapped keys, in keymap order (for a key legend)."""
        return tuple(self._keymap)

    def press(self, key: str) -> bool:
        """Queue the key's press; False if the key is unmapped or the queue is full."""
        if self._closed or key not in self._keymap:
            return False
        name, hold = self._keymap[key]
        return self._put(((name,), hold or self._tap))

    def chord(self, names: Iterable[str], hold: float = 0.0) -> bool:
        """Queue a press of several buttons together (all low, hold, all high)."""
        names = tuple(names)
        unknown = [name for name in names if name not in self._pins]
        if unknown:
            raise ValueError(f"no pin for button {unknown[0]}")
        return self._put((names, hold or self._tap))

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until every queued press has been released; False on timeout."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._pending.all_tasks_done:
            while self._pending.unfinished_tasks:
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return False
                self._pending.all_tasks_done.wait(remaining)
        return True

    def close(self) -> None:
        """Drop pending presses and stop; a press in progress is released first."""
        if self._closed:
            return
        self._closed = True
        try:
            while True:
                self._pending.get_nowait()
                self._pending.task_done()
        except queue.Empty:
            pass
        self._pending.put(None)
        self._worker.join(5.0)

    def __enter__(self) -> KeyPins:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def _put(self, item) -> bool:
        try:
            self._pending.put_nowait(item)
        except queue.Full:
            return False  # auto-repeat of a held key: drop, do not build a backlog
        return True

    def _hold(self, names: tuple[str, ...], hold: float) -> None:
        pins = [self._factory.pin(self._pins[name]) for name in names]
        try:
            for pin in pins:
                pin.drive_low()
            self._sleep(hold)
        finally:
            for pin in pins:
                pin.drive_high()

    def _run(self) -> None:
        while True:
            item = self._pending.get()
            try:
                if item is None:
                    return
                self._hold(*item)
            except Exception:
                # A failing sink must not kill the keyboard for the rest of the run.
                log.exception("pressing %s failed", item[0])
            finally:
                self._pending.task_done()
