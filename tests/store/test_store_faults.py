"""Store faults met by an appliance (issue 10): a win cut by the power, a read-only card, a full disk at the
first start, two boxes on one store, damaged rows. Each case as the store sees it and as the box shows it."""

import json
import logging
import sqlite3

import pytest

from engine import STOP, Move, Roll, Rules
from firmware.store import DB_NAME, Store, StoreError, StoreLockedError, StoreWriteError
from firmware.store.errors import SQLITE_CANTOPEN, SQLITE_FULL
from tests.kit.rig import Rig
from tests.kit.storekit import fill, play_to_end, random_events, refuse_connections, remount, small_fs


def _sql(state_dir, *statements):
    db = sqlite3.connect(state_dir / DB_NAME)
    for s in statements:
        db.execute(s)
    db.commit()
    db.close()


# -- 1. a win is never stored as abandoned ------------------------------------------------------


def test_store_winning_stop_finishes_the_game_even_if_the_power_goes_before_finish(state_dir, clock):
    events, final = play_to_end(seed=4)
    store = Store.open(state_dir, clock=clock)
    store._db.execute("PRAGMA synchronous=OFF")  # setup: a whole game
    game = store.new_game(["Red", "Blue"], Rules())
    for e in events:
        clock.advance(1)
        store.append(game.id, e)
    store.cut_power()  # before the daemon's finish()
    with Store.open(state_dir, clock=clock) as again:
        assert again.open_game() is None
        done = again.game(game.id)
        assert (done.status, done.winner, done.finished) == ("finished", final.winner, clock.now)
        again.new_game(["Red", "Blue"], Rules())  # a new game does not abandon the won one
        assert again.game(game.id).status == "finished"


def test_store_cut_power_drops_the_lock_and_what_was_pending_and_closes_nothing_cleanly(state_dir, clock):
    store = Store.open(state_dir, clock=clock)
    game = store.new_game(["Red", "Blue"], Rules())
    store.append(game.id, Roll((2, 3, 4, 5)))
    store._db.execute("PRAGMA query_only = ON")  # the card takes no more writes: the move stays pending
    with pytest.raises(StoreWriteError):
        store.append(game.id, Move.of(7, 7))
    assert store.pending == 1
    with pytest.raises(StoreLockedError):
        Store.open(state_dir, clock=clock)  # a second box while this one runs
    store.cut_power()
    assert (state_dir / f"{DB_NAME}-wal").stat().st_size > 0  # no checkpoint: the log is left for the next open
    with pytest.raises(StoreError, match="closed"):
        store.game(game.id)
    store.cut_power()  # once cut, nothing more happens: not a second cut, not a close
    store.close()
    with Store.open(state_dir, clock=clock) as again:  # at once: the lock went with the power
        assert again.open_game().id == game.id
        assert again.game(game.id).events == (Roll((2, 3, 4, 5)),)  # the pending move went with the memory


def test_store_open_finishes_a_game_left_open_after_its_winning_stop(state_dir, clock, caplog, capsys):
    # As the earlier store left it: the winning stop committed, the power cut before "finished".
    events, final = play_to_end(seed=6)
    with Store.open(state_dir, clock=clock) as store:
        store._db.execute("PRAGMA synchronous=OFF")
        game = store.new_game(["Red", "Blue"], Rules())
        for e in events[:-1]:
            store.append(game.id, e)
    _sql(state_dir, f"INSERT INTO events (game_id, seq, payload, time) VALUES ({game.id}, {len(events)}, '{{\"stop\":true}}', 1700000123.5)")
    from boxcli.cli import main

    assert main(["history", "--json", "--state-dir", str(state_dir)]) == 0  # a reader shows it finished ...
    listed = json.loads(capsys.readouterr().out)[0]
    assert (listed["status"], listed["winner"]) == ("finished", final.winner)
    with Store.open(state_dir, clock=clock, readonly=True) as reader:
        assert reader.pending == 1  # ... and writes nothing
    caplog.set_level(logging.WARNING, logger="cantstop.store")
    with Store.open(state_dir, clock=clock) as store:  # the box repairs it at open
        assert store.pending == 0 and store.open_game() is None
    with Store.open(state_dir, clock=clock, readonly=True) as store:
        done = store.game(game.id)
    assert (done.status, done.winner, done.finished) == ("finished", final.winner, 1700000123.5)
    assert any("ended in a win but was left open" in r.getMessage() for r in caplog.records)


def test_store_open_leaves_an_open_game_ending_in_an_ordinary_stop_open(state_dir, clock):
    with Store.open(state_dir, clock=clock) as store:
        game = store.new_game(["Red", "Blue"], Rules())
        for e in (Roll((2, 3, 4, 5)), Move.of(7, 7), STOP):
            store.append(game.id, e)
    with Store.open(state_dir, clock=clock) as store:
        assert store.open_game().id == game.id and store.open_game().status == "open"


# -- 2. a read-only card after a clean shutdown ----------------------------------------------------


def _ro_card(monkeypatch):
    """What a read-only mount does to SQLite: no read-write open, no -shm, so only an immutable open works."""
    return refuse_connections(monkeypatch, "unable to open database file", SQLITE_CANTOPEN,
                              unless=lambda target: "immutable=1" in target)


def _saved_game(state_dir, clock, count=9, seed=2):
    events, _ = random_events(count, seed=seed)
    with Store.open(state_dir, clock=clock) as store:
        game = store.new_game(["Red", "Blue"], Rules(), meta={"seats": [{"colour": "Red"}, {"colour": "Blue"}]})
        for e in events:
            store.append(game.id, e)
    assert not (state_dir / f"{DB_NAME}-wal").exists()  # a clean shutdown leaves no -wal
    return game.id, events


def _box_resumes_read_only_and_saves_once_writable(store, game_id, events, writable_again):
    rig = Rig(store=store)
    assert rig.view.alert and rig.view.alert.startswith("NOT SAVED:")
    assert rig.box.game_id == game_id and rig.events == tuple(events)  # the open game, not New game
    rig.play_on(presses=6, stop_after=None)
    shown = rig.events
    assert len(shown) > len(events) and store.pending > 0
    writable_again()
    rig.play_on(presses=1, stop_after=None)
    assert rig.view.alert is None and store.pending == 0
    shown = rig.events
    rig.shutdown()
    return shown


def test_store_read_only_card_resumes_the_game_and_saves_once_writable(state_dir, clock, monkeypatch):
    game_id, events = _saved_game(state_dir, clock)
    back = _ro_card(monkeypatch)
    store = Store.open(state_dir, clock=clock)
    assert store.cannot_save.startswith("cannot save:")
    shown = _box_resumes_read_only_and_saves_once_writable(store, game_id, events, back)
    with Store.open(state_dir, clock=clock, readonly=True) as again:
        assert again.game(game_id).events == shown


def test_store_read_only_mount_resumes_the_game_and_saves_once_remounted(clock):
    with small_fs("4m") as card:
        state_dir = card / "state"
        game_id, events = _saved_game(state_dir, clock)
        remount(card, readonly=True)
        store = Store.open(state_dir, clock=clock)
        assert store.cannot_save == "cannot save: the SD card is read-only"
        with Store.open(state_dir, clock=clock, readonly=True) as reader:  # history/export work too
            assert reader.open_game().events == tuple(events)
        shown = _box_resumes_read_only_and_saves_once_writable(
            store, game_id, events, lambda: remount(card, readonly=False))
        with Store.open(state_dir, clock=clock, readonly=True) as again:
            assert again.game(game_id).events == shown


# -- 3. a full disk at the very first start ---------------------------------------------------------


def _first_start_on_a_full_disk(store, room_again):
    assert store.cannot_save == "cannot save: the SD card is full"
    rig = Rig(store=store)
    assert rig.view.alert == "NOT SAVED: the SD card is full"
    rig.tap("ROLL")  # New game: cannot be saved yet
    rig.play_on(presses=4, stop_after=None)
    assert rig.view.alert and len(rig.events) > 0
    room_again()
    rig.play_on(presses=1, stop_after=None)
    assert rig.view.alert is None and store.pending == 0
    shown = rig.events
    rig.shutdown()
    return shown


def test_store_full_disk_at_first_start_creates_the_schema_once_there_is_room(state_dir, clock, monkeypatch):
    state_dir.mkdir()
    (state_dir / DB_NAME).touch()  # what SQLite leaves when it cannot write the first page
    room = refuse_connections(monkeypatch, "database or disk is full", SQLITE_FULL,
                              unless=lambda target: "mode=ro" in target)
    shown = _first_start_on_a_full_disk(Store.open(state_dir, clock=clock), room)
    with Store.open(state_dir, clock=clock, readonly=True) as again:
        assert again.open_game().events == shown


def test_store_full_file_system_at_first_start_recovers_once_there_is_room(clock, caplog):
    caplog.set_level(logging.INFO)
    with small_fs("1m") as card:
        state_dir = card / "state"
        filler = fill(card)
        store = Store.open(state_dir, clock=clock)
        shown = _first_start_on_a_full_disk(store, filler.unlink)
        with Store.open(state_dir, clock=clock, readonly=True) as again:
            assert again.open_game().events == shown
    assert not any("read-only" in r.getMessage() for r in caplog.records)  # it was full, not read-only


# -- 4. one box per store ----------------------------------------------------------------------------


def test_store_second_writer_is_refused_while_readers_still_read(state_dir, clock):
    first = Store.open(state_dir, clock=clock)
    game = first.new_game(["Red", "Blue"], Rules())
    with pytest.raises(StoreLockedError) as info:
        Store.open(state_dir, clock=clock)
    assert "another box" in str(info.value) and str(state_dir) in str(info.value) and "\n" not in str(info.value)
    with Store.open(state_dir, clock=clock, readonly=True) as reader:
        assert reader.open_game().id == game.id
    first.close()
    with Store.open(state_dir, clock=clock) as second:  # free once the first box is gone
        assert second.open_game().id == game.id


# -- 5. damaged rows are reported and skipped, never fatal ------------------------------------------------


DAMAGE = [
    ("UPDATE games SET winner = 7 WHERE id = 1", "winner 7 is not a player"),
    ("UPDATE games SET winner = 'x' WHERE id = 1", "winner 'x' is not a player"),
    ("UPDATE games SET started = 'yesterday' WHERE id = 1", "started is not a time"),
    ("UPDATE games SET finished = 'later' WHERE id = 1", "finished is not a time"),
    ("UPDATE games SET turns = 'many' WHERE id = 1", "turns 'many' is not a count"),
    ("UPDATE events SET time = 'noon' WHERE game_id = 1 AND seq = 3", "event 3: its time is not a number"),
]


def _two_finished_games(state_dir, clock):
    with Store.open(state_dir, clock=clock) as store:
        store._db.execute("PRAGMA synchronous=OFF")
        for seed in (1, 2):
            events, final = play_to_end(seed=seed)
            g = store.new_game(["Red", "Blue"], Rules(), meta={"seats": [{"colour": "Red"}, {"colour": "Blue"}]})
            for e in events:
                clock.advance(1)
                store.append(g.id, e)
            store.finish(g.id, final.winner)
    return final


@pytest.mark.parametrize("sql, reason", DAMAGE)
def test_store_damaged_row_is_reported_and_skipped(state_dir, clock, sql, reason):
    from firmware.table.roster import from_fact
    from firmware.daemon.loaders import load_stats

    final = _two_finished_games(state_dir, clock)
    _sql(state_dir, sql)
    with Store.open(state_dir, clock=clock) as store:
        for listed in (store.games(), store.games(check=True)):
            damaged, good = sorted(listed, key=lambda g: g.id)
            assert damaged.status == "damaged" and reason in damaged.problem and "\n" not in damaged.problem
            assert isinstance(damaged.started, float) and damaged.duration >= 0
            assert damaged.winner is None or 0 <= damaged.winner < 2
            assert good.status == "finished" and good.winner == final.winner
        stats = load_stats(store, from_fact(None, ()))  # what the statistics screen reads
        assert stats.games == 1 and sum(n for _, n in stats.rows) == 1  # the damaged game is not counted
        exported = store.game(1)
        assert exported.status == "damaged" and isinstance(exported.started, float)


@pytest.mark.parametrize("sql, reason", DAMAGE[:3])
def test_store_damaged_row_in_the_statistics_screen_of_the_box(state_dir, clock, sql, reason):
    _two_finished_games(state_dir, clock)
    _sql(state_dir, sql)
    rig = Rig(store=Store.open(state_dir, clock=clock))
    rig.tap("MENU")
    labels = [getattr(i, "label", i) for i in rig.view.items]
    for _ in range(labels.index(next(x for x in labels if "tatistic" in str(x)))):
        rig.tap("B")
    rig.tap("ROLL")
    shown = rig.view
    assert rig.box.running and type(shown).__name__ == "StatsView"
    assert shown.games == 1 and sum(n for _, n in shown.rows) == 1  # the damaged game is skipped
    rig.shutdown()
