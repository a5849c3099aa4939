"""Black runners (the config's ``[camera] runner = "black"``, for a board whose spaces are white or cream): boards
of the camera benchmark drawn with black runners (``benchmarks.camera --runner black``) and read against their
right game."""

from __future__ import annotations

import pytest

from sight.layout import RUNNER, Piece

from .bench_draw import read_right


@pytest.mark.slow  # two renders and a set-up (2 to 3 s): make soak runs it, make test keeps its 2 minutes
def test_a_black_runner_in_a_black_hole_is_never_said_missing():
    """Board 34, black runners: a board whose spaces are black holes in a blue band. The runner on 10 stands in
    its hole, black on black, and changed nothing there. Over its whole square (most of it the blue band) a black
    runner would stand out plainly, so its square's stillness was taken for proof: "The runner on 10 should be at
    5 (it is not there)". Where a runner stands (the disc in its square's middle, the hole) it would not stand
    out: unsure, never missing."""
    pieces, found = read_right(34, runner="black")
    assert Piece(10, 5, RUNNER) in pieces
    assert found.state != "wrong" and (10, 5) in found.unsure, found
