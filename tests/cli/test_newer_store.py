"""Every ``players`` subcommand, ``history`` and ``export`` on a store from a newer box: at most one line on stderr.

``players add`` printed the refusal twice in other words (the store's log
line on opening the file to write, then the command's own). Run as the
program runs (a process of its own, so that what Python's logging prints
is seen as a user sees it), every line of standard error counted.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Rules
from firmware.store import DB_NAME, SCHEMA_VERSION, Store
from firmware.store.schema import NEWER
from tests.kit.storekit import play_to_end

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def newer(tmp_path) -> Path:
    """A store with a finished game and a roster, then marked as a newer box's (schema + 1)."""
    events, _ = play_to_end(seed=3)
    with Store.open(tmp_path) as store:
        game = store.new_game(["Red", "Blue"], Rules())
        for event in events:
            store.append(game.id, event)
        store.put_fact("roster", {"people": [{"id": 1, "name": "Ann"}], "legacy": {}, "names": ["Ann"], "renamed": {}})
    db = sqlite3.connect(tmp_path / DB_NAME)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    return tmp_path


def run(state_dir, *argv):
    done = subprocess.run([sys.executable, "-m", "boxcli.cli", *argv, "--state-dir", str(state_dir)],
                          capture_output=True, text=True, timeout=60, cwd=ROOT,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    return done.returncode, done.stdout, done.stderr.splitlines()


@pytest.mark.parametrize("argv", [["add", "Cat"], ["remove", "Ann"], ["rename", "Ann", "Cat"], ["remove", "Zed"]])
def test_a_change_is_refused_in_one_line(newer, argv):
    before = (newer / DB_NAME).read_bytes()
    status, out, err = run(newer, "players", *argv)
    assert status == 1 and out == ""
    assert len(err) == 1 and err[0].startswith(f"cantstop-box players: {NEWER} (") and "update the box" in err[0]
    assert f"schema {SCHEMA_VERSION + 1}; this one knows {SCHEMA_VERSION}" in err[0]
    assert (newer / DB_NAME).read_bytes() == before  # never written


@pytest.mark.parametrize("argv", [["players"], ["players", "list", "-l"], ["history"], ["history", "--json"],
                                  ["export"], ["export", "1"]])
def test_a_read_works_and_says_nothing_on_stderr(newer, argv):
    status, out, err = run(newer, *argv)
    assert status == 0 and out and err == []
