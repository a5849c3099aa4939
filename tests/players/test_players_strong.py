"""The strong player: sound decisions in known positions, and stronger than the Rule of 28."""

from engine import Phase, Roll, Rules, apply, new_game
from engine.players import StrongPlayer, Tuning, make_player, play_series_part, summarize
from tests.kit.playerkit import with_board


def decide(runners, markers=None, players=1, claimed=None, rules=None):
    s = new_game([f"P{k}" for k in range(players)], rules)._replace(phase=Phase.DECIDE)
    return with_board(s, runners=runners, markers=markers or [{}] * players, claimed=claimed)


def test_strong_stops_when_the_stop_wins():
    s = decide({5: 9, 7: 3}, markers=[{2: 3, 12: 3, 5: 8}], claimed={2: 0, 12: 0})
    assert make_player("strong").should_roll(s) is False


def test_strong_rolls_when_nothing_is_at_risk_and_stops_when_much_is():
    low_risk = decide({7: 1})  # one square at stake, two runners free
    assert make_player("strong").should_roll(low_risk) is True
    high_risk = decide({2: 3, 3: 5, 12: 2})  # two columns topped, 12 one below: about 2/3 of rolls bust
    assert make_player("strong").should_roll(high_risk) is False


def test_strong_takes_more_risk_when_behind():
    player = make_player("strong")
    runners = {6: 4, 7: 4, 8: 3}
    behind = decide(runners, [{}, {2: 2, 4: 6, 10: 6, 12: 2}], players=2)
    ahead = decide(runners, [{}, {}], players=2)
    stop_b, roll_b = player.values(behind)
    stop_a, roll_a = player.values(ahead)
    assert roll_b - stop_b > roll_a - stop_a


def test_strong_claims_a_contested_column_before_the_opponent():
    # Column 4 is topped; the opponent (two claims) has a marker one square below 4's top.
    player = make_player("strong")
    runners = {4: 7, 7: 2, 8: 1}
    contested = decide(runners, [{}, {4: 6}], players=2, claimed={2: 1, 12: 1})
    quiet = decide(runners, [{}, {}], players=2, claimed={2: 1, 12: 1})
    assert player.should_roll(contested) is False
    stop_c, roll_c = player.values(contested)
    stop_q, roll_q = player.values(quiet)
    assert roll_c - stop_c < roll_q - stop_q  # a bust would hand the opponent its third column


def test_strong_solitaire_beats_the_rule_of_28():
    strong = summarize(["strong"], play_series_part(["strong"], 5, range(150)))["mean_turns_to_claim"]
    rule28 = summarize(["rule28"], play_series_part(["rule28"], 5, range(150)))["mean_turns_to_claim"]
    assert strong < rule28 - 1.0


def test_strong_beats_the_rule_of_28_head_to_head():
    s = summarize(["strong", "rule28"], play_series_part(["strong", "rule28"], 6, range(200), rotate=True), rotate=True)
    assert s["wins_by_player"][0] >= 0.65 * 200


def test_strong_exact_turn_solver_is_legal_and_agrees_mostly():
    exact = StrongPlayer(Tuning(exact=True))
    s = apply(new_game(["Solo"], Rules()), Roll((2, 3, 4, 5)))
    assert exact.choose_move(s) in s.moves
    assert exact.should_roll(decide({2: 3, 3: 5, 12: 2})) is False
