"""Fixtures for the engine tests: positions reached by playing real events.

The helpers and hypothesis strategies themselves live in ``tests/kit/gamekit.py``
(test modules import them at collection time, which fixtures cannot serve);
this conftest turns the common positions of RULES.md into fixtures.
"""

import pytest

from engine import STOP, Move, Roll
from tests.kit.gamekit import play


@pytest.fixture
def runners_on_5_and_9():
    """Two players; Red's first roll 2,3,4,5 paired 2+3 / 4+5: runners on 5 and 9."""
    return play(2, [Roll((2, 3, 4, 5)), Move.of(5, 9)])


@pytest.fixture
def runners_on_4_and_5():
    """Two players; Red rolled 1,3,2,3 and moved 1+3 / 2+3: runners on 4 and 5."""
    return play(2, [Roll((1, 3, 2, 3)), Move.of(4, 5)])


@pytest.fixture
def runners_on_4_5_9(runners_on_4_and_5):
    """All three runners out: on 4 (step 1), 5 (step 2) and 9 (step 1)."""
    return play(events=[Roll((2, 3, 4, 5)), Move.of(5, 9)], state=runners_on_4_and_5)


@pytest.fixture
def runners_on_2_3_12():
    """Red's runners on 2 and 12 (roll 1,1,6,6) and 3 (double 3 from 1,2,1,2): none free."""
    return play(2, [Roll((1, 1, 6, 6)), Move.of(2, 12), Roll((1, 2, 1, 2)), Move.of(3, 3)])


@pytest.fixture
def runner_topped_on_2():
    """Red's runner on the top of column 2 (two doubles of 1,1,1,1), not yet stopped."""
    return play(2, [Roll((1, 1, 1, 1)), Move.of(2, 2), Roll((1, 1, 1, 1)), Move.of(2)])


@pytest.fixture
def blue_claimed_2_over_red_marker():
    """Red stopped with markers on 2 and 12 (step 1); then Blue climbed 2 and claimed it."""
    return play(2, [
        Roll((1, 1, 6, 6)), Move.of(2, 12), STOP,
        Roll((1, 1, 1, 1)), Move.of(2, 2), Roll((1, 1, 1, 1)), Move.of(2), STOP,
    ])
