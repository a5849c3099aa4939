"""The edge cases of RULES.md for players, pairings, placing runners, doubles, busts and when each event is
allowed, each played through apply() from a new game (claims, the win, the variants and the errors are in
test_engine_claims.py)."""

import pytest

from engine import (
    HEIGHTS,
    STOP,
    IllegalEventError,
    Move,
    Phase,
    Roll,
    RulesError,
    apply,
    can_roll,
    can_stop,
    new_game,
    pairing_sums,
    pairings,
    step_after,
)
from tests.kit.gamekit import NAMES, play, take_turn, illegal, sums_of


# -- players and turns ------------------------------------------------------


@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_rules_game_accepts_1_to_4_players(count):
    state = new_game(NAMES[:count])
    assert state.players == NAMES[:count]
    assert (state.phase, state.current, state.turn) == (Phase.ROLL, 0, 1)
    assert len(state.markers) == count and all(not state.marker_steps(p) for p in range(count))
    assert state.free_runners == 3 and state.claimed_columns() == {}


@pytest.mark.parametrize("count", [0, 5])
def test_rules_game_rejects_0_or_5_players(count):
    with pytest.raises(RulesError, match=f"1 to 4 players, not {count}"):
        new_game(["P"] * count)


@pytest.mark.parametrize("name", ["", "   ", 3, None])
def test_rules_game_rejects_empty_or_non_text_names(name):
    with pytest.raises(RulesError, match="non-empty text"):
        new_game(["Red", name])


def test_rules_game_rejects_rules_that_are_not_rules():
    with pytest.raises(RulesError, match="rules must be a Rules, not dict"):
        new_game(["Red"], {"columns_to_win": 3})


def test_rules_solitaire_current_stays_0_and_turn_counts_up():
    state = play(1, [Roll((2, 3, 4, 5)), Move.of(7, 7), STOP])
    assert (state.current, state.turn, state.phase) == (0, 2, Phase.ROLL)
    assert state.marker_steps(0) == {7: 2}
    state = play(events=[Roll((2, 3, 4, 5)), Move.of(5, 9), Roll((1, 1, 1, 1)), Move.of(2, 2)], state=state)
    state = apply(state, Roll((1, 1, 1, 1)))  # 2 moves again (to the top) ...
    state = apply(apply(state, Move.of(2)), Roll((1, 1, 1, 1)))  # ... then only 2s: bust
    assert (state.current, state.turn, state.phase) == (0, 3, Phase.ROLL)
    assert state.marker_steps(0) == {7: 2}


@pytest.mark.parametrize("count", [2, 3, 4])
def test_rules_turn_passes_to_each_player_in_order(count):
    state = new_game(NAMES[:count])
    seen = []
    for _ in range(2 * count):
        seen.append(state.current)
        state = take_turn(state, Move.of(7, 7))
    assert seen == list(range(count)) * 2
    assert state.turn == 2 * count + 1


# -- pairings and legal moves -------------------------------------------------


def test_rules_pairings_come_in_fixed_order_from_dice_order():
    state = play(2, [Roll((1, 2, 3, 6))])
    assert [(p.label, p.sums) for p in pairings(state)] == [("A", (3, 9)), ("B", (4, 8)), ("C", (7, 5))]
    state = play(2, [Roll((6, 3, 2, 1))])
    assert [(p.label, p.sums) for p in pairings(state)] == [("A", (9, 3)), ("B", (8, 4)), ("C", (7, 5))]
    assert pairing_sums((6, 3, 2, 1)) == ((9, 3), (8, 4), (7, 5))


def test_rules_pairings_need_dice_out():
    with pytest.raises(IllegalEventError, match="no dice out"):
        pairings(new_game(["Red"]))


def test_rules_moves_sorted_ascending_by_sums():
    state = play(2, [Roll((6, 5, 1, 2))])  # pairings 11+3, 7+7, 8+6
    assert sums_of(state.moves) == [(3, 11), (6, 8), (7, 7)]


def test_rules_moves_identified_by_effect_without_repeats(runners_on_5_and_9):
    assert sums_of(play(2, [Roll((4, 4, 4, 6))]).moves) == [(8, 10)]
    assert sums_of(play(2, [Roll((1, 1, 1, 1))]).moves) == [(2, 2)]
    # Pairings B and C of 1,1,5,6 both allow 6 or 7: each effect is listed once.
    state = apply(runners_on_5_and_9, Roll((1, 1, 5, 6)))
    assert sums_of(state.moves) == [(2,), (6,), (7,), (11,)]


def test_rules_move_given_in_any_order_is_the_same_move():
    state = play(2, [Roll((2, 3, 4, 5))])
    assert Move.of(9, 5) == Move((5, 9)) and Move.of(9, 5) in state.moves
    assert apply(state, Move.of(9, 5)).runner_steps() == {5: 1, 9: 1}


# -- placing runners ----------------------------------------------------------


def test_rules_new_runner_starts_on_step_1_without_marker():
    state = play(2, [Roll((1, 2, 6, 6)), Move.of(3, 12)])
    assert state.runner_steps() == {3: 1, 12: 1}


def test_rules_new_runner_starts_one_above_own_marker():
    state = play(2, [Roll((3, 4, 3, 4)), Move.of(7, 7), STOP, Roll((1, 1, 1, 1)), Move.of(2, 2), STOP])
    assert step_after(state, 7) == 3 and step_after(state, 2) == 1
    state = play(events=[Roll((3, 4, 1, 1)), Move.of(2, 7)], state=state)
    assert state.runner_steps() == {2: 1, 7: 3}


def test_rules_other_players_markers_neither_block_nor_add_steps():
    # Red leaves a marker on 7 at step 2; Blue climbs 7 one step at a time through it.
    state = play(2, [Roll((3, 4, 3, 4)), Move.of(7, 7), STOP])
    steps = []
    for _ in range(3):
        state = apply(apply(state, Roll((3, 4, 1, 1))), Move.of(2, 7))
        steps.append(state.runners[7])
    assert steps == [1, 2, 3]  # shares step 2 with Red's marker, then passes it
    state = apply(state, STOP)
    assert state.marker_steps(0) == {7: 2} and state.marker_steps(1) == {2: 3, 7: 3}


def test_rules_three_runners_at_most(runners_on_4_5_9):
    state = runners_on_4_5_9
    assert state.runner_steps() == {4: 1, 5: 2, 9: 1} and state.free_runners == 0
    # 1,3,6,6: 4+12 moves only 4; 7+9 (twice) moves only 9.
    assert sums_of(apply(state, Roll((1, 3, 6, 6))).moves) == [(4,), (9,)]
    # 1,2,5,6: sums 3, 11, 6, 8, 7, 8 all need a new runner: bust.
    busted = apply(state, Roll((1, 2, 5, 6)))
    assert busted.phase is Phase.ROLL and busted.current == 1


def test_rules_both_sums_move_when_both_movable():
    state = play(2, [Roll((2, 3, 4, 5))])
    message = illegal(state, Move.of(5))
    assert "move [5] is not legal for dice [2, 3, 4, 5]" in message
    assert "legal moves: [5, 9], [6, 8], [7, 7]" in message
    assert apply(state, Move.of(5, 9)).runner_steps() == {5: 1, 9: 1}


def test_rules_both_sums_move_with_one_new_runner_and_one_free(runners_on_5_and_9):
    state = apply(runners_on_5_and_9, Roll((2, 3, 3, 3)))  # 5+6: 5 has a runner, 6 takes the last one
    assert sums_of(pairings(state)[0].moves) == [(5, 6)]
    with pytest.raises(IllegalEventError):
        apply(state, Move.of(5))


def test_rules_player_picks_when_two_new_runners_needed_and_one_free(runners_on_4_and_5):
    state = apply(runners_on_4_and_5, Roll((1, 1, 6, 6)))
    a, b, _ = pairings(state)
    assert a.sums == (2, 12) and a.needs_pick and sums_of(a.moves) == [(2,), (12,)]
    assert not b.needs_pick and sums_of(b.moves) == [(7, 7)]
    assert sums_of(state.moves) == [(2,), (7, 7), (12,)]
    illegal(state, Move.of(2, 12))
    assert apply(state, Move.of(12)).runner_steps() == {4: 1, 5: 1, 12: 1}


def test_rules_one_sum_pairing_may_be_chosen_when_another_moves_both(runners_on_4_5_9):
    state = apply(runners_on_4_5_9, Roll((1, 3, 4, 5)))  # A: 4+9 both; B: 5+8 only 5; C: 6+7 none
    a, b, c = pairings(state)
    assert sums_of(a.moves) == [(4, 9)] and sums_of(b.moves) == [(5,)] and not c.is_legal
    assert apply(state, Move.of(5)).runner_steps() == {4: 1, 5: 3, 9: 1}


# -- doubles and the top ------------------------------------------------------


def test_rules_double_with_one_square_left_moves_one_step():
    state = play(2, [Roll((1, 1, 1, 1)), Move.of(2, 2), Roll((1, 1, 1, 1))])
    assert sums_of(state.moves) == [(2,)]
    message = illegal(state, Move.of(2, 2))
    assert "move [2, 2] is not legal" in message and "legal moves: [2]" in message
    assert apply(state, Move.of(2)).runner_steps() == {2: HEIGHTS[2]}


def test_rules_double_placing_a_runner_below_the_top_moves_one_step():
    state = play(1, [Roll((1, 1, 1, 1)), Move.of(2, 2), STOP])  # marker 2:2, one below the top
    state = apply(state, Roll((1, 1, 1, 1)))
    assert sums_of(state.moves) == [(2,)]
    assert apply(state, Move.of(2)).runner_steps() == {2: 3}


def test_rules_topped_runner_blocks_its_column_for_the_turn(runner_topped_on_2):
    state = runner_topped_on_2
    assert state.is_topped(2) and state.free_runners == 2
    rolled = apply(state, Roll((1, 1, 6, 6)))  # 2+12: only 12 can move; 7+7 also possible
    assert sums_of(rolled.moves) == [(7, 7), (12,)]
    busted = apply(state, Roll((1, 1, 1, 1)))  # only 2s, and 2 is topped: bust
    assert busted.phase is Phase.ROLL and busted.current == 1


def test_rules_topped_runner_is_not_freed_for_another_column(runner_topped_on_2):
    state = play(events=[Roll((1, 1, 6, 6)), Move.of(12), Roll((3, 4, 3, 4)), Move.of(7, 7)],
                 state=runner_topped_on_2)
    assert state.runner_steps() == {2: 3, 7: 2, 12: 1} and state.free_runners == 0
    busted = apply(state, Roll((1, 2, 1, 2)))  # sums 3, 2, 4: 2 topped, 3 and 4 need a runner
    assert busted.phase is Phase.ROLL and busted.current == 1


# -- busts ----------------------------------------------------------------------


def test_rules_bust_takes_runners_off_keeps_markers_and_passes_on():
    # Red: marker 7:2. Blue: markers 2:1 and 12:1. Red's next turn puts runners
    # on 3, 7 and 12, then rolls only 2s: bust.
    state = play(2, [Roll((3, 4, 3, 4)), Move.of(7, 7), STOP, Roll((1, 1, 6, 6)), Move.of(2, 12), STOP])
    state = play(events=[Roll((3, 4, 3, 4)), Move.of(7, 7), Roll((1, 2, 1, 2)), Move.of(3, 3),
                         Roll((6, 6, 6, 6)), Move.of(12, 12)], state=state)
    assert state.runner_steps() == {3: 2, 7: 4, 12: 2} and state.turn == 3
    busted = apply(state, Roll((1, 1, 1, 1)))
    assert busted.phase is Phase.ROLL
    assert (busted.current, busted.turn) == (1, 4)
    assert busted.runner_steps() == {} and busted.free_runners == 3
    assert busted.marker_steps(0) == {7: 2} and busted.marker_steps(1) == {2: 1, 12: 1}


def test_rules_cannot_stop_after_seeing_the_bust_roll(runners_on_2_3_12):
    busted = apply(runners_on_2_3_12, Roll((2, 3, 4, 5)))
    assert not can_stop(busted)
    assert "cannot stop before rolling and moving" in illegal(busted, STOP)
    assert busted.marker_steps(0) == {}


# -- when each event is allowed ---------------------------------------------------


def test_rules_cannot_stop_at_turn_start():
    state = new_game(["Red", "Blue"])
    assert not can_stop(state)
    assert illegal(state, STOP) == "cannot stop before rolling and moving at least once"


def test_rules_cannot_stop_with_dice_out():
    state = play(2, [Roll((2, 3, 4, 5))])
    assert not can_stop(state)
    assert "dice are out" in illegal(state, STOP)


def test_rules_can_stop_or_roll_after_a_move():
    state = play(2, [Roll((2, 3, 4, 5)), Move.of(6, 8)])
    assert can_stop(state) and can_roll(state)


def test_rules_cannot_roll_with_dice_out():
    state = play(2, [Roll((2, 3, 4, 5))])
    assert not can_roll(state)
    assert "dice are out" in illegal(state, Roll((1, 1, 1, 1)))


@pytest.mark.parametrize("events", [[], [Roll((2, 3, 4, 5)), Move.of(7, 7)]], ids=["turn-start", "after-move"])
def test_rules_move_only_right_after_a_roll(events):
    assert illegal(play(2, events), Move.of(7, 7)) == "a move must come right after a roll"
