"""Each pixel of a straightened photo judged: the board as it was, a shade, a kind of piece, or something else.

A pixel whose whole colour matches the empty board near it, within the
photo's own noise, is the board (:data:`BOARD`). A changed pixel that is only
darker, its colour kept, is a shade (:data:`SHADE`: a piece's shadow, or a
dark piece on a board of its own colour; it neither proves nor disproves a
piece). Glare, its halo, and what the camera does not see are
:data:`UNKNOWN`. Any other changed pixel is the nearest kind of the palette
(:data:`KIND0` + k), or :data:`FOREIGN` when none is near (a hand, a cup).
The palette first learns the table's pieces where the game puts them.

Where a piece would be seen is its *body* (:class:`Bodies`): its space's
square, swept along its lean away from the camera, as a standing piece
shows itself from above at a slant.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .palette import REACH, Palette
from .photometry import light_fix, nearest_change, noise

BOARD, UNKNOWN, FOREIGN, SHADE = 0, 1, 2, 3
KIND0 = 4  # kind k of the palette is KIND0 + k


@dataclass(frozen=True)
class Bodies:
    """For each space of the layout, in its order: where a piece standing there is seen (raster pixels)."""

    foot: np.ndarray  # (N, 2) px: the space's centre
    top: np.ndarray  # (N, 2) px: where a piece's top is seen
    pixels: tuple  # per space: flat indices into the raster of its body
    area: np.ndarray  # per space: about how many pixels one piece there covers
    _width: int = 0  # the raster's width (flat index = y * width + x)
    feet: tuple = ()  # per space: flat indices of its square alone (where a piece's foot stands)
    prints: tuple = ()  # per space: flat indices of a piece's footprint, the disc in its square's middle

    @property
    def piece_area(self) -> float:
        """About how many pixels one piece covers on this board: the median of ``area`` (the yardstick for a
        blob's size, a piece's width and thickness, and something far bigger than a piece)."""
        return float(np.median(self.area))

    def mask(self, spaces, shape) -> np.ndarray:
        """The bodies of ``spaces`` (their indices) as one mask."""
        out = np.zeros(shape[0] * shape[1], bool)
        for n in spaces:
            out[self.pixels[n]] = True
        return out.reshape(shape)

    def cover(self, spaces, size: int) -> np.ndarray:
        """How many of the bodies of ``spaces`` hold each pixel (flat, ``size`` pixels)."""
        out = np.zeros(size, np.uint8)
        for n in spaces:
            out[self.pixels[n]] += 1
        return out

    def standing(self, size: int) -> np.ndarray:
        """Each pixel's space whose square holds it, where a piece's foot stands (-1 for none; flat): the squares
        lie apart, so a pixel is in one at most."""
        out = np.full(size, -1, np.int32)
        for n, idx in enumerate(self.feet):
            out[idx] = n
        return out

    def owners(self, size: int) -> np.ndarray:
        """Each pixel's space: of the bodies that hold it, the one whose foot is nearest (-1 for none; flat)."""
        owner = np.full(size, -1, np.int32)
        near = np.full(size, np.inf, np.float32)
        width = None
        for n, idx in enumerate(self.pixels):
            if width is None:
                width = self._width
            ys, xs = np.divmod(idx, width)
            d = (xs - self.foot[n][0]) ** 2 + (ys - self.foot[n][1]) ** 2
            closer = d < near[idx]
            owner[idx[closer]] = n
            near[idx[closer]] = d[closer]
        return owner


def bodies(layout, raster, camera, tall: float, shape) -> Bodies:
    """Each space's body: its square (a little inside its cell) and the same square where the top of a piece
    ``tall`` mm high is seen, joined: a piece stands somewhere in its square and leans away from the camera."""
    foot_mm = np.array([p for _, _, p in layout.spaces()])
    top_mm = camera.lean(foot_mm, tall)
    hx, hy = layout.space[0] / 2, layout.space[1] / 2
    square = np.array([(-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)])
    h, w = shape
    foot_r = 0.32 * min(layout.space)  # a piece's foot, a disc this wide (mm): its footprint, and its area below
    angles = np.linspace(0, 2 * np.pi, 16, endpoint=False)
    disc = foot_r * np.stack([np.cos(angles), np.sin(angles)], axis=1)
    pixels, feet, prints = [], [], []
    for f, t in zip(foot_mm, top_mm):
        pixels.append(_filled(raster.px(np.concatenate([f + square, t + square])), w, h))
        feet.append(_filled(raster.px(f + square * 0.9), w, h))
        prints.append(_filled(raster.px(f + disc), w, h))
    radius = foot_r * raster.scale
    lean = np.linalg.norm(raster.px(top_mm) - raster.px(foot_mm), axis=1)
    area = np.pi * radius * radius + 2 * radius * lean
    return Bodies(raster.px(foot_mm), raster.px(top_mm), tuple(pixels), area, w, tuple(feet), tuple(prints))


def _filled(points_px: np.ndarray, w: int, h: int) -> np.ndarray:
    """The raster's pixels inside the convex hull of ``points_px`` (flat indices)."""
    hull = cv2.convexHull(np.round(points_px * 4).astype(np.int32))
    x0, y0 = np.maximum(hull.reshape(-1, 2).min(axis=0) // 4 - 1, 0)
    x1, y1 = np.minimum(hull.reshape(-1, 2).max(axis=0) // 4 + 2, (w, h))
    local = np.zeros((max(1, y1 - y0), max(1, x1 - x0)), np.uint8)
    cv2.fillConvexPoly(local, hull - np.array([x0 * 4, y0 * 4], np.int32), 1, cv2.LINE_8, shift=2)
    ys, xs = np.nonzero(local)
    return (ys + y0) * w + (xs + x0)


@dataclass(frozen=True)
class Pixels:
    """A photo's pixels judged: their classes, the photo in the empty board's light, its change in noise units,
    and the palette as this photo's pieces showed it."""

    classes: np.ndarray  # int16 per raster pixel
    cur: np.ndarray  # float32 HxWx3, on the markers' white, in the empty board's light
    change: np.ndarray  # float32 HxW: how far from the empty board near it, in noise units
    palette: Palette
    board: np.ndarray  # float32 HxWx3: the empty board in opponent colours (smoothed as the photo is)
    sigma: np.ndarray  # float32 HxWx3: the photo's noise there, in opponent colours
    near: np.ndarray  # float32 HxW: how near each pixel's colour is to its nearest kind's (palette units)
    given: Palette | None = None  # the palette as the check was given it, before this photo's pieces moved it

    def changed(self, region: np.ndarray, bar: float) -> float:
        """How much of ``region`` (flat indices) changed by more than ``bar`` noise units (1 for none: nothing
        there can be said unchanged)."""
        return float((self.change.reshape(-1)[region] > bar).mean()) if len(region) else 1.0

    def visible(self, kind: str, region: np.ndarray) -> float:
        """How plainly a piece of ``kind`` would stand out on the board at ``region`` (flat indices), in noise
        units (the median over the region): a yellow piece on a tan space hardly does, so its absence there
        proves nothing. A kind looks as the check was told or as this photo showed it (the changed part of a
        white runner on a cream board is its shaded side, darker than the runner): plain only if plain both ways."""
        board = self.board.reshape(-1, 3)[region]
        sigma = self.sigma.reshape(-1, 3)[region]
        if not len(board):
            return 0.0
        plain = []
        for palette in (self.palette, self.given or self.palette):
            colour = opponent(np.asarray(palette.kinds[kind], np.float32).reshape(1, 1, 3)).reshape(3)
            plain.append(float(np.median((np.abs(colour - board) / sigma).max(axis=1))))
        return min(plain)


def classify(straight, seen, cur, empty, expected, index, palette: Palette, body: Bodies, tuning, scale: float,
             trace: dict | None = None) -> Pixels:
    """Judge every pixel of ``cur`` (the straightened photo on the markers' white) against ``empty``."""
    shape = seen.shape
    names = palette.names()
    pieces_at = [index[(p.column, p.step)] for p in expected if (p.column, p.step) in index]
    anywhere = body.mask(pieces_at, shape)
    saturated = (straight >= 245).all(axis=2)  # blown out to white (one bright channel is only a bright colour)
    between = seen & ~anywhere & ~saturated
    free = np.zeros(shape, np.uint8)  # the spaces no piece should stand on: their tones are the windows' own
    radius = max(1, int(0.4 * min(body.area.min() / np.pi, 1e6) ** 0.5))
    for n, (x, y) in enumerate(body.foot):
        if n not in pieces_at:
            cv2.circle(free, (int(round(x)), int(round(y))), radius, 1, -1)
    cur = np.nan_to_num(cur, nan=0.0)
    empty = _softened(empty, cur, between)  # a shaken or defocused photo is softer than the calm set-up's
    cur = np.nan_to_num(light_fix(cur, empty, between, free.astype(bool) & between), nan=0.0)

    # judged a little smoothed: a piece is a blob of many pixels, the noise a pixel's own (a third of it is left)
    cur = cv2.GaussianBlur(cur, (0, 0), 1.5)
    smooth_empty = cv2.GaussianBlur(empty, (0, 0), 1.5)
    # and in opponent colours: brightness, red against green, yellow against blue. A board's grain and print
    # differ mostly in brightness, a piece from the board often in colour: each is weighed by its own noise
    a, b = opponent(cur), opponent(smooth_empty)
    sigma = noise(a - b, smooth_empty, between)
    change, diff = nearest_change(a, b, sigma)
    change[np.abs(diff).max(axis=2) < tuning.change[0]] = 0.0
    empty_least = _least(empty)
    change[(empty_least > 0.95) & (_least(cur) > 0.95)] = 0.0  # both blown out to the paper's white
    changed = change > tuning.change[1]
    ratio = cur / np.maximum(smooth_empty, 0.04)
    high, low = _most(ratio), _least(ratio)
    shade = changed & (high < 0.97) & (low > 0.12) & (high - low < 0.25 * ratio.mean(axis=2) + 0.05)
    solid = changed & ~shade
    given, palette = palette, adapted(palette, cur, solid, expected, index, body, shape)
    best, near = palette.nearest(cur)
    kind = np.where(near <= REACH, best, -1)
    classes = np.full(shape, BOARD, np.int16)
    classes[shade] = SHADE
    classes[solid] = np.where(kind[solid] >= 0, KIND0 + kind[solid], FOREIGN)
    _grown(classes, best, near, body, tuning)
    # glare: blown out where the empty board was not already as bright as the paper (a white space is not glare),
    # and its halo, brighter than the board though not blown out: neither says what stands there
    glare = (saturated & (empty_least < 0.85)).astype(np.uint8)
    if glare.any():
        # the halo: brighter than the board and greyer, or the board with the lamp's light added (on a red board the
        # halo stays red: only its green and blue rise), near a blown-out core (as far again as the core is wide)
        brighter = (diff[..., 0] > 3 * sigma[..., 0]) & (diff[..., 0] > 0.04)  # plainly brighter than the board
        chroma = np.abs(cur - cur.mean(axis=2, keepdims=True)).max(axis=2) / np.maximum(cur.mean(axis=2), 0.05)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(glare)
        near = np.zeros(shape, np.uint8)
        for label in range(1, count):
            reach = int(min(2 * np.sqrt(stats[label, cv2.CC_STAT_AREA] / np.pi), 40 * scale)) | 1
            core = (labels == label).astype(np.uint8)
            near |= cv2.dilate(core, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1,) * 2))
        halo = near.astype(bool) & brighter
        grey = chroma < 0.35
        lit = halo & ~grey
        lit[lit] = _lit(cur[lit], smooth_empty[lit])  # judged only where it decides: a quarter of the time
        glare = glare.astype(bool) | (halo & grey) | lit
        glare = cv2.dilate(glare.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    classes[glare.astype(bool) | ~seen] = UNKNOWN
    if trace is not None:
        trace.update(straight=straight, fixed=cur, change=change, between=between, names=names)
    return Pixels(classes, cur, change, palette, b, sigma, near, given)


def _lit(cur: np.ndarray, empty: np.ndarray) -> np.ndarray:
    """Where ``cur`` is ``empty`` with white light added (colours along the last axis): in linear light, every
    channel not blown out risen, and by much the same amount (a glare's halo adds the lamp's light to whatever
    colour the board is; a hand or a piece replaces it, and some channel falls or rises alone)."""
    added = np.clip(cur, 0, 1.5) ** 2.2 - np.clip(empty, 0, 1.5) ** 2.2  # about the webcam's gamma
    free = (cur < 0.95) & (empty < 0.95)
    least = np.where(free, added, np.inf).min(axis=-1)
    most = np.where(free, added, -np.inf).max(axis=-1)
    return (free.sum(axis=-1) >= 2) & (most > 0) & (least > 0.4 * most)


def _grown(classes: np.ndarray, best: np.ndarray, near: np.ndarray, body: Bodies, tuning) -> None:
    """A piece's lit top or shaded side strays further from its kind's colour than its middle does: a foreign
    pixel within twice :data:`REACH` of a kind, joined to that kind's pixels, is that kind (hysteresis, as an
    edge is traced). Never inside something foreign far bigger than a piece (a hand's skin stays a hand)."""
    foreign = classes == FOREIGN
    if not foreign.any():
        return
    weak = foreign & (near <= 2 * REACH) & ~larger(foreign, tuning.hand * body.piece_area)
    for k in np.unique(best[weak]):
        core = classes == KIND0 + k
        if not core.any():
            continue
        joined = (core | (weak & (best == k))).astype(np.uint8)
        n, lab = cv2.connectedComponents(joined)
        keep = np.zeros(n, bool)
        keep[np.unique(lab[core])] = True
        keep[0] = False
        classes[keep[lab] & ~core] = KIND0 + k


#: The extra blur (pixels, a Gaussian's sigma) a check's photo may have over the empty board's: tried in turn.
SOFTER = (0.0, 0.7, 1.0, 1.4, 2.0, 2.8)


def _softened(empty: np.ndarray, cur: np.ndarray, between: np.ndarray) -> np.ndarray:
    """``empty`` as soft as ``cur``: blurred by the first extra blur of :data:`SOFTER` past none that makes its
    edges as steep, for their contrast, as the photo's where no piece stands (the last one at most; ``empty``
    itself when too little of the board shows between the pieces). Against a sharp empty board a soft photo
    changes at every printed edge, and its light's fit goes astray."""
    mask = between[1:-1, 1:-1]
    if mask.sum() < 500:
        return empty
    want = _sharpness(cur, mask)
    for extra in SOFTER[1:]:
        soft = cv2.GaussianBlur(empty, (0, 0), extra)
        if _sharpness(soft, mask) <= want:
            break
    return soft


def _sharpness(image: np.ndarray, mask: np.ndarray) -> float:
    """The mean steepness of a picture's brightness over ``mask``, for its contrast there (blur lowers it; the
    light's gain does not change it)."""
    grey = image.mean(axis=2)
    gx = grey[1:-1, 2:] - grey[1:-1, :-2]
    gy = grey[2:, 1:-1] - grey[:-2, 1:-1]
    inner = grey[1:-1, 1:-1][mask]
    return float(np.hypot(gx, gy)[mask].mean() / max(float(inner.std()), 1e-6))


def larger(mask: np.ndarray, area: float) -> np.ndarray:
    """The connected regions of ``mask`` of more than ``area`` pixels (a bool mask)."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8))
    big = np.flatnonzero(stats[:, cv2.CC_STAT_AREA] > area)
    return np.isin(labels, big[big > 0])


def _least(image: np.ndarray) -> np.ndarray:
    return cv2.min(cv2.min(image[..., 0], image[..., 1]), image[..., 2])


def _most(image: np.ndarray) -> np.ndarray:
    return cv2.max(cv2.max(image[..., 0], image[..., 1]), image[..., 2])


def opponent(bgr: np.ndarray) -> np.ndarray:
    """A picture's brightness, red less green, and yellow less blue (HxWx3), from its blue, green and red."""
    blue, green, red = bgr[..., 0], bgr[..., 1], bgr[..., 2]
    return np.stack([(blue + green + red) / 3, red - green, (red + green) / 2 - blue], axis=-1)


def adapted(palette: Palette, cur, solid, expected, index, body: Bodies, shape) -> Palette:
    """The palette moved toward the colours found where the game puts each kind: the changed pixels in the
    bodies of its expected pieces that are nearer that kind than any other (or near it at all). A piece that is
    not there adds nothing (its body did not change); most of a kind's pieces are where the game says."""
    names = palette.names()
    flat_cur = cur.reshape(-1, 3)
    flat_solid = solid.reshape(-1)
    found = {}
    for kind in names:
        where = [body.pixels[index[(p.column, p.step)]] for p in expected
                 if p.kind == kind and (p.column, p.step) in index]
        if not where:
            continue
        idx = np.concatenate(where)
        pixels = flat_cur[idx[flat_solid[idx]]]
        if len(pixels) < 30:
            continue
        nearest, near = palette.classify(pixels)
        mine = pixels[(nearest == names.index(kind)) | ((nearest == -1) & (near < 2 * REACH))]
        if len(mine) >= 30:
            found[kind] = np.median(mine, axis=0)
    return palette.learnt(found) if found else palette
