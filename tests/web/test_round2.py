"""Issue 31, round two, what breaks: each fixed with a test that failed before its fix."""

from __future__ import annotations

import logging
import sqlite3

import httpx

from tests.kit.rig import Rig
from tests.web.server import Server


def get(server, path, **kw):
    return httpx.get(server.url + path, timeout=10, **kw)


def _damaged_store(tmp_path):
    rig = Rig(tmp_path, seed=11, rest=1.0)
    rig.play_on()
    rig.close()
    db = sqlite3.connect(tmp_path / "games.sqlite3")
    db.execute("UPDATE events SET payload = '{not json' WHERE game_id = 1 AND seq = 5")
    db.commit()
    db.close()


def test_a_damaged_game_is_logged_once_not_at_every_page_view(tmp_path, caplog):
    _damaged_store(tmp_path)
    caplog.set_level(logging.INFO)
    with Server(tmp_path) as s:
        for _ in range(4):
            assert get(s, "/games").status_code == 200
            assert get(s, "/games/1").status_code == 200
    said = [r for r in caplog.records if "damaged game" in r.getMessage()]
    assert len(said) == 1, [r.getMessage() for r in said]


def test_the_language_chosen_is_kept_on_the_next_page(game, tmp_path):
    with Server(tmp_path) as s, httpx.Client(base_url=s.url, timeout=10) as phone:
        assert 'lang="ja"' in phone.get("/?lang=ja").text
        history = phone.get("/games")  # the tap on 履歴: no ?lang= in its link
        assert history.status_code == 200 and '<html lang="ja"' in history.text
        assert '<html lang="ko"' in phone.get("/people?lang=ko").text
        assert '<html lang="ko"' in phone.get("/").text
        assert '<html lang="en"' in phone.get("/games?lang=en").text
        assert '<html lang="en"' in get(s, "/games").text  # another phone: its own language
