"""Bust odds: the golden roll counts of STYLE.md and brute force over all 1,296 rolls."""

from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import (
    ALL_ROLLS,
    COLUMNS,
    Phase,
    Roll,
    apply,
    bust_chance,
    bust_probability,
    bust_probability_of,
    hit_count,
    new_game,
)
from tests.kit.gamekit import FAST, brute_force_bust_count, player_counts, random_game, rules_strategy, seeds, three_pairings

# STYLE.md: over all 1,296 rolls, how many let at least one of the columns move.
GOLDEN_SINGLE = {2: 171, 3: 302, 4: 461, 5: 580, 6: 727, 7: 834}
GOLDEN_SINGLE.update({14 - c: n for c, n in GOLDEN_SINGLE.items()})  # symmetric


def rolls_hitting(columns) -> int:
    """Brute force: the rolls where some pairing makes a sum in ``columns``."""
    columns = set(columns)
    return sum(
        1 for dice in product(range(1, 7), repeat=4)
        if any(s in columns for pair in three_pairings(dice) for s in pair)
    )


def test_odds_all_rolls_are_the_1296_ordered_rolls():
    assert len(ALL_ROLLS) == 1296
    assert set(ALL_ROLLS) == set(product(range(1, 7), repeat=4))


@pytest.mark.parametrize("columns, golden", [((6, 7, 8), 1192), ((2, 3, 12), 568)], ids=["6-7-8", "2-3-12"])
def test_odds_golden_counts_for_column_sets(columns, golden):
    assert rolls_hitting(columns) == golden
    assert hit_count(columns) == golden
    assert bust_probability_of(columns) == (1296 - golden) / 1296


@pytest.mark.parametrize("column", COLUMNS)
def test_odds_golden_counts_for_single_columns(column):
    golden = GOLDEN_SINGLE[column]
    assert rolls_hitting([column]) == golden
    assert hit_count([column]) == golden
    assert bust_probability_of([column]) == (1296 - golden) / 1296


def test_odds_single_column_counts_are_symmetric():
    assert all(rolls_hitting([c]) == rolls_hitting([14 - c]) for c in COLUMNS)


@FAST
@given(st.sets(st.sampled_from(COLUMNS)))
def test_odds_hit_count_matches_brute_force_for_any_columns(columns):
    assert hit_count(columns) == rolls_hitting(columns)
    assert bust_probability_of(columns) == (1296 - rolls_hitting(columns)) / 1296


def test_odds_rules_example_runners_on_2_3_12_bust(runners_on_2_3_12):
    busts = 1296 - 568  # every roll missing 2, 3 and 12
    assert brute_force_bust_count(runners_on_2_3_12) == busts
    assert bust_probability(runners_on_2_3_12) == busts / 1296
    assert bust_chance(runners_on_2_3_12) == 0.5617


def test_odds_open_board_at_turn_start_never_busts():
    state = new_game(["Red", "Blue"])
    assert brute_force_bust_count(state) == 0
    assert bust_probability(state) == 0.0 and bust_chance(state) == 0.0


def test_odds_topped_runner_counts_as_unmovable(runner_topped_on_2):
    # Two runners free, but 2 is topped: only 1,1,1,1 (all sums 2) busts.
    assert brute_force_bust_count(runner_topped_on_2) == 1
    assert bust_probability(runner_topped_on_2) == 1 / 1296


def test_odds_claimed_column_counts_as_unmovable(blue_claimed_2_over_red_marker):
    assert brute_force_bust_count(blue_claimed_2_over_red_marker) == 1
    assert bust_probability(blue_claimed_2_over_red_marker) == 1 / 1296


@FAST
@given(seeds, player_counts, rules_strategy, st.data())
def test_odds_bust_probability_matches_brute_force_at_reachable_states(seed, players, rules, data):
    states = [step.after for step in random_game(seed, players, rules, max_events=300)]
    states = [s for s in states if s.phase in (Phase.ROLL, Phase.DECIDE)]
    if not states:
        return
    state = states[data.draw(st.integers(0, len(states) - 1), label="state index")]
    busts = sum(apply(state, Roll(dice)).phase is Phase.ROLL for dice in ALL_ROLLS)
    assert bust_probability(state) == busts / 1296
    assert bust_chance(state) == round(busts / 1296, 4)
