"""Whether the picture is still: nobody's hand over the board, nothing being moved.

A check reads only a picture that has settled: several frames in a row
that differ from each other no more than the sensor's own noise does. Each
frame is shrunk to a small grey thumbnail first (cheap on a Pi Zero), and
the noise is learnt from the frames themselves, so a dim room's grain is
not taken for a hand.
"""

from __future__ import annotations

import cv2
import numpy as np

#: Thumbnails this wide (px) are compared.
WIDTH = 160
#: A pixel moved when it changed by more than this many grey levels (beyond the noise)...
MOVED_LEVELS = 14
#: ... and the picture moved when more than this fraction of its pixels did.
MOVED_FRACTION = 0.004


def thumbnail(frame: np.ndarray) -> np.ndarray:
    """A small, slightly blurred grey copy of ``frame`` (BGR or grey)."""
    grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    h, w = grey.shape
    small = cv2.resize(grey, (WIDTH, max(1, round(h * WIDTH / w))), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (3, 3), 0).astype(np.int16)


class Stillness:
    """Frames in, "is it still?" out: still once ``frames`` frames in a row barely differ from the one before."""

    def __init__(self, frames: int = 3) -> None:
        self.frames = frames
        self.last: np.ndarray | None = None
        self.calm = 0  # frames in a row without movement
        self.moved = False  # movement seen since the last reset (someone touched the board)

    def reset(self) -> None:
        """Forget movement seen so far (a new watch starts)."""
        self.moved = False

    def touched(self) -> None:
        """The board was changed without a hand in sight (a drawn board's nudge): moved, and not still yet."""
        self.moved, self.calm = True, 0

    def add(self, frame: np.ndarray) -> bool:
        """One more frame; whether the picture is still now."""
        thumb = thumbnail(frame)
        if self.last is None or self.last.shape != thumb.shape:
            self.last, self.calm = thumb, 0
            return False
        diff = np.abs(thumb - self.last)
        self.last = thumb
        if float((diff > MOVED_LEVELS).mean()) > MOVED_FRACTION:
            self.calm = 0
            self.moved = True
            return False
        self.calm += 1
        return self.calm >= self.frames
