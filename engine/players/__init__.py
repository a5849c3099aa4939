"""Strategy players: a random player, Michael Keller's Rule of 28, and a strong player.

Pure like the rest of the engine: decisions are functions of the game state
and of an RNG passed in. Not imported by ``engine`` itself (``import engine``
stays fast); tables are built at first use.

>>> from engine import new_game, apply, Roll
>>> from engine.players import make_player
>>> s = apply(new_game(["Solo"]), Roll((2, 3, 4, 5)))
>>> make_player("strong").act(s) in s.moves
True
>>> make_player("rule28").act(apply(s, s.moves[0]))
<Decision.ROLL: 'roll'>
>>> sorted(PLAYER_KINDS)
['random', 'rule28', 'strong']
"""

from ..events import Decision
from .base import Advice, NoDecisionError, Player, PlayerError, UnknownPlayerError, roll_gain, squares_at_risk
from .match import GameResult, game_rng, game_seed, play_game, play_series_part, seat_order, summarize
from .simple import RandomPlayer, RuleOf28Player, choice_points, progress_count
from .strong import StrongPlayer, Tuning

PLAYER_KINDS = {"random": RandomPlayer, "rule28": RuleOf28Player, "strong": StrongPlayer}


def make_player(kind: str) -> Player:
    """A player of the named kind: ``random``, ``rule28`` or ``strong``."""
    try:
        return PLAYER_KINDS[kind]()
    except (KeyError, TypeError):
        known = ", ".join(sorted(PLAYER_KINDS))
        raise UnknownPlayerError(f"unknown player kind {kind!r} (known: {known})") from None


__all__ = [
    "Decision", "Advice", "NoDecisionError", "Player", "PlayerError", "UnknownPlayerError",
    "roll_gain", "squares_at_risk", "GameResult", "game_rng", "game_seed", "play_game",
    "play_series_part", "seat_order", "summarize", "RandomPlayer", "RuleOf28Player",
    "choice_points", "progress_count", "StrongPlayer", "Tuning", "PLAYER_KINDS", "make_player",
]
