"""The blobs no expected piece explains (sight/extras.py): a blob hugging a marker of another kind found on its
space, wrapped round it, is that marker's shade; one standing beside it, a piece's width off, is not."""

from __future__ import annotations

import cv2
import numpy as np

from sight.extras import _shade_of
from sight.tuning import Tuning

RED, PURPLE = 7, 8  # two kinds' classes (any two numbers: the rule compares classes, not colours)
R = 9  # a piece's radius (px): its area is about pi * R**2


def _scene(purple_at: tuple[int, int], crescent: bool):
    """A red disc at (40, 40) on a 80x80 board, and a purple blob: a crescent on the disc's lower right side (its
    shade), or a disc of its own at ``purple_at``. Returns the classes, the purple blob's centre and ring, the
    space's body (flat indices) and a piece's area."""
    classes = np.zeros((80, 80), np.uint8)
    cv2.circle(classes, (40, 40), R, RED, -1)
    blob = np.zeros_like(classes)
    if crescent:
        cv2.circle(blob, (44, 44), R, 1, -1)
        blob[classes == RED] = 0
        cv2.circle(blob, (40, 40), R, 0, -1)
        blob[(np.hypot(*np.mgrid[0:80, 0:80][::-1] - 40) > R + 4)] = 0
    else:
        cv2.circle(blob, purple_at, R, 1, -1)
    classes[blob.astype(bool)] = PURPLE
    ys, xs = np.nonzero(blob)
    ring = cv2.dilate(blob, np.ones((5, 5), np.uint8)).astype(bool) & ~blob.astype(bool)
    body = np.flatnonzero(np.ones_like(classes))  # the whole picture is the space's body
    return classes, (xs.mean(), ys.mean()), ring, body, float(np.pi * R * R)


def test_a_crescent_wrapped_round_a_found_marker_is_its_shade():
    classes, centre, ring, body, area = _scene((0, 0), crescent=True)
    assert _shade_of(centre, ring, classes, body, [RED], area, Tuning())


def test_a_piece_standing_beside_a_found_marker_is_no_shade():
    classes, centre, ring, body, area = _scene((40 + 2 * R, 40), crescent=False)  # touching it, side by side
    assert not _shade_of(centre, ring, classes, body, [RED], area, Tuning())


def test_a_crescent_is_no_shade_of_a_marker_of_a_kind_not_found_there():
    classes, centre, ring, body, area = _scene((0, 0), crescent=True)
    assert not _shade_of(centre, ring, classes, body, [], area, Tuning())
    assert not _shade_of(centre, ring, classes, body, [PURPLE + 1], area, Tuning())
