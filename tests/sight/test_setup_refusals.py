"""The camera's set-up refuses a photo it cannot find the spaces in, and says why in a line the box can act on.

A fit that found nothing still places a grid somewhere: every later check would read against spaces that are
not there (the benchmark once had a board blown out to white read against a grid 3 to 7 cm off, and called a
right board wrong at every check). So a fit scoring under ``FOUND`` is refused; when much of the board is blown
out to white the line says the light is too bright, which the box's screen shows as a light problem.
"""

from __future__ import annotations

import functools

import cv2
import numpy as np
import pytest

from engine import HEIGHTS
from firmware.camera.eye import refusal_kind
from sight import calibrate as calibration
from sight import markers
from sight.layout import STANDARD_MARKERS, centred

from ..camera.photos import CASES, load


@functools.cache
def _empty() -> np.ndarray:
    return load(CASES[0])[0]


def _inside_the_tags(photo: np.ndarray) -> np.ndarray:
    """A mask of the board between the four corner tags (their inner corners), the tags themselves left out."""
    found = markers.find(photo)
    centre = np.mean([q.mean(axis=0) for q in found.values()], axis=0)
    inner = [min(q, key=lambda p: float(np.linalg.norm(p - centre))) for q in found.values()]
    inner = sorted(inner, key=lambda p: float(np.arctan2(p[1] - centre[1], p[0] - centre[0])))
    mask = np.zeros(photo.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(inner).astype(np.int32), 1)
    return mask.astype(bool)


def _refusal(photo: np.ndarray) -> calibration.CalibrationError:
    with pytest.raises(calibration.CalibrationError) as err:
        calibration.calibrate(photo, HEIGHTS, centred(HEIGHTS, markers=STANDARD_MARKERS))
    return err.value


def test_the_fixed_empty_board_sets_up_with_a_score_well_above_the_bar():
    cal = calibration.calibrate(_empty(), HEIGHTS, centred(HEIGHTS, markers=STANDARD_MARKERS))
    assert cal.score > calibration.FOUND + 0.3


def _painted(level: float, spread: float, seed: int) -> np.ndarray:
    """The fixed empty board with everything between its tags painted one noisy grey ``level`` (0..255)."""
    photo = _empty().copy()
    inside = _inside_the_tags(photo)
    noise = np.random.default_rng(seed).normal(0, spread, (int(inside.sum()), 3))
    photo[inside] = np.clip(level + noise, 0, 255).astype(np.uint8)
    return photo


def test_a_board_blown_out_to_white_is_refused_as_too_brightly_lit():
    why = _refusal(_painted(252, 1.5, 1))
    assert "too brightly" in str(why)
    assert refusal_kind(why) == "light"  # the screen says to light the board evenly


def test_a_board_with_no_spaces_to_see_is_refused_as_not_found():
    why = _refusal(_painted(128, 3, 2))
    assert str(why).startswith("cannot find the board's spaces")
    assert refusal_kind(why) == "spaces"  # the screen says to clear the board, the tags on its corners


def test_a_fit_spaced_as_no_board_is_refused_and_the_columns_are_marked_on_the_phone(monkeypatch):
    """A board whose look draws the fit off its spaces (make camera-bench's board 50: coloured lanes, a grid
    squeezed into them that scored 0.94) is refused however well the fit scored, and the screen sends the table
    to the phone's camera page, where a person marks each column's ends."""
    from sight import grid

    squeezed = centred(HEIGHTS, (24.0, 12.0), markers=STANDARD_MARKERS)
    monkeypatch.setattr(grid, "fit", lambda *args: (squeezed, 0.94))
    why = _refusal(_empty())
    assert "paired phone" in str(why)
    assert refusal_kind(why) == "phone"
    monkeypatch.setattr(grid, "fit", lambda *args: (centred(HEIGHTS, markers=STANDARD_MARKERS), 0.94))
    calibration.calibrate(_empty(), HEIGHTS, centred(HEIGHTS, markers=STANDARD_MARKERS))  # spaced as boards are


def test_a_set_up_with_a_tag_covered_is_refused_for_the_tags():
    photo = _empty().copy()
    corners = markers.find(photo)[0]
    cv2.fillConvexPoly(photo, np.round(corners).astype(np.int32), (120, 120, 120))
    why = _refusal(photo)
    assert "not seen" in str(why)
    assert refusal_kind(why) == "markers"  # the screen says to mind the corner tags


def test_a_refusals_kind_is_what_it_carries_not_what_its_words_say():
    """The screen's line is chosen by the refusal's kind, in any language: never by sniffing the English line
    (which once decided it by the words "lit", "phone", "spaces" and "marker")."""
    assert refusal_kind(calibration.CalibrationError("the spaces are lit: mark them on the phone", "markers")) == \
        "markers"
    assert refusal_kind(calibration.CalibrationError("a marker is not lit", "phone")) == "phone"
    assert refusal_kind(markers.MarkersError("four of them spaced and lit")) == "markers"
    assert refusal_kind(ValueError("what no set-up says")) == "spaces"  # an error with no kind: clear the board
    with pytest.raises(AssertionError):
        calibration.CalibrationError("a kind the screen has no line for", "weather")


def test_every_kind_of_refusal_crosses_the_pipe_to_the_box():
    """The camera's process says a refusal's kind to the box (firmware.camera.link, which needs no NumPy, so keeps
    its own list): the box takes a kind the link does not know for a broken message (firmware.daemon.camera), and
    the screen would never say why the set-up was refused."""
    from firmware.camera import link

    assert set(calibration.KINDS) <= set(link.REFUSALS)
