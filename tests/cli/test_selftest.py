"""cantstop-box selftest: the wiring check, run here with mock pins and luma's dummy display."""

from __future__ import annotations

import threading

import pytest

from boxcli import cli
from boxcli import selftest
from firmware.config import ButtonPins
from firmware.screens import LAYOUTS, render_checked, render_pages
from hw.display import open_dummy
from hw.errors import ButtonError, DisplayError
from hw.fakes import FakeDisplay
from tests.kit.rig import mock_pins

PINS = ButtonPins().pins()


@pytest.fixture
def factory():
    f = mock_pins()
    yield f
    f.reset()
    f.close()


class Lines(list):
    """What the check prints; ``asked`` is set once it asks for the presses."""

    def __init__(self) -> None:
        super().__init__()
        self.asked = threading.Event()

    def append(self, line: str) -> None:
        super().append(line)
        if line.startswith("press each button"):
            self.asked.set()


def press_later(factory, names, lines: Lines):
    """Once the check asks for presses, press and release each named button in turn from another thread."""
    def go():
        lines.asked.wait(5)
        for name in names:  # the check queues each press in order: no need to space them
            pin = factory.pin(PINS[name])
            pin.drive_low()
            pin.drive_high()

    thread = threading.Thread(target=go)
    thread.start()
    return thread


def test_selftest_draws_the_pattern_then_names_every_button(factory):
    display = open_dummy()
    lines = Lines()
    order = ["MENU", "A", "ROLL", "A", "STOP", "C", "B"]  # A twice: named again, counted once
    thread = press_later(factory, order, lines)
    status = selftest.check(display, factory, PINS, timeout=10, out=lines.append)
    thread.join()
    assert status == 0
    assert lines[0].startswith("display: test pattern shown")
    assert lines[1] == "press each button once: ROLL STOP A B C MENU (within 10 s)"
    assert lines[2:-1] == [f"{n}: pressed (GPIO{PINS[n]})" for n in order]
    assert lines[-1] == "buttons: all 6 work"
    # the last frame on the panel names the last button pressed
    assert display.device.image.getbbox() is not None
    assert display.device.image.tobytes() != selftest.pattern_frame((128, 64)).tobytes()


def test_selftest_on_the_256x64_grey_panel_shows_pattern_and_presses(factory):
    """The SSD1322 (through luma on a modelled controller): the 1-bit pattern lit at full level, then a grey frame."""
    from PIL import ImageChops

    from hw.display import open_oled
    from hw.oled_model import ModelSerial
    from hw.oled_model_grey import SSD1322

    model = SSD1322()
    display = open_oled("ssd1322", interface="spi", serial=ModelSerial(model), width=256, height=64)
    lines = Lines()
    shown = []
    show = display.show
    display.show = lambda image: (show(image), shown.append(model.image()))
    thread = press_later(factory, ["ROLL"], lines)
    status = selftest.check(display, factory, PINS, timeout=0.5, out=lines.append)
    thread.join()
    assert status == selftest.EXIT_MISSING and lines[2] == f"ROLL: pressed (GPIO{PINS['ROLL']})"
    pattern = selftest.pattern_frame((256, 64)).convert("L")
    assert ImageChops.difference(shown[0], pattern).getbbox() is None
    assert shown[1].getextrema() == (0, 255) and model.warnings == []


def test_selftest_pattern_lights_the_outermost_pixels_and_a_chequerboard():
    image = selftest.pattern_frame((128, 64))
    px = image.load()
    assert all(px[x, 0] and px[x, 63] for x in range(128))
    assert all(px[0, y] and px[127, y] for y in range(64))
    assert px[1, 1] == 0  # a gap inside the frame, so a cropped edge shows
    assert px[8, 4] != px[4, 4] and px[4, 4] == px[8, 8]


def test_selftest_names_the_buttons_never_pressed_and_their_pins(factory):
    lines = Lines()
    thread = press_later(factory, ["ROLL", "STOP"], lines)
    status = selftest.check(open_dummy(), factory, PINS, timeout=0.5, out=lines.append)
    thread.join()
    assert status == selftest.EXIT_MISSING
    assert lines[-1] == ("buttons: never pressed within 0.5 s: A on GPIO13, B on GPIO19, C on GPIO26, MENU on GPIO16"
                         " (check each goes from its pin to ground)")
    assert not any(pin.state == 0 for pin in (factory.pin(p) for p in PINS.values()))


def test_selftest_a_display_that_stops_answering_is_one_line(factory):
    display = FakeDisplay()
    display.fail = "the SSD1306 display on I2C bus 1 at address 0x3C stopped answering (Remote I/O error)"
    lines: list[str] = []
    assert selftest.check(display, factory, PINS, timeout=1, out=lines.append) == selftest.EXIT_HARDWARE
    assert lines == [f"display: FAILED: {display.fail}"]


def test_selftest_command_on_a_laptop_says_there_is_no_gpio(capsys, monkeypatch):
    def no_gpio():
        raise ButtonError("GPIO backend unavailable: this machine has no GPIO (try 'cantstop-box emulate')")

    monkeypatch.setattr("hw.buttons.real_pin_factory", no_gpio)
    assert cli.main(["selftest"]) == 69
    err = capsys.readouterr().err
    assert err == "cantstop-box selftest: GPIO backend unavailable: this machine has no GPIO (try 'cantstop-box emulate')\n"


def test_selftest_command_without_a_display_on_the_bus_is_one_line(capsys, monkeypatch, factory):
    monkeypatch.setattr("hw.buttons.real_pin_factory", lambda: factory)

    def nothing_answers(driver, **options):
        raise DisplayError("no SSD1306 display answers on I2C bus 1 at address 0x3C (Remote I/O error; check wiring and address)")

    monkeypatch.setattr("hw.display.open_oled", nothing_answers)
    assert cli.main(["selftest"]) == 69
    captured = capsys.readouterr()
    assert captured.err == ("display: NOT FOUND: no SSD1306 display answers on I2C bus 1 at address 0x3C"
                            " (Remote I/O error; check wiring and address)\n")


def test_selftest_command_runs_the_check_on_the_configured_display_and_pins(capsys, monkeypatch, factory, tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("[buttons]\nroll = 17\n")
    opened = {}

    def dummy_oled(driver, **options):
        opened.update(options, driver=driver)
        return open_dummy()

    monkeypatch.setattr("hw.buttons.real_pin_factory", lambda: factory)
    monkeypatch.setattr("hw.display.open_oled", dummy_oled)
    status = cli.main(["selftest", "--config", str(config), "--timeout", "0.2"])
    out = capsys.readouterr().out
    assert status == selftest.EXIT_MISSING
    assert opened["driver"] == "ssd1306" and opened["interface"] == "i2c" and opened["address"] == 0x3C
    assert out.startswith("display: found: SSD1306 over I2C\n")
    assert "ROLL on GPIO17" in out


def test_selftest_command_config_error_exits_78(capsys, tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("[buttons]\nroll = 'five'\n")
    assert cli.main(["selftest", "--config", str(config)]) == 78
    assert capsys.readouterr().err.count("\n") == 1


@pytest.mark.parametrize("size", list(LAYOUTS), ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name, left", [("MENU", ["ROLL", "STOP", "A", "B", "C"]), ("A", []), ("STOP", ["MENU"])])
def test_selftest_each_press_frame_is_one_page_with_nothing_cut(size, name, left):
    """The panel shows one frame per press (no pages flip in the self test): all of it must fit at every size."""
    view = selftest.button_view(name, left)
    assert len(render_pages(view, size)) == 1
    assert render_checked(view, size).cuts == ()
    assert " ".join(left or ["all six work"]) in " ".join(view.lines)


@pytest.mark.parametrize("interface, hz, says", [("i2c", 100_000, True), ("i2c", 400_000, False),
                                                 ("spi", 100_000, False)])
def test_selftest_command_says_when_the_display_bus_is_slow(capsys, monkeypatch, factory, tmp_path,
                                                           interface, hz, says):
    config = tmp_path / "config.toml"
    config.write_text(f"[display]\ninterface = '{interface}'\nport = 1\n")
    monkeypatch.setattr("hw.buttons.real_pin_factory", lambda: factory)
    monkeypatch.setattr("hw.display.open_oled", lambda driver, **options: open_dummy())
    monkeypatch.setattr("hw.display.i2c_clock_hz", lambda port, sys_dir=None: hz if port == 1 else None)
    cli.main(["selftest", "--config", str(config), "--timeout", "0.1"])
    lines = capsys.readouterr().out.splitlines()
    slow = [line for line in lines if line.startswith("display: slow:")]
    assert slow == (["display: slow: I2C bus 1 runs at 100 kHz: a whole frame takes 93 ms to reach the glass"
                     " (23 ms at 400 kHz); add dtparam=i2c_arm_baudrate=400000 to the Pi's config.txt and reboot"]
                    if says else [])
    assert lines[0].startswith("display: found:")


def test_selftest_lights_each_lamp_alone_in_turn_and_plays_each_tone():
    from firmware.cues import CUES, MELODIES
    from hw.buzzer import GpioBuzzer
    from hw.lamps import GpioLamps

    f = mock_pins(pwm=True)
    lamp_pins = {"ROLL": 17, "STOP": 27, "A": 22}
    lamps = GpioLamps(lamp_pins, pin_factory=f)
    buzzer = GpioBuzzer(18, pin_factory=f)
    lines, lit_alone = [], []

    def sleep(_seconds):  # while each lamp is meant to be on: which pins are lit?
        lit_alone.append(tuple(n for n, p in lamp_pins.items() if f.pin(p).state == 1))

    try:
        selftest.show_signals(lamps, buzzer, out=lines.append, pause=0.0, sleep=sleep)
        assert lit_alone[:3] == [("ROLL",), ("STOP",), ("A",)]
        assert all(f.pin(p).state == 0 for p in lamp_pins.values())  # all out after
        assert buzzer.played == [MELODIES[c] for c in CUES]
        assert [line for line in lines if line.startswith("tone: ")] == [f"tone: {c}" for c in CUES]
    finally:
        lamps.close()
        buzzer.close()
        f.reset()
        f.close()
