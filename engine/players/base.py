"""What every strategy player offers: a move, roll or stop, and advice with its numbers.

A player is a small frozen object with two decisions, both pure functions of
the game state (and of an RNG passed in, for players that draw lots):

- :meth:`Player.choose_move` in phase MOVE picks one of ``state.moves``;
- :meth:`Player.should_roll` in phase DECIDE says roll (True) or stop; it
  must say roll when a stop is illegal (the risky variant).

:meth:`Player.act` dispatches on the phase (a :class:`~engine.Move`, or a
:class:`~engine.Decision` to roll or stop) and :meth:`Player.advise` adds the
numbers behind the decision. Players carry data, never words: putting advice
into a language and onto a screen is the caller's job.
"""

from dataclasses import dataclass
from typing import ClassVar

from ..board import COLUMNS, TOP
from ..errors import CantStopError
from ..events import Decision, Move
from ..facts import stop_claims
from ..game import can_stop, step_after
from ..odds import bust_probability
from ..state import GameState, Phase, free_runners_of
from .turn import climbing_mask, outcomes, placeable_mask


class PlayerError(CantStopError, ValueError):
    """A player was asked for something it cannot give (unknown kind, no decision to make)."""


class UnknownPlayerError(PlayerError):
    """The name of a player kind that does not exist."""


class NoDecisionError(PlayerError):
    """The game is over: there is nothing to decide or advise."""


@dataclass(frozen=True, slots=True)
class Advice:
    """What a player would do now, and the numbers behind it.

    ``action`` is a :class:`~engine.Move` in phase MOVE, otherwise a
    :class:`~engine.Decision`. ``bust`` is the chance that the next roll busts
    (after the advised move, in phase MOVE). ``expected_gain`` is the expected
    net squares of rolling once more (squares the next roll adds, less the
    squares at risk times the bust chance); None in phase MOVE.
    """

    action: Move | Decision
    bust: float
    expected_gain: float | None


class Player:
    """Base of the strategy players; subclasses give the two decisions."""

    kind: ClassVar[str] = "player"

    def choose_move(self, state: GameState, rng=None) -> Move:  # pragma: no cover - abstract
        """One of ``state.moves`` (phase MOVE)."""
        raise NotImplementedError

    def should_roll(self, state: GameState, rng=None) -> bool:  # pragma: no cover - abstract
        """True to roll again, False to stop (phase DECIDE); True whenever a stop is illegal."""
        raise NotImplementedError

    def act(self, state: GameState, rng=None) -> Move | Decision:
        """The player's action now: a Move in phase MOVE, else ``Decision.ROLL`` or ``Decision.STOP``."""
        phase = state.phase
        if phase is Phase.MOVE:
            return self.choose_move(state, rng)
        if phase is Phase.DECIDE:
            return Decision.ROLL if self.should_roll(state, rng) else Decision.STOP
        if phase is Phase.ROLL:
            return Decision.ROLL
        raise NoDecisionError("the game is over: there is nothing to decide")

    def advise(self, state: GameState, rng=None) -> Advice:
        """The decision now with the numbers behind it (see :class:`Advice`)."""
        action = self.act(state, rng)
        if state.phase is Phase.MOVE:
            return Advice(action, bust_after(state, runners_after(state, action)), None)
        return Advice(action, bust_probability(state), roll_gain(state))


# -- helpers shared by the players (pure) ----------------------------------


def runners_after(state: GameState, move: Move) -> tuple[int, ...]:
    """The runners after ``move`` (standard or speedy steps), without building a new state."""
    runners = list(state.runners)
    if not state.rules.speedy:
        own = state.markers[state.current]
        for s in move.sums:
            runners[s] = min((runners[s] or own[s]) + 1, TOP[s])
        return tuple(runners)
    for s in move.sums:
        probe = state._replace(runners=tuple(runners))
        runners[s] = step_after(probe, s)
    return tuple(runners)


def bust_after(state: GameState, runners) -> float:
    """The chance that a roll busts with these runners (same board otherwise)."""
    free = free_runners_of(runners)
    bust = outcomes(climbing_mask(runners), placeable_mask(runners, state.claimed), free)[2]
    return bust / 1296


def squares_at_risk(state: GameState, runners=None) -> int:
    """Squares this turn's runners stand above the player's markers: what a bust loses."""
    runners = state.runners if runners is None else runners
    own = state.markers[state.current]
    return sum(runners[c] - own[c] for c in COLUMNS if runners[c])


def roll_gain(state: GameState) -> float:
    """Expected net squares of one more roll: squares it adds (best option) less bust x at risk."""
    runners = state.runners
    free = state.free_runners
    weights, option_sets, bust = outcomes(climbing_mask(runners), placeable_mask(runners, state.claimed), free)
    own = state.markers[state.current]
    gain = 0
    for weight, options in zip(weights, option_sets):
        best = 0
        for opt in options:
            room = 0
            for s in set(opt):
                base = runners[s] or own[s]
                room += min(opt.count(s), TOP[s] - base)
            best = max(best, room)
        gain += weight * best
    return (gain - bust * squares_at_risk(state)) / 1296


def stop_wins(state: GameState) -> bool:
    """Whether stopping now claims enough columns to win."""
    cur = state.current
    return can_stop(state) and state.claimed.count(cur) + len(stop_claims(state)) >= state.rules.columns_to_win
