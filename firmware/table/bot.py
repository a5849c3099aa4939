"""The box's seats and hints played by the engine's strategy players.

Decisions are pure functions of the game state, memoised, so the UI can ask
for a bot's next action both to show it and to carry it out.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass

from engine import Decision, GameState, Move


@functools.cache
def player(kind: str):
    """The strategy player of a kind ("strong", "rule28", "random")."""
    from engine.players import make_player

    return make_player(kind)


@functools.lru_cache(maxsize=256)
def decide(kind: str, state: GameState) -> Move | Decision:
    """What a bot of ``kind`` does now: a Move in phase MOVE, else a :class:`engine.Decision`."""
    # A random player draws lots: seed it from the state (numbers only, so the
    # seed is the same in every process) so that showing the choice, carrying
    # it out, and doing so again after a restart all agree.
    seed = hash((state.turn, state.current, state.runners, state.dice, state.markers))
    return player(kind).act(state, random.Random(seed))


@functools.lru_cache(maxsize=64)
def advise(state: GameState, kind: str = "strong"):
    """What the strong player would do now: its :class:`engine.players.Advice` (cached per state)."""
    return player(kind).advise(state, random.Random(0))


@dataclass(frozen=True)
class HintFacts:
    """The numbers behind a hint, for :func:`firmware.words.hint_reason` to put in plain words.

    ``kind`` says which numbers are set: "start" (a turn starts), "move" (the
    bust chance after the advised move), "win" (the stop claims the last
    column), "must_roll" (risky: a stop is not allowed), "chances" (the chance
    to win the game after rolling again and after stopping), "turns" (solitaire:
    the turns the advised choice saves on average), "plain" (the bust chance
    and what a stop keeps, when no better numbers exist).
    """

    kind: str
    roll: bool  # the advice is to roll (again)
    bust: float = 0.0
    roll_win: float = 0.0
    stop_win: float = 0.0
    saved_turns: float = 0.0
    at_risk: int = 0
    sums: tuple[int, ...] = ()


def hint_facts(state: GameState, action) -> HintFacts:
    """The plain numbers behind the strong player's advice ``action`` now (pure, cached below)."""
    from engine import Phase, bust_probability, can_stop
    from engine.players import squares_at_risk
    from engine.players.base import bust_after, runners_after, stop_wins

    if isinstance(action, Move):
        return HintFacts("move", False, bust_after(state, runners_after(state, action)), sums=action.sums)
    roll = action is not Decision.STOP
    bust = bust_probability(state)
    if state.phase is Phase.ROLL:
        return HintFacts("start", True, bust)
    if not can_stop(state):
        return HintFacts("must_roll", True, bust)
    if stop_wins(state):
        return HintFacts("win", False, bust)
    strong = player("strong")
    if hasattr(strong, "values"):
        stop, rolled = strong.values(state)
        if len(state.players) > 1:
            return HintFacts("chances", roll, bust, roll_win=rolled, stop_win=stop)
        return HintFacts("turns", roll, bust, saved_turns=abs(rolled - stop))
    return HintFacts("plain", roll, bust, at_risk=squares_at_risk(state))
