"""Advice: the player's own decision and the numbers behind it (the bust chance, the gain of a roll)."""

import dataclasses

import pytest

from engine import Decision, Move, Phase, Rules, apply, bust_probability, new_game
from engine.players import PLAYER_KINDS, Advice, NoDecisionError, make_player, roll_gain
from tests.kit.playerkit import random_states, with_board


@pytest.mark.parametrize("kind", sorted(PLAYER_KINDS))
def test_advice_matches_the_decision(kind):
    player = make_player(kind)
    seen = set()
    for seed in range(4):
        for state in random_states(seed, Rules(risky=seed % 2 == 1), 2, limit=80):
            advice = player.advise(state)
            assert 0.0 <= advice.bust <= 1.0
            if state.phase is Phase.MOVE:
                assert advice.action in state.moves
                assert advice.expected_gain is None
                after = apply(state, advice.action)
                assert advice.bust == pytest.approx(bust_probability(after))
            else:
                assert isinstance(advice.action, Decision)
                if state.phase is Phase.ROLL:
                    assert advice.action is Decision.ROLL
                assert advice.bust == pytest.approx(bust_probability(state))
                assert advice.expected_gain == pytest.approx(roll_gain(state))
            if kind != "random":
                assert advice.action == player.act(state)
            seen.add(state.phase)
    assert seen == {Phase.ROLL, Phase.MOVE, Phase.DECIDE}


def test_advice_is_numbers_not_words():
    # Words for a screen are the box's (firmware/words); the engine's advice carries none.
    assert [f.name for f in dataclasses.fields(Advice)] == ["action", "bust", "expected_gain"]
    for kind in sorted(PLAYER_KINDS):
        for state in random_states(1, Rules(), 2, limit=40):
            advice = make_player(kind).advise(state)
            assert isinstance(advice.action, Move | Decision)
            assert not any(isinstance(getattr(advice, f.name), str) for f in dataclasses.fields(Advice))


def test_advice_stops_when_the_stop_wins():
    s = new_game(["Solo"])._replace(phase=Phase.DECIDE)
    s = with_board(s, runners={2: 3, 7: 2}, claimed={3: 0, 12: 0}, markers=[{3: 5, 12: 3}])
    for kind in ("rule28", "strong"):
        advice = make_player(kind).advise(s)
        assert advice.action is Decision.STOP


def test_advice_roll_gain_counts_squares_and_risk():
    # Runners on 2, 3 and 12 at their first squares: 568 rolls hit one of them (STYLE.md), each
    # climbing one square or two (a double 1+1 / 6+6, or 2 with 3 ...); the 728 busting rolls lose 3.
    s = new_game(["Solo"])._replace(phase=Phase.DECIDE)
    s = with_board(s, runners={2: 1, 3: 1, 12: 1})
    gain = roll_gain(s)
    assert -3 * 728 / 1296 < gain < (2 * 568 - 3 * 728) / 1296


def test_advice_over_raises_one_line_error():
    s = new_game(["Solo"])._replace(phase=Phase.OVER, winner=0)
    with pytest.raises(NoDecisionError, match="over"):
        make_player("strong").advise(s)

