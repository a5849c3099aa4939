"""A marker is said absent only where this photo shows its colour: of the other markers of its kind the game has
whose bodies read plainly (found there, or the board plainly there), half at least were found; where those found,
each alone on its space, changed their squares; and where no piece the game has on its space went unseen (make soak
reads the boards of seeds 59, 60 and 62 that taught it: tests/sight/test_heldout_boards.py)."""

from __future__ import annotations

import numpy as np

from sight.layout import Piece
from sight.read import _behind, _peers_still, _unshown
from sight.tuning import Tuning

HERE = Piece(7, 3, "Green")


def _said(*others: str, **more) -> dict:
    said = {HERE: "no"}
    said.update({Piece(c, 1, "Green"): status for c, status in zip(range(2, 13), others)})
    said.update({Piece(12, k, kind): status for k, (kind, status) in enumerate(more.items(), 1)})
    return said


def test_a_colour_none_of_whose_plain_pieces_was_found_is_not_shown():
    assert _unshown(HERE, _said("no", "no", "faint"))


def test_a_colour_found_at_half_of_its_plain_pieces_is_shown():
    assert not _unshown(HERE, _said("yes", "no"))
    assert not _unshown(HERE, _said("yes", "yes", "faint"))


def test_fewer_found_than_half_is_not_shown():
    assert _unshown(HERE, _said("yes", "no", "faint"))


def test_pieces_read_unplainly_and_other_colours_do_not_count():
    assert not _unshown(HERE, _said("yes", "unsure", "unsure", Red="no", Blue="faint"))
    assert _unshown(HERE, _said("no", "unsure", Red="yes", Blue="yes"))


def test_a_lone_marker_of_its_colour_is_judged_by_its_own_square():
    assert not _unshown(HERE, _said(Red="no"))


class _Pixels:
    """How much each space's square changed (by half a change)."""

    def __init__(self, stirred):
        self.stirred = stirred

    def changed(self, feet, bar):
        assert bar == Tuning().change[1] / 2
        return self.stirred[int(feet[0])]


class _Bodies:
    feet = [np.array([n]) for n in range(5)]


def _still(stirred, statuses=("yes", "yes", "yes", "yes"), shared=()) -> bool:
    peers = [Piece(c, 1, "Green") for c in range(2, 2 + len(statuses))]
    said = {HERE: "no", **dict(zip(peers, statuses))}
    index = {(HERE.column, HERE.step): 0, **{(p.column, p.step): n for n, p in enumerate(peers, 1)}}
    at = {n: [p] for n, p in enumerate([HERE] + peers)}
    for n in shared:  # another piece on that space: its square changed for that one too
        at[n] = at[n] + [Piece(99, n, "Red")]
    return _peers_still(HERE, said, at, _Pixels(dict(enumerate(stirred))), _Bodies(), index, Tuning())


def test_found_markers_that_barely_changed_their_squares_make_a_still_square_prove_nothing():
    # seed 60's board 36: reds on a red board, found, changing their squares 0.00 to 0.20
    assert _still((0.02, 0.0, 0.01, 0.2, 0.18))


def test_found_markers_that_changed_their_squares_widely_let_a_still_square_speak():
    assert not _still((0.02, 0.55, 0.6, 0.4, 0.7))


def test_only_markers_found_alone_on_their_spaces_are_weighed():
    assert not _still((0.02, 0.0, 0.6, 0.5, 0.7), statuses=("unsure", "yes", "yes", "yes"))
    assert not _still((0.02, 0.0, 0.0, 0.5, 0.7), shared=(1, 2))
    assert not _still((0.02, 0.0, 0.0, 0.0, 0.0), statuses=("no", "faint", "unsure", "unsure"))


def _behind_of(*mates: str) -> bool:
    """``HERE`` said absent, sharing its space with pieces the photo said ``mates`` of."""
    others = [Piece(HERE.column, HERE.step, kind) for kind in ("runner", "Red", "Blue")[:len(mates)]]
    said = {HERE: "no", **dict(zip(others, mates)), Piece(2, 1, "Red"): "unsure"}
    return _behind(HERE, said, {0: [HERE, *others], 1: [Piece(2, 1, "Red")]}, {(HERE.column, HERE.step): 0, (2, 1): 1})


def test_a_piece_unseen_on_its_space_may_hide_it():
    # seed 62's board 1: a white runner on a white disc, unseen, in front of the red said missing
    assert _behind_of("unsure")
    assert _behind_of("faint")
    assert _behind_of("yes", "unsure")


def test_space_mates_seen_or_plainly_absent_hide_nothing_unseen():
    assert not _behind_of()  # alone on its space: an unseen piece elsewhere is no matter
    assert not _behind_of("yes")  # one found there: how much its colour covers is weighed where it is found
    assert not _behind_of("no", "yes")
