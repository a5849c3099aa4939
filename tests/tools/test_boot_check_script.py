"""make boot-check's presses (tools/bootcheck/check_steps.py), played on the emulator's box instead
of a booted guest: the script must reach every button whatever the dice, and a power cut
must follow a press that stored something, whose screen a restart brings back.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from firmware.store import Store
from hw.fakes import FakeDisplay
from tools.bootcheck import check_steps as steps
from tools.bootcheck.reference import Reference, _make_box

ROOT = Path(__file__).resolve().parents[2]

CONFIG = steps.box_settings()  # the booted box's: the defaults with lamps and a buzzer
ROLL_BUTTONS = ("ROLL", "A", "A", "ROLL", "B", "B", "ROLL", "C", "C", "ROLL")
MOVE_BUTTONS = ("A", "A", "B", "B", "C", "C")


def dice_of(seed: int) -> list[tuple[int, int, int, int]]:
    rng = random.Random(seed)
    return [tuple(rng.randint(1, 6) for _ in range(4)) for _ in range(80)]


class EmulatedBoard:
    """What check_buttons and press_until use of a Board, on the emulator's box (its own clock)."""

    def __init__(self, dice, tmp_path: Path) -> None:
        self.dice = dice
        self.tmp_path = tmp_path
        self.reference = Reference(CONFIG, dice)
        self.box, self.display, self.store = self.reference.box, self.reference.display, None
        self.now = self.reference.now
        self.box.clock = lambda: self.now
        self.exports = 0

    def press(self, button: str) -> None:
        self.box.sink(button, True)
        self._wait(0.15)
        self.box.sink(button, False)
        self._wait(2.0)

    def _wait(self, seconds: float) -> None:
        end = self.now + seconds
        while self.now < end:
            self.now += 0.05
            self.box.pump()

    def screen(self, settle: float = 1.5):
        return self.display.last.copy()

    def export(self) -> dict:
        self.exports += 1
        return {"events": [event.to_json() for event in self.box.app.events]}

    def cut_power(self) -> None:
        """A new box on a copy of the store as it is now (no shutdown), rolling on where this one was."""
        source = self.reference.state if self.store is None else self.store.path.parent
        copy = self.tmp_path / f"cut-{self.exports}"
        # the locks and the phones' socket are the running box's, not the card's: the next box makes its own
        shutil.copytree(source, copy, ignore=lambda _, names: [n for n in names if "lock" in n or n == "box.sock"])
        rolled = sum(1 for event in self.export()["events"] if "roll" in event)
        left = iter(self.dice[rolled:])
        if self.store is not None:
            self.store.close()
        self.display, self.store = FakeDisplay(CONFIG.display.dimensions), Store.open(copy)
        self.box = _make_box()(CONFIG, self.display, self.store, None, dice=lambda: next(left))
        self.box.clock = lambda: self.now
        self.box.start()
        self._wait(3.0)

    def close(self) -> None:
        if self.store is not None:
            self.store.close()
        self.reference.close()


def effects(dice, presses: list[str]) -> set[str]:
    """The buttons that changed the emulator's screen somewhere in ``presses``."""
    reference = Reference(CONFIG, dice)
    try:
        changed = set()
        for button in presses:
            before = reference.screen
            reference.press(button)
            if not steps.same(before, reference.screen):
                changed.add(button)
        return changed
    finally:
        reference.close()


def test_boot_check_the_fixed_script_alone_can_leave_c_without_effect():
    # The dice the script must cope with: pressed blindly, C comes when it has nothing to choose.
    assert "C" not in effects(dice_of(1), steps.SCRIPT)


def test_boot_check_the_script_reaches_every_button_whatever_the_dice(tmp_path):
    for seed in (1, 2, 5, 8):
        board = EmulatedBoard(dice_of(seed), tmp_path / str(seed))
        try:
            shown = [board.screen()]
            presses = steps.play_script(board, shown)
        finally:
            board.close()
        assert len(shown) == len(presses) + 1
        assert effects(dice_of(seed), presses) == set(steps.PINS), (seed, presses)


def test_boot_check_a_press_storing_nothing_is_not_where_the_power_is_cut(tmp_path):
    board = EmulatedBoard(dice_of(1), tmp_path)
    try:
        for button in ("ROLL", "ROLL"):  # the game is on and a pairing is to be chosen
            board.press(button)
        flashed = board.export()
        board.press("ROLL")  # only flashes "Choose A, B or C"
        assert board.export() == flashed
        screen, record = steps.press_until(board, ROLL_BUTTONS, "roll")
        assert len(record["events"]) > len(flashed["events"]) and "roll" in record["events"][-1]
        board.cut_power()
        assert steps.same(board.screen(), screen)
        screen, record = steps.press_until(board, MOVE_BUTTONS, "move")
        assert "move" in record["events"][-1]
        board.cut_power()
        assert steps.same(board.screen(), screen)
        assert board.export() == record
    finally:
        board.close()
