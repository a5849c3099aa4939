"""Measuring text without Pillow: hw.textfit agrees with what hw.glyphs draws, and loads no Pillow."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from hw import glyphs, textfit
from hw.fonts import build_fonts
from hw.fonts.inked import INKED

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("size", textfit.SIZES)
def test_textfit_knows_the_characters_spleen_really_draws(size):
    # the table is what Pillow draws with ink in the shipped fonts: a font changed without
    # `build_fonts.py --inked` fails here instead of measuring names wrong
    assert textfit.spleen_chars(size) == glyphs.drawn_spleen_chars(size)
    assert "A" in textfit.spleen_chars(size) and "\x07" not in textfit.spleen_chars(size)


def test_textfit_table_is_what_the_font_tool_writes():
    assert build_fonts.inked_source() == (ROOT / "hw/fonts/inked.py").read_text(encoding="utf-8")
    assert set(INKED) == set(textfit.SIZES)


def test_textfit_ranges_are_inclusive_runs():
    assert build_fonts.ranges([40, 32, 33, 34]) == ((32, 34), (40, 40))
    assert build_fonts.ranges([]) == ()


@pytest.mark.parametrize("text", ["Red rolls", "Zoë", "빨강 차례: 7열 +2칸", "赤の手番 ランナー", "A\u0378B\U0001F600C"])
@pytest.mark.parametrize("size", textfit.SIZES)
def test_textfit_measures_what_glyphs_draws(text, size):
    # the drawn text's width is the measured one (hw.glyphs draws; hw.textfit only counts)
    from PIL import Image

    image = Image.new("1", (400, 40))
    assert glyphs.draw_text(image, (0, 0), text, size) == textfit.text_width(text, size)


def test_textfit_loads_no_pillow():
    code = "import sys, hw.textfit, firmware.layout\nprint('\\n'.join(sys.modules))\n"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    loaded = done.stdout.split()
    assert "hw.textfit" in loaded and "hw.fonts.packed" in loaded
    assert [m for m in loaded if m.split(".")[0] == "PIL"] == []
