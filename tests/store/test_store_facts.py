"""Small durable UI facts (the settings last used, a confirmed handover): put, read back, survive a failed write."""

import sqlite3

import pytest

from engine import Rules
from firmware.store import DB_NAME, SCHEMA_VERSION, Store, StoreGameError, StoreWriteError


def test_store_fact_is_kept_across_a_reopen(state_dir, clock):
    value = {"players": 3, "colours": ["Red", "Blue", "Green"], "rules": {"speedy": True}, "note": "ç"}
    with Store.open(state_dir, clock=clock) as store:
        assert store.fact("setup") is None
        store.put_fact("setup", value)
        store.put_fact("handover", [12, True])
        assert store.fact("setup") == value
    with Store.open(state_dir, clock=clock) as store:
        assert store.fact("setup") == value and store.fact("handover") == [12, True]
        store.put_fact("handover", None)  # None removes it
        store.put_fact("setup", 7)  # a later put replaces
    with Store.open(state_dir, clock=clock, readonly=True) as reader:
        assert reader.fact("handover") is None and reader.fact("setup") == 7


@pytest.mark.parametrize("key, value, message", [
    ("", 1, "non-empty string"),
    (3, 1, "non-empty string"),
    ("x", object(), "must be JSON data"),
    ("x", float("nan"), "must be JSON data"),
])
def test_store_fact_refuses_what_is_not_a_key_or_json(store, key, value, message):
    with pytest.raises(StoreGameError, match=message):
        store.put_fact(key, value)
    assert store.pending == 0


def test_store_fact_write_that_fails_is_pending_shown_and_saved_in_order(state_dir, clock):
    with Store.open(state_dir, clock=clock) as store:
        game = store.new_game(["Red", "Blue"], Rules())
        store._db.execute("PRAGMA query_only = ON")
        with pytest.raises(StoreWriteError, match="read-only"):
            store.put_fact("last", {"game": game.id})
        with pytest.raises(StoreWriteError):
            store.put_fact("last", {"game": game.id, "screen": "win"})
        assert store.fact("last") == {"game": game.id, "screen": "win"} and store.pending == 2
        store._db.execute("PRAGMA query_only = OFF")
        store.abandon(game.id)  # the next write that works saves the facts first
        assert store.pending == 0
    db = sqlite3.connect(state_dir / DB_NAME)
    assert db.execute("SELECT key, value FROM facts").fetchall() == [("last", '{"game":1,"screen":"win"}')]
    db.close()


def test_store_version_2_file_gains_the_facts_table(state_dir, clock):
    with Store.open(state_dir, clock=clock) as store:
        store.new_game(["Red"], Rules())
    db = sqlite3.connect(state_dir / DB_NAME)  # back to version 2, as the previous box left it
    db.executescript("DROP TABLE facts; PRAGMA user_version = 2;")
    db.close()
    with Store.open(state_dir, clock=clock, readonly=True) as reader:  # a reader migrates nothing
        assert reader.fact("setup") is None and len(reader.games()) == 1
    with Store.open(state_dir, clock=clock) as store:
        assert store._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3
        store.put_fact("setup", {"players": 2})
        assert store.fact("setup") == {"players": 2} and len(store.games()) == 1


def test_store_damaged_fact_reads_as_none(state_dir, clock):
    with Store.open(state_dir, clock=clock) as store:
        store.put_fact("setup", 1)
    db = sqlite3.connect(state_dir / DB_NAME)
    db.execute("UPDATE facts SET value = '{not json' WHERE key = 'setup'")
    db.commit()
    db.close()
    with Store.open(state_dir, clock=clock) as store:
        assert store.fact("setup") is None
