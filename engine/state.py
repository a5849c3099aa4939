"""The frozen game state and the start of a game."""

from enum import Enum
from typing import NamedTuple

from .board import COLUMNS, RUNNERS, TOP
from .errors import RulesError
from .events import Move
from .rules import Rules


class Phase(str, Enum):
    """What the player to act must do next."""

    ROLL = "roll"  #: a turn starts: the player must roll
    MOVE = "move"  #: dice are out: the player must pick one of the legal moves
    DECIDE = "decide"  #: after a move: roll again or stop
    OVER = "over"  #: the game has ended

    def __str__(self) -> str:
        return self.value


# Column-indexed tuples have 13 slots so that ``runners[7]`` is column 7;
# slots 0 and 1 are always 0 (or -1 for ``claimed``).
EMPTY_RUNNERS: tuple[int, ...] = (0,) * 13
NO_CLAIMS: tuple[int, ...] = (-1,) * 13
_EMPTY_SLOTS = 13 - RUNNERS  # zeros in ``runners`` when every runner is free


def free_runners_of(runners) -> int:
    """Runners not yet placed (0..3) in a column-indexed runners tuple: :attr:`GameState.free_runners`
    for runners that are not (yet) a state's, such as a player's look-ahead."""
    return runners.count(0) - _EMPTY_SLOTS


class GameState(NamedTuple):
    """The whole game at one moment. Immutable: :func:`engine.apply` makes a new one.

    Column-indexed fields (``runners``, ``markers[i]``, ``claimed``) are tuples
    of 13 entries indexed by the column number itself; use the ``*_steps``
    helpers for a ``{column: step}`` view.
    """

    players: tuple[str, ...]
    rules: Rules
    current: int
    """Index of the player to act (the winner once the game is won)."""
    phase: Phase
    dice: tuple[int, int, int, int] | None
    """The pending roll in phase MOVE, otherwise None."""
    moves: tuple[Move, ...]
    """The legal moves in phase MOVE (sorted, no repeats), otherwise ()."""
    runners: tuple[int, ...]
    """Step of this turn's runner in each column, 0 where there is none."""
    markers: tuple[tuple[int, ...], ...]
    """Per player, the step of their marker in each column, 0 where none."""
    claimed: tuple[int, ...]
    """Per column, the index of the player who claimed it, -1 if unclaimed."""
    winner: int | None
    turn: int
    """The number of the current turn, counting every player's turns from 1."""

    # -- derived views ----------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def free_runners(self) -> int:
        """Runners not yet placed this turn (0..3)."""
        return self.runners.count(0) - _EMPTY_SLOTS  # free_runners_of(self.runners), one call fewer

    @property
    def round(self) -> int:
        """The round number: every player's first turn is round 1, their second round 2, ..."""
        return (self.turn - 1) // len(self.players) + 1

    def runner_steps(self) -> dict[int, int]:
        """This turn's runners as ``{column: step}``, columns ascending."""
        r = self.runners
        return {c: r[c] for c in COLUMNS if r[c]}

    def marker_steps(self, player: int) -> dict[int, int]:
        """One player's markers as ``{column: step}``, columns ascending."""
        m = self.markers[player]
        return {c: m[c] for c in COLUMNS if m[c]}

    def claimed_columns(self) -> dict[int, int]:
        """Claimed columns as ``{column: owner}``, columns ascending."""
        cl = self.claimed
        return {c: cl[c] for c in COLUMNS if cl[c] >= 0}

    def claims_of(self, player: int) -> tuple[int, ...]:
        """The columns a player has claimed, ascending."""
        cl = self.claimed
        return tuple(c for c in COLUMNS if cl[c] == player)

    def is_topped(self, column: int) -> bool:
        """Whether this turn's runner in ``column`` stands on the top."""
        return self.runners[column] == TOP[column]


def new_game(players, rules: Rules | None = None) -> GameState:
    """A game at its start: the first player must roll.

    >>> s = new_game(["Red", "Blue"])
    >>> s.phase, s.current, s.free_runners
    (<Phase.ROLL: 'roll'>, 0, 3)
    """
    players = tuple(players)
    if not 1 <= len(players) <= 4:
        raise RulesError(f"a game needs 1 to 4 players, not {len(players)}")
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise RulesError(f"player names must be non-empty text, not {name!r}")
    if rules is None:
        rules = Rules()
    elif not isinstance(rules, Rules):
        raise RulesError(f"rules must be a Rules, not {type(rules).__name__}")
    return GameState(
        players,
        rules,
        0,
        Phase.ROLL,
        None,
        (),
        EMPTY_RUNNERS,
        tuple(EMPTY_RUNNERS for _ in players),
        NO_CLAIMS,
        None,
        1,
    )
