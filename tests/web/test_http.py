"""The web view over HTTP on 127.0.0.1: every route, read-only, escaped, 404/405, damaged rows, the box's own words."""

from __future__ import annotations

import dataclasses
import hashlib
import http.client
import json
import re
import shutil
import sqlite3
import time

import pytest
from html import escape

from firmware import ui, views, words
from boxcli import cli
from web.live import view_text

from tests.kit.rig import Rig
from tests.web import fetch, patchkit
from tests.web.server import Server

XSS = "<img src=x onerror=alert(1)>"


def _played(state_dir) -> Rig:
    rig = Rig(state_dir, names=("Ann", XSS), seed=11, rest=1.0)
    rig.play_on()
    rig.tap("ROLL")  # the result seen: the new-game screen
    rig.tap("ROLL")  # a new game
    rig.play_on(presses=25)
    return rig


@pytest.fixture
def played(tmp_path):
    """A finished game and a second one under way, a seat named with markup."""
    rig = _played(tmp_path)
    yield rig
    rig.close()


@pytest.fixture(scope="module")
def seen(tmp_path_factory):
    """The same two games as ``played``, played once for the tests that only read them (nothing presses)."""
    rig = _played(tmp_path_factory.mktemp("played"))
    yield rig
    rig.close()


def get(server, path, **kw):
    return fetch.get(server.url + path, timeout=10, **kw)


def raw(server, method: str, path: str) -> int:
    """A request sent exactly as written (no client tidying the path)."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.putrequest(method, path, skip_accept_encoding=True)
    conn.endheaders()
    status = conn.getresponse().status
    conn.close()
    return status


def live_attrs(html: str) -> dict:
    tag = re.search(r'<div id="game"([^>]*)>', html).group(1)
    return dict(re.findall(r'data-([a-z]+)="([^"]*)"', tag))


def board_of(html: str) -> dict:
    """The board drawn in the page, read back: markers per seat, runners, claims (as the state view holds them)."""
    markers: dict[int, dict[str, int]] = {}
    runners: dict[str, int] = {}
    for col, step, cell in re.findall(r'<div class="sq" data-col="(\d+)" data-step="(\d+)"[^>]*>(.*?)</div>', html):
        for seat in re.findall(r'data-seat="(\d)"', cell):
            markers.setdefault(int(seat), {})[col] = int(step)
        if 'class="runner"' in cell:
            runners[col] = int(step)
    claimed = {c: int(o) for c, o in re.findall(r'<div class="col[^"]*" data-col="(\d+)" data-owner="(\d)"', html)}
    return {"markers": markers, "runners": runners, "claimed": claimed}


def expected_board(view: dict) -> dict:
    markers = {i: {c: s for c, s in m.items() if str(c) not in view["claimed"]} for i, m in enumerate(view["markers"])}
    return {"markers": {i: m for i, m in markers.items() if m}, "runners": view["runners"],
            "claimed": {c: o for c, o in view["claimed"].items()}}


def export_text(capsys, state_dir, game_id) -> str:
    capsys.readouterr()
    assert cli.main(["export", str(game_id), "--state-dir", str(state_dir)]) == 0
    return capsys.readouterr().out


def test_every_route_answers_and_the_record_is_exactly_export(seen, capsys):
    with Server(seen.state_dir) as s:
        home = get(s, "/")
        assert home.status_code == 200 and home.headers["content-type"].startswith("text/html")
        assert "Content-Security-Policy" in home.headers
        assert live_attrs(home.text)["game"] == "2"
        listed = get(s, "/games")
        ids = [int(i) for i in re.findall(r'<tr data-game="(\d+)"', listed.text)]
        assert ids == [2, 1]  # newest first, as history lists them
        for path in ("/games/1", "/games/2", "/games/1?step=0", "/games/1?step=5", "/people", "/now.json",
                     "/static/style.css", "/static/live.js", "/static/replay.js", "/static/icon.svg"):
            assert get(s, path).status_code == 200, path
        for game_id in (1, 2):
            record = get(s, f"/games/{game_id}.json")
            assert record.headers["content-type"].startswith("application/json")
            assert record.text == export_text(capsys, seen.state_dir, game_id)
        for page in (home.text, listed.text, get(s, "/games/1").text, get(s, "/people").text):
            links = re.findall(r'(?:src|href)="([^"]*)"', page)
            assert links and all(link.startswith("/") and not link.startswith("//") for link in links)  # no CDN


def replayed_view(capsys, state_dir, game_id, tmp_file) -> dict:
    """`cantstop-box export N | cantstop-box replay -`: the state view of the stored record."""
    tmp_file.write_text(export_text(capsys, state_dir, game_id))
    assert cli.main(["replay", str(tmp_file)]) == 0
    return json.loads(capsys.readouterr().out)


def oled_of(page: str) -> tuple[str, str, str]:
    shown = re.search(r'<div class="oled"><p class="title">(.*?)</p><ul>(.*?)</ul><p class="keys">(.*?)</p>', page)
    return shown.group(1), shown.group(2), shown.group(3)


def test_the_live_page_is_the_board_and_the_words_of_the_box(played, tmp_path, capsys):
    """At every press of a game, the page shows the state view of the game's record and the box's screen."""
    record = tmp_path / "record.json"
    with Server(tmp_path) as s:
        seen_kinds = set()
        for _ in range(40):
            page = get(s, "/").text
            attrs = live_attrs(page)
            assert int(attrs["events"]) == len(played.box.app.events)
            view = replayed_view(capsys, tmp_path, 2, record)
            assert board_of(page) == expected_board(view)
            assert attrs["phase"] == view["phase"] and int(attrs["current"]) == view["current"]
            shown = played.view
            title, lines, keys = view_text(shown, words.language("en"))
            seen_kinds.add(type(shown).__name__)
            # a pick between two columns is not stored (only the move is): the page shows the dice until then;
            # a paged instruction is shown whole on the page
            if not isinstance(shown, views.PickView) and getattr(shown, "pages", 1) == 1:
                assert oled_of(page) == (escape(title), "".join(f"<li>{escape(x)}</li>" for x in lines), escape(keys))
            played.play_on(presses=1)
            deadline = time.monotonic() + 20  # (on a loaded machine too: it is not a timing test)
            while int(live_attrs(get(s, "/").text)["events"]) != len(played.box.app.events):
                assert time.monotonic() < deadline, "the page did not follow the press"
                time.sleep(0.02)
        assert {"DiceView", "MoveView", "InstructionsView"} <= seen_kinds


def test_a_name_with_markup_shows_as_text_everywhere(seen):
    with Server(seen.state_dir) as s:
        for path in ("/", "/games", "/games/1", "/games/2", "/people", "/now.json"):
            text = get(s, path).text
            assert XSS not in text, path
            assert "onerror=alert(1)" not in text.replace("&lt;img src=x onerror=alert(1)&gt;", ""), path
        assert "&lt;img src=x onerror=alert(1)&gt;" in get(s, "/").text


def test_unknown_paths_and_ids_are_404_and_other_methods_405(seen):
    with Server(seen.state_dir) as s:
        for path in ("/games/99999999999999999999", "/games/0", "/games/007", "/games/-1", "/games/abc",
                     "/games/3", "/games/1.xml", "/games?page=0", "/games?page=x", "/games?page=99",
                     "/games/1?step=x", "/nope", "/static/../web/app.py", "/static/nope.css",
                     "/games/9223372036854775808.json"):
            r = get(s, path)
            assert r.status_code == 404, path
            assert "Traceback" not in r.text and "<html" in r.text
        for path in ("/../etc/passwd", "/%2e%2e/etc/passwd", "/static/%2e%2e/app.py", "//etc/passwd"):
            assert raw(s, "GET", path) == 404, path
        for method in ("POST", "PUT", "DELETE", "PATCH"):
            for path in ("/", "/games", "/games/1", "/games/1.json", "/people", "/events", "/now.json"):
                assert raw(s, method, path) == 405, (method, path)
        assert raw(s, "HEAD", "/games") == 200


def _files(state_dir) -> dict:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(state_dir.glob("games.sqlite3*"))
            if not p.name.endswith("-shm")}


def test_no_route_changes_the_store_and_the_box_never_waits(played, tmp_path):
    with Server(tmp_path) as s:
        get(s, "/")
        before = _files(tmp_path)
        for path in ("/", "/games", "/games/1", "/games/2?step=3", "/games/1.json", "/people", "/now.json"):
            for _ in range(3):
                get(s, path)
        assert _files(tmp_path) == before
        with s.app.state.hub.reader.read() as store:  # a page's read in progress ...
            assert store is not None
            started = time.monotonic()
            played.play_on(presses=3)  # ... and the box saves its presses without waiting for it
            assert time.monotonic() - started < 4.0  # the box's busy timeout is 5 s: a lock held would show
        assert len(played.store.game(2).events) == len(played.box.app.events)


def copy_of(rig, state_dir):
    """``state_dir`` holding a copy of the rig's store as it is now (the file and its WAL; the box is idle)."""
    for name in ("games.sqlite3", "games.sqlite3-wal"):
        if (rig.state_dir / name).exists():
            shutil.copyfile(rig.state_dir / name, state_dir / name)
    return state_dir


def test_a_damaged_row_shows_as_damaged_never_a_traceback(seen, tmp_path):
    db = sqlite3.connect(copy_of(seen, tmp_path) / "games.sqlite3")
    db.execute("UPDATE events SET payload = '{not json' WHERE game_id = 1 AND seq = 5")
    db.execute("UPDATE games SET winner = 7 WHERE id = 1")
    db.execute("UPDATE facts SET value = '{broken' WHERE key = 'tally:1'")
    db.commit()
    db.close()
    with Server(tmp_path) as s:
        listed = get(s, "/games")
        assert listed.status_code == 200
        row = re.search(r'<tr data-game="1" class="st-damaged">(.*?)</tr>', listed.text).group(1)
        assert "damaged" in row and "game 1" in row
        one = get(s, "/games/1")
        assert one.status_code == 200 and "game 1" in one.text and "Traceback" not in one.text
        assert re.search(r'data-total="4"', one.text)  # the events that replay, stepped through
        assert get(s, "/games/1.json").json()["status"] == "damaged"
        assert get(s, "/people").status_code == 200
        assert get(s, "/").status_code == 200


def test_a_damaged_open_game_shows_on_the_live_page(tmp_path):
    rig = Rig(tmp_path, seed=3, rest=1.0)
    rig.play_on(presses=6)
    rig.close()
    db = sqlite3.connect(tmp_path / "games.sqlite3")
    db.execute("UPDATE events SET payload = '[]' WHERE seq = 3")
    db.commit()
    db.close()
    with Server(tmp_path) as s:
        page = get(s, "/").text
        assert live_attrs(page)["status"] == "damaged"
        assert "event 3" in page and "Traceback" not in page


def test_no_store_yet_is_a_page_that_says_so(tmp_path):
    with Server(tmp_path / "empty") as s:
        page = get(s, "/")
        assert page.status_code == 200 and live_attrs(page.text)["status"] == "none"
        assert "No saved games yet." in page.text
        assert get(s, "/games").status_code == 200 and get(s, "/people").status_code == 200
        assert get(s, "/games/1").status_code == 404


def test_the_page_says_when_the_box_is_off_and_when_the_game_is_over(tmp_path):
    rig = Rig(tmp_path, seed=5, rest=1.0)
    with Server(tmp_path) as s:
        rig.play_on(presses=3)
        assert live_attrs(get(s, "/").text)["box"] == "on"
        rig.shutdown()
        deadline = time.monotonic() + 20  # the watcher looks at the box's lock every second (a loaded machine: later)
        while live_attrs(get(s, "/").text)["box"] != "off":
            assert time.monotonic() < deadline, "the page still says the box is on"
            time.sleep(0.05)
        assert "The box is off" in get(s, "/").text
    rig = Rig(tmp_path, seed=5, rest=1.0)
    rig.play_on()
    with Server(tmp_path) as s:
        page = get(s, "/").text
        assert live_attrs(page)["status"] == "over" and "Game over" in page
        assert '<section class="recap">' in page
    rig.close()


def test_the_language_is_the_browsers_or_the_boxs(seen):
    with Server(seen.state_dir, lang="ja") as s:
        assert '<html lang="en">' in get(s, "/").text  # the box speaks English: the table's choice beats the config's
        assert '<html lang="ko">' in get(s, "/", headers={"Accept-Language": "ko-KR,ko;q=0.9,en;q=0.5"}).text
        assert '<html lang="en">' in get(s, "/", headers={"Accept-Language": "fr-FR, en;q=0.8"}).text
        page = get(s, "/?lang=ko", headers={"Accept-Language": "ja"}).text
        assert '<html lang="ko">' in page
        korean = ui.view(dataclasses.replace(seen.box.app, language="ko"))
        title, lines, keys = view_text(korean, words.language("ko"))
        assert oled_of(page) == (escape(title), "".join(f"<li>{escape(x)}</li>" for x in lines), escape(keys))
        assert '<html lang="en">' in get(s, "/games?lang=xx").text  # an unknown one: the box's


def test_a_box_speaking_japanese_gives_a_japanese_page(tmp_path):
    rig = Rig(tmp_path, language="ja", seed=4, rest=1.0)
    rig.play_on(presses=5)
    while isinstance(rig.view, views.PickView):  # not stored: the page shows the dice until the pick
        rig.play_on(presses=1)
    with Server(tmp_path) as s:
        page = get(s, "/").text
        assert '<html lang="ja">' in page
        title, lines, keys = view_text(rig.view, words.language("ja"))
        assert oled_of(page)[0] == escape(title) and oled_of(page)[2] == escape(keys)
    rig.close()


def test_a_page_follows_presses_over_server_sent_events(played, tmp_path):
    """A new stream gets the whole live part; each press after it only what changed, which, applied as the page
    does, is exactly the part a page loaded afresh shows, and much smaller."""
    with Server(tmp_path) as s:
        with fetch.stream("GET", s.url + "/events?lang=en", timeout=10) as stream:
            lines = stream.iter_lines()
            first = _next_event(lines)
            assert live_attrs(first["html"])["events"] == str(len(played.box.app.events))
            shown = patchkit.parse(first["html"])
            for _ in range(6):
                played.play_on(events=1)  # a press the box saves (a pick alone is not)
                event = _next_event(lines)  # (how soon: benchmarks/web.py; here only that it comes by itself)
                while True:
                    assert event["v"] > first["v"] and event["base"] == first["v"] and "html" not in event
                    shown = patchkit.apply(shown, event["patch"])
                    assert len(json.dumps(event["patch"])) < len(live_fragment_of(s)) / 2
                    first = event
                    now = get(s, "/now.json?lang=en").json()
                    if now["v"] == event["v"]:
                        break
                    event = _next_event(lines)  # a press saved in two commits a moment apart: two changes
                assert shown == patchkit.parse(now["html"])


def live_fragment_of(s) -> str:
    return get(s, "/now.json?lang=en").json()["html"]


def _next_event(lines) -> dict:
    for line in lines:
        if line.startswith("data: "):
            return json.loads(line[6:])
    raise AssertionError("the stream ended")
