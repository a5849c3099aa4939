"""A model of the SSD1306 and SH1106 controllers, fed the bytes a luma serial interface receives.

For tests and the benchmark: ``ModelSerial`` stands where luma's ``i2c`` or
``spi`` object would, records every ``command``/``data`` call, and plays the
bytes into an ``SSD1306`` or ``SH1106`` model that keeps the display RAM and
the addressing state as the datasheets describe them:

- SSD1306 (also SSD1309): 128 columns x 8 pages; page, horizontal and vertical
  addressing (0x20), the column/page window (0x21, 0x22) with its wrap-around,
  page-mode start column (0x00-0x1F) and page (0xB0-0xB7), start line,
  contrast, on/off, inverse, entire-display-on, and the set-up commands luma
  sends (their values are kept but change nothing here);
- SH1106: 132 columns x 8 pages, page addressing only.

A model is of a controller on a panel: ``rows`` is how many rows the panel
has (64, or 32 on the 0.91-inch SSD1306 modules, whose glass is wired to the
controller's even COM pins, in sequence). The multiplex ratio (0xA8) and the
COM pins configuration (0xDA) must match it, or the glass would show half the
frame or every other row: either mismatch is a warning.

Anything the model does not know, or a command that has no effect in the
current addressing mode, changes nothing and is noted in ``warnings``, so a
test can insist on a clean conversation. ``image()`` reads the RAM back by
the controller's own layout (deliberately independent of the drivers' packing).
"""

from __future__ import annotations

import random

from luma.core.error import DeviceNotFoundError
from PIL import Image

PAGE, HORIZONTAL, VERTICAL = "page", "horizontal", "vertical"


#: For each bit 0..7: a RAM byte to 255 where that bit (that row of its page) is lit, else 0.
_LIT = [bytes(255 if b >> bit & 1 else 0 for b in range(256)) for bit in range(8)]


class Controller:
    """What the two controllers share: RAM, the command decoder, display state."""

    columns = 128
    pages = 8
    #: command byte -> number of argument bytes, for commands that only set up the panel
    setup_args: dict[int, int] = {}
    #: the panel's rows -> the COM pins configuration (0xDA) its wiring needs
    COM_PINS = {64: 0x12, 32: 0x02}

    def __init__(self, rows: int = 64) -> None:
        if rows not in self.COM_PINS:
            raise ValueError(f"no {type(self).__name__} panel has {rows} rows")
        self.rows = rows
        self.power_cycle(seed=0)

    def power_cycle(self, seed: int | None = None) -> None:
        """Power lost and back: RAM holds noise, every register its reset value."""
        rng = random.Random(seed)
        self.ram = [bytearray(rng.randbytes(self.columns)) for _ in range(self.pages)]
        self.mode = PAGE
        self.column = 0
        self.page = 0
        self.page_mode_column = 0  # the column page mode wraps back to
        self.on = False
        self.contrast = 0x7F
        self.inverted = False
        self.entire_on = False
        self.start_line = 0
        self.settings: dict[int, tuple[int, ...]] = {}
        self.warnings: list[str] = []
        self._pending: list[int] = []
        self._needed = 0

    # -- the bus ------------------------------------------------------------------

    def command(self, payload) -> None:
        """Command bytes (D/C low, or I2C control byte 0x00); an argument may follow in a later call."""
        for byte in bytes(payload):
            if self._needed:
                self._pending.append(byte)
                self._needed -= 1
                if not self._needed:
                    self._execute(self._pending[0], tuple(self._pending[1:]))
                continue
            count = self._arguments(byte)
            if count:
                self._pending, self._needed = [byte], count
            else:
                self._execute(byte, ())

    def data(self, payload) -> None:
        """Display data bytes: each goes to RAM at the pointer, which then moves on."""
        for byte in bytes(payload):
            if self.column >= self.columns:  # only page addressing runs off the end
                self.warnings.append(f"page {self.page} written past its last column")
                self.column = self.page_mode_column
            self.ram[self.page][self.column] = byte
            self._advance()

    # -- reading back ---------------------------------------------------------------

    def image(self, width: int = 128, height: int | None = None, offset: int = 0) -> Image.Image:
        """The RAM as a 1-bit picture (the panel's rows by default): pixel (x, y) is bit y % 8 of column x + offset on page y // 8."""
        height = self.rows if height is None else height
        lit = bytearray()  # a byte a pixel, 0 or 255, built a row at a time
        for y in range(height):
            lit += bytes(self.ram[y // 8][offset:offset + width]).translate(_LIT[y % 8])
        return Image.frombytes("L", (width, height), bytes(lit)).convert("1")  # only 0 and 255: nothing to dither

    def glass(self, width: int = 128, height: int | None = None, offset: int = 0) -> Image.Image:
        """What the panel lights: off is dark, start line scrolls, inverse and entire-on apply."""
        height = self.rows if height is None else height
        if not self.on:
            return Image.new("1", (width, height))
        if self.entire_on:
            return Image.new("1", (width, height), 1)
        ram = self.image(width, self.pages * 8, offset)
        picture = Image.new("1", (width, height))
        for y in range(height):
            picture.paste(ram.crop((0, (y + self.start_line) % ram.height, width, (y + self.start_line) % ram.height + 1)), (0, y))
        if self.inverted:
            picture = picture.convert("L").point(lambda v: 255 - v).convert("1")
        return picture

    # -- the decoder ----------------------------------------------------------------

    def _arguments(self, byte: int) -> int:
        return {0x81: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}.get(byte, self.setup_args.get(byte, 0))

    def _execute(self, cmd: int, args: tuple[int, ...]) -> None:
        if 0x40 <= cmd <= 0x7F:
            self.start_line = cmd & 0x3F
        elif cmd == 0x81:
            self.contrast = args[0]
        elif cmd in (0xAE, 0xAF):
            self.on = cmd == 0xAF
        elif cmd in (0xA6, 0xA7):
            self.inverted = cmd == 0xA7
        elif cmd in (0xA4, 0xA5):
            self.entire_on = cmd == 0xA5
        elif cmd in (0xA0, 0xA1, 0xC0, 0xC8, 0xE3) or self._arguments(cmd):
            self.settings[cmd] = args  # remap, scan direction, clock, multiplex...: kept, no effect on RAM
            self._check_panel(cmd, args)
        elif not self._addressing(cmd, args):
            self.warnings.append(f"unknown command 0x{cmd:02X}")

    def _check_panel(self, cmd: int, args: tuple[int, ...]) -> None:
        """A multiplex ratio or COM pins configuration that does not fit the panel's rows is a warning."""
        if cmd == 0xA8 and (args[0] & 0x3F) + 1 != self.rows:
            self.warnings.append(f"multiplex of {(args[0] & 0x3F) + 1} rows on a {self.rows}-row panel")
        if cmd == 0xDA and args[0] & 0x32 != self.COM_PINS[self.rows]:
            self.warnings.append(f"COM pins 0x{args[0]:02X} on a {self.rows}-row panel (it needs 0x{self.COM_PINS[self.rows]:02X})")

    def _addressing(self, cmd: int, args: tuple[int, ...]) -> bool:
        """Page-mode addressing, common to both controllers; True if ``cmd`` was one."""
        if cmd <= 0x1F:
            self._page_mode_only(cmd)
            if cmd <= 0x0F:
                self.page_mode_column = (self.page_mode_column & 0xF0) | cmd
            else:
                self.page_mode_column = (self.page_mode_column & 0x0F) | (cmd & 0x0F) << 4
            if self.mode == PAGE:
                self.column = self.page_mode_column
            return True
        if 0xB0 <= cmd <= 0xB0 + self.pages - 1:
            self._page_mode_only(cmd)
            if self.mode == PAGE:
                self.page = cmd - 0xB0
            return True
        return False

    def _page_mode_only(self, cmd: int) -> None:
        if self.mode != PAGE:
            self.warnings.append(f"0x{cmd:02X} has no effect in {self.mode} addressing")

    def _advance(self) -> None:
        self.column += 1  # page addressing: past the last column it wraps (see ``data``)


class SSD1306(Controller):
    """The SSD1306 (and SSD1309): 128x64 RAM, three addressing modes and the window commands."""

    setup_args = {0x20: 1, 0x21: 2, 0x22: 2, 0x8D: 1, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0xA3: 2}

    def power_cycle(self, seed: int | None = None) -> None:
        super().power_cycle(seed)
        self.window = (0, self.columns - 1, 0, self.pages - 1)  # first/last column, first/last page

    def _execute(self, cmd: int, args: tuple[int, ...]) -> None:
        if cmd == 0x20:
            self.mode = {0: HORIZONTAL, 1: VERTICAL, 2: PAGE}.get(args[0] & 0x03)
            if self.mode is None:
                self.mode = PAGE
                self.warnings.append("0x20 0x03 is not an addressing mode")
        elif cmd in (0x21, 0x22):
            first, last = args[0], args[1]
            if self.mode == PAGE:
                self.warnings.append(f"0x{cmd:02X} has no effect in page addressing")
                return
            c0, c1, p0, p1 = self.window
            if cmd == 0x21:
                self.window = (first & 0x7F, last & 0x7F, p0, p1)
                self.column = first & 0x7F
            else:
                self.window = (c0, c1, first & 0x07, last & 0x07)
                self.page = first & 0x07
        elif cmd in (0x2E, 0x2F):
            self.settings[cmd] = ()
            if cmd == 0x2F:
                self.warnings.append("scrolling switched on")
        else:
            super()._execute(cmd, args)

    def _advance(self) -> None:
        if self.mode == PAGE:
            super()._advance()
            return
        c0, c1, p0, p1 = self.window
        if self.mode == HORIZONTAL:
            self.column += 1
            if self.column > c1:
                self.column = c0
                self.page = self.page + 1 if self.page < p1 else p0
        else:
            self.page += 1
            if self.page > p1:
                self.page = p0
                self.column = self.column + 1 if self.column < c1 else c0


class SH1106(Controller):
    """The SH1106: 132x64 RAM, page addressing only (a 128-wide panel shows columns 2..129)."""

    columns = 132
    setup_args = {0xAD: 1}

    def _execute(self, cmd: int, args: tuple[int, ...]) -> None:
        if 0x30 <= cmd <= 0x33:
            self.settings[0x30] = (cmd & 0x03,)  # pump voltage
        else:
            super()._execute(cmd, args)


class ModelSerial:
    """A luma serial interface wired to a controller model; records what arrives.

    ``calls`` holds ("command", bytes) and ("data", bytes) in order. Set
    ``unplugged`` to make every transfer fail as luma's I2C reports a missing
    device; set ``fail_after`` to N to let N more bytes through and then fail
    in the middle of a transfer (the bytes before the fault still land).
    """

    def __init__(self, controller: Controller) -> None:
        self.controller = controller
        self.calls: list[tuple[str, bytes]] = []
        self.unplugged = False
        self.fail_after: int | None = None
        self.cleaned = False

    def command(self, *cmd: int) -> None:
        self._send("command", bytes(cmd))

    def data(self, data) -> None:
        self._send("data", bytes(data))

    def cleanup(self) -> None:
        self.cleaned = True

    def take(self) -> list[tuple[str, bytes]]:
        """The calls so far, forgetting them."""
        calls, self.calls = self.calls, []
        return calls

    def _send(self, kind: str, payload: bytes) -> None:
        if self.unplugged:
            raise DeviceNotFoundError("I2C device not found on address: 0x3C")
        if self.fail_after is not None and len(payload) > self.fail_after:
            getattr(self.controller, kind)(payload[:self.fail_after])
            self.fail_after = None
            raise DeviceNotFoundError("I2C device not found on address: 0x3C")
        if self.fail_after is not None:
            self.fail_after -= len(payload)
        self.calls.append((kind, payload))
        getattr(self.controller, kind)(payload)
