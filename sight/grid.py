"""The spaces found on the empty board's photo: a standard layout fitted to where the board really has them.

Every edition draws its 83 spaces alike, so the fit looks for the placement of
the layout (its middle and its two pitches) under which the spaces' patches
of the picture look most alike: the mean of the 83 patches, each made
zero-mean and of unit size, is longest there. For one pitch, that mean for
every placement at once is a sum of shifted copies of the picture and a box
filter (no loop over placements), so the search covers the whole board in a
few seconds. Each column is then nudged on its own (a lens bends straight
lines a little), keeping its spaces evenly spaced.
"""

from __future__ import annotations

import cv2
import numpy as np

from .layout import Column, Layout, centred
from .raster import Raster

#: The pitches tried, as fractions of the layout's own (boards differ in size; the markers sit anywhere near
#: their corners).
PITCH_RANGE = (0.72, 1.3)
PITCH_STEPS = 24
#: How far a column may be nudged on its own (fractions of its pitch).
NUDGE = 0.3


def _normalised(grey: np.ndarray, window: tuple[int, int]) -> np.ndarray:
    """The picture made zero-mean and of unit spread over every window of that size (a local contrast)."""
    g = grey.astype(np.float32)
    mean = cv2.boxFilter(g, -1, window)
    square = cv2.boxFilter(g * g, -1, window)
    spread = np.sqrt(np.maximum(square - mean * mean, 1.0))
    return (g - mean) / spread


def _placement_scores(norm: np.ndarray, offsets: np.ndarray, window: tuple[int, int]) -> np.ndarray:
    """For every pixel taken as the layout's middle: how alike the spaces' windows are there."""
    h, w = norm.shape
    total = np.zeros_like(norm)
    for dx, dy in np.round(offsets).astype(int):
        # total[y, x] += norm[y + dy, x + dx] where both are inside
        xs, xd = (0, dx) if dx >= 0 else (-dx, 0)
        ys, yd = (0, dy) if dy >= 0 else (-dy, 0)
        total[ys:h - yd if yd else h, xs:w - xd if xd else w] += norm[yd:h - ys if ys else h, xd:w - xs if xs else w]
    total /= len(offsets)
    return cv2.boxFilter(total * total, -1, window, normalize=True)


def fit(straight: np.ndarray, raster: Raster, heights: dict[int, int], like: Layout) -> tuple[Layout, float]:
    """The layout ``like`` (a centred one) placed where the empty board's spaces are; its score (0..1: how alike
    the spaces look, above about 0.2 when found)."""
    grey = cv2.cvtColor(straight, cv2.COLOR_BGR2GRAY) if straight.ndim == 3 else straight
    small = 2  # search at half the raster's resolution, then refine at full
    grey_small = cv2.resize(grey, (grey.shape[1] // small, grey.shape[0] // small), interpolation=cv2.INTER_AREA)
    base_dx = abs(like.columns[1].bottom[0] - like.columns[0].bottom[0]) if len(like.columns) > 1 else 24.0
    base_dy = like.columns[0].pitch() if like.columns[0].height > 1 else 20.0
    best = (-1.0, None)
    for fx in np.linspace(*PITCH_RANGE, PITCH_STEPS):
        for fy in np.linspace(*PITCH_RANGE, PITCH_STEPS):
            dx, dy = base_dx * fx, base_dy * fy
            trial = centred(heights, (dx, dy))
            window = (max(3, int(dx * raster.scale / small) | 1), max(3, int(dy * raster.scale / small) | 1))
            offsets = np.array([(x * raster.scale / small, -y * raster.scale / small) for _, _, (x, y) in trial.spaces()])
            norm = _normalised(grey_small, window)
            scores = _placement_scores(norm, offsets, window)
            margin = np.abs(offsets).max(axis=0).astype(int) + 1
            inner = scores[margin[1]:-margin[1] or None, margin[0]:-margin[0] or None]
            if inner.size == 0:
                continue
            y, x = np.unravel_index(int(np.argmax(inner)), inner.shape)
            if inner[y, x] > best[0]:
                middle = raster.mm([((x + margin[0]) * small, (y + margin[1]) * small)])[0]
                best = (float(inner[y, x]), (dx, dy, middle))
    if best[1] is None:
        return like, 0.0
    dx, dy, middle = best[1]
    placed = centred(heights, (dx, dy), (float(middle[0]), float(middle[1])), like.markers)
    placed = Layout(placed.columns, placed.space, like.markers, like.marker_mm)
    return nudge(grey, raster, placed)


def _patches(grey: np.ndarray, raster: Raster, centres_mm: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The unit, zero-mean patch of ``size`` px around each centre (N x h x w)."""
    out = []
    for x, y in raster.px(centres_mm):
        p = cv2.getRectSubPix(grey, size, (float(x), float(y))).astype(np.float32)
        p -= p.mean()
        out.append(p / max(1e-3, float(np.linalg.norm(p))))
    return np.array(out)


def nudge(grey: np.ndarray, raster: Raster, layout: Layout) -> tuple[Layout, float]:
    """Each column moved (and its pitch stretched) a little to where its spaces best match the board's mean space."""
    grey = grey.astype(np.float32)
    dx = layout.space[0] / 0.8
    dy = layout.columns[0].pitch()
    size = (max(5, int(dx * raster.scale) | 1), max(5, int(dy * raster.scale) | 1))
    centres = np.array([p for _, _, p in layout.spaces()])
    mean = _patches(grey, raster, centres, size).mean(axis=0)
    mean /= max(1e-6, float(np.linalg.norm(mean)))
    columns = []
    total = 0.0
    steps = np.linspace(-NUDGE, NUDGE, 13)
    for col in layout.columns:
        best = (-2.0, col)
        for sx in steps * dx:
            for sy in steps * dy:
                for stretch in (0.97, 1.0, 1.03):
                    mid = ((col.bottom[0] + col.top[0]) / 2 + sx, (col.bottom[1] + col.top[1]) / 2 + sy)
                    half = ((col.top[0] - col.bottom[0]) / 2 * stretch, (col.top[1] - col.bottom[1]) / 2 * stretch)
                    trial = Column(col.total, col.height, (mid[0] - half[0], mid[1] - half[1]),
                                   (mid[0] + half[0], mid[1] + half[1]))
                    pts = np.array([trial.at(k) for k in range(1, col.height + 1)])
                    score = float((_patches(grey, raster, pts, size) * mean).sum(axis=(1, 2)).mean())
                    if score > best[0]:
                        best = (score, trial)
        columns.append(best[1])
        total += best[0] * col.height
    return Layout(tuple(columns), layout.space, layout.markers, layout.marker_mm), total / len(centres)
