"""The spaces found on the empty board's photo: a standard layout fitted to where the board really has them.

Every edition draws its 83 spaces alike, so the fit looks for the placement of
the layout (its middle and its two pitches) under which the spaces' patches
of the picture look most alike: the mean of the 83 patches, each made
zero-mean and of unit size, is longest there. For one pitch, that mean for
every placement at once is a sum of shifted copies of the picture and a box
filter (no loop over placements), so the search covers the whole board in a
few seconds. Alike as they are, patches a third of a pitch off the spaces'
middles are nearly as alike, so the placement is then slid to where the
board's mean look is symmetric (a space is drawn symmetric), and told from one
on the gaps between spaces (symmetric too) by the columns' ends. Each space is
then found near its place by the board's mean space (a lens bends straight
lines a little) and each column fitted as a straight, evenly spaced line
through its spaces.
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
#: The coarse search's pitches (fractions), and how far the fine search around each reaches (half a coarse step):
#: the pitches a fit can end on, which :func:`believable` holds a fitted layout to.
COARSE = np.linspace(*PITCH_RANGE, PITCH_STEPS // 3)
FINE_REACH = float(COARSE[1] - COARSE[0]) / 2
#: How far a space may be moved on its own (fractions of its pitch).
NUDGE = 0.3
#: How far the spaces' common centre is looked for around where the fit put them (fractions of a pitch).
SYMMETRY_REACH = 0.3
#: ... preferring the nearer of two points about as symmetric by this much of an asymmetry at the reach's end.
NEARER = 0.1


def _normalised(grey: np.ndarray, window: tuple[int, int]) -> np.ndarray:
    """The picture made zero-mean and of unit spread over every window of that size (a local contrast)."""
    g = grey.astype(np.float32)
    mean = cv2.boxFilter(g, -1, window)
    square = cv2.boxFilter(g * g, -1, window)
    spread = np.sqrt(np.maximum(square - mean * mean, 1.0))
    return (g - mean) / spread


def _placement_scores(norm: np.ndarray, offsets: np.ndarray, window: tuple[int, int]) -> np.ndarray:
    """For every pixel taken as the layout's middle: how alike the spaces' windows are there.

    That is the sum over the spaces of the picture shifted by each space's offset. A column's spaces share
    their x, and the columns' steps nest (a short column's steps are the middle ones of a tall one's), so the
    picture is summed down each set of steps once, building each set on the largest one inside it (13 shifts
    for the 83 spaces), and each column's sum shifted across (11 more).
    """
    h, w = norm.shape
    steps_of: dict[int, list[int]] = {}
    for dx, dy in np.round(offsets).astype(int):
        steps_of.setdefault(int(dx), []).append(int(dy))
    down: dict[frozenset, np.ndarray] = {}
    for steps in sorted({frozenset(dys) for dys in steps_of.values()}, key=len):
        inside = max((done for done in down if done < steps), key=len, default=frozenset())
        column = down[inside].copy() if inside else np.zeros_like(norm)
        for dy in sorted(steps - inside):
            _add_shifted(column, norm, 0, dy)
        down[steps] = column
    total = np.zeros_like(norm)
    for dx, dys in steps_of.items():
        if len(set(dys)) != len(dys):  # a step twice in a column (no layout has one): it counts twice
            for dy in dys:
                _add_shifted(total, norm, dx, dy)
        else:
            _add_shifted(total, down[frozenset(dys)], dx, 0)
    total /= len(offsets)
    return cv2.boxFilter(total * total, -1, window, normalize=True)


def _add_shifted(total: np.ndarray, picture: np.ndarray, dx: int, dy: int) -> None:
    """total[y, x] += picture[y + dy, x + dx] where both are inside (nothing from outside the picture)."""
    h, w = picture.shape
    xs, xd = (0, dx) if dx >= 0 else (-dx, 0)
    ys, yd = (0, dy) if dy >= 0 else (-dy, 0)
    total[ys:h - yd if yd else h, xs:w - xd if xd else w] += picture[yd:h - ys if ys else h, xd:w - xs if xs else w]


def _search(grey_small: np.ndarray, raster: Raster, heights, pitches, small: int, keep: int = 1) -> list:
    """The ``keep`` best placements over ``pitches`` (a list of (dx, dy) mm), best first: (score, (dx, dy, middle))."""
    found = []
    for dx, dy in pitches:
        trial = centred(heights, (dx, dy))
        window = (max(3, int(dx * raster.scale / small) | 1), max(3, int(dy * raster.scale / small) | 1))
        offsets = np.array([(x * raster.scale / small, -y * raster.scale / small) for _, _, (x, y) in trial.spaces()])
        scores = _placement_scores(_normalised(grey_small, window), offsets, window)
        margin = np.abs(offsets).max(axis=0).astype(int) + 1
        inner = scores[margin[1]:-margin[1] or None, margin[0]:-margin[0] or None]
        if inner.size == 0:
            continue
        y, x = np.unravel_index(int(np.argmax(inner)), inner.shape)
        middle = raster.mm([((x + margin[0]) * small, (y + margin[1]) * small)])[0]
        found.append((float(inner[y, x]), (dx, dy, middle)))
    found.sort(key=lambda f: -f[0])
    return found[:keep]


def fit(straight: np.ndarray, raster: Raster, heights: dict[int, int], like: Layout) -> tuple[Layout, float]:
    """The layout ``like`` (a centred one) placed where the empty board's spaces are; its score (0..1: how alike
    the spaces look, above about 0.2 when found). A caller believes it only when :func:`believable` does too."""
    grey = cv2.cvtColor(straight, cv2.COLOR_BGR2GRAY) if straight.ndim == 3 else straight
    small = 2  # search at half the raster's resolution, then refine at full
    grey_small = cv2.resize(grey, (grey.shape[1] // small, grey.shape[0] // small), interpolation=cv2.INTER_AREA)
    base_dx, base_dy = _base(like)
    fine = np.linspace(-FINE_REACH, FINE_REACH, 5)
    candidates = []
    # the few best pitches of a coarse search, each searched finely: a board's decorations can make a wrong
    # pitch look best at first
    for _, (dx, dy, _) in _search(grey_small, raster, heights,
                                  [(base_dx * fx, base_dy * fy) for fx in COARSE for fy in COARSE], small, keep=3):
        for _, (dx, dy, middle) in _search(grey_small, raster, heights,
                                           [(dx + base_dx * a, dy + base_dy * b) for a in fine for b in fine], small):
            # a grid a space (or half of one) off along or across its columns fits the spaces' rhythm almost as
            # well: the windows that fall off the columns' ends tell, so each neighbour placement is weighed by
            # how alike all its windows are, the worst ones counting
            shifts = (-1.0, -0.5, 0.0, 0.5, 1.0)
            candidates += [centred(heights, (dx, dy), (float(middle[0] + a * dx), float(middle[1] + b * dy)),
                                   like.markers) for a in shifts for b in shifts]
    if not candidates:
        return like, 0.0
    placed = max(candidates, key=lambda lay: _alike(grey, raster, lay))
    placed = Layout(placed.columns, placed.space, like.markers, like.marker_mm)
    # a grid half a pitch off lies on the gaps between the spaces, as symmetric as the spaces: each of the
    # placement's half-pitch neighbours is centred on its nearest symmetric point, and the one whose windows are
    # most alike (the columns' ends tell: a grid on the gaps has them half off the board) is kept
    dx, dy = _pitch(placed)
    grey32 = grey.astype(np.float32)
    placed = max((_centred(grey32, raster, placed.moved(a * dx, b * dy)) for a in (-0.5, 0.0, 0.5)
                  for b in (-0.5, 0.0, 0.5)), key=lambda lay: _alike(grey, raster, lay))
    return refine(grey, raster, refine(grey, raster, placed)[0])


def _base(like: Layout) -> tuple[float, float]:
    """The pitches (mm) of the layout a fit starts from: across the columns, and up one."""
    dx = abs(like.columns[1].bottom[0] - like.columns[0].bottom[0]) if len(like.columns) > 1 else 24.0
    return dx, like.columns[0].pitch() if like.columns[0].height > 1 else 20.0


def believable(layout: Layout, like: Layout) -> bool:
    """Whether every column of a layout fitted from ``like`` is spaced as some board's are: its pitch up the
    column, and the columns' spacing, within :data:`PITCH_RANGE` of ``like``'s (and the fine search's reach past
    it, half a coarse step).

    A board's look can draw the fit off its spaces and still score well: on a board whose columns sit in
    coloured lanes, every window inside a lane looks alike, and a grid squeezed to 0.6 of the pitch, all of it
    inside the lanes, scored 0.94 while its top spaces lay two pitches below the board's (make camera-bench,
    board 50). No edition is spaced so: such a fit found no spaces, and the board's columns are marked by hand."""
    base_dx, base_dy = _base(like)
    low, high = PITCH_RANGE[0] - FINE_REACH, PITCH_RANGE[1] + FINE_REACH
    ups = [c.pitch() / base_dy for c in layout.columns if c.height > 1]
    xs = [c.bottom[0] for c in layout.columns]
    across = [abs(b - a) / base_dx for a, b in zip(xs, xs[1:])]
    return all(low <= r <= high for r in ups + across)


def _centred(grey: np.ndarray, raster: Raster, layout: Layout) -> Layout:
    """``layout`` slid so that its spaces' common centre is where the board's spaces (``grey``, float32) are
    symmetric."""
    dx, dy = _pitch(layout)
    centres = _centres_px(raster, layout)
    moved = raster.mm(centres + _symmetric(grey, centres, (dx * raster.scale, dy * raster.scale)))
    shift = (moved - raster.mm(centres)).mean(axis=0)
    return layout.moved(float(shift[0]), float(shift[1]))


def _pitch(layout: Layout) -> tuple[float, float]:
    """A layout's pitches (mm): across the columns (a space is 0.8 of it, as :func:`centred` draws), and up one."""
    return layout.space[0] / 0.8, layout.columns[0].pitch()


def _alike(grey: np.ndarray, raster: Raster, layout: Layout) -> float:
    """How alike a layout's windows are to their mean: the mean likeness and that of the worst tenth."""
    dx, dy = _pitch(layout)
    size = (max(5, int(dx * raster.scale) | 1), max(5, int(dy * raster.scale) | 1))
    inside = _patches(grey, raster, np.array([p for _, _, p in layout.spaces()]), size)
    mean = inside.mean(axis=0)
    mean /= max(1e-6, float(np.linalg.norm(mean)))
    alike = (inside * mean).sum(axis=(1, 2))
    return float(alike.mean() + np.percentile(alike, 10))


def _patches(grey: np.ndarray, raster: Raster, centres_mm: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The unit, zero-mean patch of ``size`` px around each centre (N x h x w)."""
    g = grey.astype(np.float32)
    out = []
    for x, y in raster.px(centres_mm):
        p = cv2.getRectSubPix(g, size, (float(x), float(y)))
        p -= p.mean()
        out.append(p / max(1e-3, float(np.linalg.norm(p))))
    return np.array(out)


def _centres_px(raster: Raster, layout: Layout) -> np.ndarray:
    return raster.px(np.array([p for _, _, p in layout.spaces()]))


def refine(grey: np.ndarray, raster: Raster, layout: Layout) -> tuple[Layout, float]:
    """Each space moved to where the board's mean space matches best near it (a lens bends straight lines a
    little), then each column fitted as a straight, evenly spaced line through its spaces."""
    grey = grey.astype(np.float32)
    dx, dy = _pitch(layout)
    tw, th = max(5, int(dx * raster.scale) | 1), max(5, int(dy * raster.scale) | 1)
    reach_x, reach_y = int(NUDGE * dx * raster.scale) + 1, int(NUDGE * dy * raster.scale) + 1
    centres = _centres_px(raster, layout)
    centres = centres + _symmetric(grey, centres, (dx * raster.scale, dy * raster.scale))
    mean = np.mean([cv2.getRectSubPix(grey, (tw, th), (float(x), float(y))) for x, y in centres],
                   axis=0).astype(np.float32)
    found = []
    scores = []
    for (x, y) in centres:
        region = cv2.getRectSubPix(grey, (tw + 2 * reach_x, th + 2 * reach_y), (float(x), float(y)))
        heat = cv2.matchTemplate(region, mean, cv2.TM_CCOEFF_NORMED)
        _, peak, _, (px, py) = cv2.minMaxLoc(heat)
        # a parabola through the peak and its neighbours: the match to a fraction of a pixel
        fx = _vertex(heat, px, py, axis=1)
        fy = _vertex(heat, px, py, axis=0)
        found.append((x + px + fx - reach_x, y + py + fy - reach_y))
        scores.append(peak)
    found_mm = raster.mm(np.array(found))
    columns = []
    n = 0
    for col in layout.columns:
        steps = np.arange(1, col.height + 1, dtype=np.float64)
        pts = found_mm[n:n + col.height]
        weights = np.clip(np.array(scores[n:n + col.height]), 0.05, 1.0)
        n += col.height
        design = np.column_stack([np.ones_like(steps), steps])
        w = np.sqrt(weights)[:, None]
        coef_x, *_ = np.linalg.lstsq(design * w, pts[:, 0:1] * w, rcond=None)
        coef_y, *_ = np.linalg.lstsq(design * w, pts[:, 1:2] * w, rcond=None)
        at = lambda k: (float(coef_x[0, 0] + coef_x[1, 0] * k), float(coef_y[0, 0] + coef_y[1, 0] * k))
        columns.append(Column(col.total, col.height, at(1), at(col.height)))
    return Layout(tuple(columns), layout.space, layout.markers, layout.marker_mm), float(np.mean(scores))


def _symmetric(grey: np.ndarray, centres: np.ndarray, pitch: tuple[float, float]) -> np.ndarray:
    """How far (px) the spaces' common centre lies from ``centres``: a space is drawn symmetric (a circle, a
    square, a hole), so the board's mean look around the centres, two pitches wide, is searched within
    :data:`SYMMETRY_REACH` of a pitch for the point about which a space-sized window of it is most nearly the
    same turned half round (the nearer of two alike: :data:`NEARER`). Further off lies the gap between two
    spaces, symmetric too: :func:`fit` tells a space from a gap."""
    big = (int(2 * pitch[0]) | 1, int(2 * pitch[1]) | 1)
    window = (max(5, int(0.9 * pitch[0]) | 1), max(5, int(0.9 * pitch[1]) | 1))
    mean = np.mean([cv2.getRectSubPix(grey, big, (float(x), float(y))) for x, y in centres], axis=0)
    mean = mean.astype(np.float32)
    cy, cx = (big[1] - 1) / 2, (big[0] - 1) / 2
    reach_x, reach_y = int(SYMMETRY_REACH * pitch[0]), int(SYMMETRY_REACH * pitch[1])
    asymmetry = np.full((2 * reach_y + 1, 2 * reach_x + 1), np.inf, np.float32)
    for oy in range(-reach_y, reach_y + 1):
        for ox in range(-reach_x, reach_x + 1):
            part = cv2.getRectSubPix(mean, window, (cx + ox, cy + oy))
            part = part - part.mean()
            spread = float((part * part).sum())
            if spread > 1e-6:  # of two points as symmetric (a space's middle, a gap's), the nearer
                near = NEARER * ((ox / max(1, reach_x)) ** 2 + (oy / max(1, reach_y)) ** 2)
                asymmetry[oy + reach_y, ox + reach_x] = float(((part - part[::-1, ::-1]) ** 2).sum()) / spread + near
    if not np.isfinite(asymmetry).any():
        return np.zeros(2)
    py, px = np.unravel_index(int(np.argmin(asymmetry)), asymmetry.shape)
    fx = _vertex(-asymmetry, px, py, axis=1) if np.isfinite(asymmetry[py, max(0, px - 1):px + 2]).all() else 0.0
    fy = _vertex(-asymmetry, px, py, axis=0) if np.isfinite(asymmetry[max(0, py - 1):py + 2, px]).all() else 0.0
    return np.array([px - reach_x + fx, py - reach_y + fy])


def _vertex(heat: np.ndarray, px: int, py: int, axis: int) -> float:
    """The sub-pixel offset of a peak along one axis (0 at the edge of the map)."""
    if axis == 1:
        if not 0 < px < heat.shape[1] - 1:
            return 0.0
        a, b, c = heat[py, px - 1], heat[py, px], heat[py, px + 1]
    else:
        if not 0 < py < heat.shape[0] - 1:
            return 0.0
        a, b, c = heat[py - 1, px], heat[py, px], heat[py + 1, px]
    denominator = a - 2 * b + c
    return float(np.clip(0.5 * (a - c) / denominator, -0.5, 0.5)) if denominator < 0 else 0.0
