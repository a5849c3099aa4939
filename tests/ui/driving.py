"""Driving the pure UI state machine in tests: a press, a run of inputs with the dice they draw, a started game."""

from firmware import ui
from firmware.config import GameConfig
from firmware.ui.messages import Press

BUTTONS = ("ROLL", "STOP", "A", "B", "C", "MENU")


def press(app, button, long=False):
    return ui.update(app, Press(button, long))


def run(app, *inputs):
    """Step through inputs; DrawDice effects are answered by the dice given next in `inputs`.

    "T" is the timer asked for by the last After coming due (a box seat's pace, the handover guard).
    """
    effects = []
    for inp in inputs:
        if inp == "T":
            inp = ui.Timer()
        elif isinstance(inp, tuple):
            inp = ui.DiceRolled(inp)
        elif isinstance(inp, str):
            long = inp.endswith("!")
            inp = Press(inp.rstrip("!"), long)
        app, eff = ui.update(app, inp)
        effects += eff
    return app, effects


def started(players=2, **rules):
    settings_ = GameConfig(players=players, **rules)
    app, _ = run(ui.boot(settings_), "ROLL")
    return app
