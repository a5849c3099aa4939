"""A big store made fast: many finished games without tallies, as versions before tallies left them."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from engine import STOP, Phase, Roll, Rules, apply, new_game
from firmware.store import DB_NAME, Store


def short_game() -> list:
    """A whole game to one column: Red climbs column 2 with double ones and stops (five events)."""
    state = new_game(["Red", "Blue"], Rules(columns_to_win=1))
    events = []
    for event in (Roll((1, 1, 1, 1)), None, Roll((1, 1, 1, 1)), None, STOP):
        event = event or state.moves[0]
        state = apply(state, event)
        events.append(event)
    assert state.phase is Phase.OVER and state.winner == 0
    return events


def many_finished_games(state_dir: Path, count: int) -> None:
    """A store of ``count`` finished games without tallies (as versions before tallies left it): one game, copied."""
    meta = {"seats": [{"colour": "Red", "bot": None, "name": "Ann"}, {"colour": "Blue", "bot": None, "name": "Bo"}]}
    with Store.open(state_dir) as store:
        game = store.new_game(["Red", "Blue"], Rules(columns_to_win=1), meta=meta)
        for event in short_game():
            store.append(game.id, event)
    db = sqlite3.connect(state_dir / DB_NAME, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("BEGIN")
    db.execute(
        "WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ?) "
        "INSERT INTO games (players, rules, meta, started, finished, winner, status, turns) "
        "SELECT players, rules, meta, started + i, finished + i, winner, status, turns FROM games, k WHERE id = ?",
        (count - 1, game.id))
    db.execute("INSERT INTO events (game_id, seq, payload, time) SELECT g.id, e.seq, e.payload, e.time "
               "FROM games g JOIN events e ON e.game_id = ? WHERE g.id <> ?", (game.id, game.id))
    db.execute("DELETE FROM facts WHERE key LIKE 'tally:%' OR key = 'tallies'")
    db.execute("COMMIT")
    db.close()
