"""Draw the wiring diagram (``docs/wiring.png``) from the default pin map.

    python -m firmware.devtools.diagram docs/wiring.png

Everything drawn comes from ``ButtonPins()`` and ``DisplayConfig()`` and
the header map gpiozero gives (``hw.header``), so the picture cannot disagree with
the code; a test compares the committed PNG with a fresh render, pixel for
pixel. Drawn with the repo's bitmap fonts, then doubled, so it stays crisp.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from PIL import Image, ImageDraw

from firmware.config import ButtonPins, DisplayConfig
from firmware.config.models import SUGGESTED_BUZZER, SUGGESTED_LIGHTS
from hw.header import HEADER, physical_pin
from hw import fonts

SCALE = 2
WIDTH, HEIGHT = 660, 716

WHITE = (255, 255, 255)
INK = (0, 0, 0)
GREY = (150, 150, 150)
BOARD = (226, 238, 226)
COLOURS = {
    "3V3": (200, 30, 30),
    "GND": (0, 0, 0),
    "SDA": (20, 90, 210),
    "SCL": (215, 130, 0),
    "BUTTON": (0, 130, 60),
    "OPTION": (150, 60, 170),  # the optional lamps and buzzer (suggested pins)
}

ROW = 16  # header row pitch
TOP = 88  # y of header row 1
CX = 330  # header centre line

#: Alternate functions worth naming on the header (BCM GPIO -> name).
PIN_NAMES = {2: "SDA", 3: "SCL", 7: "CE1", 8: "CE0", 9: "MISO", 10: "MOSI", 11: "SCLK", 14: "TXD", 15: "RXD"}


@dataclass(frozen=True)
class Wire:
    """One wire: from a part's terminal to a header pin."""

    part: str       # "ROLL", "OLED" ...
    terminal: str   # "GPIO", "GND", "VCC", "SDA" ...
    pin: int        # physical header pin, 1..40
    colour: str     # key of COLOURS


def wires(buttons: ButtonPins | None = None) -> tuple[Wire, ...]:
    """Every wire of the default I2C build: the OLED's four, and two per button.

    >>> [w.pin for w in wires() if w.part == "ROLL"]
    [29, 39]
    """
    buttons = buttons or ButtonPins()
    result = [  # in the order of the terminals drawn on the module, so no wires cross
        Wire("OLED", "GND", 6, "GND"),
        Wire("OLED", "VCC", 1, "3V3"),
        Wire("OLED", "SDA", physical_pin(2), "SDA"),
        Wire("OLED", "SCL", physical_pin(3), "SCL"),
    ]
    pins = {name: physical_pin(gpio) for name, gpio in buttons.pins().items()}
    for name, pin in pins.items():
        column = [p for p in pins.values() if p % 2 == pin % 2]
        result += [Wire(name, "GPIO", pin, "BUTTON"), Wire(name, "GND", _nearest_ground(column), "GND")]
    return tuple(result)


def _nearest_ground(column: list[int]) -> int:
    """The ground pin in the header column of ``column``'s pins, closest to the nearest of them.

    All the buttons on one side share it through one ground wire.
    """
    grounds = [p for p, what in HEADER.items() if what == "GND" and p % 2 == column[0] % 2]
    return min(grounds, key=lambda g: (min(abs(g - p) for p in column), -g))


def spi_rows(display: DisplayConfig | None = None) -> tuple[tuple[str, str, str], ...]:
    """(display pin, header pin, what it is) for an SPI display, from the display defaults."""
    display = display or DisplayConfig()
    cs_gpio = 8 if display.spi_device == 0 else 7
    return (
        ("VCC", "1", "3V3 power"),
        ("GND", "6", "ground"),
        ("D0 / SCK / CLK", str(physical_pin(11)), "GPIO11, SPI0 SCLK"),
        ("D1 / MOSI / SDA", str(physical_pin(10)), "GPIO10, SPI0 MOSI"),
        ("CS", str(physical_pin(cs_gpio)), f"GPIO{cs_gpio}, SPI0 CE{display.spi_device}  (spi_device = {display.spi_device})"),
        ("DC", str(physical_pin(display.gpio_dc)), f"GPIO{display.gpio_dc}  (gpio_dc = {display.gpio_dc})"),
        ("RES / RST", str(physical_pin(display.gpio_reset)), f"GPIO{display.gpio_reset}  (gpio_reset = {display.gpio_reset})"),
    )


def option_rows() -> tuple[tuple[str, str, str], ...]:
    """(part, header pin, GPIO) of the optional lamps ([lights]) and buzzer ([sound]), at the suggested pins.

    >>> option_rows()[0]
    ('ROLL lamp (+), [lights] roll', '11', 'GPIO17')
    """
    rows = [(f"{name} lamp (+), [lights] {name.lower()}", str(physical_pin(gpio)), f"GPIO{gpio}")
            for name, gpio in SUGGESTED_LIGHTS.pins().items()]
    rows.append(("buzzer (+), [sound] pin", str(physical_pin(SUGGESTED_BUZZER)), f"GPIO{SUGGESTED_BUZZER}"))
    return tuple(rows)


def pin_label(pin: int) -> str:
    """What a header pin is: "GPIO5", "GPIO2 SDA", "GND", "3V3"."""
    what = HEADER[pin]
    if isinstance(what, str):
        return what
    return f"GPIO{what} {PIN_NAMES[what]}" if what in PIN_NAMES else f"GPIO{what}"


def _row_y(pin: int) -> int:
    return TOP + ((pin - 1) // 2) * ROW


class _Canvas:
    def __init__(self) -> None:
        self.image = Image.new("RGB", (WIDTH, HEIGHT), WHITE)
        self.draw = ImageDraw.Draw(self.image)
        self.font = fonts.load("medium")
        self.big = fonts.load("large")
        self.cw, self.ch = fonts.CELLS["medium"]

    def text(self, x: int, y: int, text: str, fill=INK, *, font=None, anchor: str = "l") -> int:
        """Text vertically centred on y; anchor l/r/c on x. Returns the right edge."""
        font = font or self.font
        w = len(text) * (fonts.CELLS["large"][0] if font is self.big else self.cw)
        h = fonts.CELLS["large"][1] if font is self.big else self.ch
        left = {"l": x, "r": x - w, "c": x - w // 2}[anchor]
        self.draw.text((left, y - h // 2), text, font=font, fill=fill)
        return left + w

    def path(self, points, colour: str) -> None:
        self.draw.line(points, fill=COLOURS[colour], width=2, joint=None)


LEFT_LABEL_X, RIGHT_LABEL_X = CX - 36, CX + 36
BUTTON_W = 40


def render(buttons: ButtonPins | None = None, display: DisplayConfig | None = None) -> Image.Image:
    """The wiring diagram as an RGB image (deterministic: same pins, same pixels)."""
    buttons = buttons or ButtonPins()
    c = _Canvas()
    all_wires = wires(buttons)
    c.text(WIDTH // 2, 14, "Can't Stop box: default wiring", font=c.big, anchor="c")
    c.text(WIDTH // 2, 34, "Raspberry Pi 40-pin header from above; pin 1 (square pad, SD-card end) at the top.",
           anchor="c")
    c.text(WIDTH // 2, 48, "Boxed numbers are physical pins; config.toml uses the GPIO (BCM) numbers.", anchor="c")
    _header(c, all_wires)
    edges = {p: LEFT_LABEL_X - len(pin_label(p)) * c.cw - 4 for p in HEADER if p % 2}
    edges |= {p: RIGHT_LABEL_X + len(pin_label(p)) * c.cw + 4 for p in HEADER if not p % 2}
    _oled(c, [w for w in all_wires if w.part == "OLED"], edges)
    _buttons(c, buttons, all_wires, edges)
    _spi_table(c, display)
    c.draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), outline=GREY)
    return c.image.resize((WIDTH * SCALE, HEIGHT * SCALE), Image.Resampling.NEAREST)


def _header(c: _Canvas, all_wires) -> None:
    """The 40 pins, coloured where a wire goes, each labelled with its GPIO or power name."""
    used = {w.pin: w for w in all_wires if w.terminal != "GND" or w.part == "OLED"}
    used |= {int(pin): Wire(part, "GPIO", int(pin), "OPTION") for part, pin, _ in option_rows()}
    grounds = {w.pin for w in all_wires if w.terminal == "GND"}
    c.draw.rectangle((CX - 30, TOP - 12, CX + 30, _row_y(40) + 12), fill=BOARD, outline=GREY)
    for pin in HEADER:
        y = _row_y(pin)
        left = pin % 2 == 1
        x0 = CX - 26 if left else CX + 4
        wire = used.get(pin)
        active = wire is not None or pin in grounds
        colour = COLOURS[wire.colour] if wire else (INK if active else GREY)
        c.draw.rectangle((x0, y - 6, x0 + 22, y + 6), fill=colour if active else WHITE, outline=colour)
        c.text(x0 + 11, y, str(pin), fill=WHITE if active else GREY, anchor="c")
        label = pin_label(pin)
        if left:
            c.text(LEFT_LABEL_X, y, label, fill=INK if active else GREY, anchor="r")
        else:
            c.text(RIGHT_LABEL_X, y, label, fill=INK if active else GREY)


def _oled(c: _Canvas, oled, edges) -> None:
    """The display, top left, and its four wires to the header."""
    ox, oy = 24, TOP - 8
    c.draw.rectangle((ox, oy, ox + 112, oy + 76), outline=INK, width=2)
    c.draw.rectangle((ox + 10, oy + 22, ox + 70, oy + 66), fill=INK)
    c.text(ox + 40, oy + 11, "128x64 OLED", anchor="c")
    c.text(ox + 40, oy + 44, "I2C", fill=WHITE, anchor="c")
    bus_x = [LEFT_LABEL_X - 104, LEFT_LABEL_X - 98, LEFT_LABEL_X - 92, LEFT_LABEL_X - 86]
    for i, w in enumerate(oled):
        ty = oy + 14 + i * 16
        c.text(ox + 108, ty, w.terminal, anchor="r")
        start = (ox + 114, ty)
        if w.pin % 2:  # left column: across, down to the row, into the label
            c.path([start, (bus_x[i], ty), (bus_x[i], _row_y(w.pin)), (edges[w.pin], _row_y(w.pin))], w.colour)
        else:  # right column: over the top of the header, down the far side
            over_y, far_x = TOP - 22, edges[w.pin] + 14
            c.path([start, (bus_x[i], ty), (bus_x[i], over_y), (far_x, over_y), (far_x, _row_y(w.pin)),
                    (edges[w.pin], _row_y(w.pin))], w.colour)


def _button(c: _Canvas, x: int, y: int, name: str) -> None:
    c.draw.rectangle((x, y - 7, x + BUTTON_W, y + 7), fill=WHITE, outline=INK, width=2)
    c.text(x + BUTTON_W // 2, y, name, anchor="c")


def _buttons(c: _Canvas, buttons: ButtonPins, all_wires, edges) -> None:
    """Each button beside its GPIO's row, with one ground wire per side."""
    pins = buttons.pins()
    left_buttons = [n for n in pins if physical_pin(pins[n]) % 2]
    right_buttons = [n for n in pins if n not in left_buttons]

    def wire(name: str, terminal: str) -> Wire:
        return next(w for w in all_wires if w.part == name and w.terminal == terminal)

    gnd_bus_x = 24
    left_ground = 0
    for name in left_buttons:
        sig, gnd = wire(name, "GPIO"), wire(name, "GND")
        y, bx = _row_y(sig.pin), LEFT_LABEL_X - 150
        _button(c, bx, y, name)
        c.path([(bx + BUTTON_W, y), (edges[sig.pin], y)], "BUTTON")
        c.path([(bx, y), (gnd_bus_x, y)], "GND")
        left_ground = gnd.pin
    if left_buttons:
        ys = [_row_y(physical_pin(pins[n])) for n in left_buttons]
        gy = _row_y(left_ground)
        c.path([(gnd_bus_x, min(ys + [gy])), (gnd_bus_x, max(ys + [gy]))], "GND")
        c.path([(gnd_bus_x, gy), (edges[left_ground], gy)], "GND")
    for name in right_buttons:
        sig, gnd = wire(name, "GPIO"), wire(name, "GND")
        y, bx = _row_y(sig.pin), RIGHT_LABEL_X + 84
        _button(c, bx, y, name)
        c.path([(edges[sig.pin], y), (bx, y)], "BUTTON")
        far = bx + BUTTON_W + 12
        c.path([(bx + BUTTON_W, y), (far, y), (far, _row_y(gnd.pin)), (edges[gnd.pin], _row_y(gnd.pin))], "GND")
    for i, line in enumerate(("Each button: one leg to its GPIO,", "the other to ground (the buttons",
                              "share one ground wire per side).", "No resistors: the Pi pulls up.")):
        c.text(24, _row_y(13) + i * 14, line)


def _spi_table(c: _Canvas, display: DisplayConfig | None) -> None:
    """The seven wires of an SPI display, as a table under the picture."""
    ty = _row_y(40) + 34
    c.text(24, ty, 'SPI display instead (interface = "spi" in [display]): 7 wires', font=c.big)
    ty += 20
    cols = (24, 180, 250)
    for x, head in zip(cols, ("Display pin", "Header pin", "Pi signal")):
        c.text(x, ty, head)
    c.draw.line((24, ty + 8, WIDTH - 24, ty + 8), fill=INK)
    for row in spi_rows(display):
        ty += 14
        for x, cell in zip(cols, row):
            c.text(x, ty, cell)
    _options_table(c, ty + 30)


def _options_table(c: _Canvas, ty: int) -> None:
    """The optional lamps and buzzer (purple on the header), each from its GPIO through a resistor to ground."""
    c.text(24, ty, "Optional: button lamps and a buzzer (suggested pins, purple)", font=c.big)
    ty += 14
    c.text(24, ty, "each + to its GPIO (a lamp via 330 ohm or a transistor), each - to any GND")
    ty += 16
    cols = (24, 300, 370)
    for x, head in zip(cols, ("Part, config key", "Header pin", "Pi signal")):
        c.text(x, ty, head)
    c.draw.line((24, ty + 8, WIDTH - 24, ty + 8), fill=INK)
    for row in option_rows():
        ty += 14
        for x, cell in zip(cols, row):
            c.text(x, ty, cell, fill=COLOURS["OPTION"] if x == cols[0] else INK)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m firmware.devtools.diagram OUTPUT.png", file=sys.stderr)
        return 2
    render().save(args[0], optimize=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
