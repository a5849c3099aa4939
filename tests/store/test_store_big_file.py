"""A big game file (issue 21): the opening check is bounded, and a damaged events page damages one game only.

The whole-file integrity check read every page at every start (0.5 s with
10,000 games here); past ``schema.FULL_CHECK_PAGES`` only the small tables
are checked whole, and a bad page among the events shows when its game is read.
"""

import sqlite3

from engine import Rules
from boxcli.cli import main
from firmware.store import DB_NAME, Store, schema
from tests.kit.storekit import play_to_end

PAGE = 4096


def _fill(state_dir, clock, games=30):
    won, final = play_to_end(seed=3)
    with Store.open(state_dir, clock=clock) as store:
        store._db.execute("PRAGMA synchronous=OFF")
        for _ in range(games):
            g = store.new_game(["Red", "Blue"], Rules())
            for e in won:
                store.append(g.id, e)
    db = sqlite3.connect(state_dir / DB_NAME)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return won


def _leaf_pages_of_events(path):
    """Page numbers of the events table's leaves (dbstat is not always built in: walk the b-tree by hand)."""
    data = path.read_bytes()
    db = sqlite3.connect(path)
    root = db.execute("SELECT rootpage FROM sqlite_schema WHERE name = 'events'").fetchone()[0]
    db.close()
    leaves, todo = [], [root]
    while todo:
        n = todo.pop()
        page = data[(n - 1) * PAGE: n * PAGE]
        head = 100 if n == 1 else 0
        kind = page[head]
        if kind == 0x0A:  # index leaf (a WITHOUT ROWID table is an index b-tree)
            leaves.append(n)
            continue
        count = int.from_bytes(page[head + 3: head + 5], "big")
        todo.append(int.from_bytes(page[head + 8: head + 12], "big"))
        for i in range(count):
            at = int.from_bytes(page[head + 12 + 2 * i: head + 14 + 2 * i], "big")
            todo.append(int.from_bytes(page[at: at + 4], "big"))
    return sorted(leaves)


def test_store_opening_a_big_file_checks_only_its_small_tables(state_dir, clock, monkeypatch):
    _fill(state_dir, clock, games=3)
    seen = []
    real = schema._checks
    monkeypatch.setattr(schema, "_checks", lambda db, tables: seen.append(real(db, tables)) or seen[-1])
    Store.open(state_dir, clock=clock).close()
    assert seen[-1] == ["PRAGMA integrity_check(5)"]  # a small file: checked whole
    monkeypatch.setattr(schema, "FULL_CHECK_PAGES", 1)
    Store.open(state_dir, clock=clock).close()
    assert seen[-1] == ["PRAGMA quick_check(games)", "PRAGMA quick_check(facts)"]


def test_store_a_damaged_events_page_in_a_big_file_damages_its_games_only(state_dir, clock, monkeypatch, capsys):
    won = _fill(state_dir, clock)
    path = state_dir / DB_NAME
    leaves = _leaf_pages_of_events(path)
    bad = leaves[len(leaves) // 2]
    data = bytearray(path.read_bytes())
    data[(bad - 1) * PAGE + 8:(bad - 1) * PAGE + 200] = b"\xff" * 192  # the cell pointers: garbage
    path.write_bytes(bytes(data))
    monkeypatch.setattr(schema, "FULL_CHECK_PAGES", 1)
    with Store.open(state_dir, clock=clock) as store:
        assert store.notice is None and path.exists()  # not moved aside: the history is kept
        games = [store.game(g.id) for g in store.games()]
    damaged = [g for g in games if g.status == "damaged"]
    assert 1 <= len(damaged) < len(games)
    assert all("events are unreadable" in g.problem or "event" in g.problem for g in damaged)
    assert all(len(g.events) == len(won) for g in games if g.status != "damaged")
    assert main(["history", "--all", "--state-dir", str(state_dir)]) == 0
    out = capsys.readouterr().out
    assert "damaged" in out and "Traceback" not in out
