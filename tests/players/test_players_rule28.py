"""The Rule of 28 counts and chooses as the published rule does (hand-computed values).

Column values: 7 -> 1, 6/8 -> 2, 5/9 -> 3, 4/10 -> 4, 3/11 -> 5, 2/12 -> 6.
A runner k squares above the player's marker counts value * (k + 1) (the
placement counts the value twice). Three runners placed: all odd +2, all even
-2, all <= 7 +4, all >= 7 +4. Stop at 28 or more once no runner is free.
"""

import pytest

from engine import Move, Phase, Roll, apply, new_game
from engine.players import RuleOf28Player, choice_points, progress_count
from tests.kit.playerkit import with_board


def decide_state(runners, markers=None, players=1, claimed=None, rules=None):
    s = new_game([f"P{k}" for k in range(players)], rules)
    s = s._replace(phase=Phase.DECIDE)
    return with_board(s, runners=runners, markers=markers or [{}] * players, claimed=claimed)


@pytest.mark.parametrize("runners, markers, expected", [
    ({2: 2, 5: 1, 12: 1}, {}, 12 + 6 + 6 + 12),            # 2 placed and moved once, 5 and 12 placed
    ({3: 1, 5: 1, 7: 1}, {}, 10 + 6 + 2 + 2 + 4),          # all odd +2, all <= 7 +4
    ({4: 1, 6: 1, 8: 1}, {}, 8 + 4 + 4 - 2),               # all even -2, neither all low nor all high
    ({8: 1, 10: 1, 12: 1}, {}, 4 + 8 + 12 - 2 + 4),        # all even, all >= 7
    ({7: 7}, {7: 4}, 1 * 4),                               # marker on 7:4, runner three squares up
    ({5: 6, 9: 2}, {5: 3, 9: 1}, 3 * 4 + 3 * 2),           # two runners: no set bonus yet
    ({6: 3, 7: 4, 8: 1}, {6: 1}, 2 * 3 + 1 * 5 + 2 * 2),   # mixed: no adjustment
])
def test_rule28_counts_progress_as_published(runners, markers, expected):
    assert progress_count(decide_state(runners, [markers])) == expected


def test_rule28_counts_only_the_player_to_act():
    s = decide_state({9: 3}, [{9: 2}, {9: 7}], players=2)  # the opponent's marker changes nothing
    assert progress_count(s) == 3 * 2


@pytest.mark.parametrize("runners, rolls", [
    ({4: 1, 6: 3, 7: 6}, True),    # 8 + 8 + 7 + 4 (all low) = 27: roll
    ({4: 1, 6: 3, 7: 7}, False),   # 8 + 8 + 8 + 4 = 28: stop
    ({3: 2, 7: 1, 9: 2}, False),   # 15 + 2 + 9 + 2 (all odd) = 28: stop
    ({3: 2, 7: 1, 9: 1}, True),    # 15 + 2 + 6 + 2 = 25: roll
    ({2: 3, 12: 2}, True),         # 24 + 18 = 42 but a runner is free: roll
])
def test_rule28_stops_at_28_once_the_runners_are_placed(runners, rolls):
    assert RuleOf28Player().should_roll(decide_state(runners)) is rolls


def test_rule28_stops_when_the_stop_wins():
    s = decide_state({2: 3, 7: 1}, claimed={12: 0, 3: 0})  # count 26, a runner free, but 2 is topped
    assert RuleOf28Player().should_roll(s) is False


def test_rule28_rolls_with_a_free_runner_only_while_columns_are_left():
    # Only columns 2 and 7 are open and both have runners: no third column for the free runner,
    # so the count decides: 12 + 2 = 14 < 28 rolls; 6*4 + 1*5 = 29 stops although a runner is free.
    closed = {c: 1 for c in (3, 4, 5, 6, 8, 9, 10, 11, 12)}
    players = 2
    assert RuleOf28Player().should_roll(decide_state({2: 1, 7: 1}, players=players, claimed=closed)) is True
    assert RuleOf28Player().should_roll(decide_state({2: 3, 7: 4}, players=players, claimed=closed)) is False


def test_rule28_chooses_the_move_with_most_choice_points():
    s = apply(new_game(["Solo"]), Roll((2, 3, 4, 5)))
    # 5+9: 6 + 6 - 12 = 0; 6+8: 4 + 4 - 12 = -4; 7+7: 3 - 6 = -3
    assert [choice_points(s, r) for r in (
        with_board(s, runners={5: 1, 9: 1}).runners,
        with_board(s, runners={6: 1, 8: 1}).runners,
        with_board(s, runners={7: 2}).runners)] == [0, -4, -3]
    assert RuleOf28Player().choose_move(s) == Move.of(5, 9)


def test_rule28_prefers_climbing_to_placing_a_runner():
    s = decide_state({7: 1})
    s = apply(s, Roll((3, 4, 1, 1)))  # 7+2 (place on 2), 4+5, or 5+4: options (2, 7), (4, 5)
    # (2, 7): 12 + 1*3 - 12 = 3; (4, 5): 2 + 8 + 6 - 18 = -2
    assert RuleOf28Player().choose_move(s) == Move.of(2, 7)


def test_rule28_penalises_an_all_odd_set_when_choosing():
    s = decide_state({3: 1, 5: 1})
    s = apply(s, Roll((1, 6, 2, 2)))  # pairings 7+4, 3+8, 3+8: moves (4, 7) [one runner] ...
    moves = {m.sums: choice_points(s, apply(s, m).runners) for m in s.moves}
    assert sorted(moves) == [(3, 8), (4,), (7,)]
    # 3 and 5 placed count 10 + 6 = 16. Adding 7: +2, three runners -18, all odd -2, all low -4
    assert moves[(7,)] == 16 + 2 - 18 - 2 - 4
    # Adding 4 (all low): 16 + 8 - 18 - 4
    assert moves[(4,)] == 16 + 8 - 18 - 4
    # 3 climbs, 8 placed: 3 at step 2 -> 15, 5 -> 6, 8 -> 4; mixed, not all low/high
    assert moves[(3, 8)] == 15 + 6 + 4 - 18
    assert RuleOf28Player().choose_move(s) == Move.of(3, 8)


def test_rule28_solitaire_averages_near_the_published_10_7_turns():
    from engine.players import play_series_part, summarize

    summary = summarize(["rule28"], play_series_part(["rule28"], 11, range(600)))
    assert 10.2 <= summary["mean_turns_to_claim"] <= 11.2
