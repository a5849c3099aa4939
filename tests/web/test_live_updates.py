"""The live page follows the box (issue 31, round two: each fixed with a test that failed before its fix).

A page opened before a restart of the web view is sent the game as it is
now; a press reaches the page from a glance at the store's files, not the
next query, and so does a commit that shows only a moment after its files
moved; one press is one update; a store busy for a moment is not a change.
"""

from __future__ import annotations

import contextlib
import json
import re
import socket
import sqlite3
import time

from tests.web import fetch
from tests.web.server import Server


def get(server, path, **kw):
    return fetch.get(server.url + path, timeout=10, **kw)


def _version(page: str) -> str:
    return re.search(r'data-version="([0-9]+)"', page).group(1)


def _first_event(port: int, head: bytes, within: float) -> dict | None:
    """The first ``live`` event a new stream sends within ``within`` seconds, else None."""
    with socket.create_connection(("127.0.0.1", port), timeout=within) as sock:
        sock.sendall(b"GET /events" + head + b"\r\n\r\n")
        data, deadline = b"", time.monotonic() + within
        while time.monotonic() < deadline:
            for event in data.split(b"\n\n"):
                for line in event.split(b"\n"):
                    if line.startswith(b"data: "):
                        return json.loads(line[6:])
            try:
                chunk = sock.recv(65536)
            except socket.timeout:
                return None
            if not chunk:
                return None
            data += chunk
    return None


def test_a_page_from_before_a_restart_is_sent_the_game_as_it_is_now(box, tmp_path):
    box.tap("ROLL")  # a store with the box's screen in it
    with Server(tmp_path) as s:
        port, old = s.port, _version(get(s, "/").text)  # a page opened before any press
    box.play_on(events=1)  # a press while the web view is away
    with Server(tmp_path, port=port) as s:
        now = get(s, "/now.json").json()
        assert str(now["v"]) != old  # a version never used before
        head = f"?lang=en&v={old} HTTP/1.1\r\nHost: 127.0.0.1\r\nLast-Event-ID: {old}".encode()
        event = _first_event(port, head, 15.0)  # the page's EventSource reconnecting
        assert event is not None and event["html"] == now["html"]
        # a page that has the current game is not sent it again (its Last-Event-ID honoured)
        head = f"?lang=en&v=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nLast-Event-ID: {now['v']}".encode()
        assert _first_event(port, head, 0.5) is None


@contextlib.contextmanager
def _stream(server):
    """An event stream of ``server`` opened on a raw socket, once its first live event came: (socket, bytes so far)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        sock.sendall(b"GET /events?lang=en HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        data = b""
        while b"event: live" not in data:
            data += sock.recv(65536)
        yield sock, data


def test_a_press_is_noticed_by_a_glance_at_the_files_not_the_next_query(game, tmp_path):
    """data_version asked every 10 s here: the press still reaches the page at once (the WAL's stat moved)."""
    with Server(tmp_path, poll=10.0) as s:
        with _stream(s) as (sock, data):
            time.sleep(0.2)
            pressed = time.monotonic()
            game.play_on(events=1)
            data = b""
            while b"event: live" not in data:
                data += sock.recv(65536)
            assert time.monotonic() - pressed < 5.0  # (a loaded machine is slow; the query is 10 s away)


def test_a_commit_that_shows_a_moment_after_the_files_moved_still_reaches_the_page(game, tmp_path, monkeypatch):
    """On a slow card a commit's pages are in the WAL (its stat moved) a few hundred ms before its fsync ends and
    it shows (1 s here): the watcher asks again until it does, not only a few glances on (then the next query)."""
    from web.reader import Reader

    real, first_seen = Reader.token, {}

    def late(self):  # each new token is seen only 1 s after the store has it
        token = real(self)
        seen = first_seen.setdefault(token, time.monotonic())
        if time.monotonic() - seen < 1.0:
            return list(first_seen)[-2]
        return token

    with Server(tmp_path, poll=10.0) as s:
        first_seen[s.hub._token] = time.monotonic() - 10  # the game as the page has it
        monkeypatch.setattr(Reader, "token", late)
        with socket.create_connection(("127.0.0.1", s.port), timeout=15) as sock:
            sock.sendall(b"GET /events?lang=en HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            data = b""
            while b"event: live" not in data:
                data += sock.recv(65536)
            pressed = time.monotonic()
            game.play_on(events=1)
            data = b""
            while b"event: live" not in data:
                data += sock.recv(65536)
            assert time.monotonic() - pressed < 5.0  # (the query is 10 s away)


def test_one_press_is_one_update(game, tmp_path):
    """A press the box saves in more than one commit (its event, then what its screen keeps) reaches a page as
    one update: the watcher lets the files settle before it asks."""
    with Server(tmp_path, poll=10.0) as s:
        with _stream(s) as (sock, data):
            counts = []
            sock.settimeout(0.1)
            for _ in range(5):
                game.play_on(events=1)
                data, first = b"", time.monotonic() + 5  # the update, loaded or not (the query: 10 s) ...
                while b"event: live" not in data and time.monotonic() < first:
                    with contextlib.suppress(socket.timeout):
                        data += sock.recv(65536)
                deadline = time.monotonic() + 0.6  # ... then 0.6 s more for a second one
                while time.monotonic() < deadline:
                    with contextlib.suppress(socket.timeout):
                        data += sock.recv(65536)
                counts.append(data.count(b"event: live"))
            assert counts == [1] * 5, counts


def test_a_busy_store_for_a_moment_is_not_a_change(game, tmp_path):
    from web.reader import Reader

    reader = Reader(tmp_path)
    first = reader.token()

    class Busy:
        def execute(self, sql, *a):
            raise sqlite3.OperationalError("database is locked")

    real = reader._store._db
    reader._store._db = Busy()
    try:
        assert reader.token() == first  # the box's checkpoint: the pages are not sent the same game again
    finally:
        reader._store._db = real
        reader.close()
