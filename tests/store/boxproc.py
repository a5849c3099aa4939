"""A box's store in a child process, driven line by line: what the box does to the file, from another process.

The box and the web view are two processes, and SQLite's locks between them are the kernel's (``fcntl``):
within one process SQLite shares its locks between connections, so a box in the test's own process would
hide what a box beside a web view does (issue 46). The child opens the store as the box does
(:meth:`Store.open`) and writes the games, the events and the kept screen (the ``table`` fact) as the box's
daemon would.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_CHILD = r"""
import pathlib, sys
from engine import Rules
from firmware.store import Store
from firmware.table import restart
from tests.kit.storekit import random_events

store = Store.open(pathlib.Path(sys.argv[1]))
events = random_events(400, seed=3)[0]
game = store.open_game()  # the game the box resumes (the same seed: its next events follow on)
done = len(game.events) if game else 0
for line in sys.stdin:
    word, *args = line.split()
    if word == "game":  # New game on the box
        game, done = store.new_game(["Red", "Blue"], Rules()), 0
    elif word == "events":  # presses
        for event in events[done:done + int(args[0])]:
            store.append(game.id, event)
        done += int(args[0])
    elif word == "table":  # the kept screen, as the daemon keeps it at every change
        store.put_fact(restart.MEMORY_KEY, {"screen": "game", "game": game.id, "language": args[0], "pad": "x" * 3000})
    elif word == "notes":  # facts enough to fill pages that a reader has not cached
        for i in range(int(args[0])):
            store.put_fact(f"note:{i:04}", args[1] * 2000)
    elif word == "checkpoint":
        store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
    elif word == "quit":  # the box quits (to restart): its store closes as the last writer
        store.close()
        print("closed", flush=True)
        break
    print("ok", flush=True)
"""


class BoxProcess:
    """The box's store open in a child process; :meth:`do` one command (see ``_CHILD``), :meth:`quit` to close."""

    def __init__(self, state_dir: Path):
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        env.pop("NOTIFY_SOCKET", None)
        self.proc = subprocess.Popen([sys.executable, "-c", _CHILD, str(state_dir)], cwd=ROOT, env=env, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def do(self, *commands: str) -> None:
        for command in commands:
            self.proc.stdin.write(command + "\n")
            self.proc.stdin.flush()
            answer = self.proc.stdout.readline().strip()
            if answer not in ("ok", "closed"):
                self.proc.kill()
                raise AssertionError(f"the box's store failed at {command!r}: {self.proc.stderr.read()}")

    def quit(self) -> None:
        self.do("quit")
        assert self.proc.wait(20) == 0, self.proc.stderr.read()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
