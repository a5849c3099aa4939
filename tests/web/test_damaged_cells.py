"""The web view over a store with a damaged cell: nested 100,000 deep, or 50 MB long, written with sqlite3.

Every page answers (200, the damage said, never a 500), and a huge cell is
never read into the web view's memory: the history page asks SQLite for
its size first.
"""

from __future__ import annotations

import re
import sqlite3
import tracemalloc

import pytest

from firmware.store import DB_NAME
from tests.web import fetch
from tests.kit.clock import FakeClock
from tests.kit.storekit import finished_and_open
from tests.web.server import Server

DEEP = {"20,000 deep": "[" * 20_000 + "]" * 20_000, "100,000 deep": "[" * 100_000 + "]" * 100_000}
CELLS = {  # where in game 1, or in game 2 (open), a damaged cell goes
    "event": "UPDATE events SET payload = ? WHERE game_id = {game} AND seq = 5",
    "players": "UPDATE games SET players = ? WHERE id = {game}",
    "rules": "UPDATE games SET rules = ? WHERE id = {game}",
    "meta": "UPDATE games SET meta = ? WHERE id = {game}",
}


@pytest.fixture
def stored(tmp_path):
    """Game 1 finished (Ann and Bob), game 2 open, 9 events in, in the store the web view reads."""
    finished_and_open(tmp_path, FakeClock(1_700_000_000.0))
    return tmp_path


def damage(state_dir, where: str, game: int, cell: str) -> None:
    db = sqlite3.connect(state_dir / DB_NAME)
    db.execute("PRAGMA synchronous = OFF")  # what is written is the same; only not waited onto the disk
    assert db.execute(CELLS[where].format(game=game), (cell,)).rowcount == 1
    db.commit()
    db.close()


def get(server, path):
    return fetch.get(server.url + path, timeout=30)


@pytest.mark.parametrize("kind", sorted(DEEP))
@pytest.mark.parametrize("where", sorted(CELLS))
def test_every_page_answers_and_says_the_damage(stored, where, kind):
    damage(stored, where, 1, DEEP[kind])
    with Server(stored) as s:
        listed = get(s, "/games")
        assert listed.status_code == 200
        row = re.search(r'<tr data-game="1" class="st-damaged">(.*?)</tr>', listed.text).group(1)
        assert "game 1" in row
        one = get(s, "/games/1")
        assert one.status_code == 200 and '<p class="problem">game 1' in one.text
        assert len(one.text) < 60_000  # a damaged row is shown by its start, not 200,000 brackets
        record = get(s, "/games/1.json")
        assert record.status_code == 200 and record.json()["status"] == "damaged"
        for path in ("/", "/now.json", "/people", "/games/2"):
            assert get(s, path).status_code == 200, path


@pytest.mark.parametrize("where", sorted(CELLS))
def test_the_live_page_says_the_open_game_is_damaged(stored, where):
    damage(stored, where, 2, DEEP["100,000 deep"])
    with Server(stored) as s:
        page = get(s, "/")
        assert page.status_code == 200
        assert 'data-status="damaged"' in page.text and '<p class="problem">game 2' in page.text
        assert get(s, "/now.json").json()["html"].count('data-status="damaged"') == 1
        assert get(s, "/games/2").status_code == 200


@pytest.mark.parametrize("where", ["meta", "event"])
def test_a_50_mb_cell_is_never_read_into_the_web_view(stored, where):
    damage(stored, where, 1, '"' + "x" * 50_000_000 + '"')
    with Server(stored) as s:
        assert get(s, "/now.json").status_code == 200  # the server is up, its store open
        tracemalloc.start()
        try:
            listed = get(s, "/games")
            one = get(s, "/games/1")
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert peak < 10_000_000, f"{peak:,} bytes at the peak"  # a 50 MB cell would be 50 MB at least
        assert listed.status_code == 200 and 'data-game="1" class="st-damaged"' in listed.text
        assert one.status_code == 200 and "too big to read (50,000,002 characters" in one.text
