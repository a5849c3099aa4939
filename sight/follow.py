"""The board found again by its own look when its corner tags cannot be read (a blurred or shaken photo).

The camera is fixed above the board: between the set-up and a check it moves
by a bump at most, a centimetre or three on the board. When too few tags can
be read in a check's photo (motion blur smears their cells), the map the set-up found (photo to plane) is a near guess. The photo
straightened by that guess is aligned with the empty board's own picture:
the shift first (phase correlation of the two pictures' detail), then the
whole map (OpenCV's ECC: correlation, so the light's gain and veil do not
matter), coarse to fine; and the alignment is believed only when the tags' own
squares then show their patterns where the set-up recorded them, and the two
pictures correlate plainly. A board moved farther than a bump is not
followed: its tags must be read again (or the camera set up again).
"""

from __future__ import annotations

import cv2
import numpy as np

from . import markers

#: The pictures must correlate this well after the alignment (ECC's coefficient, -1..1) to believe it.
ALIKE = 0.7
#: At most this far (mm, at any tag) from the set-up's map: farther is no bump of a fixed camera (a turn of a
#: degree and a half moves a board 50 cm below by 13 mm, its corners by more), and is not followed.
REACH_MM = 40.0
#: Each tag's squares must show its pattern this plainly (its cells correlated with the drawn tag), and
#: this many tags must: a board that slid under the camera puts another look under the tags' places.
PATTERN = 0.6
TAGS = 3
#: The alignment's steps, after the shift: the pictures shrunk by these factors in turn (half size is fine enough:
#: a third of a millimetre, against the tags' reading).
LEVELS = (4, 2)


def follow(photo: np.ndarray, cal, guess: np.ndarray) -> np.ndarray | None:
    """The photo-to-plane map for ``photo``, found from ``guess`` (the set-up's) by aligning the photo with
    ``cal``'s empty board; None when the alignment is not plainly right."""
    raster = cal.raster
    grey = cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY) if photo.ndim == 3 else photo
    moving = raster.straighten(grey, guess).astype(np.float32)
    fixed = cv2.cvtColor(np.clip(cal.empty * 200, 0, 255).astype(np.uint8), cv2.COLOR_BGR2GRAY).astype(np.float32)
    mask = (raster.seen(grey.shape[1::-1], guess)).astype(np.uint8)
    # first the shift alone, by phase correlation of the two pictures' detail (it reaches far, ECC does not)
    (dx, dy), _ = cv2.phaseCorrelate(_detail(fixed), _detail(moving), cv2.createHanningWindow(raster.size, cv2.CV_32F))
    warp = np.array([[1, 0, dx], [0, 1, dy], [0, 0, 1]], np.float32)
    score = -1.0
    for f in LEVELS:
        small = (max(8, raster.size[0] // f), max(8, raster.size[1] // f))
        a = cv2.resize(fixed, small, interpolation=cv2.INTER_AREA)
        b = cv2.resize(moving, small, interpolation=cv2.INTER_AREA)
        m = cv2.resize(mask, small, interpolation=cv2.INTER_NEAREST)
        scale = np.diag([small[0] / raster.size[0], small[1] / raster.size[1], 1.0]).astype(np.float32)
        w = scale @ warp @ np.linalg.inv(scale)
        try:
            score, w = cv2.findTransformECC(a, b, w.astype(np.float32), cv2.MOTION_HOMOGRAPHY,
                                            (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 60, 1e-5), m, 5)
        except cv2.error:
            return None
        warp = np.linalg.inv(scale) @ w @ scale
    if score < ALIKE:
        return None
    # moving(warp x) ~ fixed(x): the raster's pixel x shows the photo's point guess^-1 R^-1 warp x
    r = raster.matrix()
    to_plane = np.linalg.inv(r) @ np.linalg.inv(warp) @ r @ guess
    to_plane /= to_plane[2, 2]
    corners = np.concatenate(list(cal.anchors.corners.values()))
    moved = np.linalg.norm(markers.apply(to_plane @ np.linalg.inv(guess), corners) - corners, axis=1).max()
    if not np.isfinite(moved) or moved > REACH_MM:
        return None
    straight = raster.straighten(grey, to_plane)
    shown = sum(markers.shows(straight, raster.px(c), i) >= PATTERN for i, c in cal.anchors.corners.items())
    return to_plane if shown >= TAGS else None


def _detail(grey: np.ndarray) -> np.ndarray:
    """A grey picture's detail: less its broad light (a lamp moved, glare's veil), each as the other's."""
    g = grey.astype(np.float32)
    return g - cv2.GaussianBlur(g, (0, 0), 12)
