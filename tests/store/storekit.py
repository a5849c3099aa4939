"""Helpers for the store tests: legal games played from a seeded random source, a settable clock."""

from __future__ import annotations

import random
import sqlite3

from engine import ALL_ROLLS, STOP, Event, GameState, Phase, Roll, Rules, apply, can_stop, new_game


class FakeClock:
    """A clock the test moves by hand: ``clock()`` is the time, ``clock.advance(s)`` moves it."""

    def __init__(self, now: float = 1_700_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


def random_events(count: int, *, seed: int = 1, players=("Red", "Blue"), rules: Rules | None = None,
                  stop_chance: float = 0.4) -> tuple[list[Event], GameState]:
    """Up to ``count`` legal events of one game (fewer if it ends first) and the state after them."""
    rng = random.Random(seed)
    state = new_game(players, rules)
    events: list[Event] = []
    while len(events) < count and state.phase is not Phase.OVER:
        if state.phase is Phase.MOVE:
            event = rng.choice(state.moves)
        elif state.phase is Phase.DECIDE and can_stop(state) and rng.random() < stop_chance:
            event = STOP
        else:
            event = Roll(rng.choice(ALL_ROLLS))
        state = apply(state, event)
        events.append(event)
    return events, state


def play_to_end(*, seed: int = 1, players=("Red", "Blue")) -> tuple[list[Event], GameState]:
    """A whole game, to its winning stop."""
    events, state = random_events(100_000, seed=seed, players=players)
    assert state.phase is Phase.OVER
    return events, state


class CommitLandsThenFails:
    """Wraps a connection: its next COMMIT is written but reports an I/O error (fsync trouble)."""

    def __init__(self, db: sqlite3.Connection):
        self._real, self.armed = db, True

    def execute(self, sql, *args):
        cur = self._real.execute(sql, *args)
        if sql == "COMMIT" and self.armed:
            self.armed = False
            raise sqlite3.OperationalError("disk I/O error")
        return cur

    def __getattr__(self, name):
        return getattr(self._real, name)
