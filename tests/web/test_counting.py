"""/people at any size: the page never adds a game up on its path; the web view's own sums catch up beside it."""

from __future__ import annotations

import threading


from benchmarks.store import fill_history
from firmware.store import Store
from firmware.table import person_stats as people, tally_sums
from firmware.table.seat import seats_from_meta
from tests.web import fetch
from tests.web.server import Server
from web.counting import Counter, page_sums
from web.reader import Reader


def _truth(state_dir):
    """The statistics as the box would add them up (its own load_sums, in memory only)."""
    with Store.open(state_dir) as store:
        sums = people.load_sums(people.Unwritten(store, {}), seats_from_meta)
    return people.people_of(sums)


def test_the_page_never_replays_a_game_and_says_how_far_the_sums_are(tmp_path, monkeypatch):
    fill_history(tmp_path, 6)  # finished games with no tally and no sums kept: a history brought in
    replayed = []
    real = people.tally
    monkeypatch.setattr(people, "tally", lambda *a: replayed.append(threading.current_thread().name) or real(*a))
    monkeypatch.setattr(Counter, "step", lambda self: False)  # the background work held back: the page alone
    with Server(tmp_path) as s:
        before = len(replayed)
        page = fetch.get(s.url + "/people", timeout=10)
        assert page.status_code == 200 and len(replayed) == before  # not one game replayed for the request
        assert 'id="counting"' in page.text and "0 of 6" in page.text


def test_the_sums_kept_beside_the_requests_are_the_boxs_numbers(tmp_path):
    fill_history(tmp_path, 8)
    want = _truth(tmp_path)
    counter = Counter(Reader(tmp_path), seats_from_meta, step_seconds=0.0)  # one game a step
    reader = Reader(tmp_path)
    steps = 0
    while counter.step():
        steps += 1
        with reader.read() as store:
            shown = page_sums(store, counter)
        assert not shown.complete and shown.counted == steps and shown.total == 8
    with reader.read() as store:
        shown = page_sums(store, counter)
    assert shown.complete and steps == 7
    assert people.people_of(shown.sums) == want
    assert tally_sums.covered(shown.sums) == 8


def test_a_game_finished_since_is_added_alone(tmp_path):
    fill_history(tmp_path, 5)
    counter = Counter(Reader(tmp_path), seats_from_meta)
    while counter.step():
        pass
    fill_history(tmp_path, 1)  # one more game ends
    added = []
    real = people._replayed
    import web.counting as counting

    counting.people._replayed = lambda store, game_id, seats_of: added.append(game_id) or real(store, game_id, seats_of)
    try:
        while counter.step():
            pass
    finally:
        counting.people._replayed = real
    assert added == [6]
    with Reader(tmp_path).read() as store:
        shown = page_sums(store, counter)
    assert shown.complete and people.people_of(shown.sums) == _truth(tmp_path)
