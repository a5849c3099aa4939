"""The corner tags in a soft photo (sight/markers.py): read by their cells' likeness when OpenCV cannot decode
them, never a square that is not one of the board's tags."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sight import markers
from sight.layout import MARKER_IDS


def _sheet(ids, side=20, blur=2.0, motion=0, turn=0):
    """Tags ``ids`` (a dict id -> (x, y) of the black square's top-left), each ``side`` px (3 px a cell), on white
    paper, then blurred as a webcam's soft lens blurs them (and shaken ``motion`` px across); with each tag's
    corners (ArUco's order), each tag turned ``turn`` quarters anticlockwise."""
    paper = np.full((360, 480), 235, np.uint8)
    corners = {}
    for i, (x, y) in ids.items():
        printed = np.rot90(markers.drawn(i, 60) if i in MARKER_IDS else _other(i), turn)
        small = cv2.resize(printed, (side, side), interpolation=cv2.INTER_AREA)
        paper[y:y + side, x:x + side] = small * (205 / 255) + 25  # the ink's black and the paper's white
        upright = np.array([(x, y), (x + side, y), (x + side, y + side), (x, y + side)], np.float64) - 0.5
        corners[i] = np.roll(upright, turn, axis=0)  # the printed top-left is a quarter further round each turn
    soft = cv2.GaussianBlur(paper, (0, 0), blur)
    if motion:
        kernel = np.zeros((motion, motion), np.float32)
        kernel[motion // 2] = 1 / motion
        soft = cv2.filter2D(soft, -1, kernel)
    return soft, corners


def _other(i):
    return cv2.aruco.generateImageMarker(cv2.aruco.getPredefinedDictionary(markers.DICTIONARY), i, 60, borderBits=1)


PLACES = {0: (40, 40), 1: (300, 50), 2: (320, 250), 3: (60, 260)}


def test_a_soft_photos_tags_are_read_by_likeness_where_decoding_fails():
    soft, corners = _sheet(PLACES)
    assert not markers._detect(soft)[0]  # OpenCV's own reading misses them all: the case this is for
    found = markers.find(soft)
    assert sorted(found) == list(MARKER_IDS)
    for i, c in found.items():
        assert np.abs(c - corners[i]).max() < 1.2, i  # each corner where it is, in ArUco's order (tag upright)


@pytest.mark.parametrize("turn", [1, 2, 3])
def test_a_turned_soft_tag_keeps_its_corners_order(turn):
    """Tags turned on the board: each tag's first corner is still its printed top-left, wherever that lies."""
    soft, corners = _sheet(PLACES, turn=turn)
    found = markers.find(soft)
    assert sorted(found) == list(MARKER_IDS)
    for i, c in found.items():
        assert np.abs(c - corners[i]).max() < 1.2, (turn, i)


def test_squares_that_are_not_the_boards_tags_are_never_taken_for_one():
    """Another dictionary id, a black square, a tag seen twice: none of them is one of the board's tags."""
    soft, _ = _sheet({7: (40, 40), 12: (300, 50), 2: (320, 250), 1: (60, 260)})
    soft[150:180, 200:230] = 25  # a black square (a dark piece seen from above)
    found = markers.find(soft)
    assert set(found) <= {1, 2}
    both = np.minimum(_sheet({2: (40, 40), 1: (300, 50), 3: (320, 250)})[0], _sheet({2: (60, 260)})[0])
    assert 2 not in markers.find(both) and {1, 3} <= set(markers.find(both))


def _seen_and_kept(turned: float = 0.0):
    """The standard layout's four tags as set up, and as a later photo sees them (through a camera's map, tag 1
    turned ``turned`` degrees on the board about its middle since the set-up)."""
    from sight.layout import MARKER_MM, STANDARD_MARKERS

    kept = markers.Anchors(markers.nominal(STANDARD_MARKERS, MARKER_MM))
    a = np.radians(turned)
    turn = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    now = {i: (c - c.mean(axis=0)) @ turn.T + c.mean(axis=0) if i == 1 else c for i, c in kept.corners.items()}
    camera = np.array([[1.8, 0.1, 320], [-0.05, -1.7, 260], [1e-4, 2e-4, 1]])  # the plane to the photo
    return {i: markers.apply(camera, c) for i, c in now.items()}, kept


def test_a_tag_turned_on_the_board_since_the_set_up_is_refused():
    from firmware.camera.eye import refusal_kind

    found, kept = _seen_and_kept(turned=20)
    with pytest.raises(markers.MarkersError, match="moved 9 mm") as err:
        markers.plane_map(found, kept)
    assert refusal_kind(err.value) == "markers"  # a set-up refused so: the screen says to mind the tags
    with pytest.raises(markers.MarkersError):
        markers.plane_map({i: found[i] for i in (0, 1, 2)}, kept)  # three tags seen, the turned one among them


def test_corners_as_soft_as_a_webcams_are_no_tag_moved():
    """make camera-bench's check photos fit their tags' corners to 4.2 mm at most (blur, JPEG, a lens's
    distortion); a bar of 4 mm refused two right boards as "moved". A tag turned a few degrees, or corners off
    by as much as the worst of those photos' (here 4.4 mm at most), is read."""
    found, kept = _seen_and_kept(turned=5)
    markers.plane_map(found, kept)
    found, kept = _seen_and_kept()
    shaken = {i: c + np.random.default_rng(i).normal(0, 3.0, c.shape) for i, c in found.items()}  # pixels
    markers.plane_map(shaken, kept)
