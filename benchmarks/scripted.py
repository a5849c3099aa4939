"""What the benchmarks' scripted players do: one helper each, shared so every benchmark plays alike."""

from __future__ import annotations

import random

from engine import ALL_ROLLS, STOP, Phase, Roll, can_stop
from firmware import ui, views


def random_event(state, rng: random.Random, stop_chance: float):
    """A uniformly random legal move; after a move, stop with ``stop_chance`` (when allowed), else roll."""
    if state.phase is Phase.MOVE:
        return rng.choice(state.moves)
    if state.phase is Phase.DECIDE and can_stop(state) and rng.random() < stop_chance:
        return STOP
    return Roll(rng.choice(ALL_ROLLS))


def button_for(view, rng: random.Random) -> tuple[str, ...]:
    """The buttons a table presses on this screen: a random legal pairing, stop two times in five.

    A win gives two presses: to the new-game screen, and start again.
    """
    if isinstance(view, views.WinView):
        return ("ROLL", "ROLL")
    if isinstance(view, views.DiceView):
        return (rng.choice([o.label for o in view.options if o.effect != "none"]),)
    if isinstance(view, views.PickView):
        return (rng.choice("AB"),)
    if isinstance(view, views.MoveView) and view.can_stop and rng.random() < 0.4:
        return ("STOP",)
    return ("ROLL",)


def play_games(box, tap, games: int, rng: random.Random) -> None:
    """Press like a table (:func:`button_for`) on ``box`` through ``tap(button)`` until ``games`` are won.

    The first ROLL starts a game with the defaults from the new-game screen.
    """
    finished = 0
    tap("ROLL")
    while finished < games:
        v = ui.view(box.app)
        finished += isinstance(v, views.WinView)
        for button in button_for(v, rng):
            tap(button)
