"""Issue 44: as a service, a display that does not answer is waited for with the unit up, not a crash loop.

On QEMU's raspi3b (no I2C controller) and on a table with a loose ribbon the
box exited 69 five times in two minutes and systemd gave up on it for good:
a display plugged in a minute later stayed dark. Now ``run_box`` under
systemd says READY=1 with a STATUS= naming what it waits for, feeds the
watchdog, and tries again every 2 s; a config fault is still one line and an exit.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import socket
from pathlib import Path
from types import SimpleNamespace

import pytest

from boxcli import run
from firmware.daemon import displaywait
from hw.errors import DisplayError
from tests.kit.clock import FakeClock

REPO = Path(__file__).resolve().parents[2]
ABSENT = "no SSD1306 display answers on I2C bus 1 at address 0x3C (Remote I/O error; check wiring and address)"


class Notes:
    """A notifier that records what it would tell systemd."""

    enabled = True

    def __init__(self, watchdog_s: float | None = 10.0) -> None:
        self.sent: list[str] = []
        self.watchdog_s = watchdog_s

    def ready(self, status=None):
        self.sent.append("READY=1" + ("" if status is None else f" STATUS={status}"))

    def status(self, text):
        self.sent.append(f"STATUS={text}")

    def watchdog(self):
        self.sent.append("WATCHDOG=1")

    def watchdog_interval(self):
        return self.watchdog_s


def absent(text: str = ABSENT) -> DisplayError:
    err = DisplayError(text)
    err.__cause__ = OSError(121, "Remote I/O error")
    return err


def opener(*outcomes):
    """An open_display that raises or returns each outcome in turn."""
    calls = []

    def open_display():
        outcome = outcomes[min(len(calls), len(outcomes) - 1)]
        calls.append(outcome)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    open_display.calls = calls
    return open_display


def test_display_wait_the_unit_is_up_and_says_what_it_waits_for_until_the_display_answers(caplog):
    clock, notes = FakeClock(0.0), Notes()
    open_display = opener(absent(), absent(), absent(), "the display")
    with caplog.at_level(logging.INFO, logger="cantstop"):
        got = displaywait.open_waiting(open_display, notes, lambda: False, clock=clock, sleep=clock.advance)
    assert got == "the display" and len(open_display.calls) == 4
    assert clock.now == pytest.approx(3 * displaywait.RETRY_S)
    assert notes.sent[0] == f"READY=1 STATUS=waiting for its display: {ABSENT}"
    assert notes.sent[-1] == "STATUS=the display answers: starting the box"
    assert [m for m in notes.sent if not m.startswith("WATCHDOG")] == [notes.sent[0], notes.sent[-1]]
    assert [r.getMessage() for r in caplog.records] == [f"waiting for the display: {ABSENT}",
                                                       "the display answers: starting the box"]


def test_display_wait_feeds_the_watchdog_every_half_interval():
    clock, notes = FakeClock(0.0), Notes(watchdog_s=1.0)
    fed = []
    notes.watchdog = lambda: fed.append(clock.now)
    displaywait.open_waiting(opener(absent(), absent(), absent(), absent(), absent(), "d"), notes, lambda: False,
                             clock=clock, sleep=clock.advance)
    assert clock.now == pytest.approx(5 * displaywait.RETRY_S)
    gaps = [b - a for a, b in zip(fed, fed[1:])]
    assert fed[0] == 0.0 and gaps and max(gaps) <= 0.5 + 1e-9


def test_display_wait_says_a_new_reason_once_and_not_the_same_one_again(caplog):
    clock, notes = FakeClock(0.0), Notes(watchdog_s=None)
    other = "cannot drive the SSD1306 display on I2C bus 1 at address 0x3C: the bus takes SMBus transfers only"
    with caplog.at_level(logging.ERROR, logger="cantstop"):
        displaywait.open_waiting(opener(absent(), absent(), absent(other), absent(other), "d"), notes,
                                 lambda: False, clock=clock, sleep=clock.advance)
    assert [r.getMessage() for r in caplog.records] == [f"waiting for the display: {ABSENT}",
                                                       f"waiting for the display: {other}"]
    assert notes.sent[:2] == [f"READY=1 STATUS=waiting for its display: {ABSENT}",
                              f"STATUS=waiting for its display: {other}"]


def test_display_wait_a_display_that_answers_at_once_tells_systemd_nothing():
    notes = Notes()
    assert displaywait.open_waiting(opener("d"), notes, lambda: False) == "d"
    assert notes.sent == []


def test_display_wait_a_config_fault_is_raised_at_once():
    wrong = DisplayError("display rotation must be 0, 1, 2 or 3 quarter turns, not 5")
    open_display, notes = opener(wrong), Notes()
    with pytest.raises(DisplayError, match="rotation"):
        displaywait.open_waiting(open_display, notes, lambda: False, sleep=pytest.fail)
    assert len(open_display.calls) == 1 and notes.sent == []


def test_display_wait_a_stop_ends_the_wait_within_a_quarter_second():
    clock, notes = FakeClock(0.0), Notes()
    stop_at = 3.1
    got = displaywait.open_waiting(opener(absent()), notes, lambda: clock.now >= stop_at,
                                   clock=clock, sleep=clock.advance)
    assert got is None and stop_at <= clock.now <= stop_at + 0.25


@pytest.fixture
def notify_socket(tmp_path, monkeypatch):
    """A real sd_notify socket, as systemd gives the unit; the box's datagrams are read from it."""
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(0)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    monkeypatch.setenv("WATCHDOG_USEC", "10000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    yield sock
    sock.close()


def received(sock) -> list[str]:
    out = []
    while True:
        try:
            out.append(sock.recv(4096).decode())
        except BlockingIOError:
            return out


def test_display_wait_run_box_as_a_service_is_up_waiting_and_stops_cleanly_on_sigterm(notify_socket, monkeypatch,
                                                                                    capsys):
    """The whole start as systemd runs it: devices there, the display silent, then systemctl stop (SIGTERM)."""
    import hw.display
    from firmware.daemon import devicewait

    tries = []

    def silent(driver, **options):
        tries.append(options["port"])
        if len(tries) == 3:
            os.kill(os.getpid(), signal.SIGTERM)
        raise absent()

    monkeypatch.setattr(devicewait, "wait_for_devices", lambda devices, notifier: None)
    monkeypatch.setattr("hw.buttons.real_pin_factory", lambda: SimpleNamespace(close=lambda: None))  # closed with the parts
    monkeypatch.setattr(hw.display, "open_oled", silent)
    monkeypatch.setattr(displaywait, "RETRY_S", 0.01)
    before = signal.getsignal(signal.SIGTERM)
    args = argparse.Namespace(config=str(REPO / "firmware" / "default_config.toml"), state_dir=None, verbose=False)
    assert run.run_box(args) == 0
    assert len(tries) == 3 and signal.getsignal(signal.SIGTERM) is before
    said = received(notify_socket)
    assert said[0] == f"READY=1\nSTATUS=waiting for its display: {ABSENT}"
    assert "WATCHDOG=1" in said
    err = capsys.readouterr().err
    assert err.splitlines() == [f"ERROR cantstop: waiting for the display: {ABSENT}"]


def test_display_wait_at_the_command_line_a_silent_display_is_still_one_line_and_69(monkeypatch, capsys):
    import hw.display

    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.setattr("hw.buttons.real_pin_factory", lambda: SimpleNamespace(close=lambda: None))  # closed with the parts

    def silent(driver, **options):
        raise absent()

    monkeypatch.setattr(hw.display, "open_oled", silent)
    args = argparse.Namespace(config=str(REPO / "firmware" / "default_config.toml"), state_dir=None, verbose=False)
    assert run.run_box(args) == run.EXIT_HARDWARE
    assert capsys.readouterr().err == f"cantstop-box: {ABSENT}\n"


def test_display_wait_the_unit_says_it_waits_for_its_display():
    text = (REPO / "systemd" / "cantstop-box.service").read_text()
    assert "display that does not answer is waited for" in text and "every 2 s" in text
    assert displaywait.RETRY_S == 2.0
