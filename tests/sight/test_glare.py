"""A glare's halo told from what stands on the board (:func:`sight.pixels._lit`): the lamp's light added to the
board's own colour, whatever that colour is. On a red board the halo stays red (only its green and blue rise), so
a test of greyness alone read it as something foreign, and a ring of it round the glare as a hand (board 238 of
make camera-bench: "Something is over the board")."""

from __future__ import annotations

import numpy as np

from sight.pixels import _lit


def _one(bgr):
    return np.array(bgr, np.float32).reshape(1, 1, 3)


def _added(board, light):
    """``board`` (BGR, the webcam's encoding) with ``light`` of white added in linear light."""
    linear = np.array(board, np.float32) ** 2.2 + light
    return _one(np.minimum(linear, 1.0) ** (1 / 2.2))


RED, CREAM, GREEN_FELT = (0.01, 0.03, 0.9), (0.55, 0.75, 0.85), (0.2, 0.35, 0.15)


def test_white_light_added_to_a_red_board_is_a_halo():
    assert _lit(_added(RED, 0.08), _one(RED))[0, 0]
    assert _lit(_added(RED, 0.3), _one(RED))[0, 0]  # its red blown out: green and blue still rose together


def test_white_light_added_to_a_pale_or_dark_board_is_a_halo():
    assert _lit(_added(CREAM, 0.05), _one(CREAM))[0, 0]
    assert _lit(_added(GREEN_FELT, 0.1), _one(GREEN_FELT))[0, 0]


def test_a_hand_over_a_red_board_is_no_halo():
    skin = (0.55, 0.65, 0.85)  # its red is below the board's: a channel fell
    assert not _lit(_one(skin), _one(RED))[0, 0]


def test_a_piece_brighter_than_the_board_is_no_halo():
    yellow, white_runner_on_felt = (0.1, 0.8, 0.9), (0.9, 0.9, 0.9)
    assert not _lit(_one(yellow), _one(GREEN_FELT))[0, 0]  # its blue fell
    assert not _lit(_one(white_runner_on_felt), _one(CREAM))[0, 0]  # one channel rose alone (blue, by far the most)


def test_the_board_unchanged_or_darker_is_no_halo():
    assert not _lit(_one(CREAM), _one(CREAM))[0, 0]
    assert not _lit(_one(tuple(0.7 * c for c in CREAM)), _one(CREAM))[0, 0]


def test_pixels_in_a_row_are_judged_each_on_its_own():
    """The reader judges only the halo's undecided pixels, as rows of colours: each as it would be in a picture."""
    skin = (0.55, 0.65, 0.85)
    rows = np.concatenate([_added(RED, 0.08), _one(skin), _added(CREAM, 0.05)]).reshape(3, 3)
    boards = np.concatenate([_one(RED), _one(RED), _one(CREAM)]).reshape(3, 3)
    assert _lit(rows, boards).tolist() == [True, False, True]
