"""Small durable UI facts (the settings last used, a confirmed handover): put, read back, survive a failed write."""

import sqlite3

import pytest

from engine import Rules
from firmware.store import DB_NAME, SCHEMA_VERSION, Store, StoreGameError, StoreWriteError
from tests.kit.storekit import AS_VERSION_4


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
    db.executescript(AS_VERSION_4 + "DROP TABLE facts; ALTER TABLE events DROP COLUMN elapsed;"
                     " ALTER TABLE games DROP COLUMN clock_jumped; PRAGMA user_version = 2;")
    db.close()
    with Store.open(state_dir, clock=clock, readonly=True) as reader:  # a reader migrates nothing
        assert reader.fact("setup") is None and len(reader.games()) == 1
    with Store.open(state_dir, clock=clock) as store:
        assert store._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
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


def test_store_facts_by_prefix_read_back_in_key_order_and_nothing_else(state_dir, clock):
    with Store.open(state_dir, clock=clock) as store:
        store.put_facts({"tally:2": {"n": 2}, "tally:10": {"n": 10}, "tallyho": 0, "talk": 1, "tally;": 9})
        store.put_fact("tally:1", [1])
        assert store.facts("tally:") == {"tally:1": [1], "tally:10": {"n": 10}, "tally:2": {"n": 2}}
        store.put_facts({"tally:10": None, "tally:2": {"n": 22}})  # remove one, replace one
    with Store.open(state_dir, clock=clock, readonly=True) as reader:
        assert reader.facts("tally:") == {"tally:1": [1], "tally:2": {"n": 22}}
        assert reader.facts("zzz") == {}
        with pytest.raises(StoreGameError, match="non-empty"):
            reader.facts("")


def test_store_put_facts_is_one_transaction_and_pending_writes_show_by_prefix(state_dir, clock):
    with Store.open(state_dir, clock=clock) as store:
        store.put_facts({"tally:1": 1, "old": {"all": True}})
        store._db.execute("PRAGMA query_only = ON")
        with pytest.raises(StoreWriteError):
            store.put_facts({"tally:2": 2, "tally:1": None, "old": None})
        assert store.pending == 3  # kept, to be saved together with the next write that works
        assert store.facts("tally:") == {"tally:2": 2} and store.fact("old") is None
        on_disk = sqlite3.connect(state_dir / DB_NAME)
        assert on_disk.execute("SELECT key FROM facts ORDER BY key").fetchall() == [("old",), ("tally:1",)]
        on_disk.close()
        with pytest.raises(StoreGameError, match="JSON"):
            store.put_facts({"tally:3": 3, "tally:4": object()})  # one bad value: nothing of it is kept
        assert store.facts("tally:") == {"tally:2": 2} and store.pending == 3
        store._db.execute("PRAGMA query_only = OFF")
    db = sqlite3.connect(state_dir / DB_NAME)
    assert db.execute("SELECT key, value FROM facts ORDER BY key").fetchall() == [("tally:2", "2")]
    db.close()


def test_store_facts_by_prefix_leave_a_damaged_value_out(state_dir, clock):
    with Store.open(state_dir, clock=clock) as store:
        store.put_facts({"tally:1": 1, "tally:2": 2})
    db = sqlite3.connect(state_dir / DB_NAME)
    db.execute("UPDATE facts SET value = '{not json' WHERE key = 'tally:1'")
    db.commit()
    db.close()
    with Store.open(state_dir, clock=clock) as store:
        assert store.facts("tally:") == {"tally:2": 2}
