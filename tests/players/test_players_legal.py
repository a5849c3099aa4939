"""Every player only ever makes legal decisions, whatever the variant."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import STOP, Decision, IllegalEventError, Phase, Rules, apply, can_stop
from engine.players import PLAYER_KINDS, make_player

from tests.kit.playerkit import random_states

rules_st = st.builds(Rules, columns_to_win=st.integers(1, 5), speedy=st.booleans(), risky=st.booleans())


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), rules=rules_st, players=st.integers(1, 4))
def test_players_only_make_legal_decisions(seed, rules, players):
    rng = random.Random(seed)
    for state in random_states(seed, rules, players, limit=120):
        for kind in PLAYER_KINDS:
            action = make_player(kind).act(state, rng)
            if state.phase is Phase.MOVE:
                assert action in state.moves
                apply(state, action)  # raises if illegal
            elif state.phase is Phase.DECIDE:
                assert action in (Decision.ROLL, Decision.STOP)
                if action is Decision.STOP:
                    assert can_stop(state)
                    apply(state, STOP)
            else:
                assert action is Decision.ROLL


def test_players_roll_when_risky_forbids_the_stop():
    blocked = []
    for seed in range(200):
        blocked += [s for s in random_states(seed, Rules(risky=True), 2, limit=400)
                    if s.phase is Phase.DECIDE and not can_stop(s)]
        if len(blocked) >= 30:
            break
    assert len(blocked) >= 30
    for state in blocked:
        with pytest.raises(IllegalEventError):
            apply(state, STOP)
        for kind in PLAYER_KINDS:
            assert make_player(kind).should_roll(state, random.Random(1)) is True
            assert make_player(kind).advise(state).action is Decision.ROLL


def test_players_whole_games_end_in_every_variant():
    from engine.players import game_rng, play_game

    for rules in (Rules(), Rules(speedy=True), Rules(risky=True), Rules(columns_to_win=4, speedy=True, risky=True)):
        for kinds in (["strong"], ["rule28", "strong"], ["random", "rule28", "strong"]):
            result = play_game([make_player(k) for k in kinds], game_rng(3, len(kinds)), rules, max_turns=400)
            assert not result.capped
            assert result.winner is not None
