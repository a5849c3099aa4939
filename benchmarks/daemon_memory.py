"""Resident memory of the daemon over many games: a box seat, and a person who asks for a hint at every choice.

    python -m benchmarks.daemon_memory [--games 2000] [--limit-mb 10] [--second-half-mb 1]

Plays whole games through the daemon (the tests' rig, ``tests.kit.rig``, its presses fed straight to
``Box.feed``: the UI, the store, the renderer, the strong player for the box seat and for the hints) and
its OLED driver (on luma's ``noop`` serial), on a store in a temporary directory (``/dev/shm`` when there
is one, so the disk does not set the pace). Prints the resident memory after 20 games, half way and at the
end, and exits 1 when it grew by more than ``--limit-mb`` in all, or by more than
``--second-half-mb`` over the second half (the appliance runs for weeks:
every cache must be bounded). The caches fill in the first few hundred
games, so the second half shows what keeps growing with the history: a
leak, or work that grows with every game stored (the per-person tallies
once did: +2 MB from game 1,000 to 2,000, now +0.1).
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from firmware import ui, views
from firmware.config import GameConfig
from firmware.daemon.box import Box
from firmware.daemon.debounce import Press
from hw.display import LumaDisplay
from hw.oled import ssd1306
from tests.kit.rig import Rig  # the tests' box on mock pins, a fake clock


def rss_mb() -> float:
    """This process's resident memory now, in MB (Linux)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def _press(box: Box, button: str, long: bool = False) -> None:
    box.feed(Press(button, long))


def _follow_hint(box: Box) -> None:
    """Ask for a hint (hold ROLL), read it, close it, and do what it says."""
    _press(box, "ROLL", long=True)
    hint = ui.view(box.app)
    _press(box, "ROLL")  # back to the game
    if not isinstance(hint, views.HintView):
        _press(box, "ROLL")
        return
    action = hint.action
    if ":" in action:  # "A: 5+9" or, after a pick, "A: 11"
        label, what = action.split(": ", 1)
        _press(box, label)
        v = ui.view(box.app)
        if isinstance(v, views.PickView):
            _press(box, "A" if str(v.choices[0]) == what else "B")
    else:
        _press(box, "STOP" if action == "Stop" else "ROLL")


def play(box: Box, games: int) -> int:
    """Play ``games`` whole games; returns the number of presses."""
    presses = 0
    finished = 0
    while finished < games:
        v = ui.view(box.app)
        presses += 1
        if isinstance(v, views.WinView):
            finished += 1
            _press(box, "ROLL")  # the new-game screen, same seats
        elif isinstance(v, (views.DiceView, views.MoveView)) and not v.bot:
            _follow_hint(box)
        elif isinstance(v, views.PickView):
            _press(box, "A")
        else:  # set-up, a turn, a box step, instructions: ROLL
            _press(box, "ROLL")
    return presses


def make_rig(state_dir: str) -> Rig:
    from luma.core.interface.serial import noop

    display = LumaDisplay(ssd1306(noop()))  # the box's own OLED driver, on a serial that goes nowhere
    # Presses are fed straight in, with no clock running the box's timer: no guard after a handover
    # (a press there would wait for the timer forever); the box seat's steps go on a press each.
    rig = Rig(state_dir, seed=11, display=display, settings=GameConfig(handover_guard_ms=0), dim_after=None)
    for button in ("B", "B", "B", "B", "B", "C"):  # P2 plays: box (rows: Players, Starts, P1 colour, P1 plays, P2 colour)
        _press(rig.box, button)
    return rig


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--limit-mb", type=float, default=10.0, help="growth allowed after 20 games (10)")
    parser.add_argument("--second-half-mb", type=float, default=1.0, help="growth allowed over the second half (1)")
    args = parser.parse_args(argv)
    base = "/dev/shm" if os.path.isdir("/dev/shm") else None
    with tempfile.TemporaryDirectory(dir=base) as state_dir:
        rig = make_rig(state_dir)
        box = rig.box
        start = time.perf_counter()
        play(box, 20)
        gc.collect()
        early = rss_mb()
        half = max(20, args.games // 2)
        presses = play(box, half - 20)
        gc.collect()
        middle = rss_mb()
        presses += play(box, args.games - half)
        gc.collect()
        late = rss_mb()
        took = time.perf_counter() - start
        rig.shutdown()
    growth, second = late - early, late - middle
    print(f"daemon memory: {early:.1f} MB after 20 games, {middle:.1f} MB after {half}, {late:.1f} MB after {args.games} "
          f"(+{growth:.1f} MB; limit +{args.limit_mb:g}; second half +{second:.1f} MB, limit +{args.second_half_mb:g});"
          f" {presses} presses in {took:.0f} s")
    return 0 if growth <= args.limit_mb and second <= args.second_half_mb else 1


if __name__ == "__main__":
    sys.exit(main())
