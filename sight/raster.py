"""The board's plane as a picture: a photo straightened onto it, and the light read off the printed markers.

Every photo is mapped onto the same grid of pixels over the plane (a
:class:`Raster`, :data:`SCALE` pixels to the millimetre), so the empty board's
photo and a later one compare pixel by pixel. The markers' white paper and
black squares are the table's own white and black in each photo: colours are
read against them (:func:`light`), so a warm lamp or a dim corner is no
colour of a piece.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

#: Pixels to the millimetre on the plane: about what a 720p webcam gives over a 30 cm board, no more.
SCALE = 1.5
#: Around each marker's black square, its paper (fractions of the square's half side): the white read there.
PAPER = (1.15, 1.4)
#: The black border of the square itself (the ArUco border cells, black on every marker).
INK = (0.72, 0.92)


@dataclass(frozen=True)
class Raster:
    """A grid of pixels over the plane: ``origin`` (mm) is its top-left corner, y up the board, ``size`` in px."""

    origin: tuple[float, float]
    size: tuple[int, int]
    scale: float = SCALE

    @classmethod
    def around(cls, markers, marker_mm: float, scale: float = SCALE) -> Raster:
        """The raster covering the four markers and their paper, where the whole board lies."""
        m = np.asarray(markers, dtype=np.float64)
        reach = marker_mm / 2 * PAPER[1] + 2.0
        left, right = m[:, 0].min() - reach, m[:, 0].max() + reach
        bottom, top = m[:, 1].min() - reach, m[:, 1].max() + reach
        return cls((float(left), float(top)), (int(np.ceil((right - left) * scale)), int(np.ceil((top - bottom) * scale))),
                   scale)

    def matrix(self) -> np.ndarray:
        """The plane (mm) to raster (px) map, as a homography."""
        s = self.scale
        return np.array([[s, 0, -self.origin[0] * s], [0, -s, self.origin[1] * s], [0, 0, 1]], dtype=np.float64)

    def px(self, points) -> np.ndarray:
        """Plane points (Nx2, mm) as raster pixels (Nx2)."""
        p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        return np.column_stack([(p[:, 0] - self.origin[0]) * self.scale, (self.origin[1] - p[:, 1]) * self.scale])

    def mm(self, pixels) -> np.ndarray:
        """Raster pixels (Nx2) as plane points (Nx2, mm)."""
        q = np.asarray(pixels, dtype=np.float64).reshape(-1, 2)
        return np.column_stack([q[:, 0] / self.scale + self.origin[0], self.origin[1] - q[:, 1] / self.scale])

    def straighten(self, photo: np.ndarray, to_plane: np.ndarray) -> np.ndarray:
        """``photo`` mapped onto this raster through its photo-to-plane homography (outside the photo: black)."""
        return cv2.warpPerspective(photo, self.matrix() @ to_plane, self.size, flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_CONSTANT, borderValue=0)

    def seen(self, photo_size: tuple[int, int], to_plane: np.ndarray) -> np.ndarray:
        """Which raster pixels the photo covers (bool mask): a camera may not see the board's far corner."""
        w, h = photo_size
        ones = np.full((h, w), 255, np.uint8)
        mask = cv2.warpPerspective(ones, self.matrix() @ to_plane, self.size, flags=cv2.INTER_NEAREST,
                                   borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        return mask > 0


def _ring(raster: Raster, corners_mm: np.ndarray, inner: float, outer: float) -> np.ndarray:
    """The raster's pixels between a marker's square scaled by ``inner`` and by ``outer`` (about its centre)."""
    centre = corners_mm.mean(axis=0)
    mask = np.zeros((raster.size[1], raster.size[0]), np.uint8)
    for factor, value in ((outer, 1), (inner, 0)):
        poly = raster.px(centre + (corners_mm - centre) * factor)
        cv2.fillConvexPoly(mask, np.round(poly * 4).astype(np.int32), value, lineType=cv2.LINE_8, shift=2)
    return mask.astype(bool)


@dataclass(frozen=True)
class Light:
    """The table's white and black at each marker seen (id -> BGR, 0..255), from one photo."""

    white: dict
    black: dict

    def field(self, raster: Raster, centres: dict) -> np.ndarray:
        """The white over the whole raster (HxWx3 float32), spread from the markers seen: bilinear across four,
        a tilted plane across three, flat from fewer."""
        return _spread(raster, centres, self.white)


def light(straight: np.ndarray, raster: Raster, anchors) -> Light:
    """The white of each marker's paper and the black of its square, as ``straight`` (a raster image) shows them.

    A marker hidden (a hand), glared or off the picture is left out: its paper is not the brightest, evenly lit
    thing around it."""
    white, black = {}, {}
    for i, corners in anchors.corners.items():
        paper = straight[_ring(raster, corners, *PAPER)].astype(np.float32)
        ink = straight[_ring(raster, corners, *INK)].astype(np.float32)
        if len(paper) < 20 or len(ink) < 20:
            continue
        w = np.median(paper, axis=0)
        k = np.median(ink, axis=0)
        spread = np.percentile(paper.mean(axis=1), 90) - np.percentile(paper.mean(axis=1), 10)
        if w.min() < 40 or (w - k).min() < 30 or spread > 0.35 * w.mean():
            continue  # not paper lit by the table's light: covered, in shadow, or glared over in patches
        white[i], black[i] = w, k
    return Light(white, black)


def _spread(raster: Raster, centres: dict, values: dict) -> np.ndarray:
    w, h = raster.size
    ids = [i for i in values if i in centres]
    if not ids:
        return np.full((h, w, 3), np.nan, np.float32)
    if len(ids) < 3:
        return np.broadcast_to(np.mean([values[i] for i in ids], axis=0).astype(np.float32), (h, w, 3)).copy()
    pts = raster.px(np.array([centres[i] for i in ids]))
    vals = np.array([values[i] for i in ids], dtype=np.float64)
    xs, ys = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
    if len(ids) == 3:
        design = np.column_stack([np.ones(3), pts])
        coef = np.linalg.solve(design, vals)
        out = coef[0] + xs[..., None] * coef[1] + ys[..., None] * coef[2]
    else:
        design = np.column_stack([np.ones(len(ids)), pts, pts[:, 0] * pts[:, 1]])
        coef, *_ = np.linalg.lstsq(design, vals, rcond=None)
        out = coef[0] + xs[..., None] * coef[1] + ys[..., None] * coef[2] + (xs * ys)[..., None] * coef[3]
    return out.astype(np.float32)
