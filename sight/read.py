"""A photo of the board read against the empty board and the pieces the game says should be there.

The box knows where every piece should be, so the camera checks rather than
guesses. The photo is straightened onto the board's plane, its colours read
against the markers' white, and any slow change of the light since the empty
board's photo is fitted away on the board between the pieces. Each pixel is
then the board as it was (or its shade), a kind of piece, or something
else (a hand, glare). For each piece the game expects, the window where its
body stands (leaning away from the camera, as a tall thing does) says
whether it is there; for each space, colour the expected pieces do not
explain says a piece is there that should not be. Whatever the picture
cannot settle is *unsure*, never a guess: only a confident difference is a
mismatch (:mod:`sight.verdict` turns a :class:`Reading` into findings).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from . import markers
from .calibrate import Calibration, canonical
from .layout import Piece
from .palette import REACH, Palette
from .pose import pose

BOARD, UNKNOWN, FOREIGN = 0, 1, 2  # the pixel classes; kind k of the palette is 3 + k


@dataclass(frozen=True)
class Tuning:
    """Every threshold of a reading, in one place (the benchmark measures them: make camera-bench)."""

    tall: float = 16.0  # a piece's height (mm), for its lean
    window: float = 0.42  # a piece's window: its radius, as a fraction of a space's smaller side
    along: float = 0.3  # ... its centre along the piece's lean (0 its foot, 1 its top)
    present: float = 0.2  # a piece's own colour over this fraction of its window: it is there
    absent: float = 0.05  # under this, it is not (when the window can be seen)
    hidden: float = 0.35  # more of a window than this unknown (glare, a hand): it cannot be read
    extra: float = 0.22  # colour no expected piece explains over this fraction of a window: a piece is there
    doubt: float = 0.1  # ... over this: the space is unsure
    hand: float = 2.5  # something foreign bigger than this many spaces: a hand or an arm over the board
    change: tuple[float, float] = (0.04, 6.0)  # a pixel changed: by this much at least, and this many times the noise


@dataclass(frozen=True)
class Reading:
    """What a photo showed: each expected piece there ("yes"), not there ("no") or "unsure"; the pieces found
    that the game does not have; the spaces that cannot be read; ``blind`` when nothing could be read."""

    pieces: dict = field(default_factory=dict)  # Piece -> "yes" | "no" | "unsure"
    extras: tuple = ()  # Piece, each a confident one
    doubts: frozenset = frozenset()  # (column, step) that cannot be read
    blind: str = ""  # "markers" (they place the board) or "light" (no white to judge colours by); "" when read
    why: str = ""  # the blind reading's one line
    hand: bool = False  # something big over the board
    colours: dict = field(default_factory=dict)  # kind -> BGR on the markers' white, of the pieces found
    classes: np.ndarray | None = None  # the raster's pixel classes (for a picture of what was read)
    spaces: int = 0


def _disc(radius_px: float) -> np.ndarray:
    r = int(np.ceil(radius_px))
    ys, xs = np.mgrid[-r:r + 1, -r:r + 1]
    keep = xs * xs + ys * ys <= radius_px * radius_px
    return np.column_stack([ys[keep], xs[keep]])


def _gather(classes: np.ndarray, centre_px, offsets: np.ndarray) -> np.ndarray:
    """The classes in a window (those inside the raster)."""
    ys = offsets[:, 0] + int(round(centre_px[1]))
    xs = offsets[:, 1] + int(round(centre_px[0]))
    h, w = classes.shape
    keep = (ys >= 0) & (ys < h) & (xs >= 0) & (xs < w)
    return classes[ys[keep], xs[keep]]


def _footprint(shape, foot_px, top_px, radius_px: float) -> np.ndarray:
    """A standing piece as the camera sees it on the plane: its foot's disc swept to its top's."""
    mask = np.zeros(shape, np.uint8)
    for (fx, fy), (tx, ty) in zip(foot_px, top_px):
        a, b = (int(round(fx)), int(round(fy))), (int(round(tx)), int(round(ty)))
        r = max(1, int(round(radius_px)))
        cv2.line(mask, a, b, 1, thickness=2 * r)
        cv2.circle(mask, a, r, 1, -1)
        cv2.circle(mask, b, r, 1, -1)
    return mask.astype(bool)


def _light_fix(cur: np.ndarray, empty: np.ndarray, usable: np.ndarray, spaces: np.ndarray) -> np.ndarray:
    """``cur`` brought to the empty board's photo's light: per channel, ``cur = a(x, y) * empty ** g``, a smooth
    gain over the board (a quadratic surface: the lamp's fall-off, a colour drift) and a gentle tone change
    (a webcam's exposure moves bright and dark a little differently), fitted robustly (log domain, outliers
    trimmed, the darkest pixels left out: their noise is all they say) on the board where no piece should be,
    the free spaces weighing as much as the rest, then undone."""
    h, w = usable.shape
    ys, xs = np.nonzero(usable[::3, ::3])
    ys, xs = ys * 3, xs * 3
    if len(ys) < 200:
        return cur
    sy, sx = np.nonzero(spaces)
    if len(sy):  # as many samples from the free spaces as from the rest of the board
        pick = np.linspace(0, len(sy) - 1, min(len(sy), len(ys))).astype(int)
        ys, xs = np.concatenate([ys, sy[pick]]), np.concatenate([xs, sx[pick]])
    u, v = xs / w - 0.5, ys / h - 0.5
    terms = np.column_stack([np.ones_like(u), u, v, u * u, u * v, v * v])
    yy, xx = np.mgrid[0:h, 0:w]
    uu, vv = xx / w - 0.5, yy / h - 0.5
    fixed = cur.copy()
    for ch in range(3):
        a, b = cur[ys, xs, ch], empty[ys, xs, ch]
        ok = (a > 0.06) & (b > 0.06) & (a < 1.5) & (b < 1.5)
        if ok.sum() < 100:
            continue
        la, lb = np.log(a), np.log(b)
        design = np.column_stack([terms, lb])
        keep = ok.copy()
        coef = np.zeros(7)
        for _ in range(4):
            coef, *_ = np.linalg.lstsq(design[keep], la[keep], rcond=None)
            residual = la - design @ coef
            spread = 1.4826 * np.median(np.abs(residual[keep])) + 1e-3
            keep = ok & (np.abs(residual) < 2.5 * spread)
            if keep.sum() < 100:
                break
        gamma = float(np.clip(coef[6], 0.7, 1.4))
        gain = coef[0] + coef[1] * uu + coef[2] * vv + coef[3] * uu * uu + coef[4] * uu * vv + coef[5] * vv * vv
        fixed[..., ch] = np.exp((np.log(np.maximum(cur[..., ch], 1e-3)) - gain) / gamma)
    return fixed


def _nearest_change(cur: np.ndarray, empty: np.ndarray, sigma: np.ndarray, reach: int = 2):
    """How far each pixel is from the empty board's nearest look within ``reach`` pixels (a pixel or two of
    misregistration is no change): in noise units, the worst channel of the nearest neighbour (a whole colour
    must match one pixel, not each channel some pixel: a green piece over a black and white rim is a change);
    and that neighbour's difference (HxWx3)."""
    h, w = cur.shape[:2]
    pad = cv2.copyMakeBorder(empty, reach, reach, reach, reach, cv2.BORDER_REPLICATE)
    best = np.full((h, w), np.inf, np.float32)
    diff = np.zeros_like(cur)
    for dy in range(-reach, reach + 1):
        for dx in range(-reach, reach + 1):
            if dx * dx + dy * dy > reach * reach + 1:
                continue
            shifted = pad[reach + dy:reach + dy + h, reach + dx:reach + dx + w]
            d = cur - shifted
            z = (np.abs(d) / sigma).max(axis=2)
            closer = z < best
            best[closer] = z[closer]
            diff[closer] = d[closer]
    return best, diff


def _noise(diff: np.ndarray, empty: np.ndarray, usable: np.ndarray) -> np.ndarray:
    """The photo's noise (a robust spread of its differences from the empty board, where the board should be as
    it was) at each pixel's brightness, channel by channel (HxWx3): brighter pixels are noisier in a webcam."""
    bright = empty.mean(axis=2)
    sample = bright[usable]
    out = np.empty_like(diff)
    if sample.size < 300:
        out[:] = 0.03
        return out
    edges = np.percentile(sample, np.linspace(0, 100, 7))
    centres = (edges[:-1] + edges[1:]) / 2
    for ch in range(3):
        d = diff[..., ch][usable]
        spreads = []
        for lo, hi in zip(edges[:-1], edges[1:]):
            sel = (sample >= lo) & (sample <= hi)
            # the fifth of the differences nearest zero says the spread: a hand over half the board is no noise
            spreads.append(np.percentile(np.abs(d[sel]), 20) / 0.2533 + 0.004 if sel.sum() > 30 else np.nan)
        spreads = np.array(spreads)
        good = np.isfinite(spreads)
        out[..., ch] = np.interp(bright, centres[good], spreads[good]) if good.any() else 0.03
    return np.maximum(out, 0.006)


def _adapted(palette: Palette, cur: np.ndarray, solid: np.ndarray, expected, index, window_px, offsets) -> Palette:
    """The palette moved toward the colours found where the game puts each kind: the changed pixels in the
    windows of its expected pieces that are nearer that kind than any other (or near it at all). A piece that is
    not there adds nothing (its window did not change); most of a kind's pieces are where the game says."""
    names = palette.names()
    h, w = solid.shape
    found = {}
    for kind in names:
        pixels = []
        for piece in expected:
            n = index.get((piece.column, piece.step))
            if piece.kind != kind or n is None:
                continue
            ys = offsets[:, 0] + int(round(window_px[n][1]))
            xs = offsets[:, 1] + int(round(window_px[n][0]))
            ok = (ys >= 0) & (ys < h) & (xs >= 0) & (xs < w)
            ys, xs = ys[ok], xs[ok]
            sel = solid[ys, xs]
            pixels.append(cur[ys[sel], xs[sel]])
        if not pixels:
            continue
        pixels = np.concatenate(pixels)
        if len(pixels) < 30:
            continue
        nearest, near = palette.classify(pixels)
        mine = pixels[(nearest == names.index(kind)) | ((nearest == -1) & (near < 2 * REACH))]
        if len(mine) >= 30:
            found[kind] = np.median(mine, axis=0)
    return palette.learnt(found) if found else palette


def look(photo: np.ndarray, cal: Calibration, expected, palette: Palette, tuning: Tuning = Tuning(),
         trace: dict | None = None) -> Reading:
    """Read ``photo`` (BGR) against ``cal`` and the ``expected`` pieces (:class:`sight.layout.Piece`);
    ``trace`` (a dict) gets the steps' pictures, for a developer looking into a reading."""
    expected = tuple(expected)
    found = markers.find(photo, cal.anchors.corners)
    try:
        to_plane = markers.plane_map(found, cal.anchors)
    except markers.MarkersError as err:
        return Reading(blind="markers", why=str(err))
    raster, layout = cal.raster, cal.layout
    straight = raster.straighten(photo, to_plane)
    seen = raster.seen(photo.shape[1::-1], to_plane)
    cur = canonical(straight, raster, cal.anchors)
    if not np.isfinite(cur).any():
        return Reading(blind="light", why="no marker's paper is lit well enough to judge colours by")
    camera = pose(to_plane, photo.shape[1::-1])
    scale = raster.scale
    space_mm = min(layout.space)
    radius_px = tuning.window * space_mm * scale
    body_px = 0.33 * space_mm * scale  # a piece's half width, for the colour it may spread over
    spaces = layout.spaces()
    foot_mm = np.array([p for _, _, p in spaces])
    top_mm = camera.lean(foot_mm, tuning.tall)
    window_mm = foot_mm + tuning.along * (top_mm - foot_mm)
    foot_px, top_px, window_px = raster.px(foot_mm), raster.px(top_mm), raster.px(window_mm)
    index = {(c, k): n for n, (c, k, _) in enumerate(spaces)}
    shape = seen.shape

    # where each kind the game expects stands (its pieces' bodies), and the board between them
    names = palette.names()
    owned = {kind: np.zeros(shape, bool) for kind in names}
    for piece in expected:
        n = index.get((piece.column, piece.step))
        if n is None or piece.kind not in owned:
            continue
        owned[piece.kind] |= _footprint(shape, foot_px[n:n + 1], top_px[n:n + 1], body_px)
    anywhere = np.zeros(shape, bool)
    for m in owned.values():
        anywhere |= m
    saturated = (straight >= 250).any(axis=2)
    empty = cal.empty
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (max(3, int(6 * scale) | 1),) * 2)
    between = seen & ~cv2.dilate(anywhere.astype(np.uint8), kernel).astype(bool) & ~saturated
    # the light is fitted where the board should be as it was: the spaces no piece should stand on (their
    # tones are the pieces' windows' own) as much as the board around them
    spaces_free = np.zeros(shape, np.uint8)
    for n, (c, k, _) in enumerate(spaces):
        x, y = foot_px[n]
        cv2.circle(spaces_free, (int(round(x)), int(round(y))), max(1, int(radius_px)), 1, -1)
    spaces_free = spaces_free.astype(bool) & between
    cur = np.nan_to_num(_light_fix(np.nan_to_num(cur, nan=0.0), empty, between, spaces_free), nan=0.0)

    # changed or not, judged against the empty board near each pixel (a pixel or two of misregistration is no
    # change) and against the photo's own noise at that brightness (a dark board's grain is not a piece)
    sigma = _noise(cur - empty, empty, between)
    change, diff = _nearest_change(cur, empty, sigma)
    change[np.abs(diff).max(axis=2) < tuning.change[0]] = 0.0
    change[(empty.min(axis=2) > 0.95) & (cur.min(axis=2) > 0.95)] = 0.0  # both blown out to the paper's white
    threshold = tuning.change[1]
    changed = change > threshold
    if trace is not None:
        trace.update(straight=straight, fixed=cur, change=change, threshold=threshold, between=between)
    ratio = cur / np.maximum(empty, 0.04)
    shade = (ratio.max(axis=2) < 0.97) & (ratio.min(axis=2) > 0.15) & \
            (ratio.max(axis=2) - ratio.min(axis=2) < 0.22 * ratio.mean(axis=2) + 0.05)
    solid = changed & ~shade
    palette = _adapted(palette, cur, solid, expected, index, window_px, _disc(radius_px))
    kind, _ = palette.classify(cur)
    classes = np.full(shape, BOARD, np.int16)
    classes[solid] = np.where(kind[solid] >= 0, 3 + kind[solid], FOREIGN)
    # glare: blown out where the empty board was not already as bright as the paper (a white space is not glare),
    # and its halo, brighter than the board though not blown out: neither says what stands there
    glare = (saturated & (empty.min(axis=2) < 0.85)).astype(np.uint8)
    if glare.any():
        halo = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (int(12 * scale) | 1,) * 2)
        brighter = cur.mean(axis=2) > empty.mean(axis=2) + 0.05
        glare = glare.astype(bool) | (cv2.dilate(glare, halo).astype(bool) & brighter)
    classes[glare.astype(bool) | ~seen] = UNKNOWN

    # something big and foreign over the board: a hand or an arm; the spaces near it cannot be trusted
    doubts: set[tuple[int, int]] = set()
    foreign = cv2.morphologyEx((classes == FOREIGN).astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(foreign)
    space_area = layout.space[0] * layout.space[1] * scale * scale
    hand = False
    big = np.zeros(shape, np.uint8)
    for label in range(1, count):
        if stats[label, cv2.CC_STAT_AREA] > tuning.hand * space_area:
            hand = True
            big[labels == label] = 1
    if hand:
        reach = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (int(2 * layout.columns[0].pitch() * scale) | 1,) * 2)
        big = cv2.dilate(big, reach)
        for n, (c, k, _) in enumerate(spaces):
            x, y = window_px[n]
            if 0 <= int(y) < shape[0] and 0 <= int(x) < shape[1] and big[int(y), int(x)]:
                doubts.add((c, k))

    offsets = _disc(radius_px)
    kinds_at: dict[int, set[str]] = {}
    for piece in expected:
        if (n := index.get((piece.column, piece.step))) is not None:
            kinds_at.setdefault(n, set()).add(piece.kind)

    # each expected piece: there, not there, or unsure
    pieces: dict[Piece, str] = {}
    colours: dict[str, list] = {}
    for piece in expected:
        n = index.get((piece.column, piece.step))
        if n is None or piece.kind not in owned:
            pieces[piece] = "unsure"
            continue
        k = names.index(piece.kind)
        cls = _gather(classes, window_px[n], offsets)
        others = [3 + names.index(o) for o in kinds_at.get(n, ()) if o != piece.kind and o in owned]
        taken = np.isin(cls, others).sum() if others else 0
        avail = len(cls) - taken
        unknown = np.isin(cls, (UNKNOWN, FOREIGN)).sum()
        if avail < 0.35 * len(offsets) or (piece.column, piece.step) in doubts:
            pieces[piece] = "unsure"
            continue
        own = float((cls == 3 + k).sum()) / avail
        if trace is not None:
            trace.setdefault("evidence", {})[piece] = (own, unknown / avail, avail / len(offsets))
        if own >= tuning.present:
            pieces[piece] = "yes"
            ys = offsets[:, 0] + int(round(window_px[n][1]))
            xs = offsets[:, 1] + int(round(window_px[n][0]))
            ok = (ys >= 0) & (ys < shape[0]) & (xs >= 0) & (xs < shape[1])
            sel = classes[ys[ok], xs[ok]] == 3 + k
            colours.setdefault(piece.kind, []).append(cur[ys[ok][sel], xs[ok][sel]])
        elif own <= tuning.absent and unknown / avail <= tuning.hidden:
            pieces[piece] = "no"
        else:
            pieces[piece] = "unsure"

    # pieces the game does not have: colour no expected piece of that kind explains
    extras: list[tuple[float, int, str]] = []
    for k, name in enumerate(names):
        alone = (classes == 3 + k) & ~cv2.dilate(owned[name].astype(np.uint8), kernel).astype(bool)
        if not alone.any():
            continue
        for n, (c, step, _) in enumerate(spaces):
            cls = _gather(alone.astype(np.int16), window_px[n], offsets)
            if not len(cls):
                continue
            frac = float(cls.sum()) / len(offsets)
            if trace is not None and frac >= tuning.doubt:
                trace.setdefault("extras", {})[Piece(c, step, name)] = frac
            if frac >= tuning.extra:
                extras.append((frac, n, name))
            elif frac >= tuning.doubt:
                doubts.add((c, step))
    chosen: list[Piece] = []
    pitch = layout.columns[0].pitch()
    for frac, n, name in sorted(extras, reverse=True):  # the strongest of neighbours stands for them all
        if any(p.kind == name and np.linalg.norm(foot_mm[index[(p.column, p.step)]] - foot_mm[n]) < 1.3 * pitch
               for p in chosen):
            continue
        c, step, _ = spaces[n]
        chosen.append(Piece(c, step, name))
    # a space with unknown pixels over much of it cannot show an extra piece either
    for n, (c, step, _) in enumerate(spaces):
        cls = _gather(classes, window_px[n], offsets)
        if len(cls) < 0.35 * len(offsets) or np.isin(cls, (UNKNOWN, FOREIGN)).sum() > tuning.hidden * len(cls):
            doubts.add((c, step))
    found_colours = {k: np.median(np.concatenate(v), axis=0) for k, v in colours.items() if sum(map(len, v)) >= 20}
    return Reading(pieces, tuple(chosen), frozenset(doubts), hand=hand, colours=found_colours, classes=classes,
                   spaces=len(spaces))
