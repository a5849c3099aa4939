"""The layout search's sum of shifted pictures (sight/grid.py): built column by column, it is the plain sum."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from engine import HEIGHTS
from sight import grid
from sight.layout import centred


def _one_by_one(norm, offsets, window):
    """The sum as the search defines it: the picture shifted by each space's offset, added one at a time."""
    total = np.zeros_like(norm)
    for dx, dy in np.round(offsets).astype(int):
        grid._add_shifted(total, norm, int(dx), int(dy))
    total /= len(offsets)
    return cv2.boxFilter(total * total, -1, window, normalize=True)


@pytest.mark.parametrize("seed", range(4))
def test_placement_scores_are_the_sum_of_every_spaces_shift(seed):
    rng = np.random.default_rng(seed)
    norm = rng.normal(size=(int(rng.integers(420, 520)), int(rng.integers(420, 520)))).astype(np.float32)  # the board inside
    scale = rng.uniform(0.5, 1.0)
    layouts = {
        "centred": centred(HEIGHTS, (24 * rng.uniform(0.7, 1.3), 20 * rng.uniform(0.7, 1.3))),
        # columns on a slant and of other heights: their steps do not nest, and two share an x
        "odd": [(int(rng.integers(-60, 60)), int(rng.integers(-60, 60))) for _ in range(40)] + [(5, 7), (5, 7)],
    }
    for name, layout in layouts.items():
        offsets = (np.array(layout, float) if name == "odd"
                   else np.array([(x * scale, -y * scale) for _, _, (x, y) in layout.spaces()]))
        want, got = _one_by_one(norm, offsets, (7, 5)), grid._placement_scores(norm, offsets, (7, 5))
        assert got.shape == want.shape and np.allclose(got, want, rtol=1e-5, atol=1e-6), name
        assert np.unravel_index(got.argmax(), got.shape) == np.unravel_index(want.argmax(), want.shape), name
