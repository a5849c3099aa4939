"""systemd/camera/*.conf: the box's unit with a camera, checked by systemd's own tools when present.

The camera's process runs inside the box's unit (a child of the daemon), so a camera is a drop-in
of that unit, installed only while ``[camera] source`` names a device (tests/systemd/test_deploy_camera.py).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.systemd.test_systemd_unit import (ANALYZE, EXEC_START, KNOWN, MAX_EXPOSURE, MDWE_LAUNCHER, every, exposure,
                                             parse_unit, verify_file)

REPO = Path(__file__).resolve().parents[2]
UNIT = REPO / "systemd" / "cantstop-box.service"
DROP_INS = {source: REPO / "systemd" / "camera" / f"{source}.conf" for source in ("usb", "pi")}
#: What each camera may open, by its /proc/devices name: a webcam its V4L2 nodes; the Pi camera (libcamera)
#: its media graph, its video nodes and sub-devices (both video4linux) and a DMA heap for its frames.
DEVICES = {"usb": {"char-video4linux rw"},
           "pi": {"char-video4linux rw", "char-media rw", "char-dma_heap rw"}}


@pytest.mark.parametrize("source", DROP_INS)
def test_camera_drop_in_adds_its_devices_and_the_video_group_only(source):
    drop_in = parse_unit(DROP_INS[source].read_text())
    assert list(drop_in) == ["Service"]
    assert {k for k, _ in drop_in["Service"]} == {"SupplementaryGroups", "DeviceAllow"}
    assert set(every(drop_in, "Service", "DeviceAllow")) == DEVICES[source]
    # appended to the unit's gpio i2c spi (an empty assignment would reset them)
    assert every(drop_in, "Service", "SupplementaryGroups") == ["video"]
    assert {"SupplementaryGroups", "DeviceAllow"} <= KNOWN["Service"]


def unit_with(tmp_path: Path, drop_in: str | None) -> Path:
    """The box's unit (its program pointed at one that exists here), with ``drop_in`` as camera.conf beside it."""
    copy = tmp_path / "cantstop-box.service"
    copy.write_text(UNIT.read_text().replace(EXEC_START.split()[0], sys.executable, 1))
    if drop_in is not None:
        (tmp_path / "cantstop-box.service.d").mkdir()
        (tmp_path / "cantstop-box.service.d" / "camera.conf").write_text(drop_in)
    return copy


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed (deploy/ci-deps.sh installs it)")
@pytest.mark.parametrize("source", DROP_INS)
def test_camera_drop_in_verifies_and_keeps_the_unit_safe(tmp_path, source):
    unit = unit_with(tmp_path, DROP_INS[source].read_text())
    assert verify_file(unit) == ""
    level, returncode, word = exposure(unit)
    assert level <= MAX_EXPOSURE and returncode == 0 and word == "SAFE", (level, word)
    # systemd-analyze read the drop-in: the camera's devices are in the unit's device list
    done = subprocess.run([ANALYZE, "security", "--offline=true", "--no-pager", str(unit)], capture_output=True,
                          text=True, cwd=tmp_path, timeout=60)
    line = next(line for line in done.stdout.splitlines() if "DeviceAllow=" in line)
    assert "char-video4linux:rw" in line and ("char-media:rw" in line) == (source == "pi")


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed (deploy/ci-deps.sh installs it)")
def test_camera_drop_in_typo_is_caught(tmp_path):
    unit = unit_with(tmp_path, DROP_INS["pi"].read_text().replace("DeviceAllow=char-media", "DeviceAlow=char-media"))
    assert "DeviceAlow" in verify_file(unit)


# -- MemoryDenyWriteExecute=yes and the camera's process ------------------------------

CAMERA_CHILD = r"""
import sys, tempfile
from pathlib import Path
import cv2
import numpy as np
import firmware.camera.eye  # what the box's child process imports: NumPy, OpenCV, sight
from hw.camera import FolderCamera
from sight import markers
board = np.full((720, 1280, 3), 255, np.uint8)
dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
for number, (x, y) in enumerate([(100, 100), (1000, 100), (100, 500), (1000, 500)]):
    tag = cv2.aruco.generateImageMarker(dictionary, number, 120)
    board[y:y + 120, x:x + 120] = cv2.cvtColor(tag, cv2.COLOR_GRAY2BGR)
with tempfile.TemporaryDirectory() as folder:
    cv2.imwrite(str(Path(folder) / "board.png"), board)
    camera = FolderCamera(folder)
    frame = camera.grab()
    camera.close()
found = markers.find(frame)
small = cv2.warpPerspective(frame, np.eye(3), (640, 360))
print("camera ok", sorted(found), small.shape)
"""


def test_camera_process_runs_without_writable_executable_memory():
    """The eye's stack (NumPy, OpenCV's ArUco, a photo read and warped) under PR_SET_MDWE, as the unit's
    MemoryDenyWriteExecute=yes asks (the Pi's own aarch64 wheels are checked in docs/verified.md)."""
    pytest.importorskip("cv2")
    done = subprocess.run([sys.executable, "-c", MDWE_LAUNCHER, CAMERA_CHILD], capture_output=True, text=True,
                          cwd=REPO, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    if done.stdout.startswith("no-mdwe"):  # a kernel before 6.3: nothing to refuse with
        assert done.stdout.split() == ["no-mdwe", "22"]
        return
    assert done.stdout == "camera ok [0, 1, 2, 3] (360, 640, 3)\n", done.stderr
