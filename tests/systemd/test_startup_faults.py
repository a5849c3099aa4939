"""Startup faults as the service meets them: one clear line and a non-zero exit, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from gpiozero import Button
from gpiozero.pins.mock import MockFactory

from firmware.config import ButtonPins, DisplayConfig, load
from hw.board import read_board
from hw.buttons import GpioButtons
from hw.display import open_oled
from hw.errors import ButtonError, DisplayError

REPO = Path(__file__).resolve().parents[2]


def run_box(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC")}
    return subprocess.run([sys.executable, "-m", "boxcli.cli", "run", *args], capture_output=True, text=True,
                          cwd=REPO, env=env, timeout=60)


def one_line(done: subprocess.CompletedProcess) -> str:
    assert done.returncode not in (0, 1), done.returncode  # 1 is what an uncaught exception gives
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


@pytest.mark.parametrize(
    "text, problem",
    [
        ("[buttons]\nroll = 2\n", "[buttons] roll = 2: GPIO2 is the I2C data pin (SDA); choose another pin"),
        ("[display]\ndriver = 'ssd1305'\n",
         '[display] driver = "ssd1305": must be one of "ssd1306", "sh1106", "ssd1309", "ssd1322"; '
         'did you mean "ssd1309"?'),
        ("[display]\ndriver = 'ssd1322'\n", '[display] interface = "i2c": the ssd1322 talks SPI only: set interface = "spi"'),
        ("[game\n", "TOML syntax error: Expected ']' at the end of a table declaration (at line 1, column 6)"),
    ],
)
def test_startup_config_error_is_one_line_and_final(tmp_path, text, problem):
    f = tmp_path / "config.toml"
    f.write_text(text)
    done = run_box("--config", str(f))
    assert one_line(done) == f"cantstop-box: {f}: {problem}"
    assert done.returncode == 78  # EX_CONFIG: the unit's RestartPreventExitStatus


def test_startup_missing_config_file_is_one_line(tmp_path):
    done = run_box("--config", str(tmp_path / "none.toml"))
    assert one_line(done) == f"cantstop-box: {tmp_path / 'none.toml'}: config file not found"


def test_startup_without_gpio_is_one_line(tmp_path):
    if read_board().has_gpio:  # a real Pi: the line is about the display or the buttons instead
        return
    done = run_box("--config", str(REPO / "firmware" / "default_config.toml"), "--state-dir", str(tmp_path))
    line = one_line(done)
    assert line.startswith("cantstop-box: GPIO backend unavailable: ") and "emulate" in line


def test_startup_display_not_found_on_the_bus_names_bus_and_address():
    port = next(n for n in range(90, 200) if not os.path.exists(f"/dev/i2c-{n}"))
    display = DisplayConfig(driver="sh1106", port=port, address=0x3D)
    with pytest.raises(DisplayError) as err:
        open_oled(display.driver, **display.oled_options())
    message = str(err.value)
    assert "\n" not in message
    assert message == (f"no SH1106 display answers on I2C bus {port} at address 0x3D "
                       f"(/dev/i2c-{port} is missing: is I2C enabled? check wiring)")


def test_startup_pin_in_use_in_this_program_names_pin_and_button():
    factory = MockFactory()
    try:
        squatter = Button(ButtonPins().stop, pin_factory=factory)
        with pytest.raises(ButtonError) as err:
            GpioButtons(ButtonPins().pins(), lambda name, pressed: None, pin_factory=factory)
        assert str(err.value) == "GPIO6 (STOP) is already in use by another device in this program"
        squatter.close()
        # and the pins taken before the failure were given back
        with GpioButtons(ButtonPins().pins(), lambda name, pressed: None, pin_factory=factory) as buttons:
            assert buttons.names == ("ROLL", "STOP", "A", "B", "C", "MENU")
    finally:
        factory.reset()
        factory.close()


class BusyFactory(MockFactory):
    """A pin factory whose backend reports a pin claimed by another program, as lgpio does."""

    def __init__(self, busy: int) -> None:
        super().__init__()
        self.busy = busy

    def pin(self, spec, **kwargs):
        if any(info.name == f"GPIO{self.busy}" for _, info in self.board_info.find_pin(spec)):
            raise RuntimeError("'GPIO busy'")  # lgpio.error's text when the line is claimed elsewhere
        return super().pin(spec, **kwargs)


def test_startup_pin_in_use_by_another_program_names_pin_and_button(tmp_path):
    f = tmp_path / "config.toml"
    f.write_text("[buttons]\nmenu = 20\n")
    cfg = load(f)
    factory = BusyFactory(busy=20)
    try:
        with pytest.raises(ButtonError) as err:
            GpioButtons(cfg.buttons.pins(), lambda name, pressed: None, pin_factory=factory)
        assert str(err.value) == "GPIO20 (MENU) is already in use by another program"
    finally:
        factory.reset()
        factory.close()


@pytest.mark.parametrize("interface, hz, warns", [("i2c", 100_000, True), ("i2c", 400_000, False),
                                                  ("i2c", None, False), ("spi", 100_000, False)])
def test_startup_slow_i2c_bus_is_one_journal_warning(caplog, monkeypatch, interface, hz, warns):
    from boxcli import run

    monkeypatch.setattr("hw.display.i2c_clock_hz", lambda port, sys_dir=None: hz)
    with caplog.at_level("WARNING", logger="cantstop"):
        run._note_slow_bus(DisplayConfig(interface=interface), (128, 64))
    assert [r.getMessage() for r in caplog.records] == (
        ["I2C bus 1 runs at 100 kHz: a whole frame takes 93 ms to reach the glass (23 ms at 400 kHz);"
         " add dtparam=i2c_arm_baudrate=400000 to the Pi's config.txt and reboot (docs/building.md)"] if warns else [])


def test_startup_gpio_fault_on_a_pi_never_suggests_emulate(monkeypatch, capsys):
    """Issue 20: run added '(to play on this machine: cantstop-box emulate)' to every GPIO fault, a Pi's too."""
    import argparse

    import hw.buttons
    from boxcli import run

    def refused():
        raise ButtonError("GPIO backend unavailable: cannot open /dev/gpiochip0 (owner root, group root, mode 0600)")

    monkeypatch.setattr(hw.buttons, "real_pin_factory", refused)
    args = argparse.Namespace(config=str(REPO / "firmware" / "default_config.toml"), state_dir=None, verbose=False)
    assert run.run_box(args) == run.EXIT_HARDWARE
    assert capsys.readouterr().err == (
        "cantstop-box: GPIO backend unavailable: cannot open /dev/gpiochip0 (owner root, group root, mode 0600)\n")
