"""Tallies in the store: one fact per finished game, so a game's end writes one small value however
long the history; the old all-in-one ``tallies`` fact is split into them the first time it is read."""

import sqlite3

from engine import Rules
from firmware.table import person_stats, tally_sums
from firmware.table.roster import from_fact
from firmware.daemon.loaders import load_stats, seats_from_meta
from firmware.store import DB_NAME, Store


def seat(name, turns=5, busts=1, best=3):
    return {"name": name, "bot": None, "turns": turns, "busts": busts, "best": best}


def finished(store, players, winner):
    g = store.new_game(players, Rules(), meta={"seats": [{"colour": p, "bot": None} for p in players]})
    store.finish(g.id, winner)
    return g.id


def fact_rows(state_dir):
    db = sqlite3.connect(state_dir / DB_NAME)
    try:
        return dict(db.execute("SELECT key, value FROM facts"))
    finally:
        db.close()


def test_store_tallies_a_game_end_writes_only_its_own_small_fact(state_dir, clock):
    with Store.open(state_dir, clock=clock) as store:
        ids = [finished(store, ["Red", "Blue"], i % 2) for i in range(30)]
        for game_id in ids:
            person_stats.keep_tally(store, game_id, {"seats": [seat("Red"), seat("Blue")], "winner": 0, "columns": 3})
    rows = fact_rows(state_dir)
    assert set(rows) == {f"tally:{i}" for i in ids}
    sizes = {len(v) for v in rows.values()}
    assert len(sizes) == 1 and sizes.pop() < 200  # each the same few bytes: nothing grows with the history


def test_store_tallies_the_old_all_in_one_fact_is_split_once_and_counts_the_same(state_dir, clock):
    with Store.open(state_dir, clock=clock) as store:
        a = finished(store, ["Red", "Blue"], 0)
        b = finished(store, ["Red", "Blue"], 1)
        c = finished(store, ["Green", "Blue"], 0)  # finished without a tally: replayed once
        # as the previous version left it: games a and b in one fact, b's entry damaged
        store.put_fact(person_stats.OLD_TALLIES_KEY, {str(a): {"seats": [seat("Ann"), seat("Bob")], "winner": 0,
                                                         "columns": 3},
                                                str(b): "garbage"})
        stats = load_stats(store, from_fact(None, ()))
        assert dict(stats.rows) == {"Ann": 1, "Bob": 0, "Red": 0, "Blue": 1, "Green": 1} and stats.games == 3
    rows = fact_rows(state_dir)
    # the old fact is gone, nothing lost (and the sums kept beside the tallies)
    assert set(rows) == {f"tally:{a}", f"tally:{b}", f"tally:{c}", tally_sums.SUMS_KEY}
    with Store.open(state_dir, clock=clock) as store:
        assert dict(load_stats(store, from_fact(None, ())).rows) == dict(stats.rows)
        assert store.pending == 0


def test_store_tallies_a_per_game_fact_wins_over_the_old_one_and_reading_again_writes_nothing(state_dir, clock):
    with Store.open(state_dir, clock=clock) as store:
        a = finished(store, ["Red", "Blue"], 0)
        store.put_fact(person_stats.OLD_TALLIES_KEY, {str(a): {"seats": [seat("Old"), seat("Bob")], "winner": 0}})
        person_stats.keep_tally(store, a, {"seats": [seat("New"), seat("Bob")], "winner": 0, "columns": 3})
        assert [t["seats"][0]["name"] for t in person_stats.tallies_by_id(store, seats_from_meta).values()] == ["New"]
        before = fact_rows(state_dir)
        assert person_stats.OLD_TALLIES_KEY not in before

        def no_writes(values):
            raise AssertionError(f"nothing to keep, yet it wrote {values}")

        store.put_facts = no_writes
        assert [t["seats"][0]["name"] for t in person_stats.tallies_by_id(store, seats_from_meta).values()] == ["New"]
