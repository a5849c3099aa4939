"""The history's damage checks are done beside the pages: a page at any depth replays no game on its path."""

from __future__ import annotations

import re
import sqlite3

import httpx

import firmware.store.reads as reads
from benchmarks.store import fill_history
from tests.web.server import Server
from web.reader import Reader
from web.sweep import Sweep


def _damage(state_dir, game_id: int) -> None:
    """A row that still reads as an event but does not replay (a die that cannot be)."""
    db = sqlite3.connect(state_dir / "games.sqlite3")
    db.execute("UPDATE events SET payload = '{\"type\": \"roll\", \"dice\": [9, 9, 9, 9]}' "
               "WHERE game_id = ? AND seq = 3", (game_id,))
    db.commit()
    db.close()


def test_a_deep_page_replays_no_game_once_the_sweep_has_passed(tmp_path, monkeypatch):
    fill_history(tmp_path, 45)  # three pages
    _damage(tmp_path, 4)
    replays = []
    real = reads.replay_rows
    monkeypatch.setattr(reads, "replay_rows", lambda *a: replays.append(a[0]["id"]) or real(*a))
    with Server(tmp_path) as s:  # started: its background work done
        replays.clear()
        page = httpx.get(s.url + "/games?page=3", timeout=10)
        assert page.status_code == 200 and replays == []
        row = re.search(r'<tr data-game="4" class="st-damaged">(.*?)</tr>', page.text)
        assert row is not None and "game 4, event 3" in row.group(1)
        assert re.search(r'<tr data-game="5" class="st-finished">', page.text)


def test_the_sweep_knows_only_what_it_checked(tmp_path):
    fill_history(tmp_path, 10)
    _damage(tmp_path, 7)
    sweep = Sweep(Reader(tmp_path), step_seconds=0.0)  # one game a step
    key = Reader(tmp_path)
    key._open()
    assert sweep.step() and sweep.known(key.key(), 10) == ("sound", None) and sweep.known(key.key(), 9) is None
    while sweep.step():
        pass
    assert sweep.known(key.key(), 7)[0] == "damaged" and sweep.known(key.key(), 1) == ("sound", None)
    assert sweep.known("another file", 1) is None
    fill_history(tmp_path, 1)  # a game finished since the sweep began
    assert sweep.known(key.key(), 11) is None
    while sweep.step():
        pass
    assert sweep.known(key.key(), 11) == ("sound", None)
