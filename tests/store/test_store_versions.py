"""Versions and odd paths (issue 21, item 6, faults 4 and 7).

A store from a newer box (its schema version above ours) is read, shown and never written nor moved aside: going
back to an older release hides no history. A FIFO, a device or a directory where the game file goes is one line and
a non-zero exit within a second, from every command that opens the store (a FIFO used to block them for ever).
"""

import json
import logging
import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from engine import Rules
from firmware import ui
from firmware.store import DB_NAME, SCHEMA_VERSION, Store, StorePathError, StoreWriteError
from firmware.store.schema import NEWER
from tests.kit.rig import Rig
from tests.kit.storekit import play_to_end

ROOT = Path(__file__).resolve().parents[2]


def _newer_store(state_dir, clock) -> bytes:
    """A store with one finished game, as a newer box (schema version + 1, a table of its own) left it."""
    events, final = play_to_end(seed=3)
    with Store.open(state_dir, clock=clock) as store:
        g = store.new_game(["Red", "Blue"], Rules(), meta={"seats": [{"colour": "Red", "name": "Ann"},
                                                                     {"colour": "Blue", "name": "Bo"}]})
        for e in events:
            store.append(g.id, e)
    db = sqlite3.connect(state_dir / DB_NAME)
    db.execute("CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT)")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    return _files(state_dir)


def _files(state_dir) -> dict:
    """The game file's bytes, and the names beside it (a reader's empty -wal and its -shm left out)."""
    names = sorted(p.name for p in state_dir.iterdir() if p.name not in ("games.lock", DB_NAME + "-shm")
                   and not (p.name == DB_NAME + "-wal" and p.stat().st_size == 0))
    return {"names": names, DB_NAME: (state_dir / DB_NAME).read_bytes()}


def test_store_newer_schema_is_opened_read_only_and_never_moved_aside(state_dir, clock, caplog):
    before = _newer_store(state_dir, clock)
    caplog.set_level(logging.WARNING, logger="cantstop.store")
    with Store.open(state_dir, clock=clock) as store:
        assert store.notice is None  # nothing was "unreadable", nothing kept aside
        assert store.refuse == store.cannot_save == NEWER
        [game] = store.games()
        assert (game.status, game.players) == ("finished", ("Red", "Blue"))
        with pytest.raises(StoreWriteError, match=f"^{NEWER}$"):
            store.put_fact("table", {"screen": "setup"})
        with pytest.raises(StoreWriteError):
            store.new_game(["Red", "Blue"], Rules())
    assert _files(state_dir) == before  # byte for byte; no *.corrupt-* beside it
    lines = [r.getMessage() for r in caplog.records if r.name == "cantstop.store" and r.levelno >= logging.WARNING
             and "newer version" in r.getMessage()]
    assert len(lines) == 1 and f"schema {SCHEMA_VERSION + 1}" in lines[0] and "\n" not in lines[0]


def test_store_newer_schema_shows_history_and_statistics_and_the_box_says_why_it_cannot_save(
        state_dir, clock, capsys):
    before = _newer_store(state_dir, clock)
    from boxcli.cli import main

    assert main(["history", "--json", "--state-dir", str(state_dir)]) == 0
    assert json.loads(capsys.readouterr().out)[0]["status"] == "finished"
    rig = Rig(store=Store.open(state_dir, clock=clock), seed=1)
    box = rig.box
    assert rig.view.alert == "NOT SAVED: game file from a newer box"  # from the first frame
    for name in ("MENU", "B", "ROLL"):  # Statistics (the menu keeps its places)
        rig.tap(name)
    assert box.app.screen.kind is ui.Screen.STATS and box.app.screen.games == 1  # the newer box's game counted
    assert sorted(n for n, _ in box.app.screen.rows) == ["Ann", "Bo"]
    assert box.retry_at is None  # no write is tried again: it can never work
    rig.shutdown()
    assert _files(state_dir) == before


def test_store_players_on_a_newer_store_refuse_in_one_line_and_keep_the_file(state_dir, clock):
    before = _newer_store(state_dir, clock)
    done = subprocess.run([sys.executable, "-m", "boxcli.cli", "players", "add", "Cat", "--state-dir",
                           str(state_dir)], capture_output=True, text=True, timeout=30, cwd=ROOT,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode != 0
    [line] = done.stderr.splitlines()  # one line: not the store's log line besides (tests/cli/test_newer_store.py)
    assert line.startswith(f"cantstop-box players: {NEWER} (")
    assert _files(state_dir) == before


def _odd(state_dir: Path, kind: str) -> Path:
    state_dir.mkdir(parents=True, exist_ok=True)
    path = state_dir / DB_NAME
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "directory":
        path.mkdir()
    else:
        path.symlink_to("/dev/null")  # a character device
    return path


@pytest.mark.parametrize("kind", ["fifo", "directory", "device"])
def test_store_open_refuses_what_is_not_a_file_at_once(state_dir, kind):
    path = _odd(state_dir, kind)
    for readonly in (False, True):
        result: list = []

        def opening():
            try:
                Store.open(state_dir, readonly=readonly).close()
                result.append("opened")
            except Exception as err:
                result.append(err)

        worker = threading.Thread(target=opening, daemon=True)
        started = time.monotonic()
        worker.start()
        worker.join(5)
        assert result, f"Store.open(readonly={readonly}) still waits on the {kind} after 5 s"
        assert time.monotonic() - started < 1.0
        [err] = result
        assert isinstance(err, StorePathError) and "\n" not in str(err) and str(path) in str(err)
    assert os.path.lexists(path) and not list(state_dir.glob("*.corrupt-*"))  # nothing moved aside


@pytest.mark.parametrize("command", [["players"], ["players", "add", "Cat"], ["history"], ["export", "1"],
                                     ["emulate", "--seed", "1"]])
@pytest.mark.parametrize("kind", ["fifo", "directory"])
def test_store_commands_on_a_fifo_or_directory_exit_in_one_line(state_dir, kind, command):
    _odd(state_dir, kind)
    started = time.monotonic()
    try:
        done = subprocess.run([sys.executable, "-m", "boxcli.cli", *command, "--state-dir",
                               str(state_dir)], capture_output=True, text=True, timeout=20, cwd=ROOT,
                              stdin=subprocess.DEVNULL, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    except subprocess.TimeoutExpired:
        pytest.fail(f"{' '.join(command)} still runs after 20 s with a {kind} at the game file's path")
    seconds = time.monotonic() - started
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode not in (0, None), done.stderr
    assert len(lines) == 1 and "not a game file" in lines[0], done.stderr
    print(f"{' '.join(command)} on a {kind}: exit {done.returncode} after {seconds:.2f} s (Python's start included)")
