"""SIGKILL the emulated daemon at random moments: no event whose result was shown is ever lost.

"Saved before shown" itself is checked in process at every frame of whole
games (``test_saved_before_shown.py``); these real kills prove that the
commit it relies on survives the process dying (the WAL, the restart).

The child is the real ``cantstop-box emulate`` (mock pins, terminal display)
with ``--trace``, which prints ``shown game=G events=N`` on standard error
after each frame reaches the display. The store commits an event before the
frame that shows it, so after any kill the store must hold at least the N
events of the last frame shown, the game must still replay, and the restarted
daemon must resume on exactly what the store holds.

``CRASH_KILLS`` sets the number of kills: a handful by default (a few
seconds in ``make test``), 500 in ``make soak``.
"""

import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from firmware.store import Store

ROOT = Path(__file__).resolve().parents[2]
SHOWN = re.compile(r"shown game=(\w+) events=(\d+)")
KILLS = int(os.environ.get("CRASH_KILLS", "6"))
# No MENU: an undo (from the menu, or MENU held) removes a shown event on purpose,
# and this test checks that nothing else ever does.
KEYS = "rrrrraabbccss"


class Child:
    def __init__(self, state_dir: Path, seed: int):
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "boxcli.cli", "emulate", "--seed", str(seed),
             "--state-dir", str(state_dir), "--trace"],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            text=True, bufsize=1, cwd=ROOT, env=env,
        )
        self.shown: list[tuple[int | None, int]] = []
        self.other: list[str] = []
        self.first_frame = threading.Event()  # set at the first frame shown, or when the child's output ends
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        try:
            for line in self.proc.stderr:
                m = SHOWN.search(line)
                if m:
                    game = None if m.group(1) == "None" else int(m.group(1))
                    self.shown.append((game, int(m.group(2))))
                    self.first_frame.set()
                elif line.strip():
                    self.other.append(line.rstrip())
        finally:
            self.first_frame.set()

    def type(self, keys: str):
        try:
            self.proc.stdin.write(keys + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def wait_first_frame(self, timeout=10.0):
        self.first_frame.wait(timeout)

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self._reader.join(5)


def stored_events(state_dir: Path, game_id: int) -> int:
    store = Store.open(state_dir, readonly=True)
    try:
        g = store.game(game_id)
        assert g.status != "damaged", g.problem
        g.replay()  # the stored game replays
        return len(g.events)
    finally:
        store.close()


def test_crash_sigkill_never_loses_a_shown_event(tmp_path):
    rng = random.Random(20261129)
    state_dir = tmp_path / "state"
    checked = 0
    for kill in range(KILLS):
        child = Child(state_dir, seed=rng.randrange(10**6))
        if rng.random() < 0.9:  # sometimes kill during start-up
            child.wait_first_frame()
            if child.shown:
                # The first frame of a restart is the resumed game: exactly what the store holds.
                game, events = child.shown[0]
                if game is not None:
                    assert events == stored_events(state_dir, game), f"kill {kill}: resumed on a different game"
            keys = "".join(rng.choice(KEYS) for _ in range(rng.randrange(1, 12)))
            child.type(keys)
            time.sleep(rng.uniform(0.0, 0.4))
        child.kill()
        assert not any("Traceback" in line for line in child.other), "\n".join(child.other)
        for game, events in child.shown:
            if game is not None:
                assert stored_events(state_dir, game) >= events, f"kill {kill}: game {game} lost shown events"
                checked += 1
    assert checked > KILLS // 2  # the kills did land in the middle of games
