"""Facts a reader of the rules would name: how a game ended, what a stop claims, what a runner jumped.

>>> from engine import new_game, apply, Roll, Move, outcome, stop_claims
>>> s = apply(apply(new_game(["Red"], ), Roll((1, 1, 1, 1))), Move.of(2, 2))
>>> outcome(s) is None, stop_claims(s)
(True, ())
"""

from itertools import compress
from typing import NamedTuple

from .board import TOP
from .game import _SLOTS, _next_step
from .state import GameState, Phase

_ROLL, _DECIDE, _OVER = Phase.ROLL, Phase.DECIDE, Phase.OVER


def nobody_can_win(state: GameState) -> bool:
    """True when no player can reach the columns to win any more.

    Only possible with a long-game setting (e.g. 11 columns to win with two
    players, once both hold a claim). The rules know no draw, so the game
    itself goes on (every roll then busts, or can only fill the last open
    columns); the box uses this to tell the table and offer a new game.

    >>> from engine import new_game
    >>> nobody_can_win(new_game(["Red", "Blue"]))
    False
    """
    claimed = state.claimed
    open_columns = claimed.count(-1) - 2
    if open_columns == 11:  # nothing claimed yet: every goal of 1..11 columns is still open
        return False
    need = state.rules.columns_to_win
    return all(claimed.count(i) + open_columns < need for i in range(len(state.players)))


class Outcome(NamedTuple):
    """How a game ended: ``winner`` is the winning player's index, or None when nobody can win any more."""

    winner: int | None


_NOBODY = Outcome(None)


def outcome(state: GameState) -> Outcome | None:
    """How the game ended, or None while it goes on.

    ``Outcome(winner=i)`` once player ``i`` has won (phase OVER).
    ``Outcome(winner=None)`` when a turn starts and no player can reach the
    columns to win any more (see :func:`nobody_can_win`): the rules know no
    draw, so this is where the box and the simulator end such a game.

    >>> from engine import new_game
    >>> outcome(new_game(["Red", "Blue"])) is None
    True
    """
    phase = state.phase
    if phase is _OVER:
        return Outcome(state.winner)
    if phase is _ROLL and nobody_can_win(state):
        return _NOBODY
    return None


def stop_claims(state: GameState) -> tuple[int, ...]:
    """The columns the player to act claims if they stop now, ascending: those whose runner stands on the top.

    Whether a stop is allowed now is :func:`can_stop`'s question (the risky
    variant may forbid it); outside phase DECIDE there is nothing to stop.

    >>> from engine import new_game, apply, Roll, Move
    >>> s = apply(new_game(["Red", "Blue"]), Roll((1, 1, 1, 1)))
    >>> s = apply(apply(s, Move.of(2, 2)), Roll((1, 1, 6, 6)))
    >>> stop_claims(apply(s, Move.of(2, 12)))
    (2,)
    """
    if state.phase is not _DECIDE:
        return ()
    runners = state.runners
    return tuple(c for c in compress(_SLOTS, runners) if runners[c] == TOP[c])


def jumped_squares(before: GameState, after: GameState, column: int) -> tuple[int, ...]:
    """Speedy variant: the squares the runner in ``column`` jumped from ``before`` to ``after``.

    A step skips squares where another player's marker stands; this walks
    the engine's own steps from where the piece stood in ``before`` (its
    runner, or else its marker) to the runner in ``after`` and returns the
    squares passed over, ascending. Empty under the standard rules, and when
    the runner did not climb (a bust or a stop clears the runners).
    """
    if not before.rules.speedy:
        return ()
    step = before.runners[column] or before.markers[before.current][column]
    end = after.runners[column]
    jumped = []
    while step < end:
        landing = _next_step(before, column, step)
        jumped.extend(range(step + 1, landing))
        step = landing
    return tuple(jumped)
