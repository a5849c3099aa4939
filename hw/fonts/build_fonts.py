"""Regenerate the Pillow bitmap fonts in this folder from Debian's Spleen PCFs.

A dev tool, never imported at runtime. The committed ``.pil`` + ``.pbm``
pairs are what the box loads, so a Pillow upgrade cannot change our glyphs
(golden PNGs stay valid). Run it only to add a size or move to a newer Spleen:

    sudo apt-get install -y fonts-spleen
    .venv/bin/python hw/fonts/build_fonts.py

then look at ``build_fonts.py --sample out.png`` and re-run the golden tests.
It also rewrites ``inked.py`` (which characters each size draws, so measuring
text needs no Pillow); ``build_fonts.py --inked`` rewrites only that.
Spleen is BSD-2-Clause (Frederic Cambus); LICENSE-spleen.txt is copied from
/usr/share/doc/fonts-spleen/copyright.
"""

from __future__ import annotations

import argparse
import gzip
import io
import shutil
from pathlib import Path

from PIL import PcfFontFile

SOURCE_DIR = Path("/usr/share/fonts/X11/misc")
LICENSE_SOURCE = Path("/usr/share/doc/fonts-spleen/copyright")
HERE = Path(__file__).resolve().parent

# Cell sizes we ship; the names hw.fonts.load() uses live in __init__.py.
SIZES = ("5x8", "6x12", "8x16", "12x24")


def convert(size: str, out_dir: Path = HERE) -> Path:
    """Convert one Spleen PCF (gzip'd, as Debian ships it) to .pil + .pbm."""
    source = SOURCE_DIR / f"spleen-{size}.pcf.gz"
    # PcfFontFile seeks around the file: hand it an in-memory copy.
    data = gzip.decompress(source.read_bytes())
    font = PcfFontFile.PcfFontFile(io.BytesIO(data), charset_encoding="iso8859-1")
    target = out_dir / f"spleen-{size}.pil"
    font.save(str(target))  # writes spleen-<size>.pil and spleen-<size>.pbm
    return target


def sample(path: Path) -> None:
    """Render every shipped size onto one 1-bit image, for eyeballing."""
    from PIL import Image, ImageDraw, ImageFont

    lines = [(size, ImageFont.load(str(HERE / f"spleen-{size}.pil"))) for size in SIZES]
    height = sum(int(size.split("x")[1]) + 4 for size, _ in lines) + 4
    image = Image.new("1", (400, height))
    draw = ImageDraw.Draw(image)
    y = 2
    for size, font in lines:
        draw.text((2, y), f"{size} Roll 7 8 Stop! Bust 12", font=font, fill=1)
        y += int(size.split("x")[1]) + 4
    image.save(path)


def ranges(codes) -> tuple[tuple[int, int], ...]:
    """Sorted code points as inclusive runs: [32, 33, 34, 40] -> ((32, 34), (40, 40))."""
    runs: list[list[int]] = []
    for cp in sorted(codes):
        if runs and runs[-1][1] == cp - 1:
            runs[-1][1] = cp
        else:
            runs.append([cp, cp])
    return tuple((a, b) for a, b in runs)


def inked_source() -> str:
    """``inked.py`` for the shipped fonts: the table :mod:`hw.textfit` measures with, drawn by Pillow here."""
    from hw import glyphs

    target = HERE / "inked.py"
    text = target.read_text(encoding="utf-8")
    head = text[:text.index("INKED = {")]
    rows = "".join(f'    "{size}": {ranges(map(ord, glyphs.drawn_spleen_chars(size)))!r},\n' for size in glyphs.SIZES)
    return head + "INKED = {\n" + rows + "}\n"


def write_inked() -> Path:
    target = HERE / "inked.py"
    target.write_text(inked_source(), encoding="utf-8")
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=Path, help="only render a sample PNG of the shipped fonts")
    parser.add_argument("--inked", action="store_true", help="only rewrite inked.py from the shipped fonts")
    args = parser.parse_args()
    if args.sample:
        sample(args.sample)
        return
    if args.inked:
        print("wrote", write_inked())
        return
    for size in SIZES:
        print("wrote", convert(size))
    print("wrote", write_inked())
    shutil.copyfile(LICENSE_SOURCE, HERE / "LICENSE-spleen.txt")


if __name__ == "__main__":
    main()
