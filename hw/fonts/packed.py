"""A compact file of fixed-height 1-bit glyphs, indexed by code point and read lazily.

Pillow's ``.pil`` bitmap fonts hold 256 code points; Hangul alone has 11,172
syllables. A ``.glyphs`` file (written by ``build_galmuri.py``) holds any
number, each glyph a cell ``height`` rows tall and ``advance`` pixels wide,
already placed on the baseline of the Spleen size it goes with. Layout, all
little-endian:

    b"CSGLYPH1"
    u16 height, u16 row_bytes, u32 count, u16 block_size, u16 note_length
    note (UTF-8: where the glyphs come from)
    u32 index_length, zlib(u32 code points x count (ascending), u8 advances x count)
    u32 offsets x (blocks + 1), relative to the first block
    blocks: zlib(block_size glyphs x height rows x row_bytes, MSB = leftmost pixel)

Opening a file reads only the header and the index (a few tens of kilobytes
for twenty thousand glyphs); a block of glyph bitmaps is inflated the first
time one of its glyphs is drawn.
"""

from __future__ import annotations

import struct
import zlib
from array import array
from bisect import bisect_left
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # Pillow only to draw a glyph: reading the index (advances, coverage) needs none
    from PIL import Image

MAGIC = b"CSGLYPH1"
HEADER = struct.Struct("<HHIHH")
BLOCK_SIZE = 128
#: Glyph images kept ready per file; past this the cache starts again (a screen uses a few dozen).
MAX_CACHED = 2048


class FormatError(ValueError):
    """The bytes are not a glyph file this reader understands."""


def _u32() -> array:
    for code in ("I", "L"):
        if array(code).itemsize == 4:
            return array(code)
    raise RuntimeError("no 4-byte unsigned array type")  # pragma: no cover


def pack(glyphs: dict[int, tuple[int, list[int]]], height: int, note: str = "") -> bytes:
    """``{code point: (advance, rows)}`` (each row an int, bit ``advance - 1`` = leftmost) as file bytes."""
    cps = sorted(glyphs)
    row_bytes = max(1, (max((glyphs[cp][0] for cp in cps), default=1) + 7) // 8)
    points, advances = _u32(), array("B")
    points.extend(cps)
    advances.extend(glyphs[cp][0] for cp in cps)
    if points.itemsize == 4 and struct.pack("=I", 1) != struct.pack("<I", 1):
        points.byteswap()  # pragma: no cover (big-endian build machine)
    index = zlib.compress(points.tobytes() + advances.tobytes(), 9)
    blocks = []
    for start in range(0, len(cps), BLOCK_SIZE):
        raw = bytearray()
        for cp in cps[start:start + BLOCK_SIZE]:
            adv, rows = glyphs[cp]
            if len(rows) != height:
                raise ValueError(f"U+{cp:04X} has {len(rows)} rows, not {height}")
            for row in rows:
                raw += (row << (8 * row_bytes - adv)).to_bytes(row_bytes, "big")
        blocks.append(zlib.compress(bytes(raw), 9))
    offsets = [0]
    for block in blocks:
        offsets.append(offsets[-1] + len(block))
    note_bytes = note.encode()
    return b"".join([
        MAGIC, HEADER.pack(height, row_bytes, len(cps), BLOCK_SIZE, len(note_bytes)), note_bytes,
        struct.pack("<I", len(index)), index, struct.pack(f"<{len(offsets)}I", *offsets), *blocks,
    ])


class GlyphFile:
    """The glyphs of one ``.glyphs`` file; ``glyph(cp)`` gives (advance, mode "1" image) or None."""

    def __init__(self, data: bytes) -> None:
        if data[:8] != MAGIC:
            raise FormatError("not a glyph file (bad magic)")
        try:
            self.height, self.row_bytes, count, self.block_size, note_len = HEADER.unpack_from(data, 8)
            at = 8 + HEADER.size
            self.note = data[at:at + note_len].decode()
            at += note_len
            (index_len,) = struct.unpack_from("<I", data, at)
            index = zlib.decompress(data[at + 4:at + 4 + index_len])
            at += 4 + index_len
            blocks = -(-count // self.block_size)
            self._offsets = struct.unpack_from(f"<{blocks + 1}I", data, at)
            self._base = at + 4 * (blocks + 1)
        except (struct.error, zlib.error, UnicodeDecodeError) as e:
            raise FormatError(f"damaged glyph file: {e}") from None
        if len(index) != 5 * count or self._base + self._offsets[-1] != len(data):
            raise FormatError("damaged glyph file: sizes do not add up")
        self.points = _u32()
        self.points.frombytes(index[:4 * count])
        if struct.pack("=I", 1) != struct.pack("<I", 1):
            self.points.byteswap()  # pragma: no cover
        self.advances = index[4 * count:]
        self._data = data
        self._blocks: dict[int, bytes] = {}
        self._images: dict[int, tuple[int, Image.Image]] = {}

    def __len__(self) -> int:
        return len(self.points)

    def __contains__(self, cp: int) -> bool:
        return self._find(cp) is not None

    def _find(self, cp: int) -> int | None:
        k = bisect_left(self.points, cp)
        return k if k < len(self.points) and self.points[k] == cp else None

    def advance(self, cp: int) -> int | None:
        """The pixel advance of ``cp``, or None when the file has no glyph for it."""
        k = self._find(cp)
        return None if k is None else self.advances[k]

    def glyph(self, cp: int) -> tuple[int, Image.Image] | None:
        """(advance, the glyph as a mode "1" image ``advance`` x ``height``), or None."""
        hit = self._images.get(cp)
        if hit is not None:
            return hit
        k = self._find(cp)
        if k is None:
            return None
        block, i = divmod(k, self.block_size)
        raw = self._blocks.get(block)
        if raw is None:
            start, end = self._offsets[block], self._offsets[block + 1]
            raw = self._blocks[block] = zlib.decompress(self._data[self._base + start:self._base + end])
        stride = self.row_bytes * self.height
        adv = self.advances[k]
        bits = raw[i * stride:(i + 1) * stride]
        from PIL import Image

        image = Image.frombytes("1", (adv, self.height), bits, "raw", "1", self.row_bytes) if adv else None
        if len(self._images) >= MAX_CACHED:
            self._images.clear()  # a name in a thousand different characters must not grow memory
        self._images[cp] = hit = (adv, image)
        return hit
