"""Something big and foreign over the board in a reading (a hand, an arm, a sleeve): where it lies, and the spaces
it leaves unsure (:func:`hands`); and which squares lie near it (:func:`beside`), where what the photo shows takes a
piece's look (its shadow, the skin's shine) or hides one.

The reader (:mod:`sight.read`) asks these of its pixels' classes; the hands of the benchmark's photos are drawn
apart, by :mod:`sight.hand`.
"""

from __future__ import annotations

import cv2
import numpy as np

from .pixels import FOREIGN, UNKNOWN
from .tuning import Tuning


def beside(arm, squares, body, tuning: Tuning) -> list[bool]:
    """Whether each square (flat indices) lies within ``tuning.hand_reach`` of a piece's width of a hand (``arm``:
    bool, the raster's shape, on the hand)."""
    if not squares:
        return []
    width = body.piece_area ** 0.5
    away = cv2.distanceTransform((~arm).astype(np.uint8), cv2.DIST_L2, 5).reshape(-1)
    return [len(square) > 0 and float(away[square].min()) <= tuning.hand_reach * width for square in squares]


def hands(classes, body, spaces, tuning: Tuning, coloured, placed, pale=None) -> tuple[set, np.ndarray | None]:
    """Something big and foreign over the board (a hand, an arm): the spaces under and near it are unsure; and
    where it lies (bool, the raster's shape), None when nothing is over the board.

    A hand's skin is read as often red, orange or yellow as foreign: ``coloured`` (bool, the raster's shape; None
    for none) are the pixels of a piece's colour, joined to the foreign ones; a region so joined is a hand when far
    more of it than a piece lies outside ``placed`` (where the game's pieces stand: a crowd of pieces touching is
    no hand), and not mostly within a piece's width of glare (``tuning.halo``: the board round a blown-out patch,
    lit past its own colour). Pale skin under a bright lamp reads as the runners' white (``pale``, bool, the
    raster's shape; None for none): joined to the rest, a region is a hand only when it also reaches the edge of
    the picture of the board, an arm coming in from beyond it (white far bigger than a piece inside the board is
    glare as often). A dark arm on a dark board in a noisy photo reads as bits, none far bigger than a piece:
    when nothing else is, bits within ``tuning.join`` of a piece's width are joined, and the whole is a hand when
    ``tuning.alien`` pieces of it are of no piece's colour (a crowd of pieces and their leans joins as readily,
    all of it in the pieces' colours)."""
    doubts: set[tuple[int, int]] = set()
    foreign = classes == FOREIGN
    if coloured is not None:
        foreign = foreign | coloured
    piece = body.piece_area
    arm = _regions(foreign, classes, piece, tuning, placed)
    if arm is None:  # a dark arm on a dark board breaks into bits of skin, shine and sleeve: joined, with enough
        # of them foreign (a crowd of pieces and their leans joined is no hand: none of it is foreign)
        arm = _regions(foreign, classes, piece, tuning, placed, join=True)
    if arm is None and pale is not None and pale.any():
        arm = _regions(foreign | pale, classes, piece, tuning, placed, edge=True)
    if arm is None:
        return doubts, None
    mask = arm.astype(np.uint8)
    reach = int(2.2 * np.sqrt(piece)) | 1
    mask = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach))).reshape(-1)
    for n, (c, k, _) in enumerate(spaces):
        if mask[body.pixels[n]].mean() > 0.05:
            doubts.add((c, k))
    return doubts, arm


def _regions(foreign, classes, piece: float, tuning: Tuning, placed, edge: bool = False,
             join: bool = False) -> np.ndarray | None:
    """Where something far bigger than a piece (``foreign``: bool) lies outside the game's pieces (``placed``) and
    not mostly in glare's halo, touching the raster's edge when ``edge``; None where nothing does. With ``join``,
    bits within ``tuning.join`` of a piece's width are one thing, a hand only if ``tuning.alien`` pieces of it
    are of no kind at all."""
    foreign = cv2.morphologyEx(foreign.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    joined = foreign
    if join:
        size = int(tuning.join * np.sqrt(piece)) | 1
        joined = cv2.morphologyEx(foreign, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size,) * 2))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(joined)
    outside = np.bincount(labels[~placed & (foreign > 0)], minlength=count)
    big = np.flatnonzero(outside > tuning.hand * piece)
    if join and len(big):
        alien = np.bincount(labels[~placed & (foreign > 0) & (classes == FOREIGN)], minlength=count)
        big = big[alien[big] >= tuning.alien * piece]
    glare = classes == UNKNOWN
    if len(big) and glare.any():  # glare's halo (the board round a blown-out patch, lit past its own colour) is
        # no hand: a region lying mostly within a piece's width of glare is that halo
        near = cv2.distanceTransform((~glare).astype(np.uint8), cv2.DIST_L2, 5) <= np.sqrt(piece)
        share = np.bincount(labels[near], minlength=count) / np.maximum(stats[:, cv2.CC_STAT_AREA], 1)
        big = big[share[big] < tuning.halo]
    if edge and len(big):
        height, width = foreign.shape
        x, y, w, h = (stats[big, i] for i in (cv2.CC_STAT_LEFT, cv2.CC_STAT_TOP, cv2.CC_STAT_WIDTH, cv2.CC_STAT_HEIGHT))
        big = big[(x == 0) | (y == 0) | (x + w >= width) | (y + h >= height)]
    return np.isin(labels, big) if len(big) else None
