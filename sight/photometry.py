"""Two photos of the same board compared pixel by pixel: the light made the same, the photo's noise, the change.

The empty board's photo and a later one differ by the light (a lamp moved,
the webcam chose another exposure), by the sensor's noise, by a pixel or two
of misregistration, and by what stands on the board. These take the first
three away, so that what is left is what stands there.
"""

from __future__ import annotations

import cv2
import numpy as np

#: An 8-bit channel at or above this is blown out: the sensor says only that the light there was at least this.
CLIP = 250
#: How shy of a veil the light's fit is (a ridge on the veil's terms, for each term's own weight). A gain and a
#: veil differ only where the board's brightness varies: on a white board (97% of it at 0.97 to 1.0, board 497 of
#: make camera-bench) they are nearly one, and a fit free to trade them used the set-up's own fall-off of light to
#: chase the lamp's new hot spot: a veil of 0.97 and a gain of 0.04, so a change of 0.01 became 0.25 and the board
#: was read as covered. This much shyness tames that (a drawn white board: 11 off at worst unshy, 0.16 shy, what a
#: quadratic cannot follow of a hot spot; 0.15 at ten times the shyness), and costs a board whose brightness
#: spreads a third of its mean, under a glare's haze of 0.1, 0.004 at worst: a tenth of a change's least
#: (``Tuning.change``; tests/sight/test_photometry.py draws both).
SHY = 0.002
#: A channel of the empty board darker than this (on the markers' white) says little of a gain: its ratio is noise.
DIM = 0.1


def light_fix(cur: np.ndarray, empty: np.ndarray, usable: np.ndarray, spaces: np.ndarray) -> np.ndarray:
    """``cur`` brought to the empty board's photo's light: per channel, ``cur = g(x, y) * empty + o(x, y)``, a
    smooth gain (the lamp's fall-off, a colour drift, the webcam's exposure) and a smooth veil (glare's
    haze over the board, a little flare), each a quadratic surface over the board, fitted robustly (outliers
    trimmed) where no piece should be, the free spaces weighing as much as the rest, then undone."""
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
    # the surfaces are smooth: worked out on a grid a quarter the size and enlarged
    sh, sw = max(2, h // 4), max(2, w // 4)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    uu, vv = (xx + 0.5) / sw - 0.5, (yy + 0.5) / sh - 0.5
    surfaces = (np.ones_like(uu), uu, vv, uu * uu, uu * vv, vv * vv)
    fixed = cur.copy()
    for ch in range(3):
        a, b = cur[ys, xs, ch], empty[ys, xs, ch]
        ok = (a < 1.3) & (b < 1.3)
        if ok.sum() < 100:
            continue
        design = np.column_stack([terms * b[:, None], terms])
        # trimmed least squares from two starts, all the samples and those a single gain fits, and of the two fits
        # the one whose median residual is least: an arm over a third of the board pulls a first fit of all the
        # samples its way and the trimming follows it; a lamp moved since the set-up fits no single gain
        # the single gain is judged where the board is not dark in this channel: on a red board nearly every pixel's
        # blue is near nought, and their ratios (noise over nearly nothing) are no gain
        lit = ok & (b > DIM)
        if lit.sum() < 100:
            lit = ok
        gain0 = float(np.median(a[lit] / np.maximum(b[lit], 0.02)))
        first = np.abs(a - gain0 * b)
        starts = [ok, ok & (first < 3 * 1.4826 * float(np.median(first[ok])) + 1e-3)]
        fits = [_trimmed(design, a, ok, keep) for keep in starts if keep.sum() >= 100]
        coef = min(fits, key=lambda c: float(np.median(np.abs(a[ok] - design[ok] @ c))))
        gain = cv2.resize(sum(c * t for c, t in zip(coef[:6], surfaces)).astype(np.float32), (w, h))
        veil = cv2.resize(sum(c * t for c, t in zip(coef[6:], surfaces)).astype(np.float32), (w, h))
        fixed[..., ch] = (cur[..., ch] - veil) / np.maximum(gain, 0.2)
    return fixed


def _trimmed(design: np.ndarray, a: np.ndarray, ok: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """Least squares of ``a`` on ``design`` over ``keep``, refitted four times on the ``ok`` samples within 2.5
    robust spreads of the last fit."""
    for _ in range(4):
        d = design[keep]  # by its normal equations: 12 unknowns, tens of thousands of samples
        normal = d.T @ d
        veil = np.arange(6, 12)
        normal[veil, veil] *= 1 + SHY  # a veil only where the board's light and dark ask for one
        coef = np.linalg.lstsq(normal, d.T @ a[keep], rcond=None)[0]
        residual = a - design @ coef
        spread = 1.4826 * np.median(np.abs(residual[keep])) + 1e-3
        keep = ok & (np.abs(residual) < 2.5 * spread)
        if keep.sum() < 100:
            break
    return coef


def nearest_change(cur: np.ndarray, empty: np.ndarray, sigma: np.ndarray, reach: int = 2):
    """How far each pixel is from the empty board's nearest look within ``reach`` pixels (a diamond: a pixel or
    two of misregistration is no change; both pictures are smoothed first): in noise units, the worst channel of the
    nearest neighbour (a whole colour must match one pixel, not each channel some pixel: a green piece over a
    black and white rim is a change); and that neighbour's difference (HxWx3)."""
    h, w = cur.shape[:2]
    inverse = (1.0 / sigma).astype(np.float32)
    pad = cv2.copyMakeBorder(empty, reach, reach, reach, reach, cv2.BORDER_REPLICATE)
    best = np.full((h, w), np.inf, np.float32)
    diff = np.zeros_like(cur)
    for dy in range(-reach, reach + 1):
        for dx in range(-reach, reach + 1):
            if abs(dx) + abs(dy) > reach:
                continue
            d = cv2.subtract(cur, pad[reach + dy:reach + dy + h, reach + dx:reach + dx + w])
            z = cv2.multiply(cv2.absdiff(d, 0), inverse)
            z = cv2.max(cv2.max(z[..., 0], z[..., 1]), z[..., 2])
            closer = z < best
            np.copyto(best, z, where=closer)
            np.copyto(diff, d, where=closer[..., None])
    return best, diff


def noise(diff: np.ndarray, empty: np.ndarray, usable: np.ndarray) -> np.ndarray:
    """The photo's noise (a robust spread of its differences from the empty board, where the board should be as
    it was) at each pixel's brightness, channel by channel (HxWx3): brighter pixels are noisier in a webcam."""
    bright = empty.mean(axis=2)
    usable = usable.copy()
    usable[1::2, :] = False  # every other row is plenty, and half the work
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
