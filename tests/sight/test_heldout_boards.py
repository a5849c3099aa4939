"""Boards of make camera-heldout (seeds other than the benchmark's own, each read first after the rules of its day were
chosen) that the reader once said wrong though they were right: each photographed again as the benchmark does, and
read against its right game."""

from __future__ import annotations

import pytest

from sight.layout import RUNNER, Piece
from sight.read import look
from sight.verdict import verdict

from .bench_draw import read_right, right_board, right_verdict


@pytest.mark.slow  # two renders and a set-up each (2 to 3 s): make soak runs them, make test keeps its 2 minutes
def test_a_piece_found_only_as_a_neighbours_rim_leaves_a_blob_of_a_near_colour_unsure():
    """Board 1 of seed 50 (make camera-heldout), which no rule was chosen on: an orange piece beside a blue one read
    yellow, and the orange found there was only the blue piece's blurred rim, in no patch a piece thick; the yellow
    blob was said one more piece. It may be the orange piece, misread: unsure, not wrong."""
    found = right_verdict(1, seed=50)
    assert found.state != "wrong", found.wrong


@pytest.mark.slow  # as above
def test_a_pieces_blurred_rim_is_no_marker_leaning_off_its_square():
    """Board 26 of seed 50 (make camera-heldout): a red piece's blurred rim on a blue board, a crescent half a piece
    big lying in the body of the space below the navy marker's, was taken for that marker leaning off its square:
    'moved'. A leaning piece is thick across its square (0.22 of its width at least in make test's leaning photo);
    the crescent is 0.15: no piece."""
    found = right_verdict(26, seed=50)
    assert found.state != "wrong", found.wrong


@pytest.mark.slow  # as above
def test_white_beside_glare_on_a_pale_board_is_no_runner_left_on():
    """Board 130 of seed 50 (make camera-heldout): glare on a pale board reads as white far bigger than a piece, and
    its haze over the space beside it as a white blob as big, as round and as plainly white as a runner's top, 0.16
    of a piece's width from that glare: 'a runner is still on 2'. Such white may be either: unsure."""
    pieces, found = read_right(130, seed=50)
    assert not any(p.kind == RUNNER and p.column == 2 for p in pieces)
    assert found.state != "wrong", found.wrong


@pytest.mark.slow  # as above
@pytest.mark.parametrize("index, why", [
    (172, "runner on 3 said moved from 4 to 2"),
    (227, "runners on 2 and 7 said moved from 3 to 1"),
    (246, "runner on 5 said moved from 3 to 2"),
])
def test_a_runner_its_square_would_hardly_show_is_not_said_moved(index, why):
    """Boards of seed 52, read first after every rule here was chosen: a white runner on a cream square shows
    nothing of itself there, and the white a square or two off (a found piece's pale rim, the square's cream lit
    whiter) was taken for its foot: 'moved'. A square that would hardly show a piece proves nothing by showing
    none: unsure."""
    found = right_verdict(index, seed=52)
    assert found.state != "wrong", (why, found.wrong)


@pytest.mark.slow  # as above
@pytest.mark.parametrize("seed, index, why", [
    (52, 49, "a runner on 9 at 7, 2.4 pieces' widths from the hand"),
    (53, 149, "a runner on 9 at 5, 1.8 widths from the hand"),
    (54, 29, "a Red on 6 at 4, 1.1 widths from the hand"),
    (56, 69, "Yellow on 7 said moved from 7 to 5, beside the hand (seed 56: read first with this rule chosen)"),
])
def test_a_pieces_look_alike_beside_a_hand_is_unsure(seed, index, why):
    """Hand boards of make camera-heldout's seeds (and seed 53, read once): the hand's shadow and its skin's shine
    beside it, outside the spaces its region makes unsure, took a piece's look and were said one more piece on a
    right board. A piece found within three pieces' widths of a hand is unsure."""
    found = right_verdict(index, seed=seed)
    assert found.state != "wrong", (why, found.wrong)


@pytest.mark.slow  # as above
def test_a_hand_read_as_the_runners_white_is_a_hand():
    """Board 89 of seed 54 (make camera-heldout): a pale hand under a bright lamp, reaching in over the board, read
    as the runners' white, so never seen as a hand; a yellow look-alike beside it was said one more piece. White far
    bigger than a piece that comes in from beyond the board is a hand, and what lies round it unsure."""
    photo, cal, pieces, palette = right_board(89, seed=54)
    reading = look(photo, cal, pieces, palette)
    assert reading.hand
    found = verdict(reading, pieces)
    assert found.state != "wrong", found.wrong


@pytest.mark.slow  # as above
@pytest.mark.parametrize("seed, index", [(53, 67), (56, 43)])
def test_a_glare_spot_a_runners_size_is_no_runner_left_on(seed, index):
    """Seed 53's board 67 and seed 56's board 43, each read once: a small glare spot on a bare space, round, white and
    a runner's size, was said a runner left on. Its middle was 1.26 and 1.21 times as bright as the tags' paper; a
    runner's flat top is lit as that paper is (the 500 boards' runners: 1.01 at most). Unsure, not a runner."""
    pieces, found = read_right(index, seed=seed)
    assert found.state != "wrong", found.wrong


@pytest.mark.slow  # as above
@pytest.mark.parametrize("index", [18, 43])
def test_a_white_runner_on_a_cream_disc_in_a_dark_rimmed_square_is_never_said_missing(index):
    """Boards 18 and 43 of seed 51 (make camera-heldout): white runners on cream discs lit as bright as the tags'
    paper, in squares with a dark rim. Weighed only where a piece stands (the disc), the runners' white (0.86 of
    the paper) seemed to stand out by nine times the disc's noise, while a runner's lit top is as bright as the
    disc and changed nothing: four runners said not there. A piece stands out plainly only if it does both over
    its square and where it stands."""
    pieces, found = read_right(index, seed=51)
    assert any(p.kind == RUNNER for p in pieces)
    assert found.state != "wrong", found.wrong


@pytest.mark.slow  # as above
@pytest.mark.parametrize("index, why", [
    (219, "none of six greens found (white discs under a bright lamp), three said missing"),
    (126, "one of seven reds found and none of seven yellows, a red and a yellow said missing"),
])
def test_a_marker_of_a_colour_the_photo_does_not_show_is_never_said_missing(index, why):
    """Boards of seed 59, read first with every rule before this one: the lamp washed one colour's markers out, so
    most of them were not found on their spaces, and those whose squares were still were said missing, while they
    stood there. A colour fewer than half of whose pieces read plainly were found proves none of them absent."""
    found = right_verdict(index, seed=59)
    assert found.state != "wrong", (why, found.wrong)


@pytest.mark.slow  # as above
def test_a_runner_under_a_palm_read_white_is_never_said_missing():
    """Board 299 of seed 59, a hand board read first with every rule before this one: a runner under the palm, whose
    skin is the board's brown where the lamp leaves it and the runners' white where it lights it, was said missing,
    its square barely changed. The white far bigger than a piece is part of the hand: a piece said absent near it
    is unsure."""
    pieces, found = read_right(299, seed=59)
    assert any(p.kind == RUNNER and (p.column, p.step) == (5, 2) for p in pieces)
    assert found.state != "wrong", found.wrong


@pytest.mark.slow  # as above
def test_a_runner_look_alike_under_a_finger_read_white_is_unsure():
    """Board 99 of seed 63, read first with the rules of 2026-12-08's small hours: a hand over a tan board, its
    fingers read as the runners' white, the hand found by the skin read in the pieces' colours alone, the fingers'
    white no part of it; a finger's white over 6 at 2 was said a runner left on. A piece found near the hand's white is unsure, as one said absent
    there already was."""
    pieces, found = read_right(99, seed=63)
    assert not any(p.kind == RUNNER and (p.column, p.step) == (6, 2) for p in pieces)
    assert found.state != "wrong", found.wrong


@pytest.mark.slow  # as above
def test_a_dark_arm_on_a_dark_board_read_in_bits_is_a_hand():
    """Board 49 of seed 63, read first as above: a dark arm over a dark navy board in a dim, noisy photo reads as
    bits of no colour, red, yellow and white, none far bigger than a piece, so no hand was seen; a red bit over 2
    at 2 was said one more marker. Bits this near one another, enough of them of no colour, are one thing: a
    hand."""
    photo, cal, pieces, palette = right_board(49, seed=63)
    reading = look(photo, cal, pieces, palette)
    assert reading.hand
    assert not any((p.column, p.step) == (2, 2) for p in pieces)
    found = verdict(reading, pieces)
    assert found.state != "wrong", found.wrong


@pytest.mark.slow  # as above
def test_a_piece_pushed_off_a_crowded_space_is_not_one_more():
    """Board 285 of seed 59, read first with every rule before this one: three pieces on 3 at 1 do not fit its
    square, and the red one stands over the hole of 3 at 2: "one more red on 3 at 2". A blob beside a piece of its
    kind found on a space of three is that piece as often as one more: unsure."""
    pieces, found = read_right(285, seed=59)
    assert sum((p.column, p.step) == (3, 1) for p in pieces) == 3
    assert found.state != "wrong", found.wrong


@pytest.mark.slow  # as above
@pytest.mark.parametrize("seed, index, marker, said", [(61, 81, Piece(10, 2, "Red"), 1),
                                                     (58, 135, Piece(11, 2, "Yellow"), 3)])
def test_a_marker_off_its_hole_over_the_next_space_is_not_one_more(seed, index, marker, said):
    """Board 81 of seed 61, read once with the code of 2026-12-07 and used for nothing else: the red marker of 10 at
    2 stands off its hole, a third of its blob in the square of 10 at 1: "one more red on 10 at 1". Board 135 of
    seed 58, a yellow the same way on 11. A colour has one marker on a column: a blob not squarely in its square
    beside a marker of its kind found a space up or down is that marker as often as one more: unsure."""
    pieces, found = read_right(index, seed=seed)
    assert marker in pieces and Piece(marker.column, said, marker.kind) not in pieces
    assert found.state != "wrong", found.wrong


@pytest.mark.slow  # as above
def test_a_marker_whose_found_peers_left_their_squares_still_is_never_said_missing():
    """Board 36 of seed 60, read first with every rule before this one: red markers on a red board. The four found
    changed their squares 0.00 to 0.20; one on a square a red would stand out on by 2.1 times a change, the square
    still, was said missing while it stood there. A still square proves nothing where the pieces found did not
    change theirs either."""
    found = right_verdict(36, seed=60)
    assert found.state != "wrong", found.wrong


@pytest.mark.slow  # as above
def test_a_marker_behind_a_runner_the_photo_did_not_see_is_never_said_missing():
    """Board 1 of seed 62, read first with the code of 2026-12-07: on 11 at 2 a red marker and a white runner on a
    white disc; the runner, white on white, unseen, stands between the camera and the red, whose square barely
    changed: "Red on 11 is missing". A piece the photo did not see may hide another on its space: unsure."""
    pieces, found = read_right(1, seed=62)
    assert {Piece(11, 2, "Red"), Piece(11, 2, RUNNER)} <= set(pieces)
    assert found.state != "wrong", found.wrong


@pytest.mark.slow  # as above
def test_a_pieces_rim_read_in_a_neighbours_colour_is_no_foot_of_that_neighbour():
    """Board 155 of seed 60, read first with every rule before this one: a red marker on a pale yellow space, its
    edge blurred orange and read yellow, ringed it; the yellow marker a square above, pale on its space, showed
    little of itself there: "Yellow on 3 should be at 2 (it is at 1)". A colour nowhere a piece thick on a space
    where a piece of another kind was found is that piece's rim: unsure."""
    found = right_verdict(155, seed=60)
    assert found.state != "wrong", found.wrong


@pytest.mark.slow  # as above
def test_three_pieces_read_a_space_lower_are_a_shifted_reading_not_three_slips():
    """Board 134 of seed 50 (make camera-heldout): a runner and two reds each read a space lower than they stood, and
    a green said missing: four findings, so "cannot see the board well". Once a green of a colour the photo did not
    show was no longer said missing (cec25bb), the three moves were said. Pieces all said moved one space the same
    way are the reading shifted: it cannot see the board well."""
    found = right_verdict(134, seed=50)
    assert found.state == "blind", found
