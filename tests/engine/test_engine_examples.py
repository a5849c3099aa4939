"""Every worked example of RULES.md, played through apply() from a new game."""

import pytest

from engine import STOP, IllegalEventError, Move, Phase, Roll, apply, pairings, step_after
from tests.kit.gamekit import play


def sums_of(moves):
    return [m.sums for m in moves]


def test_examples_first_roll_2345_offers_5_9_or_6_8_or_7_twice():
    state = play(2, [Roll((2, 3, 4, 5))])
    assert state.phase is Phase.MOVE
    assert sums_of(state.moves) == [(5, 9), (6, 8), (7, 7)]
    a, b, c = pairings(state)
    assert (a.sums, sums_of(a.moves)) == ((5, 9), [(5, 9)])  # 2+3, 4+5
    assert (b.sums, sums_of(b.moves)) == ((6, 8), [(6, 8)])  # 2+4, 3+5
    assert (c.sums, sums_of(c.moves)) == ((7, 7), [(7, 7)])  # 2+5, 3+4


def test_examples_first_roll_2345_seven_twice_puts_a_runner_on_7_at_step_2():
    state = play(2, [Roll((2, 3, 4, 5)), Move.of(7, 7)])
    assert state.runner_steps() == {7: 2}
    assert state.free_runners == 2
    assert state.phase is Phase.DECIDE


def test_examples_roll_3344_offers_6_8_or_7_twice():
    state = play(2, [Roll((3, 3, 4, 4))])
    assert sums_of(state.moves) == [(6, 8), (7, 7)]
    assert [p.sums for p in pairings(state)] == [(6, 8), (7, 7), (7, 7)]


def test_examples_roll_4446_every_pairing_is_8_and_10():
    state = play(2, [Roll((4, 4, 4, 6))])
    assert sums_of(state.moves) == [(8, 10)]
    assert all(sorted(p.sums) == [8, 10] and sums_of(p.moves) == [(8, 10)] for p in pairings(state))


def test_examples_runners_on_5_and_9_roll_1156_offers_one_runner_per_pairing(runners_on_5_and_9):
    state = apply(runners_on_5_and_9, Roll((1, 1, 5, 6)))
    a, b, c = pairings(state)
    assert a.sums == (2, 11) and a.needs_pick and sums_of(a.moves) == [(2,), (11,)]
    assert b.sums == (6, 7) and b.needs_pick and sums_of(b.moves) == [(6,), (7,)]
    assert c.sums == (7, 6) and c.needs_pick and sums_of(c.moves) == [(6,), (7,)]
    assert sums_of(state.moves) == [(2,), (6,), (7,), (11,)]
    for both in (Move.of(2, 11), Move.of(6, 7)):
        with pytest.raises(IllegalEventError):
            apply(state, both)


@pytest.mark.parametrize("pick", [2, 11, 6, 7])
def test_examples_runners_on_5_and_9_roll_1156_places_the_picked_runner(runners_on_5_and_9, pick):
    state = apply(apply(runners_on_5_and_9, Roll((1, 1, 5, 6))), Move.of(pick))
    assert state.runner_steps() == dict(sorted({5: 1, 9: 1, pick: 1}.items()))
    assert state.free_runners == 0


def test_examples_runners_on_4_and_5_pairing_5_9_places_9_and_moves_5_up(runners_on_4_and_5):
    assert runners_on_4_and_5.runner_steps() == {4: 1, 5: 1}
    rolled = apply(runners_on_4_and_5, Roll((2, 3, 4, 5)))
    a = pairings(rolled)[0]
    assert a.sums == (5, 9) and sums_of(a.moves) == [(5, 9)]
    state = apply(rolled, a.moves[0])
    assert state.runner_steps() == {4: 1, 5: 2, 9: 1}
    assert state.free_runners == 0


def test_examples_runners_on_2_3_12_roll_2345_busts(runners_on_2_3_12):
    assert runners_on_2_3_12.runner_steps() == {2: 1, 3: 2, 12: 1}
    state = apply(runners_on_2_3_12, Roll((2, 3, 4, 5)))
    assert state.phase is Phase.ROLL
    assert state.current == 1
    assert state.runner_steps() == {}
    assert state.marker_steps(0) == {}


def _red_marker_on_7_at_step_4_then_7_8_9():
    """Red: 7 twice twice and stop (marker 7:4); Blue plays a turn; Red moves 7x3, 8x2, 9x1."""
    return play(2, [
        Roll((3, 4, 3, 4)), Move.of(7, 7), Roll((3, 4, 3, 4)), Move.of(7, 7), STOP,
        Roll((1, 1, 1, 1)), Move.of(2, 2), STOP,
        Roll((3, 4, 3, 5)), Move.of(7, 8),
        Roll((3, 4, 3, 5)), Move.of(7, 8),
        Roll((3, 4, 4, 5)), Move.of(7, 9),
    ])


def test_examples_marker_on_7_at_4_then_7_three_8_two_9_one_and_stop():
    state = _red_marker_on_7_at_step_4_then_7_8_9()
    assert state.current == 0 and state.runner_steps() == {7: 7, 8: 2, 9: 1}
    assert state.marker_steps(0) == {7: 4}
    stopped = apply(state, STOP)
    assert stopped.marker_steps(0) == {7: 7, 8: 2, 9: 1}
    assert stopped.marker_steps(1) == {2: 2}
    assert stopped.current == 1


def test_examples_marker_on_7_at_4_bust_leaves_7_at_4():
    state = _red_marker_on_7_at_step_4_then_7_8_9()
    busted = apply(state, Roll((1, 1, 1, 1)))  # only 2s: no runner there, none free
    assert busted.phase is Phase.ROLL and busted.current == 1
    assert busted.marker_steps(0) == {7: 4}


def test_examples_marker_on_5_at_step_3_new_runner_starts_at_step_4():
    state = play(2, [
        Roll((1, 4, 1, 4)), Move.of(5, 5), Roll((1, 4, 6, 6)), Move.of(5, 12), STOP,
        Roll((6, 6, 6, 6)), Move.of(12, 12), STOP,
    ])
    assert state.marker_steps(0) == {5: 3, 12: 1}
    assert step_after(state, 5) == 4
    state = apply(apply(state, Roll((1, 4, 1, 1))), Move.of(2, 5))
    assert state.runner_steps() == {2: 1, 5: 4}
