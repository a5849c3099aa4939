"""Cameras: a USB webcam (V4L2, through OpenCV), the Raspberry Pi camera (picamera2), a folder of photos.

Each gives frames as BGR arrays (OpenCV's order) from :meth:`grab` and lets
go of the device on :meth:`close`; every fault is a :class:`CameraError` in
one line (no device, busy, unplugged, a photo that is not one). OpenCV and
picamera2 are imported only when a camera of theirs is opened: the box's own
process never opens one (the camera has a process of its own).
"""

from __future__ import annotations

import os
from pathlib import Path

from .errors import HardwareError

#: The picture asked of a camera: enough for a board 30 cm across, little enough for a Pi Zero 2 W.
WIDTH, HEIGHT = 1280, 720
#: A photo in a folder bigger than this is refused before it is read.
MAX_PHOTO_BYTES = 20 * 1024 * 1024
#: The photos a folder camera takes (by their name's ending).
PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png")


class CameraError(HardwareError):
    """The camera cannot be opened, or stopped giving pictures."""


class UsbCamera:
    """A webcam on ``device`` (``/dev/video0``), read through V4L2 with OpenCV."""

    def __init__(self, device: str = "/dev/video0", size: tuple[int, int] = (WIDTH, HEIGHT)) -> None:
        import cv2

        if not os.path.exists(device):
            raise CameraError(f"no camera at {device}: is the webcam plugged in?")
        if not os.access(device, os.R_OK | os.W_OK):
            raise CameraError(f"{device} may not be opened by this user: add it to the 'video' group")
        cap = cv2.VideoCapture(device, cv2.CAP_V4L2)
        if not cap.isOpened():
            raise CameraError(f"{device} does not open as a camera (busy, or not a V4L2 capture device)")
        cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*"MJPG"))  # USB 2 carries 720p only compressed
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # the newest frame, not one queued a second ago
        self.cap, self.device = cap, device

    def grab(self):
        ok, frame = self.cap.read()
        if not ok or frame is None:
            raise CameraError(f"{self.device} gave no picture: was the webcam unplugged?")
        return frame

    def close(self) -> None:
        self.cap.release()


class PiCamera:
    """The Raspberry Pi camera (its ribbon cable), through picamera2 (Raspberry Pi OS: python3-picamera2)."""

    def __init__(self, size: tuple[int, int] = (WIDTH, HEIGHT)) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError:
            raise CameraError("the Pi camera needs picamera2: sudo apt install python3-picamera2 "
                              "(Raspberry Pi OS)") from None
        try:
            cam = Picamera2()
            # RGB888 is stored B, G, R in memory: OpenCV's order
            cam.configure(cam.create_still_configuration(main={"size": size, "format": "RGB888"}))
            cam.start()
        except Exception as err:  # libcamera's own errors: no camera on the cable, or it is busy
            raise CameraError(f"the Pi camera does not start: {err}") from err
        self.cam = cam

    def grab(self):
        try:
            return self.cam.capture_array("main")
        except Exception as err:
            raise CameraError(f"the Pi camera gave no picture: {err}") from err

    def close(self) -> None:
        try:
            self.cam.stop()
            self.cam.close()
        except Exception:
            pass


class FolderCamera:
    """The photos in ``folder``, one a grab, in name order and round again: trying the camera without one."""

    def __init__(self, folder: str | os.PathLike) -> None:
        path = Path(folder)
        if not path.is_dir():
            raise CameraError(f"{folder} is not a folder of photos")
        self.photos = sorted(p for p in path.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES)
        if not self.photos:
            raise CameraError(f"{folder} has no photos ({', '.join(PHOTO_SUFFIXES)})")
        self.next = 0

    def grab(self):
        import cv2
        import numpy as np

        photo = self.photos[self.next % len(self.photos)]
        self.next += 1
        try:
            size = photo.stat().st_size
            if size > MAX_PHOTO_BYTES:
                raise CameraError(f"{photo.name} is {size // 2**20} MB: photos of at most "
                                  f"{MAX_PHOTO_BYTES // 2**20} MB are read")
            data = photo.read_bytes()
        except OSError as err:
            raise CameraError(f"{photo.name}: {err.strerror or err}") from err
        frame = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        if frame is None:
            raise CameraError(f"{photo.name} is not a photo OpenCV can read")
        return frame

    def close(self) -> None:
        pass
