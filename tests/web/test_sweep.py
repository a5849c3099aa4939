"""The history at any depth: no game replayed on a page's path (the sweep does it beside), pager links by key."""

from __future__ import annotations

import re
import sqlite3


import firmware.store.reads as reads
from benchmarks.store import fill_history
from tests.web import fetch
from tests.web.server import Server
from web.reader import Reader
from web.sweep import Sweep


def _damage(state_dir, game_id: int) -> None:
    """A row that still reads as an event but does not replay (a die that cannot be)."""
    db = sqlite3.connect(state_dir / "games.sqlite3")
    db.execute("UPDATE events SET payload = '{\"type\": \"roll\", \"dice\": [9, 9, 9, 9]}' "
               "WHERE game_id = ? AND seq = 3", (game_id,))
    db.commit()
    db.close()


def test_a_deep_page_replays_no_game_once_the_sweep_has_passed(tmp_path, monkeypatch):
    import web.history as history

    monkeypatch.setattr(history, "PAGE_SIZE", 2)  # pages of 2 games: a deep page without a long fill
    fill_history(tmp_path, 6)  # three pages
    _damage(tmp_path, 2)
    replays = []
    real = reads.replay_rows
    monkeypatch.setattr(reads, "replay_rows", lambda *a: replays.append(a[0]["id"]) or real(*a))
    with Server(tmp_path) as s:  # started: its background work done
        replays.clear()
        page = fetch.get(s.url + "/games?page=3", timeout=10)
        assert page.status_code == 200 and replays == []
        row = re.search(r'<tr data-game="2" class="st-damaged">(.*?)</tr>', page.text)
        assert row is not None and "game 2, event 3" in row.group(1)
        assert re.search(r'<tr data-game="1" class="st-finished">', page.text)


def test_the_sweep_knows_only_what_it_checked(tmp_path):
    fill_history(tmp_path, 10)
    _damage(tmp_path, 7)
    sweep = Sweep(Reader(tmp_path), step_seconds=0.0)  # one game a step
    key = Reader(tmp_path)
    key._open()
    assert sweep.step() and sweep.known(key.key(), 10) == ("sound", None) and sweep.known(key.key(), 9) is None
    while sweep.step():
        pass
    assert sweep.known(key.key(), 7)[0] == "damaged" and sweep.known(key.key(), 1) == ("sound", None)
    assert sweep.known("another file", 1) is None
    fill_history(tmp_path, 1)  # a game finished since the sweep began
    assert sweep.known(key.key(), 11) is None
    while sweep.step():
        pass
    assert sweep.known(key.key(), 11) == ("sound", None)


def test_the_pager_goes_by_key_both_ways_and_an_old_page_link_still_answers(tmp_path, monkeypatch):
    import web.history as history

    monkeypatch.setattr(history, "PAGE_SIZE", 4)
    fill_history(tmp_path, 10)  # pages of 4, 4 and 2
    with Server(tmp_path) as s, fetch.client(base_url=s.url, timeout=10) as client:  # one client: each is slow to make
        walked, hrefs, path = [], [], "/games"
        offsets = []
        real = history.first_id
        monkeypatch.setattr(history, "first_id", lambda *a: offsets.append(a[1]) or real(*a))
        while path:
            page = client.get(path)
            assert page.status_code == 200
            walked.append([int(g) for g in re.findall(r'<tr data-game="(\d+)"', page.text)])
            older = re.search(r'<a rel="next" href="([^"]+)"', page.text)
            path = older.group(1).replace("&amp;", "&") if older else None
            hrefs.append(path)
        assert walked == [[10, 9, 8, 7], [6, 5, 4, 3], [2, 1]]
        assert hrefs == ["/games?before=7", "/games?before=3", None]
        assert offsets == [0]  # only the first page, /games, is found by its offset: the links are by key
        back = []
        newer = re.search(r'<a rel="prev" href="([^"]+)"', page.text).group(1)
        while newer:
            assert re.fullmatch(r"/games\?after=\d+", newer)
            page = client.get(newer)
            back.append([int(g) for g in re.findall(r'<tr data-game="(\d+)"', page.text)])
            found = re.search(r'<a rel="prev" href="([^"]+)"', page.text)
            newer = found.group(1) if found else None
        assert back == [[6, 5, 4, 3], [10, 9, 8, 7]]
        old = client.get("/games?page=3")  # a link from before: the same games
        assert [int(g) for g in re.findall(r'<tr data-game="(\d+)"', old.text)] == [2, 1]
        assert 'href="/games?after=2"' in old.text and "page=" not in old.text.split("<nav class=\"pager\">")[1]


def test_a_page_the_sweep_has_not_reached_replays_for_a_bounded_time_and_says_what_is_left(tmp_path, monkeypatch):
    import web.history as history
    from web.pages import history_page

    fill_history(tmp_path, 6)
    _damage(tmp_path, 5)
    replays = []
    real = reads.replay_rows
    now = [0.0]

    def replay(*a):  # each replay takes 0.4 of the page's replay time, by the page's clock
        replays.append(a[0]["id"])
        now[0] += history.CHECK_SECONDS * 0.4
        return real(*a)

    monkeypatch.setattr(reads, "replay_rows", replay)
    reader, checked = Reader(tmp_path), {}
    with reader.read() as store:  # no sweep has run: every game would need a replay
        games, more, newer, late = history.page(store, 1, None, checked, reader.key(), None, clock=lambda: now[0])
        assert replays == [6, 5, 4] and late == 3  # 1.2 of its replay time: past it, the other three wait
        assert [g.status for g in games] == ["finished", "damaged", "finished", "finished", "finished", "finished"]
        assert (more, newer) == (False, False)
        html = history_page("en", games, more, newer, late)
        assert "3 of these games are still being checked for damage" in html
        replays.clear()
        games, *_, late = history.page(store, 1, None, checked, reader.key(), None, clock=lambda: now[0])
        assert replays == [3, 2, 1] and late == 0  # the next view goes on where this one stopped
        assert "still being checked" not in history_page("en", games, False, False, late)
