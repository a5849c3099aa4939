"""A piece is said absent only where it would stand out: judged by its colour as the check was given it and as
the photo showed it, plain only if plain both ways (:meth:`sight.pixels.Pixels.visible`)."""

from __future__ import annotations

import numpy as np

from sight.palette import Palette
from sight.pixels import Pixels, opponent

CREAM = (0.80, 0.98, 0.99)  # B, G, R on the markers' white: a cream space


def _pixels(given: Palette, seen: Palette | None) -> Pixels:
    shape = (4, 4)
    board = np.broadcast_to(opponent(np.array(CREAM, np.float32).reshape(1, 1, 3)), shape + (3,)).copy()
    sigma = np.full(shape + (3,), 0.02, np.float32)
    zero = np.zeros(shape, np.float32)
    return Pixels(np.zeros(shape, np.int16), np.zeros(shape + (3,), np.float32), zero, seen or given, board, sigma,
                  zero, given)


def test_a_white_runner_is_not_plain_on_a_cream_space_though_its_shaded_side_was():
    given = Palette({"runner": np.array((1.0, 1.0, 1.0), np.float32)})
    shaded = Palette({"runner": np.array((0.69, 0.66, 0.53), np.float32)})  # what the photo's runners changed
    region = np.arange(16)
    alone = _pixels(given, None).visible("runner", region)
    both = _pixels(given, shaded).visible("runner", region)
    assert _pixels(shaded, None).visible("runner", region) > 10  # the shaded look alone would stand out
    assert both == alone < 10  # but a runner can look as it was given: white on cream hardly shows


def test_a_red_piece_on_a_cream_space_is_plain_either_way():
    given = Palette({"Red": np.array((0.13, 0.13, 0.70), np.float32)})
    seen = Palette({"Red": np.array((0.20, 0.18, 0.75), np.float32)})
    assert _pixels(given, seen).visible("Red", np.arange(16)) > 10
