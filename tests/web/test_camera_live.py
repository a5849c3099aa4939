"""The live page's camera part: only on a box with a camera, the finding in the box's own words in the page's
language, when it was read, its two pictures by their time, and a new photo reaching an open page by itself."""

from __future__ import annotations

import html as markup
import io
import json
import re
import socket
import time
from dataclasses import replace
from types import SimpleNamespace

import pytest

from firmware import ui, words
from firmware.config import GameConfig
from firmware.ui.camera import verdict_lines
from sight.verdict import Finding, Verdict
from tests.ui.driving import run
from tests.web import camerafiles, fetch, patchkit
from tests.web.browser import missing
from tests.web.server import Server
from web.camera import finding_lines

MOVED, RUNNER_LEFT = ("moved", "Red", 7, 4, 5), ("extra", "runner", 9, 0, 3)
#: The finding "Red on 7 should be at 4 (it is at 5)" and "A runner is still on 9", as each language says it.
SAID = {"en": ("Red on 7 should be at 4 (it is at 5)", "A runner is still on 9"),
        "ja": ("7の列の赤は4マス目のはず(今5マス目)", "9の列にランナーが残っている"),
        "ko": ("7열 빨강 말은 4칸이어야 함 (지금 5칸)", "9열에 검정 말이 남아 있음")}


def now(server, lang="en") -> dict:
    return fetch.get(f"{server.url}/now.json?lang={lang}", timeout=10).json()


def found(html: str) -> list[str]:
    part = re.search(r'<ul class="found">(.*?)</ul>', html)
    return [markup.unescape(li) for li in re.findall(r"<li>(.*?)</li>", part.group(1))] if part else []


def test_a_box_without_a_camera_has_no_camera_part(game, tmp_path):
    with Server(tmp_path) as server:
        assert 'id="g-camera"' not in now(server)["html"]
        assert "/camera/" not in fetch.get(server.url + "/").text


def test_a_box_whose_config_names_a_camera_says_it_has_not_read_the_board_yet(game, tmp_path):
    with Server(tmp_path, camera=True) as server:
        html = now(server)["html"]
    assert 'id="g-camera"' in html and "The camera has not read the board yet." in html
    assert "<img" not in html.partition('id="g-camera"')[2]


@pytest.mark.parametrize("lang", ["en", "ja", "ko"])
def test_the_finding_is_said_in_the_pages_language_with_its_pictures_and_when(game, tmp_path, lang):
    camerafiles.pictures(tmp_path)
    camerafiles.seen(tmp_path, "wrong", wrong=(MOVED, RUNNER_LEFT))
    stamp = (tmp_path / "camera" / "view.jpg").stat().st_mtime_ns
    with Server(tmp_path) as server:
        html = now(server, lang)["html"]
        page = fetch.get(f"{server.url}/?lang={lang}").text
    assert found(html) == list(SAID[lang])
    assert 'class="camera cam-wrong"' in html and 'id="g-camera"' in page
    assert f'<img id="cam-view" src="/camera/view.jpg?v={stamp}"' in html
    assert re.search(r'<img id="cam-read" src="/camera/read.png\?v=[0-9]+" alt="[^"]+"', html)
    said = re.search(r'<p class="when">(.*?)</p>', html).group(1)
    assert re.search(r'<time datetime="[0-9T:+-]+">[0-9]{2}:[0-9]{2}:[0-9]{2}</time>', said)
    assert words.language(lang).CAMERA in html  # the heading: the box's own word


@pytest.mark.parametrize("state, why, key", [("right", "", "board_right"), ("blind", "light", "blind_line"),
                                             ("blind", "markers", "blind_line")])
def test_a_right_board_and_a_blind_camera_are_said_as_the_box_says_them(game, tmp_path, state, why, key):
    camerafiles.seen(tmp_path, state, why=why)
    with Server(tmp_path) as server:
        for lang in ("en", "ja", "ko"):
            w = words.language(lang)
            assert found(now(server, lang)["html"]) == [w.board_right() if key == "board_right" else w.blind_line(why)]
    assert words.language("en").blind_line("light") == "Cannot see the board well: check the light"
    assert words.language("ja").blind_line("markers").startswith("四隅のタグ")  # corner tags, never markers


def test_a_piece_on_a_claimed_column_names_the_colour_that_claimed_it_as_the_box_does():
    claimed = [-1] * 13
    claimed[7] = 0
    game = SimpleNamespace(claimed=tuple(claimed))
    verdict = Verdict("wrong", (Finding("extra", "Blue", 7, 0, 13), Finding("extra", "Red", 7, 0, 13),
                                Finding("missing", "Blue", 5, 2, 0)))
    for lang, first in (("en", "Take Blue off 7: Red claimed it"), ("ja", "7の列から青を外す: 赤が確保した")):
        lines = finding_lines(words.language(lang), verdict, game, ("Red", "Blue"))
        assert lines[0] == first and len(lines) == 3
    assert finding_lines(words.language("en"), Verdict("unsure", unsure=((7, 3), (8, 2)))) == \
        ("Nothing wrong seen; 2 squares hard to see",)


def test_the_page_says_every_kind_of_finding_as_the_boxs_screen_does():
    """The page's lines are the box's (firmware.ui.camera.verdict_lines) for the same game, in every language."""
    app, _ = run(ui.boot(GameConfig(handover_guard_ms=0)), "ROLL", "ROLL", (2, 3, 4, 5), "A", "STOP")
    g = app.game
    claimed = list(g.claimed)
    claimed[7] = 1
    app = replace(app, states=app.states[:-1] + (g._replace(claimed=tuple(claimed)),))
    verdicts = (Verdict("wrong", (Finding("extra", "Red", 7, 0, 13), Finding("extra", "Blue", 7, 0, 13),
                                  Finding("extra", "runner", 9, 0, 3), Finding("moved", "Red", 5, 1, 2),
                                  Finding("missing", "Blue", 6, 3, 0), Finding("moved", "runner", 8, 2, 4),
                                  Finding("missing", "runner", 4, 1, 0))),
                Verdict("right"), Verdict("unsure", unsure=((7, 3),)), Verdict("blind", why="hand"),
                Verdict("blind", why="markers"), Verdict("blind", why="light"))
    for lang in ("en", "ja", "ko"):
        app = replace(app, language=lang)
        colours = tuple(s.colour for s in app.seats)
        for verdict in verdicts:
            assert finding_lines(words.language(lang), verdict, app.game, colours) == verdict_lines(app, verdict)


def _events(server, version: int):
    """A raw event stream from ``version`` (a page's), once it is open: yields each event's data as it comes."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    sock.sendall(f"GET /events?lang=en&v={version} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    data = b""
    try:
        while True:
            while b"\n\n" not in data:
                data += sock.recv(65536)
            event, data = data.split(b"\n\n", 1)
            for line in event.split(b"\n"):
                if line.startswith(b"data: "):
                    yield json.loads(line[6:])
    finally:
        sock.close()


def test_a_new_photo_reaches_an_open_page_as_new_addresses_only(game, tmp_path):
    """The camera writes a photo without the store changing (what it saw did not): the page follows anyway, and
    is sent only the pictures' new addresses (the old picture stays until the new one has loaded)."""
    camerafiles.pictures(tmp_path)
    camerafiles.seen(tmp_path, "right")
    with Server(tmp_path) as server:
        first = now(server)
        stream = _events(server, first["v"])
        time.sleep(0.3)
        camerafiles.pictures(tmp_path, view=camerafiles.JPEG + b"2", read=camerafiles.PNG + b"2")
        started = time.monotonic()
        event = next(stream)
        assert time.monotonic() - started < 5
        stream.close()
        again = now(server)
    assert event["base"] == first["v"] and event["v"] == again["v"]
    pictures = {op[1] for op in event["patch"] if op[0] == "a"}
    assert pictures >= {"cam-view", "cam-read"}  # the pictures' addresses, as attributes: the same elements
    assert {op[1] for op in event["patch"] if op[0] == "h"} <= {"cam-said"}  # and when it was read
    after = patchkit.apply(patchkit.parse(first["html"]), event["patch"])
    assert after == patchkit.parse(again["html"])
    stamp = (tmp_path / "camera" / "view.jpg").stat().st_mtime_ns
    assert f"/camera/view.jpg?v={stamp}" in again["html"]


def test_a_new_finding_reaches_the_page_with_the_store(game, tmp_path):
    camerafiles.pictures(tmp_path)
    with Server(tmp_path) as server:
        before = now(server)
        assert found(before["html"]) == []
        camerafiles.seen(tmp_path, "wrong", wrong=(MOVED,))
        after = camerafiles.wait_for(lambda: (lambda n: n if n["v"] != before["v"] else None)(now(server)))
    assert found(after["html"]) == [SAID["en"][0]]


@pytest.mark.skipif(missing() is not None, reason=missing() or "")
def test_the_camera_part_never_makes_a_tv_page_scroll_nor_a_phone_at_200_percent_sideways(game, tmp_path, browser):
    """Measured in Chromium: the live page with a camera's long finding and both pictures stays one screen at
    1280x720 (the camera's part scrolls inside itself), and a phone at 200 % never scrolls sideways."""
    from PIL import Image  # the test draws the camera's pictures; the web view never loads Pillow

    def picture(size, kind) -> bytes:
        out = io.BytesIO()
        Image.new("RGB", size, (60, 90, 60)).save(out, kind)
        return out.getvalue()

    camerafiles.pictures(tmp_path, view=picture((960, 720), "JPEG"), read=picture((600, 700), "PNG"))
    camerafiles.seen(tmp_path, "wrong", wrong=(MOVED, RUNNER_LEFT, ("missing", "Blue", 5, 2, 0),
                                               ("extra", "Blue", 11, 0, 3)))
    # measured once the page has loaded whole (its style sheet and both pictures: a picture laid out before the
    # sheet that bounds it once made a phone's page 1008 px wide on a busy host)
    measure = ("const d = document.documentElement; const img = document.getElementById('cam-read');"
               "return [d.scrollHeight, innerHeight, d.scrollWidth, innerWidth,"
               " document.readyState === 'complete' ? img.naturalWidth : 0];")
    with Server(tmp_path) as server:
        for size, lang in (("720p", "ko"), ("phone 200%", "ja")):  # the least room across, and down
            driver = browser.page(size, lang)
            driver.get(f"{server.url}/?lang={lang}")
            tall, high, wide, across, loaded = camerafiles.wait_for(
                lambda: (lambda m: m if m[4] else None)(driver.execute_script(measure)))
            assert loaded == 600  # the picture itself, loaded through its route
            assert wide <= across, size
            if size != "phone 200%":
                assert tall <= high, size
