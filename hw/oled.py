"""OLED drivers that send only the part of the frame that changed.

These are luma.oled's own ``ssd1306``, ``ssd1309`` and ``sh1106`` device
classes (subclasses: init sequence, contrast, hide/show, rotation, persist and
``cleanup`` are luma's) with one method replaced: ``display``. luma sends all
1,024 bytes of a 128x64 frame every time, after packing it in a Python loop
over 8,192 pixels; here the frame is packed by Pillow (one transpose and
``tobytes``) and compared with what the controller's RAM already holds, and
only the changed bytes go out:

- SSD1306/SSD1309 (horizontal addressing, as luma's init sets it): each
  changed rectangle of pages x columns through the column/page address window
  (commands 0x21 and 0x22), then its bytes in one data write;
- SH1106 (page addressing only): per changed run of a page, the page address
  (0xB0 + page) and the start column as two nibbles (with the panel's column
  offset, 2 on the usual 132-column RAM), then its bytes.

Changed runs closer than ``window_cost`` bytes are merged (setting up another
window costs about that much on the bus), and for SSD1306 adjacent pages are
merged into one window when that is cheaper.

The RAM copy is only trusted while nothing can have disturbed it: the whole
frame is sent after start-up (luma's init ends by switching the panel on),
after ``show()`` (panel on again), after ``invalidate()``, and after any
failed write (the copy is dropped *before* writing, so an exception leaves it
unknown). ``reinit()`` sends luma's init sequence again, for a panel that lost
power and with it its set-up.

The 256x64 grey SSD1322 (``ssd1322``) is luma's class too: luma already sends
only the changed bounding boxes there; it takes the box's grey frames (mode
"L") packed by Pillow instead of luma's loop, with the same rules for when
the next frame goes out whole (docs/display.md).

What these classes take from luma is its public face only (the constructor,
``command``/``data``, ``preprocess``, ``size``/``mode``/``persist``, the
documented ``framebuffer``); the controller facts luma keeps in private
attributes (RAM geometry, column offsets, the serial interface) are worked
out here, so the drivers behave the same on every luma.oled from the floor
in pyproject.toml up (docs/building.md, "Dependency floors").
"""

from __future__ import annotations

from luma.oled.device import sh1106 as _luma_sh1106
from luma.oled.device import ssd1306 as _luma_ssd1306
from luma.oled.device import ssd1309 as _luma_ssd1309
from luma.oled.device import ssd1322 as _luma_ssd1322
from PIL import Image

#: Bytes-equivalent cost of starting another write window: the address
#: commands and the extra bus transactions (two on I2C, each with an address
#: and control byte, plus the host's per-transfer overhead).
WINDOW_COST = 12

SSD1306_COLUMNADDR, SSD1306_PAGEADDR = 0x21, 0x22
SH1106_PAGE = 0xB0

#: The SH1106's RAM is 132 columns wide; a 128-column panel is wired to the middle
#: four short, so its column 0 is RAM column 2 (luma's default too; luma.oled 3.16 made it a parameter).
SH1106_COLUMN_OFFSET = 2

SSD1322_RAM_COLUMNS = 480  # pixels; a narrower panel is wired to the middle
SSD1322_COLUMNADDR, SSD1322_ROWADDR, SSD1322_WRITE_RAM = 0x15, 0x75, 0x5C


def ssd1306_first_column(width: int) -> int:
    """The SSD1306 RAM column (of 128) where a panel ``width`` pixels wide (unrotated) begins.

    The 64-pixel-wide modules (64x48, 64x32) are wired to the middle of the
    RAM, columns 32..95; every other size luma's SSD1306 takes (128x64,
    128x32, 96x16) starts at column 0, as luma's own set-up table has it.

    >>> ssd1306_first_column(128), ssd1306_first_column(96), ssd1306_first_column(64)
    (0, 0, 32)
    """
    return 32 if width == 64 else 0


def page_bytes(image: Image.Image, pages: int) -> list[bytes]:
    """A 1-bit frame as the controller's RAM holds it: per page, one byte per column.

    Bit n of column x's byte on page p is the pixel (x, 8p + n). Turning the
    frame a quarter clockwise makes each column a row whose packed bytes
    (``tobytes``, most significant bit first) run from the bottom page up, with
    the bottom pixel of each page in bit 7: exactly the controller's layout,
    interleaved. Slicing every ``pages``-th byte picks one page out.

    >>> frame = Image.new("1", (4, 16))
    >>> frame.putpixel((1, 0), 1); frame.putpixel((2, 15), 1)
    >>> [p.hex() for p in page_bytes(frame, 2)]
    ['00010000', '00008000']
    """
    raw = image.transpose(Image.Transpose.ROTATE_270).tobytes()
    return [raw[pages - 1 - p::pages] for p in range(pages)]


def changed_runs(old: bytes, new: bytes, width: int, merge_gap: int = WINDOW_COST) -> list[list[tuple[int, int]]]:
    """Per page, the half-open column ranges where ``new`` differs from ``old`` (both page after page).

    Runs on a page with at most ``merge_gap`` unchanged bytes between them are
    bridged. One XOR of the two frames as big integers marks every changed
    byte non-zero; per page, stripping and searching for a long enough stretch
    of zeros (all in C) finds the runs, without a Python loop over the bytes.

    >>> changed_runs(b"abcdefgh", b"aXcdefYh", width=8, merge_gap=1)
    [[(1, 2), (6, 7)]]
    >>> changed_runs(b"abcdefgh", b"aXcdefYh", width=8, merge_gap=4)
    [[(1, 7)]]
    >>> changed_runs(b"abcdefgh", b"abcXYfgh", width=4)
    [[(3, 4)], [(0, 1)]]
    """
    pages: list[list[tuple[int, int]]] = [[] for _ in range(len(new) // width)]
    if old == new:
        return pages
    diff = (int.from_bytes(old, "big") ^ int.from_bytes(new, "big")).to_bytes(len(new), "big")
    hole = bytes(max(0, merge_gap) + 1)
    for page, runs in enumerate(pages):
        row = diff[page * width:(page + 1) * width]
        end = len(row.rstrip(b"\x00"))
        if not end:
            continue
        start = width - len(row.lstrip(b"\x00"))
        while True:
            gap = row.find(hole, start, end)
            if gap < 0:
                runs.append((start, end))
                break
            runs.append((start, gap))
            start = end - len(row[gap:end].lstrip(b"\x00"))
    return pages


def plan_windows(runs: list[list[tuple[int, int]]], cost: int = WINDOW_COST) -> list[tuple[int, int, int, int]]:
    """The cheapest set of (first page, end page, first column, end column) windows covering ``runs``.

    ``runs[p]`` are page p's changed column ranges. A window of several pages
    covers the same columns on each, so it is used only where it costs less
    (``cost`` per window plus its bytes) than separate ones: a small dynamic
    programme over the pages.

    >>> plan_windows([[(0, 4)], [(0, 4)], [], []], cost=16)
    [(0, 2, 0, 4)]
    >>> plan_windows([[(0, 2), (60, 62)], [], [], [(0, 128)]], cost=16)
    [(0, 1, 0, 2), (0, 1, 60, 62), (3, 4, 0, 128)]
    """
    pages = len(runs)
    lows = [r[0][0] if r else -1 for r in runs]
    highs = [r[-1][1] if r else -1 for r in runs]
    best = [0] * (pages + 1)
    choice: list[int | None] = [None] * (pages + 1)  # where the last window starts (None: page skipped)
    for end in range(1, pages + 1):
        last = end - 1
        if lows[last] < 0:
            best[end], choice[end] = best[last], None
            continue
        cheapest = best[last] + sum(cost + b - a for a, b in runs[last])
        start_at, low, high = last, lows[last], highs[last]
        for start in range(last - 1, -1, -1):
            if lows[start] < 0:
                continue
            if lows[start] < low:
                low = lows[start]
            if highs[start] > high:
                high = highs[start]
            total = best[start] + cost + (end - start) * (high - low)
            if total < cheapest:
                cheapest, start_at = total, start
        best[end], choice[end] = cheapest, start_at
    windows: list[tuple[int, int, int, int]] = []
    end = pages
    while end > 0:
        start = choice[end]
        if start is None:
            end -= 1
            continue
        if start == end - 1:
            windows[:0] = [(start, end, a, b) for a, b in runs[start]]
        else:
            covered = [r for p in range(start, end) for r in runs[p]]
            windows.insert(0, (start, end, min(a for a, _ in covered), max(b for _, b in covered)))
        end = start
    return windows


class _Resends:
    """When to distrust what the panel holds, for every driver here: ``invalidate`` (each driver's own)
    after a failed command, after ``show()``, and for ``reinit()``, so the next frame goes out whole.
    ``frame_mode`` declares the frames the driver takes (hw.display.LumaDisplay reads it, never probes)."""

    frame_mode = "1"

    def __init__(self, serial_interface=None, **kwargs) -> None:
        if serial_interface is None:  # luma's own default, made here so that reinit talks to the same bus
            from luma.core.interface.serial import i2c

            serial_interface = i2c()
        self._bus = serial_interface  # for reinit: the same bus ...
        self._init_args = kwargs  # ... and the same set-up again
        super().__init__(serial_interface, **kwargs)

    def invalidate(self) -> None:
        """Forget what the panel holds: the next frame goes out whole."""
        raise NotImplementedError

    def command(self, *cmd: int) -> None:
        try:
            super().command(*cmd)
        except BaseException:
            self.invalidate()  # a broken transfer may have left the controller anywhere
            raise

    def show(self) -> None:
        """Switch the panel on (luma's), and send the next frame whole."""
        self.invalidate()
        super().show()

    def reinit(self) -> None:
        """Send luma's whole init sequence again, for a panel that lost power (and its set-up).

        Ends like the first start: RAM cleared, panel on, luma's default
        contrast; ``persist`` is kept. (luma's ``__init__`` registers its exit
        hook again, on this same device: ``cleanup`` at exit may run once per
        init, which is harmless.)
        """
        persist = self.persist
        self.invalidate()
        super().__init__(self._bus, **self._init_args)
        self.persist = persist


class _Partial(_Resends):
    """What the three 1-bit drivers share: the RAM copy and ``display``."""

    _ram: bytes | None = None  # what the controller's RAM holds, page after page (None: unknown)
    window_cost = WINDOW_COST

    def display(self, image: Image.Image) -> None:
        """Send the part of ``image`` (mode "1", the device's size) that differs from the panel's RAM."""
        if image.mode != self.mode or image.size != self.size:
            raise ValueError(f"frame is {image.mode} {image.size[0]}x{image.size[1]}, "
                             f"the display takes {self.mode} {self.width}x{self.height}")
        native = self.preprocess(image)  # turned as the panel is mounted: its size is the controller's view
        width, pages = native.width, native.height // 8
        new = b"".join(page_bytes(native, pages))
        old, self._ram = self._ram, None  # unknown until every write below went through
        if old is None:
            self._write_changes([[(0, width)]] * pages, new, width)
        else:
            self._write_changes(changed_runs(old, new, width, self.window_cost), new, width)
        self._ram = new

    def invalidate(self) -> None:
        """Forget what the panel holds: the next frame goes out whole."""
        self._ram = None

    def _write_changes(self, runs: list[list[tuple[int, int]]], new: bytes, width: int) -> None:
        """Send ``new``'s bytes (``width`` a page) in ``runs`` (per page, column ranges) to the controller."""
        raise NotImplementedError


class _Windowed(_Partial):
    """SSD1306 family: horizontal addressing through a column/page window."""

    def _write_changes(self, runs, new, width):
        start = ssd1306_first_column(width)
        for first, end, low, high in plan_windows(runs, self.window_cost):
            self.command(SSD1306_COLUMNADDR, start + low, start + high - 1,
                         SSD1306_PAGEADDR, first, end - 1)
            if low == 0 and high == width:
                self.data(new[first * width:end * width])
            else:
                self.data(b"".join(new[p * width + low:p * width + high] for p in range(first, end)))


class ssd1306(_Windowed, _luma_ssd1306):
    """luma's SSD1306, sending only what changed."""


class ssd1309(_Windowed, _luma_ssd1309):
    """luma's SSD1309 (the SSD1306 command set), sending only what changed."""


class sh1106(_Partial, _luma_sh1106):
    """luma's SH1106, sending only what changed, page by page.

    ``page_address_offset`` is the RAM column of the panel's column 0 (2 on
    the usual 132-column RAM); luma.oled from 3.16 takes it too and is handed
    the same value.
    """

    def __init__(self, serial_interface=None, *, page_address_offset: int = SH1106_COLUMN_OFFSET, **kwargs) -> None:
        self.page_address_offset = page_address_offset  # before luma's __init__, whose clear() displays a frame
        super().__init__(serial_interface, page_address_offset=page_address_offset, **kwargs)

    def _write_changes(self, runs, new, width):
        offset = self.page_address_offset
        for page, page_runs in enumerate(runs):
            for low, high in page_runs:
                column = offset + low
                self.command(SH1106_PAGE + page, column & 0x0F, 0x10 | column >> 4)
                self.data(new[page * width + low:page * width + high])


def grey_nibbles(image: Image.Image) -> bytes:
    """A grey frame (mode "L") as the SSD1322's RAM takes it: 4 bits a pixel, two a byte, the left one high.

    The level is the top four bits (255 -> 15; 0x66 -> 6). Pillow does it all:
    a lookup table, then the "P;4" packer, which packs exactly that way.

    >>> grey_nibbles(Image.frombytes("L", (4, 1), bytes([0, 0x66, 0xFF, 0x10]))).hex()
    '06f1'
    """
    levels = image.point(_TOP_NIBBLE)
    return Image.frombytes("P", image.size, levels.tobytes()).tobytes("raw", "P;4")


_TOP_NIBBLE = [v >> 4 for v in range(256)]


class ssd1322(_Resends, _luma_ssd1322):
    """luma's SSD1322 (256x64, 4-bit grey, SPI), taking the box's grey frames (mode "L") as well as luma's own.

    luma's greyscale devices already send only the changed bounding boxes
    (its ``diff_to_previous`` framebuffer, inflated to whole 4-pixel column
    addresses, through the column 0x15 / row 0x75 window and write-RAM 0x5C);
    for a mode "L" frame this keeps all of that and only replaces luma's
    per-pixel packing loop by :func:`grey_nibbles`. Frames in the device's own
    mode ("RGB" by default, or "1") go through luma's ``display`` unchanged.
    As for the other drivers, ``invalidate`` makes the next frame go out whole,
    a failed write or ``show()`` does so too, and ``reinit`` sends the init again.
    """

    frame_mode = "L"  # what the box hands over (hw.display.LumaDisplay converts other frames to it)

    def __init__(self, serial_interface=None, **kwargs) -> None:
        self._last_mode = self.frame_mode  # before luma's __init__, whose clear() displays a frame
        super().__init__(serial_interface, **kwargs)

    def display(self, image: Image.Image) -> None:
        """Send the changed boxes of ``image`` (mode "L", or the device's own mode, the device's size)."""
        if image.size != self.size or image.mode not in (self.frame_mode, self.mode):
            raise ValueError(f"frame is {image.mode} {image.size[0]}x{image.size[1]}, "
                             f"the display takes L or {self.mode} {self.width}x{self.height}")
        if image.mode != self._last_mode:  # the framebuffer compares like with like
            self.invalidate()
            self._last_mode = image.mode
        try:
            if image.mode != self.frame_mode:
                super().display(image)
                return
            image = self.preprocess(image)
            first = (SSD1322_RAM_COLUMNS - image.width) // 2  # the panel's column 0 in RAM
            for _, (left, top, right, bottom) in self.framebuffer.redraw(image):
                left, right = left & ~3, -(-right // 4) * 4  # whole column addresses: 4 pixels each
                self.command(SSD1322_COLUMNADDR, (first + left) // 4, (first + right) // 4 - 1)
                self.command(SSD1322_ROWADDR, top, bottom - 1)
                self.command(SSD1322_WRITE_RAM)
                self.data(grey_nibbles(image.crop((left, top, right, bottom))))
        except BaseException:
            self.invalidate()  # some of it may have landed: send the next frame whole
            raise

    def clear(self) -> None:
        """A dark frame (luma's, but through the fast path)."""
        self.display(Image.new(self.frame_mode, self.size))

    def invalidate(self) -> None:
        """Forget what the panel holds: the next frame goes out whole."""
        framebuffer = getattr(self, "framebuffer", None)  # none yet while luma's __init__ runs
        if hasattr(framebuffer, "prev_image"):
            framebuffer.prev_image = None


DRIVERS = {"ssd1306": ssd1306, "ssd1309": ssd1309, "sh1106": sh1106, "ssd1322": ssd1322}
