"""The camera's own process, for real: started by the box's CameraLink, over a drawn board, spoken to on its pipe.

One run covers the life a box gives it: set up on a board it has never seen (the drawn board is cleared and
fitted), told what the game has, silent-right on a right board, wrong within a check of a piece moved, and
ended cleanly when asked (exit 0, no fault at shutdown with its reader thread still waiting on the pipe).
"""

from __future__ import annotations

import queue
import time

import pytest

from firmware import ui
from firmware.config.models import CameraConfig
from firmware.daemon.camera import CameraLink
from sight.layout import Piece

#: A hand-over's board: the markers only (the runners came off when the turn ended).
EXPECTED = (Piece(7, 4, "Red"), Piece(9, 2, "Blue"), Piece(5, 3, "Red"), Piece(10, 6, "Blue"))
#: Seconds a single answer may take: the process starts (NumPy, OpenCV), renders, settles and reads on a busy CI.
PATIENCE = 60.0


def _next(inbox: queue.Queue, kind, until: float):
    while True:
        left = until - time.monotonic()
        if left <= 0:
            pytest.fail(f"no {kind.__name__} from the camera's process in time")
        item = inbox.get(timeout=left)
        if isinstance(item, kind):
            return item


def test_the_camera_process_sets_up_reads_a_right_board_and_a_wrong_one_and_ends_cleanly(tmp_path):
    log = tmp_path / "camera.log"
    with open(log, "wb") as stderr:
        cam = CameraLink(CameraConfig(source="scene"), tmp_path, stderr=stderr)
        inbox: queue.Queue = queue.Queue()
        cam.attach(inbox.put)
        cam.start()
        try:
            cam.send({"do": "setup", "runner": "white", "tall": 16, "calibration": None})
            until = time.monotonic() + PATIENCE
            setup = _next(inbox, ui.CameraSetUp, until)
            assert setup.calibration is not None and not setup.refused
            assert (tmp_path / "camera" / "setup.jpg").is_file()

            cam.send({"do": "watch", "ticket": 5, "expected": [list(p) for p in EXPECTED], "once": False,
                      "colours": ["Red", "Blue"]})
            right = _next(inbox, ui.BoardSeen, time.monotonic() + PATIENCE)
            assert (right.ticket, right.verdict.state) == (5, "right")
            assert (tmp_path / "camera" / "view.jpg").is_file() and (tmp_path / "camera" / "read.png").is_file()

            cam.send({"do": "nudge"})  # one piece a space off on the drawn board
            wrong = _next(inbox, ui.BoardSeen, time.monotonic() + PATIENCE)
            assert wrong.ticket == 5 and wrong.verdict.state == "wrong" and wrong.moved
            assert len(wrong.verdict.wrong) >= 1
        finally:
            cam.close()
        proc = cam.proc
    assert proc.returncode == 0
    said = log.read_text()
    assert "Fatal Python error" not in said and "Traceback" not in said, said
