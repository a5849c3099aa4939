"""The caption beside the bust chance ("bust if you / roll again") is read at arm's length, on every panel (issue 32, item 7).

Its glyphs are measured as drawn (each caption line drawn alone, the height of its ink): at least
``ARM_LENGTH`` rows on every page it is on, at 128x32, 128x64 and 256x64, in English, Japanese and Korean,
with one runner or two and a chance of one to five characters. The move text and the chance keep their
fonts (the team's decision: legibility wins over bytes on the bus): where the caption does not fit beside
the chance under the runners, it goes on a page of its own with the chance, and the frame flips.
"""

from __future__ import annotations

import pytest
from PIL import Image

from firmware import words
from firmware.devtools.samples import LANGUAGES, SAMPLES_AT
from firmware.screens import render_traced
from firmware.views import MoveView, RunnerMove
from hw import fonts, glyphs

SIZES = [(128, 32), (128, 64), (256, 64)]
#: The fewest rows of ink a caption line may have: Galmuri9's kana and Hangul (the medium font) have 9,
#: Spleen's medium Latin 10 or 11; the small font's 7 (Galmuri7) or 8 (Spleen 5x8) are read from a chair, not
#: from across the table.
ARM_LENGTH = 9
PLAIN = ["move_two_steps", "move_top", "move_double", "move_speedy"]


def _made(lang: str, columns: tuple[int, ...], bust: float) -> MoveView:
    """A plain move (a stop allowed, no box seat) of runners on ``columns`` with the chance ``bust``."""
    w = words.language(lang)
    steps = tuple(RunnerMove(c, 3, False, False) for c in columns)
    return MoveView(w.colour("Red"), 0, steps, bust, True, 3 - len(columns), keys=w.KEYS["roll_or_stop"], lang=lang)


def _ink_rows(text: str, font: str) -> int:
    """How many rows of ink ``text`` has, drawn alone in ``font``."""
    image = Image.new("1", (glyphs.text_width(text, font) + 4, fonts.CELLS[font][1] + 4), 0)
    glyphs.draw_text(image, (0, 0), text, font, 1)
    box = image.getbbox()
    return 0 if box is None else box[3] - box[1]


def caption_heights(view: MoveView, size) -> dict[str, list[int]]:
    """Each caption line -> the ink height of every drawing of it, over the frame's pages."""
    caption = words.language(view.lang).SCREEN["bust_if"]
    drawn = {line: [] for line in caption}
    for t in render_traced(view, size).texts:
        if t.text in drawn:
            drawn[t.text].append(_ink_rows(t.text, t.font))
    return drawn


CASES = [(name, lang) for name in PLAIN for lang in LANGUAGES]
MADE = [((7,), 0.0), ((7,), 0.077), ((12,), 0.4405), ((7, 9), 0.239), ((2, 12), 1.0), ((6, 8), 0.077)]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name, lang", CASES)
def test_bust_caption_is_read_at_arms_length_in_the_samples(size, name, lang):
    heights = caption_heights(SAMPLES_AT[size][lang][name], size)
    assert all(heights.values()), heights  # both lines are on some page
    assert min(h for line in heights.values() for h in line) >= ARM_LENGTH, heights


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("columns, bust", MADE)
def test_bust_caption_is_read_at_arms_length_with_any_runners_and_chance(size, lang, columns, bust):
    heights = caption_heights(_made(lang, columns, bust), size)
    assert all(heights.values()), heights
    assert min(h for line in heights.values() for h in line) >= ARM_LENGTH, heights


@pytest.mark.parametrize("size", [(128, 64), (256, 64)])
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("columns, bust", MADE)
def test_move_text_and_chance_keep_their_fonts(size, lang, columns, bust):
    """The runners' instructions stay medium and the chance huge, on every page the frame has."""
    view = _made(lang, columns, bust)
    w = words.language(lang)
    said = {w.runner_step(s.step, s.new, s.top, s.jumped) for s in view.steps}
    texts = render_traced(view, size).texts
    assert {t.font for t in texts if t.text in said} == {"medium"}
    assert {t.font for t in texts if t.text == w.percent(bust)} == {"huge"}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("columns, bust", MADE)
def test_128x32_chance_is_large_beside_its_caption_on_the_page_after_the_runners(lang, columns, bust):
    """The top bar says "bust 23.9%" with the runners; the next page the chance in the large font, the caption
    beside it, and the legend."""
    view = _made(lang, columns, bust)
    traced = render_traced(view, (128, 32))
    w = words.language(lang)
    assert len(traced.pages) == 2
    assert w.bust_status(bust) in {t.text for t in traced.texts if t.page == 0}
    second = {(t.text, t.font) for t in traced.texts if t.page == 1}
    assert (w.percent(bust), "large") in second
    assert {(line, "medium") for line in w.SCREEN["bust_if"]} <= second
