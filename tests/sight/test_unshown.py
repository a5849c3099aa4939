"""A marker is said absent only where this photo shows its colour: of the other markers of its kind the game has
whose bodies read plainly (found there, or the board plainly there), half at least were found (make soak reads the
boards of seed 59 that taught it: tests/sight/test_heldout_boards.py)."""

from __future__ import annotations

from sight.layout import Piece
from sight.read import _unshown

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
