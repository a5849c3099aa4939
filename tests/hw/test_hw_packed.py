"""The packed glyph file: what goes in comes out pixel for pixel, read lazily, and damage is refused."""

from __future__ import annotations

import pytest

from hw.fonts import packed


def _glyphs(n: int = 300) -> dict[int, tuple[int, list[int]]]:
    """``n`` made-up glyphs 3..12 wide and 5 rows tall, each with its own pattern."""
    out = {}
    for i in range(n):
        adv = 3 + i % 10
        out[0xAC00 + 3 * i] = (adv, [(i * 7 + r * 13) % (1 << adv) for r in range(5)])
    return out


def _pixels(image) -> list[int]:
    w, h = image.size
    return [sum(1 << (w - 1 - x) for x in range(w) if image.getpixel((x, y))) for y in range(h)]


def test_packed_round_trip_every_glyph():
    source = _glyphs()
    font = packed.GlyphFile(packed.pack(source, 5, "test glyphs"))
    assert len(font) == len(source) and font.height == 5 and font.note == "test glyphs"
    for cp, (adv, rows) in source.items():
        got_adv, image = font.glyph(cp)
        assert got_adv == adv == font.advance(cp) and image.size == (adv, 5) and image.mode == "1"
        assert _pixels(image) == rows, hex(cp)


def test_packed_absent_code_points():
    font = packed.GlyphFile(packed.pack(_glyphs(10), 5))
    for cp in (0, 0xAC01, 0xAC00 + 3 * 10, 0x10FFFF):
        assert cp not in font and font.glyph(cp) is None and font.advance(cp) is None
    assert 0xAC00 in font


def test_packed_opening_inflates_no_block_until_a_glyph_is_drawn():
    font = packed.GlyphFile(packed.pack(_glyphs(3 * packed.BLOCK_SIZE), 5))
    assert font._blocks == {}
    font.glyph(0xAC00 + 3 * (packed.BLOCK_SIZE + 1))
    assert set(font._blocks) == {1}


def test_packed_image_cache_is_bounded(monkeypatch):
    monkeypatch.setattr(packed, "MAX_CACHED", 50)
    font = packed.GlyphFile(packed.pack(_glyphs(300), 5))
    for cp in _glyphs(300):
        font.glyph(cp)
    assert 0 < len(font._images) <= 50


@pytest.mark.parametrize("damage", [
    lambda b: b"NOTGLYPH" + b[8:],
    lambda b: b[:-1],
    lambda b: b[:20],
    lambda b: b + b"\0",
])
def test_packed_damaged_file_is_refused_with_a_clear_error(damage):
    data = packed.pack(_glyphs(20), 5)
    with pytest.raises(packed.FormatError, match="glyph file"):
        packed.GlyphFile(damage(data))


def test_packed_rows_must_match_the_height():
    with pytest.raises(ValueError, match="rows, not 5"):
        packed.pack({0x41: (4, [1, 2, 3])}, 5)
