"""Presses per game: how many button presses a table makes to play a whole game.

Drives the real daemon (:class:`firmware.daemon.box.Box`) through gpiozero's mock
pins with a fake clock, as a patient table would: it waits out every pause
the box asks for (a box seat's pace, the guard after a handover), then
presses only what the game needs. People play a fixed script (the first legal
pairing, side A of a pick, stop after two moves when allowed). Counted from
the press that starts the game to the winner's screen; a handover is each time
the next seat's turn screen comes up, and its presses are those made on it.

Run: ``.venv/bin/python -m benchmarks.presses [--games N]`` (also part of
``benchmarks/box.py``).
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import tempfile
from pathlib import Path

from engine import Stop
from firmware import ui, views
from tests.kit.rig import Rig  # the tests' box on mock pins

ROOT = Path(__file__).resolve().parent.parent


class Table(Rig):
    """The tests' rig (mock pins, a fake clock, a real store), and a counter of the presses made."""

    def __init__(self, state_dir: Path, seed: int, box_seats: tuple[int, ...] = ()) -> None:
        super().__init__(state_dir, seed=seed)
        setup = self.box.app.setup
        seats = tuple(dataclasses.replace(s, bot="strong" if i in box_seats else None)
                      for i, s in enumerate(setup.seats))
        self.box.app = dataclasses.replace(self.box.app, setup=dataclasses.replace(setup, seats=seats))
        self.presses = 0
        self.box_presses = 0  # presses made while a box seat's turn was on the screen
        self.box_turns = 0
        self.handover_presses = 0  # presses made while a handover (the next seat's turn screen) was up
        self.handovers = 0
        self._on_handover = False

    def _look(self) -> None:
        """Count a handover each time the turn screen comes up."""
        up = isinstance(ui.view(self.box.app), views.TurnView)
        if up and not self._on_handover:
            self.handovers += 1
        self._on_handover = up

    def tap(self, name: str, hold: float = 0.1) -> None:
        self.presses += 1
        if _box_turn(self.box.app):
            self.box_presses += 1
        if self._on_handover:
            self.handover_presses += 1
        super().tap(name, hold)
        self._look()

    def wait(self) -> bool:
        """Wait out a pause the box asked for; False when none is pending."""
        due = getattr(self.box, "due", None)
        if due is None:
            return False
        self.clock.now = max(self.clock.now, due) + 0.001
        self.box.pump()
        self._look()
        return True


def play_game(table: Table, limit: int = 5000) -> int:
    """Presses from the start of a game to its winner's screen."""
    table.tap("ROLL")  # start with the seats set
    for _ in range(limit):
        if table.wait():
            continue
        v = ui.view(table.box.app)
        if isinstance(v, views.WinView):
            table.box_turns = _box_turns(table.box.app)
            return table.presses
        if isinstance(v, views.DiceView) and not v.bot:
            table.tap(next(o.label for o in v.options if o.effect != "none"))
        elif isinstance(v, views.PickView):
            table.tap("A")
        elif isinstance(v, views.MoveView) and not v.bot and v.can_stop and _runners(table) >= 2:
            table.tap("STOP")
        else:
            table.tap("ROLL")
    raise RuntimeError("no winner")


def _box_turn(app) -> bool:
    """The screen belongs to a box seat's turn: it is to act, or its stop or bust is being shown."""
    if app.game is None or app.ended:
        return False
    ended_turn = app.events and app.acked != len(app.events) and (
        isinstance(app.events[-1], Stop) or app.states[-1].current != app.states[-2].current)
    seat = app.states[-2].current if ended_turn else app.game.current
    return app.seats[seat].bot is not None


def _box_turns(app) -> int:
    """Turns a box seat played in the game."""
    ends = [i for i, e in enumerate(app.events) if app.states[i + 1].current != app.states[i].current
            or app.states[i + 1].phase.name == "OVER"]
    return sum(1 for i in ends if app.seats[app.states[i].current].bot is not None)


def _runners(table: Table) -> int:
    return len(table.box.app.game.runner_steps())


def presses(box_seats: tuple[int, ...], games: int, seed: int = 1) -> list[tuple[int, int, int, int, int]]:
    """(presses, presses in box turns, box turns, presses on handovers, handovers) for each of
    ``games`` 2-player games."""
    out = []
    for i in range(games):
        with tempfile.TemporaryDirectory() as tmp:
            table = Table(Path(tmp), seed + i, box_seats)
            try:
                out.append((play_game(table), table.box_presses, table.box_turns,
                            table.handover_presses, table.handovers))
            finally:
                table.shutdown()
    return out


def report(games: int) -> list[str]:
    lines = []
    for label, seats in (("2 people", ()), ("a person and a box seat", (1,))):
        rows = presses(seats, games)
        counts = [r[0] for r in rows]
        line = (f"presses per game, {label}: mean {statistics.mean(counts):.1f} "
                f"(min {min(counts)}, max {max(counts)}) over {games} seeded games")
        if seats:
            line += f"; {sum(r[1] for r in rows) / max(1, sum(r[2] for r in rows)):.2f} presses per box turn"
        line += f"; {sum(r[3] for r in rows) / max(1, sum(r[4] for r in rows)):.2f} presses per handover"
        lines.append(line)
    return lines


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5, help="games per kind of table (5)")
    args = ap.parse_args(argv)
    print("\n".join(report(args.games)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
