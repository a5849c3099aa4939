"""Bad stored data: the file is moved aside or the game marked damaged; never a traceback, never silent loss."""

import json
import logging
import os
import sqlite3
import time

import pytest

from engine import Move, Rules, state_view
from firmware.store import DB_NAME, SCHEMA_VERSION, Store
from tests.kit.storekit import play_to_end, random_events


def _filled_db(state_dir, clock, games=20) -> bytes:
    """A valid store holding ``games`` whole games (enough pages to damage one in the middle)."""
    with Store.open(state_dir, clock=clock) as store:
        store._db.execute("PRAGMA synchronous=OFF")  # setup only: no need to wait for the disk here
        for seed in range(games):
            events, state = play_to_end(seed=seed)
            g = store.new_game(["Red", "Blue"], Rules())
            for e in events:
                store.append(g.id, e)
            store.finish(g.id, state.winner)
    return (state_dir / DB_NAME).read_bytes()


def _aside_name(clock) -> str:
    return f"{DB_NAME}.corrupt-{time.strftime('%Y%m%d-%H%M%S', time.localtime(clock.now))}"


def _assert_moved_aside_and_clean(state_dir, clock, bad: bytes, caplog):
    caplog.set_level(logging.ERROR, logger="cantstop.store")
    with Store.open(state_dir, clock=clock) as store:
        assert store.notice and "\n" not in store.notice and "aside" in store.notice
        assert store.games() == [] and store.open_game() is None
        game = store.new_game(["Red", "Blue"], Rules())  # the clean store works
        assert store.open_game().id == game.id
    aside = state_dir / _aside_name(clock)
    assert aside.read_bytes() == bad  # kept byte for byte, nothing lost
    logged = [r for r in caplog.records if r.name == "cantstop.store" and r.levelno == logging.ERROR]
    assert len(logged) == 1 and aside.name in logged[0].getMessage()
    return aside


def test_store_garbage_file_is_moved_aside_with_its_wal_and_shm(state_dir, clock, caplog):
    state_dir.mkdir()
    bad = os.urandom(3000)
    (state_dir / DB_NAME).write_bytes(bad)
    (state_dir / f"{DB_NAME}-wal").write_bytes(b"wal bytes")
    (state_dir / f"{DB_NAME}-shm").write_bytes(b"shm bytes")
    aside = _assert_moved_aside_and_clean(state_dir, clock, bad, caplog)
    assert (state_dir / f"{aside.name}-wal").read_bytes() == b"wal bytes"
    # The -shm is only SQLite's index of the -wal (rebuilt on open): it moves too, its bytes do not matter.
    assert (state_dir / f"{aside.name}-shm").exists()
    assert sorted(p.name for p in state_dir.iterdir() if p.name.startswith(aside.name)) == [
        aside.name, f"{aside.name}-shm", f"{aside.name}-wal"]


def test_store_truncated_file_is_moved_aside(state_dir, clock, caplog):
    data = _filled_db(state_dir, clock)
    bad = data[: len(data) // 2]
    (state_dir / DB_NAME).write_bytes(bad)
    _assert_moved_aside_and_clean(state_dir, clock, bad, caplog)


def test_store_tiny_truncated_file_is_moved_aside(state_dir, clock, caplog):
    data = _filled_db(state_dir, clock, games=1)
    bad = data[:60]
    (state_dir / DB_NAME).write_bytes(bad)
    _assert_moved_aside_and_clean(state_dir, clock, bad, caplog)


def test_store_file_failing_integrity_check_is_moved_aside(state_dir, clock, caplog):
    data = _filled_db(state_dir, clock)
    size = int.from_bytes(data[16:18], "big")
    pages = len(data) // size
    middle = pages // 2
    bad = bytearray(data)
    bad[middle * size:(middle + 1) * size] = data[(pages - 2) * size:(pages - 1) * size]  # a page copied over another
    bad = bytes(bad)
    (state_dir / DB_NAME).write_bytes(bad)
    probe = sqlite3.connect(state_dir / DB_NAME)
    assert probe.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION  # it opens ...
    assert probe.execute("PRAGMA integrity_check").fetchone()[0] != "ok"  # ... but fails the check
    probe.close()
    _assert_moved_aside_and_clean(state_dir, clock, bad, caplog)


def test_store_file_with_random_pages_in_the_middle_is_moved_aside(state_dir, clock, caplog):
    data = _filled_db(state_dir, clock)
    bad = bytearray(data)
    middle = len(data) // 2
    bad[middle:middle + 3 * 4096] = os.urandom(3 * 4096)
    bad = bytes(bad)
    (state_dir / DB_NAME).write_bytes(bad)
    _assert_moved_aside_and_clean(state_dir, clock, bad, caplog)


def test_store_unknown_database_is_moved_aside(state_dir, clock, caplog):
    state_dir.mkdir()
    db = sqlite3.connect(state_dir / DB_NAME)
    db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, jpeg BLOB)")
    db.commit()
    db.close()
    bad = (state_dir / DB_NAME).read_bytes()
    _assert_moved_aside_and_clean(state_dir, clock, bad, caplog)


def test_store_second_bad_file_in_the_same_second_gets_its_own_name(state_dir, clock):
    state_dir.mkdir()
    for n in (1, 2):
        (state_dir / DB_NAME).write_bytes(b"garbage %d" % n)
        Store.open(state_dir, clock=clock).close()
    assert (state_dir / _aside_name(clock)).read_bytes() == b"garbage 1"
    assert (state_dir / f"{_aside_name(clock)}-2").read_bytes() == b"garbage 2"


# -- damaged games: an event row that does not replay -----------------------------------------


def _open_game_with(state_dir, clock, count=10):
    events, _ = random_events(count, seed=11)
    with Store.open(state_dir, clock=clock) as store:
        game = store.new_game(["Red", "Blue"], Rules())
        for e in events:
            store.append(game.id, e)
    return game.id, events


def _set_payload(state_dir, game_id, seq, payload):
    db = sqlite3.connect(state_dir / DB_NAME)
    db.execute("UPDATE events SET payload = ? WHERE game_id = ? AND seq = ?", (payload, game_id, seq))
    db.commit()
    db.close()


def _count_rows(state_dir, game_id):
    db = sqlite3.connect(state_dir / DB_NAME)
    try:
        return db.execute("SELECT COUNT(*) FROM events WHERE game_id = ?", (game_id,)).fetchone()[0]
    finally:
        db.close()


@pytest.mark.parametrize("payload, reason", [
    ('{"roll": [2, 3', "not valid JSON"),
    ('{"roll": [7, 1, 1, 1]}', "roll must be a list of four whole numbers 1 to 6"),
    ('{"dance": true}', "has none of the keys roll, move, stop"),
    ('{"stop": true}', "cannot stop now: the dice are out"),
])
def test_store_event_that_does_not_replay_marks_the_game_damaged(state_dir, clock, caplog, payload, reason):
    game_id, events = _open_game_with(state_dir, clock)
    # Event 7 follows a roll in this game (so a stop there is illegal).
    assert type(events[5]).__name__ == "Roll"
    _set_payload(state_dir, game_id, 7, payload)
    caplog.set_level(logging.ERROR, logger="cantstop.store")
    with Store.open(state_dir, clock=clock) as store:
        assert store.notice is None
        game = store.open_game()
        assert game.status == "damaged"
        assert game.problem.startswith(f"game {game_id}, event 7: {reason}")
        assert "\n" not in game.problem
        assert game.events == tuple(events[:6])  # the valid prefix
        assert game.damaged_rows[0] == (7, payload) and len(game.damaged_rows) == 4
        assert any(game.problem in r.getMessage() for r in caplog.records)
        # The daemon shows the problem and starts a new game; the damaged one stays, rows and all.
        fresh = store.new_game(["Red", "Blue"], Rules())
        assert store.open_game().id == fresh.id
        assert store.game(game_id).status == "damaged"
        assert [g.status for g in store.games()] == ["open", "damaged"]
    assert _count_rows(state_dir, game_id) == len(events)


def test_store_missing_event_row_marks_the_game_damaged(state_dir, clock):
    game_id, events = _open_game_with(state_dir, clock)
    db = sqlite3.connect(state_dir / DB_NAME)
    db.execute("DELETE FROM events WHERE game_id = ? AND seq = 4", (game_id,))
    db.commit()
    db.close()
    with Store.open(state_dir, clock=clock) as store:
        game = store.open_game()
    assert game.status == "damaged"
    assert game.problem == f"game {game_id}, event 4: missing (the next stored event is number 5)"
    assert game.events == tuple(events[:3])


def test_store_damaged_game_takes_no_more_events(state_dir, clock):
    game_id, events = _open_game_with(state_dir, clock)
    _set_payload(state_dir, game_id, 3, "not json")
    with Store.open(state_dir, clock=clock) as store:
        store.open_game()
        with pytest.raises(Exception) as info:
            store.append(game_id, Move.of(7, 7))
        assert "damaged" in str(info.value)
    assert _count_rows(state_dir, game_id) == len(events)


def test_store_damage_is_remembered_after_reopen(state_dir, clock):
    game_id, _ = _open_game_with(state_dir, clock)
    _set_payload(state_dir, game_id, 2, "{")
    with Store.open(state_dir, clock=clock) as store:
        first = store.open_game().problem
    with Store.open(state_dir, clock=clock) as store:
        again = store.open_game()
    assert again.status == "damaged" and again.problem == first


def test_store_damaged_finished_game_still_gives_its_valid_prefix(state_dir, clock):
    _filled_db(state_dir, clock, games=2)
    _set_payload(state_dir, 1, 9, '{"move": [99]}')
    with Store.open(state_dir, clock=clock) as store:
        game = store.game(1)
        assert game.status == "damaged" and game.problem.startswith("game 1, event 9: move must be")
        assert len(game.events) == 8
        assert state_view(store.record(1).replay())["players"] == ["Red", "Blue"]
        assert store.game(2).status == "finished"


def test_store_unreadable_players_mark_the_game_damaged(state_dir, clock):
    game_id, events = _open_game_with(state_dir, clock)
    db = sqlite3.connect(state_dir / DB_NAME)
    db.execute("UPDATE games SET players = ? WHERE id = ?", (json.dumps([]), game_id))
    db.commit()
    db.close()
    with Store.open(state_dir, clock=clock) as store:
        game = store.open_game()
    assert game.status == "damaged" and game.problem.startswith(f"game {game_id}: players or rules unreadable")
    assert game.events == () and len(game.damaged_rows) == len(events)


def test_store_bad_file_keeps_its_wal_byte_for_byte(state_dir, clock, caplog):
    # A box cut off mid-game leaves recent events in the -wal: a bad main file must not lose them.
    data = _filled_db(state_dir, clock, games=3)
    with Store.open(state_dir, clock=clock) as store:
        game = store.new_game(["Red", "Blue"], Rules())
        for e in random_events(30, seed=2)[0]:
            store.append(game.id, e)
        wal = (state_dir / f"{DB_NAME}-wal").read_bytes()
    assert len(wal) > 0
    bad = b"\0" * 100 + data[100:]  # header wiped
    (state_dir / DB_NAME).write_bytes(bad)
    (state_dir / f"{DB_NAME}-wal").write_bytes(wal)
    aside = _assert_moved_aside_and_clean(state_dir, clock, bad, caplog)
    assert (state_dir / f"{aside.name}-wal").read_bytes() == wal
