"""The updater's one line (why an update was undone, deploy/switching.py) on the box's screen at its next start."""

from firmware.daemon.opening import NOTICE_LIMIT, UPDATE_NOTICE
from tests.kit.rig import Rig


def shown(rig) -> str:
    view = rig.view
    return " ".join(str(part) for part in (getattr(view, "title", ""), *getattr(view, "lines", ())))


def test_the_box_shows_why_an_update_was_undone_once(tmp_path):
    line = "update to 0.2.1 failed: it did not start: broken on purpose; back on 0.1.0"
    (tmp_path / UPDATE_NOTICE).write_text(line + "\n")
    rig = Rig(tmp_path)
    try:
        assert "Update undone" in shown(rig) and "back on 0.1.0" in shown(rig)
        assert not (tmp_path / UPDATE_NOTICE).exists()  # shown once
    finally:
        rig.close()
    again = Rig(tmp_path)
    try:
        assert "Update undone" not in shown(again)
    finally:
        again.close()


def test_a_notice_file_too_big_is_dropped_unread(tmp_path):
    (tmp_path / UPDATE_NOTICE).write_text("x" * (NOTICE_LIMIT + 1))
    rig = Rig(tmp_path)
    try:
        assert "Update undone" not in shown(rig) and not (tmp_path / UPDATE_NOTICE).exists()
    finally:
        rig.close()
