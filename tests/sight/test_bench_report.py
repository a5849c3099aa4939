"""The camera benchmark's sums (make camera-bench): a hand board read again once the hand has gone counts a
mistake missed only when both pictures missed it, and a right board said wrong in either picture."""

from __future__ import annotations

import random

import pytest

from benchmarks.camera import Board, check_board, report, said_of, wrong_games
from benchmarks.camera_positions import sample_position, sample_positions
from engine import HEIGHTS
from sight.layout import RUNNER, Piece


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


def _games(index: int) -> list:
    pieces, colours = sample_position(index, seed=49)
    return tuple(pieces), wrong_games(tuple(pieces), tuple(colours), random.Random(49 * 1_000_003 + index))


def test_a_runner_a_square_off_moves_one_runner_a_step_in_its_column_onto_no_markers_space():
    drawn = 0
    for index in range(60):
        pieces, games = _games(index)
        runners = [p for p in pieces if p.kind == RUNNER]
        moved = dict(games).get("runner a square off")
        if moved is None:
            continue
        drawn += 1
        was, = set(pieces) - set(moved)
        now, = set(moved) - set(pieces)
        assert was.kind == now.kind == RUNNER and was.column == now.column and abs(was.step - now.step) == 1
        assert 1 <= now.step <= HEIGHTS[now.column]
        assert not any(p.kind != RUNNER and (p.column, p.step) == (now.column, now.step) for p in pieces)
        assert runners and [name for name, _ in games][-1] == "runner a square off"
    assert drawn >= 15  # mid-turn boards: about a third of them


def test_the_runner_a_square_off_is_drawn_last_so_each_boards_other_wrong_games_stay_as_measured_before():
    # what the benchmark drew for seed 49's first boards before the runner a square off was added (a5ed15e)
    before = {0: [("marker a square off", (7, 3, "Red")), ("marker the game lacks", (7, 2, "Red"))],
              3: [("marker a square off", (7, 4, "Blue")), ("marker missing", (3, 3, "Green"))],
              4: [("marker a square off", (9, 1, "Red")), ("runner left on", (4, 7, RUNNER))]}
    for index, games in before.items():
        pieces, drawn = _games(index)
        assert [name for name, _ in drawn[:2]] == [name for name, _ in games]
        assert set(drawn[0][1]) - set(pieces) == {Piece(*games[0][1])}
        assert set(drawn[1][1]) ^ set(pieces) == {Piece(*games[1][1])}
        assert [name for name, _ in drawn[2:]] == ["runner a square off"]


def test_each_kind_of_wrong_game_gets_its_own_missed_figure(capsys):
    boards = [Board(0, False, right="right", wrong_checks=3,
                    variants=("marker a square off", "runner left on", "runner a square off"),
                    missed=[("runner a square off", "unsure", "")]),
              Board(1, False, right="right", wrong_checks=2, variants=("marker a square off", "marker missing"),
                    missed=[("marker a square off", "unsure", ""), ("marker missing", "right", "")])]
    report(boards, 1.0, 5)
    line = _lines(capsys)["missed by kind"]
    assert "marker a square off 1 of 2 (50.00%)" in line and "runner a square off 1 of 1 (100.00%)" in line
    assert "runner left on 0 of 1 (0.00%)" in line and "marker missing 1 of 1" in line


@pytest.mark.slow  # two renders and four to six checks (about 5 s): make soak runs it
def test_a_hand_board_is_read_again_without_its_hand_and_a_calm_one_is_not():
    positions = sample_positions(10, seed=49)
    hand = check_board((9, 49, tuple(positions[9][0]), tuple(positions[9][1])))
    calm = check_board((8, 49, tuple(positions[8][0]), tuple(positions[8][1])))
    assert hand.hand and hand.again is not None and set(hand.again) <= {name for name, _, _ in hand.missed}
    assert len(hand.seconds) >= 4  # the hand's picture read three times, the bare one once at least
    assert not calm.hand and calm.again is None and len(calm.seconds) == 3


@pytest.mark.parametrize("finding, said", [
    (("moved", "Red", 7, 4, 5), True),  # should be at 4, it is at 5: right
    (("missing", "Red", 7, 4, 0), True),  # not at 4: right, though it does not say where it is
    (("moved", "Red", 7, 4, 6), False),  # it is at 5, not 6
    (("extra", "Red", 7, 0, 5), True),  # one more at 5: the game has none there
    (("missing", "Blue", 7, 4, 0), False),  # another piece
    (("extra", "Red", 8, 0, 5), False),  # another column
])
def test_a_finding_says_the_mistake_only_where_it_names_where_the_piece_stands_or_where_it_is_missing(finding, said):
    board = (Piece(7, 5, "Red"), Piece(7, 2, "Blue"))
    game = (Piece(7, 4, "Red"), Piece(7, 2, "Blue"))
    assert said_of(finding, board, game) is said


def test_found_but_said_of_another_place_is_counted_by_kind(capsys):
    boards = [Board(0, False, right="right", wrong_checks=2, variants=("runner a square off", "marker missing"),
                    misplaced=[("runner a square off", (("moved", RUNNER, 9, 3, 1),))])]
    report(boards, 1.0, 5)
    line = _lines(capsys)["found, but said of another place"]
    assert "1 of 2 mistakes found (50.00%)" in line and "runner a square off 1" in line
