"""The Continue list reads the abandoned games only, among the newest (issue 21: flat with years of games)."""

from engine import Roll, Rules
from firmware.store import Store, queries
from firmware.daemon import loaders


def _game(store, abandoned, rolled=True):
    g = store.new_game(["Red", "Blue"], Rules())
    if rolled:
        store.append(g.id, Roll((1, 1, 1, 1)))
    if abandoned:
        store.abandon(g.id)
    else:
        store.finish(g.id, 0)
    return g.id


def test_continue_list_shows_the_newest_unfinished_games_within_the_look_back(state_dir, clock, monkeypatch):
    with Store.open(state_dir, clock=clock) as store:
        store._db.execute("PRAGMA synchronous=OFF")
        too_old = _game(store, abandoned=True)
        for _ in range(loaders.UNFINISHED_LOOK_BACK):
            _game(store, abandoned=False)
        unplayed = _game(store, abandoned=True, rolled=False)
        recent = [_game(store, abandoned=True) for _ in range(3)]
        read = []
        real = queries.game_rows
        monkeypatch.setattr(queries, "game_rows", lambda *a, **k: read.append(real(*a, **k)) or read[-1])
        shown = loaders.unfinished(store)
    assert [g.id for g in shown.games] == recent[::-1]
    assert too_old not in [g.id for g in shown.games] and unplayed not in [g.id for g in shown.games]
    assert sum(len(rows) for rows in read) <= 1 + 5  # the newest row, then the abandoned ones only
