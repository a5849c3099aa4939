"""The partial-update drivers, played into the controller model: the RAM must always be the frame."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from luma.core.error import DeviceNotFoundError
from luma.oled.device import sh1106 as luma_sh1106
from luma.oled.device import ssd1306 as luma_ssd1306
from luma.oled.device import ssd1309 as luma_ssd1309
from PIL import Image, ImageChops, ImageDraw

from hw import oled
from hw.oled_model import HORIZONTAL, SH1106, SSD1306, ModelSerial

CASES = [("ssd1306", SSD1306, 0), ("ssd1309", SSD1306, 0), ("sh1106", SH1106, 2)]


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a.convert("L"), b.convert("L")).getbbox() is None


def opened(driver: str, model_class, **kw):
    model = model_class()
    serial = ModelSerial(model)
    device = oled.DRIVERS[driver](serial, **kw)
    serial.take()
    model.warnings.clear()  # luma's SH1106 init has two SSD1306-only bytes; from here on, none
    return device, serial, model


def in_ram(model, device, offset) -> Image.Image:
    width, height = device.size if device.rotate % 2 == 0 else device.size[::-1]  # the unturned panel
    return model.image(width, height, offset)


def random_frame(rng: random.Random, size=(128, 64)) -> Image.Image:
    return Image.frombytes("1", size, rng.randbytes(size[0] * size[1] // 8))


def edited(frame: Image.Image, rng: random.Random) -> Image.Image:
    """A few rectangles and a line of text changed, as a press changes a screen."""
    out = frame.copy()
    draw = ImageDraw.Draw(out)
    for _ in range(rng.randint(0, 4)):
        x, y = rng.randrange(out.width), rng.randrange(out.height)
        draw.rectangle((x, y, x + rng.randint(0, 30), y + rng.randint(0, 12)), fill=rng.choice((0, 1)))
    if rng.random() < 0.5:
        draw.text((rng.randrange(100), rng.randrange(56)), "ROLL", fill=1)
    return out


@pytest.mark.parametrize("driver", ["ssd1306", "ssd1309", "sh1106"])
def test_oled_drivers_are_luma_s_own_classes(driver):
    reference = {"ssd1306": luma_ssd1306, "ssd1309": luma_ssd1309, "sh1106": luma_sh1106}[driver]
    assert issubclass(oled.DRIVERS[driver], reference)


def test_oled_page_bytes_match_luma_s_packing_loop():
    """Pillow's transpose gives the very bytes luma's per-pixel loop builds, for every size luma takes."""
    rng = random.Random(1)
    for size in ((128, 64), (128, 32), (96, 16), (64, 48)):
        frame = random_frame(rng, size)
        model = SSD1306()
        luma_ssd1306(ModelSerial(model), width=size[0], height=size[1]).display(frame)
        offset = oled.ssd1306_first_column(size[0])
        expected = [bytes(page[offset:offset + size[0]]) for page in model.ram[:size[1] // 8]]
        assert oled.page_bytes(frame, size[1] // 8) == expected


@pytest.mark.parametrize(("driver", "luma_class", "model_class", "sizes"), [
    ("ssd1306", luma_ssd1306, SSD1306, [(128, 64), (128, 32), (96, 16), (64, 48), (64, 32)]),
    ("ssd1309", luma_ssd1309, SSD1306, [(128, 64)]),
    ("sh1106", luma_sh1106, SH1106, [(128, 64), (128, 32)]),
])
def test_oled_drivers_put_the_frame_where_luma_s_own_display_does(driver, luma_class, model_class, sizes):
    """The column offsets worked out here (not read from luma's private attributes) are luma's, size by size:
    luma's full-frame ``display`` and ours leave the very same RAM. (Unturned only: luma.oled before 3.16
    sends a turned SH1106 frame short; turned frames are checked against the model above and below.)"""
    rng = random.Random(7)
    for size in sizes:
        frame = random_frame(rng, size)
        theirs, ours = model_class(), model_class()
        luma_class(ModelSerial(theirs), width=size[0], height=size[1]).display(frame)
        oled.DRIVERS[driver](ModelSerial(ours), width=size[0], height=size[1]).display(frame)
        assert ours.ram == theirs.ram, size
        assert theirs.ram != model_class().ram  # the frame did land (the model starts with noise)


def test_oled_sh1106_takes_another_page_address_offset():
    """A panel wired to RAM column 0 (some 128-column SH1106 boards): the frame lands from column 0,
    after a reinit too."""
    model = SH1106()
    device = oled.sh1106(ModelSerial(model), page_address_offset=0)
    frame = random_frame(random.Random(3))
    device.display(frame)
    assert same(model.image(128, 64, 0), frame)
    device.reinit()
    device.display(frame)
    assert same(model.image(128, 64, 0), frame) and device.page_address_offset == 0


@pytest.mark.parametrize(("driver", "model_class", "offset"), CASES)
@pytest.mark.parametrize("rotation", [0, 1, 2, 3])
def test_oled_ram_is_the_frame_after_every_frame(driver, model_class, offset, rotation):
    device, serial, model = opened(driver, model_class, rotate=rotation)
    rng = random.Random(rotation)
    frame = random_frame(rng, device.size)
    for _ in range(12):
        device.display(frame)
        assert same(in_ram(model, device, offset), device.preprocess(frame))
        frame = edited(frame, rng)
    assert model.warnings == [] and model.on


@pytest.mark.parametrize(("driver", "model_class", "offset"), CASES)
def test_oled_unchanged_frame_sends_nothing(driver, model_class, offset):
    device, serial, model = opened(driver, model_class)
    frame = random_frame(random.Random(2))
    device.display(frame)
    serial.take()
    device.display(frame.copy())
    assert serial.take() == []


def test_oled_ssd1306_one_pixel_is_one_byte_in_a_one_byte_window():
    device, serial, model = opened("ssd1306", SSD1306)
    frame = Image.new("1", (128, 64))
    device.display(frame)
    serial.take()
    frame.putpixel((37, 21), 1)  # page 2, bit 5
    device.display(frame)
    assert serial.take() == [("command", bytes([0x21, 37, 37, 0x22, 2, 2])), ("data", b"\x20")]


def test_oled_sh1106_one_pixel_is_one_byte_at_the_offset_column():
    device, serial, model = opened("sh1106", SH1106)
    frame = Image.new("1", (128, 64))
    device.display(frame)
    serial.take()
    frame.putpixel((37, 63), 1)  # page 7, bit 7; RAM column 39 = 0x27
    device.display(frame)
    assert serial.take() == [("command", bytes([0xB7, 0x07, 0x12])), ("data", b"\x80")]


def test_oled_ssd1306_a_block_over_pages_goes_in_one_window():
    device, serial, model = opened("ssd1306", SSD1306)
    frame = Image.new("1", (128, 64))
    device.display(frame)
    serial.take()
    ImageDraw.Draw(frame).rectangle((10, 8, 49, 31), fill=1)  # pages 1-3, columns 10-49
    device.display(frame)
    assert serial.take() == [("command", bytes([0x21, 10, 49, 0x22, 1, 3])), ("data", b"\xFF" * 120)]


def test_oled_far_apart_changes_go_in_separate_windows():
    device, serial, model = opened("ssd1306", SSD1306)
    frame = Image.new("1", (128, 64))
    device.display(frame)
    serial.take()
    frame.putpixel((0, 0), 1)
    frame.putpixel((127, 63), 1)
    device.display(frame)
    assert serial.take() == [
        ("command", bytes([0x21, 0, 0, 0x22, 0, 0])), ("data", b"\x01"),
        ("command", bytes([0x21, 127, 127, 0x22, 7, 7])), ("data", b"\x80"),
    ]


def test_oled_first_frame_after_start_is_whole():
    device, serial, model = opened("ssd1306", SSD1306)
    device.display(Image.new("1", (128, 64)))  # the same blank luma's init sent: still sent whole
    assert serial.take() == [("command", bytes([0x21, 0, 127, 0x22, 0, 7])), ("data", bytes(1024))]


@pytest.mark.parametrize(("driver", "model_class", "offset"), CASES)
def test_oled_write_that_fails_midway_makes_the_next_frame_whole(driver, model_class, offset):
    device, serial, model = opened(driver, model_class)
    rng = random.Random(4)
    frame = random_frame(rng)
    device.display(frame)
    serial.fail_after = 40  # the bus dies 40 bytes into the next frame
    with pytest.raises(DeviceNotFoundError):
        device.display(random_frame(rng))
    serial.take()
    device.display(frame)  # what the RAM held before: only a whole frame puts it right
    assert sum(len(payload) for kind, payload in serial.take() if kind == "data") == 1024
    assert same(in_ram(model, device, offset), frame)


def test_oled_failed_command_also_forgets_the_ram():
    device, serial, model = opened("ssd1306", SSD1306)
    frame = random_frame(random.Random(5))
    device.display(frame)
    serial.unplugged = True
    with pytest.raises(DeviceNotFoundError):
        device.contrast(10)
    serial.unplugged = False
    serial.take()
    device.display(frame)
    assert serial.take()[0] == ("command", bytes([0x21, 0, 127, 0x22, 0, 7]))


@pytest.mark.parametrize(("driver", "model_class", "offset"), CASES)
def test_oled_luma_features_keep_working(driver, model_class, offset):
    device, serial, model = opened(driver, model_class, rotate=1)
    assert device.size == (64, 128) and device.bounding_box == (0, 0, 63, 127)
    device.contrast(0x33)
    assert model.contrast == 0x33
    frame = random_frame(random.Random(6), device.size)
    device.display(frame)
    device.hide()
    assert not model.on
    model.ram[3][offset + 5] ^= 0xFF  # something scribbled while the panel was off
    device.show()
    assert model.on
    device.display(frame)  # after show, the whole frame again
    assert same(in_ram(model, device, offset), device.preprocess(frame))
    device.persist = True
    device.cleanup()
    assert model.on and serial.cleaned  # persist: left on, bus released


@pytest.mark.parametrize(("driver", "model_class", "offset"), CASES)
def test_oled_reinit_sets_a_power_cycled_panel_up_again(driver, model_class, offset):
    device, serial, model = opened(driver, model_class)
    device.persist = True
    frame = random_frame(random.Random(7))
    device.display(frame)
    model.power_cycle(seed=8)  # page addressing, panel off, noise in RAM
    device.reinit()
    device.display(frame)
    assert model.on and device.persist
    assert same(in_ram(model, device, offset), frame)
    if model_class is SSD1306:
        assert model.mode == HORIZONTAL and model.warnings == []


def test_oled_wrong_frame_is_a_value_error():
    device, serial, model = opened("ssd1306", SSD1306)
    with pytest.raises(ValueError, match="frame is RGB 128x64"):
        device.display(Image.new("RGB", (128, 64)))
    with pytest.raises(ValueError, match="frame is 1 64x32"):
        device.display(Image.new("1", (64, 32)))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(CASES), st.integers(0, 2**32 - 1), st.integers(1, 6), st.integers(0, 64))
def test_oled_any_sequence_of_edits_keeps_ram_equal_to_the_frame(case, seed, steps, cost):
    driver, model_class, offset = case
    device, serial, model = opened(driver, model_class)
    device.window_cost = cost  # whatever the merging threshold, nothing may be missed
    rng = random.Random(seed)
    frame = random_frame(rng) if rng.random() < 0.5 else Image.new("1", (128, 64))
    for _ in range(steps):
        device.display(frame)
        assert same(in_ram(model, device, offset), frame)
        frame = edited(frame, rng)
    assert model.warnings == []


@pytest.mark.parametrize("rotation", [0, 2])
def test_oled_128x32_ram_is_the_frame_after_every_frame(rotation):
    """The 0.91-inch module: four RAM pages, windows never reach past the last, luma's set-up fits the panel."""
    model = SSD1306(rows=32)
    serial = ModelSerial(model)
    device = oled.ssd1306(serial, width=128, height=32, rotate=rotation)
    assert model.warnings == []
    rng = random.Random(32 + rotation)
    frame = random_frame(rng, (128, 32))
    for _ in range(12):
        device.display(frame)
        assert same(model.image(), device.preprocess(frame))
        frame = edited(frame, rng)
    assert model.warnings == [] and model.on
    serial.take()
    blank = Image.new("1", (128, 32))
    device.display(blank)
    bottom = blank.copy()
    bottom.putpixel((127, 31) if rotation == 0 else (0, 0), 1)
    serial.take()
    device.display(bottom)
    assert serial.take() == [("command", bytes([0x21, 127, 127, 0x22, 3, 3])), ("data", b"\x80")]
