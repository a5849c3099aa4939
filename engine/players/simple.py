"""Two simple players: one that draws lots, and Michael Keller's Rule of 28.

The Rule of 28 (Keller's Solitaire Laboratory page, as formalised by Glenn
and Aloi, "A Generalized Heuristic for Can't Stop", 2009) counts the turn's
progress with a value per column, 1 for column 7 rising by one per column
outward to 6 for columns 2 and 12:

- every square a runner climbs counts the column's value, and placing a
  runner counts the value once more (the placement bonus): a runner ``k``
  squares above the player's marker counts ``value * (k + 1)``;
- once all three runners are placed: +2 if their columns are all odd, -2 if
  all even; +4 if all are 7 or lower, +4 if all are 7 or higher.

The player rolls while a runner is free and more open columns are left than
runners placed, or while the count is below 28; it stops at once when a stop
wins. It picks the move with the most *choice points*: the same count, less 6
per runner on the board, with the odd/even/high/low terms taken with the
opposite sign (a cheap all-even set scores +2, an all-odd one -2, all-high or
all-low -4). Ties go to the first move in ``state.moves``.

>>> from engine import new_game, apply, Roll, Move
>>> s = apply(new_game(["Solo"]), Roll((1, 1, 2, 3)))
>>> [m.sums for m in s.moves]
[(2, 5), (3, 4)]
>>> RuleOf28Player().choose_move(s)
Move(sums=(2, 5))
>>> progress_count(apply(s, Move.of(2, 5)))  # 2: 6*2, 5: 3*2
18
"""

from dataclasses import dataclass

from ..board import COLUMNS, TOP
from ..events import Move
from ..game import can_stop
from ..state import GameState
from .base import Player, runners_after, stop_wins

COLUMN_VALUE: tuple[int, ...] = (0, 0) + tuple(abs(c - 7) + 1 for c in COLUMNS)
"""The Rule of 28's value per column (indexed by column): 6 for 2 and 12 down to 1 for 7."""

THRESHOLD = 28
RUNNER_PENALTY = 6
ODD_BONUS, EVEN_BONUS, LOW_BONUS, HIGH_BONUS = 2, -2, 4, 4


@dataclass(frozen=True, slots=True)
class RandomPlayer(Player):
    """Picks a legal move at random and, when a stop is legal, stops with chance ``stop_chance``."""

    stop_chance: float = 0.5
    kind = "random"

    def choose_move(self, state: GameState, rng=None) -> Move:
        moves = state.moves
        return moves[_rng(rng).randrange(len(moves))]

    def should_roll(self, state: GameState, rng=None) -> bool:
        if not can_stop(state):
            return True
        return _rng(rng).random() >= self.stop_chance


def _rng(rng):
    if rng is None:  # advice without an RNG: a fixed draw, so advice is repeatable
        import random

        return random.Random(0)
    return rng


def _group_terms(runners) -> int:
    """The odd/even/low/high adjustment for three placed runners (0 before that)."""
    cols = [c for c in COLUMNS if runners[c]]
    if len(cols) < 3:
        return 0
    total = 0
    if all(c % 2 == 0 for c in cols):
        total += EVEN_BONUS
    elif all(c % 2 for c in cols):
        total += ODD_BONUS
    if all(c <= 7 for c in cols):
        total += LOW_BONUS
    if all(c >= 7 for c in cols):
        total += HIGH_BONUS
    return total


def _squares_count(runners, own) -> int:
    return sum(COLUMN_VALUE[c] * (runners[c] - own[c] + 1) for c in COLUMNS if runners[c])


def progress_count(state: GameState, runners=None) -> int:
    """The Rule of 28's progress count of this turn (for the player to act)."""
    runners = state.runners if runners is None else runners
    return _squares_count(runners, state.markers[state.current]) + _group_terms(runners)


def choice_points(state: GameState, runners) -> int:
    """The Rule of 28's score of the runners a move would leave (higher is better)."""
    placed = sum(1 for c in COLUMNS if runners[c])
    return (_squares_count(runners, state.markers[state.current])
            - RUNNER_PENALTY * placed - _group_terms(runners))


@dataclass(frozen=True, slots=True)
class RuleOf28Player(Player):
    """Michael Keller's Rule of 28 (see the module docstring); ``threshold`` may be changed."""

    threshold: int = THRESHOLD
    kind = "rule28"

    def choose_move(self, state: GameState, rng=None) -> Move:
        best = None
        best_points = None
        for move in state.moves:
            points = choice_points(state, runners_after(state, move))
            if best_points is None or points > best_points:
                best, best_points = move, points
        return best

    def should_roll(self, state: GameState, rng=None) -> bool:
        if not can_stop(state):
            return True
        if stop_wins(state):
            return False
        runners = state.runners
        placed = sum(1 for c in COLUMNS if runners[c])
        claimed = state.claimed
        open_columns = sum(1 for c in COLUMNS if claimed[c] < 0 and runners[c] != TOP[c])
        if placed < 3 and open_columns > placed:
            return True
        return progress_count(state) < self.threshold
