"""The camera benchmark's sums (make camera-bench): a hand board read again once the hand has gone counts a
mistake missed only when both pictures missed it, and a right board said wrong in either picture."""

from __future__ import annotations

import pytest

from benchmarks.camera import Board, check_board, report
from benchmarks.camera_positions import sample_positions


def _lines(capsys) -> dict[str, str]:
    out = capsys.readouterr().out.splitlines()
    return {line.split(":")[0].strip(): line for line in out}


def test_at_the_table_a_hand_boards_mistake_is_missed_only_when_both_pictures_missed_it(capsys):
    calm = Board(0, False, right="unsure", missed=[("runner left on", "unsure", "")], wrong_checks=2)
    hand = Board(9, True, right="blind", missed=[("marker a square off", "blind", "hand"),
                                                 ("marker missing", "blind", "hand")],
                 wrong_checks=2, again=["marker missing"])
    report([calm, hand], 1.0, 5)
    lines = _lines(capsys)
    assert "missed errors" in lines and "3 of 4" in lines["missed errors"]
    assert "missed 2 of 4 (50.00%)" in lines["at the table (the 1 hand boards read again once the hand has gone)"]


def test_at_the_table_a_right_board_said_wrong_once_its_hand_has_gone_is_a_false_mismatch(capsys):
    hand = Board(19, True, right="unsure", wrong_checks=2, again=[], again_false=(("extra", "Red", 3, 0, 2),))
    report([hand, Board(1, False, right="right", wrong_checks=2)], 1.0, 5)
    out = capsys.readouterr().out
    assert "false mismatches:   0 of 2" in out
    assert "false mismatches 1 of 2 (50.00%)" in out
    assert "false on board 19 once its hand had gone" in out


@pytest.mark.slow  # two renders and four to six checks (about 5 s): make soak runs it
def test_a_hand_board_is_read_again_without_its_hand_and_a_calm_one_is_not():
    positions = sample_positions(10, seed=49)
    hand = check_board((9, 49, tuple(positions[9][0]), tuple(positions[9][1])))
    calm = check_board((8, 49, tuple(positions[8][0]), tuple(positions[8][1])))
    assert hand.hand and hand.again is not None and set(hand.again) <= {name for name, _, _ in hand.missed}
    assert len(hand.seconds) >= 4  # the hand's picture read three times, the bare one once at least
    assert not calm.hand and calm.again is None and len(calm.seconds) == 3
