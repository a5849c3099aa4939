"""The edge cases of RULES.md for claiming and winning, the variants and the errors, each played through
apply() from a new game (the turn's own rules are in test_engine_rules.py)."""

import pytest

from engine import (
    HEIGHTS,
    STOP,
    CantStopError,
    GameOverError,
    IllegalEventError,
    Move,
    Phase,
    RecordError,
    Roll,
    Rules,
    RulesError,
    apply,
    nobody_can_win,
    can_roll,
    can_stop,
    new_game,
    step_after,
)
from tests.kit.gamekit import play, illegal, sums_of


# -- claiming and winning ------------------------------------------------------------


def test_rules_reaching_the_top_is_not_a_claim(runner_topped_on_2):
    assert runner_topped_on_2.claimed_columns() == {}
    stopped = apply(runner_topped_on_2, STOP)
    assert stopped.claimed_columns() == {2: 0}
    assert stopped.marker_steps(0) == {2: HEIGHTS[2]} and stopped.claims_of(0) == (2,)


def test_rules_bust_after_topping_loses_the_top(runner_topped_on_2):
    busted = apply(runner_topped_on_2, Roll((1, 1, 1, 1)))
    assert busted.phase is Phase.ROLL
    assert busted.claimed_columns() == {} and busted.marker_steps(0) == {}


def test_rules_claim_removes_other_players_markers(blue_claimed_2_over_red_marker):
    state = blue_claimed_2_over_red_marker
    assert state.claimed_columns() == {2: 1}
    assert state.marker_steps(1) == {2: 3}
    assert state.marker_steps(0) == {12: 1}  # Red's marker on 2 came off; 12 stays


def test_rules_claimed_column_is_unusable_by_everyone(blue_claimed_2_over_red_marker):
    state = blue_claimed_2_over_red_marker
    assert state.current == 0 and step_after(state, 2) == 1  # Red could start 2 again, were it open
    assert sums_of(apply(state, Roll((1, 1, 6, 6))).moves) == [(7, 7), (12,)]
    red_bust = apply(state, Roll((1, 1, 1, 1)))
    assert red_bust.phase is Phase.ROLL and red_bust.current == 1
    blue_bust = apply(red_bust, Roll((1, 1, 1, 1)))  # the owner cannot move there either
    assert blue_bust.phase is Phase.ROLL and blue_bust.current == 0


def _claim_2_12_and_3():
    """The moves that claim 2, 12 and 3 in one turn of the current player."""
    return [
        Roll((1, 1, 1, 1)), Move.of(2, 2), Roll((1, 1, 1, 1)), Move.of(2),
        Roll((6, 6, 6, 6)), Move.of(12, 12), Roll((6, 6, 6, 6)), Move.of(12),
        Roll((1, 2, 1, 2)), Move.of(3, 3), Roll((1, 2, 1, 2)), Move.of(3, 3), Roll((1, 2, 1, 2)), Move.of(3),
    ]


def test_rules_third_claim_wins_at_once():
    before = play(2, _claim_2_12_and_3())
    assert before.runner_steps() == {2: 3, 3: 5, 12: 3}
    state = apply(before, STOP)
    assert state.phase is Phase.OVER and state.is_over
    assert (state.winner, state.current, state.turn) == (0, 0, 1)  # Blue gets no equalising turn
    assert state.claimed_columns() == {2: 0, 3: 0, 12: 0}
    assert state.runner_steps() == {} and not can_stop(state) and not can_roll(state)


@pytest.mark.parametrize("event", [Roll((1, 2, 3, 4)), Move.of(7, 7), STOP], ids=str)
def test_rules_nothing_may_follow_the_win(event):
    state = play(2, [*_claim_2_12_and_3(), STOP])
    with pytest.raises(GameOverError, match="the game is over: Red won"):
        apply(state, event)


def test_rules_two_claims_do_not_win():
    state = play(2, [*_claim_2_12_and_3()[:8], STOP])
    assert state.claimed_columns() == {2: 0, 12: 0}
    assert state.phase is Phase.ROLL and state.winner is None and state.current == 1


@pytest.mark.parametrize("columns", range(1, 12))
def test_rules_columns_to_win_accepts_1_to_11(columns):
    assert Rules(columns_to_win=columns).columns_to_win == columns
    assert new_game(["Red"], Rules(columns_to_win=columns)).rules.columns_to_win == columns


@pytest.mark.parametrize("value", [0, 12, -1, "3", 3.0, True, None])
def test_rules_columns_to_win_rejects_other_values(value):
    with pytest.raises(RulesError, match=f"columns_to_win must be a whole number from 1 to 11, not {value!r}"):
        Rules(columns_to_win=value)


@pytest.mark.parametrize("name", ["speedy", "risky"])
@pytest.mark.parametrize("value", ["yes", 1, None])
def test_rules_variant_switches_must_be_true_or_false(name, value):
    with pytest.raises(RulesError, match=f"{name} must be true or false, not {value!r}"):
        Rules(**{name: value})


def runner_topped_on_2_events():
    return [Roll((1, 1, 1, 1)), Move.of(2, 2), Roll((1, 1, 1, 1)), Move.of(2)]


def test_rules_columns_to_win_1_first_claim_wins():
    state = play(2, [*runner_topped_on_2_events(), STOP], Rules(columns_to_win=1))
    assert state.phase is Phase.OVER and state.winner == 0 and state.claimed_columns() == {2: 0}


def test_rules_columns_to_win_4_needs_a_fourth_claim():
    state = play(1, [*_claim_2_12_and_3(), STOP], Rules(columns_to_win=4))
    assert state.phase is Phase.ROLL and state.claims_of(0) == (2, 3, 12)
    state = play(events=[Roll((5, 6, 5, 6)), Move.of(11, 11), Roll((5, 6, 5, 6)), Move.of(11, 11),
                         Roll((5, 6, 5, 6)), Move.of(11), STOP], state=state)
    assert state.phase is Phase.OVER and state.winner == 0 and state.claims_of(0) == (2, 3, 11, 12)


def test_rules_long_game_with_nobody_able_to_win_goes_on_without_a_draw():
    # With 11 columns to win, once both players hold a claim nobody can reach 11.
    # The rules know no draw and the contract's "over" means someone won, so the
    # game goes on; nobody_can_win() lets the box say so and offer a new game.
    rules = Rules(columns_to_win=11)
    state = play(2, [*runner_topped_on_2_events(), STOP], rules)
    assert state.phase is Phase.ROLL and not nobody_can_win(state)
    state = play(events=[Roll((6, 6, 6, 6)), Move.of(12, 12), Roll((6, 6, 6, 6)), Move.of(12), STOP], state=state)
    assert state.phase is Phase.ROLL and state.winner is None and state.current == 0
    assert nobody_can_win(state)
    after = apply(state, Roll((1, 2, 3, 4)))
    assert after.phase is Phase.MOVE  # play goes on: columns 2 and 12 are claimed, the rest are open


# -- variants --------------------------------------------------------------------------


def test_rules_speedy_new_runner_skips_markers_and_never_passes_the_top():
    rules = Rules(speedy=True)
    state = play(3, [Roll((1, 1, 6, 6)), Move.of(2, 12), STOP], rules)  # Red: 2:1, 12:1
    state = play(events=[Roll((1, 1, 6, 6)), Move.of(2, 12), STOP], state=state)  # Blue skips Red's
    assert state.marker_steps(1) == {2: 2, 12: 2}
    assert step_after(state, 2) == 3  # Green: steps 1 and 2 are taken, 3 is the top
    rolled = apply(state, Roll((1, 1, 1, 1)))
    assert sums_of(rolled.moves) == [(2,)]  # the double is capped at the top
    assert apply(rolled, Move.of(2)).runner_steps() == {2: 3}


@pytest.mark.parametrize("speedy, expected", [(False, [1, 2, 3]), (True, [1, 3, 4])])
def test_rules_speedy_runner_steps_over_another_players_marker(speedy, expected):
    state = play(2, [Roll((3, 4, 3, 4)), Move.of(7, 7), STOP], Rules(speedy=speedy))  # Red's marker 7:2
    steps = []
    for _ in range(3):
        state = apply(apply(state, Roll((3, 4, 1, 1))), Move.of(2, 7))
        steps.append(state.runners[7])
    assert steps == expected
    assert state.runners[2] == 3  # column 2 holds no other marker: plain steps


def _blue_runner_on_reds_marker(rules):
    # Red leaves markers 2:1 and 7:1; Blue's runner on 7 reaches step 1 too.
    return play(2, [Roll((3, 4, 1, 1)), Move.of(2, 7), STOP, Roll((3, 4, 6, 6)), Move.of(7, 12)], rules)


def test_rules_risky_forbids_stop_on_another_players_marker():
    state = _blue_runner_on_reds_marker(Rules(risky=True))
    assert state.runner_steps() == {7: 1, 12: 1} and state.marker_steps(0) == {2: 1, 7: 1}
    assert not can_stop(state) and can_roll(state)
    assert "risky" in illegal(state, STOP)
    state = apply(apply(state, Roll((3, 4, 6, 6))), Move.of(7, 12))
    assert can_stop(state)
    assert apply(state, STOP).marker_steps(1) == {7: 2, 12: 2}


def test_rules_risky_off_allows_stop_on_another_players_marker():
    state = _blue_runner_on_reds_marker(Rules())
    assert can_stop(state)
    assert apply(state, STOP).marker_steps(1) == {7: 1, 12: 1}


# -- errors ------------------------------------------------------------------------------


def test_rules_errors_share_the_domain_base():
    for error in (RulesError, RecordError, IllegalEventError, GameOverError):
        assert issubclass(error, CantStopError) and issubclass(error, ValueError)
    assert issubclass(GameOverError, IllegalEventError)


@pytest.mark.parametrize("dice", [(0, 1, 2, 3), (1, 2, 3, 7), (1, 2, 3), (True, 2, 3, 4), (2.0, 2, 3, 4)], ids=str)
def test_rules_bad_dice_are_an_illegal_event(dice):
    with pytest.raises(IllegalEventError) as caught:
        Roll(dice)
    assert str(caught.value) == f"dice must be four whole numbers 1 to 6, not {list(dice)!r}"


def test_rules_roll_takes_its_dice_as_any_sequence():
    assert Roll([1, 2, 3, 4]).dice == (1, 2, 3, 4)
    assert Roll([1, 2, 3, 4]) == Roll((1, 2, 3, 4))


def test_rules_move_sums_are_sorted_and_checked():
    assert Move((9, 5)) == Move.of(5, 9) and Move((9, 5)).sums == (5, 9)
    for bad in [(1,), (13,), (5, 6, 7), (), (True,)]:
        with pytest.raises(IllegalEventError, match="a move is one or two sums 2 to 12"):
            Move(bad)


def test_rules_apply_rejects_what_is_not_an_event():
    with pytest.raises(TypeError, match="not a game event"):
        apply(new_game(["Red"]), {"roll": [1, 2, 3, 4]})


def test_rules_illegal_event_numbered_in_a_record():
    err = IllegalEventError("a move must come right after a roll")
    assert str(err.at(3)) == "event 3: a move must come right after a roll"
    assert err.at(3).index == 3 and str(err) == "a move must come right after a roll"
