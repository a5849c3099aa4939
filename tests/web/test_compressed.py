"""What the web view sends is gzipped for a browser that asks (issue 46, item 11), but its event stream,
whose every change must reach the page at once."""

from __future__ import annotations

import gzip
import http.client
import json

import pytest

from tests.kit.rig import Rig
from tests.web.server import Server


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    rig = Rig(tmp_path_factory.mktemp("compressed"), names=("Ann", "Bob"), seed=3, rest=1.0)
    rig.play_on(presses=12)
    with Server(rig.state_dir) as s:
        yield rig, s
    rig.close()


def raw_get(port: int, path: str, encoding: str | None):
    """The answer as sent: headers and body bytes, nothing decoded by a client."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.putrequest("GET", path, skip_accept_encoding=True)
    if encoding:
        conn.putheader("Accept-Encoding", encoding)
    conn.endheaders()
    answer = conn.getresponse()
    return answer, conn


@pytest.mark.parametrize("path", ["/", "/now.json", "/static/style.css", "/games"])
def test_pages_json_and_styles_come_gzipped_to_a_browser_that_asks(served, path):
    _, s = served
    plain, conn = raw_get(s.port, path, None)
    body = plain.read()
    conn.close()
    packed, conn = raw_get(s.port, path, "gzip, deflate, br")
    squeezed = packed.read()
    conn.close()
    assert plain.status == packed.status == 200 and plain.getheader("content-encoding") is None
    assert packed.getheader("content-encoding") == "gzip" and "accept-encoding" in packed.getheader("vary").lower()
    assert len(squeezed) < len(body) / 2
    unpacked = gzip.decompress(squeezed)
    if path == "/now.json":  # the same live part, whichever way it came
        assert json.loads(unpacked)["v"] == json.loads(body)["v"]
    elif path.startswith("/static/"):
        assert unpacked == body
    else:  # a page (the history's may say how far the background check has come by now)
        assert unpacked[:15].lower() == body[:15].lower() == b"<!doctype html>" and abs(len(unpacked) - len(body)) < 200
    # what the guard adds to every answer is kept
    assert packed.getheader("x-content-type-options") == plain.getheader("x-content-type-options") == "nosniff"


def test_the_event_stream_is_never_compressed(served):
    _, s = served
    answer, conn = raw_get(s.port, "/events?lang=en", "gzip")
    try:
        assert answer.status == 200 and answer.getheader("content-encoding") is None
        assert answer.getheader("content-type").startswith("text/event-stream")
        first = answer.fp.readline()  # the first event arrives by itself, as plain text
        while not first.startswith(b"data: "):
            first = answer.fp.readline()
        assert json.loads(first[6:])["html"]
    finally:
        conn.close()
