"""What every strategy player offers: a move, roll or stop, and advice with a short why.

A player is a small frozen object with two decisions, both pure functions of
the game state (and of an RNG passed in, for players that draw lots):

- :meth:`Player.choose_move` in phase MOVE picks one of ``state.moves``;
- :meth:`Player.should_roll` in phase DECIDE says roll (True) or stop; it
  must say roll when a stop is illegal (the risky variant).

:meth:`Player.act` dispatches on the phase and :meth:`Player.advise` explains
the decision in at most two lines of 20 characters, for the 128x64 screen.
"""

from dataclasses import dataclass
from typing import ClassVar

from ..board import COLUMNS, TOP
from ..errors import CantStopError
from ..events import Move
from ..facts import stop_claims
from ..game import can_stop, step_after
from ..odds import bust_probability
from ..state import GameState, Phase, free_runners_of
from .turn import climbing_mask, outcomes, placeable_mask

ROLL = "roll"
STOP_ACTION = "stop"
REASON_WIDTH = 20
REASON_LINES = 2


class PlayerError(CantStopError, ValueError):
    """A player was asked for something it cannot give (unknown kind, no decision to make)."""


class UnknownPlayerError(PlayerError):
    """The name of a player kind that does not exist."""


class NoDecisionError(PlayerError):
    """The game is over: there is nothing to decide or advise."""


@dataclass(frozen=True, slots=True)
class Advice:
    """What a player would do now, and why in a few words.

    ``action`` is a :class:`~engine.Move` in phase MOVE, otherwise ``"roll"``
    or ``"stop"``. ``reason`` is at most two lines (``\\n``-separated) of at most
    20 characters. ``bust`` is the chance that the next roll busts (after the
    advised move, in phase MOVE). ``expected_gain`` is the expected net squares
    of rolling once more (squares the next roll adds, less the squares at risk
    times the bust chance); None in phase MOVE.
    """

    action: Move | str
    reason: str
    bust: float
    expected_gain: float | None

    def __post_init__(self):
        lines = self.reason.split("\n")
        if len(lines) > REASON_LINES or any(len(line) > REASON_WIDTH for line in lines):
            raise PlayerError(f"advice reason must be at most 2 lines of 20 characters, not {self.reason!r}")


class Player:
    """Base of the strategy players; subclasses give the two decisions."""

    kind: ClassVar[str] = "player"

    def choose_move(self, state: GameState, rng=None) -> Move:  # pragma: no cover - abstract
        """One of ``state.moves`` (phase MOVE)."""
        raise NotImplementedError

    def should_roll(self, state: GameState, rng=None) -> bool:  # pragma: no cover - abstract
        """True to roll again, False to stop (phase DECIDE); True whenever a stop is illegal."""
        raise NotImplementedError

    def act(self, state: GameState, rng=None) -> Move | str:
        """The player's action now: a Move in phase MOVE, else ``"roll"`` or ``"stop"``."""
        phase = state.phase
        if phase is Phase.MOVE:
            return self.choose_move(state, rng)
        if phase is Phase.DECIDE:
            return ROLL if self.should_roll(state, rng) else STOP_ACTION
        if phase is Phase.ROLL:
            return ROLL
        raise NoDecisionError("the game is over: there is nothing to decide")

    def advise(self, state: GameState, rng=None) -> Advice:
        """The decision now with a short why (see :class:`Advice`)."""
        action = self.act(state, rng)
        if state.phase is Phase.MOVE:
            after = runners_after(state, action)
            return Advice(action, move_reason(action, state, after, self.move_note(state, action)),
                          bust_after(state, after), None)
        return Advice(action, decide_reason(state, action, self.decide_note(state, action)),
                      bust_probability(state), roll_gain(state))

    # -- short notes for the second line of a reason; subclasses refine ------

    def move_note(self, state: GameState, move: Move) -> str | None:
        return None

    def decide_note(self, state: GameState, action: str) -> str | None:
        return None


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


def _pct(p: float) -> str:
    return f"{round(p * 100)}%"


def move_reason(move: Move, state: GameState, after, note: str | None) -> str:
    """``Move 5+9`` then a note, by default the bust chance of the next roll."""
    first = f"Move {'+'.join(map(str, move.sums))}"
    second = note if note is not None else f"then bust {_pct(bust_after(state, after))}"
    return f"{first}\n{second[:REASON_WIDTH]}"


def decide_reason(state: GameState, action: str, note: str | None) -> str:
    """``Roll: bust 23%`` / ``Stop: bust 44%`` then a note."""
    bust = _pct(bust_probability(state))
    if state.phase is Phase.ROLL:
        return f"Roll: turn starts\nbust {bust}"
    if action == ROLL and not can_stop(state):
        return f"Must roll: risky\nbust {bust}"
    if action == STOP_ACTION:
        claims = stop_claims(state)
        if stop_wins(state):
            return "Stop and win!"
        first = f"Stop: bust {bust}"
        if note is None:
            note = f"claims {'+'.join(map(str, claims))}" if claims else f"keeps {squares_at_risk(state)} squares"
        return f"{first}\n{note[:REASON_WIDTH]}"
    first = f"Roll: bust {bust}"
    if note is None:
        note = f"{roll_gain(state):+.1f} squares/roll"
    return f"{first}\n{note[:REASON_WIDTH]}"
