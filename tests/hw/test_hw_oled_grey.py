"""The SSD1322 (256x64, 4-bit grey): the model against luma's own driver, and our driver on the model."""

from __future__ import annotations

import random

import pytest
from luma.core.error import DeviceNotFoundError
from luma.oled.device import ssd1322 as luma_ssd1322
from PIL import Image, ImageChops

from hw import oled
from hw.display import open_oled
from hw.errors import DisplayError
from hw.oled_model import ModelSerial
from hw.oled_model_grey import SSD1322

OFFSET = 112  # luma's column offset of a 256-pixel panel in the 480-pixel RAM


def _levels(frame: Image.Image) -> Image.Image:
    """What the RAM should show for a grey frame: its 4-bit levels, each as n x 17."""
    return frame.point(lambda v: (v >> 4) * 17)


def _noise(seed: int, size=(256, 64)) -> Image.Image:
    rng = random.Random(seed)
    return Image.frombytes("L", size, rng.randbytes(size[0] * size[1]))


def _same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a.convert("L"), b.convert("L")).getbbox() is None


def _driver(**kw):
    model = SSD1322()
    serial = ModelSerial(model)
    device = oled.ssd1322(serial, **kw)
    model.warnings.clear()
    serial.take()
    return model, serial, device


# ---- the model ------------------------------------------------------------------


def test_grey_model_starts_like_a_powered_up_chip():
    model = SSD1322()
    assert not model.on and model.contrast == 0x7F
    assert _noise(0).size == model.image().size and model.image().getbbox() is not None  # noise, not dark


def test_grey_model_window_fills_two_bytes_a_column_address_then_wraps_to_the_next_row():
    model = SSD1322()
    model.command([0x15])
    model.data([30, 31])  # column addresses 30..31: pixels 120..127
    model.command([0x75])
    model.data([5, 6])
    model.command([0x5C])
    model.data(bytes([0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE, 0xF0, 0xAB]))
    assert [model.level(x, 6) for x in range(120, 128)] == [9, 10, 11, 12, 13, 14, 15, 0]
    assert [model.level(x, 5) for x in range(120, 128)] == [10, 11, 3, 4, 5, 6, 7, 8]  # 9th byte: back at the top
    assert model.warnings == []


def test_grey_model_notes_what_it_does_not_expect():
    model = SSD1322()
    model.data([1])
    model.command([0x42])
    model.command([0xA0])
    model.data([0x06, 0x11])
    assert model.warnings == ["data with no command or write under way", "unknown command 0x42",
                              "remap (6, 17) is not the one modelled ((20, 17))"]


def test_grey_model_agrees_with_luma_s_own_ssd1322():
    """luma's own class and its own per-pixel loop (RGB frames), independent of our packing."""
    model = SSD1322()
    device = luma_ssd1322(ModelSerial(model))
    frame = _noise(1)
    device.display(frame.convert("RGB"))
    assert model.on and model.warnings == []
    assert _same(model.image(), _levels(frame))


# ---- the driver -----------------------------------------------------------------


def test_grey_nibbles_match_luma_s_packing_loop():
    frame = _noise(2, (16, 4))
    device = luma_ssd1322(ModelSerial(SSD1322()))
    buf = bytearray(16 * 4 // 2)
    device._render_greyscale(buf, list(zip(*[frame.tobytes()] * 3)))
    assert oled.grey_nibbles(frame) == bytes(buf)


def test_grey_driver_ram_is_the_frame_after_every_frame():
    model, serial, device = _driver()
    for seed in range(4):
        frame = _noise(seed)
        frame.paste(0, (0, 0, 256, 32 * (seed % 2)))  # and frames that differ in part only
        device.display(frame)
        assert _same(model.image(), _levels(frame)) and model.warnings == []


def test_grey_driver_one_pixel_is_one_column_address_on_one_row():
    model, serial, device = _driver()
    frame = Image.new("L", (256, 64))
    device.display(frame)
    serial.take()
    frame.putpixel((9, 40), 0x66)  # column address 28 + 2 holds pixels 8..11: 9 is the first byte's low nibble
    device.display(frame)
    assert serial.take() == [("command", b"\x15"), ("data", bytes([28 + 2, 28 + 2])), ("command", b"\x75"),
                             ("data", bytes([40, 40])), ("command", b"\x5c"), ("data", b"\x06\x00")]
    assert model.level(OFFSET + 9, 40) == 6
    device.display(frame)
    assert serial.take() == []  # nothing changed, nothing sent


def test_grey_driver_write_failing_midway_makes_the_next_frame_whole():
    model, serial, device = _driver()
    device.display(_noise(3))
    serial.fail_after = 500
    with pytest.raises(DeviceNotFoundError):
        device.display(_noise(4))
    frame = _noise(3)  # the frame before: a diff against it would leave the half-written part
    device.display(frame)
    assert _same(model.image(), _levels(frame))


def test_grey_driver_keeps_luma_s_features():
    model, serial, device = _driver(rotate=2)
    frame = Image.new("L", (256, 64))
    frame.putpixel((0, 0), 255)
    device.display(frame)
    assert model.level(OFFSET + 255, 63) == 15  # turned half round
    device.display(Image.new("RGB", (256, 64), (255, 255, 255)))  # luma's own mode, luma's own path
    assert model.image().getextrema() == (255, 255)
    device.display(frame)
    assert model.level(OFFSET + 255, 63) == 15 and model.level(OFFSET, 0) == 0
    device.contrast(40)
    device.hide()
    assert model.contrast == 40 and not model.on
    device.show()
    assert model.on
    device.cleanup()
    assert not model.on and serial.cleaned


def test_grey_driver_reinit_sets_a_power_cycled_panel_up_again():
    model, serial, device = _driver()
    frame = _noise(5)
    device.display(frame)
    model.power_cycle(seed=9)
    device.reinit()
    device.display(frame)
    assert model.on and _same(model.image(), _levels(frame)) and model.warnings == []


def test_grey_driver_rejects_a_wrong_frame():
    _, _, device = _driver()
    with pytest.raises(ValueError, match="L or RGB 256x64"):
        device.display(Image.new("L", (128, 64)))


# ---- through the display port --------------------------------------------------


def _display():
    model = SSD1322()
    display = open_oled("ssd1322", interface="spi", serial=ModelSerial(model), width=256, height=64, contrast=90)
    return model, display


def test_grey_display_takes_grey_and_one_bit_frames():
    model, display = _display()
    assert display.size == (256, 64) and display.mode == "L"
    assert model.contrast == 90 and model.on
    mono = Image.new("1", (256, 64))
    mono.putpixel((3, 3), 1)
    display.show(mono)
    assert model.level(OFFSET + 3, 3) == 15 and model.image().getbbox() == (3, 3, 4, 4)
    display.clear()
    assert model.image().getbbox() is None


def test_grey_display_wake_repaints_and_replug_sets_up_again():
    model, display = _display()
    frame = _noise(6)
    display.show(frame)
    display.dim(True)
    assert model.contrast == 1
    model.ram[10][70] ^= 0xFF
    display.dim(False)
    assert model.contrast == 90 and _same(model.image(), _levels(frame))
    display.device._serial_interface.unplugged = True
    with pytest.raises(DisplayError):
        display.show(_noise(7))
    model.power_cycle(seed=1)
    display.device._serial_interface.unplugged = False
    display.show(frame)
    assert model.on and model.contrast == 90 and _same(model.image(), _levels(frame))


def test_grey_display_is_spi_only():
    with pytest.raises(DisplayError, match="the ssd1322 talks SPI only: use interface spi"):
        open_oled("ssd1322", interface="i2c", serial=ModelSerial(SSD1322()), width=256, height=64)
