"""Can't Stop rules engine: pure, deterministic, standard library only.

The game is a list of events applied to a frozen state::

    >>> from engine import new_game, apply, Roll, Move, STOP, Phase
    >>> s = new_game(["Red", "Blue"])
    >>> s = apply(s, Roll((2, 3, 4, 5)))
    >>> s = apply(s, Move.of(5, 9))
    >>> s = apply(s, STOP)
    >>> s.marker_steps(0), s.current, s.phase is Phase.ROLL
    ({5: 1, 9: 1}, 1, True)

No I/O, no clock and no randomness happen inside: the dice are data.
"""

from .board import ALL_ROLLS, COLUMNS, DISTINCT_ROLLS, HEIGHTS, PAIRINGS, RUNNERS, dice_pairs, pairing_sums
from .errors import CantStopError, GameOverError, IllegalEventError, RecordError, RulesError
from .events import STOP, Decision, Event, Move, Roll, Stop, event_from_json
from .facts import Outcome, jumped_squares, nobody_can_win, outcome, stop_claims
from .game import Pairing, apply, can_roll, can_stop, legal_moves, pairings, step_after
from .odds import bust_chance, bust_probability, bust_probability_of, hit_count
from .record import Record, parse_json, replay, replay_json, state_view
from .rules import Rules
from .state import GameState, Phase, new_game

__all__ = [
    "ALL_ROLLS", "COLUMNS", "DISTINCT_ROLLS", "HEIGHTS", "PAIRINGS", "RUNNERS", "dice_pairs", "pairing_sums",
    "CantStopError", "GameOverError", "IllegalEventError", "RecordError", "RulesError",
    "STOP", "Decision", "Event", "Move", "Roll", "Stop", "event_from_json",
    "Outcome", "Pairing", "apply", "can_roll", "can_stop", "jumped_squares", "legal_moves", "nobody_can_win",
    "outcome", "pairings", "step_after", "stop_claims",
    "bust_chance", "bust_probability", "bust_probability_of", "hit_count",
    "Record", "parse_json", "replay", "replay_json", "state_view", "Rules", "GameState", "Phase", "new_game",
]
