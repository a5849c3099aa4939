"""The words module: one formatter per kind of thing, checked on real game states."""

from engine import Move, Roll, apply, new_game, pairings
from firmware import words


def _pairings(dice, runners=()):
    """The pairings of ``dice`` for Red after placing runners with (roll, move) steps."""
    s = new_game(["Red", "Blue"])
    for roll, move in runners:
        s = apply(apply(s, Roll(roll)), Move(move))
    return pairings(apply(s, Roll(dice)))


ON_5_9 = (((2, 3, 4, 5), (5, 9)),)
ON_5_9_7 = ON_5_9 + (((1, 1, 5, 6), (7,)),)


def test_words_option_text_for_each_effect():
    a, b, c = _pairings((2, 3, 4, 5))
    assert [words.option_text(p) for p in (a, b, c)] == [("both", "5+9"), ("both", "6+8"), ("both", "7x2")]
    # runners on 5 and 9: 1 1 5 6 gives A = 2/11 (one runner left: pick), C = 7/6 likewise
    a, b, c = _pairings((1, 1, 5, 6), runners=ON_5_9)
    assert words.option_text(a) == ("pick", "2/11")
    # runners on 5, 9 and 7: 1 1 2 4 gives A = 2+6, nothing moves; B = 3/5, only 5 moves
    a, b, c = _pairings((1, 1, 2, 4), runners=ON_5_9_7)
    assert words.option_text(a) == ("none", "--")
    assert words.option_text(b) == ("second", "5") and words.option_text(c) == ("first", "5")


def test_words_percent_is_exact_to_a_tenth_and_never_hides_a_risk():
    assert words.percent(0.239) == "23.9%"
    assert words.percent(0.0) == "0%"
    assert words.percent(0.0004) == "<0.1%"
    assert words.percent(0.9996) == ">99.9%"
    assert words.percent(1.0) == "100%"


def test_words_runner_step_names_the_physical_move():
    assert words.runner_step(3, new=False, top=False) == "runner up to 3"
    assert words.runner_step(1, new=True, top=False) == "new runner on 1"
    assert words.runner_step(3, new=False, top=True) == "up to 3: TOP!"
    assert words.runner_step(3, new=True, top=True) == "new on 3: TOP!"
    assert words.runner_step(6, new=False, top=False, jumped=(4, 5)) == "up to 6 past 4-5"


def test_words_ranges_compress_runs():
    assert words.ranges((4, 5, 6, 9)) == "4-6 9"
    assert words.ranges((1,)) == "1"
