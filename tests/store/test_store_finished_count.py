"""The finished games' count (schema 5): one row SQLite's triggers keep, so Statistics opens in the same time at any size.

The statistics screen checks its kept sums against (how many finished games,
the sum of their ids). Counting the games for that grew with every game night;
the ``finished_count`` row is kept by triggers in the same transaction as the
change, whoever writes. These tests hold the row to the count itself after
every kind of change: the box's own writes, an import, a hand edit.
"""

import sqlite3
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Rules
from firmware.store import DB_NAME, SCHEMA_VERSION, Store, queries
from tests.kit.ramdir import ram_tempdir
from tests.kit.storekit import as_version_4, play_to_end

COUNTED = "SELECT COUNT(*), TOTAL(id) FROM games WHERE status = 'finished' AND problem IS NULL"


def _kept(path) -> tuple[int, int]:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT count, total FROM finished_count").fetchone()
    finally:
        db.close()


def _counted(path) -> tuple[int, int]:
    db = sqlite3.connect(path)
    try:
        count, total = db.execute(COUNTED).fetchone()
        return count, int(total)
    finally:
        db.close()


def _finished_game(store: Store, events, winner: int) -> int:
    game = store.new_game(["Red", "Blue"], Rules())
    for event in events:
        store.append(game.id, event)
    store.finish(game.id, winner)
    return game.id


# Each step: what the box (or a person with sqlite3) does to the store.
STEPS = st.lists(st.sampled_from(["finish", "open", "abandon", "reopen", "damage", "undamage", "hand-delete",
                                  "hand-abandon", "hand-finish"]), min_size=1, max_size=25)


@settings(max_examples=25, deadline=None)
@given(steps=STEPS, pick=st.randoms(use_true_random=False))
def test_finished_count_row_is_the_count_after_every_kind_of_change(steps, pick):
    with ram_tempdir() as tmp:  # each example's store in memory: its commits fsync at every event
        _count_after_each(Path(tmp), steps, pick)


def _count_after_each(state_dir: Path, steps, pick) -> None:
    events, state = play_to_end(seed=3)
    with Store.open(state_dir) as store:
        for step in steps:
            ids = [g.id for g in store.games()]
            some = pick.choice(ids) if ids else None
            if step == "finish":
                _finished_game(store, events, state.winner)
            elif step == "open":
                store.new_game(["Red", "Blue"], Rules())
            elif step == "abandon" and some is not None and store.games()[ids.index(some)].status == "open":
                store.abandon(some)
            elif step == "reopen" and some is not None and store.games()[ids.index(some)].status == "abandoned":
                store.reopen(some)
            elif some is not None and step.startswith(("damage", "undamage", "hand")):
                sql = {"damage": "UPDATE games SET problem = 'bad event' WHERE id = ?",
                       "undamage": "UPDATE games SET problem = NULL WHERE id = ?",
                       "hand-delete": "DELETE FROM events WHERE game_id = ?1; DELETE FROM games WHERE id = ?1",
                       "hand-abandon": "UPDATE games SET status = 'abandoned' WHERE id = ?",
                       "hand-finish": "UPDATE games SET status = 'finished' WHERE id = ?"}[step]
                db = sqlite3.connect(state_dir / DB_NAME, isolation_level=None)
                for statement in sql.split(";"):
                    db.execute(statement, (some,))
                db.close()
            path = state_dir / DB_NAME
            assert _kept(path) == _counted(path), step
            assert store.finished_check() == _counted(path)


def test_a_version_4_file_gets_its_count_once_and_keeps_it(state_dir):
    events, state = play_to_end(seed=5)
    with Store.open(state_dir) as store:
        finished = [_finished_game(store, events, state.winner) for _ in range(3)]
        store.abandon(store.new_game(["Red", "Blue"], Rules()).id)
    path = state_dir / DB_NAME
    as_version_4(path)
    with Store.open(state_dir, readonly=True) as reader:  # a reader of version 4 counts the games itself
        assert reader.finished_check() == (3, sum(finished))
    with Store.open(state_dir) as store:
        assert store._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 5
        assert _kept(path) == (3, sum(finished))
        finished.append(_finished_game(store, events, state.winner))
        assert store.finished_check() == _kept(path) == (4, sum(finished))


def test_count_read_is_one_row_not_a_pass_over_the_games(state_dir):
    # What makes Statistics flat: at version 5 the check is read from the kept row, not counted.
    events, state = play_to_end(seed=7)
    with Store.open(state_dir) as store:
        _finished_game(store, events, state.winner)
    db = sqlite3.connect(state_dir / DB_NAME)
    db.execute("UPDATE finished_count SET count = 41, total = 42")  # a row the triggers did not write
    db.commit()
    assert queries.finished_check(db, SCHEMA_VERSION) == (41, 42)
    plan = " ".join(str(r) for r in db.execute("EXPLAIN QUERY PLAN SELECT count, total FROM finished_count"))
    assert "games" not in plan
    db.execute("DELETE FROM finished_count")  # the row gone (a hand edit): counted again, never a crash
    assert queries.finished_check(db, SCHEMA_VERSION) == (1, 1)
    db.close()
