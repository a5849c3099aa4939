"""The camera process's pipe and opener: lines read whole from the descriptor, an overlong line refused and its
rest dropped, and a camera whose library is missing said in one line, not a traceback."""

from __future__ import annotations

import os
import queue
import sys
import threading
import time

import pytest

from firmware.camera import eye, link
from hw.camera import CameraError


def _fed(*chunks: bytes, limit: int = link.MAX_LINE) -> list:
    r, w = os.pipe()

    def feed():
        for chunk in chunks:
            os.write(w, chunk)
            time.sleep(0.05)  # each write read on its own, as a slow writer's are
        os.close(w)

    threading.Thread(target=feed).start()
    inbox: queue.Queue = queue.Queue()
    eye._reader(r, inbox, limit)
    os.close(r)
    got = []
    while not inbox.empty():
        got.append(inbox.get())
    return got


def test_lines_split_across_writes_arrive_whole_and_the_end_of_the_pipe_is_said():
    assert _fed(b'{"do": "wa', b'tch", "ticket": 1}\n{"do": ', b'"stop"}\n') == [
        {"do": "watch", "ticket": 1}, {"do": "stop"}, None]


LONG = b'{"do": "watch", "junk": "' + b"x" * 200 + b'", "x": {"do": "quit"}}\n'


def test_an_overlong_line_arriving_in_pieces_is_dropped_whole_and_the_next_line_still_heard():
    assert _fed(LONG[:100], LONG[100:], b'{"do": "stop"}\n', limit=64) == [{"do": "stop"}, None]


def test_an_overlong_line_arriving_at_once_is_dropped_and_the_next_line_still_heard():
    assert _fed(LONG + b'{"do": "stop"}\n', limit=64) == [{"do": "stop"}, None]


def test_a_camera_whose_library_is_missing_is_a_camera_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "firmware.camera.drawn", None)  # importing it fails, as a missing wheel does
    with pytest.raises(CameraError, match="the scene camera needs"):
        eye.open_camera("scene")
