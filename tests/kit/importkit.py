"""Helpers for the import tests: a backup of finished games, its rows changed by hand, and the CLI's answer."""

from __future__ import annotations

import atexit
import functools
import json
import shutil
import sqlite3
import subprocess
import tempfile
from pathlib import Path

from engine import Phase, Rules
from boxcli.cli import main
from firmware.store import Store
from tests.kit.clock import FakeClock
from tests.kit.peak import measure
from tests.kit.storekit import play_to_end

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "tests" / "fixtures" / "records"


def finished_games(state_dir: Path, clock, count: int, *, names=("Ann", "Bob")) -> None:
    """``count`` finished games of two named seats, two seconds of play between events."""
    with Store.open(state_dir, clock=clock) as store:
        store._db.execute("PRAGMA synchronous=OFF")
        for i in range(count):
            won, _ = play_to_end(seed=i)
            seats = [{"colour": c, "bot": None, "name": f"{n}{i}"} for c, n in zip(("Red", "Blue"), names)]
            g = store.new_game(["Red", "Blue"], Rules(), meta={"seats": seats})
            for e in won:
                clock.advance(2)
                store.append(g.id, e)


def make_backup(state_dir: Path, clock, target: Path, count: int) -> Path:
    from firmware.store.copies import backup

    finished_games(state_dir, clock, count)
    backup(state_dir, target)
    return target


def backup_of_finished_games(target: Path, count: int) -> Path:
    """A backup of ``count`` finished games (as :func:`make_backup` makes from a fresh store and clock) at
    ``target``: made once a process for each count, then copied, for the tests that each spoil a copy."""
    shutil.copyfile(_backup_of(count), target)
    return target


@functools.cache
def _backup_of(count: int) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="cantstop-backup-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return make_backup(folder / "state", FakeClock(), folder / "backup.sqlite3", count)


def change(path: Path, *statements: str, params=()) -> None:
    """Run SQL on a file by hand, as a broken or hostile program would."""
    db = sqlite3.connect(path, isolation_level=None)
    for sql in statements:
        db.execute(sql, params) if params else db.executescript(sql)
    db.close()


def run_import(capsys, source, card) -> tuple[int, str, list[str]]:
    """(exit status, summary line, lines on standard error) of ``cantstop-box import``."""
    code = main(["import", str(source), "--state-dir", str(card)])
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    return code, out.out, out.err.splitlines()


def exported(state_dir: Path, capsys, game: int) -> dict:
    assert main(["export", str(game), "--state-dir", str(state_dir)]) == 0
    return json.loads(capsys.readouterr().out)


def deep(depth: int) -> str:
    return "[" * depth + "]" * depth


def endless_turns(count: int) -> list:
    """``count`` legal events of a solitaire that never stops: a turn rolls until it busts, and is played again."""
    from engine import ALL_ROLLS, Roll, apply, new_game

    state = start = new_game(["Red"])
    turn = []
    rolls = iter(ALL_ROLLS * 10)
    while not turn or state.phase is not Phase.ROLL:  # a bust leaves the board as the turn found it
        event = state.moves[0] if state.phase is Phase.MOVE else Roll(next(rolls))
        state = apply(state, event)
        turn.append(event.to_json())
    assert state.markers == start.markers
    return (turn * (count // len(turn) + 1))[:count]


def command(*words: str) -> tuple[subprocess.CompletedProcess, float, float]:
    """A whole ``cantstop-box`` process: its result, seconds, and its peak memory in MB."""
    m = measure(ROOT, *words)
    return subprocess.CompletedProcess(words, m.returncode, m.stdout, m.stderr), m.seconds, m.peak_mb
