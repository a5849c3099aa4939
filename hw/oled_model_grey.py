"""A model of the SSD1322 (4-bit grey) controller, fed the bytes a luma serial interface receives.

For tests and the benchmark, beside :mod:`hw.oled_model` (whose
``ModelSerial`` wires it to a driver): the SSD1322 as its datasheet describes
the parts luma's ``ssd1322`` uses.

- RAM: 480 x 128 pixels of 4 bits, written through 120 *column addresses* of
  4 pixels (two bytes) each; a byte holds two pixels, the left one in its high
  nibble (the nibble order luma's init selects with remap 0xA0 0x14).
- A command is one byte with D/C low; its arguments follow as *data* bytes
  (that is how the SSD1322 takes them, and how luma sends them).
- The window: 0x15 (first, last column address), 0x75 (first, last row);
  0x5C starts writing RAM at the window's top-left: every data byte after it
  lands at the pointer, two bytes a column address, left to right, then the
  next row; past the window's last row it wraps to its first (horizontal
  address increment, as the remap leaves it).
- Display state: on/off (0xAF/0xAE), contrast (0xC1), the display mode (0xA4
  all off, 0xA5 all on, 0xA6 normal, 0xA7 inverse); the other set-up commands
  luma sends are kept with their arguments and change nothing here.

A 256-pixel panel sits in the middle of the 480-pixel RAM: luma's column
offset is (480 - 256) / 2 = 112 pixels, column address 28. Data with no
write under way, a command the model does not know, or a remap other than
luma's is noted in ``warnings``, so a test can insist on a clean conversation.
``image()`` reads the RAM back by the controller's own layout (independent of
the driver's packing), each 4-bit level n as the grey n x 17.
"""

from __future__ import annotations

import random

from PIL import Image

COLUMNS, ROWS = 480, 128  # RAM pixels
#: command byte -> number of argument bytes (sent as data) for the commands luma's ssd1322 uses
ARGUMENTS = {0xFD: 1, 0xB3: 1, 0xCA: 1, 0xA2: 1, 0xA1: 1, 0xA0: 2, 0xB5: 1, 0xAB: 1, 0xB4: 2, 0xC7: 1,
             0xB1: 1, 0xD1: 2, 0xBB: 1, 0xB6: 1, 0xBE: 1, 0xC1: 1, 0x15: 2, 0x75: 2, 0xB8: 15}
LUMA_REMAP = (0x14, 0x11)  # nibble remap on, COM scan remapped, dual COM: the pixel order modelled here
NO_ARGUMENTS = {0xA4, 0xA5, 0xA6, 0xA7, 0xA9, 0xAE, 0xAF, 0xB9, 0x5C}


#: A RAM byte to the grey (0..255) of its even pixel (high nibble) and of its odd one (low nibble).
_HIGH = bytes((b >> 4) * 17 for b in range(256))
_LOW = bytes((b & 0x0F) * 17 for b in range(256))


class SSD1322:
    """The SSD1322's RAM, write window and display state."""

    def __init__(self) -> None:
        self.power_cycle(seed=0)

    def power_cycle(self, seed: int | None = None) -> None:
        """Power lost and back: RAM holds noise, every register its reset value."""
        rng = random.Random(seed)
        self.ram = [bytearray(rng.randbytes(COLUMNS // 2)) for _ in range(ROWS)]  # per row, two pixels a byte
        self.window = (0, COLUMNS // 4 - 1, 0, ROWS - 1)  # first/last column address, first/last row
        self.column, self.row, self.byte = 0, 0, 0  # the write pointer: column address, row, byte of it
        self.on = False
        self.contrast = 0x7F
        self.display_mode = 0xA6
        self.settings: dict[int, tuple[int, ...]] = {}
        self.warnings: list[str] = []
        self._command: int | None = None  # the command whose arguments are arriving
        self._args: list[int] = []
        self._writing = False

    # -- the bus ------------------------------------------------------------------

    def command(self, payload) -> None:
        """Command bytes (D/C low): each starts a command; its arguments come as data."""
        for byte in bytes(payload):
            if self._command is not None:
                self.warnings.append(f"0x{byte:02X} arrived before 0x{self._command:02X} had its arguments")
            self._command, self._args, self._writing = None, [], False
            if byte in ARGUMENTS:
                self._command = byte
            elif byte in NO_ARGUMENTS:
                self._execute(byte, ())
            else:
                self.warnings.append(f"unknown command 0x{byte:02X}")

    def data(self, payload) -> None:
        """Data bytes (D/C high): a pending command's arguments, or pixels when writing RAM."""
        for byte in bytes(payload):
            if self._command is not None:
                self._args.append(byte)
                if len(self._args) == ARGUMENTS[self._command]:
                    command, self._command = self._command, None
                    self._execute(command, tuple(self._args))
            elif self._writing:
                self._write(byte)
            else:
                self.warnings.append("data with no command or write under way")

    # -- reading back ---------------------------------------------------------------

    def level(self, x: int, y: int) -> int:
        """The 4-bit level of RAM pixel (x, y)."""
        byte = self.ram[y][x // 2]
        return byte >> 4 if x % 2 == 0 else byte & 0x0F

    def image(self, width: int = 256, height: int = 64, offset: int = (COLUMNS - 256) // 2) -> Image.Image:
        """The RAM under a ``width`` x ``height`` panel whose first pixel is RAM column ``offset``, as grey.

        Pixel (x, y) is :meth:`level` (x + offset, y) times 17; built a row at a time (the
        high nibbles are the even pixels, the low the odd), not a pixel at a time.
        """
        picture = bytearray()
        for y in range(height):
            packed = bytes(self.ram[y])
            row = bytearray(2 * len(packed))
            row[0::2] = packed.translate(_HIGH)
            row[1::2] = packed.translate(_LOW)
            picture += row[offset:offset + width]
        return Image.frombytes("L", (width, height), bytes(picture))

    # -- the decoder ----------------------------------------------------------------

    def _execute(self, cmd: int, args: tuple[int, ...]) -> None:
        if cmd == 0x15:
            first, last = args[0] & 0x7F, args[1] & 0x7F
            if not first <= last < COLUMNS // 4:
                self.warnings.append(f"column window {first}..{last} outside 0..{COLUMNS // 4 - 1}")
            self.window = (first, last, *self.window[2:])
        elif cmd == 0x75:
            first, last = args[0] & 0x7F, args[1] & 0x7F
            if first > last:
                self.warnings.append(f"row window {first}..{last} runs backwards")
            self.window = (*self.window[:2], first, last)
        elif cmd == 0x5C:
            self.column, self.row, self.byte = self.window[0], self.window[2], 0
            self._writing = True
        elif cmd in (0xAE, 0xAF):
            self.on = cmd == 0xAF
        elif cmd in (0xA4, 0xA5, 0xA6, 0xA7):
            self.display_mode = cmd
        elif cmd == 0xC1:
            self.contrast = args[0]
        else:
            if cmd == 0xA0 and args != LUMA_REMAP:
                self.warnings.append(f"remap {args} is not the one modelled ({LUMA_REMAP})")
            self.settings[cmd] = args

    def _write(self, byte: int) -> None:
        """One data byte at the pointer (two pixels), then the pointer moves on within the window."""
        if self.column < COLUMNS // 4 and self.row < ROWS:
            self.ram[self.row][self.column * 2 + self.byte] = byte
        first_col, last_col, first_row, last_row = self.window
        self.byte += 1
        if self.byte == 2:
            self.byte = 0
            self.column += 1
            if self.column > last_col:
                self.column = first_col
                self.row = self.row + 1 if self.row < last_row else first_row
