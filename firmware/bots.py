"""The box's seats and hints played by the engine's strategy players.

Decisions are pure functions of the game state, memoised, so the UI can ask
for a bot's next action both to show it and to carry it out.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass

from engine import GameState, Move, Phase


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


@dataclass(frozen=True)
class Hint:
    action: str  # "Roll again", "Stop", "A: 6+8"
    reason: tuple[str, ...]
    bust: float | None


@functools.lru_cache(maxsize=64)
def advise(state: GameState, kind: str = "strong") -> Hint:
    """What the strong player would do now, in words for the screen."""
    advice = player(kind).advise(state, random.Random(0))
    action = advice.action
    if isinstance(action, Move):
        from engine import pairings

        pairing = next((p for p in pairings(state) if action in p.moves), None)
        if pairing is None:
            text = "+".join(map(str, action.sums))
        elif pairing.needs_pick:
            text = f"{pairing.label}: {action.sums[0]}"
        else:  # as the dice screen shows it: dice order, "x2" for a double
            a, b = pairing.sums
            if len(action.sums) == 1:
                text = f"{pairing.label}: {action.sums[0]}"
            else:
                text = f"{pairing.label}: {a} x2" if a == b else f"{pairing.label}: {a}+{b}"
    elif action == "stop":
        text = "Stop"
    else:
        text = "Roll" if state.phase is Phase.ROLL else "Roll again"
    reason = tuple(line for line in advice.reason.split("\n") if line)
    return Hint(text, reason, advice.bust)
