"""What a client, a slow card or a damaged game cannot do to the web view (issue 31, round two: each fixed with a
test that failed before its fix).

Only the box's own names are served, every response carries the security
headers, headers over 16 KiB are refused, one address holding hundreds of
streams and half-sent requests leaves the pages of everyone else answering, a
deep history page reads one page, slow history reads never hold up the live
page, and a damaged game is logged once, not at every page view. (The live
page's updates: test_live_updates.py.)
"""

from __future__ import annotations

import contextlib
import logging
import socket
import sqlite3
import threading
import time

from tests.web import fetch
from tests.kit.rig import Rig
from tests.web.server import Server


def get(server, path, **kw):
    return fetch.get(server.url + path, timeout=10, **kw)


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


SECURITY = ("content-security-policy", "x-content-type-options", "x-frame-options", "referrer-policy")


def _raw(port: int, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
        return data


def test_only_the_box_s_own_names_are_served(game, tmp_path):
    with Server(tmp_path) as s:
        for path in ("/", "/games", "/games/1.json", "/now.json", "/people", "/events"):
            refused = get(s, path, headers={"Host": "evil.example"})
            assert refused.status_code == 421 and refused.text.count("\n") == 1, path
            assert all(h in refused.headers for h in SECURITY)
        host = socket.gethostname().split(".")[0]
        for name in ("127.0.0.1", f"127.0.0.1:{s.port}", "localhost", f"[::1]:{s.port}", host, f"{host}.local",
                     "192.168.1.20:8080"):
            assert get(s, "/now.json", headers={"Host": name}).status_code == 200, name


def test_every_response_carries_the_security_headers(game, tmp_path):
    with Server(tmp_path) as s:
        for path in ("/", "/games/", "/nowhere", "/static/style.css", "/now.json"):
            answer = get(s, path)  # a redirect, a 404, an asset, JSON
            assert all(h in answer.headers for h in SECURITY), (path, answer.status_code)
        stream = _raw(s.port, b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").lower()
        assert stream.startswith(b"http/1.1 200") and all(h.encode() in stream for h in SECURITY)


def test_headers_over_16_kib_are_refused_even_in_one_send(game, tmp_path):
    with Server(tmp_path) as s:
        for size in (17_000, 60_000):
            head = _raw(s.port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * size + b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 431"), (size, head[:40])
        assert get(s, "/", headers={"X-Fair": "a" * 8000}).status_code == 200


def test_one_client_holding_hundreds_of_streams_and_slow_requests_does_not_take_it_down(game, tmp_path):
    """One address (127.0.0.2, still loopback) holds 300 event streams and 50 half-sent requests; the pages of
    everyone else (127.0.0.1) answer as ever."""
    with Server(tmp_path) as s:
        held = []

        def connect(request: bytes):
            sock = socket.create_connection(("127.0.0.1", s.port), timeout=5, source_address=("127.0.0.2", 0))
            held.append(sock)
            with contextlib.suppress(OSError):
                sock.sendall(request)

        try:
            for _ in range(300):
                connect(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            for _ in range(50):
                connect(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")  # slowloris: never the end
            time.sleep(0.5)
            assert s.hub.streams <= 16  # one address's share
            answers = [get(s, path).status_code for _ in range(10) for path in ("/", "/now.json")]
            with fetch.stream("GET", s.url + "/events", timeout=5) as stream:
                answers.append(stream.status_code)
            assert answers == [200] * len(answers), answers
        finally:
            for sock in held:
                sock.close()


def test_a_deep_history_page_reads_one_page_not_its_depth(tmp_path, monkeypatch):
    from firmware.store.reads import Reads

    rig = Rig(tmp_path, seed=11, rest=1.0)
    rig.play_on()  # game 1, finished
    rig.tap("ROLL")
    rig.tap("ROLL")  # game 2, open
    rig.play_on(presses=2)
    rig.close()

    asked = []
    real = Reads.games

    def games(self, limit=None, **kw):
        asked.append(limit)
        return real(self, limit, **kw)

    monkeypatch.setattr(Reads, "games", games)
    with Server(tmp_path) as s:
        first = get(s, "/games")
        assert first.status_code == 200 and 'data-game="2"' in first.text and 'data-game="1"' in first.text
        page2 = get(s, "/games?page=2")  # 2 games: no page 2
        assert page2.status_code == 404
        asked.clear()
        assert get(s, "/games?page=500").status_code == 404
        assert get(s, "/games?page=100000").status_code == 404
        assert all(limit is not None and limit <= 21 for limit in asked), asked
        refused = get(s, "/games?page=1000000")
        assert refused.status_code == 400 and refused.text.count("\n") == 1
        below = get(s, "/games?before=2")  # by key: the games older than game 2
        assert 'data-game="1"' in below.text and 'data-game="2"' not in below.text


def test_history_reads_never_hold_up_the_live_page(game, tmp_path, monkeypatch):
    from firmware.store.reads import Reads

    real = Reads.games
    measured = threading.Event()

    def slow_games(self, limit=None, **kw):
        if limit is not None and limit > 1:  # the history's listing (the live game reads one at most)
            measured.wait(10.0)  # a deep page on a slow card, until the live page has been timed
        return real(self, limit, **kw)

    monkeypatch.setattr(Reads, "games", slow_games)
    with Server(tmp_path) as s:
        get(s, "/now.json")
        with fetch.client(base_url=s.url, timeout=60) as other:  # they take their turns
            import concurrent.futures

            with concurrent.futures.ThreadPoolExecutor(4) as pool:
                deep = [pool.submit(other.get, "/games") for _ in range(4)]
                time.sleep(0.3)
                try:
                    started = time.monotonic()
                    assert get(s, "/now.json").status_code == 200 and get(s, "/").status_code == 200
                    took = time.monotonic() - started
                finally:
                    measured.set()  # the slow reads end now, not 10 s each later
                for f in deep:
                    assert f.result().status_code == 200
        assert took < 3.0, took  # behind them: 9.7 s at least
