"""Seeded random games of 1 to 4 players under every variant, checked after every event.

Each game comes from a seed (dice and choices), a player count and a rules
setting drawn by hypothesis. `make test` runs a moderate number of games per
property; the soak test at the bottom (``@pytest.mark.slow``) runs many more
with every check at once.
"""

import copy
import dataclasses
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    ALL_ROLLS,
    STOP,
    GameState,
    IllegalEventError,
    Move,
    Phase,
    Record,
    Roll,
    Rules,
    apply,
    bust_probability,
    can_stop,
    jumped_squares,
    new_game,
    outcome,
    replay,
    stop_claims,
)
from tests.kit.examples import examples
from tests.kit.gamekit import (
    FAST,
    SOAK,
    brute_force_bust_count,
    check_events_accepted_only_when_legal,
    check_invariants,
    check_transition,
    check_view,
    game_events,
    player_counts,
    random_game,
    record_round_trip,
    ref_jumped,
    ref_outcome,
    ref_stop_claims,
    rules_strategy,
    seeds,
)

games = st.tuples(seeds, player_counts, rules_strategy)
#: The two checks that try many events or build the whole view at every step: 25 games in make test, 50
#: under make soak (tests/kit/examples.py), where the slow soak below also runs them on 500 more.
EVERY_STEP = settings(max_examples=examples(test=25, soak=50), deadline=None,
                      suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(games)
def test_properties_every_event_follows_the_rules_and_keeps_the_invariants(game):
    seed, players, rules = game
    for step in random_game(seed, players, rules):
        check_transition(step.before, step.event, step.after)
        check_invariants(step.after)


def check_facts(step) -> None:
    """outcome, stop_claims and jumped_squares agree with the reference model."""
    state = step.after
    ended, winner = ref_outcome(state)
    assert outcome(state) == ((winner,) if ended else None)
    assert list(stop_claims(state)) == ref_stop_claims(state)
    if isinstance(step.event, Move):
        for c in set(step.event.sums):
            assert list(jumped_squares(step.before, state, c)) == ref_jumped(step.before, state, c)
    if step.event is STOP:
        newly = [c for c in range(2, 13) if state.claimed[c] >= 0 and step.before.claimed[c] < 0]
        assert list(stop_claims(step.before)) == newly


@FAST
@given(games)
def test_properties_outcome_stop_claims_and_jumps_match_the_reference_at_every_step(game):
    seed, players, rules = game
    for step in random_game(seed, players, rules):
        check_facts(step)


@EVERY_STEP
@given(games)
def test_properties_state_view_follows_the_contract_after_every_event(game):
    seed, players, rules = game
    for step in random_game(seed, players, rules):
        check_view(step.after)


@EVERY_STEP
@given(games)
def test_properties_only_legal_events_are_accepted(game):
    seed, players, rules = game
    rng = random.Random(seed ^ 0x5EED)
    for step in random_game(seed, players, rules):
        check_events_accepted_only_when_legal(step.after, rng)


@FAST
@given(games, st.data())
def test_properties_bust_probability_matches_brute_force_at_sampled_states(game, data):
    seed, players, rules = game
    states = [s.after for s in random_game(seed, players, rules) if s.after.phase in (Phase.ROLL, Phase.DECIDE)]
    if not states:  # the game was won on its first stop
        return
    picks = data.draw(st.lists(st.integers(0, len(states) - 1), min_size=1, max_size=3), label="state indexes")
    for i in picks:
        assert bust_probability(states[i]) == brute_force_bust_count(states[i]) / 1296


@FAST
@given(games, st.data())
def test_properties_record_round_trip_replays_the_same_state(game, data):
    seed, players, rules = game
    steps = list(random_game(seed, players, rules))
    events = game_events(steps)
    names = steps[0].before.players
    cut = data.draw(st.integers(0, len(events)), label="events kept")
    expected = steps[cut - 1].after if cut else steps[0].before
    assert record_round_trip(names, rules, events[:cut]) == expected
    assert record_round_trip(names, rules, events) == steps[-1].after
    text = json.dumps(Record(names, rules, events).to_json(), indent=1)
    assert Record.from_text(text).replay() == steps[-1].after


@FAST
@given(games)
def test_properties_same_events_give_equal_states(game):
    seed, players, rules = game
    first = [step.after for step in random_game(seed, players, rules)]
    events = game_events(random_game(seed, players, rules))
    again = []
    state = new_game(first[0].players, rules)
    for event in events:
        state = apply(state, event)
        again.append(state)
    assert again == first
    assert hash(again[-1]) == hash(first[-1])
    assert replay(new_game(first[0].players, rules), events) == first[-1]


@FAST
@given(games)
def test_properties_apply_leaves_its_input_unchanged(game):
    seed, players, rules = game
    for step in random_game(seed, players, rules, max_events=150):
        snapshot = copy.deepcopy(step.before)
        apply(step.before, step.event)
        assert step.before == snapshot


def test_properties_states_and_events_are_immutable():
    state = apply(new_game(["Red", "Blue"]), Roll((2, 3, 4, 5)))
    with pytest.raises(AttributeError):
        state.current = 1
    with pytest.raises(TypeError):
        state.runners[7] = 2
    with pytest.raises(TypeError):
        state.markers[0][7] = 2
    assert isinstance(state, tuple) and isinstance(state, GameState)
    for frozen, field in [(state.rules, "risky"), (Move.of(7, 7), "sums"), (Roll((1, 2, 3, 4)), "dice"),
                          (Record(("Red",)), "players")]:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(frozen, field, None)
    assert isinstance(Record.from_json({"players": ["Red"], "events": []}).events, tuple)


@pytest.mark.slow
@SOAK
@given(games)
def test_properties_soak_every_check_on_many_games(game):
    seed, players, rules = game
    rng = random.Random(seed)
    steps = list(random_game(seed, players, rules, max_events=3000))
    for step in steps:
        check_transition(step.before, step.event, step.after)
        check_invariants(step.after)
        check_view(step.after)
        check_facts(step)
        check_events_accepted_only_when_legal(step.after, rng)
        if step.after.phase in (Phase.ROLL, Phase.DECIDE) and rng.random() < 0.05:
            assert bust_probability(step.after) == brute_force_bust_count(step.after) / 1296
    assert record_round_trip(steps[0].before.players, rules, game_events(steps)) == steps[-1].after


@pytest.mark.slow
def test_properties_soak_every_roll_from_many_positions():
    """Every one of the 1,296 rolls, from positions along seeded games, against the reference rules."""
    for seed in range(200):
        rng = random.Random(seed)
        rules = Rules(rng.randint(1, 11), rng.random() < 0.5, rng.random() < 0.5)
        for step in random_game(seed, rng.randint(1, 4), rules):
            if step.after.phase in (Phase.ROLL, Phase.DECIDE) and rng.random() < 0.1:
                for dice in ALL_ROLLS:
                    check_transition(step.after, Roll(dice), apply(step.after, Roll(dice)))
            if step.after.phase is Phase.DECIDE and rng.random() < 0.1:
                if can_stop(step.after):
                    check_transition(step.after, STOP, apply(step.after, STOP))
                else:  # a risky block is the only reason a stop may be refused after a move
                    assert step.after.rules.risky
                    with pytest.raises(IllegalEventError, match="risky"):
                        apply(step.after, STOP)
