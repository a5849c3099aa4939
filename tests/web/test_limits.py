"""A slow or idle client cannot hold the web view: time-outs, a cap on event streams, 200 streams held without harm.

Over loopback only (127.0.0.1, a free port).
"""

from __future__ import annotations

import socket
import time


from tests.web import fetch
from tests.web.server import Server
from web import app as web_app
from web import serve


def _open_stream(port: int, source: str = "127.0.0.1") -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    sock.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    return sock


def _read_head(sock: socket.socket) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            break
        data += chunk
    return data


def test_200_open_event_streams_are_held_and_the_pages_still_answer(game, tmp_path):
    with Server(tmp_path) as s:
        # 20 phones of 10 pages each (127.0.0.10 to .29, all loopback): one address may hold 16 streams
        streams = [_open_stream(s.port, f"127.0.0.{10 + i // 10}") for i in range(200)]
        try:
            for sock in streams:
                assert _read_head(sock).startswith(b"HTTP/1.1 200")
            deadline = time.monotonic() + 20  # (a loaded machine takes its time)
            while s.hub.streams < 200:
                assert time.monotonic() < deadline
                time.sleep(0.02)
            started = time.monotonic()
            assert fetch.get(s.url + "/games", timeout=5).status_code == 200
            assert time.monotonic() - started < 4.0  # a page stuck behind the streams: 5 s, the client's time-out
            game.play_on(events=1)  # a press that the box saves
            for sock in streams[:20]:  # every stream hears of it
                sock.settimeout(10)
                data = b""
                while b"event: live" not in data:
                    data += sock.recv(65536)
        finally:
            for sock in streams:
                sock.close()
        deadline = time.monotonic() + 10
        while s.hub.streams:  # closed tabs free their places at once
            assert time.monotonic() < deadline, f"{s.hub.streams} streams still held"
            time.sleep(0.02)


def test_streams_past_the_cap_are_refused_and_the_page_polls(game, tmp_path, monkeypatch):
    monkeypatch.setattr(web_app, "MAX_STREAMS", 5)
    with Server(tmp_path) as s:
        held = [_open_stream(s.port) for _ in range(5)]
        try:
            for sock in held:
                assert _read_head(sock).startswith(b"HTTP/1.1 200")
            refused = fetch.get(s.url + "/events", timeout=5)
            assert refused.status_code == 503 and refused.headers["retry-after"] == "5"
            assert fetch.get(s.url + "/now.json", timeout=5).json()["html"].startswith('<div id="game"')
        finally:
            for sock in held:
                sock.close()


def test_a_client_that_never_finishes_its_request_is_dropped(game, tmp_path, monkeypatch):
    monkeypatch.setattr(serve, "HEADER_TIMEOUT", 0.5)
    with Server(tmp_path) as s:
        slow = socket.create_connection(("127.0.0.1", s.port), timeout=5)
        slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # ... and never the blank line
        idle = socket.create_connection(("127.0.0.1", s.port), timeout=5)  # says nothing at all
        started = time.monotonic()
        assert slow.recv(100) == b"" and idle.recv(100) == b""  # closed by the server
        assert time.monotonic() - started < 4.5  # not dropped: the recv times out at 5 s
        assert fetch.get(s.url + "/", timeout=5).status_code == 200
        slow.close()
        idle.close()


def test_huge_headers_are_refused(game, tmp_path):
    with Server(tmp_path) as s:
        sock = socket.create_connection(("127.0.0.1", s.port), timeout=5)
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ")
        try:
            for _ in range(40):  # 160 KB of one header, a piece at a time
                sock.sendall(b"a" * 4096)
                time.sleep(0.005)
            sock.sendall(b"\r\n\r\n")
        except OSError:
            pass  # refused and closed before the end
        head = _read_head(sock)
        assert head == b"" or head.startswith(b"HTTP/1.1 4")
        sock.close()


def _security_headers(head: bytes) -> set[str]:
    lines = head.decode("latin-1").lower().split("\r\n")
    names = {line.partition(":")[0] for line in lines[1:]}
    return {"content-security-policy", "x-content-type-options", "x-frame-options"} - names


def test_every_refusal_of_the_server_itself_carries_the_security_headers(game, tmp_path, monkeypatch):
    monkeypatch.setattr(serve, "MAX_CONNECTIONS", 4)  # uvicorn's own limit (limit_concurrency)
    monkeypatch.setattr(serve, "PER_CLIENT", 3)
    with Server(tmp_path) as s:
        held = [_open_stream(s.port, f"127.0.0.{20 + i}") for i in range(3)]  # three phones' pages
        try:
            for sock in held:
                assert _read_head(sock).startswith(b"HTTP/1.1 200")
            # the fourth connection: past the server's limit of connections
            with socket.create_connection(("127.0.0.1", s.port), timeout=5, source_address=("127.0.0.30", 0)) as c:
                c.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                head = _read_head(c)
            assert head.startswith(b"HTTP/1.1 503") and _security_headers(head) == set(), head
        finally:
            for sock in held:
                sock.close()
        # one client past its own cap of connections
        mine = [socket.create_connection(("127.0.0.1", s.port), timeout=5, source_address=("127.0.0.40", 0))
                for _ in range(4)]
        try:
            head = _read_head(mine[-1])
            assert head.startswith(b"HTTP/1.1 503") and _security_headers(head) == set(), head
        finally:
            for sock in mine:
                sock.close()
        # a request the server cannot read
        with socket.create_connection(("127.0.0.1", s.port), timeout=5) as c:
            c.sendall(b"NOT HTTP AT ALL\r\n\r\n")
            head = _read_head(c)
        assert head.startswith(b"HTTP/1.1 400") and _security_headers(head) == set(), head
