"""The pending-write queue on its own: frozen writes that show themselves in reads and save in one transaction."""

import dataclasses
import sqlite3

import pytest

from firmware.store import StoreWriteError, schema
from firmware.store.pending import DeleteEvent, MarkAbandoned, MarkFinished, Queue, SaveEvent, SaveFact


@pytest.fixture
def db():
    conn = sqlite3.connect(":memory:", isolation_level=None)
    schema.bring_up_to_date(conn, 0)
    conn.execute("INSERT INTO games (players, rules, started) VALUES ('[\"Red\",\"Blue\"]', '{}', 1.0)")
    yield conn
    conn.close()


def test_store_pending_writes_are_frozen_values():
    write = SaveEvent(1, 1, '{"roll":[1,2,3,4]}', 2.0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        write.seq = 2
    assert write == SaveEvent(1, 1, '{"roll":[1,2,3,4]}', 2.0) and SaveFact("k", "1", 0.0).game_id is None


def test_store_pending_writes_show_in_reads_before_they_are_saved(db):
    queue = Queue()
    db.execute("PRAGMA query_only = ON")
    with pytest.raises(StoreWriteError, match="read-only"):
        queue.save(db, [SaveEvent(1, 1, "a", 2.0), SaveEvent(1, 2, "b", 3.0), DeleteEvent(1, 2),
                        MarkFinished(1, 4.0, 0, 1), SaveFact("k", "[1]", 4.0)])
    assert len(queue) == 5
    assert queue.on_event_rows(1, []) == [(1, "a", 2.0)]
    assert queue.on_event_rows(2, []) == []  # another game's rows are untouched
    row = {"id": 1, "status": "open", "finished": None, "winner": None, "turns": None}
    queue.on_game_rows([row])
    assert row == {"id": 1, "status": "finished", "finished": 4.0, "winner": 0, "turns": 1}
    assert queue.fact("k") == (True, "[1]") and queue.fact("other") == (False, None)
    assert queue.touched_games(closing=True) == {1}
    db.execute("PRAGMA query_only = OFF")
    queue.save(db, [MarkAbandoned(1, 5.0, 1)])  # abandons only an open game: the finish stands
    assert len(queue) == 0
    assert db.execute("SELECT seq, payload FROM events").fetchall() == [(1, "a")]
    assert db.execute("SELECT status, winner FROM games").fetchall() == [("finished", 0)]
    assert db.execute("SELECT key, value FROM facts").fetchall() == [("k", "[1]")]


def test_store_pending_failed_save_keeps_the_order_and_drops_what_did_not_happen(db):
    queue = Queue()
    db.execute("PRAGMA query_only = ON")
    with pytest.raises(StoreWriteError):
        queue.save(db, [SaveEvent(1, 1, "a", 2.0)])
    with pytest.raises(StoreWriteError):
        queue.save(db, [SaveEvent(1, 2, "b", 3.0)], keep=False)  # e.g. a new game: not kept
    assert list(queue) == [SaveEvent(1, 1, "a", 2.0)]
    assert queue.drop_event(1, 1) == SaveEvent(1, 1, "a", 2.0)  # undo of a pending event ...
    assert list(queue) == [DeleteEvent(1, 1)]  # ... leaves a delete, in case a failed commit did land
