"""The four printed markers in a photo, and the map from the photo to the board's plane.

Each marker is an ArUco square of OpenCV's 4x4_50 dictionary (ids 0 to 3,
one per corner: :data:`sight.layout.MARKER_IDS`). A calibration records where
each corner of each marker lies on the board's plane as it was stuck on
(:func:`anchors`), so a marker stuck on a little crooked costs nothing, and
later photos are mapped to the plane from whichever markers are seen
(:func:`plane_map`): three are enough, so a hand over one corner is no
matter.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .layout import MARKER_IDS

#: The markers' dictionary in OpenCV: 4x4 bits, 50 ids (ours are :data:`sight.layout.MARKER_IDS`).
DICTIONARY = cv2.aruco.DICT_4X4_50
#: A photo's map to the plane needs this many markers seen (their 4 corners each).
ENOUGH = 3
#: The map is refused when a marker corner lands further than this (mm) from where it was recorded: a tag turned
#: on the board (about 13 degrees or more), bent, or a wrong square read for one. A tag slid along the board
#: cannot be told this way (the map follows it: four tags fix a map). Over make camera-bench's 499 check photos
#: (blur, JPEG, a lens's distortion, tags 20 pixels across), the corners fit to 4.2 mm at most, and 4 mm refused
#: two right boards.
MAX_ERROR_MM = 6.0
#: A square OpenCV found but could not decode (too soft to read each cell as black or white) is taken for one of
#: the board's tags when its cells match that tag's this well (a correlation, 0..1) ...
SOFT = 0.7
#: ... and no other tag, nor the same one turned, comes within this of it.
SOFT_MARGIN = 0.3


class MarkersError(ValueError):
    """The markers cannot place the board in this photo (one line: which are missing, or why). A set-up refused
    so asks the table to mind its corner tags (its ``kind``, as :class:`sight.calibrate.CalibrationError`'s)."""

    kind = "markers"


def _detector() -> cv2.aruco.ArucoDetector:
    """OpenCV's detector, set for a webcam's soft, small tags (measured on the rendered benchmark's photos: 226
    of 240 tags found where the defaults found 196, for a third more time): each cell read at its middle only
    (a blurred border bleeds white into the black), at 8 pixels a cell, every error the code can correct
    corrected, and more border bits allowed wrong."""
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.perspectiveRemoveIgnoredMarginPerCell = 0.3
    params.perspectiveRemovePixelPerCell = 8
    params.errorCorrectionRate = 1.0
    params.maxErroneousBitsInBorderRate = 0.6
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(DICTIONARY), params)


_DETECTOR = None


def drawn(marker_id: int, pixels: int) -> np.ndarray:
    """Marker ``marker_id`` as printed, its black square ``pixels`` wide and no paper around it (uint8, 0 black,
    255 white; the printable sheet: :mod:`firmware.devtools.corner_tags`).

    >>> square = drawn(0, 60)
    >>> square.shape, int(square[:10].max()), sorted(find(np.pad(square, 20, constant_values=255)))
    ((60, 60), 0, [0])
    """
    if marker_id not in MARKER_IDS:
        raise ValueError(f"marker {marker_id} is not one of the board's {MARKER_IDS}")
    if pixels < 6:
        raise ValueError(f"a marker is 6 cells across: {pixels} pixels cannot draw one")
    return cv2.aruco.generateImageMarker(cv2.aruco.getPredefinedDictionary(DICTIONARY), marker_id, pixels, borderBits=1)


def find(image: np.ndarray, plane: dict | None = None) -> dict[int, np.ndarray]:
    """The markers seen in ``image`` (BGR or grey): id -> its four corners in the photo (4x2, pixels), in
    ArUco's order (the printed square's top-left, top-right, bottom-right, bottom-left). Ids not ours are
    left out, and so is an id seen twice (a reflection or a second sheet: neither can be trusted).

    With ``plane`` (id -> the marker's corners on the board's plane, as recorded or as the layout puts them),
    a marker missed while two others were seen is looked for again where those two say it must be, in a
    crop enlarged twice: a small, soft tag in a corner of the picture is often found that way."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    found, squares = _detect(grey)
    missing = [i for i in MARKER_IDS if i not in found]
    if missing and squares:
        found.update({i: c for i, c in _soft(grey, squares).items() if i in missing})
        missing = [i for i in MARKER_IDS if i not in found]
    if plane is None or not missing or len(found) < 2:
        return found
    seen = [i for i in found if i in plane]
    h, _ = cv2.findHomography(np.concatenate([np.asarray(plane[i], np.float64) for i in seen]),
                              np.concatenate([found[i] for i in seen]), 0)
    if h is None:
        return found
    for i in missing:
        guess = _apply(h, np.asarray(plane[i], np.float64))
        again = _look_near(grey, guess, i)
        if again is not None:
            found[i] = again
    return found


def _look_near(grey: np.ndarray, guess: np.ndarray, marker_id: int) -> np.ndarray | None:
    """Marker ``marker_id`` looked for around ``guess`` (its corners, roughly), in a crop enlarged twice."""
    side = float(np.linalg.norm(guess[0] - guess[2]))
    if not np.isfinite(side) or side < 4:
        return None
    x0, y0 = np.floor(guess.min(axis=0) - side).astype(int)
    x1, y1 = np.ceil(guess.max(axis=0) + side).astype(int)
    x0, y0 = max(0, x0), max(0, y0)
    x1, y1 = min(grey.shape[1], x1), min(grey.shape[0], y1)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    crop = cv2.resize(grey[y0:y1, x0:x1], None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
    again = _detect(crop)[0].get(marker_id)
    return None if again is None else again / 2 + np.array([x0, y0], np.float64)


def _detect(grey: np.ndarray) -> tuple[dict[int, np.ndarray], list]:
    """The board's tags OpenCV decoded (id -> corners), and the squares it found but could not decode."""
    global _DETECTOR
    if _DETECTOR is None:
        _DETECTOR = _detector()
    corners, ids, rejected = _DETECTOR.detectMarkers(grey)
    squares = [np.asarray(c, np.float64).reshape(4, 2) for c in rejected]
    if ids is None:
        return {}, squares
    return _once(zip((int(i) for i in ids.ravel()), (c.reshape(4, 2).astype(np.float64) for c in corners))), squares


def _once(pairs) -> dict[int, np.ndarray]:
    """Of (id, corners) pairs, the board's tags each seen once (a tag seen twice is trusted in neither place)."""
    found: dict[int, np.ndarray] = {}
    twice: set[int] = set()
    for i, c in pairs:
        if i not in MARKER_IDS:
            continue
        if i in found:
            twice.add(i)
        found[i] = c
    return {i: c for i, c in found.items() if i not in twice}


def _patterns() -> dict[int, np.ndarray]:
    """Each tag's 4x4 inner cells as printed (+1 white, -1 black), centred and scaled for a correlation."""
    out = {}
    for i in MARKER_IDS:
        cells = cv2.resize(drawn(i, 60), (6, 6), interpolation=cv2.INTER_AREA)[1:5, 1:5]
        bits = np.where(cells > 127, 1.0, -1.0)
        out[i] = (bits - bits.mean()) / bits.std()
    return out


_PATTERNS: dict[int, np.ndarray] = {}


def _cells(grey: np.ndarray, quad: np.ndarray, per_cell: int = 8) -> np.ndarray:
    """The 6x6 cells of a square seen at ``quad`` (its corners in order), each the mean of its middle."""
    side = 6 * per_cell
    to_cells = cv2.getPerspectiveTransform(quad.astype(np.float32),
                                           np.float32([(0, 0), (side, 0), (side, side), (0, side)]))
    flat = cv2.warpPerspective(grey, to_cells, (side, side), flags=cv2.INTER_LINEAR).astype(np.float32)
    q = per_cell // 4
    return flat.reshape(6, per_cell, 6, per_cell)[:, q:per_cell - q, :, q:per_cell - q].mean(axis=(1, 3))


def shows(grey: np.ndarray, quad: np.ndarray, marker_id: int) -> float:
    """How plainly the square at ``quad`` (its corners in ArUco's order) shows tag ``marker_id``: its inner
    cells correlated with the tag's (-1..1; a blurred tag still shows its pattern where no cell can be read)."""
    if not _PATTERNS:
        _PATTERNS.update(_patterns())
    return float((_standard(_cells(grey, np.asarray(quad, np.float32))[1:5, 1:5]) * _PATTERNS[marker_id]).mean())


def _standard(inner: np.ndarray) -> np.ndarray:
    """A tag's inner cells made zero-mean and of unit spread, to be correlated with a pattern."""
    return (inner - inner.mean()) / (inner.std() + 1e-6)


def _soft(grey: np.ndarray, squares: list) -> dict[int, np.ndarray]:
    """The board's tags among squares OpenCV could not decode, read softly: each square's inner cells correlated
    with each tag's, the square's corners taken in each of the four orders (a tag turned). A square is a tag when
    its dark frame holds cells of plain contrast that match one tag, turned one way, by :data:`SOFT`, and nothing
    else comes within :data:`SOFT_MARGIN`; its corners are then refined on the photo, in ArUco's order.
    A soft photo (a webcam's blur, a hand moving) reads this way where the hard reading of each cell fails."""
    if not _PATTERNS:
        _PATTERNS.update(_patterns())
    pairs = []
    for quad in squares:
        side = float(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1).min())
        if side < 12:  # 2 pixels a cell: nothing to read
            continue
        scores = []
        for turn in range(4):
            corners = np.roll(quad, -turn, axis=0)
            cells = _cells(grey, corners)
            inner, frame = cells[1:5, 1:5], np.concatenate([cells[0], cells[5], cells[1:5, 0], cells[1:5, 5]])
            low, high = float(inner.min()), float(inner.max())
            if high - low < 0.3 * high or float(frame.mean()) > (low + high) / 2:
                break  # no contrast inside, or no dark frame round it: not a tag, whichever way it is turned
            z = _standard(inner)
            scores += [(float((z * p).mean()), i, turn) for i, p in _PATTERNS.items()]
        if not scores:
            continue
        scores.sort(reverse=True)
        (best, i, turn), runner_up = scores[0], scores[1][0]
        if best >= SOFT and best - runner_up >= SOFT_MARGIN:
            corners = np.roll(quad, -turn, axis=0).astype(np.float32).reshape(-1, 1, 2)
            window = max(2, int(side / 12))
            cv2.cornerSubPix(grey, corners, (window, window), (-1, -1),
                             (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.05))
            pairs.append((i, corners.reshape(4, 2).astype(np.float64)))
    return _once(pairs)


@dataclass(frozen=True)
class Anchors:
    """Where each corner of each marker lies on the board's plane (mm), as recorded from the empty board."""

    corners: dict  # id -> 4x2 array (mm)

    def to_json(self) -> dict:
        return {str(i): np.round(c, 3).tolist() for i, c in sorted(self.corners.items())}

    @classmethod
    def from_json(cls, raw) -> Anchors:
        try:
            corners = {int(i): np.asarray(c, dtype=np.float64).reshape(4, 2) for i, c in raw.items()}
        except (AttributeError, TypeError, ValueError) as err:
            raise ValueError(f"not the markers' places: {err}") from None
        if sorted(corners) != list(MARKER_IDS) or not all(np.isfinite(c).all() for c in corners.values()):
            raise ValueError("not the markers' places: four markers are needed")
        return cls(corners)


def nominal(centres, size: float) -> dict[int, np.ndarray]:
    """Each marker's corners on the plane as the layout puts them (centred on ``centres``, ``size`` mm, upright:
    ArUco's order, y up the board), for looking for a marker a photo missed."""
    half = size / 2
    square = np.array([(-half, half), (half, half), (half, -half), (-half, -half)], np.float64)
    return {i: np.asarray(c, np.float64) + square for i, c in zip(MARKER_IDS, centres)}


def anchors(found: dict[int, np.ndarray], centres) -> Anchors:
    """The markers as stuck on: their centres are the layout's (``centres``, marker by marker), which fixes the
    plane; every corner is then placed on it through the map those four centres give."""
    missing = [i for i in MARKER_IDS if i not in found]
    if missing:
        raise MarkersError(f"marker{'s' if len(missing) > 1 else ''} {', '.join(map(str, missing))} not seen: "
                           "all four must be in the picture to set the camera up")
    seen = np.array([found[i].mean(axis=0) for i in MARKER_IDS], dtype=np.float64)
    to_plane = cv2.getPerspectiveTransform(seen.astype(np.float32), np.asarray(centres, dtype=np.float32))
    return Anchors({i: _apply(to_plane, found[i]) for i in MARKER_IDS})


def plane_map(found: dict[int, np.ndarray], kept: Anchors) -> np.ndarray:
    """The homography from the photo to the board's plane (3x3), fitted to every corner of the markers seen.

    MarkersError when fewer than :data:`ENOUGH` markers are seen, or when they disagree with where they
    were recorded (the board was bumped off its markers, or a marker came loose)."""
    ids = [i for i in MARKER_IDS if i in found]
    if len(ids) < ENOUGH:
        missing = ", ".join(str(i) for i in MARKER_IDS if i not in found)
        raise MarkersError(f"markers {missing} not seen: is something over the board's corners?")
    photo = np.concatenate([found[i] for i in ids])
    plane = np.concatenate([kept.corners[i] for i in ids])
    h, _ = cv2.findHomography(photo, plane, 0)
    if h is None:
        raise MarkersError("the markers do not make a flat board")
    error = np.linalg.norm(_apply(h, photo) - plane, axis=1).max()
    if error > MAX_ERROR_MM:
        raise MarkersError(f"a marker moved {error:.0f} mm from where it was set up: set the camera up again")
    return h


def _apply(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Points (Nx2) through homography ``h``."""
    p = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(p, h).reshape(-1, 2)


apply = _apply
