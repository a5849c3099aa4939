"""Statistics for a process that writes nothing (the web view's /people): the box's kept sums, never every tally.

The web view added up every finished game's tally at each opening of its
statistics page: 0.2-0.3 s a page with 10,000 games, growing with every game
night. Over :class:`firmware.table.person_stats.Unwritten` it reads the sums
the box keeps (and one row), adds only the games the box has not added yet,
and keeps what it worked out in its own memory, never in the file.
"""

from __future__ import annotations

from engine import Rules
from firmware.store import DB_NAME, Store
from firmware.table import person_stats, tally_sums
from firmware.table.seat import seats_from_meta
from tests.kit.bigstore import many_finished_games, short_game


class Spy:
    """A store that counts its reads of every tally (``facts("tally:")``)."""

    def __init__(self, store):
        self.store, self.tally_reads = store, 0

    def facts(self, prefix):
        self.tally_reads += prefix == person_stats.TALLY_PREFIX
        return self.store.facts(prefix)

    def __getattr__(self, name):
        return getattr(self.store, name)


def _finish_one(state_dir) -> int:
    meta = {"seats": [{"colour": "Red", "bot": None, "name": "Cy"}, {"colour": "Blue", "bot": None, "name": "Bo"}]}
    with Store.open(state_dir) as store:
        game = store.new_game(["Red", "Blue"], Rules(columns_to_win=1), meta=meta)
        for event in short_game():
            store.append(game.id, event)
        store.finish(game.id, 0)
        return game.id


def _read_twice(state_dir):
    """Two readings of the statistics by a process that writes nothing, as two loads of the web's page: the sums
    each gave, and the second one's store (its reads of every tally counted)."""
    with Store.open(state_dir, readonly=True) as store:
        memory = {}
        first = person_stats.load_sums(person_stats.Unwritten(store, memory), seats_from_meta)
        spy = Spy(store)
        again = person_stats.load_sums(person_stats.Unwritten(spy, memory), seats_from_meta)
    return first, again, spy


def test_a_reader_reads_the_kept_sums_and_no_tally_when_nothing_changed(tmp_path):
    state_dir = tmp_path / "state"
    many_finished_games(state_dir, 300)
    with Store.open(state_dir) as box:  # the box opens Statistics once: it keeps the tallies and their sums
        expected = person_stats.load_sums(box, seats_from_meta)
    size = (state_dir / DB_NAME).stat().st_size
    with Store.open(state_dir, readonly=True) as store:
        spy, memory = Spy(store), {}
        found = person_stats.load_sums(person_stats.Unwritten(spy, memory), seats_from_meta)
    assert found == expected and spy.tally_reads == 0 and memory == {}
    assert (state_dir / DB_NAME).stat().st_size == size


def test_a_reader_adds_the_games_finished_since_in_its_memory_once(tmp_path):
    state_dir = tmp_path / "state"
    many_finished_games(state_dir, 300)
    with Store.open(state_dir) as box:
        person_stats.load_sums(box, seats_from_meta)
    new = _finish_one(state_dir)  # finished after the box last added up: its sums lack it
    data = (state_dir / DB_NAME).read_bytes()
    first, again, spy = _read_twice(state_dir)
    assert tally_sums.covered(first) == 301 and new in tally_sums.game_ids(first)
    assert again == first and spy.tally_reads == 0  # the second page starts from what the first worked out
    assert (state_dir / DB_NAME).read_bytes() == data  # nothing written
    with Store.open(state_dir) as box:  # the box's own count agrees
        assert person_stats.load_sums(box, seats_from_meta)["people"] == first["people"]


def test_a_reader_of_a_store_without_sums_works_them_out_once_and_writes_nothing(tmp_path):
    state_dir = tmp_path / "state"
    many_finished_games(state_dir, 150)  # more than FEW: counted game by game, as before tallies
    data = (state_dir / DB_NAME).read_bytes()
    first, again, spy = _read_twice(state_dir)
    assert tally_sums.covered(first) == 150 and again == first and spy.tally_reads == 0
    assert (state_dir / DB_NAME).read_bytes() == data
