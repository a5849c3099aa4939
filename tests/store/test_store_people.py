"""What the people features ask of the store: continuing an abandoned game, and the finished games' ids."""

import pytest

from engine import Rules
from firmware.store import StoreGameError, StoreWriteError
from tests.kit.storekit import play_to_end, random_events


def _game(store, n, seed):
    g = store.new_game(["Red", "Blue"], Rules())
    events, _ = random_events(n, seed=seed)
    for e in events:
        store.append(g.id, e)
    return g, events


def test_store_reopen_continues_an_abandoned_game_and_abandons_the_open_one(store):
    a, a_events = _game(store, 9, 1)
    b, _ = _game(store, 4, 2)  # starting b abandoned a
    assert store.game(a.id).status == "abandoned"
    again = store.reopen(a.id)
    assert again.status == "open" and again.events == tuple(a_events) and again.finished is None
    assert store.open_game().id == a.id and store.game(b.id).status == "abandoned"
    more, _ = random_events(10, seed=1)
    store.append(a.id, more[9])  # it takes events again, checked against its game
    assert len(store.game(a.id).events) == 10


@pytest.mark.parametrize("status", ["open", "finished"])
def test_store_reopen_refuses_a_game_that_is_not_abandoned(store, status):
    g, _ = _game(store, 3, 1)
    if status == "finished":
        store.finish(g.id, None)
    with pytest.raises(StoreGameError, match=f"is {status} and cannot be continued"):
        store.reopen(g.id)
    with pytest.raises(StoreGameError, match="no game 99"):
        store.reopen(99)


def test_store_reopen_while_writes_fail_is_pending_and_shown(store, monkeypatch):
    a, _ = _game(store, 5, 1)
    _game(store, 2, 3)
    monkeypatch.setattr(store, "_connection_for_writing", lambda: (_ for _ in ()).throw(StoreWriteError("disk full")))
    with pytest.raises(StoreWriteError):
        store.reopen(a.id)
    assert store.game(a.id).status == "open"  # pending, and reads show it
    monkeypatch.undo()
    store.put_fact("x", 1)  # a write that works saves it
    assert store.pending == 0 and store.game(a.id).status == "open"


def test_store_finished_ids_lists_finished_undamaged_games_newest_first(store):
    won, final = play_to_end(seed=4)
    ids = []
    for seed in (1, 2):
        g = store.new_game(["Red", "Blue"], Rules())
        for e in won:
            store.append(g.id, e)
        ids.append(g.id)
    _game(store, 3, 5)  # open
    assert store.finished_ids() == ids[::-1]
    store._db.execute("UPDATE games SET problem = 'bad' WHERE id = ?", (ids[0],))
    assert store.finished_ids() == [ids[1]]
