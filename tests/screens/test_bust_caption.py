"""The caption beside the bust chance ("bust if you / roll again") is read at arm's length: medium where it fits.

It is drawn in the medium font wherever both its lines fit beside the chance and under the runners (the wide
screen's move, whose left column goes down to the last row, in English and Korean, and on 128x64 a move of one
runner with a short chance or short words), else in the small font (two runners on 128x64 leave 16 rows). 128x32 says the chance in its top bar: no caption to grow.
"""

from __future__ import annotations

import pytest

from firmware import words
from firmware.devtools.samples import SAMPLES_AT
from firmware.screens import render_traced


def _caption_fonts(size, lang, name) -> set[str]:
    caption = set(words.language(lang).SCREEN["bust_if"])
    return {t.font for t in render_traced(SAMPLES_AT[size][lang][name], size).texts if t.text in caption}


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("name", ["move_two_steps", "move_top", "move_double", "move_speedy"])
def test_wide_move_caption_is_medium(lang, name):
    assert _caption_fonts((256, 64), lang, name) == {"medium"}


def test_wide_japanese_caption_is_medium_beside_a_short_chance():
    """"バーストする確率" is 80 pixels in the medium font: beside "0%" in the wide screen's left column, not
    beside "44.0%" (68 pixels left there, the board beside it)."""
    assert _caption_fonts((256, 64), "ja", "move_double") == {"medium"}
    assert _caption_fonts((256, 64), "ja", "move_top") == {"small"}


@pytest.mark.parametrize("lang, name", [("en", "move_double"), ("ja", "move_double"), ("ko", "move_double"),
                                        ("ko", "move_top")])
def test_128x64_caption_is_medium_where_it_fits(lang, name):
    assert _caption_fonts((128, 64), lang, name) == {"medium"}


def test_128x64_caption_of_two_runners_stays_small():
    assert _caption_fonts((128, 64), "en", "move_two_steps") == {"small"}
