"""Whole games between players, and a summary of many: pure, the RNG passed in.

Game ``i`` of a series with seed ``S`` draws everything (dice and random
players' lots) from ``random.Random(game_seed(S, i))``, so a series gives the
same results however its games are spread over processes.

>>> from engine.players import make_player
>>> r = play_game([make_player("rule28")], game_rng(7, 0))
>>> r.winner, r.capped, r.turns == play_game([make_player("rule28")], game_rng(7, 0)).turns
(0, False, True)
"""

import random
from dataclasses import dataclass

from ..board import ALL_ROLLS
from ..events import STOP, Roll
from ..facts import outcome
from ..game import apply
from ..rules import Rules
from ..state import Phase, new_game
from .base import PlayerError

DEFAULT_MAX_TURNS = 500
_ROLLS = tuple(Roll(d) for d in ALL_ROLLS)


def game_seed(seed: int, index: int) -> str:
    """The seed of game ``index`` in a series seeded ``seed`` (a string: Random hashes it with SHA-512)."""
    return f"cantstop-box:{seed}:{index}"


def game_rng(seed: int, index: int) -> random.Random:
    return random.Random(game_seed(seed, index))


@dataclass(frozen=True, slots=True)
class GameResult:
    """How one game ended. ``order[k]`` is the index (into the series' players) of seat ``k``."""

    order: tuple[int, ...]
    winner: int | None
    """The winning seat, or None (capped, or nobody could claim enough columns)."""
    turns: int
    """Turns played, every player's counted (a bust is a turn)."""
    capped: bool


def play_game(players, rng: random.Random, rules: Rules | None = None,
              max_turns: int = DEFAULT_MAX_TURNS, order=None) -> GameResult:
    """Play one game, seat ``k`` played by ``players[k]``; stop after ``max_turns`` turns."""
    if not 1 <= len(players) <= 4:
        raise PlayerError(f"a game needs 1 to 4 players, not {len(players)}")
    state = new_game([f"P{k + 1}" for k in range(len(players))], rules)
    rand = rng.random
    MOVE, DECIDE = Phase.MOVE, Phase.DECIDE
    while True:
        phase = state.phase
        if state.turn > max_turns:  # (a won game never gets here: its last turn was within the cap)
            return GameResult(tuple(order or range(len(players))), None, max_turns, True)
        if phase is not MOVE and phase is not DECIDE:
            ended = outcome(state)  # a win, or nobody can win any more (no draw in the rules: stop here)
            if ended is not None:
                return GameResult(tuple(order or range(len(players))), ended.winner, state.turn, False)
        player = players[state.current]
        if phase is MOVE:
            event = player.choose_move(state, rng)
        elif phase is DECIDE and not player.should_roll(state, rng):
            event = STOP
        else:
            event = _ROLLS[int(rand() * 1296)]
        state = apply(state, event)


def seat_order(index: int, n: int, rotate: bool) -> tuple[int, ...]:
    """Which listed player sits in each seat for game ``index``: rotated by ``index`` when asked."""
    shift = index % n if rotate else 0
    return tuple((k + shift) % n for k in range(n))


def play_series_part(kinds, seed: int, indices, rules: Rules | None = None,
                     max_turns: int = DEFAULT_MAX_TURNS, rotate: bool = False) -> list[GameResult]:
    """Play the games ``indices`` of a series (any subset: results do not depend on the split)."""
    from . import make_player

    players = [make_player(k) for k in kinds]
    out = []
    for i in indices:
        order = seat_order(i, len(players), rotate)
        seated = [players[j] for j in order]
        out.append(play_game(seated, game_rng(seed, i), rules, max_turns, order))
    return out


def summarize(kinds, results, seed: int | None = None, rotate: bool = False,
              max_turns: int = DEFAULT_MAX_TURNS) -> dict:
    """The summary of a series: wins per seat and per listed player, turns, first-player win rate, caps."""
    import statistics

    n = len(kinds)
    games = len(results)
    wins_by_seat = [0] * n
    wins_by_player = [0] * n
    for r in results:
        if r.winner is not None:
            wins_by_seat[r.winner] += 1
            wins_by_player[r.order[r.winner]] += 1
    turns = [r.turns for r in results if not r.capped]
    summary = {
        "players": list(kinds),
        "games": games,
        "seed": seed,
        "rotate": rotate,
        "max_turns": max_turns,
        "wins_by_seat": wins_by_seat,
        "wins_by_player": wins_by_player,
        "no_winner": games - sum(wins_by_seat),
        "capped": sum(1 for r in results if r.capped),
        "mean_turns": round(statistics.fmean(turns), 4) if turns else None,
        "median_turns": statistics.median(turns) if turns else None,
        "first_player_win_rate": round(wins_by_seat[0] / games, 4) if games else None,
    }
    if n == 1:
        # Solitaire: the key figure is the mean turns to claim the needed columns.
        summary["mean_turns_to_claim"] = summary["mean_turns"]
    return summary
