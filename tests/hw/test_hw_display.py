"""Frames through the real luma drivers onto a recording bus: the exact bytes."""

from __future__ import annotations

import pytest
from luma.core.error import DeviceNotFoundError
from PIL import Image

from hw.display import Display, LumaDisplay, i2c_clock_hz, i2c_speed_note, open_dummy, open_oled
from hw.errors import DisplayError, HardwareError

# SSD1306 / SH1106 command bytes (from the datasheets; luma.oled.const agrees).
COLUMNADDR, PAGEADDR, SETCONTRAST, DISPLAYOFF, DISPLAYON = 0x21, 0x22, 0x81, 0xAE, 0xAF
SH1106_PAGE, SH1106_COLUMN_LOW, SH1106_COLUMN_HIGH = 0xB0, 0x02, 0x10


def blank() -> Image.Image:
    return Image.new("1", (128, 64))


def with_pixels(*points: tuple[int, int]) -> Image.Image:
    image = blank()
    for point in points:
        image.putpixel(point, 1)
    return image


def opened(driver: str, serial, **kw) -> LumaDisplay:
    display = open_oled(driver, serial=serial, **kw)
    serial.take()  # forget the init sequence
    return display


@pytest.mark.parametrize("driver", ["ssd1306", "ssd1309"])
def test_display_ssd1306_black_frame_is_1024_zero_bytes(serial, driver):
    display = opened(driver, serial)
    display.show(blank())
    assert serial.take() == [
        ("command", (COLUMNADDR, 0, 127, PAGEADDR, 0, 7)),
        ("data", bytes(1024)),
    ]


@pytest.mark.parametrize(
    ("point", "index", "value"),
    [
        ((0, 0), 0, 0x01),     # top-left: bit 0 of the first byte
        ((0, 7), 0, 0x80),     # eighth row: bit 7 of the same byte
        ((0, 8), 128, 0x01),   # next page starts 128 bytes on
        ((5, 9), 133, 0x02),
        ((127, 63), 1023, 0x80),
    ],
)
def test_display_ssd1306_pixel_sets_one_bit(serial, point, index, value):
    display = opened("ssd1306", serial)
    display.show(with_pixels(point))
    (_, cmd), (_, data) = serial.take()
    expected = bytearray(1024)
    expected[index] = value
    assert data == bytes(expected)


def test_display_ssd1306_column_of_eight_fills_a_byte(serial):
    display = opened("ssd1306", serial)
    display.show(with_pixels(*[(3, y) for y in range(8)]))
    data = serial.take()[1][1]
    assert data[3] == 0xFF and sum(data) == 0xFF


def test_display_ssd1306_rotation_two_turns_frame(serial):
    display = opened("ssd1306", serial, rotation=2)
    assert display.size == (128, 64)
    display.show(with_pixels((0, 0)))
    data = serial.take()[1][1]
    assert data[1023] == 0x80 and sum(data) == 0x80


def test_display_sh1106_black_frame_is_eight_pages(serial):
    display = opened("sh1106", serial)
    display.show(blank())
    expected = []
    for page in range(8):
        expected.append(("command", (SH1106_PAGE + page, SH1106_COLUMN_LOW, SH1106_COLUMN_HIGH)))
        expected.append(("data", bytes(128)))
    assert serial.take() == expected


@pytest.mark.parametrize(
    ("point", "page", "index", "value"),
    [((0, 0), 0, 0, 0x01), ((0, 7), 0, 0, 0x80), ((3, 63), 7, 3, 0x80), ((127, 8), 1, 127, 0x01)],
)
def test_display_sh1106_pixel_sets_one_bit(serial, point, page, index, value):
    display = opened("sh1106", serial)
    display.show(with_pixels(point))
    pages = [data for kind, data in serial.take() if kind == "data"]
    assert len(pages) == 8
    for number, data in enumerate(pages):
        expected = bytearray(128)
        if number == page:
            expected[index] = value
        assert data == bytes(expected)


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106", "ssd1309"])
def test_display_open_blanks_switches_on_then_sets_contrast(serial, driver):
    open_oled(driver, serial=serial, contrast=0x40)
    calls = serial.take()
    assert calls[0][1][0] == DISPLAYOFF
    assert calls[-2:] == [("command", (DISPLAYON,)), ("command", (SETCONTRAST, 0x40))]
    # The frame sent while opening is blank.
    assert all(not any(data) for kind, data in calls if kind == "data")


def test_display_show_sends_only_what_changed(serial):
    display = opened("ssd1306", serial)
    display.show(blank())
    assert [kind for kind, _ in serial.take()] == ["command", "data"]  # the first frame: whole
    display.show(blank())
    assert serial.take() == []  # unchanged: nothing on the bus
    display.show(with_pixels((5, 9)))
    assert serial.take() == [("command", (COLUMNADDR, 5, 5, PAGEADDR, 1, 1)), ("data", b"\x02")]


def model_display(driver="ssd1306", contrast=200):
    from hw.oled_model import SH1106, SSD1306, ModelSerial

    model = (SH1106 if driver == "sh1106" else SSD1306)()
    serial = ModelSerial(model)
    return open_oled(driver, serial=serial, contrast=contrast), serial, model


def ram_shows(model, image, offset=0) -> bool:
    from PIL import ImageChops

    return ImageChops.difference(model.image(offset=offset).convert("L"), image.convert("L")).getbbox() is None


@pytest.mark.parametrize(("driver", "offset"), [("ssd1306", 0), ("sh1106", 2)])
def test_display_replugged_panel_is_set_up_again_with_its_contrast(driver, offset):
    display, serial, model = model_display(driver, contrast=200)
    display.show(with_pixels((1, 1)))
    serial.unplugged = True
    with pytest.raises(DisplayError):
        display.show(with_pixels((2, 2)))
    model.power_cycle(seed=1)  # plugged back: off, page addressing, noise in RAM
    serial.unplugged = False
    frame = with_pixels((3, 3), (100, 60))
    display.show(frame)
    assert model.on and model.contrast == 200 and ram_shows(model, frame, offset)


def test_display_replugged_while_dim_comes_back_dim():
    display, serial, model = model_display(contrast=200)
    display.show(with_pixels((1, 1)))
    display.dim(True)
    serial.unplugged = True
    with pytest.raises(DisplayError):
        display.show(with_pixels((2, 2)))
    model.power_cycle(seed=2)
    serial.unplugged = False
    display.show(with_pixels((2, 2)))
    assert model.on and model.contrast == 1


def test_display_wake_from_dim_repaints_the_whole_last_frame():
    display, serial, model = model_display(contrast=180)
    frame = with_pixels((10, 10), (127, 0))
    display.show(frame)
    display.dim(True)
    assert model.contrast == 1
    model.ram[4][64] ^= 0x5A  # whatever happened to the RAM while the screen sat dim
    serial.take()
    display.dim(False)
    assert model.contrast == 180 and ram_shows(model, frame)
    assert sum(len(payload) for kind, payload in serial.take() if kind == "data") == 1024


def test_display_wake_after_a_failed_frame_paints_that_frame():
    display, serial, model = model_display(contrast=180)
    display.show(with_pixels((1, 1)))
    serial.unplugged = True
    wanted = with_pixels((50, 50))
    with pytest.raises(DisplayError):
        display.show(wanted)
    serial.unplugged = False
    display.dim(False)  # the box wakes the screen before anything else is drawn
    assert model.on and model.contrast == 180 and ram_shows(model, wanted)


def test_display_dim_with_no_frame_yet_only_sets_contrast():
    display, serial, model = model_display(contrast=180)
    serial.take()
    display.dim(False)
    assert serial.take() == [("command", bytes([SETCONTRAST, 180]))]


def test_display_wrong_frame_size_rejected(serial):
    display = opened("ssd1306", serial)
    with pytest.raises(ValueError):
        display.show(Image.new("1", (64, 32)))


def test_display_unknown_driver_lists_valid_ones():
    with pytest.raises(DisplayError) as info:
        open_oled("ssd1351")
    message = str(info.value)
    assert message == "unknown display driver 'ssd1351': use one of ssd1306, sh1106, ssd1309, ssd1322"


def test_display_unknown_interface_lists_valid_ones():
    with pytest.raises(DisplayError, match=r"^unknown display interface 'parallel': use one of i2c, spi$"):
        open_oled("ssd1306", interface="parallel")


def test_display_missing_i2c_bus_is_one_line_error():
    with pytest.raises(DisplayError) as info:
        open_oled("ssd1306", port=97)  # no /dev/i2c-97 here (nor on a Pi)
    message = str(info.value)
    assert message.startswith("no SSD1306 display answers on I2C bus 97 at address 0x3C")
    assert "is I2C enabled?" in message
    assert "\n" not in message
    assert isinstance(info.value, HardwareError)
    assert isinstance(info.value.__cause__, DeviceNotFoundError)


def test_display_spi_without_backend_is_one_line_error():
    with pytest.raises(DisplayError) as info:
        open_oled("sh1106", interface="spi")
    assert "\n" not in str(info.value)
    assert info.value.__cause__ is not None


class SilentBus:
    """A bus where nobody answers: every transfer is an I/O error, as luma reports it."""

    def command(self, *cmd):
        raise DeviceNotFoundError("I2C device not found on address: 0x3D")

    def data(self, data):
        raise DeviceNotFoundError("I2C device not found on address: 0x3D")

    def cleanup(self):
        self.cleaned = True


def test_display_nobody_at_address_is_one_line_error():
    bus = SilentBus()
    with pytest.raises(DisplayError) as info:
        open_oled("ssd1306", address=0x3D, serial=bus)
    message = str(info.value)
    assert message.startswith("no SSD1306 display answers on I2C bus 1 at address 0x3D (")
    assert "\n" not in message
    assert isinstance(info.value.__cause__, DeviceNotFoundError)
    assert bus.cleaned


def test_display_unplugged_during_show_is_display_error(serial):
    display = opened("ssd1306", serial)
    display.device._serial_interface = SilentBus()
    with pytest.raises(DisplayError, match="stopped answering") as info:
        display.show(blank())
    assert isinstance(info.value.__cause__, DeviceNotFoundError)


def test_display_close_switches_off_and_never_raises(serial):
    display = opened("ssd1306", serial)
    display.close()
    calls = serial.take()
    assert calls[0] == ("command", (DISPLAYOFF,))
    assert calls[-1] == ("cleanup",)
    display.close()  # second close is a no-op
    assert serial.take() == []


def test_display_keep_last_frame_leaves_the_panel_lit_at_close(serial):
    display = opened("ssd1306", serial)
    display.show(with_pixels((3, 4)))
    display.keep_last_frame()
    serial.take()
    display.close()
    assert ("command", (DISPLAYOFF,)) not in serial.take()  # the 'box is off' frame stays on the glass
    display.keep_last_frame()  # after close: nothing to keep, no error


def test_display_close_with_unplugged_bus_does_not_raise(serial):
    display = opened("ssd1306", serial)
    display.device._serial_interface = SilentBus()
    display.close()


def test_display_dummy_keeps_last_frame():
    display = open_dummy()
    assert isinstance(display, Display)
    assert display.size == (128, 64)
    frame = with_pixels((10, 20))
    display.show(frame)
    assert display.device.image.mode == "1"
    assert display.device.image.getpixel((10, 20)) and not display.device.image.getpixel((11, 20))
    display.clear()
    assert display.device.image.getbbox() is None


def test_display_unsupported_size_says_so(serial):
    with pytest.raises(DisplayError, match=r"^the sh1106 driver does not support a 128x48 display$"):
        open_oled("sh1106", serial=serial, height=48)


def test_display_dim_turns_contrast_down_and_back_to_the_configured_level():
    from hw.display import LumaDisplay

    class Device:  # declares what a panel declares (hw.display.LumaDisplay)
        size = (128, 64)
        frame_mode = "1"

        def __init__(self):
            self.levels = []

        def contrast(self, level):
            self.levels.append(level)

        def invalidate(self):
            pass

        def reinit(self):
            pass

    device = Device()
    display = LumaDisplay(device, contrast=180)
    display.dim(True)
    display.dim(False)
    assert device.levels == [1, 180]


def test_display_terminal_dim_redraws_the_frame_faint():
    import io

    from PIL import Image

    from hw.terminal import FAINT, TerminalDisplay

    out = io.StringIO()
    display = TerminalDisplay(out)
    display.show(Image.new("1", (128, 64), 1))
    assert FAINT not in out.getvalue()
    display.dim(True)
    faint = out.getvalue()
    assert faint.count(FAINT) == 32  # every row of the redrawn frame
    display.dim(True)  # no change, no redraw
    assert out.getvalue() == faint


# ---- the I2C bus clock ----------------------------------------------------


def fake_sys(tmp_path, port: int, raw: bytes | None):
    """A /sys with bus ``port``'s device-tree clock-frequency holding ``raw`` (none when None)."""
    node = tmp_path / f"class/i2c-adapter/i2c-{port}/of_node"
    node.mkdir(parents=True)
    if raw is not None:
        (node / "clock-frequency").write_bytes(raw)
    return tmp_path


@pytest.mark.parametrize("hz", [100_000, 400_000, 1_000_000])
def test_display_i2c_clock_is_read_from_the_device_tree_node(tmp_path, hz):
    assert i2c_clock_hz(1, fake_sys(tmp_path, 1, hz.to_bytes(4, "big"))) == hz


@pytest.mark.parametrize("raw", [None, b"", b"\x00\x01\x86"])
def test_display_i2c_clock_unknown_when_the_node_does_not_say(tmp_path, raw):
    assert i2c_clock_hz(1, fake_sys(tmp_path, 1, raw)) is None
    assert i2c_clock_hz(3, tmp_path) is None  # no such bus at all


def test_display_slow_i2c_note_says_the_frame_time_and_the_fix(tmp_path):
    sys_dir = fake_sys(tmp_path, 1, (100_000).to_bytes(4, "big"))
    note = i2c_speed_note(1, (128, 64), sys_dir)
    assert note == ("I2C bus 1 runs at 100 kHz: a whole frame takes 93 ms to reach the glass (23 ms at 400 kHz);"
                    " add dtparam=i2c_arm_baudrate=400000 to the Pi's config.txt and reboot")
    assert "47 ms" in i2c_speed_note(1, (128, 32), sys_dir)  # half the RAM, half the time
    assert "\n" not in note


@pytest.mark.parametrize("raw", [(400_000).to_bytes(4, "big"), (1_000_000).to_bytes(4, "big"), None])
def test_display_no_i2c_note_when_fast_or_unknown(tmp_path, raw):
    assert i2c_speed_note(1, (128, 64), fake_sys(tmp_path, 1, raw)) is None


# -- a bus that speaks SMBus only (issue 20, fault 4) ------------------------------------------------------

class SmbusOnlyBus:
    """smbus2.SMBus on an adapter like i2c-stub: SMBus block writes go through, plain I2C transfers
    (I2C_RDWR, which luma sends a frame's data with) fail with errno 95."""

    refuse_rdwr = True

    def __init__(self, port):
        self.port = port
        self.commands = []

    def write_i2c_block_data(self, address, register, data):
        self.commands.append((address, register, list(data)))

    def i2c_rdwr(self, *messages):
        if type(self).refuse_rdwr:
            raise OSError(95, "Operation not supported")

    def close(self):
        pass


SMBUS_ONLY = ("I2C bus 7's adapter speaks SMBus only and cannot do the plain I2C transfers a frame needs"
              " ([Errno 95] Operation not supported); use the Pi's own I2C bus (dtparam=i2c_arm=on, bus 1)")


def test_display_on_an_smbus_only_bus_says_so_not_that_nobody_answers(monkeypatch):
    import smbus2

    monkeypatch.setattr(smbus2, "SMBus", SmbusOnlyBus)
    monkeypatch.setattr(SmbusOnlyBus, "refuse_rdwr", True)
    with pytest.raises(DisplayError) as info:
        open_oled("ssd1306", port=7, address=0x3C)
    assert str(info.value) == f"cannot drive the SSD1306 display on I2C bus 7 at address 0x3C: {SMBUS_ONLY}"
    assert "answers" not in str(info.value)
    assert isinstance(info.value.__cause__, OSError) and info.value.__cause__.errno == 95


def test_display_bus_turning_smbus_only_while_showing_says_so(monkeypatch):
    import smbus2

    monkeypatch.setattr(smbus2, "SMBus", SmbusOnlyBus)
    monkeypatch.setattr(SmbusOnlyBus, "refuse_rdwr", False)
    display = open_oled("ssd1306", port=7, address=0x3C)
    monkeypatch.setattr(SmbusOnlyBus, "refuse_rdwr", True)
    with pytest.raises(DisplayError) as info:
        display.show(with_pixels((3, 3)))
    assert str(info.value) == f"cannot drive the SSD1306 display on I2C bus 7 at address 0x3C: {SMBUS_ONLY}"
