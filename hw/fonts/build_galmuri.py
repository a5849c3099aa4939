"""Regenerate the packed CJK glyph files in this folder from Galmuri's BDF fonts.

A dev tool, never imported at runtime (``make fonts``, or ``python -m
hw.fonts.build_galmuri`` from the repository root). The box draws Latin
text with Spleen and everything Spleen lacks (Hangul, kana, kanji, accented
letters in the small size...) with Galmuri (Lee Minseo, OFL-1.1), one
Galmuri size per Spleen size:

    small  5x8   <- Galmuri7      medium 6x12  <- Galmuri9
    large  8x16  <- Galmuri11     huge   12x24 <- Galmuri14

Pillow's own bitmap format holds 256 code points, so each size becomes one
``galmuri<N>.glyphs`` file (format in :mod:`hw.fonts.packed`): every glyph
already placed in its Spleen cell (same height, same baseline), so the
renderer pastes it without any arithmetic. Run with no arguments it fetches
the pinned npm release with ``npm pack`` into a temporary folder; pass
``--source DIR`` to use BDF files you already have. It prints, per size, the
glyph count, the file size and the glyphs whose ink had to be clipped to fit
the cell. Afterwards re-run the golden tests and look at ``--sample``.
"""

from __future__ import annotations

import argparse
import shutil
import struct
import subprocess
import tarfile
import tempfile
from pathlib import Path

from hw.fonts import packed  # the format lives beside its reader

HERE = Path(__file__).resolve().parent

VERSION = "2.40.3"  # the galmuri npm release these files come from
#: Spleen size name -> (Galmuri BDF stem, Spleen .pil stem).
SIZES = {
    "small": ("Galmuri7", "spleen-5x8"),
    "medium": ("Galmuri9", "spleen-6x12"),
    "large": ("Galmuri11", "spleen-8x16"),
    "huge": ("Galmuri14", "spleen-12x24"),
}

#: The code points we keep. Everything Galmuri has from U+00A0 up except the
#: blocks no player name or message needs (Galmuri's full CJK set is JIS X 0208
#: levels 1 and 2, about 6,400 kanji; keeping all of them costs little).
SKIP = (
    (0x0000, 0x009F),  # ASCII and C1 controls: Spleen draws ASCII
    (0xE000, 0xF8FF),  # private use
    (0xFE00, 0xFE0F),  # variation selectors
)


def wanted(cp: int) -> bool:
    return not any(lo <= cp <= hi for lo, hi in SKIP)


def read_bdf(path: Path) -> dict[int, tuple[int, int, int, int, int, list[int]]]:
    """code point -> (advance, width, height, xoff, yoff, rows as ints, MSB = leftmost pixel)."""
    glyphs: dict[int, tuple] = {}
    enc = adv = None
    bbx = (0, 0, 0, 0)
    rows: list[int] | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        key, _, rest = line.partition(" ")
        if rows is not None and key != "ENDCHAR":
            rows.append(int(line, 16))
        elif key == "ENCODING":
            enc = int(rest.split()[0])
        elif key == "DWIDTH":
            adv = int(rest.split()[0])
        elif key == "BBX":
            bbx = tuple(int(v) for v in rest.split())
        elif key == "BITMAP":
            rows = []
        elif key == "ENDCHAR":
            if enc is not None and enc >= 0 and adv is not None:
                w, h, _, _ = bbx
                nbytes = (w + 7) // 8
                glyphs[enc] = (adv, *bbx, [r >> (8 * nbytes - w) if nbytes else 0 for r in rows])
            enc = adv = rows = None
    return glyphs


def spleen_baseline(pil_stem: str) -> tuple[int, int]:
    """(cell height, baseline row) of a Spleen .pil font, from the metrics of "A"."""
    data = (HERE / f"{pil_stem}.pil").read_bytes()
    start = data.index(b"DATA\n") + 5
    metrics = struct.unpack(">2560h", data[start:start + 5120])
    a = metrics[ord("A") * 10:ord("A") * 10 + 10]
    return a[5] - a[3], -a[3]  # y1 - y0, -y0


def place(glyph, height: int, baseline: int) -> tuple[int, list[int], bool]:
    """The glyph in a cell ``advance`` wide and ``height`` tall: (advance, rows, clipped?)."""
    adv, w, h, xoff, yoff, rows = glyph
    cell = [0] * height
    clipped = False
    top = baseline - yoff - h  # cell row of the bitmap's first row
    for i, bits in enumerate(rows):
        y = top + i
        for x in range(w):
            if not bits >> (w - 1 - x) & 1:
                continue
            px = xoff + x
            if 0 <= y < height and 0 <= px < adv:
                cell[y] |= 1 << (adv - 1 - px)
            else:
                clipped = True
    return adv, cell, clipped


def convert(size: str, source: Path, out_dir: Path = HERE) -> Path:
    stem, pil = SIZES[size]
    height, baseline = spleen_baseline(pil)
    glyphs = read_bdf(source / f"{stem}.bdf")
    placed, clipped = {}, []
    for cp in sorted(glyphs):
        if not wanted(cp) or glyphs[cp][0] <= 0:
            continue  # zero-advance (combining) glyphs cannot stand alone in a cell
        adv, cell, cut = place(glyphs[cp], height, baseline)
        placed[cp] = (adv, cell)
        if cut:
            clipped.append(cp)
    target = out_dir / f"{stem.lower()}.glyphs"
    target.write_bytes(packed.pack(placed, height, f"{stem} {VERSION} (OFL-1.1) in the {size} Spleen cell"))
    kinds = {name: sum(1 for cp in placed if lo <= cp <= hi) for name, (lo, hi) in
             {"hangul": (0xAC00, 0xD7A3), "kana": (0x3040, 0x30FF), "kanji": (0x4E00, 0x9FFF)}.items()}
    print(f"{target.name}: {len(placed)} glyphs ({', '.join(f'{v} {k}' for k, v in kinds.items())}), "
          f"{target.stat().st_size:,} bytes; ink clipped to the {height}-row cell in {len(clipped)} "
          f"({' '.join(chr(cp) for cp in clipped[:12])}{' ...' if len(clipped) > 12 else ''})")
    return target


def fetch(tmp: Path) -> Path:
    """``npm pack`` the pinned release into ``tmp``; the folder holding its BDF files."""
    subprocess.run(["npm", "pack", f"galmuri@{VERSION}", "--silent"], cwd=tmp, check=True,
                   stdout=subprocess.DEVNULL)
    with tarfile.open(tmp / f"galmuri-{VERSION}.tgz") as tar:
        tar.extractall(tmp, filter="data")
    return tmp / "package" / "dist"


def sample(path: Path) -> None:
    """Mixed text in every size onto one 1-bit image, for eyeballing."""
    from PIL import Image

    from hw import glyphs

    line = "Red 7: 확보 ランナー 確保 É"
    image = Image.new("1", (glyphs.text_width(line, "huge") + 4, 2 + 8 + 12 + 16 + 24 + 8))
    y = 2
    for size, pitch in (("small", 8), ("medium", 12), ("large", 16), ("huge", 24)):
        glyphs.draw_text(image, (2, y), line, size)
        y += pitch + 2
    image.save(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, help="a folder with Galmuri7/9/11/14.bdf and LICENSE.txt")
    parser.add_argument("--sample", type=Path, help="only render a sample PNG of the shipped glyphs")
    args = parser.parse_args()
    if args.sample:
        sample(args.sample)
        return
    with tempfile.TemporaryDirectory() as tmp:
        source = args.source or fetch(Path(tmp))
        for size in SIZES:
            convert(size, source)
        shutil.copyfile(source / "LICENSE.txt", HERE / "LICENSE-galmuri.txt")


if __name__ == "__main__":
    main()
