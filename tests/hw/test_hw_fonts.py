"""The pinned Spleen bitmap fonts load from the package and render fixed cells."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw, ImageFont

from hw import fonts


@pytest.mark.parametrize(("name", "cell"), [("small", (5, 8)), ("medium", (6, 12)), ("large", (8, 16)), ("huge", (12, 24))])
def test_fonts_load_fixed_cells(name, cell):
    font = fonts.load(name)
    assert isinstance(font, ImageFont.ImageFont)
    assert fonts.CELLS[name] == cell
    width, height = cell
    assert font.getbbox("M") == (0, 0, width, height)
    assert font.getlength("Roll 7") == 6 * width
    assert font.getbbox("Stop!") == (0, 0, 5 * width, height)


def test_fonts_load_is_cached():
    assert fonts.load("medium") is fonts.load("medium")


def test_fonts_unknown_name_lists_valid_ones():
    with pytest.raises(ValueError, match="small, medium, large, huge"):
        fonts.load("tiny")


def test_fonts_render_crisp_one_bit_glyphs():
    image = Image.new("1", (128, 64))
    ImageDraw.Draw(image).text((0, 0), "I", font=fonts.load("large"), fill=1)
    assert image.getbbox() is not None
    left, top, right, bottom = image.getbbox()
    assert right <= 8 and bottom <= 16  # inside one 8x16 cell
    # Bitmap fonts on a 1-bit image: only on/off pixels, no antialiasing.
    assert set(image.convert("L").tobytes()) <= {0, 255}


def test_fonts_text_is_pixel_exact_across_calls():
    def render() -> bytes:
        image = Image.new("1", (128, 64))
        ImageDraw.Draw(image).text((3, 5), "Bust! 2-12", font=fonts.load("small"), fill=1)
        return image.tobytes()

    assert render() == render()


def test_fonts_license_ships_with_fonts():
    from importlib import resources

    text = (resources.files("hw.fonts") / "LICENSE-spleen.txt").read_text()
    assert "Frederic Cambus" in text and "BSD-2-clause" in text


def test_fonts_load_from_zipped_package(tmp_path, monkeypatch):
    import zipfile
    from importlib import resources

    archive = tmp_path / "fonts.zip"
    folder = resources.files("hw.fonts")
    with zipfile.ZipFile(archive, "w") as zf:
        for suffix in (".pil", ".pbm"):
            zf.writestr(f"hw/fonts/spleen-5x8{suffix}", (folder / f"spleen-5x8{suffix}").read_bytes())
    monkeypatch.setattr(fonts.resources, "files", lambda package: zipfile.Path(archive, "hw/fonts/"))
    font = fonts.load.__wrapped__("small")  # bypass the cache
    assert font.getbbox("M") == (0, 0, 5, 8)
