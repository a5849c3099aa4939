"""What the presses of `make boot-check` give in the emulator: the same daemon (the
`run`/`emulate` Box) on mock pins here, with the dice the booted box rolled, so that
its frames and its exported game are what the booted box must have shown and kept.

The clock is the test's: each press is held PRESS_S and followed by SETTLE_S,
as the harness holds the simulated line in the guest.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PRESS_S = 0.15  # a press holds the line low this long (well past the 30 ms debounce)
SETTLE_S = 2.0  # and the next comes this much later (past the 600 ms hand-over guard)
# Not compared: when, for how long (wall clock) and under which number the game was kept.
UNCOMPARED = ("id", "started", "finished", "elapsed")


def rolls(record: dict) -> list[tuple[int, int, int, int]]:
    """The dice of each roll in a game record, in order."""
    return [tuple(event["roll"]) for event in record.get("events", []) if "roll" in event]


def comparable(record: dict) -> dict:
    """A game record without what differs between two boxes that played the same game."""
    return {key: value for key, value in record.items() if key not in UNCOMPARED}


def _make_box():
    from boxcli.run import _make_box as make

    return make


class _Heard:
    """A buzzer that keeps what it is given to play."""

    def __init__(self, into: list) -> None:
        self.into = into

    def play(self, melody) -> None:
        self.into.append(tuple(melody))


def _signals(into: list):
    from firmware.daemon.signals import Signals

    return Signals(None, _Heard(into))


class Reference:
    """The emulator's box, pressed as the booted one was; ``frames[i]`` is the screen after press i."""

    def __init__(self, config, dice: Iterable[tuple[int, int, int, int]], network: str | None = None) -> None:
        """``config``: a settings file's path, or the settings already read (firmware.config.Config);
        ``network``: the booted box's network status file (its menu's address row), read here as it reads it."""
        from firmware.config import load
        from firmware.store import Store
        from hw.fakes import FakeDisplay

        self.tmp = tempfile.TemporaryDirectory(prefix="boot-check-ref-")
        self.state = Path(self.tmp.name)
        cfg = load(config) if isinstance(config, (str, Path)) else config
        self.now = time.monotonic()  # the Box reads the real clock once as it is made
        pending = iter(list(dice))

        def next_dice():
            try:
                return next(pending)
            except StopIteration:
                raise RuntimeError("the emulator rolled more often than the booted box") from None

        self.display = FakeDisplay(cfg.display.dimensions)
        self.store = Store.open(self.state)
        self.played: list[tuple] = []  # every melody the box's buzzer was given, in order
        self.box = _make_box()(cfg, self.display, self.store, None, dice=next_dice, signals=_signals(self.played))
        self.box.clock = lambda: self.now
        if network is not None:
            from firmware.daemon.network import NetworkWatch

            status = self.state / "network.json"
            status.write_text(network)
            self.box.network = NetworkWatch(status, due=self.now)
        self.box.start()

    @property
    def screen(self):
        return self.display.last

    @property
    def restarted_screen(self):
        """The screen a restart here must show: this one without its flash (a note that lasts until the next
        press, deliberately not kept across a restart, see firmware/ui/memory.py)."""
        from dataclasses import replace

        if self.box.app.flash is None:
            return self.screen
        kept = self.box.app
        self.box.app = replace(kept, flash=None)
        self.box._draw()
        screen = self.display.last
        self.box.app = kept
        self.box._draw()
        return screen

    def press(self, button: str) -> None:
        self.box.sink(button, True)
        self._wait(PRESS_S)
        self.box.sink(button, False)
        self._wait(SETTLE_S)

    def wait(self, seconds: float) -> None:
        """Time passes on the emulator's box with no press (its timers, the network status read again)."""
        self._wait(seconds)

    def _wait(self, seconds: float, step: float = 0.05) -> None:
        end = self.now + seconds
        while self.now < end:
            self.now = min(end, self.now + step)
            self.box.pump()

    def export(self) -> dict:
        self.store.close()
        done = subprocess.run([str(REPO / ".venv/bin/cantstop-box"), "export", "--state-dir", str(self.state)],
                              capture_output=True, text=True, check=False)
        self.store = None
        if done.returncode:
            raise RuntimeError(f"export in the emulator: {done.stderr.strip()}")
        return json.loads(done.stdout)

    def close(self) -> None:
        if self.store is not None:
            self.store.close()
        self.tmp.cleanup()
