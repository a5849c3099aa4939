"""hw.gpiomem: buttons without lgpio, on gpiozero's register backend with polled edges (issue 20, fault 3).

The registers are a bytearray standing in for /dev/gpiomem's page: a test
drives a pin by setting its bit in the level register (GPLEV0) and reads what
the pin set-up wrote (function select, pull-ups).
"""

from __future__ import annotations

import threading

import pytest
from gpiozero.pins.native import GPIOMemory

from hw.buttons import GpioButtons
from hw.gpiomem import PolledNativeFactory

PINS = {"ROLL": 17, "STOP": 27, "A": 5, "B": 6, "C": 13, "MENU": 26}
PI3B, PI4B, PI_ZERO_W = 0xA02082, 0xC03111, 0x9000C1


class Registers(GPIOMemory):
    """The GPIO register page in memory, all levels high (pulled-up buttons, none pressed)."""

    def __init__(self) -> None:  # no /dev/gpiomem
        self.mem = bytearray(4096)
        self.reg_fmt = "@I"
        self[self.GPLEV_OFFSET] = 0xFFFFFFFF

    def drive(self, pin: int, high: bool) -> None:
        level = self[self.GPLEV_OFFSET]
        self[self.GPLEV_OFFSET] = level | (1 << pin) if high else level & ~(1 << pin)

    def close(self) -> None:
        pass


@pytest.fixture
def registers():
    return Registers()


def stepped(registers, revision):
    return PolledNativeFactory(memory=registers, revision=revision, interval=0)


@pytest.mark.parametrize("revision, soc", [(PI3B, "BCM2837"), (PI4B, "BCM2711"), (PI_ZERO_W, "BCM2835")])
def test_gpiomem_presses_and_releases_reach_the_sink(registers, revision, soc):
    factory = stepped(registers, revision)
    edges = []
    try:
        assert factory.board_info.soc == soc
        with GpioButtons(PINS, lambda name, pressed: edges.append((name, pressed)), pin_factory=factory) as buttons:
            factory.poller.poll()
            assert edges == [] and buttons.pressed() == frozenset()
            registers.drive(17, False)  # ROLL pressed: pulled to ground
            factory.poller.poll()
            assert buttons.pressed() == {"ROLL"}
            registers.drive(26, False)
            registers.drive(17, True)
            factory.poller.poll()
            factory.poller.poll()  # no change, no edge
            assert edges == [("ROLL", True), ("ROLL", False), ("MENU", True)]
        # closed: a change is no longer reported
        registers.drive(26, True)
        factory.poller.poll()
        assert edges[-1] == ("MENU", True)
    finally:
        factory.close()


def test_gpiomem_sets_each_pin_as_an_input(registers):
    factory = stepped(registers, PI3B)
    try:
        registers[registers.GPFSEL_OFFSET + 1] = 0o7 << 21  # GPIO17 left in an alternate function
        with GpioButtons({"ROLL": 17}, lambda name, pressed: None, pin_factory=factory):
            assert (registers[registers.GPFSEL_OFFSET + 1] >> 21) & 0o7 == 0  # input
    finally:
        factory.close()


def test_gpiomem_pi4_pull_ups_are_set_in_its_own_registers(registers):
    factory = stepped(registers, PI4B)
    try:
        with GpioButtons({"ROLL": 17}, lambda name, pressed: None, pin_factory=factory):
            # BCM2711: two bits a pin in GPIO_PUP_PDN_CNTRL (0b01 = up); GPIO17 is in the second register
            assert (registers[registers.GPPUPPDN_OFFSET + 1] >> 2) & 0b11 == 0b01
    finally:
        factory.close()


def test_gpiomem_poller_thread_reports_a_press_by_itself(registers):
    factory = PolledNativeFactory(memory=registers, revision=PI3B, interval=0.001)
    pressed = threading.Event()
    try:
        with GpioButtons({"ROLL": 17}, lambda name, down: down and pressed.set(), pin_factory=factory):
            registers.drive(17, False)
            assert pressed.wait(5)
    finally:
        factory.close()
