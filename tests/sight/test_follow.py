"""A check's photo whose corner tags cannot be read (a shaken, bumped camera) followed from the set-up's map."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from engine import HEIGHTS
from sight import markers, scene
from sight.calibrate import Calibration, calibrate
from sight.follow import follow
from sight.layout import Piece, centred
from sight.palette import Palette
from sight.read import look
from sight.verdict import verdict

PIECES = (Piece(7, 4, "Red"), Piece(8, 2, "Blue"), Piece(5, 3, "Red"))


@pytest.fixture(scope="module")
def night():
    """A table set up calmly, then a photo with the camera bumped (about 15 mm on the board) and shaken (6 px)."""
    layout = centred(HEIGHTS)
    table = scene.random_table(np.random.default_rng(4), layout)
    calm = scene.calm_shot()
    cal = calibrate(scene.render(layout, [], table, calm), HEIGHTS, layout)
    shot = dataclasses.replace(calm, turn=(0.6, -0.5, 0.4), shift=(1.5, -1.0, 0.0),
                               exposure=dataclasses.replace(calm.exposure, blur=0.9, motion=(6.0, 30.0)))
    photo = scene.render(layout, PIECES, table, shot)
    spaces = np.array([p for _, _, p in layout.spaces()])
    # where the set-up's own map puts each space, and where the bumped camera sees it
    want = markers.apply(cal.to_plane, scene.project(table, calm, spaces))
    return cal, photo, scene.project(table, shot, spaces), want


def test_a_shaken_photo_whose_tags_cannot_be_read_is_followed_to_within_a_millimetre(night):
    cal, photo, seen, want = night
    assert len(markers.find(photo, cal.anchors.corners)) < markers.ENOUGH  # the tags alone cannot place it
    before = np.linalg.norm(markers.apply(cal.to_plane, seen) - want, axis=1).max()
    to_plane = follow(photo, cal, cal.to_plane)
    assert to_plane is not None
    after = np.linalg.norm(markers.apply(to_plane, seen) - want, axis=1).max()
    assert before > 8 and after < 1.0, (before, after)


def test_the_check_reads_the_followed_board_and_is_blind_without_the_set_ups_map(night):
    cal, photo, _, _ = night
    found = verdict(look(photo, cal, PIECES, Palette.of(["Red", "Blue"])), PIECES)
    assert found.state in ("right", "unsure") and not found.wrong, found
    old = dataclasses.replace(cal, to_plane=None)  # a set-up kept before the map was
    assert look(photo, old, PIECES, Palette.of(["Red", "Blue"])).blind == "markers"


def test_a_board_farther_off_than_a_bump_is_not_followed(night):
    cal, photo, _, _ = night
    slid = np.array([[1, 0, 60.0], [0, 1, 0], [0, 0, 1]]) @ cal.to_plane  # the guess 6 cm off
    assert follow(photo, cal, slid) is None


def test_another_picture_is_not_taken_for_the_board(night):
    cal, photo, _, _ = night
    rng = np.random.default_rng(1)
    assert follow(rng.integers(0, 255, photo.shape, dtype=np.uint8), cal, cal.to_plane) is None
    assert follow(np.zeros_like(photo), cal, cal.to_plane) is None


def test_the_set_ups_map_is_kept_and_an_old_set_up_without_it_still_reads(night):
    cal, _, _, _ = night
    raw = cal.to_json()
    again = Calibration.from_json(raw)
    assert np.allclose(again.to_plane, cal.to_plane)
    del raw["to_plane"]
    assert Calibration.from_json(raw).to_plane is None
    for bad in ([1, 2, 3], ["a"] * 9, [0.0] * 9, [float("nan")] * 9):
        with pytest.raises(ValueError):
            Calibration.from_json({**cal.to_json(), "to_plane": bad})
