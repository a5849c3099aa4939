"""Issue 20, fault 5: as a service the box waits, a bounded time, for its GPIO chip and display bus.

The unit only waited for systemd-modules-load; a slow udev (the I2C driver
loaded late, the chip not yet given to the 'gpio' group) was a race that only
Restart= hid. Device nodes here are files under tmp_path; a fake clock runs
the wait without sleeping.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

import hw.devices
from boxcli import run
from firmware.daemon import devicewait
from firmware.config import DisplayConfig
from hw.board import PI5_SOC, Board, read_board
from tests.kit.clock import FakeClock

REPO = Path(__file__).resolve().parents[2]


class RecordingNotifier:
    enabled = True

    def __init__(self) -> None:
        self.sent: list[str] = []

    def status(self, text: str) -> bool:
        self.sent.append(f"STATUS={text}")
        return True

    def extend_timeout(self, seconds: float) -> bool:
        self.sent.append(f"EXTEND_TIMEOUT_USEC={round(seconds * 1e6)}")
        return True


@pytest.fixture
def devices(tmp_path):
    chip, bus = tmp_path / "gpiochip0", tmp_path / "i2c-1"
    return chip, bus, [(str(chip), "gpio"), (str(bus), "i2c")]


def test_device_wait_returns_at_once_when_all_are_there(devices):
    chip, bus, needed = devices
    chip.touch()
    bus.touch()
    notifier, fake = RecordingNotifier(), FakeClock(0.0)
    assert devicewait.wait_for_devices(needed, notifier, clock=fake, sleep=fake.sleep) is None
    assert fake.sleeps == 0 and notifier.sent == []


def test_device_wait_waits_for_a_bus_that_appears_late_and_tells_systemd(devices):
    chip, bus, needed = devices
    chip.touch()
    notifier, fake = RecordingNotifier(), FakeClock(0.0)
    fake.call_at(3.0, bus.touch)
    assert devicewait.wait_for_devices(needed, notifier, clock=fake, sleep=fake.sleep) is None
    assert 3.0 <= fake.now < 3.0 + devicewait.POLL_S * 2
    assert notifier.sent[0] == f"STATUS=waiting for {bus} (up to 30 s)"
    assert "EXTEND_TIMEOUT_USEC=60000000" in notifier.sent  # the replay after the wait keeps its 60 s
    assert notifier.sent[-1] == "STATUS=devices ready"


def test_device_wait_waits_for_udev_to_give_the_chip_to_the_group(devices, monkeypatch):
    chip, bus, needed = devices
    chip.touch()
    bus.touch()
    given = {"yes": False}
    monkeypatch.setattr(hw.devices, "_may_open", lambda path: path != str(chip) or given["yes"])
    fake = FakeClock(0.0)
    fake.call_at(5.0, lambda: given.update(yes=True))
    notifier = RecordingNotifier()
    assert devicewait.wait_for_devices(needed, notifier, clock=fake, sleep=fake.sleep) is None
    assert fake.now >= 5.0
    assert notifier.sent[0] == f"STATUS=waiting for {chip} (up to 30 s)"


def test_device_wait_gives_up_in_one_line_when_a_device_never_appears(devices):
    chip, bus, needed = devices
    chip.touch()
    notifier, fake = RecordingNotifier(), FakeClock(0.0)
    problem = devicewait.wait_for_devices(needed, notifier, timeout=30, clock=fake, sleep=fake.sleep)
    assert problem == (f"after 30 s, {bus}: there is no such device"
                       " (is I2C on? sudo deploy/install.sh turns it on in config.txt; then reboot)")
    assert fake.now == pytest.approx(30.0)
    assert fake.sleeps <= 30 / devicewait.POLL_S + 1  # bounded: it looked every POLL_S, no more


def test_device_wait_needs_the_configured_bus():
    assert devicewait.needed(DisplayConfig(port=3), Board())[1] == ("/dev/i2c-3", "i2c")
    assert devicewait.needed(DisplayConfig(interface="spi", spi_device=1), Board())[1] == ("/dev/spidev0.1", "spi")
    assert devicewait.needed(DisplayConfig(), read_board())[0][0].startswith("/dev/gpiochip")


def test_device_wait_needs_the_boards_gpio_chip():
    pi4 = Board(compatible=("raspberrypi,4-model-b", "brcm,bcm2711"), gpiochips=("/dev/gpiochip0", "/dev/gpiochip1"))
    pi5 = Board(compatible=("raspberrypi,5-model-b", PI5_SOC), gpiochips=("/dev/gpiochip0", "/dev/gpiochip4"))
    assert devicewait.needed(DisplayConfig(), pi4)[0] == ("/dev/gpiochip0", "gpio")
    assert devicewait.needed(DisplayConfig(), pi5)[0] == ("/dev/gpiochip4", "gpio")


def _run_as_service(monkeypatch, capsys, needed, timeout):
    """``run_box`` as systemd starts it: a notifier that records, the wait's devices given."""
    notifier = RecordingNotifier()
    monkeypatch.setattr("firmware.daemon.sdnotify.Notifier.from_env", classmethod(lambda cls, environ=None: notifier))
    monkeypatch.setattr(devicewait, "needed", lambda display, board: needed)
    monkeypatch.setattr(devicewait, "DEVICE_WAIT_S", timeout)
    monkeypatch.setattr(devicewait, "POLL_S", 0.01)
    args = argparse.Namespace(config=str(REPO / "firmware" / "default_config.toml"), state_dir=None, verbose=False)
    code = run.run_box(args)
    return code, capsys.readouterr().err, notifier


def test_device_wait_the_service_exits_69_in_one_line_when_the_bus_never_comes(devices, monkeypatch, capsys):
    chip, bus, needed = devices
    chip.touch()
    code, err, notifier = _run_as_service(monkeypatch, capsys, needed, timeout=0.05)
    assert code == run.EXIT_HARDWARE == 69
    assert err == (f"cantstop-box: after 0.05 s, {bus}: there is no such device"
                   " (is I2C on? sudo deploy/install.sh turns it on in config.txt; then reboot)\n")
    assert notifier.sent[0] == f"STATUS=waiting for {bus} (up to 0.05 s)"


def test_device_wait_unit_documents_the_wait_and_its_exit_status():
    text = (REPO / "systemd" / "cantstop-box.service").read_text()
    assert "waits up to 30 s" in text and "exit status 69" in text
    assert devicewait.DEVICE_WAIT_S == 30
    timeout = next(line for line in text.splitlines() if line.startswith("TimeoutStartSec="))
    assert devicewait.EXTEND_S >= float(timeout.split("=")[1].rstrip("s"))
