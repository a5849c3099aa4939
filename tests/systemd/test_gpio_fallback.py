"""Issue 20, fault 3: the fallback without lgpio must work under the unit's hardening.

gpiozero's own NativeFactory opened /dev/gpiomem (which DevicePolicy=closed
denied) and wrote to /sys/class/gpio (which ProtectKernelTunables= makes
read-only). Here the box's fallback (hw.gpiomem) is run with every file it
opens recorded, /dev/gpiomem being a plain file of the test's, and each one
is checked against the unit.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

from hw.buttons import Backends, GpioButtons

REPO = Path(__file__).resolve().parents[2]
UNIT = REPO / "systemd" / "cantstop-box.service"
PINS = {"ROLL": 17, "STOP": 27, "A": 5, "B": 6, "C": 13, "MENU": 26}
PI4B = 0xC03111

_opened: list[tuple[str, str]] | None = None


def _audit(event: str, args) -> None:
    if _opened is not None and event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
        path, mode, flags = args
        writes = (mode is not None and any(c in mode for c in "wax+")) or (
            mode is None and flags is not None and flags & (os.O_WRONLY | os.O_RDWR))
        _opened.append((os.fsdecode(args[0]), "w" if writes else "r"))


sys.addaudithook(_audit)


class _RedirectedOs:
    """gpiozero.pins.native's ``os``, but /dev/gpiomem is a page-sized file of the test's."""

    def __init__(self, page: Path) -> None:
        self._page = page

    def open(self, path, flags, *args):
        if path == "/dev/gpiomem":
            _opened.append(("/dev/gpiomem", "w" if flags & (os.O_WRONLY | os.O_RDWR) else "r"))
            return os.open(self._page, os.O_RDWR)
        return os.open(path, flags, *args)

    def __getattr__(self, name):
        return getattr(os, name)


@pytest.fixture
def recorded(tmp_path, monkeypatch):
    """Files opened while the fallback backend is made and its buttons used: (path, "r" or "w")."""
    global _opened
    import gpiozero.pins.native

    page = tmp_path / "gpiomem-page"
    page.write_bytes(b"\xff" * 4096)
    monkeypatch.setattr(gpiozero.pins.native, "os", _RedirectedOs(page))
    _opened = []
    try:
        yield _opened
    finally:
        _opened = None


def _device_allow() -> list[str]:
    return [line.split("=", 1)[1].split()[0] for line in UNIT.read_text().splitlines()
            if line.startswith("DeviceAllow=")]


def test_gpio_fallback_opens_only_what_the_unit_allows(recorded, tmp_path):
    from hw.gpiomem import PolledNativeFactory

    factory = PolledNativeFactory(revision=PI4B, interval=0.001)
    try:
        with GpioButtons(PINS, lambda name, pressed: None, pin_factory=factory) as buttons:
            buttons.pressed()
    finally:
        factory.close()
    # (the test's own page stands in for /dev/gpiomem; its folder may be in /dev/shm)
    devices = {path for path, _ in recorded if path.startswith("/dev/") and not path.startswith(str(tmp_path))}
    assert devices == {"/dev/gpiomem"}  # never /dev/mem, which is every byte of RAM
    allowed = _device_allow()
    assert all(path in allowed for path in devices), (devices, allowed)
    # ProtectKernelTunables=yes: /sys is read-only for the service
    assert [entry for entry in recorded if entry[0].startswith("/sys") and entry[1] == "w"] == []


def test_gpio_fallback_is_what_real_pin_factory_takes_without_lgpio():
    from hw.gpiomem import PolledNativeFactory

    assert Backends().native() is PolledNativeFactory


def test_gpio_fallback_unit_allows_gpiomem_without_loosening_the_policy():
    text = UNIT.read_text()
    assert re.search(r"^DevicePolicy=closed$", text, re.M)
    assert "/dev/gpiomem rw" in [line.split("=", 1)[1] for line in text.splitlines() if line.startswith("DeviceAllow=")]
    assert not re.search(r"^DeviceAllow=/dev/mem", text, re.M)
    assert re.search(r"^ProtectKernelTunables=yes$", text, re.M)
