"""Game facts the engine answers for the UI and the players: how a game ended,
what a stop claims, what a speedy step jumps, the round, the pairing table
and the roll distribution. Examples from RULES.md where it gives one."""

from collections import Counter
from itertools import permutations

import pytest

from engine import (
    ALL_ROLLS,
    DISTINCT_ROLLS,
    PAIRINGS,
    STOP,
    Move,
    Outcome,
    Phase,
    Roll,
    Rules,
    apply,
    dice_pairs,
    jumped_squares,
    nobody_can_win,
    outcome,
    pairing_sums,
    stop_claims,
)
from engine.board import DISTINCT_PAIRS
from engine.state import free_runners_of
from tests.kit.gamekit import advance, bust_roll, play, take_turn

# -- outcome ------------------------------------------------------------------


def test_facts_outcome_is_none_while_the_game_goes_on(runners_on_5_and_9):
    assert outcome(play(2)) is None  # phase ROLL, first turn
    assert outcome(runners_on_5_and_9) is None  # phase DECIDE
    assert outcome(play(2, [Roll((2, 3, 4, 5))])) is None  # phase MOVE


def test_facts_outcome_names_the_winner_of_a_won_game():
    # Red needs one column: climbs 2 to its top with two doubles of 1s and stops.
    won = play(2, [Roll((1, 1, 1, 1)), Move.of(2, 2), Roll((1, 1, 1, 1)), Move.of(2), STOP],
               Rules(columns_to_win=1))
    assert won.phase is Phase.OVER
    assert outcome(won) == Outcome(winner=0)
    assert outcome(won).winner == 0


def test_facts_outcome_is_no_winner_when_nobody_can_win_any_more():
    # Long game of 11 columns for two: once Red claims 2 and Blue claims 12,
    # neither can reach 11 columns; the game goes on by the rules, but it has ended.
    rules = Rules(columns_to_win=11)
    state = take_turn(play(2, rules=rules), Move.of(2, 2), Move.of(2))  # Red claims 2
    assert outcome(state) is None
    state = take_turn(state, Move.of(12, 12), Move.of(12))  # Blue claims 12
    assert state.phase is Phase.ROLL and nobody_can_win(state)
    assert outcome(state) == Outcome(winner=None)


def test_facts_outcome_waits_for_the_turn_to_start_when_nobody_can_win():
    rules = Rules(columns_to_win=11)
    state = take_turn(play(2, rules=rules), Move.of(2, 2), Move.of(2))
    state = take_turn(state, Move.of(12, 12), Move.of(12))
    mid_turn = advance(state, Move.of(7, 7))  # Red rolls on although nobody can win
    assert nobody_can_win(mid_turn) and mid_turn.phase is Phase.DECIDE
    assert outcome(mid_turn) is None


# -- stop_claims ----------------------------------------------------------------


def test_facts_stop_claims_the_topped_column_and_takes_other_markers_off():
    # RULES.md: a column is claimed when the player stops with a runner on its
    # top; every other player's marker in that column comes off.
    state = take_turn(play(2), Move.of(2, 12))  # Red: markers 2:1, 12:1
    state = advance(state, Move.of(2, 2), Move.of(2))  # Blue: runner on the top of 2
    assert stop_claims(state) == (2,)
    after = apply(state, STOP)
    assert after.claimed[2] == 1 and after.markers[0][2] == 0


def test_facts_stop_claims_several_columns_ascending():
    state = advance(play(1), Move.of(2, 12), Move.of(2, 12), Move.of(2, 12))
    assert stop_claims(state) == (2, 12)


def test_facts_stop_claims_nothing_below_the_top(runners_on_5_and_9):
    assert stop_claims(runners_on_5_and_9) == ()


def test_facts_stop_claims_nothing_when_no_stop_can_come(runner_topped_on_2):
    assert stop_claims(runner_topped_on_2) == (2,)
    rolled = apply(runner_topped_on_2, Roll((2, 3, 4, 5)))  # dice out: no stop now
    assert rolled.phase is Phase.MOVE and stop_claims(rolled) == ()


def test_facts_a_bust_loses_the_top_a_stop_would_have_claimed(runner_topped_on_2):
    # RULES.md: continuing to roll after a runner reached the top is allowed,
    # and a bust then loses that top too.
    busted = apply(runner_topped_on_2, Roll(bust_roll(runner_topped_on_2)))
    assert busted.phase is Phase.ROLL and busted.claimed[2] == -1
    assert stop_claims(busted) == ()


# -- jumped_squares (speedy) ------------------------------------------------------


def test_facts_jumped_squares_of_new_runners_over_other_markers():
    # Speedy: each step skips squares occupied by another player's marker.
    rules = Rules(speedy=True)
    state = play(3, [Roll((3, 4, 1, 1)), Move.of(2, 7), STOP], rules)  # Red 2:1, 7:1
    state = play(events=[Roll((3, 4, 1, 2)), Move.of(3, 7), STOP], state=state)  # Blue 7:2 (jumped 1)
    before = apply(state, Roll((3, 4, 1, 1)))  # Green: 2 and 7
    after = apply(before, Move.of(2, 7))
    assert (after.runners[2], after.runners[7]) == (2, 3)
    assert jumped_squares(before, after, 7) == (1, 2)
    assert jumped_squares(before, after, 2) == (1,)
    assert jumped_squares(before, after, 5) == ()  # no runner there


def test_facts_jumped_squares_of_a_double_are_those_of_both_steps():
    rules = Rules(speedy=True)
    red = [Roll((3, 4, 3, 4)), Move.of(7, 7), Roll((3, 4, 1, 2)), Move.of(3, 7), STOP]  # Red 7:3
    before = play(2, red + [Roll((3, 4, 3, 4))], rules)  # Blue: 7 twice from nothing
    after = apply(before, Move.of(7, 7))
    assert after.runners[7] == 2  # squares 1 and 2 are free: nothing jumped
    assert jumped_squares(before, after, 7) == ()
    before = apply(after, Roll((3, 4, 3, 4)))
    after = apply(before, Move.of(7, 7))
    assert after.runners[7] == 5  # 2 -> 4 (over Red's 3) -> 5
    assert jumped_squares(before, after, 7) == (3,)


def test_facts_jumped_squares_never_pass_the_top():
    rules = Rules(speedy=True)
    state = take_turn(play(2, rules=rules), Move.of(2, 2))  # Red 2:2
    before = apply(state, Roll((1, 1, 1, 1)))  # Blue: 2 twice
    after = apply(before, Move.of(2, 2))
    assert after.runners[2] == 3  # 1, then 3 (the top) jumping Red's 2
    assert jumped_squares(before, after, 2) == (2,)


def test_facts_jumped_squares_are_empty_under_the_standard_rules():
    state = take_turn(play(2), Move.of(7, 7))  # Red 7:2
    before = apply(state, Roll((3, 4, 3, 4)))
    after = apply(before, Move.of(7, 7))
    assert after.runners[7] == 2  # pieces share squares: no jump
    assert jumped_squares(before, after, 7) == ()


def test_facts_jumped_squares_are_empty_after_a_bust():
    rules = Rules(speedy=True)
    state = play(2, [Roll((3, 4, 1, 1)), Move.of(2, 7), STOP], rules)  # Red 2:1, 7:1
    state = play(events=[Roll((3, 4, 1, 2)), Move.of(3, 7), Roll((1, 1, 6, 6)), Move.of(12)], state=state)
    assert state.runners[7] == 2 and state.free_runners == 0  # Blue jumped Red's 7:1
    busted = apply(state, Roll(bust_roll(state)))
    assert busted.phase is Phase.ROLL
    assert jumped_squares(state, busted, 7) == ()


# -- round ------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_facts_round_counts_each_players_turns(players):
    state = play(players)
    rounds = []
    for _ in range(2 * players + 1):
        rounds.append((state.turn, state.round))
        state = take_turn(state, Move.of(7, 7))
    expected = [(t, (t - 1) // players + 1) for t in range(1, 2 * players + 2)]
    assert rounds == expected
    assert rounds[players - 1][1] == 1 and rounds[players][1] == 2


# -- the pairing table and the roll distribution -------------------------------


def test_facts_pairings_are_the_three_ways_to_pair_four_dice():
    # RULES.md rule 2: (d1+d2, d3+d4), (d1+d3, d2+d4), (d1+d4, d2+d3).
    assert PAIRINGS == (((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2)))
    assert dice_pairs((1, 2, 3, 4)) == (((1, 2), (3, 4)), ((1, 3), (2, 4)), ((1, 4), (2, 3)))
    assert pairing_sums((2, 3, 4, 5)) == ((5, 9), (6, 8), (7, 7))  # first worked example


def test_facts_pairing_sums_are_the_sums_of_dice_pairs():
    for dice in ALL_ROLLS[::7]:
        assert pairing_sums(dice) == tuple((a + b, c + d) for (a, b), (c, d) in dice_pairs(dice))


def test_facts_roll_distribution_is_the_1296_ordered_rolls_folded():
    by_faces = Counter(tuple(sorted(roll)) for roll in ALL_ROLLS)
    assert {dice: weight for dice, weight, _ in DISTINCT_ROLLS} == dict(by_faces)
    assert len(DISTINCT_ROLLS) == 126 and sum(by_faces.values()) == 1296
    assert {dice: weight for dice, weight, _ in DISTINCT_ROLLS}[(1, 2, 3, 4)] == 24
    assert {dice: weight for dice, weight, _ in DISTINCT_ROLLS}[(6, 6, 6, 6)] == 1


def test_facts_roll_distribution_pairs_do_not_depend_on_the_dice_order():
    for dice, _, pairs in DISTINCT_ROLLS:
        expected = {tuple(sorted(p)) for p in pairing_sums(dice)}
        assert set(pairs) == expected and len(pairs) == len(expected)
        for order in set(permutations(dice)):
            assert {tuple(sorted(p)) for p in pairing_sums(order)} == expected
            assert DISTINCT_PAIRS[order] == pairs


def test_facts_free_runners_of_a_look_ahead_matches_the_state(runners_on_4_5_9, runners_on_5_and_9):
    for state in (play(2), runners_on_5_and_9, runners_on_4_5_9):
        assert free_runners_of(state.runners) == state.free_runners
    assert [s.free_runners for s in (play(2), runners_on_5_and_9, runners_on_4_5_9)] == [3, 1, 0]
