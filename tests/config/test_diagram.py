"""firmware.devtools.diagram: the diagram is drawn from the config defaults and the committed PNG is current."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageChops

from firmware.devtools import diagram
from firmware.config import ButtonPins, DisplayConfig
from hw.header import HEADER, physical_pin

REPO = Path(__file__).resolve().parents[2]
PNG = REPO / "docs" / "wiring.png"


def same_pixels(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is None


def test_wiring_committed_png_equals_a_fresh_render():
    with Image.open(PNG) as committed:
        assert same_pixels(committed, diagram.render()), "docs/wiring.png is stale: python -m firmware.devtools.diagram docs/wiring.png"


def test_wiring_header_map_is_the_pi_40_pin_header():
    assert sorted(HEADER) == list(range(1, 41))
    assert sorted(v for v in HEADER.values() if isinstance(v, int)) == list(range(28))
    assert [p for p, v in HEADER.items() if v == "GND"] == [6, 9, 14, 20, 25, 30, 34, 39]
    assert (HEADER[1], HEADER[17], HEADER[2], HEADER[4]) == ("3V3", "3V3", "5V", "5V")


def test_wiring_every_default_button_pin_is_in_the_label_data():
    wires = diagram.wires()
    for name, gpio in ButtonPins().pins().items():
        signal = [w for w in wires if w.part == name and w.terminal == "GPIO"]
        ground = [w for w in wires if w.part == name and w.terminal == "GND"]
        assert [w.pin for w in signal] == [physical_pin(gpio)], name
        assert len(ground) == 1 and HEADER[ground[0].pin] == "GND", name
        assert diagram.pin_label(physical_pin(gpio)) == f"GPIO{gpio}"
    assert {w.pin for w in wires if w.terminal == "GPIO"} == {29, 31, 33, 35, 37, 36}
    assert {w.pin for w in wires if w.terminal == "GND" and w.part != "OLED"} == {39, 34}


def test_wiring_oled_goes_to_pins_1_6_3_5():
    oled = {w.terminal: w.pin for w in diagram.wires() if w.part == "OLED"}
    assert oled == {"VCC": 1, "GND": 6, "SDA": 3, "SCL": 5}
    assert diagram.pin_label(3) == "GPIO2 SDA" and diagram.pin_label(5) == "GPIO3 SCL"


def test_wiring_spi_table_follows_the_display_config():
    rows = {r[0]: r for r in diagram.spi_rows()}
    d = DisplayConfig()
    assert rows["DC"][1] == str(physical_pin(d.gpio_dc)) == "18"
    assert rows["RES / RST"][1] == str(physical_pin(d.gpio_reset)) == "22"
    assert rows["CS"][1] == "24" and rows["D0 / SCK / CLK"][1] == "23" and rows["D1 / MOSI / SDA"][1] == "19"
    other = {r[0]: r for r in diagram.spi_rows(DisplayConfig(spi_device=1, gpio_dc=23, gpio_reset=27))}
    assert (other["CS"][1], other["DC"][1], other["RES / RST"][1]) == ("26", "16", "13")


def test_wiring_picture_changes_with_the_pin_map():
    moved = ButtonPins(roll=17)
    assert [w.pin for w in diagram.wires(moved) if w.part == "ROLL"][0] == 11
    assert not same_pixels(diagram.render(moved), diagram.render())
    assert same_pixels(diagram.render(), diagram.render())


def test_wiring_main_writes_the_png(tmp_path):
    out = tmp_path / "w.png"
    assert diagram.main([str(out)]) == 0
    with Image.open(out) as written:
        assert written.size == (diagram.WIDTH * diagram.SCALE, diagram.HEIGHT * diagram.SCALE)
        assert same_pixels(written, diagram.render())
    assert diagram.main([]) == 2
