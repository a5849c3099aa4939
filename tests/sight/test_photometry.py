"""The check's photo brought to the set-up's light (:func:`sight.photometry.light_fix`) whatever stands over the
board: a fit pulled by an arm reads the whole board as changed, and the arm goes unseen."""

from __future__ import annotations

import cv2
import numpy as np

from sight.photometry import light_fix

SIZE = 200


def _board():
    rng = np.random.default_rng(3)
    empty = cv2.GaussianBlur(rng.uniform(0.2, 0.9, (SIZE, SIZE, 3)).astype(np.float32), (0, 0), 2)
    yy, xx = np.mgrid[0:SIZE, 0:SIZE].astype(np.float32) / SIZE
    lit = empty * (0.8 + 0.3 * xx)[..., None] + 0.02  # the lamp brighter to the right, a little haze
    return empty, lit, xx, yy


def _fixed_off(cur, empty, over):
    fixed = light_fix(cur, empty, np.ones((SIZE, SIZE), bool), np.zeros((SIZE, SIZE), bool))
    return np.abs(fixed - empty)[~over]


def test_the_lamps_change_is_undone_on_a_clear_board():
    empty, lit, _, _ = _board()
    err = _fixed_off(lit, empty, np.zeros((SIZE, SIZE), bool))
    assert np.percentile(err, 99) < 0.005


def test_an_arm_over_a_third_of_the_board_does_not_pull_the_fit():
    empty, lit, xx, yy = _board()
    arm = (xx + yy > 1.2) & (xx + yy < 1.85)
    assert 0.25 < arm.mean() < 0.35
    skin = np.array((0.45, 0.55, 0.8), np.float32) * (0.8 + 0.4 * yy[..., None])
    lit[arm] = skin[arm]
    err = _fixed_off(lit, empty, arm)
    # one fit from all the samples left the board off by 0.01 at the median and 0.09 at the 95th percentile
    assert np.median(err) < 0.007 and np.percentile(err, 95) < 0.045
