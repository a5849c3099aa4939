"""The layout search (sight/grid.py): its sum of shifted pictures, built column by column, is the plain sum; the
fit, on rendered boards, finds every space; and a fit no board is spaced like is not believed."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from engine import HEIGHTS
from sight import grid
from sight.layout import Column, Layout, centred


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


def _grid_picture(pitch=(36, 30), size=(26, 22), shape=(400, 440)):
    """A board of rounded spaces on a plain ground, every pitch, the first space's centre at (50, 40) px."""
    picture = np.full(shape, 200, np.float32)
    for y in range(40, shape[0] - 20, pitch[1]):
        for x in range(50, shape[1] - 20, pitch[0]):
            cv2.rectangle(picture, (x - size[0] // 2, y - size[1] // 2), (x + size[0] // 2, y + size[1] // 2), 90, -1)
            cv2.circle(picture, (x, y), 6, 160, -1)
    return cv2.GaussianBlur(picture, (0, 0), 1.2)


@pytest.mark.parametrize("off", [(0, 0), (5, -3), (-7, 5), (6, 0), (-4, -6)])
def test_symmetric_finds_the_spaces_middle_from_a_fifth_of_a_pitch_off(off):
    """Centres a known way off the spaces' middles (up to a fifth of a pitch): the symmetric point found is the
    middles', to a fraction of a pixel. (A quarter of a pitch off, the gap between two spaces is as near and as
    symmetric: telling a space from a gap is the fit's, by the columns' ends.)"""
    picture = _grid_picture()
    true = np.array([(50 + 36 * i, 40 + 30 * j) for i in range(2, 9) for j in range(2, 9)], np.float64)
    found = grid._symmetric(picture, true + off, (36.0, 30.0))
    assert np.abs(found + np.array(off)).max() < 0.6, found


def _rendered_board(index: int):
    """One of the camera benchmark's tables, with where the camera sees each space on the board's plane."""
    from sight import markers, scene
    from sight.calibrate import calibrate
    from sight.layout import STANDARD_PITCH

    rng = np.random.default_rng([49, index])
    truth = centred(HEIGHTS, (STANDARD_PITCH[0] * rng.uniform(0.88, 1.12), STANDARD_PITCH[1] * rng.uniform(0.88, 1.12)),
                    (rng.uniform(-8, 8), rng.uniform(-8, 8)))
    table = scene.random_table(rng, truth)
    photo = scene.render(truth, [], table, scene.calm_shot())
    cal = calibrate(photo, HEIGHTS, centred(HEIGHTS))
    to_plane = markers.plane_map(markers.find(photo, cal.anchors.corners), cal.anchors)
    seen = markers.apply(to_plane, scene.project(table, scene.calm_shot(), np.array([p for _, _, p in truth.spaces()])))
    return cal, seen


@pytest.mark.parametrize("index", [63, pytest.param(10, marks=pytest.mark.slow)])  # a render each: one in make test
def test_fit_finds_every_space_where_the_camera_sees_it(index):
    """Two editions the fit once placed on the gaps between the spaces (10 mm off: a plain board of small rounded
    spaces; a board with a colour lane down each column): every fitted space within 1.5 mm of where the camera
    sees the drawn one."""
    cal, seen = _rendered_board(index)
    fitted = np.array([p for _, _, p in cal.layout.spaces()])
    assert np.linalg.norm(fitted - seen, axis=1).max() < 1.5


def _column_moved(layout: Layout, total: int, by: tuple[float, float]) -> Layout:
    """``layout`` with column ``total``'s two ends moved ``by`` (mm)."""
    cols = tuple(Column(c.total, c.height, (c.bottom[0] + by[0], c.bottom[1]), (c.top[0] + by[0], c.top[1] + by[1]))
                 if c.total == total else c for c in layout.columns)
    return Layout(cols, layout.space, layout.markers, layout.marker_mm)


def test_a_fit_is_believed_only_when_every_column_is_spaced_as_a_board_can_be():
    """Board 50 of make camera-bench: a grid squeezed to 0.6 of the standard's pitch, wholly inside the board's
    coloured lanes, scored 0.94. No edition the fit searches for is spaced so; the search's own range (and its
    fine steps' reach past it) says which are."""
    like = centred(HEIGHTS)
    assert grid.believable(like, like)
    for fy in (0.68, 0.9, 1.12, 1.33):  # the editions the search reaches
        assert grid.believable(centred(HEIGHTS, (24.0, 20.0 * fy), (3.0, -5.0)), like), fy
    for fy in (0.6, 1.4):
        assert not grid.believable(centred(HEIGHTS, (24.0, 20.0 * fy)), like), fy
    assert not grid.believable(centred(HEIGHTS, (14.0, 20.0)), like)  # the columns packed together
    # one column alone squeezed (its top 32 mm low: 0.6 of the pitch up it), or moved onto its neighbour
    assert not grid.believable(_column_moved(like, 3, (0.0, -32.0)), like)
    assert not grid.believable(_column_moved(like, 7, (-14.0, 0.0)), like)
    assert grid.believable(_column_moved(like, 7, (-2.0, 1.0)), like)  # a lens bends a column a little
