"""Undo removes the last move or stop; a roll is never removed, so undo cannot give new dice."""

import pytest

from engine import STOP, Move, Roll, Rules
from firmware.store import Store, StoreGameError


def _game(store, events):
    game = store.new_game(["Red", "Blue"], Rules())
    for e in events:
        store.append(game.id, e)
    return game


def test_store_undo_removes_the_last_move(store):
    game = _game(store, [Roll((2, 3, 4, 5)), Move.of(7, 7)])
    assert store.pop_last(game.id) == Move.of(7, 7)
    assert store.game(game.id).events == (Roll((2, 3, 4, 5)),)
    # The same dice are still out: another of their moves can be chosen.
    store.append(game.id, Move.of(5, 9))
    assert store.game(game.id).events == (Roll((2, 3, 4, 5)), Move.of(5, 9))


def test_store_undo_removes_a_stop_and_play_goes_on(store):
    game = _game(store, [Roll((2, 3, 4, 5)), Move.of(7, 7), STOP])
    assert store.pop_last(game.id) == STOP
    store.append(game.id, Roll((1, 1, 1, 1)))
    assert store.game(game.id).replay().current == 0  # still Red's turn: the stop was undone


def test_store_undo_never_removes_a_roll(store):
    game = _game(store, [Roll((2, 3, 4, 5))])
    with pytest.raises(StoreGameError, match="cannot undo a roll"):
        store.pop_last(game.id)
    assert store.game(game.id).events == (Roll((2, 3, 4, 5)),)


def test_store_undo_stops_at_the_roll_before_a_move(store):
    game = _game(store, [Roll((2, 3, 4, 5)), Move.of(7, 7), Roll((1, 1, 5, 6)), Move.of(2, 11)])
    assert store.pop_last(game.id) == Move.of(2, 11)
    with pytest.raises(StoreGameError, match="roll"):
        store.pop_last(game.id)
    assert store.game(game.id).events[-1] == Roll((1, 1, 5, 6))


def test_store_undo_of_a_bust_roll_is_refused(store):
    # Runners on 2, 3 and 12, then 2,3,4,5 busts: the bust roll stays.
    events = [Roll((1, 1, 6, 6)), Move((2, 12)), Roll((1, 2, 1, 2)), Move((3, 3)), Roll((2, 3, 4, 5))]
    game = _game(store, events)
    assert store.game(game.id).replay().current == 1
    with pytest.raises(StoreGameError, match="roll"):
        store.pop_last(game.id)


def test_store_undo_with_no_events_is_refused(store):
    game = _game(store, [])
    with pytest.raises(StoreGameError, match="no event to undo"):
        store.pop_last(game.id)


def test_store_undo_is_durable_across_reopen(state_dir, clock):
    with Store.open(state_dir, clock=clock) as store:
        game = _game(store, [Roll((2, 3, 4, 5)), Move.of(7, 7)])
        store.pop_last(game.id)
    with Store.open(state_dir, clock=clock) as store:
        assert store.open_game().events == (Roll((2, 3, 4, 5)),)
        store.append(game.id, Move.of(6, 8))
        assert store.open_game().events == (Roll((2, 3, 4, 5)), Move.of(6, 8))


def test_store_undo_refused_on_a_finished_game(store):
    game = _game(store, [Roll((2, 3, 4, 5)), Move.of(7, 7), STOP])
    store.finish(game.id, None)
    with pytest.raises(StoreGameError, match="finished"):
        store.pop_last(game.id)
