"""Something over the board (sight/arm.py's ``hands``): a region far bigger than a piece, foreign to the board,
is a hand, and the spaces under it are unsure; glare's halo, the board round a blown-out patch lit past its own
colour, is no hand, however big."""

from __future__ import annotations

import cv2
import numpy as np

from sight.pixels import BOARD, FOREIGN, KIND0, UNKNOWN, Bodies
from sight.arm import beside as _beside, hands as _hands
from sight.tuning import Tuning

SIZE, STEP, SIDE = 240, 20, 10  # the raster (px), the spaces' pitch, a piece's side: a piece covers 100 px


def _board():
    """A raster of BOARD with a space every ``STEP`` px, each body a ``SIDE`` px square round its middle."""
    spaces, pixels = [], []
    for c, x in enumerate(range(STEP // 2, SIZE, STEP)):
        for k, y in enumerate(range(STEP // 2, SIZE, STEP)):
            ys, xs = np.mgrid[y - SIDE // 2:y + SIDE // 2, x - SIDE // 2:x + SIDE // 2]
            spaces.append((c, k, (x, y)))
            pixels.append((ys * SIZE + xs).reshape(-1))
    n = len(spaces)
    body = Bodies(np.zeros((n, 2)), np.zeros((n, 2)), tuple(pixels), np.full(n, SIDE * SIDE, float), SIZE, ())
    return np.full((SIZE, SIZE), BOARD, np.uint8), body, spaces


def _glare(classes, centre=(170, 170)) -> None:
    """A blown-out patch (radius 20 px) and its halo: a ring 8 px wide read foreign (12 pieces of it)."""
    cv2.circle(classes, centre, 28, int(FOREIGN), -1)
    cv2.circle(classes, centre, 20, int(UNKNOWN), -1)


def _arm(classes) -> None:
    """An arm reaching in from the left edge: 80 x 20 px read foreign (16 pieces of it)."""
    classes[40:60, 0:80] = FOREIGN


def _read(classes, body, spaces):
    return _hands(classes, body, spaces, Tuning(), None, np.zeros(classes.shape, bool))


def test_an_arm_over_the_board_is_a_hand_and_its_spaces_are_unsure():
    classes, body, spaces = _board()
    _arm(classes)
    doubts, hand = _read(classes, body, spaces)
    assert hand is not None
    assert (0, 2) in doubts and (3, 2) in doubts  # under the arm
    assert (11, 11) not in doubts  # the far corner


def test_glares_halo_is_no_hand():
    classes, body, spaces = _board()
    _glare(classes)
    assert _read(classes, body, spaces) == (set(), None)


def test_a_hand_beside_glare_is_still_a_hand_and_the_halo_alone_is_not_its_reach():
    classes, body, spaces = _board()
    _glare(classes)
    _arm(classes)
    doubts, hand = _read(classes, body, spaces)
    assert hand is not None and (0, 2) in doubts
    assert (7, 8) not in doubts  # under the halo: no hand there (its glare is unsure elsewhere in the reading)


def test_a_foreign_region_only_touching_glare_is_still_a_hand():
    """An arm whose tip reaches a patch of glare: most of it lies far from the glare, so it is a hand."""
    classes, body, spaces = _board()
    _glare(classes, centre=(110, 50))
    _arm(classes)
    doubts, hand = _read(classes, body, spaces)
    assert hand is not None and (0, 2) in doubts


def test_what_lies_within_a_hands_reach_is_beside_it_and_what_lies_further_is_not():
    """A piece found near a hand is the hand's shadow or its skin's shine as often as a piece (make camera-heldout:
    1.1 to 2.4 pieces' widths from it): ``tuning.hand_reach`` widths (3) from the hand's own region, measured from
    the nearest pixel of a square, and no further."""
    classes, body, spaces = _board()
    _arm(classes)  # rows 40 to 59, columns 0 to 79; a piece's width here is 10 px
    _, arm = _read(classes, body, spaces)
    square = {(c, k): body.pixels[n] for n, (c, k, _) in enumerate(spaces)}
    # (4, 4): the square's top row at y 85, 26 px below the arm (2.6 widths); (4, 5): 46 px (4.6 widths);
    # (5, 2): its left edge at x 105, 26 px right of the arm's end; (8, 2): 86 px
    near = _beside(arm, [square[(4, 4)], square[(4, 5)], square[(5, 2)], square[(8, 2)]], body, Tuning())
    assert near == [True, False, True, False]
    assert _beside(arm, [square[(4, 4)]], body, Tuning(hand_reach=2.0)) == [False]
    assert _beside(arm, [], body, Tuning()) == []


def test_an_arm_read_as_the_runners_white_is_a_hand_only_when_it_reaches_in_from_the_edge():
    """Pale skin under a bright lamp reads as the runners' white (seed 54's board 89 of make camera-heldout: a hand
    over the board never seen as one, and a yellow look-alike beside it said one more piece). White far bigger than
    a piece inside the board is a glare's wash as often: a hand only when it comes in from beyond the board."""
    classes, body, spaces = _board()
    arm = np.zeros(classes.shape, bool)
    arm[40:60, 0:80] = True  # reaching in from the left edge: 16 pieces of white
    doubts, hand = _hands(classes, body, spaces, Tuning(), None, np.zeros(classes.shape, bool), arm)
    assert hand is not None and (0, 2) in doubts and (11, 11) not in doubts
    assert _hands(classes, body, spaces, Tuning(), None, np.zeros(classes.shape, bool), None) == (set(), None)

    wash = np.zeros(classes.shape, bool)
    wash[100:120, 80:160] = True  # as big, inside the board
    assert _hands(classes, body, spaces, Tuning(), None, np.zeros(classes.shape, bool), wash) == (set(), None)


def _bits(classes, kind) -> None:
    """An arm in bits (a dark arm on a dark board, a noisy photo): 5 x 5 px patches 3 px apart over 60 x 48 px
    left of the middle, each a quarter of a piece, 80 of them (20 pieces in all), none joined to another."""
    for y in range(80, 128, 8):
        for x in range(20, 80, 8):
            classes[y:y + 5, x:x + 5] = kind


def test_bits_of_no_colour_close_together_are_one_hand():
    """Seed 63's board 49: a dark arm on a dark navy board read as bits of no colour, red, yellow and white, none
    a hand alone; a red bit was said one more marker. Bits within a piece's width of one another are one thing,
    and a hand when a piece's worth of it is of no piece's colour."""
    classes, body, spaces = _board()
    _bits(classes, FOREIGN)
    doubts, hand = _read(classes, body, spaces)
    assert hand is not None and (2, 4) in doubts and (11, 11) not in doubts
    assert _hands(classes, body, spaces, Tuning(join=0.2), None, np.zeros(classes.shape, bool)) == (set(), None)


def test_bits_of_a_pieces_colour_close_together_are_no_hand():
    """A crowd of pieces and their leans on a board of their colour (the benchmark's board 34: red, yellow and
    blue on a blue board) joins as readily, but none of it is foreign: no hand."""
    classes, body, spaces = _board()
    _bits(classes, KIND0)
    coloured = classes == KIND0
    assert _hands(classes, body, spaces, Tuning(), coloured, np.zeros(classes.shape, bool)) == (set(), None)
    classes[80:85, 20:45] = FOREIGN  # a piece's worth of no colour among them: a hand
    coloured = classes == KIND0
    assert _hands(classes, body, spaces, Tuning(), coloured, np.zeros(classes.shape, bool))[1] is not None
