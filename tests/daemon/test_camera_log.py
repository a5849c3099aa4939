"""The camera's process logs where the box says: the emulator's log file, never over the frame drawn in the terminal."""

from __future__ import annotations

from firmware.config.models import CameraConfig
from firmware.daemon.camera import CameraLink


def test_camera_process_logs_into_the_file_it_is_given(tmp_path):
    fake = tmp_path / "python"  # stands in for the interpreter: a line on standard error, then waits for quit
    fake.write_text("#!/bin/sh\necho 'camera: a line of its log' >&2\nread line\n")
    fake.chmod(0o755)
    heard = []
    with open(tmp_path / "emulator.log", "a", encoding="utf-8") as log:
        link = CameraLink(CameraConfig(source="scene"), None, python=str(fake), stderr=log)
        link.attach(heard.append)
        link.start()
        link.close()  # quit said: the process ends
    assert link.proc.returncode == 0
    assert (tmp_path / "emulator.log").read_text() == "camera: a line of its log\n"
