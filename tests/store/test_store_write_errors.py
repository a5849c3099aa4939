"""A full disk or read-only file system: one clear line, the game goes on, nothing lost or doubled later."""

import json
import logging
import sqlite3

import pytest

from engine import STOP, Move, Roll, Rules, event_from_json, new_game, replay, state_view
from firmware.store import DB_NAME, Store, StoreWriteError
from tests.kit.storekit import CommitLandsThenFails, random_events


def _stored_rows(state_dir, game_id):
    db = sqlite3.connect(state_dir / DB_NAME)
    try:
        return db.execute("SELECT seq, payload FROM events WHERE game_id = ? ORDER BY seq", (game_id,)).fetchall()
    finally:
        db.close()


def _fill_disk(store):
    """Cap the database at its current size, as a full SD card would."""
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count = {pages}")


def _free_disk(store):
    store._db.execute("PRAGMA max_page_count = 1073741823")


def test_store_full_disk_keeps_the_game_playable_and_loses_nothing(state_dir, clock, caplog):
    events, final = random_events(400, seed=8, stop_chance=0.05)
    assert len(events) == 400
    store = Store.open(state_dir, clock=clock)
    game = store.new_game(["Red", "Blue"], Rules())
    _fill_disk(store)
    failures = []
    for i, e in enumerate(events):
        if i == 300:
            _free_disk(store)
        try:
            store.append(game.id, e)
        except StoreWriteError as err:
            failures.append(str(err))
    assert failures, "the capped database never filled up"
    assert set(failures) == {"cannot save: the SD card is full"}
    assert store.pending == 0  # the first append after space came back saved everything
    assert store.game(game.id).events == tuple(events)
    store.close()
    rows = _stored_rows(state_dir, game.id)
    assert [seq for seq, _ in rows] == list(range(1, len(events) + 1))  # no gap, no duplicate
    with Store.open(state_dir, clock=clock) as again:
        resumed = again.open_game()
    assert state_view(resumed.replay()) == state_view(final)
    assert any("kept to save later" in r.getMessage() for r in caplog.records if r.name == "cantstop.store")


def test_store_read_only_keeps_events_pending_and_flushes_them_in_order(state_dir, clock):
    events, _ = random_events(12, seed=3)
    with Store.open(state_dir, clock=clock) as store:
        game = store.new_game(["Red", "Blue"], Rules())
        for e in events[:4]:
            store.append(game.id, e)
        store._db.execute("PRAGMA query_only = ON")
        for e in events[4:9]:
            with pytest.raises(StoreWriteError, match="^cannot save: the SD card is read-only$"):
                store.append(game.id, e)
        assert store.pending == 5
        assert store.game(game.id).events == tuple(events[:9])  # reads show what is pending
        assert len(_stored_rows(state_dir, game.id)) == 4
        store._db.execute("PRAGMA query_only = OFF")
        store.append(game.id, events[9])
        assert store.pending == 0
    stored = [event_from_json(json.loads(p)) for _, p in _stored_rows(state_dir, game.id)]
    assert stored == events[:10]


def test_store_commit_reported_failed_but_landed_is_not_saved_twice(state_dir, clock):
    events, _ = random_events(6, seed=5)
    with Store.open(state_dir, clock=clock) as store:
        game = store.new_game(["Red", "Blue"], Rules())
        store.append(game.id, events[0])
        real = store._db
        store._db = CommitLandsThenFails(real)
        with pytest.raises(StoreWriteError, match="I/O error"):
            store.append(game.id, events[1])
        assert store.pending == 1
        for e in events[2:]:
            store.append(game.id, e)
        assert store.pending == 0
        store._db = real
    assert [seq for seq, _ in _stored_rows(state_dir, game.id)] == [1, 2, 3, 4, 5, 6]


def test_store_undo_of_a_pending_event_needs_no_write(state_dir, clock):
    with Store.open(state_dir, clock=clock) as store:
        game = store.new_game(["Red", "Blue"], Rules())
        store.append(game.id, Roll((2, 3, 4, 5)))
        store._db.execute("PRAGMA query_only = ON")
        with pytest.raises(StoreWriteError):
            store.append(game.id, Move.of(7, 7))
        assert store.pop_last(game.id) == Move.of(7, 7)  # undone while the card is still read-only
        assert store.game(game.id).events == (Roll((2, 3, 4, 5)),)
        with pytest.raises(StoreWriteError):
            store.append(game.id, Move.of(5, 9))
        store._db.execute("PRAGMA query_only = OFF")
        store.append(game.id, STOP)
    assert [p for _, p in _stored_rows(state_dir, game.id)] == ['{"roll":[2,3,4,5]}', '{"move":[5,9]}', '{"stop":true}']


def test_store_undo_of_a_saved_event_while_read_only_is_saved_later(state_dir, clock):
    with Store.open(state_dir, clock=clock) as store:
        game = store.new_game(["Red", "Blue"], Rules())
        store.append(game.id, Roll((2, 3, 4, 5)))
        store.append(game.id, Move.of(7, 7))
        store._db.execute("PRAGMA query_only = ON")
        with pytest.raises(StoreWriteError):
            store.pop_last(game.id)
        assert store.game(game.id).events == (Roll((2, 3, 4, 5)),)  # undone in the store's view
        with pytest.raises(StoreWriteError):
            store.append(game.id, Move.of(6, 8))  # the same seq as the undone one, still pending
        assert store.game(game.id).events == (Roll((2, 3, 4, 5)), Move.of(6, 8))
        store._db.execute("PRAGMA query_only = OFF")
    # close() saved the pending undo and the new move, in order.
    assert [p for _, p in _stored_rows(state_dir, game.id)] == ['{"roll":[2,3,4,5]}', '{"move":[6,8]}']


def test_store_win_while_read_only_is_shown_and_saved_by_the_next_write(state_dir, clock):
    events, final = random_events(10_000, seed=9)
    with Store.open(state_dir, clock=clock) as store:
        store._db.execute("PRAGMA synchronous=OFF")  # a whole game: no need to wait for the disk here
        game = store.new_game(["Red", "Blue"], Rules())
        for e in events[:-1]:
            store.append(game.id, e)
        store._db.execute("PRAGMA query_only = ON")
        clock.advance(5)
        with pytest.raises(StoreWriteError):
            store.append(game.id, events[-1])  # the winning stop: it and the finish stay pending together
        assert store.pending == 2
        store.finish(game.id, final.winner)  # the daemon's finish: nothing more to do
        assert store.open_game() is None
        assert store.game(game.id).status == "finished"
        assert [(g.status, g.winner) for g in store.games()] == [("finished", final.winner)]
        with pytest.raises(StoreWriteError):
            store.new_game(["Red", "Blue"], Rules())  # kept pending, like an event ...
        waiting = store.open_game()
        assert store.pending == 3 and waiting.id == game.id + 1 and waiting.events == ()
        assert [g.id for g in store.games()] == [waiting.id, game.id]
        store._db.execute("PRAGMA query_only = OFF")
        store.append(waiting.id, Roll((1, 2, 3, 4)))  # ... the win, then the new game, saved first
        assert store.pending == 0
        second = store.new_game(["Red", "Blue"], Rules())
    with Store.open(state_dir, clock=clock) as store:
        done = store.game(game.id)
        assert (done.status, done.winner, done.finished) == ("finished", final.winner, clock.now)
        assert done.events == tuple(events)
        assert store.game(waiting.id).events == (Roll((1, 2, 3, 4)),)
        assert store.game(waiting.id).status == "abandoned"  # left open by the next start
        assert store.open_game().id == second.id == waiting.id + 1


def test_store_close_with_writes_still_failing_logs_what_is_lost(state_dir, clock, caplog):
    store = Store.open(state_dir, clock=clock)
    game = store.new_game(["Red"], Rules())
    store._db.execute("PRAGMA query_only = ON")
    with pytest.raises(StoreWriteError):
        store.append(game.id, Roll((1, 2, 3, 4)))
    caplog.set_level(logging.ERROR, logger="cantstop.store")
    store.close()  # no exception: the box is shutting down
    assert any("1 unsaved" in r.getMessage() for r in caplog.records)
    with Store.open(state_dir, clock=clock) as again:
        assert again.open_game().events == ()


def test_store_append_after_failures_is_checked_against_the_pending_events(state_dir, clock):
    with Store.open(state_dir, clock=clock) as store:
        game = store.new_game(["Red", "Blue"], Rules())
        store._db.execute("PRAGMA query_only = ON")
        with pytest.raises(StoreWriteError):
            store.append(game.id, Roll((2, 3, 4, 5)))
        # The pending roll counts: a second roll is illegal, a move of those dice is legal.
        with pytest.raises(ValueError, match="event 2"):
            store.append(game.id, Roll((1, 1, 1, 1)))
        with pytest.raises(StoreWriteError):
            store.append(game.id, Move.of(7, 7))
        store._db.execute("PRAGMA query_only = OFF")
        state = replay(new_game(["Red", "Blue"]), store.game(game.id).events)
    assert state.runner_steps() == {7: 2}


def test_store_read_only_open_resumes_and_keeps_play_in_memory(state_dir, clock):
    # A card that went read-only overnight: the box can still resume and play, saving nothing yet.
    events, _ = random_events(20, seed=6)
    with Store.open(state_dir, clock=clock) as store:
        game = store.new_game(["Red", "Blue"], Rules())
        for e in events[:15]:
            store.append(game.id, e)
    with Store.open(state_dir, clock=clock, readonly=True) as store:
        assert store.open_game().events == tuple(events[:15])
        for e in events[15:]:
            with pytest.raises(StoreWriteError, match="^cannot save: the SD card is read-only$"):
                store.append(game.id, e)
        assert store.game(game.id).events == tuple(events)
    assert len(_stored_rows(state_dir, game.id)) == 15


def test_store_undo_of_a_pending_event_that_did_land_removes_it_too(state_dir, clock):
    with Store.open(state_dir, clock=clock) as store:
        game = store.new_game(["Red", "Blue"], Rules())
        store.append(game.id, Roll((2, 3, 4, 5)))
        real, store._db = store._db, CommitLandsThenFails(store._db)
        with pytest.raises(StoreWriteError):
            store.append(game.id, Move.of(7, 7))  # on disk, though the store was told otherwise
        assert store.pop_last(game.id) == Move.of(7, 7)
        store.append(game.id, Move.of(5, 9))
        store._db = real
        assert store.pending == 0
    assert [p for _, p in _stored_rows(state_dir, game.id)] == ['{"roll":[2,3,4,5]}', '{"move":[5,9]}']
    with Store.open(state_dir, clock=clock) as store:
        assert store.open_game().events == (Roll((2, 3, 4, 5)), Move.of(5, 9))
