"""FakeDisplay records frames and can play an unplugged display."""

from __future__ import annotations

import pytest
from PIL import Image

from hw.display import Display
from hw.errors import DisplayError
from hw.fakes import FakeDisplay


def test_fakes_display_records_copies_of_frames():
    display = FakeDisplay()
    assert isinstance(display, Display)
    assert display.last is None
    frame = Image.new("1", (128, 64))
    display.show(frame)
    frame.putpixel((0, 0), 1)  # the caller reuses its buffer
    display.show(frame)
    assert display.show_calls == 2
    assert display.frames[0].getbbox() is None
    assert display.last.getpixel((0, 0))


def test_fakes_display_unplugged_raises_display_error():
    display = FakeDisplay()
    display.fail = True
    with pytest.raises(DisplayError):
        display.show(Image.new("1", (128, 64)))
    assert display.show_calls == 1 and display.frames == []
    display.fail = "no SSD1306 display answers on I2C bus 1 at address 0x3C"
    with pytest.raises(DisplayError, match="answers on I2C"):
        display.clear()


def test_fakes_display_clear_and_close():
    display = FakeDisplay()
    display.clear()
    display.close()
    assert display.last.getbbox() is None and display.closed
