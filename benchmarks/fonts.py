"""Glyph benchmark: what the Galmuri glyph files cost on disk, at start-up and per frame.

Figures (each import in a fresh interpreter, best of ``--runs``):

- the size of each ``hw/fonts/galmuri*.glyphs`` file;
- importing ``hw.glyphs`` and opening all four files (the index only);
- the first Japanese and Korean lines drawn (blocks inflated on demand);
- a warm line of mixed text, as every later frame draws it;
- resident memory after drawing every Hangul syllable in every size (the
  worst a roster of names could ask for).

The issue's targets are start-up and press-to-frame no slower than English
(``benchmarks/startup.py``, ``benchmarks/box.py``) and under 60 MB resident
with Japanese or Korean; these figures say where the glyphs stand in that.

Run: ``make bench`` or ``.venv/bin/python -m benchmarks.fonts [--runs N]``.
"""

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

COLD = r"""
import time
t0 = time.perf_counter()
from PIL import Image
from hw import fonts, glyphs
for size in glyphs.SIZES:
    fonts.load(size)  # the Spleen fonts: English pays this too
t1 = time.perf_counter()
for size in glyphs.SIZES:
    glyphs.galmuri(size)
t2 = time.perf_counter()
image = Image.new("1", (128, 64))
glyphs.draw_text(image, (0, 0), "赤の手番: ランナーを7列の3へ", "medium")
t3 = time.perf_counter()
glyphs.draw_text(image, (0, 12), "빨강의 턴: 검정색 말을 7열 3칸으로", "medium")
t4 = time.perf_counter()
for _ in range(200):
    glyphs.draw_text(image, (0, 24), "Red 확보 確保 23.9%", "small")
t5 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t2, t4 - t3, (t5 - t4) / 200)
"""

MEMORY = r"""
import resource
from PIL import Image
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
from hw import glyphs
image = Image.new("1", (128, 64))
for size in glyphs.SIZES:
    for start in range(0xAC00, 0xD7A4, 16):
        glyphs.draw_text(image, (0, 0), "".join(map(chr, range(start, min(start + 16, 0xD7A4)))), size)
print(before, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def run(code: str) -> list[float]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT, env=env)
    return [float(v) for v in out.stdout.split()]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args(argv)
    files = sorted((ROOT / "hw" / "fonts").glob("galmuri*.glyphs"), key=lambda p: int(p.stem[7:]))
    sizes = ", ".join(f"{p.name} {p.stat().st_size / 1024:.0f} KB" for p in files)
    print(f"glyph files: {sizes}; total {sum(p.stat().st_size for p in files) / 1024:.0f} KB")
    best = [min(column) for column in zip(*(run(COLD) for _ in range(args.runs)))]
    ms = [f"{v * 1000:.1f} ms" for v in best]
    print(f"import hw.glyphs and load Spleen (as English does): {ms[0]}; open the four glyph files: {ms[1]}")
    print(f"first Japanese line drawn: {ms[2]}; first Korean line: {ms[3]} (best of {args.runs})")
    print(f"a warm mixed line (small): {best[4] * 1e6:.0f} us")
    before, after = run(MEMORY)
    print(f"resident memory: {before / 1024:.1f} MB at start, {after / 1024:.1f} MB peak after every Hangul "
          f"syllable in all four sizes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
