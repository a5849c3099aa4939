"""GpioButtons on gpiozero's MockFactory: real Button objects, mock pins."""

from __future__ import annotations

import threading

import pytest
from gpiozero import Button, Device
from gpiozero.pins.local import LocalPiFactory

from hw.board import PI5_SOC, Board
from hw.buttons import Backends, GpioButtons, mock_pin_factory, real_pin_factory
from hw.errors import ButtonError, HardwareError

PINS = {"ROLL": 17, "STOP": 27, "A": 5, "B": 6, "C": 13, "MENU": 26}
LAPTOP = Board()  # no device tree, no GPIO chip
PI4 = Board(compatible=("raspberrypi,4-model-b", "brcm,bcm2711"), gpiochips=("/dev/gpiochip0",), gpiomem=True)


def test_buttons_press_and_release_reach_sink_in_order(mock_factory, edges):
    with GpioButtons(PINS, edges, pin_factory=mock_factory):
        mock_factory.pin(17).drive_low()
        mock_factory.pin(17).drive_high()
        mock_factory.pin(5).drive_low()
        mock_factory.pin(26).drive_low()
        mock_factory.pin(5).drive_high()
        mock_factory.pin(26).drive_high()
    assert edges.edges == [
        ("ROLL", True), ("ROLL", False),
        ("A", True), ("MENU", True), ("A", False), ("MENU", False),
    ]


def test_buttons_report_raw_edges_without_debounce(mock_factory, edges):
    with GpioButtons({"ROLL": 17}, edges, pin_factory=mock_factory):
        pin = mock_factory.pin(17)
        for _ in range(3):  # a bouncing contact: every edge goes through
            pin.drive_low()
            pin.drive_high()
    assert edges.edges == [("ROLL", True), ("ROLL", False)] * 3


def test_buttons_sink_runs_in_driving_thread(mock_factory):
    seen = []
    with GpioButtons({"ROLL": 17}, lambda name, pressed: seen.append(threading.current_thread()),
                     pin_factory=mock_factory):
        worker = threading.Thread(target=mock_factory.pin(17).drive_low)
        worker.start()
        worker.join()
        mock_factory.pin(17).drive_high()  # a held Button takes gpiozero's hold_time (1 s) to close
    assert seen[0] is worker


def test_buttons_pull_down_inverts_levels(mock_factory, edges):
    with GpioButtons({"ROLL": 17}, edges, pin_factory=mock_factory, pull_up=False):
        mock_factory.pin(17).drive_high()
        mock_factory.pin(17).drive_low()
    assert edges.edges == [("ROLL", True), ("ROLL", False)]


def test_buttons_pressed_lists_held_buttons(mock_factory, edges):
    with GpioButtons(PINS, edges, pin_factory=mock_factory) as buttons:
        assert buttons.names == tuple(PINS)
        assert buttons.pressed() == frozenset()
        mock_factory.pin(27).drive_low()
        assert buttons.pressed() == {"STOP"}
        mock_factory.pin(27).drive_high()


def test_buttons_close_releases_pins(mock_factory, edges):
    buttons = GpioButtons(PINS, edges, pin_factory=mock_factory)
    buttons.close()
    buttons.close()  # twice is fine
    mock_factory.pin(17).drive_low()  # no longer wired: no edge
    mock_factory.pin(17).drive_high()
    assert edges.edges == []
    # The pins are free again for a new owner.
    again = Button(17, pin_factory=mock_factory)
    again.close()
    with GpioButtons(PINS, edges, pin_factory=mock_factory):
        pass


def test_buttons_close_tells_every_hold_thread_to_stop_before_waiting_for_any(mock_factory, edges):
    """gpiozero's close waits for its button's hold thread, which wakes every 0.1 s: one by one, a
    stopping box waited up to 0.6 s for six buttons. Each is told before the first is waited for."""
    buttons = GpioButtons(PINS, edges, pin_factory=mock_factory)
    mock_factory.pin(27).drive_low()  # a button held as the box stops
    threads = [button._hold_thread for button in buttons._buttons.values()]
    first = next(iter(buttons._buttons.values()))
    told_at_first_close = []
    real_close = first.close

    def close():
        told_at_first_close.extend(thread.stopping.is_set() for thread in threads)
        real_close()

    first.close = close
    buttons.close()
    assert told_at_first_close == [True] * len(PINS)
    assert not any(thread.is_alive() for thread in threads)
    assert edges.edges == [("STOP", True)]  # the held button's close is no release


def test_buttons_duplicate_pins_rejected_naming_both(mock_factory, edges):
    with pytest.raises(ButtonError) as info:
        GpioButtons({"ROLL": 17, "STOP": 27, "MENU": 17}, edges, pin_factory=mock_factory)
    message = str(info.value)
    assert "ROLL" in message and "MENU" in message and "GPIO17" in message
    assert "\n" not in message
    # Nothing was claimed.
    Button(17, pin_factory=mock_factory).close()


def test_buttons_pin_in_use_is_one_line_error_and_rolls_back(mock_factory, edges):
    squatter = Button(6, pin_factory=mock_factory)
    try:
        with pytest.raises(ButtonError) as info:
            GpioButtons(PINS, edges, pin_factory=mock_factory)
        assert str(info.value).startswith("GPIO6 (B) is already in use")
        assert "\n" not in str(info.value)
        assert info.value.__cause__ is not None
        # The buttons created before the failure were closed again.
        Button(17, pin_factory=mock_factory).close()
    finally:
        squatter.close()


def test_buttons_invalid_pin_is_button_error(mock_factory, edges):
    with pytest.raises(ButtonError, match=r"^GPIO99 \(ROLL\) is not a valid GPIO pin"):
        GpioButtons({"ROLL": 99}, edges, pin_factory=mock_factory)


def test_buttons_pin_factory_passed_in_global_untouched(mock_factory, edges):
    before = Device.pin_factory
    with GpioButtons(PINS, edges, pin_factory=mock_factory) as buttons:
        assert all(button.pin_factory is mock_factory for button in buttons._buttons.values())
    assert Device.pin_factory is before


def test_buttons_require_explicit_pin_factory(edges):
    with pytest.raises(TypeError):
        GpioButtons(PINS, edges, pin_factory=None)


def test_buttons_real_pin_factory_on_laptop_is_one_line_error():
    with pytest.raises(ButtonError) as info:
        real_pin_factory(board=LAPTOP)
    message = str(info.value)
    assert message.startswith("GPIO backend unavailable: ")
    assert "cantstop-box emulate" in message
    assert "\n" not in message
    assert isinstance(info.value, HardwareError)


def test_buttons_mock_pin_factory_is_fresh_mock():
    from gpiozero.pins.mock import MockFactory

    first, second = mock_pin_factory(), mock_pin_factory()
    assert isinstance(first, MockFactory) and first is not second
    first.close()
    second.close()


def test_buttons_real_pin_factory_needs_writable_cwd(monkeypatch):
    import sys
    import types

    class FailingFactory:
        def __init__(self, chip=None):
            raise FileNotFoundError(2, "No such file or directory", ".lgd-nfy-3")

    fake = types.ModuleType("gpiozero.pins.lgpio")
    fake.LGPIOFactory = FailingFactory
    monkeypatch.setitem(sys.modules, "gpiozero.pins.lgpio", fake)  # lgpio itself, not how the board is read
    with pytest.raises(ButtonError, match="writable working directory") as info:
        real_pin_factory(board=PI4)
    assert isinstance(info.value.__cause__, FileNotFoundError)


def test_buttons_real_pin_factory_import_failing_in_unwritable_cwd_is_one_line(monkeypatch):
    """Found in an arm64 root (make pi-check): the installed lgpio wheel opens its
    notification pipe while being imported, so from a read-only directory the
    import itself raised FileNotFoundError and `cantstop-box run` gave a traceback."""
    import importlib.abc
    import sys

    class LgpioImportFails(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == "gpiozero.pins.lgpio":
                raise FileNotFoundError(2, "No such file or directory", ".lgd-nfy-3")
            return None

    monkeypatch.delitem(sys.modules, "gpiozero.pins.lgpio", raising=False)
    monkeypatch.setattr(sys, "meta_path", [LgpioImportFails(), *sys.meta_path])
    with pytest.raises(ButtonError, match="writable working directory") as info:
        real_pin_factory(board=PI4)
    assert "\n" not in str(info.value)
    assert isinstance(info.value.__cause__, FileNotFoundError)


# -- without lgpio: gpiozero's native factory, except on a Pi 5 ---------------------

class _FakeNative:
    made = 0

    def __init__(self):
        type(self).made += 1


def _lgpio_missing():
    raise ImportError("No module named 'lgpio'")


def _no_lgpio(native=_FakeNative) -> Backends:
    """Backends whose lgpio import fails and whose native factory is NATIVE: no real GPIO is touched."""
    return Backends(lgpio=_lgpio_missing, native=lambda: native)


def _pi(soc: str, **facts) -> Board:
    """A Pi (a gpiochip) with SOC in its device tree."""
    return Board(compatible=("raspberrypi,some-model", soc) if soc else (), gpiochips=("/dev/gpiochip0",), **facts)


@pytest.mark.parametrize("soc", ["brcm,bcm2710", "brcm,bcm2711", "brcm,bcm2837"])
def test_buttons_without_lgpio_fall_back_to_the_native_factory(caplog, soc):
    with caplog.at_level("INFO", logger="hw.buttons"):
        factory = real_pin_factory(board=_pi(soc), backends=_no_lgpio())
    assert isinstance(factory, _FakeNative)
    assert "GPIO backend: gpiozero native" in caplog.text


def test_buttons_without_lgpio_the_native_factory_is_told_the_boards_revision():
    class Local(LocalPiFactory):
        pass

    factory = real_pin_factory(board=_pi("brcm,bcm2711", revision=0xC03111), backends=_no_lgpio(Local))
    assert factory.board_info.model == "4B"


def test_buttons_without_lgpio_on_a_pi5_name_what_to_install():
    _FakeNative.made = 0
    with pytest.raises(ButtonError) as info:
        real_pin_factory(board=_pi(PI5_SOC), backends=_no_lgpio())
    message = str(info.value)
    assert "Pi 5" in message and "python3-lgpio" in message and "\n" not in message
    assert _FakeNative.made == 0  # the native factory would poke the wrong registers on a Pi 5


def test_buttons_without_lgpio_native_failure_is_one_line(monkeypatch, tmp_path):
    class GpiomemRefused:
        def __init__(self):
            raise OSError("unable to open /dev/gpiomem or /dev/mem; upgrade your kernel or run as root")

    node = _fake_node(monkeypatch, tmp_path / "gpiomem", mode=0o660, gid=4242, may_open=False)
    board = _pi("brcm,bcm2711", gpiomem=True, dev=str(tmp_path))
    with pytest.raises(ButtonError) as info:
        real_pin_factory(board=board, backends=_no_lgpio(GpiomemRefused))
    message = str(info.value)
    assert message == ("GPIO backend unavailable: lgpio is not installed and gpiozero's native backend failed:"
                       " unable to open /dev/gpiomem or /dev/mem; upgrade your kernel or run as root"
                       f" ({node} (owner root, group {_group_name(4242)}, mode 0660): user {_user_name()}"
                       f" needs to be in the '{_group_name(4242)}' group)")


def test_buttons_without_lgpio_and_without_gpio_still_say_emulate():
    with pytest.raises(ButtonError, match="cantstop-box emulate"):
        real_pin_factory(board=LAPTOP, backends=_no_lgpio())


def test_buttons_with_lgpio_log_the_lgpio_backend(caplog):
    class Lgpio:
        def __init__(self, chip=None):
            self.chip = chip

    with caplog.at_level("INFO", logger="hw.buttons"):
        factory = real_pin_factory(chip=4, board=PI4, backends=Backends(lgpio=lambda: Lgpio))
    assert isinstance(factory, Lgpio) and factory.chip == 4
    assert "GPIO backend: lgpio" in caplog.text


def test_buttons_with_lgpio_the_factory_is_told_the_boards_revision():
    class Lgpio(LocalPiFactory):
        def __init__(self, chip=None):
            super().__init__()

    factory = real_pin_factory(board=_pi("brcm,bcm2837", revision=0xA02082), backends=Backends(lgpio=lambda: Lgpio))
    assert factory.board_info.model == "3B"
    assert type(real_pin_factory(board=PI4, backends=Backends(lgpio=lambda: Lgpio))) is Lgpio  # no code: as is


def test_buttons_backends_are_gpiozeros_by_default():
    from hw.gpiomem import PolledNativeFactory

    assert Backends().native() is PolledNativeFactory


# -- a GPIO chip that lgpio cannot open: the node, its owner and mode, the group (issue 20, fault 2) ----------

class LgpioError(Exception):
    """What lgpio raises (lgpio.error): not an OSError, not a PermissionError."""


class _Refusing:
    """lgpio's factory where lgpio cannot open the chip."""

    def __init__(self, chip=None):
        raise LgpioError("'can not open gpiochip'")


REFUSING = Backends(lgpio=lambda: _Refusing)


def _lgpio_refuses(monkeypatch, tmp_path, *, mode: int, gid: int, may_open: bool):
    """A Pi 4 whose /dev/gpiochip0 (a file under tmp_path) has MODE and GID: (the node, the board)."""
    node = _fake_node(monkeypatch, tmp_path / "gpiochip0", mode=mode, gid=gid, may_open=may_open)
    return node, Board(compatible=PI4.compatible, gpiochips=(str(node),), dev=str(tmp_path))


def _fake_node(monkeypatch, node, *, mode: int, gid: int, may_open: bool):
    """NODE (a file) seen by hw.devices as a character device of root's with MODE and GID, openable or not
    (the tests run as root, who may open anything)."""
    import os

    import hw.devices

    node.touch()
    fields = list(os.stat(node))
    fields[0], fields[4], fields[5] = 0o020000 | mode, 0, gid
    monkeypatch.setattr(hw.devices, "_stat", lambda path: os.stat_result(fields) if path == str(node) else os.stat(path))
    monkeypatch.setattr(hw.devices, "_may_open", lambda path: may_open)
    return node


def _group_name(gid: int) -> str:
    import grp

    try:
        return grp.getgrgid(gid)[0]
    except KeyError:
        return str(gid)


def _user_name() -> str:
    import os
    import pwd

    return pwd.getpwuid(os.geteuid())[0]


def test_buttons_chip_only_root_may_open_names_node_mode_and_the_udev_rule(monkeypatch, tmp_path):
    """Plain Debian: /dev/gpiochip0 root:root 0600, no gpio group: lgpio's own words said nothing."""
    node, board = _lgpio_refuses(monkeypatch, tmp_path, mode=0o600, gid=0, may_open=False)
    with pytest.raises(ButtonError) as info:
        real_pin_factory(board=board, backends=REFUSING)
    message = str(info.value)
    assert message == (f"GPIO backend unavailable: cannot open {node} (owner root, group {_group_name(0)}, mode 0600):"
                       f" only root may open it; user {_user_name()} needs it given to the 'gpio' group, which the"
                       " box's udev rule sets up: run sudo deploy/install.sh, then reboot")
    assert "emulate" not in message
    assert isinstance(info.value.__cause__, LgpioError)


def test_buttons_chip_of_a_group_names_that_group(monkeypatch, tmp_path):
    node, board = _lgpio_refuses(monkeypatch, tmp_path, mode=0o660, gid=4242, may_open=False)
    with pytest.raises(ButtonError) as info:
        real_pin_factory(board=board, backends=REFUSING)
    assert str(info.value) == (f"GPIO backend unavailable: cannot open {node} (owner root, group"
                               f" {_group_name(4242)}, mode 0660): user {_user_name()} needs to be in the"
                               f" '{_group_name(4242)}' group")


def test_buttons_chip_open_to_the_user_keeps_lgpios_words_and_no_emulate(monkeypatch, tmp_path):
    node, board = _lgpio_refuses(monkeypatch, tmp_path, mode=0o660, gid=4242, may_open=True)
    with pytest.raises(ButtonError) as info:
        real_pin_factory(board=board, backends=REFUSING)
    message = str(info.value)
    assert message == (f"GPIO backend unavailable: cannot open {node} (owner root, group {_group_name(4242)},"
                       " mode 0660): 'can not open gpiochip'")


def test_buttons_chip_missing_says_so(monkeypatch, tmp_path):
    node, board = _lgpio_refuses(monkeypatch, tmp_path, mode=0o600, gid=0, may_open=False)
    node.unlink()
    import os

    import hw.devices

    monkeypatch.setattr(hw.devices, "_stat", os.stat)
    with pytest.raises(ButtonError) as info:
        real_pin_factory(board=board, backends=REFUSING)
    assert str(info.value) == f"GPIO backend unavailable: cannot open {node}: there is no such device"


def test_buttons_a_pin_that_will_not_close_is_one_line_and_the_others_still_close(caplog):
    """The boot check's journal: lgpio's 'GPIO busy' from one pin's close was a traceback as the box stopped."""
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    buttons = GpioButtons({"ROLL": 17, "STOP": 27}, lambda name, pressed: None, pin_factory=factory)
    roll = buttons._buttons["ROLL"]
    real_close = roll.close

    def busy():
        raise RuntimeError("GPIO busy")

    roll.close = busy
    with caplog.at_level("WARNING", logger="hw.buttons"):
        buttons.close()  # no exception reaches the stopping daemon
    assert ["button ROLL: its pin did not close: GPIO busy"] == [r.getMessage() for r in caplog.records]
    assert factory.pin(27).function == "input" and buttons._buttons == {}
    buttons.close()  # still safe twice
    roll.close = real_close  # (its own release, for the garbage collector's close)
    real_close()
