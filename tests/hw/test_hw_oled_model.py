"""The controller model itself, against byte sequences whose result the datasheets fix."""

from __future__ import annotations

import random

import pytest
from luma.core.error import DeviceNotFoundError
from luma.oled.device import sh1106 as luma_sh1106
from luma.oled.device import ssd1306 as luma_ssd1306
from PIL import Image, ImageChops

from hw.oled_model import HORIZONTAL, PAGE, SH1106, SSD1306, VERTICAL, ModelSerial


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a.convert("L"), b.convert("L")).getbbox() is None


def horizontal() -> SSD1306:
    model = SSD1306()
    model.command(bytes([0x20, 0x00]))
    return model


def test_model_starts_like_a_powered_up_chip():
    model = SSD1306()
    assert model.mode == PAGE and not model.on and model.contrast == 0x7F
    assert (model.column, model.page) == (0, 0)
    assert any(any(page) for page in model.ram)  # noise, not a blank screen


def test_model_horizontal_full_window_fills_page_after_page():
    model = horizontal()
    model.command(bytes([0x21, 0, 127, 0x22, 0, 7]))
    model.data(bytes(i % 256 for i in range(1024)))
    assert all(model.ram[p][c] == (p * 128 + c) % 256 for p in range(8) for c in range(128))
    assert (model.column, model.page) == (0, 0)  # wrapped back to the window's start
    assert model.warnings == []


def test_model_horizontal_window_wraps_inside_the_window():
    model = horizontal()
    model.ram = [bytearray(128) for _ in range(8)]
    model.command(bytes([0x21, 10, 12, 0x22, 2, 3]))
    model.data(b"\x01\x02\x03\x04\x05\x06\x07")
    assert model.ram[2][10:13] == b"\x07\x02\x03"  # the seventh byte came back to the start
    assert model.ram[3][10:13] == b"\x04\x05\x06"
    assert model.ram[2][9] == 0 and model.ram[2][13] == 0 and not any(model.ram[4])


def test_model_vertical_addressing_fills_column_after_column():
    model = SSD1306()
    model.command(bytes([0x20, 0x01, 0x21, 4, 5, 0x22, 6, 7]))
    model.data(b"abcd")
    assert model.mode == VERTICAL
    assert (model.ram[6][4], model.ram[7][4], model.ram[6][5], model.ram[7][5]) == tuple(b"abcd")


def test_model_page_addressing_takes_page_and_column_nibbles():
    model = SSD1306()
    model.command(bytes([0xB3, 0x05, 0x12]))
    model.data(b"\xAA\xBB")
    assert model.ram[3][0x25:0x27] == b"\xAA\xBB"
    assert (model.page, model.column) == (3, 0x27)


def test_model_page_mode_wraps_to_its_start_column_and_says_so():
    model = SSD1306()
    model.command(bytes([0xB1, 0x0E, 0x17]))  # column 126
    model.data(b"\x01\x02\x03")
    # back to the start column the nibbles set, on the same page
    assert model.ram[1][126:128] == b"\x03\x02" and model.page == 1
    assert model.warnings == ["page 1 written past its last column"]


def test_model_commands_of_the_other_addressing_mode_do_nothing_and_are_noted():
    model = horizontal()
    model.ram = [bytearray(128) for _ in range(8)]
    model.command(bytes([0x21, 3, 3, 0x22, 1, 1]))
    model.command(bytes([0xB5, 0x00, 0x10]))
    model.data(b"\xFF")
    assert model.ram[1][3] == 0xFF and sum(map(sum, model.ram)) == 0xFF  # still the window's byte
    assert model.warnings == ["0xB5 has no effect in horizontal addressing",
                              "0x00 has no effect in horizontal addressing",
                              "0x10 has no effect in horizontal addressing"]
    paged = SSD1306()
    paged.command(bytes([0x21, 3, 3]))
    assert paged.warnings == ["0x21 has no effect in page addressing"] and paged.column == 0


def test_model_command_arguments_may_come_in_a_later_transfer():
    model = SSD1306()
    model.command(bytes([0x81]))
    assert model.contrast == 0x7F
    model.command(bytes([0x40]))  # the argument, not a start line
    assert model.contrast == 0x40 and model.start_line == 0


def test_model_display_state_commands():
    model = SSD1306()
    model.command(bytes([0xAF, 0xA7, 0x48, 0x81, 0x10]))
    assert model.on and model.inverted and model.start_line == 8 and model.contrast == 0x10
    model.command(bytes([0xAE, 0xA6]))
    assert not model.on and not model.inverted


def test_model_unknown_command_is_noted():
    model = SSD1306()
    model.command(bytes([0xF7]))
    assert model.warnings == ["unknown command 0xF7"]


def test_model_glass_is_dark_when_off_and_honours_start_line_and_inverse():
    model = horizontal()
    model.ram = [bytearray(128) for _ in range(8)]
    model.ram[0][5] = 0x01  # pixel (5, 0)
    assert model.glass().getbbox() is None  # the panel is off
    model.command(bytes([0xAF]))
    assert model.glass().getpixel((5, 0))
    model.command(bytes([0x41]))  # start line 1: RAM row 0 is now the bottom row
    assert model.glass().getpixel((5, 63)) and not model.glass().getpixel((5, 0))
    model.command(bytes([0x40, 0xA7]))
    assert not model.glass().getpixel((5, 0)) and model.glass().getpixel((6, 0))


def test_model_sh1106_has_132_columns_and_page_addressing_only():
    model = SH1106()
    assert len(model.ram[0]) == 132
    model.command(bytes([0xB7, 0x02, 0x18]))  # page 7, column 0x82 = 130
    model.data(b"\x80\x80")
    assert model.ram[7][130:132] == b"\x80\x80"
    model.command(bytes([0x20, 0x00]))  # not an SH1106 command; 0x00 is a low column nibble
    assert model.mode == PAGE and model.warnings == ["unknown command 0x20"]
    model.command(bytes([0xAD, 0x8B, 0x32]))  # DC-DC on, pump voltage
    assert model.settings[0xAD] == (0x8B,) and model.settings[0x30] == (2,)


def test_model_power_cycle_loses_set_up_and_ram():
    model = horizontal()
    model.command(bytes([0xAF, 0x81, 0xFF]))
    model.ram = [bytearray(128) for _ in range(8)]
    model.power_cycle(seed=5)
    assert model.mode == PAGE and not model.on and model.contrast == 0x7F
    assert any(any(page) for page in model.ram)


def _random_frame(rng: random.Random) -> Image.Image:
    return Image.frombytes("1", (128, 64), rng.randbytes(1024))


@pytest.mark.parametrize(("luma_class", "model_class", "offset"), [(luma_ssd1306, SSD1306, 0), (luma_sh1106, SH1106, 2)])
def test_model_agrees_with_luma_s_own_full_frame_drivers(luma_class, model_class, offset):
    """luma's stock drivers are the reference: their bytes, played into the model, give the frame back."""
    model = model_class()
    device = luma_class(ModelSerial(model))
    assert model.on and model.glass(offset=offset).getbbox() is None  # luma's init: blank, then on
    rng = random.Random(3)
    for _ in range(3):
        frame = _random_frame(rng)
        device.display(frame)
        assert same(model.image(offset=offset), frame)
        assert same(model.glass(offset=offset), frame)
    if model_class is SSD1306:
        assert model.mode == HORIZONTAL and model.warnings == []
    else:  # luma's SH1106 init carries two SSD1306 commands the SH1106 does not have
        assert model.warnings == ["unknown command 0x20", "unknown command 0x8D"]


def test_model_serial_records_and_can_fail_mid_transfer():
    model = horizontal()
    model.ram = [bytearray(128) for _ in range(8)]
    serial = ModelSerial(model)
    serial.command(0x21, 0, 127, 0x22, 0, 0)
    serial.fail_after = 3
    with pytest.raises(DeviceNotFoundError):
        serial.data(b"\x01\x02\x03\x04\x05")
    assert model.ram[0][:5] == b"\x01\x02\x03\x00\x00"  # the bytes before the fault landed
    assert serial.take() == [("command", bytes([0x21, 0, 127, 0x22, 0, 0]))]
    serial.data(b"\x09")  # the fault was one-off
    assert model.ram[0][3] == 0x09
    serial.unplugged = True
    with pytest.raises(DeviceNotFoundError):
        serial.command(0xAF)
    assert not model.on


# -- the 32-row panel (0.91-inch SSD1306 modules) ---------------------------------


def test_model_32_row_panel_takes_luma_init_for_128x32_cleanly():
    model = SSD1306(rows=32)
    device = luma_ssd1306(ModelSerial(model), width=128, height=32)
    assert model.warnings == []
    assert model.settings[0xA8] == (0x1F,) and model.settings[0xDA] == (0x02,)
    frame = Image.new("1", (128, 32))
    frame.putpixel((5, 31), 1)
    frame.putpixel((127, 0), 1)
    device.display(frame)
    assert model.image().size == (128, 32) and same(model.image(), frame) and same(model.glass(), frame)


@pytest.mark.parametrize("rows, wrong", [(32, 64), (64, 32)])
def test_model_an_init_for_the_other_panel_height_is_a_warning(rows, wrong):
    """128x64 set-up on a 32-row panel lights every other row (COM pins) of half the frame (multiplex)."""
    model = SSD1306(rows=rows)
    luma_ssd1306(ModelSerial(model), width=128, height=wrong)
    assert any("multiplex" in w for w in model.warnings)
    assert any("COM pins" in w for w in model.warnings)


def test_model_knows_only_panels_of_64_or_32_rows():
    with pytest.raises(ValueError, match="48 rows"):
        SSD1306(rows=48)
