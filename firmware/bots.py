"""The box's seats and hints played by the engine's strategy players.

Decisions are pure functions of the game state, memoised, so the UI can ask
for a bot's next action both to show it and to carry it out.
"""

from __future__ import annotations

import functools
import random

from engine import GameState, Move


@functools.cache
def player(kind: str):
    """The strategy player of a kind ("strong", "rule28", "random")."""
    from engine.players import make_player

    return make_player(kind)


@functools.lru_cache(maxsize=256)
def decide(kind: str, state: GameState) -> Move | str:
    """What a bot of ``kind`` does now: a Move in phase MOVE, else "roll" or "stop"."""
    # A random player draws lots: seed it from the state (numbers only, so the
    # seed is the same in every process) so that showing the choice, carrying
    # it out, and doing so again after a restart all agree.
    seed = hash((state.turn, state.current, state.runners, state.dice, state.markers))
    return player(kind).act(state, random.Random(seed))


@functools.lru_cache(maxsize=64)
def advise(state: GameState, kind: str = "strong"):
    """What the strong player would do now: its :class:`engine.players.Advice` (cached per state)."""
    return player(kind).advise(state, random.Random(0))
