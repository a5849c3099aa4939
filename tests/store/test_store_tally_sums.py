"""The tallies kept added up (issue 21): opening Statistics reads the sums and adds only the games since.

With 10,000 games, adding every tally on each opening took 200 ms and grew
with every game; these tests pin that an opening reads no old tally, that the
numbers equal the tallies added afresh, and that the sums start over when a
game leaves the finished ones.
"""

import random

from engine import Rules
from firmware.table import person_stats, tally_sums
from firmware.daemon.loaders import load_stats
from firmware.table import roster as rosters
from firmware.store import Store

NAMES = ("Ann", "Bob", "Cy", "Box")
IDS = {"Ann": 1, "Bob": 2}


def _tally(rng):
    n = rng.choice((1, 2, 3))
    seats = [{"name": name, "bot": "rule28" if name == "Box" else None, "turns": rng.randint(1, 30),
              "busts": rng.randint(0, 9), "best": rng.randint(0, 12)} for name in rng.sample(NAMES, n)]
    for seat in seats:  # some seats kept with a person id, some from before ids (by name only)
        if seat["name"] in IDS and rng.random() < 0.5:
            seat["person"] = IDS[seat["name"]]
    return {"seats": seats, "winner": rng.randrange(n), "columns": rng.choice((1, 2, 3))}


def _finish(store, rng, tallies):
    g = store.new_game(["Red", "Blue"], Rules())
    store.finish(g.id, 0)
    t = _tally(rng)
    person_stats.keep_tally(store, g.id, t)
    tallies.append(t)
    return g.id


def _numbers(found):
    return [(p.name, p.games, p.wins, p.turns, p.busts, {c: (p.solo_best(c), p.solo_average(c)) for c in p.solo})
            for p in found]


def test_tally_sums_give_the_numbers_of_the_tallies_added_afresh(state_dir, clock):
    rng, tallies = random.Random(7), []
    roster = rosters.rename(rosters.from_fact(None, ("Ann", "Bob", "Cy")), "Bob", "Robert")  # ids 1, 2, 3
    with Store.open(state_dir, clock=clock) as store:
        for _ in range(3):
            for _ in range(rng.randint(1, 15)):
                _finish(store, rng, tallies)
            stats = load_stats(store, roster)
            found, contests = person_stats.people(tallies, roster.who)
            assert stats.games == contests
            assert stats.rows == tuple((p.name, p.wins) for p in found if p.games)
            sums = store.fact(tally_sums.SUMS_KEY)
            assert _numbers(person_stats.people_of(sums, roster.who)[0]) == _numbers(found)


def test_tally_sums_a_later_opening_reads_only_the_new_games_tally(state_dir, clock):
    rng, tallies = random.Random(8), []
    with Store.open(state_dir, clock=clock) as store:
        for _ in range(100):
            _finish(store, rng, tallies)
        load_stats(store, rosters.from_fact(None, ()))
        newest = _finish(store, rng, tallies)
        read = []
        real_fact, real_facts = store.fact, store.facts
        store.fact = lambda key: read.append(key) or real_fact(key)
        store.facts = lambda prefix: read.append(prefix + "*") or real_facts(prefix)
        stats = load_stats(store, rosters.from_fact(None, ()))
        assert [k for k in read if k.startswith("tally")] == [tally_sums.SUMS_KEY, f"tally:{newest}"]
        assert stats.games == person_stats.people(tallies)[1]
        read.clear()
        store.finished_ids = lambda: read.append("finished_ids") or []
        load_stats(store, rosters.from_fact(None, ()))
        # nothing changed: the sums alone, no list of games built, no tally read
        assert [k for k in read if k.startswith("tally") or k == "finished_ids"] == [tally_sums.SUMS_KEY]


def test_tally_sums_start_over_when_a_game_is_no_longer_finished(state_dir, clock):
    rng, tallies = random.Random(9), []
    with Store.open(state_dir, clock=clock) as store:
        ids = [_finish(store, rng, tallies) for _ in range(5)]
        assert load_stats(store, rosters.from_fact(None, ())).games == person_stats.people(tallies)[1]
        store._db.execute("UPDATE games SET problem = 'damaged on purpose' WHERE id = ?", (ids[2],))
        stats = load_stats(store, rosters.from_fact(None, ()))
        assert stats.games == person_stats.people(tallies[:2] + tallies[3:])[1]
        assert tally_sums.game_ids(store.fact(tally_sums.SUMS_KEY)) == set(ids) - {ids[2]}


def test_tally_sums_damaged_sums_are_added_up_again(state_dir, clock):
    rng, tallies = random.Random(10), []
    with Store.open(state_dir, clock=clock) as store:
        for _ in range(4):
            _finish(store, rng, tallies)
        store.put_fact(tally_sums.SUMS_KEY, {"people": "garbage"})
        assert load_stats(store, rosters.from_fact(None, ())).games == person_stats.people(tallies)[1]
        assert tally_sums.valid(store.fact(tally_sums.SUMS_KEY))


def test_tally_sums_runs_are_few_for_years_of_games():
    assert tally_sums.runs(range(1, 10_001)) == [[1, 10_000]]
    assert tally_sums.runs([5, 1, 2, 3, 9]) == [[1, 3], [5, 5], [9, 9]]
